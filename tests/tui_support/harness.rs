//! A headless workbench for tests: the real update and drawing code, driven
//! by key strings (`"j j enter"`), rendered into a `TestBackend`. Loading
//! sessions happens synchronously here so a test reads the state right after
//! the keys.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use kwb::tui::action::{Action, Msg};
use kwb::tui::app::App;
use kwb::tui::config::Config;
use kwb::tui::config::keymap::parse_seq;
use kwb::tui::requests::Effect;
use kwb::tui::{sessions, view};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use std::collections::VecDeque;
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
        let mut h = Self { app: App::new(Config::builtin(true)), effects: vec![], term: Terminal::new(TestBackend::new(width, height)).expect("test terminal") };
        h.send(Action::Resize { width, height });
        h
    }

    pub fn with_tasks(mut self, dir: &Path) -> Self {
        let set = kwb::tasks::TaskSet::load(dir).map(Arc::new).map_err(|e| format!("{e:#}"));
        self.send(Action::Msg(Msg::TasksLoaded(set)));
        self
    }

    /// Indexes the session files in `dir` (the browser's best and sparkline).
    pub fn with_index(mut self, dir: &Path) -> Self {
        self.send(Action::Msg(Msg::SessionIndex(sessions::scan(&[dir.to_path_buf()]))));
        self
    }

    pub fn with_session(mut self, path: &Path) -> Self {
        let loaded = kwb::session::load(path).expect("session loads");
        self.send(Action::Msg(Msg::SessionLoaded { path: path.to_path_buf(), result: Ok(loaded) }));
        self
    }

    pub fn resize(&mut self, width: u16, height: u16) {
        self.send(Action::Resize { width, height });
        self.term.backend_mut().resize(width, height);
    }

    /// Presses keys written as in the keymap files, separated by spaces.
    pub fn keys(&mut self, keys: &str) {
        let seq = parse_seq(keys).unwrap_or_else(|e| panic!("bad key string {keys:?}: {e}"));
        for k in seq {
            self.send(Action::Input(KeyEvent::new(k.code, k.mods)));
        }
    }

    /// Types text into the open prompt or palette.
    pub fn type_text(&mut self, text: &str) {
        for c in text.chars() {
            self.send(Action::Input(KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE)));
        }
    }

    /// Folds in an action, then carries out the loads it asks for at once and
    /// folds in what they report; other effects are kept for the test to read.
    pub fn send(&mut self, a: Action) {
        let mut queue = VecDeque::from([a]);
        while let Some(a) = queue.pop_front() {
            for e in self.app.update(a) {
                match e {
                    Effect::LoadSession(path) => {
                        let result = kwb::session::load(&path).map_err(|e| format!("{e:#}"));
                        queue.push_back(Action::Msg(Msg::SessionLoaded { path, result }));
                    }
                    Effect::ReadTaskSource { task, path } => {
                        let text = std::fs::read_to_string(path).unwrap_or_else(|e| format!("# cannot read model.py: {e}"));
                        queue.push_back(Action::Msg(Msg::TaskSource { task, text }));
                    }
                    // Work for the background driver, which the harness does not run.
                    Effect::TasksReady(_) | Effect::StartPending | Effect::DropPending | Effect::RunEnded => {}
                    other => self.effects.push(other),
                }
            }
        }
    }

    /// Draws one frame and returns it as text, one line per row.
    pub fn render(&mut self) -> String {
        let app = &self.app;
        self.term.draw(|f| view::draw(f, app)).expect("draw");
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
