//! An API key that cannot leak by accident: it is read from the environment
//! when a client is built, its Debug output is redacted, and any server text
//! that echoes it is scrubbed before it reaches an error or a transcript.

#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }

    /// The key itself, only for the request header.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }

    /// `text` with every occurrence of the key replaced.
    pub fn redact(&self, text: &str) -> String {
        // A blank key would match everywhere; servers cannot echo it meaningfully anyway.
        if self.0.trim().is_empty() {
            return text.to_string();
        }
        text.replace(&self.0, "[redacted]")
    }
}

impl std::fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ApiKey([redacted])")
    }
}

/// Scrubs `text` when there is a key to hide.
pub(crate) fn redact(key: Option<&ApiKey>, text: &str) -> String {
    match key {
        Some(k) => k.redact(text),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn debug_and_redact_hide_the_key() {
        let k = ApiKey::new("sk-secret-123456");
        assert!(!format!("{k:?}").contains("sk-secret"));
        assert_eq!(k.redact("bad key sk-secret-123456!"), "bad key [redacted]!");
        assert_eq!(ApiKey::new("").redact("abc"), "abc");
    }
}
