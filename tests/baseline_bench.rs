//! The tuned baseline (a real MetaSchedule tuning with a tiny budget) and
//! the benchmark's files, through the real binary.

mod common;

use std::process::{Command, Output};

fn kwb(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kwb")).env("KWB_HOME", common::home()).env("KWB_TASKS", common::repo().join("tasks")).args(args).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn tuned_baseline_is_tuned_once_used_by_eval_and_opens_as_a_candidate() {
    // Two trials: enough to exercise tuning, the database and compile_relax.
    let first = kwb(&["baseline", "tune", "--task", "relu", "--trials", "2"]);
    assert!(first.status.success(), "{}", text(&first));
    let again = kwb(&["baseline", "tune", "--task", "relu", "--trials", "2"]);
    assert!(text(&again).contains("already tuned"), "a finished tuning is reused: {}", text(&again));
    let show = kwb(&["baseline", "show", "relu"]);
    assert!(show.status.success() && text(&show).contains("metaschedule-tuned (2 trials)"), "{}", text(&show));

    let r = kwb(&["eval", "--json", "--task", "relu", "--baseline", "tuned"]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap_or_else(|_| panic!("{}", text(&r)));
    assert_eq!(v["correct"], true, "{}", v["failure"]);
    assert!(v["manifest"]["baseline"].as_str().unwrap().starts_with("metaschedule-tuned"), "{}", v["manifest"]["baseline"]);
    assert!(v["baseline_ms"].as_f64().unwrap() > 0.0);

    let dir = tempfile::tempdir().unwrap();
    let module = kwb(&["baseline", "show", "relu", "--module"]);
    assert!(module.status.success(), "{}", text(&module));
    let path = dir.path().join("tuned.py");
    std::fs::write(&path, &module.stdout).unwrap();
    let as_candidate = kwb(&["eval", "--json", "--task", "relu", "--candidate", path.to_str().unwrap()]);
    let v: serde_json::Value = serde_json::from_slice(&as_candidate.stdout).unwrap();
    assert_eq!(v["correct"], true, "the tuned module is a valid candidate: {}", v["failure"]);
}

#[test]
fn an_untuned_task_says_how_to_tune_it() {
    let r = kwb(&["eval", "--json", "--task", "gelu", "--baseline", "tuned"]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    assert_eq!(v["failure_class"], "task");
    assert!(v["failure"]["message"].as_str().unwrap().contains("kwb baseline tune --task gelu"), "{}", v["failure"]);
}

#[test]
fn bench_writes_its_files_and_compares_runs() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("run");
    let r = kwb(&["bench", "--suite", "smoke", "--json", "--out", out.to_str().unwrap()]);
    assert!(r.status.success(), "{}", text(&r));
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
    for key in ["compile_at_1", "correct_at_1", "fast_1_0", "fast_2_0", "geomean_speedup", "tasks"] {
        assert!(!v["aggregate"][key].is_null(), "{key} is null");
    }
    assert_eq!(v["aggregate"]["correct_at_1"], 1.0);
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(std::fs::read_to_string(out.join("report.md")).unwrap().contains("Compile@1"));
    let json = out.join("results.json");
    let c = kwb(&["bench", "compare", json.to_str().unwrap(), json.to_str().unwrap()]);
    let t = text(&c);
    assert!(c.status.success(), "{t}");
    assert_eq!(t.lines().filter(|l| l.trim_end().ends_with("1.000")).count(), 3, "{t}");
}
