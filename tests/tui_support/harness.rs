//! A headless workbench for tests: the real update and drawing code, driven
//! by key strings (`"j j enter"`), rendered into a `TestBackend`. Loading
//! sessions happens synchronously here so a test reads the state right after
//! the keys.

use crossterm::event::KeyEvent;
use kwb::tui::action::{Action, Msg};
use kwb::tui::app::{App, Level};
use kwb::tui::config::Config;
use kwb::tui::config::keymap::parse_seq;
use kwb::tui::requests::Effect;
use kwb::tui::{sessions, view};
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
        let set = kwb::tasks::TaskSet::load(dir).map(Arc::new).map_err(|e| format!("{e:#}"));
        self.app.update(Action::Msg(Msg::TasksLoaded(set)));
        self
    }

    /// Indexes the session files in `dir` (the browser's best and sparkline).
    pub fn with_index(mut self, dir: &Path) -> Self {
        self.app.update(Action::Msg(Msg::SessionIndex(sessions::scan(&[dir.to_path_buf()]))));
        self
    }

    pub fn with_session(mut self, path: &Path) -> Self {
        let loaded = kwb::session::load(path).expect("session loads");
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
                Effect::LoadSession(p) => match kwb::session::load(&p) {
                    Ok(l) => self.app.open_session(Some(p), l),
                    Err(err) => self.app.toast(Level::Error, format!("{}: {err:#}", p.display())),
                },
                other => self.effects.push(other),
            }
        }
    }

    /// Draws one frame and returns it as text, one line per row.
    pub fn render(&mut self) -> String {
        self.app.prepare();
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
