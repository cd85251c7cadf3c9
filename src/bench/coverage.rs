//! What each task of a benchmark was timed against, said in the table's
//! header: a tuned baseline below the calibrated budget, or a task with no
//! tuning at all, must not pass for "the tuned compiler". Tasks are also
//! grouped by the kind of baseline they had, so fast_p is reported per kind.

use crate::baseline::{Calibration, tuned_dir, tuning_report};
use crate::eval::EvalResult;
use crate::paths::Paths;
use crate::tasks::Task;
use serde_json::{Value, json};
use std::collections::BTreeMap;

/// The group a result's baseline puts it in.
pub fn kind_of(r: &EvalResult) -> &'static str {
    let b = r.manifest.baseline.as_str();
    if b.starts_with("metaschedule-tuned") {
        "baseline:tuned"
    } else if b.contains("faster than metaschedule") {
        "baseline:default-beat-tuned"
    } else {
        "baseline:untuned"
    }
}

/// Task ids by baseline kind, to add to the breakdown's groups.
pub fn groups(results: &[EvalResult]) -> BTreeMap<String, Vec<String>> {
    let mut g: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for r in results {
        g.entry(kind_of(r).to_string()).or_default().push(r.task.clone());
    }
    g
}

/// Per task: the trials its tuning used per kernel against the calibrated
/// budget; and one line for the table's header.
pub fn describe(paths: &Paths, tasks: &[&Task], on: &crate::eval::EvalOptions, results: &[EvalResult]) -> (Value, String) {
    let calibration = Calibration::load(paths);
    let mut rows = Vec::new();
    let (mut tuned, mut under) = (0, Vec::new());
    for t in tasks {
        let kernels = t.reference.as_ref().and_then(|r| r.size).map(|s| s.kernels.max(1)).unwrap_or(1) as u64;
        let trials = tuned_dir(paths, t, &on.target, &on.device).ok().and_then(|d| tuning_report(&d)).and_then(|r| r["max_trials"].as_u64());
        let per_kernel = trials.map(|n| n / kernels);
        let budget = calibration.as_ref().and_then(|c| c.per_kernel.get(&t.meta.level.to_string()).copied());
        if let Some(p) = per_kernel {
            tuned += 1;
            if budget.is_some_and(|b| p < b as u64) || budget.is_none() {
                under.push(format!("{} ({p}/{})", t.id(), budget.map_or("?".to_string(), |b| b.to_string())));
            }
        }
        let kind = results.iter().find(|r| r.task == t.id()).map(kind_of);
        rows.push(json!({"task": t.id(), "trials": trials, "trials_per_kernel": per_kernel, "calibrated_per_kernel": budget, "timed_against": kind}));
    }
    let n = tasks.len();
    let mut line = format!("tuned baselines: {tuned} of {n} tasks");
    if tuned < n {
        line += &format!("; {} without a tuning were timed against TVM's default pipeline", n - tuned);
    }
    if calibration.is_none() {
        line += "; no calibration on this machine (`kwb baseline calibrate`), so no budget to hold tunings to";
    } else if !under.is_empty() {
        line += &format!("; UNDER-TUNED (trials per kernel / calibrated): {}", under.join(", "));
    }
    (json!({"tuned_tasks": tuned, "tasks": n, "under_tuned": under, "per_task": rows}), line)
}
