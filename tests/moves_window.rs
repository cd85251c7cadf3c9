//! Sliding windows (poolings, depthwise convolutions): each window move's
//! effect on the IR, and that the result stays correct.

mod common;

use common::moves::{l1_moves_of, req, timed_evaluator, trace_of};
use kwb::ir::Layer;
use kwb::session::runner::{EditBody, SessionRunner};

/// A pooling's window, offered before the register tiles (which measured
/// 0.6x TVM's build here). First each output's window reduced in a
/// register with the padding read in place: 2.2x TVM's build on an Emerald
/// Rapids core, at parity with MetaSchedule's pooling; asserted at 1.5x.
/// Then the row move: the taps outside the output row's last axis and
/// unrolled, the sums in a local row, the padded copy per channel.
#[tokio::test]
async fn a_pooling_window_is_reduced_in_a_register_per_output() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("avg_pool").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("pool.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let kernel = root.l1.keys().next().unwrap().clone();
    let out = l1_moves_of(&ev, &root.l1_module, &kernel).await;
    let (m, row) = (&out["moves"][0], &out["moves"][1]);
    assert_eq!((m["name"].as_str(), row["name"].as_str()), (Some("window-output"), Some("window-row")), "{out}");
    let n1 = s.edit(req(0, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(m)), "window-output")).await.unwrap().expect("the window move applies");
    let node = s.tree.get(n1).unwrap();
    let tir = &node.record.texts.l1[&kernel];
    assert!(!tir.contains("sblock(\"pad_temp\")") && tir.contains("pool_sum_local"), "the padding is still a copy, or no register sum: {tir}");
    assert!(tir.matches("T.unroll(").count() == 2, "the 3x3 taps are not unrolled: {tir}");
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 1.5, "the per-output window is only {speedup:.2}x TVM's build");

    let n2 = s.edit(req(0, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(row)), "window-row")).await.unwrap().expect("the row move applies");
    let node = s.tree.get(n2).unwrap();
    let tir = &node.record.texts.l1[&kernel];
    assert!(tir.contains("pool_sum_local") && tir.matches("T.vectorized(").count() >= 3, "no vectorized local row of sums: {tir}");
    assert!(node.result.as_ref().is_some_and(|r| r.correct), "{:?}", node.result);
}

/// A depthwise convolution (64 x 56 x 56, 3 x 3): the vector move is
/// offered first, ahead of the register tiles and the pooling moves, which
/// all lose to TVM's build here (0.6x to 0.9x). A tile of output rows at a
/// time, each row's outputs in vectors of the ISA's lanes with the taps
/// outside the vector and unrolled; a row of 56 that 16 lanes do not divide
/// runs three vectors of 16 and one of 8. Correct, and faster than TVM's
/// build: 1.95x on an Emerald Rapids core with inputs in cache, 1.48x to
/// 1.50x on a quiet Zen 4 core and 1.19x to 1.22x there beside a tuning
/// and the rest of the tests; asserted at 1.15x.
#[tokio::test]
async fn a_depthwise_convolution_is_computed_in_vectors_of_outputs_with_its_taps_unrolled() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("depthwise_conv2d").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("dw.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let kernel = root.l1.keys().next().unwrap().clone();
    let out = l1_moves_of(&ev, &root.l1_module, &kernel).await;
    let first = &out["moves"][0];
    let name = first["name"].as_str().unwrap_or("");
    let lanes: usize = name.strip_prefix("window-vec").and_then(|l| l.parse().ok()).unwrap_or_else(|| panic!("the vector move is not offered first: {out}"));
    let n = s.edit(req(0, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(first)), name)).await.unwrap().expect("the vector move applies");
    let node = s.tree.get(n).unwrap();
    let tir = &node.record.texts.l1[&kernel];
    assert!(tir.contains(&format!("T.vectorized(T.int64({lanes}))")), "no vector of {lanes} outputs: {tir}");
    if 56 % lanes != 0 {
        assert!(tir.contains(&format!("T.vectorized(T.int64({}), T.int64(56))", 56 - 56 % lanes)), "the row's last part is not one shorter vector: {tir}");
    }
    // The taps (3 x 3) and the row tile unrolled around each vector.
    assert!(tir.matches("T.unroll(T.int64(3))").count() >= 2 && tir.matches("T.unroll(").count() >= 3, "the taps or the row tile are not unrolled: {tir}");
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    eprintln!("the vector move: {speedup:.2}x TVM's build");
    assert!(speedup > 1.15, "the vector move is only {speedup:.2}x TVM's build");
}
