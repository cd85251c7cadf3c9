//! Background work: loading tasks and the session index, starting the
//! engine, running strategies through the orchestrator (step mode reviews
//! each proposal through [`StepSupervisor`]), and manual edits whose every
//! save is evaluated. Everything reports back as [`Msg`]s.

use super::action::{Action, Msg};
use super::requests::{DeviceRow, ManualRequest, Mode, ReviewRequest, RunRequest};
use super::sessions;
use crate::agent::orchestrator::{self, Backend, RunSpec, Steering};
use crate::agent::supervisor::AutoAccept;
use crate::agent::{BoxFuture, Budget, Decision, EditProposal, Supervisor};
use crate::workspace::Workspace;
use crate::eval::{EvalOptions, Evaluator};
use crate::paths::Paths;
use crate::session::{EditBody, EditRequest, SessionRunner};
use crate::tasks::TaskSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use tokio::sync::{mpsc, oneshot, watch};

pub type Tx = mpsc::UnboundedSender<Action>;

fn send(tx: &Tx, m: Msg) {
    let _ = tx.send(Action::Msg(m));
}

/// Step mode: every proposal goes to the person and waits for the decision.
pub struct StepSupervisor {
    tx: Tx,
}

impl Supervisor for StepSupervisor {
    fn review<'a>(&'a self, agent: &'a str, parent: u32, proposal: &'a EditProposal) -> BoxFuture<'a, Decision> {
        Box::pin(async move {
            let (reply, answer) = oneshot::channel();
            send(&self.tx, Msg::Review(ReviewRequest { agent: agent.to_string(), parent, proposal: proposal.clone(), reply }));
            // A closed workbench stops the run rather than accepting silently.
            answer.await.unwrap_or(Decision::Stop)
        })
    }
}

pub struct Driver {
    tx: Tx,
    paths: Paths,
    tasks_dir: PathBuf,
    workers: usize,
    device: String,
    tasks: Option<Arc<TaskSet>>,
    evaluator: Arc<Mutex<Option<Arc<Evaluator>>>>,
    engine_failed: bool,
    /// Started with --no-engine: runs and edits are refused at once.
    engine_off: bool,
    pending_run: Option<RunRequest>,
    pending_manual: Option<ManualRequest>,
    steering: Option<watch::Sender<Steering>>,
    manual: Option<tokio::task::JoinHandle<()>>,
}

/// Where sessions live: the user's, then the samples shipped beside the tasks.
pub fn session_dirs(paths: &Paths, tasks_dir: &Path) -> Vec<PathBuf> {
    let mut dirs = vec![paths.data.join("sessions"), PathBuf::from("sessions")];
    if let Some(parent) = tasks_dir.parent() {
        dirs.push(parent.join("sessions"));
    }
    dirs.dedup();
    dirs
}

impl Driver {
    pub fn new(ctx: &Workspace, tx: Tx) -> Self {
        Self {
            tx,
            paths: ctx.paths.clone(),
            tasks_dir: ctx.tasks_dir.clone(),
            workers: ctx.workers,
            device: ctx.device.clone(),
            tasks: None,
            evaluator: Arc::new(Mutex::new(None)),
            engine_failed: false,
            engine_off: false,
            pending_run: None,
            pending_manual: None,
            steering: None,
            manual: None,
        }
    }

    fn ctx(&self) -> Workspace {
        Workspace { paths: self.paths.clone(), tasks_dir: self.tasks_dir.clone(), workers: self.workers, device: self.device.clone() }
    }

    /// Tasks, the session index and the engine, all off the first frame's path.
    pub fn start_background(&mut self, with_engine: bool) {
        self.engine_off = !with_engine;
        let (tx, dir) = (self.tx.clone(), self.tasks_dir.clone());
        tokio::task::spawn_blocking(move || send(&tx, Msg::TasksLoaded(TaskSet::load(&dir).map(Arc::new).map_err(|e| format!("{e:#}")))));
        self.rescan();
        if with_engine {
            self.start_engine();
        }
    }

    /// The engine for the workspace's device, started in the background.
    fn start_engine(&self) {
        let (tx, ctx, slot) = (self.tx.clone(), self.ctx(), self.evaluator.clone());
        tokio::spawn(async move {
            send(&tx, Msg::EngineStarting(format!("preparing the TVM workers for {}", ctx.device)));
            match ctx.evaluator(EvalOptions::default()).await {
                Ok(ev) => {
                    let (lines, complete) = crate::engine::sandbox::summary(&ev.engine.sandbox());
                    *slot.lock().unwrap() = Some(Arc::new(ev));
                    send(&tx, Msg::EngineReady);
                    send(&tx, Msg::SandboxReport(lines, complete));
                }
                Err(e) => send(&tx, Msg::EngineFailed(format!("{e:#}"))),
            }
        });
    }

    /// Loads `devices.toml` and probes each device (an RPC tracker's queue
    /// within 2 s) off the UI thread, for the picker.
    pub fn list_devices(&self) {
        let (tx, paths) = (self.tx.clone(), self.paths.clone());
        tokio::task::spawn_blocking(move || {
            let result = crate::devices::load(&paths).map_err(|e| format!("{e:#}")).map(|devices| {
                devices
                    .iter()
                    .map(|d| {
                        let r = crate::devices::probe(d, std::time::Duration::from_secs(2));
                        DeviceRow { name: d.name.clone(), kind: d.kind().into(), reachable: r.ok, detail: r.detail }
                    })
                    .collect()
            });
            send(&tx, Msg::Devices(result));
        });
    }

    /// Times candidates on `name` from now on: the old engine goes and a new
    /// one starts for the device. Refused while a run or a watched manual
    /// edit still uses the old one.
    pub fn switch_device(&mut self, name: String) {
        if self.steering.is_some() || self.manual.is_some() {
            send(&self.tx, Msg::DeviceSwitched(Err(format!("a run or manual edit is timing on {}: stop it first", self.device))));
            return;
        }
        let ctx = Workspace { device: name.clone(), ..self.ctx() };
        if let Err(e) = ctx.device() {
            send(&self.tx, Msg::DeviceSwitched(Err(format!("{e:#}"))));
            return;
        }
        self.device = name.clone();
        *self.evaluator.lock().unwrap() = None;
        self.engine_failed = false;
        send(&self.tx, Msg::DeviceSwitched(Ok(name)));
        if !self.engine_off {
            self.start_engine();
        }
    }

    pub fn rescan(&self) {
        let (tx, dirs) = (self.tx.clone(), session_dirs(&self.paths, &self.tasks_dir));
        tokio::task::spawn_blocking(move || send(&tx, Msg::SessionIndex(sessions::scan(&dirs))));
    }

    /// Runs and manual edits use this task set from now on.
    pub fn use_tasks(&mut self, set: Arc<TaskSet>) {
        self.tasks = Some(set);
        self.start_pending();
    }

    /// The engine failed: nothing that waits for it will start.
    pub fn drop_pending(&mut self) {
        self.engine_failed = true;
        self.pending_run = None;
        self.pending_manual = None;
    }

    /// The run is over: no more steering, and its session shows in the index.
    pub fn run_ended(&mut self) {
        self.steering = None;
        self.rescan();
    }

    fn ready(&self) -> Option<(Arc<Evaluator>, Arc<TaskSet>)> {
        let ev = self.evaluator.lock().unwrap().clone()?;
        Some((ev, self.tasks.clone()?))
    }

    /// Starts the run or edit that waited for the engine and the tasks, once both are there.
    pub fn start_pending(&mut self) {
        if self.ready().is_none() {
            return;
        }
        if let Some(r) = self.pending_run.take() {
            self.start_run(r);
        }
        if let Some(m) = self.pending_manual.take() {
            self.start_manual(m);
        }
    }

    pub fn load_session(&self, path: PathBuf) {
        let tx = self.tx.clone();
        tokio::task::spawn_blocking(move || {
            let result = crate::session::load(&path).map_err(|e| format!("{e:#}; is it a kwb session log (.jsonl)?"));
            send(&tx, Msg::SessionLoaded { path, result });
        });
    }

    pub fn start_run(&mut self, req: RunRequest) {
        let Some((ev, tasks)) = self.ready() else {
            if self.engine_off {
                send(&self.tx, Msg::RunFinished(Err("the engine is off (--no-engine); start kwb without it to run agents".into())));
            } else if self.engine_failed {
                send(&self.tx, Msg::RunFinished(Err("the engine did not start; `kwb engine doctor` says why".into())));
            } else {
                self.pending_run = Some(req);
            }
            return;
        };
        let session = req.session.clone().unwrap_or_else(|| new_session_path(&self.paths, &req.task));
        let supervisor: Arc<dyn Supervisor> = match req.mode {
            Mode::Step => Arc::new(StepSupervisor { tx: self.tx.clone() }),
            _ => Arc::new(AutoAccept),
        };
        let spec = RunSpec { task: req.task.clone(), strategy: req.strategy, backend: Backend::Builtin, budget: Budget::default(), session: session.clone(), start_node: req.start_node };
        send(&self.tx, Msg::RunStarted { session, mode: req.mode });
        let mut handle = orchestrator::start(ev, tasks, self.paths.clone(), spec, supervisor);
        self.steering = Some(handle.steering.clone());
        let tx = self.tx.clone();
        tokio::spawn(async move {
            while let Some(e) = handle.events.recv().await {
                send(&tx, Msg::RunEvent(e));
            }
            let outcome = match handle.done.await {
                Ok(Ok(s)) => Ok(format!("{} candidates, best {}, stopped by {}", s.candidates, s.best_speedup.map(|b| format!("{b:.3}x")).unwrap_or_else(|| "—".into()), s.stopped_by)),
                Ok(Err(e)) => Err(format!("{e:#}")),
                Err(e) => Err(format!("the run crashed: {e}")),
            };
            send(&tx, Msg::RunFinished(outcome));
        });
    }

    pub fn steer(&self, s: Steering) {
        if let Some(tx) = &self.steering {
            let _ = tx.send(s);
        }
    }

    /// Prepares the file the person edits and starts watching it; returns
    /// the file for the runtime to open in $EDITOR.
    pub fn start_manual(&mut self, mut req: ManualRequest) -> Option<PathBuf> {
        if req.session.is_none()
            && req.text.is_empty()
            && let Some(task) = self.tasks.as_ref().and_then(|t| t.get(&req.task).ok())
        {
            req.text = task.reference_text().unwrap_or_default();
        }
        let file = manual_file(&self.paths, &req);
        if let Err(e) = std::fs::create_dir_all(file.parent().unwrap()).and_then(|_| std::fs::write(&file, &req.text)) {
            send(&self.tx, Msg::ManualStatus(format!("cannot write {}: {e}", file.display())));
            return None;
        }
        let Some((ev, tasks)) = self.ready() else {
            if self.engine_failed || self.engine_off {
                send(&self.tx, Msg::ManualStatus("the engine is not running (--no-engine, or it failed: `kwb engine doctor`); edits cannot be evaluated".into()));
            } else {
                send(&self.tx, Msg::ManualStatus("waiting for the engine; saves are evaluated once it is up".into()));
                self.pending_manual = Some(req);
            }
            return Some(file);
        };
        if let Some(old) = self.manual.take() {
            old.abort();
        }
        let session = req.session.clone().unwrap_or_else(|| new_session_path(&self.paths, &req.task));
        let tx = self.tx.clone();
        let watched = file.clone();
        self.manual = Some(tokio::spawn(async move {
            if let Err(e) = super::manual::watch_and_evaluate(ev, tasks, req, session, watched, tx.clone()).await {
                send(&tx, Msg::ManualStatus(format!("stopped: {e:#}")));
            }
        }));
        Some(file)
    }

    pub fn stop_manual(&mut self) {
        if let Some(h) = self.manual.take() {
            h.abort();
            send(&self.tx, Msg::ManualStatus("stopped watching".into()));
        }
        self.pending_manual = None;
    }
}

fn new_session_path(paths: &Paths, task: &str) -> PathBuf {
    let stamp = crate::session::log::now_ms();
    paths.data.join("sessions").join(format!("{task}-{stamp}.jsonl"))
}

fn manual_file(paths: &Paths, req: &ManualRequest) -> PathBuf {
    let ext = if req.layer == crate::ir::Layer::L2 { "ll" } else { "py" };
    let kernel = req.kernel.as_deref().map(|k| format!("-{k}")).unwrap_or_default();
    paths.scratch().join("manual").join(format!("{}-n{}-{}{kernel}.{ext}", req.task, req.parent, req.layer))
}

/// One save of a manual edit, applied to the session: returns the new node.
pub async fn apply_save(ev: &Evaluator, task: &crate::tasks::Task, session: &Path, parent: u32, req: &ManualRequest, text: String) -> anyhow::Result<Result<u32, String>> {
    let mut runner = if session.exists() { SessionRunner::resume(session, task, ev)? } else { SessionRunner::create(session, task, ev).await? };
    let edit = EditRequest { parent, layer: req.layer, kernel: req.kernel.clone(), body: EditBody::Text(text), author: "human".into(), rationale: "manual edit in $EDITOR".into() };
    Ok(runner.edit(edit).await?.map_err(|f| f.to_string()))
}
