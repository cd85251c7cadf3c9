//! Driving a session: derive layers through the engine, append every step
//! to the log, evaluate, and keep the tree in step with the log.

use super::event::{Cost, EventKind, Header, NodeRecord, SCHEMA_VERSION};
use super::log::{SessionLog, now_ms};
use super::tree::CandidateTree;
use crate::engine::Job;
use crate::eval::{BuildSource, Evaluator};
use crate::failure::{Failure, FailureClass};
use crate::ir::{Layer, LayerTexts};
use crate::tasks::Task;
use anyhow::{Result, bail};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

/// One edit at one layer.
#[derive(Debug, Clone)]
pub struct EditRequest {
    pub parent: u32,
    pub layer: Layer,
    pub kernel: Option<String>,
    pub body: EditBody,
    pub author: String,
    pub rationale: String,
}

#[derive(Debug, Clone)]
pub enum EditBody {
    /// New text for the layer (L0: the Relax module; L1: one PrimFunc; L2: one kernel's LLVM IR).
    Text(String),
    /// L1 only: schedule primitives applied to the parent's kernel.
    Trace(Vec<String>),
    /// L1 only, naming no kernel: one trace for each of several kernels,
    /// applied in turn as one candidate (a sweep over a graph's kernels).
    Traces(Vec<(String, Vec<String>)>),
}

/// How a sweep's traces read as one text: each kernel's trace under a
/// `# kernel <name>` line.
const SWEEP_HEADER: &str = "# kernel ";

impl EditBody {
    /// The body as a person edits it in $EDITOR.
    pub fn editable_text(&self) -> String {
        match self {
            EditBody::Text(t) => t.clone(),
            EditBody::Trace(lines) => lines.join("\n"),
            EditBody::Traces(traces) => traces.iter().map(|(k, lines)| format!("{SWEEP_HEADER}{k}\n{}", lines.join("\n"))).collect::<Vec<_>>().join("\n"),
        }
    }

    /// A body of the same kind from a person's edit of `editable_text`.
    pub fn edited(&self, t: String) -> EditBody {
        let lines = |t: &str| t.lines().map(str::to_string).filter(|l| !l.trim().is_empty()).collect::<Vec<_>>();
        match self {
            EditBody::Text(_) => EditBody::Text(t),
            EditBody::Trace(_) => EditBody::Trace(lines(&t)),
            EditBody::Traces(_) => {
                let mut traces: Vec<(String, Vec<String>)> = vec![];
                for l in lines(&t) {
                    match (l.strip_prefix(SWEEP_HEADER), traces.last_mut()) {
                        (Some(k), _) => traces.push((k.trim().to_string(), vec![])),
                        (None, Some((_, steps))) => steps.push(l),
                        // Lines before the first header belong to no kernel; the engine would refuse them anyway.
                        (None, None) => traces.push((String::new(), vec![l])),
                    }
                }
                EditBody::Traces(traces)
            }
        }
    }
}

pub struct SessionRunner<'a> {
    pub log: SessionLog,
    pub tree: CandidateTree,
    pub task: &'a Task,
    pub ev: &'a Evaluator,
    /// Receives every event as it is appended (the workbench, a progress display).
    pub observer: Option<tokio::sync::mpsc::UnboundedSender<super::Event>>,
    /// When the next edit's lowering and evaluation must end (a search's
    /// hard stop); none: only each engine job's own limit.
    pub deadline: Option<Instant>,
}

impl<'a> SessionRunner<'a> {
    /// Starts a session on `task`: the root node is the task's reference.
    pub async fn create(path: &Path, task: &'a Task, ev: &'a Evaluator) -> Result<Self> {
        let header = Header {
            kwb_session: SCHEMA_VERSION,
            id: path.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default(),
            task: task.id().to_string(),
            created_unix_ms: now_ms(),
            manifest: json!({"kwb_version": env!("CARGO_PKG_VERSION"), "target": ev.opts.target, "device": ev.opts.device,
                             "config_hash": ev.opts.config_hash(), "task_hash": task.content_hash().unwrap_or_default()}),
        };
        let texts = derive(ev, task, json!({"l0": task.reference_text()?})).await.map_err(|f| anyhow::anyhow!("the task's reference cannot be lowered: {f}"))?;
        let log = SessionLog::create(path, &header)?;
        let mut me = Self { log, tree: CandidateTree::default(), task, ev, observer: None, deadline: None };
        let root = NodeRecord { id: 0, parent: None, layer: Layer::L0, kernel: None, author: "import".into(), rationale: "the task's reference".into(), trace: None, texts };
        me.append(EventKind::Edit { node: root })?;
        Ok(me)
    }

    /// Continues an existing session from its log.
    pub fn resume(path: &Path, task: &'a Task, ev: &'a Evaluator) -> Result<Self> {
        let (log, loaded) = SessionLog::open(path)?;
        if loaded.header.task != task.id() {
            bail!("the session is for task `{}`, not `{}`", loaded.header.task, task.id());
        }
        for w in &loaded.warnings {
            eprintln!("warning: {}: {w}", path.display());
        }
        let tree = CandidateTree::from_events(&loaded.events);
        Ok(Self { log, tree, task, ev, observer: None, deadline: None })
    }

    pub fn append(&mut self, kind: EventKind) -> Result<()> {
        let e = self.log.append(kind)?;
        self.tree.apply(&e);
        if let Some(tx) = &self.observer {
            let _ = tx.send(e);
        }
        Ok(())
    }

    /// Applies an edit: refused edits are logged and returned as Err; accepted
    /// ones become a node, which is then evaluated. Returns the node's id.
    pub async fn edit(&mut self, req: EditRequest) -> Result<std::result::Result<u32, Failure>> {
        self.edit_with_tokens(req, 0, 0).await
    }

    /// An edit whose proposal cost model tokens, recorded in the node's cost.
    pub async fn edit_with_tokens(&mut self, req: EditRequest, tokens_in: u64, tokens_out: u64) -> Result<std::result::Result<u32, Failure>> {
        let parent = self.tree.get(req.parent).ok_or_else(|| anyhow::anyhow!("no node {} in this session", req.parent))?.record.clone();
        // A request that names no kernel (or a trace at the wrong layer) is a
        // usage error, not a proposal: check it before anything is logged.
        let args = edit_args(&parent.texts, &req)?;
        self.append(EventKind::Proposal { author: req.author.clone(), parent: req.parent, layer: req.layer, kernel: req.kernel.clone(), rationale: req.rationale.clone() })?;
        let started = Instant::now();
        match crate::eval::until(self.deadline, "lowering the edit", derive(self.ev, self.task, args)).await {
            Err(failure) => {
                self.append(EventKind::Refused { parent: req.parent, layer: req.layer, kernel: req.kernel.clone(), author: req.author.clone(), failure: failure.clone() })?;
                Ok(Err(failure))
            }
            Ok(mut texts) => {
                if req.layer != Layer::L0 {
                    texts.l0 = parent.texts.l0.clone();
                }
                let trace = match &req.body {
                    EditBody::Trace(steps) => Some(steps.clone()),
                    _ => None,
                };
                let id = self.tree.next_id();
                let node = NodeRecord { id, parent: Some(req.parent), layer: req.layer, kernel: req.kernel.clone(), author: req.author, rationale: req.rationale, trace, texts };
                self.append(EventKind::Edit { node })?;
                self.evaluate_costed(id, started, tokens_in, tokens_out).await?;
                Ok(Ok(id))
            }
        }
    }

    pub async fn evaluate(&mut self, id: u32, started: Instant) -> Result<()> {
        self.evaluate_costed(id, started, 0, 0).await
    }

    async fn evaluate_costed(&mut self, id: u32, started: Instant, tokens_in: u64, tokens_out: u64) -> Result<()> {
        let texts = self.tree.get(id).ok_or_else(|| anyhow::anyhow!("no node {id}"))?.record.texts.clone();
        self.append(EventKind::EvalStarted { node: id })?;
        let result = self.ev.evaluate_source_until(self.task, &BuildSource::from_layers(&texts), self.deadline).await;
        let device_s: f64 = result.stages.iter().filter(|s| s.stage == "time" || s.stage == "check").map(|s| s.wall_s).sum();
        let cost = Cost { wall_s: started.elapsed().as_secs_f64(), tokens_in, tokens_out, device_s };
        self.append(EventKind::EvalFinished { node: id, result: Box::new(result), cost })?;
        Ok(())
    }
}

fn edit_args(parent: &LayerTexts, req: &EditRequest) -> Result<Value> {
    let kernel_needed = || req.kernel.clone().ok_or_else(|| anyhow::anyhow!("an {} edit names its kernel (--kernel); kernels: {}", req.layer, parent.kernels().join(", ")));
    Ok(match (req.layer, &req.body) {
        (Layer::L0, EditBody::Text(t)) => json!({"l0": t}),
        (Layer::L1, EditBody::Text(t)) => json!({"l1_module": parent.l1_module, "kernel": kernel_needed()?, "text": t}),
        (Layer::L1, EditBody::Trace(steps)) => json!({"l1_module": parent.l1_module, "kernel": kernel_needed()?, "trace": steps}),
        (Layer::L1, EditBody::Traces(traces)) => {
            if req.kernel.is_some() || traces.is_empty() {
                bail!("a sweep names its kernels in its traces, and has at least one");
            }
            json!({"l1_module": parent.l1_module, "traces": traces})
        }
        (Layer::L2, EditBody::Text(t)) => {
            let mut overrides = parent.l2_overrides.clone();
            overrides.insert(kernel_needed()?, t.clone());
            json!({"l1_module": parent.l1_module, "l2_overrides": overrides})
        }
        (layer, EditBody::Trace(_) | EditBody::Traces(_)) => bail!("a schedule trace is an L1 edit, not {layer}"),
    })
}

/// Runs the engine's `derive` job and turns its reply into layer texts.
pub async fn derive(ev: &Evaluator, task: &Task, mut args: Value) -> std::result::Result<LayerTexts, Failure> {
    let spec = task.reference_meta().map_err(|e| Failure::new(FailureClass::Task, format!("{e:#}")))?;
    args["target"] = ev.opts.target.clone();
    args["args_spec"] = serde_json::to_value(&spec.args).unwrap_or(Value::Null);
    let l0 = args["l0"].as_str().map(str::to_string);
    let out = ev.engine.run(Job::new("derive", args, Duration::from_secs(300))).await?;
    let r = out.result;
    let map = |v: &Value| -> BTreeMap<String, String> { serde_json::from_value(v.clone()).unwrap_or_default() };
    Ok(LayerTexts {
        l0: l0.unwrap_or_default(),
        l1_module: r["l1_module"].as_str().unwrap_or_default().to_string(),
        l1: map(&r["l1"]),
        l2: map(&r["l2"]),
        l2_overrides: map(&r["l2_overrides"]),
    })
}
