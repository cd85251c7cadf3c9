//! Commands about the window itself: quitting, popups, tabs, the expanded pane, mouse and configuration.

use super::super::{App, Level, Popup, Tab, TABS};
use crate::agent::Decision;
use crate::tui::action::Command;
use crate::tui::requests::Effect;

impl App {
    pub(super) fn window_command(&mut self, c: Command) -> bool {
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
            _ => return false,
        }
        true
    }
}
