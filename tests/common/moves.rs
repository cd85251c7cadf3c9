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


/// The least of alternated profiles of `kernel` in the L1 modules `a` and
/// `b`, in ms: three rounds, and up to eight while `holds(a_ms, b_ms)` is
/// not met. A busy machine slows one profile, rarely all of them; the
/// least of each side only falls toward its time with more rounds, and
/// both sides get the same number of them.
pub async fn least_alternated_ms(ev: &kwb::eval::Evaluator, task: &kwb::tasks::Task, kernel: &str, a: &str, b: &str, holds: impl Fn(f64, f64) -> bool) -> (f64, f64) {
    let args_spec = task.reference_meta().unwrap().args.clone();
    let ms = |l1: &str| {
        let args = json!({"l1_module": l1, "target": ev.opts.target, "args_spec": args_spec});
        async move {
            let p = ev.engine.run(kwb::engine::Job::new("profile", args, Duration::from_secs(300)).exclusive()).await.unwrap().result;
            p["kernels"].as_array().unwrap().iter().find(|k| k["name"] == kernel).and_then(|k| k["ms"].as_f64()).unwrap_or_else(|| panic!("no {kernel} in the profile: {p}"))
        }
    };
    let (mut least_a, mut least_b) = (f64::INFINITY, f64::INFINITY);
    for round in 0..8 {
        least_a = least_a.min(ms(a).await);
        least_b = least_b.min(ms(b).await);
        if round >= 2 && holds(least_a, least_b) {
            break;
        }
    }
    (least_a, least_b)
}
