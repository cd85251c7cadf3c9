//! `kwb carry pack|report`: candidates for a device kwb cannot reach, built
//! here and carried there (see `crate::carry`).

use crate::carry::{pack, report};
use crate::devices::Reach;
use crate::eval::EvalOptions;
use crate::workspace::Workspace;
use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand, Debug)]
pub enum CarryCmd {
    /// Build a suite's baselines and candidates for --device (a CUDA device of devices.toml, or this CPU) into a folder to carry there.
    Pack(PackArgs),
    /// Print a device run's results.json as the benchmark table.
    Report(ReportArgs),
}

#[derive(Args, Debug)]
pub struct PackArgs {
    /// Suite to pack (see `kwb tasks list`).
    #[arg(long, conflicts_with = "task")]
    suite: Option<String>,
    /// Tasks to pack, comma-separated.
    #[arg(long, value_delimiter = ',')]
    task: Vec<String>,
    /// The folder to write (put it where it travels: the device copies the working tree).
    #[arg(long)]
    out: PathBuf,
    /// Candidate schedules per kernel, from MetaSchedule's design space for the device.
    #[arg(long, default_value_t = 4)]
    per_kernel: u32,
    /// Contraction tilings chosen by design per kernel on a GPU (more to explore shapes on the device, 0 for none).
    #[arg(long, default_value_t = 6)]
    tiled: u32,
    /// Also offer each graph rewrite (L0 move) that applies, the whole graph rewritten and built with the default schedules (`--graph-moves false` for none).
    #[arg(long, default_value_t = true, action = clap::ArgAction::Set)]
    graph_moves: bool,
    /// Seed of the sampling.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// An earlier run's results.json (or a kept results.json.gz) on this device: its measurements train the cost model that ranks new schedules, and its schedules are not offered again.
    #[arg(long)]
    learn_from: Option<PathBuf>,
    /// The device's Python version (the runtime wheel is fetched for it).
    #[arg(long, default_value = "3.12")]
    device_python: String,
    /// Also write OUT.tar.gz, what travels to the device (the folder is about 4x larger).
    #[arg(long)]
    archive: bool,
}

#[derive(Args, Debug)]
pub struct ReportArgs {
    /// results.json written on the device by `run.sh` (or a kept results.json.gz); several (packs of the same device) make one table.
    #[arg(required = true)]
    results: Vec<PathBuf>,
    /// Also write report.md and a gzipped copy of the results (results.json.gz, which this command and --learn-from read back) here.
    #[arg(long)]
    out: Option<PathBuf>,
}

pub async fn run(ctx: &Workspace, cmd: CarryCmd) -> Result<ExitCode> {
    match cmd {
        CarryCmd::Pack(a) => pack_cmd(ctx, a).await,
        CarryCmd::Report(a) => report_cmd(ctx, a),
    }
}

async fn pack_cmd(ctx: &Workspace, a: PackArgs) -> Result<ExitCode> {
    let device = ctx.device()?;
    // Reference outputs and builds run on this machine's CPU, whatever the device.
    let host = Workspace { paths: ctx.paths.clone(), tasks_dir: ctx.tasks_dir.clone(), workers: ctx.workers, device: crate::devices::LOCAL_CPU.into() };
    let evaluator = host.evaluator(EvalOptions::default()).await?;
    let target = match &device.reach {
        Reach::Cuda { .. } => device.target.clone().context("a CUDA device needs its target")?,
        Reach::Local => evaluator.opts.target.clone(),
        Reach::Rpc { .. } => bail!("device `{}` is reachable over RPC: measure on it with --device on bench, eval or run; packs are for devices kwb cannot reach", device.name),
    };
    let set = ctx.tasks()?;
    let tasks = match (&a.suite, a.task.is_empty()) {
        (Some(s), _) => set.suite(s)?,
        (None, false) => a.task.iter().map(|t| set.get(t)).collect::<Result<Vec<_>>>()?,
        (None, true) => bail!("name the tasks: --suite S or --task a,b"),
    };
    let learn_from = match &a.learn_from {
        Some(p) => Some(crate::carry::results_file::read(p)?),
        None => None,
    };
    let opts = pack::PackOptions {
        out: a.out.clone(),
        target,
        device: device.name.clone(),
        per_kernel: a.per_kernel,
        tiled: a.tiled,
        graph_moves: a.graph_moves,
        seed: a.seed,
        learn_from,
        device_python: a.device_python,
        suite: a.suite.clone().unwrap_or_else(|| a.task.join(",")),
        archive: a.archive,
    };
    let rows = pack::pack(&evaluator, &tasks, &opts).await?;
    let failed = rows.iter().filter(|r| !r["error"].is_null()).count();
    println!("packed {} of {} tasks into {}", rows.len() - failed, rows.len(), a.out.display());
    println!("on the device: bash {}/run.sh OUT_DIR; then here: kwb carry report OUT_DIR/results.json", a.out.display());
    if a.archive {
        println!("what travels: {} (tar -xzf it there, then run.sh)", a.out.with_extension("tar.gz").display());
    }
    evaluator.engine.shutdown();
    Ok(if failed == rows.len() { ExitCode::from(1) } else { ExitCode::SUCCESS })
}

fn report_cmd(ctx: &Workspace, a: ReportArgs) -> Result<ExitCode> {
    let mut merged: Option<serde_json::Value> = None;
    for path in &a.results {
        let results = crate::carry::results_file::read(path)?;
        let Some(tasks) = results["tasks"].as_object() else {
            bail!("{} has no `tasks`: is it a results.json written by a pack's run.sh?", path.display());
        };
        match merged.as_mut() {
            None => merged = Some(results.clone()),
            Some(m) => {
                if report::peaks(m).is_none() && report::peaks(&results).is_some() {
                    m["peaks"] = results["peaks"].clone();
                }
                for (id, t) in tasks {
                    m["tasks"][id] = t.clone();
                }
            }
        }
    }
    let results = merged.context("no results given")?;
    let md = report::markdown(&results);
    print!("{md}");
    // The device's peaks, as it measured them, are kept for it: `kwb
    // devices` shows them and `tasks resize` sizes by them. The local CPU
    // keeps its own, from its own kernels.
    let device = results["pack"]["device"].as_str().unwrap_or_default();
    if let Some(m) = report::peaks(&results).filter(|_| !device.is_empty() && device != crate::devices::LOCAL_CPU) {
        let path = m.save_for(&ctx.paths, device)?;
        eprintln!("the peaks `{device}` measured are kept in {} (`kwb devices` shows them)", path.display());
    }
    if let Some(dir) = a.out {
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("report.md"), &md)?;
        crate::carry::results_file::write_gz(&dir.join(crate::carry::results_file::KEPT_NAME), &results)?;
    }
    Ok(ExitCode::SUCCESS)
}
