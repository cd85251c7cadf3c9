//! Task loading: the bundled suite, malformed metadata, and the reference of
//! every shipped task checked and timed through the real binary.

mod common;

use std::process::Command;

fn kwb() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kwb"));
    c.env("KWB_HOME", common::home()).env("KWB_TASKS", common::repo().join("tasks"));
    c
}

#[test]
fn bundled_suite_has_ten_level_one_tasks_and_a_smoke_suite() {
    let set = common::tasks();
    assert!(set.problems.is_empty(), "{:?}", set.problems);
    let count = |l: u8| set.tasks.iter().filter(|t| t.meta.level == l).count();
    assert!(count(1) >= 40, "{} level-1 tasks", count(1));
    assert!(count(2) >= 30, "{} level-2 tasks", count(2));
    assert!(count(3) >= 10, "{} level-3 tasks", count(3));
    for t in &set.tasks {
        assert!(!t.meta.domains.is_empty());
        assert!(t.reference.as_ref().unwrap().size.is_some(), "{} has no size figures", t.id());
    }
    for suite in ["mobile", "robotics", "aiot", "smoke", "l1", "all"] {
        assert!(!set.suite(suite).unwrap().is_empty(), "suite {suite} is empty");
    }
    for t in &set.tasks {
        let r = t.reference_meta().expect("every shipped task is imported");
        assert!(!r.args.is_empty());
        for seed in 0..3 {
            assert!(t.outputs_dir().join(format!("seed{seed}.digest.npz")).exists(), "{} lacks seed {seed}", t.id());
        }
    }
    assert_eq!(set.suite("smoke").unwrap().len(), 3);
}

#[test]
fn malformed_task_files_are_reported_and_skipped() {
    let dir = tempfile::tempdir().unwrap();
    let good = dir.path().join("good");
    std::fs::create_dir_all(&good).unwrap();
    for f in ["task.toml", "reference.json", "reference.py", "model.py"] {
        std::fs::copy(common::repo().join("tasks/l1/relu").join(f), good.join(f)).unwrap();
    }
    let cases = [
        ("syntax", "id = \"x\"\nlevel = 1\ndomains = [\"mobile\"\n"),
        ("unknown_field", "id = \"y\"\nlevel = 1\ndomains = [\"mobile\"]\ndtype = \"float32\"\ncolour = 3\n[tolerance]\natol = 1e-4\nrtol = 1e-4\n"),
        ("bad_level", "id = \"z\"\nlevel = 7\ndomains = [\"mobile\"]\ndtype = \"float32\"\n[tolerance]\natol = 1e-4\nrtol = 1e-4\n"),
        ("loose_rtol", "id = \"w\"\nlevel = 1\ndomains = [\"mobile\"]\ndtype = \"float32\"\n[tolerance]\natol = 1e-4\nrtol = 1.0\n"),
        ("bad_domain", "id = \"v\"\nlevel = 1\ndomains = [\"mars\"]\ndtype = \"float32\"\n[tolerance]\natol = 1e-4\nrtol = 1e-4\n"),
    ];
    for (name, text) in cases {
        let d = dir.path().join(name);
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(d.join("task.toml"), text).unwrap();
    }
    let set = kwb::tasks::TaskSet::load(dir.path()).unwrap();
    assert_eq!(set.tasks.len(), 1, "the good task still loads");
    assert_eq!(set.problems.len(), cases.len(), "{:?}", set.problems);
    let msg = |n: &str| set.problems.iter().find(|p| p.dir.ends_with(n)).unwrap().message.clone();
    assert!(msg("unknown_field").contains("colour"));
    assert!(msg("bad_level").contains("level 7"));
    assert!(msg("loose_rtol").contains("rtol"));
    assert!(msg("bad_domain").contains("mars"));
    // The CLI lists the good task and warns about the rest, without failing.
    let out = kwb().args(["tasks", "list", "--json", "--tasks"]).arg(dir.path()).output().unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["tasks"].as_array().unwrap().len(), 1);
    assert_eq!(v["problems"].as_array().unwrap().len(), cases.len());
}

#[test]
fn tasks_check_passes_without_pytorch() {
    let out = kwb().args(["tasks", "check"]).output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(" 0 failed"), "{text}");
}

/// Kernels shorter than this are dominated by the VM's call overhead, whose
/// jitter can exceed the 1% interval the timing asks for; their validity is
/// reported, not required.
const TIMED_FLOOR_MS: f64 = 0.05;

/// The fields every result carries, and the reference matching itself.
fn check_reference_result(id: &str, v: &serde_json::Value) {
    assert_eq!(v["correct"], true, "{id}: {}", v["failure"]);
    for key in ["compile_ok", "correct", "max_errors", "failure_class", "candidate_ms", "baseline_ms", "speedup_median", "timing_valid", "samples", "compile_s", "manifest"] {
        assert!(v.get(key).is_some(), "{id}: {key} missing");
    }
    assert_eq!(v["manifest"]["versions"]["tvm"], "0.27.0.post1", "{id}");
    assert!(v["manifest"]["config_hash"].as_str().is_some_and(|h| h.len() == 16), "{id}");
}

/// Every reference against itself in one `kwb bench` (one engine, so the
/// sweep pays for `import tvm` once rather than once per task), by task id.
/// Without noise floors: a reference against itself needs none, and each
/// is three more timings that wait for the device among CI's other tests.
fn bench_references() -> std::collections::BTreeMap<String, serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    let out = kwb().args(["bench", "--suite", "all", "--agent", "reference", "--no-eager", "--noise-runs", "0", "--out"]).arg(dir.path()).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&std::fs::read(dir.path().join("results.json")).unwrap()).unwrap();
    v["results"].as_array().unwrap().iter().map(|r| (r["task"].as_str().unwrap().to_string(), r.clone())).collect()
}

#[test]
fn every_shipped_reference_is_correct_and_times_as_itself() {
    let set = common::tasks();
    let is_timed = |v: &serde_json::Value| v["baseline_ms"].as_f64().unwrap() >= TIMED_FLOOR_MS;
    let mut swept = bench_references();
    let results: Vec<(&kwb::tasks::Task, serde_json::Value)> = set
        .tasks
        .iter()
        .map(|t| {
            let v = swept.remove(t.id()).unwrap_or_else(|| panic!("{}: no result from the sweep", t.id()));
            check_reference_result(t.id(), &v);
            (t, v)
        })
        .collect();
    let mut invalid = Vec::new();
    for (t, v) in &results {
        let x = v["speedup_median"].as_f64().unwrap();
        // A valid interval must put the reference within 10% of itself; an
        // invalid one (a loaded machine) is reported below and held to 25%,
        // as is any kernel under the timing floor: a CI run put pixel_shuffle
        // (5 us) at 0.814x with an interval that closed, and three runs
        // right after at 0.98-1.01x.
        let valid = v["timing_valid"] == true;
        let bound = if valid && is_timed(v) { 0.9..1.1 } else { 0.75..1.33 };
        assert!(bound.contains(&x), "{}: the reference against itself gave {x} (timing valid: {valid})", t.id());
        eprintln!("{:<28} L{} one forward pass {:>9.3} ms (speedup {:.3}x +/- {:.1}%)", t.id(), t.meta.level, v["baseline_ms"].as_f64().unwrap(), x, v["ci"].as_f64().unwrap_or(0.0) * 100.0);
        if t.meta.level == 3 {
            assert!(v["baseline_ms"].as_f64().unwrap() < 1000.0, "{}: a model graph must run within about 1 s", t.id());
        }
        if !valid {
            invalid.push((is_timed(v), format!("{} ({:.3} ms, ci {})", t.id(), v["baseline_ms"].as_f64().unwrap(), v["ci"])));
        }
    }
    let timed = results.iter().filter(|(_, v)| is_timed(v)).count();
    let (required, reported): (Vec<_>, Vec<_>) = invalid.into_iter().partition(|(timed, _)| *timed);
    eprintln!("timings left invalid under {TIMED_FLOOR_MS} ms (reported): {:?}", reported.iter().map(|r| &r.1).collect::<Vec<_>>());
    eprintln!("timings left invalid above it: {:?}", required.iter().map(|r| &r.1).collect::<Vec<_>>());
    assert!(timed * 2 > results.len(), "most shipped tasks are above the timing floor ({timed} of {})", results.len());
    // CI runs other tests beside this one on two cores, most of them timing
    // too: under that load, in one pass, CI runs left 45% and (with builds
    // beside them) 62% of the timings wider than 1%, each still within 25%
    // of 1.0x (asserted above). What is asserted here is that timing still
    // works at all: some intervals close, and the pairing is unbiased (the
    // median of a reference against itself stays at 1.0x however loaded the
    // machine is, since both sides share the load). That the references time
    // validly on a quiet machine is a benchmark, `kwb bench --suite all`
    // (results/reference-all.md), not a test under load.
    assert!(required.len() * 5 <= timed * 4, "too many invalid timings above {TIMED_FLOOR_MS} ms: {:?}", required.iter().map(|r| &r.1).collect::<Vec<_>>());
    let mut speedups: Vec<f64> = results.iter().filter(|(_, v)| is_timed(v)).map(|(_, v)| v["speedup_median"].as_f64().unwrap()).collect();
    speedups.sort_by(f64::total_cmp);
    let median = speedups[speedups.len() / 2];
    assert!((0.98..1.02).contains(&median), "the reference against itself has a median of {median:.3}x: the pairing is biased");
}

/// Recorded outputs are checked against the hashes written at import: an
/// output file changed afterwards (say, to match a wrong candidate) is
/// refused as a task problem before any candidate is compared with it. A
/// digest re-recorded with its hash, and a reference program changed after
/// import, are caught by the reference built here disagreeing with it.
#[test]
fn changed_reference_outputs_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let task_dir = dir.path().join("l1").join("relu");
    std::fs::create_dir_all(task_dir.join("outputs")).unwrap();
    let src = common::repo().join("tasks/l1/relu");
    let files = ["task.toml", "model.py", "reference.py", "reference.json", "outputs/seed0.digest.npz", "outputs/seed1.digest.npz", "outputs/seed2.digest.npz"];
    let restore = || {
        for f in files {
            std::fs::copy(src.join(f), task_dir.join(f)).unwrap();
        }
    };
    restore();
    let run = || -> serde_json::Value { serde_json::from_slice(&kwb().env("KWB_TASKS", dir.path()).args(["eval", "--json", "--task", "relu"]).output().unwrap().stdout).unwrap() };
    let ok = run();
    assert_eq!(ok["correct"], true, "{}", ok["failure"]);
    // Replace seed 1's digest with seed 0's: a valid file, just not the recorded one.
    std::fs::copy(src.join("outputs/seed0.digest.npz"), task_dir.join("outputs/seed1.digest.npz")).unwrap();
    let bad = run();
    assert_eq!(bad["failure_class"], "task", "{bad}");
    assert!(bad["failure"]["message"].as_str().unwrap().contains("changed since the task was imported"), "{}", bad["failure"]);
    // The same, with its hash recorded too: the reference no longer agrees.
    let meta_path = task_dir.join("reference.json");
    let mut meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&meta_path).unwrap()).unwrap();
    meta["outputs_sha256"]["seed1.digest.npz"] = meta["outputs_sha256"]["seed0.digest.npz"].clone();
    std::fs::write(&meta_path, meta.to_string()).unwrap();
    let bad = run();
    assert_eq!(bad["failure_class"], "task", "{bad}");
    assert!(bad["failure"]["message"].as_str().unwrap().contains("disagrees with PyTorch's recorded outputs"), "{}", bad["failure"]);
    // A reference program changed after import (off by 1e-3 where positive).
    restore();
    let reference = std::fs::read_to_string(src.join("reference.py")).unwrap();
    let shifted = reference.replace("R.nn.relu(x)", "R.nn.relu(R.add(x, R.const(0.001, \"float32\")))");
    assert_ne!(shifted, reference);
    std::fs::write(task_dir.join("reference.py"), shifted).unwrap();
    let bad = run();
    assert_eq!(bad["failure_class"], "task", "{bad}");
    assert!(bad["failure"]["message"].as_str().unwrap().contains("disagrees with PyTorch's recorded outputs"), "{}", bad["failure"]);
}

/// The checkout travels to other machines (a copy of at most 64 MiB): its
/// tracked files stay under 40 MiB.
#[test]
fn tracked_files_stay_under_40_mib() {
    let out = Command::new("git").arg("-C").arg(common::repo()).args(["ls-files", "-z"]).output().expect("git runs");
    assert!(out.status.success(), "git ls-files: {}", String::from_utf8_lossy(&out.stderr));
    let total: u64 = out.stdout.split(|b| *b == 0).filter(|p| !p.is_empty()).filter_map(|p| std::fs::metadata(common::repo().join(String::from_utf8_lossy(p).as_ref())).ok()).map(|m| m.len()).sum();
    assert!(total > 1 << 20, "the listing found the repository ({total} bytes)");
    assert!(total < 40 << 20, "tracked files are {:.1} MiB", total as f64 / 1048576.0);
}

/// A reader that goes away (`kwb tasks list | head -1` once head is done)
/// ends kwb quietly: no panic and no backtrace on the terminal.
#[test]
fn a_closed_stdout_ends_kwb_quietly() {
    use std::process::Stdio;
    let mut child = kwb().args(["tasks", "list"]).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    // Closed before kwb (which loads the task set first) prints its first line.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked") && !err.contains("backtrace"), "{err}");
    assert_eq!(out.status.code(), Some(141), "{err}");
}
