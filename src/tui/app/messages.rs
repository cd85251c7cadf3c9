//! What background work, the runtime and the config watcher report, folded
//! into the state. Messages the background work also acts on (tasks loaded,
//! the engine up or failed, a run over) go back out as effects.

use super::{App, EngineState, Level, Tab};
use crate::session::{Header, Loaded};
use crate::tui::action::Msg;
use crate::tui::config::Config;
use crate::tui::requests::{Effect, EditorPurpose};
use crate::tui::sessions::SessionView;

impl App {
    pub(super) fn message(&mut self, m: Msg) {
        match m {
            Msg::TasksLoaded(Ok(set)) => {
                for p in &set.problems {
                    self.log_line(format!("warn: skipped {}: {}", p.dir.display(), p.message));
                }
                self.effects.push(Effect::TasksReady(set.clone()));
                self.tasks.set = Some(set);
                self.refilter();
            }
            Msg::TasksLoaded(Err(e)) => {
                self.tasks.error = Some(e.clone());
                self.toast(Level::Error, format!("tasks: {e}"));
            }
            Msg::SessionIndex(list) => {
                self.index.clear();
                for s in list {
                    self.index.entry(s.task.clone()).or_default().push(s);
                }
            }
            Msg::SessionLoaded { path, result } => match result {
                Ok(loaded) => self.open_session(Some(path), loaded),
                Err(e) => self.toast(Level::Error, format!("{}: {e}", path.display())),
            },
            Msg::EngineStarting(what) => self.engine = EngineState::Starting(what),
            Msg::EngineReady => {
                self.engine = EngineState::Ready;
                self.effects.push(Effect::StartPending);
                self.log_line("info: engine ready".into());
                if self.run.active && self.run.status == "waiting for the engine" {
                    self.run.status = "starting".into();
                }
            }
            Msg::SandboxReport(lines, complete) => {
                for l in lines {
                    self.log_line(format!("sandbox: {l}"));
                }
                if !complete {
                    self.toast(Level::Warn, "the engine's sandbox is incomplete: candidates are less confined (see the log)");
                }
            }
            Msg::EngineFailed(e) => {
                self.engine = EngineState::Failed(e.clone());
                self.effects.push(Effect::DropPending);
                self.toast(Level::Error, format!("engine: {e}"));
                if self.run.active {
                    self.run.active = false;
                    self.run.status = "the engine did not start (kwb engine doctor says why)".into();
                }
            }
            Msg::RunStarted { session, mode } => {
                self.run.mode = mode;
                self.run.status = "running".into();
                let same = self.session.as_ref().is_some_and(|s| s.path.as_deref() == Some(session.as_path()));
                if !same {
                    let task = self.task.clone().unwrap_or_default();
                    let id = session.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
                    let header = Header { kwb_session: crate::session::SCHEMA_VERSION, id, task, created_unix_ms: 0, manifest: serde_json::Value::Null };
                    self.open_session(Some(session), Loaded { header, events: vec![], warnings: vec![] });
                } else if let Some(s) = &mut self.session {
                    s.seek(usize::MAX);
                    s.playing = false;
                }
            }
            Msg::RunEvent(e) => {
                match &e.kind {
                    crate::session::EventKind::EvalStarted { node } => {
                        self.job_started.insert(*node, self.clock_ms);
                    }
                    crate::session::EventKind::EvalFinished { node, result, .. } => {
                        self.job_started.remove(node);
                        self.device_seen(result);
                    }
                    _ => {}
                }
                if let Some(s) = &mut self.session {
                    // Follow the newest node while the person has not looked elsewhere.
                    let newest = s.tree.nodes.len().checked_sub(1).map(|n| n as u32);
                    let following = s.at_end() && (newest.is_none() || newest == Some(self.tree.selected));
                    s.push(e);
                    if following && let Some(last) = s.tree.nodes.len().checked_sub(1) {
                        self.tree.selected = last as u32;
                    }
                    self.session_changed();
                }
            }
            Msg::RunFinished(r) => {
                self.effects.push(Effect::RunEnded);
                self.run.active = false;
                self.run.paused = false;
                if let Some(rev) = self.review.take() {
                    drop(rev);
                }
                match r {
                    Ok(summary) => {
                        self.run.status = format!("finished: {summary}");
                        self.toast(Level::Info, format!("run finished: {summary}"));
                    }
                    Err(e) => {
                        self.run.status = format!("failed: {e}");
                        self.toast(Level::Error, format!("run: {e}"));
                    }
                }
            }
            Msg::Review(r) => {
                self.run.status = format!("{} proposes {} from #{}: waiting for you", r.agent, r.proposal.layer, r.parent);
                self.review = Some(r);
            }
            Msg::ManualStatus(s) => {
                self.log_line(format!("manual: {s}"));
                self.run.status = s;
            }
            Msg::Log(l) => self.log_line(l),
            Msg::ConfigChanged => {
                // One save fires several file events; reload once per burst.
                if self.clock_ms >= self.config_reloaded_ms + 500 || self.config_reloaded_ms == 0 {
                    self.config_reloaded_ms = self.clock_ms.max(1);
                    self.effects.push(Effect::ReloadConfig);
                }
            }
            Msg::ConfigLoaded(config) => self.config_loaded(*config),
            Msg::EditorClosed { purpose: EditorPurpose::Proposal, text } => self.proposal_edited(text),
            Msg::TaskSource { task, text } => self.task_source(task, text),
            Msg::Notice(level, text) => self.toast(level, text),
            Msg::Devices(result) => self.devices_listed(result),
            Msg::DeviceSwitched(result) => self.device_switched(result),
        }
    }

    fn config_loaded(&mut self, config: Config) {
        let mouse = self.config.mouse;
        self.config = config;
        if self.config.mouse != mouse {
            self.effects.push(Effect::SetMouse(self.config.mouse));
        }
        // Highlighted text carries the old theme's colours.
        self.ir.view = None;
        self.tasks.source = None;
        self.tasks.source_asked = None;
        for w in self.config.warnings.clone() {
            self.toast(Level::Warn, w);
        }
        self.toast(Level::Info, "configuration reloaded");
    }

    /// Shows a session at its latest state, the best node selected.
    fn open_session(&mut self, path: Option<std::path::PathBuf>, loaded: Loaded) {
        for w in &loaded.warnings {
            self.log_line(format!("warn: {w}"));
        }
        let view = SessionView::new(path, loaded);
        self.task = Some(view.header.task.clone());
        self.tree = Default::default();
        // The newest node: what happened last is what a person looks at first.
        self.tree.selected = view.tree.nodes.len().saturating_sub(1) as u32;
        self.ir.follows = None;
        self.ir.view = None;
        self.diff.view = None;
        self.session = Some(view);
        self.session_changed();
        if self.tab == Tab::Tasks {
            self.tab = Tab::Tree;
        }
    }
}
