//! What an evaluation reports: the JSON a person, a script or the benchmark reads.

use crate::failure::{Failure, FailureClass};
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct SeedResult {
    pub seed: u32,
    pub ok: bool,
    pub max_abs_err: Option<f64>,
    pub max_rel_err: Option<f64>,
    #[serde(default)]
    pub message: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
/// One paired measurement: the baseline and the candidate timed back to back.
pub struct TimingPair {
    pub baseline_ms: f64,
    pub candidate_ms: f64,
    pub ratio: f64,
    pub first: String,
    /// Which pair of side processes timed it (they are forked anew every
    /// few pairs); 0 where the modules ran in the job's process.
    #[serde(default)]
    pub generation: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StageTime {
    pub stage: String,
    /// As kwb saw it (IPC included).
    pub wall_s: f64,
    /// Inside the worker's handler.
    pub worker_s: f64,
    /// Inside TVM builds and measured runs.
    pub tvm_s: f64,
}

/// Versions, target, device, budgets and a hash of everything that shaped the result.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Manifest {
    pub kwb_version: String,
    pub protocol: u32,
    pub versions: Value,
    pub target: Value,
    pub device: String,
    pub baseline: String,
    pub task_hash: String,
    pub config_hash: String,
    pub config: Value,
    pub created_unix_s: u64,
    /// The host CPU both sides were built for (LLVM's name, features, vector width).
    #[serde(default)]
    pub host: Value,
    /// What each worker role's sandbox applied when this result was made.
    #[serde(default)]
    pub sandbox: Value,
    /// Per measuring job on a remote device: its tracker and key, and how
    /// many sessions it took (a server lost mid-job is retried on another).
    #[serde(default, skip_serializing_if = "Value::is_null")]
    pub remote: Value,
}

impl Manifest {
    /// Keeps what a remote measuring job said about its device.
    pub fn note_remote(&mut self, stage: &str, result: &Value) {
        if !result["device"].is_null() {
            if self.remote.is_null() {
                self.remote = Value::Object(Default::default());
            }
            self.remote[stage] = result["device"].clone();
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct EvalResult {
    pub task: String,
    pub candidate_sha256: String,
    pub compile_ok: bool,
    pub correct: bool,
    pub seeds: Vec<SeedResult>,
    /// Per-seed maximum absolute error (null where the output could not be compared).
    pub max_errors: Vec<Option<f64>>,
    pub failure_class: Option<FailureClass>,
    pub failure: Option<Failure>,
    pub candidate_ms: Option<f64>,
    pub baseline_ms: Option<f64>,
    pub speedup_median: Option<f64>,
    pub timing_valid: bool,
    /// Interquartile range of the per-pair ratios over their median.
    pub spread: Option<f64>,
    /// Relative half-width of the ~95% confidence interval of the median ratio.
    pub ci: Option<f64>,
    /// Number of paired measurements behind the speedup.
    #[serde(rename = "samples")]
    pub pair_count: u32,
    /// The paired measurements themselves.
    #[serde(rename = "sample_list")]
    pub pairs: Vec<TimingPair>,
    pub timing_rounds: u32,
    pub compile_s: Option<f64>,
    /// Static memory plan plus the largest kernel scratch, in bytes (from the IR).
    #[serde(default)]
    pub peak_memory_bytes: Option<u64>,
    /// Achieved over attainable performance on this machine's measured roofline.
    #[serde(default)]
    pub roofline_share: Option<f64>,
    pub wall_s: f64,
    /// Wall time outside TVM's build and the measured runs: kwb, IPC, worker.
    pub engine_overhead_s: f64,
    /// Where the time went, per engine job.
    pub stages: Vec<StageTime>,
    pub manifest: Manifest,
    /// Relative bias of this task's baseline timed against itself on this
    /// machine (what the interval cannot see: placement, order, clock);
    /// fast_p widens the interval by it.
    #[serde(default)]
    pub noise: Option<f64>,
    /// Set when this is not an agent's candidate but what a run fell back to
    /// ("reference"): it then never counts towards Correct@1 or fast_p.
    #[serde(default)]
    pub fallback: Option<String>,
    /// For a reported best: the figure the search saw, before it was
    /// measured again in a fresh job on new inputs (this result's figure).
    #[serde(default)]
    pub search_speedup: Option<f64>,
    /// PyTorch eager on the same machine and thread count, timed in the
    /// same run (benchmarks only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eager: Option<super::eager::EagerTiming>,
}

impl EvalResult {
    pub fn failed(&self) -> bool {
        self.failure.is_some()
    }

    /// How many times faster than PyTorch eager this candidate is, when it
    /// is correct and both were timed.
    pub fn vs_eager(&self) -> Option<f64> {
        if !self.correct {
            return None;
        }
        super::eager::speedup(self.eager.as_ref()?.ms, self.candidate_ms?)
    }
}
