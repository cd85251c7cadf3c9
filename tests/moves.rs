//! The built-in agents' move families on small tasks: each move's effect on
//! the IR, and that the result stays correct.

mod common;

use common::moves::{first_rows_move, l1_moves_of, least_alternated_ms, req, timed_evaluator, trace_of};

use kwb::ir::Layer;
use kwb::session::runner::{EditBody, SessionRunner};
use serde_json::{Value, json};
use std::time::Duration;

/// A convolution the way a kernel engineer writes it for a CPU: the L0 move
/// puts activations in NHWC and weights in HWIO, so the output channels are
/// innermost in both; the L1 micro-kernel then keeps a tile of outputs, sized
/// to the target's vector registers, in registers across the whole
/// reduction, with the bias add applied as the tile is written back. The
/// result is correct on every seed and far faster than TVM's default build
/// (measured 0.15 ms against 8 ms on a quiet Emerald Rapids core; asserted
/// only at 3x, which holds on a loaded machine).
#[tokio::test]
async fn an_nhwc_convolution_gets_a_register_micro_kernel_and_stays_correct() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("conv2d_3x3").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("micro.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();

    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let hwio = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == "nhwc-hwio").unwrap_or_else(|| panic!("no NHWC/HWIO move: {l0}"));
    let text = hwio["text"].as_str().unwrap();
    assert!(text.contains("kernel_layout=\"HWIO\"") && text.contains("data_layout=\"NHWC\""), "{text}");
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(text.to_string()), "nhwc-hwio")).await.unwrap().expect("the layout move applies");
    let node = s.tree.get(n1).unwrap();
    assert!(node.result.as_ref().unwrap().correct, "{:?}", node.result.as_ref().unwrap().failure);
    let l1 = node.record.texts.l1_module.clone();
    let kernel = node.record.texts.l1.keys().find(|k| k.contains("conv2d")).cloned().unwrap_or_else(|| panic!("no conv kernel in {:?}", node.record.texts.l1.keys()));

    let l1_moves = l1_moves_of(&ev, &l1, &kernel).await;
    let micro: Vec<&Value> = l1_moves["moves"].as_array().unwrap().iter().filter(|m| m["name"].as_str().unwrap().starts_with("micro")).collect();
    assert!(!micro.is_empty(), "no micro-kernel move: {l1_moves}");
    // Best first: the first offered one carries the bias add into its write-back.
    let m = micro[0];
    assert!(m["name"].as_str().unwrap().ends_with("-epilogue"), "{m}");
    let trace = trace_of(m);
    for step in ["sch.cache_write(b, 0, \"global\")", "sch.reverse_compute_inline(", "sch.vectorize(ci)", "sch.decompose_reduction("] {
        assert!(trace.iter().any(|l| l.contains(step)), "{}: no `{step}` in {trace:?}", m["name"]);
    }
    let n2 = s.edit(req(n1, Layer::L1, Some(&kernel), EditBody::Trace(trace), m["name"].as_str().unwrap())).await.unwrap().expect("the micro-kernel applies");
    let node = s.tree.get(n2).unwrap();
    assert!(node.record.texts.l1[&kernel].contains("conv2d_nhwc_intermediate_global"), "no accumulator tile in the kernel");
    let ll = &node.record.texts.l2[&kernel];
    assert!(ll.contains("x float> @llvm.fmuladd.v") || ll.contains("fmul <"), "no vector multiply-add in the target code");
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 3.0, "the micro-kernel is only {speedup:.2}x TVM's default build");
}

/// A convolution task after the L0 move `l0_name`, then its convolution
/// kernel's first micro-kernel move with an epilogue, applied.
struct EpilogueRun {
    l0: String,
    kernel: String,
    before: String,
    rationale: String,
    trace: Vec<String>,
    after: String,
    result: kwb::eval::EvalResult,
}

async fn conv_epilogue_after(task_id: &str, l0_name: &str) -> EpilogueRun {
    let ev = common::evaluator(common::quick_opts()).await;
    let set = common::tasks();
    let task = set.get(task_id).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("epilogue.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let chosen = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == l0_name).unwrap_or_else(|| panic!("no {l0_name} move: {l0}"));
    let l0 = chosen["text"].as_str().unwrap().to_string();
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(l0.clone()), l0_name)).await.unwrap().expect("the L0 move applies");
    let node = s.tree.get(n1).unwrap();
    let kernel = node.record.texts.l1.keys().find(|k| k.contains("conv2d")).cloned().unwrap_or_else(|| panic!("no convolution kernel in {:?}", node.record.texts.l1.keys()));
    let before = node.record.texts.l1[&kernel].clone();
    let out = l1_moves_of(&ev, &node.record.texts.l1_module, &kernel).await;
    let m = out["moves"].as_array().unwrap().iter().find(|m| m["name"].as_str().unwrap().ends_with("-epilogue")).unwrap_or_else(|| panic!("no micro-kernel with an epilogue: {out}"));
    let trace = trace_of(m);
    let n2 = s.edit(req(n1, Layer::L1, Some(&kernel), EditBody::Trace(trace.clone()), m["name"].as_str().unwrap())).await.unwrap().expect("the micro-kernel applies");
    let node = s.tree.get(n2).unwrap();
    EpilogueRun {
        l0,
        after: node.record.texts.l1[&kernel].clone(),
        result: node.result.clone().unwrap(),
        kernel,
        before,
        rationale: m["rationale"].as_str().unwrap().to_string(),
        trace,
    }
}

/// A convolution followed by a bias add and a ReLU: the micro-kernel
/// computes the whole elementwise chain into the tile's write-back, not just
/// its first block, so the activation makes no second pass over the output
/// (on conv_relu_maxpool that second pass was a fifth of the time: measured
/// 0.76x MetaSchedule with the bias only, 0.96x with both).
#[tokio::test]
async fn a_micro_kernel_writes_back_the_whole_elementwise_chain() {
    let run = conv_epilogue_after("conv_relu_maxpool", "nhwc-hwio").await;
    assert!(run.before.contains("T.sblock(\"T_add\")") && run.before.contains("T.sblock(\"compute\")"), "expected a bias add and a ReLU block: {}", run.before);
    let inlined = run.trace.iter().filter(|l| l.contains("reverse_compute_inline")).count();
    assert_eq!(inlined, 2, "both the bias add and the ReLU go into the write-back: {:?}", run.trace);
    assert!(run.rationale.contains("`T_add`, `compute`"), "{}", run.rationale);
    assert!(!run.after.contains("T.sblock(\"compute\")") && !run.after.contains("T_add_intermediate"), "the chain still makes its own passes: {}", run.after);
    assert!(run.result.correct, "{:?}", run.result.failure);
}

/// A hardswish after a convolution: the layout move writes its clips as a
/// max and a min, so the whole activation stays in the convolution's kernel
/// in NHWC (TVM's layout conversion put a transpose on each side of a clip,
/// a second kernel); the micro-kernel then inlines the blocks that read two
/// earlier results forward, so the activation is one expression of the
/// accumulator in the write-back. Measured 1.45x MetaSchedule's build with
/// the first micro-kernel, against 0.56x before.
#[tokio::test]
async fn a_hardswish_epilogue_is_one_expression_of_the_accumulator() {
    let run = conv_epilogue_after("conv_bias_hardswish", "nhwc-hwio").await;
    assert!(!run.l0.contains("R.clip(") && run.l0.contains("R.maximum(") && run.l0.contains("R.minimum("), "{}", run.l0);
    assert!(run.kernel.contains("maximum") && run.kernel.contains("minimum") && run.kernel.ends_with("divide"), "the activation left the convolution's kernel: {}", run.kernel);
    assert!(run.trace.iter().any(|l| l.starts_with("sch.compute_inline(")), "{:?}", run.trace);
    assert_eq!(run.trace.iter().filter(|l| l.contains("reverse_compute_inline")).count(), 1, "{:?}", run.trace);
    for block in ["T_multiply", "T_maximum", "T_divide"] {
        assert!(!run.after.contains(&format!("T.sblock(\"{block}\")")), "`{block}` still makes its own pass: {}", run.after);
    }
    assert!(run.result.correct, "{:?}", run.result.failure);
}

/// A pointwise (1x1) convolution is a matrix product over the pixels, which
/// are contiguous in NCHW on both sides: the L0 move writes it as a matmul
/// over reshaped views (no transpose kernel, unlike the NHWC route), and the
/// matmul takes the register micro-kernel. Correct on every seed, and far
/// faster than TVM's default build (about 25x on an idle Ice Lake core;
/// asserted at 3x, which holds on a loaded machine).
#[tokio::test]
async fn a_pointwise_convolution_becomes_a_matmul_without_transposes() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("conv2d_1x1").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("pointwise.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();

    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let names: Vec<&str> = l0["moves"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap()).collect();
    assert_eq!(names.first(), Some(&"pointwise-matmul"), "the matmul form is offered first: {names:?}");
    let text = l0["moves"][0]["text"].as_str().unwrap();
    assert!(text.contains("R.matmul(") && !text.contains("R.nn.conv2d(") && !text.contains("R.permute_dims("), "{text}");

    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(text.to_string()), "pointwise-matmul")).await.unwrap().expect("the rewrite applies");
    let node = s.tree.get(n1).unwrap();
    assert!(node.result.as_ref().unwrap().correct, "{:?}", node.result.as_ref().unwrap().failure);
    let kernels: Vec<&String> = node.record.texts.l1.keys().collect();
    assert!(!kernels.iter().any(|k| k.contains("transpose")), "a layout change crept in: {kernels:?}");
    let kernel = kernels.iter().find(|k| k.contains("matmul")).map(|k| k.to_string()).unwrap_or_else(|| panic!("no matmul kernel in {kernels:?}"));

    let l1 = node.record.texts.l1_module.clone();
    let l1_moves = l1_moves_of(&ev, &l1, &kernel).await;
    let m = l1_moves["moves"].as_array().unwrap().iter().find(|m| m["name"].as_str().unwrap().starts_with("micro")).unwrap_or_else(|| panic!("no micro-kernel move: {l1_moves}"));
    let n2 = s.edit(req(n1, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(m)), m["name"].as_str().unwrap())).await.unwrap().expect("the micro-kernel applies");
    let r = s.tree.get(n2).unwrap().result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 3.0, "the pointwise matmul is only {speedup:.2}x TVM's default build");
}

/// An elementwise chain (hardswish: an add, two clips, a multiply and a
/// divide in one kernel) as one loop: every block but the last inlined into
/// it, the loops fused and vectorized. One read and one write per element,
/// no intermediate buffers. Measured on a Zen 4 core: 0.0076 ms against
/// 0.29 for TVM's default build and 0.0143 for MetaSchedule's; asserted at
/// 5x the default build, which holds on a loaded machine.
#[tokio::test]
async fn an_elementwise_chain_becomes_one_vectorized_loop() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("hardswish").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("chain.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let kernel = root.l1.keys().next().unwrap().clone();
    let blocks = |tir: &str| tir.lines().filter(|l| l.trim_start().starts_with("with T.sblock(")).count();
    assert!(blocks(&root.l1[&kernel]) >= 5, "the chain is not several blocks to begin with");

    let out = l1_moves_of(&ev, &root.l1_module, &kernel).await;
    let m = &out["moves"][0];
    assert!(m["name"].as_str().unwrap_or("").starts_with("inline-vec"), "the chain move is not offered first: {out}");
    let trace = trace_of(m);
    assert!(trace.iter().filter(|l| l.contains("sch.compute_inline(")).count() >= 4, "{trace:?}");
    let n1 = s.edit(req(0, Layer::L1, Some(&kernel), EditBody::Trace(trace), m["name"].as_str().unwrap())).await.unwrap().expect("the chain move applies");
    let node = s.tree.get(n1).unwrap();
    let tir = &node.record.texts.l1[&kernel];
    assert_eq!(blocks(tir), 1, "blocks left besides the last: {tir}");
    assert!(tir.contains("T.vectorized(") && !tir.contains("sblock_alloc_buffer"), "not one vector loop without intermediates: {tir}");
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 5.0, "the one-loop chain is only {speedup:.2}x TVM's default build");
}

/// A row-wise norm: every block computed one row at a time, each reduction
/// split into vector lanes of partial sums (rfactor), the elementwise pass
/// vectorized along the row. Correct on every seed, and faster than TVM's
/// default build (6x on a quiet Zen 4 core, 2.4x MetaSchedule's tuned
/// schedule; asserted at 2x, which holds on a loaded machine).
#[tokio::test]
async fn a_layer_norm_is_computed_row_by_row_with_vector_partial_sums() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("layer_norm").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("rows.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let kernel = root.l1.keys().next().unwrap().clone();

    let m = first_rows_move(&ev, &root.l1_module, &kernel).await;
    let trace = trace_of(&m);
    assert_eq!(trace.iter().filter(|l| l.contains("sch.rfactor(")).count(), 2, "both sums (mean, variance) split into lanes: {trace:?}");
    let n1 = s.edit(req(0, Layer::L1, Some(&kernel), EditBody::Trace(trace), m["name"].as_str().unwrap())).await.unwrap().expect("the row move applies");
    let node = s.tree.get(n1).unwrap();
    let tir = &node.record.texts.l1[&kernel];
    assert!(tir.contains("x_sum_rf") && tir.contains("x_var_sum_rf"), "no partial-sum buffers in {tir}");
    assert!(tir.matches("T.vectorized(").count() >= 3, "the lanes and the row pass are not all vectorized: {tir}");
    let ll = &node.record.texts.l2[&kernel];
    assert!(ll.contains("fadd <16 x float>") || ll.contains("fadd fast <16 x float>"), "no 16-lane vector sum in the target code");
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 2.0, "the row schedule is only {speedup:.2}x TVM's default build");

    // A matmul also reduces along rows, but its outputs share their
    // operands: register tiles, and no row move, for its many rows.
    let matmul = set.get("matmul_256").unwrap();
    let names = contraction_moves(&ev, matmul, &dir.path().join("matmul.jsonl")).await;
    assert!(names.len() == 1 && names[0][0].starts_with("micro"), "{names:?}");
    assert!(!names[0].iter().any(|n| n.starts_with("rows")), "a row move is offered on a 256-row matmul: {names:?}");
    // A batch-1 linear has one output row, each weight read once: there
    // the row move stays, after the tiles (cbam's first linear, whose 64
    // inputs make four rows of 16 lanes; the second sums only 8).
    let cbam = set.get("cbam_channel_attention").unwrap();
    let names = contraction_moves(&ev, cbam, &dir.path().join("cbam.jsonl")).await;
    assert!(names.iter().any(|k| k[0].starts_with("tile") && k.iter().any(|n| n.starts_with("rows"))), "no row move on a batch-1 linear: {names:?}");
}

/// The L1 moves offered on each of a task's matmul kernels, in order.
async fn contraction_moves(ev: &kwb::eval::Evaluator, task: &kwb::tasks::Task, log: &std::path::Path) -> Vec<Vec<String>> {
    let s = SessionRunner::create(log, task, ev).await.unwrap();
    let texts = s.tree.get(0).unwrap().record.texts.clone();
    let mut found = Vec::new();
    for kernel in texts.l1.keys().filter(|k| k.contains("matmul")) {
        let out = l1_moves_of(ev, &texts.l1_module, kernel).await;
        let names: Vec<String> = out["moves"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap().to_string()).collect();
        found.push(names);
    }
    found
}

/// Applies the root's fast-math L0 move to `task` and returns its L0 text and
/// the evaluated node's result.
async fn fast_math_of(task_id: &str) -> (String, kwb::eval::EvalResult) {
    let (text, r, _) = l0_move_of(task_id, "fast-math").await;
    (text, r)
}

/// The L0 move `name` on task `task_id`: its text, its result timed
/// against TVM's default build, and the names of its L1 kernels.
async fn l0_move_of(task_id: &str, name: &str) -> (String, kwb::eval::EvalResult, Vec<String>) {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get(task_id).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("s.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let chosen = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == name).unwrap_or_else(|| panic!("no {name} move: {l0}"));
    let text = chosen["text"].as_str().unwrap().to_string();
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(text.clone()), name)).await.unwrap().unwrap_or_else(|e| panic!("the {name} move applies: {e:?}"));
    let node = s.tree.get(n1).unwrap();
    (text, node.result.clone().unwrap(), node.record.texts.l1.keys().cloned().collect())
}

/// log_softmax is not in TVM's fast-math pass: kwb writes it as
/// x - max - log(sum(exp(x - max))), so the exp becomes the vectorizable
/// polynomial and the log runs once per row. Measured 2.3x TVM's default
/// build on a quiet Zen 4 core; asserted at 1.3x.
#[tokio::test]
async fn a_log_softmax_is_decomposed_so_its_exp_is_fast_and_its_log_once_per_row() {
    let (text, r) = fast_math_of("log_softmax").await;
    assert!(!text.contains("R.nn.log_softmax("), "log_softmax is still the library op: {text}");
    assert!(text.contains("fast_exp") && text.contains("R.log(") && text.contains("keepdims=True"), "{text}");
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 1.3, "the decomposed log_softmax is only {speedup:.2}x TVM's default build");
}

/// GELU's erf, written out and given TVM's fast erf, vectorizes: measured
/// 11.6x TVM's default build on a quiet Zen 4 core; asserted at 3x.
#[tokio::test]
async fn a_gelu_gets_the_fast_erf_and_stays_correct() {
    let (text, r) = fast_math_of("gelu").await;
    assert!(!text.contains("R.nn.gelu("), "gelu is still the library op: {text}");
    assert!(text.contains("fast_erf"), "{text}");
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 3.0, "the fast-math gelu is only {speedup:.2}x TVM's default build");
}

/// torch.max over an axis imports as topk with k = 1, a sort per row (an
/// extern call on the CPU). The L0 move computes it as a max reduction,
/// exact, the unread index dropped. Unscheduled, that reduction is 2.0x the
/// sort on a Zen 4 core but only 1.03x on an Emerald Rapids core, whose
/// sort is faster; what it opens is the row move on the new `max` kernel
/// (8.5x the sort there). Asserted: the reduction is no slower than the
/// sort (0.9x, for a loaded machine), and with the row move over 2x.
#[tokio::test]
async fn a_top1_is_a_max_reduction_and_stays_exact() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("top1.jsonl"), set.get("reduce_max").unwrap(), &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let text = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == "top1-as-max").expect("top1-as-max is offered")["text"].as_str().unwrap().to_string();
    assert!(!text.contains("R.topk(") && text.contains("R.max(") && !text.contains("R.argmax("), "{text}");
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(text), "top1-as-max")).await.unwrap().expect("the rewrite applies");
    let r = s.tree.get(n1).unwrap().result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 0.9, "the max reduction is only {speedup:.2}x the sort");

    let l1 = s.tree.get(n1).unwrap().record.texts.l1_module.clone();
    let m = first_rows_move(&ev, &l1, "max").await;
    let n2 = s.edit(req(n1, Layer::L1, Some("max"), EditBody::Trace(trace_of(&m)), m["name"].as_str().unwrap())).await.unwrap().expect("the row move applies");
    let r = s.tree.get(n2).unwrap().result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 2.0, "the max reduction with the row move is only {speedup:.2}x the sort");
}

/// A cumulative sum lowers to an opaque loop per row, each addition waiting
/// on the one before. The L0 move calls a kernel that scans eight rows side
/// by side in registers, the additions in the same order. Measured
/// 1.6x TVM's build on an Emerald Rapids core with a bench beside it;
/// asserted at 1.2x.
#[tokio::test]
async fn a_cumsum_scans_rows_side_by_side_and_stays_correct() {
    let (text, r, kernels) = l0_move_of("cumsum", "interleaved-scan").await;
    assert!(!text.contains("R.cumsum(") && text.contains("T.unroll(8)"), "{text}");
    assert_eq!(kernels, ["cumsum_rows"], "{kernels:?}");
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 1.2, "the interleaved scan is only {speedup:.2}x TVM's loop per row");
    // Its body is an opaque block, whose loops no L1 move may touch:
    // vectorizing them gave wrong sums.
    let ev = common::evaluator(common::quick_opts()).await;
    let set = common::tasks();
    let texts = kwb::session::runner::derive(&ev, set.get("cumsum").unwrap(), json!({"l0": text})).await.expect("the scan derives");
    let out = l1_moves_of(&ev, &texts.l1_module, "cumsum_rows").await;
    assert_eq!(out["moves"].as_array().map(Vec::len), Some(0), "{out}");
}

/// An inference batch norm as TVM decomposes it is four passes over the
/// tensor, one a division per element; as a per-channel scale and shift it
/// is one multiply-add. Measured 2.2x TVM's default build on a loaded Zen 4
/// core; asserted at 1.3x.
#[tokio::test]
async fn a_batch_norm_is_one_multiply_add_per_element_and_stays_correct() {
    let (text, r, _) = l0_move_of("batch_norm", "bn-scale-shift").await;
    assert!(!text.contains("R.nn.batch_norm(") && !text.contains("R.divide(") && text.contains("R.rsqrt("), "{text}");
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 1.3, "the scale-and-shift norm is only {speedup:.2}x TVM's decomposition");
}

/// The layout move on a convolution followed by a batch norm and a ReLU
/// carries the norm as a scale and shift, so the whole epilogue fuses into
/// the convolution's kernel (before, the norm was its own kernel: 0.098 ms
/// beside the convolution's 0.126 on conv_bn_relu).
#[tokio::test]
async fn a_layout_move_folds_the_batch_norm_into_the_convolutions_kernel() {
    let (text, r, kernels) = l0_move_of("conv_bn_relu", "nhwc-hwio").await;
    assert!(!text.contains("R.nn.batch_norm(") && text.contains("data_layout=\"NHWC\""), "{text}");
    assert!(r.correct, "{:?}", r.failure);
    let conv = kernels.iter().find(|k| k.contains("conv2d")).unwrap_or_else(|| panic!("no convolution kernel in {kernels:?}"));
    assert!(conv.contains("multiply") && conv.contains("add") && conv.ends_with("relu"), "the norm and the ReLU are not in the convolution's kernel: {kernels:?}");
    assert!(!kernels.iter().any(|k| k.contains("batch_norm")), "{kernels:?}");
}

/// A stride-2 transposed convolution: TVM's default lowering convolves the
/// zero-dilated input, so three products in four are with a zero. The L0
/// move computes every output phase in one ordinary convolution (4x the
/// output channels, 2x2 kernels) in NHWC, interleaves the phases and crops;
/// the convolution then takes the register micro-kernel. Measured 83x TVM's
/// default build and 2.1x MetaSchedule's tuned build on a Zen 4 core;
/// asserted at 10x the default build.
#[tokio::test]
async fn a_transposed_convolution_is_computed_phase_by_phase_without_the_zeros() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("conv_transpose2d").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("deconv.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();

    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let sub = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == "subpixel-deconv-nhwc").unwrap_or_else(|| panic!("no sub-pixel move: {l0}"));
    let text = sub["text"].as_str().unwrap();
    assert!(!text.contains("conv2d_transpose"), "{text}");
    assert!(text.contains("R.nn.conv2d(") && text.contains("data_layout=\"NHWC\"") && text.contains("R.strided_slice("), "{text}");
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(text.to_string()), "subpixel-deconv-nhwc")).await.unwrap().expect("the sub-pixel move applies");
    let node = s.tree.get(n1).unwrap();
    assert!(node.result.as_ref().unwrap().correct, "{:?}", node.result.as_ref().unwrap().failure);
    let kernel = node.record.texts.l1.keys().find(|k| k.starts_with("conv2d")).cloned().unwrap_or_else(|| panic!("no conv kernel in {:?}", node.record.texts.l1.keys()));

    let l1_moves = l1_moves_of(&ev, &node.record.texts.l1_module, &kernel).await;
    let m = l1_moves["moves"].as_array().unwrap().iter().find(|m| m["name"].as_str().unwrap().starts_with("micro")).unwrap_or_else(|| panic!("no micro-kernel move: {l1_moves}"));
    let n2 = s.edit(req(n1, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(m)), m["name"].as_str().unwrap())).await.unwrap().expect("the micro-kernel applies");
    let r = s.tree.get(n2).unwrap().result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    assert!(speedup > 10.0, "the sub-pixel convolution is only {speedup:.2}x TVM's default build");
}

/// An L0 move is offered only where it does what its name says: no layout
/// move on a graph without a convolution (ConvertLayout would only rewrite
/// softmax's axis=-1 as axis=1), no sub-pixel move without a transposed
/// convolution (it would be the NHWC move under another name).
#[tokio::test]
async fn graph_moves_are_offered_only_where_they_apply() {
    let ev = common::evaluator(common::quick_opts()).await;
    let set = common::tasks();
    let names = |task: &str| {
        let l0 = set.get(task).unwrap().reference_text().unwrap();
        let engine = ev.engine.clone();
        async move {
            let out = engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": l0}), Duration::from_secs(120))).await.unwrap().result;
            out["moves"].as_array().unwrap().iter().map(|m| m["name"].as_str().unwrap().to_string()).collect::<Vec<_>>()
        }
    };
    assert_eq!(names("softmax").await, ["fast-math"]);
    let conv = names("conv_bn_relu").await;
    assert!(conv.contains(&"nhwc-hwio".to_string()) && !conv.iter().any(|n| n.starts_with("subpixel")), "{conv:?}");
    let deconv = names("conv_transpose2d").await;
    assert_eq!(deconv[..2], ["subpixel-deconv-nhwc", "subpixel-deconv"], "{deconv:?}");
    // A rewrite that matches nothing offers nothing (a top-1 graph has no
    // batch norm and no clip; a batch norm has no top-1).
    let top1 = names("reduce_max").await;
    assert!(top1.first().map(String::as_str) == Some("top1-as-max") && !top1.iter().any(|n| n == "bn-scale-shift"), "{top1:?}");
    assert_eq!(names("batch_norm").await, ["bn-scale-shift"]);
}

/// The layout copies a layout move puts around a convolution: the copy
/// back to NCHW (the output's last axis is the input's third) is tiled
/// over both swapped axes, the tile read into a local buffer a vector at a
/// time. Correct, and not slower than TVM's build of the same copy in the
/// profile, on the least of alternated profiles per side. How much
/// faster depends on the core: 24.9 against 6.7 us on an Emerald Rapids
/// core, 24.3 against 25.7 us on a Zen 4 core (where the tile's transposed
/// vectors cost as much as the strided reads they replace), so the bound
/// is 1.2x the other way, what noise can make of a tie. The weights' copy,
/// whose input ends in the 5 x 5 window, is tiled over its channels with
/// the window inside; the same bound.
#[tokio::test]
async fn a_layout_copy_is_tiled_over_its_swapped_axes_and_stays_correct() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("conv2d_5x5").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("copy.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let hwio = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == "nhwc-hwio").unwrap_or_else(|| panic!("no NHWC/HWIO move: {l0}"));
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(hwio["text"].as_str().unwrap().to_string()), "nhwc-hwio")).await.unwrap().expect("the layout move applies");
    let texts = s.tree.get(n1).unwrap().record.texts.clone();
    // The output's copy back to NCHW: the one written as `T_transpose[.., v_ax1, v_ax2, v_ax3] = ..[.., v_ax2, v_ax3, v_ax1]`.
    let back = texts.l1.iter().find(|(_, t)| t.contains("[v_ax0, v_ax2, v_ax3, v_ax1]")).map(|(k, _)| k.clone()).unwrap_or_else(|| panic!("no NHWC-to-NCHW copy in {:?}", texts.l1.keys()));
    let out = l1_moves_of(&ev, &texts.l1_module, &back).await;
    let m = &out["moves"][0];
    assert_eq!(m["name"], "tile-transpose16x16-local", "{out}");
    let n2 = s.edit(req(n1, Layer::L1, Some(&back), EditBody::Trace(trace_of(m)), "tile-transpose16x16-local")).await.unwrap().expect("the tile applies");
    let node = s.tree.get(n2).unwrap();
    let tir = &node.record.texts.l1[&back];
    assert!(tir.contains("scope=\"local\"") && tir.contains("for ax1 in T.vectorized(T.int64(16))"), "the tile is not read into a local buffer 16 lanes at a time: {tir}");
    assert_eq!(tir.matches("T.unroll(T.int64(16))").count(), 3, "the tile's rows and its write-out are not unrolled: {tir}");
    assert!(node.result.as_ref().is_some_and(|r| r.correct), "{:?}", node.result);

    // Alternated and the least kept per side (one pair measured 1.25x
    // beside a CI run, the least of three 1.44x in another).
    let (before, after) = least_alternated_ms(&ev, task, &back, &texts.l1_module, &node.record.texts.l1_module, |before, after| after < 1.2 * before).await;
    eprintln!("the copy: {before:.4} ms, tiled {after:.4} ms");
    assert!(after < 1.2 * before, "the tiled copy takes {after:.4} ms against {before:.4} ms");

    // The weights' copy (OIHW to HWIO) walks the 5-wide window last, which
    // no tile divides: the tile takes the channel axes, the window inside.
    let weights = texts.l1.iter().find(|(_, t)| t.contains("[v_ax3, v_ax2, v_ax0, v_ax1]")).map(|(k, _)| k.clone()).unwrap();
    let out = l1_moves_of(&ev, &texts.l1_module, &weights).await;
    let m = &out["moves"][0];
    assert!(m["name"].as_str().unwrap().starts_with("tile-transpose") && m["name"].as_str().unwrap().ends_with("-window"), "{out}");
    let trace = trace_of(m);
    assert!(trace.iter().any(|l| l.starts_with("sch.reorder(") && l.ends_with("bo, ao, L[0], L[1], bi, ai)")), "the window is not walked inside the tile: {trace:?}");
    let n3 = s.edit(req(n1, Layer::L1, Some(&weights), EditBody::Trace(trace), "window tile")).await.unwrap().expect("the window tile applies");
    let node = s.tree.get(n3).unwrap();
    assert!(node.result.as_ref().is_some_and(|r| r.correct), "{:?}", node.result);
    let (before, after) = least_alternated_ms(&ev, task, &weights, &texts.l1_module, &node.record.texts.l1_module, |before, after| after < 1.2 * before).await;
    eprintln!("the weights' copy: {before:.4} ms, tiled with the window inside {after:.4} ms");
    assert!(after < 1.2 * before, "the window tile takes {after:.4} ms against {before:.4} ms");
}

/// A linear's weight is stored output-major ([out, in]); once the L0 move
/// folds its transpose into the matmul, a vector of 16 outputs loads 16
/// weights `in` apart. The packed micro-kernel copies each strip of the
/// weight into [out / 16, in, 16] once, outermost, so every row tile loads
/// contiguous vectors; only packed tiles are offered there. Correct, and
/// faster than the same tile and loop order without the copy, kernel
/// against kernel in alternated profiles: 1.42x on an Emerald Rapids core,
/// 1.10x to 1.15x on a Zen 4 core (asserted at 1.05x). The unpacked tile in the
/// row-major order offered before took 3x to 4x the packed one's time.
#[tokio::test]
async fn a_linears_output_major_weight_is_packed_per_column_strip() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("linear_gelu").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("pack.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let l0 = ev.engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": root.l0}), Duration::from_secs(120))).await.unwrap().result;
    let fold = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == "fuse-transpose-matmul").unwrap_or_else(|| panic!("no transpose fold: {l0}"));
    let n1 = s.edit(req(0, Layer::L0, None, EditBody::Text(fold["text"].as_str().unwrap().into()), "fold")).await.unwrap().expect("the fold applies");
    let texts = s.tree.get(n1).unwrap().record.texts.clone();
    let kernel = texts.l1.keys().find(|k| k.contains("NT_matmul")).unwrap_or_else(|| panic!("no NT matmul in {:?}", texts.l1.keys())).clone();
    let out = l1_moves_of(&ev, &texts.l1_module, &kernel).await;
    let micro: Vec<&Value> = out["moves"].as_array().unwrap().iter().filter(|m| m["name"].as_str().unwrap().starts_with("micro")).collect();
    assert!(!micro.is_empty() && micro.iter().all(|m| m["name"].as_str().unwrap().contains("-pack")), "an unpacked micro-kernel is offered: {out}");
    let packed = trace_of(micro.iter().find(|m| !m["name"].as_str().unwrap().ends_with("-epilogue")).unwrap());
    // The same tile and loop order without the copy.
    let plain: Vec<String> = packed.iter().filter(|l| !l.contains("Bp") && !l.contains("BL")).cloned().collect();
    assert_eq!(packed.len(), plain.len() + 5, "the pack is not five trace lines: {packed:?}");
    let mut modules = vec![];
    for (name, trace) in [("packed", packed), ("plain", plain)] {
        let n = s.edit(req(n1, Layer::L1, Some(&kernel), EditBody::Trace(trace), name)).await.unwrap().expect("the micro-kernel applies");
        let node = s.tree.get(n).unwrap();
        let r = node.result.clone().unwrap();
        assert!(r.correct, "{name}: {:?}", r.failure);
        if name == "packed" {
            let tir = &node.record.texts.l1[&kernel];
            assert!(tir.contains("_global = T.sblock_alloc_buffer((T.int64(") && tir.contains("T.int64(16)))"), "no packed [out / 16, in, 16] buffer: {tir}");
        }
        modules.push(node.record.texts.l1_module.clone());
    }
    // The two nodes' kernels against each other, alternated (their speedups
    // over the baseline, each measured on its own, read 8.94x against 9.19x
    // once under CI load).
    let (packed_ms, plain_ms) = least_alternated_ms(&ev, task, &kernel, &modules[0], &modules[1], |packed, plain| plain > 1.05 * packed).await;
    eprintln!("the matmul packed {packed_ms:.4} ms, unpacked {plain_ms:.4} ms");
    assert!(plain_ms > 1.05 * packed_ms, "packed {packed_ms:.4} ms against unpacked {plain_ms:.4} ms");
}
