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
    }
    assert!(pack.join("tasks/relu6/outputs/seed0.digest.npz").exists(), "the digest travels, not the outputs");

    let res = run_pack(&env.python, &pack, &work.path().join("out"));
    assert_eq!(res["meta"]["runtime_only"], true, "{}", res["meta"]);
    for id in ["relu6", "hardswish"] {
        let t = &res["tasks"][id];
        assert_eq!(t["baseline_correct"], true, "{t}");
        assert_eq!(t["reference_vs_pytorch"].as_array().map(Vec::len), Some(3), "the baseline's outputs checked on three seeds: {t}");
        for c in t["candidates"].as_array().unwrap() {
            assert_eq!(c["correct"], true, "a schedule of the same kernel stays correct: {c}");
            let s = c["timing"]["speedup_median"].as_f64().unwrap();
            assert!(s > 0.0 && s.is_finite(), "{c}");
        }
    }
    let report = kwb(&common::home(), &env.python, &["carry", "report", work.path().join("out/results.json").to_str().unwrap()]);
    assert!(report.status.success(), "{}", text(&report));
    let table = String::from_utf8_lossy(&report.stdout);
    assert!(table.contains("| relu6 |") && table.contains("| hardswish |") && table.contains("2 tasks: Compile@1 100%"), "{table}");

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
}
