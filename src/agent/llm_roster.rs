//! LLM-backed agents for a run, from the provider named in the config.

use super::Agent;
use super::llm_agent::{LlmAgent, LlmMode};
use super::orchestrator::Strategy;
use super::roster::Roster;
use crate::ir::Layer;
use crate::llm::{LlmConfig, Prompts};
use anyhow::Result;
use std::collections::BTreeMap;

/// `provider` is a name from llm.toml; empty means its default provider.
pub fn build(paths: &crate::paths::Paths, provider: &str, strategy: Strategy) -> Result<Roster> {
    let config = LlmConfig::load(paths)?;
    let prompts = Prompts::new(paths);
    let name = (!provider.is_empty()).then_some(provider);
    let agent = |mode: LlmMode| -> Result<Box<dyn Agent>> { Ok(Box::new(LlmAgent::from_config(&config, name, mode, prompts.clone())?)) };
    Ok(match strategy {
        Strategy::Layered => Roster {
            by_layer: [Layer::L0, Layer::L1, Layer::L2].into_iter().map(|l| Ok((l, agent(LlmMode::PerLayer(l))?))).collect::<Result<BTreeMap<_, _>>>()?,
            general: None,
        },
        Strategy::Flat => Roster { by_layer: BTreeMap::new(), general: Some(agent(LlmMode::Flat)?) },
        Strategy::OneShot => Roster { by_layer: BTreeMap::new(), general: Some(agent(LlmMode::OneShot)?) },
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::Paths;

    #[test]
    fn builds_each_strategys_agents_from_llm_toml() {
        let dir = tempfile::tempdir().unwrap();
        let paths = Paths::under(dir.path());
        let missing = build(&paths, "", Strategy::Flat).err().unwrap().to_string();
        assert!(missing.contains("llm.toml"), "{missing}");
        std::fs::create_dir_all(&paths.config).unwrap();
        std::fs::write(paths.config.join("llm.toml"), "[providers.local]\nkind = \"openai\"\nendpoint = \"http://127.0.0.1:9\"\nmodel = \"m\"\n").unwrap();
        let layered = build(&paths, "", Strategy::Layered).unwrap();
        let names: Vec<String> = layered.by_layer.values().map(|a| a.name()).collect();
        assert_eq!(names, ["llm-l0:local", "llm-l1:local", "llm-l2:local"]);
        assert_eq!(build(&paths, "local", Strategy::OneShot).unwrap().general.unwrap().name(), "llm-one-shot:local");
        assert!(build(&paths, "other", Strategy::Flat).err().unwrap().to_string().contains("no LLM provider `other`"));
    }
}
