//! The worker pool: warm workers, per-job timeouts, crash and hang recovery,
//! cancel, and the per-device lock that makes timing exclusive.
//!
//! Compiles and correctness runs take the device lock shared; timing takes it
//! exclusively, so nothing else of kwb's runs on the CPU during a measurement.
//! A worker that dies, hangs or is cancelled is killed with its process group
//! and replaced in the background; the job is reported failed with its class.
//! Workers are kept per role (see `sandbox::Role`): a build worker runs each
//! job in a child forked for it, so no process that parsed a candidate
//! outlives its job, and the process that times never parsed one.

use super::pyenv::PythonEnv;
use super::sandbox::{Limits, Role};
use super::worker::{Broken, Worker};
use crate::failure::{Failure, FailureClass};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::{RwLock, Semaphore};
use tokio_util::sync::CancellationToken;

#[derive(Debug, Clone)]
pub struct EngineConfig {
    pub env: PythonEnv,
    /// File that other kwb processes timing on the same device also lock.
    pub device_lock_file: PathBuf,
    /// This machine's CPU lock, taken shared by builds and worker starts
    /// (they use this CPU whatever device times). The same file as
    /// `device_lock_file` when the device is this CPU.
    pub host_lock_file: PathBuf,
    pub scratch: PathBuf,
    /// Where build workers write artifacts (their only other writable folder).
    pub artifacts: PathBuf,
    pub max_workers: usize,
    pub limits: Limits,
    pub start_timeout: Duration,
}

/// One unit of work for a worker.
#[derive(Debug, Clone)]
pub struct Job {
    pub op: &'static str,
    pub args: Value,
    pub timeout: Duration,
    /// Timing: holds the device exclusively.
    pub exclusive: bool,
    pub cancel: Option<CancellationToken>,
    /// The kind of worker that runs it; by default the op's (`Role::for_op`).
    pub role: Option<Role>,
    /// Run in a worker started for this job alone, killed after it.
    pub fresh: bool,
}

impl Job {
    pub fn new(op: &'static str, args: Value, timeout: Duration) -> Self {
        Self { op, args, timeout, exclusive: false, cancel: None, role: None, fresh: false }
    }
    pub fn fresh_if(mut self, fresh: bool) -> Self {
        self.fresh = fresh;
        self
    }
    pub fn in_role(mut self, role: Role) -> Self {
        self.role = Some(role);
        self
    }
    pub fn exclusive(mut self) -> Self {
        self.exclusive = true;
        self
    }
    pub fn cancel_with(mut self, token: CancellationToken) -> Self {
        self.cancel = Some(token);
        self
    }
}

#[derive(Debug, Clone)]
pub struct JobOutput {
    pub result: Value,
    /// Wall time as kwb saw it, queueing excluded.
    pub wall_s: f64,
    /// When the job went to its worker (locks held) and when its reply came
    /// back (locks still held): the span the device locks cover, for
    /// ordering jobs without the caller's own scheduling delay.
    pub started: Instant,
    pub ended: Instant,
}

#[derive(Debug, Default, Clone, serde::Serialize)]
pub struct EngineStats {
    pub workers_started: u64,
    pub workers_killed: u64,
    pub jobs_ok: u64,
    pub jobs_failed: u64,
}

struct Inner {
    cfg: EngineConfig,
    idle: Mutex<BTreeMap<Role, Vec<Worker>>>,
    slots: Semaphore,
    device: RwLock<()>,
    next_id: AtomicU64,
    stats: Mutex<EngineStats>,
    versions: Mutex<Value>,
    sandbox: Mutex<BTreeMap<Role, Value>>,
}

#[derive(Clone)]
pub struct Engine {
    inner: Arc<Inner>,
}

impl Engine {
    pub fn new(cfg: EngineConfig) -> Self {
        let slots = Semaphore::new(cfg.max_workers.max(1));
        Self {
            inner: Arc::new(Inner {
                cfg,
                idle: Mutex::new(BTreeMap::new()),
                slots,
                device: RwLock::new(()),
                next_id: AtomicU64::new(1),
                stats: Mutex::new(EngineStats::default()),
                versions: Mutex::new(Value::Null),
                sandbox: Mutex::new(BTreeMap::new()),
            }),
        }
    }

    pub fn config(&self) -> &EngineConfig {
        &self.inner.cfg
    }

    pub fn stats(&self) -> EngineStats {
        self.inner.stats.lock().unwrap().clone()
    }

    /// Versions the workers reported at start (python, tvm, tvm_ffi, numpy).
    pub fn versions(&self) -> Value {
        self.inner.versions.lock().unwrap().clone()
    }

    /// What each role's confinement applied, as its latest worker reported:
    /// `{"build": {...}, "measure": {...}}` (roles not started yet are absent).
    pub fn sandbox(&self) -> Value {
        let m = self.inner.sandbox.lock().unwrap();
        Value::Object(m.iter().map(|(r, v)| (r.as_str().to_string(), v.clone())).collect())
    }

    /// Starts `n` build workers and one measuring worker now, so the first
    /// jobs do not pay for `import tvm`.
    /// They start side by side: an import is seconds, and a command that
    /// waits for two in a row pays twice.
    pub async fn prewarm(&self, n: usize) -> Result<(), Failure> {
        let n = n.min(self.inner.cfg.max_workers);
        let mut starts = Vec::new();
        for (role, want) in [(Role::Build, n), (Role::Measure, 1)] {
            for _ in self.idle_count(role)..want {
                starts.push(self.spawn_quietly(role));
            }
        }
        for w in futures::future::try_join_all(starts).await? {
            self.park(w);
        }
        Ok(())
    }

    fn idle_count(&self, role: Role) -> usize {
        self.inner.idle.lock().unwrap().get(&role).map_or(0, Vec::len)
    }

    fn park(&self, w: Worker) {
        self.inner.idle.lock().unwrap().entry(w.role).or_default().push(w);
    }

    async fn spawn(&self, role: Role) -> Result<Worker, Failure> {
        let c = &self.inner.cfg;
        let writable: Vec<&std::path::Path> = if role == Role::Build { vec![c.artifacts.as_path()] } else { vec![] };
        let w = Worker::spawn(&c.env, &c.scratch, c.limits, c.start_timeout, role, &writable)
            .await
            .map_err(|e| Failure::new(FailureClass::Internal, format!("{e:#}")).at("engine"))?;
        self.inner.stats.lock().unwrap().workers_started += 1;
        *self.inner.versions.lock().unwrap() = w.versions.clone();
        if !matches!(role, Role::Trusted | Role::TrustedRemote) {
            self.inner.sandbox.lock().unwrap().insert(role, w.sandbox.clone());
        }
        Ok(w)
    }

    /// Starts a worker outside any job, holding the device lock shared:
    /// `import tvm` is seconds of CPU, and must not run during a timing (in
    /// this process or another kwb's).
    async fn spawn_quietly(&self, role: Role) -> Result<Worker, Failure> {
        let _shared = self.inner.device.read().await;
        let _host_file = lock_device_file(self.inner.cfg.host_lock_file.clone(), false).await?;
        self.spawn(role).await
    }

    fn replace_in_background(&self, role: Role) {
        let me = self.clone();
        tokio::spawn(async move {
            if me.idle_count(role) == 0
                && let Ok(w) = me.spawn_quietly(role).await
            {
                me.park(w);
            }
        });
    }

    pub async fn run(&self, job: Job) -> Result<JobOutput, Failure> {
        let _slot = self.inner.slots.acquire().await.expect("semaphore never closed");
        // Timing on a remote device leaves this CPU to builds: only the
        // device's own lock (below) makes its timing exclusive.
        let cfg = &self.inner.cfg;
        let remote_timing = job.exclusive && cfg.device_lock_file != cfg.host_lock_file;
        let (_shared, _exclusive);
        if remote_timing {
        } else if job.exclusive {
            _exclusive = Some(self.inner.device.write().await);
        } else {
            _shared = Some(self.inner.device.read().await);
        }
        // The same rule across processes: a second kwb (or a test binary)
        // timing on this device waits for our builds, and ours for its timing.
        let lock = if job.exclusive { &cfg.device_lock_file } else { &cfg.host_lock_file };
        let _device_file = lock_device_file(lock.clone(), job.exclusive).await?;
        let role = job.role.unwrap_or_else(|| Role::for_job(job.op, &job.args));
        let idle = if job.fresh { None } else { self.inner.idle.lock().unwrap().get_mut(&role).and_then(Vec::pop) };
        let mut worker = match idle {
            Some(w) => w,
            None => self.spawn(role).await?,
        };
        let id = self.inner.next_id.fetch_add(1, Ordering::Relaxed);
        let cancel = job.cancel.clone().unwrap_or_default();
        let started = Instant::now();
        let cpu_s = job.timeout.as_secs_f64() * 2.0 + 5.0;
        let args = with_cpu_limit(job.args.clone(), cpu_s);
        tracing::debug!(id, op = job.op, pid = worker.pid, "job start");
        enum End {
            Reply(Result<super::protocol::Message, Broken>),
            TimedOut,
            Cancelled,
        }
        let end = tokio::select! {
            r = worker.call(id, job.op, &args) => End::Reply(r),
            _ = tokio::time::sleep(job.timeout) => End::TimedOut,
            _ = cancel.cancelled() => End::Cancelled,
        };
        let ended = Instant::now();
        let wall_s = (ended - started).as_secs_f64();
        let outcome = match end {
            End::Reply(Ok(msg)) => {
                if job.fresh {
                    worker.kill().await;
                } else {
                    self.park(worker);
                }
                if msg.ok == Some(true) {
                    Ok(JobOutput { result: msg.result.unwrap_or(Value::Null), wall_s, started, ended })
                } else {
                    let e = msg.error.unwrap_or_else(|| super::protocol::WireError {
                        class: "internal".into(),
                        message: "the worker replied with neither a result nor an error".into(),
                        stage: None,
                        line: None,
                        column: None,
                        traceback: None,
                    });
                    if let Some(tb) = &e.traceback {
                        tracing::error!(op = job.op, "worker error: {}\n{tb}", e.message);
                    }
                    let hint = FailureClass::parse(&e.class);
                    Err(Failure {
                        class: crate::failure::classify::classify(e.stage.as_deref(), &e.message, hint),
                        message: e.message,
                        stage: e.stage,
                        line: e.line,
                        column: e.column,
                    })
                }
            }
            End::Reply(Err(broken)) => {
                let tail = worker.stderr_tail();
                worker.kill().await;
                self.killed(role);
                Err(match broken {
                    Broken::Died(how) => {
                        let class = if how.contains("SIGXCPU") { FailureClass::Timeout } else { FailureClass::Crash };
                        Failure::new(class, format!("the worker running `{}` died ({how}); it was restarted. Last output: {}", job.op, last_line(&tail)))
                            .at(job.op)
                    }
                    Broken::Garbage(line) => Failure::new(FailureClass::Internal, format!("the worker wrote a line that is not protocol: {line}")).at(job.op),
                })
            }
            End::TimedOut => {
                worker.kill().await;
                self.killed(role);
                Err(Failure::new(
                    FailureClass::Timeout,
                    format!("`{}` ran past its {:.0} s limit; the worker was killed and restarted", job.op, job.timeout.as_secs_f64()),
                )
                .at(job.op))
            }
            End::Cancelled => {
                worker.kill().await;
                self.killed(role);
                Err(Failure::new(FailureClass::Cancelled, format!("`{}` was cancelled", job.op)).at(job.op))
            }
        };
        let mut st = self.inner.stats.lock().unwrap();
        if outcome.is_ok() { st.jobs_ok += 1 } else { st.jobs_failed += 1 }
        drop(st);
        tracing::debug!(id, op = job.op, wall_s, ok = outcome.is_ok(), "job end");
        outcome
    }

    fn killed(&self, role: Role) {
        self.inner.stats.lock().unwrap().workers_killed += 1;
        self.replace_in_background(role);
    }

    /// Stops every idle worker (busy ones end with their jobs).
    pub fn shutdown(&self) {
        self.inner.idle.lock().unwrap().clear();
    }
}

async fn lock_device_file(path: PathBuf, exclusive: bool) -> Result<std::fs::File, Failure> {
    tokio::task::spawn_blocking(move || {
        let file = std::fs::OpenOptions::new().create(true).truncate(false).write(true).open(&path)?;
        if exclusive { file.lock()? } else { file.lock_shared()? }
        Ok::<_, std::io::Error>(file)
    })
    .await
    .map_err(|e| Failure::new(FailureClass::Internal, format!("device lock: {e}")))?
    .map_err(|e| Failure::new(FailureClass::Internal, format!("cannot lock the device: {e}")))
}

fn with_cpu_limit(mut args: Value, cpu_s: f64) -> Value {
    if let Value::Object(m) = &mut args {
        m.insert("_cpu_limit_s".into(), Value::from(cpu_s));
    }
    args
}

fn last_line(tail: &str) -> &str {
    tail.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("(nothing)")
}
