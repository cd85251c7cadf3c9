//! One widget per file; each draws one screen from the state.

pub mod candidate_tree;
pub mod diff_view;
pub mod ir_view;
pub mod jobs;
pub mod profiler;
pub mod speedup_chart;
pub mod task_browser;

use crate::session::{Node, NodeStatus};
use crate::tui::app::App;
use ratatui::style::Style;
use ratatui::text::Span;
use ratatui::widgets::{Block, BorderType, Borders};

pub fn block<'a>(app: &App, title: impl Into<String>) -> Block<'a> {
    let theme = &app.config.theme;
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .border_style(theme.get("ui.border"))
        .title(Span::styled(format!(" {} ", title.into()), theme.get("ui.title")))
}

/// A node's status in words, and the theme key that colours it.
pub fn status_of(n: &Node) -> (String, &'static str) {
    match (&n.status, &n.result) {
        (NodeStatus::Failed, Some(r)) => (format!("failed: {}", r.failure_class.map(|c| c.to_string()).unwrap_or_else(|| "unknown".into())), "status.failed"),
        (NodeStatus::Correct, Some(r)) => match (r.speedup_median, r.timing_valid) {
            (Some(x), true) => (format!("{x:.3}x"), "status.correct"),
            (Some(x), false) => (format!("{x:.3}x?"), "status.building"),
            _ => ("correct".into(), "status.correct"),
        },
        (NodeStatus::Evaluating, _) => ("building".into(), "status.building"),
        _ => ("new".into(), "status.new"),
    }
}

pub fn bytes(b: f64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB"];
    let mut v = b;
    let mut i = 0;
    while v >= 1024.0 && i < units.len() - 1 {
        v /= 1024.0;
        i += 1;
    }
    if i == 0 { format!("{v:.0} {}", units[i]) } else { format!("{v:.1} {}", units[i]) }
}

pub fn count(v: f64) -> String {
    let (d, s) = if v >= 1e12 {
        (1e12, "T")
    } else if v >= 1e9 {
        (1e9, "G")
    } else if v >= 1e6 {
        (1e6, "M")
    } else if v >= 1e3 {
        (1e3, "k")
    } else {
        (1.0, "")
    };
    if s.is_empty() { format!("{v:.0} ") } else { format!("{:.2} {s}", v / d) }
}

/// Cuts a string to `w` columns (by chars), marking the cut.
pub fn fit(s: &str, w: usize) -> String {
    if s.chars().count() <= w {
        s.to_string()
    } else if w == 0 {
        String::new()
    } else {
        let mut t: String = s.chars().take(w - 1).collect();
        t.push('…');
        t
    }
}

pub fn styled(app: &App, key: &str, text: impl Into<String>) -> Span<'static> {
    Span::styled(text.into(), app.config.theme.get(key).patch(Style::default()))
}

/// Drops the first `n` characters of a styled line (horizontal scroll).
pub fn skip_cols(line: &ratatui::text::Line<'static>, n: usize) -> ratatui::text::Line<'static> {
    if n == 0 {
        return line.clone();
    }
    let mut left = n;
    let mut spans = vec![];
    for s in &line.spans {
        let len = s.content.chars().count();
        if left >= len {
            left -= len;
            continue;
        }
        spans.push(Span::styled(s.content.chars().skip(left).collect::<String>(), s.style));
        left = 0;
    }
    ratatui::text::Line::from(spans)
}
