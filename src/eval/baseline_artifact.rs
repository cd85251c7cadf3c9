//! Building and choosing the baseline a candidate is timed against.

use super::{BASELINE_DEFAULT, BuildSource, Clock, Evaluator};
use crate::baseline::BaselineKind;
use crate::failure::{Failure, FailureClass};
use crate::tasks::Task;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::path::PathBuf;

impl Evaluator {
    /// The baseline's built module, built once per (task, target, TVM) and cached.
    pub async fn baseline_artifact(&self, task: &Task) -> Result<PathBuf, Failure> {
        let mut clock = Clock::default();
        Ok(self.baseline_artifact_timed(task, &mut clock).await?.0)
    }

    /// The baseline to time against and its label. The tuned baseline is the
    /// faster of MetaSchedule's build and the default build, measured once
    /// and remembered: a short search can do worse than TVM's defaults (seen
    /// here: an elementwise kernel 20x slower), and a speedup over a baseline
    /// slower than untuned TVM would be no speedup at all.
    pub(crate) async fn baseline_artifact_timed(&self, task: &Task, clock: &mut Clock) -> Result<(PathBuf, String), Failure> {
        let default = self.built_baseline(task, None, clock).await?;
        if self.opts.baseline == BaselineKind::Default {
            return Ok((default, BASELINE_DEFAULT.to_string()));
        }
        let dir = crate::baseline::tuned_dir(&self.paths, task, &self.opts.target, &self.opts.device)?;
        if crate::baseline::tuning_report(&dir).is_none() {
            return Err(Failure::new(FailureClass::Task, format!("{} has no tuned baseline yet: run `{}`", task.id(), crate::baseline::tune_command(task.id(), &self.opts.device))).at("baseline"));
        }
        let tuned_label = crate::baseline::label(BaselineKind::Tuned, Some(&dir));
        let tuned = self.built_baseline(task, Some(&dir), clock).await?;
        let choice_path = tuned.with_extension(format!("choice{}.json", self.device_tag()));
        let choice: Value = match std::fs::read_to_string(&choice_path).ok().and_then(|t| serde_json::from_str(&t).ok()) {
            Some(c) => c,
            None => {
                let spec = task.reference_meta().map_err(|e| Failure::new(FailureClass::Task, format!("{e:#}")))?;
                let job = self.measure_job(
                    "time",
                    json!({"baseline_artifact": default, "candidate_artifact": tuned, "args_spec": spec.args, "pairs": 10, "max_rounds": 2}),
                    self.opts.time_timeout,
                )
                .exclusive();
                let out = self.engine.run(job).await?;
                clock.add("baseline_choice", &out);
                let r = &out.result;
                let c = json!({"tuned_faster": r["speedup_median"].as_f64().unwrap_or(0.0) >= 1.0,
                               "default_ms": r["baseline_ms"], "tuned_ms": r["candidate_ms"]});
                let _ = std::fs::write(&choice_path, c.to_string());
                c
            }
        };
        if choice["tuned_faster"] == true {
            Ok((tuned, tuned_label))
        } else {
            let f = |k: &str| choice[k].as_f64().unwrap_or(f64::NAN);
            Ok((default, format!("{BASELINE_DEFAULT} (faster than {tuned_label}: {:.4} vs {:.4} ms)", f("default_ms"), f("tuned_ms"))))
        }
    }

    /// What a cache of something built from the task's reference is keyed
    /// by: the task's content, the target, the engine's packages, the kind
    /// of thing (`tag`) and anything else it depends on.
    pub(super) fn cache_key_for(&self, task: &Task, target: &Value, tag: &str, extra: Option<&str>) -> anyhow::Result<String> {
        let mut h = Sha256::new();
        h.update(task.content_hash()?.as_bytes());
        h.update(target.to_string().as_bytes());
        h.update(crate::engine::pyenv::REQUIREMENTS.as_bytes());
        h.update(tag.as_bytes());
        if let Some(x) = extra {
            h.update(x.as_bytes());
        }
        Ok(hex::encode(&h.finalize()[..10]))
    }

    /// One build of the reference, plain or with a tuning database, cached by content.
    pub(super) async fn built_baseline(&self, task: &Task, tuned: Option<&std::path::Path>, clock: &mut Clock) -> Result<PathBuf, Failure> {
        self.built_baseline_for(task, tuned, &self.opts.target, clock).await
    }

    /// The same, for another target than the device's (the reference
    /// outputs are computed on this machine, see `reference_target`).
    pub(super) async fn built_baseline_for(&self, task: &Task, tuned: Option<&std::path::Path>, target: &Value, clock: &mut Clock) -> Result<PathBuf, Failure> {
        let task_err = |e: anyhow::Error| Failure::new(FailureClass::Task, format!("{e:#}"));
        // The artifact's shape: `kwb_rotate` beside `main` (timing on rotating inputs).
        let tuning = tuned.map(crate::baseline::database_hash);
        let key = self.cache_key_for(task, target, "artifact-v2-rotation", tuning.as_deref()).map_err(task_err)?;
        let dir = self.paths.baseline_cache();
        std::fs::create_dir_all(&dir).map_err(|e| Failure::new(FailureClass::Internal, format!("cannot create {}: {e}", dir.display())))?;
        let path = dir.join(format!("{}-{key}.so", task.id()));
        if path.exists() {
            // Trusted only while it is what was written: its hash is recorded
            // beside it, and a mismatch (or no record) rebuilds it.
            if verify_recorded_hash(&path) {
                return Ok(path);
            }
            tracing::warn!(path = %path.display(), "cached baseline does not match its recorded hash; rebuilding it");
            let _ = std::fs::remove_file(&path);
        }
        let tmp = self.artifact_path("baseline");
        let source = task.reference_text().map_err(task_err)?;
        let mut job = self.build_job(task, &BuildSource::module(&source), &tmp)?;
        job.args["target"] = target.clone();
        if let Some(dir) = tuned {
            job.args["tuned_db"] = json!(dir);
        }
        let out = self.engine.run(job).await.map_err(|mut f| {
            f.message = format!("the task's reference does not build, so there is no baseline: {}", f.message);
            f
        })?;
        clock.add("baseline_build", &out);
        record_hash(&tmp, &path).map_err(|e| Failure::new(FailureClass::Internal, format!("cannot record the baseline's hash: {e}")))?;
        std::fs::rename(&tmp, &path).map_err(|e| Failure::new(FailureClass::Internal, format!("cannot store the baseline: {e}")))?;
        Ok(path)
    }

}

pub(super) fn file_sha256(path: &std::path::Path) -> std::io::Result<String> {
    Ok(hex::encode(Sha256::digest(std::fs::read(path)?)))
}

fn hash_record(path: &std::path::Path) -> PathBuf {
    path.with_extension("so.sha256")
}

/// Writes the hash of `built` as the record of `stored` (where it will live).
fn record_hash(built: &std::path::Path, stored: &std::path::Path) -> std::io::Result<()> {
    std::fs::write(hash_record(stored), file_sha256(built)?)
}

/// Whether `path` still has the hash recorded when it was written.
pub(crate) fn verify_recorded_hash(path: &std::path::Path) -> bool {
    match (std::fs::read_to_string(hash_record(path)), file_sha256(path)) {
        (Ok(want), Ok(have)) => want.trim() == have,
        _ => false,
    }
}
