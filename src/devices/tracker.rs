//! A client for TVM's RPC tracker, the control plane edge teams already run
//! in front of their boards: enough of its protocol to ask what it serves.
//!
//! The protocol (tvm/rpc/base.py, tracker.py): after connecting, each side
//! sends the 4-byte little-endian magic; then every message is a 4-byte
//! little-endian length and that many bytes of JSON, a request being
//! `[code, args...]` and a reply `[SUCCESS, value]`.

use anyhow::{Context, Result, bail};
use serde_json::{Value, json};
use std::io::{Read, Write};
use std::net::{TcpStream, ToSocketAddrs};
use std::time::Duration;

const TRACKER_MAGIC: i32 = 0x2F271;
const CODE_SUCCESS: i64 = 0;
const CODE_SUMMARY: i64 = 6;
/// The tracker refuses larger messages; so does this client.
const MAX_MESSAGE: usize = 16 << 20;

/// Free and pending servers of one key in the tracker's queue.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct Queue {
    pub free: u64,
    pub pending: u64,
}

/// What the tracker serves: its queue per key, and the servers registered.
#[derive(Debug, Clone, Default, serde::Serialize)]
pub struct Summary {
    pub queues: std::collections::BTreeMap<String, Queue>,
    pub servers: Vec<Value>,
}

/// Parses "host:port" into a socket address, with an error that says what
/// to write.
fn resolve(addr: &str) -> Result<std::net::SocketAddr> {
    addr.to_socket_addrs()
        .with_context(|| format!("tracker address `{addr}`: write HOST:PORT, e.g. 127.0.0.1:9190"))?
        .next()
        .with_context(|| format!("tracker address `{addr}` resolves to nothing"))
}

fn send(stream: &mut TcpStream, value: &Value) -> Result<()> {
    let body = serde_json::to_vec(value)?;
    stream.write_all(&(body.len() as i32).to_le_bytes())?;
    stream.write_all(&body)?;
    Ok(())
}

fn receive(stream: &mut TcpStream) -> Result<Value> {
    let mut len = [0u8; 4];
    stream.read_exact(&mut len)?;
    let len = i32::from_le_bytes(len);
    if len <= 0 || len as usize > MAX_MESSAGE {
        bail!("the tracker sent a message of {len} bytes: not TVM's protocol");
    }
    let mut body = vec![0u8; len as usize];
    stream.read_exact(&mut body)?;
    serde_json::from_slice(&body).context("the tracker's reply is not JSON")
}

/// Asks the tracker at `addr` for its summary, within `timeout` for each step.
pub fn summary(addr: &str, timeout: Duration) -> Result<Summary> {
    let sock = resolve(addr)?;
    let mut stream = TcpStream::connect_timeout(&sock, timeout).with_context(|| format!("no RPC tracker answers at {addr}"))?;
    stream.set_read_timeout(Some(timeout))?;
    stream.set_write_timeout(Some(timeout))?;
    stream.write_all(&TRACKER_MAGIC.to_le_bytes())?;
    let mut magic = [0u8; 4];
    stream.read_exact(&mut magic).with_context(|| format!("{addr} did not answer as a TVM RPC tracker"))?;
    if i32::from_le_bytes(magic) != TRACKER_MAGIC {
        bail!("{addr} is not a TVM RPC tracker (wrong magic)");
    }
    send(&mut stream, &json!([CODE_SUMMARY]))?;
    let reply = receive(&mut stream)?;
    if reply[0].as_i64() != Some(CODE_SUCCESS) {
        bail!("the tracker at {addr} refused the summary: {reply}");
    }
    Ok(parse_summary(&reply[1]))
}

fn parse_summary(v: &Value) -> Summary {
    let queues = v["queue_info"]
        .as_object()
        .map(|m| {
            m.iter()
                .map(|(k, q)| (k.clone(), Queue { free: q["free"].as_u64().unwrap_or(0), pending: q["pending"].as_u64().unwrap_or(0) }))
                .collect()
        })
        .unwrap_or_default();
    Summary { queues, servers: v["server_info"].as_array().cloned().unwrap_or_default() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_summary_reads_each_keys_queue() {
        let s = parse_summary(&json!({"queue_info": {"pi5": {"free": 2, "pending": 1}}, "server_info": [{"key": "server:pi5"}]}));
        assert_eq!(s.queues["pi5"], Queue { free: 2, pending: 1 });
        assert_eq!(s.servers.len(), 1);
    }

    #[test]
    fn a_listener_that_is_not_a_tracker_is_named() {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let addr = listener.local_addr().unwrap().to_string();
        let t = std::thread::spawn(move || {
            let (mut s, _) = listener.accept().unwrap();
            let mut b = [0u8; 4];
            s.read_exact(&mut b).unwrap();
            s.write_all(b"HTTP").unwrap();
        });
        let e = summary(&addr, Duration::from_secs(5)).unwrap_err();
        assert!(format!("{e:#}").contains("not a TVM RPC tracker"), "{e:#}");
        t.join().unwrap();
    }

    #[test]
    fn a_bad_address_says_what_to_write() {
        let e = summary("no-port-here", Duration::from_secs(1)).unwrap_err();
        assert!(format!("{e:#}").contains("HOST:PORT"), "{e:#}");
    }
}
