//! `llm.toml`: named providers and which one is the default. Keys are never
//! stored here, only the name of the environment variable that holds one.
//!
//! ```toml
//! default = "claude"
//! [providers.claude]
//! kind = "anthropic"
//! endpoint = "https://api.anthropic.com"
//! model = "claude-sonnet-4-5"
//! api_key_env = "ANTHROPIC_API_KEY"
//! [providers.local]
//! kind = "openai"            # also vLLM, llama.cpp server, Ollama
//! endpoint = "http://127.0.0.1:8000"
//! model = "qwen2.5-coder"
//! ```
//!
//! Per provider, optional: `max_tokens` (8192), `temperature` (not sent),
//! `timeout_s` (180), `max_retries` (4), `backoff_ms` (1000, doubling, with
//! jitter), `max_backoff_s` (60, also caps Retry-After). At the top level:
//! `tool_rounds` (8).

use super::error::LlmError;
use super::key::ApiKey;
use super::retry::RetryPolicy;
use crate::paths::Paths;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Tool-call rounds an agent may take before it must answer, unless llm.toml says otherwise.
pub const DEFAULT_TOOL_ROUNDS: u32 = 8;

/// Environment variable that names another config file.
pub const CONFIG_ENV: &str = "KWB_LLM_CONFIG";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProviderKind {
    /// `/v1/chat/completions`: OpenAI, vLLM, llama.cpp, Ollama and most local servers.
    Openai,
    /// `/v1/messages`.
    Anthropic,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProviderConfig {
    pub kind: ProviderKind,
    /// Base URL, e.g. `https://api.openai.com` or `http://127.0.0.1:8000/v1`.
    pub endpoint: String,
    pub model: String,
    /// Name of the environment variable holding the key; none for local servers without auth.
    #[serde(default)]
    pub api_key_env: Option<String>,
    #[serde(default = "defaults::max_tokens")]
    pub max_tokens: u32,
    /// Left out: the provider's own default is used and none is sent, which
    /// reasoning models that accept only their fixed temperature need.
    #[serde(default)]
    pub temperature: Option<f32>,
    #[serde(default = "defaults::timeout_s")]
    pub timeout_s: f64,
    #[serde(default = "defaults::max_retries")]
    pub max_retries: u32,
    /// First back-off; it doubles per retry, with jitter.
    #[serde(default = "defaults::backoff_ms")]
    pub backoff_ms: u64,
    /// Longest single wait, also for a server's Retry-After.
    #[serde(default = "defaults::max_backoff_s")]
    pub max_backoff_s: f64,
}

mod defaults {
    pub fn max_tokens() -> u32 {
        8192
    }
    pub fn timeout_s() -> f64 {
        180.0
    }
    pub fn max_retries() -> u32 {
        4
    }
    pub fn backoff_ms() -> u64 {
        1000
    }
    pub fn max_backoff_s() -> f64 {
        60.0
    }
    pub fn tool_rounds() -> u32 {
        super::DEFAULT_TOOL_ROUNDS
    }
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LlmConfig {
    /// The provider used when none is named.
    #[serde(default)]
    pub default: Option<String>,
    /// How many tool-call rounds an agent may take before it must answer.
    #[serde(default = "defaults::tool_rounds")]
    pub tool_rounds: u32,
    #[serde(default)]
    pub providers: BTreeMap<String, ProviderConfig>,
}

impl ProviderConfig {
    pub fn retry_policy(&self) -> RetryPolicy {
        RetryPolicy {
            max_retries: self.max_retries,
            backoff: Duration::from_millis(self.backoff_ms),
            max_backoff: Duration::from_secs_f64(self.max_backoff_s),
            timeout: Duration::from_secs_f64(self.timeout_s),
        }
    }

    /// Reads the key named by `api_key_env` through `lookup` (the environment, in production).
    pub fn api_key(&self, provider: &str, lookup: impl Fn(&str) -> Option<String>) -> Result<Option<ApiKey>, LlmError> {
        let Some(var) = &self.api_key_env else { return Ok(None) };
        match lookup(var) {
            Some(k) if !k.trim().is_empty() => Ok(Some(ApiKey::new(k.trim()))),
            _ => Err(LlmError::Config(format!(
                "provider `{provider}` reads its API key from the environment variable {var}, which is not set; export {var}=... or change `api_key_env` in llm.toml"
            ))),
        }
    }

    fn problems(&self, name: &str) -> Vec<String> {
        let mut p = vec![];
        if !(self.endpoint.starts_with("http://") || self.endpoint.starts_with("https://")) {
            p.push(format!("providers.{name}.endpoint `{}` must start with http:// or https://", self.endpoint));
        }
        if self.model.trim().is_empty() {
            p.push(format!("providers.{name}.model is empty; name the model to ask"));
        }
        if self.max_tokens == 0 {
            p.push(format!("providers.{name}.max_tokens must be at least 1"));
        }
        if let Some(t) = self.temperature
            && !(t.is_finite() && (0.0..=2.0).contains(&t))
        {
            p.push(format!("providers.{name}.temperature {t} must be between 0 and 2"));
        }
        if !(self.timeout_s.is_finite() && self.timeout_s > 0.0) {
            p.push(format!("providers.{name}.timeout_s {} must be a positive number of seconds", self.timeout_s));
        }
        if !(self.max_backoff_s.is_finite() && self.max_backoff_s >= 0.0) {
            p.push(format!("providers.{name}.max_backoff_s {} must be zero or more seconds", self.max_backoff_s));
        }
        if matches!(&self.api_key_env, Some(v) if v.trim().is_empty() || v.contains('=')) {
            p.push(format!("providers.{name}.api_key_env must be the NAME of an environment variable, not the key"));
        }
        p
    }
}

impl LlmConfig {
    /// `$KWB_LLM_CONFIG`, else `<config dir>/llm.toml`.
    pub fn path(paths: &Paths) -> PathBuf {
        match std::env::var_os(CONFIG_ENV) {
            Some(p) if !p.is_empty() => PathBuf::from(p),
            _ => paths.config.join("llm.toml"),
        }
    }

    /// Loads the config file kwb uses.
    pub fn load(paths: &Paths) -> Result<Self, LlmError> {
        Self::load_file(&Self::path(paths))
    }

    pub fn load_file(path: &Path) -> Result<Self, LlmError> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                LlmError::Config(format!(
                    "no LLM config at {}: create it with a provider, e.g.\n  default = \"main\"\n  [providers.main]\n  kind = \"openai\"   # or \"anthropic\"\n  endpoint = \"https://api.openai.com\"\n  model = \"gpt-4.1\"\n  api_key_env = \"OPENAI_API_KEY\"\nor point {CONFIG_ENV} at one",
                    path.display()
                ))
            } else {
                LlmError::Config(format!("cannot read {}: {e}", path.display()))
            }
        })?;
        Self::parse(&text, &path.display().to_string())
    }

    /// Parses and checks a config; `origin` names it in errors.
    pub fn parse(text: &str, origin: &str) -> Result<Self, LlmError> {
        let cfg: Self = toml::from_str(text).map_err(|e| LlmError::Config(toml_error(text, origin, &e)))?;
        let mut problems: Vec<String> = cfg.providers.iter().flat_map(|(n, p)| p.problems(n)).collect();
        if cfg.providers.is_empty() {
            problems.push("no providers; add a [providers.NAME] section with kind, endpoint and model".into());
        }
        if let Some(d) = &cfg.default
            && !cfg.providers.contains_key(d)
        {
            problems.push(format!("default = \"{d}\" names no provider; providers: {}", cfg.names().join(", ")));
        }
        if cfg.tool_rounds == 0 {
            problems.push("tool_rounds must be at least 1".into());
        }
        if !problems.is_empty() {
            return Err(LlmError::Config(format!("{origin}: {}", problems.join("; "))));
        }
        Ok(cfg)
    }

    pub fn names(&self) -> Vec<&str> {
        self.providers.keys().map(String::as_str).collect()
    }

    /// The named provider, or the default one (or the only one) when `name` is None.
    pub fn provider(&self, name: Option<&str>) -> Result<(&str, &ProviderConfig), LlmError> {
        let name = match (name, &self.default) {
            (Some(n), _) => n,
            (None, Some(d)) => d.as_str(),
            (None, None) if self.providers.len() == 1 => self.providers.keys().next().map(String::as_str).unwrap_or_default(),
            (None, None) => {
                return Err(LlmError::Config(format!("several providers ({}) and no `default`: name one, or set default = \"NAME\" in llm.toml", self.names().join(", "))));
            }
        };
        self.providers
            .get_key_value(name)
            .map(|(k, v)| (k.as_str(), v))
            .ok_or_else(|| LlmError::Config(format!("no LLM provider `{name}` in llm.toml; providers: {}", self.names().join(", "))))
    }
}

/// The parser's message with its line number but without the quoted source
/// line, which would echo a key someone wrote into the file by mistake.
fn toml_error(text: &str, origin: &str, e: &toml::de::Error) -> String {
    let line = e.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
    let at = line.map(|l| format!(" line {l}:")).unwrap_or_default();
    let mut msg = format!("{origin}:{at} {}", e.message().trim());
    if msg.contains("unknown field `api_key`") {
        msg.push_str("; keys do not go in this file: export the key in an environment variable and name that variable with `api_key_env`");
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = "default = \"a\"\n[providers.a]\nkind = \"openai\"\nendpoint = \"http://x\"\nmodel = \"m\"\napi_key_env = \"K\"\n[providers.b]\nkind = \"anthropic\"\nendpoint = \"https://y\"\nmodel = \"n\"\n";

    #[test]
    fn parses_defaults_and_picks_providers() {
        let c = LlmConfig::parse(GOOD, "t").unwrap();
        assert_eq!(c.provider(None).unwrap().0, "a");
        assert_eq!(c.provider(Some("b")).unwrap().1.kind, ProviderKind::Anthropic);
        assert_eq!(c.providers["a"].max_tokens, 8192);
        assert!(c.provider(Some("zz")).unwrap_err().to_string().contains("providers: a, b"));
    }

    #[test]
    fn refuses_bad_values_with_their_names() {
        let bad = GOOD.replace("model = \"m\"", "model = \"m\"\ntemperature = 5.0").replace("http://x", "ftp://x");
        let e = LlmConfig::parse(&bad, "t").unwrap_err().to_string();
        assert!(e.contains("temperature") && e.contains("endpoint"), "{e}");
        let e = LlmConfig::parse(&GOOD.replace("default = \"a\"", "default = \"c\""), "t").unwrap_err().to_string();
        assert!(e.contains("default = \"c\""), "{e}");
    }

    #[test]
    fn missing_key_variable_is_named() {
        let c = LlmConfig::parse(GOOD, "t").unwrap();
        let e = c.providers["a"].api_key("a", |_| None).unwrap_err().to_string();
        assert!(e.contains("environment variable K"), "{e}");
        assert!(c.providers["b"].api_key("b", |_| None).unwrap().is_none());
    }
}
