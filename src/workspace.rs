//! What every front end starts from: the paths, the task set, and the engine
//! and evaluator built on them. The command line and the workbench both take
//! a [`Workspace`]; neither builds one for the other.

use crate::engine::{Engine, EngineConfig, pyenv, sandbox::Limits};
use crate::eval::{EvalOptions, Evaluator};
use crate::paths::Paths;
use crate::tasks::TaskSet;
use crate::devices::{Device, Reach};
use anyhow::{Context, Result, bail};
use std::path::PathBuf;
use std::time::Duration;

/// Where kwb keeps its files, which tasks it works on and how many engine
/// workers it may start.
pub struct Workspace {
    pub paths: Paths,
    pub tasks_dir: PathBuf,
    pub workers: usize,
    /// The device candidates are timed on (`--device`; see `kwb devices`).
    pub device: String,
}

impl Workspace {
    /// The tasks, each at the size the device runs where it has one
    /// (`kwb tasks resize`); the local CPU runs the tasks' own.
    pub fn tasks(&self) -> Result<TaskSet> {
        let mut set = TaskSet::load(&self.tasks_dir)?;
        let device = if self.device == crate::devices::LOCAL_CPU { None } else { self.device().ok() };
        if let Some(size) = device.as_ref().and_then(|d| d.size()) {
            let (sized, missing) = set.at_size(size);
            set = sized;
            if !missing.is_empty() {
                eprintln!(
                    "note: {} of {} tasks have no `{size}` size for device `{}` and run at their own ({}{}); `kwb --device {} tasks resize --task ID` makes one",
                    missing.len(),
                    set.tasks.len(),
                    self.device,
                    missing.iter().take(4).cloned().collect::<Vec<_>>().join(", "),
                    if missing.len() > 4 { ", ..." } else { "" },
                    self.device
                );
            }
        }
        for p in &set.problems {
            eprintln!("warning: skipped {}: {}", p.dir.display(), p.message);
        }
        Ok(set)
    }

    /// Sets up the engine environment if needed, and starts the pool. A venv
    /// whose worker cannot start is rebuilt once before giving up.
    pub async fn engine(&self, with_torch: bool) -> Result<Engine> {
        self.engine_with(with_torch, Limits::default()).await
    }

    /// The engine for `kwb tasks import`: its workers run the user's own
    /// PyTorch file beside TVM (about 5 GiB of address space before any
    /// data), and an import holds inputs, outputs and the VM's buffers for
    /// one seed at a time, so the limit grows with the size bound the
    /// import enforces instead of refusing a task under that bound.
    pub async fn import_engine(&self, max_bytes: u64) -> Result<Engine> {
        let base = Limits::default();
        self.engine_with(false, Limits { address_space_bytes: base.address_space_bytes + 32 * max_bytes }).await
    }

    async fn engine_with(&self, with_torch: bool, limits: Limits) -> Result<Engine> {
        match self.start_engine(with_torch, false, limits).await {
            Ok(e) => Ok(e),
            Err(first) if std::env::var_os("KWB_PYTHON").is_none() => {
                eprintln!("engine: the worker did not start ({first:#}); rebuilding the engine environment");
                self.start_engine(with_torch, true, limits).await
            }
            Err(e) => Err(e),
        }
    }

    async fn start_engine(&self, with_torch: bool, rebuild: bool, limits: Limits) -> Result<Engine> {
        let paths = self.paths.clone();
        let env = tokio::task::spawn_blocking(move || pyenv::ensure(&paths, with_torch, rebuild)).await??;
        let engine = Engine::new(EngineConfig {
            env,
            device_lock_file: self.paths.data.join(format!("device-{}.lock", self.device)),
            host_lock_file: self.paths.data.join(format!("device-{}.lock", crate::devices::LOCAL_CPU)),
            scratch: self.paths.scratch(),
            artifacts: self.paths.artifacts(),
            max_workers: self.workers.max(1),
            limits,
            start_timeout: Duration::from_secs(120),
        });
        std::fs::create_dir_all(self.paths.artifacts())?;
        engine.prewarm(1).await.map_err(|f| anyhow::anyhow!("{f}"))?;
        Ok(engine)
    }

    /// The device `--device` names, from `kwb devices`' list.
    pub fn device(&self) -> Result<Device> {
        if self.device == crate::devices::LOCAL_CPU {
            return Ok(Device::local_cpu());
        }
        crate::devices::find(&crate::devices::load(&self.paths)?, &self.device)
    }

    /// `opts` made to measure on the workspace's device: its name, its
    /// target (the local CPU's stays the host's own) and how to reach it.
    pub fn on_device(&self, mut opts: EvalOptions) -> Result<EvalOptions> {
        let device = self.device()?;
        opts.device = device.name.clone();
        match &device.reach {
            Reach::Local => {}
            Reach::Rpc { tracker, key } => {
                opts.target = device.target.clone().context("an RPC device needs its target")?;
                opts.device_spec = serde_json::json!({"kind": "rpc", "tracker": tracker, "key": key});
            }
            Reach::Cuda { .. } => bail!(
                "device `{}` is a CUDA GPU: eval, bench and run time on CPUs (here or over RPC); for a GPU, build a pack with `kwb --device {} carry pack --suite S --out DIR`, run DIR/run.sh on the GPU machine and read it back with `kwb carry report`",
                device.name, device.name
            ),
        }
        Ok(opts)
    }

    /// Measures the device's peaks on it and keeps them: the local CPU's
    /// with its own kernels, an RPC board's with kernels built here for its
    /// target and timed there.
    pub async fn measure_peaks(&self, engine: &Engine) -> Result<crate::roofline::Machine> {
        let device = self.device()?;
        match &device.reach {
            Reach::Local => crate::roofline::Machine::measure(engine, &self.paths).await,
            Reach::Rpc { tracker, key } => {
                let target = device.target.clone().context("an RPC device needs its target in devices.toml")?;
                eprintln!("building the peak kernels for {target} and timing them on `{}` (a minute or two)", device.name);
                crate::roofline::Machine::measure_on(engine, &self.paths, &device.name, serde_json::json!({"kind": "rpc", "tracker": tracker, "key": key}), target).await
            }
            Reach::Cuda { .. } => bail!(
                "device `{}` is a CUDA GPU kwb cannot time from here: every carried pack measures its peaks on the GPU (`kwb --device {} carry pack ...`, then run.sh there), and `kwb carry report` keeps them",
                device.name,
                device.name
            ),
        }
    }

    pub async fn evaluator(&self, opts: EvalOptions) -> Result<Evaluator> {
        let opts = self.on_device(opts)?;
        let engine = self.engine(false).await?;
        // Said on every run, not only by `kwb engine doctor`.
        let (lines, complete) = crate::engine::sandbox::summary(&engine.sandbox());
        if !complete {
            eprintln!("warning: the engine's sandbox is incomplete; candidate code is less confined than it should be:");
            for l in &lines {
                eprintln!("  {l}");
            }
        }
        Ok(Evaluator::new(engine, self.paths.clone(), opts))
    }
}
