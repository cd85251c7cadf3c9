//! The real binary in a real terminal (tmux): open a task, start a
//! step-mode run, accept a proposal, open the diff, replay a session, quit.
//! Needs tmux (CI: `apt-get install -y tmux`). The run needs the engine: it
//! uses KWB_PYTHON when set; without it that part is skipped and said so.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self, args: &[&str]) -> std::process::Output {
        Command::new("tmux").arg("-L").arg(&self.socket).args(args).output().expect("tmux runs")
    }
    fn keys(&self, keys: &[&str]) {
        for k in keys {
            self.cmd(&["send-keys", "-t", "kwb", k]);
            std::thread::sleep(Duration::from_millis(150));
        }
    }
    fn text(&self, s: &str) {
        self.cmd(&["send-keys", "-t", "kwb", "-l", s]);
        std::thread::sleep(Duration::from_millis(150));
    }
    fn screen(&self) -> String {
        String::from_utf8_lossy(&self.cmd(&["capture-pane", "-p", "-t", "kwb"]).stdout).into_owned()
    }
    /// Waits until the screen shows `needle`; the panic shows the last screen.
    fn wait_for(&self, needle: &str, secs: u64) -> String {
        let deadline = Instant::now() + Duration::from_secs(secs);
        loop {
            let s = self.screen();
            if s.contains(needle) {
                return s;
            }
            if Instant::now() > deadline {
                panic!("waited {secs} s for {needle:?}; the screen shows:\n{s}");
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux").arg("-L").arg(&self.socket).arg("kill-server").output();
    }
}

fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

#[test]
fn open_run_accept_diff_replay_quit() {
    if Command::new("tmux").arg("-V").output().is_err() {
        eprintln!("SKIPPED: tmux is not installed (apt-get install -y tmux)");
        return;
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    // The tests' shared home holds the engine environment (CI sets it up).
    let home = common::home();
    let python = std::env::var("KWB_PYTHON").ok();
    let mut env = format!("KWB_HOME={} KWB_TASKS={} EDITOR=true", quote(&home), quote(&root.join("tasks")));
    if let Some(p) = &python {
        env += &format!(" KWB_PYTHON={}", quote(Path::new(p)));
    }
    let with_engine = python.is_some() || home.join("data/venv/bin/python").exists();
    let engine = if with_engine { "" } else { " --no-engine" };
    let bin = env!("CARGO_BIN_EXE_kwb");
    let shell = format!("env {env} {} ui{engine}; echo KWB-EXITED-$?; sleep 60", quote(Path::new(bin)));
    let tmux = Tmux { socket: format!("kwb-e2e-{}", std::process::id()) };
    let root_s = root.display().to_string();
    let out = tmux.cmd(&["new-session", "-d", "-s", "kwb", "-x", "120", "-y", "40", "-c", &root_s, &shell]);
    assert!(out.status.success(), "tmux new-session: {}", String::from_utf8_lossy(&out.stderr));

    // Open a task.
    tmux.wait_for("Tasks · all", 20);
    tmux.keys(&["/"]);
    tmux.text("relu");
    tmux.keys(&["Enter", "Enter"]);
    tmux.wait_for("Candidate tree", 10);

    if with_engine {
        // A step-mode run: the first proposal waits; accept it, see it evaluated.
        tmux.keys(&["r"]);
        tmux.wait_for("a accept · r reject", 180);
        tmux.keys(&["a"]);
        tmux.wait_for("#1 L", 180);
        // The diff of the new node against the root.
        tmux.keys(&["2", "g", "j", "4"]);
        let s = tmux.wait_for("Diff (parent", 10);
        assert!(s.contains("#0") && s.contains("→ #1"), "{s}");
        tmux.keys(&["x"]);
        tmux.wait_for("run finished", 60);
    } else {
        eprintln!("SKIPPED the step-mode run: no engine environment in the tests' home (run `bash .ci/run`) and no KWB_PYTHON");
        tmux.keys(&["r"]);
        tmux.wait_for("--no-engine", 10);
    }

    // Replay a recorded session: open it, step back, play to the end.
    tmux.keys(&["o"]);
    tmux.text(&root.join("tests/fixtures/sessions/v1-relu.jsonl").display().to_string());
    tmux.keys(&["Enter"]);
    tmux.wait_for("event 21/21", 10);
    tmux.keys(&[",", ","]);
    tmux.wait_for("event 19/21", 10);
    tmux.keys(&["+", "+", "+", "p"]);
    tmux.wait_for("event 21/21", 20);
    tmux.keys(&["q"]);
    tmux.wait_for("KWB-EXITED-0", 10);
}
