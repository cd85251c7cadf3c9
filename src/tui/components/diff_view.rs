//! The diff between a node and its parent (or two marked nodes), unified or
//! side by side, with changed words emphasised. Only visible rows are drawn,
//! so a 20,000-line diff costs what a screenful does.

use super::{block, fit, styled};
use crate::diff::{DiffLine, Tag};
use crate::tui::app::App;
use crate::tui::app::panes::{DiffBase, SideLine, UnifiedLine};
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let Some(v) = app.diff.view.as_ref().filter(|_| app.session.is_some()) else {
        f.render_widget(Paragraph::new("Select a node in the tree (2) to diff it against its parent; m marks two nodes to compare.").block(block(app, "Diff")), area);
        return;
    };
    let base = if app.diff.base() == DiffBase::Marks { "marked" } else { "parent" };
    let mode = if app.diff.side_by_side { "side by side" } else { "unified" };
    let found = if app.diff.search.query.is_empty() { String::new() } else { format!(" · /{} {}", app.diff.search.query, app.diff.search.matches.len()) };
    let title = format!("Diff ({base}, {mode}) · {} · +{} -{}{found}", v.title, v.inserted, v.deleted);
    let b = block(app, title);
    let inner = b.inner(area);
    f.render_widget(b, area);
    if v.key.0.node == v.key.1.node {
        f.render_widget(Paragraph::new(styled(app, "ui.dim", format!("#{} is the root: it has no parent to compare with (m marks two nodes)", v.key.0.node))), inner);
        return;
    }
    if v.unified.is_empty() {
        f.render_widget(Paragraph::new(styled(app, "ui.dim", "no differences at this layer (L cycles layers, [ ] kernels)")), inner);
        return;
    }
    let h = inner.height as usize;
    let matches = &app.diff.search.matches;
    let lines: Vec<Line> = if app.diff.side_by_side {
        let col = (inner.width as usize).saturating_sub(1) / 2;
        v.side
            .iter()
            .enumerate()
            .skip(app.diff.scroll)
            .take(h)
            .map(|(i, l)| match l {
                SideLine::Header(hd) => Line::from(styled(app, "diff.hunk", hd.clone())),
                SideLine::Row(r) => {
                    let mut spans = cell(app, r.left.as_ref(), col, app.diff.hscroll);
                    spans.push(styled(app, "ui.border", "│"));
                    spans.extend(cell(app, r.right.as_ref(), col, app.diff.hscroll));
                    mark(app, Line::from(spans), matches.binary_search(&i).is_ok())
                }
            })
            .collect()
    } else {
        v.unified
            .iter()
            .enumerate()
            .skip(app.diff.scroll)
            .take(h)
            .map(|(i, l)| match l {
                UnifiedLine::Header(hd) => Line::from(styled(app, "diff.hunk", hd.clone())),
                UnifiedLine::Line(dl) => {
                    let no = |n: Option<usize>| n.map(|n| format!("{n:>5}")).unwrap_or_else(|| "     ".into());
                    let mut spans = vec![styled(app, "diff.lineno", format!("{} {} ", no(dl.old_no), no(dl.new_no)))];
                    spans.extend(segments(app, dl, usize::MAX, app.diff.hscroll));
                    mark(app, Line::from(spans), matches.binary_search(&i).is_ok())
                }
            })
            .collect()
    };
    f.render_widget(Paragraph::new(lines), inner);
}

fn mark(app: &App, line: Line<'static>, hit: bool) -> Line<'static> {
    if !hit {
        return line;
    }
    let mut spans = line.spans;
    if let Some(first) = spans.first_mut() {
        *first = first.clone().patch_style(app.config.theme.get("search.match"));
    }
    Line::from(spans)
}

fn keys(tag: Tag) -> (&'static str, &'static str, &'static str) {
    match tag {
        Tag::Equal => (" ", "ui.text", "ui.text"),
        Tag::Delete => ("-", "diff.minus", "diff.minus.emph"),
        Tag::Insert => ("+", "diff.plus", "diff.plus.emph"),
    }
}

/// A line's segments with the changed words emphasised, cut to `width` after skipping `skip` chars.
fn segments(app: &App, l: &DiffLine, width: usize, skip: usize) -> Vec<Span<'static>> {
    let (sign, plain, emph) = keys(l.tag);
    let mut spans = vec![styled(app, plain, sign)];
    let (mut used, mut skipped) = (1usize, 0usize);
    for seg in &l.segments {
        let mut text: String = seg.text.clone();
        if skipped < skip {
            let n = text.chars().count();
            let drop = (skip - skipped).min(n);
            skipped += drop;
            text = text.chars().skip(drop).collect();
        }
        if used >= width {
            break;
        }
        let t = fit(&text, width - used);
        used += t.chars().count();
        spans.push(styled(app, if seg.emphasized { emph } else { plain }, t));
    }
    spans
}

fn cell(app: &App, l: Option<&DiffLine>, col: usize, skip: usize) -> Vec<Span<'static>> {
    let Some(l) = l else { return vec![Span::raw(" ".repeat(col))] };
    let no = l.old_no.or(l.new_no).map(|n| format!("{n:>5} ")).unwrap_or_else(|| "      ".into());
    let mut spans = vec![styled(app, "diff.lineno", no)];
    let body = segments(app, l, col.saturating_sub(6), skip);
    let used: usize = body.iter().map(|s| s.content.chars().count()).sum::<usize>() + 6;
    spans.extend(body);
    spans.push(Span::raw(" ".repeat(col.saturating_sub(used))));
    spans
}
