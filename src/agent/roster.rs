//! Which agents a run uses, from its strategy and backend: the built-in
//! rules, or LLM-backed agents from the provider named in llm.toml.

use super::Agent;
use super::builtin::{BuiltinAgent, BuiltinFlat};
use super::llm_agent::{LlmAgent, LlmMode};
use super::orchestrator::{Backend, RunSpec, Strategy};
use crate::eval::Evaluator;
use crate::ir::Layer;
use crate::llm::{LlmConfig, Prompts};
use anyhow::Result;
use std::collections::BTreeMap;

pub struct Roster {
    /// Per-layer agents (layered), or one general agent under L1 (flat, one-shot).
    pub by_layer: BTreeMap<Layer, Box<dyn Agent>>,
    pub general: Option<Box<dyn Agent>>,
}

pub fn build(spec: &RunSpec, ev: &Evaluator, paths: &crate::paths::Paths) -> Result<Roster> {
    let engine = ev.engine.clone();
    let target = ev.opts.target.clone();
    match (&spec.backend, spec.strategy) {
        (Backend::Builtin, Strategy::Layered) => Ok(Roster {
            by_layer: [Layer::L0, Layer::L1, Layer::L2].into_iter().map(|l| (l, Box::new(BuiltinAgent::new(l, engine.clone(), target.clone())) as Box<dyn Agent>)).collect(),
            general: None,
        }),
        (Backend::Builtin, Strategy::Flat) => Ok(Roster { by_layer: BTreeMap::new(), general: Some(Box::new(BuiltinFlat::new(engine, target))) }),
        // One proposal: the rules' first choice for the largest kernel.
        (Backend::Builtin, Strategy::OneShot) => Ok(Roster { by_layer: BTreeMap::new(), general: Some(Box::new(BuiltinAgent::new(Layer::L1, engine, target))) }),
        (Backend::Llm { provider }, strategy) => llm(paths, provider, strategy),
    }
}

/// `provider` is a name from llm.toml; empty means its default provider.
fn llm(paths: &crate::paths::Paths, provider: &str, strategy: Strategy) -> Result<Roster> {
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
        let missing = llm(&paths, "", Strategy::Flat).err().unwrap().to_string();
        assert!(missing.contains("llm.toml"), "{missing}");
        std::fs::create_dir_all(&paths.config).unwrap();
        std::fs::write(paths.config.join("llm.toml"), "[providers.local]\nkind = \"openai\"\nendpoint = \"http://127.0.0.1:9\"\nmodel = \"m\"\n").unwrap();
        let layered = llm(&paths, "", Strategy::Layered).unwrap();
        let names: Vec<String> = layered.by_layer.values().map(|a| a.name()).collect();
        assert_eq!(names, ["llm-l0:local", "llm-l1:local", "llm-l2:local"]);
        assert_eq!(llm(&paths, "local", Strategy::OneShot).unwrap().general.unwrap().name(), "llm-one-shot:local");
        assert!(llm(&paths, "other", Strategy::Flat).err().unwrap().to_string().contains("no LLM provider `other`"));
    }
}
