//! The candidate tree, rebuilt only by replaying a session's events: the
//! TUI, resume, replay and export all read the same state.

use super::event::{Cost, Event, EventKind, NodeRecord};
use crate::eval::EvalResult;
use crate::failure::Failure;
use serde::Serialize;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum NodeStatus {
    New,
    Evaluating,
    Correct,
    Failed,
}

#[derive(Debug, Clone, Serialize)]
pub struct Node {
    pub record: NodeRecord,
    pub status: NodeStatus,
    pub result: Option<EvalResult>,
    pub cost: Cost,
    pub pinned: bool,
    pub marks: Vec<String>,
    pub children: Vec<u32>,
}

impl Node {
    pub fn id(&self) -> u32 {
        self.record.id
    }
    /// The speedup when it counts: correct and validly timed.
    pub fn valid_speedup(&self) -> Option<f64> {
        self.result.as_ref().filter(|r| r.correct && r.timing_valid).and_then(|r| r.speedup_median)
    }
    /// The point estimate of a correct node, valid interval or not: what
    /// the search ranks by (a wide interval still says which side it is on).
    pub fn point_speedup(&self) -> Option<f64> {
        self.result.as_ref().filter(|r| r.correct).and_then(|r| r.speedup_median).filter(|s| s.is_finite())
    }
}

/// Edits refused before they became nodes.
#[derive(Debug, Clone, Serialize)]
pub struct Refusal {
    pub parent: u32,
    pub author: String,
    pub failure: Failure,
}

#[derive(Debug, Default, Clone, Serialize)]
pub struct CandidateTree {
    /// Indexed by node id (ids are dense, from 0 for the root).
    pub nodes: Vec<Node>,
    pub refusals: Vec<Refusal>,
    pub notes: Vec<(Option<u32>, String)>,
    pub last_seq: u64,
}

impl CandidateTree {
    pub fn from_events<'a>(events: impl IntoIterator<Item = &'a Event>) -> Self {
        let mut t = Self::default();
        for e in events {
            t.apply(e);
        }
        t
    }

    /// Applies one event. Events that name unknown nodes are ignored (a log
    /// that lost its last event stays loadable).
    pub fn apply(&mut self, e: &Event) {
        self.last_seq = e.seq;
        match &e.kind {
            EventKind::Edit { node } => {
                if node.id as usize != self.nodes.len() {
                    return;
                }
                if let Some(p) = node.parent {
                    match self.nodes.get_mut(p as usize) {
                        Some(parent) => parent.children.push(node.id),
                        None => return,
                    }
                }
                self.nodes.push(Node { record: node.clone(), status: NodeStatus::New, result: None, cost: Cost::default(), pinned: false, marks: vec![], children: vec![] });
            }
            EventKind::EvalStarted { node } => {
                if let Some(n) = self.nodes.get_mut(*node as usize) {
                    n.status = NodeStatus::Evaluating;
                }
            }
            EventKind::EvalFinished { node, result, cost } => {
                if let Some(n) = self.nodes.get_mut(*node as usize) {
                    n.status = if result.correct { NodeStatus::Correct } else { NodeStatus::Failed };
                    n.result = Some((**result).clone());
                    n.cost.wall_s += cost.wall_s;
                    n.cost.tokens_in += cost.tokens_in;
                    n.cost.tokens_out += cost.tokens_out;
                    n.cost.device_s += cost.device_s;
                }
            }
            EventKind::Refused { parent, author, failure, .. } => {
                self.refusals.push(Refusal { parent: *parent, author: author.clone(), failure: failure.clone() });
            }
            EventKind::HumanAction { action, node: Some(id), detail } => {
                if let Some(n) = self.nodes.get_mut(*id as usize) {
                    match action.as_str() {
                        "pin" => n.pinned = true,
                        "unpin" => n.pinned = false,
                        "mark" => n.marks.push(detail.as_str().unwrap_or("marked").to_string()),
                        "unmark" => n.marks.clear(),
                        _ => {}
                    }
                }
            }
            EventKind::Note { text, node } => self.notes.push((*node, text.clone())),
            _ => {}
        }
    }

    pub fn get(&self, id: u32) -> Option<&Node> {
        self.nodes.get(id as usize)
    }

    pub fn next_id(&self) -> u32 {
        self.nodes.len() as u32
    }

    /// The correct, validly timed node with the highest speedup.
    pub fn best(&self) -> Option<&Node> {
        self.nodes.iter().filter(|n| n.valid_speedup().is_some()).max_by(|a, b| a.valid_speedup().unwrap().total_cmp(&b.valid_speedup().unwrap()))
    }

    /// The `k` agent-made candidates that were correct and that the search
    /// saw faster than the root (the reference), fastest first by their
    /// search-time point estimate, whether or not that timing was valid: on
    /// a noisy machine the fastest candidate is often the one whose
    /// interval came out too wide, and measuring the finalists again
    /// decides between them. None when nothing beat the reference.
    pub fn finalists(&self, k: usize) -> Vec<&Node> {
        let root = self.get(0).and_then(Node::point_speedup).unwrap_or(0.0);
        let mut v: Vec<&Node> = self.nodes.iter().filter(|n| n.id() != 0 && n.point_speedup().is_some_and(|s| s > root)).collect();
        let point = |n: &Node| n.point_speedup().unwrap_or(0.0);
        v.sort_by(|a, b| point(b).total_cmp(&point(a)).then(a.id().cmp(&b.id())));
        v.truncate(k);
        v
    }

    /// Ids from the root down to `id`.
    pub fn path_to(&self, id: u32) -> Vec<u32> {
        let mut path = vec![];
        let mut cur = self.get(id);
        while let Some(n) = cur {
            path.push(n.id());
            cur = n.record.parent.and_then(|p| self.get(p));
        }
        path.reverse();
        path
    }

    /// The tree as indented lines: id, layer, author, status, speedup.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let best = self.best().map(Node::id);
        if !self.nodes.is_empty() {
            self.render_node(0, 0, best, &mut out);
        }
        out
    }

    fn render_node(&self, id: u32, depth: usize, best: Option<u32>, out: &mut String) {
        let n = &self.nodes[id as usize];
        let status = match (&n.status, &n.result) {
            (NodeStatus::Failed, Some(r)) => format!("failed: {}", r.failure_class.map(|c| c.to_string()).unwrap_or_default()),
            (NodeStatus::Correct, Some(r)) => match (r.speedup_median, r.timing_valid) {
                (Some(x), true) => format!("{x:.3}x"),
                (Some(x), false) => format!("{x:.3}x (timing invalid)"),
                _ => "correct".into(),
            },
            (s, _) => format!("{s:?}").to_lowercase(),
        };
        let kernel = n.record.kernel.as_deref().map(|k| format!(" [{k}]")).unwrap_or_default();
        out.push_str(&format!(
            "{}#{} {}{} by {}: {}{}{}{}{}\n",
            "  ".repeat(depth),
            n.id(),
            n.record.layer,
            kernel,
            n.record.author,
            status,
            if Some(n.id()) == best { "  <- best" } else { "" },
            if n.pinned { "  (pinned)" } else { "" },
            if n.marks.is_empty() { String::new() } else { format!("  [{}]", n.marks.join(", ")) },
            if n.record.rationale.is_empty() { String::new() } else { format!("  -- {}", n.record.rationale) },
        ));
        for c in &n.children {
            self.render_node(*c, depth + 1, best, out);
        }
    }
}

#[cfg(test)]
impl CandidateTree {
    /// A chain of nodes for tests: the root at 1.0x, then one node per
    /// point (its speedup, None for a wrong candidate, and whether its
    /// timing was valid).
    pub(crate) fn synthetic(points: &[(Option<f64>, bool)]) -> Self {
        let nodes: Vec<_> = (0u32..).zip(points).map(|(parent, (s, valid))| (parent, crate::ir::Layer::L1, *s, *valid)).collect();
        Self::synthetic_nodes(&nodes)
    }

    /// A tree for tests: the root at 1.0x, then nodes 1, 2, ... given as
    /// (parent, layer, speedup or None for a wrong one), validly timed.
    pub(crate) fn synthetic_tree(nodes: &[(u32, crate::ir::Layer, Option<f64>)]) -> Self {
        let nodes: Vec<_> = nodes.iter().map(|(p, l, s)| (*p, *l, *s, true)).collect();
        Self::synthetic_nodes(&nodes)
    }

    fn synthetic_nodes(nodes: &[(u32, crate::ir::Layer, Option<f64>, bool)]) -> Self {
        use super::event::{Event, EventKind, NodeRecord};
        use serde_json::json;
        let mut events = Vec::new();
        let mut seq = 0;
        let root = (u32::MAX, crate::ir::Layer::L0, Some(1.0), true);
        for (id, (parent, layer, s, valid)) in (0u32..).zip(std::iter::once(&root).chain(nodes)) {
            let parent = (id > 0).then_some(*parent);
            let node = NodeRecord { id, parent, layer: *layer, kernel: None, author: "t".into(), rationale: String::new(), trace: None, texts: Default::default() };
            seq += 1;
            events.push(Event { seq, ts_ms: seq, kind: EventKind::Edit { node } });
            let result = json!({
                "task": "t", "candidate_sha256": "x", "compile_ok": true, "correct": s.is_some(), "seeds": [], "max_errors": [],
                "failure_class": null, "failure": null, "candidate_ms": 1.0, "baseline_ms": 1.0, "speedup_median": s,
                "timing_valid": s.is_some() && *valid, "spread": null, "ci": null, "samples": 0, "sample_list": [], "timing_rounds": 0,
                "compile_s": null, "wall_s": 0.0, "engine_overhead_s": 0.0, "stages": [],
                "manifest": {"kwb_version": "0", "protocol": 1, "versions": null, "target": null, "device": "d", "baseline": "b",
                             "task_hash": "", "config_hash": "", "config": null, "created_unix_s": 0}
            });
            seq += 1;
            events.push(Event { seq, ts_ms: seq, kind: EventKind::EvalFinished { node: id, result: Box::new(serde_json::from_value(result).unwrap()), cost: Default::default() } });
        }
        Self::from_events(&events)
    }
}

#[cfg(test)]
mod tests {
    use super::CandidateTree;

    #[test]
    fn finalists_are_the_fastest_correct_candidates_valid_or_not() {
        // Node 2 is the fastest but its interval was too wide; node 4 is wrong.
        let t = CandidateTree::synthetic(&[(Some(0.9), true), (Some(1.4), false), (Some(1.1), true), (None, false), (Some(1.0), true)]);
        let ids: Vec<u32> = t.finalists(3).iter().map(|n| n.id()).collect();
        assert_eq!(ids, vec![2, 3], "node 5 is no faster than the root's 1.0x");
        assert_eq!(t.best().map(|n| n.id()), Some(3), "best counts valid timings only");
        let t = CandidateTree::synthetic(&[(Some(1.2), true), (Some(1.4), false), (Some(1.1), true), (Some(1.3), true)]);
        assert_eq!(t.finalists(3).iter().map(|n| n.id()).collect::<Vec<_>>(), vec![2, 4, 1], "three at most");
        assert!(CandidateTree::synthetic(&[(None, false)]).finalists(3).is_empty(), "the root is never a finalist");
        assert!(CandidateTree::synthetic(&[(Some(0.8), true), (Some(0.99), false)]).finalists(3).is_empty(), "nothing beat the reference");
    }
}
