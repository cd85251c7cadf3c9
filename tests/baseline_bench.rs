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

    // An export carries the tuning to another data directory (a later
    // session's machine), which then reuses it instead of tuning again.
    let store = tempfile::tempdir().unwrap();
    let file = store.path().join("tuning.tar.gz");
    let export = kwb(&["baseline", "export", "--out", file.to_str().unwrap()]);
    assert!(export.status.success() && text(&export).contains("exported"), "{}", text(&export));
    let other = tempfile::tempdir().unwrap();
    let python = kwb::engine::pyenv::ensure(&common::paths(), false, false).expect("engine environment").python;
    let in_other = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_kwb")).env("KWB_HOME", other.path()).env("KWB_PYTHON", &python).env("KWB_TASKS", common::repo().join("tasks")).args(args).output().unwrap();
    let imported = in_other(&["baseline", "import", file.to_str().unwrap()]);
    assert!(imported.status.success() && text(&imported).contains("imported"), "{}", text(&imported));
    let reused = in_other(&["baseline", "tune", "--task", "relu", "--trials", "2"]);
    assert!(text(&reused).contains("already tuned"), "an imported tuning is reused: {}", text(&reused));
    let garbage = store.path().join("garbage.tar.gz");
    std::fs::write(&garbage, "not an archive").unwrap();
    let refused = in_other(&["baseline", "import", garbage.to_str().unwrap()]);
    assert!(!refused.status.success() && text(&refused).contains("not an export"), "{}", text(&refused));

    let traces = kwb(&["baseline", "show", "relu", "--traces"]);
    assert!(traces.status.success() && text(&traces).contains("sch.get_sblock"), "{}", text(&traces));

    let r = kwb(&["eval", "--json", "--task", "relu", "--baseline", "tuned"]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap_or_else(|_| panic!("{}", text(&r)));
    assert_eq!(v["correct"], true, "{}", v["failure"]);
    // The tuned baseline is the faster of MetaSchedule's build and the default
    // build; either way the label names the tuning it was measured against.
    assert!(v["manifest"]["baseline"].as_str().unwrap().contains("metaschedule-tuned (2 trials)"), "{}", v["manifest"]["baseline"]);
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

/// group_conv_bn_relu's convolution is conv2d_grouped's very kernel: once
/// conv2d_grouped is tuned with twice the per-kernel budget, tuning
/// group_conv_bn_relu copies its records instead of searching it again,
/// searches the other kernel, says so, and builds a correct baseline.
#[test]
fn a_kernel_another_task_tuned_is_not_searched_again() {
    let home = tempfile::tempdir().unwrap();
    let python = kwb::engine::pyenv::ensure(&common::paths(), false, false).expect("engine environment").python;
    let run = |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_kwb")).env("KWB_HOME", home.path()).env("KWB_PYTHON", &python).env("KWB_TASKS", common::repo().join("tasks")).args(args).output().unwrap();
    let first = run(&["baseline", "tune", "--task", "conv2d_grouped", "--trials", "4"]);
    assert!(first.status.success(), "{}", text(&first));
    // Two kernels at two trials each: the convolution, searched with twice
    // that in conv2d_grouped's tuning, is not searched again.
    let second = run(&["baseline", "tune", "--task", "group_conv_bn_relu", "--trials", "4"]);
    assert!(second.status.success() && text(&second).contains("1 searched in other tasks' tunings"), "{}", text(&second));
    let tuned = home.path().join("data/baselines/tuned");
    let folder = |task: &str| std::fs::read_dir(&tuned).unwrap().flatten().map(|e| e.path()).find(|p| p.file_name().unwrap().to_str().unwrap().starts_with(&format!("{task}-"))).unwrap();
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(folder("group_conv_bn_relu").join("kwb-tuning.json")).unwrap()).unwrap();
    let reused = report["reused"].as_array().unwrap();
    assert_eq!(reused.len(), 1, "{report}");
    assert_eq!(reused[0]["from"], serde_json::json!([folder("conv2d_grouped").file_name().unwrap().to_str().unwrap()]), "{report}");
    assert_eq!(reused[0]["trials"], 4, "{report}");
    assert_eq!(report["searched_trials"], 2, "only the other kernel was searched: {report}");
    assert_eq!(report["kernels"].as_array().unwrap().len(), 2, "the database holds both kernels: {report}");
    let r = run(&["eval", "--json", "--task", "group_conv_bn_relu", "--baseline", "tuned"]);
    let v: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap_or_else(|_| panic!("{}", text(&r)));
    assert_eq!(v["correct"], true, "{}", v["failure"]);
    assert!(v["manifest"]["baseline"].as_str().unwrap().contains("1 of 2 kernels searched in other tasks' tunings"), "{}", v["manifest"]["baseline"]);
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
    for key in ["compile_at_1", "correct_at_1", "fast_1_0", "fast_2_0", "tasks"] {
        assert!(!v["aggregate"][key].is_null(), "{key} is null");
    }
    // The geometric mean is over validly timed tasks; a loaded machine can leave none.
    let valid = v["results"].as_array().unwrap().iter().filter(|r| r["timing_valid"] == true).count();
    assert_eq!(v["aggregate"]["geomean_speedup"].is_null(), valid == 0, "{}", v["aggregate"]);
    assert_eq!(v["aggregate"]["correct_at_1"], 1.0);
    for key in ["device_s_per_candidate", "device_s_per_success", "median_roofline_share", "max_peak_memory_bytes"] {
        assert!(!v["aggregate"][key].is_null(), "{key} is null");
    }
    for r in v["results"].as_array().unwrap() {
        let share = r["roofline_share"].as_f64().unwrap_or_else(|| panic!("{}: no roofline share", r["task"]));
        assert!(share > 0.0 && share < 2.0, "{}: roofline share {share}", r["task"]);
        assert!(r["peak_memory_bytes"].as_u64().is_some(), "{}: no peak memory", r["task"]);
    }
    for group in ["l1", "mobile", "robotics", "aiot"] {
        assert!(!v["by_group"][group].is_null(), "no {group} breakdown");
    }
    // PyTorch eager is timed beside each task where PyTorch is installed.
    if std::env::var_os("KWB_TEST_TORCH").is_some() {
        for r in v["results"].as_array().unwrap() {
            let e = &r["eager"];
            assert!(e["ms"].as_f64().is_some_and(|ms| ms > 0.0) && e["threads"].as_u64().is_some_and(|t| t >= 1), "{}: eager {e}", r["task"]);
        }
        assert_eq!(v["aggregate"]["eager_timed"], 3, "{}", v["aggregate"]);
        let report = std::fs::read_to_string(out.join("report.md")).unwrap();
        assert!(report.contains("against PyTorch eager: geomean") && report.contains("vs eager"), "{report}");
    }
    for svg in ["speedups.svg", "speedup-distribution.svg"].into_iter().filter(|_| valid > 0) {
        let text = std::fs::read_to_string(out.join(svg)).unwrap();
        assert!(text.starts_with("<svg") && text.contains("<rect"), "{svg}");
    }
    let csv = std::fs::read_to_string(out.join("results.csv")).unwrap();
    assert_eq!(csv.lines().count(), 4, "{csv}");
    assert!(std::fs::read_to_string(out.join("report.md")).unwrap().contains("Compile@1"));
    let json = out.join("results.json");

    // --resume keeps every finished task; under other settings it refuses;
    // a line cut short by a kill runs that task again, and only that one.
    let resumed = kwb(&["bench", "--suite", "smoke", "--json", "--out", out.to_str().unwrap(), "--resume"]);
    assert!(resumed.status.success(), "{}", text(&resumed));
    assert_eq!(text(&resumed).matches("finished before, kept").count(), 3, "{}", text(&resumed));
    let again: serde_json::Value = serde_json::from_slice(&resumed.stdout).unwrap();
    // (serde_json's float parsing may differ from the printed value in the last bit.)
    let same = |a: &serde_json::Value, b: &serde_json::Value| a.as_f64().zip(b.as_f64()).is_some_and(|(a, b)| (a - b).abs() <= 1e-9 * a.abs());
    for (a, b) in again["results"].as_array().unwrap().iter().zip(v["results"].as_array().unwrap()) {
        assert_eq!(a["task"], b["task"]);
        assert_eq!(a["candidate_sha256"], b["candidate_sha256"]);
        assert!(same(&a["speedup_median"], &b["speedup_median"]) && same(&a["candidate_ms"], &b["candidate_ms"]), "resumed results are the recorded ones: {a} {b}");
    }
    let other = kwb(&["bench", "--suite", "smoke", "--pairs", "7", "--out", out.to_str().unwrap(), "--resume"]);
    assert!(!other.status.success() && text(&other).contains("other settings"), "{}", text(&other));
    let progress = out.join("progress.jsonl");
    let recorded = std::fs::read_to_string(&progress).unwrap();
    let last_start = recorded.trim_end().rfind('\n').unwrap() + 1;
    let last: serde_json::Value = serde_json::from_str(recorded[last_start..].trim_end()).unwrap();
    let torn_task = last["task"].as_str().unwrap().to_string();
    std::fs::write(&progress, &recorded[..last_start + 40]).unwrap();
    let after_kill = kwb(&["bench", "--suite", "smoke", "--out", out.to_str().unwrap(), "--resume"]);
    assert!(after_kill.status.success(), "{}", text(&after_kill));
    assert_eq!(text(&after_kill).matches("finished before, kept").count(), 2, "{}", text(&after_kill));
    assert!(text(&after_kill).contains(&format!("] {torn_task}\n")), "{torn_task} runs again: {}", text(&after_kill));

    // --rerun-invalid runs again a task recorded as not validly timed, and
    // keeps what its first pass read beside the new figure. The record is
    // set so that relu alone is invalid: on a loaded machine any of the
    // three can end without confidence.
    let recorded = std::fs::read_to_string(&progress).unwrap();
    let marked: Vec<String> = recorded
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if v["result"].is_object() {
                v["result"]["timing_valid"] = (v["task"] != "relu").into();
            }
            if v["task"] == "relu" {
                v["result"]["speedup_median"] = 7.25.into();
            }
            v.to_string()
        })
        .collect();
    std::fs::write(&progress, marked.join("\n") + "\n").unwrap();
    let rerun = kwb(&["bench", "--suite", "smoke", "--out", out.to_str().unwrap(), "--resume", "--rerun-invalid"]);
    let t = text(&rerun);
    assert!(rerun.status.success(), "{t}");
    assert!(t.contains("running again 1 task(s) not validly timed before: relu") && t.matches("finished before, kept").count() == 2, "{t}");
    assert!(t.contains("] relu\n") && t.contains("relu: ") && t.contains("(before: 7.250x"), "{t}");
    assert!(std::fs::read_to_string(out.join("report.md")).unwrap().contains("run again after a timing without confidence (--rerun-invalid): 1 tasks"));
    let last_relu = std::fs::read_to_string(&progress).unwrap().lines().filter(|l| l.contains("\"task\":\"relu\"")).last().unwrap().to_string();
    let last_relu: serde_json::Value = serde_json::from_str(&last_relu).unwrap();
    assert_eq!(last_relu["earlier"][0]["speedup_median"], 7.25, "{}", last_relu["earlier"]);
    assert_ne!(last_relu["result"]["speedup_median"], 7.25);

    let c = kwb(&["bench", "compare", json.to_str().unwrap(), json.to_str().unwrap()]);
    let t = text(&c);
    assert!(c.status.success(), "{t}");
    let task_lines: Vec<&str> = t.lines().filter(|l| ["relu", "softmax", "matmul_256"].iter().any(|k| l.starts_with(k))).collect();
    assert_eq!(task_lines.len(), 3, "{t}");
    // A timing the machine's load made invalid shows as "-" on both sides.
    assert!(
        task_lines.iter().all(|l| l.trim_end().ends_with("1.000") || (l.matches("invalid").count() == 2 && l.trim_end().ends_with('-'))),
        "a run compared with itself: {t}"
    );
}

/// A search readies the baseline before its clock starts
/// (`Evaluator::prepare`): an evaluation after it builds and times no
/// baseline, where one on a cold cache does both.
#[tokio::test]
async fn prepare_does_the_baselines_one_off_work_before_any_evaluation() {
    let ev = common::evaluator(kwb::eval::EvalOptions { noise_runs: 1, ..common::quick_opts() }).await;
    let set = common::tasks();
    // A task no other test evaluates, so clearing its cached baseline races nothing.
    let task = set.get("broadcast_mul").unwrap();
    let source = task.reference_text().unwrap();
    let clear = || {
        for e in std::fs::read_dir(common::paths().baseline_cache()).into_iter().flatten().flatten() {
            if e.file_name().to_string_lossy().starts_with("broadcast_mul-") {
                std::fs::remove_file(e.path()).unwrap();
            }
        }
    };
    let stages = |r: &kwb::eval::EvalResult| r.stages.iter().map(|s| s.stage.clone()).collect::<Vec<_>>();

    clear();
    let cold = ev.evaluate(task, &source).await;
    assert!(cold.correct, "{:?}", cold.failure);
    for stage in ["baseline_build", "noise_floor"] {
        assert!(stages(&cold).iter().any(|s| s == stage), "a cold evaluation does `{stage}`: {:?}", stages(&cold));
    }

    clear();
    ev.prepare(task).await.expect("the baseline is readied");
    let warm = ev.evaluate(task, &source).await;
    assert!(warm.correct, "{:?}", warm.failure);
    assert_eq!(stages(&warm), ["build", "check", "time"], "after prepare an evaluation does only the candidate's own stages");
}

/// A cancel while the baseline is readied ends the run there: no
/// evaluation starts after it (the root's included), and the run says it
/// was cancelled. A cold baseline can take a minute; before, a cancel was
/// seen only once it was ready and the root evaluated.
#[tokio::test]
async fn a_run_cancelled_while_its_baseline_is_readied_stops_before_any_evaluation() {
    use kwb::agent::orchestrator::{self, Backend, RunSpec, Steering, Strategy};
    let ev = std::sync::Arc::new(common::evaluator(common::quick_opts()).await);
    let dir = tempfile::tempdir().unwrap();
    let spec = RunSpec {
        task: "gelu_tanh".into(),
        strategy: Strategy::Layered,
        backend: Backend::Builtin,
        budget: kwb::agent::Budget::default(),
        session: dir.path().join("c.jsonl"),
        start_node: None,
    };
    let mut handle = orchestrator::start(ev, std::sync::Arc::new(common::tasks()), common::paths(), spec, std::sync::Arc::new(kwb::agent::supervisor::AutoAccept));
    handle.steering.send(Steering { cancelled: true, ..Default::default() }).unwrap();
    let mut kinds = vec![];
    while let Some(e) = handle.events.recv().await {
        kinds.push(serde_json::to_value(&e).unwrap());
    }
    let summary = handle.done.await.unwrap().expect("the run ends cleanly");
    assert_eq!(summary.stopped_by, "cancelled", "{summary:?}");
    assert!(!kinds.iter().any(|e| e["type"] == "eval_started"), "nothing is evaluated after a cancel: {kinds:?}");
    assert!(!kinds.iter().any(|e| e["text"].as_str().is_some_and(|t| t.contains("baseline ready"))), "{kinds:?}");
    assert!(kinds.iter().any(|e| e["text"].as_str().is_some_and(|t| t.starts_with("run ended: cancelled"))), "{kinds:?}");
}
