//! The worker protocol (version 1): newline-delimited JSON over stdio.
//! The Python side is documented in src/engine/python/kwb_engine/__main__.py.

use serde::{Deserialize, Serialize};
use serde_json::Value;

pub const PROTOCOL_VERSION: u32 = 1;

#[derive(Debug, Serialize)]
pub struct Request<'a> {
    pub v: u32,
    pub id: u64,
    pub op: &'a str,
    pub args: &'a Value,
}

/// Any line a worker writes: the start-up `ready` event or a reply.
#[derive(Debug, Deserialize)]
pub struct Message {
    pub v: u32,
    #[serde(default)]
    pub event: Option<String>,
    #[serde(default)]
    pub id: Option<u64>,
    #[serde(default)]
    pub ok: Option<bool>,
    #[serde(default)]
    pub result: Option<Value>,
    #[serde(default)]
    pub error: Option<WireError>,
    #[serde(default)]
    pub versions: Option<Value>,
    #[serde(default)]
    pub import_s: Option<f64>,
    /// What the worker's confinement applied (ready line only).
    #[serde(default)]
    pub sandbox: Option<Value>,
}

#[derive(Debug, Clone, Deserialize, Serialize)]
pub struct WireError {
    pub class: String,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub traceback: Option<String>,
}
