//! The command line: argument parsing and dispatch. Each subcommand lives in
//! its own file; they share the set-up in [`Workspace`].

mod agent_runs;
mod baseline_cmd;
mod baseline_store;
mod bench_cmd;
mod carry_cmd;
mod devices_cmd;
mod engine_cmd;
mod eval_cmd;
mod log_timings;
mod run_cmd;
mod session_cmd;
mod session_copy;
mod tasks_cmd;
mod tasks_resize;

use crate::workspace::Workspace;
use crate::paths::Paths;
use crate::tasks::resolve_root;
use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "kwb", version, about = "A terminal workbench for LLM-driven kernel optimisation")]
pub struct Cli {
    /// Tasks directory (default: KWB_TASKS, then ./tasks).
    #[arg(long, global = true, value_name = "DIR")]
    pub tasks: Option<PathBuf>,
    /// Engine workers to run at once (compiles overlap; timing is exclusive).
    #[arg(long, global = true, default_value_t = 2)]
    pub workers: usize,
    /// Device to time on (see `kwb devices`): the local CPU, or a board behind a TVM RPC tracker.
    #[arg(long, global = true, default_value = crate::devices::LOCAL_CPU, value_name = "NAME")]
    pub device: String,
    /// Without a command, kwb opens the workbench (the TUI).
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// The TVM engine: set it up, check it, measure it.
    #[command(subcommand)]
    Engine(engine_cmd::EngineCmd),
    /// Browse, check and import tasks.
    #[command(subcommand)]
    Tasks(tasks_cmd::TasksCmd),
    /// The MetaSchedule-tuned baseline: tune it, inspect it.
    #[command(subcommand)]
    Baseline(baseline_cmd::BaselineCmd),
    /// Evaluate one candidate (default: the task's reference) against the baseline.
    Eval(eval_cmd::EvalArgs),
    /// Evaluate a suite and print the benchmark table.
    Bench(bench_cmd::BenchArgs),
    /// Sessions: a candidate tree built by edits at L0/L1/L2, recorded as an event log.
    #[command(subcommand)]
    Session(session_cmd::SessionCmd),
    /// Diff two nodes of a session at one layer.
    Diff(session_cmd::DiffArgs),
    /// Run an agent strategy on one task, headless.
    Run(run_cmd::RunArgs),
    /// Devices: list the configured ones and whether they are reachable; `serve` makes this machine one (TVM RPC).
    #[command(alias = "device")]
    Devices(devices_cmd::DevicesArgs),
    /// Devices kwb cannot reach (a GPU box, a board without network): build candidates into a pack to carry there, and read back what it measured.
    #[command(subcommand)]
    Carry(carry_cmd::CarryCmd),
    /// Open the workbench (the default when no command is given).
    Ui(UiArgs),
}

pub fn main() -> ExitCode {
    // Not dumpable: no process of the same user (a worker included) may read
    // kwb's memory or /proc/<pid>/environ, where API keys live.
    // SAFETY: a plain prctl on this process.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) };
    let cli = Cli::parse();
    quiet_on_closed_stdout();
    let paths = match Paths::discover() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e:#}");
            return ExitCode::from(2);
        }
    };
    let _log = crate::logging::init(&paths);
    let rt = tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build().expect("tokio runtime");
    let result = rt.block_on(run(cli, paths));
    match result {
        Ok(code) => code,
        Err(e) => {
            tracing::error!("{e:#}");
            eprintln!("error: {e:#}");
            ExitCode::from(1)
        }
    }
}

async fn run(cli: Cli, paths: Paths) -> Result<ExitCode> {
    let ctx = Workspace { paths, tasks_dir: resolve_root(cli.tasks.as_deref()), workers: cli.workers, device: cli.device };
    let Some(command) = cli.command else {
        return ui(&ctx, UiArgs::default()).await;
    };
    match command {
        Command::Ui(a) => ui(&ctx, a).await,
        Command::Run(a) => run_cmd::run(&ctx, a).await,
        Command::Engine(c) => engine_cmd::run(&ctx, c).await,
        Command::Tasks(c) => tasks_cmd::run(&ctx, c).await,
        Command::Eval(a) => eval_cmd::run(&ctx, a).await,
        Command::Baseline(c) => baseline_cmd::run(&ctx, c).await,
        Command::Bench(a) => bench_cmd::run(&ctx, a).await,
        Command::Session(c) => session_cmd::run(&ctx, c).await,
        Command::Diff(a) => session_cmd::diff_cmd(&ctx, a),
        Command::Devices(a) => devices_cmd::run(&ctx, a).await,
        Command::Carry(c) => carry_cmd::run(&ctx, c).await,
    }
}

/// `kwb ui [...]` (and `kwb` with no arguments).
#[derive(clap::Args, Debug, Default)]
pub struct UiArgs {
    /// Open this session file (replay it, or resume it live).
    #[arg(long)]
    pub session: Option<PathBuf>,
    /// Theme for this run (default, dark, light, or one in <config>/themes/).
    #[arg(long)]
    pub theme: Option<String>,
    /// Do not start the engine (browse and replay only).
    #[arg(long)]
    pub no_engine: bool,
    /// Print time to first frame, frame render time with a 10,000-node tree
    /// and a 20,000-line diff, and resident memory; then exit.
    #[arg(long)]
    pub bench: bool,
}

async fn ui(ctx: &Workspace, a: UiArgs) -> Result<ExitCode> {
    if a.bench {
        return crate::tui::frame_timings::run(ctx).await;
    }
    crate::tui::run(ctx, crate::tui::Options { session: a.session, theme: a.theme, no_engine: a.no_engine }).await
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }

    #[test]
    fn every_subcommand_parses_its_own_options() {
        for args in [
            &["kwb", "baseline", "calibrate", "--on", "a,b", "--cap", "8"][..],
            &["kwb", "baseline", "tune", "--suite", "smoke", "--trials", "auto"],
            &["kwb", "--tasks", "/tmp/t", "tasks", "list", "--level", "2", "--domain", "aiot", "--text", "conv"],
            &["kwb", "session", "edit", "s.jsonl", "--node", "3", "--layer", "L1", "--kernel", "k", "--file", "f", "--trace"],
            &["kwb", "bench", "--suite", "smoke", "--baseline", "tuned", "--out", "d"],
            &["kwb", "bench", "compare", "a.json", "b.json"],
            &["kwb", "diff", "s.jsonl", "0", "1", "--layer", "L2", "--side-by-side"],
            &["kwb", "run", "--task", "relu", "--strategy", "flat", "--agents", "builtin", "--budget", "2m", "--json"],
            &["kwb", "run", "--task", "relu", "--device", "board", "--device-time", "1m"],
            &["kwb", "bench", "--suite", "smoke", "--device", "board"],
        ] {
            let cli = <Cli as clap::Parser>::try_parse_from(args).unwrap_or_else(|e| panic!("{args:?}: {e}"));
            // Accessing every field is what panicked before on a clash of ids.
            let _ = format!("{cli:?}");
        }
    }
}

/// `kwb tasks list | head`: the reader closing the pipe ends kwb quietly (as
/// it would a shell tool), where Rust's printing would panic with a
/// backtrace. SIGPIPE stays ignored, so a dead engine worker's pipe is an
/// error kwb reports, not a signal that kills it.
fn quiet_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info.payload().downcast_ref::<String>().map(String::as_str).or_else(|| info.payload().downcast_ref::<&str>().copied()).unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info);
    }));
}
