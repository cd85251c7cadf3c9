//! `kwb tasks import`: a KernelBench-format PyTorch file becomes a task.
//! The worker (with PyTorch) writes the reference into a scratch folder; only
//! a complete import is copied into the task directory, so a failed one
//! leaves nothing half-written behind.

use super::meta::{TaskMeta, Tolerance};
use crate::engine::{Engine, Job};
use crate::failure::Failure;
use crate::paths::Paths;
use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

#[derive(Debug, Clone)]
pub struct ImportRequest {
    pub model: PathBuf,
    pub dest: PathBuf,
    pub id: String,
    pub level: u8,
    pub domains: Vec<String>,
    pub overrides: BTreeMap<String, String>,
    pub max_bytes: u64,
    pub target: Value,
    /// Choose the file's constants so it fits (`--fit`); otherwise a file
    /// that does not fit is refused with the values that would.
    pub fit: bool,
    /// The untuned reference's expected run time a task may have.
    pub budget_ms: f64,
    /// The operators (views aside) a task's graph may have; TVM's compile
    /// time grows with them.
    pub max_ops: u64,
    /// The machine's measured peaks (roofline::Machine), for the estimate.
    pub peaks: Option<Value>,
    /// Sizing for a faster device instead (`kwb tasks resize`): its
    /// `peak_flops`, `bandwidth_bytes_s` and the `min_s` a forward pass must
    /// take at them; the file's constants are doubled until it does.
    pub grow: Option<Value>,
}

#[derive(Debug, serde::Serialize)]
pub struct ImportReport {
    pub id: String,
    pub dest: PathBuf,
    pub tvm_matches_torch: bool,
    pub max_abs_err: Vec<Option<f64>>,
    pub message: String,
    /// Constants `--fit` changed, recorded in task.toml.
    pub fitted: BTreeMap<String, Value>,
    /// Seconds the import spent in PyTorch and in TVM (`torch_s`, `tvm_s`, `total_s`).
    pub split: Value,
}

/// Derives a task id from a file name: `19_ReLU.py` -> `relu_19`-ish, lower-case.
pub fn id_from_path(path: &Path) -> String {
    let stem = path.file_stem().map(|s| s.to_string_lossy().to_lowercase()).unwrap_or_default();
    let stem = if stem == "model" { path.parent().and_then(|p| p.file_name()).map(|s| s.to_string_lossy().to_lowercase()).unwrap_or(stem) } else { stem };
    let mut id: String = stem.chars().map(|c| if c.is_ascii_alphanumeric() { c } else { '_' }).collect();
    while id.contains("__") {
        id = id.replace("__", "_");
    }
    id.trim_matches('_').to_string()
}

/// A level from the file's path, as KernelBench lays its files out
/// (`level1/`, `level2/`, `level3/`), if it says.
pub fn guess_level(path: &Path) -> Option<u8> {
    let text = path.to_string_lossy().to_lowercase();
    (1..=3u8).find(|l| text.contains(&format!("level{l}")) || text.contains(&format!("level_{l}")) || text.contains(&format!("/l{l}/")))
}

/// Domain suites from what the model uses: convolutions and image blocks
/// are mobile vision, attention, linear layers and point sets robotics, and
/// anything small enough for a microcontroller-class board aiot.
pub fn guess_domains(source: &str, total_bytes: Option<u64>) -> Vec<String> {
    let s = source.to_lowercase();
    let mut d = Vec::new();
    if ["conv2d", "batchnorm2d", "depthwise", "maxpool2d", "avgpool2d", "hardswish", "relu6"].iter().any(|k| s.contains(k)) {
        d.push("mobile".to_string());
    }
    if ["attention", "linear", "matmul", "bmm", "softmax", "layernorm", "rotary", "point"].iter().any(|k| s.contains(k)) {
        d.push("robotics".to_string());
    }
    if total_bytes.is_none_or(|b| b <= 4 << 20) || s.contains("int8") || s.contains("quant") {
        d.push("aiot".to_string());
    }
    if d.is_empty() {
        d.push("robotics".to_string());
    }
    d
}

pub async fn import_one(engine: &Engine, paths: &Paths, req: &ImportRequest) -> Result<ImportReport, Failure> {
    let internal = |e: anyhow::Error| Failure::new(crate::failure::FailureClass::Internal, format!("{e:#}"));
    let existing = req.dest.join("task.toml");
    let meta = if existing.exists() {
        let text = std::fs::read_to_string(&existing).map_err(|e| internal(e.into()))?;
        toml::from_str::<TaskMeta>(&text).map_err(|e| internal(anyhow::anyhow!("{}: {}", existing.display(), e)))?
    } else {
        TaskMeta {
            id: req.id.clone(),
            level: req.level,
            domains: req.domains.clone(),
            dtype: "float32".into(),
            title: String::new(),
            tolerance: Tolerance::for_dtype("float32"),
            overrides: req.overrides.iter().map(|(k, v)| (k.clone(), guess_toml(v))).collect(),
            inits: BTreeMap::new(),
        }
    };
    let problems = meta.problems();
    if !problems.is_empty() {
        return Err(internal(anyhow::anyhow!("task metadata: {}", problems.join("; "))));
    }
    let mut overrides: BTreeMap<String, Value> = meta.overrides.iter().map(|(k, v)| (k.clone(), serde_json::to_value(v).unwrap_or(Value::Null))).collect();
    for (k, v) in &req.overrides {
        overrides.insert(k.clone(), serde_json::to_value(guess_toml(v)).unwrap_or(Value::Null));
    }
    let inits: BTreeMap<String, Value> = meta.inits.iter().map(|(k, v)| (k.clone(), serde_json::to_value(v).unwrap_or(Value::Null))).collect();
    let scratch = paths.scratch().join(format!("import-{}-{}", req.id, std::process::id()));
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).map_err(|e| internal(e.into()))?;
    let model = std::fs::canonicalize(&req.model).map_err(|e| internal(anyhow::anyhow!("{}: {e}", req.model.display())))?;
    let job = Job::new(
        "import_task",
        json!({"model_path": model, "out_dir": scratch, "overrides": overrides, "inits": inits, "max_bytes": req.max_bytes,
               "atol": meta.tolerance.atol, "rtol": meta.tolerance.rtol, "target": req.target,
               "fit": req.fit, "budget_ms": req.budget_ms, "max_ops": req.max_ops, "peaks": req.peaks, "grow": req.grow}),
        Duration::from_secs(600),
    );
    let out = engine.run(job).await;
    let out = match out {
        Ok(o) => o,
        Err(f) => {
            let _ = std::fs::remove_dir_all(&scratch);
            return Err(f);
        }
    };
    let r = &out.result;
    let seeds = r["seeds"].as_array().cloned().unwrap_or_default();
    let max_abs_err: Vec<Option<f64>> = seeds.iter().map(|s| s["max_abs_err"].as_f64()).collect();
    let matches = r["tvm_matches_torch"].as_bool() == Some(true);
    if !matches {
        let detail: Vec<String> = seeds.iter().filter(|s| s["ok"] != true).map(|s| format!("seed {}: {}", s["seed"], s["message"].as_str().unwrap_or(""))).collect();
        let _ = std::fs::remove_dir_all(&scratch);
        return Err(Failure::new(
            crate::failure::FailureClass::NumericMismatch,
            format!("TVM's Relax module differs from PyTorch beyond the tolerance (atol {} x rms, rtol {}): {}. Fix the conversion, or state a justified tolerance in task.toml and import again", meta.tolerance.atol, meta.tolerance.rtol, detail.join("; ")),
        )
        .at("import"));
    }
    let fitted: BTreeMap<String, Value> = serde_json::from_value(r["fitted"].clone()).unwrap_or_default();
    let mut meta = meta;
    for (k, v) in &fitted {
        if let Ok(t) = toml::Value::try_from(v) {
            meta.overrides.insert(k.clone(), t);
        }
    }
    install(&scratch, &req.dest, &model, &meta, !fitted.is_empty()).map_err(internal)?;
    let _ = std::fs::remove_dir_all(&scratch);
    let message = if fitted.is_empty() { "imported".into() } else { format!("fitted: {}", fitted.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(" ")) };
    Ok(ImportReport { id: meta.id.clone(), dest: req.dest.clone(), tvm_matches_torch: matches, max_abs_err, message, fitted, split: r["split"].clone() })
}

fn install(scratch: &Path, dest: &Path, model: &Path, meta: &TaskMeta, rewrite_meta: bool) -> Result<()> {
    std::fs::create_dir_all(dest.join("outputs")).with_context(|| format!("cannot create {}", dest.display()))?;
    let dest_model = dest.join("model.py");
    if std::fs::canonicalize(&dest_model).ok().as_deref() != Some(model) {
        std::fs::copy(model, &dest_model)?;
    }
    // The outputs folder becomes what this import wrote (a re-import over
    // a task of an older kwb drops its full outputs).
    let written: Vec<std::ffi::OsString> = std::fs::read_dir(scratch.join("outputs"))?.flatten().map(|e| e.file_name()).collect();
    if written.is_empty() {
        bail!("import wrote no outputs");
    }
    for old in std::fs::read_dir(dest.join("outputs"))?.flatten() {
        if !written.contains(&old.file_name()) {
            std::fs::remove_file(old.path())?;
        }
    }
    for name in &written {
        std::fs::copy(scratch.join("outputs").join(name), dest.join("outputs").join(name))?;
    }
    std::fs::copy(scratch.join("reference.py"), dest.join("reference.py"))?;
    std::fs::copy(scratch.join("reference.json"), dest.join("reference.json"))?;
    // Values chosen by --fit are recorded, so the task is reproducible.
    if rewrite_meta || !dest.join("task.toml").exists() {
        std::fs::write(dest.join("task.toml"), toml::to_string_pretty(meta)?)?;
    }
    if !dest.join("reference.json").exists() {
        bail!("import wrote no reference.json");
    }
    Ok(())
}

/// A `--set` value as TOML: an integer, a float, a boolean, else a string.
pub fn guess_toml(v: &str) -> toml::Value {
    if let Ok(i) = v.parse::<i64>() {
        toml::Value::Integer(i)
    } else if let Ok(f) = v.parse::<f64>() {
        toml::Value::Float(f)
    } else if v == "true" || v == "false" {
        toml::Value::Boolean(v == "true")
    } else {
        toml::Value::String(v.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_file_or_folder_names() {
        assert_eq!(id_from_path(Path::new("KernelBench/level1/19_ReLU.py")), "19_relu");
        assert_eq!(id_from_path(Path::new("tasks/l1/matmul_256/model.py")), "matmul_256");
        assert_eq!(id_from_path(Path::new("a--b  c.py")), "a_b_c");
    }

    #[test]
    fn level_and_domains_are_guessed() {
        assert_eq!(guess_level(Path::new("KernelBench/level2/12_Gemm_Multiply_LeakyReLU.py")), Some(2));
        assert_eq!(guess_level(Path::new("models/mine.py")), None);
        let conv = "self.conv = nn.Conv2d(3, 16, 3)\nself.bn = nn.BatchNorm2d(16)";
        assert_eq!(guess_domains(conv, Some(1 << 20)), ["mobile", "aiot"]);
        let attn = "q = self.q(x)\nattn = torch.softmax(q @ k.transpose(-1, -2), -1)";
        assert_eq!(guess_domains(attn, Some(64 << 20)), ["robotics"]);
    }

    #[test]
    fn set_values_keep_their_type() {
        assert_eq!(guess_toml("16"), toml::Value::Integer(16));
        assert_eq!(guess_toml("0.5"), toml::Value::Float(0.5));
        assert_eq!(guess_toml("relu"), toml::Value::String("relu".into()));
    }
}
