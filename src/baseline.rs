//! Baselines every speedup is measured against: TVM's default pipeline
//! (untuned, with fusion) and the MetaSchedule-tuned reference. Tuning
//! databases live under `<data>/baselines/tuned/`, one folder per task,
//! target and reference, so tuning runs once and survives interrupts.

use crate::engine::{Engine, Job};
use crate::failure::{Failure, FailureClass};
use crate::paths::Paths;
use crate::tasks::Task;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BaselineKind {
    /// The reference under TVM's default pipeline (legalize, fuse; no tuning).
    Default,
    /// The reference with MetaSchedule's best schedules.
    Tuned,
}

impl BaselineKind {
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "default" | "untuned" => Some(Self::Default),
            "tuned" | "metaschedule" => Some(Self::Tuned),
            _ => None,
        }
    }
}

/// The tuning folder of one task on one target.
pub fn tuned_dir(paths: &Paths, task: &Task, target: &Value) -> Result<PathBuf, Failure> {
    let hash = task.content_hash().map_err(|e| Failure::new(FailureClass::Task, format!("{e:#}")))?;
    let t = hex::encode(&Sha256::digest(target.to_string().as_bytes())[..6]);
    Ok(paths.data.join("baselines").join("tuned").join(format!("{}-{hash}-{t}", task.id())))
}

/// What the last completed tuning of this folder reported, if any.
pub fn tuning_report(dir: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(dir.join("kwb-tuning.json")).ok()?).ok()
}

/// A hash of the tuning records, so a retuned database gets a new artifact.
pub fn database_hash(dir: &Path) -> String {
    let bytes = std::fs::read(dir.join("database_tuning_record.json")).unwrap_or_default();
    hex::encode(&Sha256::digest(&bytes)[..8])
}

pub fn label(kind: BaselineKind, dir: Option<&Path>) -> String {
    match kind {
        BaselineKind::Default => "tvm-default-pipeline".into(),
        BaselineKind::Tuned => {
            let trials = dir.and_then(tuning_report).and_then(|r| r["max_trials"].as_u64()).map(|t| t.to_string()).unwrap_or_else(|| "?".into());
            format!("metaschedule-tuned ({trials} trials)")
        }
    }
}

/// Tunes one task's reference with MetaSchedule, unless a finished tuning
/// with at least `trials` exists. Returns the tuning report.
pub async fn tune(engine: &Engine, paths: &Paths, task: &Task, target: &Value, trials: u32, force: bool) -> Result<(Value, bool), Failure> {
    let dir = tuned_dir(paths, task, target)?;
    if !force {
        if let Some(r) = tuning_report(&dir) {
            if r["max_trials"].as_u64().unwrap_or(0) >= trials as u64 {
                return Ok((r, false));
            }
        }
    }
    let source = task.reference_text().map_err(|e| Failure::new(FailureClass::Task, format!("{e:#}")))?;
    // A killed tuning leaves records but no report: MetaSchedule's JSON
    // database picks them up again and the search resumes from them.
    let _ = std::fs::remove_file(dir.join("kwb-tuning.json"));
    let timeout = Duration::from_secs(600 + 120 * trials as u64);
    // Tuning measures candidates, so it has the device to itself.
    let job = Job::new("tune", json!({"source": source, "target": target, "work_dir": dir, "max_trials": trials}), timeout).exclusive();
    let out = engine.run(job).await?;
    Ok((out.result, true))
}
