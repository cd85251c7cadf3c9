//! Runs a strategy on one task: asks agents for proposals, has the supervisor
//! review them, applies them through the session runner (which evaluates and
//! logs), and stops at the budget. Used by `kwb run`, `kwb bench --agent` and
//! the workbench.

use super::{Budget, Supervisor};
use crate::eval::Evaluator;
use crate::ir::Layer;
use crate::session::Event;
use crate::tasks::TaskSet;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;
use std::sync::Arc;
use tokio::sync::{mpsc, watch};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Strategy {
    /// One proposal fills the whole IR.
    OneShot,
    /// One general agent edits any layer.
    Flat,
    /// L0/L1/L2 agents, the hardware agent routes, the tree is searched.
    Layered,
}

impl Strategy {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "one-shot" | "oneshot" => Some(Self::OneShot),
            "flat" => Some(Self::Flat),
            "layered" => Some(Self::Layered),
            _ => None,
        }
    }
}

/// Which backend the agents use.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Backend {
    Builtin,
    /// A provider named in the LLM config file.
    Llm { provider: String },
}

#[derive(Debug, Clone)]
pub struct RunSpec {
    pub task: String,
    pub strategy: Strategy,
    pub backend: Backend,
    pub budget: Budget,
    /// The session log: created when missing, resumed when it exists.
    pub session: PathBuf,
    /// Where to start in a resumed session (default: its best node, else the root).
    pub start_node: Option<u32>,
}

/// Steering a running strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Steering {
    pub paused: bool,
    pub cancelled: bool,
    /// A person's choice of the layer that works next (layered only).
    pub next_layer: Option<Layer>,
}

/// How it ended.
#[derive(Debug, Clone, Serialize)]
pub struct RunSummary {
    pub task: String,
    pub session: PathBuf,
    pub best_node: Option<u32>,
    pub best_speedup: Option<f64>,
    pub candidates: u32,
    pub stopped_by: String,
    pub wall_s: f64,
    pub tokens_in: u64,
    pub tokens_out: u64,
}

/// A run in the background.
pub struct RunHandle {
    /// Every event appended to the session log, as it is appended.
    pub events: mpsc::UnboundedReceiver<Event>,
    pub steering: watch::Sender<Steering>,
    pub done: tokio::task::JoinHandle<Result<RunSummary>>,
}

/// Starts a run in the background.
pub fn start(ev: Arc<Evaluator>, tasks: Arc<TaskSet>, paths: crate::paths::Paths, spec: RunSpec, supervisor: Arc<dyn Supervisor>) -> RunHandle {
    let (tx, rx) = mpsc::unbounded_channel();
    let (steer_tx, steer_rx) = watch::channel(Steering::default());
    let done = tokio::spawn(async move { run(&ev, &tasks, &paths, spec, supervisor, tx, steer_rx).await });
    RunHandle { events: rx, steering: steer_tx, done }
}

pub async fn run(
    ev: &Evaluator,
    tasks: &TaskSet,
    paths: &crate::paths::Paths,
    spec: RunSpec,
    supervisor: Arc<dyn Supervisor>,
    events: mpsc::UnboundedSender<Event>,
    steering: watch::Receiver<Steering>,
) -> Result<RunSummary> {
    let task = tasks.get(&spec.task)?;
    let mut runner = if spec.session.exists() {
        SessionRunner::resume(&spec.session, task, ev)?
    } else {
        SessionRunner::create(&spec.session, task, ev).await?
    };
    // What the log held before this run, then everything as it is appended.
    if let Ok(loaded) = crate::session::load(&spec.session) {
        for e in loaded.events {
            let _ = events.send(e);
        }
    }
    runner.observer = Some(events);
    let agents = super::roster::build(&spec, ev, paths)?;
    let machine = crate::roofline::Machine::cached_for(paths, &ev.opts.device);
    let mut search = Search::new(runner, agents, machine, spec.clone(), supervisor, steering);
    search.note(format!("run: {} strategy, {} agents, budget {}", strategy_name(spec.strategy), backend_name(&spec.backend), describe(&spec.budget)))?;
    search.prepare().await?;
    let stopped_by = search.drive().await?;
    search.note(format!("run ended: {stopped_by}"))?;
    Ok(search.summary(stopped_by))
}

pub fn strategy_name(s: Strategy) -> &'static str {
    match s {
        Strategy::OneShot => "one-shot",
        Strategy::Flat => "flat",
        Strategy::Layered => "layered",
    }
}

pub fn backend_name(b: &Backend) -> String {
    match b {
        Backend::Builtin => "built-in".into(),
        Backend::Llm { provider } => format!("LLM ({})", if provider.is_empty() { "default provider" } else { provider }),
    }
}

fn describe(b: &Budget) -> String {
    format!("{:.0}s wall, {} candidates, {} tokens, {:.0}s device", b.wall.as_secs_f64(), b.candidates, b.tokens, b.device.as_secs_f64())
}

use super::search::Search;
use crate::session::SessionRunner;
