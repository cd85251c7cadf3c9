//! GPU contraction tilings chosen by design (kwb_engine/gpu_tiling.py),
//! for real on this machine: TVM builds each to CUDA C with no GPU. What a
//! tiling's rationale says (block tile, thread tile, threads per block) is
//! what the CUDA C does: the accumulators a thread keeps, the inputs staged
//! in shared memory, the launch bounds. The GPU's measurements live in
//! results/h200-carry/; this checks the moves' effect on the IR.

mod common;

use kwb::engine::Job;
use serde_json::{json, Value};
use std::time::Duration;

/// (block rows, block cols, thread rows, thread cols, threads) from a
/// rationale such as "64x128 block, 8x8 per thread, 128 threads, k16".
fn label(rationale: &str) -> (u64, u64, u64, u64, u64, u64) {
    let nums = |s: &str| -> Vec<u64> { s.split('x').map(|n| n.trim().parse().unwrap()).collect() };
    let after = rationale.split(": ").nth(1).unwrap();
    let parts: Vec<&str> = after.split(", ").collect();
    let block = nums(parts[0].trim_end_matches(" block"));
    let thread = nums(parts[1].trim_end_matches(" per thread"));
    let threads: u64 = parts[2].trim_end_matches(" threads").parse().unwrap();
    let depth: u64 = parts[3].trim_start_matches('k').parse().unwrap();
    (block[0], block[1], thread[0], thread[1], threads, depth)
}

fn tiled(v: &Value) -> Vec<&Value> {
    v["variants"].as_array().unwrap().iter().filter(|x| x["name"].as_str().unwrap().contains("-tile-")).collect()
}

/// The CUDA C TVM generates here for a move's L1 module (built for sm_90
/// and the task's signature; the artifact is not kept).
async fn cuda_source(engine: &kwb::engine::Engine, m: &Value, spec: &Value, tag: &str) -> String {
    let artifact = common::paths().artifacts().join(format!("{tag}-{}-{}.so", std::process::id(), m["name"].as_str().unwrap()));
    let job = json!({"source": m["l1_module"], "stage": "l1", "target": {"kind": "cuda", "arch": "sm_90"}, "artifact": artifact, "args_spec": spec, "task_dtype": "float32"});
    let built = engine.run(Job::new("build", job, Duration::from_secs(300))).await.unwrap();
    let _ = std::fs::remove_file(&artifact);
    built.result["device_source"].as_str().unwrap().to_string()
}

/// The CUDA C keeps TM x TN accumulators per thread and launches the
/// threads the rationale names.
fn assert_thread_tile(src: &str, tm: u64, tn: u64, threads: u64, why: &str) {
    assert!(src.contains(&format!("_local_ptr[{}]", tm * tn)), "{tm}x{tn} accumulators per thread: {why}\n{src}");
    assert!(src.contains(&format!("__launch_bounds__({threads})")), "{threads} threads per block: {why}");
}

/// A matmul's tilings: each one's CUDA C keeps TM x TN accumulators per
/// thread, stages BM x BK of A and BK x BN of B in shared memory, and
/// launches the threads its rationale names; an elementwise task gets none.
#[tokio::test]
async fn contraction_tilings_by_design_stage_inputs_in_shared_memory_and_keep_the_thread_tile_in_registers() {
    let engine = common::engine(1).await;
    let tasks = common::tasks();
    let cuda = json!({"kind": "cuda", "arch": "sm_90"});
    let long = Duration::from_secs(600);

    let matmul = tasks.get("matmul_256").unwrap();
    let spec = json!(matmul.reference_meta().unwrap().args);
    let v = engine.run(Job::new("gpu_variants", json!({"source": matmul.reference_text().unwrap(), "target": cuda, "count": 0, "tiled": 3}), long)).await.unwrap();
    let moves = tiled(&v.result);
    assert!(!moves.is_empty() && moves.len() <= 3, "{}", v.result);
    for m in &moves {
        let why = m["rationale"].as_str().unwrap();
        assert!(why.contains("by design") && !why.contains("threads along"), "a matmul's columns index the weight: {why}");
        let (bm, bn, tm, tn, threads, depth) = label(why);
        assert_eq!((bm / tm) * (bn / tn), threads, "the block tile is the thread tile times the threads: {why}");
        let src = cuda_source(&engine, m, &spec, "tiling").await;
        assert!(src.contains(&format!("float matmul_local_ptr[{}]", tm * tn)), "{tm}x{tn} accumulators per thread: {why}\n{src}");
        assert!(src.contains(&format!("__launch_bounds__({threads})")), "{threads} threads per block: {why}");
        // Shared memory holds a BK-deep slice of each input (times the
        // pipeline's stages, where the schedule pipelines them).
        let shared: Vec<u64> = src
            .lines()
            .filter(|l| l.contains("__shared__"))
            .map(|l| l.rsplit('[').next().unwrap().trim_end_matches("];").parse().unwrap())
            .collect();
        assert_eq!(shared.len(), 2, "both inputs staged: {why}");
        let stages = shared[0] / (bm * depth);
        assert!(stages >= 1 && shared[0] == bm * depth * stages && shared[1] == bn * depth * stages, "{shared:?} for {why}");
    }

    // A convolution's output channels index only the weight, its pixels
    // only the data: it is tiled the same way.
    let conv = tasks.get("conv2d_3x3").unwrap();
    let v = engine.run(Job::new("gpu_variants", json!({"source": conv.reference_text().unwrap(), "target": cuda, "count": 0, "tiled": 2}), long)).await.unwrap();
    let moves = tiled(&v.result);
    assert!(!moves.is_empty(), "{}", v.result);
    assert!(moves.iter().all(|m| m["l1_module"].as_str().unwrap().contains("\"shared\"")), "inputs staged in shared memory");
    // Its output's contiguous axis (the columns) indexes the data, so the
    // threads go along it: what measured faster on the H200 in every pair.
    assert!(moves.iter().all(|m| m["rationale"].as_str().unwrap().contains("threads along the output's rows")), "{}", v.result);
    let spec = json!(conv.reference_meta().unwrap().args);
    for m in &moves {
        let why = m["rationale"].as_str().unwrap();
        let (_, _, tm, tn, threads, _) = label(why);
        let src = cuda_source(&engine, m, &spec, "conv").await;
        assert_thread_tile(&src, tm, tn, threads, why);
    }

    // Nothing to tile in an elementwise kernel.
    let relu = tasks.get("relu").unwrap();
    let v = engine.run(Job::new("gpu_variants", json!({"source": relu.reference_text().unwrap(), "target": cuda, "count": 0, "tiled": 4}), long)).await.unwrap();
    assert!(tiled(&v.result).is_empty(), "{}", v.result);
}

/// A matmul whose output alone is too small to fill the GPU (256 x 256 in
/// tiles worth having is a few dozen blocks) is also offered split-K: the
/// reduction split across blocks into a partial-sum buffer one axis wider,
/// tiled as the plain ones are, and a second kernel adds the partials.
#[tokio::test]
async fn a_matmul_too_small_to_fill_the_gpu_is_offered_split_k_with_a_second_kernel_adding_the_partials() {
    let engine = common::engine(1).await;
    let tasks = common::tasks();
    let cuda = json!({"kind": "cuda", "arch": "sm_90"});
    let matmul = tasks.get("matmul_256").unwrap();
    let spec = json!(matmul.reference_meta().unwrap().args);
    let v = engine
        .run(Job::new("gpu_variants", json!({"source": matmul.reference_text().unwrap(), "target": cuda, "count": 0, "tiled": 1, "split_k": 2}), Duration::from_secs(600)))
        .await
        .unwrap();
    let split: Vec<&Value> = v.result["variants"].as_array().unwrap().iter().filter(|x| x["name"].as_str().unwrap().contains("-splitk-")).collect();
    assert!(!split.is_empty() && split.len() <= 2, "{}", v.result);
    for m in &split {
        let why = m["rationale"].as_str().unwrap();
        let ways: u64 = why.split(" split ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(ways >= 2 && 256 % ways == 0 && 256 / ways >= 128, "{why}");
        let l1 = m["l1_module"].as_str().unwrap();
        assert!(l1.contains(&format!("T.sblock_alloc_buffer((T.int64({ways}), T.int64(256), T.int64(256)))")), "a partial output per way: {why}\n{l1}");
        let src = cuda_source(&engine, m, &spec, "splitk").await;
        let kernels: Vec<&str> = src.lines().filter(|l| l.starts_with("extern \"C\" __global__") && l.ends_with('{')).collect();
        assert_eq!(kernels.len(), 2, "the partial sums, then their sum: {why}\n{src}");
        assert!(kernels[0].contains("a_ptr") && kernels[0].contains("b_ptr"), "the first kernel reads the inputs: {}", kernels[0]);
        assert!(kernels.iter().all(|k| k.contains("matmul_rf_ptr")), "both kernels go through the partial sums: {kernels:?}");
        assert_eq!(src.lines().filter(|l| l.contains("__shared__")).count(), 2, "the partial sums' kernel stages both inputs: {why}");
    }
}

/// A depthwise convolution has no axis that indexes the weight alone (each
/// channel reads its own 3x3 window of weights), so its channels go across
/// blocks and the threads and each thread's tile are spread over the
/// pixels: a block stages its window of the data (halo included) and its
/// channels' weights in shared memory, and each thread keeps TM x TN
/// accumulators.
#[tokio::test]
async fn a_depthwise_convolution_is_tiled_over_its_pixels_with_its_channels_across_blocks() {
    let engine = common::engine(1).await;
    let tasks = common::tasks();
    let cuda = json!({"kind": "cuda", "arch": "sm_90"});
    let conv = tasks.get("depthwise_conv2d").unwrap();
    let spec = json!(conv.reference_meta().unwrap().args);
    let v = engine
        .run(Job::new("gpu_variants", json!({"source": conv.reference_text().unwrap(), "target": cuda, "count": 0, "tiled": 2}), Duration::from_secs(600)))
        .await
        .unwrap();
    let moves = tiled(&v.result);
    assert!(!moves.is_empty(), "{}", v.result);
    // What the H200 measured best first: 4x4 per thread, a block a whole
    // row (56 pixels) wide.
    let (_, bn, tm, tn, _, _) = label(moves[0]["rationale"].as_str().unwrap());
    assert_eq!((tm, tn, bn), (4, 4, 56), "{}", moves[0]["rationale"]);
    for m in &moves {
        let why = m["rationale"].as_str().unwrap();
        let (bm, bn, tm, tn, threads, _) = label(why);
        assert_eq!((bm / tm) * (bn / tn), threads, "{why}");
        let src = cuda_source(&engine, m, &spec, "depthwise").await;
        assert_thread_tile(&src, tm, tn, threads, why);
        assert_eq!(src.lines().filter(|l| l.contains("__shared__")).count(), 2, "the data window and the weights staged: {why}\n{src}");
    }
}

/// A grouped convolution's one output-channel axis indexes both inputs
/// (the data at channel `ff // C * C + rc`), so it first looked like a
/// depthwise one. Split into group and channel-in-group, the channels
/// within a group index the weight alone, and the convolution is tiled as
/// a plain one within each group: threads over that group's channels and
/// the pixels, its weights staged for those channels only. The pixel
/// tilings are still offered after, to be measured against.
#[tokio::test]
async fn a_grouped_convolution_is_tiled_within_each_group_after_splitting_its_channels() {
    let engine = common::engine(1).await;
    let tasks = common::tasks();
    let cuda = json!({"kind": "cuda", "arch": "sm_90"});
    let conv = tasks.get("conv2d_grouped").unwrap(); // 64 channels, 4 groups of 16, 3x3
    let spec = json!(conv.reference_meta().unwrap().args);
    let v = engine
        .run(Job::new("gpu_variants", json!({"source": conv.reference_text().unwrap(), "target": cuda, "count": 0, "tiled": 4}), Duration::from_secs(600)))
        .await
        .unwrap();
    let moves = tiled(&v.result);
    let (within, pixels): (Vec<&Value>, Vec<&Value>) =
        moves.iter().partition(|m| m["rationale"].as_str().unwrap().contains("channel-in-group"));
    assert!(within.len() >= 2 && !pixels.is_empty(), "{}", v.result);
    assert!(moves[0]["rationale"].as_str().unwrap().contains("channel-in-group"), "within groups first: {}", moves[0]["rationale"]);
    for m in &within {
        let why = m["rationale"].as_str().unwrap();
        let l1 = m["l1_module"].as_str().unwrap();
        assert!(
            l1.contains("v1 = T.axis.spatial(T.int64(4),") && l1.contains("v2 = T.axis.spatial(T.int64(16),"),
            "the block has a group axis (4) and a channel-in-group axis (16): {why}\n{l1}"
        );
        let (bm, bn, tm, tn, threads, _) = label(why);
        assert!(16 % bn == 0, "a block's channels lie within one group of 16: {why}");
        assert_eq!((bm / tm) * (bn / tn), threads, "{why}");
        let src = cuda_source(&engine, m, &spec, "grouped").await;
        assert_thread_tile(&src, tm, tn, threads, why);
        let shared: Vec<&str> = src.lines().filter(|l| l.contains("__shared__")).collect();
        assert_eq!(shared.len(), 2, "the data window and the weights staged: {why}\n{src}");
        // One input channel's 3x3 window a step, for the block's channels only.
        let weights = shared.iter().find(|l| l.contains("weight")).unwrap();
        assert!(weights.contains(&format!("[{}]", bn * 9)), "{bn} channels x 3x3 of weights: {weights}");
    }
}

/// Each CUDA kernel's text in a module's CUDA C, by kernel name.
fn cuda_kernel<'a>(src: &'a str, name: &str) -> &'a str {
    src.split("extern \"C\" __global__").find(|k| k.contains(&format!(" {name}_kernel("))).unwrap_or_else(|| panic!("no `{name}` kernel in\n{src}"))
}

/// The best schedule of each kernel, measured one at a time, combined into
/// one candidate: its CUDA C carries each kernel exactly as that kernel's
/// own variant built it. A trace that no longer applies refuses the
/// combination with the reason, and the single-kernel variants still come.
#[tokio::test]
async fn each_kernels_best_schedule_is_combined_into_one_candidate() {
    let engine = common::engine(1).await;
    let tasks = common::tasks();
    let cuda = json!({"kind": "cuda", "arch": "sm_90"});
    let long = Duration::from_secs(600);
    let task = tasks.get("depthwise_separable_block").unwrap();
    let spec = json!(task.reference_meta().unwrap().args);
    let source = task.reference_text().unwrap();

    let v = engine.run(Job::new("gpu_variants", json!({"source": source, "target": cuda, "count": 0, "tiled": 1}), long)).await.unwrap().result;
    let pick = |k: &str| v["variants"].as_array().unwrap().iter().find(|x| x["kernel"] == k).unwrap_or_else(|| panic!("no variant for `{k}`: {v}")).clone();
    let (depthwise, pointwise) = (pick("conv2d"), pick("conv2d1"));
    assert!(v["variants"].as_array().unwrap().iter().all(|x| x["name"] != "combined"), "nothing to combine without `combine`");

    let combine = json!({"conv2d": depthwise["trace"], "conv2d1": pointwise["trace"]});
    let c = engine.run(Job::new("gpu_variants", json!({"source": source, "target": cuda, "count": 0, "tiled": 0, "combine": combine}), long)).await.unwrap().result;
    let combined = &c["variants"][0];
    assert_eq!(combined["name"], "combined", "{c}");
    assert_eq!(combined["traces"], combine);
    assert!(combined["kernel"].is_null());
    let both = cuda_source(&engine, combined, &spec, "combined").await;
    for (m, k) in [(&depthwise, "conv2d"), (&pointwise, "conv2d1")] {
        let alone = cuda_source(&engine, m, &spec, "alone").await;
        assert_eq!(cuda_kernel(&both, k), cuda_kernel(&alone, k), "`{k}` is not built as its own variant built it");
    }

    let broken = json!({"conv2d": depthwise["trace"], "conv2d1": ["sch.get_sblock(\"no_such_block\")"]});
    let r = engine.run(Job::new("gpu_variants", json!({"source": source, "target": cuda, "count": 0, "tiled": 1, "combine": broken}), long)).await.unwrap().result;
    assert!(r["variants"].as_array().unwrap().iter().all(|x| x["name"] != "combined"));
    assert!(r["variants"].as_array().unwrap().len() >= 2, "the single-kernel variants still come: {r}");
    let why = r["refused"].as_array().unwrap().iter().find(|x| x["name"] == "combined").unwrap_or_else(|| panic!("no refusal for the combination: {r}"));
    assert!(why["reason"].as_str().unwrap().contains("no_such_block"), "{why}");
}
