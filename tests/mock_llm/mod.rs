//! A scripted LLM server for tests: it listens on 127.0.0.1 (a random port),
//! records every request, and answers each with the next scripted reply (the
//! last one repeats once the script runs out). Plain HTTP/1.1, one request per
//! connection, which is all the clients under test need.

#![allow(dead_code)] // Each test binary uses a different part of it.

use kwb::llm::{LlmConfig, ProviderConfig};
use serde_json::{Value, json};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

#[derive(Clone, Debug)]
pub enum Scripted {
    Reply { status: u16, headers: Vec<(String, String)>, body: String },
    /// Reads the request and never answers.
    Hang,
}

#[derive(Clone, Debug)]
pub struct Recorded {
    pub path: String,
    /// Lower-cased names.
    pub headers: HashMap<String, String>,
    pub body: Value,
}

pub struct MockServer {
    pub url: String,
    requests: Arc<Mutex<Vec<Recorded>>>,
}

impl MockServer {
    pub async fn start(script: Vec<Scripted>) -> Self {
        assert!(!script.is_empty(), "a mock server needs at least one reply");
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", listener.local_addr().unwrap());
        let requests = Arc::new(Mutex::new(vec![]));
        let recorded = requests.clone();
        tokio::spawn(async move {
            let mut next = 0usize;
            loop {
                let Ok((sock, _)) = listener.accept().await else { return };
                let reply = script[next.min(script.len() - 1)].clone();
                next += 1;
                let recorded = recorded.clone();
                tokio::spawn(async move { serve(sock, reply, recorded).await });
            }
        });
        Self { url, requests }
    }

    pub fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().unwrap().clone()
    }
}

async fn serve(mut sock: TcpStream, reply: Scripted, recorded: Arc<Mutex<Vec<Recorded>>>) {
    let mut buf = vec![];
    let mut chunk = [0u8; 8192];
    let head_end = loop {
        let n = sock.read(&mut chunk).await.unwrap_or(0);
        if n == 0 {
            return;
        }
        buf.extend_from_slice(&chunk[..n]);
        if let Some(i) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            break i + 4;
        }
    };
    let head = String::from_utf8_lossy(&buf[..head_end]).to_string();
    let mut lines = head.split("\r\n");
    let path = lines.next().unwrap_or("").split(' ').nth(1).unwrap_or("").to_string();
    let headers: HashMap<String, String> =
        lines.filter_map(|l| l.split_once(':')).map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string())).collect();
    let len: usize = headers.get("content-length").and_then(|v| v.parse().ok()).unwrap_or(0);
    while buf.len() < head_end + len {
        let n = sock.read(&mut chunk).await.unwrap_or(0);
        if n == 0 {
            break;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
    let body = serde_json::from_slice(&buf[head_end..]).unwrap_or(Value::Null);
    recorded.lock().unwrap().push(Recorded { path, headers, body });
    match reply {
        Scripted::Hang => {
            tokio::time::sleep(std::time::Duration::from_secs(3600)).await;
        }
        Scripted::Reply { status, headers, body } => {
            let mut out = format!("HTTP/1.1 {status} Scripted\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n", body.len());
            for (k, v) in headers {
                out.push_str(&format!("{k}: {v}\r\n"));
            }
            out.push_str("\r\n");
            out.push_str(&body);
            let _ = sock.write_all(out.as_bytes()).await;
            let _ = sock.shutdown().await;
        }
    }
}

pub fn reply(status: u16, body: impl Into<String>) -> Scripted {
    Scripted::Reply { status, headers: vec![], body: body.into() }
}

pub fn reply_with(status: u16, headers: &[(&str, &str)], body: impl Into<String>) -> Scripted {
    Scripted::Reply { status, headers: headers.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect(), body: body.into() }
}

/// An OpenAI chat completion with text (and finish_reason).
pub fn openai_text(text: &str, finish: &str, tokens: (u64, u64)) -> Scripted {
    reply(
        200,
        json!({"id": "c1", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
               "usage": {"prompt_tokens": tokens.0, "completion_tokens": tokens.1, "total_tokens": tokens.0 + tokens.1}})
        .to_string(),
    )
}

/// An OpenAI chat completion that calls one tool.
pub fn openai_tool_call(id: &str, name: &str, args: Value, tokens: (u64, u64)) -> Scripted {
    reply(
        200,
        json!({"choices": [{"index": 0, "message": {"role": "assistant", "content": null,
                 "tool_calls": [{"id": id, "type": "function", "function": {"name": name, "arguments": args.to_string()}}]}, "finish_reason": "tool_calls"}],
               "usage": {"prompt_tokens": tokens.0, "completion_tokens": tokens.1}})
        .to_string(),
    )
}

/// An Anthropic message with text.
pub fn anthropic_text(text: &str, stop: &str, tokens: (u64, u64)) -> Scripted {
    reply(
        200,
        json!({"id": "m1", "type": "message", "role": "assistant", "model": "claude-test", "content": [{"type": "text", "text": text}],
               "stop_reason": stop, "usage": {"input_tokens": tokens.0, "output_tokens": tokens.1}})
        .to_string(),
    )
}

/// An Anthropic message that calls one tool.
pub fn anthropic_tool_use(id: &str, name: &str, input: Value, tokens: (u64, u64)) -> Scripted {
    reply(
        200,
        json!({"type": "message", "role": "assistant", "content": [{"type": "text", "text": "Let me look."}, {"type": "tool_use", "id": id, "name": name, "input": input}],
               "stop_reason": "tool_use", "usage": {"input_tokens": tokens.0, "output_tokens": tokens.1}})
        .to_string(),
    )
}

pub const KEY: &str = "sk-test-0123456789abcdef";

/// A provider pointing at `url`, with small timeouts and back-offs so retries
/// are quick; `extra` holds `key = value` lines that replace or add fields.
pub fn provider(kind: &str, url: &str, extra: &str) -> ProviderConfig {
    let base = format!(
        "kind = \"{kind}\"\nendpoint = \"{url}\"\nmodel = \"test-model\"\napi_key_env = \"TEST_KEY\"\nmax_tokens = 512\ntimeout_s = 5\nmax_retries = 2\nbackoff_ms = 10\nmax_backoff_s = 2"
    );
    let key = |l: &str| l.split('=').next().unwrap_or("").trim().to_string();
    let replaced: Vec<String> = extra.lines().map(key).collect();
    let mut lines: Vec<&str> = base.lines().filter(|l| !replaced.contains(&key(l))).collect();
    lines.extend(extra.lines());
    let text = format!("[providers.p]\n{}\n", lines.join("\n"));
    LlmConfig::parse(&text, "test").unwrap().providers.remove("p").unwrap()
}

/// A config with one provider `p` at `url`.
pub fn config(kind: &str, url: &str, extra: &str) -> LlmConfig {
    let mut c = LlmConfig::parse(&format!("[providers.p]\nkind = \"{kind}\"\nendpoint = \"{url}\"\nmodel = \"m\"\n"), "test").unwrap();
    c.providers.insert("p".into(), provider(kind, url, extra));
    c
}

/// Reads the test key from the "environment" without touching the real one.
pub fn lookup(var: &str) -> Option<String> {
    (var == "TEST_KEY").then(|| KEY.to_string())
}
