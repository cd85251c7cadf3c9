//! What a run may spend: wall clock, candidates, tokens, device time.

use serde::{Deserialize, Serialize};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Budget {
    pub wall: Duration,
    pub candidates: u32,
    pub tokens: u64,
    pub device: Duration,
}

impl Default for Budget {
    fn default() -> Self {
        Self { wall: Duration::from_secs(300), candidates: 40, tokens: 2_000_000, device: Duration::from_secs(240) }
    }
}

/// What is left when an agent is asked for its next proposal.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct BudgetLeft {
    pub wall: Duration,
    pub candidates: u32,
    pub tokens: u64,
    pub device: Duration,
}

/// Parses "90s", "10m", "1h" or plain seconds.
pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let (num, mult) = match s.chars().last() {
        Some('s') => (&s[..s.len() - 1], 1.0),
        Some('m') => (&s[..s.len() - 1], 60.0),
        Some('h') => (&s[..s.len() - 1], 3600.0),
        _ => (s, 1.0),
    };
    let v: f64 = num.parse().map_err(|_| format!("`{s}` is not a duration: use 90s, 10m or 1h"))?;
    if !(v > 0.0) {
        return Err(format!("`{s}`: a budget must be positive"));
    }
    Ok(Duration::from_secs_f64(v * mult))
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn durations_parse_with_units_and_refuse_garbage() {
        assert_eq!(parse_duration("10m").unwrap(), Duration::from_secs(600));
        assert_eq!(parse_duration("90s").unwrap(), Duration::from_secs(90));
        assert_eq!(parse_duration("2").unwrap(), Duration::from_secs(2));
        assert!(parse_duration("ten").is_err());
        assert!(parse_duration("-1m").is_err());
    }
}
