//! A benchmark's finished tasks, appended one line each to
//! `<out>/progress.jsonl` as they finish, so a long run that is stopped
//! (a closed laptop, a killed session) goes on with `--resume` where it
//! stopped instead of measuring every task again.
//!
//! The first line records the settings that decide a result (suite, agent,
//! baseline, budgets, device); resuming under other settings is refused,
//! since the table would mix two benchmarks. A line cut short by a kill is
//! dropped and that task runs again.

use crate::eval::EvalResult;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

pub const FILE: &str = "progress.jsonl";

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Settings {
    pub suite: String,
    pub agent: String,
    pub baseline: String,
    pub device: String,
    pub budget_per_task_s: f64,
    pub max_candidates: u32,
    pub pairs: u32,
    pub eager: bool,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finished {
    pub task: String,
    pub result: EvalResult,
    /// The agent run behind it, for agent strategies.
    #[serde(default)]
    pub run: Value,
    /// What the task's earlier passes measured, oldest first, when it ran
    /// again after a timing without confidence (`--rerun-invalid`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub earlier: Vec<Value>,
}

pub struct Progress {
    path: PathBuf,
    pub done: BTreeMap<String, Finished>,
}

impl Progress {
    /// Starts a fresh record, or (with `resume`) reads the one in `dir`.
    pub fn open(dir: &Path, settings: &Settings, resume: bool) -> Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        let path = dir.join(FILE);
        let mut done = BTreeMap::new();
        if resume && path.exists() {
            let text = std::fs::read_to_string(&path).with_context(|| format!("cannot read {}", path.display()))?;
            let mut lines = text.lines();
            let header: Settings = lines
                .next()
                .and_then(|l| serde_json::from_str(l).ok())
                .with_context(|| format!("{} has no settings line; delete it to start over", path.display()))?;
            if &header != settings {
                bail!(
                    "{} was started with other settings ({}); resume with the same ones, or use another --out",
                    path.display(),
                    describe(&header)
                );
            }
            for line in lines {
                // A line cut short by a kill: that task runs again.
                if let Ok(f) = serde_json::from_str::<Finished>(line) {
                    done.insert(f.task.clone(), f);
                }
            }
            // Rewrite without a torn tail so new lines start on a line of their own.
            let mut text = serde_json::to_string(settings)? + "\n";
            for f in done.values() {
                text += &(serde_json::to_string(f)? + "\n");
            }
            write_atomically(&path, &text)?;
        } else {
            write_atomically(&path, &(serde_json::to_string(settings)? + "\n"))?;
        }
        Ok(Self { path, done })
    }

    /// Records a finished task; synced, so a kill right after keeps it.
    pub fn record(&mut self, f: Finished) -> Result<()> {
        let mut file = std::fs::OpenOptions::new().append(true).open(&self.path).with_context(|| format!("cannot append to {}", self.path.display()))?;
        file.write_all((serde_json::to_string(&f)? + "\n").as_bytes())?;
        file.sync_data()?;
        self.done.insert(f.task.clone(), f);
        Ok(())
    }
}

fn describe(s: &Settings) -> String {
    format!(
        "suite {}, agent {}, baseline {}, device {}, budget {} s, {} candidates, {} pairs, eager {}",
        s.suite, s.agent, s.baseline, s.device, s.budget_per_task_s, s.max_candidates, s.pairs, if s.eager { "timed" } else { "not timed" }
    )
}

fn write_atomically(path: &Path, text: &str) -> Result<()> {
    let tmp = path.with_extension("jsonl.tmp");
    std::fs::write(&tmp, text).with_context(|| format!("cannot write {}", tmp.display()))?;
    std::fs::rename(&tmp, path).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(())
}

/// A finished task's record for tests: a result of `speedup`
/// with interval `ci`, validly timed or not.
#[cfg(test)]
pub(crate) fn finished_for_test(task: &str, correct: bool, valid: bool, speedup: f64, ci: f64) -> Finished {
    let result: EvalResult = serde_json::from_value(serde_json::json!({
        "task": task, "candidate_sha256": "0", "compile_ok": true, "correct": correct, "seeds": [], "max_errors": [],
        "failure_class": null, "failure": null, "candidate_ms": 1.0, "baseline_ms": speedup, "speedup_median": speedup,
        "timing_valid": valid, "spread": null, "ci": ci, "samples": 0, "sample_list": [], "timing_rounds": 0,
        "compile_s": null, "wall_s": 0.0, "engine_overhead_s": 0.0, "stages": [],
        "manifest": {"kwb_version": "0", "protocol": 1, "versions": null, "target": null, "device": "d", "baseline": "b",
                     "task_hash": "", "config_hash": "", "config": null, "created_unix_s": 0}
    }))
    .unwrap();
    Finished { task: task.into(), result, run: Value::Null, earlier: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings() -> Settings {
        Settings { suite: "l1".into(), agent: "layered-builtin".into(), baseline: "tuned".into(), device: "local-cpu".into(), budget_per_task_s: 120.0, max_candidates: 30, pairs: 15, eager: true }
    }

    fn finished(task: &str) -> Finished {
        finished_for_test(task, true, true, 2.0, 0.0)
    }

    #[test]
    fn resuming_keeps_finished_tasks_drops_a_torn_line_and_refuses_other_settings() {
        let dir = tempfile::tempdir().unwrap();
        let mut p = Progress::open(dir.path(), &settings(), false).unwrap();
        p.record(finished("relu")).unwrap();
        p.record(finished("softmax")).unwrap();
        // A kill in the middle of the third line.
        let path = dir.path().join(FILE);
        let mut text = std::fs::read_to_string(&path).unwrap();
        text += "{\"task\": \"matmul";
        std::fs::write(&path, text).unwrap();

        let mut p = Progress::open(dir.path(), &settings(), true).unwrap();
        assert_eq!(p.done.keys().cloned().collect::<Vec<_>>(), ["relu", "softmax"]);
        p.record(finished("matmul")).unwrap();
        let p = Progress::open(dir.path(), &settings(), true).unwrap();
        assert_eq!(p.done.len(), 3, "the torn line was dropped and the next record starts on its own line");
        assert_eq!(p.done["relu"].result.speedup_median, Some(2.0));

        let mut other = settings();
        other.baseline = "default".into();
        let e = Progress::open(dir.path(), &other, true).err().unwrap().to_string();
        assert!(e.contains("other settings") && e.contains("baseline tuned"), "{e}");

        // Without --resume the record starts over.
        let p = Progress::open(dir.path(), &settings(), false).unwrap();
        assert!(p.done.is_empty());
        assert_eq!(std::fs::read_to_string(&path).unwrap().lines().count(), 1);
    }
}
