//! GPU candidates beyond one kernel's schedule, built for real on this
//! machine (TVM generates CUDA C with no GPU): graph rewrites (L0 moves)
//! that change which kernels there are, and one thread per output for a
//! kernel that reduces a small window. What the H200 measured of them is in
//! results/h200-carry/; this checks their effect on the code and, where a
//! CPU can run it, that the rewritten graph is still correct.

mod common;

use kwb::engine::Job;
use kwb::ir::Layer;
use kwb::session::runner::{EditBody, EditRequest, SessionRunner};
use serde_json::{Value, json};
use std::time::Duration;

const LONG: Duration = Duration::from_secs(600);

fn cuda() -> Value {
    json!({"kind": "cuda", "arch": "sm_90"})
}

fn variant<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["variants"].as_array().unwrap().iter().find(|x| x["name"] == name).unwrap_or_else(|| panic!("no `{name}` variant: {}", names(v).join(", ")))
}

fn names(v: &Value) -> Vec<String> {
    v["variants"].as_array().unwrap().iter().map(|x| x["name"].as_str().unwrap().to_string()).collect()
}

/// A task at its GPU size: its reference, argument spec and the engine's
/// GPU variants of it (designed ones only: no sampling; graph moves where
/// `graph`, contraction tilings where `tiled`).
async fn gpu_variants(engine: &kwb::engine::Engine, id: &str, tiled: u32, graph: bool) -> (kwb::tasks::Task, Value, Value) {
    let task = common::tasks().get(id).unwrap().sized("gpu").unwrap_or_else(|| panic!("{id} has a gpu size")).unwrap();
    let spec = json!(task.reference_meta().unwrap().args);
    let args = json!({"source": task.reference_text().unwrap(), "target": cuda(), "count": 0, "tiled": tiled, "graph": graph});
    let v = engine.run(Job::new("gpu_variants", args, LONG)).await.unwrap().result;
    (task, spec, v)
}

/// The CUDA C TVM generates here for an L1 module (built for sm_90; the
/// artifact is not kept).
async fn cuda_source(engine: &kwb::engine::Engine, l1: &Value, spec: &Value, tag: &str) -> String {
    let artifact = common::paths().artifacts().join(format!("{tag}-{}.so", std::process::id()));
    let job = json!({"source": l1, "stage": "l1", "target": cuda(), "artifact": artifact, "args_spec": spec, "task_dtype": "float32"});
    let built = engine.run(Job::new("build", job, LONG)).await.unwrap();
    let _ = std::fs::remove_file(&artifact);
    built.result["device_source"].as_str().unwrap().to_string()
}

/// The distinct kernels in CUDA C (TVM's device source may list a kernel
/// more than once).
fn kernels(src: &str) -> usize {
    let names: std::collections::BTreeSet<&str> = src
        .split("__global__ void ")
        .skip(1)
        .filter_map(|k| {
            let k = k.strip_prefix("__launch_bounds__(").and_then(|r| r.split_once(") ")).map_or(k, |(_, rest)| rest);
            k.split_once('(').map(|(name, _)| name.trim())
        })
        .collect();
    names.len()
}

/// The importer writes a LayerNorm over 1024 features as sums in stages (a
/// float32 sum of at most 256 values each, for a CPU's accuracy); on a GPU
/// that is six kernels. The graph rewrite makes it TVM's own layer_norm with
/// the weight and bias as its scale and shift: one kernel, and on this CPU
/// the rewritten graph is still correct on every seed.
#[tokio::test]
async fn a_normalization_in_stages_becomes_one_gpu_kernel_and_stays_correct() {
    let ev = common::evaluator(common::quick_opts()).await;
    let (task, spec, v) = gpu_variants(&ev.engine, "layer_norm", 0, true).await;
    assert!(v["kernels"].as_array().unwrap().len() >= 5, "the staged norm is several kernels by default: {}", v["kernels"]);
    let norm = variant(&v, "l0-one-kernel-norm");
    assert_eq!(norm["layer"], "l0");
    let l0 = norm["l0"].as_str().unwrap();
    assert!(l0.contains("R.nn.layer_norm(x, p_norm_weight, p_norm_bias") && !l0.contains("R.rsqrt") && !l0.contains("R.sum"), "{l0}");
    let default = cuda_source(&ev.engine, &v["l1_default"], &spec, "norm-default").await;
    let one = cuda_source(&ev.engine, &norm["l1_module"], &spec, "norm-one").await;
    assert!(kernels(&default) >= 5 && kernels(&one) == 1, "{} kernels by default, {} rewritten", kernels(&default), kernels(&one));

    // Correct on this CPU against PyTorch's outputs, on every seed.
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("norm.jsonl"), &task, &ev).await.unwrap();
    let req = EditRequest { parent: 0, layer: Layer::L0, kernel: None, body: EditBody::Text(l0.to_string()), author: "test".into(), rationale: "one-kernel-norm".into() };
    let n = s.edit(req).await.unwrap().expect("the rewrite applies");
    let result = s.tree.get(n).unwrap().result.clone().unwrap();
    assert!(result.correct, "{:?}", result.failure);
}

/// avg_pool: dlight gives each output a block of 256 threads to sum 9
/// values. The window family gives each output one thread: no shared
/// memory, no barrier, the window summed in a register. A kernel whose
/// reduction is long (a norm over 1024 values) is not offered it.
#[tokio::test]
async fn a_pooling_gets_one_thread_per_output_instead_of_a_block() {
    let engine = common::engine(1).await;
    let (_, spec, v) = gpu_variants(&engine, "avg_pool", 3, false).await;
    let window = variant(&v, "avg_pool2d-window-256");
    assert!(window["rationale"].as_str().unwrap().contains("one thread per output"), "{window}");
    let default = cuda_source(&engine, &v["l1_default"], &spec, "pool-default").await;
    let one = cuda_source(&engine, &window["l1_module"], &spec, "pool-window").await;
    assert!(default.contains("__shared__") && default.contains("__syncthreads"), "dlight's block reduction:\n{default}");
    assert!(!one.contains("__shared__") && !one.contains("__syncthreads") && one.contains("__launch_bounds__(256)"), "{one}");

    let (_, _, r) = gpu_variants(&engine, "rms_norm", 3, false).await;
    assert!(!names(&r).iter().any(|n| n.contains("-window-")), "a long reduction is not serialized per thread: {:?}", names(&r));
}

/// torch.max over an axis imports as a sort-based topk; on a GPU that is a
/// sort per row. The rewrite makes it a max reduction with no sort kernels,
/// and a block of threads per row.
#[tokio::test]
async fn a_top1_on_the_gpu_is_a_reduction_not_a_sort() {
    let engine = common::engine(1).await;
    let (_, spec, v) = gpu_variants(&engine, "reduce_max", 0, true).await;
    let top1 = variant(&v, "l0-top1-as-max");
    assert!(top1["l0"].as_str().unwrap().contains("R.max(") && !top1["l0"].as_str().unwrap().contains("topk"), "{}", top1["l0"]);
    let default = cuda_source(&engine, &v["l1_default"], &spec, "top1-default").await;
    let max = cuda_source(&engine, &top1["l1_module"], &spec, "top1-max").await;
    // TVM's CUDA topk is a sort in stages: seven kernels here.
    assert!(default.contains("topk_kernel") && kernels(&default) >= 5, "the default build sorts: {} kernels", kernels(&default));
    assert!(!max.contains("topk") && kernels(&max) <= 2, "{max}");
    // dlight leaves a max to one thread per row; the design after the
    // rewrite gives each row a block that combines its threads' maxima.
    let rows = variant(&v, "l0-top1-as-max+max-rows-256");
    let src = cuda_source(&engine, &rows["l1_module"], &spec, "top1-rows").await;
    assert!(src.contains("__shfl_down_sync") && src.contains("__launch_bounds__(256) max_kernel"), "{src}");
}

/// gelu: dlight gives every thread one scalar. The map family loads and
/// stores 4 floats per access (16 bytes), computing between the two in
/// registers, as PyTorch's vectorized kernels do; a kernel that reduces is
/// not offered it.
#[tokio::test]
async fn an_elementwise_map_loads_and_stores_four_floats_at_a_time() {
    let engine = common::engine(1).await;
    let (_, spec, v) = gpu_variants(&engine, "gelu", 3, false).await;
    let maps: Vec<String> = names(&v).into_iter().filter(|n| n.contains("-map-")).collect();
    assert!(maps.len() >= 2, "{:?}", names(&v));
    let default = cuda_source(&engine, &v["l1_default"], &spec, "map-default").await;
    let map = cuda_source(&engine, &variant(&v, &maps[0])["l1_module"], &spec, "map-vector").await;
    assert!(!default.contains("float4"), "dlight's map is scalar:\n{default}");
    let loads = map.matches("= *(float4*)(x_ptr").count();
    assert!(loads >= 1 && map.contains("*(float4*)(T_multiply_ptr") && map.contains("erff("), "{map}");

    // A map whose rows (relu's, 56 wide) are no multiple of a block: the
    // groups of four run on across rows, each still one 16-byte load and store.
    let (_, spec, r) = gpu_variants(&engine, "relu", 3, false).await;
    let maps: Vec<String> = names(&r).into_iter().filter(|n| n.contains("-map-")).collect();
    assert!(!maps.is_empty(), "{:?}", names(&r));
    let rows = cuda_source(&engine, &variant(&r, &maps[0])["l1_module"], &spec, "map-rows").await;
    assert!(rows.contains("= *(float4*)(x_ptr") && rows.matches("*(float4*)(").count() >= 2, "{rows}");

    let (_, _, r) = gpu_variants(&engine, "reduce_sum", 3, false).await;
    assert!(!names(&r).is_empty() && !names(&r).iter().any(|n| n.contains("-map-")), "a reduction is no map: {:?}", names(&r));
}
