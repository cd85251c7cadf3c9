//! One engine worker process: start it, wait for `ready`, send one request at
//! a time, read its reply. Its stderr is drained in the background into the
//! log and a short tail kept for error messages.

use super::protocol::{Message, PROTOCOL_VERSION, Request};
use super::pyenv::PythonEnv;
use super::sandbox::{self, Limits, Role};
use anyhow::{Context, Result, bail};
use serde_json::Value;
use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

const STDERR_TAIL_LINES: usize = 40;

pub struct Worker {
    child: Child,
    stdin: ChildStdin,
    stdout: Lines<BufReader<ChildStdout>>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    pub pid: u32,
    pub scratch: PathBuf,
    pub versions: Value,
    pub import_s: f64,
    pub role: Role,
    /// What its confinement applied, as the worker reported it.
    pub sandbox: Value,
}

/// How a request ended when no reply came.
#[derive(Debug)]
pub enum Broken {
    /// The process exited or closed stdout; carries the exit description.
    Died(String),
    /// It wrote something that is not protocol.
    Garbage(String),
}

impl Worker {
    pub async fn spawn(env: &PythonEnv, scratch_root: &std::path::Path, limits: Limits, start_timeout: Duration, role: Role, writable: &[&std::path::Path]) -> Result<Self> {
        std::fs::create_dir_all(scratch_root)?;
        let scratch = tempfile_dir(scratch_root)?;
        let mut cmd = Command::new(&env.python);
        cmd.args(["-m", "kwb_engine"])
            .current_dir(&scratch)
            .env_clear()
            .envs(sandbox::worker_env(&scratch, &env.worker_dir, role, writable))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        sandbox::apply(&mut cmd, limits, role);
        let mut child = cmd
            .spawn()
            .with_context(|| format!("cannot start the engine worker with {}: run `kwb engine doctor`", env.python.display()))?;
        let pid = child.id().unwrap_or(0);
        let stdin = child.stdin.take().context("worker stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("worker stdout")?).lines();
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = stderr_tail.clone();
        let mut stderr = BufReader::new(child.stderr.take().context("worker stderr")?).lines();
        tokio::spawn(async move {
            while let Ok(Some(line)) = stderr.next_line().await {
                tracing::debug!(target: "kwb::worker", pid, "{line}");
                let mut t = tail.lock().unwrap();
                if t.len() == STDERR_TAIL_LINES {
                    t.pop_front();
                }
                t.push_back(line);
            }
        });
        let mut w = Worker { child, stdin, stdout, stderr_tail, pid, scratch, versions: Value::Null, import_s: 0.0, role, sandbox: Value::Null };
        let ready = tokio::time::timeout(start_timeout, w.stdout.next_line()).await;
        let line = match ready {
            Ok(Ok(Some(line))) => line,
            Ok(_) => {
                let why = w.exit_description().await;
                bail!("the engine worker exited at start ({why}): {}\nRun `kwb engine doctor`, or `kwb engine setup --force` to rebuild the environment.", w.stderr_tail());
            }
            Err(_) => {
                w.kill().await;
                bail!("the engine worker did not start within {start_timeout:?}: {}", w.stderr_tail());
            }
        };
        let msg: Message = serde_json::from_str(&line).with_context(|| format!("the engine worker's first line is not protocol: {line}"))?;
        if msg.v != PROTOCOL_VERSION || msg.event.as_deref() != Some("ready") {
            bail!("the engine worker speaks protocol {} (kwb speaks {PROTOCOL_VERSION}); reinstall kwb", msg.v);
        }
        w.versions = msg.versions.unwrap_or(Value::Null);
        w.import_s = msg.import_s.unwrap_or(0.0);
        w.sandbox = msg.sandbox.unwrap_or(Value::Null);
        tracing::info!(pid, import_s = w.import_s, role = role.as_str(), "engine worker ready");
        Ok(w)
    }

    /// Sends one request and reads until its reply. Cancel-safe only in the
    /// sense that a dropped call leaves the worker unusable: kill it then.
    pub async fn call(&mut self, id: u64, op: &str, args: &Value) -> std::result::Result<Message, Broken> {
        let mut line = serde_json::to_string(&Request { v: PROTOCOL_VERSION, id, op, args }).expect("request serialises");
        line.push('\n');
        if self.stdin.write_all(line.as_bytes()).await.is_err() || self.stdin.flush().await.is_err() {
            return Err(Broken::Died(self.exit_description().await));
        }
        loop {
            match self.stdout.next_line().await {
                Ok(Some(l)) => match serde_json::from_str::<Message>(&l) {
                    Ok(m) if m.id == Some(id) => return Ok(m),
                    Ok(m) => tracing::warn!(pid = self.pid, id = ?m.id, "reply for another request ignored"),
                    Err(_) => return Err(Broken::Garbage(l.chars().take(300).collect())),
                },
                _ => return Err(Broken::Died(self.exit_description().await)),
            }
        }
    }

    pub fn stderr_tail(&self) -> String {
        let t = self.stderr_tail.lock().unwrap();
        let lines: Vec<&str> = t.iter().rev().take(8).map(String::as_str).collect();
        lines.into_iter().rev().collect::<Vec<_>>().join("\n")
    }

    /// Waits briefly for the exit status and describes it ("killed by SIGSEGV").
    pub async fn exit_description(&mut self) -> String {
        match tokio::time::timeout(Duration::from_secs(5), self.child.wait()).await {
            Ok(Ok(status)) => describe_status(status),
            _ => "no exit status".to_string(),
        }
    }

    /// Kills the worker's whole process group (it is a session leader).
    pub async fn kill(&mut self) {
        if self.pid != 0 {
            // SAFETY: plain syscall; a negative pid names the process group.
            unsafe { libc::kill(-(self.pid as i32), libc::SIGKILL) };
        }
        let _ = self.child.kill().await;
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        if self.pid != 0 {
            // SAFETY: as in kill(); ends the group if the worker was not reaped.
            if let Ok(None) = self.child.try_wait() {
                unsafe { libc::kill(-(self.pid as i32), libc::SIGKILL) };
            }
        }
        let _ = std::fs::remove_dir_all(&self.scratch);
    }
}

pub fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    if let Some(sig) = status.signal() {
        let name = match sig {
            libc::SIGSEGV => "SIGSEGV",
            libc::SIGBUS => "SIGBUS",
            libc::SIGABRT => "SIGABRT",
            libc::SIGKILL => "SIGKILL",
            libc::SIGFPE => "SIGFPE",
            libc::SIGILL => "SIGILL",
            libc::SIGXCPU => "SIGXCPU",
            _ => "signal",
        };
        format!("killed by {name} ({sig})")
    } else {
        format!("exited with {}", status.code().unwrap_or(-1))
    }
}

fn tempfile_dir(root: &std::path::Path) -> Result<PathBuf> {
    for n in 0..1000u32 {
        let dir = root.join(format!("w{}-{}-{n}", std::process::id(), std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.subsec_nanos()).unwrap_or(0)));
        if std::fs::create_dir(&dir).is_ok() {
            return Ok(dir);
        }
    }
    bail!("cannot make a scratch directory under {}", root.display())
}
