//! `kwb baseline`: tune the MetaSchedule baseline and look at what it found.

use crate::workspace::Workspace;
use crate::baseline::{self, tuned_dir, tuning_report};
use crate::engine::Job;
use crate::eval::EvalOptions;
use anyhow::{Context, Result, bail};
use clap::Subcommand;
use serde_json::{Value, json};
use std::io::Write;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Subcommand, Debug)]
pub enum BaselineCmd {
    /// Tune the reference of every task of a suite (or one task) with MetaSchedule.
    /// Finished tasks are skipped, so an interrupted run resumes where it stopped.
    Tune {
        #[arg(long)]
        suite: Option<String>,
        #[arg(long)]
        task: Option<String>,
        /// Measured trials per task (MetaSchedule's max_trials_global), or
        /// `auto`: the calibrated per-kernel budget of the task's level times
        /// its number of kernels (see `kwb baseline calibrate`).
        #[arg(long, default_value = "auto")]
        trials: String,
        /// Tune again even when a finished tuning exists.
        #[arg(long)]
        force: bool,
    },
    /// Derive per-level tuning budgets from how soon search converged on
    /// representative tasks, tuned with a cap (tunes those not yet tuned).
    Calibrate {
        /// Representative tasks, e.g. one per level.
        #[arg(long = "on", value_delimiter = ',', default_value = "matmul_256,conv_bn_relu,kws_dscnn")]
        representatives: Vec<String>,
        /// The most trials any calibration tuning may use.
        #[arg(long, default_value_t = 64)]
        cap: u32,
        /// Also write the calibration record here.
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Write the calibration and every tuning folder to one .tar.gz (to commit, so a later session resumes).
    Export {
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Add an export's tunings to this machine's (a folder with more records here is kept).
    Import { file: std::path::PathBuf },
    /// A task's tuning: trials, best time per kernel and when search converged.
    Show {
        task: String,
        /// Print the reference with the tuned schedules applied, as TVMScript
        /// (an L1 module usable as a candidate).
        #[arg(long)]
        module: bool,
        /// Print each tuned kernel's best schedule trace.
        #[arg(long)]
        traces: bool,
    },
}

pub async fn run(ctx: &Workspace, cmd: BaselineCmd) -> Result<ExitCode> {
    match cmd {
        BaselineCmd::Tune { suite, task, trials, force } => tune(ctx, suite, task, &trials, force).await,
        BaselineCmd::Calibrate { representatives, cap, out } => calibrate(ctx, &representatives, cap, out).await,
        BaselineCmd::Show { task, module, traces } => show(ctx, &task, module, traces).await,
        BaselineCmd::Export { out } => super::baseline_store::export(ctx, &out),
        BaselineCmd::Import { file } => super::baseline_store::import(ctx, &file),
    }
}

async fn tune(ctx: &Workspace, suite: Option<String>, task: Option<String>, trials_arg: &str, force: bool) -> Result<ExitCode> {
    let calibration = baseline::Calibration::load(&ctx.paths);
    let fixed: Option<u32> = match trials_arg {
        "auto" => {
            if calibration.is_none() {
                bail!("no calibration yet: run `kwb baseline calibrate`, or give --trials N");
            }
            None
        }
        n => Some(n.parse().with_context(|| format!("--trials {n}: give a number or `auto`"))?),
    };
    let set = ctx.tasks()?;
    let tasks = match (&suite, &task) {
        (_, Some(t)) => vec![set.get(t)?],
        (Some(s), None) => set.suite(s)?,
        (None, None) => bail!("name a --task or a --suite to tune"),
    };
    let engine = ctx.engine(false).await?;
    // Where evaluations measure (the host CPU's own target, or the device's),
    // which tunings are keyed by; trials are measured on that device.
    let on = tuning_on(ctx, &engine)?;
    if on.device != crate::devices::LOCAL_CPU {
        eprintln!("tuning on device {}: trials built here for its target, measured there", on.device);
    }
    let started = Instant::now();
    let mut secs_per_trial: Option<f64> = None;
    let mut failed = 0;
    for (i, t) in tasks.iter().enumerate() {
        let trials = fixed.unwrap_or_else(|| calibration.as_ref().map(|c| c.budget(t)).unwrap_or(64));
        let left = tasks.len() - i;
        let eta = secs_per_trial.map(|s| format!(", about {:.0} min left", s * trials as f64 * left as f64 / 60.0)).unwrap_or_default();
        eprintln!("[{}/{}] {}: tuning with {trials} trials{eta}", i + 1, tasks.len(), t.id());
        let t0 = Instant::now();
        let ticker = tokio::spawn(async move {
            let mut tick = tokio::time::interval(Duration::from_secs(15));
            tick.tick().await;
            loop {
                tick.tick().await;
                eprint!("\r  ... {:.0} s", t0.elapsed().as_secs_f64());
                let _ = std::io::stderr().flush();
            }
        });
        let outcome = baseline::tune(&engine, &ctx.paths, t, &on, trials, force, true).await;
        ticker.abort();
        if t0.elapsed() >= Duration::from_secs(15) {
            eprintln!();
        }
        match outcome {
            Ok((r, ran)) => {
                let done = r["trials"].as_u64().unwrap_or(0);
                let searched = done.saturating_sub(baseline::copied_trials(&r));
                if ran && searched > 0 {
                    let s = t0.elapsed().as_secs_f64() / searched as f64;
                    secs_per_trial = Some(secs_per_trial.map_or(s, |p| (p + s) / 2.0));
                }
                let reused = match baseline::reused_kernels(&r) {
                    0 => String::new(),
                    n => format!(" ({n} searched in other tasks' tunings, their records copied)"),
                };
                println!("{:<26} {} trials over {} kernels{reused}{}", t.id(), done, r["kernels"].as_array().map(Vec::len).unwrap_or(0), if ran { format!(" in {:.0} s", t0.elapsed().as_secs_f64()) } else { " (already tuned)".into() });
            }
            Err(f) => {
                failed += 1;
                println!("{:<26} FAILED {f}", t.id());
            }
        }
    }
    eprintln!("tuned {} tasks in {:.0} s", tasks.len() - failed, started.elapsed().as_secs_f64());
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

async fn calibrate(ctx: &Workspace, ids: &[String], cap: u32, out: Option<std::path::PathBuf>) -> Result<ExitCode> {
    if ctx.device != crate::devices::LOCAL_CPU {
        bail!("calibration is this machine's (its budgets apply to every device's tunings): run `kwb baseline calibrate` without --device");
    }
    let set = ctx.tasks()?;
    let engine = ctx.engine(false).await?;
    let on = tuning_on(ctx, &engine)?;
    let target = on.target.clone();
    let mut reports = Vec::new();
    for id in ids {
        let t = set.get(id)?;
        eprintln!("calibrating on {id} (level {}), up to {cap} trials", t.meta.level);
        let (r, _) = baseline::tune(&engine, &ctx.paths, t, &on, cap, false, false).await.map_err(|f| anyhow::anyhow!("{id}: {f}"))?;
        reports.push((t, r));
    }
    let c = baseline::Calibration::derive(&reports, cap, &target, engine.versions());
    c.save(&ctx.paths)?;
    if let Some(p) = out {
        std::fs::write(&p, serde_json::to_string_pretty(&c)?)?;
    }
    print!("{}", c.describe());
    Ok(ExitCode::SUCCESS)
}

async fn show(ctx: &Workspace, id: &str, module: bool, traces: bool) -> Result<ExitCode> {
    let set = ctx.tasks()?;
    let t = set.get(id)?;
    let engine = ctx.engine(false).await?;
    let on = tuning_on(ctx, &engine)?;
    let target = on.target.clone();
    let dir = tuned_dir(&ctx.paths, t, &target, &on.device).map_err(|f| anyhow::anyhow!("{f}"))?;
    let report = tuning_report(&dir).with_context(|| format!("{id} has no tuned baseline yet: run `{}`", baseline::tune_command(id, &on.device)))?;
    if module {
        let engine = ctx.engine(false).await?;
        let out = engine
            .run(Job::new("tuned_module", json!({"source": t.reference_text()?, "target": target, "work_dir": dir}), Duration::from_secs(300)))
            .await
            .map_err(|f| anyhow::anyhow!("{f}"))?;
        print!("{}", out.result["module"].as_str().unwrap_or_default());
        return Ok(ExitCode::SUCCESS);
    }
    if traces {
        let engine = ctx.engine(false).await?;
        let out = engine.run(Job::new("best_traces", json!({"work_dir": dir}), Duration::from_secs(120))).await.map_err(|f| anyhow::anyhow!("{f}"))?;
        for w in out.result["workloads"].as_array().into_iter().flatten() {
            println!("# {} ({:.1} us)", w["kernel"].as_str().unwrap_or("?"), w["best_us"].as_f64().unwrap_or(0.0));
            for line in w["trace"].as_array().into_iter().flatten() {
                println!("{}", line.as_str().unwrap_or(""));
            }
            println!();
        }
        return Ok(ExitCode::SUCCESS);
    }
    println!("{id}: {} ({} trials measured, {:.0} s)", baseline::label(baseline::BaselineKind::Tuned, Some(&dir)), report["trials"], report["elapsed_s"].as_f64().unwrap_or(0.0));
    println!("database: {}", dir.display());
    for r in report["reused"].as_array().into_iter().flatten() {
        let from: Vec<&str> = r["from"].as_array().into_iter().flatten().filter_map(Value::as_str).collect();
        println!("{}: {} trials searched in the tunings of {}, copied here", r["kernel"].as_str().unwrap_or("?"), r["trials"], from.join(", "));
    }
    println!("{:>8} {:>7} {:>12} {:>14}", "workload", "trials", "best us", "converged at");
    for k in report["kernels"].as_array().into_iter().flatten() {
        println!(
            "{:>8} {:>7} {:>12} {:>14}",
            k["workload"],
            k["trials"],
            k["best_us"].as_f64().map(|b| format!("{b:.1}")).unwrap_or("-".into()),
            k["converged_at"].as_u64().map(|c| format!("trial {c}")).unwrap_or("-".into())
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// Where tunings are made and keyed: the workspace's device, with the host
/// CPU's own target when that device is this machine.
fn tuning_on(ctx: &Workspace, engine: &crate::engine::Engine) -> Result<EvalOptions> {
    ctx.on_device(EvalOptions { target: crate::eval::host_target(&EvalOptions::default().target, &engine.versions()["host"]), ..Default::default() })
}
