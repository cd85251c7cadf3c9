//! One node's text at L0, L1 (per kernel) or L2 (per kernel), highlighted,
//! with line numbers, search matches and horizontal scroll.

use super::{block, skip_cols, styled};
use crate::tui::app::App;
use crate::tui::app::panes::label;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let Some((key, h)) = app.ir.view.as_ref().filter(|_| app.session.is_some()) else {
        f.render_widget(Paragraph::new("Open a session (o) or a task with sessions (1, enter) to see its IR.").block(block(app, "IR")), area);
        return;
    };
    let kernels = app.selected_node().map(|n| n.record.texts.kernels().len()).unwrap_or(0);
    let which = if key.kernel.is_some() && kernels > 1 { format!(" ({}/{kernels}, [ ] switch)", app.ir.kernel % kernels + 1) } else { String::new() };
    let found = if app.ir.search.query.is_empty() { String::new() } else { format!(" · /{} {} found", app.ir.search.query, app.ir.search.matches.len()) };
    let title = format!("IR · #{} {}{which} · {} lines{found} · L switches layer", key.node, label(key), h.len());
    let b = block(app, title);
    let inner = b.inner(area);
    f.render_widget(b, area);
    if h.is_empty() {
        f.render_widget(Paragraph::new(styled(app, "ui.dim", "(empty at this layer: L2 needs a kernel, and a node may not have derived it)")), inner);
        return;
    }
    let digits = h.len().to_string().len();
    let mut lines = vec![];
    for (i, line) in h.lines.iter().enumerate().skip(app.ir.scroll).take(inner.height as usize) {
        let num_key = if app.ir.search.matches.binary_search(&i).is_ok() { "search.match" } else { "diff.lineno" };
        let mut spans = vec![styled(app, num_key, format!("{:>digits$} ", i + 1))];
        spans.extend(skip_cols(line, app.ir.hscroll).spans);
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines), inner);
}
