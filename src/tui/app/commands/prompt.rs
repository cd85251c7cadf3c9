//! Typing into the palette and the prompts, and what a submitted prompt does.

use super::super::{App, Level, Popup, PromptPurpose, Tab};
use crate::agent::Decision;
use crate::tui::action::REGISTRY;
use crate::tui::requests::Effect;
use crossterm::event::{KeyCode, KeyEvent};

impl App {
    pub(super) fn prompt(&mut self, purpose: PromptPurpose, text: String) {
        self.popup = Some(Popup::Prompt { purpose, text });
    }

    /// Typing into the palette or a prompt.
    pub(in crate::tui::app) fn text_input(&mut self, k: KeyEvent) {
        let Some(popup) = self.popup.take() else { return };
        match popup {
            Popup::Palette { mut query, mut selected } => match k.code {
                KeyCode::Esc => {}
                KeyCode::Enter => {
                    if let Some(e) = palette_matches(&query).get(selected) {
                        self.command(e.command);
                    }
                }
                KeyCode::Up => self.popup = Some(Popup::Palette { query, selected: selected.saturating_sub(1) }),
                KeyCode::Down => {
                    selected = (selected + 1).min(palette_matches(&query).len().saturating_sub(1));
                    self.popup = Some(Popup::Palette { query, selected });
                }
                KeyCode::Backspace => {
                    query.pop();
                    self.popup = Some(Popup::Palette { query, selected: 0 });
                }
                KeyCode::Char(c) => {
                    query.push(c);
                    self.popup = Some(Popup::Palette { query, selected: 0 });
                }
                _ => self.popup = Some(Popup::Palette { query, selected }),
            },
            Popup::Prompt { purpose, mut text } => match k.code {
                KeyCode::Char('u') if k.modifiers.contains(crossterm::event::KeyModifiers::CONTROL) => {
                    self.popup = Some(Popup::Prompt { purpose, text: String::new() });
                }
                KeyCode::Esc => {
                    if purpose == PromptPurpose::Filter {
                        self.tasks.filter.clear();
                        self.refilter();
                    }
                }
                KeyCode::Enter => self.submit(purpose, text),
                KeyCode::Backspace | KeyCode::Char(_) => {
                    match k.code {
                        KeyCode::Char(c) => text.push(c),
                        _ => {
                            text.pop();
                        }
                    }
                    if purpose == PromptPurpose::Filter {
                        self.tasks.filter = text.clone();
                        self.tasks.selected = 0;
                        self.refilter();
                    }
                    self.popup = Some(Popup::Prompt { purpose, text });
                }
                _ => self.popup = Some(Popup::Prompt { purpose, text }),
            },
            other => self.popup = Some(other),
        }
    }

    fn submit(&mut self, purpose: PromptPurpose, text: String) {
        match purpose {
            PromptPurpose::Filter => {}
            PromptPurpose::Search => {
                if self.tab == Tab::Diff {
                    self.diff.search.query = text;
                    self.diff.rerun_search();
                    if let Some(l) = self.diff.search.matches.first() {
                        self.diff.scroll = l.saturating_sub(3);
                    }
                } else if let Some((_, h)) = &self.ir.view {
                    self.ir.search.query = text;
                    self.ir.search.run((0..h.len()).map(|i| h.source_line(i).to_string()));
                    if let Some(l) = self.ir.search.matches.first() {
                        self.ir.scroll = l.saturating_sub(3);
                    }
                }
                let n = if self.tab == Tab::Diff { self.diff.search.matches.len() } else { self.ir.search.matches.len() };
                self.toast(Level::Info, format!("{n} matching lines"));
            }
            PromptPurpose::OpenSession => self.effects.push(Effect::LoadSession(text.trim().into())),
            PromptPurpose::JumpToEvent => match text.trim().parse::<usize>() {
                Ok(k) if self.session.is_some() => {
                    let s = self.session.as_mut().unwrap();
                    s.playing = false;
                    s.seek(k);
                    self.session_changed();
                }
                _ => self.toast(Level::Warn, "type an event number (the replay bar shows them)"),
            },
            PromptPurpose::Hint => {
                if let Some(r) = self.review.take() {
                    let _ = r.reply.send(Decision::Retry { hint: text.clone() });
                    self.run.status = format!("asked {} again: {text}", r.agent);
                }
            }
        }
    }
}

/// Palette entries matching a query (every word must appear in the name or description).
pub fn palette_matches(query: &str) -> Vec<&'static crate::tui::action::Entry> {
    let words: Vec<String> = query.to_lowercase().split_whitespace().map(str::to_string).collect();
    REGISTRY
        .iter()
        .filter(|e| {
            let hay = format!("{} {} {}", e.name, e.description.to_lowercase(), e.group);
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect()
}
