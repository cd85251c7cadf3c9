//! What each command does to the state.

use super::panes::DiffBase;
use super::{App, Level, Popup, PromptPurpose, Tab, TABS};
use crate::agent::orchestrator::{Steering, Strategy};
use crate::agent::{Decision, EditProposal};
use crate::ir::Layer;
use crate::session::EditBody;
use crate::tui::action::{Command, REGISTRY};
use crate::tui::requests::{Effect, EditorPurpose, ManualRequest, Mode, RunRequest};
use crossterm::event::{KeyCode, KeyEvent};

impl App {
    pub fn command(&mut self, c: Command) {
        if let Some(Popup::Help { scroll }) = &mut self.popup {
            match c {
                Command::Up => *scroll = scroll.saturating_sub(1),
                Command::Down => *scroll += 1,
                Command::PageUp => *scroll = scroll.saturating_sub(10),
                Command::PageDown => *scroll += 10,
                Command::Top => *scroll = 0,
                Command::Help | Command::Cancel | Command::Quit => self.popup = None,
                _ => {}
            }
            return;
        }
        use Command::*;
        match c {
            Quit => {
                if let Some(r) = self.review.take() {
                    let _ = r.reply.send(Decision::Stop);
                }
                self.quit = true;
                self.effects.push(Effect::Quit);
            }
            Help => self.popup = Some(Popup::Help { scroll: 0 }),
            Palette => self.popup = Some(Popup::Palette { query: String::new(), selected: 0 }),
            Cancel => {
                self.popup = None;
                self.pending.clear();
                self.expanded = false;
            }
            NextTab | PrevTab => {
                let i = TABS.iter().position(|(t, _)| *t == self.tab).unwrap_or(0);
                let n = TABS.len();
                self.tab = TABS[if c == NextTab { (i + 1) % n } else { (i + n - 1) % n }].0;
            }
            TabTasks => self.tab = Tab::Tasks,
            TabTree => self.tab = Tab::Tree,
            TabIr => self.tab = Tab::Ir,
            TabDiff => self.tab = Tab::Diff,
            TabProfile => self.tab = Tab::Profile,
            TabTrace => self.tab = Tab::Trace,
            TabJobs => self.tab = Tab::Jobs,
            ExpandPane => self.expanded = !self.expanded,
            ToggleMouse => {
                self.config.mouse = !self.config.mouse;
                self.effects.push(Effect::SetMouse(self.config.mouse));
                self.toast(Level::Info, if self.config.mouse { "mouse on" } else { "mouse off" });
            }
            ReloadConfig => self.effects.push(Effect::ReloadConfig),
            Up => self.move_by(-1),
            Down => self.move_by(1),
            PageUp => self.move_by(-(self.page() as isize)),
            PageDown => self.move_by(self.page() as isize),
            Top => self.move_by(isize::MIN / 2),
            Bottom => self.move_by(isize::MAX / 2),
            Left => self.sideways(false),
            Right => self.sideways(true),
            Filter => self.prompt(PromptPurpose::Filter, self.tasks.filter.clone()),
            CycleSuite => self.cycle_suite(),
            OpenTask => self.open_task(),
            ToggleCollapse => {
                let id = self.tree.selected;
                if !self.tree.collapsed.remove(&id) {
                    self.tree.collapsed.insert(id);
                }
                self.session_changed();
            }
            ExpandAll => {
                self.tree.collapsed.clear();
                self.session_changed();
            }
            CollapseAll => {
                if let Some(s) = &self.session {
                    self.tree.collapsed = s.tree.nodes.iter().filter(|n| !n.children.is_empty() && n.id() != 0).map(|n| n.id()).collect();
                }
                self.tree.selected = 0;
                self.session_changed();
            }
            JumpBest => match self.session.as_ref().and_then(|s| s.tree.best().map(|n| n.id())) {
                Some(id) => {
                    let s = self.session.as_ref().unwrap();
                    self.tree.reveal(&s.tree, id);
                }
                None => self.toast(Level::Info, "no correct, validly timed node yet"),
            },
            Branch => {
                self.tree.branch_from = Some(self.tree.selected);
                self.toast(Level::Info, format!("the next run or edit starts from #{}", self.tree.selected));
            }
            Mark => {
                let id = self.tree.selected;
                if let Some(i) = self.tree.marks.iter().position(|m| *m == id) {
                    self.tree.marks.remove(i);
                } else {
                    self.tree.marks.push(id);
                    if self.tree.marks.len() > 2 {
                        self.tree.marks.remove(0);
                    }
                }
                if self.tree.marks.len() == 2 {
                    self.diff.base = Some(DiffBase::Marks);
                }
            }
            ClearMarks => {
                self.tree.marks.clear();
                self.diff.base = Some(DiffBase::Parent);
            }
            CycleLayer => {
                self.ir.layer = match self.ir.layer {
                    Layer::L0 => Layer::L1,
                    Layer::L1 => Layer::L2,
                    Layer::L2 => Layer::L0,
                };
            }
            NextKernel => self.ir.kernel = (self.ir.kernel + 1) % self.kernel_count().max(1),
            PrevKernel => self.ir.kernel = self.ir.kernel.checked_sub(1).unwrap_or(self.kernel_count().saturating_sub(1)),
            ToggleSideBySide => {
                self.diff.side_by_side = !self.diff.side_by_side;
                self.diff.scroll = 0;
                self.diff.rerun_search();
            }
            DiffAgainst => {
                let next = match self.diff.base() {
                    DiffBase::Parent if self.tree.marks.len() == 2 => DiffBase::Marks,
                    DiffBase::Parent => {
                        self.toast(Level::Info, "mark two nodes in the tree (m) to compare them");
                        DiffBase::Parent
                    }
                    DiffBase::Marks => DiffBase::Parent,
                };
                self.diff.base = Some(next);
            }
            Search => {
                let q = if self.tab == Tab::Diff { self.diff.search.query.clone() } else { self.ir.search.query.clone() };
                self.prompt(PromptPurpose::Search, q);
            }
            SearchNext | SearchPrev => self.search_step(c == SearchNext),
            OpenSession => self.prompt(PromptPurpose::OpenSession, String::new()),
            TogglePause => self.toggle_pause(),
            StepForward | StepBack => {
                if let Some(s) = &mut self.session {
                    s.playing = false;
                    let k = if c == StepForward { s.cursor + 1 } else { s.cursor.saturating_sub(1) };
                    s.seek(k);
                    self.session_changed();
                }
            }
            Faster | Slower => {
                if let Some(s) = &mut self.session {
                    s.change_speed(c == Faster);
                }
            }
            JumpToNode => {
                let id = self.tree.selected;
                if let Some(s) = &mut self.session
                    && let Some(i) = s.event_of_node(id)
                {
                    s.playing = false;
                    s.seek(i + 1);
                    self.session_changed();
                }
            }
            JumpToEvent => self.prompt(PromptPurpose::JumpToEvent, String::new()),
            Resume => match self.session.as_ref().and_then(|s| s.path.clone()) {
                Some(path) => self.start_run(self.run.mode_for_resume(), Some(path), Some(self.tree.selected)),
                None => self.toast(Level::Warn, "open a session file first (o), then resume it from a node"),
            },
            RunStep => self.start_run(Mode::Step, self.open_session_path(), self.tree.branch_from),
            RunAuto => self.start_run(Mode::Auto, self.open_session_path(), self.tree.branch_from),
            ManualEdit => self.manual_edit(),
            StopRun => {
                if let Some(r) = self.review.take() {
                    let _ = r.reply.send(Decision::Stop);
                }
                if self.run.active {
                    self.effects.push(Effect::Steer(Steering { paused: false, cancelled: true, next_layer: self.run.next_layer }));
                    self.run.status = "stopping".into();
                }
                if self.run.manual.take().is_some() {
                    self.effects.push(Effect::StopManual);
                }
            }
            CycleStrategy => {
                self.run.strategy = match self.run.strategy {
                    Strategy::Layered => Strategy::Flat,
                    Strategy::Flat => Strategy::OneShot,
                    Strategy::OneShot => Strategy::Layered,
                };
                self.toast(Level::Info, format!("strategy: {}", strategy_name(self.run.strategy)));
            }
            CycleNextLayer => {
                self.run.next_layer = match self.run.next_layer {
                    None => Some(Layer::L0),
                    Some(Layer::L0) => Some(Layer::L1),
                    Some(Layer::L1) => Some(Layer::L2),
                    Some(Layer::L2) => None,
                };
                let label = self.run.next_layer.map(|l| l.to_string()).unwrap_or_else(|| "agents' choice".into());
                self.toast(Level::Info, format!("next layer: {label}"));
                if self.run.active {
                    self.effects.push(Effect::Steer(self.steering()));
                }
            }
            Accept | Reject => {
                if let Some(r) = self.review.take() {
                    let _ = r.reply.send(if c == Accept { Decision::Accept } else { Decision::Reject });
                    self.run.status = format!("{} the proposal from {}", if c == Accept { "accepted" } else { "rejected" }, r.agent);
                }
            }
            EditProposal => {
                if let Some(r) = &self.review {
                    let text = match &r.proposal.body {
                        EditBody::Text(t) => t.clone(),
                        EditBody::Trace(lines) => lines.join("\n"),
                    };
                    let suffix = if r.proposal.layer == Layer::L2 { ".ll" } else { ".py" };
                    self.effects.push(Effect::OpenEditor { text, suffix, purpose: EditorPurpose::Proposal });
                }
            }
            RetryWithHint => {
                if self.review.is_some() {
                    self.prompt(PromptPurpose::Hint, String::new());
                }
            }
        }
    }

    fn page(&self) -> usize {
        (super::super::view::body_height(self) as usize).saturating_sub(3).max(1)
    }

    fn kernel_count(&self) -> usize {
        self.selected_node().map(|n| n.record.texts.kernels().len()).unwrap_or(0)
    }

    fn move_by(&mut self, delta: isize) {
        let clamp = |v: usize, d: isize, len: usize| -> usize { (v as isize).saturating_add(d).clamp(0, len.saturating_sub(1) as isize) as usize };
        match self.tab {
            Tab::Tasks => self.tasks.selected = clamp(self.tasks.selected, delta, self.tasks.rows.len()),
            Tab::Tree | Tab::Profile | Tab::Trace => self.tree.move_by(delta.clamp(-1_000_000, 1_000_000)),
            Tab::Ir => {
                let len = self.ir.view.as_ref().map(|(_, h)| h.len()).unwrap_or(0);
                self.ir.scroll = clamp(self.ir.scroll, delta, len);
            }
            Tab::Diff => {
                let len = self.diff.view.as_ref().map(|v| v.len(self.diff.side_by_side)).unwrap_or(0);
                self.diff.scroll = clamp(self.diff.scroll, delta, len);
            }
            Tab::Jobs => self.log_scroll = clamp(self.log_scroll, -delta, self.log.len()),
        }
    }

    fn sideways(&mut self, right: bool) {
        match self.tab {
            Tab::Tree => {
                let id = self.tree.selected;
                let has_children = self.selected_node().is_some_and(|n| !n.children.is_empty());
                if right {
                    self.tree.collapsed.remove(&id);
                } else if has_children && !self.tree.collapsed.contains(&id) {
                    self.tree.collapsed.insert(id);
                } else if let Some(p) = self.selected_node().and_then(|n| n.record.parent) {
                    self.tree.selected = p;
                }
                self.session_changed();
            }
            Tab::Ir => self.ir.hscroll = if right { self.ir.hscroll + 8 } else { self.ir.hscroll.saturating_sub(8) },
            Tab::Diff => self.diff.hscroll = if right { self.diff.hscroll + 8 } else { self.diff.hscroll.saturating_sub(8) },
            _ => {}
        }
    }

    fn prompt(&mut self, purpose: PromptPurpose, text: String) {
        self.popup = Some(Popup::Prompt { purpose, text });
    }

    fn cycle_suite(&mut self) {
        let Some(set) = &self.tasks.set else { return };
        let names: Vec<String> = set.suites.keys().filter(|k| *k != "all").cloned().collect();
        self.tasks.suite = match &self.tasks.suite {
            None => names.first().cloned(),
            Some(cur) => names.iter().position(|n| n == cur).and_then(|i| names.get(i + 1).cloned()),
        };
        self.tasks.selected = 0;
        self.refilter();
    }

    fn open_task(&mut self) {
        let Some(id) = self.selected_task().map(|t| t.meta.id.clone()) else { return };
        self.task = Some(id.clone());
        match self.index.get(&id).and_then(|v| v.first()) {
            Some(s) => {
                self.effects.push(Effect::LoadSession(s.path.clone()));
                self.toast(Level::Info, format!("opening the latest session of {id}"));
            }
            None => {
                self.session = None;
                self.tree = Default::default();
                self.toast(Level::Info, format!("{id}: no session yet; r runs the agents in step mode, a in auto mode, E edits by hand"));
            }
        }
        self.tab = Tab::Tree;
    }

    /// The open session continues when it belongs to the task being run.
    fn open_session_path(&self) -> Option<std::path::PathBuf> {
        let s = self.session.as_ref()?;
        (Some(&s.header.task) == self.current_task().as_ref()).then(|| s.path.clone()).flatten()
    }

    pub fn current_task(&self) -> Option<String> {
        self.task.clone().or_else(|| self.session.as_ref().map(|s| s.header.task.clone())).or_else(|| self.selected_task().map(|t| t.meta.id.clone()))
    }

    pub fn steering(&self) -> Steering {
        Steering { paused: self.run.paused, cancelled: false, next_layer: self.run.next_layer }
    }

    fn start_run(&mut self, mode: Mode, session: Option<std::path::PathBuf>, start_node: Option<u32>) {
        if self.run.active {
            self.toast(Level::Warn, "a run is already going: x stops it");
            return;
        }
        let Some(task) = self.current_task() else {
            self.toast(Level::Warn, "pick a task first (1, then enter)");
            return;
        };
        self.task = Some(task.clone());
        self.run.mode = mode;
        self.run.active = true;
        self.run.paused = false;
        self.run.status = if self.engine == super::EngineState::Ready { "starting".into() } else { "waiting for the engine".into() };
        self.effects.push(Effect::StartRun(RunRequest { task, strategy: self.run.strategy, mode, session, start_node }));
        self.tab = Tab::Tree;
    }

    fn manual_edit(&mut self) {
        let Some(task) = self.current_task() else {
            self.toast(Level::Warn, "pick a task first (1, then enter)");
            return;
        };
        let (parent, texts) = match self.selected_node() {
            Some(n) => (n.id(), n.record.texts.clone()),
            None => (0, Default::default()),
        };
        // Without a session the edit starts from the task's reference graph (L0).
        let layer = if self.selected_node().is_some() { self.ir.layer } else { Layer::L0 };
        let kernel = super::panes::kernel_at(&texts, layer, self.ir.kernel);
        let text = super::panes::text_of(&texts, layer, kernel.as_deref()).to_string();
        self.run.manual = Some(format!("{layer}{} from #{parent}", kernel.as_deref().map(|k| format!(" {k}")).unwrap_or_default()));
        self.run.mode = Mode::Manual;
        let session = self.open_session_path();
        self.effects.push(Effect::StartManual(ManualRequest { task, session, parent, layer, kernel, text }));
    }

    fn toggle_pause(&mut self) {
        if self.run.active {
            self.run.paused = !self.run.paused;
            self.effects.push(Effect::Steer(self.steering()));
            self.run.status = if self.run.paused { "paused".into() } else { "running".into() };
            return;
        }
        if let Some(s) = &mut self.session {
            if !s.playing && s.at_end() {
                s.seek(0);
            }
            s.playing = !s.playing;
            self.session_changed();
        }
    }

    fn search_step(&mut self, forward: bool) {
        let (search, scroll) = if self.tab == Tab::Diff { (&mut self.diff.search, &mut self.diff.scroll) } else { (&mut self.ir.search, &mut self.ir.scroll) };
        match search.step(forward) {
            Some(line) => *scroll = line.saturating_sub(3),
            None => self.toast(Level::Info, "no matches"),
        }
    }

    /// Typing into the palette or a prompt.
    pub(super) fn text_input(&mut self, k: KeyEvent) {
        let Some(popup) = self.popup.take() else { return };
        match popup {
            Popup::Palette { mut query, mut selected } => match k.code {
                KeyCode::Esc => {}
                KeyCode::Enter => {
                    if let Some(e) = palette_matches(&query).get(selected) {
                        self.command(e.command);
                    }
                }
                KeyCode::Up => self.popup = Some(Popup::Palette { query, selected: selected.saturating_sub(1) }),
                KeyCode::Down => {
                    selected = (selected + 1).min(palette_matches(&query).len().saturating_sub(1));
                    self.popup = Some(Popup::Palette { query, selected });
                }
                KeyCode::Backspace => {
                    query.pop();
                    self.popup = Some(Popup::Palette { query, selected: 0 });
                }
                KeyCode::Char(c) => {
                    query.push(c);
                    self.popup = Some(Popup::Palette { query, selected: 0 });
                }
                _ => self.popup = Some(Popup::Palette { query, selected }),
            },
            Popup::Prompt { purpose, mut text } => match k.code {
                KeyCode::Char('u') if k.modifiers.contains(crossterm::event::KeyModifiers::CONTROL) => {
                    self.popup = Some(Popup::Prompt { purpose, text: String::new() });
                }
                KeyCode::Esc => {
                    if purpose == PromptPurpose::Filter {
                        self.tasks.filter.clear();
                        self.refilter();
                    }
                }
                KeyCode::Enter => self.submit(purpose, text),
                KeyCode::Backspace | KeyCode::Char(_) => {
                    match k.code {
                        KeyCode::Char(c) => text.push(c),
                        _ => {
                            text.pop();
                        }
                    }
                    if purpose == PromptPurpose::Filter {
                        self.tasks.filter = text.clone();
                        self.tasks.selected = 0;
                        self.refilter();
                    }
                    self.popup = Some(Popup::Prompt { purpose, text });
                }
                _ => self.popup = Some(Popup::Prompt { purpose, text }),
            },
            other => self.popup = Some(other),
        }
    }

    fn submit(&mut self, purpose: PromptPurpose, text: String) {
        match purpose {
            PromptPurpose::Filter => {}
            PromptPurpose::Search => {
                if self.tab == Tab::Diff {
                    self.diff.search.query = text;
                    self.diff.rerun_search();
                    if let Some(l) = self.diff.search.matches.first() {
                        self.diff.scroll = l.saturating_sub(3);
                    }
                } else if let Some((_, h)) = &self.ir.view {
                    self.ir.search.query = text;
                    self.ir.search.run((0..h.len()).map(|i| h.source_line(i).to_string()));
                    if let Some(l) = self.ir.search.matches.first() {
                        self.ir.scroll = l.saturating_sub(3);
                    }
                }
                let n = if self.tab == Tab::Diff { self.diff.search.matches.len() } else { self.ir.search.matches.len() };
                self.toast(Level::Info, format!("{n} matching lines"));
            }
            PromptPurpose::OpenSession => self.effects.push(Effect::LoadSession(text.trim().into())),
            PromptPurpose::JumpToEvent => match text.trim().parse::<usize>() {
                Ok(k) if self.session.is_some() => {
                    let s = self.session.as_mut().unwrap();
                    s.playing = false;
                    s.seek(k);
                    self.session_changed();
                }
                _ => self.toast(Level::Warn, "type an event number (the replay bar shows them)"),
            },
            PromptPurpose::Hint => {
                if let Some(r) = self.review.take() {
                    let _ = r.reply.send(Decision::Retry { hint: text.clone() });
                    self.run.status = format!("asked {} again: {text}", r.agent);
                }
            }
        }
    }

    /// The person's edit of the proposal under review comes back from $EDITOR.
    pub(super) fn proposal_edited(&mut self, text: Option<String>) {
        let Some(r) = self.review.take() else { return };
        match text {
            Some(t) => {
                let p = &r.proposal;
                let body = match p.body {
                    EditBody::Trace(_) => EditBody::Trace(t.lines().map(str::to_string).filter(|l| !l.trim().is_empty()).collect()),
                    EditBody::Text(_) => EditBody::Text(t),
                };
                let edited = EditProposal { layer: p.layer, kernel: p.kernel.clone(), body, rationale: format!("{} (edited by a person)", p.rationale) };
                let _ = r.reply.send(Decision::Replace(edited));
                self.run.status = "applied the edited proposal".into();
            }
            None => {
                self.toast(Level::Info, "the editor left the proposal unchanged; it still waits for a decision");
                self.review = Some(r);
            }
        }
    }
}

impl super::RunUi {
    /// Resuming keeps auto when the last run was auto, else steps.
    fn mode_for_resume(&self) -> Mode {
        if self.mode == Mode::Auto { Mode::Auto } else { Mode::Step }
    }
}

pub fn strategy_name(s: Strategy) -> &'static str {
    match s {
        Strategy::Layered => "layered",
        Strategy::Flat => "flat",
        Strategy::OneShot => "one-shot",
    }
}

/// Palette entries matching a query (every word must appear in the name or description).
pub fn palette_matches(query: &str) -> Vec<&'static crate::tui::action::Entry> {
    let words: Vec<String> = query.to_lowercase().split_whitespace().map(str::to_string).collect();
    REGISTRY
        .iter()
        .filter(|e| {
            let hay = format!("{} {} {}", e.name, e.description.to_lowercase(), e.group);
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect()
}
