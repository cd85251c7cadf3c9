//! Packs for devices kwb cannot reach, for real on this CPU: `kwb carry
//! pack` builds a task's baseline and candidate schedules into a folder,
//! the pack's own engine code runs it with TVM's runtime library alone (no
//! compiler, as on a GPU box), and `kwb carry report` reads the result. A
//! pack whose digest disagrees with the baseline's outputs is refused on
//! the device, and a candidate swapped for a wrong one fails its check.

mod common;

use kwb::engine::pyenv;
use std::path::Path;
use std::process::Command;

fn kwb(home: &Path, python: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kwb"))
        .args(["--tasks", common::repo().join("tasks").to_str().unwrap()])
        .args(args)
        .env("KWB_HOME", home)
        .env("KWB_PYTHON", python)
        .output()
        .unwrap()
}

fn text(o: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// The device side, as run.sh runs it, with TVM's runtime library only.
fn run_pack(python: &Path, pack: &Path, out: &Path) -> serde_json::Value {
    let o = Command::new(python)
        .args(["-m", "kwb_engine.carried"])
        .arg(pack)
        .arg(out)
        .args(["--cpu", "--no-eager"])
        .env("PYTHONPATH", pack.join("engine"))
        .env("TVM_USE_RUNTIME_LIB", "1")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    serde_json::from_str(&std::fs::read_to_string(out.join("results.json")).unwrap()).unwrap()
}

#[test]
fn a_pack_runs_with_the_runtime_alone_and_its_checks_hold_there() {
    let env = pyenv::ensure(&common::paths(), false, false).expect("engine environment");
    let work = tempfile::tempdir().unwrap();
    let pack = work.path().join("pack");
    let packed = kwb(&common::home(), &env.python, &["carry", "pack", "--task", "relu6,hardswish", "--per-kernel", "2", "--out", pack.to_str().unwrap()]);
    assert!(packed.status.success(), "{}", text(&packed));

    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(pack.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["tasks"], serde_json::json!(["relu6", "hardswish"]), "{manifest}");
    assert_eq!(manifest["target"]["kind"], "llvm");
    assert!(pack.join("engine/kwb_engine/carried.py").exists(), "the pack carries its own engine code");
    let task: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(pack.join("tasks/relu6/task.json")).unwrap()).unwrap();
    let cands = task["candidates"].as_array().unwrap();
    assert!(!cands.is_empty(), "{task}");
    for c in cands {
        assert!(c["trace"].as_array().is_some_and(|t| t.iter().any(|l| l.as_str().unwrap().contains("sch."))), "a schedule trace: {c}");
        assert!(pack.join("tasks/relu6").join(c["artifact"].as_str().unwrap()).exists(), "{c}");
        let facts = c["kernels"].as_array().cloned().unwrap_or_default();
        assert!(!facts.is_empty() && facts.iter().all(|k| k["bytes"].as_f64().is_some_and(|b| b > 0.0)), "each candidate carries its own kernel facts, for the winner's profile: {c}");
    }
    assert!(pack.join("tasks/relu6/outputs/seed0.digest.npz").exists(), "the digest travels, not the outputs");

    let res = run_pack(&env.python, &pack, &work.path().join("out"));
    assert_eq!(res["meta"]["runtime_only"], true, "{}", res["meta"]);
    // The device's peaks, from kernels the pack carries, measured there first.
    assert!(pack.join("peaks/fma.so").exists() && pack.join("peaks/peaks.json").exists());
    assert!(res["peaks"]["peak_flops"].as_f64().is_some_and(|f| f > 1e9), "{}", res["peaks"]);
    assert_eq!(res["peaks"]["bandwidth_by_size"].as_array().map(Vec::len), Some(6), "{}", res["peaks"]);
    for id in ["relu6", "hardswish"] {
        let t = &res["tasks"][id];
        assert_eq!(t["baseline_correct"], true, "{t}");
        assert_eq!(t["reference_vs_pytorch"].as_array().map(Vec::len), Some(3), "the baseline's outputs checked on three seeds: {t}");
        // Where the task's time went, phase by phase, so a short device session can be planned.
        let phases = t["phases_s"].as_object().unwrap_or_else(|| panic!("no phases: {t}"));
        for p in ["reference", "baseline", "profile", "candidates", "finalists"] {
            assert!(phases.get(p).and_then(|v| v.as_f64()).is_some_and(|s| s >= 0.0), "phase {p}: {t}");
        }
        let sum: f64 = phases.values().filter_map(|v| v.as_f64()).sum();
        assert!(sum <= t["wall_s"].as_f64().unwrap() + 0.05, "the phases lie within the task's time: {t}");
        for c in t["candidates"].as_array().unwrap() {
            assert_eq!(c["correct"], true, "a schedule of the same kernel stays correct: {c}");
            let s = c["timing"]["speedup_median"].as_f64().unwrap();
            assert!(s > 0.0 && s.is_finite(), "{c}");
        }
    }
    // The hardware agent's profile of each baseline, measured there: every
    // kernel the pack knows of, timed in place, with its FLOPs and bytes.
    let kernels = res["tasks"]["relu6"]["profile"]["kernels"].as_array().cloned().unwrap_or_default();
    assert!(!kernels.is_empty(), "{}", res["tasks"]["relu6"]["profile"]);
    assert!(kernels.iter().all(|k| k["ms"].as_f64().is_some_and(|m| m > 0.0) && k["bytes"].as_f64().is_some_and(|b| b > 0.0)), "{kernels:?}");
    // A winner is profiled as its baseline was, so the report can set the
    // bottleneck's kernel after the change beside it before.
    for id in ["relu6", "hardswish"] {
        let w = &res["tasks"][id]["winner"];
        if !w.is_null() {
            let after = w["profile"]["kernels"].as_array().cloned().unwrap_or_default();
            assert!(!after.is_empty() && after.iter().all(|k| k["ms"].as_f64().is_some_and(|m| m > 0.0)), "{w}");
        }
    }
    let report = kwb(&common::home(), &env.python, &["carry", "report", work.path().join("out/results.json").to_str().unwrap()]);
    assert!(report.status.success(), "{}", text(&report));
    let table = String::from_utf8_lossy(&report.stdout);
    assert!(table.contains("| relu6 |") && table.contains("| hardswish |") && table.contains("2 tasks: Compile@1 100%"), "{table}");
    assert!(table.contains("peaks measured on the device in this run"), "{table}");
    let relu6_row = table.lines().find(|l| l.starts_with("| relu6 |")).unwrap();
    assert!(relu6_row.trim_end().ends_with("% |"), "a roofline share against those peaks: {relu6_row}");
    let agent = table.lines().find(|l| l.starts_with("| relu6 | ") && l.contains(" memory ")).unwrap_or_else(|| panic!("no hardware-agent row for relu6: {table}"));
    assert!(agent.contains("GB/s"), "{agent}");
    // A run kept with the report (`--out`) is gzipped, and reads back as
    // the same table.
    let kept = work.path().join("kept");
    let again = kwb(&common::home(), &env.python, &["carry", "report", work.path().join("out/results.json").to_str().unwrap(), "--out", kept.to_str().unwrap()]);
    assert!(again.status.success() && kept.join("report.md").exists(), "{}", text(&again));
    let gz = kept.join("results.json.gz");
    assert_eq!(std::fs::read(&gz).unwrap()[..2], [0x1f, 0x8b], "kept gzipped");
    let from_kept = kwb(&common::home(), &env.python, &["carry", "report", gz.to_str().unwrap()]);
    assert!(from_kept.status.success(), "{}", text(&from_kept));
    assert_eq!(String::from_utf8_lossy(&from_kept.stdout), table, "the kept copy is the same run");

    // A candidate swapped for another task's module of the same signature
    // (hardswish's baseline in relu6's place) computes something else: caught.
    let first = cands[0]["artifact"].as_str().unwrap();
    std::fs::copy(pack.join("tasks/hardswish/baseline.so"), pack.join("tasks/relu6").join(first)).unwrap();
    // A digest that disagrees with the baseline (relu6's digest for
    // hardswish's outputs): the task is refused on the device, not measured.
    for seed in 0..3 {
        let f = format!("outputs/seed{seed}.digest.npz");
        std::fs::copy(pack.join("tasks/relu6").join(&f), pack.join("tasks/hardswish").join(&f)).unwrap();
    }
    let res = run_pack(&env.python, &pack, &work.path().join("out2"));
    let relu6 = &res["tasks"]["relu6"];
    let swapped = relu6["candidates"].as_array().unwrap().iter().find(|c| c["name"] == cands[0]["name"]).unwrap();
    assert_eq!(swapped["correct"], false, "{swapped}");
    assert!(swapped["timing"].is_null(), "a wrong candidate is never timed: {swapped}");
    let hardswish = &res["tasks"]["hardswish"];
    assert_eq!(hardswish["baseline_correct"], false, "{hardswish}");
    assert!(hardswish["baseline_failure"]["message"].as_str().is_some_and(|m| m.contains("disagrees with PyTorch")), "{hardswish}");

    // Each task runs in a process of its own: one whose process dies (here
    // on a task file it cannot read; on a GPU, a candidate that breaks the
    // CUDA context) is recorded as such, and the next is still measured.
    std::fs::write(pack.join("tasks/relu6/task.json"), "{ not json").unwrap();
    let res = run_pack(&env.python, &pack, &work.path().join("out3"));
    assert_eq!(res["meta"]["process_per_task"], true, "{}", res["meta"]);
    assert!(res["tasks"]["relu6"]["error"].as_str().is_some_and(|e| e.contains("its process ended")), "{}", res["tasks"]["relu6"]);
    assert!(res["tasks"]["hardswish"]["baseline_failure"]["message"].as_str().is_some_and(|m| m.contains("disagrees with PyTorch")), "{}", res["tasks"]["hardswish"]);
}

/// GPU code paths that need no GPU: schedules from MetaSchedule's CUDA
/// design space bind threads and build to CUDA C; the default (dlight) L1
/// too; a kernel with loops left unbound, or more threads per block than
/// the GPU has, is refused before any build with the rule it breaks.
#[tokio::test]
async fn cuda_schedules_build_to_cuda_c_and_illegal_ones_are_refused() {
    use kwb::engine::Job;
    use serde_json::json;
    use std::time::Duration;
    let engine = common::engine(1).await;
    let tasks = common::tasks();
    let cuda = json!({"kind": "cuda", "arch": "sm_90"});
    let long = Duration::from_secs(600);
    let build = |source: String, stage: &str, spec: &serde_json::Value| {
        let artifact = common::paths().artifacts().join(format!("cuda-test-{}-{stage}.so", std::process::id()));
        Job::new("build", json!({"source": source, "stage": stage, "target": cuda, "artifact": artifact, "args_spec": spec, "task_dtype": "float32"}), Duration::from_secs(300))
    };

    let matmul = tasks.get("matmul_256").unwrap();
    let spec = json!(matmul.reference_meta().unwrap().args);
    let v = engine.run(Job::new("gpu_variants", json!({"source": matmul.reference_text().unwrap(), "target": cuda, "count": 2, "seed": 0}), long)).await.unwrap();
    let variants = v.result["variants"].as_array().unwrap();
    assert!(!variants.is_empty(), "{}", v.result);
    for var in variants {
        let text = var["l1_module"].as_str().unwrap();
        assert!(text.contains("threadIdx") && text.contains("blockIdx"), "a GPU schedule binds blocks and threads");
        let built = engine.run(build(text.to_string(), "l1", &spec)).await.unwrap();
        let src = built.result["device_source"].as_str().unwrap_or_default();
        assert!(src.contains("__global__"), "CUDA C for the kernel: {}", &src[..src.len().min(300)]);
    }
    let default = v.result["l1_default"].as_str().unwrap().to_string();
    assert!(default.contains("threadIdx"), "the default GPU L1 is dlight's schedule");

    let relu6 = tasks.get("relu6").unwrap();
    let spec6 = json!(relu6.reference_meta().unwrap().args);
    let cpu_l1 = engine.run(Job::new("derive", json!({"l0": relu6.reference_text().unwrap(), "target": {"kind": "llvm"}}), long)).await.unwrap();
    let unbound = engine.run(build(cpu_l1.result["l1_module"].as_str().unwrap().to_string(), "l1", &spec6)).await.unwrap_err();
    assert_eq!(unbound.class, kwb::failure::FailureClass::Parallel, "a failure of the parallel mapping: {unbound}");
    assert!(unbound.message.contains("outside any loop bound to GPU blocks or threads"), "{unbound}");

    let gpu_l1 = engine.run(Job::new("derive", json!({"l0": relu6.reference_text().unwrap(), "target": cuda}), long)).await.unwrap();
    let text = gpu_l1.result["l1_module"].as_str().unwrap();
    let too_many = text.replace("T.thread_binding(T.int64(1024), thread=\"threadIdx.x\")", "T.thread_binding(T.int64(2048), thread=\"threadIdx.x\")").replace("T.int64(64), thread=\"blockIdx.x\"", "T.int64(32), thread=\"blockIdx.x\"");
    assert_ne!(too_many, text, "dlight binds 1024 threads to relu6's loop");
    let refused = engine.run(build(too_many, "l1", &spec6)).await.unwrap_err();
    assert!(refused.message.contains("exceeds the GPU's limits") && refused.class == kwb::failure::FailureClass::Parallel, "{refused}");
    engine.run(build(text.to_string(), "l1", &spec6)).await.expect("dlight's own schedule builds");

    // The peak kernels a GPU pack carries: CUDA C of multiply-add chains
    // (compiled to FFMA by nvcc there) and of vector (float4) reads.
    let out_dir = common::paths().artifacts().join(format!("cuda-peaks-{}", std::process::id()));
    let built = engine.run(Job::new("peaks_build", json!({"target": cuda, "out_dir": out_dir}), long)).await.unwrap();
    let kernels = built.result["kernels"].as_array().unwrap();
    assert!(kernels.iter().any(|k| k["label"] == "fma" && k["unit"] == "flops") && kernels.len() >= 5, "{}", built.result);
    let source = |label: &str| {
        let mut s = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(std::fs::File::open(out_dir.join(format!("{label}.cu.gz"))).unwrap()), &mut s).unwrap();
        s
    };
    let fma = source("fma");
    assert!(fma.contains("__global__") && fma.contains("* xs_ptr[7]) + ys_ptr[7]"), "{fma}");
    assert!(source("read_1048576k").contains("float4"), "vector loads");
    let _ = std::fs::remove_dir_all(&out_dir);
}

/// L2 on a GPU edits the CUDA C nvcc compiles (the device times the
/// result): dlight's matmul with its read-only inputs declared `const
/// __restrict__` (never its output), launch bounds that ask for more
/// resident blocks, and an unrolled outer loop; each move changes the text
/// and nothing else of it.
#[tokio::test]
async fn cuda_l2_moves_edit_the_cuda_c_of_the_baseline() {
    use kwb::engine::Job;
    use serde_json::json;
    use std::time::Duration;
    let engine = common::engine(1).await;
    let set = common::tasks();
    let matmul = set.get("matmul_256").unwrap();
    let spec = json!(matmul.reference_meta().unwrap().args);
    let artifact = common::paths().artifacts().join(format!("cuda-l2-{}.so", std::process::id()));
    let built = engine
        .run(Job::new("build", json!({"source": matmul.reference_text().unwrap(), "stage": "l0", "target": {"kind": "cuda", "arch": "sm_90"}, "artifact": artifact, "args_spec": spec, "task_dtype": "float32"}), Duration::from_secs(300)))
        .await
        .unwrap();
    let _ = std::fs::remove_file(&artifact);
    let src = built.result["device_source"].as_str().unwrap().to_string();
    let out = engine.run(Job::new("cuda_l2_moves", json!({"text": src}), Duration::from_secs(60))).await.unwrap();
    let moves = out.result["moves"].as_array().unwrap();
    let by_name = |n: &str| moves.iter().find(|m| m["name"] == n).and_then(|m| m["text"].as_str()).unwrap_or_else(|| panic!("no {n} move: {moves:?}")).to_string();
    let changed = |text: &str| -> Vec<String> {
        let (a, b): (Vec<&str>, Vec<&str>) = (src.lines().collect(), text.lines().collect());
        similar::TextDiff::from_slices(&a, &b).iter_all_changes().filter(|c| c.tag() != similar::ChangeTag::Equal).map(|c| format!("{}{}", c.tag(), c.value())).collect()
    };

    let c = by_name("const-inputs");
    assert!(c.contains("const float* __restrict__ a_ptr") && c.contains("const float* __restrict__ b_ptr"), "the inputs: {:?}", changed(&c));
    assert!(!c.contains("const float* __restrict__ matmul_ptr"), "the output stays writable");
    assert!(changed(&c).iter().all(|l| l.contains("__global__")), "only the signatures change: {:?}", changed(&c));

    let o = by_name("occupancy-2");
    assert!(o.contains("__launch_bounds__(128, 2)") && !o.contains("__launch_bounds__(128)"), "{:?}", changed(&o));

    let u = by_name("unroll-4");
    let added = changed(&u);
    assert_eq!(added.len(), 1, "one line added: {added:?}");
    assert_eq!(added[0].replace(char::is_whitespace, ""), "+#pragmaunroll4");
    let at = u.lines().position(|l| l.trim() == "#pragma unroll 4").unwrap();
    assert!(u.lines().nth(at + 1).unwrap().trim_start().starts_with("for ("), "the pragma stands before a loop");
}
