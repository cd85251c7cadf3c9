//! What a chat call sends and gets back, independent of the provider's wire format.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A tool the model may call: its name, what it does, and a JSON schema of its arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: Value,
}

/// A tool call the model made. `arguments` is the parsed JSON object; when a
/// provider sent arguments that are not JSON, it holds the raw text as a string.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    pub arguments: Value,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    User { content: String },
    /// A model turn: prose and, possibly, tool calls to answer before it goes on.
    Assistant {
        content: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        tool_calls: Vec<ToolCall>,
    },
    /// The answer to one tool call, matched by the call's id.
    Tool { call_id: String, name: String, content: String },
}

impl Message {
    pub fn user(content: impl Into<String>) -> Self {
        Self::User { content: content.into() }
    }
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ChatRequest {
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    /// None: the provider's configured default.
    pub max_tokens: Option<u32>,
    /// None: the provider's configured default.
    pub temperature: Option<f32>,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TokenUsage {
    pub input_tokens: u64,
    pub output_tokens: u64,
}

/// Why the model stopped, in one vocabulary for every provider.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// It finished its answer.
    EndTurn,
    /// It wants tool results before it goes on.
    ToolUse,
    /// It ran into max_tokens: the text may be cut short.
    MaxTokens,
    /// Anything else the provider said, verbatim.
    Other(String),
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ChatResponse {
    pub text: String,
    pub tool_calls: Vec<ToolCall>,
    pub usage: TokenUsage,
    pub stop_reason: StopReason,
    /// HTTP requests it took (1 when nothing was retried).
    pub attempts: u32,
    /// One line per retry: what went wrong and how long it waited.
    pub retries: Vec<String>,
}

impl ChatResponse {
    /// The assistant message to append to the conversation before tool results.
    pub fn as_message(&self) -> Message {
        Message::Assistant { content: self.text.clone(), tool_calls: self.tool_calls.clone() }
    }
}
