//! PyTorch eager on the same machine and thread count: the figure a user
//! holds kwb's best against, timed in the same run as the candidate
//! (`kwb_engine/eager.py`).

use crate::engine::{Engine, Job};
use crate::tasks::Task;
use anyhow::{Result, bail};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::time::Duration;

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct EagerTiming {
    /// Median milliseconds per call.
    pub ms: f64,
    /// Interquartile range of the per-round times over their median.
    pub spread: Option<f64>,
    pub rounds: u32,
    pub threads: u32,
    pub torch: String,
}

/// Times the task's model.py in PyTorch eager, holding the device
/// exclusively like any timing. The file must be the one the task was
/// imported from: its sha256 is checked against reference.json first.
pub async fn time(engine: &Engine, task: &Task) -> Result<EagerTiming> {
    let model = task.dir.join("model.py");
    let meta = task.reference_meta()?;
    let text = std::fs::read(&model).map_err(|e| anyhow::anyhow!("{} cannot be read ({e}); PyTorch eager needs the task's model file", model.display()))?;
    if !meta.model_sha256.is_empty() && hex::encode(Sha256::digest(&text)) != meta.model_sha256 {
        bail!("{} changed since the task was imported; re-import it with `kwb tasks import` before timing PyTorch eager on it", model.display());
    }
    let args = serde_json::json!({"model": model, "overrides": meta.overrides});
    let out = engine.run(Job::new("eager", args, Duration::from_secs(180)).exclusive()).await.map_err(|f| anyhow::anyhow!("{f}"))?;
    Ok(serde_json::from_value(out.result)?)
}

/// How many times faster than PyTorch eager a candidate is.
pub fn speedup(eager_ms: f64, candidate_ms: f64) -> Option<f64> {
    (eager_ms > 0.0 && candidate_ms > 0.0).then(|| eager_ms / candidate_ms)
}
