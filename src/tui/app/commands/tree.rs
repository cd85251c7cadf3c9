//! The candidate tree: folding, the best node, branching and marks.

use super::super::panes::DiffBase;
use super::super::{App, Level};
use crate::tui::action::Command;

impl App {
    pub(super) fn tree_command(&mut self, c: Command) -> bool {
        use Command::*;
        match c {
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
            _ => return false,
        }
        true
    }
}
