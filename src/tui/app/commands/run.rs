//! Agent runs and manual edits: starting, resuming, stopping and steering them.

use super::super::{App, Level, Tab};
use crate::agent::Decision;
use crate::agent::orchestrator::{Steering, Strategy, strategy_name};
use crate::ir::Layer;
use crate::tui::action::Command;
use crate::tui::requests::{Effect, ManualRequest, Mode, RunRequest};

impl App {
    pub(super) fn run_command(&mut self, c: Command) -> bool {
        use Command::*;
        match c {
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
            _ => return false,
        }
        true
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
        self.run.status = if self.engine == super::super::EngineState::Ready { "starting".into() } else { "waiting for the engine".into() };
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
        let kernel = super::super::panes::kernel_at(&texts, layer, self.ir.kernel);
        let text = super::super::panes::text_of(&texts, layer, kernel.as_deref()).to_string();
        self.run.manual = Some(format!("{layer}{} from #{parent}", kernel.as_deref().map(|k| format!(" {k}")).unwrap_or_default()));
        self.run.mode = Mode::Manual;
        let session = self.open_session_path();
        self.effects.push(Effect::StartManual(ManualRequest { task, session, parent, layer, kernel, text }));
    }
}

impl super::super::RunUi {
    /// Resuming keeps auto when the last run was auto, else steps.
    fn mode_for_resume(&self) -> Mode {
        if self.mode == Mode::Auto { Mode::Auto } else { Mode::Step }
    }
}
