//! What a worker can see: no secrets from kwb's environment, no network
//! (where the kernel grants a private namespace), a private scratch home.

mod common;

use kwb::engine::Job;
use serde_json::json;
use std::time::Duration;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn worker_environment_has_no_secrets() {
    // SAFETY: this test binary has only this test, so no other thread reads the environment.
    unsafe {
        std::env::set_var("OPENAI_API_KEY", "sk-test-must-not-leak");
        std::env::set_var("ANTHROPIC_API_KEY", "sk-ant-test-must-not-leak");
        std::env::set_var("KWB_LLM_TOKEN", "also-secret");
    }
    let engine = common::engine(1).await;
    let out = engine.run(Job::new("doctor", json!({}), Duration::from_secs(60))).await.unwrap();
    let keys: Vec<String> = serde_json::from_value(out.result["env_keys"].clone()).unwrap();
    assert!(keys.contains(&"PATH".to_string()), "the allow-list keeps PATH: {keys:?}");
    for secret in ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "KWB_LLM_TOKEN"] {
        assert!(!keys.iter().any(|k| k == secret), "{secret} reached the worker");
    }
    let home = keys.iter().any(|k| k == "HOME");
    assert!(home);
    // As root (CI and the developer machines), the worker gets a private network namespace.
    if unsafe { libc::geteuid() } == 0 {
        let up: Vec<String> = serde_json::from_value(out.result["net_interfaces"].clone()).unwrap();
        assert!(up.is_empty(), "the worker sees network interfaces: {up:?}");
    }
}

/// Build and measure workers confine themselves: what candidate code could
/// try (write outside scratch, start a program, read kwb's environment,
/// open a TCP connection) is tried for real in each, and refused; so is what
/// a side of a measurement could try against the process that judges it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn confined_workers_refuse_what_a_candidate_would_try() {
    use kwb::engine::sandbox::{Role, summary};
    let engine = common::engine(1).await;
    let outside = common::home().join("sandbox-probe-outside.txt");
    let _ = std::fs::remove_file(&outside);
    for role in [Role::Build, Role::Measure] {
        let args = json!({"outside_path": outside, "read_environ_of": std::process::id()});
        let out = engine.run(Job::new("probe", args, Duration::from_secs(60)).in_role(role)).await.unwrap();
        let r = &out.result;
        for what in ["write_outside", "exec", "read_environ", "connect"] {
            assert!(r[what].as_str().unwrap_or("").starts_with("denied"), "{} worker: {what} was {}", role.as_str(), r[what]);
        }
        assert!(!outside.exists(), "a {} worker wrote outside its scratch", role.as_str());
        if role == Role::Measure {
            // A side of a measurement (the process a candidate runs in) is
            // confined further: it reaches neither the job's process nor
            // another process of its own, and is stopped, threads and all.
            let side = &r["side"];
            for what in ["signal_parent", "fork", "write_file"] {
                assert!(side[what].as_str().unwrap_or("").starts_with("denied"), "side: {what} was {}", side[what]);
            }
            assert_eq!(side["thread"], "allowed", "a side must still start threads: {side}");
            assert_eq!(side["thread_ran"], true, "{side}");
            assert_eq!(side["stopped_thread_ran"], false, "a stopped side's thread went on running: {side}");
            assert_eq!(side["continued_thread_ran"], true, "{side}");
        }
    }
    let report = engine.sandbox();
    assert_eq!(report["measure"]["seccomp"]["applied"], true, "{report}");
    assert_eq!(report["build"]["landlock"]["applied"], true, "{report}");
    let (lines, complete) = summary(&report);
    assert!(complete, "{lines:?}");
    // A trusted job still runs unconfined by Landlock (tuning needs its database folder).
    let doctor = engine.run(Job::new("doctor", json!({}), Duration::from_secs(60))).await.unwrap();
    assert!(doctor.result["env_keys"].is_array());
}

/// A timed result records that the candidate and the baseline ran in
/// processes of their own, and what confined the candidate's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_timed_result_says_each_module_ran_in_a_confined_process_of_its_own() {
    let ev = common::evaluator(common::quick_opts()).await;
    let set = common::tasks();
    let task = set.get("relu").unwrap();
    let r = ev.evaluate(task, &task.reference_text().unwrap()).await;
    assert!(r.correct && r.speedup_median.is_some(), "{:?}", r.failure);
    let sides = &r.manifest.sandbox["sides"];
    assert_eq!(sides["separate_processes"], true, "{sides}");
    for side in ["baseline", "candidate"] {
        let c = &sides["confinement"][side];
        assert_eq!(c["landlock"]["applied"], true, "{side}: {c}");
        assert_eq!(c["landlock"]["scoped"], true, "{side}: {c}");
        assert_eq!(c["seccomp"]["applied"], true, "{side}: {c}");
    }
    // The pairs were timed by several generations of sides, a few pairs
    // each, and the generations took the CPUs in turn: no one placement
    // of the two processes decides the figure.
    let placed = sides["generations_on_cpus"].as_array().expect("the CPU of each generation of sides");
    let generations: std::collections::BTreeSet<u32> = r.pairs.iter().map(|p| p.generation).collect();
    assert!(generations.len() >= 2 && generations.len() == placed.len(), "{generations:?} against {placed:?}");
    for g in &generations {
        assert!(r.pairs.iter().filter(|p| p.generation == *g).count() <= 5, "generation {g} timed more than 5 pairs");
    }
    let cpus: std::collections::BTreeSet<u64> = placed.iter().filter_map(|c| c.as_u64()).collect();
    let online = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    assert!(cpus.len() >= online.min(2), "generations on CPUs {placed:?} of {online}");
}
