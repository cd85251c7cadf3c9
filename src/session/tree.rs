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
