//! Speedup of every evaluated candidate over time, the best-so-far line and
//! the baseline at 1x.

use super::block;
use crate::tui::app::App;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::symbols::Marker;
use ratatui::text::Span;
use ratatui::widgets::{Axis, Chart, Dataset, GraphType, Paragraph};

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let theme = &app.config.theme;
    let Some(s) = app.session.as_ref().filter(|s| !s.trace.is_empty()) else {
        f.render_widget(Paragraph::new("No evaluated candidates yet.").block(block(app, "Speedup trace")), area);
        return;
    };
    let ok: Vec<(f64, f64)> = s.trace.iter().filter_map(|p| p.speedup.map(|v| (p.t_s, v))).collect();
    let failed: Vec<(f64, f64)> = s.trace.iter().filter(|p| p.speedup.is_none()).map(|p| (p.t_s, 0.0)).collect();
    let mut best = vec![];
    let mut cur: Option<f64> = None;
    for p in &s.trace {
        if let Some(v) = p.speedup {
            cur = Some(cur.map_or(v, |c| c.max(v)));
        }
        if let Some(c) = cur {
            best.push((p.t_s, c));
        }
    }
    let t_max = s.trace.last().map(|p| p.t_s).unwrap_or(1.0).max(1.0);
    let y_max = ok.iter().map(|p| p.1).fold(1.0, f64::max) * 1.15;
    let baseline = vec![(0.0, 1.0), (t_max, 1.0)];
    let datasets = vec![
        Dataset::default().name("baseline 1x").marker(Marker::Braille).graph_type(GraphType::Line).style(theme.get("chart.baseline")).data(&baseline),
        Dataset::default().name("best so far").marker(Marker::Braille).graph_type(GraphType::Line).style(theme.get("chart.best")).data(&best),
        Dataset::default().name("candidate").marker(Marker::Dot).graph_type(GraphType::Scatter).style(theme.get("chart.candidate")).data(&ok),
        Dataset::default().name("failed").marker(Marker::Dot).graph_type(GraphType::Scatter).style(theme.get("chart.failed")).data(&failed),
    ];
    let best_now = best.last().map(|b| format!(" · best {:.3}x", b.1)).unwrap_or_default();
    // The devices it was timed on: speedups on two devices are not one series.
    let mut devices: Vec<&str> = s.trace.iter().map(|p| p.device.as_str()).collect();
    devices.dedup();
    let on = if devices.is_empty() { String::new() } else { format!(" · on {}", devices.join(" then ")) };
    let title = format!("Speedup trace{on} · {} evaluated{best_now}", s.trace.len());
    let label = |v: String| Span::styled(v, theme.get("ui.dim"));
    let chart = Chart::new(datasets)
        .block(block(app, title))
        .x_axis(Axis::default().title("s").bounds([0.0, t_max]).labels([label("0".into()), label(format!("{:.0}", t_max / 2.0)), label(format!("{t_max:.0}"))]))
        .y_axis(Axis::default().title("x").bounds([0.0, y_max]).labels([label("0".into()), label(format!("{:.2}", y_max / 2.0)), label(format!("{y_max:.2}"))]));
    f.render_widget(chart, area);
}
