//! Every action with its keys in the focused context, grouped; generated
//! from the registry and the live keymap.

use super::centered;
use crate::tui::action::REGISTRY;
use crate::tui::app::App;
use crate::tui::components::{block, styled};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};

pub fn lines(app: &App) -> Vec<(String, String, String)> {
    let ctx = app.context();
    REGISTRY
        .iter()
        .map(|e| {
            let keys = app.config.keymap.keys_for(if e.group == "review" { "review" } else { ctx }, e.command);
            (e.group.to_string(), if keys.is_empty() { "—".into() } else { keys.join(", ") }, format!("{} — {}", e.name, e.description))
        })
        .collect()
}

pub fn draw(f: &mut Frame, app: &App, body: Rect, scroll: usize) {
    let rect = centered(body, 90, body.height.saturating_sub(2).max(6));
    f.render_widget(Clear, rect);
    let b = block(app, "Help · ↑↓ scroll · esc closes");
    let inner = b.inner(rect);
    f.render_widget(b, rect);
    let mut out = vec![];
    let mut group = String::new();
    for (g, keys, desc) in lines(app) {
        if g != group {
            out.push(Line::from(styled(app, "ui.title", g.clone())));
            group = g;
        }
        out.push(Line::from(vec![styled(app, "ui.hint.key", format!("  {keys:<14} ")), styled(app, "ui.text", desc)]));
    }
    let visible: Vec<Line> = out.into_iter().skip(scroll).take(inner.height as usize).collect();
    f.render_widget(Paragraph::new(visible), inner);
}
