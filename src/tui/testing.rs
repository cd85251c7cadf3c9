//! A headless workbench for tests and the benchmark: the real update and
//! drawing code, driven by key strings (`"j j enter"`), rendered into a
//! `TestBackend`. Loading sessions happens synchronously here so a test
//! reads the state right after the keys.

use super::action::Action;
use super::app::App;
use super::config::Config;
use super::config::keymap::parse_seq;
use super::drive_types::Effect;
use super::sessions;
use crate::eval::EvalResult;
use crate::ir::{Layer, LayerTexts};
use crate::session::{Event, EventKind, Header, NodeRecord};
use crossterm::event::KeyEvent;
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::path::Path;
use std::sync::Arc;

pub struct Harness {
    pub app: App,
    /// Effects the harness did not carry out (runs, editors), oldest first.
    pub effects: Vec<Effect>,
    term: Terminal<TestBackend>,
}

impl Harness {
    /// The default keymap and theme, without colour (snapshots compare text).
    pub fn new(width: u16, height: u16) -> Self {
        let mut app = App::new(Config::builtin(true));
        app.update(Action::Resize { width, height });
        Self { app, effects: vec![], term: Terminal::new(TestBackend::new(width, height)).expect("test terminal") }
    }

    pub fn with_tasks(mut self, dir: &Path) -> Self {
        let set = crate::tasks::TaskSet::load(dir).map(Arc::new).map_err(|e| format!("{e:#}"));
        self.app.update(Action::Msg(super::action::Msg::TasksLoaded(set)));
        self
    }

    /// Indexes the session files in `dir` (the browser's best and sparkline).
    pub fn with_index(mut self, dir: &Path) -> Self {
        self.app.update(Action::Msg(super::action::Msg::SessionIndex(sessions::scan(&[dir.to_path_buf()]))));
        self
    }

    pub fn with_session(mut self, path: &Path) -> Self {
        let loaded = crate::session::load(path).expect("session loads");
        self.app.open_session(Some(path.to_path_buf()), loaded);
        self
    }

    pub fn resize(&mut self, width: u16, height: u16) {
        self.app.update(Action::Resize { width, height });
        self.term.backend_mut().resize(width, height);
    }

    /// Presses keys written as in the keymap files, separated by spaces.
    pub fn keys(&mut self, keys: &str) {
        let seq = parse_seq(keys).unwrap_or_else(|e| panic!("bad key string {keys:?}: {e}"));
        for k in seq {
            self.app.update(Action::Input(KeyEvent::new(k.code, k.mods)));
            self.settle();
        }
    }

    /// Types text into the open prompt or palette.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.app.update(Action::Input(KeyEvent::new(crossterm::event::KeyCode::Char(c), crossterm::event::KeyModifiers::NONE)));
        }
    }

    pub fn send(&mut self, a: Action) {
        self.app.update(a);
        self.settle();
    }

    fn settle(&mut self) {
        for e in std::mem::take(&mut self.app.effects) {
            match e {
                Effect::LoadSession(p) => match crate::session::load(&p) {
                    Ok(l) => self.app.open_session(Some(p), l),
                    Err(err) => self.app.toast(super::app::Level::Error, format!("{}: {err:#}", p.display())),
                },
                other => self.effects.push(other),
            }
        }
    }

    /// Draws one frame and returns it as text, one line per row.
    pub fn render(&mut self) -> String {
        self.app.prepare();
        let app = &self.app;
        self.term.draw(|f| super::view::draw(f, app)).expect("draw");
        let buf = self.term.backend().buffer();
        let mut out = String::new();
        for y in 0..buf.area.height {
            let mut line = String::new();
            for x in 0..buf.area.width {
                line.push_str(buf[(x, y)].symbol());
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out
    }
}

/// A result as the engine would report it, for synthesised sessions.
pub fn result(task: &str, speedup: Option<f64>, correct: bool) -> EvalResult {
    let failure_class = if correct { serde_json::Value::Null } else { serde_json::json!("numeric_mismatch") };
    serde_json::from_value(serde_json::json!({
        "task": task, "candidate_sha256": "0", "compile_ok": true, "correct": correct, "seeds": [], "max_errors": [],
        "failure_class": failure_class, "failure": null, "candidate_ms": speedup.map(|s| 1.0 / s), "baseline_ms": 1.0,
        "speedup_median": speedup, "timing_valid": speedup.is_some(), "spread": 0.01, "ci": 0.01, "samples": 10, "sample_list": [],
        "timing_rounds": 1, "compile_s": 0.5, "peak_memory_bytes": 1048576, "roofline_share": 0.25, "wall_s": 1.0,
        "engine_overhead_s": 0.1, "stages": [],
        "manifest": {"kwb_version": "0", "protocol": 1, "versions": {}, "target": {}, "device": "local-cpu", "baseline": "default",
                     "task_hash": "0", "config_hash": "0", "config": {}, "created_unix_s": 0}
    }))
    .expect("a synthesised result matches EvalResult")
}

/// A session with `nodes` nodes (a bushy tree, four children each) whose
/// node 1 changes every fourth line of a `diff_lines`-line L0 text at the root.
pub fn synth_session(task: &str, nodes: u32, diff_lines: usize) -> (Header, Vec<Event>) {
    let header = Header { kwb_session: crate::session::SCHEMA_VERSION, id: "synthetic".into(), task: task.into(), created_unix_ms: 0, manifest: serde_json::json!({}) };
    let big: String = (0..diff_lines).map(|i| format!("    lv{i}: R.Tensor((1, 64), dtype=\"float32\") = R.nn.relu(lv{})\n", i.saturating_sub(1))).collect();
    let changed: String = big.lines().enumerate().map(|(i, l)| if i % 4 == 1 { format!("{}  # fused\n", l.replace("relu", "gelu")) } else { format!("{l}\n") }).collect();
    let small = |i: u32| {
        let mut t = LayerTexts { l0: format!("# node {i}\n"), l1_module: String::new(), ..Default::default() };
        t.l1.insert("main".into(), format!("for i in T.serial({}):\n    pass\n", 64 + i));
        t
    };
    let mut events = vec![];
    let mut seq = 0;
    let mut push = |kind: EventKind, events: &mut Vec<Event>| {
        seq += 1;
        events.push(Event { seq, ts_ms: seq * 100, kind });
    };
    for i in 0..nodes {
        let mut texts = small(i);
        if i == 0 {
            texts.l0 = big.clone();
        } else if i == 1 {
            texts.l0 = changed.clone();
        }
        let parent = if i == 0 { None } else { Some((i - 1) / 4) };
        let layer = if i == 1 { Layer::L0 } else { [Layer::L0, Layer::L1, Layer::L2][i as usize % 3] };
        let node = NodeRecord { id: i, parent, layer, kernel: (layer != Layer::L0).then(|| "main".into()), author: "l1-builtin".into(), rationale: format!("candidate {i}"), trace: None, texts };
        push(EventKind::Edit { node }, &mut events);
        let speedup = (i % 7 != 3).then(|| 0.8 + (i % 97) as f64 / 60.0);
        push(EventKind::EvalFinished { node: i, result: Box::new(result(task, speedup, speedup.is_some())), cost: Default::default() }, &mut events);
    }
    (header, events)
}

/// Writes a session as a JSONL log.
pub fn write_session(path: &Path, header: &Header, events: &[Event]) -> std::io::Result<()> {
    use std::io::Write;
    let mut f = std::io::BufWriter::new(std::fs::File::create(path)?);
    writeln!(f, "{}", serde_json::to_string(header)?)?;
    for e in events {
        writeln!(f, "{}", serde_json::to_string(e)?)?;
    }
    f.flush()
}
