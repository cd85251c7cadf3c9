//! Step mode: a person reviews each proposal before it is applied.

use super::{BoxFuture, EditProposal};

/// What the person decided about one proposal.
#[derive(Debug, Clone)]
pub enum Decision {
    Accept,
    Reject,
    /// Apply this instead (the person edited the proposal).
    Replace(EditProposal),
    /// Ask the agent again with this hint.
    Retry { hint: String },
    /// Stop the run.
    Stop,
}

/// Reviews proposals. Auto mode accepts everything; the TUI's step mode waits
/// for a key.
pub trait Supervisor: Send + Sync {
    fn review<'a>(&'a self, agent: &'a str, parent: u32, proposal: &'a EditProposal) -> BoxFuture<'a, Decision>;
}

/// Accepts every proposal (headless runs, auto mode).
pub struct AutoAccept;

impl Supervisor for AutoAccept {
    fn review<'a>(&'a self, _agent: &'a str, _parent: u32, _proposal: &'a EditProposal) -> BoxFuture<'a, Decision> {
        Box::pin(async { Decision::Accept })
    }
}
