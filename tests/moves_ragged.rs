//! Axes no vector strip divides: a micro-kernel's output cut into the
//! strips and the columns left, an elementwise kernel's trailing axes fused
//! and cut at the last vector; their IR, and that they stay correct.

mod common;

use common::moves::{l1_moves_of, least_alternated_ms, req, timed_evaluator, trace_of};
use kwb::ir::Layer;
use kwb::session::runner::{EditBody, SessionRunner};
use serde_json::{Value, json};
use std::path::Path;
use std::time::Duration;

/// A session on conv_avgpool_linear_head and its node after the L0
/// rewrite of the 1 x 1 convolution into a matmul over the pixels.
async fn pointwise_line<'a>(ev: &'a kwb::eval::Evaluator, set: &'a kwb::tasks::TaskSet, log: &Path) -> (SessionRunner<'a>, u32) {
    let task = set.get("conv_avgpool_linear_head").unwrap();
    let mut s = SessionRunner::create(log, task, ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let pointwise = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == "pointwise-matmul").unwrap_or_else(|| panic!("no pointwise-matmul move: {l0}"));
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(pointwise["text"].as_str().unwrap().into()), "pointwise-matmul")).await.unwrap().expect("the rewrite applies");
    (s, n1)
}

/// conv_avgpool_linear_head's 1 x 1 convolution as a matmul over NCHW's
/// 14 x 14 = 196 pixels: no strip of 16 lanes or more divides 196, so the
/// only register tiles had 4 lanes or predicated ones. The first L1 move
/// now cuts the pixels at 192: a micro-kernel of 16-lane strips over
/// those, one 4-lane vector over the rest. Correct, and faster than the
/// best plain tile offered beside it, the matmul against the matmul in
/// alternated profiles (0.084 against 0.308 ms on an Emerald Rapids core;
/// asserted at 1.25x).
#[tokio::test]
async fn a_matmul_over_196_pixels_gets_a_micro_kernel_on_192_and_one_narrow_vector() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let dir = tempfile::tempdir().unwrap();
    let (mut s, n1) = pointwise_line(&ev, &set, &dir.path().join("ragged.jsonl")).await;
    let texts = s.tree.get(n1).unwrap().record.texts.clone();
    let kernel = texts.l1.keys().find(|k| *k == "matmul").unwrap_or_else(|| panic!("no matmul kernel in {:?}", texts.l1.keys())).clone();
    let out = l1_moves_of(&ev, &texts.l1_module, &kernel).await;
    let moves = out["moves"].as_array().unwrap();
    let first = &moves[0];
    assert!(first["name"].as_str().unwrap().starts_with("ragged"), "the ragged micro-kernel is not offered first: {out}");
    assert!(trace_of(first).iter().any(|l| l.contains("loop_partition") && l.contains("[192, None]")), "not cut at 192: {first}");
    let plain: &Value = moves.iter().find(|m| m["name"].as_str().unwrap().starts_with("tile")).unwrap_or_else(|| panic!("no plain tile: {out}"));
    let mut modules = vec![];
    for m in [first, plain] {
        let name = m["name"].as_str().unwrap();
        let n = s.edit(req(n1, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(m)), name)).await.unwrap().expect("the move applies");
        let node = s.tree.get(n).unwrap();
        let r = node.result.clone().unwrap();
        assert!(r.correct, "{name}: {:?}", r.failure);
        if name.starts_with("ragged") {
            let tir = &node.record.texts.l1[&kernel];
            assert!(tir.contains("in T.vectorized(T.int64(16))") && tir.contains("T.vectorized(T.int64(192), T.int64(196))"), "no 16-lane strips and 4-lane rest: {tir}");
            assert!(!tir.contains("T.where"), "a strip is predicated: {tir}");
        }
        modules.push(node.record.texts.l1_module.clone());
    }
    let task = set.get("conv_avgpool_linear_head").unwrap();
    let (ragged, tile) = least_alternated_ms(&ev, task, &kernel, &modules[0], &modules[1], |ragged, tile| tile > 1.25 * ragged).await;
    eprintln!("the matmul ragged {ragged:.4} ms, plain tile {tile:.4} ms");
    assert!(tile > 1.25 * ragged, "ragged {ragged:.4} ms against the plain tile's {tile:.4} ms");
}

/// After that matmul, the bias and ReLU over NCHW's 14 x 14 pixels: no
/// vector divides a row of 14, so no elementwise move was offered and the
/// kernel ran scalar (192 us on a Zen 4 core, a little less than the
/// ragged matmul's own time). Its pixels are now fused into one loop of
/// 196 and cut at 192: 16-lane vectors, then one of 4 (8 us). Correct, and
/// the kernel faster than before in alternated profiles (asserted at 2x).
#[tokio::test]
async fn a_bias_and_relu_over_rows_of_14_is_fused_over_its_pixels_and_cut_at_the_last_vector() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let dir = tempfile::tempdir().unwrap();
    let (mut s, n1) = pointwise_line(&ev, &set, &dir.path().join("trailing.jsonl")).await;
    let texts = s.tree.get(n1).unwrap().record.texts.clone();
    let ragged = l1_moves_of(&ev, &texts.l1_module, "matmul").await["moves"][0].clone();
    let n2 = s.edit(req(n1, Layer::L1, Some("matmul"), EditBody::Trace(trace_of(&ragged)), "ragged")).await.unwrap().expect("the matmul's move applies");
    let texts = s.tree.get(n2).unwrap().record.texts.clone();
    let kernel = texts.l1.keys().find(|k| k.ends_with("add_relu")).unwrap_or_else(|| panic!("no bias-and-ReLU kernel in {:?}", texts.l1.keys())).clone();
    let out = l1_moves_of(&ev, &texts.l1_module, &kernel).await;
    let first = &out["moves"][0];
    assert!(first["name"].as_str().unwrap_or("").starts_with("trailing-vec16"), "the fused, cut pixels are not offered first: {out}");
    let trace = trace_of(first);
    assert!(trace.iter().any(|l| l.contains("sch.fuse(L[2], L[3])")) && trace.iter().any(|l| l.contains("[192, None]")), "not the pixels fused and cut at 192: {first}");
    let n3 = s.edit(req(n2, Layer::L1, Some(&kernel), EditBody::Trace(trace), "trailing")).await.unwrap().expect("the move applies");
    let node = s.tree.get(n3).unwrap();
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let tir = &node.record.texts.l1[&kernel];
    assert!(tir.contains("in T.vectorized(T.int64(16))") && tir.contains("T.vectorized(T.int64(192), T.int64(196))"), "no 16-lane vectors and 4-lane rest: {tir}");
    let task = set.get("conv_avgpool_linear_head").unwrap();
    let (before, after) = least_alternated_ms(&ev, task, &kernel, &texts.l1_module, &node.record.texts.l1_module, |before, after| before > 2.0 * after).await;
    eprintln!("the bias and ReLU {before:.4} ms, with the pixels fused and cut {after:.4} ms");
    assert!(before > 2.0 * after, "{after:.4} ms against {before:.4} ms");
}

/// Trailing axes are fused only where every operand indexes all of them or
/// none: a per-channel bias keeps its vectors contiguous; a bias along the
/// last axis alone would have its index computed lane by lane.
#[tokio::test]
async fn trailing_axes_are_not_fused_across_an_axis_an_operand_indexes_alone() {
    let ev = common::evaluator(common::quick_opts()).await;
    let module = |index: &str| {
        format!(
            r#"# from tvm.script import ir as I
# from tvm.script import tirx as T
# from tvm.script import relax as R

@I.ir_module
class Module:
    @T.prim_func(private=True, s_tir=True)
    def add(x: T.Buffer((T.int64(8), T.int64(14), T.int64(14)), "float32"), y: T.Buffer((T.int64(14),), "float32"), out: T.Buffer((T.int64(8), T.int64(14), T.int64(14)), "float32")):
        T.func_attr({{"tirx.noalias": True}})
        for i0, i1, i2 in T.grid(T.int64(8), T.int64(14), T.int64(14)):
            with T.sblock("T_add"):
                v0, v1, v2 = T.axis.remap("SSS", [i0, i1, i2])
                T.reads(x[v0, v1, v2], y[{index}])
                T.writes(out[v0, v1, v2])
                out[v0, v1, v2] = x[v0, v1, v2] + y[{index}]

    @R.function
    def main(x: R.Tensor((8, 14, 14), dtype="float32"), y: R.Tensor((14,), dtype="float32")) -> R.Tensor((8, 14, 14), dtype="float32"):
        cls = Module
        with R.dataflow():
            gv = R.call_tir(cls.add, (x, y), out_ty=R.Tensor((8, 14, 14), dtype="float32"))
            R.output(gv)
        return gv
"#
        )
    };
    let names = |out: &Value| -> Vec<String> { out["moves"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap().to_string()).collect() };
    let per_channel = l1_moves_of(&ev, &module("v0"), "add").await;
    let first = &per_channel["moves"][0];
    assert!(first["name"].as_str().unwrap().starts_with("trailing-vec16"), "no fused trailing axes for a per-channel bias: {per_channel}");
    assert!(trace_of(first).iter().any(|l| l.contains("sch.fuse(L[1], L[2])")), "{first}");
    for index in ["v2", "v1"] {
        let out = l1_moves_of(&ev, &module(index), "add").await;
        assert!(!names(&out).iter().any(|n| n.starts_with("trailing")), "axes fused across y[{index}]: {out}");
    }
}
