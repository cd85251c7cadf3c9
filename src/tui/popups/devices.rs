//! The device picker: each configured device, its kind and whether it
//! answers now; the one candidates are timed on is marked.

use super::centered;
use crate::tui::app::App;
use crate::tui::components::{block, styled};
use crate::tui::requests::DeviceRow;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};

pub fn draw(f: &mut Frame, app: &App, body: Rect, rows: &[DeviceRow], selected: usize) {
    let rect = centered(body, 90, (rows.len() as u16 + 3).clamp(5, 18));
    f.render_widget(Clear, rect);
    let b = block(app, "Time candidates on · ↑↓ enter esc");
    let inner = b.inner(rect);
    f.render_widget(b, rect);
    let mut lines = vec![];
    for (i, r) in rows.iter().enumerate() {
        let current = if r.name == app.device { "● " } else { "  " };
        let (status, style) = if r.reachable { ("reachable", "status.correct") } else { ("unreachable", "status.failed") };
        let mut line = Line::from(vec![
            styled(app, "ui.text", format!("{current}{:<16}", r.name)),
            styled(app, "ui.dim", format!("{:<7}", r.kind)),
            styled(app, style, format!("{status:<12}")),
            styled(app, "ui.dim", r.detail.clone()),
        ]);
        if i == selected {
            line = line.patch_style(app.config.theme.get("ui.selected"));
        }
        lines.push(line);
    }
    lines.push(Line::from(styled(app, "ui.hint", "devices come from <config>/devices.toml (kwb devices)")));
    f.render_widget(Paragraph::new(lines), inner);
}
