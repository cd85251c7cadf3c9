//! The tools an LLM agent is offered, and how a call becomes a [`Tools`] call.
//! Bad arguments come back to the model as an error text it can correct.

use crate::agent::Tools;
use super::context::{MAX_TEXT_CHARS, capped};
use crate::ir::Layer;
use crate::llm::{ToolCall, ToolSpec};
use serde_json::{Value, json};

pub(crate) fn specs() -> Vec<ToolSpec> {
    let layer = json!({"type": "string", "enum": ["L0", "L1", "L2"], "description": "L0 graph (Relax), L1 loops (TIR), L2 target code (LLVM IR)"});
    let kernel = json!({"type": "string", "description": "kernel name, for L1 and L2; leave out to list the kernels"});
    let node = json!({"type": "integer", "minimum": 0, "description": "candidate node id"});
    vec![
        ToolSpec {
            name: "view_layer".into(),
            description: "Shows a candidate node's text at one layer (for L1 and L2, of one kernel).".into(),
            parameters: json!({"type": "object", "properties": {"node": node, "layer": layer, "kernel": kernel}, "required": ["node", "layer"]}),
        },
        ToolSpec {
            name: "diff".into(),
            description: "A unified diff between two nodes at one layer.".into(),
            parameters: json!({"type": "object", "properties": {"a": node, "b": node, "layer": layer, "kernel": kernel}, "required": ["a", "b", "layer"]}),
        },
        ToolSpec {
            name: "evaluate".into(),
            description: "Builds, checks and times an existing node against the tuned TVM baseline; returns the summary as JSON. Slow: use sparingly.".into(),
            parameters: json!({"type": "object", "properties": {"node": node}, "required": ["node"]}),
        },
        ToolSpec {
            name: "profile".into(),
            description: "Per-kernel times, memory and roofline share of an existing node, as JSON.".into(),
            parameters: json!({"type": "object", "properties": {"node": node}, "required": ["node"]}),
        },
    ]
}

/// Runs one tool call. Ok is the text for the model; Err is an error text for
/// the model too, marked so the transcript can tell them apart.
pub(crate) async fn dispatch(tools: &dyn Tools, call: &ToolCall) -> Result<String, String> {
    let args = match &call.arguments {
        Value::Object(_) => &call.arguments,
        Value::String(raw) => return Err(format!("the arguments are not a JSON object: `{}`", capped(raw, 200, ""))),
        other => return Err(format!("the arguments must be a JSON object, got {other}")),
    };
    let out = match call.name.as_str() {
        "view_layer" => tools.view(node(args, "node")?, layer(args)?, kernel(args)),
        "diff" => tools.diff(node(args, "a")?, node(args, "b")?, layer(args)?, kernel(args)),
        "evaluate" => tools.evaluate(node(args, "node")?).await.map(|v| v.to_string()),
        "profile" => tools.profile(node(args, "node")?).await.map(|v| v.to_string()),
        other => return Err(format!("there is no tool `{other}`; the tools are view_layer, diff, evaluate and profile")),
    }?;
    Ok(capped(&out, MAX_TEXT_CHARS, "ask for one kernel at a time"))
}

fn node(args: &Value, key: &str) -> Result<u32, String> {
    let v = args.get(key).ok_or_else(|| format!("`{key}` (a node id) is missing"))?;
    // Models sometimes quote numbers or write "#3".
    let n = v.as_u64().or_else(|| v.as_str().and_then(|s| s.trim().trim_start_matches('#').parse().ok()));
    n.and_then(|n| u32::try_from(n).ok()).ok_or_else(|| format!("`{key}` must be a node id (a number), got {v}"))
}

fn layer(args: &Value) -> Result<Layer, String> {
    let s = args.get("layer").and_then(Value::as_str).ok_or("`layer` is missing: L0, L1 or L2")?;
    Layer::parse(s).ok_or_else(|| format!("`layer` must be L0, L1 or L2, got `{s}`"))
}

fn kernel(args: &Value) -> Option<&str> {
    args.get("kernel").and_then(Value::as_str).filter(|k| !k.is_empty())
}
