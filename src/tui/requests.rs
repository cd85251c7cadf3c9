//! The vocabulary shared by the update code and the background work:
//! run modes, review requests, editor purposes and the effects the update
//! code asks the runtime to carry out.

use crate::agent::orchestrator::{Steering, Strategy};
use crate::agent::{Decision, EditProposal};
use crate::ir::Layer;
use crate::tasks::TaskSet;
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::oneshot;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Each proposal waits for the person.
    Step,
    /// Proposals are applied within the budget.
    Auto,
    /// The person edits a layer in $EDITOR; every save is a new node.
    Manual,
}

impl Mode {
    pub fn label(self) -> &'static str {
        match self {
            Self::Step => "step",
            Self::Auto => "auto",
            Self::Manual => "manual",
        }
    }
}

/// A proposal waiting for the person's decision.
#[derive(Debug)]
pub struct ReviewRequest {
    pub agent: String,
    pub parent: u32,
    pub proposal: EditProposal,
    pub reply: oneshot::Sender<Decision>,
}

#[derive(Debug, Clone)]
pub enum EditorPurpose {
    /// The proposal under review, edited before it is applied.
    Proposal,
}

#[derive(Debug, Clone)]
pub struct RunRequest {
    pub task: String,
    pub strategy: Strategy,
    pub mode: Mode,
    pub session: Option<PathBuf>,
    pub start_node: Option<u32>,
}

#[derive(Debug, Clone)]
pub struct ManualRequest {
    pub task: String,
    /// None: a new session is created from the task's reference.
    pub session: Option<PathBuf>,
    pub parent: u32,
    pub layer: Layer,
    pub kernel: Option<String>,
    pub text: String,
}

/// A device in the workbench's picker: what `kwb devices` lists.
#[derive(Debug, Clone, PartialEq)]
pub struct DeviceRow {
    pub name: String,
    pub kind: String,
    pub reachable: bool,
    pub detail: String,
}

/// What the update code asks the runtime to do (I/O never happens in update).
#[derive(Debug, Clone)]
pub enum Effect {
    Quit,
    Suspend,
    LoadSession(PathBuf),
    /// Read a task's model.py for the task browser; the text comes back as
    /// [`Msg::TaskSource`](crate::tui::action::Msg::TaskSource).
    ReadTaskSource { task: String, path: PathBuf },
    /// Runs and manual edits may use these tasks now (and start what waited for them).
    TasksReady(Arc<TaskSet>),
    /// The engine is up: start the run or edit that waited for it.
    StartPending,
    /// Load and probe the configured devices for the picker.
    ListDevices,
    /// Time candidates on this device from now on (a new engine for it).
    SwitchDevice(String),
    /// The engine will not come up: what waited for it cannot start.
    DropPending,
    /// A run ended: its steering goes, and the session index is read again.
    RunEnded,
    StartRun(RunRequest),
    Steer(Steering),
    StartManual(ManualRequest),
    StopManual,
    OpenEditor { text: String, suffix: &'static str, purpose: EditorPurpose },
    ReloadConfig,
    SetMouse(bool),
}
