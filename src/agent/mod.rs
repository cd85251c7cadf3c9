//! Agents: who proposes the next edit, at which layer, and why.
//!
//! An agent sees an [`AgentContext`] (the task, the node it starts from, the
//! layer it owns, the latest evaluation and profile, the branch's history and
//! what is left of the budget) and returns a [`Proposal`]. It never builds or
//! times anything itself: the orchestrator evaluates every proposal through
//! the engine and appends everything to the session log. Agents that need
//! information (an LLM asking to view a layer or time a candidate) call the
//! [`Tools`] they are given.

pub mod budget;
pub mod builtin;
pub mod hardware;
pub mod llm_agent;
pub mod orchestrator;
mod reuse;
mod rewrite_lines;
mod roster;
mod search;
mod sweep;
pub mod session_tools;
pub mod supervisor;

pub use budget::{Budget, BudgetLeft};
pub use supervisor::{Decision, Supervisor};

use crate::ir::Layer;
use crate::session::tree::CandidateTree;
use crate::session::EditBody;
use crate::tasks::Task;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;

pub type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// What an agent is shown before it proposes.
pub struct AgentContext<'a> {
    pub task: &'a Task,
    pub tree: &'a CandidateTree,
    /// The node the proposal starts from.
    pub node: u32,
    /// The layer this agent owns (None for flat and one-shot agents, which may edit any).
    pub layer: Option<Layer>,
    /// The hardware agent's latest profile of `node`, if any (JSON as logged).
    pub profile: Option<&'a Value>,
    /// A person's hint, typed in step mode ("try tiling the k loop").
    pub hint: Option<&'a str>,
    pub budget: BudgetLeft,
}

/// What an agent proposes: one edit at one layer, with its reason.
#[derive(Debug, Clone)]
pub struct EditProposal {
    pub layer: Layer,
    pub kernel: Option<String>,
    pub body: EditBody,
    pub rationale: String,
}

#[derive(Debug, Clone)]
pub enum Proposal {
    Edit(EditProposal),
    /// The agent has nothing (more) to try from this node; the reason is logged.
    Exhausted { reason: String },
}

/// Tokens an agent spent on its last proposal (zero for the built-in ones).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Usage {
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub calls: u32,
}

/// One proposal and what it cost.
#[derive(Debug, Clone)]
pub struct Turn {
    pub proposal: Proposal,
    pub usage: Usage,
    /// What the agent did on the way (tool calls, retries, refusals), logged as notes.
    pub transcript: Vec<String>,
}

/// Information an agent may ask for while it works. The orchestrator
/// implements it over the engine and the session; every call is logged.
pub trait Tools: Send + Sync {
    /// A node's text at one layer (for L1/L2, one kernel; `kernel` None lists kernels).
    fn view(&self, node: u32, layer: Layer, kernel: Option<&str>) -> Result<String, String>;
    /// A unified diff between two nodes at one layer.
    fn diff(&self, a: u32, b: u32, layer: Layer, kernel: Option<&str>) -> Result<String, String>;
    /// Builds, checks and times a node: the evaluation's summary as JSON.
    fn evaluate<'a>(&'a self, node: u32) -> BoxFuture<'a, Result<Value, String>>;
    /// The hardware agent's profile of a node.
    fn profile<'a>(&'a self, node: u32) -> BoxFuture<'a, Result<Value, String>>;
}

/// An agent that proposes edits.
pub trait Agent: Send {
    /// Name as recorded in the session log (the node's author).
    fn name(&self) -> String;
    fn propose<'a>(&'a mut self, ctx: &'a AgentContext<'a>, tools: &'a dyn Tools) -> BoxFuture<'a, anyhow::Result<Turn>>;
}
