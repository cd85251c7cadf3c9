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
}
