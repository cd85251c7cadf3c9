//! `kwb session` and `kwb diff`: sessions driven and read from the shell.

use crate::workspace::Workspace;
use crate::diff;
use crate::eval::EvalOptions;
use crate::ir::Layer;
use crate::session::runner::{EditBody, EditRequest, SessionRunner};
use crate::session::{CandidateTree, EventKind, load};
use anyhow::{Context, Result, bail};
use clap::{Args, Subcommand};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand, Debug)]
pub enum SessionCmd {
    /// Start a session on a task; its root node is the task's reference, evaluated.
    New {
        #[arg(long)]
        task: String,
        /// Where to write the log (default: <data>/sessions/<task>-<time>.jsonl).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Apply an edit at one layer to a node; the new node is evaluated and logged.
    Edit {
        session: String,
        #[arg(long)]
        node: u32,
        #[arg(long, value_parser = parse_layer)]
        layer: Layer,
        /// The kernel an L1 or L2 edit applies to.
        #[arg(long)]
        kernel: Option<String>,
        /// The new text (or, with --trace, schedule primitives, one per line).
        #[arg(long)]
        file: PathBuf,
        #[arg(long)]
        trace: bool,
        #[arg(long, default_value = "human")]
        author: String,
        #[arg(long, default_value = "")]
        rationale: String,
    },
    /// Print one node's text at one layer (L1/L2: one kernel; L1 without --kernel: the whole module).
    View {
        session: String,
        #[arg(long)]
        node: u32,
        #[arg(long, value_parser = parse_layer)]
        layer: Layer,
        #[arg(long)]
        kernel: Option<String>,
    },
    /// The tree with every node's result.
    Show {
        session: String,
        #[arg(long)]
        json: bool,
    },
    /// Print the session's timeline.
    Replay {
        session: String,
        /// Without the TUI: print events as they happened.
        #[arg(long)]
        headless: bool,
    },
    /// The best (or a chosen) node as a TVMScript file that `kwb eval` accepts.
    Export {
        session: String,
        #[arg(long)]
        node: Option<u32>,
        #[arg(long, short)]
        out: Option<PathBuf>,
    },
    /// Pin a node (kept in view, never pruned by agents), or unpin it.
    Pin {
        session: String,
        node: u32,
        #[arg(long)]
        off: bool,
    },
    /// Mark a node with a label (e.g. to diff two marked nodes later).
    Mark {
        session: String,
        node: u32,
        #[arg(default_value = "marked")]
        label: String,
    },
    /// Compare two nodes: results side by side and what changed at each layer.
    Compare { session: String, node_a: u32, node_b: u32 },
    /// Copy a session's events into a new log (to branch a recording), optionally only up to an event.
    Fork {
        session: String,
        #[arg(long)]
        out: PathBuf,
        /// Copy events up to and including this sequence number.
        #[arg(long)]
        upto: Option<u64>,
        /// Print each event's sequence number once it is written.
        #[arg(long)]
        progress: bool,
    },
    /// Rewrite a log in the current schema (each layer text stored once), events numbered and timed as they were.
    Convert {
        session: String,
        #[arg(long)]
        out: PathBuf,
    },
    /// Measure loading a large log and diffing large texts.
    Bench {
        #[arg(long, default_value_t = 100_000)]
        events: usize,
        #[arg(long, default_value_t = 5_000)]
        lines: usize,
    },
}

#[derive(Args, Debug)]
pub struct DiffArgs {
    pub session: String,
    pub node_a: u32,
    pub node_b: u32,
    #[arg(long, value_parser = parse_layer, default_value = "L1")]
    pub layer: Layer,
    /// One kernel (L1, L2); default: every kernel (L1 shows the whole module).
    #[arg(long)]
    pub kernel: Option<String>,
    #[arg(long)]
    pub side_by_side: bool,
    #[arg(long, default_value_t = 3)]
    pub context: usize,
}

fn parse_layer(s: &str) -> Result<Layer, String> {
    Layer::parse(s).ok_or_else(|| format!("`{s}` is not a layer: use L0, L1 or L2"))
}

pub fn session_path(ctx: &Workspace, s: &str) -> PathBuf {
    let p = PathBuf::from(s);
    if p.exists() || s.contains('/') || s.ends_with(".jsonl") {
        return p;
    }
    ctx.paths.data.join("sessions").join(format!("{s}.jsonl"))
}

fn load_tree(path: &Path) -> Result<(crate::session::Loaded, CandidateTree)> {
    let loaded = load(path)?;
    for w in &loaded.warnings {
        eprintln!("warning: {}: {w}", path.display());
    }
    let tree = CandidateTree::from_events(&loaded.events);
    Ok((loaded, tree))
}

pub async fn run(ctx: &Workspace, cmd: SessionCmd) -> Result<ExitCode> {
    match cmd {
        SessionCmd::New { task, out } => {
            let set = ctx.tasks()?;
            let t = set.get(&task)?;
            let path = out.unwrap_or_else(|| {
                let stamp = crate::session::log::now_ms();
                ctx.paths.data.join("sessions").join(format!("{task}-{stamp}.jsonl"))
            });
            let ev = ctx.evaluator(EvalOptions::default()).await?;
            let mut runner = SessionRunner::create(&path, t, &ev).await?;
            runner.evaluate(0, std::time::Instant::now()).await?;
            println!("{}", path.display());
            print!("{}", runner.tree.render());
            Ok(ExitCode::SUCCESS)
        }
        SessionCmd::Edit { session, node, layer, kernel, file, trace, author, rationale } => {
            let path = session_path(ctx, &session);
            let text = std::fs::read_to_string(&file).with_context(|| format!("cannot read {}", file.display()))?;
            let header = load(&path)?.header;
            let set = ctx.tasks()?;
            let t = set.get(&header.task)?;
            let ev = ctx.evaluator(EvalOptions::default()).await?;
            let mut runner = SessionRunner::resume(&path, t, &ev)?;
            let body = if trace { EditBody::Trace(text.lines().map(str::to_string).collect()) } else { EditBody::Text(text) };
            let outcome = runner.edit(EditRequest { parent: node, layer, kernel, body, author, rationale }).await?;
            match outcome {
                Ok(id) => {
                    let n = runner.tree.get(id).unwrap();
                    let r = n.result.as_ref().unwrap();
                    print!("node {id}: {}", super::eval_cmd::summary(r, &format!("{} edit of node {node}", layer)));
                    Ok(ExitCode::SUCCESS)
                }
                Err(f) => {
                    println!("refused before any build: {f}");
                    Ok(ExitCode::from(3))
                }
            }
        }
        SessionCmd::View { session, node, layer, kernel } => {
            let (_, tree) = load_tree(&session_path(ctx, &session))?;
            let n = tree.get(node).with_context(|| format!("no node {node}"))?;
            let kernel = kernel.or_else(|| (layer == Layer::L2).then(|| n.record.texts.kernels().first().map(|k| k.to_string())).flatten());
            let text = n.record.texts.text(layer, kernel.as_deref()).with_context(|| {
                format!("node {node} has no {layer} text{}; kernels: {}", kernel.as_deref().map(|k| format!(" for `{k}`")).unwrap_or_default(), n.record.texts.kernels().join(", "))
            })?;
            print!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        SessionCmd::Show { session, json } => {
            let (loaded, tree) = load_tree(&session_path(ctx, &session))?;
            if json {
                println!("{}", serde_json::to_string_pretty(&serde_json::json!({"header": loaded.header, "tree": tree}))?);
            } else {
                println!("session {} on task {}", loaded.header.id, loaded.header.task);
                print!("{}", tree.render());
                for r in &tree.refusals {
                    println!("refused edit of #{} by {}: {}", r.parent, r.author, r.failure);
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        SessionCmd::Replay { session, headless } => {
            if !headless {
                bail!("the interactive replay needs the TUI; use --headless for the timeline");
            }
            let (loaded, _) = load_tree(&session_path(ctx, &session))?;
            let t0 = loaded.header.created_unix_ms;
            let mut tree = CandidateTree::default();
            for e in &loaded.events {
                tree.apply(e);
                let at = (e.ts_ms.saturating_sub(t0)) as f64 / 1000.0;
                println!("{at:>9.2}s  #{:<5} {}", e.seq, describe(&e.kind));
            }
            if let Some(b) = tree.best() {
                println!("best: node {} at {:.3}x", b.id(), b.valid_speedup().unwrap_or(0.0));
            }
            Ok(ExitCode::SUCCESS)
        }
        SessionCmd::Export { session, node, out } => {
            let (_, tree) = load_tree(&session_path(ctx, &session))?;
            let n = match node {
                Some(id) => tree.get(id).with_context(|| format!("no node {id}"))?,
                None => tree.best().context("no node is correct with a valid timing yet; name one with --node")?,
            };
            let texts = &n.record.texts;
            let mut text = texts.l1_module.clone();
            if !texts.l2_overrides.is_empty() {
                eprintln!("note: node {} replaces the generated code of {} by hand; TVMScript cannot carry that, so the export is its L1 module", n.id(), texts.l2_overrides.keys().cloned().collect::<Vec<_>>().join(", "));
            }
            if !text.ends_with('\n') {
                text.push('\n');
            }
            match out {
                Some(p) => {
                    std::fs::write(&p, &text)?;
                    for (k, ll) in &texts.l2_overrides {
                        std::fs::write(p.with_extension(format!("{k}.ll")), ll)?;
                    }
                    eprintln!("wrote node {} to {}", n.id(), p.display());
                }
                None => print!("{text}"),
            }
            Ok(ExitCode::SUCCESS)
        }
        SessionCmd::Pin { session, node, off } => human_action(ctx, &session, if off { "unpin" } else { "pin" }, node, serde_json::Value::Null),
        SessionCmd::Mark { session, node, label } => human_action(ctx, &session, "mark", node, serde_json::Value::String(label)),
        SessionCmd::Compare { session, node_a, node_b } => compare(ctx, &session, node_a, node_b),
        SessionCmd::Fork { session, out, upto, progress } => super::session_copy::fork(&session_path(ctx, &session), &out, upto, progress),
        SessionCmd::Convert { session, out } => super::session_copy::convert(&session_path(ctx, &session), &out),
        SessionCmd::Bench { events, lines } => super::log_timings::run(events, lines),
    }
}

fn human_action(ctx: &Workspace, session: &str, action: &str, node: u32, detail: serde_json::Value) -> Result<ExitCode> {
    let path = session_path(ctx, session);
    let (mut log, loaded) = crate::session::SessionLog::open(&path)?;
    let tree = CandidateTree::from_events(&loaded.events);
    if tree.get(node).is_none() {
        bail!("no node {node} in {}", path.display());
    }
    log.append(EventKind::HumanAction { action: action.into(), node: Some(node), detail })?;
    println!("{action} #{node}");
    Ok(ExitCode::SUCCESS)
}

fn compare(ctx: &Workspace, session: &str, a: u32, b: u32) -> Result<ExitCode> {
    let (_, tree) = load_tree(&session_path(ctx, session))?;
    let na = tree.get(a).with_context(|| format!("no node {a}"))?;
    let nb = tree.get(b).with_context(|| format!("no node {b}"))?;
    let line = |n: &crate::session::Node| -> String {
        match &n.result {
            None => "not evaluated".into(),
            Some(r) => match (&r.failure, r.speedup_median, r.candidate_ms) {
                (Some(f), _, _) => format!("failed [{}]", f.class),
                (None, Some(x), Some(ms)) => format!("{ms:.4} ms, {x:.3}x{}", if r.timing_valid { "" } else { " (timing invalid)" }),
                _ => "correct".into(),
            },
        }
    };
    println!("#{a} ({} by {}): {}", na.record.layer, na.record.author, line(na));
    println!("#{b} ({} by {}): {}", nb.record.layer, nb.record.author, line(nb));
    if let (Some(x), Some(y)) = (na.valid_speedup(), nb.valid_speedup()) {
        println!("#{b} is {:.3}x the speed of #{a}", y / x);
    }
    for layer in [Layer::L0, Layer::L1] {
        let d = diff::diff(na.record.texts.text(layer, None).unwrap_or(""), nb.record.texts.text(layer, None).unwrap_or(""), 0);
        println!("{layer}: {}", if d.is_empty() { "same".to_string() } else { format!("+{} -{} lines", d.inserted, d.deleted) });
    }
    let mut kernels: Vec<&String> = na.record.texts.l2.keys().chain(nb.record.texts.l2.keys()).collect();
    kernels.sort();
    kernels.dedup();
    for k in kernels {
        let d = diff::diff(na.record.texts.text(Layer::L2, Some(k)).unwrap_or(""), nb.record.texts.text(Layer::L2, Some(k)).unwrap_or(""), 0);
        if !d.is_empty() {
            println!("L2 {k}: +{} -{} lines", d.inserted, d.deleted);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn describe(k: &EventKind) -> String {
    match k {
        EventKind::Proposal { author, parent, layer, kernel, rationale } => format!("proposal  {author} -> {layer}{} on #{parent}: {rationale}", kernel.as_deref().map(|k| format!("[{k}]")).unwrap_or_default()),
        EventKind::Edit { node } => format!("node      #{} ({} by {}) from {}", node.id, node.layer, node.author, node.parent.map(|p| format!("#{p}")).unwrap_or_else(|| "the task".into())),
        EventKind::Refused { parent, failure, .. } => format!("refused   edit of #{parent}: {failure}"),
        EventKind::EvalStarted { node } => format!("eval      #{node} started"),
        EventKind::EvalFinished { node, result, .. } => match (&result.failure, result.speedup_median) {
            (Some(f), _) => format!("eval      #{node} failed [{}]", f.class),
            (None, Some(x)) => format!("eval      #{node} correct, {x:.3}x{}", if result.timing_valid { "" } else { " (timing invalid)" }),
            _ => format!("eval      #{node} done"),
        },
        EventKind::Profile { node, .. } => format!("profile   #{node}"),
        EventKind::HumanAction { action, node, .. } => format!("human     {action}{}", node.map(|n| format!(" #{n}")).unwrap_or_default()),
        EventKind::Note { text, .. } => format!("note      {text}"),
    }
}

pub fn diff_cmd(ctx: &Workspace, a: DiffArgs) -> Result<ExitCode> {
    let (_, tree) = load_tree(&session_path(ctx, &a.session))?;
    let na = tree.get(a.node_a).with_context(|| format!("no node {}", a.node_a))?;
    let nb = tree.get(a.node_b).with_context(|| format!("no node {}", a.node_b))?;
    let color = std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let kernels: Vec<Option<String>> = match (&a.kernel, a.layer) {
        (Some(k), _) => vec![Some(k.clone())],
        (None, Layer::L0) | (None, Layer::L1) => vec![None],
        (None, Layer::L2) => {
            let mut ks: Vec<String> = na.record.texts.l2.keys().chain(nb.record.texts.l2.keys()).cloned().collect();
            ks.sort();
            ks.dedup();
            ks.into_iter().map(Some).collect()
        }
    };
    let mut any = false;
    for k in kernels {
        let ta = na.record.texts.text(a.layer, k.as_deref()).unwrap_or("");
        let tb = nb.record.texts.text(a.layer, k.as_deref()).unwrap_or("");
        let d = diff::diff(ta, tb, a.context);
        if d.is_empty() {
            continue;
        }
        any = true;
        let label = |n: u32| format!("#{n} {}{}", a.layer, k.as_deref().map(|k| format!(" {k}")).unwrap_or_default());
        if a.side_by_side {
            println!("#{} | #{} {}", a.node_a, a.node_b, k.as_deref().unwrap_or(""));
            let width = crossterm_width();
            print!("{}", d.side_by_side_text(width));
        } else {
            print!("{}", d.unified(&label(a.node_a), &label(a.node_b), color));
        }
    }
    if !any {
        println!("no differences at {}", a.layer);
    }
    Ok(ExitCode::SUCCESS)
}

fn crossterm_width() -> usize {
    std::env::var("COLUMNS").ok().and_then(|c| c.parse().ok()).unwrap_or(160)
}
