//! Searching the IR or diff pane.

use super::super::{App, Level, PromptPurpose, Tab};
use crate::tui::action::Command;

impl App {
    pub(super) fn search_command(&mut self, c: Command) -> bool {
        use Command::*;
        match c {
            Search => {
                let q = if self.tab == Tab::Diff { self.diff.search.query.clone() } else { self.ir.search.query.clone() };
                self.prompt(PromptPurpose::Search, q);
            }
            SearchNext | SearchPrev => self.search_step(c == SearchNext),
            _ => return false,
        }
        true
    }

    fn search_step(&mut self, forward: bool) {
        let (search, scroll) = if self.tab == Tab::Diff { (&mut self.diff.search, &mut self.diff.scroll) } else { (&mut self.ir.search, &mut self.ir.scroll) };
        match search.step(forward) {
            Some(line) => *scroll = line.saturating_sub(3),
            None => self.toast(Level::Info, "no matches"),
        }
    }
}
