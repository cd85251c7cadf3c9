//! An agent backed by a language model: it shows the model the node and its
//! results, lets it call tools for a bounded number of rounds, and turns its
//! final answer into one edit. Every failure (provider errors after retries,
//! refusals, cut-off or unparseable answers) ends in `Proposal::Exhausted`
//! with the reason; nothing here panics on what a model or server sends.

// What the model is shown, how its answer becomes an edit, and how its tool
// calls are carried out: one file each.
mod context;
mod proposal;
mod tool_calls;

use super::{AgentContext, BoxFuture, Proposal, Tools, Turn, Usage};
use crate::ir::Layer;
use crate::llm::{ChatClient, ChatRequest, ChatResponse, DEFAULT_TOOL_ROUNDS, LlmConfig, LlmError, Message, PromptKind, Prompts};
use std::sync::Arc;

/// Which agent this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LlmMode {
    /// Owns one layer; the context's layer, when given, takes precedence.
    PerLayer(Layer),
    /// One general agent that edits any layer.
    Flat,
    /// One call, no tools, the whole L0 module back.
    OneShot,
}

impl LlmMode {
    fn prompt(self) -> PromptKind {
        match self {
            Self::PerLayer(Layer::L0) => PromptKind::L0,
            Self::PerLayer(Layer::L1) => PromptKind::L1,
            Self::PerLayer(Layer::L2) => PromptKind::L2,
            Self::Flat => PromptKind::Flat,
            Self::OneShot => PromptKind::OneShot,
        }
    }

    fn label(self) -> String {
        match self {
            Self::PerLayer(l) => l.to_string().to_lowercase(),
            Self::Flat => "flat".into(),
            Self::OneShot => "one-shot".into(),
        }
    }
}

pub struct LlmAgent {
    client: Arc<dyn ChatClient>,
    mode: LlmMode,
    /// Per-layer agents keep one prompt per layer, since the context may name another layer.
    prompts: Prompts,
    max_rounds: u32,
}

impl LlmAgent {
    /// Checks every prompt this agent may need now, so a broken override fails at start-up.
    pub fn new(client: Arc<dyn ChatClient>, mode: LlmMode, prompts: Prompts) -> Result<Self, LlmError> {
        let kinds: Vec<PromptKind> = match mode {
            LlmMode::PerLayer(_) => vec![PromptKind::L0, PromptKind::L1, PromptKind::L2],
            m => vec![m.prompt()],
        };
        for k in kinds {
            prompts.get(k)?;
        }
        Ok(Self { client, mode, prompts, max_rounds: DEFAULT_TOOL_ROUNDS })
    }

    /// The agent kwb runs: the named provider (or the default) from `config`,
    /// its key from the environment, `tool_rounds` from the config.
    pub fn from_config(config: &LlmConfig, provider: Option<&str>, mode: LlmMode, prompts: Prompts) -> Result<Self, LlmError> {
        Ok(Self::new(config.client(provider)?, mode, prompts)?.with_max_rounds(config.tool_rounds))
    }

    pub fn per_layer(client: Arc<dyn ChatClient>, layer: Layer, prompts: Prompts) -> Result<Self, LlmError> {
        Self::new(client, LlmMode::PerLayer(layer), prompts)
    }

    pub fn flat(client: Arc<dyn ChatClient>, prompts: Prompts) -> Result<Self, LlmError> {
        Self::new(client, LlmMode::Flat, prompts)
    }

    pub fn one_shot(client: Arc<dyn ChatClient>, prompts: Prompts) -> Result<Self, LlmError> {
        Self::new(client, LlmMode::OneShot, prompts)
    }

    /// Tool rounds before the model must answer (`tool_rounds` in llm.toml).
    pub fn with_max_rounds(mut self, rounds: u32) -> Self {
        self.max_rounds = rounds.max(1);
        self
    }

    pub fn mode(&self) -> LlmMode {
        self.mode
    }

    async fn run(&self, ctx: &AgentContext<'_>, tools: &dyn Tools) -> Turn {
        let mut log = Log::default();
        let outcome = self.converse(ctx, tools, &mut log).await;
        let proposal = match outcome {
            Ok(p) => p,
            Err(reason) => {
                log.transcript.push(format!("gave up: {reason}"));
                Proposal::Exhausted { reason }
            }
        };
        Turn { proposal, usage: log.usage, transcript: log.transcript }
    }

    async fn converse(&self, ctx: &AgentContext<'_>, tools: &dyn Tools, log: &mut Log) -> Result<Proposal, String> {
        let mode = match (self.mode, ctx.layer) {
            (LlmMode::PerLayer(_), Some(l)) => LlmMode::PerLayer(l),
            (m, _) => m,
        };
        let node = ctx.tree.get(ctx.node).ok_or_else(|| format!("node #{} is not in the candidate tree", ctx.node))?;
        let kernels = node.record.texts.kernels();
        let kernel = context::pick_kernel(ctx);
        let (shown_layer, asked_layer, flat) = match mode {
            LlmMode::PerLayer(l) => (l, Some(l), false),
            LlmMode::Flat => (Layer::L0, None, true),
            LlmMode::OneShot => (Layer::L0, Some(Layer::L0), false),
        };
        if shown_layer != Layer::L0 && kernel.is_none() {
            return Err(format!("node #{} has no kernels to edit at {shown_layer}", ctx.node));
        }
        let system = self.prompts.get(mode.prompt()).map_err(|e| e.to_string())?;
        let mut req = ChatRequest {
            system,
            messages: vec![Message::user(context::user_message(ctx, shown_layer, kernel.as_deref(), flat))],
            tools: if mode == LlmMode::OneShot { vec![] } else { tool_calls::specs() },
            max_tokens: None,
            temperature: None,
        };
        let rounds = if mode == LlmMode::OneShot { 0 } else { self.max_rounds };
        let mut round = 0;
        let last = loop {
            if log.usage.tokens_in + log.usage.tokens_out >= ctx.budget.tokens {
                return Err(format!("the token budget is spent ({} tokens used by this agent)", log.usage.tokens_in + log.usage.tokens_out));
            }
            let resp = self.call(&req, log).await?;
            // One-shot offers no tools, so stray calls (some local servers invent
            // them) are ignored; out of rounds, an answer beside the calls still counts.
            if resp.tool_calls.is_empty() || mode == LlmMode::OneShot {
                break resp;
            }
            if round >= rounds {
                if crate::llm::reply::parse_reply(&resp.text).block.is_some() {
                    log.transcript.push("ignored the tool calls of the last round: the reply already holds an answer".into());
                    break resp;
                }
                return Err(format!("the model still asked for tools after {rounds} rounds; raise `tool_rounds` in llm.toml or give a hint"));
            }
            round += 1;
            req.messages.push(resp.as_message());
            for call in &resp.tool_calls {
                let result = tool_calls::dispatch(tools, call).await;
                let args = crate::llm::reply::shorten(&call.arguments.to_string(), 200);
                let content = match result {
                    Ok(text) => {
                        log.transcript.push(format!("tool {}({args}): {} characters", call.name, text.len()));
                        text
                    }
                    Err(e) => {
                        log.transcript.push(format!("tool {}({args}) failed: {e}", call.name));
                        format!("error: {e}")
                    }
                };
                req.messages.push(Message::Tool { call_id: call.id.clone(), name: call.name.clone(), content });
            }
            if round == rounds {
                req.messages.push(Message::user("That was the last tool round: answer now, in the reply format, without calling tools."));
            }
        };
        let target = proposal::Target { layer: asked_layer, kernel: kernel.as_deref(), kernels: &kernels };
        let edit = proposal::to_proposal(&last.text, &last.stop_reason, &target)?;
        log.transcript.push(format!("proposed a {} edit{}", edit.layer, edit.kernel.as_deref().map(|k| format!(" of `{k}`")).unwrap_or_default()));
        Ok(Proposal::Edit(edit))
    }

    /// One chat call, with its cost and retries written down whatever happens.
    async fn call(&self, req: &ChatRequest, log: &mut Log) -> Result<ChatResponse, String> {
        match self.client.chat(req).await {
            Ok(resp) => {
                log.transcript.extend(resp.retries.iter().cloned());
                log.usage.calls += 1;
                log.usage.tokens_in += resp.usage.input_tokens;
                log.usage.tokens_out += resp.usage.output_tokens;
                log.transcript.push(format!(
                    "call {} to {}/{}: {} tokens in, {} out, stop {:?}, {} tool calls, {} attempt(s)",
                    log.usage.calls,
                    self.client.provider(),
                    self.client.model(),
                    resp.usage.input_tokens,
                    resp.usage.output_tokens,
                    resp.stop_reason,
                    resp.tool_calls.len(),
                    resp.attempts
                ));
                Ok(resp)
            }
            Err(e) => {
                log.transcript.extend(e.retries().iter().cloned());
                log.transcript.push(format!("call to {}/{} failed ({}): {e}", self.client.provider(), self.client.model(), e.kind()));
                Err(e.to_string())
            }
        }
    }
}

#[derive(Default)]
struct Log {
    usage: Usage,
    transcript: Vec<String>,
}

impl super::Agent for LlmAgent {
    fn name(&self) -> String {
        format!("llm-{}:{}", self.mode.label(), self.client.provider())
    }

    fn propose<'a>(&'a mut self, ctx: &'a AgentContext<'a>, tools: &'a dyn Tools) -> BoxFuture<'a, anyhow::Result<Turn>> {
        Box::pin(async move { Ok(self.run(ctx, tools).await) })
    }
}
