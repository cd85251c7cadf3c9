//! What a session log records. Schema history: version 1 wrote every
//! layer's text in every `edit` event; version 2 (current) writes each
//! distinct text once per log (`text_store`). `tests/fixtures/sessions/`
//! keeps a log of every version, and a test loads each, so an older session
//! always opens.

use crate::eval::EvalResult;
use crate::ir::{Layer, LayerTexts};
use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const SCHEMA_VERSION: u32 = 2;

/// The first line of a log.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Header {
    pub kwb_session: u32,
    pub id: String,
    pub task: String,
    pub created_unix_ms: u64,
    /// kwb version, target, device, config: what shaped the results.
    pub manifest: Value,
}

/// One line after the header.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Event {
    pub seq: u64,
    pub ts_ms: u64,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// A node as created: its place in the tree and every layer's text.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct NodeRecord {
    pub id: u32,
    pub parent: Option<u32>,
    pub layer: Layer,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// Agent name, "human" or "import".
    pub author: String,
    #[serde(default)]
    pub rationale: String,
    /// For an L1 edit made as a schedule trace: the s_tir primitives applied.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<String>>,
    /// Schema 2 writes hashes under `texts_ref` (see `text_store`); the
    /// loader puts the texts back.
    #[serde(alias = "texts_ref")]
    pub texts: LayerTexts,
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
pub struct Cost {
    pub wall_s: f64,
    pub tokens_in: u64,
    pub tokens_out: u64,
    pub device_s: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum EventKind {
    /// An agent (or person) proposes an edit; it becomes a node when applied.
    Proposal { author: String, parent: u32, layer: Layer, #[serde(default)] kernel: Option<String>, rationale: String },
    /// A node enters the tree (the root comes from the task's reference).
    Edit { node: NodeRecord },
    /// An edit that was refused before any build (parse, well-formedness, legality).
    Refused { parent: u32, layer: Layer, #[serde(default)] kernel: Option<String>, author: String, failure: crate::failure::Failure },
    EvalStarted { node: u32 },
    EvalFinished { node: u32, result: Box<EvalResult>, #[serde(default)] cost: Cost },
    Profile { node: u32, profile: Value },
    /// Something a person did: accept, reject, pin, mark, branch, resume.
    HumanAction { action: String, #[serde(default)] node: Option<u32>, #[serde(default)] detail: Value },
    Note { text: String, #[serde(default)] node: Option<u32> },
}
