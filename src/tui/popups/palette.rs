//! The command palette: type words, enter runs the highlighted action.

use super::centered;
use crate::tui::app::App;
use crate::tui::app::palette_matches;
use crate::tui::components::{block, styled};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};

pub fn draw(f: &mut Frame, app: &App, body: Rect, query: &str, selected: usize) {
    let rect = centered(body, 72, body.height.saturating_sub(2).clamp(5, 18));
    f.render_widget(Clear, rect);
    let b = block(app, "Command palette · ↑↓ enter esc");
    let inner = b.inner(rect);
    f.render_widget(b, rect);
    let mut lines = vec![Line::from(format!(": {query}▏"))];
    let ctx = app.context();
    let rows = inner.height.saturating_sub(1) as usize;
    let matches = palette_matches(query);
    let skip = selected.saturating_sub(rows.saturating_sub(1));
    for (i, e) in matches.iter().enumerate().skip(skip).take(rows) {
        let keys = app.config.keymap.keys_for(ctx, e.command).join(", ");
        let mut line = Line::from(vec![styled(app, "ui.text", format!("{:<22}", e.name)), styled(app, "ui.dim", format!("{} ", e.description)), styled(app, "ui.hint.key", keys)]);
        if i == selected {
            line = line.patch_style(app.config.theme.get("ui.selected"));
        }
        lines.push(line);
    }
    f.render_widget(Paragraph::new(lines), inner);
}
