//! The search loop behind every strategy. Layered: the hardware agent
//! profiles the node being worked on and routes it to a layer; that layer's
//! agent proposes a round of edits from the node (siblings, measured side by
//! side); then work moves to the best node. A node whose layers have nothing
//! left is a dead end, and the search goes back to the best older node that
//! still has moves. Flat: one agent, no routing. One-shot: one proposal.

use super::hardware::{self, PathFacts};
use super::orchestrator::{RunSpec, RunSummary, Steering, Strategy};
use super::rewrite_lines;
use super::roster::Roster;
use super::session_tools::SessionTools;
use super::{Agent, AgentContext, BudgetLeft, Decision, EditProposal, Proposal, Supervisor, Usage};
use crate::ir::Layer;
use crate::roofline::Machine;
use crate::session::{EditRequest, EventKind, NodeStatus, SessionRunner};
use anyhow::Result;
use serde_json::{Value, json};
use std::collections::{BTreeSet, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Proposals per round at one node, by layer: L1 has a family of schedules
/// to compare, L0 and L2 a handful of alternatives.
fn round_len(layer: Layer) -> u32 {
    match layer {
        Layer::L0 => 2,
        Layer::L1 => 5,
        Layer::L2 => 2,
    }
}

/// An L1 round where kernels not yet scheduled on this path, other than
/// the one the round works on, still hold this share of the kernel time.
const SHARED_TIME: f64 = 0.25;
const SHARED_ROUND: u32 = 2;

/// The proposals for a round at a node with this profile. Where other
/// kernels not yet scheduled hold a real share of the time, an L1 round
/// takes the first two of its kernel's family (the engine ranks them) and
/// the search moves on: on pointnet_cls (27 kernels, 8 s a candidate), the
/// five micro-kernel variants of each conv measured within 3% of each
/// other, and the 3-minute budget ran out after three of its kernels, 0.93x
/// the tuned build with the rest still TVM's default schedules.
fn round_len_at(layer: Layer, profile: &Value, scheduled: &[String]) -> u32 {
    if layer != Layer::L1 {
        return round_len(layer);
    }
    // The round's own kernel is the one the profile routes the layer to,
    // as the agents pick it (`hardware::kernel_for`).
    let own = hardware::kernel_for(Some(profile), layer, scheduled);
    let rows = profile["kernels"].as_array().map(Vec::as_slice).unwrap_or_default();
    let open = rows.iter().filter(|r| r["name"].as_str().is_some_and(|n| own.as_deref() != Some(n) && !scheduled.iter().any(|s| s == n)));
    let others: f64 = open.filter_map(|r| r["share"].as_f64()).sum();
    if others >= SHARED_TIME { SHARED_ROUND } else { round_len(layer) }
}

/// The least grace a candidate gets past the wall budget.
const MIN_GRACE: Duration = Duration::from_secs(30);

/// When a candidate begun at `now` must be done: the wall budget plus a
/// grace of half of it (at least 30 s), and never less than that grace
/// from the candidate's own start (a person may have held the proposal).
/// The budget is checked between candidates; this ends the one in flight.
/// One MetaSchedule sample for argmax took 200 s to lower and 200 s more
/// to build, and kept a one-minute run going for eight.
fn hard_stop(started: Instant, wall: Duration, now: Instant) -> Instant {
    let grace = (wall / 2).max(MIN_GRACE);
    (started + wall + grace).max(now + grace)
}

pub struct Search<'a> {
    runner: SessionRunner<'a>,
    roster: Roster,
    machine: Option<Machine>,
    spec: RunSpec,
    supervisor: Arc<dyn Supervisor>,
    steering: watch::Receiver<Steering>,
    started: Instant,
    /// Nodes and refusals that existed before this run (a resumed session).
    prior: (usize, usize),
    usage: Usage,
    /// Raw profiles by node (measured once each).
    profiles: HashMap<u32, Value>,
    exhausted: HashMap<u32, Vec<Layer>>,
    dead: BTreeSet<u32>,
    /// Nodes a round has started from.
    given_a_round: BTreeSet<u32>,
    /// Rounds spent on each graph rewrite's line (see `rewrite_lines`).
    rewrite_rounds: HashMap<u32, u32>,
    /// Turns in a row in which an agent had nothing at a node: one may be a
    /// model's bad reply, two mean the agent is done there.
    strikes: HashMap<(u32, Option<Layer>), u32>,
    hint: Option<String>,
}

impl<'a> Search<'a> {
    pub fn new(runner: SessionRunner<'a>, roster: Roster, machine: Option<Machine>, spec: RunSpec, supervisor: Arc<dyn Supervisor>, steering: watch::Receiver<Steering>) -> Self {
        let prior = (runner.tree.nodes.len(), runner.tree.refusals.len());
        Self { runner, roster, machine, spec, supervisor, steering, started: Instant::now(), prior, usage: Usage::default(), profiles: HashMap::new(), exhausted: HashMap::new(), dead: BTreeSet::new(), given_a_round: BTreeSet::new(), rewrite_rounds: HashMap::new(), strikes: HashMap::new(), hint: None }
    }

    pub fn note(&mut self, text: String) -> Result<()> {
        self.runner.append(EventKind::Note { text, node: None })
    }

    /// Candidates and device time spent by this run (nodes and refusals since it started).
    fn spent(&self) -> (u32, f64) {
        let t = &self.runner.tree;
        let nodes = t.nodes.len().saturating_sub(self.prior.0.max(1));
        let refused = t.refusals.len().saturating_sub(self.prior.1);
        let device: f64 = t.nodes.iter().skip(self.prior.0).map(|n| n.cost.device_s).sum();
        ((nodes + refused) as u32, device)
    }

    fn budget_left(&self) -> BudgetLeft {
        let b = &self.spec.budget;
        let (cands, device) = self.spent();
        BudgetLeft {
            wall: b.wall.saturating_sub(self.started.elapsed()),
            candidates: b.candidates.saturating_sub(cands),
            tokens: b.tokens.saturating_sub(self.usage.tokens_in + self.usage.tokens_out),
            device: b.device.saturating_sub(Duration::from_secs_f64(device)),
        }
    }

    /// Readies the baseline (`Evaluator::prepare`), then starts the clock:
    /// the wall budget is the agents' time. A failure is the root
    /// evaluation's to report, as it would be without this. A cancel ends
    /// it at once (a cold baseline can take a minute; the engine job is
    /// dropped and its worker killed, and caches are written by rename, so
    /// nothing half-written is kept); `drive` then stops before any work.
    pub async fn prepare(&mut self) -> Result<()> {
        let t0 = Instant::now();
        let mut steering = self.steering.clone();
        let cancelled = async move {
            // A closed channel means no one can cancel: then only `prepare` ends the race.
            if steering.wait_for(|s| s.cancelled).await.is_err() {
                std::future::pending::<()>().await;
            }
        };
        let ready = tokio::select! {
            r = self.runner.ev.prepare(self.runner.task) => r.is_ok(),
            () = cancelled => return Ok(()),
        };
        if ready && t0.elapsed() >= Duration::from_secs(1) {
            self.note(format!("baseline ready in {:.0} s, before the budget's clock", t0.elapsed().as_secs_f64()))?;
        }
        self.started = Instant::now();
        Ok(())
    }

    fn out_of_budget(&self) -> Option<String> {
        let left = self.budget_left();
        if left.wall.is_zero() {
            Some("wall-clock budget".into())
        } else if left.candidates == 0 {
            Some("candidate budget".into())
        } else if left.tokens == 0 {
            Some("token budget".into())
        } else if left.device.is_zero() {
            Some("device-time budget".into())
        } else {
            None
        }
    }

    /// Waits while paused; returns a reason to stop if cancelled.
    async fn steer(&mut self) -> Option<String> {
        loop {
            let s = *self.steering.borrow();
            if s.cancelled {
                return Some("cancelled".into());
            }
            if !s.paused {
                return None;
            }
            if self.steering.changed().await.is_err() {
                return None;
            }
        }
    }

    pub async fn drive(&mut self) -> Result<String> {
        if let Some(r) = self.steer().await {
            return Ok(r);
        }
        // The starting point's own evaluation, so every edit has a measured parent.
        if self.runner.tree.get(0).is_some_and(|n| n.status == NodeStatus::New) {
            self.runner.evaluate(0, Instant::now()).await?;
        }
        match self.spec.strategy {
            Strategy::OneShot => self.one_shot().await,
            Strategy::Flat | Strategy::Layered => self.search().await,
        }
    }

    async fn one_shot(&mut self) -> Result<String> {
        let node = self.spec.start_node.unwrap_or(0);
        let mut agent = self.roster.general.take().expect("one-shot has a general agent");
        self.ask_and_apply(agent.as_mut(), node, None, None).await?;
        self.roster.general = Some(agent);
        Ok("one proposal made".into())
    }

    /// The node to work from: the start node first, then each graph
    /// rewrite's line until it is judged, then the best node that is not a
    /// dead end, else the fastest correct one that still has moves.
    fn choose_node(&mut self, first: bool) -> Option<u32> {
        if first && let Some(n) = self.spec.start_node.filter(|n| self.runner.tree.get(*n).is_some()) {
            return Some(n);
        }
        let t = &self.runner.tree;
        // A layout change (an L0 edit) pays only once its kernels are
        // scheduled for it (conv2d in NHWC: 30x slower than the tuned build
        // as it is, 1.6x faster with a register tile), so each gets one round
        // before it is judged by its own time, in the order the agent
        // ranked them (their own times differ by noise); a line still below
        // parity gets one more.
        if self.spec.strategy == Strategy::Layered {
            let untried = t.nodes.iter().filter(|n| n.id() != 0 && n.record.layer == Layer::L0 && n.status == NodeStatus::Correct && n.children.is_empty());
            if let Some(n) = untried.filter(|n| !self.dead.contains(&n.id()) && !self.given_a_round.contains(&n.id())).min_by_key(|n| n.id()) {
                *self.rewrite_rounds.entry(n.id()).or_default() += 1;
                return Some(n.id());
            }
            if let Some((rewrite, node)) = rewrite_lines::unfinished_line(t, &self.rewrite_rounds, &self.dead) {
                *self.rewrite_rounds.entry(rewrite).or_default() += 1;
                return Some(node);
            }
        }
        let mut live: Vec<(f64, u32)> = t
            .nodes
            .iter()
            .filter(|n| !self.dead.contains(&n.id()))
            .filter(|n| n.status == NodeStatus::Correct || n.id() == 0)
            .map(|n| (n.valid_speedup().unwrap_or(if n.id() == 0 { 0.5 } else { 0.0 }), n.id()))
            .collect();
        live.sort_by(|a, b| b.0.total_cmp(&a.0));
        live.first().map(|x| x.1)
    }

    async fn search(&mut self) -> Result<String> {
        let mut first = true;
        loop {
            if let Some(r) = self.steer().await {
                return Ok(r);
            }
            if let Some(r) = self.out_of_budget() {
                return Ok(r);
            }
            let Some(node) = self.choose_node(first) else { return Ok("search exhausted: no node has moves left".into()) };
            first = false;
            self.given_a_round.insert(node);
            if self.spec.strategy == Strategy::Flat {
                let mut agent = self.roster.general.take().expect("flat has a general agent");
                let r = self.flat_round(agent.as_mut(), node).await;
                self.roster.general = Some(agent);
                if let Some(stop) = r? {
                    return Ok(stop);
                }
                continue;
            }
            let profile = self.route(node).await?;
            let chosen = self.steering.borrow().next_layer.or_else(|| profile["route"].as_str().and_then(Layer::parse));
            let Some(layer) = chosen else {
                self.dead.insert(node);
                continue;
            };
            let Some(mut agent) = self.roster.by_layer.remove(&layer) else {
                self.exhausted.entry(node).or_default().push(layer);
                continue;
            };
            let r = self.layer_round(agent.as_mut(), node, layer, &profile).await;
            self.roster.by_layer.insert(layer, agent);
            if let Some(stop) = r? {
                return Ok(stop);
            }
        }
    }

    /// Profiles `node` (once) and logs the hardware agent's routing.
    async fn route(&mut self, node: u32) -> Result<Value> {
        if !self.profiles.contains_key(&node) {
            let texts = self.runner.tree.get(node).map(|n| n.record.texts.clone()).unwrap_or_default();
            let raw = match hardware::measure(&self.runner.ev.engine, &self.runner.ev.opts.target, self.runner.task, &texts).await {
                Ok(p) => p,
                Err(f) => json!({"error": f.to_string(), "kernels": []}),
            };
            self.profiles.insert(node, raw);
        }
        let raw = self.profiles[&node].clone();
        let facts = PathFacts::of(&self.runner.tree, node);
        let l0 = self.runner.tree.get(node).map(|n| n.record.texts.l0.clone()).unwrap_or_default();
        let exhausted = self.exhausted.get(&node).cloned().unwrap_or_default();
        let mut profile = hardware::analyse(raw, self.machine.as_ref(), &facts, &l0, &exhausted);
        profile["agent"] = json!("hardware");
        self.runner.append(EventKind::Profile { node, profile: profile.clone() })?;
        Ok(profile)
    }

    async fn layer_round(&mut self, agent: &mut dyn Agent, node: u32, layer: Layer, profile: &Value) -> Result<Option<String>> {
        let scheduled = PathFacts::of(&self.runner.tree, node).l1_kernels;
        for _ in 0..round_len_at(layer, profile, &scheduled) {
            if let Some(r) = self.steer().await {
                return Ok(Some(r));
            }
            if let Some(r) = self.out_of_budget() {
                return Ok(Some(r));
            }
            match self.ask_and_apply(agent, node, Some(layer), Some(profile)).await? {
                Step::Applied | Step::Rejected => {
                    self.strikes.remove(&(node, Some(layer)));
                }
                Step::Exhausted => {
                    if self.strike(node, Some(layer)) {
                        self.exhausted.entry(node).or_default().push(layer);
                    }
                    break;
                }
                Step::Stop => return Ok(Some("stopped by the person".into())),
            }
        }
        Ok(None)
    }

    async fn flat_round(&mut self, agent: &mut dyn Agent, node: u32) -> Result<Option<String>> {
        for _ in 0..round_len(Layer::L1) {
            if let Some(r) = self.steer().await {
                return Ok(Some(r));
            }
            if let Some(r) = self.out_of_budget() {
                return Ok(Some(r));
            }
            match self.ask_and_apply(agent, node, None, None).await? {
                Step::Applied | Step::Rejected => {
                    self.strikes.remove(&(node, None));
                }
                Step::Exhausted => {
                    if self.strike(node, None) {
                        self.dead.insert(node);
                    }
                    break;
                }
                Step::Stop => return Ok(Some("stopped by the person".into())),
            }
        }
        Ok(None)
    }

    /// Counts a turn with nothing to propose; true once the agent is done at the node.
    fn strike(&mut self, node: u32, layer: Option<Layer>) -> bool {
        let n = self.strikes.entry((node, layer)).or_default();
        *n += 1;
        *n >= 2
    }

    /// One proposal from `agent` at `node`, reviewed and applied.
    async fn ask_and_apply(&mut self, agent: &mut dyn Agent, node: u32, layer: Option<Layer>, profile: Option<&Value>) -> Result<Step> {
        loop {
            let budget = self.budget_left();
            let turn = {
                let tools = SessionTools { tree: &self.runner.tree, ev: self.runner.ev, task: self.runner.task, machine: self.machine.as_ref() };
                let ctx = AgentContext { task: self.runner.task, tree: &self.runner.tree, node, layer, profile, hint: self.hint.as_deref(), budget };
                agent.propose(&ctx, &tools).await
            };
            let name = agent.name();
            let turn = match turn {
                Ok(t) => t,
                Err(e) => {
                    self.runner.append(EventKind::Note { text: format!("{name} failed: {e:#}"), node: Some(node) })?;
                    return Ok(Step::Exhausted);
                }
            };
            self.usage.tokens_in += turn.usage.tokens_in;
            self.usage.tokens_out += turn.usage.tokens_out;
            self.usage.calls += turn.usage.calls;
            if !turn.transcript.is_empty() {
                self.runner.append(EventKind::Note { text: format!("{name}: {}", turn.transcript.join("; ")), node: Some(node) })?;
            }
            let proposal = match turn.proposal {
                Proposal::Exhausted { reason } => {
                    self.runner.append(EventKind::Note { text: format!("{name}: {reason}"), node: Some(node) })?;
                    return Ok(Step::Exhausted);
                }
                Proposal::Edit(p) => p,
            };
            let decision = self.supervisor.review(&name, node, &proposal).await;
            let (author, proposal) = match decision {
                Decision::Accept => (name.clone(), proposal),
                Decision::Replace(p) => {
                    self.runner.append(EventKind::HumanAction { action: "edit_proposal".into(), node: Some(node), detail: json!({"agent": name}) })?;
                    (format!("{name}+human"), p)
                }
                Decision::Reject => {
                    self.runner.append(EventKind::HumanAction { action: "reject".into(), node: Some(node), detail: json!({"agent": name, "rationale": proposal.rationale}) })?;
                    return Ok(Step::Rejected);
                }
                Decision::Retry { hint } => {
                    self.runner.append(EventKind::HumanAction { action: "retry".into(), node: Some(node), detail: json!({"agent": name, "hint": hint}) })?;
                    self.hint = Some(hint);
                    continue;
                }
                Decision::Stop => {
                    self.runner.append(EventKind::HumanAction { action: "stop".into(), node: Some(node), detail: Value::Null })?;
                    return Ok(Step::Stop);
                }
            };
            self.hint = None;
            self.apply(node, author, proposal, turn.usage).await?;
            return Ok(Step::Applied);
        }
    }

    async fn apply(&mut self, parent: u32, author: String, p: EditProposal, usage: Usage) -> Result<()> {
        let req = EditRequest { parent, layer: p.layer, kernel: p.kernel, body: p.body, author, rationale: p.rationale };
        self.runner.deadline = Some(hard_stop(self.started, self.spec.budget.wall, Instant::now()));
        let outcome = self.runner.edit_with_tokens(req, usage.tokens_in, usage.tokens_out).await;
        self.runner.deadline = None;
        match outcome {
            Ok(_) => Ok(()),
            // A malformed request (no kernel named, a trace at L0) is the agent's bug: log it, go on.
            Err(e) => self.runner.append(EventKind::Note { text: format!("edit not applied: {e:#}"), node: Some(parent) }),
        }
    }

    pub fn summary(&self, stopped_by: String) -> RunSummary {
        let best = self.runner.tree.best();
        let (cands, _) = self.spent();
        RunSummary {
            task: self.runner.task.id().to_string(),
            session: self.spec.session.clone(),
            best_node: best.map(|n| n.id()),
            best_speedup: best.and_then(|n| n.valid_speedup()),
            candidates: cands,
            stopped_by,
            wall_s: self.started.elapsed().as_secs_f64(),
            tokens_in: self.usage.tokens_in,
            tokens_out: self.usage.tokens_out,
        }
    }
}

enum Step {
    Applied,
    Rejected,
    Exhausted,
    Stop,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile(shares: &[(&str, f64)]) -> Value {
        json!({"kernels": shares.iter().map(|(n, s)| json!({"name": n, "share": s})).collect::<Vec<_>>()})
    }

    #[test]
    fn an_l1_round_is_short_while_other_unscheduled_kernels_hold_the_time() {
        let p = profile(&[("conv1d5", 0.62), ("conv1d2", 0.2), ("conv1d4", 0.1), ("max_pool", 0.08)]);
        assert_eq!(round_len_at(Layer::L1, &p, &[]), SHARED_ROUND);
        // conv1d2 and conv1d4 already scheduled: the rest hold 8%.
        assert_eq!(round_len_at(Layer::L1, &p, &["conv1d2".into(), "conv1d4".into()]), round_len(Layer::L1));
        // The round's own kernel is the first one left, not the hottest row.
        let q = profile(&[("conv1d5", 0.7), ("conv1d2", 0.2), ("relu", 0.1)]);
        assert_eq!(round_len_at(Layer::L1, &q, &["conv1d5".into()]), round_len(Layer::L1));
        assert_eq!(round_len_at(Layer::L1, &profile(&[("matmul", 1.0)]), &[]), round_len(Layer::L1));
        assert_eq!(round_len_at(Layer::L0, &p, &[]), round_len(Layer::L0));
        assert_eq!(round_len_at(Layer::L1, &json!({"error": "no profile"}), &[]), round_len(Layer::L1));
    }

    #[test]
    fn a_candidate_ends_at_the_budget_and_its_grace_and_is_never_given_less_than_the_grace() {
        let t0 = Instant::now();
        let s = Duration::from_secs;
        // One minute: 30 s of grace, however early the candidate began.
        assert_eq!(hard_stop(t0, s(60), t0 + s(10)), t0 + s(90));
        assert_eq!(hard_stop(t0, s(60), t0 + s(61)), t0 + s(91));
        // Three minutes: half of it.
        assert_eq!(hard_stop(t0, s(180), t0 + s(100)), t0 + s(270));
        // A proposal held by a person past the budget still gets the grace.
        assert_eq!(hard_stop(t0, s(60), t0 + s(500)), t0 + s(530));
    }
}
