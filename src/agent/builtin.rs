//! The built-in agents: no model, offline, the default. Their moves are real
//! edits chosen by rules from the IR (see the engine's `moves.py`): graph
//! passes at L0, schedule traces at L1. L2 has no built-in moves: both sides
//! are built for the host ISA, so attribute-only moves would earn nothing.
//! The L1 agent refines by measurement: once siblings have been timed, the untried moves
//! closest to the fastest one go first (a small local search).

use super::hardware::{PathFacts, kernel_for};
use super::{Agent, AgentContext, BoxFuture, EditProposal, Proposal, Tools, Turn, Usage};
use crate::engine::{Engine, Job};
use crate::ir::Layer;
use crate::session::EditBody;
use crate::session::tree::CandidateTree;
use anyhow::Result;
use serde_json::{Value, json};
use std::collections::{HashMap, VecDeque};
use std::time::Duration;

#[derive(Debug, Clone)]
struct Move {
    name: String,
    rationale: String,
    body: EditBody,
}

/// One built-in agent per layer.
pub struct BuiltinAgent {
    layer: Layer,
    engine: Engine,
    target: Value,
    /// Untried moves per (node, kernel).
    queues: HashMap<(u32, String), VecDeque<Move>>,
    /// Move names by trace, to recognise which move made a node.
    names: HashMap<Vec<String>, String>,
}

impl BuiltinAgent {
    pub fn new(layer: Layer, engine: Engine, target: Value) -> Self {
        Self { layer, engine, target, queues: HashMap::new(), names: HashMap::new() }
    }

    async fn fetch(&mut self, ctx: &AgentContext<'_>, kernel: &str) -> Result<VecDeque<Move>, String> {
        let node = ctx.tree.get(ctx.node).ok_or("no such node")?;
        let texts = &node.record.texts;
        let (op, args) = match self.layer {
            Layer::L0 => ("l0_moves", json!({"l0": texts.l0})),
            Layer::L1 => {
                let ms = ctx.profile.and_then(|p| p["kernels"].as_array()).and_then(|rows| rows.iter().find(|r| r["name"] == kernel)).and_then(|r| r["ms"].as_f64());
                ("l1_moves", json!({"l1_module": texts.l1_module, "kernel": kernel, "kernel_ms": ms, "target": self.target}))
            }
            Layer::L2 => ("l2_moves", json!({"text": texts.text(Layer::L2, Some(kernel)).unwrap_or_default()})),
        };
        let out = self.engine.run(Job::new(op, args, Duration::from_secs(120))).await.map_err(|f| f.to_string())?;
        let mut q = VecDeque::new();
        for m in out.result["moves"].as_array().into_iter().flatten() {
            let name = m["name"].as_str().unwrap_or("move").to_string();
            let body = if let Some(trace) = m["trace"].as_array() {
                let lines: Vec<String> = trace.iter().filter_map(|l| l.as_str().map(str::to_string)).collect();
                self.names.insert(lines.clone(), name.clone());
                EditBody::Trace(lines)
            } else {
                EditBody::Text(m["text"].as_str().unwrap_or_default().to_string())
            };
            q.push_back(Move { name, rationale: m["rationale"].as_str().unwrap_or_default().to_string(), body });
        }
        Ok(q)
    }

    /// The kernels this agent may work on at `node`, in the order to try them.
    fn kernels(&self, ctx: &AgentContext<'_>) -> Vec<String> {
        if self.layer == Layer::L0 {
            return vec![String::new()];
        }
        let facts = PathFacts::of(ctx.tree, ctx.node);
        let done = if self.layer == Layer::L1 { &facts.l1_kernels } else { &facts.l2_kernels };
        let mut order: Vec<String> = vec![];
        if let Some(k) = kernel_for(ctx.profile, self.layer, done) {
            order.push(k);
        }
        if let Some(rows) = ctx.profile.and_then(|p| p["kernels"].as_array()) {
            order.extend(rows.iter().filter_map(|r| r["name"].as_str().map(str::to_string)));
        }
        if let Some(n) = ctx.tree.get(ctx.node) {
            order.extend(n.record.texts.kernels().into_iter().map(str::to_string));
        }
        let mut seen = vec![];
        for k in order {
            if !done.contains(&k) && !seen.contains(&k) {
                seen.push(k);
            }
        }
        seen
    }

    /// Local search: with siblings already timed, bring the untried moves
    /// nearest to the fastest sibling's move to the front.
    fn refine(&self, tree: &CandidateTree, node: u32, kernel: &str, q: &mut VecDeque<Move>) {
        let Some(parent) = tree.get(node) else { return };
        let best = parent
            .children
            .iter()
            .filter_map(|c| tree.get(*c))
            .filter(|c| c.record.layer == Layer::L1 && c.record.kernel.as_deref() == Some(kernel))
            .filter_map(|c| Some((c.valid_speedup()?, c.record.trace.clone()?)))
            .max_by(|a, b| a.0.total_cmp(&b.0));
        let Some(best_name) = best.and_then(|(_, t)| self.names.get(&t).cloned()) else { return };
        let tokens = |s: &str| s.split(['-', 'x']).map(str::to_string).collect::<Vec<_>>();
        let best_tokens = tokens(&best_name);
        let distance = |m: &Move| {
            let t = tokens(&m.name);
            t.iter().filter(|x| !best_tokens.contains(x)).count() + best_tokens.iter().filter(|x| !t.contains(x)).count()
        };
        let mut v: Vec<Move> = q.drain(..).collect();
        v.sort_by_key(|m| distance(m));
        q.extend(v);
    }
}

impl Agent for BuiltinAgent {
    fn name(&self) -> String {
        format!("builtin-{}", self.layer.to_string().to_lowercase())
    }

    fn propose<'a>(&'a mut self, ctx: &'a AgentContext<'a>, _tools: &'a dyn Tools) -> BoxFuture<'a, Result<Turn>> {
        Box::pin(async move {
            let mut transcript = vec![];
            for kernel in self.kernels(ctx) {
                let key = (ctx.node, kernel.clone());
                if !self.queues.contains_key(&key) {
                    match self.fetch(ctx, &kernel).await {
                        Ok(q) => {
                            transcript.push(format!("{} moves for {}", q.len(), if kernel.is_empty() { "the graph".into() } else { format!("`{kernel}`") }));
                            self.queues.insert(key.clone(), q);
                        }
                        Err(e) => {
                            transcript.push(format!("no moves for `{kernel}`: {e}"));
                            self.queues.insert(key.clone(), VecDeque::new());
                        }
                    }
                }
                let mut q = self.queues.remove(&key).unwrap_or_default();
                if self.layer == Layer::L1 {
                    self.refine(ctx.tree, ctx.node, &kernel, &mut q);
                }
                let next = q.pop_front();
                self.queues.insert(key, q);
                if let Some(m) = next {
                    let kernel = (!kernel.is_empty()).then_some(kernel);
                    let rationale = format!("{}: {}", m.name, m.rationale);
                    return Ok(Turn { proposal: Proposal::Edit(EditProposal { layer: self.layer, kernel, body: m.body, rationale }), usage: Usage::default(), transcript });
                }
            }
            Ok(Turn { proposal: Proposal::Exhausted { reason: format!("no untried {} moves from node {}", self.layer, ctx.node) }, usage: Usage::default(), transcript })
        })
    }
}

/// The flat strategy's built-in agent: the same moves, no hardware agent and
/// no routing; it walks L1, then L2, then L0 from wherever it stands.
pub struct BuiltinFlat {
    agents: Vec<BuiltinAgent>,
}

impl BuiltinFlat {
    pub fn new(engine: Engine, target: Value) -> Self {
        Self { agents: [Layer::L1, Layer::L2, Layer::L0].into_iter().map(|l| BuiltinAgent::new(l, engine.clone(), target.clone())).collect() }
    }
}

impl Agent for BuiltinFlat {
    fn name(&self) -> String {
        "builtin-flat".into()
    }

    fn propose<'a>(&'a mut self, ctx: &'a AgentContext<'a>, tools: &'a dyn Tools) -> BoxFuture<'a, Result<Turn>> {
        Box::pin(async move {
            let mut transcript = vec![];
            for a in self.agents.iter_mut() {
                let turn = a.propose(ctx, tools).await?;
                transcript.extend(turn.transcript);
                if let Proposal::Edit(_) = turn.proposal {
                    return Ok(Turn { transcript, ..turn });
                }
            }
            Ok(Turn { proposal: Proposal::Exhausted { reason: format!("no untried moves at any layer from node {}", ctx.node) }, usage: Usage::default(), transcript })
        })
    }
}
