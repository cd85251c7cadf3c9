//! Floating windows: help, the command palette, prompts, the device picker
//! and the review of a proposal in step mode.

pub mod devices;
pub mod help;
pub mod palette;
pub mod review;

use crate::tui::app::{App, Popup};
use crate::tui::components::block;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};

pub fn draw(f: &mut Frame, app: &App, body: Rect) {
    match &app.popup {
        None => {}
        Some(Popup::Help { scroll }) => help::draw(f, app, body, *scroll),
        Some(Popup::Palette { query, selected }) => palette::draw(f, app, body, query, *selected),
        Some(Popup::Devices { rows, selected }) => devices::draw(f, app, body, rows, *selected),
        Some(Popup::Prompt { purpose, text }) => {
            let w = body.width.saturating_sub(4).min(70);
            let rect = Rect { x: body.x + (body.width - w) / 2, y: body.y + 1, width: w, height: 3 };
            f.render_widget(Clear, rect);
            let line = Line::from(format!("{text}▏"));
            f.render_widget(Paragraph::new(line).block(block(app, format!("{} · enter / esc", purpose.label()))), rect);
        }
    }
}

/// A rectangle of at most `w` x `h` centred in `area`.
pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect { x: area.x + (area.width - w) / 2, y: area.y + (area.height - h) / 2, width: w, height: h }
}
