//! What the move tests share: edits, the engine's move lists, an evaluator
//! that times each node briefly.

use kwb::eval::EvalOptions;
use kwb::ir::Layer;
use kwb::session::runner::{EditBody, EditRequest};
use serde_json::{Value, json};
use std::time::Duration;

pub fn req(parent: u32, layer: Layer, kernel: Option<&str>, body: EditBody, why: &str) -> EditRequest {
    EditRequest { parent, layer, kernel: kernel.map(str::to_string), body, author: "test".into(), rationale: why.into() }
}

/// The engine's L1 moves for `kernel` in the L1 module `l1`.
pub async fn l1_moves_of(ev: &kwb::eval::Evaluator, l1: &str, kernel: &str) -> Value {
    ev.engine.run(kwb::engine::Job::new("l1_moves", json!({"l1_module": l1, "kernel": kernel, "target": ev.opts.target}), Duration::from_secs(120))).await.unwrap().result
}

/// An evaluator that times each node with 5 pairs in one round: enough to
/// tell a move that pays from one that does not, on a loaded machine.
pub async fn timed_evaluator() -> kwb::eval::Evaluator {
    super::evaluator(EvalOptions { pairs: 5, max_rounds: 1, max_ci: 0.25, ..super::quick_opts() }).await
}

pub fn trace_of(m: &Value) -> Vec<String> {
    m["trace"].as_array().unwrap().iter().map(|l| l.as_str().unwrap().to_string()).collect()
}

/// The kernel's first offered L1 move, which must be the row move.
pub async fn first_rows_move(ev: &kwb::eval::Evaluator, l1: &str, kernel: &str) -> Value {
    let out = l1_moves_of(&ev, &l1, &kernel).await;
    let first = out["moves"][0].clone();
    assert!(first["name"].as_str().unwrap_or("").starts_with("rows"), "the row move is not offered first: {out}");
    first
}

