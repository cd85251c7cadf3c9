//! The device picker: which device candidates are timed on. Switching
//! starts a new engine for that device; a run in progress keeps its own
//! until it ends, so the switch waits for it.

use super::super::{App, Level, Popup};
use crate::tui::action::Command;
use crate::tui::requests::{DeviceRow, Effect};
use crossterm::event::{KeyCode, KeyEvent};

impl App {
    pub(super) fn device_command(&mut self, c: Command) -> bool {
        if c != Command::PickDevice {
            return false;
        }
        if self.run.active || self.run.manual.is_some() {
            self.toast(Level::Warn, format!("candidates are being timed on {}: stop the run first (x), then pick a device", self.device));
        } else {
            self.effects.push(Effect::ListDevices);
            self.toast(Level::Info, "probing the configured devices…");
        }
        true
    }

    /// The probed devices arrived: open the picker on the current one.
    pub(in crate::tui::app) fn devices_listed(&mut self, result: Result<Vec<DeviceRow>, String>) {
        match result {
            Ok(rows) => {
                let selected = rows.iter().position(|r| r.name == self.device).unwrap_or(0);
                self.popup = Some(Popup::Devices { rows, selected });
            }
            Err(e) => self.toast(Level::Error, format!("devices: {e}")),
        }
    }

    pub(in crate::tui::app) fn device_switched(&mut self, result: Result<String, String>) {
        match result {
            Ok(name) => {
                self.log_line(format!("info: timing on {name} from now on"));
                self.toast(Level::Info, format!("timing on {name}; its engine is starting"));
                self.device = name;
                self.device_lost = None;
            }
            Err(e) => self.toast(Level::Error, e),
        }
    }

    /// An evaluation ended: a `device` failure marks the device lost (shown
    /// in the header and the jobs pane), any other outcome means it answered.
    pub(in crate::tui::app) fn device_seen(&mut self, result: &crate::eval::EvalResult) {
        let lost = result.failure_class == Some(crate::failure::FailureClass::Device);
        match (lost, self.device_lost.is_some()) {
            (true, _) => {
                let why = result.failure.as_ref().map(|f| f.message.clone()).unwrap_or_else(|| "no answer".into());
                if self.device_lost.is_none() {
                    self.toast(Level::Error, format!("{} went away: {why}", self.device));
                }
                self.device_lost = Some(why);
            }
            (false, true) => {
                self.device_lost = None;
                self.toast(Level::Info, format!("{} answers again", self.device));
            }
            (false, false) => {}
        }
    }

    /// Keys while the picker is open: move, enter picks, esc closes.
    pub(in crate::tui::app) fn device_input(&mut self, k: KeyEvent) {
        let Some(Popup::Devices { rows, mut selected }) = self.popup.take() else { return };
        match k.code {
            KeyCode::Esc | KeyCode::Char('q') => return,
            KeyCode::Up | KeyCode::Char('k') => selected = selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => selected = (selected + 1).min(rows.len().saturating_sub(1)),
            KeyCode::Enter => {
                let Some(row) = rows.get(selected) else { return };
                if row.name == self.device {
                    self.toast(Level::Info, format!("already timing on {}", row.name));
                } else if !row.reachable {
                    self.toast(Level::Warn, format!("{} cannot be reached now: {}", row.name, row.detail));
                    self.popup = Some(Popup::Devices { rows, selected });
                } else {
                    self.effects.push(Effect::SwitchDevice(row.name.clone()));
                }
                return;
            }
            _ => {}
        }
        self.popup = Some(Popup::Devices { rows, selected });
    }
}
