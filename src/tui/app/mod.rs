//! The workbench's state and the one place it changes: [`App::update`].
//! Keys become commands through the keymap; background work arrives as
//! messages; side effects leave as [`Effect`]s for the runtime to perform.

mod commands;
mod messages;
pub mod panes;

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
    pub run: RunUi,
    pub pending: Vec<Key>,
    pub clock_ms: u64,
    /// When each evaluation in flight was seen starting (clock_ms), for its elapsed time.
    pub job_started: std::collections::HashMap<u32, u64>,
    config_reloaded_ms: u64,
    pub quit: bool,
    /// Side effects requested by the last updates, for the runtime to drain.
    pub effects: Vec<Effect>,
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

    pub fn toast(&mut self, level: Level, text: impl Into<String>) {
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

    pub fn log_line(&mut self, line: String) {
        self.log.push_back(line);
        while self.log.len() > LOG_LINES {
            self.log.pop_front();
        }
    }

    /// The keymap context in force: a review waits on its own keys.
    pub fn context(&self) -> &'static str {
        if self.review.is_some() && self.popup.is_none() { "review" } else { self.tab.context() }
    }

    pub fn update(&mut self, action: Action) {
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
    pub fn key(&mut self, k: KeyEvent) {
        if k.code == KeyCode::Char('z') && k.modifiers.contains(KeyModifiers::CONTROL) {
            self.effects.push(Effect::Suspend);
            return;
        }
        if matches!(self.popup, Some(Popup::Palette { .. } | Popup::Prompt { .. })) {
            self.text_input(k);
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

    /// Brings the derived views up to date for a frame of the current size.
    pub fn prepare(&mut self) {
        let body = super::view::body_height(self) as usize;
        self.follow_selected_edit();
        match self.tab {
            Tab::Tasks => self.prepare_task_source(body),
            Tab::Ir => self.prepare_ir(body),
            Tab::Diff => self.prepare_diff(),
            _ => {}
        }
        self.tree.follow(body.saturating_sub(2));
        if self.tasks.selected < self.tasks.scroll {
            self.tasks.scroll = self.tasks.selected;
        } else if self.tasks.selected >= self.tasks.scroll + body.saturating_sub(3) {
            self.tasks.scroll = self.tasks.selected + 1 - body.saturating_sub(3).max(1);
        }
    }

    fn follow_selected_edit(&mut self) {
        let sel = self.tree.selected;
        if self.ir.follows == Some(sel) {
            return;
        }
        let Some(n) = self.selected_node() else { return };
        let layer = n.record.layer;
        let kernel = n.record.kernel.as_ref().and_then(|k| n.record.texts.kernels().iter().position(|x| x == k)).unwrap_or(0);
        self.ir.follows = Some(sel);
        self.ir.layer = layer;
        self.ir.kernel = kernel;
    }

    fn prepare_task_source(&mut self, height: usize) {
        let Some(task) = self.selected_task() else { return };
        let id = task.meta.id.clone();
        if self.tasks.source.as_ref().is_none_or(|(k, _)| *k != id) {
            let text = std::fs::read_to_string(task.dir.join("model.py")).unwrap_or_else(|e| format!("# cannot read model.py: {e}"));
            let h = Highlighted::new(&text, super::highlight::Lang::Python, &self.config.theme);
            self.tasks.source = Some((id, h));
            self.tasks.source_scroll = 0;
        }
        if let Some((_, h)) = &mut self.tasks.source {
            h.ensure(self.tasks.source_scroll + height);
        }
    }

    fn prepare_ir(&mut self, height: usize) {
        let Some(node) = self.selected_node() else { return };
        let texts = &node.record.texts;
        let key = panes::TextKey { node: node.id(), layer: self.ir.layer, kernel: panes::kernel_at(texts, self.ir.layer, self.ir.kernel) };
        let same = self.ir.view.as_ref().is_some_and(|(k, _)| *k == key);
        let text = if same { String::new() } else { panes::text_of(texts, key.layer, key.kernel.as_deref()).to_string() };
        self.ir.prepare(key, &text, &self.config.theme, height);
    }

    /// The pair of texts the diff pane compares: parent → node, or the two marks.
    pub fn diff_pair(&self) -> Option<(panes::TextKey, panes::TextKey)> {
        let s = self.session.as_ref()?;
        let (a, b) = match self.diff.base() {
            panes::DiffBase::Marks if self.tree.marks.len() == 2 => (self.tree.marks[0], self.tree.marks[1]),
            _ => {
                let n = s.tree.get(self.tree.selected)?;
                (n.record.parent.unwrap_or(n.id()), n.id())
            }
        };
        let (na, nb) = (s.tree.get(a)?, s.tree.get(b)?);
        let layer = self.ir.layer;
        let kernel = panes::kernel_at(&nb.record.texts, layer, self.ir.kernel);
        Some((panes::TextKey { node: na.id(), layer, kernel: kernel.clone() }, panes::TextKey { node: nb.id(), layer, kernel }))
    }

    fn prepare_diff(&mut self) {
        let Some((ka, kb)) = self.diff_pair() else { return };
        // The texts can be megabytes: copy them only when the pair changed.
        if self.diff.view.as_ref().is_some_and(|v| v.key.0 == ka && v.key.1 == kb) {
            return;
        }
        let s = self.session.as_ref().expect("diff_pair needs a session");
        let old = panes::text_of(&s.tree.nodes[ka.node as usize].record.texts, ka.layer, ka.kernel.as_deref()).to_string();
        let new = panes::text_of(&s.tree.nodes[kb.node as usize].record.texts, kb.layer, kb.kernel.as_deref()).to_string();
        self.diff.prepare((ka, kb), &old, &new);
    }

    pub fn selected_task(&self) -> Option<&crate::tasks::Task> {
        let set = self.tasks.set.as_ref()?;
        self.tasks.rows.get(self.tasks.selected).map(|i| &set.tasks[*i])
    }

    pub fn selected_node(&self) -> Option<&crate::session::Node> {
        self.session.as_ref()?.tree.get(self.tree.selected)
    }

    /// Re-filters the task list (suite, then text).
    pub fn refilter(&mut self) {
        let Some(set) = self.tasks.set.clone() else { return };
        let q = self.tasks.filter.to_lowercase();
        let suite: Option<Vec<String>> = self.tasks.suite.as_ref().and_then(|s| set.suites.get(s).cloned());
        let mut rows: Vec<usize> = (0..set.tasks.len())
            .filter(|i| {
                let t = &set.tasks[*i];
                suite.as_ref().is_none_or(|ids| ids.contains(&t.meta.id))
                    && (q.is_empty() || t.meta.id.to_lowercase().contains(&q) || t.meta.title.to_lowercase().contains(&q) || t.meta.domains.iter().any(|d| d.contains(&q)))
            })
            .collect();
        // An exact or leading match on the id comes first: typing a task's name opens it.
        let rank = |id: &str| if q.is_empty() { 2 } else if id == q { 0 } else if id.starts_with(&q) { 1 } else { 2 };
        rows.sort_by_key(|i| (rank(&set.tasks[*i].meta.id), set.tasks[*i].meta.level, set.tasks[*i].meta.id.clone()));
        self.tasks.rows = rows;
        self.tasks.selected = self.tasks.selected.min(self.tasks.rows.len().saturating_sub(1));
    }

    /// After the session's cursor moved or it gained events.
    pub fn session_changed(&mut self) {
        if let Some(s) = &self.session {
            self.tree.rebuild(&s.tree);
        }
    }

    fn click(&mut self, x: u16, y: u16) {
        if !self.config.mouse {
            return;
        }
        if y == 0 {
            if let Some(tab) = super::view::tab_at(x) {
                self.tab = tab;
            }
            return;
        }
        let top = super::view::body_top(self) + 1;
        if y < top {
            return;
        }
        let row = (y - top) as usize;
        match self.tab {
            Tab::Tasks if x < self.width / 2 || self.expanded => {
                let i = self.tasks.scroll + row.saturating_sub(1);
                if i < self.tasks.rows.len() {
                    self.tasks.selected = i;
                }
            }
            Tab::Tree => {
                if let Some(r) = self.tree.rows.get(self.tree.scroll + row) {
                    self.tree.selected = r.id;
                }
            }
            _ => {}
        }
    }
}

pub use commands::palette_matches;
