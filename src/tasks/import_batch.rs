//! Importing a directory of KernelBench files at once: files run side by
//! side on the engine's workers (an import compiles and checks; it does not
//! time, so nothing waits for the device), files already imported are
//! skipped, and the run ends with a report (what was imported, what was
//! refused and why, what failed) written as JSON beside the tasks, and a
//! suite named after the directory.

use super::import::{ImportReport, ImportRequest, import_one};
use crate::engine::Engine;
use crate::failure::{Failure, FailureClass};
use crate::paths::Paths;
use anyhow::{Context, Result};
use futures::StreamExt;
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Imported,
    /// Imported by an earlier run from the same file and values.
    Skipped,
    /// The file cannot be a task as it is, for a stated reason.
    Refused,
    /// kwb or the machine failed on it (memory, time, a crash, a bug).
    Failed,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Imported => "imported",
            Self::Skipped => "skipped",
            Self::Refused => "refused",
            Self::Failed => "failed",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    pub file: PathBuf,
    pub id: String,
    pub status: Status,
    /// Why it was refused or failed: the stage of a refusal (size, load,
    /// export, convert, reference), else the failure class.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    pub message: String,
    pub dest: PathBuf,
    pub seconds: f64,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub max_abs_err: Vec<Option<f64>>,
    /// Of `seconds`, those spent in PyTorch and in TVM (imports only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub torch_s: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tvm_s: Option<f64>,
}

#[derive(Debug, Serialize)]
pub struct BatchReport {
    pub dir: PathBuf,
    pub suite: String,
    pub wall_s: f64,
    pub workers: usize,
    pub counts: BTreeMap<&'static str, usize>,
    /// Refusals and failures by reason.
    pub reasons: BTreeMap<String, usize>,
    /// Where the files' import time went, summed over the files imported
    /// in this run (files run side by side, so the sum exceeds `wall_s`).
    pub time_split: TimeSplit,
    pub files: Vec<Outcome>,
}

#[derive(Debug, Default, Serialize)]
pub struct TimeSplit {
    pub files_s: f64,
    pub torch_s: f64,
    pub tvm_s: f64,
    /// The rest: kwb's own work (digests, inputs, files, the worker's round trips).
    pub kwb_s: f64,
}

impl TimeSplit {
    fn of(files: &[Outcome]) -> Self {
        let mut t = TimeSplit::default();
        for o in files.iter().filter(|o| o.torch_s.is_some()) {
            t.files_s += o.seconds;
            t.torch_s += o.torch_s.unwrap_or(0.0);
            t.tvm_s += o.tvm_s.unwrap_or(0.0);
        }
        t.kwb_s = (t.files_s - t.torch_s - t.tvm_s).max(0.0);
        t
    }
}

impl BatchReport {
    pub fn new(dir: &Path, suite: &str, wall_s: f64, workers: usize, mut files: Vec<Outcome>) -> Self {
        files.sort_by(|a, b| a.file.cmp(&b.file));
        let mut counts = BTreeMap::new();
        let mut reasons = BTreeMap::new();
        for s in [Status::Imported, Status::Skipped, Status::Refused, Status::Failed] {
            counts.insert(s.as_str(), files.iter().filter(|o| o.status == s).count());
        }
        for o in &files {
            if let Some(r) = &o.reason {
                *reasons.entry(format!("{} ({})", r, o.status.as_str())).or_insert(0) += 1;
            }
        }
        Self { dir: dir.to_path_buf(), suite: suite.to_string(), wall_s, workers, counts, reasons, time_split: TimeSplit::of(&files), files }
    }

    /// Task ids the directory's suite holds: everything that is a task now.
    pub fn task_ids(&self) -> Vec<String> {
        self.files.iter().filter(|o| matches!(o.status, Status::Imported | Status::Skipped)).map(|o| o.id.clone()).collect()
    }

    /// The closing table, for a person.
    pub fn table(&self) -> String {
        let total = self.files.len();
        let ok = self.counts["imported"] + self.counts["skipped"];
        let mut s = format!(
            "\n{} files from {}: {} imported, {} already imported, {} refused, {} failed ({:.0}% are tasks) in {:.0} s\n",
            total,
            self.dir.display(),
            self.counts["imported"],
            self.counts["skipped"],
            self.counts["refused"],
            self.counts["failed"],
            if total > 0 { 100.0 * ok as f64 / total as f64 } else { 0.0 },
            self.wall_s
        );
        let t = &self.time_split;
        if t.files_s > 0.0 {
            let pct = |x: f64| 100.0 * x / t.files_s;
            s += &format!("  time of the imports: {:.0} s over the files ({} at once): PyTorch {:.0}%, TVM {:.0}%, kwb {:.0}%\n", t.files_s, self.workers, pct(t.torch_s), pct(t.tvm_s), pct(t.kwb_s));
        }
        if !self.reasons.is_empty() {
            s += "  by reason:\n";
            for (r, n) in &self.reasons {
                s += &format!("    {n:>4}  {r}\n");
            }
        }
        s
    }
}

/// The file's sha256, as the importer records it in reference.json.
pub fn file_sha256(path: &Path) -> Option<String> {
    Some(hex::encode(Sha256::digest(std::fs::read(path).ok()?)))
}

/// Whether `req.dest` already holds this file imported with these values.
pub fn already_imported(req: &ImportRequest) -> bool {
    // A size grown for a device is redone whenever `kwb tasks resize` asks.
    if req.grow.is_some() {
        return false;
    }
    let Ok(text) = std::fs::read_to_string(req.dest.join("reference.json")) else { return false };
    let Ok(meta) = serde_json::from_str::<serde_json::Value>(&text) else { return false };
    if !req.dest.join("task.toml").is_file() || meta["model_sha256"].as_str() != file_sha256(&req.model).as_deref() {
        return false;
    }
    // Every value asked for now must be the one recorded.
    req.overrides.iter().all(|(k, v)| meta["overrides"].get(k).is_some_and(|r| r.to_string().trim_matches('"') == v))
}

fn outcome(req: &ImportRequest, result: Result<ImportReport, Failure>, seconds: f64) -> Outcome {
    let base = Outcome { file: req.model.clone(), id: req.id.clone(), status: Status::Imported, reason: None, message: String::new(), dest: req.dest.clone(), seconds, max_abs_err: vec![], torch_s: None, tvm_s: None };
    match result {
        Ok(r) => Outcome { id: r.id, message: r.message, max_abs_err: r.max_abs_err, torch_s: r.split["torch_s"].as_f64(), tvm_s: r.split["tvm_s"].as_f64(), ..base },
        Err(f) => {
            let (status, reason) = match f.class {
                FailureClass::Task => (Status::Refused, f.stage.clone().unwrap_or_else(|| "task".into())),
                FailureClass::NumericMismatch => (Status::Refused, "numeric_mismatch".into()),
                other => (Status::Failed, other.as_str().to_string()),
            };
            Outcome { status, reason: Some(reason), message: f.to_string(), ..base }
        }
    }
}

/// Imports every request, `concurrency` at a time; `on_event` hears each
/// file start (None) and finish (Some). Outcomes come back in file order.
pub async fn import_all(engine: &Engine, paths: &Paths, reqs: &[ImportRequest], concurrency: usize, on_event: &(dyn Fn(&ImportRequest, Option<&Outcome>) + Sync)) -> Vec<Outcome> {
    let runs = reqs.iter().map(|req| async move {
        if already_imported(req) {
            let o = Outcome { file: req.model.clone(), id: req.id.clone(), status: Status::Skipped, reason: None, message: "already imported from this file and these values".into(), dest: req.dest.clone(), seconds: 0.0, max_abs_err: vec![], torch_s: None, tvm_s: None };
            on_event(req, Some(&o));
            return o;
        }
        on_event(req, None);
        let t = Instant::now();
        let o = outcome(req, import_one(engine, paths, req).await, t.elapsed().as_secs_f64());
        on_event(req, Some(&o));
        o
    });
    futures::stream::iter(runs).buffer_unordered(concurrency.max(1)).collect().await
}

/// A suite name from a directory name: `level1` stays, `My Models` becomes `my_models`.
pub fn suite_name(dir: &Path) -> String {
    let name = dir.file_name().map(|n| n.to_string_lossy().to_lowercase()).unwrap_or_else(|| "imported".into());
    let mut s: String = name.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    while s.contains("__") {
        s = s.replace("__", "_");
    }
    let s = s.trim_matches('_').to_string();
    if s.is_empty() { "imported".into() } else { s }
}

/// Sets `suite = [ids]` in `<root>/suites.toml`, keeping the rest of the
/// file (comments included) as it is.
pub fn write_suite(root: &Path, suite: &str, ids: &[String]) -> Result<PathBuf> {
    let path = root.join("suites.toml");
    let text = if path.exists() { std::fs::read_to_string(&path)? } else { String::new() };
    let mut doc: toml_edit::DocumentMut = text.parse().with_context(|| format!("{} is not valid TOML; fix or remove it", path.display()))?;
    if !doc.contains_key("suites") {
        doc["suites"] = toml_edit::table();
    }
    let mut arr = toml_edit::Array::new();
    for id in ids {
        arr.push(id.as_str());
    }
    doc["suites"][suite] = toml_edit::value(arr);
    std::fs::create_dir_all(root)?;
    std::fs::write(&path, doc.to_string())?;
    Ok(path)
}

/// Writes the report as `<root>/import-<suite>.json`.
pub fn write_report(root: &Path, report: &BatchReport) -> Result<PathBuf> {
    let path = root.join(format!("import-{}.json", report.suite));
    std::fs::create_dir_all(root)?;
    std::fs::write(&path, serde_json::to_string_pretty(report)?)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suite_names_come_from_the_directory() {
        assert_eq!(suite_name(Path::new("KernelBench/level1")), "level1");
        assert_eq!(suite_name(Path::new("/x/My Models-2")), "my_models_2");
        assert_eq!(suite_name(Path::new("/")), "imported");
    }

    #[test]
    fn a_suite_is_added_and_replaced_keeping_comments() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("suites.toml"), "# mine\n[suites]\nsmoke = [\"relu\"]\n").unwrap();
        write_suite(dir.path(), "level1", &["a".into(), "b".into()]).unwrap();
        write_suite(dir.path(), "level1", &["c".into()]).unwrap();
        let text = std::fs::read_to_string(dir.path().join("suites.toml")).unwrap();
        assert!(text.starts_with("# mine"), "{text}");
        let parsed: toml::Table = toml::from_str(&text).unwrap();
        assert_eq!(parsed["suites"]["smoke"].as_array().unwrap().len(), 1);
        assert_eq!(parsed["suites"]["level1"].as_array().unwrap(), &vec![toml::Value::String("c".into())]);
    }

    #[test]
    fn refusals_and_failures_are_counted_by_reason() {
        let req = ImportRequest {
            model: "a.py".into(),
            dest: "/t/a".into(),
            id: "a".into(),
            level: 1,
            domains: vec![],
            overrides: BTreeMap::new(),
            max_bytes: 1,
            target: serde_json::json!({}),
            fit: false,
            budget_ms: 1.0,
            max_ops: 4000,
            peaks: None,
            grow: None,
        };
        let files = vec![
            outcome(&req, Err(Failure::new(FailureClass::Task, "too big").at("size")), 0.1),
            outcome(&req, Err(Failure::new(FailureClass::Memory, "out of memory")), 0.1),
            outcome(&req, Err(Failure::new(FailureClass::NumericMismatch, "differs")), 0.1),
        ];
        let r = BatchReport::new(Path::new("d"), "d", 1.0, 2, files);
        assert_eq!(r.counts["refused"], 2);
        assert_eq!(r.counts["failed"], 1);
        assert_eq!(r.reasons["size (refused)"], 1);
        assert_eq!(r.reasons["memory (failed)"], 1);
        assert!(r.task_ids().is_empty());
        assert!(r.table().contains("0% are tasks"), "{}", r.table());
    }
}
