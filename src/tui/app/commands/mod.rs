//! What each command does to the state. Every screen or concern handles its
//! own commands in its own file and says whether it took the command; a new
//! screen adds its file and one entry in [`HANDLERS`].

mod device;
mod diff;
mod ir;
mod navigate;
mod prompt;
mod replay;
mod review;
mod run;
mod search;
mod tasks;
mod tree;
mod window;

use super::{App, Popup};
use crate::tui::action::Command;

pub use prompt::palette_matches;

/// Tried in order; the first that takes a command ends the search.
const HANDLERS: &[fn(&mut App, Command) -> bool] = &[
    App::window_command,
    App::navigate_command,
    App::tasks_command,
    App::tree_command,
    App::ir_command,
    App::diff_command,
    App::search_command,
    App::replay_command,
    App::run_command,
    App::review_command,
    App::device_command,
];

impl App {
    pub(in crate::tui::app) fn command(&mut self, c: Command) {
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
        for handle in HANDLERS {
            if handle(self, c) {
                return;
            }
        }
    }
}
