//! `kwb tasks resize`: a task's size for a faster device. The shipped tasks
//! are sized for one CPU core; on a GPU they time kernel launches. A size is
//! the same model.py with other constants, imported (PyTorch's outputs
//! recorded here, TVM checked against them) into `<task>/sizes/<size>/`,
//! which the device's runs then use (see `Device::size`).

use super::tasks_cmd::{outcome_line, torch_engine};
use crate::devices::Reach;
use crate::eval::EvalOptions;
use crate::tasks::import::{ImportRequest, guess_toml};
use crate::tasks::import_batch::{self, Status};
use crate::tasks::{Task, TaskSet};
use crate::workspace::Workspace;
use anyhow::{Context, Result, bail};
use serde_json::json;
use std::collections::BTreeMap;
use std::process::ExitCode;

#[derive(clap::Args, Debug)]
pub struct ResizeArgs {
    /// Tasks to size, comma-separated.
    #[arg(long, value_delimiter = ',', conflicts_with = "suite")]
    task: Vec<String>,
    /// A suite to size (see `kwb tasks list`).
    #[arg(long)]
    suite: Option<String>,
    /// The size's name (default: the one --device runs; `gpu` for a CUDA device).
    #[arg(long)]
    size: Option<String>,
    /// A forward pass must take at least this long at the device's peaks, in microseconds (the roofline's bound: measured times are longer).
    #[arg(long, default_value_t = 25.0)]
    min_us: f64,
    /// Set a constant of model.py instead of growing it: --set batch_size=128
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// The bytes of inputs and parameters a size may take (its outputs are recorded on this machine).
    #[arg(long, default_value_t = 256 << 20)]
    max_bytes: u64,
    /// The operators a size's graph may have (views aside).
    #[arg(long, default_value_t = 4000)]
    max_ops: u64,
    /// Size again the tasks that already have this size.
    #[arg(long)]
    again: bool,
}

pub async fn run(ctx: &Workspace, a: ResizeArgs) -> Result<ExitCode> {
    let device = ctx.device()?;
    let size = match (a.size.as_deref(), device.size()) {
        (Some(s), _) | (None, Some(s)) => s.to_string(),
        (None, None) => bail!("device `{}` runs the tasks' own size: name the size with --size NAME (and set `size = \"NAME\"` on the device in devices.toml)", device.name),
    };
    if size.is_empty() || !size.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-') {
        bail!("--size {size}: a size is one word of letters, digits, - and _");
    }
    // Peaks measured on the device first, then its datasheet's (devices.toml).
    let measured = match &device.reach {
        Reach::Local => None,
        _ => crate::roofline::Machine::cached_for(&ctx.paths, &device.name),
    };
    let peaks = match (&device.peaks, &device.reach) {
        _ if measured.is_some() => {
            let m = measured.expect("checked");
            json!({"peak_flops": m.peak_flops, "bandwidth_bytes_s": m.bandwidth_bytes_s})
        }
        (Some(p), _) => json!({"peak_flops": p.peak_flops, "bandwidth_bytes_s": p.bandwidth_bytes_s}),
        (None, Reach::Local) => {
            let engine = ctx.engine(false).await?;
            let m = match crate::roofline::Machine::cached(&ctx.paths) {
                Some(m) => m,
                None => crate::roofline::Machine::measure(&engine, &ctx.paths).await.map_err(|f| anyhow::anyhow!("measuring this machine's peaks: {f}"))?,
            };
            engine.shutdown();
            json!({"peak_flops": m.peak_flops, "bandwidth_bytes_s": m.bandwidth_bytes_s})
        }
        (None, _) => bail!(
            "device `{}` has no peaks to size tasks by: add them to its entry in devices.toml, e.g. peaks = {{ peak_flops = 6.7e13, bandwidth_bytes_s = 4.8e12 }} (fp32 FLOP/s and bytes/s)",
            device.name
        ),
    };
    let mut overrides = BTreeMap::new();
    for s in &a.set {
        let (k, v) = s.split_once('=').with_context(|| format!("--set {s}: write NAME=VALUE"))?;
        overrides.insert(k.trim().to_string(), v.trim().to_string());
    }
    // The tasks' own sizes: a size is grown from model.py, never from another size.
    let set = TaskSet::load(&ctx.tasks_dir)?;
    let tasks: Vec<&Task> = match (&a.suite, a.task.is_empty()) {
        (Some(s), _) => set.suite(s)?,
        (None, false) => a.task.iter().map(|t| set.get(t)).collect::<Result<_>>()?,
        (None, true) => bail!("name the tasks: --task a,b or --suite S"),
    };
    let (todo, done): (Vec<&Task>, Vec<&Task>) = tasks.into_iter().partition(|t| a.again || !t.sizes_dir().join(&size).join("reference.json").is_file());
    for t in &done {
        println!("skipped   {:<28} has size `{size}` ({}); --again sizes it again", t.id(), t.sizes_dir().join(&size).display());
    }
    if todo.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    let grow = json!({"peak_flops": peaks["peak_flops"], "bandwidth_bytes_s": peaks["bandwidth_bytes_s"], "min_s": a.min_us / 1e6});
    let mut reqs = Vec::new();
    // None for a new size; else the task.toml it had, put back if sizing it again fails.
    let mut fresh: Vec<Option<String>> = Vec::new();
    for t in &todo {
        let dest = t.sizes_dir().join(&size);
        fresh.push(if dest.join("reference.json").is_file() { std::fs::read_to_string(dest.join("task.toml")).ok() } else { None });
        std::fs::create_dir_all(&dest).with_context(|| format!("cannot create {}", dest.display()))?;
        // The size keeps the task's tolerance, inits and title; its constants
        // are model.py's own, --set's, then what growing chose.
        let mut meta = t.meta.clone();
        meta.overrides = overrides.iter().map(|(k, v)| (k.clone(), guess_toml(v))).collect();
        std::fs::write(dest.join("task.toml"), toml::to_string_pretty(&meta)?)?;
        reqs.push(ImportRequest {
            model: t.dir.join("model.py"),
            dest,
            id: t.id().to_string(),
            level: t.meta.level,
            domains: t.meta.domains.clone(),
            overrides: overrides.clone(),
            max_bytes: a.max_bytes,
            target: EvalOptions::default().target,
            fit: false,
            budget_ms: f64::INFINITY,
            max_ops: a.max_ops,
            peaks: None,
            grow: Some(grow.clone()),
        });
    }
    let engine = torch_engine(ctx, a.max_bytes).await?;
    let on_event = |_: &ImportRequest, done: Option<&import_batch::Outcome>| {
        if let Some(o) = done {
            println!("{}", outcome_line(o));
        }
    };
    let outcomes = import_batch::import_all(&engine, &ctx.paths, &reqs, ctx.workers, &on_event).await;
    engine.shutdown();
    let mut failed = 0;
    // Outcomes come back in completion order: matched by id.
    for (req, fresh) in reqs.iter().zip(&fresh) {
        let ok = outcomes.iter().any(|o| o.id == req.id && matches!(o.status, Status::Imported | Status::Skipped));
        if ok {
            retitle(&req.dest, &size)?;
        } else {
            failed += 1;
            match fresh {
                // A size that never imported leaves nothing behind.
                None => {
                    let _ = std::fs::remove_dir_all(&req.dest);
                }
                // One sized before keeps its files, task.toml included.
                Some(old) => std::fs::write(req.dest.join("task.toml"), old)?,
            }
        }
    }
    println!("{} of {} tasks have size `{size}`; run them with `kwb --device {} ...`", reqs.len() - failed + done.len(), reqs.len() + done.len(), device.name);
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// A size's title names the size and its constants: the task's own title
/// gives the task's own shapes.
fn retitle(dest: &std::path::Path, size: &str) -> Result<()> {
    let path = dest.join("task.toml");
    let mut meta: crate::tasks::TaskMeta = toml::from_str(&std::fs::read_to_string(&path)?).with_context(|| format!("reading {}", path.display()))?;
    let base = meta.title.split(" [size ").next().unwrap_or_default().to_string();
    let consts: Vec<String> = meta.overrides.iter().map(|(k, v)| format!("{k}={v}")).collect();
    meta.title = format!("{base} [size {size}: {}]", consts.join(" "));
    std::fs::write(&path, toml::to_string_pretty(&meta)?)?;
    Ok(())
}
