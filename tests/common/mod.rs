//! Shared set-up for the integration tests: one kwb home (engine venv,
//! caches) for the whole test run, under Cargo's target tmp directory, so a
//! fresh clone builds the engine environment itself.

#![allow(dead_code)]

pub mod moves;

use kwb::engine::{Engine, EngineConfig, pyenv, sandbox::Limits};
use kwb::eval::{EvalOptions, Evaluator};
use kwb::paths::Paths;
use kwb::tasks::TaskSet;
use std::path::PathBuf;
use std::time::Duration;

/// KWB_TEST_HOME names another home, with its own device lock: tests can
/// then run while a long job (a tuning) holds the default home's lock.
pub fn home() -> PathBuf {
    match std::env::var_os("KWB_TEST_HOME") {
        Some(h) if !h.is_empty() => PathBuf::from(h),
        _ => PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("kwb-home"),
    }
}

pub fn paths() -> Paths {
    Paths::under(&home())
}

pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn tasks() -> TaskSet {
    TaskSet::load(&repo().join("tasks")).expect("bundled tasks load")
}

pub fn candidate(task: &str, name: &str) -> String {
    std::fs::read_to_string(repo().join("tests/candidates").join(task).join(format!("{name}.py"))).expect("candidate file")
}

pub async fn engine(workers: usize) -> Engine {
    let p = paths();
    let env = tokio::task::spawn_blocking(move || pyenv::ensure(&p, false, false)).await.unwrap().expect("engine environment");
    let engine = Engine::new(EngineConfig {
        env,
        device_lock_file: paths().data.join("device-local-cpu.lock"),
        host_lock_file: paths().data.join("device-local-cpu.lock"),
        scratch: paths().scratch(),
        artifacts: paths().artifacts(),
        max_workers: workers,
        limits: Limits::default(),
        start_timeout: Duration::from_secs(180),
    });
    std::fs::create_dir_all(paths().artifacts()).unwrap();
    engine.prewarm(1).await.expect("worker starts");
    engine
}

pub async fn evaluator(opts: EvalOptions) -> Evaluator {
    Evaluator::new(engine(2).await, paths(), opts)
}

/// Short limits so failing candidates fail fast.
pub fn quick_opts() -> EvalOptions {
    EvalOptions { check_timeout: Duration::from_secs(10), ..Default::default() }
}

/// The kwb binary on this test home and the bundled tasks, with no LLM
/// config from the environment.
pub fn kwb(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_kwb")).env("KWB_HOME", home()).env("KWB_TASKS", repo().join("tasks")).env_remove("KWB_LLM_CONFIG").args(args).output().unwrap()
}

/// A command's stdout and stderr, for assertion messages.
pub fn text(o: &std::process::Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// A session log's events (the header line left out).
pub fn events(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path).unwrap().lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect()
}
