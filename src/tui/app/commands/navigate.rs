//! Moving through whatever the current tab shows: up and down, by pages, to either end, and sideways.

use super::super::{App, Tab};
use crate::tui::action::Command;

impl App {
    pub(super) fn navigate_command(&mut self, c: Command) -> bool {
        use Command::*;
        match c {
            Up => self.move_by(-1),
            Down => self.move_by(1),
            PageUp => self.move_by(-(self.page() as isize)),
            PageDown => self.move_by(self.page() as isize),
            Top => self.move_by(isize::MIN / 2),
            Bottom => self.move_by(isize::MAX / 2),
            Left => self.sideways(false),
            Right => self.sideways(true),
            _ => return false,
        }
        true
    }

    fn page(&self) -> usize {
        (crate::tui::view::body_height(self) as usize).saturating_sub(3).max(1)
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

    /// A left click: a tab in the top row, else a row of the task list or the tree.
    pub(in crate::tui::app) fn click(&mut self, x: u16, y: u16) {
        if !self.config.mouse {
            return;
        }
        if y == 0 {
            if let Some(tab) = crate::tui::view::tab_at(x) {
                self.tab = tab;
            }
            return;
        }
        let top = crate::tui::view::body_top(self) + 1;
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
