//! The engine, the run and its jobs in flight, and the log.

use super::{block, styled};
use crate::session::NodeStatus;
use crate::tui::app::{App, EngineState};
use crate::tui::view::spinner;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::Line;
use ratatui::widgets::{Paragraph, Wrap};

pub fn draw(f: &mut Frame, app: &App, area: Rect) {
    let [jobs, log] = Layout::vertical([Constraint::Length(8.min(area.height / 2)), Constraint::Min(3)]).areas(area);
    let mut lines = vec![];
    let engine = match &app.engine {
        EngineState::Off => "off (starts in the background)".to_string(),
        EngineState::Starting(w) => format!("{} starting: {w}", spinner(app)),
        EngineState::Ready => match &app.device_lost {
            None => format!("ready · timing on {}", app.device),
            Some(why) => format!("ready · {} unreachable at the last evaluation: {why}", app.device),
        },
        EngineState::Failed(e) => format!("failed: {e}"),
    };
    lines.push(Line::from(vec![styled(app, "ui.title", "engine  "), styled(app, "ui.text", engine)]));
    let run = if app.run.active {
        let layer = app.run.next_layer.map(|l| l.to_string()).unwrap_or_else(|| "agents' choice".into());
        format!("{} {} · {} · next layer {layer}{}", app.run.mode.label(), crate::agent::orchestrator::strategy_name(app.run.strategy), app.run.status, if app.run.paused { " · paused (p resumes)" } else { "" })
    } else {
        format!("idle · last: {} · x stops, p pauses", app.run.status)
    };
    lines.push(Line::from(vec![styled(app, "ui.title", "run     "), styled(app, "ui.text", run)]));
    if let Some(m) = &app.run.manual {
        lines.push(Line::from(vec![styled(app, "ui.title", "manual  "), styled(app, "ui.text", format!("{m} · every save is evaluated · x stops watching"))]));
    }
    if let Some(s) = &app.session {
        for n in s.tree.nodes.iter().filter(|n| n.status == NodeStatus::Evaluating) {
            let elapsed = app.job_started.get(&n.id()).map(|t| format!(" · {:.1} s", app.clock_ms.saturating_sub(*t) as f64 / 1000.0)).unwrap_or_default();
            lines.push(Line::from(vec![
                styled(app, "status.building", format!("{} ", spinner(app))),
                styled(app, "ui.text", format!("#{} {} by {}: building, checking, timing on {}{elapsed} · x stops the run", n.id(), n.record.layer, n.record.author, app.device)),
            ]));
        }
    }
    if app.review.is_some() {
        lines.push(Line::from(styled(app, "status.building", "a proposal waits for your review (a accept, r reject, e edit, h hint)")));
    }
    f.render_widget(Paragraph::new(lines).wrap(Wrap { trim: true }).block(block(app, "Engine and jobs")), jobs);
    let b = block(app, format!("Log · {} lines", app.log.len()));
    let inner = b.inner(log);
    f.render_widget(b, log);
    let h = inner.height as usize;
    let end = app.log.len().saturating_sub(app.log_scroll);
    let start = end.saturating_sub(h);
    let lines: Vec<Line> = app.log.iter().skip(start).take(end - start).map(|l| {
        let key = if l.starts_with("error") { "ui.toast.error" } else if l.starts_with("warn") { "ui.toast.warn" } else { "ui.dim" };
        Line::from(styled(app, key, l.clone()))
    }).collect();
    f.render_widget(Paragraph::new(lines), inner);
}
