//! One JSON POST with retries: the part both providers share. It turns HTTP
//! statuses and transport failures into [`LlmError`]s and scrubs the key from
//! anything the server says.

use super::error::{LlmError, snippet};
use super::key::{ApiKey, redact};
use super::retry::{RetryPolicy, parse_retry_after};
use reqwest::StatusCode;
use reqwest::header::{HeaderMap, RETRY_AFTER};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::time::Duration;

/// A provider's endpoint, ready to post to.
#[derive(Debug, Clone)]
pub(crate) struct Endpoint {
    pub provider: String,
    pub api: &'static str,
    pub url: String,
    pub headers: HeaderMap,
    pub key: Option<ApiKey>,
    pub policy: RetryPolicy,
    pub http: reqwest::Client,
}

/// A successful reply and what it took to get it.
pub(crate) struct Posted {
    pub body: Value,
    pub attempts: u32,
    pub retries: Vec<String>,
}

/// Why one attempt failed, and whether to try again.
enum Attempt {
    Retry { error: LlmError, wait_hint: Option<Duration>, note: String },
    Fatal(LlmError),
}

impl Endpoint {
    pub async fn post(&self, body: &Value) -> Result<Posted, LlmError> {
        let mut retries = vec![];
        let mut attempt = 0u32;
        loop {
            attempt += 1;
            let failure = match self.once(body, attempt).await {
                Ok(body) => return Ok(Posted { body, attempts: attempt, retries }),
                Err(f) => f,
            };
            match failure {
                Attempt::Fatal(e) => return Err(e),
                Attempt::Retry { mut error, .. } if attempt > self.policy.max_retries => {
                    if let LlmError::RateLimited { retries: r, .. } | LlmError::Server { retries: r, .. } | LlmError::Timeout { retries: r, .. } = &mut error {
                        *r = retries;
                    }
                    return Err(error);
                }
                Attempt::Retry { wait_hint, note, .. } => {
                    let wait = self.policy.delay(attempt - 1, wait_hint);
                    let line = format!("{}: attempt {attempt} {note}; retrying in {:.2}s", self.provider, wait.as_secs_f64());
                    tracing::warn!("{line}");
                    retries.push(line);
                    tokio::time::sleep(wait).await;
                }
            }
        }
    }

    async fn once(&self, body: &Value, attempt: u32) -> Result<Value, Attempt> {
        let timeout_err = || LlmError::Timeout { provider: self.provider.clone(), timeout_s: self.policy.timeout.as_secs_f64(), attempts: attempt, retries: vec![] };
        let sent = self.http.post(&self.url).headers(self.headers.clone()).timeout(self.policy.timeout).json(body).send().await;
        let resp = match sent {
            Ok(r) => r,
            Err(e) if e.is_timeout() => return Err(Attempt::Retry { error: timeout_err(), wait_hint: None, note: "timed out".into() }),
            Err(e) => return Err(Attempt::Fatal(self.transport(&e))),
        };
        let status = resp.status();
        let retry_after = resp.headers().get(RETRY_AFTER).and_then(|v| v.to_str().ok()).and_then(parse_retry_after);
        let text = match resp.text().await {
            Ok(t) => redact(self.key.as_ref(), &t),
            Err(e) if e.is_timeout() => return Err(Attempt::Retry { error: timeout_err(), wait_hint: None, note: "timed out reading the reply".into() }),
            Err(e) => return Err(Attempt::Fatal(self.transport(&e))),
        };
        let provider = self.provider.clone();
        if status.is_success() {
            return serde_json::from_str(&text).map_err(|e| {
                Attempt::Fatal(LlmError::Malformed { provider, api: self.api, detail: format!("body is not JSON: {e}; it starts with `{}`", snippet(&text)) })
            });
        }
        let detail = error_detail(&text);
        match status {
            StatusCode::TOO_MANY_REQUESTS => Err(Attempt::Retry {
                error: LlmError::RateLimited { provider, attempts: attempt, retries: vec![] },
                wait_hint: retry_after,
                note: "was rate limited (HTTP 429)".into(),
            }),
            StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN => Err(Attempt::Fatal(LlmError::Auth { provider, status: status.as_u16(), detail })),
            s if s.is_server_error() => Err(Attempt::Retry {
                note: format!("got HTTP {} ({})", s.as_u16(), detail),
                error: LlmError::Server { provider, status: s.as_u16(), attempts: attempt, detail, retries: vec![] },
                wait_hint: retry_after,
            }),
            s => Err(Attempt::Fatal(LlmError::Rejected { provider, status: s.as_u16(), detail })),
        }
    }

    /// A reply body read as the API's reply type, or why it is not one.
    pub fn decode<T: DeserializeOwned>(&self, body: &Value) -> Result<T, LlmError> {
        serde_json::from_value(body.clone()).map_err(|e| self.malformed(format!("{e} in `{}`", snippet(&body.to_string()))))
    }

    /// A reply that parsed but does not say what the API promises.
    pub fn malformed(&self, detail: String) -> LlmError {
        LlmError::Malformed { provider: self.provider.clone(), api: self.api, detail }
    }

    /// Server text with the key scrubbed.
    pub fn redact(&self, text: &str) -> String {
        redact(self.key.as_ref(), text)
    }

    fn transport(&self, e: &reqwest::Error) -> LlmError {
        // reqwest's Display hides the cause chain; the cause says what actually failed.
        let mut detail = e.to_string();
        let mut src = std::error::Error::source(e);
        while let Some(s) = src {
            detail = format!("{detail}: {s}");
            src = s.source();
        }
        LlmError::Transport { provider: self.provider.clone(), url: self.url.clone(), detail: redact(self.key.as_ref(), &detail) }
    }
}

/// The server's own error message when it sent the usual `{"error": {"message": ...}}`, else the body's start.
fn error_detail(text: &str) -> String {
    let v: Option<Value> = serde_json::from_str(text).ok();
    let msg = v.as_ref().and_then(|v| {
        let e = v.get("error")?;
        e.get("message").and_then(Value::as_str).map(str::to_string).or_else(|| e.as_str().map(str::to_string))
    });
    snippet(&msg.unwrap_or_else(|| text.to_string()))
}

/// `base` joined with the API's path, accepting bases with or without `/v1` or the full path.
pub(crate) fn join_url(base: &str, path_after_v1: &str) -> String {
    let base = base.trim_end_matches('/');
    let full = format!("/v1/{path_after_v1}");
    if base.ends_with(&full) {
        base.to_string()
    } else if base.ends_with("/v1") {
        format!("{base}/{path_after_v1}")
    } else {
        format!("{base}{full}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_join_with_or_without_v1() {
        assert_eq!(join_url("https://api.openai.com", "chat/completions"), "https://api.openai.com/v1/chat/completions");
        assert_eq!(join_url("http://h:8000/v1/", "chat/completions"), "http://h:8000/v1/chat/completions");
        assert_eq!(join_url("http://h/v1/messages", "messages"), "http://h/v1/messages");
    }

    #[test]
    fn error_detail_prefers_the_servers_message() {
        assert_eq!(error_detail(r#"{"error":{"message":"slow down","type":"x"}}"#), "slow down");
        assert_eq!(error_detail("<html>bad gateway</html>"), "<html>bad gateway</html>");
    }
}
