//! The files of one task: `task.toml` (written by people), and
//! `reference.json` (written by `kwb tasks import`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

pub const DOMAINS: &[&str] = &["mobile", "robotics", "aiot"];
pub const DTYPES: &[&str] = &["float32", "float16", "bfloat16", "int8", "int32", "int64"];

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskMeta {
    pub id: String,
    /// 1 single operator, 2 fused module, 3 model graph.
    pub level: u8,
    pub domains: Vec<String>,
    pub dtype: String,
    #[serde(default)]
    pub title: String,
    pub tolerance: Tolerance,
    /// Module-level constants of model.py to override at import (`--set`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub overrides: BTreeMap<String, toml::Value>,
    /// Generator specs for named arguments, replacing the defaults (see gen.py).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub inits: BTreeMap<String, toml::Value>,
}

/// Pass when |out - ref| <= atol * rms(ref) + rtol * |ref| everywhere.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tolerance {
    pub atol: f64,
    pub rtol: f64,
}

impl Tolerance {
    pub fn for_dtype(dtype: &str) -> Self {
        match dtype {
            "float16" | "bfloat16" => Self { atol: 1e-2, rtol: 1e-2 },
            _ => Self { atol: 1e-4, rtol: 1e-4 },
        }
    }
}

impl TaskMeta {
    /// Every rule a task.toml must meet, as messages a person can act on.
    pub fn problems(&self) -> Vec<String> {
        let mut p = Vec::new();
        if self.id.is_empty() || !self.id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_') {
            p.push(format!("id `{}` must be lower-case letters, digits and underscores", self.id));
        }
        if !(1..=3).contains(&self.level) {
            p.push(format!("level {} must be 1 (operator), 2 (fused module) or 3 (model graph)", self.level));
        }
        if self.domains.is_empty() {
            p.push(format!("domains is empty; name at least one of {}", DOMAINS.join(", ")));
        }
        for d in &self.domains {
            if !DOMAINS.contains(&d.as_str()) {
                p.push(format!("domain `{d}` is not one of {}", DOMAINS.join(", ")));
            }
        }
        if !DTYPES.contains(&self.dtype.as_str()) {
            p.push(format!("dtype `{}` is not one of {}", self.dtype, DTYPES.join(", ")));
        }
        let t = self.tolerance;
        if !(t.atol.is_finite() && t.atol >= 0.0) {
            p.push(format!("tolerance.atol {} must be a finite number >= 0", t.atol));
        }
        if !(t.rtol.is_finite() && (0.0..1.0).contains(&t.rtol)) {
            p.push(format!("tolerance.rtol {} must be in [0, 1): at 1 an all-zero output would pass", t.rtol));
        }
        p
    }
}

/// One argument of the reference `main`, in signature order.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ArgSpec {
    pub name: String,
    pub role: String,
    pub source: String,
    pub shape: Vec<i64>,
    pub dtype: String,
    pub init: Value,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct OutputSpec {
    pub shape: Vec<i64>,
    pub dtype: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ReferenceMeta {
    pub format: u32,
    pub args: Vec<ArgSpec>,
    pub outputs: Vec<OutputSpec>,
    #[serde(default)]
    pub model_sha256: String,
    #[serde(default)]
    pub overrides: Value,
    #[serde(default)]
    pub torch: String,
    #[serde(default)]
    pub generator: String,
    /// FLOPs, compulsory bytes moved and parameter count, from the Relax module.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<TaskSize>,
    /// sha256 of each recorded output file, written at import and checked
    /// before every correctness run.
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub outputs_sha256: std::collections::BTreeMap<String, String>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct TaskSize {
    pub flops: f64,
    pub bytes_moved: u64,
    pub params: u64,
    #[serde(default)]
    pub kernels: u32,
}

impl ReferenceMeta {
    pub fn input_bytes(&self) -> u64 {
        self.args.iter().map(|a| a.shape.iter().product::<i64>().max(0) as u64 * dtype_bytes(&a.dtype)).sum()
    }
}

pub fn dtype_bytes(dtype: &str) -> u64 {
    match dtype {
        "float64" | "int64" | "uint64" => 8,
        "float32" | "int32" | "uint32" => 4,
        "float16" | "bfloat16" | "int16" | "uint16" => 2,
        _ => 1,
    }
}
