//! The provider-independent chat interface and how a configured provider becomes one.

use super::anthropic::Anthropic;
use super::config::{LlmConfig, ProviderConfig, ProviderKind};
use super::error::LlmError;
use super::http::Endpoint;
use super::key::ApiKey;
use super::openai::OpenAi;
use super::types::{ChatRequest, ChatResponse, StopReason, TokenUsage, ToolCall};
use crate::agent::BoxFuture;
use reqwest::header::{HeaderMap, HeaderName, HeaderValue};
use serde_json::Value;
use std::marker::PhantomData;
use std::sync::Arc;

/// A model behind an API. Implementations retry transient failures themselves,
/// so an error here is final for this call.
pub trait ChatClient: Send + Sync {
    /// The provider's name in llm.toml.
    fn provider(&self) -> &str;
    fn model(&self) -> &str;
    fn chat<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<ChatResponse, LlmError>>;
}

/// What differs from one provider's API to the next: the request body and
/// how a reply reads. Everything else is [`ApiClient`]'s.
pub(crate) trait Wire: Send + Sync + 'static {
    fn body(call: &Call<'_>) -> Value;
    /// The answer in the reply, or why the reply is not one.
    fn read(endpoint: &Endpoint, body: Value) -> Result<Reply, LlmError>;
}

/// One request, with the provider's defaults already filled in.
pub(crate) struct Call<'a> {
    pub endpoint: &'a Endpoint,
    pub model: &'a str,
    pub max_tokens: u32,
    pub temperature: Option<f32>,
    pub req: &'a ChatRequest,
}

/// What a provider's reply says, in one vocabulary.
pub(crate) struct Reply {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: TokenUsage,
    pub stop_reason: StopReason,
}

/// What a provider calls each way a reply can end; `None` (no reason given)
/// ends the turn, and names not listed are kept verbatim.
pub(crate) struct StopNames {
    pub end_turn: &'static [&'static str],
    pub tool_use: &'static [&'static str],
    pub max_tokens: &'static str,
}

impl StopNames {
    pub fn read(&self, reason: Option<&str>) -> StopReason {
        match reason {
            None => StopReason::EndTurn,
            Some(r) if self.end_turn.contains(&r) => StopReason::EndTurn,
            Some(r) if self.tool_use.contains(&r) => StopReason::ToolUse,
            Some(r) if r == self.max_tokens => StopReason::MaxTokens,
            Some(other) => StopReason::Other(other.to_string()),
        }
    }
}

/// A chat client for one configured provider, speaking wire format `W`.
pub(crate) struct ApiClient<W> {
    endpoint: Endpoint,
    model: String,
    max_tokens: u32,
    temperature: Option<f32>,
    wire: PhantomData<fn() -> W>,
}

impl<W: Wire> ApiClient<W> {
    fn new(endpoint: Endpoint, cfg: &ProviderConfig) -> Self {
        Self { endpoint, model: cfg.model.clone(), max_tokens: cfg.max_tokens, temperature: cfg.temperature, wire: PhantomData }
    }
}

impl<W: Wire> ChatClient for ApiClient<W> {
    fn provider(&self) -> &str {
        &self.endpoint.provider
    }
    fn model(&self) -> &str {
        &self.model
    }
    fn chat<'a>(&'a self, req: &'a ChatRequest) -> BoxFuture<'a, Result<ChatResponse, LlmError>> {
        Box::pin(async move {
            let max_tokens = req.max_tokens.unwrap_or(self.max_tokens);
            let call = Call { endpoint: &self.endpoint, model: &self.model, max_tokens, temperature: req.temperature.or(self.temperature), req };
            let posted = self.endpoint.post(&W::body(&call)).await?;
            let Reply { text, tool_calls, usage, stop_reason } = W::read(&self.endpoint, posted.body)?;
            // Cut off before it said anything: there is no answer to use.
            if stop_reason == StopReason::MaxTokens && text.trim().is_empty() && tool_calls.is_empty() {
                return Err(LlmError::Truncated { provider: self.endpoint.provider.clone(), max_tokens });
            }
            Ok(ChatResponse { text, tool_calls, usage, stop_reason, attempts: posted.attempts, retries: posted.retries })
        })
    }
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
        ProviderKind::Openai => Arc::new(ApiClient::<OpenAi>::new(endpoint, cfg)),
        ProviderKind::Anthropic => Arc::new(ApiClient::<Anthropic>::new(endpoint, cfg)),
    })
}
