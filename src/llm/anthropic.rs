//! Anthropic `/v1/messages`: content blocks (`text`, `tool_use`, `tool_result`),
//! the system prompt as a top-level field, strictly alternating roles.

use super::{client::Call, client::Reply, client::StopNames, client::Wire, error::LlmError, error::snippet, http::Endpoint, types::*};
use serde::Deserialize;
use serde_json::{Value, json};

/// The messages wire format.
pub(crate) struct Anthropic;

impl Wire for Anthropic {
    fn body(call: &Call<'_>) -> Value {
        let req = call.req;
        // The API wants user and assistant turns to alternate, so tool results
        // (sent as user turns) merge with whatever user turn is next to them.
        let mut messages: Vec<(&str, Vec<Value>)> = vec![];
        for m in &req.messages {
            let (role, blocks) = match m {
                Message::User { content } => ("user", vec![json!({"type": "text", "text": content})]),
                Message::Assistant { content, tool_calls } => {
                    let mut b = vec![];
                    if !content.trim().is_empty() {
                        b.push(json!({"type": "text", "text": content}));
                    }
                    for c in tool_calls {
                        // `input` must be an object; arguments that were not JSON cannot be replayed.
                        let input = if c.arguments.is_object() { c.arguments.clone() } else { json!({}) };
                        b.push(json!({"type": "tool_use", "id": c.id, "name": c.name, "input": input}));
                    }
                    ("assistant", b)
                }
                Message::Tool { call_id, content, .. } => ("user", vec![json!({"type": "tool_result", "tool_use_id": call_id, "content": content})]),
            };
            if blocks.is_empty() {
                continue;
            }
            match messages.last_mut() {
                Some((last, b)) if *last == role => b.extend(blocks),
                _ => messages.push((role, blocks)),
            }
        }
        let mut body = json!({
            "model": call.model,
            "max_tokens": call.max_tokens,
            "messages": messages.into_iter().map(|(role, content)| json!({"role": role, "content": content})).collect::<Vec<_>>(),
        });
        if !req.system.is_empty() {
            body["system"] = json!(req.system);
        }
        if let Some(t) = call.temperature {
            body["temperature"] = json!(t);
        }
        if !req.tools.is_empty() {
            body["tools"] = req.tools.iter().map(|t| json!({"name": t.name, "description": t.description, "input_schema": t.parameters})).collect();
        }
        body
    }

    fn read(endpoint: &Endpoint, body: Value) -> Result<Reply, LlmError> {
        let resp: Resp = endpoint.decode(&body)?;
        let mut text = String::new();
        let mut calls = vec![];
        for b in resp.content {
            match b {
                Block::Text { text: t } => text.push_str(&t),
                Block::ToolUse { id, name, input } => calls.push(ToolCall { id, name, arguments: input }),
                Block::Other => {}
            }
        }
        let usage = resp.usage.map(|u| TokenUsage { input_tokens: u.input_tokens, output_tokens: u.output_tokens }).unwrap_or_default();
        if resp.stop_reason.as_deref() == Some("refusal") {
            let detail = if text.trim().is_empty() { "stop_reason refusal".to_string() } else { snippet(&endpoint.redact(&text)) };
            return Err(LlmError::Refused { provider: endpoint.provider.clone(), detail });
        }
        let names = StopNames { end_turn: &["end_turn", "stop_sequence"], tool_use: &["tool_use"], max_tokens: "max_tokens" };
        Ok(Reply { text, tool_calls: calls, usage, stop_reason: names.read(resp.stop_reason.as_deref()) })
    }
}

#[derive(Deserialize)]
struct Resp {
    content: Vec<Block>,
    #[serde(default)]
    stop_reason: Option<String>,
    #[serde(default)]
    usage: Option<UsageWire>,
}

#[derive(Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
enum Block {
    Text {
        text: String,
    },
    ToolUse {
        id: String,
        name: String,
        #[serde(default)]
        input: Value,
    },
    /// Thinking and any block types added later: not part of the answer.
    #[serde(other)]
    Other,
}

#[derive(Deserialize)]
struct UsageWire {
    #[serde(default)]
    input_tokens: u64,
    #[serde(default)]
    output_tokens: u64,
}
