//! The candidate tree: one row per visible node (status, speedup, layer
//! edited, author), and the selected node's detail.

use super::{block, bytes, fit, status_of, styled};
use crate::session::Node;
use crate::tui::app::App;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

/// Past this depth the indent stops growing and the depth is printed instead.
const MAX_INDENT: usize = 12;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let Some(s) = &app.session else {
        let task = app.current_task().unwrap_or_else(|| "a task".into());
        let msg = format!(
            "No session open.\n\nr runs the agents on {task} in step mode, a in auto mode, E edits a layer by hand.\no opens a session file (samples are in sessions/); 1 goes back to the tasks."
        );
        f.render_widget(Paragraph::new(msg).block(block(app, "Candidate tree")).wrap(Wrap { trim: false }), area);
        return;
    };
    let [tree_area, detail] = if app.expanded {
        [area, Rect::default()]
    } else if area.width >= 100 {
        Layout::horizontal([Constraint::Percentage(58), Constraint::Percentage(42)]).areas(area)
    } else {
        Layout::vertical([Constraint::Min(5), Constraint::Length(8)]).areas(area)
    };
    let best = s.tree.best().map(Node::id);
    let title = format!("Candidate tree · {} nodes{}", s.tree.nodes.len(), best.map(|b| format!(" · best #{b}")).unwrap_or_default());
    let b = block(app, title);
    let inner = b.inner(tree_area);
    f.render_widget(b, tree_area);
    let w = inner.width as usize;
    let mut lines = vec![];
    for row in app.tree.rows.iter().skip(app.tree.scroll).take(inner.height as usize) {
        let n = &s.tree.nodes[row.id as usize];
        let indent = if row.depth > MAX_INDENT { format!("{}·{} ", "  ".repeat(MAX_INDENT), row.depth) } else { "  ".repeat(row.depth) };
        let fold = match (row.has_children, row.collapsed) {
            (false, _) => "  ",
            (true, false) => "▾ ",
            (true, true) => "▸ ",
        };
        let (status, key) = status_of(n);
        let kernel = n.record.kernel.as_deref().map(|k| format!(" {k}")).unwrap_or_default();
        let mut tail = String::new();
        if Some(n.id()) == best {
            tail += " ★best";
        }
        if app.tree.marks.contains(&n.id()) {
            tail += " ◆";
        }
        if app.tree.branch_from == Some(n.id()) {
            tail += " ⎇";
        }
        let head = format!("{indent}{fold}#{} {}{kernel} {} ", n.id(), n.record.layer, n.record.author);
        let mut spans = vec![
            styled(app, "tree.guide", fit(&head, w)),
            styled(app, key, status.clone()),
            styled(app, if Some(n.id()) == best { "tree.best" } else { "tree.marked" }, tail),
        ];
        if row.id == app.tree.selected {
            let st = app.config.theme.get("tree.selected");
            spans = spans.into_iter().map(|sp| sp.patch_style(st)).collect();
        }
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines), inner);
    if !app.expanded {
        draw_detail(f, app, detail);
    }
}

fn draw_detail(f: &mut Frame, app: &App, area: Rect) {
    let Some(n) = app.selected_node() else {
        f.render_widget(block(app, "Node"), area);
        return;
    };
    let r = &n.record;
    let (status, key) = status_of(n);
    let mut lines = vec![
        Line::from(vec![
            styled(app, "ui.title", format!("#{} ", r.id)),
            Span::raw(format!("{}{} by {} · ", r.layer, r.kernel.as_deref().map(|k| format!(" {k}")).unwrap_or_default(), r.author)),
            styled(app, key, status),
        ]),
        Line::from(styled(app, "ui.text", if r.rationale.is_empty() { "(no rationale)".to_string() } else { r.rationale.clone() })),
    ];
    if let Some(p) = r.parent {
        lines.push(Line::from(styled(app, "ui.dim", format!("parent #{p} · {} children", n.children.len()))));
    }
    if let Some(res) = &n.result {
        let ms = |v: Option<f64>| v.map(|x| format!("{x:.4} ms")).unwrap_or_else(|| "—".into());
        lines.push(Line::from(format!("candidate {} · baseline {}", ms(res.candidate_ms), ms(res.baseline_ms))));
        let mut figs = vec![];
        if let Some(c) = res.compile_s {
            figs.push(format!("compile {c:.2} s"));
        }
        if let Some(sh) = res.roofline_share {
            figs.push(format!("roofline {:.1}%", sh * 100.0));
        }
        if let Some(m) = res.peak_memory_bytes {
            figs.push(format!("peak {}", bytes(m as f64)));
        }
        if let Some(ci) = res.ci {
            figs.push(format!("±{:.1}%", ci * 100.0));
        }
        lines.push(Line::from(styled(app, "ui.dim", figs.join(" · "))));
        if let Some(fail) = &res.failure {
            lines.push(Line::from(styled(app, "status.failed", fail.message.lines().next().unwrap_or("").to_string())));
        }
    }
    if let Some(t) = &r.trace {
        lines.push(Line::from(styled(app, "ui.dim", format!("trace: {}", t.join("; ")))));
    }
    if n.cost.tokens_in + n.cost.tokens_out > 0 || n.cost.device_s > 0.0 {
        lines.push(Line::from(styled(app, "ui.dim", format!("cost: {:.1} s device · {} tokens", n.cost.device_s, n.cost.tokens_in + n.cost.tokens_out))));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }).block(block(app, "Node")), area);
}
