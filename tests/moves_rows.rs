//! Softmax from the library op to the code: the L0 fast exp, the L1 row
//! schedule with several chains of partial sums, and the L2 edit that turns
//! its divisions into one reciprocal per row; and the same L2 edit on a
//! division by a constant (hardswish's / 6). Each step's effect on the IR,
//! and that the result stays correct.

mod common;

use common::moves::{first_rows_move, l1_moves_of, req, timed_evaluator, trace_of};
use kwb::ir::Layer;
use kwb::session::runner::{EditBody, SessionRunner};
use serde_json::json;
use std::time::Duration;

/// The L0 move replaces the libm `exp` per element by TVM's polynomial
/// approximation, which vectorizes; the row move then runs the max, the
/// exponentials and their sum one row at a time in vector lanes, each sum
/// in five vectors of partial sums (independent chains) that are summed
/// into one vector before the row's last sum, and the passes over the row
/// 16 lanes wide up to its last multiple of 16. The L2 move then lets the
/// code generator divide by the row's sum once and multiply.
/// Correct within the reference's tolerance on every seed; the fast exp
/// and the rows are faster than TVM's default build (8x on a quiet Zen 4
/// core; asserted at 3x). The chains, the wide passes and the reciprocal
/// together measured 78 -> 45 us on an Emerald Rapids core against the one-chain row
/// schedule (1.84x in this test beside a tuning run); asserted at 1.3x over that node, each node paired against the
/// same baseline. The L2 edit sits on an L1 trace node: its view has to come
/// from the text that the build compiles (it once came from the module as
/// scheduled in memory, whose metadata numbers differ, and the build of the
/// edit died).
#[tokio::test]
async fn a_softmax_takes_the_fast_exp_the_chained_rows_and_one_reciprocal_per_row() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("softmax").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("softmax.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();

    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let fast = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == "fast-math").unwrap_or_else(|| panic!("no fast-math move: {l0}"));
    let text = fast["text"].as_str().unwrap();
    assert!(!text.contains("R.nn.softmax("), "softmax is still the library op: {text}");
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(text.to_string()), "fast-math")).await.unwrap().expect("the fast-math move applies");
    let node = s.tree.get(n1).unwrap();
    assert!(node.result.as_ref().unwrap().correct, "{:?}", node.result.as_ref().unwrap().failure);
    let kernel = node.record.texts.l1.keys().find(|k| k.contains("softmax")).cloned().unwrap_or_else(|| panic!("no softmax kernel in {:?}", node.record.texts.l1.keys()));
    assert!(node.record.texts.l1[&kernel].contains("T_fast_exp"), "no fast exp block");

    // Rows of 1000 take 8 lanes; five chains of 8 leave each 25 steps. The
    // passes over the row run 16 lanes up to 992, then 8.
    let chained = first_rows_move(&ev, &node.record.texts.l1_module.clone(), &kernel).await;
    assert_eq!(chained["name"], "rows8-chains-wide16", "{chained}");
    let out = l1_moves_of(&ev, &node.record.texts.l1_module, &kernel).await;
    let single = out["moves"].as_array().unwrap().iter().find(|m| m["name"] == "rows8").unwrap_or_else(|| panic!("no one-chain sibling: {out}")).clone();

    let n2 = s.edit(req(n1, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(&single)), "rows8")).await.unwrap().expect("the row move applies");
    let node = s.tree.get(n2).unwrap();
    assert!(node.record.texts.l1[&kernel].contains("T_softmax_maxelem_rf"), "the max is not split into lanes");
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let one_chain = r.speedup_median.expect("timed");
    assert!(one_chain > 3.0, "fast exp and the row schedule are only {one_chain:.2}x TVM's default build");

    let n3 = s.edit(req(n1, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(&chained)), "rows8-chains-wide16")).await.unwrap().expect("the chained row move applies");
    let node = s.tree.get(n3).unwrap();
    let tir = &node.record.texts.l1[&kernel];
    let (chains, one_vector) = ("T_softmax_expsum_rf = T.sblock_alloc_buffer((T.int64(128), T.int64(40)))", "T_softmax_expsum_rf_1 = T.sblock_alloc_buffer((T.int64(128), T.int64(8)))");
    assert!(tir.contains("T.unroll(T.int64(5))") && tir.contains(chains) && tir.contains(one_vector), "no five unrolled chains of 8 summed into one vector: {tir}");
    assert!(tir.matches("T.vectorized(T.int64(16))").count() == 2 && tir.matches("T.vectorized(T.int64(992), T.int64(1000))").count() == 2, "the exponentials and the normalization are not 16 lanes up to 992: {tir}");
    assert!(node.result.as_ref().is_some_and(|r| r.correct), "{:?}", node.result);

    // The row's 16-lane divisions (one unrolled vector loop) share the sum;
    // the 8-lane tail's one division is left as it is.
    let ll = node.record.texts.l2[&kernel].clone();
    let l2 = ev.engine.run(kwb::engine::Job::new("l2_moves", json!({"text": ll}), Duration::from_secs(60))).await.unwrap().result;
    let recip = l2["moves"].as_array().unwrap().iter().find(|m| m["name"] == "reciprocal-divide").unwrap_or_else(|| panic!("no reciprocal move: {l2}"));
    let edited = recip["text"].as_str().unwrap();
    assert!(edited.matches("fdiv arcp <16 x float>").count() >= 2 && !edited.contains("fdiv <16 x float>"), "not every shared division allows a reciprocal: {edited}");
    let n4 = s.edit(req(n3, Layer::L2, Some(&kernel), EditBody::Text(edited.to_string()), "reciprocal-divide")).await.unwrap().expect("the L2 move applies");
    let node = s.tree.get(n4).unwrap();
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let both = r.speedup_median.expect("timed");
    eprintln!("speedups: one chain {one_chain:.3}, chains, wide passes and reciprocal {both:.3}");
    assert!(both > 1.3 * one_chain, "chains, wide passes and one reciprocal per row: {both:.2}x TVM's build, against {one_chain:.2}x for one chain");

    // A lone division gets no such move: its reciprocal would cost as much.
    let one_chain_ll = &s.tree.get(n2).unwrap().record.texts.l2[&kernel];
    let first = one_chain_ll.find("fdiv").expect("the one-chain node divides");
    let lone = format!("{}{}", &one_chain_ll[..first + 4], one_chain_ll[first + 4..].replace("fdiv", "fmul"));
    let none = ev.engine.run(kwb::engine::Job::new("l2_moves", json!({"text": lone}), Duration::from_secs(60))).await.unwrap().result;
    assert!(none["moves"].as_array().unwrap().is_empty(), "{none}");
}

/// Hardswish divides every element by 6. After its chain is inlined into
/// one 16-lane loop, the L2 move lets the code generator multiply by the
/// reciprocal instead: 11.2 -> 5.9 us on an Emerald Rapids core with the
/// inputs in cache, but only 1.06x in this test's timing, whose rotated
/// inputs make the loop wait on memory. So the test asserts the edit and
/// its correctness, and only that it is not clearly slower than its
/// parent: the two are timed one after the other, and on a busy CI
/// machine (two tests at once) the pair measured 0.85 of each other with
/// nothing changed but the reciprocal. What this guards against, code
/// that lost its vectors in the splice, is several times slower.
#[tokio::test]
async fn a_division_by_a_constant_becomes_a_multiply_and_stays_correct() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("hardswish").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("hardswish.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let kernel = root.l1.keys().find(|k| k.contains("divide")).cloned().unwrap_or_else(|| panic!("no divide kernel in {:?}", root.l1.keys()));
    let out = l1_moves_of(&ev, &root.l1_module, &kernel).await;
    let chain = out["moves"].as_array().unwrap().iter().find(|m| m["name"] == "inline-vec16").unwrap_or_else(|| panic!("no inline-vec16: {out}")).clone();
    let n1 = s.edit(req(0, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(&chain)), "inline-vec16")).await.unwrap().expect("the chain move applies");
    let node = s.tree.get(n1).unwrap();
    let l1_speedup = node.result.as_ref().and_then(|r| r.speedup_median).expect("timed");
    let ll = node.record.texts.l2[&kernel].clone();
    assert!(ll.contains("fdiv <16 x float>") && ll.contains("splat (float 6.000000e+00)"), "no 16-lane division by 6: {ll}");

    let l2 = ev.engine.run(kwb::engine::Job::new("l2_moves", json!({"text": ll}), Duration::from_secs(60))).await.unwrap().result;
    let recip = l2["moves"].as_array().unwrap().iter().find(|m| m["name"] == "reciprocal-divide").unwrap_or_else(|| panic!("no reciprocal move: {l2}"));
    let edited = recip["text"].as_str().unwrap();
    assert!(edited.contains("fdiv arcp <16 x float>") && !edited.contains("fdiv <16 x float>"), "a division by 6 is left exact: {edited}");
    let n2 = s.edit(req(n1, Layer::L2, Some(&kernel), EditBody::Text(edited.to_string()), "reciprocal-divide")).await.unwrap().expect("the L2 move applies");
    let r = s.tree.get(n2).unwrap().result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let l2_speedup = r.speedup_median.expect("timed");
    eprintln!("speedups: inline-vec16 {l1_speedup:.3}, with the reciprocal {l2_speedup:.3}");
    assert!(l2_speedup > 0.7 * l1_speedup, "the multiply by 1/6: {l2_speedup:.2}x TVM's build, against {l1_speedup:.2}x for the division");
}

/// A global average pool's rows of 14 x 14 = 196 elements: no vector of 8,
/// 16 or 32 lanes divides them, and until the narrow lanes no row move was
/// offered (the register tiles gathered across channels: 0.71x PyTorch
/// eager). Four lanes of partial sums divide any row whose length is a
/// multiple of 4; each lane reads every fourth element of the contiguous
/// row. Correct, and faster than TVM's default build (4.5x in this test on
/// one Emerald Rapids core, 7.1x with inputs in cache; asserted at 2.5x).
#[tokio::test]
async fn a_mean_over_rows_no_wide_vector_divides_takes_four_lanes_of_partial_sums() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("global_avg_pool").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("global_avg_pool.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let kernel = root.l1.keys().find(|k| k.contains("mean")).cloned().unwrap_or_else(|| panic!("no mean kernel in {:?}", root.l1.keys()));
    let first = first_rows_move(&ev, &root.l1_module, &kernel).await;
    assert_eq!(first["name"], "rows4", "{first}");
    let n1 = s.edit(req(0, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(&first)), "rows4")).await.unwrap().expect("the row move applies");
    let node = s.tree.get(n1).unwrap();
    let tir = &node.record.texts.l1[&kernel];
    assert!(tir.contains("x_red_rf = T.sblock_alloc_buffer((T.int64(1), T.int64(256), T.int64(4)))") && tir.contains("T.vectorized(T.int64(4))"), "no four vector lanes of partial sums per row: {tir}");
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    eprintln!("rows4 on global_avg_pool: {speedup:.2}x TVM's default build");
    assert!(speedup > 2.5, "four lanes of partial sums are only {speedup:.2}x TVM's default build");
}
