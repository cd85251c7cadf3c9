//! LLM-backed agents for a run, from the provider named in the config.

use super::orchestrator::Strategy;
use super::roster::Roster;
use anyhow::Result;

pub fn build(_paths: &crate::paths::Paths, provider: &str, _strategy: Strategy) -> Result<Roster> {
    anyhow::bail!("LLM agents are not available in this build (provider `{provider}`)")
}
