//! The built-in agents: no model, offline, the default. Their moves are real
//! edits chosen by rules from the IR (see the engine's `moves.py`): graph
//! passes at L0, schedule traces at L1. L2 has no built-in moves: both sides
//! are built for the host ISA, so attribute-only moves would earn nothing.
//! The L1 agent refines by measurement: once siblings have been timed, the untried moves
//! closest to the fastest one go first (a small local search). When a hot
//! kernel's rule moves are used up, it searches MetaSchedule's design space
//! for that kernel in rounds ranked by a cost model trained on the
//! kernel's measured variants (see the engine's `space.py`). Before any of
//! that, it carries a schedule that won on another branch to a kernel here
//! with the same text (`reuse`). On a graph whose time is spread over many
//! kernels, it offers once per node a sweep: every open kernel's
//! first-ranked move in one candidate (`sweep`).

use super::hardware::{PathFacts, kernel_for};
use super::reuse;
use super::sweep;
use super::{Agent, AgentContext, BoxFuture, EditProposal, Proposal, Tools, Turn, Usage};
use crate::engine::{Engine, Job};
use crate::ir::Layer;
use crate::session::EditBody;
use crate::session::tree::CandidateTree;
use anyhow::Result;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet, VecDeque};
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
    /// Rounds of design-space sampling spent per (node, kernel).
    space_rounds: HashMap<(u32, String), u32>,
    /// Schedules carried from other branches, per (node, kernel) offered.
    reused: HashSet<(u32, String)>,
    /// Nodes a sweep was considered at.
    swept: HashSet<u32>,
}

/// Rounds of MetaSchedule design-space sampling the L1 agent spends on one
/// kernel at one node once its rule-based moves are used up, and the
/// schedules each round offers (ranked by a cost model trained on the
/// kernel's variants measured so far).
const SPACE_ROUNDS: u32 = 4;
const SPACE_PER_ROUND: u32 = 4;
const SPACE_MIN_SHARE: f64 = 0.10;

impl BuiltinAgent {
    pub fn new(layer: Layer, engine: Engine, target: Value) -> Self {
        Self { layer, engine, target, queues: HashMap::new(), names: HashMap::new(), space_rounds: HashMap::new(), reused: HashSet::new(), swept: HashSet::new() }
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
        Ok(self.moves_of(&out.result))
    }

    fn moves_of(&mut self, result: &Value) -> VecDeque<Move> {
        let mut q = VecDeque::new();
        for m in result["moves"].as_array().into_iter().flatten() {
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
        q
    }

    /// One round of design-space sampling for `kernel` at the context's
    /// node: what its children on this kernel measured trains the ranking.
    async fn fetch_space(&mut self, ctx: &AgentContext<'_>, kernel: &str, round: u32) -> Result<VecDeque<Move>, String> {
        let node = ctx.tree.get(ctx.node).ok_or("no such node")?;
        let (measured, tried) = kernel_variants(ctx.tree, ctx.node, kernel);
        let args = json!({
            "l1_module": node.record.texts.l1_module, "kernel": kernel, "target": self.target,
            "count": SPACE_PER_ROUND, "seed": ctx.node * 1000 + round, "measured": measured, "tried": tried,
        });
        let out = self.engine.run(Job::new("l1_space_moves", args, Duration::from_secs(300))).await.map_err(|f| f.to_string())?;
        Ok(self.moves_of(&out.result))
    }

    /// A sweep at the context's node, where its time is spread over enough
    /// open kernels with moves (`sweep::kernels`). Each kernel's move list is
    /// fetched as its own round would fetch it, and its first trace is left
    /// in the queue: a sweep that loses leaves every kernel's round as it was.
    async fn sweep(&mut self, ctx: &AgentContext<'_>) -> Option<Turn> {
        let profile = ctx.profile?;
        let facts = PathFacts::of(ctx.tree, ctx.node);
        let open = sweep::kernels(profile, &facts.l1_kernels, |k| self.reused.contains(&(ctx.node, k.to_string())));
        if open.is_empty() {
            return None;
        }
        let (mut traces, mut picked, mut share, mut missing) = (vec![], vec![], 0.0, vec![]);
        for (kernel, s) in open {
            let key = (ctx.node, kernel.clone());
            if !self.queues.contains_key(&key) {
                let q = self.fetch(ctx, &kernel).await.unwrap_or_else(|e| {
                    missing.push(format!("`{kernel}`: {e}"));
                    VecDeque::new()
                });
                self.queues.insert(key.clone(), q);
            }
            let first = self.queues[&key].iter().find_map(|m| match &m.body {
                EditBody::Trace(lines) => Some((m.name.clone(), lines.clone())),
                _ => None,
            });
            if let Some((name, lines)) = first {
                traces.push((kernel.clone(), lines));
                picked.push((kernel, name));
                share += s;
            }
        }
        let mut transcript = vec![format!("a sweep over {} kernels ({:.0}% of the kernel time)", picked.len(), share * 100.0)];
        transcript.extend(missing.into_iter().map(|m| format!("no moves for {m}")));
        if picked.len() < sweep::MIN_KERNELS {
            return None;
        }
        let proposal = EditProposal { layer: Layer::L1, kernel: None, body: EditBody::Traces(traces), rationale: sweep::rationale(&picked, share) };
        Some(Turn { proposal: Proposal::Edit(proposal), usage: Usage::default(), transcript })
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
        // A kernel given another branch's schedule here has had its round
        // there: its own moves would measure that schedule's siblings again.
        let reused = |k: &String| self.reused.contains(&(ctx.node, k.clone()));
        for k in order {
            if !done.contains(&k) && !seen.contains(&k) && !reused(&k) {
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
            if self.layer == Layer::L1
                && let Some(r) = reuse::next(ctx.tree, ctx.node, &self.reused)
            {
                self.reused.insert((ctx.node, r.kernel.clone()));
                let rationale = format!(
                    "reuse-{}: `{}` as node {} schedules it; its text here is the text that schedule started from, and there it made the graph {:.2}x faster",
                    r.move_name, r.kernel, r.from, r.gain
                );
                let proposal = EditProposal { layer: Layer::L1, kernel: Some(r.kernel), body: EditBody::Text(r.text), rationale };
                return Ok(Turn { proposal: Proposal::Edit(proposal), usage: Usage::default(), transcript: vec![] });
            }
            if self.layer == Layer::L1
                && self.swept.insert(ctx.node)
                && let Some(turn) = self.sweep(ctx).await
            {
                return Ok(turn);
            }
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
                let rounds = self.space_rounds.get(&key).copied().unwrap_or(0);
                if self.layer == Layer::L1 && q.is_empty() && rounds < SPACE_ROUNDS && worth_searching(ctx.profile, &kernel) {
                    self.space_rounds.insert(key.clone(), rounds + 1);
                    match self.fetch_space(ctx, &kernel, rounds).await {
                        Ok(more) => {
                            transcript.push(format!("{} schedules sampled from MetaSchedule's design space for `{kernel}` (round {})", more.len(), rounds + 1));
                            q = more;
                        }
                        Err(e) => transcript.push(format!("no design-space samples for `{kernel}`: {e}")),
                    }
                } else if self.layer == Layer::L1 && rounds == 0 {
                    self.refine(ctx.tree, ctx.node, &kernel, &mut q);
                }
                let next = if self.layer == Layer::L0 {
                    let bottleneck = ctx.profile.and_then(|p| p["bottleneck"].as_str());
                    pick_l0(&q, bottleneck, &graph_moves_to(ctx.tree, ctx.node), &graph_combinations(ctx.tree)).and_then(|i| q.remove(i))
                } else {
                    q.pop_front()
                };
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

/// The graph moves that answer a bottleneck the hardware agent names, in
/// the engine's move names.
fn l0_moves_for(bottleneck: &str) -> &'static [&'static str] {
    match bottleneck {
        "transcendentals" => &["fast-math"],
        "a sort for a maximum" => &["top1-as-max"],
        "a sequential scan" => &["interleaved-scan"],
        "layout" => &["pointwise-matmul", "subpixel-deconv-nhwc", "subpixel-deconv", "nhwc-hwio", "nhwc"],
        "a batch norm's passes" => &["bn-scale-shift"],
        _ => &[],
    }
}

/// Which queued graph move to take: the first that answers the routed
/// bottleneck, else the first in the queue. On a path that already has a
/// graph edit only one that answers it: a second rewrite needs a reason
/// of its own, not whatever comes next in the list. Never one that makes
/// a set of rewrites the tree already holds in another order (fast-math
/// then top1-as-max is top1-as-max then fast-math).
fn pick_l0(q: &VecDeque<Move>, bottleneck: Option<&str>, done: &[String], held: &HashSet<Vec<String>>) -> Option<usize> {
    let wanted = bottleneck.map(l0_moves_for).unwrap_or(&[]);
    let new = |m: &Move| {
        let mut set = done.to_vec();
        set.push(m.name.clone());
        set.sort();
        !held.contains(&set)
    };
    let answering = q.iter().position(|m| wanted.contains(&m.name.as_str()) && new(m));
    if !done.is_empty() && bottleneck.is_some() { answering } else { answering.or_else(|| q.iter().position(new)) }
}

/// The graph moves on the path to `node`, by name (a built-in move's
/// rationale starts with it), sorted.
fn graph_moves_to(tree: &CandidateTree, node: u32) -> Vec<String> {
    let mut names: Vec<String> = tree.path_to(node).into_iter().skip(1).filter_map(|id| tree.get(id)).filter(|n| n.record.layer == Layer::L0).map(|n| n.record.rationale.split(':').next().unwrap_or_default().to_string()).collect();
    names.sort();
    names
}

/// Every set of graph moves some node of the tree was made with.
fn graph_combinations(tree: &CandidateTree) -> HashSet<Vec<String>> {
    (1..tree.next_id()).filter(|id| tree.get(*id).is_some_and(|n| n.record.layer == Layer::L0)).map(|id| graph_moves_to(tree, id)).collect()
}

/// Whether a kernel takes enough of the time for a search over its design
/// space to pay (a reshape at 0.1% does not): at least SPACE_MIN_SHARE of
/// kernel time in the profile (any kernel while there is no profile).
fn worth_searching(profile: Option<&Value>, kernel: &str) -> bool {
    let Some(rows) = profile.and_then(|p| p["kernels"].as_array()) else { return true };
    rows.iter().find(|r| r["name"] == kernel).and_then(|r| r["share"].as_f64()).is_some_and(|s| s >= SPACE_MIN_SHARE)
}

/// A kernel's variants among `node`'s children: those measured correct
/// (trace and the candidate's measured seconds; siblings differ only in
/// this kernel, so their times rank its schedules) and every trace
/// already tried.
fn kernel_variants(tree: &CandidateTree, node: u32, kernel: &str) -> (Vec<Value>, Vec<Vec<String>>) {
    let (mut measured, mut tried) = (vec![], vec![]);
    let Some(parent) = tree.get(node) else { return (measured, tried) };
    for c in parent.children.iter().filter_map(|c| tree.get(*c)) {
        if c.record.layer != Layer::L1 || c.record.kernel.as_deref() != Some(kernel) {
            continue;
        }
        let Some(trace) = c.record.trace.clone() else { continue };
        if let Some(ms) = c.result.as_ref().filter(|r| r.correct).and_then(|r| r.candidate_ms).filter(|ms| *ms > 0.0) {
            measured.push(json!({"trace": trace, "seconds": ms / 1e3}));
        }
        tried.push(trace);
    }
    (measured, tried)
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

#[cfg(test)]
mod tests {
    use super::*;

    fn queue(names: &[&str]) -> VecDeque<Move> {
        names.iter().map(|n| Move { name: n.to_string(), rationale: String::new(), body: EditBody::Text(String::new()) }).collect()
    }

    #[test]
    fn a_graph_move_answers_the_routed_bottleneck() {
        let q = queue(&["one-kernel-norm", "fold-constants", "nhwc-hwio", "nhwc", "fast-math"]);
        let none = HashSet::new();
        // First edit: the answering move first, else the queue's order.
        assert_eq!(pick_l0(&q, Some("layout"), &[], &none), Some(2));
        assert_eq!(pick_l0(&q, Some("transcendentals"), &[], &none), Some(4));
        assert_eq!(pick_l0(&q, Some("graph"), &[], &none), Some(0));
        assert_eq!(pick_l0(&q, None, &[], &none), Some(0));
        // Second edit: only an answering move.
        let after = ["top1-as-max".to_string()];
        assert_eq!(pick_l0(&q, Some("layout"), &after, &none), Some(2));
        assert_eq!(pick_l0(&q, Some("a sort for a maximum"), &after, &none), None);
        assert_eq!(pick_l0(&VecDeque::new(), Some("layout"), &[], &none), None);
        // Not a set of rewrites the tree holds in the other order.
        let held: HashSet<Vec<String>> = [vec!["fast-math".to_string(), "top1-as-max".to_string()]].into_iter().collect();
        assert_eq!(pick_l0(&q, Some("transcendentals"), &after, &held), None);
        assert_eq!(pick_l0(&q, Some("layout"), &after, &held), Some(2));
        // At the root, a move the tree holds is passed over for the next.
        let root: HashSet<Vec<String>> = [vec!["one-kernel-norm".to_string()]].into_iter().collect();
        assert_eq!(pick_l0(&q, Some("graph"), &[], &root), Some(1));
    }
}
