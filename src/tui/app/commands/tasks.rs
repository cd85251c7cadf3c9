//! The task browser: filtering, suites, opening a task.

use super::super::{App, Level, PromptPurpose, Tab};
use crate::tui::action::Command;
use crate::tui::requests::Effect;

impl App {
    pub(super) fn tasks_command(&mut self, c: Command) -> bool {
        use Command::*;
        match c {
            Filter => self.prompt(PromptPurpose::Filter, self.tasks.filter.clone()),
            CycleSuite => self.cycle_suite(),
            OpenTask => self.open_task(),
            _ => return false,
        }
        true
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
}
