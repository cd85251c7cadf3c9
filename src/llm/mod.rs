//! LLM providers: OpenAI-compatible chat completions and Anthropic messages,
//! over reqwest, with tool calls, retries and token counts.
//!
//! Load `llm.toml` with [`LlmConfig::load`], get a client with
//! [`LlmConfig::client`], and hand it to [`crate::agent::llm_agent::LlmAgent`].

mod anthropic;
mod client;
mod config;
mod error;
mod http;
mod key;
mod openai;
pub mod prompts;
pub mod reply;
mod retry;
mod types;

pub use client::{ChatClient, connect};
pub use config::{CONFIG_ENV, DEFAULT_TOOL_ROUNDS, LlmConfig, ProviderConfig, ProviderKind};
pub use error::LlmError;
pub use key::ApiKey;
pub use prompts::{PromptKind, Prompts};
pub use retry::RetryPolicy;
pub use types::{ChatRequest, ChatResponse, Message, StopReason, TokenUsage, ToolCall, ToolSpec};
