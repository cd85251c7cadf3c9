//! OpenAI-compatible `/v1/chat/completions`: OpenAI itself, vLLM, llama.cpp
//! server, Ollama and most local servers.

use super::{client::Call, client::Reply, client::StopNames, client::Wire, error::LlmError, error::snippet, http::Endpoint, types::*};
use serde::Deserialize;
use serde_json::{Value, json};

/// The chat-completions wire format.
pub(crate) struct OpenAi;

impl Wire for OpenAi {
    fn body(call: &Call<'_>) -> Value {
        let req = call.req;
        let mut messages = vec![];
        if !req.system.is_empty() {
            messages.push(json!({"role": "system", "content": req.system}));
        }
        for m in &req.messages {
            messages.push(match m {
                Message::User { content } => json!({"role": "user", "content": content}),
                Message::Assistant { content, tool_calls } => {
                    let mut v = json!({"role": "assistant", "content": content});
                    if !tool_calls.is_empty() {
                        // Some servers refuse an empty string beside tool calls; null is what OpenAI sends.
                        if content.is_empty() {
                            v["content"] = Value::Null;
                        }
                        v["tool_calls"] = tool_calls
                            .iter()
                            .map(|c| json!({"id": c.id, "type": "function", "function": {"name": c.name, "arguments": arguments_text(&c.arguments)}}))
                            .collect();
                    }
                    v
                }
                Message::Tool { call_id, name, content } => json!({"role": "tool", "tool_call_id": call_id, "name": name, "content": content}),
            });
        }
        let mut body = json!({
            "model": call.model,
            "messages": messages,
        });
        body[max_tokens_field(&call.endpoint.url)] = json!(call.max_tokens);
        if let Some(t) = call.temperature {
            body["temperature"] = json!(t);
        }
        if !req.tools.is_empty() {
            body["tools"] = req
                .tools
                .iter()
                .map(|t| json!({"type": "function", "function": {"name": t.name, "description": t.description, "parameters": t.parameters}}))
                .collect();
        }
        body
    }

    fn read(endpoint: &Endpoint, body: Value) -> Result<Reply, LlmError> {
        let provider = endpoint.provider.clone();
        let resp: Resp = endpoint.decode(&body)?;
        let choice = resp.choices.into_iter().next().ok_or_else(|| endpoint.malformed("`choices` is empty".into()))?;
        let usage = resp.usage.map(|u| TokenUsage { input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens }).unwrap_or_default();
        let msg = choice.message;
        if let Some(r) = msg.refusal.filter(|r| !r.trim().is_empty()) {
            return Err(LlmError::Refused { provider, detail: snippet(&endpoint.redact(&r)) });
        }
        let text = content_text(msg.content.as_ref());
        let calls: Vec<ToolCall> = msg
            .tool_calls
            .unwrap_or_default()
            .into_iter()
            .enumerate()
            .map(|(i, c)| ToolCall {
                // Some local servers leave the id out; the reply must still pair with its call.
                id: c.id.filter(|s| !s.is_empty()).unwrap_or_else(|| format!("call_{i}")),
                name: c.function.name,
                arguments: parse_arguments(c.function.arguments),
            })
            .collect();
        let stop_reason = match choice.finish_reason.as_deref() {
            Some("content_filter") => return Err(LlmError::Refused { provider, detail: "the provider's content filter stopped the reply".into() }),
            r => StopNames { end_turn: &["stop"], tool_use: &["tool_calls", "function_call"], max_tokens: "length" }.read(r),
        };
        Ok(Reply { text, tool_calls: calls, usage, stop_reason })
    }
}

/// OpenAI itself has replaced `max_tokens`, which its newer models refuse;
/// compatible servers (vLLM, llama.cpp, Ollama) know the old name best.
fn max_tokens_field(url: &str) -> &'static str {
    if url.starts_with("https://api.openai.com/") { "max_completion_tokens" } else { "max_tokens" }
}

/// Arguments go over the wire as a JSON string; a raw (unparseable) string is sent back as it came.
fn arguments_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// OpenAI sends a JSON string; Ollama an object. An empty string means no arguments.
fn parse_arguments(v: Value) -> Value {
    match v {
        Value::String(s) if s.trim().is_empty() => json!({}),
        Value::String(s) => serde_json::from_str(&s).unwrap_or(Value::String(s)),
        Value::Null => json!({}),
        other => other,
    }
}

/// Content is a string, null, or (some servers) a list of `{type: text, text}` parts.
fn content_text(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts.iter().filter_map(|p| p.get("text").and_then(Value::as_str)).collect::<Vec<_>>().join(""),
        _ => String::new(),
    }
}

#[derive(Deserialize)]
struct Resp {
    choices: Vec<Choice>,
    #[serde(default)]
    usage: Option<UsageWire>,
}

#[derive(Deserialize)]
struct Choice {
    message: MessageWire,
    #[serde(default)]
    finish_reason: Option<String>,
}

#[derive(Deserialize)]
struct MessageWire {
    #[serde(default)]
    content: Option<Value>,
    #[serde(default)]
    tool_calls: Option<Vec<CallWire>>,
    #[serde(default)]
    refusal: Option<String>,
}

#[derive(Deserialize)]
struct CallWire {
    #[serde(default)]
    id: Option<String>,
    function: FunctionWire,
}

#[derive(Deserialize)]
struct FunctionWire {
    name: String,
    #[serde(default)]
    arguments: Value,
}

#[derive(Deserialize)]
struct UsageWire {
    #[serde(default)]
    prompt_tokens: u64,
    #[serde(default)]
    completion_tokens: u64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments_accept_strings_objects_and_garbage() {
        assert_eq!(parse_arguments(json!("{\"node\": 3}")), json!({"node": 3}));
        assert_eq!(parse_arguments(json!({"node": 3})), json!({"node": 3}));
        assert_eq!(parse_arguments(json!("{oops")), json!("{oops"));
        assert_eq!(parse_arguments(json!("")), json!({}));
        assert_eq!(arguments_text(&json!("{oops")), "{oops");
    }

    #[test]
    fn openai_itself_gets_the_new_max_tokens_name() {
        assert_eq!(max_tokens_field("https://api.openai.com/v1/chat/completions"), "max_completion_tokens");
        assert_eq!(max_tokens_field("http://127.0.0.1:8000/v1/chat/completions"), "max_tokens");
    }

    #[test]
    fn content_may_be_parts() {
        assert_eq!(content_text(Some(&json!([{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]))), "ab");
        assert_eq!(content_text(Some(&Value::Null)), "");
    }
}
