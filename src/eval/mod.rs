//! Evaluating a candidate the EdgeKernelBench way: legality and build off the
//! clock, correctness on three seeds, then paired timing against the baseline.

mod baseline_artifact;
pub mod eager;
mod reference_outputs;
pub use reference_outputs::errors_against_pytorch;
mod noise;
pub use noise::BENCH_NOISE_RUNS;
pub mod result;

use crate::engine::{Engine, Job};
use crate::failure::{Failure, FailureClass};
use crate::paths::Paths;
use crate::tasks::Task;
use anyhow::Result;
pub use result::{EvalResult, Manifest, SeedResult, TimingPair};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

pub const BASELINE_DEFAULT: &str = "tvm-default-pipeline";

/// What to build: a module's text, the layer it is at, and hand-edited
/// target code that replaces the generated code of some kernels.
#[derive(Debug, Clone, Default)]
pub struct BuildSource {
    pub text: String,
    /// "l0": lowered by the build (legalize, fuse); "l1": built as it is.
    pub stage: &'static str,
    pub l2_overrides: std::collections::BTreeMap<String, String>,
}

impl BuildSource {
    pub fn module(text: &str) -> Self {
        Self { text: text.to_string(), stage: "l0", l2_overrides: Default::default() }
    }

    pub fn from_layers(texts: &crate::ir::LayerTexts) -> Self {
        Self { text: texts.l1_module.clone(), stage: "l1", l2_overrides: texts.l2_overrides.clone() }
    }

    /// Everything that makes the build what it is, for the candidate hash.
    fn identity(&self) -> String {
        let mut s = self.text.clone();
        for (k, v) in &self.l2_overrides {
            s.push_str(k);
            s.push_str(v);
        }
        s
    }
}

#[derive(Debug, Clone, serde::Serialize)]
pub struct EvalOptions {
    pub target: Value,
    pub device: String,
    /// How measuring jobs reach the device: `{"kind": "rpc", "tracker",
    /// "key"}`, or null for this machine's CPU.
    pub device_spec: Value,
    pub seeds: Vec<u32>,
    /// Paired measurements per round.
    pub pairs: u32,
    /// Each measurement repeats the program until it lasts at least this long.
    pub min_ms: f64,
    /// Each side of a pair is the fastest of this many measurements.
    pub repeat: u32,
    /// Timing is valid when the ~95% confidence interval of the median ratio
    /// (1.57 * IQR / sqrt(n), relative) is at most this; rounds of `pairs`
    /// are added until it is, up to `max_rounds`.
    pub max_ci: f64,
    pub max_rounds: u32,
    /// What the candidate is timed against.
    pub baseline: crate::baseline::BaselineKind,
    /// Which timing input sets to use: 0 during search; a confirmation of a
    /// reported best uses another, so it is measured on inputs it never saw.
    pub input_offset: u32,
    /// Check and time in a measuring process started for this evaluation.
    pub fresh_measure: bool,
    /// Self-comparisons of the baseline that fix a task's noise floor (0:
    /// none). The benchmark asks for them: fast_p is where the floor counts.
    pub noise_runs: u32,
    #[serde(skip)]
    pub build_timeout: Duration,
    #[serde(skip)]
    pub check_timeout: Duration,
    #[serde(skip)]
    pub time_timeout: Duration,
}

impl Default for EvalOptions {
    fn default() -> Self {
        Self {
            target: json!({"kind": "llvm", "num-cores": std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)}),
            device: crate::devices::LOCAL_CPU.into(),
            device_spec: Value::Null,
            seeds: vec![0, 1, 2],
            pairs: 15,
            min_ms: 10.0,
            repeat: 3,
            max_ci: 0.01,
            max_rounds: 4,
            baseline: crate::baseline::BaselineKind::Default,
            input_offset: 0,
            fresh_measure: false,
            noise_runs: 0,
            build_timeout: Duration::from_secs(300),
            check_timeout: Duration::from_secs(120),
            time_timeout: Duration::from_secs(300),
        }
    }
}

/// `target` with the host's `mcpu` added when it is an LLVM target without
/// one. Without a host report (no worker started), the target is unchanged.
pub fn host_target(target: &Value, host: &Value) -> Value {
    let mut t = target.clone();
    if let (Some(obj), Some(cpu)) = (t.as_object_mut(), host["mcpu"].as_str())
        && obj.get("kind").and_then(Value::as_str) == Some("llvm")
        && !obj.contains_key("mcpu")
        && cpu != "generic"
    {
        obj.insert("mcpu".into(), Value::from(cpu));
    }
    t
}

impl EvalOptions {
    pub fn config_hash(&self) -> String {
        let v = serde_json::to_vec(self).expect("options serialise");
        hex::encode(&Sha256::digest(&v)[..8])
    }
}

pub struct Evaluator {
    pub engine: Engine,
    pub paths: Paths,
    pub opts: EvalOptions,
    counter: AtomicU64,
    /// Reference-output folders whose hashes this process has checked, with
    /// the files' modification times then (a later change re-checks them).
    verified_outputs: std::sync::Mutex<std::collections::HashMap<PathBuf, Vec<std::time::SystemTime>>>,
}

/// What one evaluation spent inside TVM (for the overhead figure).
#[derive(Default)]
pub(crate) struct Clock {
    tvm_s: f64,
    stages: Vec<result::StageTime>,
}

impl Clock {
    pub(crate) fn add(&mut self, stage: &str, out: &crate::engine::JobOutput) {
        let tvm_s = out.result["tvm_s"].as_f64().unwrap_or(0.0);
        self.tvm_s += tvm_s;
        self.stages.push(result::StageTime { stage: stage.to_string(), wall_s: out.wall_s, worker_s: out.result["worker_s"].as_f64().unwrap_or(0.0), tvm_s });
    }
}

/// Runs `work` to its end, or until `deadline` (a search's hard stop: the
/// run's wall budget and its grace). There the engine job in flight is
/// dropped, which kills its worker (and a timing job's sides with it).
pub async fn until<T>(deadline: Option<Instant>, what: &str, work: impl std::future::Future<Output = Result<T, Failure>>) -> Result<T, Failure> {
    let Some(deadline) = deadline else { return work.await };
    let started = Instant::now();
    tokio::time::timeout_at(deadline.into(), work).await.unwrap_or_else(|_| {
        Err(Failure::new(
            FailureClass::Timeout,
            format!("{what} ran past the search's hard stop (its wall budget and the grace after it) {:.0} s after it began; the job in flight was stopped and its worker killed", started.elapsed().as_secs_f64()),
        ))
    })
}

impl Evaluator {
    /// The target is made the host CPU's own (`mcpu`) when the options name
    /// a plain LLVM target, so the baseline and every candidate are built for
    /// the same ISA; the CPU comes from a started worker (LLVM's host name).
    pub fn new(engine: Engine, paths: Paths, mut opts: EvalOptions) -> Self {
        if opts.device_spec.is_null() {
            opts.target = host_target(&opts.target, &engine.versions()["host"]);
        }
        Self { engine, paths, opts, counter: AtomicU64::new(0), verified_outputs: Default::default() }
    }

    /// A checking or timing job on the evaluator's device: its args name the
    /// device (which also picks the worker's role, see `Role::for_job`).
    pub(crate) fn measure_job(&self, op: &'static str, mut args: Value, timeout: Duration) -> Job {
        if !self.opts.device_spec.is_null() {
            args["device"] = self.opts.device_spec.clone();
            // The server ends a session left open past the job's limit, so a
            // killed job cannot keep a board busy.
            args["device"]["session_timeout_s"] = (timeout.as_secs() + 30).into();
        }
        Job::new(op, args, timeout)
    }

    /// What names a file that holds a measurement on this device (noise
    /// floors, the tuned-or-default choice): empty for this machine's CPU.
    pub(crate) fn device_tag(&self) -> String {
        if self.opts.device == crate::devices::LOCAL_CPU { String::new() } else { format!(".on-{}", self.opts.device) }
    }

    pub(crate) fn artifact_path(&self, stem: &str) -> PathBuf {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        self.paths.artifacts().join(format!("{stem}-{}-{n}.so", std::process::id()))
    }

    pub(crate) fn build_job(&self, task: &Task, source: &BuildSource, artifact: &std::path::Path) -> Result<Job, Failure> {
        let spec = task.reference_meta().map_err(|e| Failure::new(FailureClass::Task, format!("{e:#}")))?;
        Ok(Job::new(
            "build",
            json!({"source": source.text, "stage": source.stage, "l2_overrides": source.l2_overrides, "task_dtype": task.meta.dtype,
                   "target": self.opts.target, "artifact": artifact, "args_spec": spec.args}),
            self.opts.build_timeout,
        ))
    }

    /// The evaluation's one-off work for a task: the reference outputs, the
    /// baseline's build (and a tuned baseline's measured choice against the
    /// default build) and its noise floor. Each is cached, so an evaluation
    /// after this one does none of it. A search calls this before its clock
    /// starts: on a model graph it is 20 s of a 3-minute budget, none of it
    /// the agents' work.
    pub async fn prepare(&self, task: &Task) -> Result<(), Failure> {
        let mut clock = Clock::default();
        self.reference_outputs_timed(task, &mut clock).await?;
        let (baseline, _) = self.baseline_artifact_timed(task, &mut clock).await?;
        self.noise_floor(task, &baseline, &mut clock).await?;
        Ok(())
    }

    /// Evaluates a standalone module text (L0, or a lowered module).
    pub async fn evaluate(&self, task: &Task, source: &str) -> EvalResult {
        self.evaluate_source(task, &BuildSource::module(source)).await
    }

    pub async fn evaluate_source(&self, task: &Task, source: &BuildSource) -> EvalResult {
        self.evaluate_source_until(task, source, None).await
    }

    /// As `evaluate_source`, ended at `deadline` (see `until`), so a
    /// candidate whose build or check runs for minutes cannot hold a
    /// one-minute run for minutes.
    pub async fn evaluate_source_until(&self, task: &Task, source: &BuildSource, deadline: Option<Instant>) -> EvalResult {
        let started = Instant::now();
        let mut clock = Clock::default();
        let mut r = self.empty_result(task, &source.identity());
        let artifact = self.artifact_path("cand");
        let outcome = until(deadline, "its evaluation", self.evaluate_into(task, source, &artifact, &mut r, &mut clock)).await;
        let _ = std::fs::remove_file(&artifact);
        if let Err(f) = outcome {
            r.failure_class = Some(f.class);
            r.failure = Some(f);
        }
        // The workers' confinement, and the sides' that a timing recorded.
        let sides = r.manifest.sandbox["sides"].take();
        r.manifest.sandbox = self.engine.sandbox();
        if !sides.is_null() {
            r.manifest.sandbox["sides"] = sides;
        }
        r.wall_s = started.elapsed().as_secs_f64();
        r.engine_overhead_s = (r.wall_s - clock.tvm_s).max(0.0);
        r.stages = clock.stages;
        r
    }

    async fn evaluate_into(&self, task: &Task, source: &BuildSource, artifact: &std::path::Path, r: &mut EvalResult, clock: &mut Clock) -> Result<(), Failure> {
        let spec = task.reference_meta().map_err(|e| Failure::new(FailureClass::Task, format!("{e:#}")))?.clone();
        // 1. Legality and build, off the clock.
        let built = self.engine.run(self.build_job(task, source, artifact)?).await?;
        clock.add("build", &built);
        r.compile_ok = true;
        r.compile_s = built.result["compile_s"].as_f64();
        r.peak_memory_bytes = built.result["memory"]["peak_bytes"].as_u64();
        // 2. Correctness on every seed, then a re-run on perturbed inputs
        //    against the baseline (catches results cached across calls).
        let truth = self.reference_outputs_timed(task, clock).await?;
        let (baseline, label) = self.baseline_artifact_timed(task, clock).await?;
        r.manifest.baseline = label;
        let tol = task.meta.tolerance;
        let check = self.measure_job(
            "check",
            json!({"artifact": artifact, "baseline_artifact": baseline, "args_spec": spec.args, "outputs_dir": truth,
                   "seeds": self.opts.seeds, "atol": tol.atol, "rtol": tol.rtol, "task_dtype": task.meta.dtype}),
            self.opts.check_timeout,
        );
        let checked = self.engine.run(check.fresh_if(self.opts.fresh_measure)).await?;
        clock.add("check", &checked);
        r.manifest.note_remote("check", &checked.result);
        r.seeds = serde_json::from_value(checked.result["seeds"].clone()).unwrap_or_default();
        r.max_errors = r.seeds.iter().map(|s| s.max_abs_err).collect();
        r.correct = checked.result["correct"].as_bool() == Some(true);
        if !r.correct {
            let msg = checked.result["failure"]["message"].as_str().unwrap_or("outputs differ from the reference").to_string();
            let class = crate::failure::classify::classify(Some("check"), &msg, FailureClass::NumericMismatch);
            return Err(Failure::new(class, msg).at("check"));
        }
        // 3. Paired timing against the baseline, with the device to itself.
        let order_seed = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_nanos() as u64).unwrap_or(0);
        let time = self.measure_job(
            "time",
            json!({
                "baseline_artifact": baseline, "candidate_artifact": artifact, "args_spec": spec.args,
                "seed": self.opts.seeds.first().copied().unwrap_or(0), "pairs": self.opts.pairs, "min_ms": self.opts.min_ms,
                "repeat": self.opts.repeat, "max_ci": self.opts.max_ci, "max_rounds": self.opts.max_rounds, "order_seed": order_seed % (1 << 53),
                "atol": tol.atol, "rtol": tol.rtol, "input_offset": self.opts.input_offset,
                // Half the job's limit: the rest covers warm-up, probes and the spot check.
                "budget_s": self.opts.time_timeout.as_secs_f64() / 2.0,
            }),
            self.opts.time_timeout,
        )
        .exclusive()
        .fresh_if(self.opts.fresh_measure);
        let timed = self.engine.run(time).await?;
        let t = &timed.result;
        clock.add("time", &timed);
        r.manifest.note_remote("time", &timed.result);
        // How the two modules were kept apart while timed (each in a
        // confined process of its own on this machine's CPU).
        if !t["isolation"].is_null() {
            r.manifest.sandbox["sides"] = t["isolation"].clone();
        }
        r.candidate_ms = t["candidate_ms"].as_f64();
        r.baseline_ms = t["baseline_ms"].as_f64();
        r.speedup_median = t["speedup_median"].as_f64();
        r.spread = t["spread"].as_f64();
        r.ci = t["ci"].as_f64();
        if let Some(m) = t["inputs_mutated"].as_array().filter(|m| !m.is_empty()) {
            r.timing_valid = false;
            return Err(Failure::new(FailureClass::NumericMismatch, format!("the candidate wrote to its inputs {m:?} while being timed")).at("time"));
        }
        if let Some(f) = t["forged_times"].as_object() {
            r.timing_valid = false;
            let (claimed, seen) = (f["claimed_ms"].as_f64().unwrap_or(0.0), f["seen_ms"].as_f64().unwrap_or(0.0));
            return Err(Failure::new(
                FailureClass::Crash,
                format!("the candidate's process reported {claimed:.3} ms for a timed turn that took {seen:.3} ms as the job saw it ({} turns running): its own times cannot be trusted", f["turns"]),
            )
            .at("time"));
        }
        if t["spot_check"]["ok"] == false {
            r.timing_valid = false;
            let msg = t["spot_check"]["message"].as_str().unwrap_or("outputs of timed runs differ from the baseline's").to_string();
            return Err(Failure::new(FailureClass::NumericMismatch, msg).at("time"));
        }
        r.timing_valid = t["timing_valid"].as_bool() == Some(true);
        r.pairs = serde_json::from_value(t["samples"].clone()).unwrap_or_default();
        r.pair_count = r.pairs.len() as u32;
        // The device's own peaks: a remote device's share is against what
        // was measured on it (none measured, no share).
        let peaks = crate::roofline::Machine::cached_for(&self.paths, &self.opts.device);
        if let (Some(m), Some(size), Some(ms)) = (peaks, spec.size, r.candidate_ms) {
            r.roofline_share = m.share(&size, ms);
        }
        r.timing_rounds = t["rounds"].as_u64().unwrap_or(0) as u32;
        r.noise = self.noise_floor(task, &baseline, clock).await?;
        Ok(())
    }

    fn empty_result(&self, task: &Task, source: &str) -> EvalResult {
        let config = serde_json::to_value(&self.opts).unwrap_or(Value::Null);
        EvalResult {
            task: task.id().to_string(),
            candidate_sha256: hex::encode(Sha256::digest(source.as_bytes())),
            compile_ok: false,
            correct: false,
            seeds: vec![],
            max_errors: vec![],
            failure_class: None,
            failure: None,
            candidate_ms: None,
            baseline_ms: None,
            speedup_median: None,
            timing_valid: false,
            spread: None,
            ci: None,
            pair_count: 0,
            pairs: vec![],
            timing_rounds: 0,
            compile_s: None,
            peak_memory_bytes: None,
            roofline_share: None,
            wall_s: 0.0,
            engine_overhead_s: 0.0,
            stages: vec![],
            noise: None,
            fallback: None,
            search_speedup: None,
            eager: None,
            manifest: Manifest {
                kwb_version: env!("CARGO_PKG_VERSION").to_string(),
                protocol: crate::engine::protocol::PROTOCOL_VERSION,
                versions: self.engine.versions(),
                target: self.opts.target.clone(),
                device: self.opts.device.clone(),
                baseline: match self.opts.baseline {
                    crate::baseline::BaselineKind::Default => BASELINE_DEFAULT.to_string(),
                    kind => crate::baseline::label(kind, crate::baseline::tuned_dir(&self.paths, task, &self.opts.target, &self.opts.device).ok().as_deref()),
                },
                task_hash: task.content_hash().unwrap_or_default(),
                config_hash: self.opts.config_hash(),
                config,
                created_unix_s: std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0),
                host: self.engine.versions()["host"].clone(),
                sandbox: Value::Null,
                remote: Value::Null,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::host_target;
    use serde_json::json;

    #[test]
    fn the_host_cpu_is_added_to_a_plain_llvm_target_only() {
        let host = json!({"mcpu": "znver4"});
        assert_eq!(host_target(&json!({"kind": "llvm", "num-cores": 2}), &host)["mcpu"], "znver4");
        assert_eq!(host_target(&json!({"kind": "llvm", "mcpu": "skylake"}), &host)["mcpu"], "skylake", "an explicit mcpu is kept");
        assert!(host_target(&json!({"kind": "cuda"}), &host).get("mcpu").is_none());
        assert!(host_target(&json!({"kind": "llvm"}), &json!(null)).get("mcpu").is_none(), "no report: unchanged");
    }
}
