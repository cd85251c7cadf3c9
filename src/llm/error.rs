//! Everything a chat call can fail with, each saying what to do about it.
//! Messages never carry an API key: server text is passed through
//! [`crate::llm::ApiKey::redact`] before it lands here.

use thiserror::Error;

#[derive(Debug, Clone, Error, PartialEq)]
pub enum LlmError {
    /// The LLM config file is missing, unreadable or invalid, or names a missing variable.
    #[error("{0}")]
    Config(String),
    #[error("{provider}: the reply is not what the API promises ({detail}); check that `endpoint` points at an {api} API and that the server is not a proxy error page")]
    Malformed { provider: String, api: &'static str, detail: String },
    #[error("{provider}: the reply was cut off at max_tokens ({max_tokens}) before it said anything usable; raise `max_tokens` for this provider in llm.toml")]
    Truncated { provider: String, max_tokens: u32 },
    #[error("{provider}: the model refused to answer ({detail}); rephrase the hint or use another model")]
    Refused { provider: String, detail: String },
    #[error("{provider}: still rate limited (HTTP 429) after {attempts} attempts; wait, lower the request rate, or raise `max_retries`/`backoff_ms` in llm.toml")]
    RateLimited { provider: String, attempts: u32, retries: Vec<String> },
    #[error("{provider}: server error HTTP {status} after {attempts} attempts ({detail}); the service may be down, try again later")]
    Server { provider: String, status: u16, attempts: u32, detail: String, retries: Vec<String> },
    #[error("{provider}: no answer within {timeout_s}s ({attempts} attempts); raise `timeout_s` in llm.toml or check that the server is not stuck")]
    Timeout { provider: String, timeout_s: f64, attempts: u32, retries: Vec<String> },
    #[error("{provider}: cannot reach {url} ({detail}); check `endpoint` in llm.toml and that the server is running")]
    Transport { provider: String, url: String, detail: String },
    #[error("{provider}: the API key was refused (HTTP {status}: {detail}); check the key in the variable named by `api_key_env`")]
    Auth { provider: String, status: u16, detail: String },
    /// Any other 4xx: the server understood and refused this request.
    #[error("{provider}: the request was rejected (HTTP {status}: {detail}); check `model` and `max_tokens` in llm.toml, or shorten the context")]
    Rejected { provider: String, status: u16, detail: String },
}

impl LlmError {
    /// The retries made before giving up, one line each (empty for errors that are not retried).
    pub fn retries(&self) -> &[String] {
        match self {
            Self::RateLimited { retries, .. } | Self::Server { retries, .. } | Self::Timeout { retries, .. } => retries,
            _ => &[],
        }
    }

    /// Short name for transcripts and logs.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::Config(_) => "config",
            Self::Malformed { .. } => "malformed",
            Self::Truncated { .. } => "truncated",
            Self::Refused { .. } => "refused",
            Self::RateLimited { .. } => "rate_limited",
            Self::Server { .. } => "server",
            Self::Timeout { .. } => "timeout",
            Self::Transport { .. } => "transport",
            Self::Auth { .. } => "auth",
            Self::Rejected { .. } => "rejected",
        }
    }
}

/// The start of a server's text, for error messages: enough to recognise, short enough to read.
pub(crate) fn snippet(text: &str) -> String {
    const MAX: usize = 300;
    let t = text.trim();
    if t.chars().count() <= MAX {
        return t.to_string();
    }
    let cut: String = t.chars().take(MAX).collect();
    format!("{cut}…")
}
