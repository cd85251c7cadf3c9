//! `kwb eval`: one candidate, checked and timed, as a summary or JSON.

use crate::workspace::Workspace;
use crate::eval::{EvalOptions, EvalResult};
use anyhow::{Context, Result};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct EvalArgs {
    /// Task id (see `kwb tasks list`).
    #[arg(long)]
    pub task: String,
    /// TVMScript file with the candidate IRModule (default: the task's reference).
    #[arg(long)]
    pub candidate: Option<PathBuf>,
    /// Print the full result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Paired measurements per timing round.
    #[arg(long, default_value_t = 15)]
    pub pairs: u32,
    /// Baseline to time against: `default` (TVM's default pipeline) or `tuned` (MetaSchedule).
    #[arg(long, default_value = "default", value_parser = parse_baseline)]
    pub baseline: crate::baseline::BaselineKind,
    /// Seconds a candidate may run during the correctness check.
    #[arg(long, default_value_t = 120)]
    pub check_timeout: u64,
}

pub async fn run(ctx: &Workspace, a: EvalArgs) -> Result<ExitCode> {
    let set = ctx.tasks()?;
    let task = set.get(&a.task)?;
    let source = match &a.candidate {
        Some(p) => std::fs::read_to_string(p).with_context(|| format!("cannot read the candidate {}", p.display()))?,
        None => task.reference_text()?,
    };
    let opts = EvalOptions { pairs: a.pairs, baseline: a.baseline, check_timeout: std::time::Duration::from_secs(a.check_timeout), ..Default::default() };
    let ev = ctx.evaluator(opts).await?;
    let r = ev.evaluate(task, &source).await;
    if a.json {
        println!("{}", serde_json::to_string_pretty(&r)?);
    } else {
        print!("{}", summary(&r, a.candidate.as_ref().map(|p| p.display().to_string()).as_deref().unwrap_or("reference")));
    }
    Ok(ExitCode::SUCCESS)
}

pub fn parse_baseline(s: &str) -> Result<crate::baseline::BaselineKind, String> {
    crate::baseline::BaselineKind::parse(s).ok_or_else(|| format!("`{s}` is not a baseline: use `default` or `tuned`"))
}

pub fn summary(r: &EvalResult, label: &str) -> String {
    let mut s = format!("task {}  candidate {} ({})\n", r.task, label, &r.candidate_sha256[..12]);
    match (r.compile_ok, r.compile_s) {
        (true, Some(c)) => s += &format!("  build     ok in {c:.2} s (off the clock)\n"),
        _ => s += "  build     failed\n",
    }
    if !r.seeds.is_empty() {
        let seeds: Vec<String> = r
            .seeds
            .iter()
            .map(|x| format!("seed {} {} {}", x.seed, if x.ok { "ok" } else { "FAIL" }, x.max_abs_err.map(|e| format!("{e:.2e}")).unwrap_or_else(|| "-".into())))
            .collect();
        s += &format!("  correct   {}  [{}]\n", if r.correct { "yes" } else { "no" }, seeds.join(", "));
    }
    if let (Some(c), Some(b), Some(x)) = (r.candidate_ms, r.baseline_ms, r.speedup_median) {
        s += &format!(
            "  timing    candidate {c:.3} ms  baseline {b:.3} ms  speedup {x:.3}x +/- {:.1}%  ({} pairs, spread {:.1}%, {})\n",
            r.ci.unwrap_or(0.0) * 100.0,
            r.pair_count,
            r.spread.unwrap_or(0.0) * 100.0,
            if r.timing_valid { "valid" } else { "INVALID: too noisy" }
        );
    }
    if let Some(f) = &r.failure {
        s += &format!("  failure   {f}\n");
    }
    s += &format!("  wall {:.2} s, engine overhead {:.1} ms, baseline {}\n", r.wall_s, r.engine_overhead_s * 1e3, r.manifest.baseline);
    s
}
