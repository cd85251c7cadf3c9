//! `kwb run --agents llm` end to end: the real binary talks to a scripted
//! OpenAI-compatible server on 127.0.0.1, the proposal is evaluated by the
//! real engine, tokens are recorded, and the key reaches neither the session
//! log nor the output.

mod common;
mod mock_llm;

use mock_llm::{KEY, openai_text, reply};
use serde_json::Value;

const TRACE_REPLY: &str = "Fuse the loops and vectorize by 8: relu is memory-bound and the generic build is scalar.\n\nLayer: L1\nKernel: relu\n\n```python\nb = sch.get_sblock(\"compute\")\nf = sch.fuse(*sch.get_loops(b))\no, i = sch.split(f, [None, 8])\nsch.vectorize(i)\n```\n";

async fn kwb(config: &std::path::Path, args: &[&str]) -> std::process::Output {
    tokio::process::Command::new(env!("CARGO_BIN_EXE_kwb"))
        .env("KWB_HOME", common::home())
        .env("KWB_TASKS", common::repo().join("tasks"))
        .env("KWB_LLM_CONFIG", config)
        .env("TEST_KEY", KEY)
        .args(args)
        .output()
        .await
        .unwrap()
}

fn config_file(dir: &std::path::Path, url: &str) -> std::path::PathBuf {
    let p = dir.join("llm.toml");
    std::fs::write(&p, format!("default = \"mock\"\n[providers.mock]\nkind = \"openai\"\nendpoint = \"{url}\"\nmodel = \"test-model\"\napi_key_env = \"TEST_KEY\"\ntimeout_s = 5\nmax_retries = 1\nbackoff_ms = 10\n")).unwrap();
    p
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_llm_flat_run_proposes_through_http_and_records_tokens_not_keys() {
    // First a garbage reply (recorded, not fatal), then a real trace.
    let server = mock_llm::MockServer::start(vec![reply(200, "{not json"), openai_text(TRACE_REPLY, "stop", (1200, 80))]).await;
    let dir = tempfile::tempdir().unwrap();
    let cfg = config_file(dir.path(), &server.url);
    let session = dir.path().join("llm.jsonl");
    let out = kwb(&cfg, &["run", "--task", "relu", "--strategy", "flat", "--agents", "llm", "--candidates", "1", "--budget", "5m", "--baseline", "default", "--json", "--session", session.to_str().unwrap()]).await;
    let all = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{all}");
    let log = std::fs::read_to_string(&session).unwrap();
    assert!(!log.contains(KEY) && !all.contains(KEY), "the API key leaked");
    // Long texts are stored deflated: look in them too.
    let loaded = kwb::session::load(&session).unwrap();
    assert!(!serde_json::to_string(&loaded.events).unwrap().contains(KEY), "the API key leaked into a text");
    let events: Vec<Value> = log.lines().skip(1).map(|l| serde_json::from_str(l).unwrap()).collect();
    // The garbage reply was recorded as the agent giving up that turn.
    assert!(events.iter().any(|e| e["type"] == "note" && e["text"].as_str().unwrap_or("").to_lowercase().contains("malformed")), "{log}");
    let node = events.iter().find(|e| e["type"] == "edit" && e["node"]["author"].as_str().unwrap_or("").starts_with("llm-flat")).unwrap_or_else(|| panic!("no LLM node: {log}"));
    assert_eq!(node["node"]["layer"], "L1");
    assert_eq!(node["node"]["kernel"], "relu");
    let id = node["node"]["id"].as_u64().unwrap();
    let fin = events.iter().find(|e| e["type"] == "eval_finished" && e["node"] == id).unwrap();
    assert_eq!(fin["result"]["correct"], true, "{}", fin["result"]["failure"]);
    assert_eq!(fin["cost"]["tokens_in"], 1200);
    assert_eq!(fin["cost"]["tokens_out"], 80);
    // The request carried the key as a bearer token and the task's source.
    let reqs = server.requests();
    assert!(reqs.len() >= 2);
    assert_eq!(reqs[1].headers["authorization"], format!("Bearer {KEY}"));
    assert!(reqs[1].body.to_string().contains("relu"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_key_or_config_is_a_clear_error() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.toml");
    let out = kwb(&missing, &["run", "--task", "relu", "--agents", "llm", "--budget", "1m"]).await;
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success() && err.contains("none.toml"), "{err}");
    let cfg = dir.path().join("llm.toml");
    std::fs::write(&cfg, "[providers.x]\nkind = \"anthropic\"\nendpoint = \"http://127.0.0.1:9\"\nmodel = \"m\"\napi_key_env = \"KWB_NO_SUCH_KEY\"\n").unwrap();
    let out = kwb(&cfg, &["run", "--task", "relu", "--agents", "llm", "--budget", "1m"]).await;
    let err = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(!out.status.success() && err.contains("KWB_NO_SUCH_KEY"), "{err}");
}
