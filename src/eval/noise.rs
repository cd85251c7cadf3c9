//! The noise floor of a task's timing on this machine. The interval of one
//! timing measures the spread inside that run, not the bias between runs
//! (where buffers land, which side ran first, the clock): the reference
//! timed against itself five times gave 0.960x to 1.016x, each run "valid"
//! at about +/-0.7%. So the baseline is timed against itself a few times,
//! once per task, baseline and machine, and the largest deviation from 1.0
//! is kept beside the baseline; fast_p widens every interval by it.

/// Self-comparisons per task that `kwb bench` asks for.
pub const BENCH_NOISE_RUNS: u32 = 3;

/// The way of timing a floor was measured with, in its file's name: a floor
/// kept from an older way is measured again. `g5`: sides forked anew every
/// five pairs, pinned together to one CPU (floors kept from before read up
/// to 17% where the two sides' placement held one of them slow).
const TIMING_METHOD: &str = "g5";

use super::{Clock, Evaluator};
use crate::failure::{Failure, FailureClass};
use crate::tasks::Task;
use serde_json::json;
use std::path::Path;

impl Evaluator {
    /// The task's noise floor (a relative deviation), measured on first use.
    pub(crate) async fn noise_floor(&self, task: &Task, baseline: &Path, clock: &mut Clock) -> Result<Option<f64>, Failure> {
        if self.opts.noise_runs == 0 {
            return Ok(None);
        }
        let stem = baseline.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
        let path = self.paths.baseline_cache().join(format!("{stem}.noise-{}{}-{TIMING_METHOD}.json", self.opts.noise_runs, self.device_tag()));
        let cached = std::fs::read_to_string(&path).ok().and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok());
        if let Some(n) = cached.and_then(|v| v["noise"].as_f64()) {
            return Ok(Some(n));
        }
        let spec = task.reference_meta().map_err(|e| Failure::new(FailureClass::Task, format!("{e:#}")))?;
        let mut ratios = Vec::new();
        for run in 0..self.opts.noise_runs {
            let job = self.measure_job(
                "time",
                json!({"baseline_artifact": baseline, "candidate_artifact": baseline, "args_spec": spec.args, "pairs": self.opts.pairs,
                       "min_ms": self.opts.min_ms, "repeat": self.opts.repeat, "max_ci": self.opts.max_ci, "max_rounds": 1, "order_seed": run}),
                self.opts.time_timeout,
            )
            .exclusive();
            let out = self.engine.run(job).await?;
            clock.add("noise_floor", &out);
            if let Some(s) = out.result["speedup_median"].as_f64() {
                ratios.push(s);
            }
        }
        let noise = ratios.iter().map(|s| (s - 1.0).abs()).fold(0.0, f64::max);
        let _ = std::fs::write(&path, json!({"noise": noise, "self_speedups": ratios}).to_string());
        Ok(Some(noise))
    }
}
