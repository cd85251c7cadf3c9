//! `kwb bench`: every task of a suite through one agent strategy, then the table.

use crate::workspace::Workspace;
use crate::bench::progress::{Finished, Progress, Settings};
use crate::bench::{aggregate, passes, table};
use crate::eval::{BASELINE_DEFAULT, EvalOptions};
use anyhow::{Context, Result, bail};
use clap::Args;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(args_conflicts_with_subcommands = true)]
pub struct BenchArgs {
    #[command(subcommand)]
    pub cmd: Option<BenchSub>,
    #[arg(long, default_value = "smoke")]
    pub suite: String,
    /// Only these tasks of the suite (comma-separated), in the suite's order:
    /// e.g. the ones with a finished tuning on this machine.
    #[arg(long, value_delimiter = ',')]
    pub only: Vec<String>,
    /// `reference` (each task's own reference), `file` (candidates from --candidates DIR/<task id>.py),
    /// or an agent strategy: `layered-builtin`, `flat-builtin`, `one-shot-builtin`, `layered-llm`, `flat-llm`, `one-shot-llm`.
    #[arg(long, default_value = "reference")]
    pub agent: String,
    /// Per-task wall-clock budget for an agent strategy: 90s, 2m, ...
    #[arg(long, default_value = "2m", value_parser = crate::agent::budget::parse_duration)]
    pub budget: std::time::Duration,
    /// Per-task candidate budget for an agent strategy.
    #[arg(long, default_value_t = 30)]
    pub max_candidates: u32,
    /// LLM provider for the `-llm` strategies (default: the config's default).
    #[arg(long)]
    pub provider: Option<String>,
    #[arg(long)]
    pub candidates: Option<PathBuf>,
    #[arg(long)]
    pub json: bool,
    /// Baseline to time against: `default` (TVM's default pipeline) or `tuned` (MetaSchedule).
    /// `auto` takes the tuned baseline for each task that has a finished tuning and the default one elsewhere.
    #[arg(long, default_value = "default", value_parser = ["default", "tuned", "auto"])]
    pub baseline: String,
    /// Paired measurements per timing round.
    #[arg(long, default_value_t = 15)]
    pub pairs: u32,
    /// Write results.json, results.csv and report.md to this folder (and,
    /// as tasks finish, progress.jsonl, which `--resume` goes on from).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Go on from the tasks already finished in --out's progress.jsonl,
    /// under the same settings.
    #[arg(long, requires = "out")]
    pub resume: bool,
    /// With --resume: run again the finished tasks that were correct but
    /// not validly timed (a noisy machine). Their earlier figures stay in
    /// the record and the table, their sessions as `<task>.passN.jsonl`.
    #[arg(long, requires = "resume")]
    pub rerun_invalid: bool,
    /// Leave out PyTorch eager (timed beside each task when PyTorch is in
    /// the engine environment: `kwb engine setup --with-torch`).
    #[arg(long)]
    pub no_eager: bool,
    /// Times each task's baseline is timed against itself for its noise
    /// floor (once per task and machine, then kept), which widens every
    /// interval that fast_p reads; 0 leaves the floor out.
    #[arg(long, default_value_t = crate::eval::BENCH_NOISE_RUNS)]
    pub noise_runs: u32,
}

#[derive(clap::Subcommand, Debug)]
pub enum BenchSub {
    /// Per-task and aggregate differences between two results.json files.
    Compare { a: PathBuf, b: PathBuf },
}

pub async fn run(ctx: &Workspace, a: BenchArgs) -> Result<ExitCode> {
    if let Some(BenchSub::Compare { a: left, b: right }) = &a.cmd {
        print!("{}", crate::bench::report::compare(&crate::bench::report::read(left)?, &crate::bench::report::read(right)?));
        return Ok(ExitCode::SUCCESS);
    }
    let set = ctx.tasks()?;
    let mut tasks = set.suite(&a.suite)?;
    if let Some(stray) = a.only.iter().find(|id| !tasks.iter().any(|t| t.id() == id.as_str())) {
        bail!("--only names `{stray}`, which is not in suite `{}`; `kwb tasks` lists the suites", a.suite);
    }
    if !a.only.is_empty() {
        tasks.retain(|t| a.only.iter().any(|id| id == t.id()));
    }
    if a.agent == "file" && a.candidates.is_none() {
        bail!("--agent file needs --candidates DIR holding <task id>.py files");
    }
    let strategy = super::agent_runs::parse_agent(&a.agent)?;
    let fixed = if a.baseline == "auto" { crate::baseline::BaselineKind::Default } else { super::eval_cmd::parse_baseline(&a.baseline).map_err(anyhow::Error::msg)? };
    let noise_runs = a.noise_runs;
    let ev = ctx.evaluator(EvalOptions { pairs: a.pairs, baseline: fixed, noise_runs, ..Default::default() }).await?;
    // With `auto`, tasks that have a tuning are timed against it by a second evaluator on the same engine.
    let tuned_ev = crate::eval::Evaluator::new(ev.engine.clone(), ctx.paths.clone(), ctx.on_device(EvalOptions { pairs: a.pairs, baseline: crate::baseline::BaselineKind::Tuned, noise_runs, ..Default::default() })?);
    if crate::roofline::Machine::cached_for(&ctx.paths, &ctx.device).is_none() {
        eprintln!("measuring `{}`'s peak FLOP/s and memory bandwidth for roofline shares (once)", ctx.device);
        ctx.measure_peaks(&ev.engine).await?;
    }
    let settings = Settings {
        suite: a.suite.clone(),
        agent: a.agent.clone(),
        baseline: a.baseline.clone(),
        device: ctx.device.clone(),
        budget_per_task_s: a.budget.as_secs_f64(),
        max_candidates: a.max_candidates,
        pairs: a.pairs,
        eager: !a.no_eager,
    };
    let mut progress = match &a.out {
        Some(dir) => Some(Progress::open(dir, &settings, a.resume)?),
        None => None,
    };
    let mut again: std::collections::BTreeMap<String, Finished> = match progress.as_mut() {
        Some(p) if a.rerun_invalid => passes::take(p).into_iter().map(|f| (f.task.clone(), f)).collect(),
        _ => Default::default(),
    };
    again.retain(|task, _| tasks.iter().any(|t| t.id() == task));
    if a.rerun_invalid {
        eprintln!("running again {} task(s) not validly timed before: {}", again.len(), again.keys().cloned().collect::<Vec<_>>().join(", "));
    }
    // PyTorch eager stays on until it cannot run here (no PyTorch), which is said once.
    let mut eager = !a.no_eager && ctx.device == crate::devices::LOCAL_CPU;
    if !a.no_eager && !eager {
        eprintln!("PyTorch eager is not timed on device {}: it runs on this machine's CPU only", ctx.device);
    }
    let mut results = Vec::new();
    let mut runs = Vec::new();
    for (i, t) in tasks.iter().enumerate() {
        if let Some(done) = progress.as_ref().and_then(|p| p.done.get(t.id())) {
            eprintln!("[{}/{}] {} (finished before, kept)", i + 1, tasks.len(), t.id());
            results.push(done.result.clone());
            if strategy.is_some() {
                runs.push(done.run.clone());
            }
            continue;
        }
        eprintln!("[{}/{}] {}", i + 1, tasks.len(), t.id());
        let earlier = match (again.remove(t.id()), &a.out) {
            (Some(before), Some(dir)) => {
                let moved = passes::set_aside_session(&dir.join("sessions"), t.id(), &before).with_context(|| format!("cannot set {}'s earlier session aside", t.id()))?;
                passes::earlier_passes(&before, moved.as_deref())
            }
            _ => Vec::new(),
        };
        let ev = if a.baseline == "auto" && super::run_cmd::pick_baseline(ctx, t, "auto", &ev.opts.target)? == crate::baseline::BaselineKind::Tuned { &tuned_ev } else { &ev };
        let (mut r, mut run) = if let Some((strategy, backend)) = &strategy {
            super::agent_runs::run_task(ctx, ev, &set, t, *strategy, backend.clone(), &a).await?
        } else {
            let source = match &a.candidates {
                Some(dir) if a.agent == "file" => {
                    let p = dir.join(format!("{}.py", t.id()));
                    std::fs::read_to_string(&p).with_context(|| format!("no candidate for {} at {}", t.id(), p.display()))?
                }
                _ => t.reference_text()?,
            };
            (ev.evaluate(t, &source).await, serde_json::Value::Null)
        };
        if eager {
            match crate::eval::eager::time(&ev.engine, t).await {
                Ok(e) => r.eager = Some(e),
                Err(e) if e.to_string().contains("PyTorch is not in the engine environment") => {
                    eprintln!("PyTorch eager is not timed: {e:#}");
                    eager = false;
                }
                Err(e) => eprintln!("  PyTorch eager: {e:#}"),
            }
        }
        if strategy.is_some() && !earlier.is_empty() {
            run["earlier_passes"] = json!(earlier);
        }
        if let Some(p) = progress.as_mut() {
            p.record(Finished { task: t.id().to_string(), result: r.clone(), run: run.clone(), earlier })?;
        }
        results.push(r);
        if strategy.is_some() {
            runs.push(run);
        }
    }
    // Shares against one set of peaks, the current ones, even for tasks a
    // resumed run measured before the peaks were measured again.
    if let Some(m) = crate::roofline::Machine::cached_for(&ctx.paths, &ctx.device) {
        for r in results.iter_mut().filter(|r| r.correct && r.manifest.device == ctx.device) {
            let size = tasks.iter().find(|t| t.id() == r.task).and_then(|t| t.reference.as_ref()).and_then(|m| m.size);
            if let (Some(size), Some(ms)) = (size, r.candidate_ms) {
                r.roofline_share = m.share(&size, ms);
            }
        }
    }
    // What the agents' search cost against MetaSchedule's, per task.
    for run in runs.iter_mut() {
        let Some(t) = tasks.iter().find(|t| run["task"] == t.id()) else { continue };
        if run.get("trials_to_parity").is_none() {
            let tree = run["session"].as_str().and_then(|p| crate::session::load(std::path::Path::new(p)).ok()).map(|l| crate::session::CandidateTree::from_events(&l.events));
            run["trials_to_parity"] = json!(tree.and_then(|t| crate::bench::parity::trials_to_parity(&t)));
        }
        let timed_against_tuning = results.iter().any(|r| r.task == t.id() && r.manifest.baseline.starts_with("metaschedule-tuned"));
        let report = crate::baseline::tuned_dir(&ctx.paths, t, &ev.opts.target, &ev.opts.device).ok().and_then(|d| crate::baseline::tuning_report(&d));
        run["metaschedule_trials"] = json!(report.filter(|_| timed_against_tuning).and_then(|r| r["trials"].as_u64()));
    }
    let mut labels: Vec<String> = results.iter().map(|r| r.manifest.baseline.clone()).collect();
    labels.sort();
    labels.dedup();
    let baseline = match labels.len() {
        0 => BASELINE_DEFAULT.to_string(),
        1 => labels.remove(0),
        _ => "per task, the faster of the MetaSchedule-tuned and the default build (each result's manifest names it)".to_string(),
    };
    // Groups for the breakdown: by level and by domain suite.
    let mut groups: std::collections::BTreeMap<String, Vec<String>> = Default::default();
    for t in &tasks {
        groups.entry(format!("l{}", t.meta.level)).or_default().push(t.id().to_string());
        for d in &t.meta.domains {
            groups.entry(d.clone()).or_default().push(t.id().to_string());
        }
    }
    // fast_p per kind of baseline, and what the tuned baselines amounted to.
    groups.extend(crate::bench::coverage::groups(&results));
    let (coverage, coverage_line) = crate::bench::coverage::describe(&ctx.paths, &tasks, &ev.opts, &results);
    let baseline = if a.baseline == "default" { baseline } else { format!("{baseline}\n{coverage_line}") };
    let out = json!({"schema": 1, "suite": a.suite, "agent": a.agent, "baseline": baseline, "baseline_coverage": coverage,
                     "aggregate": aggregate(&results), "by_group": crate::bench::breakdown(&results, &groups), "results": results,
                     "agent_runs": runs, "budget_per_task_s": a.budget.as_secs_f64(), "max_candidates": a.max_candidates});
    let reruns = progress.as_ref().and_then(|p| passes::summary(tasks.iter().filter_map(|t| p.done.get(t.id()))));
    let table = table(&results, &a.agent, &baseline, &groups) + &crate::bench::parity::summary(&runs).unwrap_or_default() + &reruns.unwrap_or_default();
    if let Some(dir) = &a.out {
        crate::bench::report::write(dir, &out, &results, &table)?;
        eprintln!("wrote results.json, results.csv and report.md to {}", dir.display());
    }
    if a.json {
        println!("{}", serde_json::to_string_pretty(&out)?);
    } else {
        print!("{table}");
    }
    Ok(ExitCode::SUCCESS)
}
