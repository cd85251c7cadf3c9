//! `kwb device serve`: TVM's own RPC servers (and, if asked, a tracker) in
//! one process group, registered under a key, until kwb is stopped. On a
//! board without kwb the same is `python -m tvm.exec.rpc_server --tracker
//! HOST:PORT --key KEY`, which needs only TVM's runtime.

use super::tracker;
use anyhow::{Context, Result, bail};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub struct ServeOptions {
    pub key: String,
    pub tracker: String,
    pub start_tracker: bool,
    /// The address servers bind and report: loopback unless one is named,
    /// since a server runs whatever code reaches it.
    pub host: String,
    pub port: u16,
    pub servers: u32,
}

/// The processes started, in one process group; stopped together on drop.
pub struct Served {
    children: Vec<Child>,
    group: i32,
}

impl Served {
    /// Waits until one of the processes exits (then stops the others) and
    /// says which.
    pub fn wait_any(&mut self) -> String {
        loop {
            for c in &mut self.children {
                if let Ok(Some(status)) = c.try_wait() {
                    return format!("process {} exited ({status})", c.id());
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// The process group every started process is in.
    pub fn group(&self) -> i32 {
        self.group
    }

    pub fn stop(&mut self) {
        if self.group > 0 {
            // SAFETY: signals our own process group.
            unsafe { libc::kill(-self.group, libc::SIGTERM) };
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        for c in &mut self.children {
            while Instant::now() < deadline && matches!(c.try_wait(), Ok(None)) {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = c.kill();
            let _ = c.wait();
        }
        if self.group > 0 {
            // SAFETY: as above; whatever TVM forked is in the group too.
            unsafe { libc::kill(-self.group, libc::SIGKILL) };
        }
        self.group = 0;
    }
}

/// Stops a process group from outside its [`Served`] (a signal handler):
/// SIGTERM, a moment to exit, then SIGKILL for what is left.
pub fn stop_group(group: i32) {
    if group <= 0 {
        return;
    }
    // SAFETY: signals a process group this process started.
    unsafe { libc::kill(-group, libc::SIGTERM) };
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: as above.
    unsafe { libc::kill(-group, libc::SIGKILL) };
}

impl Drop for Served {
    fn drop(&mut self) {
        self.stop();
    }
}

fn spawn(python: &Path, args: &[String], group: i32) -> Result<Child> {
    let mut cmd = Command::new(python);
    cmd.args(args).stdin(Stdio::null());
    // The first process leads a new group; the others join it, so one
    // signal stops them all and nothing outlives `kwb device serve`.
    cmd.process_group(group);
    cmd.spawn().with_context(|| format!("cannot start {} {}", python.display(), args.join(" ")))
}

/// Starts the tracker (if asked) and the servers, and waits until the
/// tracker lists them all as free.
pub fn start(python: &Path, o: &ServeOptions) -> Result<Served> {
    let (host, port) = o.tracker.rsplit_once(':').with_context(|| format!("--tracker {}: write HOST:PORT", o.tracker))?;
    let tracker_port: u16 = port.parse().with_context(|| format!("--tracker {}: the port is not a number", o.tracker))?;
    let mut served = Served { children: Vec::new(), group: 0 };
    if o.start_tracker {
        let args = ["-m", "tvm.exec.rpc_tracker", "--host", host, "--port", port, "--port-end", &(tracker_port + 1).to_string(), "--silent"];
        let child = spawn(python, &args.map(String::from), 0)?;
        served.group = child.id() as i32;
        served.children.push(child);
        wait_for(|| tracker::summary(&o.tracker, Duration::from_secs(2)).is_ok(), Duration::from_secs(60), &mut served)
            .with_context(|| format!("the tracker did not come up at {}", o.tracker))?;
    }
    for i in 0..o.servers {
        let first = o.port as u32 + i * 10;
        let args = [
            "-m".to_string(),
            "tvm.exec.rpc_server".into(),
            "--host".into(),
            o.host.clone(),
            "--port".into(),
            first.to_string(),
            "--port-end".into(),
            (first + 10).to_string(),
            "--tracker".into(),
            o.tracker.clone(),
            "--key".into(),
            o.key.clone(),
            "--custom-addr".into(),
            o.host.clone(),
            "--silent".into(),
        ];
        let child = spawn(python, &args, served.group)?;
        if served.group == 0 {
            served.group = child.id() as i32;
        }
        served.children.push(child);
    }
    let want = o.servers as u64;
    wait_for(
        || tracker::summary(&o.tracker, Duration::from_secs(2)).is_ok_and(|s| want == 0 || s.queues.get(&o.key).is_some_and(|q| q.free >= want)),
        Duration::from_secs(90),
        &mut served,
    )
    .with_context(|| format!("the servers did not register with the tracker at {} under key {}", o.tracker, o.key))?;
    Ok(served)
}

fn wait_for(mut ready: impl FnMut() -> bool, limit: Duration, served: &mut Served) -> Result<()> {
    let t = Instant::now();
    while t.elapsed() < limit {
        if ready() {
            return Ok(());
        }
        for c in &mut served.children {
            if let Ok(Some(status)) = c.try_wait() {
                bail!("a process exited while starting ({status}); is the port taken?");
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    bail!("not ready after {} s", limit.as_secs())
}
