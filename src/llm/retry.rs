//! When to try a request again, and how long to wait first.

use rand::Rng;
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RetryPolicy {
    /// Retries after the first attempt (so `max_retries + 1` attempts in all).
    pub max_retries: u32,
    /// The first back-off; it doubles per retry.
    pub backoff: Duration,
    /// The longest single wait, also for a server's Retry-After.
    pub max_backoff: Duration,
    /// Per HTTP attempt, from connect to the last byte of the body.
    pub timeout: Duration,
}

impl RetryPolicy {
    /// The wait before retry number `retry` (0 for the first retry). A server's
    /// Retry-After wins over the exponential back-off; both are capped. Jitter
    /// (half to full back-off) keeps parallel agents from retrying in lockstep.
    pub fn delay(&self, retry: u32, retry_after: Option<Duration>) -> Duration {
        if let Some(ra) = retry_after {
            return ra.min(self.max_backoff);
        }
        let exp = self.backoff.saturating_mul(1u32.checked_shl(retry.min(20)).unwrap_or(u32::MAX)).min(self.max_backoff);
        exp.mul_f64(rand::rng().random_range(0.5..=1.0))
    }
}

/// Retry-After as seconds (the HTTP-date form is rare from APIs and is ignored).
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let s: f64 = value.trim().parse().ok()?;
    (s.is_finite() && s >= 0.0).then(|| Duration::from_secs_f64(s))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn policy() -> RetryPolicy {
        RetryPolicy { max_retries: 3, backoff: Duration::from_millis(100), max_backoff: Duration::from_millis(350), timeout: Duration::from_secs(1) }
    }

    #[test]
    fn backoff_doubles_with_jitter_and_is_capped() {
        let p = policy();
        for _ in 0..50 {
            let d0 = p.delay(0, None);
            assert!(d0 >= Duration::from_millis(50) && d0 <= Duration::from_millis(100), "{d0:?}");
            let d1 = p.delay(1, None);
            assert!(d1 >= Duration::from_millis(100) && d1 <= Duration::from_millis(200), "{d1:?}");
            assert!(p.delay(30, None) <= Duration::from_millis(350));
        }
    }

    #[test]
    fn retry_after_wins_but_is_capped() {
        let p = policy();
        assert_eq!(p.delay(0, Some(Duration::from_millis(200))), Duration::from_millis(200));
        assert_eq!(p.delay(0, Some(Duration::from_secs(100))), Duration::from_millis(350));
        assert_eq!(parse_retry_after(" 2 "), Some(Duration::from_secs(2)));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
    }
}
