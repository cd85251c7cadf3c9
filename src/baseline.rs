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

/// The tuning folder of one task on one target and device: a board's
/// tuning is its own, even where its target is the same as this CPU's.
pub fn tuned_dir(paths: &Paths, task: &Task, target: &Value, device: &str) -> Result<PathBuf, Failure> {
    let hash = task.content_hash().map_err(|e| Failure::new(FailureClass::Task, format!("{e:#}")))?;
    Ok(paths.data.join("baselines").join("tuned").join(format!("{}-{hash}{}", task.id(), place_suffix(target, device))))
}

/// The end of a tuning folder's name that says where it was tuned.
fn place_suffix(target: &Value, device: &str) -> String {
    let t = hex::encode(&Sha256::digest(target.to_string().as_bytes())[..6]);
    let on = if device == crate::devices::LOCAL_CPU { String::new() } else { format!("-on-{device}") };
    format!("-{t}{on}")
}

/// Finished tunings of other tasks on the same target and device: where
/// this task has a kernel one of them searched, MetaSchedule need not
/// search it again (the engine checks that the kernel is the same and
/// that they searched it with twice this task's per-kernel budget).
fn finished_elsewhere(dir: &Path, target: &Value, device: &str) -> Vec<PathBuf> {
    let suffix = place_suffix(target, device);
    let Some(parent) = dir.parent() else { return Vec::new() };
    let Ok(entries) = std::fs::read_dir(parent) else { return Vec::new() };
    let mut found: Vec<PathBuf> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p != dir && p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(&suffix)) && tuning_report(p).is_some())
        .collect();
    found.sort();
    found
}

/// The tuning's command for a task, with the device when it is not this CPU.
pub fn tune_command(task: &str, device: &str) -> String {
    if device == crate::devices::LOCAL_CPU { format!("kwb baseline tune --task {task}") } else { format!("kwb --device {device} baseline tune --task {task}") }
}

/// What the last completed tuning of this folder reported, if any.
pub fn tuning_report(dir: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(dir.join("kwb-tuning.json")).ok()?).ok()
}

/// How many of a tuning's kernels came, searched already, from other tasks' tunings.
pub fn reused_kernels(report: &Value) -> usize {
    report["reused"].as_array().map_or(0, Vec::len)
}

/// The trials of a tuning's records that other tasks' tunings measured.
pub fn copied_trials(report: &Value) -> u64 {
    report["reused"].as_array().into_iter().flatten().filter_map(|r| r["trials"].as_u64()).sum()
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
            let report = dir.and_then(tuning_report);
            let trials = report.as_ref().and_then(|r| r["max_trials"].as_u64());
            let label = format!("metaschedule-tuned ({} trials)", trials.map_or("?".to_string(), |t| t.to_string()));
            let ran = report.as_ref().and_then(|r| r["trials"].as_u64());
            let reused = report.as_ref().map(reused_kernels).unwrap_or(0);
            let label = if reused > 0 {
                let kernels = report.as_ref().and_then(|r| r["kernels"].as_array()).map_or(0, Vec::len);
                format!("{label}, {reused} of {kernels} kernels searched in other tasks' tunings")
            } else {
                label
            };
            match report {
                Some(r) if r["nothing_to_tune"] == true => format!("{label}, nothing to tune: the default build"),
                // MetaSchedule stops early when its design space holds fewer distinct schedules.
                Some(_) if ran.zip(trials).is_some_and(|(ran, max)| ran < max) => format!("{label}, its space exhausted after {}", ran.unwrap_or(0)),
                _ => label,
            }
        }
    }
}

/// Tunes one task's reference with MetaSchedule, unless a finished tuning
/// with at least `trials` exists. Returns the tuning report. `on` says
/// where: its target, device name and (for a board) how to reach it; the
/// trials are measured there.
///
/// A kernel that other tasks' finished tunings searched with twice this
/// task's per-kernel budget is not searched again: their records are
/// copied (see `finished_elsewhere`). Not where `force` asks for a tuning of its own,
/// nor for a calibration (`reuse` false), whose record of how soon the
/// search converged must be this run's.
pub async fn tune(engine: &Engine, paths: &Paths, task: &Task, on: &crate::eval::EvalOptions, trials: u32, force: bool, reuse: bool) -> Result<(Value, bool), Failure> {
    let target = &on.target;
    let dir = tuned_dir(paths, task, target, &on.device)?;
    let reuse_from = if reuse && !force { finished_elsewhere(&dir, target, &on.device) } else { Vec::new() };
    if force {
        // Start from an empty database, so the convergence record is this run's alone.
        let _ = std::fs::remove_dir_all(&dir);
    } else if let Some(r) = tuning_report(&dir) {
        if r["max_trials"].as_u64().unwrap_or(0) >= trials as u64 {
            return Ok((r, false));
        }
    }
    let source = task.reference_text().map_err(|e| Failure::new(FailureClass::Task, format!("{e:#}")))?;
    // A killed tuning leaves records but no report: MetaSchedule's JSON
    // database picks them up again and the search resumes from them.
    let _ = std::fs::remove_file(dir.join("kwb-tuning.json"));
    let timeout = Duration::from_secs(600 + 120 * trials as u64);
    // Tuning measures candidates, so it has the device to itself.
    let job = Job::new("tune", json!({"source": source, "target": target, "work_dir": dir, "max_trials": trials, "device": on.device_spec, "reuse_from": reuse_from}), timeout).exclusive();
    let out = engine.run(job).await?;
    Ok((out.result, true))
}

/// Tuning budgets derived from how soon MetaSchedule converged on
/// representative tasks (the paper's method: calibrate with a cap, then give
/// each task a budget from the convergence). Stored per machine.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Calibration {
    pub cap: u32,
    /// Trials per kernel, by level ("1", "2", "3").
    pub per_kernel: std::collections::BTreeMap<String, u32>,
    pub record: Vec<Value>,
    pub target: Value,
    pub versions: Value,
    pub created_unix_s: u64,
}

impl Calibration {
    fn path(paths: &Paths) -> PathBuf {
        paths.data.join("baselines").join("calibration.json")
    }

    pub fn load(paths: &Paths) -> Option<Self> {
        serde_json::from_str(&std::fs::read_to_string(Self::path(paths)).ok()?).ok()
    }

    pub fn save(&self, paths: &Paths) -> anyhow::Result<()> {
        let p = Self::path(paths);
        std::fs::create_dir_all(p.parent().unwrap())?;
        std::fs::write(p, serde_json::to_string_pretty(self)?)?;
        Ok(())
    }

    /// Per level: 1.5x the latest convergence point seen on any kernel of
    /// that level's representatives, at least 8; levels without a
    /// representative borrow the nearest one below.
    pub fn derive(reports: &[(&Task, Value)], cap: u32, target: &Value, versions: Value) -> Self {
        let mut per_kernel = std::collections::BTreeMap::new();
        let mut record = Vec::new();
        for (task, r) in reports {
            let kernels = r["kernels"].as_array().cloned().unwrap_or_default();
            let latest = kernels.iter().filter_map(|k| k["converged_at"].as_u64()).max().unwrap_or(cap as u64) as u32;
            let budget = ((latest as f64 * 1.5).ceil() as u32).max(8);
            let level = task.meta.level.to_string();
            let e = per_kernel.entry(level.clone()).or_insert(0);
            *e = (*e).max(budget);
            record.push(serde_json::json!({"task": task.id(), "level": task.meta.level, "kernels": kernels.len(),
                "trials": r["trials"], "elapsed_s": r["elapsed_s"], "latest_convergence": latest, "per_kernel_budget": budget,
                "convergence": kernels.iter().map(|k| serde_json::json!({"workload": k["workload"], "trials": k["trials"], "best_us": k["best_us"], "converged_at": k["converged_at"]})).collect::<Vec<_>>()}));
        }
        for l in ["1", "2", "3"] {
            if !per_kernel.contains_key(l) {
                let below = (1..l.parse::<u32>().unwrap()).rev().find_map(|b| per_kernel.get(&b.to_string()).copied()).unwrap_or(cap);
                per_kernel.insert(l.to_string(), below);
            }
        }
        let created_unix_s = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
        Self { cap, per_kernel, record, target: target.clone(), versions, created_unix_s }
    }

    /// A task's budget: its level's per-kernel budget times its kernels, within the cap per kernel.
    pub fn budget(&self, task: &Task) -> u32 {
        let per = self.per_kernel.get(&task.meta.level.to_string()).copied().unwrap_or(self.cap);
        let kernels = task.reference.as_ref().and_then(|r| r.size).map(|s| s.kernels.max(1)).unwrap_or(1);
        per.saturating_mul(kernels)
    }

    pub fn describe(&self) -> String {
        let mut s = format!("calibration (cap {} trials)\n", self.cap);
        for r in &self.record {
            s += &format!(
                "  {:<20} L{} {:>3} kernels, {:>4} trials in {:>5.0} s, converged by trial {:>3} -> {} trials per kernel\n",
                r["task"].as_str().unwrap_or("?"),
                r["level"],
                r["kernels"],
                r["trials"],
                r["elapsed_s"].as_f64().unwrap_or(0.0),
                r["latest_convergence"],
                r["per_kernel_budget"]
            );
        }
        for (l, b) in &self.per_kernel {
            s += &format!("  level {l}: {b} trials per kernel\n");
        }
        s
    }
}
