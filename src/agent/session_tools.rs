//! The tools an agent may call, over a snapshot of the session's tree, the
//! evaluator and the hardware agent. Evaluations and profiles made through a
//! tool are returned to the agent only; the orchestrator logs that they ran.

use super::hardware::{self, PathFacts};
use super::{BoxFuture, Tools};
use crate::eval::{BuildSource, Evaluator};
use crate::ir::Layer;
use crate::roofline::Machine;
use crate::session::tree::CandidateTree;
use crate::tasks::Task;
use serde_json::{Value, json};

pub struct SessionTools<'a> {
    pub tree: &'a CandidateTree,
    pub ev: &'a Evaluator,
    pub task: &'a Task,
    pub machine: Option<&'a Machine>,
}

fn node_texts<'t>(tree: &'t CandidateTree, node: u32) -> Result<&'t crate::ir::LayerTexts, String> {
    tree.get(node).map(|n| &n.record.texts).ok_or_else(|| format!("there is no node {node}; nodes are 0..{}", tree.nodes.len()))
}

/// An evaluation as an agent reads it: what matters, not the whole record.
pub fn summarize(r: &crate::eval::EvalResult) -> Value {
    json!({
        "compile_ok": r.compile_ok, "correct": r.correct,
        "failure_class": r.failure_class, "failure": r.failure.as_ref().map(|f| f.to_string()),
        "max_errors": r.max_errors, "candidate_ms": r.candidate_ms, "baseline_ms": r.baseline_ms,
        "speedup": r.speedup_median, "timing_valid": r.timing_valid, "ci": r.ci,
    })
}

impl Tools for SessionTools<'_> {
    fn view(&self, node: u32, layer: Layer, kernel: Option<&str>) -> Result<String, String> {
        let texts = node_texts(self.tree, node)?;
        match (layer, kernel) {
            (Layer::L1 | Layer::L2, None) => Ok(format!("kernels: {}", texts.kernels().join(", "))),
            _ => texts.text(layer, kernel).map(str::to_string).ok_or_else(|| format!("node {node} has no kernel `{}`; kernels: {}", kernel.unwrap_or(""), texts.kernels().join(", "))),
        }
    }

    fn diff(&self, a: u32, b: u32, layer: Layer, kernel: Option<&str>) -> Result<String, String> {
        let old = self.view(a, layer, kernel)?;
        let new = self.view(b, layer, kernel)?;
        Ok(crate::diff::diff(&old, &new, 3).unified(&format!("node {a}"), &format!("node {b}"), false))
    }

    fn evaluate<'a>(&'a self, node: u32) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async move {
            if let Some(r) = self.tree.get(node).and_then(|n| n.result.as_ref()) {
                return Ok(summarize(r));
            }
            let texts = node_texts(self.tree, node)?;
            let r = self.ev.evaluate_source(self.task, &BuildSource::from_layers(texts)).await;
            Ok(summarize(&r))
        })
    }

    fn profile<'a>(&'a self, node: u32) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async move {
            let texts = node_texts(self.tree, node)?;
            let raw = hardware::measure(&self.ev.engine, &self.ev.opts.target, self.task, texts).await.map_err(|f| f.to_string())?;
            Ok(hardware::analyse(raw, self.machine, &PathFacts::of(self.tree, node), &texts.l0, &[]))
        })
    }
}
