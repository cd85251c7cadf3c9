//! Which agents a run uses, from its strategy and backend.

use super::Agent;
use super::builtin::{BuiltinAgent, BuiltinFlat};
use super::orchestrator::{Backend, RunSpec, Strategy};
use crate::eval::Evaluator;
use crate::ir::Layer;
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
        (Backend::Llm { provider }, strategy) => super::llm_roster::build(paths, provider, strategy),
    }
}
