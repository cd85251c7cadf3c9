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
