//! The diff pane: layout and what it compares against.

use super::super::panes::DiffBase;
use super::super::{App, Level};
use crate::tui::action::Command;

impl App {
    pub(super) fn diff_command(&mut self, c: Command) -> bool {
        use Command::*;
        match c {
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
            _ => return false,
        }
        true
    }
}
