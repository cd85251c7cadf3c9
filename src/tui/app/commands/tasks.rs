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

    /// Re-filters the task list (suite, then text).
    pub(in crate::tui::app) fn refilter(&mut self) {
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
}
