//! The hardware agent's view of a node: per-kernel times and their share,
//! compute or memory bound, roofline share, peak memory, and the
//! bottleneck it routed to a layer with its evidence. The profile is JSON
//! from the log, so every field is optional here.

use super::{block, bytes, fit, styled};
use crate::tui::app::App;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};
use serde_json::Value;

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let Some(s) = &app.session else {
        f.render_widget(Paragraph::new("Open a session to see its profiles.").block(block(app, "Profiler")), area);
        return;
    };
    let sel = app.tree.selected;
    // The selected node's profile, else the nearest profiled ancestor's.
    let profiled = s.tree.path_to(sel).into_iter().rev().find(|id| s.profiles.contains_key(id));
    let node = s.tree.get(sel);
    let title = match profiled {
        Some(p) if p == sel => format!("Profiler · #{sel}"),
        Some(p) => format!("Profiler · #{sel} (profile of ancestor #{p})"),
        None => format!("Profiler · #{sel} (not profiled)"),
    };
    let b = block(app, title);
    let inner = b.inner(area);
    f.render_widget(b, area);
    let [figs, rest] = Layout::vertical([Constraint::Length(2), Constraint::Min(1)]).areas(inner);
    let mut head = vec![];
    if let Some(r) = node.and_then(|n| n.result.as_ref()) {
        let ms = r.candidate_ms.map(|m| format!("{m:.4} ms")).unwrap_or_else(|| "—".into());
        let roof = r.roofline_share.map(|x| format!("{:.1}% of roofline", x * 100.0)).unwrap_or_else(|| "roofline —".into());
        let peak = r.peak_memory_bytes.map(|m| format!("peak memory {}", bytes(m as f64))).unwrap_or_else(|| "peak memory —".into());
        // The device it was timed on, whose peaks the roofline share is against.
        head.push(Line::from(format!("{ms} on {} · {roof} · {peak}", r.manifest.device)));
    } else {
        head.push(Line::from(styled(app, "ui.dim", "not evaluated yet")));
    }
    f.render_widget(Paragraph::new(head), figs);
    let Some(profile) = profiled.and_then(|p| s.profiles.get(&p)) else {
        f.render_widget(Paragraph::new(styled(app, "ui.dim", "No profile in the log for this branch yet: the hardware agent profiles nodes during layered runs.")).wrap(Wrap { trim: true }), rest);
        return;
    };
    let [table, routing] = Layout::vertical([Constraint::Min(3), Constraint::Length(6.min(rest.height / 2))]).areas(rest);
    draw_kernels(f, app, profile, table);
    draw_routing(f, app, profile, routing);
}

fn draw_kernels(f: &mut Frame, app: &App, profile: &Value, area: Rect) {
    let kernels = profile.get("kernels").and_then(Value::as_array).cloned().unwrap_or_default();
    let w = area.width as usize;
    let name_w = (w / 3).clamp(8, 30);
    let bar_w = w.saturating_sub(name_w + 26).max(4);
    let mut lines = vec![Line::from(styled(app, "ui.dim", format!("{:<name_w$} {:>10} {:>6} {:<7} share", "kernel", "ms", "share", "bound")))];
    for k in kernels.iter().take(area.height.saturating_sub(1) as usize) {
        let name = k.get("name").and_then(Value::as_str).unwrap_or("?");
        let ms = k.get("ms").and_then(Value::as_f64);
        let share = k.get("share").and_then(Value::as_f64).unwrap_or(0.0).clamp(0.0, 1.0);
        let bound = k.get("bound").and_then(Value::as_str).unwrap_or("?");
        let bar_key = if bound == "compute" { "bar.compute" } else { "bar.memory" };
        let filled = (share * bar_w as f64).round() as usize;
        lines.push(Line::from(vec![
            styled(app, "ui.text", format!("{:<name_w$} {:>10} {:>5.1}% {:<7} ", fit(name, name_w), ms.map(|m| format!("{m:.4}")).unwrap_or_else(|| "—".into()), share * 100.0, bound)),
            styled(app, bar_key, "█".repeat(filled)),
            styled(app, "ui.dim", "·".repeat(bar_w - filled.min(bar_w))),
        ]));
    }
    if kernels.is_empty() {
        lines.push(Line::from(styled(app, "ui.dim", "(the profile lists no kernels)")));
    }
    f.render_widget(Paragraph::new(lines), area);
}

fn draw_routing(f: &mut Frame, app: &App, profile: &Value, area: Rect) {
    let text = |k: &str| profile.get(k).map(|v| v.as_str().map(str::to_string).unwrap_or_else(|| v.to_string()));
    let lines = vec![
        Line::from(vec![styled(app, "ui.title", "bottleneck "), styled(app, "ui.text", text("bottleneck").unwrap_or_else(|| "—".into()))]),
        Line::from(vec![styled(app, "ui.title", "routed to  "), styled(app, "ui.text", text("route").unwrap_or_else(|| "—".into()))]),
        Line::from(vec![styled(app, "ui.title", "evidence   "), styled(app, "ui.dim", text("evidence").unwrap_or_else(|| "—".into()))]),
    ];
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }), area);
}
