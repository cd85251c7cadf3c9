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
    /// Servers run by another architecture's Python under qemu-user, with
    /// kwb's engine folder (for its server) on the path.
    pub emulation: Option<(super::emulate::Emulation, std::path::PathBuf)>,
}

/// How to start one process again: program, arguments, environment.
#[derive(Clone)]
struct Launch {
    program: std::path::PathBuf,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

/// The processes started, in one process group; stopped together on drop.
pub struct Served {
    children: Vec<Process>,
    group: i32,
    /// The group, for a signal handler that stops serving from outside.
    shared_group: std::sync::Arc<std::sync::atomic::AtomicI32>,
    /// A shell in the group that kills the whole group when the thread that
    /// started it dies (the parent-death signal): if kwb is killed outright,
    /// what TVM forked (its popen workers hold the listening sockets and the
    /// tracker registration) goes too, not only the direct children.
    guard: Option<Child>,
}

/// The guard's script: on SIGTERM, SIGKILL to its own process group.
const GUARD: &str = "trap 'kill -9 0' TERM; while :; do sleep 3600 & wait $!; done";

fn spawn_guard(group: i32) -> Result<Child> {
    let mut cmd = Command::new("sh");
    cmd.args(["-c", GUARD]).stdin(Stdio::null()).stdout(Stdio::null()).process_group(group);
    // SAFETY: prctl and getppid are async-signal-safe.
    let parent = std::process::id() as i32;
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM as libc::c_ulong);
            // The parent may have died before prctl took effect.
            if libc::getppid() != parent {
                libc::kill(0, libc::SIGKILL);
            }
            Ok(())
        });
    }
    cmd.spawn().context("cannot start the guard shell (sh)")
}

struct Process {
    child: Child,
    launch: Launch,
    /// A server is started again when it dies; the tracker is not.
    server: bool,
    started: Instant,
}

/// A server that dies sooner than this after its start is not started
/// again (its port is taken, or TVM cannot start): serving stops instead.
const MIN_UPTIME: Duration = Duration::from_secs(10);

impl Served {
    /// Keeps the servers up: one that dies (killed, or a candidate crashed
    /// it) is started again, so the board stays served and a job lost with
    /// it can be retried. Returns why serving cannot go on: the tracker
    /// exited, or a server died right after starting.
    pub fn supervise(&mut self) -> String {
        loop {
            for i in 0..self.children.len() {
                let p = &mut self.children[i];
                let Ok(Some(status)) = p.child.try_wait() else { continue };
                let what = if p.server { "server" } else { "tracker" };
                if !p.server || p.started.elapsed() < MIN_UPTIME {
                    return format!("the {what} (process {}) exited ({status})", p.child.id());
                }
                eprintln!("the server (process {}) exited ({status}); starting it again", p.child.id());
                // What it forked may live on, still registered with the
                // tracker and listening: a server that would never answer.
                kill_orphans(self.group);
                let launch = p.launch.clone();
                match self.respawn(&launch) {
                    Ok(child) => self.children[i] = Process { child, launch, server: true, started: Instant::now() },
                    Err(e) => return format!("a server exited ({status}) and could not be started again: {e:#}"),
                }
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }

    /// Starts a process again in the group, or leads a new one when the
    /// group is gone (its every member died).
    fn respawn(&mut self, launch: &Launch) -> Result<Child> {
        if let Ok(child) = spawn(launch, self.group) {
            return Ok(child);
        }
        let child = spawn(launch, 0)?;
        self.group = child.id() as i32;
        self.shared_group.store(self.group, std::sync::atomic::Ordering::SeqCst);
        Ok(child)
    }

    /// The process group every started process is in (it changes only if
    /// every member died and a server was started again).
    pub fn group(&self) -> std::sync::Arc<std::sync::atomic::AtomicI32> {
        self.shared_group.store(self.group, std::sync::atomic::Ordering::SeqCst);
        self.shared_group.clone()
    }

    pub fn stop(&mut self) {
        if self.group > 0 {
            // SAFETY: signals our own process group.
            unsafe { libc::kill(-self.group, libc::SIGTERM) };
        }
        let deadline = Instant::now() + Duration::from_secs(5);
        for c in self.children.iter_mut().map(|p| &mut p.child) {
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
        if let Some(g) = self.guard.as_mut() {
            let _ = g.kill();
            let _ = g.wait();
        }
        self.group = 0;
    }
}

/// Kills the members of `group` whose parent is not in it (nor this
/// process): left behind by a server that died, they are re-parented away.
fn kill_orphans(group: i32) {
    let Ok(dir) = std::fs::read_dir("/proc") else { return };
    // (pid, ppid) of every process in the group.
    let members: Vec<(i32, i32)> = dir
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // pid (comm) state ppid pgrp ...: comm may hold spaces.
            let f: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
            (f.get(2)?.parse::<i32>().ok()? == group && f.first()? != &"Z").then_some((pid, f.get(1)?.parse().ok()?))
        })
        .collect();
    let me = std::process::id() as i32;
    for &(pid, ppid) in &members {
        if ppid != me && !members.iter().any(|(p, _)| *p == ppid) {
            // SAFETY: a process of our own group.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
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

fn spawn(launch: &Launch, group: i32) -> Result<Child> {
    let mut cmd = Command::new(&launch.program);
    cmd.args(&launch.args).envs(launch.env.iter().cloned()).stdin(Stdio::null());
    // The first process leads a new group; the others join it, so one
    // signal stops them all and nothing outlives `kwb device serve`. If kwb
    // is killed outright, the kernel kills them (the parent-death signal).
    cmd.process_group(group);
    // SAFETY: prctl is async-signal-safe.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL as libc::c_ulong);
            Ok(())
        });
    }
    cmd.spawn().with_context(|| format!("cannot start {} {}", launch.program.display(), launch.args.join(" ")))
}

/// Starts the tracker (if asked) and the servers, and waits until the
/// tracker lists them all as free.
pub fn start(python: &Path, o: &ServeOptions) -> Result<Served> {
    let (host, port) = o.tracker.rsplit_once(':').with_context(|| format!("--tracker {}: write HOST:PORT", o.tracker))?;
    let tracker_port: u16 = port.parse().with_context(|| format!("--tracker {}: the port is not a number", o.tracker))?;
    let mut served = Served { children: Vec::new(), group: 0, shared_group: Default::default(), guard: None };
    if o.start_tracker {
        let args = ["-m", "tvm.exec.rpc_tracker", "--host", host, "--port", port, "--port-end", &(tracker_port + 1).to_string(), "--silent"];
        let launch = Launch { program: python.to_path_buf(), args: args.map(String::from).to_vec(), env: Vec::new() };
        let child = spawn(&launch, 0)?;
        served.group = child.id() as i32;
        served.children.push(Process { child, launch, server: false, started: Instant::now() });
        served.guard = Some(spawn_guard(served.group)?);
        wait_for(|| tracker::summary(&o.tracker, Duration::from_secs(2)).is_ok(), Duration::from_secs(60), &mut served)
            .with_context(|| format!("the tracker did not come up at {}", o.tracker))?;
    }
    for i in 0..o.servers {
        let first = o.port as u32 + i * 10;
        let launch = server_launch(python, o, first);
        let child = spawn(&launch, served.group)?;
        if served.group == 0 {
            served.group = child.id() as i32;
            served.guard = Some(spawn_guard(served.group)?);
        }
        served.children.push(Process { child, launch, server: true, started: Instant::now() });
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

/// TVM's own server, or kwb's under qemu-user for an emulated board.
fn server_launch(python: &Path, o: &ServeOptions, first_port: u32) -> Launch {
    let (port, port_end) = (first_port.to_string(), (first_port + 10).to_string());
    match &o.emulation {
        None => {
            let args = ["-m", "tvm.exec.rpc_server", "--host", &o.host, "--port", &port, "--port-end", &port_end, "--tracker", &o.tracker, "--key", &o.key, "--custom-addr", &o.host, "--silent"];
            Launch { program: python.to_path_buf(), args: args.map(String::from).to_vec(), env: Vec::new() }
        }
        Some((emu, engine_dir)) => {
            let mut args = emu.python_args();
            args.extend(["-m", "kwb_engine.emulated_server", &o.host, &port, &port_end, &o.tracker, &o.key, &emu.label].map(String::from));
            Launch { program: emu.qemu.clone(), args, env: emu.env(&[engine_dir.as_path()]) }
        }
    }
}

fn wait_for(mut ready: impl FnMut() -> bool, limit: Duration, served: &mut Served) -> Result<()> {
    let t = Instant::now();
    while t.elapsed() < limit {
        if ready() {
            return Ok(());
        }
        for c in served.children.iter_mut().map(|p| &mut p.child) {
            if let Ok(Some(status)) = c.try_wait() {
                bail!("a process exited while starting ({status}); is the port taken?");
            }
        }
        std::thread::sleep(Duration::from_millis(250));
    }
    bail!("not ready after {} s", limit.as_secs())
}

/// What `kwb device serve` on this machine is serving, recorded while it
/// runs (`<state>/served/<key>.json`), so `kwb devices` can say that a key
/// it lists is an emulated board: the tracker itself carries no such fact.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ServedRecord {
    pub key: String,
    pub tracker: String,
    /// The emulation's label ("qemu-user aarch64 on x86_64"), if emulated.
    pub emulation: Option<String>,
    pub pid: u32,
}

fn record_path(state: &Path, key: &str) -> std::path::PathBuf {
    state.join("served").join(format!("{}.json", key.replace(['/', '\\'], "_")))
}

pub fn write_record(state: &Path, rec: &ServedRecord) -> Result<()> {
    let path = record_path(state, &rec.key);
    std::fs::create_dir_all(path.parent().unwrap())?;
    std::fs::write(&path, serde_json::to_vec_pretty(rec)?).with_context(|| format!("writing {}", path.display()))
}

pub fn remove_record(state: &Path, key: &str) {
    let _ = std::fs::remove_file(record_path(state, key));
}

/// The record for `key` at `tracker`, if a `kwb device serve` that is still
/// alive wrote it (a killed one leaves its file; its pid is gone).
pub fn live_record(state: &Path, key: &str, tracker: &str) -> Option<ServedRecord> {
    let rec: ServedRecord = serde_json::from_slice(&std::fs::read(record_path(state, key)).ok()?).ok()?;
    // SAFETY: kill with signal 0 only checks that the process exists.
    let alive = unsafe { libc::kill(rec.pid as i32, 0) } == 0;
    (alive && rec.tracker == tracker).then_some(rec)
}
