//! The LLM clients against scripted OpenAI- and Anthropic-compatible servers:
//! wire formats, auth headers, error classes, retries and timeouts.

mod mock_llm;

use kwb::llm::{ChatClient, ChatRequest, LlmConfig, LlmError, Message, StopReason, ToolCall, ToolSpec};
use mock_llm::*;
use serde_json::json;
use std::sync::Arc;
use std::time::{Duration, Instant};

fn client(kind: &str, url: &str, extra: &str) -> Arc<dyn ChatClient> {
    config(kind, url, extra).client_with(Some("p"), lookup).unwrap()
}

fn request() -> ChatRequest {
    ChatRequest { system: "be brief".into(), messages: vec![Message::user("hello")], ..Default::default() }
}

#[tokio::test]
async fn openai_plain_reply_sends_model_key_and_system() {
    let server = MockServer::start(vec![openai_text("Hi there.", "stop", (12, 3))]).await;
    let r = client("openai", &server.url, "").chat(&request()).await.unwrap();
    assert_eq!(r.text, "Hi there.");
    assert_eq!((r.usage.input_tokens, r.usage.output_tokens), (12, 3));
    assert_eq!((r.stop_reason, r.attempts), (StopReason::EndTurn, 1));
    let reqs = server.requests();
    assert_eq!(reqs.len(), 1);
    let q = &reqs[0];
    assert_eq!(q.path, "/v1/chat/completions");
    assert_eq!(q.headers["authorization"], format!("Bearer {KEY}"));
    assert_eq!(q.body["model"], "test-model");
    assert_eq!(q.body["max_tokens"], 512);
    assert_eq!(q.body["messages"][0], json!({"role": "system", "content": "be brief"}));
    assert_eq!(q.body["messages"][1], json!({"role": "user", "content": "hello"}));
    assert!(q.body.get("tools").is_none(), "no tools were offered: {}", q.body);
    assert!(q.body.get("temperature").is_none(), "no temperature is configured, so none is sent: {}", q.body);
}

#[tokio::test]
async fn anthropic_plain_reply_sends_x_api_key_version_and_top_level_system() {
    let server = MockServer::start(vec![anthropic_text("Hi.", "end_turn", (20, 4))]).await;
    let r = client("anthropic", &format!("{}/v1", server.url), "temperature = 0.5").chat(&request()).await.unwrap();
    assert_eq!(r.text, "Hi.");
    assert_eq!((r.usage.input_tokens, r.usage.output_tokens), (20, 4));
    let q = &server.requests()[0];
    assert_eq!(q.path, "/v1/messages");
    assert_eq!(q.headers["x-api-key"], KEY);
    assert_eq!(q.headers["anthropic-version"], "2023-06-01");
    assert!(!q.headers.contains_key("authorization"));
    assert_eq!(q.body["model"], "test-model");
    assert_eq!(q.body["system"], "be brief");
    assert_eq!(q.body["temperature"], 0.5);
    assert_eq!(q.body["max_tokens"], 512);
    assert_eq!(q.body["messages"], json!([{"role": "user", "content": [{"type": "text", "text": "hello"}]}]));
}

fn tool_conversation() -> ChatRequest {
    let call = ToolCall { id: "call_7".into(), name: "view_layer".into(), arguments: json!({"node": 0, "layer": "L1"}) };
    ChatRequest {
        system: String::new(),
        messages: vec![
            Message::user("optimise"),
            Message::Assistant { content: String::new(), tool_calls: vec![call] },
            Message::Tool { call_id: "call_7".into(), name: "view_layer".into(), content: "the text".into() },
        ],
        tools: vec![ToolSpec { name: "view_layer".into(), description: "shows".into(), parameters: json!({"type": "object"}) }],
        max_tokens: Some(100),
        temperature: Some(0.0),
    }
}

#[tokio::test]
async fn openai_tool_calls_parse_and_tool_results_go_back_as_tool_messages() {
    let server = MockServer::start(vec![openai_tool_call("call_9", "diff", json!({"a": 0, "b": 1, "layer": "L0"}), (5, 6))]).await;
    let r = client("openai", &server.url, "").chat(&tool_conversation()).await.unwrap();
    assert_eq!(r.stop_reason, StopReason::ToolUse);
    assert_eq!(r.tool_calls, vec![ToolCall { id: "call_9".into(), name: "diff".into(), arguments: json!({"a": 0, "b": 1, "layer": "L0"}) }]);
    let body = &server.requests()[0].body;
    assert_eq!(body["max_tokens"], 100);
    assert_eq!(body["temperature"], 0.0);
    assert_eq!(body["tools"][0], json!({"type": "function", "function": {"name": "view_layer", "description": "shows", "parameters": {"type": "object"}}}));
    let msgs = body["messages"].as_array().unwrap();
    assert_eq!(msgs.len(), 3, "no system message when the system prompt is empty: {body}");
    assert!(msgs[1]["content"].is_null(), "an assistant turn of only tool calls has null content: {}", msgs[1]);
    assert_eq!(msgs[1]["tool_calls"][0]["id"], "call_7");
    let args: serde_json::Value = serde_json::from_str(msgs[1]["tool_calls"][0]["function"]["arguments"].as_str().unwrap()).unwrap();
    assert_eq!(args, json!({"node": 0, "layer": "L1"}));
    assert_eq!(msgs[2]["role"], "tool");
    assert_eq!(msgs[2]["tool_call_id"], "call_7");
    assert_eq!(msgs[2]["content"], "the text");
}

#[tokio::test]
async fn anthropic_tool_use_parses_and_tool_results_go_back_as_tool_result_blocks() {
    let server = MockServer::start(vec![anthropic_tool_use("toolu_1", "profile", json!({"node": 2}), (7, 8))]).await;
    let r = client("anthropic", &server.url, "").chat(&tool_conversation()).await.unwrap();
    assert_eq!(r.stop_reason, StopReason::ToolUse);
    assert_eq!(r.text, "Let me look.");
    assert_eq!(r.tool_calls[0].id, "toolu_1");
    assert_eq!(r.tool_calls[0].arguments, json!({"node": 2}));
    let body = &server.requests()[0].body;
    assert_eq!(body["tools"][0], json!({"name": "view_layer", "description": "shows", "input_schema": {"type": "object"}}));
    assert!(body.get("system").is_none());
    let msgs = body["messages"].as_array().unwrap();
    assert_eq!(msgs[1]["content"], json!([{"type": "tool_use", "id": "call_7", "name": "view_layer", "input": {"node": 0, "layer": "L1"}}]));
    assert_eq!(msgs[2], json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": "call_7", "content": "the text"}]}));
}

#[tokio::test]
async fn garbage_bodies_are_malformed_not_panics() {
    for body in ["this is not json {", r#"{"choices": []}"#, r#"{"object": "chat.completion"}"#] {
        let server = MockServer::start(vec![reply(200, body)]).await;
        let e = client("openai", &server.url, "").chat(&request()).await.unwrap_err();
        assert!(matches!(e, LlmError::Malformed { .. }), "{body}: {e:?}");
        assert_eq!(server.requests().len(), 1, "a malformed reply is not retried");
    }
    let server = MockServer::start(vec![reply(200, r#"{"content": "nope"}"#)]).await;
    let e = client("anthropic", &server.url, "").chat(&request()).await.unwrap_err();
    assert!(matches!(e, LlmError::Malformed { .. }), "{e:?}");
    assert!(e.to_string().contains("endpoint"), "the message says what to check: {e}");
}

#[tokio::test]
async fn an_empty_reply_cut_at_max_tokens_is_truncated() {
    let server = MockServer::start(vec![openai_text("", "length", (100, 512))]).await;
    let e = client("openai", &server.url, "").chat(&request()).await.unwrap_err();
    assert!(matches!(e, LlmError::Truncated { max_tokens: 512, .. }), "{e:?}");
    assert!(e.to_string().contains("max_tokens"));

    let server = MockServer::start(vec![anthropic_text("", "max_tokens", (100, 512))]).await;
    let e = client("anthropic", &server.url, "").chat(&request()).await.unwrap_err();
    assert!(matches!(e, LlmError::Truncated { .. }), "{e:?}");

    // With some text the reply is returned, marked, for the caller to judge.
    let server = MockServer::start(vec![openai_text("partial ```python\nsch.", "length", (100, 512))]).await;
    let r = client("openai", &server.url, "").chat(&request()).await.unwrap();
    assert_eq!(r.stop_reason, StopReason::MaxTokens);
}

#[tokio::test]
async fn refusals_are_refused_errors() {
    let server = MockServer::start(vec![openai_text("", "content_filter", (1, 1))]).await;
    assert!(matches!(client("openai", &server.url, "").chat(&request()).await.unwrap_err(), LlmError::Refused { .. }));

    let body = json!({"choices": [{"message": {"role": "assistant", "content": null, "refusal": "I can't help with that."}, "finish_reason": "stop"}]});
    let server = MockServer::start(vec![reply(200, body.to_string())]).await;
    let e = client("openai", &server.url, "").chat(&request()).await.unwrap_err();
    assert!(matches!(e, LlmError::Refused { .. }) && e.to_string().contains("can't help"), "{e}");

    let server = MockServer::start(vec![anthropic_text("", "refusal", (1, 1))]).await;
    assert!(matches!(client("anthropic", &server.url, "").chat(&request()).await.unwrap_err(), LlmError::Refused { .. }));
}

#[tokio::test]
async fn rate_limits_honour_retry_after_then_succeed() {
    let limited = reply_with(429, &[("retry-after", "1")], r#"{"error": {"message": "slow down"}}"#);
    let server = MockServer::start(vec![limited, openai_text("ok", "stop", (10, 2))]).await;
    let t = Instant::now();
    let r = client("openai", &server.url, "").chat(&request()).await.unwrap();
    assert!(t.elapsed() >= Duration::from_millis(950), "Retry-After: 1 was not honoured ({:?})", t.elapsed());
    assert_eq!((r.text.as_str(), r.attempts), ("ok", 2));
    assert_eq!((r.usage.input_tokens, r.usage.output_tokens), (10, 2), "usage comes from the successful reply only");
    assert_eq!(r.retries.len(), 1);
    assert!(r.retries[0].contains("429"), "{:?}", r.retries);
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn rate_limited_forever_gives_up_after_max_retries() {
    let server = MockServer::start(vec![reply(429, "{}")]).await;
    let e = client("anthropic", &server.url, "").chat(&request()).await.unwrap_err();
    assert!(matches!(&e, LlmError::RateLimited { provider, attempts: 3, retries } if provider == "p" && retries.len() == 2), "{e:?}");
    assert_eq!(server.requests().len(), 3, "max_retries = 2 means three attempts");
    assert!(e.to_string().contains("max_retries"), "{e}");
}

#[tokio::test]
async fn server_errors_are_retried_then_succeed() {
    let server = MockServer::start(vec![reply(500, "oops"), reply(503, "busy"), openai_text("fine", "stop", (1, 1))]).await;
    let r = client("openai", &server.url, "").chat(&request()).await.unwrap();
    assert_eq!((r.text.as_str(), r.attempts), ("fine", 3));
    assert_eq!(server.requests().len(), 3);
}

#[tokio::test]
async fn server_errors_forever_are_server_errors() {
    let server = MockServer::start(vec![reply(500, r#"{"error": {"message": "internal"}}"#)]).await;
    let e = client("openai", &server.url, "max_retries = 1").chat(&request()).await.unwrap_err();
    assert!(matches!(&e, LlmError::Server { status: 500, attempts: 2, detail, .. } if detail == "internal"), "{e:?}");
    assert_eq!(server.requests().len(), 2);
}

#[tokio::test]
async fn a_server_that_never_answers_times_out_within_the_limit() {
    let server = MockServer::start(vec![Scripted::Hang]).await;
    let c = client("openai", &server.url, "timeout_s = 0.3\nmax_retries = 1");
    let t = Instant::now();
    let e = c.chat(&request()).await.unwrap_err();
    let took = t.elapsed();
    assert!(matches!(e, LlmError::Timeout { attempts: 2, .. }), "{e:?}");
    assert!(took >= Duration::from_millis(600) && took < Duration::from_secs(3), "two 0.3 s attempts took {took:?}");
    assert_eq!(server.requests().len(), 2, "a timeout is retried");
}

#[tokio::test]
async fn auth_errors_never_show_the_key() {
    for kind in ["openai", "anthropic"] {
        let echo = json!({"error": {"message": format!("Incorrect API key provided: {KEY}")}}).to_string();
        let server = MockServer::start(vec![reply(401, echo)]).await;
        let e = client(kind, &server.url, "").chat(&request()).await.unwrap_err();
        assert!(matches!(e, LlmError::Auth { status: 401, .. }), "{e:?}");
        for shown in [e.to_string(), format!("{e:?}")] {
            assert!(!shown.contains(KEY), "the key leaked: {shown}");
            assert!(shown.contains("Incorrect API key provided: [redacted]"), "{shown}");
        }
        assert_eq!(server.requests().len(), 1, "auth failures are not retried");
    }
}

#[tokio::test]
async fn other_client_errors_are_rejected_without_retry() {
    let server = MockServer::start(vec![reply(400, r#"{"error": {"message": "model `x` does not exist"}}"#)]).await;
    let e = client("openai", &server.url, "").chat(&request()).await.unwrap_err();
    assert!(matches!(e, LlmError::Rejected { status: 400, .. }) && e.to_string().contains("does not exist"), "{e:?}");
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn an_unreachable_endpoint_is_a_transport_error() {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let e = client("openai", &format!("http://127.0.0.1:{port}"), "").chat(&request()).await.unwrap_err();
    assert!(matches!(e, LlmError::Transport { .. }), "{e:?}");
    assert!(e.to_string().contains("endpoint"), "{e}");
}

#[test]
fn config_refuses_unknown_fields_and_names_them() {
    let e = LlmConfig::parse("[providers.a]\nkind = \"openai\"\nendpoint = \"http://x\"\nmodel = \"m\"\napi_key = \"sk-123\"\n", "llm.toml").unwrap_err();
    let s = e.to_string();
    assert!(matches!(e, LlmError::Config(_)));
    assert!(s.contains("llm.toml") && s.contains("api_key"), "{s}");
    assert!(!s.contains("sk-123"), "a key written into the file is not echoed: {s}");
    let e = LlmConfig::parse("[providers.a]\nkind = \"gemini\"\nendpoint = \"http://x\"\nmodel = \"m\"\n", "llm.toml").unwrap_err().to_string();
    assert!(e.contains("gemini"), "{e}");
}

#[test]
fn a_missing_key_variable_is_named_and_a_config_file_loads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("llm.toml");
    std::fs::write(&path, "default = \"a\"\n[providers.a]\nkind = \"anthropic\"\nendpoint = \"http://x\"\nmodel = \"m\"\napi_key_env = \"KWB_TEST_NO_SUCH_VAR\"\n").unwrap();
    let cfg = LlmConfig::load_file(&path).unwrap();
    let e = cfg.client_with(None, |_| None).err().unwrap().to_string();
    assert!(e.contains("KWB_TEST_NO_SUCH_VAR"), "{e}");
    let missing = LlmConfig::load_file(&dir.path().join("none.toml")).unwrap_err().to_string();
    assert!(missing.contains("none.toml") && missing.contains("[providers."), "{missing}");
    assert!(cfg.client_with(Some("b"), lookup).err().unwrap().to_string().contains("no LLM provider `b`"));
}
