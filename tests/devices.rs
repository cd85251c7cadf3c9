//! Devices for real: a TVM RPC tracker and two servers started by
//! `kwb device serve` on loopback, seen by `kwb devices`, and gone when it
//! is stopped.

mod common;

use kwb::engine::pyenv;
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn devices_json(home: &std::path::Path, python: &std::path::Path) -> serde_json::Value {
    let o = Command::new(env!("CARGO_BIN_EXE_kwb")).args(["devices", "--json"]).env("KWB_HOME", home).env("KWB_PYTHON", python).output().unwrap();
    serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
}

fn device<'a>(list: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    list["devices"].as_array().unwrap().iter().find(|d| d["name"] == name).unwrap_or_else(|| panic!("no {name}: {list}"))
}

#[test]
fn served_rpc_servers_are_listed_and_stop_with_kwb() {
    let env = pyenv::ensure(&common::paths(), false, false).expect("engine environment");
    let home = tempfile::tempdir().unwrap();
    let tracker = format!("127.0.0.1:{}", free_port());
    let key = format!("kwb-test-{}", std::process::id());
    std::fs::create_dir_all(home.path().join("config")).unwrap();
    std::fs::write(
        home.path().join("config/devices.toml"),
        format!("[[device]]\nname = \"board\"\nkind = \"rpc\"\ntracker = \"{tracker}\"\nkey = \"{key}\"\ntarget = {{ kind = \"llvm\", mtriple = \"x86_64-linux-gnu\" }}\n"),
    )
    .unwrap();

    let before = devices_json(home.path(), &env.python);
    assert_eq!(device(&before, "local-cpu")["reachable"], true);
    assert!(device(&before, "local-cpu")["target"]["mcpu"].is_string(), "the host's own CPU: {before}");
    let board = device(&before, "board");
    assert_eq!(board["reachable"], false);
    assert!(board["detail"].as_str().unwrap().contains("no RPC tracker answers"), "{board}");

    let mut serve = Command::new(env!("CARGO_BIN_EXE_kwb"))
        .args(["device", "serve", "--start-tracker", "--servers", "2", "--key", &key, "--tracker", &tracker, "--port", &free_port().to_string()])
        .env("KWB_HOME", home.path())
        .env("KWB_PYTHON", &env.python)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut lines = BufReader::new(serve.stdout.take().unwrap()).lines();
    let t = Instant::now();
    let ready = lines.next().and_then(Result::ok).unwrap_or_default();
    assert!(ready.starts_with("serving: 2 server(s)"), "{ready:?} after {:?}", t.elapsed());

    let up = devices_json(home.path(), &env.python);
    let board = device(&up, "board");
    assert_eq!(board["reachable"], true, "{board}");
    assert!(board["detail"].as_str().unwrap().contains("2 free"), "{board}");

    // A server that dies is started again; serving goes on.
    let server = descendants_at(serve.id(), 1)
        .into_iter()
        .find(|p| std::fs::read_to_string(format!("/proc/{p}/cmdline")).is_ok_and(|c| c.contains("rpc_server")))
        .expect("a server process under kwb device serve");
    // Past the uptime below which a dying server is taken as broken.
    std::thread::sleep(Duration::from_secs(15).saturating_sub(t.elapsed()));
    unsafe { libc::kill(server as i32, libc::SIGKILL) };
    let deadline = Instant::now() + Duration::from_secs(90);
    loop {
        let again = devices_json(home.path(), &env.python);
        let detail = device(&again, "board")["detail"].as_str().unwrap_or("").to_string();
        if detail.contains("2 free") && !descendants_at(serve.id(), 1).contains(&server) {
            break;
        }
        assert!(Instant::now() < deadline, "the killed server was not started again: {detail}");
        std::thread::sleep(Duration::from_millis(500));
    }
    assert!(serve.try_wait().unwrap().is_none(), "serving stopped when one server died");

    // SIGTERM: the tracker and both servers go with it.
    unsafe { libc::kill(serve.id() as i32, libc::SIGTERM) };
    let status = serve.wait().unwrap();
    assert!(status.success(), "{status}");
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let after = devices_json(home.path(), &env.python);
        if device(&after, "board")["reachable"] == false {
            break;
        }
        assert!(Instant::now() < deadline, "the tracker outlived `kwb device serve`: {after}");
        std::thread::sleep(Duration::from_millis(500));
    }

    // SIGKILL, which kwb cannot catch: the kernel stops what it started.
    let mut serve = Serve::start(home.path(), &env.python, &["--start-tracker", "--servers", "1", "--key", &key, "--tracker", &tracker, "--port", &free_port().to_string()]);
    // The tracker, the server, the guard shell and what they forked (TVM's
    // popen workers hold the sockets and the tracker registration).
    let started: Vec<u32> = (1..=3).flat_map(|d| descendants_at(serve.0.id(), d)).collect();
    assert!(started.len() >= 4, "a tracker, a server and their workers: {started:?}");
    let _ = serve.0.kill();
    let _ = serve.0.wait();
    let deadline = Instant::now() + Duration::from_secs(10);
    while started.iter().any(|p| std::fs::read_to_string(format!("/proc/{p}/stat")).is_ok_and(|s| !s.rsplit_once(')').is_some_and(|(_, r)| r.trim_start().starts_with('Z')))) {
        assert!(Instant::now() < deadline, "the tracker or server outlived a killed `kwb device serve`: {started:?}");
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// `kwb device serve` started for a test, killed (with its process group)
/// when dropped.
struct Serve(std::process::Child, #[allow(dead_code)] std::io::Lines<BufReader<std::process::ChildStdout>>);

impl Serve {
    fn start(home: &std::path::Path, python: &std::path::Path, args: &[&str]) -> Serve {
        let mut child = Command::new(env!("CARGO_BIN_EXE_kwb"))
            .args(["device", "serve"])
            .args(args)
            .env("KWB_HOME", home)
            .env("KWB_PYTHON", python)
            .stdout(Stdio::piped())
            .spawn()
            .unwrap();
        // Kept open: serve reports on it until it stops.
        let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
        let ready = lines.next().and_then(Result::ok).unwrap_or_default();
        assert!(ready.starts_with("serving:"), "`kwb device serve {args:?}` did not start: {ready:?}");
        Serve(child, lines)
    }

    /// The server's process group, killed at once (as a board that loses
    /// power): its servers and their sessions go with it.
    fn kill_hard(&mut self) {
        // The servers run in a process group of their own (the first
        // server's), apart from `kwb device serve`.
        // `kwb device serve` first, so it cannot start its servers again.
        let servers = descendants_at(self.0.id(), 1);
        let _ = self.0.kill();
        let _ = self.0.wait();
        for server in servers {
            let group = unsafe { libc::getpgid(server as i32) };
            if group > 0 {
                unsafe { libc::kill(-group, libc::SIGKILL) };
            }
        }
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        unsafe { libc::kill(self.0.id() as i32, libc::SIGTERM) };
        let _ = self.0.wait();
    }
}

/// Process ids under `pid`, by depth (1: children).
fn descendants_at(pid: u32, depth: u32) -> Vec<u32> {
    let mut level = vec![pid];
    for _ in 0..depth {
        let mut next = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(child) = entry.file_name().to_string_lossy().parse::<u32>() else { continue };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{child}/stat")) else { continue };
            // pid (comm) state ppid ...: comm may hold spaces, so read after
            // ')'. A session that ended can linger as a zombie: not counted.
            let fields: Vec<&str> = stat.rsplit_once(')').map(|(_, rest)| rest.split_whitespace().collect()).unwrap_or_default();
            let live = fields.first().is_some_and(|s| *s != "Z");
            let ppid = fields.get(1).and_then(|p| p.parse::<u32>().ok());
            if live && ppid.is_some_and(|p| level.contains(&p)) {
                next.push(child);
            }
        }
        level = next;
    }
    level
}

fn board_home(python: &std::path::Path, tracker: &str, key: &str) -> tempfile::TempDir {
    let home = tempfile::tempdir().unwrap();
    // The board is this machine, so its target is the host's own: the same
    // artifacts as a local run.
    let local = devices_json(home.path(), python);
    let target = device(&local, "local-cpu")["target"].clone();
    std::fs::create_dir_all(home.path().join("config")).unwrap();
    let toml_target: Vec<String> = target.as_object().unwrap().iter().map(|(k, v)| format!("\"{k}\" = {v}")).collect();
    std::fs::write(
        home.path().join("config/devices.toml"),
        format!("[[device]]\nname = \"board\"\nkind = \"rpc\"\ntracker = \"{tracker}\"\nkey = \"{key}\"\ntarget = {{ {} }}\n", toml_target.join(", ")),
    )
    .unwrap();
    home
}

fn eval_on_board(home: &std::path::Path, python: &std::path::Path, extra: &[&str]) -> std::process::Child {
    Command::new(env!("CARGO_BIN_EXE_kwb"))
        .args(["--tasks", common::repo().join("tasks").to_str().unwrap(), "--device", "board", "eval", "--task", "relu", "--json"])
        .args(extra)
        .env("KWB_HOME", home)
        .env("KWB_PYTHON", python)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn result_of(child: std::process::Child) -> serde_json::Value {
    let o = child.wait_with_output().unwrap();
    serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("no result: {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
}

#[test]
fn a_candidate_is_checked_and_timed_on_an_rpc_board_and_a_server_killed_mid_job_is_retried_on_the_other() {
    let env = pyenv::ensure(&common::paths(), false, false).expect("engine environment");
    let tracker = format!("127.0.0.1:{}", free_port());
    let key = format!("kwb-retry-{}", std::process::id());
    let home = board_home(&env.python, &tracker, &key);
    let _tracker = Serve::start(home.path(), &env.python, &["--start-tracker", "--servers", "0", "--key", &key, "--tracker", &tracker]);
    let port = |p: u16| p.to_string();
    let mut a = Serve::start(home.path(), &env.python, &["--servers", "1", "--key", &key, "--tracker", &tracker, "--port", &port(free_port())]);
    let mut b = Serve::start(home.path(), &env.python, &["--servers", "1", "--key", &key, "--tracker", &tracker, "--port", &port(free_port())]);

    // Through the board, as locally: correct on every seed, and timed.
    let r = result_of(eval_on_board(home.path(), &env.python, &[]));
    assert_eq!(r["correct"], true, "{r}");
    assert!(r["speedup_median"].as_f64().is_some_and(|s| s > 0.5 && s < 2.0), "the reference against itself: {}", r["speedup_median"]);
    assert_eq!(r["manifest"]["device"], "board");
    for stage in ["check", "time"] {
        assert_eq!(r["manifest"]["remote"][stage]["sessions"], 1, "{stage}: {}", r["manifest"]["remote"]);
    }
    assert_eq!(r["manifest"]["sandbox"]["remote"]["landlock"]["network"], "TCP connect only", "{}", r["manifest"]["sandbox"]);

    // serve -> rpc_server -> its worker -> a session, while one is open.
    let sessions = |a: &Serve, b: &Serve| -> Vec<(char, u32)> {
        [('a', a), ('b', b)].into_iter().flat_map(|(n, s)| descendants_at(s.0.id(), 3).into_iter().map(move |p| (n, p))).collect()
    };
    let free = || kwb::devices::tracker::summary(&tracker, Duration::from_secs(5)).ok().and_then(|s| s.queues.get(&key).map(|q| q.free));
    // Both servers back with the tracker and no session of the first eval
    // left, so any session seen below is the next eval's.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !(sessions(&a, &b).is_empty() && free() == Some(2)) {
        assert!(Instant::now() < deadline, "the servers did not come back after the first eval: {:?}, free {:?}", sessions(&a, &b), free());
        std::thread::sleep(Duration::from_millis(100));
    }

    // Again, with a long timing; the server that holds the session is
    // killed mid-job. It holds the job when it is the only one with a
    // session and the tracker has one server in use (a session that is
    // ending leaves its server out of the tracker until it is gone).
    let job = eval_on_board(home.path(), &env.python, &["--pairs", "300"]);
    let deadline = Instant::now() + Duration::from_secs(240);
    let mut seen: Option<(char, u32, Instant)> = None;
    let killed = loop {
        assert!(Instant::now() < deadline, "no server ever held a session");
        let open = sessions(&a, &b);
        let busy = if open.len() == 1 && free() == Some(1) { Some(open[0]) } else { None };
        match (busy, seen) {
            // The same session for two seconds: the timing, not the short
            // check (under load a check's session can last half a second and
            // end just as its server is killed, and nothing is lost).
            (Some((n, p)), Some((m, q, since))) if n == m && p == q && since.elapsed() > Duration::from_secs(2) => break n,
            (Some((n, p)), Some((m, q, _))) if n == m && p == q => {}
            (Some((n, p)), _) => seen = Some((n, p, Instant::now())),
            (None, _) => seen = None,
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    eprintln!("killing server {killed} at {:?}", Instant::now());
    if killed == 'a' { a.kill_hard() } else { b.kill_hard() }
    eprintln!("killed at {:?}", Instant::now());
    let r = result_of(job);
    assert_eq!(r["correct"], true, "{r}");
    assert!(r["failure"].is_null(), "the job was retried, not failed: {}", r["failure"]);
    assert!(r["speedup_median"].as_f64().is_some(), "{r}");
    let remote = &r["manifest"]["remote"];
    let retried: Vec<&str> = ["check", "time"].into_iter().filter(|s| remote[*s]["sessions"] == 2).collect();
    assert_eq!(retried.len(), 1, "one job lost its server and ran again on the other: {remote}");
    assert!(remote[retried[0]]["lost"][0].as_str().is_some_and(|l| !l.is_empty()), "the loss is recorded: {remote}");
}

fn kwb_on(home: &std::path::Path, python: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_kwb")).args(["--tasks", common::repo().join("tasks").to_str().unwrap()]).args(args).env("KWB_HOME", home).env("KWB_PYTHON", python).output().unwrap()
}

#[test]
fn metaschedule_tunes_through_the_rpc_board_and_its_tuning_is_the_boards_alone() {
    let env = pyenv::ensure(&common::paths(), false, false).expect("engine environment");
    let tracker = format!("127.0.0.1:{}", free_port());
    let key = format!("kwb-tune-{}", std::process::id());
    let home = board_home(&env.python, &tracker, &key);
    let _serve = Serve::start(home.path(), &env.python, &["--start-tracker", "--servers", "1", "--key", &key, "--tracker", &tracker, "--port", &free_port().to_string()]);
    let text = |o: &std::process::Output| format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));

    // Before any tuning, the board's tuned baseline is missing, and the
    // message names the command with the device.
    let missing = kwb_on(home.path(), &env.python, &["--device", "board", "eval", "--task", "relu", "--json", "--baseline", "tuned"]);
    let v: serde_json::Value = serde_json::from_slice(&missing.stdout).unwrap_or_else(|_| panic!("{}", text(&missing)));
    assert!(v["failure"]["message"].as_str().is_some_and(|m| m.contains("kwb --device board baseline tune --task relu")), "{}", v["failure"]);

    let tuned = kwb_on(home.path(), &env.python, &["--device", "board", "baseline", "tune", "--task", "relu", "--trials", "2"]);
    assert!(tuned.status.success(), "{}", text(&tuned));
    let dirs: Vec<std::path::PathBuf> = std::fs::read_dir(home.path().join("data/baselines/tuned")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(dirs.len(), 1, "{dirs:?}");
    assert!(dirs[0].file_name().unwrap().to_str().unwrap().ends_with("-on-board"), "keyed by the device: {dirs:?}");
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dirs[0].join("kwb-tuning.json")).unwrap()).unwrap();
    assert_eq!(report["device"]["key"], key.as_str(), "{report}");
    assert!(report["kernels"][0]["best_us"].as_f64().is_some_and(|us| us > 0.0), "a trial was measured on the board: {report}");

    // The board's tuning is its baseline there, and not this CPU's.
    let r = result_of(eval_on_board(home.path(), &env.python, &["--baseline", "tuned"]));
    assert_eq!(r["correct"], true, "{r}");
    assert!(r["manifest"]["baseline"].as_str().unwrap().contains("metaschedule-tuned (2 trials"), "{}", r["manifest"]["baseline"]);
    let here = kwb_on(home.path(), &env.python, &["eval", "--task", "relu", "--json", "--baseline", "tuned"]);
    let v: serde_json::Value = serde_json::from_slice(&here.stdout).unwrap_or_else(|_| panic!("{}", text(&here)));
    assert_eq!(v["failure_class"], "task", "this CPU has no tuning of its own: {v}");
}

/// A board's peaks are measured on the board (kernels built here for its
/// target, timed there through its server) and kept for it: `kwb devices`
/// says they are measured, and a result on the board gets a roofline share
/// against them, where before it had none.
#[test]
fn a_boards_peaks_are_measured_on_it_and_give_its_results_a_roofline_share() {
    let env = pyenv::ensure(&common::paths(), false, false).expect("engine environment");
    let tracker = format!("127.0.0.1:{}", free_port());
    let key = format!("kwb-peaks-{}", std::process::id());
    let home = board_home(&env.python, &tracker, &key);
    let _serve = Serve::start(home.path(), &env.python, &["--start-tracker", "--servers", "1", "--key", &key, "--tracker", &tracker, "--port", &free_port().to_string()]);
    let text = |o: &std::process::Output| format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));

    let before = result_of(eval_on_board(home.path(), &env.python, &[]));
    assert_eq!(before["correct"], true, "{before}");
    assert!(before["roofline_share"].is_null(), "no peaks measured on the board yet: {}", before["roofline_share"]);

    let measured = kwb_on(home.path(), &env.python, &["--device", "board", "devices", "measure", "--json"]);
    assert!(measured.status.success(), "{}", text(&measured));
    let board: serde_json::Value = serde_json::from_slice(&measured.stdout).unwrap_or_else(|_| panic!("{}", text(&measured)));
    let peaks = &board["peaks"];
    assert!(peaks["method"].as_str().is_some_and(|m| m.starts_with("tir kernels")), "built by TVM for the board: {peaks}");
    let levels = peaks["bandwidth_by_size"].as_array().unwrap();
    assert_eq!(levels.len(), 6, "{peaks}");
    assert!(levels.iter().all(|l| l["bandwidth_bytes_s"].as_f64().is_some_and(|b| b > 1e8)), "{peaks}");
    // A smaller working set is bounded by at least what a larger one moved.
    let bw = |l: &serde_json::Value| l["bandwidth_bytes_s"].as_f64().unwrap();
    assert!(levels.windows(2).all(|w| bw(&w[0]) >= bw(&w[1])), "a level below a larger one's: {peaks}");

    // The board is this machine: the peaks its TVM kernels reach agree with
    // the local CPU's own (gcc-built) kernels, within what a busy machine
    // allows (each side is the best of many runs, but the two are measured
    // a minute apart: a CI machine whose load changed in between once gave
    // 0.29). An error of units (a factor of 1000) or of vector lanes (16
    // on AVX-512) is still caught.
    let local = kwb_on(home.path(), &env.python, &["devices", "measure", "--json"]);
    assert!(local.status.success(), "{}", text(&local));
    let local: serde_json::Value = serde_json::from_slice(&local.stdout).unwrap();
    let ratio = peaks["peak_flops"].as_f64().unwrap() / local["peaks"]["peak_flops"].as_f64().unwrap();
    assert!((0.1..10.0).contains(&ratio), "board {} FLOP/s against the local kernels' {}", peaks["peak_flops"], local["peaks"]["peak_flops"]);

    let list = devices_json(home.path(), &env.python);
    assert_eq!(device(&list, "board")["peaks"]["source"], "measured", "{list}");
    let after = result_of(eval_on_board(home.path(), &env.python, &[]));
    assert!(after["roofline_share"].as_f64().is_some_and(|s| s > 0.0), "a share against the board's own peaks: {}", after["roofline_share"]);
}

#[test]
fn a_board_whose_tracker_is_down_is_a_device_failure_said_at_once() {
    let env = pyenv::ensure(&common::paths(), false, false).expect("engine environment");
    // Nothing listens on this port.
    let home = board_home(&env.python, &format!("127.0.0.1:{}", free_port()), "nobody");
    let t = Instant::now();
    let r = result_of(eval_on_board(home.path(), &env.python, &[]));
    assert_eq!(r["failure_class"], "device", "{r}");
    assert!(r["failure"]["message"].as_str().is_some_and(|m| m.contains("kwb device serve")), "the message says what to do: {}", r["failure"]);
    assert!(t.elapsed() < Duration::from_secs(60), "took {:?} (TVM alone retries for a minute)", t.elapsed());
    let tune = kwb_on(home.path(), &env.python, &["--device", "board", "baseline", "tune", "--task", "relu", "--trials", "2"]);
    let out = format!("{}{}", String::from_utf8_lossy(&tune.stdout), String::from_utf8_lossy(&tune.stderr));
    assert!(!tune.status.success() && out.contains("no RPC tracker answers"), "{out}");
}

/// A board of another architecture: kernels built for its triple are
/// linked by the cross toolchain (.ci/run installs Debian's
/// gcc-aarch64-linux-gnu) inside the sandboxed build worker, into an
/// AArch64 shared object; a triple kwb knows no toolchain for is refused
/// with the ones it knows.
#[tokio::test]
async fn an_aarch64_boards_kernels_build_and_link_with_the_cross_toolchain() {
    use kwb::engine::Job;
    use serde_json::json;
    let engine = common::engine(1).await;
    let tasks = common::tasks();
    let relu = tasks.get("relu").unwrap();
    let spec = json!(relu.reference_meta().unwrap().args);
    let build = |triple: &str, artifact: &std::path::Path| {
        let target = json!({"kind": "llvm", "mtriple": triple, "mcpu": "cortex-a76", "mattr": ["+neon"]});
        Job::new("build", json!({"source": relu.reference_text().unwrap(), "stage": "l0", "target": target, "artifact": artifact, "args_spec": spec, "task_dtype": "float32"}), Duration::from_secs(300))
    };
    let artifact = common::paths().artifacts().join(format!("aarch64-test-{}.so", std::process::id()));
    engine.run(build("aarch64-linux-gnu", &artifact)).await.expect("built and linked for aarch64");
    let bytes = std::fs::read(&artifact).unwrap();
    let _ = std::fs::remove_file(&artifact);
    assert_eq!(&bytes[..4], b"\x7fELF");
    assert_eq!(u16::from_le_bytes([bytes[18], bytes[19]]), 183, "e_machine is EM_AARCH64");
    let refused = engine.run(build("mips64-linux-gnuabi64", &artifact)).await.unwrap_err();
    assert!(refused.message.contains("does not know a toolchain") && refused.message.contains("aarch64"), "{refused}");
}

/// A board of another architecture, emulated: kwb's server runs an aarch64
/// Python with TVM's aarch64 runtime under qemu-user. Kernels cross-built
/// for the board are checked there for real (a wrong one is caught there),
/// and timing or measuring peaks on it is refused with the reason.
#[test]
fn an_emulated_aarch64_board_checks_kernels_there_and_refuses_to_time_them() {
    let env = pyenv::ensure(&common::paths(), false, false).expect("engine environment");
    let home = tempfile::tempdir().unwrap();
    // The emulated Python and runtime are made once, in the shared test home.
    let shared = common::paths().data.join("emulate");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::create_dir_all(home.path().join("data")).unwrap();
    std::os::unix::fs::symlink(&shared, home.path().join("data/emulate")).unwrap();
    let tracker = format!("127.0.0.1:{}", free_port());
    let key = format!("kwb-emulated-{}", std::process::id());
    std::fs::create_dir_all(home.path().join("config")).unwrap();
    std::fs::write(
        home.path().join("config/devices.toml"),
        format!("[[device]]\nname = \"arm\"\nkind = \"rpc\"\ntracker = \"{tracker}\"\nkey = \"{key}\"\ntarget = {{ kind = \"llvm\", mtriple = \"aarch64-linux-gnu\", mcpu = \"cortex-a76\", mattr = [\"+neon\"] }}\n"),
    )
    .unwrap();
    let _serve = Serve::start(home.path(), &env.python, &["--start-tracker", "--key", &key, "--tracker", &tracker, "--port", &free_port().to_string(), "--emulate", "aarch64"]);
    let eval = |extra: &[&str]| -> serde_json::Value {
        let mut args = vec!["--device", "arm", "eval", "--task", "relu", "--json"];
        args.extend(extra);
        let o = kwb_on(home.path(), &env.python, &args);
        serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("no result: {}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr)))
    };

    // `kwb devices` says the board is emulated (served from this machine).
    let listed = kwb_on(home.path(), &env.python, &["devices", "--json"]);
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap_or_else(|_| panic!("{}", String::from_utf8_lossy(&listed.stderr)));
    let arm = listed["devices"].as_array().unwrap().iter().find(|d| d["name"] == "arm").unwrap_or_else(|| panic!("{listed}"));
    assert!(arm["emulated"].as_str().is_some_and(|e| e.starts_with("qemu-user aarch64")), "{arm}");
    assert!(arm["detail"].as_str().unwrap().contains("timing refused"), "{arm}");

    let r = eval(&[]);
    assert_eq!(r["correct"], true, "{r}");
    assert!(r["manifest"]["remote"]["check"]["emulated"].as_str().is_some_and(|e| e.starts_with("qemu-user aarch64")), "{}", r["manifest"]["remote"]);
    assert_eq!(r["failure"]["class"], "device", "{r}");
    assert!(r["failure"]["message"].as_str().is_some_and(|m| m.contains("timing refused") && m.contains("emulated")), "{}", r["failure"]);
    assert!(r["speedup_median"].is_null(), "no time from an emulator: {}", r["speedup_median"]);

    let cheat = common::repo().join("tests/cheats/relu/return_input.py");
    let wrong = eval(&["--candidate", cheat.to_str().unwrap()]);
    assert_eq!(wrong["correct"], false, "{wrong}");
    assert_eq!(wrong["failure"]["class"], "numeric_mismatch", "{}", wrong["failure"]);
    assert!(wrong["manifest"]["remote"]["check"]["emulated"].is_string(), "checked on the emulated board: {}", wrong["manifest"]["remote"]);

    let peaks = kwb_on(home.path(), &env.python, &["--device", "arm", "devices", "measure"]);
    let text = format!("{}{}", String::from_utf8_lossy(&peaks.stdout), String::from_utf8_lossy(&peaks.stderr));
    assert!(!peaks.status.success() && text.contains("refused"), "{text}");
}
