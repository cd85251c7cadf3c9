//! The task browser: tasks by level and suite with their best speedup,
//! status and a sparkline of past sessions; beside it the task's detail,
//! size figures and its PyTorch source.

use super::{block, count, fit, styled};
use crate::tui::app::App;
use crate::tui::sessions::sparkline;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let wide = area.width >= 100;
    let [list, detail] = if app.expanded {
        [area, Rect::default()]
    } else if wide {
        Layout::horizontal([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(area)
    } else {
        Layout::vertical([Constraint::Percentage(55), Constraint::Percentage(45)]).areas(area)
    };
    draw_list(f, app, list);
    if !app.expanded {
        draw_detail(f, app, detail);
    }
}

fn draw_list(f: &mut Frame, app: &App, area: Rect) {
    let suite = app.tasks.suite.as_deref().unwrap_or("all");
    let filter = if app.tasks.filter.is_empty() { String::new() } else { format!(" /{}", app.tasks.filter) };
    let title = format!("Tasks · {suite}{filter} · {}", app.tasks.rows.len());
    let b = block(app, title);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let Some(set) = &app.tasks.set else {
        let msg = app.tasks.error.clone().unwrap_or_else(|| "loading tasks…".into());
        f.render_widget(Paragraph::new(msg), inner);
        return;
    };
    let w = inner.width as usize;
    let spark_w = if w >= 60 { 10 } else { 0 };
    let name_w = w.saturating_sub(4 + 9 + 12 + spark_w + 2).max(8);
    let mut lines = vec![Line::from(styled(app, "ui.dim", format!("{:<3} {:<name_w$} {:>8} {:<11} {}", "lvl", "task", "best", "status", if spark_w > 0 { "trend" } else { "" })))];
    let height = inner.height.saturating_sub(1) as usize;
    for (row, &i) in app.tasks.rows.iter().enumerate().skip(app.tasks.scroll).take(height) {
        let t = &set.tasks[i];
        let sessions = app.index.get(&t.meta.id);
        let latest = sessions.and_then(|v| v.first());
        // Speedups are the device's own: the best shown is on the device the
        // workbench times on (the detail pane lists the others).
        let best = sessions.and_then(|v| v.iter().filter_map(|s| s.best_by_device.get(&app.device).copied()).reduce(f64::max));
        let best_s = best.map(|b| format!("{b:.2}x")).unwrap_or_else(|| "—".into());
        let running = app.run.active && app.task.as_deref() == Some(t.meta.id.as_str());
        let (status, key) = match (running, latest) {
            (true, _) => ("running".to_string(), "status.building"),
            (false, Some(s)) if best.is_some() => (format!("{} evals", s.evaluated), "status.correct"),
            (false, Some(_)) if sessions.is_some_and(|v| v.iter().any(|s| !s.best_by_device.is_empty())) => ("elsewhere".to_string(), "status.new"),
            (false, Some(s)) if s.failed > 0 => (format!("{} failed", s.failed), "status.failed"),
            (false, Some(_)) => ("opened".to_string(), "status.new"),
            (false, None) => ("untried".to_string(), "status.new"),
        };
        let spark = latest.map(|s| sparkline(&s.best_so_far, spark_w)).unwrap_or_default();
        let selected = row == app.tasks.selected;
        let mut spans = vec![
            Span::raw(format!("L{:<2} ", t.meta.level)),
            Span::raw(format!("{:<name_w$} ", fit(&t.meta.id, name_w))),
            styled(app, if best.is_some_and(|b| b > 1.0) { "tree.best" } else { "ui.text" }, format!("{best_s:>8} ")),
            styled(app, key, format!("{:<11} ", fit(&status, 11))),
            styled(app, "spark", spark),
        ];
        if selected {
            let st = app.config.theme.get("ui.selected");
            spans = spans.into_iter().map(|s| s.patch_style(st)).collect();
        }
        lines.push(Line::from(spans));
    }
    f.render_widget(Paragraph::new(lines), inner);
}

fn draw_detail(f: &mut Frame, app: &App, area: Rect) {
    let Some(t) = app.selected_task() else {
        f.render_widget(block(app, "Task"), area);
        return;
    };
    let b = block(app, format!("{} · level {}", t.meta.id, t.meta.level));
    let inner = b.inner(area);
    f.render_widget(b, area);
    let mut lines = vec![
        Line::from(styled(app, "ui.text", fit(&t.meta.title, inner.width as usize))),
        Line::from(styled(app, "ui.dim", format!("domains {} · {} · atol {} rtol {}", t.meta.domains.join(", "), t.meta.dtype, t.meta.tolerance.atol, t.meta.tolerance.rtol))),
    ];
    match t.reference.as_ref().and_then(|r| r.size.as_ref()) {
        Some(s) => lines.push(Line::from(styled(
            app,
            "ui.dim",
            format!("{}FLOP · {} moved · {} params · {} kernels", count(s.flops), super::bytes(s.bytes_moved as f64), count(s.params as f64), s.kernels),
        ))),
        None => lines.push(Line::from(styled(app, "ui.dim", "size: not imported yet (kwb tasks import)"))),
    }
    let sessions = app.index.get(&t.meta.id).map(Vec::len).unwrap_or(0);
    lines.push(Line::from(styled(app, "ui.dim", format!("{sessions} session(s) · enter opens the latest · r/a run the agents"))));
    // Best per device, across the task's sessions: a speedup belongs to
    // the device it was timed on.
    let mut by_device = std::collections::BTreeMap::<&str, f64>::new();
    for s in app.index.get(&t.meta.id).into_iter().flatten() {
        for (d, b) in &s.best_by_device {
            let e = by_device.entry(d.as_str()).or_insert(*b);
            *e = e.max(*b);
        }
    }
    if !by_device.is_empty() {
        let parts: Vec<String> = by_device.iter().map(|(d, b)| format!("{d} {b:.2}x{}", if *d == app.device { " (timing here)" } else { "" })).collect();
        lines.push(Line::from(styled(app, "ui.dim", fit(&format!("best by device: {}", parts.join(" · ")), inner.width as usize))));
    }
    let head = lines.len() as u16;
    f.render_widget(Paragraph::new(lines), Rect { height: head.min(inner.height), ..inner });
    let code = Rect { y: inner.y + head, height: inner.height.saturating_sub(head), ..inner };
    if let Some((id, h)) = &app.tasks.source
        && *id == t.meta.id
    {
        let src: Vec<Line> = h.lines.iter().skip(app.tasks.source_scroll).take(code.height as usize).cloned().collect();
        f.render_widget(Paragraph::new(src), code);
    }
}
