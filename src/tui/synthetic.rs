//! A synthetic session of any size, with a large diff at its first edit: what
//! the frame-timing benchmark loads, and what tests extend a live session with.

use crate::eval::EvalResult;
use crate::ir::{Layer, LayerTexts};
use crate::session::{Event, EventKind, Header, NodeRecord};
use std::path::Path;

/// A result as the engine would report it, for synthesised sessions.
pub fn result(task: &str, speedup: Option<f64>, correct: bool) -> EvalResult {
    let failure_class = if correct { serde_json::Value::Null } else { serde_json::json!("numeric_mismatch") };
    serde_json::from_value(serde_json::json!({
        "task": task, "candidate_sha256": "0", "compile_ok": true, "correct": correct, "seeds": [], "max_errors": [],
        "failure_class": failure_class, "failure": null, "candidate_ms": speedup.map(|s| 1.0 / s), "baseline_ms": 1.0,
        "speedup_median": speedup, "timing_valid": speedup.is_some(), "spread": 0.01, "ci": 0.01, "samples": 10, "sample_list": [],
        "timing_rounds": 1, "compile_s": 0.5, "peak_memory_bytes": 1048576, "roofline_share": 0.25, "wall_s": 1.0,
        "engine_overhead_s": 0.1, "stages": [],
        "manifest": {"kwb_version": "0", "protocol": 1, "versions": {}, "target": {}, "device": "local-cpu", "baseline": "default",
                     "task_hash": "0", "config_hash": "0", "config": {}, "created_unix_s": 0}
    }))
    .expect("a synthesised result matches EvalResult")
}

/// A session with `nodes` nodes (a bushy tree, four children each) whose
/// node 1 changes every fourth line of a `diff_lines`-line L0 text at the root.
pub fn synth_session(task: &str, nodes: u32, diff_lines: usize) -> (Header, Vec<Event>) {
    let header = Header { kwb_session: crate::session::SCHEMA_VERSION, id: "synthetic".into(), task: task.into(), created_unix_ms: 0, manifest: serde_json::json!({}) };
    let big: String = (0..diff_lines).map(|i| format!("    lv{i}: R.Tensor((1, 64), dtype=\"float32\") = R.nn.relu(lv{})\n", i.saturating_sub(1))).collect();
    let changed: String = big.lines().enumerate().map(|(i, l)| if i % 4 == 1 { format!("{}  # fused\n", l.replace("relu", "gelu")) } else { format!("{l}\n") }).collect();
    let small = |i: u32| {
        let mut t = LayerTexts { l0: format!("# node {i}\n"), l1_module: String::new(), ..Default::default() };
        t.l1.insert("main".into(), format!("for i in T.serial({}):\n    pass\n", 64 + i));
        t
    };
    let mut events = vec![];
    let mut seq = 0;
    let mut push = |kind: EventKind, events: &mut Vec<Event>| {
        seq += 1;
        events.push(Event { seq, ts_ms: seq * 100, kind });
    };
    for i in 0..nodes {
        let mut texts = small(i);
        if i == 0 {
            texts.l0 = big.clone();
        } else if i == 1 {
            texts.l0 = changed.clone();
        }
        let parent = if i == 0 { None } else { Some((i - 1) / 4) };
        let layer = if i == 1 { Layer::L0 } else { [Layer::L0, Layer::L1, Layer::L2][i as usize % 3] };
        let node = NodeRecord { id: i, parent, layer, kernel: (layer != Layer::L0).then(|| "main".into()), author: "l1-builtin".into(), rationale: format!("candidate {i}"), trace: None, texts };
        push(EventKind::Edit { node }, &mut events);
        let speedup = (i % 7 != 3).then(|| 0.8 + (i % 97) as f64 / 60.0);
        push(EventKind::EvalFinished { node: i, result: Box::new(result(task, speedup, speedup.is_some())), cost: Default::default() }, &mut events);
    }
    (header, events)
}

/// Writes a session as a JSONL log.
pub fn write_session(path: &Path, header: &Header, events: &[Event]) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(f, "{}", serde_json::to_string(header)?)?;
    for e in events {
        writeln!(f, "{}", serde_json::to_string(e)?)?;
    }
    f.flush()
}
