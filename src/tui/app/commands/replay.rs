//! Replaying a session: opening one, play and pause, stepping, speed, jumping to an event.

use super::super::{App, PromptPurpose};
use crate::tui::action::Command;
use crate::tui::requests::Effect;

impl App {
    pub(super) fn replay_command(&mut self, c: Command) -> bool {
        use Command::*;
        match c {
            OpenSession => self.prompt(PromptPurpose::OpenSession, String::new()),
            TogglePause => self.toggle_pause(),
            StepForward | StepBack => {
                if let Some(s) = &mut self.session {
                    s.playing = false;
                    let k = if c == StepForward { s.cursor + 1 } else { s.cursor.saturating_sub(1) };
                    s.seek(k);
                    self.session_changed();
                }
            }
            Faster | Slower => {
                if let Some(s) = &mut self.session {
                    s.change_speed(c == Faster);
                }
            }
            JumpToNode => {
                let id = self.tree.selected;
                if let Some(s) = &mut self.session
                    && let Some(i) = s.event_of_node(id)
                {
                    s.playing = false;
                    s.seek(i + 1);
                    self.session_changed();
                }
            }
            JumpToEvent => self.prompt(PromptPurpose::JumpToEvent, String::new()),
            _ => return false,
        }
        true
    }

    fn toggle_pause(&mut self) {
        if self.run.active {
            self.run.paused = !self.run.paused;
            self.effects.push(Effect::Steer(self.steering()));
            self.run.status = if self.run.paused { "paused".into() } else { "running".into() };
            return;
        }
        if let Some(s) = &mut self.session {
            if !s.playing && s.at_end() {
                s.seek(0);
            }
            s.playing = !s.playing;
            self.session_changed();
        }
    }
}
