//! The supervisor: cancel, protocol errors, and the exclusive device lock.

mod common;

use kwb::engine::Job;
use kwb::failure::FailureClass;
use serde_json::json;
use std::time::{Duration, Instant};
use tokio_util::sync::CancellationToken;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_op_is_an_error_and_the_worker_stays() {
    let engine = common::engine(1).await;
    let f = engine.run(Job::new("no_such_op", json!({}), Duration::from_secs(30))).await.unwrap_err();
    assert_eq!(f.class, FailureClass::Internal);
    assert!(f.message.contains("unknown op"), "{f}");
    let started = engine.stats().workers_started;
    let ok = engine.run(Job::new("ping", json!({}), Duration::from_secs(30))).await.unwrap();
    assert_eq!(ok.result["pong"], true);
    assert_eq!(engine.stats().workers_started, started, "a protocol error must not cost a worker");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_kills_a_hanging_job_promptly() {
    let ev = common::evaluator(kwb::eval::EvalOptions::default()).await;
    let set = common::tasks();
    let task = set.get("relu").unwrap();
    let artifact = common::paths().artifacts().join(format!("hang-{}.so", std::process::id()));
    let spec = task.reference_meta().unwrap().args.clone();
    let outputs = ev.reference_outputs(task).await.expect("the reference agrees with its digest");
    ev.engine
        .run(Job::new("build", json!({"source": common::candidate("relu", "hang"), "target": ev.opts.target, "artifact": artifact, "args_spec": spec}), Duration::from_secs(120)))
        .await
        .expect("the hanging candidate builds");
    let token = CancellationToken::new();
    let t2 = token.clone();
    tokio::spawn(async move {
        tokio::time::sleep(Duration::from_millis(1500)).await;
        t2.cancel();
    });
    let started = Instant::now();
    let job = Job::new(
        "check",
        json!({"artifact": artifact, "args_spec": spec, "outputs_dir": outputs, "atol": 1e-4, "rtol": 1e-4}),
        Duration::from_secs(600),
    )
    .cancel_with(token);
    let f = ev.engine.run(job).await.unwrap_err();
    assert_eq!(f.class, FailureClass::Cancelled);
    assert!(started.elapsed() < Duration::from_secs(10), "cancel took {:?}", started.elapsed());
    let _ = std::fs::remove_file(&artifact);
    let pong = ev.engine.run(Job::new("ping", json!({}), Duration::from_secs(60))).await;
    assert!(pong.is_ok(), "a replacement worker serves the next job");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timing_excludes_every_other_job() {
    let ev = std::sync::Arc::new(common::evaluator(kwb::eval::EvalOptions::default()).await);
    ev.engine.prewarm(2).await.unwrap();
    let set = common::tasks();
    let task = set.get("softmax").unwrap().clone();
    let baseline = ev.baseline_artifact(&task).await.unwrap();
    let spec = task.reference_meta().unwrap().args.clone();
    let time_job = Job::new(
        "time",
        json!({"baseline_artifact": baseline, "candidate_artifact": baseline, "args_spec": spec, "pairs": 10, "max_rounds": 1}),
        Duration::from_secs(300),
    )
    .exclusive();
    let e1 = ev.engine.clone();
    let timing = tokio::spawn(async move { e1.run(time_job).await.unwrap() });
    tokio::time::sleep(Duration::from_millis(300)).await;
    let artifact = common::paths().artifacts().join(format!("excl-{}.so", std::process::id()));
    let build = Job::new("build", json!({"source": task.reference_text().unwrap(), "target": ev.opts.target, "artifact": artifact, "args_spec": spec}), Duration::from_secs(120));
    let built = ev.engine.run(build).await.unwrap();
    let timed = timing.await.unwrap();
    let _ = std::fs::remove_file(&artifact);
    assert!(timed.wall_s > 0.3, "the timing job must still be running when the build is submitted");
    // The engine's own instants, taken while each job held its lock: the
    // test's clock would also count how late this thread was scheduled.
    assert!(built.started >= timed.ended, "a build ran during a measurement: it started {:?} before the timing ended", timed.ended - built.started);
}

/// A side that reports less time than it ran, as a candidate that took over
/// its own process could, is caught by what the job's process saw of the
/// turn; an honest side, the same module, is not.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_side_that_under_reports_its_time_is_refused() {
    let ev = common::evaluator(kwb::eval::EvalOptions::default()).await;
    let set = common::tasks();
    let task = set.get("softmax").unwrap();
    let baseline = ev.baseline_artifact(task).await.unwrap();
    let spec = task.reference_meta().unwrap().args.clone();
    let time = |fault: Option<f64>| {
        Job::new(
            "time",
            json!({"baseline_artifact": baseline, "candidate_artifact": baseline, "args_spec": spec, "pairs": 5, "max_rounds": 1, "fault_forge_times": fault}),
            Duration::from_secs(300),
        )
        .exclusive()
    };
    let honest = ev.engine.run(time(None)).await.unwrap().result;
    eprintln!("honest sides, claimed over seen: {}", honest["accounted"]);
    assert!(honest["forged_times"].is_null(), "an honest side was judged a forger: {}", honest["forged_times"]);
    assert!(honest["accounted"]["candidate"]["turns"].as_u64().is_some_and(|n| n >= 5), "no turn of the candidate was judged: {}", honest["accounted"]);
    let lying = ev.engine.run(time(Some(0.3))).await.unwrap().result;
    let f = &lying["forged_times"];
    assert!(f.is_object(), "a side reporting 0.3 of its time passed: {}", lying["accounted"]);
    assert!(f["claimed_ms"].as_f64().unwrap() < 0.5 * f["seen_ms"].as_f64().unwrap(), "{f}");
    assert_eq!(lying["timing_valid"], false);
    assert!(lying["samples"].as_array().unwrap().len() <= 1, "measuring stops at the forged turn");
}

/// The pids of processes whose parent is `parent` and whose command line
/// holds `what`.
fn children_of(parent: u32, what: &str) -> Vec<u32> {
    let mut out = vec![];
    for e in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = e.file_name().to_string_lossy().parse::<u32>() else { continue };
        let (Ok(stat), Ok(cmd)) = (std::fs::read_to_string(format!("/proc/{pid}/stat")), std::fs::read(format!("/proc/{pid}/cmdline"))) else { continue };
        // Field 4 of stat, after the command in parentheses, is the parent pid.
        let ppid = stat.rsplit_once(')').and_then(|(_, rest)| rest.split_whitespace().nth(1)).and_then(|p| p.parse::<u32>().ok());
        if ppid == Some(parent) && String::from_utf8_lossy(&cmd).contains(what) {
            out.push(pid);
        }
    }
    out
}

fn alive(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.rsplit_once(')').is_some_and(|(_, r)| r.trim_start().starts_with('Z')))
}

/// A kwb killed in the middle of a long job (here a tuning) takes its engine
/// workers with it: none is left running on its own, loading the machine
/// under the next run's measurements.
#[test]
fn a_killed_kwb_leaves_no_worker_behind() {
    let mut kwb = std::process::Command::new(env!("CARGO_BIN_EXE_kwb"))
        .env("KWB_HOME", common::home())
        .env("KWB_TASKS", common::repo().join("tasks"))
        .args(["baseline", "tune", "--task", "matmul_rect", "--trials", "500", "--force"])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait until the tuning runs in a worker: MetaSchedule's builders are
    // its children. A busy worker reads nothing from kwb, so only its own
    // death signal can stop it.
    let t = Instant::now();
    let mut workers = vec![];
    while t.elapsed() < Duration::from_secs(300) {
        std::thread::sleep(Duration::from_millis(200));
        workers = children_of(kwb.id(), "kwb_engine");
        if workers.iter().any(|&w| !children_of(w, "popen_worker").is_empty()) {
            break;
        }
    }
    assert!(workers.iter().any(|&w| !children_of(w, "popen_worker").is_empty()), "no tuning started in a worker within 300 s: {workers:?}");
    // The worker's own children too: MetaSchedule's builder processes.
    let family: Vec<u32> = workers.iter().flat_map(|&w| std::iter::once(w).chain(children_of(w, ""))).collect();
    kwb.kill().unwrap();
    let _ = kwb.wait();
    let t = Instant::now();
    while family.iter().any(|&p| alive(p)) && t.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
    }
    let left: Vec<u32> = family.into_iter().filter(|&p| alive(p)).collect();
    assert!(left.is_empty(), "engine workers or their children {left:?} outlived the kwb that started them");
}

/// The hardware agent's profile runs the candidate's code in a build
/// worker, which forks a child for each job: the child that ran it is gone
/// once the job is done, and the warm worker it was forked from (which
/// never ran a candidate) stays to build the next one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_process_a_profile_ran_a_candidate_in_does_not_outlive_it() {
    let ev = common::evaluator(common::quick_opts()).await;
    let set = common::tasks();
    let task = set.get("relu").unwrap();
    let texts = kwb::session::runner::derive(&ev, task, json!({"l0": task.reference_text().unwrap()})).await.expect("the reference lowers");
    let (started, killed) = (ev.engine.stats().workers_started, ev.engine.stats().workers_killed);
    let profile = kwb::agent::hardware::measure(&ev.engine, &ev.opts.target, task, &texts).await.expect("the profile runs");
    assert!(profile["kernels"].as_array().is_some_and(|k| !k.is_empty()), "{profile}");
    let pid = profile["pid"].as_u64().expect("the profile says which process ran it") as u32;
    // Gone, or a zombie (exited, not yet reaped: it runs nothing).
    let running = || alive(pid);
    let deadline = Instant::now() + Duration::from_secs(10);
    while running() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(!running(), "process {pid} ran the candidate and is still running");
    // Builds go on in the warm worker: none was killed or started for this.
    let again = kwb::session::runner::derive(&ev, task, json!({"l0": task.reference_text().unwrap()})).await.expect("a build after the profile");
    assert_eq!(again.l1_module, texts.l1_module);
    assert_eq!((ev.engine.stats().workers_started, ev.engine.stats().workers_killed), (started, killed));
}
