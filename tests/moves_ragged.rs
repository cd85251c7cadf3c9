//! A micro-kernel over an output axis no vector strip divides: the cut
//! into the strips and the columns left, its IR, and that it stays correct.

mod common;

use common::moves::{l1_moves_of, req, timed_evaluator, trace_of};
use kwb::ir::Layer;
use kwb::session::runner::{EditBody, SessionRunner};
use serde_json::{Value, json};
use std::time::Duration;

/// conv_avgpool_linear_head's 1 x 1 convolution as a matmul over NCHW's
/// 14 x 14 = 196 pixels: no strip of 16 lanes or more divides 196, so the
/// only register tiles had 4 lanes or predicated ones. The first L1 move
/// now cuts the pixels at 192: a micro-kernel of 16-lane strips over
/// those, one 4-lane vector over the rest. Correct, and faster than the
/// best plain tile offered beside it, node against node (the matmul alone
/// on an Emerald Rapids core: 0.084 against 0.308 ms; asserted at 1.25x
/// over the whole graph, where the bias, ReLU and mean stay as they were).
#[tokio::test]
async fn a_matmul_over_196_pixels_gets_a_micro_kernel_on_192_and_one_narrow_vector() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("conv_avgpool_linear_head").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("ragged.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let pointwise = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == "pointwise-matmul").unwrap_or_else(|| panic!("no pointwise-matmul move: {l0}"));
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(pointwise["text"].as_str().unwrap().into()), "pointwise-matmul")).await.unwrap().expect("the rewrite applies");
    let texts = s.tree.get(n1).unwrap().record.texts.clone();
    let kernel = texts.l1.keys().find(|k| *k == "matmul").unwrap_or_else(|| panic!("no matmul kernel in {:?}", texts.l1.keys())).clone();
    let out = l1_moves_of(&ev, &texts.l1_module, &kernel).await;
    let moves = out["moves"].as_array().unwrap();
    let first = &moves[0];
    assert!(first["name"].as_str().unwrap().starts_with("ragged"), "the ragged micro-kernel is not offered first: {out}");
    assert!(trace_of(first).iter().any(|l| l.contains("loop_partition") && l.contains("[192, None]")), "not cut at 192: {first}");
    let plain: &Value = moves.iter().find(|m| m["name"].as_str().unwrap().starts_with("tile")).unwrap_or_else(|| panic!("no plain tile: {out}"));
    let mut speed = vec![];
    for m in [first, plain] {
        let name = m["name"].as_str().unwrap();
        let n = s.edit(req(n1, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(m)), name)).await.unwrap().expect("the move applies");
        let node = s.tree.get(n).unwrap();
        let r = node.result.clone().unwrap();
        assert!(r.correct, "{name}: {:?}", r.failure);
        speed.push(r.speedup_median.expect("timed"));
        if name.starts_with("ragged") {
            let tir = &node.record.texts.l1[&kernel];
            assert!(tir.contains("in T.vectorized(T.int64(16))") && tir.contains("T.vectorized(T.int64(192), T.int64(196))"), "no 16-lane strips and 4-lane rest: {tir}");
            assert!(!tir.contains("T.where"), "a strip is predicated: {tir}");
        }
    }
    eprintln!("ragged {:.3}x, plain tile {:.3}x of TVM's default build", speed[0], speed[1]);
    assert!(speed[0] > 1.25 * speed[1], "ragged {:.3}x against the plain tile's {:.3}x", speed[0], speed[1]);
}
