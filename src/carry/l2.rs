//! L2 candidates on a GPU: the baseline's CUDA C edited (see the engine's
//! `cuda_l2.py`: read-only inputs declared `const __restrict__`, launch
//! bounds that ask for more resident blocks, unrolled outer loops). Each is
//! carried as its own copy of the baseline's module plus the edited source;
//! on the device, loading that copy compiles the edited source in place of
//! the one the module carries (`carried.py`), so the edit is exactly what
//! is checked and timed.

use crate::engine::Job;
use crate::eval::Evaluator;
use anyhow::Result;
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use super::results_file::{read_text, write_gz_text};
use std::path::Path;
use std::time::Duration;

/// The L2 candidates of the module `parent` (`dir/PARENT.so` and its
/// `PARENT.cu.gz`), written into `dir`; none where it has no CUDA source.
pub async fn variants(host: &Evaluator, dir: &Path, parent: &str) -> Result<Vec<Value>> {
    let source_path = dir.join(format!("{parent}.cu.gz"));
    if !source_path.exists() {
        return Ok(vec![]);
    }
    let source = read_text(&source_path)?;
    let out = host
        .engine
        .run(Job::new("cuda_l2_moves", json!({"text": source}), Duration::from_secs(60)))
        .await
        .map_err(|f| anyhow::anyhow!("L2 moves: {f}"))?;
    let replaces = hex::encode(Sha256::digest(source.as_bytes()));
    let mut cands = Vec::new();
    for m in out.result["moves"].as_array().into_iter().flatten() {
        let (Some(name), Some(text)) = (m["name"].as_str(), m["text"].as_str()) else { continue };
        let stem = format!("{parent}-l2-{name}");
        std::fs::copy(dir.join(format!("{parent}.so")), dir.join(format!("{stem}.so")))?;
        write_gz_text(&dir.join(format!("{stem}.cu.gz")), text)?;
        cands.push(json!({
            "name": format!("{parent}-L2-{name}"), "layer": "L2", "kernel": null, "trace": null,
            "rationale": format!("L2 edit of the {parent}'s CUDA C: {}", m["rationale"].as_str().unwrap_or("")),
            "artifact": format!("{stem}.so"),
            "cuda_edit": {"replaces": replaces, "source": format!("{stem}.cu.gz")},
        }));
    }
    Ok(cands)
}
