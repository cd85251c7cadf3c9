//! The provider-independent chat interface and how a configured provider becomes one.

use super::anthropic::AnthropicClient;
use super::config::{LlmConfig, ProviderConfig, ProviderKind};
use super::error::LlmError;
use super::http::Endpoint;
use super::key::ApiKey;
use super::openai::OpenAiClient;
use super::types::{ChatRequest, ChatResponse};
use crate::agent::BoxFuture;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use std::sync::Arc;

/// A model behind an API. Implementations retry transient failures themselves,
/// so an error here is final for this call.
pub trait ChatClient: Send + Sync {
    /// The provider's name in llm.toml.
    fn provider(&self) -> &str;
    fn model(&self) -> &str;
    fn chat<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<ChatResponse, LlmError>>;
}

impl LlmConfig {
    /// A client for the named provider (or the default), its key read from the environment.
    pub fn client(&self, name: Option<&str>) -> Result<Arc<dyn ChatClient>, LlmError> {
        self.client_with(name, |var| std::env::var(var).ok())
    }

    /// As [`LlmConfig::client`], reading keys through `lookup` instead of the environment.
    pub fn client_with(&self, name: Option<&str>, lookup: impl Fn(&str) -> Option<String>) -> Result<Arc<dyn ChatClient>, LlmError> {
        let (name, cfg) = self.provider(name)?;
        let key = cfg.api_key(name, lookup)?;
        connect(name, cfg, key)
    }
}

/// A client for one provider with an explicit key.
pub fn connect(name: &str, cfg: &ProviderConfig, key: Option<ApiKey>) -> Result<Arc<dyn ChatClient>, LlmError> {
    let policy = cfg.retry_policy();
    let http = reqwest::Client::builder()
        .connect_timeout(policy.timeout)
        .build()
        .map_err(|e| LlmError::Config(format!("cannot set up HTTP for provider `{name}`: {e}")))?;
    let mut headers = HeaderMap::new();
    let (api, path) = match cfg.kind {
        ProviderKind::Openai => ("OpenAI chat completions", "chat/completions"),
        ProviderKind::Anthropic => ("Anthropic messages", "messages"),
    };
    if let Some(k) = &key {
        let (header, value) = match cfg.kind {
            ProviderKind::Openai => ("authorization", format!("Bearer {}", k.expose())),
            ProviderKind::Anthropic => ("x-api-key", k.expose().to_string()),
        };
        let mut v = HeaderValue::from_str(&value).map_err(|_| {
            LlmError::Config(format!("the API key for provider `{name}` has characters a header cannot carry (a newline?); check {}", cfg.api_key_env.as_deref().unwrap_or("its variable")))
        })?;
        // Sensitive values print as "Sensitive" in any Debug output of the headers.
        v.set_sensitive(true);
        headers.insert(HeaderName::from_static(header), v);
    }
    if cfg.kind == ProviderKind::Anthropic {
        headers.insert(HeaderName::from_static("anthropic-version"), HeaderValue::from_static("2023-06-01"));
    }
    let endpoint = Endpoint { provider: name.to_string(), api, url: super::http::join_url(&cfg.endpoint, path), headers, key, policy, http };
    Ok(match cfg.kind {
        ProviderKind::Openai => Arc::new(OpenAiClient::new(endpoint, cfg)),
        ProviderKind::Anthropic => Arc::new(AnthropicClient::new(endpoint, cfg)),
    })
}
