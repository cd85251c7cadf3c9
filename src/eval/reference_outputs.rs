//! The outputs a candidate's are compared with.
//!
//! A task ships a digest of PyTorch's outputs (see the engine's
//! `output_digest.py`): their full values were most of the repository.
//! On each machine the task's reference, built by TVM's default pipeline
//! for this machine, is run once per seed by a trusted worker; its outputs
//! are kept only if they agree with the digest, and are cached with their
//! sha256 where no candidate's worker can write. Tasks that ship full
//! outputs (imported by an older kwb) are compared with those as before.

use super::baseline_artifact::file_sha256;
use super::{Clock, Evaluator};
use crate::engine::Job;
use crate::failure::{Failure, FailureClass};
use crate::tasks::Task;
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// The seeds every task's digest covers.
const SEEDS: [u32; 3] = [0, 1, 2];
const RECORD: &str = "sha256.json";

impl Evaluator {
    /// The directory of `seed{N}.npz` files checks compare with.
    pub async fn reference_outputs(&self, task: &Task) -> Result<PathBuf, Failure> {
        self.reference_outputs_timed(task, &mut Clock::default()).await
    }

    pub(super) async fn reference_outputs_timed(&self, task: &Task, clock: &mut Clock) -> Result<PathBuf, Failure> {
        let task_err = |e: anyhow::Error| Failure::new(FailureClass::Task, format!("{e:#}")).at("reference");
        task.verify_outputs().map_err(task_err)?;
        if !task.has_output_digest() {
            return Ok(task.outputs_dir());
        }
        let target = self.reference_target();
        let key = self.cache_key_for(task, &target, "reference-outputs-v1", None).map_err(task_err)?;
        let dir = self.paths.reference_outputs().join(format!("{}-{key}", task.id()));
        if self.intact_memo(&dir) {
            return Ok(dir);
        }
        let spec = task.reference_meta().map_err(task_err)?;
        let artifact = self.built_baseline_for(task, None, &target, clock).await?;
        // Evaluations of one task can run side by side: each writes its own
        // folder, and the first to finish puts it in place.
        // (Beside the cache, where no worker that sees candidates can write.)
        let n = self.counter.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.with_extension(format!("tmp-{}-{n}", std::process::id()));
        let tol = task.meta.tolerance;
        let job = Job::new(
            "reference_outputs",
            json!({"artifact": artifact, "args_spec": spec.args, "digest_dir": task.outputs_dir(), "out_dir": tmp,
                   "seeds": SEEDS, "atol": tol.atol, "rtol": tol.rtol}),
            self.opts.check_timeout.max(std::time::Duration::from_secs(120)),
        );
        let out = self.engine.run(job).await.inspect_err(|_| {
            let _ = std::fs::remove_dir_all(&tmp);
        })?;
        clock.add("reference_outputs", &out);
        let internal = |e: std::io::Error| Failure::new(FailureClass::Internal, format!("cannot store the reference outputs in {}: {e}", dir.display()));
        let record = json!({"files": out.result["files"], "seeds": out.result["seeds"]});
        std::fs::write(tmp.join(RECORD), record.to_string()).map_err(internal)?;
        if std::fs::rename(&tmp, &dir).is_err() {
            if self.intact_memo(&dir) {
                // Another evaluation put the same outputs in place first.
                let _ = std::fs::remove_dir_all(&tmp);
            } else {
                // A damaged or partial folder from before: replace it.
                let _ = std::fs::remove_dir_all(&dir);
                std::fs::rename(&tmp, &dir).map_err(internal)?;
            }
        }
        if !self.intact_memo(&dir) {
            return Err(Failure::new(FailureClass::Internal, format!("the reference outputs in {} do not match the hashes they were written with", dir.display())));
        }
        Ok(dir)
    }
}

impl Evaluator {
    /// What the reference is built for to compute the outputs (on this
    /// machine, by a trusted worker): the device's target where this CPU
    /// runs its code, this CPU's own otherwise (a board of another
    /// architecture, a GPU). The outputs are checked against the digest
    /// either way.
    fn reference_target(&self) -> Value {
        let t = &self.opts.target;
        let triple = t["mtriple"].as_str().unwrap_or(std::env::consts::ARCH);
        if t["kind"] == "llvm" && triple.split('-').next() == Some(std::env::consts::ARCH) {
            return t.clone();
        }
        super::host_target(&json!({"kind": "llvm"}), &self.engine.versions()["host"])
    }

    /// `intact`, remembered per folder while its files' times stay the same:
    /// hashing megabytes of outputs before every evaluation would be most of
    /// kwb's own overhead.
    fn intact_memo(&self, dir: &Path) -> bool {
        let times: Vec<_> = [RECORD.to_string()].into_iter().chain(SEEDS.iter().map(|s| format!("seed{s}.npz"))).map(|n| std::fs::metadata(dir.join(n)).and_then(|m| m.modified()).ok()).collect();
        let Some(times) = times.into_iter().collect::<Option<Vec<_>>>() else { return false };
        let mut memo = self.verified_outputs.lock().unwrap_or_else(|e| e.into_inner());
        if memo.get(dir) == Some(&times) {
            return true;
        }
        let ok = intact(dir);
        if ok {
            memo.insert(dir.to_path_buf(), times);
        } else {
            memo.remove(dir);
        }
        ok
    }
}

/// Each seed's largest error of the reference built here against PyTorch's
/// recorded values, for outputs computed from a digest.
pub fn errors_against_pytorch(dir: &Path) -> Option<Vec<f64>> {
    let record: Value = serde_json::from_str(&std::fs::read_to_string(dir.join(RECORD)).ok()?).ok()?;
    record["seeds"].as_array()?.iter().map(|s| s["max_abs_err"].as_f64()).collect()
}

/// Whether every seed's file is there with the sha256 recorded when it was
/// written.
fn intact(dir: &Path) -> bool {
    let Some(record) = std::fs::read_to_string(dir.join(RECORD)).ok().and_then(|t| serde_json::from_str::<Value>(&t).ok()) else { return false };
    SEEDS.iter().all(|s| {
        let name = format!("seed{s}.npz");
        record["files"][&name].as_str().is_some_and(|want| file_sha256(&dir.join(&name)).is_ok_and(|have| have == want))
    })
}
