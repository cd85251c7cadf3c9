//! `kwb engine`: set up the Python environment, report on it, measure it.

use crate::workspace::Workspace;
use crate::engine::{Job, pyenv};
use crate::eval::EvalOptions;
use anyhow::Result;
use clap::Subcommand;
use serde_json::{Value, json};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Subcommand, Debug)]
pub enum EngineCmd {
    /// Create (or repair) the engine's Python environment.
    Setup {
        /// Also install PyTorch, needed only by `kwb tasks import`.
        #[arg(long)]
        with_torch: bool,
        /// Rebuild the environment from scratch.
        #[arg(long)]
        force: bool,
    },
    /// What the engine environment has, and what is missing with the fix.
    Doctor {
        #[arg(long)]
        json: bool,
    },
    /// Measure the engine's own overhead per evaluation and the timing's stability.
    Bench {
        /// Suite whose tasks are evaluated for the overhead figure.
        #[arg(long, default_value = "smoke")]
        suite: String,
        /// Evaluations of the reference against itself for the stability figure.
        #[arg(long, default_value_t = 5)]
        repeats: usize,
    },
}

pub async fn run(ctx: &Workspace, cmd: EngineCmd) -> Result<ExitCode> {
    match cmd {
        EngineCmd::Setup { with_torch, force } => {
            let paths = ctx.paths.clone();
            let env = tokio::task::spawn_blocking(move || pyenv::ensure(&paths, with_torch, force)).await??;
            println!("engine environment ready: {}", env.python.display());
            Ok(ExitCode::SUCCESS)
        }
        EngineCmd::Doctor { json } => doctor(ctx, json).await,
        EngineCmd::Bench { suite, repeats } => bench(ctx, &suite, repeats).await,
    }
}

async fn doctor(ctx: &Workspace, as_json: bool) -> Result<ExitCode> {
    let engine = ctx.engine(false).await?;
    let out = engine.run(Job::new("doctor", json!({}), Duration::from_secs(60))).await.map_err(|f| anyhow::anyhow!("{f}"))?;
    let r = &out.result;
    let secrets: Vec<&str> = r["env_keys"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .filter(|k| k.contains("KEY") || k.contains("TOKEN") || k.contains("SECRET") || k.contains("PASSWORD"))
        .collect();
    let isolated = r["net_interfaces"].as_array().is_some_and(|a| a.is_empty());
    let probes = sandbox_probes(ctx, &engine).await;
    let (layers, complete) = crate::engine::sandbox::summary(&engine.sandbox());
    if as_json {
        let mut v = r.clone();
        v["sandbox"] = engine.sandbox();
        v["sandbox_complete"] = json!(complete);
        v["sandbox_probes"] = probes;
        v["network_isolated"] = json!(isolated);
        v["secrets_in_worker_env"] = json!(secrets);
        v["torch_installed_by_kwb"] = json!(pyenv::has_torch_marker(&ctx.paths));
        println!("{}", serde_json::to_string_pretty(&v)?);
        return Ok(ExitCode::SUCCESS);
    }
    let mut problems = 0;
    println!("interpreter   {}", r["executable"].as_str().unwrap_or("?"));
    let mut versions = r["versions"].clone();
    let host = versions.as_object_mut().and_then(|m| m.remove("host")).unwrap_or(Value::Null);
    println!("versions      {versions}");
    println!("host target   mcpu {} ({} features, {}-bit vectors): baseline and candidates are built for it", host["mcpu"].as_str().unwrap_or("unknown"), host["features"].as_array().map_or(0, Vec::len), host["vector_width_bits"]);
    println!("LLVM codegen  {} {}", yes(r["llvm"].as_bool()), r["llvm_version"].as_str().unwrap_or(""));
    println!("CUDA codegen  {}", yes(r["cuda"].as_bool()));
    println!("CPU           {} x{} {}", r["cpu"].as_str().unwrap_or("?"), r["cpu_count"], r["cpu_features"]);
    println!("network       {}", if isolated { "isolated (private namespace)" } else { "NOT isolated: workers can reach the network (needs CAP_SYS_ADMIN for a private namespace)" });
    for line in &layers {
        println!("sandbox       {line}");
    }
    for role in ["build", "measure"] {
        let p = &probes[role];
        println!("  {role:<8}    tried: write outside scratch {}, run a program {}, read kwb's environment {}, connect to loopback {}",
            p["write_outside"].as_str().unwrap_or("?"), p["exec"].as_str().unwrap_or("?"), p["read_environ"].as_str().unwrap_or("?"), p["connect"].as_str().unwrap_or("?"));
    }
    let side = &probes["measure"]["side"];
    let frozen = side["thread_ran"] == true && side["stopped_thread_ran"] == false && side["continued_thread_ran"] == true;
    let fenced = ["signal_parent", "fork", "write_file"].iter().all(|k| side[*k].as_str().is_some_and(|v| v.starts_with("denied")));
    println!("  side        tried (the process a module is checked and timed in): signal the judging process {}, start a process {}, write a file {}, start a thread {}; stopped while the other side runs: {}",
        side["signal_parent"].as_str().unwrap_or("?"), side["fork"].as_str().unwrap_or("?"), side["write_file"].as_str().unwrap_or("?"), side["thread"].as_str().unwrap_or("?"),
        if frozen { "yes, threads and all" } else { "NO" });
    if !frozen || !fenced {
        problems += 1;
        println!("SIDES         not confined as they should be (see above): a candidate could reach what judges it");
    }
    if !complete {
        problems += 1;
        println!("SANDBOX       incomplete (see above): candidate code is less confined than it should be");
    }
    println!("secrets       {}", if secrets.is_empty() { "none in the worker's environment".to_string() } else { format!("LEAKED: {}", secrets.join(", ")) });
    println!("torch         {}", r["torch"].as_str().unwrap_or("not installed (only `kwb tasks import` needs it: kwb engine setup --with-torch)"));
    for m in r["missing"].as_array().into_iter().flatten() {
        problems += 1;
        println!("MISSING       {} ({}): run `kwb engine setup --force`", m["module"], m["error"]);
    }
    for m in r["pin_mismatch"].as_array().into_iter().flatten() {
        problems += 1;
        println!("WRONG PIN     {} is {} but kwb needs {}: run `kwb engine setup --force`", m["package"], m["got"], m["want"]);
    }
    if !secrets.is_empty() {
        problems += 1;
    }
    println!("{}", if problems == 0 { "engine OK" } else { "engine has problems (see above)" });
    Ok(if problems == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// Each confined role tries, for real, what its sandbox should stop.
async fn sandbox_probes(ctx: &Workspace, engine: &crate::engine::Engine) -> Value {
    let mut out = serde_json::Map::new();
    for role in [crate::engine::sandbox::Role::Build, crate::engine::sandbox::Role::Measure] {
        let outside = ctx.paths.data.join(format!("sandbox-probe-{}.txt", role.as_str()));
        let args = json!({"outside_path": outside, "read_environ_of": std::process::id()});
        let r = engine.run(Job::new("probe", args, Duration::from_secs(60)).in_role(role)).await;
        let _ = std::fs::remove_file(&outside);
        out.insert(role.as_str().into(), r.map(|o| o.result).unwrap_or_else(|f| json!({"error": f.to_string()})));
    }
    Value::Object(out)
}

fn yes(b: Option<bool>) -> &'static str {
    if b == Some(true) { "yes" } else { "no" }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    if v.is_empty() { f64::NAN } else { v[v.len() / 2] }
}

async fn bench(ctx: &Workspace, suite: &str, repeats: usize) -> Result<ExitCode> {
    let set = ctx.tasks()?;
    let tasks = set.suite(suite)?;
    let ev = ctx.evaluator(EvalOptions::default()).await?;
    ev.engine.prewarm(ctx.workers).await.map_err(|f| anyhow::anyhow!("{f}"))?;
    // Warm the baseline cache, so the figures are about evaluation, not first builds.
    for t in &tasks {
        ev.baseline_artifact(t).await.map_err(|f| anyhow::anyhow!("{}: {f}", t.id()))?;
    }
    println!("engine overhead per evaluation (kwb + IPC + worker, outside TVM builds and measured runs)");
    println!("first: a task's first evaluation in this engine (inputs generated, references loaded); then: the next ones");
    println!("{:<24} {:>6} {:>9} {:>10} {:>12} {:>9}", "task", "", "wall s", "TVM s", "overhead ms", "share");
    let mut overheads = Vec::new();
    let mut shares = Vec::new();
    for t in &tasks {
        // Timed as a candidate would be: text that is not byte for byte the
        // reference (each build job runs in a process forked for it).
        let source = format!("{}\n# evaluated as a candidate\n", t.reference_text()?);
        for round in 0..3 {
            let r = ev.evaluate(t, &source).await;
            if let Some(f) = &r.failure {
                anyhow::bail!("{}: the reference failed: {f}", t.id());
            }
            let share = r.engine_overhead_s / r.wall_s;
            let label = if round == 0 { "first" } else { "then" };
            println!("{:<24} {:>6} {:>9.3} {:>10.3} {:>12.2} {:>8.2}%", t.id(), label, r.wall_s, r.wall_s - r.engine_overhead_s, r.engine_overhead_s * 1e3, share * 100.0);
            if round > 0 {
                overheads.push(r.engine_overhead_s * 1e3);
                shares.push(share);
            }
        }
    }
    let worst_ms = overheads.iter().cloned().fold(0.0, f64::max);
    let worst_share = shares.iter().cloned().fold(0.0, f64::max);
    println!(
        "overhead after the first evaluation: median {:.2} ms, worst {:.2} ms (target <= 20 ms); worst share {:.2}% of an evaluation's wall time (target <= 5%): {}",
        median(&mut overheads.clone()),
        worst_ms,
        worst_share * 100.0,
        if worst_ms <= 20.0 && worst_share <= 0.05 { "PASS" } else { "FAIL" }
    );
    let mut all_within = true;
    for t in &tasks {
        let source = t.reference_text()?;
        println!("\ntiming stability: {} evaluations of {}'s reference against itself", repeats, t.id());
        let mut speedups = Vec::new();
        for i in 0..repeats {
            let r = ev.evaluate(t, &source).await;
            let x = r.speedup_median.unwrap_or(f64::NAN);
            println!("  run {}: speedup {:.4}x +/- {:.2}% ({} pairs, spread {:.2}%), {}", i + 1, x, r.ci.unwrap_or(f64::NAN) * 100.0, r.pair_count, r.spread.unwrap_or(f64::NAN) * 100.0, if r.timing_valid { "valid" } else { "invalid" });
            speedups.push(x);
        }
        let within = speedups.iter().all(|x| (x - 1.0).abs() <= 0.03);
        all_within &= within;
        println!("  {}: median {:.4}x, range {:.4}..{:.4} (target: every run within 1.00 +/- 0.03): {}", t.id(), median(&mut speedups.clone()),
            speedups.iter().cloned().fold(f64::INFINITY, f64::min), speedups.iter().cloned().fold(0.0, f64::max), if within { "PASS" } else { "FAIL" });
    }
    println!("stability over the suite: {}", if all_within { "PASS" } else { "FAIL" });
    Ok(ExitCode::SUCCESS)
}
