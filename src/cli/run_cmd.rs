//! `kwb run`: one strategy on one task, headless, with a progress display.

use crate::workspace::Workspace;
use crate::agent::budget::parse_duration;
use crate::agent::orchestrator::{self, Backend, RunSpec, Strategy};
use crate::agent::{Budget, supervisor::AutoAccept};
use crate::baseline::BaselineKind;
use crate::eval::EvalOptions;
use crate::session::{Event, EventKind};
use anyhow::{Result, bail};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct RunArgs {
    #[arg(long)]
    pub task: String,
    /// `layered` (L0/L1/L2 agents routed by the hardware agent), `flat` or `one-shot`.
    #[arg(long, default_value = "layered", value_parser = parse_strategy)]
    pub strategy: Strategy,
    /// `builtin` (offline, no model) or `llm` (a provider from the LLM config file).
    #[arg(long, default_value = "builtin")]
    pub agents: String,
    /// Provider name in the LLM config (default: the config's default).
    #[arg(long)]
    pub provider: Option<String>,
    /// Wall-clock budget: 90s, 10m, 1h.
    #[arg(long, default_value = "5m", value_parser = parse_duration)]
    pub budget: std::time::Duration,
    #[arg(long, default_value_t = 40)]
    pub candidates: u32,
    #[arg(long, default_value_t = 2_000_000)]
    pub tokens: u64,
    /// Device-time budget (building is free; checking and timing count).
    #[arg(long, value_parser = parse_duration)]
    pub device_time: Option<std::time::Duration>,
    /// Session log to write, or to resume when it exists.
    #[arg(long)]
    pub session: Option<PathBuf>,
    /// Start from this node of a resumed session.
    #[arg(long)]
    pub node: Option<u32>,
    /// `tuned` (MetaSchedule), `default`, or `auto`: tuned when this task has a finished tuning.
    #[arg(long, default_value = "auto")]
    pub baseline: String,
    #[arg(long)]
    pub json: bool,
}

pub fn parse_strategy(s: &str) -> Result<Strategy, String> {
    Strategy::parse(s).ok_or_else(|| format!("`{s}` is not a strategy: use layered, flat or one-shot"))
}

pub fn backend(agents: &str, provider: Option<&str>) -> Result<Backend> {
    match agents {
        "builtin" | "built-in" => Ok(Backend::Builtin),
        "llm" => Ok(Backend::Llm { provider: provider.unwrap_or("").to_string() }),
        other => bail!("`{other}` is not an agent backend: use builtin or llm"),
    }
}

/// `auto`: the tuned baseline where this task has a finished tuning on the
/// workspace's device, else the default pipeline. `target` is the
/// evaluator's (the device's), which tunings are keyed by with the device.
pub fn pick_baseline(ctx: &Workspace, task: &crate::tasks::Task, choice: &str, target: &serde_json::Value) -> Result<BaselineKind> {
    match choice {
        "auto" => {
            let tuned = crate::baseline::tuned_dir(&ctx.paths, task, target, &ctx.device).ok().and_then(|d| crate::baseline::tuning_report(&d)).is_some();
            Ok(if tuned { BaselineKind::Tuned } else { BaselineKind::Default })
        }
        other => super::eval_cmd::parse_baseline(other).map_err(anyhow::Error::msg),
    }
}

pub fn default_session(ctx: &Workspace, task: &str) -> PathBuf {
    ctx.paths.state.join("sessions").join(format!("{task}-{}.jsonl", crate::session::log::now_ms()))
}

pub async fn run(ctx: &Workspace, a: RunArgs) -> Result<ExitCode> {
    let set = ctx.tasks()?;
    let task = set.get(&a.task)?;
    let backend = backend(&a.agents, a.provider.as_deref())?;
    let budget = Budget { wall: a.budget, candidates: a.candidates, tokens: a.tokens, device: a.device_time.unwrap_or(a.budget) };
    let session = a.session.clone().unwrap_or_else(|| default_session(ctx, &a.task));
    let mut ev = ctx.evaluator(EvalOptions::default()).await?;
    ev.opts.baseline = pick_baseline(ctx, task, &a.baseline, &ev.opts.target)?;
    let ev = Arc::new(ev);
    if crate::roofline::Machine::cached_for(&ctx.paths, &ctx.device).is_none() {
        eprintln!("measuring `{}`'s peak FLOP/s and memory bandwidth for the hardware agent (once)", ctx.device);
        ctx.measure_peaks(&ev.engine).await?;
    }
    let spec = RunSpec { task: a.task.clone(), strategy: a.strategy, backend, budget, session: session.clone(), start_node: a.node };
    eprintln!("{} on {} against the {:?} baseline; session {}", orchestrator::strategy_name(a.strategy), a.task, ev.opts.baseline, session.display());
    let mut handle = orchestrator::start(ev, Arc::new(set), ctx.paths.clone(), spec, Arc::new(AutoAccept));
    let quiet = a.json;
    while let Some(e) = handle.events.recv().await {
        if !quiet && let Some(line) = progress_line(&e) {
            eprintln!("{line}");
        }
    }
    let summary = handle.done.await??;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&summary)?);
    } else {
        match (summary.best_node, summary.best_speedup) {
            (Some(n), Some(x)) => println!("best: node {n}, {x:.3}x against the baseline ({} candidates in {:.0} s; stopped by {})", summary.candidates, summary.wall_s, summary.stopped_by),
            _ => println!("no correct, validly timed candidate ({} candidates in {:.0} s; stopped by {})", summary.candidates, summary.wall_s, summary.stopped_by),
        }
        println!("session: {}", summary.session.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// One line per event worth showing while a run is in progress.
pub fn progress_line(e: &Event) -> Option<String> {
    let t = match &e.kind {
        EventKind::Edit { node } if node.parent.is_some() => format!("  #{} {}{} by {}: {}", node.id, node.layer, node.kernel.as_deref().map(|k| format!(" [{k}]")).unwrap_or_default(), node.author, node.rationale),
        EventKind::Refused { layer, author, failure, .. } => format!("  refused {layer} edit by {author}: {failure}"),
        EventKind::EvalFinished { node, result, .. } => match (result.correct, result.speedup_median, result.timing_valid) {
            (true, Some(x), true) => format!("  #{node} correct, {x:.3}x"),
            (true, Some(x), false) => format!("  #{node} correct, {x:.3}x (timing too noisy to count)"),
            (true, None, _) => format!("  #{node} correct"),
            _ => format!("  #{node} failed: {}", result.failure.as_ref().map(|f| f.to_string()).unwrap_or_default()),
        },
        EventKind::Profile { node, profile } => format!(
            "  hardware agent on #{node}: {} -> {} ({})",
            profile["bottleneck"].as_str().unwrap_or("?"),
            profile["route"].as_str().unwrap_or("nothing left"),
            profile["evidence"].as_str().unwrap_or("")
        ),
        _ => return None,
    };
    Some(t)
}
