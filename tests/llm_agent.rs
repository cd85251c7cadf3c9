//! The LLM agent end to end against scripted servers: what it shows the
//! model, the tool loop, how answers become edits, and how every failure
//! becomes `Exhausted` with its reason. The server is the only stand-in; the
//! tools are a fake that returns fixed texts.

mod mock_llm;

use kwb::agent::llm_agent::{LlmAgent, LlmMode};
use kwb::agent::{Agent, AgentContext, BoxFuture, BudgetLeft, Proposal, Tools, Turn};
use kwb::ir::{Layer, LayerTexts};
use kwb::llm::Prompts;
use kwb::session::{CandidateTree, EditBody, Event, EventKind, NodeRecord};
use kwb::tasks::{Task, TaskMeta, Tolerance};
use mock_llm::*;
use serde_json::{Value, json};
use std::sync::Mutex;
use std::time::Duration;

struct Fixture {
    _dir: tempfile::TempDir,
    task: Task,
    tree: CandidateTree,
    profile: Value,
}

fn texts() -> LayerTexts {
    LayerTexts {
        l0: "@I.ir_module\nclass Module:\n    @R.function\n    def main(x): L0_TEXT".into(),
        l1_module: "L1_MODULE".into(),
        l1: [("relu".to_string(), "RELU_TIR".to_string()), ("matmul".to_string(), "MATMUL_TIR".to_string())].into(),
        l2: [("relu".to_string(), "RELU_LLVM".to_string()), ("matmul".to_string(), "MATMUL_LLVM".to_string())].into(),
        l2_overrides: Default::default(),
    }
}

fn event(seq: u64, kind: EventKind) -> Event {
    Event { seq, ts_ms: seq, kind }
}

/// A task with model.py, a root node and a child that failed its check.
fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("model.py"), "class Model(nn.Module):\n    def forward(self, a, b):\n        return torch.relu(a @ b)  # MODEL_SOURCE\n").unwrap();
    let meta = TaskMeta {
        id: "matmul_relu".into(),
        level: 2,
        domains: vec!["mobile".into()],
        dtype: "float32".into(),
        title: "Matmul then ReLU".into(),
        tolerance: Tolerance { atol: 1e-4, rtol: 1e-4 },
        overrides: Default::default(),
        inits: Default::default(),
    };
    let task = Task { meta, dir: dir.path().to_path_buf(), reference: None, size: None };
    let root = NodeRecord { id: 0, parent: None, layer: Layer::L0, kernel: None, author: "import".into(), rationale: "the task's reference".into(), trace: None, texts: texts() };
    let child = NodeRecord { id: 1, parent: Some(0), layer: Layer::L1, kernel: Some("matmul".into()), author: "llm-l1:p".into(), rationale: "tiled the k loop".into(), trace: None, texts: texts() };
    let result = json!({
        "task": "matmul_relu", "candidate_sha256": "x", "compile_ok": true, "correct": false, "seeds": [], "max_errors": [],
        "failure_class": "numeric_mismatch", "failure": {"class": "numeric_mismatch", "message": "MISMATCH_MESSAGE at seed 1"},
        "candidate_ms": null, "baseline_ms": null, "speedup_median": null, "timing_valid": false, "spread": null, "ci": null,
        "samples": 0, "sample_list": [], "timing_rounds": 0, "compile_s": 1.0, "wall_s": 2.0, "engine_overhead_s": 0.1, "stages": [],
        "manifest": {"kwb_version": "0", "protocol": 1, "versions": {}, "target": {}, "device": "local-cpu", "baseline": "tuned",
                     "task_hash": "h", "config_hash": "c", "config": {}, "created_unix_s": 0}
    });
    let tree = CandidateTree::from_events(&[
        event(1, EventKind::Edit { node: root }),
        event(2, EventKind::Edit { node: child }),
        event(3, EventKind::EvalFinished { node: 1, result: Box::new(serde_json::from_value(result).unwrap()), cost: Default::default() }),
    ]);
    assert_eq!(tree.nodes.len(), 2);
    Fixture { _dir: dir, task, tree, profile: json!({"kernels": [{"name": "relu", "ms": 0.1}, {"name": "matmul", "ms": 2.5}]}) }
}

fn budget(tokens: u64) -> BudgetLeft {
    BudgetLeft { wall: Duration::from_secs(120), candidates: 7, tokens, device: Duration::from_secs(60) }
}

fn context<'a>(f: &'a Fixture, layer: Option<Layer>, tokens: u64) -> AgentContext<'a> {
    AgentContext { task: &f.task, tree: &f.tree, node: 1, layer, profile: Some(&f.profile), hint: Some("HINT_TRY_TILING_K"), budget: budget(tokens) }
}

#[derive(Default)]
struct FakeTools {
    calls: Mutex<Vec<String>>,
}

impl Tools for FakeTools {
    fn view(&self, node: u32, layer: Layer, kernel: Option<&str>) -> Result<String, String> {
        self.calls.lock().unwrap().push(format!("view {node} {layer} {kernel:?}"));
        if node > 1 {
            return Err(format!("no node #{node}"));
        }
        Ok(format!("VIEWED_TEXT node={node} layer={layer} kernel={}", kernel.unwrap_or("-")))
    }
    fn diff(&self, a: u32, b: u32, layer: Layer, _kernel: Option<&str>) -> Result<String, String> {
        self.calls.lock().unwrap().push(format!("diff {a} {b} {layer}"));
        Ok("--- a\n+++ b\n".into())
    }
    fn evaluate<'a>(&'a self, node: u32) -> BoxFuture<'a, Result<Value, String>> {
        self.calls.lock().unwrap().push(format!("evaluate {node}"));
        Box::pin(async move { Ok(json!({"node": node, "correct": true, "speedup": 1.5})) })
    }
    fn profile<'a>(&'a self, node: u32) -> BoxFuture<'a, Result<Value, String>> {
        self.calls.lock().unwrap().push(format!("profile {node}"));
        Box::pin(async move { Ok(json!({"kernels": []})) })
    }
}

fn agent(kind: &str, url: &str, mode: LlmMode) -> LlmAgent {
    let client = config(kind, url, "").client_with(Some("p"), lookup).unwrap();
    LlmAgent::new(client, mode, Prompts::shipped()).unwrap().with_max_rounds(3)
}

async fn propose(a: &mut LlmAgent, ctx: &AgentContext<'_>, tools: &FakeTools) -> Turn {
    a.propose(ctx, tools).await.unwrap()
}

fn edit(turn: &Turn) -> &kwb::agent::EditProposal {
    match &turn.proposal {
        Proposal::Edit(e) => e,
        Proposal::Exhausted { reason } => panic!("expected an edit, got exhausted: {reason}\n{:#?}", turn.transcript),
    }
}

fn exhausted(turn: &Turn) -> &str {
    match &turn.proposal {
        Proposal::Exhausted { reason } => reason,
        Proposal::Edit(e) => panic!("expected exhausted, got {e:?}"),
    }
}

const TRACE_REPLY: &str = "The matmul kernel is scalar. Parallelising the outer loop uses every core.\n\n```python\nb = sch.get_sblock(\"matmul\")\ni, j, k = sch.get_loops(b)\nsch.parallel(i)\n```\n";

#[tokio::test]
async fn a_per_layer_agent_shows_the_slowest_kernel_and_proposes_a_trace() {
    let f = fixture();
    let server = MockServer::start(vec![openai_text(TRACE_REPLY, "stop", (1000, 80))]).await;
    let mut a = agent("openai", &server.url, LlmMode::PerLayer(Layer::L1));
    let tools = FakeTools::default();
    let turn = propose(&mut a, &context(&f, Some(Layer::L1), 100_000), &tools).await;
    let e = edit(&turn);
    assert_eq!((e.layer, e.kernel.as_deref()), (Layer::L1, Some("matmul")), "the profile names matmul as slowest");
    assert!(matches!(&e.body, EditBody::Trace(l) if l == &["b = sch.get_sblock(\"matmul\")", "i, j, k = sch.get_loops(b)", "sch.parallel(i)"]), "{:?}", e.body);
    assert_eq!(e.rationale, "The matmul kernel is scalar. Parallelising the outer loop uses every core.");
    assert_eq!((turn.usage.calls, turn.usage.tokens_in, turn.usage.tokens_out), (1, 1000, 80));
    assert_eq!(a.name(), "llm-l1:p");

    let q = &server.requests()[0].body;
    assert!(q["messages"][0]["content"].as_str().unwrap().contains("L1 loops agent"), "the L1 prompt is the system message");
    let user = q["messages"][1]["content"].as_str().unwrap();
    for needle in ["matmul_relu", "MODEL_SOURCE", "MATMUL_TIR", "MISMATCH_MESSAGE", "numeric_mismatch", "HINT_TRY_TILING_K", "7 candidates", "2.500 ms", "tiled the k loop"] {
        assert!(user.contains(needle), "the user message lacks {needle}:\n{user}");
    }
    assert!(!user.contains("RELU_TIR"), "only the chosen kernel is shown");
    let tool_names: Vec<&str> = q["tools"].as_array().unwrap().iter().map(|t| t["function"]["name"].as_str().unwrap()).collect();
    assert_eq!(tool_names, ["view_layer", "diff", "evaluate", "profile"]);
    assert!(tools.calls.lock().unwrap().is_empty());
}

#[tokio::test]
async fn a_tool_call_round_trip_reaches_the_tools_and_the_server() {
    let f = fixture();
    let server = MockServer::start(vec![
        openai_tool_call("call_1", "view_layer", json!({"node": 1, "layer": "L2", "kernel": "matmul"}), (500, 20)),
        openai_text(TRACE_REPLY, "stop", (900, 60)),
    ])
    .await;
    let mut a = agent("openai", &server.url, LlmMode::PerLayer(Layer::L1));
    let tools = FakeTools::default();
    let turn = propose(&mut a, &context(&f, Some(Layer::L1), 100_000), &tools).await;
    edit(&turn);
    assert_eq!(*tools.calls.lock().unwrap(), ["view 1 L2 Some(\"matmul\")"]);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 2);
    let msgs = reqs[1].body["messages"].as_array().unwrap();
    let tool_msg = msgs.iter().find(|m| m["role"] == "tool").expect("the tool result was sent back");
    assert_eq!(tool_msg["tool_call_id"], "call_1");
    assert_eq!(tool_msg["content"], "VIEWED_TEXT node=1 layer=L2 kernel=matmul");
    assert_eq!((turn.usage.calls, turn.usage.tokens_in, turn.usage.tokens_out), (2, 1400, 80));
    assert!(turn.transcript.iter().any(|l| l.starts_with("tool view_layer")), "{:#?}", turn.transcript);
}

#[tokio::test]
async fn anthropic_tool_results_and_errors_go_back_as_tool_result_blocks() {
    let f = fixture();
    let server = MockServer::start(vec![
        anthropic_tool_use("toolu_1", "view_layer", json!({"node": 9, "layer": "L1"}), (300, 10)),
        anthropic_tool_use("toolu_2", "no_such_tool", json!({}), (300, 10)),
        anthropic_text(TRACE_REPLY, "end_turn", (400, 50)),
    ])
    .await;
    let mut a = agent("anthropic", &server.url, LlmMode::PerLayer(Layer::L1));
    let tools = FakeTools::default();
    let turn = propose(&mut a, &context(&f, Some(Layer::L1), 100_000), &tools).await;
    edit(&turn);
    let reqs = server.requests();
    assert_eq!(reqs.len(), 3);
    let last_user = |i: usize| reqs[i].body["messages"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(last_user(1)["content"][0]["tool_use_id"], "toolu_1");
    assert_eq!(last_user(1)["content"][0]["content"], "error: no node #9", "a tool's error reaches the model");
    assert!(last_user(2)["content"][0]["content"].as_str().unwrap().contains("there is no tool `no_such_tool`"));
    assert_eq!(turn.usage.calls, 3);
    assert_eq!(turn.transcript.iter().filter(|l| l.contains("failed")).count(), 2, "{:#?}", turn.transcript);
}

#[tokio::test]
async fn garbage_from_the_server_ends_exhausted_with_the_reason() {
    let f = fixture();
    let server = MockServer::start(vec![reply(200, "<html>502 Bad Gateway</html>")]).await;
    let mut a = agent("openai", &server.url, LlmMode::PerLayer(Layer::L1));
    let turn = propose(&mut a, &context(&f, Some(Layer::L1), 100_000), &FakeTools::default()).await;
    assert!(exhausted(&turn).contains("not JSON"), "{}", exhausted(&turn));
    assert_eq!(turn.usage.calls, 0, "a failed call costs no tokens");
    assert!(turn.transcript.iter().any(|l| l.contains("(malformed)")), "{:#?}", turn.transcript);
}

#[tokio::test]
async fn a_reply_without_code_is_exhausted_and_a_cut_off_one_says_so() {
    let f = fixture();
    let server = MockServer::start(vec![openai_text("I think the kernel is already optimal.", "stop", (10, 10))]).await;
    let turn = propose(&mut agent("openai", &server.url, LlmMode::PerLayer(Layer::L1)), &context(&f, Some(Layer::L1), 100_000), &FakeTools::default()).await;
    assert!(exhausted(&turn).contains("no code block") && exhausted(&turn).contains("already optimal"), "{}", exhausted(&turn));
    assert_eq!(turn.usage.calls, 1);

    let server = MockServer::start(vec![openai_text("Tile it.\n```python\nb = sch.get_sblock(\"matmul\")\nsch.spl", "length", (10, 512))]).await;
    let turn = propose(&mut agent("openai", &server.url, LlmMode::PerLayer(Layer::L1)), &context(&f, Some(Layer::L1), 100_000), &FakeTools::default()).await;
    assert!(exhausted(&turn).contains("max_tokens"), "{}", exhausted(&turn));
}

#[tokio::test]
async fn a_refusal_is_exhausted() {
    let f = fixture();
    let server = MockServer::start(vec![anthropic_text("I won't do that.", "refusal", (10, 5))]).await;
    let turn = propose(&mut agent("anthropic", &server.url, LlmMode::PerLayer(Layer::L0)), &context(&f, Some(Layer::L0), 100_000), &FakeTools::default()).await;
    assert!(exhausted(&turn).contains("refused"), "{}", exhausted(&turn));
}

#[tokio::test]
async fn a_rate_limit_is_retried_and_its_usage_counted_once() {
    let f = fixture();
    let server = MockServer::start(vec![reply_with(429, &[("retry-after", "0")], "{}"), openai_text(TRACE_REPLY, "stop", (700, 40))]).await;
    let turn = propose(&mut agent("openai", &server.url, LlmMode::PerLayer(Layer::L1)), &context(&f, Some(Layer::L1), 100_000), &FakeTools::default()).await;
    edit(&turn);
    assert_eq!(server.requests().len(), 2);
    assert_eq!((turn.usage.calls, turn.usage.tokens_in, turn.usage.tokens_out), (1, 700, 40));
    assert!(turn.transcript.iter().any(|l| l.contains("rate limited") && l.contains("retrying")), "{:#?}", turn.transcript);
    assert!(turn.transcript.iter().any(|l| l.contains("2 attempt(s)")), "{:#?}", turn.transcript);
}

#[tokio::test]
async fn a_provider_down_after_retries_is_exhausted_with_every_retry_in_the_transcript() {
    let f = fixture();
    let server = MockServer::start(vec![reply(503, r#"{"error": {"message": "overloaded"}}"#)]).await;
    let turn = propose(&mut agent("openai", &server.url, LlmMode::Flat), &context(&f, None, 100_000), &FakeTools::default()).await;
    assert!(exhausted(&turn).contains("HTTP 503"), "{}", exhausted(&turn));
    assert_eq!(server.requests().len(), 3);
    assert!(exhausted(&turn).contains("3 attempts"), "{}", exhausted(&turn));
    assert_eq!(turn.transcript.iter().filter(|l| l.contains("got HTTP 503") && l.contains("retrying")).count(), 2, "{:#?}", turn.transcript);
    assert!(turn.transcript.iter().any(|l| l.contains("(server)")), "{:#?}", turn.transcript);
}

#[tokio::test]
async fn the_tool_loop_is_bounded() {
    let f = fixture();
    let server = MockServer::start(vec![openai_tool_call("c", "profile", json!({"node": 1}), (100, 10))]).await;
    let tools = FakeTools::default();
    let turn = propose(&mut agent("openai", &server.url, LlmMode::PerLayer(Layer::L1)), &context(&f, Some(Layer::L1), 100_000), &tools).await;
    assert!(exhausted(&turn).contains("after 3 rounds"), "{}", exhausted(&turn));
    let reqs = server.requests();
    assert_eq!(reqs.len(), 4, "three tool rounds, then one call that must answer");
    assert_eq!(tools.calls.lock().unwrap().len(), 3);
    let last = reqs[3].body["messages"].as_array().unwrap().last().unwrap().clone();
    assert!(last["content"].as_str().unwrap().contains("last tool round"), "{last}");
    assert_eq!((turn.usage.calls, turn.usage.tokens_in), (4, 400));
}

#[tokio::test]
async fn the_token_budget_stops_the_loop() {
    let f = fixture();
    let server = MockServer::start(vec![openai_tool_call("c", "profile", json!({"node": 1}), (900, 200))]).await;
    let turn = propose(&mut agent("openai", &server.url, LlmMode::PerLayer(Layer::L1)), &context(&f, Some(Layer::L1), 1000), &FakeTools::default()).await;
    assert!(exhausted(&turn).contains("token budget"), "{}", exhausted(&turn));
    assert_eq!(server.requests().len(), 1);
}

#[tokio::test]
async fn one_shot_is_one_call_without_tools_returning_the_whole_module() {
    let f = fixture();
    let module = "Fused the ReLU into a hand-written kernel.\n\n```tvmscript\n# from tvm.script import ir as I\n@I.ir_module\nclass Module:\n    pass\n```";
    let server = MockServer::start(vec![openai_text(module, "stop", (300, 200))]).await;
    let turn = propose(&mut agent("openai", &server.url, LlmMode::OneShot), &context(&f, None, 100_000), &FakeTools::default()).await;
    let e = edit(&turn);
    assert_eq!((e.layer, e.kernel.as_deref()), (Layer::L0, None));
    assert!(matches!(&e.body, EditBody::Text(t) if t.starts_with("# from tvm.script import ir as I") && t.ends_with("pass\n")), "{:?}", e.body);
    let q = &server.requests()[0].body;
    assert!(q.get("tools").is_none(), "one-shot offers no tools: {q}");
    assert!(q["messages"][0]["content"].as_str().unwrap().contains("One-shot"));
    assert!(q["messages"][1]["content"].as_str().unwrap().contains("L0_TEXT"));
}

#[tokio::test]
async fn a_flat_agent_takes_the_layer_and_kernel_from_the_reply() {
    let f = fixture();
    let answer = "Vectorise relu's store.\nLayer: L2\nKernel: relu\n\n```llvm\ndefine i32 @__tvm_ffi_relu() {\n  ret i32 0\n}\n```";
    let server = MockServer::start(vec![anthropic_text(answer, "end_turn", (50, 50))]).await;
    let turn = propose(&mut agent("anthropic", &server.url, LlmMode::Flat), &context(&f, None, 100_000), &FakeTools::default()).await;
    let e = edit(&turn);
    assert_eq!((e.layer, e.kernel.as_deref()), (Layer::L2, Some("relu")));
    assert!(matches!(&e.body, EditBody::Text(t) if t.contains("@__tvm_ffi_relu")));
    assert_eq!(e.rationale, "Vectorise relu's store.");
    let user = server.requests()[0].body["messages"][0]["content"][0]["text"].as_str().unwrap().to_string();
    assert!(user.contains("L0_TEXT") && user.contains("MATMUL_TIR"), "flat shows the graph and the slowest kernel's loops:\n{user}");
}

#[tokio::test]
async fn an_l1_reply_may_be_a_whole_primfunc_for_another_kernel() {
    let f = fixture();
    let answer = "Rewrote relu.\nKernel: relu\n```python\n# from tvm.script import tirx as T\n@T.prim_func\ndef main(x: T.Buffer((4,), \"float32\")):\n    pass\n```";
    let server = MockServer::start(vec![openai_text(answer, "stop", (5, 5))]).await;
    let turn = propose(&mut agent("openai", &server.url, LlmMode::PerLayer(Layer::L1)), &context(&f, Some(Layer::L1), 100_000), &FakeTools::default()).await;
    let e = edit(&turn);
    assert_eq!(e.kernel.as_deref(), Some("relu"));
    assert!(matches!(&e.body, EditBody::Text(t) if t.contains("@T.prim_func")), "{:?}", e.body);
}

#[tokio::test]
async fn the_context_layer_overrides_the_agents_own() {
    let f = fixture();
    let server = MockServer::start(vec![openai_text("Why.\n```llvm\ndefine void @f() {\n}\n```", "stop", (5, 5))]).await;
    let turn = propose(&mut agent("openai", &server.url, LlmMode::PerLayer(Layer::L1)), &context(&f, Some(Layer::L2), 100_000), &FakeTools::default()).await;
    assert_eq!(edit(&turn).layer, Layer::L2);
    let q = &server.requests()[0].body;
    assert!(q["messages"][0]["content"].as_str().unwrap().contains("L2 target-code agent"));
    assert!(q["messages"][1]["content"].as_str().unwrap().contains("MATMUL_LLVM"));
}

#[test]
fn a_broken_prompt_override_fails_at_construction() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("flat.md"), "").unwrap();
    let client = config("openai", "http://127.0.0.1:9", "").client_with(Some("p"), lookup).unwrap();
    let e = LlmAgent::flat(client, Prompts::from_dir(dir.path().to_path_buf())).err().unwrap().to_string();
    assert!(e.contains("flat.md") && e.contains("empty"), "{e}");
}

#[tokio::test]
async fn from_config_uses_the_default_provider_and_its_tool_rounds() {
    let f = fixture();
    let server = MockServer::start(vec![openai_tool_call("c", "evaluate", json!({"node": 0}), (10, 1))]).await;
    // No api_key_env: a local server without auth, so nothing is read from the environment.
    let text = format!("default = \"local\"\ntool_rounds = 2\n[providers.local]\nkind = \"openai\"\nendpoint = \"{}/v1\"\nmodel = \"qwen\"\nbackoff_ms = 1\n", server.url);
    let cfg = kwb::llm::LlmConfig::parse(&text, "llm.toml").unwrap();
    let mut a = LlmAgent::from_config(&cfg, None, LlmMode::Flat, Prompts::shipped()).unwrap();
    assert_eq!(a.name(), "llm-flat:local");
    let tools = FakeTools::default();
    let turn = propose(&mut a, &context(&f, None, 100_000), &tools).await;
    assert!(exhausted(&turn).contains("after 2 rounds"), "{}", exhausted(&turn));
    assert_eq!(server.requests().len(), 3);
    assert_eq!(*tools.calls.lock().unwrap(), ["evaluate 0", "evaluate 0"]);
    assert!(!server.requests()[0].headers.contains_key("authorization"), "no key, no auth header");
    assert_eq!(server.requests()[0].body["model"], "qwen");
}

#[tokio::test]
async fn an_answer_beside_tool_calls_in_the_last_round_is_taken() {
    let f = fixture();
    let both = reply(
        200,
        json!({"choices": [{"message": {"role": "assistant", "content": TRACE_REPLY,
                 "tool_calls": [{"id": "c", "type": "function", "function": {"name": "profile", "arguments": "{\"node\": 1}"}}]}, "finish_reason": "tool_calls"}],
               "usage": {"prompt_tokens": 10, "completion_tokens": 10}})
        .to_string(),
    );
    let server = MockServer::start(vec![both]).await;
    let tools = FakeTools::default();
    let turn = propose(&mut agent("openai", &server.url, LlmMode::PerLayer(Layer::L1)), &context(&f, Some(Layer::L1), 100_000), &tools).await;
    assert_eq!(edit(&turn).kernel.as_deref(), Some("matmul"));
    assert_eq!(server.requests().len(), 4, "three rounds of tools were still served first");
    assert_eq!(tools.calls.lock().unwrap().len(), 3);

    // One-shot offers no tools: a server that invents a call still gets its answer read.
    let server = MockServer::start(vec![reply(200, server_reply_with_module())]).await;
    let turn = propose(&mut agent("openai", &server.url, LlmMode::OneShot), &context(&f, None, 100_000), &tools).await;
    assert_eq!(edit(&turn).layer, Layer::L0);
    assert_eq!(server.requests().len(), 1);
}

fn server_reply_with_module() -> String {
    json!({"choices": [{"message": {"role": "assistant", "content": "Why.\n```tvmscript\n@I.ir_module\nclass Module:\n    pass\n```",
             "tool_calls": [{"id": "c", "type": "function", "function": {"name": "evaluate", "arguments": "{}"}}]}, "finish_reason": "tool_calls"}],
           "usage": {"prompt_tokens": 1, "completion_tokens": 1}})
    .to_string()
}
