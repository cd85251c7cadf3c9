//! `kwb tasks`: list, show, check, import and resize.

use crate::workspace::Workspace;
use crate::eval::EvalOptions;
use crate::tasks::import::{ImportRequest, id_from_path};
use anyhow::{Context, Result, bail};
use clap::Subcommand;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Subcommand, Debug)]
pub enum TasksCmd {
    /// List tasks, filtered by level, domain, suite and text.
    List {
        #[arg(long)]
        json: bool,
        #[arg(long)]
        level: Option<u8>,
        #[arg(long)]
        domain: Option<String>,
        #[arg(long)]
        suite: Option<String>,
        /// Words that must appear in the id or title.
        #[arg(long)]
        text: Option<String>,
    },
    /// Compute every task's size (FLOPs, bytes moved, parameters) from its Relax module.
    Size {
        /// Store the figures in each task's reference.json.
        #[arg(long)]
        write: bool,
        #[arg(long)]
        suite: Option<String>,
    },
    /// One task's metadata, arguments and PyTorch source.
    Show { id: String },
    /// Build every task's reference and compare it with its recorded outputs (no PyTorch needed).
    Check {
        #[arg(long)]
        suite: Option<String>,
    },
    /// Import a KernelBench-format PyTorch file, or a directory of them (needs `kwb engine setup --with-torch`).
    Import(ImportArgs),
    /// Size tasks for a faster device (--device): model.py's constants grown until a pass is worth timing there, written to <task>/sizes/<size>/ with its own reference outputs.
    Resize(super::tasks_resize::ResizeArgs),
}

#[derive(clap::Args, Debug)]
pub struct ImportArgs {
    /// A file, or a directory whose .py files are imported side by side (a suite named after it).
    path: PathBuf,
    /// Task id (default: from the file name).
    #[arg(long)]
    id: Option<String>,
    /// 1, 2 or 3 (default: guessed from the path, as in KernelBench's level1/..level3/, else 1).
    #[arg(long)]
    level: Option<u8>,
    /// Comma-separated domain suites (default: guessed from the model's layers and size).
    #[arg(long, value_delimiter = ',')]
    domains: Option<Vec<String>>,
    /// Override a module-level constant of the file: --set batch_size=16
    #[arg(long = "set", value_name = "NAME=VALUE")]
    set: Vec<String>,
    /// Refuse tasks whose inputs and parameters take more bytes than this.
    #[arg(long, default_value_t = 256 << 20)]
    max_bytes: u64,
    /// The run time the untuned reference may be expected to take, in ms (estimated before building, from its FLOPs and bytes and the machine's peaks).
    #[arg(long, default_value_t = 500.0)]
    budget_ms: f64,
    /// The operators a task's graph may have (views aside): TVM's compile time grows with them, and a recurrence is exported unrolled, one set per time step.
    #[arg(long, default_value_t = 4000)]
    max_ops: u64,
    /// Choose the file's size constants so it fits --budget-ms, --max-bytes and --max-ops (halved together, largest first), recorded in task.toml; without it a file that does not fit is refused with the values that would.
    #[arg(long)]
    fit: bool,
    /// Where to write the task (default: <tasks>/l<level>/<id>).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub async fn run(ctx: &Workspace, cmd: TasksCmd) -> Result<ExitCode> {
    match cmd {
        TasksCmd::List { json, level, domain, suite, text } => list(ctx, json, level, domain, suite, text),
        TasksCmd::Size { write, suite } => size(ctx, write, suite).await,
        TasksCmd::Show { id } => show(ctx, &id),
        TasksCmd::Check { suite } => check(ctx, suite).await,
        TasksCmd::Import(args) => import(ctx, args).await,
        TasksCmd::Resize(args) => super::tasks_resize::run(ctx, args).await,
    }
}

fn list(ctx: &Workspace, as_json: bool, level: Option<u8>, domain: Option<String>, suite: Option<String>, text: Option<String>) -> Result<ExitCode> {
    let set = ctx.tasks()?;
    let mut tasks: Vec<_> = match &suite {
        Some(s) => set.suite(s)?,
        None => set.tasks.iter().collect(),
    };
    if let Some(l) = level {
        tasks.retain(|t| t.meta.level == l);
    }
    if let Some(d) = &domain {
        tasks.retain(|t| t.meta.domains.iter().any(|x| x == d));
    }
    if let Some(words) = &text {
        let words: Vec<String> = words.to_lowercase().split_whitespace().map(str::to_string).collect();
        tasks.retain(|t| {
            let hay = format!("{} {}", t.meta.id, t.meta.title).to_lowercase();
            words.iter().all(|w| hay.contains(w))
        });
    }
    if as_json {
        let items: Vec<_> = tasks
            .iter()
            .map(|t| {
                json!({"id": t.meta.id, "level": t.meta.level, "domains": t.meta.domains, "dtype": t.meta.dtype, "title": t.meta.title,
                       "tolerance": t.meta.tolerance, "dir": t.dir, "imported": t.reference.is_some(),
                       "input_bytes": t.reference.as_ref().map(|r| r.input_bytes()),
                       "size": t.reference.as_ref().and_then(|r| r.size)})
            })
            .collect();
        let problems: Vec<_> = set.problems.iter().map(|p| json!({"dir": p.dir, "message": p.message})).collect();
        println!("{}", serde_json::to_string_pretty(&json!({"tasks": items, "suites": set.suites, "problems": problems}))?);
    } else {
        println!("{:<26} {:>2}  {:<22} {:>9} {:>10} {:>8}  title", "id", "L", "domains", "FLOPs", "moved", "params");
        for t in &tasks {
            let size = t.reference.as_ref().and_then(|r| r.size);
            let (flops, moved, params) = match size {
                Some(s) => (si(s.flops), human_bytes(s.bytes_moved), si(s.params as f64)),
                None if t.reference.is_some() => ("-".into(), "-".into(), "-".into()),
                None => ("not imported".into(), String::new(), String::new()),
            };
            println!("{:<26} {:>2}  {:<22} {:>9} {:>10} {:>8}  {}", t.meta.id, t.meta.level, t.meta.domains.join(","), flops, moved, params, t.meta.title);
        }
        println!("{} tasks; suites: {}", tasks.len(), set.suites.keys().cloned().collect::<Vec<_>>().join(", "));
    }
    Ok(ExitCode::SUCCESS)
}

fn si(x: f64) -> String {
    match x {
        x if x >= 1e9 => format!("{:.2}G", x / 1e9),
        x if x >= 1e6 => format!("{:.2}M", x / 1e6),
        x if x >= 1e3 => format!("{:.1}k", x / 1e3),
        x => format!("{x:.0}"),
    }
}

async fn size(ctx: &Workspace, write: bool, suite: Option<String>) -> Result<ExitCode> {
    let set = ctx.tasks()?;
    let tasks: Vec<_> = match &suite {
        Some(s) => set.suite(s)?,
        None => set.tasks.iter().collect(),
    };
    let engine = ctx.engine(false).await?;
    for t in tasks {
        let spec = t.reference_meta()?;
        let job = crate::engine::Job::new(
            "size",
            json!({"source": t.reference_text()?, "target": EvalOptions::default().target, "args_spec": spec.args, "outputs": spec.outputs}),
            std::time::Duration::from_secs(120),
        );
        let mut out = engine.run(job).await.map_err(|f| anyhow::anyhow!("{}: {f}", t.id()))?.result;
        if let Some(m) = out.as_object_mut() {
            m.remove("tvm_s");
            m.remove("worker_s");
        }
        println!("{:<26} {:>10} FLOPs {:>10} moved {:>9} params {} kernels", t.id(), si(out["flops"].as_f64().unwrap_or(0.0)), human_bytes(out["bytes_moved"].as_u64().unwrap_or(0)), si(out["params"].as_f64().unwrap_or(0.0)), out["kernels"]);
        if write {
            let p = t.dir.join("reference.json");
            let mut v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&p)?)?;
            v["size"] = out;
            std::fs::write(&p, serde_json::to_string_pretty(&v)? + "\n")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn human_bytes(b: u64) -> String {
    if b >= 1 << 20 { format!("{:.1} MiB", b as f64 / 1048576.0) } else { format!("{:.1} KiB", b as f64 / 1024.0) }
}

fn show(ctx: &Workspace, id: &str) -> Result<ExitCode> {
    let set = ctx.tasks()?;
    let t = set.get(id)?;
    println!("{}  (level {}, {}, {})", t.meta.id, t.meta.level, t.meta.domains.join(", "), t.meta.dtype);
    if !t.meta.title.is_empty() {
        println!("{}", t.meta.title);
    }
    println!("dir: {}", t.dir.display());
    println!("tolerance: |out - ref| <= {} * rms(ref) + {} * |ref|", t.meta.tolerance.atol, t.meta.tolerance.rtol);
    if let Some(r) = &t.reference {
        println!("arguments of main:");
        for (i, a) in r.args.iter().enumerate() {
            println!("  {i:>2} {:<20} {:<6} {:?} {}  init {}", a.name, a.role, a.shape, a.dtype, init_summary(&a.init));
        }
        for (i, o) in r.outputs.iter().enumerate() {
            println!("  out{i} {:?} {}", o.shape, o.dtype);
        }
    } else {
        println!("not imported yet: kwb tasks import {}", t.dir.join("model.py").display());
    }
    if let Ok(src) = std::fs::read_to_string(t.dir.join("model.py")) {
        println!("\n{src}");
    }
    Ok(ExitCode::SUCCESS)
}

async fn check(ctx: &Workspace, suite: Option<String>) -> Result<ExitCode> {
    let set = ctx.tasks()?;
    let tasks: Vec<_> = match &suite {
        Some(s) => set.suite(s)?,
        None => set.tasks.iter().collect(),
    };
    let ev = ctx.evaluator(EvalOptions::default()).await?;
    let mut failed = 0;
    for t in &tasks {
        let verdict = check_one(&ev, t).await;
        match verdict {
            Ok(errs) => println!("ok    {:<28} max abs error per seed {errs}", t.meta.id),
            Err(e) => {
                failed += 1;
                println!("FAIL  {:<28} {e}", t.meta.id)
            }
        }
    }
    println!("{} passed, {} failed", tasks.len() - failed, failed);
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

async fn check_one(ev: &crate::eval::Evaluator, t: &crate::tasks::Task) -> Result<String> {
    let spec = t.reference_meta()?;
    // For a task with a digest of PyTorch's outputs, this is where the
    // reference built here is held to it.
    let truth = ev.reference_outputs(t).await.map_err(|f| anyhow::anyhow!("{f}"))?;
    let artifact = ev.baseline_artifact(t).await.map_err(|f| anyhow::anyhow!("{f}"))?;
    let job = crate::engine::Job::new(
        "check",
        json!({"artifact": artifact, "args_spec": spec.args, "outputs_dir": truth, "atol": t.meta.tolerance.atol, "rtol": t.meta.tolerance.rtol}),
        std::time::Duration::from_secs(120),
    );
    let out = ev.engine.run(job).await.map_err(|f| anyhow::anyhow!("{f}"))?;
    let errs: Vec<String> = out.result["seeds"].as_array().into_iter().flatten().map(|s| s["max_abs_err"].as_f64().map(|e| format!("{e:.1e}")).unwrap_or("-".into())).collect();
    if out.result["correct"] != true {
        bail!("{}", out.result["failure"]["message"].as_str().unwrap_or("reference differs from its recorded outputs"));
    }
    if let Some(e) = crate::eval::errors_against_pytorch(&truth) {
        return Ok(format!("{} (sampled, against PyTorch's)", e.iter().map(|e| format!("{e:.1e}")).collect::<Vec<_>>().join(" ")));
    }
    Ok(errs.join(" "))
}

async fn import(ctx: &Workspace, args: ImportArgs) -> Result<ExitCode> {
    let ImportArgs { path, id, level, domains, set, max_bytes, budget_ms, max_ops, fit, out } = args;
    use crate::tasks::import::{guess_domains, guess_level};
    use crate::tasks::import_batch::{self, BatchReport, Status};
    let mut overrides = BTreeMap::new();
    for s in &set {
        let (k, v) = s.split_once('=').with_context(|| format!("--set {s}: write NAME=VALUE"))?;
        overrides.insert(k.trim().to_string(), v.trim().to_string());
    }
    let is_dir = path.is_dir();
    let files: Vec<PathBuf> = if is_dir {
        let mut v: Vec<PathBuf> = std::fs::read_dir(&path)?.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|e| e == "py")).collect();
        v.sort();
        v
    } else {
        vec![path.clone()]
    };
    if files.is_empty() {
        bail!("no .py files in {}", path.display());
    }
    let engine = torch_engine(ctx, max_bytes).await?;
    // The machine's peaks drive the cost estimate; measured once per machine.
    let machine = match crate::roofline::Machine::cached(&ctx.paths) {
        Some(m) => Some(m),
        None => crate::roofline::Machine::measure(&engine, &ctx.paths).await.ok(),
    };
    let peaks = machine.and_then(|m| serde_json::to_value(m).ok());
    let reqs: Vec<ImportRequest> = files
        .iter()
        .map(|file| {
            let tid = if is_dir { id_from_path(file) } else { id.clone().unwrap_or_else(|| id_from_path(file)) };
            let level = level.or_else(|| guess_level(file)).unwrap_or(1);
            let domains = domains.clone().unwrap_or_else(|| guess_domains(&std::fs::read_to_string(file).unwrap_or_default(), None));
            // A model.py that already sits in a task directory (beside its
            // task.toml) is re-imported in place.
            let home = file.parent().filter(|d| file.file_name().is_some_and(|n| n == "model.py") && d.join("task.toml").exists());
            let dest = match (&out, is_dir, home) {
                (Some(o), false, _) => o.clone(),
                (Some(o), true, _) => o.join(&tid),
                (None, _, Some(d)) => d.to_path_buf(),
                (None, _, None) => ctx.tasks_dir.join(format!("l{level}")).join(&tid),
            };
            ImportRequest { model: file.clone(), dest, id: tid, level, domains, overrides: overrides.clone(), max_bytes, target: EvalOptions::default().target, fit, budget_ms, max_ops, peaks: peaks.clone(), grow: None }
        })
        .collect();
    let bar = indicatif::ProgressBar::new(reqs.len() as u64);
    bar.set_style(indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} {elapsed} {wide_msg}").unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()));
    if !is_dir {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let running = std::sync::Mutex::new(Vec::<String>::new());
    let on_event = |req: &ImportRequest, done: Option<&import_batch::Outcome>| {
        let mut r = running.lock().unwrap();
        match done {
            None => r.push(req.id.clone()),
            Some(o) => {
                r.retain(|x| x != &req.id);
                bar.inc(1);
                // A hidden bar (not a terminal, or one file) prints nothing itself.
                if bar.is_hidden() {
                    println!("{}", outcome_line(o));
                } else {
                    bar.println(outcome_line(o));
                }
            }
        }
        bar.set_message(r.join(", "));
    };
    let t = std::time::Instant::now();
    let outcomes = import_batch::import_all(&engine, &ctx.paths, &reqs, ctx.workers, &on_event).await;
    bar.finish_and_clear();
    let failed = outcomes.iter().filter(|o| matches!(o.status, Status::Refused | Status::Failed)).count();
    if is_dir {
        let suite = import_batch::suite_name(&std::fs::canonicalize(&path).unwrap_or(path.clone()));
        let report = BatchReport::new(&path, &suite, t.elapsed().as_secs_f64(), ctx.workers, outcomes);
        print!("{}", report.table());
        let root = out.clone().unwrap_or_else(|| ctx.tasks_dir.clone());
        let json_path = import_batch::write_report(&root, &report)?;
        println!("report: {}", json_path.display());
        let ids = report.task_ids();
        if !ids.is_empty() {
            let suites = import_batch::write_suite(&root, &suite, &ids)?;
            println!("suite `{suite}` ({} tasks) in {}: kwb bench --suite {suite}", ids.len(), suites.display());
        }
    }
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// The engine for imports, with PyTorch in it (or a message saying how to add it).
pub(crate) async fn torch_engine(ctx: &Workspace, max_bytes: u64) -> Result<crate::engine::Engine> {
    let engine = ctx.import_engine(max_bytes).await?;
    let probe = engine.run(crate::engine::Job::new("doctor", json!({}), std::time::Duration::from_secs(60))).await.map_err(|f| anyhow::anyhow!("{f}"))?;
    if probe.result["torch"].is_null() {
        bail!("PyTorch is not in the engine environment; run `kwb engine setup --with-torch` (about 6 GB), then import again");
    }
    Ok(engine)
}

pub(crate) fn outcome_line(o: &crate::tasks::import_batch::Outcome) -> String {
    use crate::tasks::import_batch::Status;
    match o.status {
        Status::Imported => {
            let errs: Vec<String> = o.max_abs_err.iter().map(|e| e.map(|x| format!("{x:.1e}")).unwrap_or("-".into())).collect();
            let fitted = if o.message.starts_with("fitted") { format!("; {}", o.message) } else { String::new() };
            format!("imported  {:<28} -> {}  (TVM vs PyTorch, max abs error per seed: {}; {:.0} s{fitted})", o.id, o.dest.display(), errs.join(" "), o.seconds)
        }
        Status::Skipped => format!("skipped   {:<28} {} ({})", o.id, o.message, o.dest.display()),
        Status::Refused => format!("refused   {:<28} {}", o.file.display(), o.message),
        Status::Failed => format!("failed    {:<28} {}", o.file.display(), o.message),
    }
}

/// An argument's init spec for a person: a recorded constant's bytes are
/// summarised, not printed.
fn init_summary(init: &Value) -> String {
    match init["kind"].as_str() {
        Some("values") => format!("values recorded in reference.json ({} encoded bytes)", init["data"].as_str().map_or(0, str::len)),
        _ => init.to_string(),
    }
}
