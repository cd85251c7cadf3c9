//! The workbench's state and the one place it changes: [`App::update`].
//! Every input becomes an [`Action`]: keys (commands through the keymap),
//! mouse, ticks, and messages from background work, the runtime and the
//! config watcher. `update` folds it into the state, brings the derived views
//! up to date, and hands back the side effects as [`Effect`]s for the runtime
//! to perform. Drawing reads the state and changes nothing.

mod commands;
mod messages;
pub mod panes;
mod views;

use super::action::{Action, Command};
use super::config::Config;
use super::config::keymap::{Key, Lookup};
use super::requests::{Effect, Mode, ReviewRequest};
use super::highlight::Highlighted;
use super::sessions::{SessionSummary, SessionView};
use crate::agent::orchestrator::Strategy;
use crate::ir::Layer;
use crate::tasks::TaskSet;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use panes::{DiffUi, IrUi, TreeUi};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Tasks,
    Tree,
    Ir,
    Diff,
    Profile,
    Trace,
    Jobs,
}

pub const TABS: &[(Tab, &str)] = &[
    (Tab::Tasks, "Tasks"),
    (Tab::Tree, "Tree"),
    (Tab::Ir, "IR"),
    (Tab::Diff, "Diff"),
    (Tab::Profile, "Profile"),
    (Tab::Trace, "Trace"),
    (Tab::Jobs, "Jobs"),
];

impl Tab {
    pub fn context(self) -> &'static str {
        match self {
            Tab::Tasks => "tasks",
            Tab::Tree => "tree",
            Tab::Ir => "ir",
            Tab::Diff => "diff",
            Tab::Profile => "profile",
            Tab::Trace => "trace",
            Tab::Jobs => "jobs",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptPurpose {
    Filter,
    Search,
    OpenSession,
    JumpToEvent,
    Hint,
}

impl PromptPurpose {
    pub fn label(self) -> &'static str {
        match self {
            Self::Filter => "filter tasks",
            Self::Search => "search",
            Self::OpenSession => "open session file (samples: sessions/*.jsonl)",
            Self::JumpToEvent => "jump to event #",
            Self::Hint => "hint for the agent",
        }
    }
}

pub enum Popup {
    Help { scroll: usize },
    Palette { query: String, selected: usize },
    Prompt { purpose: PromptPurpose, text: String },
    /// The device picker: the configured devices, probed.
    Devices { rows: Vec<crate::tui::requests::DeviceRow>, selected: usize },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Info,
    Warn,
    Error,
}

pub struct Toast {
    pub level: Level,
    pub text: String,
    pub ttl_ms: u64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineState {
    Off,
    Starting(String),
    Ready,
    Failed(String),
}

pub struct RunUi {
    pub mode: Mode,
    pub strategy: Strategy,
    pub next_layer: Option<Layer>,
    pub active: bool,
    pub paused: bool,
    pub status: String,
    pub manual: Option<String>,
}

#[derive(Default)]
pub struct TasksUi {
    pub set: Option<Arc<TaskSet>>,
    pub error: Option<String>,
    /// Indexes into `set.tasks`, after the suite and filter.
    pub rows: Vec<usize>,
    pub selected: usize,
    pub scroll: usize,
    pub filter: String,
    pub suite: Option<String>,
    pub source: Option<(String, Highlighted)>,
    pub source_scroll: usize,
    /// The task whose source was last asked for, so it is asked for once.
    source_asked: Option<String>,
}

pub struct App {
    pub config: Config,
    pub tab: Tab,
    pub expanded: bool,
    pub width: u16,
    pub height: u16,
    pub tasks: TasksUi,
    /// Session files per task, newest first.
    pub index: BTreeMap<String, Vec<SessionSummary>>,
    /// The task a run or manual edit would work on.
    pub task: Option<String>,
    pub session: Option<SessionView>,
    pub tree: TreeUi,
    pub ir: IrUi,
    pub diff: DiffUi,
    pub popup: Option<Popup>,
    pub review: Option<ReviewRequest>,
    pub toasts: VecDeque<Toast>,
    pub log: VecDeque<String>,
    pub log_scroll: usize,
    pub engine: EngineState,
    /// The device candidates are timed on (`--device`), shown in the header.
    pub device: String,
    /// Why the device could not be reached at the last evaluation, until one
    /// reaches it again (the run goes on; its evaluations fail as `device`).
    pub device_lost: Option<String>,
    pub run: RunUi,
    pub pending: Vec<Key>,
    pub clock_ms: u64,
    /// When each evaluation in flight was seen starting (clock_ms), for its elapsed time.
    pub job_started: std::collections::HashMap<u32, u64>,
    config_reloaded_ms: u64,
    pub quit: bool,
    /// Side effects requested during the current update; `update` returns them.
    effects: Vec<Effect>,
    /// Whether anything visible changed since the last draw.
    pub dirty: bool,
}

const LOG_LINES: usize = 2000;

impl App {
    pub fn new(config: Config) -> Self {
        let mut app = Self {
            tab: Tab::Tasks,
            expanded: false,
            width: 80,
            height: 24,
            tasks: TasksUi::default(),
            index: BTreeMap::new(),
            task: None,
            session: None,
            tree: TreeUi::default(),
            ir: IrUi::default(),
            diff: DiffUi::default(),
            popup: None,
            review: None,
            toasts: VecDeque::new(),
            log: VecDeque::new(),
            log_scroll: 0,
            engine: EngineState::Off,
            device: crate::devices::LOCAL_CPU.into(),
            device_lost: None,
            run: RunUi { mode: Mode::Step, strategy: Strategy::Layered, next_layer: None, active: false, paused: false, status: "idle".into(), manual: None },
            pending: vec![],
            clock_ms: 0,
            job_started: Default::default(),
            config_reloaded_ms: 0,
            quit: false,
            effects: vec![],
            dirty: true,
            config,
        };
        for w in app.config.warnings.clone() {
            app.toast(Level::Warn, w);
        }
        app
    }

    pub(super) fn toast(&mut self, level: Level, text: impl Into<String>) {
        let text = text.into();
        let tag = match level {
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        };
        self.log_line(format!("{tag}: {text}"));
        self.toasts.push_back(Toast { level, text, ttl_ms: if level == Level::Error { 10_000 } else { 5_000 } });
        while self.toasts.len() > 4 {
            self.toasts.pop_front();
        }
    }

    pub(super) fn log_line(&mut self, line: String) {
        self.log.push_back(line);
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }

    /// The keymap context in force: a review waits on its own keys.
    pub fn context(&self) -> &'static str {
        if self.review.is_some() && self.popup.is_none() { "review" } else { self.tab.context() }
    }

    /// Folds one action into the state; returns what the runtime should do.
    pub fn update(&mut self, action: Action) -> Vec<Effect> {
        self.dirty = true;
        match action {
            Action::Command(c) => self.command(c),
            Action::Input(k) => self.key(k),
            Action::Tick { ms } => self.tick(ms),
            Action::Resize { width, height } => {
                self.width = width;
                self.height = height;
            }
            Action::ClickRow { x, y } => self.click(x, y),
            Action::Scroll { down } => {
                for _ in 0..3 {
                    self.command(if down { Command::Down } else { Command::Up });
                }
            }
            Action::Msg(m) => self.message(m),
        }
        self.refresh_views();
        std::mem::take(&mut self.effects)
    }

    fn tick(&mut self, ms: u64) {
        self.clock_ms += ms;
        let before = self.toasts.len();
        for t in &mut self.toasts {
            t.ttl_ms = t.ttl_ms.saturating_sub(ms);
        }
        self.toasts.retain(|t| t.ttl_ms > 0);
        let moved = self.session.as_mut().is_some_and(|s| s.tick(ms));
        if moved {
            self.session_changed();
        }
        let busy = self.run.active || self.engine_busy();
        self.dirty = moved || before != self.toasts.len() || busy;
    }

    fn engine_busy(&self) -> bool {
        matches!(self.engine, EngineState::Starting(_))
    }

    /// A key press: the open text field takes it, else the keymap.
    fn key(&mut self, k: KeyEvent) {
        if k.code == KeyCode::Char('z') && k.modifiers.contains(KeyModifiers::CONTROL) {
            self.effects.push(Effect::Suspend);
            return;
        }
        if matches!(self.popup, Some(Popup::Palette { .. } | Popup::Prompt { .. })) {
            self.text_input(k);
            return;
        }
        if matches!(self.popup, Some(Popup::Devices { .. })) {
            self.device_input(k);
            return;
        }
        self.pending.push(Key::from_event(&k));
        match self.config.keymap.lookup(self.context(), &self.pending) {
            Lookup::Found(c) => {
                self.pending.clear();
                self.command(c);
            }
            Lookup::Prefix => {}
            Lookup::None => self.pending.clear(),
        }
    }

    pub fn selected_task(&self) -> Option<&crate::tasks::Task> {
        let set = self.tasks.set.as_ref()?;
        self.tasks.rows.get(self.tasks.selected).map(|i| &set.tasks[*i])
    }

    pub fn selected_node(&self) -> Option<&crate::session::Node> {
        self.session.as_ref()?.tree.get(self.tree.selected)
    }

    /// After the session's cursor moved or it gained events.
    pub(super) fn session_changed(&mut self) {
        if let Some(s) = &self.session {
            self.tree.rebuild(&s.tree);
        }
    }


}

pub use commands::palette_matches;
