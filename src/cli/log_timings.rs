//! `kwb session bench`: the figures the session layer promises.

use crate::diff;
use crate::eval::EvalResult;
use crate::ir::{Layer, LayerTexts};
use crate::session::{CandidateTree, EventKind, Header, NodeRecord, SessionLog, load};
use anyhow::Result;
use std::process::ExitCode;
use std::time::Instant;

pub fn run(events: usize, lines: usize) -> Result<ExitCode> {
    let dir = tempfile_dir()?;
    let path = dir.join("bench.jsonl");
    let header = Header { kwb_session: crate::session::SCHEMA_VERSION, id: "bench".into(), task: "bench".into(), created_unix_ms: 0, manifest: serde_json::Value::Null };
    let mut log = SessionLog::create(&path, &header)?;
    // A mix like a long agent run: a node and its evaluation every 10 events,
    // the rest proposals, notes and human actions.
    let result: EvalResult = serde_json::from_str(include_str!("../../tests/fixtures/eval_result.json"))?;
    let texts = LayerTexts { l0: "R.function ...\n".repeat(20), l1_module: "T.prim_func ...\n".repeat(60), ..Default::default() };
    let mut node = 0u32;
    let t = Instant::now();
    for i in 0..events {
        let kind = match i % 10 {
            0 => {
                let rec = NodeRecord { id: node, parent: node.checked_sub(1), layer: Layer::L1, kernel: Some("k".into()), author: "bench".into(), rationale: "tile".into(), trace: None, texts: texts.clone() };
                node += 1;
                EventKind::Edit { node: rec }
            }
            1 => EventKind::EvalStarted { node: node - 1 },
            2 => EventKind::EvalFinished { node: node - 1, result: Box::new(result.clone()), cost: Default::default() },
            3 => EventKind::HumanAction { action: "accept".into(), node: Some(node - 1), detail: serde_json::Value::Null },
            _ => EventKind::Note { text: format!("step {i}"), node: None },
        };
        log.append(kind)?;
    }
    let write_s = t.elapsed().as_secs_f64();
    let size = std::fs::metadata(&path)?.len();
    let t = Instant::now();
    let loaded = load(&path)?;
    let tree = CandidateTree::from_events(&loaded.events);
    let load_s = t.elapsed().as_secs_f64();
    println!("session log: {} events, {:.1} MiB, written in {:.2} s", loaded.events.len(), size as f64 / 1048576.0, write_s);
    println!("load + replay into a tree of {} nodes: {:.3} s (target <= 1 s): {}", tree.nodes.len(), load_s, if load_s <= 1.0 { "PASS" } else { "FAIL" });

    // Two L1 texts of `lines` lines that differ in a few hundred scattered lines.
    let a: String = (0..lines).map(|i| format!("    for i{i} in T.serial(T.int64({})):  # loop {i}\n", i % 97 + 1)).collect();
    let b: String = (0..lines).map(|i| if i % 23 == 0 { format!("    for i{i} in T.parallel(T.int64({})):  # loop {i} split\n", i % 97 + 1) } else { format!("    for i{i} in T.serial(T.int64({})):  # loop {i}\n", i % 97 + 1) }).collect();
    let mut times = Vec::new();
    let mut changed = 0;
    for _ in 0..5 {
        let t = Instant::now();
        let d = diff::diff(&a, &b, 3);
        let rows = d.side_by_side();
        times.push(t.elapsed().as_secs_f64() * 1e3);
        changed = d.inserted;
        std::hint::black_box(rows);
    }
    times.sort_by(|x, y| x.total_cmp(y));
    let med = times[times.len() / 2];
    println!("diff of two {lines}-line L1 texts ({changed} lines changed, word level, side by side): median {med:.1} ms of 5 (target <= 50 ms): {}", if med <= 50.0 { "PASS" } else { "FAIL" });
    let _ = std::fs::remove_dir_all(&dir);
    Ok(ExitCode::SUCCESS)
}

fn tempfile_dir() -> Result<std::path::PathBuf> {
    let d = std::env::temp_dir().join(format!("kwb-session-bench-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d)?;
    Ok(d)
}
