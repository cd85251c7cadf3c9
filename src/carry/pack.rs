//! `kwb carry pack`: everything a device that kwb cannot reach needs to
//! check and time a suite's candidates, in one folder.
//!
//! Per task: the digest of PyTorch's outputs the task ships (the device
//! runs the baseline and accepts its outputs only where they agree), the
//! baseline built
//! for the device's target with TVM's default pipeline (dlight schedules on
//! a GPU), candidates built the same way (schedules from MetaSchedule's
//! design space for the target, ranked by a cost model trained on what the
//! device measured in earlier runs, if any), their device source (CUDA C, compressed),
//! the task's model.py for PyTorch eager there. Beside them: kwb's own
//! device-side engine code, TVM's runtime without its compiler, and `run.sh`.

use crate::engine::{Engine, Job};
use crate::eval::Evaluator;
use crate::tasks::Task;
use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What to put in a pack.
pub struct PackOptions {
    pub out: PathBuf,
    /// The device's target (`{"kind": "cuda", "arch": "sm_90"}`, or this CPU's for a local pack).
    pub target: Value,
    pub device: String,
    /// Candidate schedules per kernel.
    pub per_kernel: u32,
    /// Contraction tilings chosen by design per kernel (GPU).
    pub tiled: u32,
    /// Graph rewrites (L0 moves) as candidates too, each built with the default schedules.
    pub graph_moves: bool,
    pub seed: u64,
    /// An earlier run's results.json on this device: its measurements train the ranking.
    pub learn_from: Option<Value>,
    /// The device's Python (for the runtime wheel it installs).
    pub device_python: String,
    pub suite: String,
    /// Also write OUT.tar.gz (what travels: .so files and sources compress about 4x).
    pub archive: bool,
}

/// A folder that is a pack: its manifest names the tasks in order.
pub const MANIFEST: &str = "manifest.json";

pub async fn pack(host: &Evaluator, tasks: &[&Task], opts: &PackOptions) -> Result<Vec<Value>> {
    let tasks_dir = opts.out.join("tasks");
    std::fs::create_dir_all(&tasks_dir).with_context(|| format!("cannot create {}", tasks_dir.display()))?;
    let mut rows = Vec::new();
    for task in tasks {
        let started = std::time::Instant::now();
        let row = match pack_task(host, task, opts).await {
            Ok(r) => r,
            Err(e) => json!({"id": task.id(), "error": format!("{e:#}")}),
        };
        eprintln!(
            "{}: {} ({:.0} s)",
            task.id(),
            match row["error"].as_str() {
                Some(e) => format!("not packed: {e}"),
                None => format!("{} candidates built, {} refused", row["built"], row["refused"]),
            },
            started.elapsed().as_secs_f64()
        );
        rows.push(row);
    }
    let packed: Vec<&str> = rows.iter().filter(|r| r["error"].is_null()).filter_map(|r| r["id"].as_str()).collect();
    let manifest = json!({
        "format": 1, "device": opts.device, "target": opts.target, "suite": opts.suite,
        "created_unix_s": unix_now(), "kwb": env!("CARGO_PKG_VERSION"), "tasks": packed,
        "per_kernel": opts.per_kernel, "tiled": opts.tiled, "graph_moves": opts.graph_moves, "seed": opts.seed, "learned_from_earlier_run": opts.learn_from.is_some(),
        "not_packed": rows.iter().filter(|r| !r["error"].is_null()).cloned().collect::<Vec<_>>(),
    });
    std::fs::write(opts.out.join(MANIFEST), serde_json::to_string_pretty(&manifest)?)?;
    // The device's own peaks are measured there first, for roofline shares.
    if let Err(e) = pack_peaks(host, opts).await {
        eprintln!("warning: the peak kernels are not in the pack ({e:#}); the report will have no roofline shares");
    }
    copy_engine(&host.engine, &opts.out)?;
    if opts.target["kind"] != "llvm" {
        crate::carry::runtime::write(&host.engine, &opts.out, &opts.device_python)?;
    }
    if opts.archive {
        archive(&opts.out)?;
    }
    Ok(rows)
}

/// OUT.tar.gz beside OUT, holding the folder under its own name.
fn archive(out: &Path) -> Result<()> {
    let (Some(parent), Some(name)) = (out.parent(), out.file_name()) else { bail!("cannot archive {}", out.display()) };
    let parent = if parent.as_os_str().is_empty() { Path::new(".") } else { parent };
    let file = out.with_extension("tar.gz");
    let ok = std::process::Command::new("tar").arg("-czf").arg(&file).arg("-C").arg(parent).arg(name).status().context("running tar")?;
    if !ok.success() {
        bail!("tar could not write {}", file.display());
    }
    Ok(())
}

fn unix_now() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0)
}

/// What an earlier run on the device taught, per kernel: its variants'
/// measurements as the cost model takes them, every trace that was tried,
/// the earlier winner's traces (kept, to be measured again beside new
/// samples), and the fastest correct trace that beat the baseline (the
/// best of each kernel, combined into one candidate).
struct Learned {
    measured: Value,
    tried: Value,
    keep: Value,
    best: Value,
}

/// The least speedup a kernel's variant must show to be combined with the
/// others': below it, the difference is the measurement's noise.
const MIN_GAIN: f64 = 1.01;

fn learned(earlier: Option<&Value>, task: &str) -> Learned {
    let mut measured = serde_json::Map::new();
    let mut tried = serde_json::Map::new();
    let mut keep = serde_json::Map::new();
    let mut best: HashMap<String, (f64, Value)> = HashMap::new();
    let winner = earlier.and_then(|r| r["tasks"][task]["winner"]["name"].as_str());
    for c in earlier.and_then(|r| r["tasks"][task]["candidates"].as_array()).into_iter().flatten() {
        let is_winner = winner.is_some() && c["name"].as_str() == winner;
        // A combined candidate carries one trace per kernel; its traces
        // are kept as the winner's, each measured again on its own.
        if let Some(traces) = c["traces"].as_object().filter(|_| is_winner) {
            for (kernel, trace) in traces {
                keep.entry(kernel.clone()).or_insert_with(|| json!([])).as_array_mut().expect("array").push(trace.clone());
            }
        }
        let (Some(kernel), Some(trace)) = (c["kernel"].as_str(), c["trace"].as_array()) else { continue };
        tried.entry(kernel).or_insert_with(|| json!([])).as_array_mut().expect("array").push(json!(trace));
        if is_winner {
            keep.entry(kernel).or_insert_with(|| json!([])).as_array_mut().expect("array").push(json!(trace));
        }
        if let Some(ms) = c["timing"]["candidate_ms"].as_f64() {
            measured.entry(kernel).or_insert_with(|| json!([])).as_array_mut().expect("array").push(json!({"trace": trace, "seconds": ms / 1e3}));
        }
        let speedup = c["timing"]["speedup_median"].as_f64().filter(|_| c["correct"].as_bool() == Some(true)).unwrap_or(0.0);
        if speedup > MIN_GAIN && best.get(kernel).is_none_or(|(s, _)| speedup > *s) {
            best.insert(kernel.to_string(), (speedup, json!(trace)));
        }
    }
    let best: serde_json::Map<String, Value> = best.into_iter().map(|(k, (_, t))| (k, t)).collect();
    Learned { measured: Value::Object(measured), tried: Value::Object(tried), keep: Value::Object(keep), best: Value::Object(best) }
}

async fn pack_task(host: &Evaluator, task: &Task, opts: &PackOptions) -> Result<Value> {
    let spec = task.reference_meta()?;
    let dir = opts.out.join("tasks").join(task.id());
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("outputs"))?;
    // What the task ships of PyTorch's outputs (a digest): the device runs
    // the baseline and holds candidates to its outputs where they agree.
    task.verify_outputs()?;
    for entry in std::fs::read_dir(task.outputs_dir())? {
        let p = entry?.path();
        std::fs::copy(&p, dir.join("outputs").join(p.file_name().expect("file name")))?;
    }
    std::fs::copy(task.dir.join("model.py"), dir.join("model.py"))?;
    let source = task.reference_text()?;
    let Learned { measured, tried, keep, best } = learned(opts.learn_from.as_ref(), task.id());
    let variants = host
        .engine
        .run(Job::new(
            "gpu_variants",
            json!({"source": source, "target": opts.target, "count": opts.per_kernel, "tiled": opts.tiled, "graph": opts.graph_moves, "seed": opts.seed,
                   "measured": measured, "tried": tried, "keep": keep, "combine": best}),
            Duration::from_secs(900),
        ))
        .await
        .map_err(|f| anyhow::anyhow!("sampling schedules: {f}"))?;
    let base = build(host, task, &source, "l0", &opts.target, &dir, "baseline").await;
    if let Some(e) = base["build_failure"].as_str() {
        bail!("the baseline does not build for {}: {e}", opts.target);
    }
    // What the device-side profile joins its per-kernel times with (launch
    // shape, FLOPs, bytes); without it the device still times the kernels.
    let facts = kernel_facts(host, task, &source, "l0", &opts.target).await;
    let mut candidates = Vec::new();
    for (i, v) in variants.result["variants"].as_array().into_iter().flatten().enumerate() {
        let text = v["l1_module"].as_str().unwrap_or_default();
        let mut built = build(host, task, text, "l1", &opts.target, &dir, &format!("cand-{i}")).await;
        for k in ["name", "kernel", "trace", "traces", "layer", "l0", "rationale", "predicted", "trained_on"] {
            built[k] = v[k].clone();
        }
        // The winner is profiled on the device as the baseline is: its own
        // launch shapes (an L1 variant changes them).
        if built["build_failure"].is_null() {
            built["kernels"] = kernel_facts(host, task, text, "l1", &opts.target).await;
        }
        candidates.push(built);
    }
    // L2: the baseline's own CUDA C, edited (a failure costs only these).
    match super::l2::variants(host, &dir, "baseline").await {
        Ok(l2) => candidates.extend(l2),
        Err(e) => eprintln!("warning: {}: no L2 candidates ({e:#})", task.id()),
    }
    let size = spec.size.as_ref();
    let task_json = json!({
        "id": task.id(), "size": task.size, "args_spec": spec.args, "atol": task.meta.tolerance.atol, "rtol": task.meta.tolerance.rtol,
        "overrides": spec.overrides, "baseline": base["artifact"], "candidates": candidates,
        "flops": size.map(|s| s.flops), "bytes": size.map(|s| s.bytes_moved),
        "refused": variants.result["refused"], "kernels": facts,
    });
    std::fs::write(dir.join("task.json"), serde_json::to_string_pretty(&task_json)?)?;
    let built = candidates.iter().filter(|c| c["build_failure"].is_null()).count();
    Ok(json!({"id": task.id(), "size": task.size, "built": built, "refused": variants.result["refused"].as_array().map_or(0, Vec::len)}))
}

/// What the device-side profile joins its per-kernel times with (launch
/// shape, FLOPs, bytes) for one module; without it the device still times
/// the kernels.
async fn kernel_facts(host: &Evaluator, task: &Task, source: &str, stage: &str, target: &Value) -> Value {
    host.engine
        .run(Job::new("gpu_kernel_facts", json!({"source": source, "stage": stage, "target": target}), Duration::from_secs(300)))
        .await
        .map(|o| o.result["kernels"].clone())
        .unwrap_or_else(|f| {
            eprintln!("warning: {}: no kernel facts for the profile ({f})", task.id());
            json!([])
        })
}

/// One module built for the device into the pack (`NAME.so`, and its device
/// source as `NAME.cu`); a failure is recorded, not raised.
async fn build(host: &Evaluator, task: &Task, text: &str, stage: &str, target: &Value, dir: &Path, name: &str) -> Value {
    let artifact = host.artifact_path("carry");
    let spec = match task.reference_meta() {
        Ok(s) => s,
        Err(e) => return json!({"build_failure": format!("{e:#}")}),
    };
    let job = Job::new(
        "build",
        json!({"source": text, "stage": stage, "task_dtype": task.meta.dtype, "target": target,
               "artifact": artifact, "args_spec": spec.args}),
        host.opts.build_timeout,
    );
    let out = match host.engine.run(job).await {
        Ok(o) => o,
        Err(f) => return json!({"build_failure": f.to_string()}),
    };
    let so = format!("{name}.so");
    let moved = std::fs::copy(&artifact, dir.join(&so));
    let _ = std::fs::remove_file(&artifact);
    if let Err(e) = moved {
        return json!({"build_failure": format!("cannot copy the artifact into the pack: {e}")});
    }
    if let Some(src) = out.result["device_source"].as_str() {
        // Compiled on the device before anything is timed (nvcc, in parallel).
        let _ = super::results_file::write_gz_text(&dir.join(format!("{name}.cu.gz")), src);
    }
    json!({"artifact": so, "compile_s": out.result["compile_s"]})
}

/// The peak kernels built for the device's target into OUT/peaks/ (see
/// kwb_engine/peaks.py), with the manifest carried.py measures them by.
async fn pack_peaks(host: &Evaluator, opts: &PackOptions) -> Result<()> {
    let built = host.artifact_path("peaks").with_extension("");
    let job = Job::new("peaks_build", json!({"target": opts.target, "out_dir": built}), Duration::from_secs(600));
    let out = host.engine.run(job).await.map_err(|f| anyhow::anyhow!("{f}"))?;
    let to = opts.out.join("peaks");
    let _ = std::fs::remove_dir_all(&to);
    std::fs::create_dir_all(&to)?;
    for entry in std::fs::read_dir(&built).with_context(|| format!("reading {}", built.display()))? {
        let p = entry?.path();
        std::fs::copy(&p, to.join(p.file_name().expect("file name")))?;
    }
    let _ = std::fs::remove_dir_all(&built);
    std::fs::write(to.join("peaks.json"), serde_json::to_string_pretty(&out.result)?)?;
    Ok(())
}

/// kwb's engine package, as this kwb embeds it: the device runs the same
/// checking and timing code.
fn copy_engine(engine: &Engine, out: &Path) -> Result<()> {
    let from = engine.config().env.worker_dir.join("kwb_engine");
    let to = out.join("engine").join("kwb_engine");
    let _ = std::fs::remove_dir_all(&to);
    std::fs::create_dir_all(&to)?;
    for entry in std::fs::read_dir(&from).with_context(|| format!("reading {}", from.display()))? {
        let p = entry?.path();
        if p.extension().is_some_and(|e| e == "py") {
            std::fs::copy(&p, to.join(p.file_name().expect("file name")))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cand(name: &str, kernel: &str, trace: &str, speedup: f64, correct: bool) -> Value {
        json!({"name": name, "kernel": kernel, "trace": [trace], "correct": correct,
               "timing": {"speedup_median": speedup, "candidate_ms": 1.0 / speedup}})
    }

    #[test]
    fn each_kernels_fastest_correct_gain_is_combined_and_a_combined_winner_is_kept() {
        let earlier = json!({"tasks": {"t": {"winner": {"name": "combined"}, "candidates": [
            cand("a1", "a", "A1", 1.20, true),
            cand("a2", "a", "A2", 1.35, false),
            cand("a3", "a", "A3", 1.25, true),
            cand("b1", "b", "B1", 1.005, true),
            cand("c1", "c", "C1", 1.10, true),
            {"name": "combined", "kernel": null, "trace": null, "traces": {"a": ["A0"], "c": ["C0"]}, "correct": true,
             "timing": {"speedup_median": 1.4}},
        ]}}});
        let l = learned(Some(&earlier), "t");
        // Fastest correct per kernel; an incorrect one and a gain within noise are not.
        assert_eq!(l.best, json!({"a": ["A3"], "c": ["C1"]}));
        // The combined winner's traces are kept, kernel by kernel.
        assert_eq!(l.keep, json!({"a": [["A0"]], "c": [["C0"]]}));
        assert_eq!(l.tried["a"].as_array().unwrap().len(), 3);
        assert_eq!(l.measured["b"][0]["trace"], json!(["B1"]));
        let none = learned(None, "t");
        assert_eq!(none.best, json!({}));
    }
}
