//! Drawing: reads the state, never changes it, never waits. The frame is a
//! tab bar, a status line (task, session, replay or run), the focused
//! screen, and the hint bar; popups and toasts float above.

use super::app::{App, Level, TABS, Tab};
use super::components;
use super::popups;
use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

pub const MIN_WIDTH: u16 = 40;
pub const MIN_HEIGHT: u16 = 10;

pub fn body_top(_app: &App) -> u16 {
    2
}

pub fn body_height(app: &App) -> u16 {
    app.height.saturating_sub(3)
}

/// The tab under column `x` of the tab bar.
pub fn tab_at(x: u16) -> Option<Tab> {
    let mut col = 0u16;
    for (i, (tab, name)) in TABS.iter().enumerate() {
        let w = tab_label(i, name).chars().count() as u16;
        if x >= col && x < col + w {
            return Some(*tab);
        }
        col += w + 1;
    }
    None
}

fn tab_label(i: usize, name: &str) -> String {
    format!(" {} {name} ", i + 1)
}

pub fn draw(f: &mut Frame, app: &App) {
    let area = f.area();
    let theme = &app.config.theme;
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        let msg = format!("kwb needs at least {MIN_WIDTH}x{MIN_HEIGHT}; this terminal is {}x{}. Enlarge it, or q to quit.", area.width, area.height);
        f.render_widget(Paragraph::new(msg).wrap(ratatui::widgets::Wrap { trim: true }).style(theme.get("ui.text")), area);
        return;
    }
    let [tabs, status, body, hints] = Layout::vertical([Constraint::Length(1), Constraint::Length(1), Constraint::Min(1), Constraint::Length(1)]).areas(area);
    draw_tabs(f, app, tabs);
    draw_status(f, app, status);
    match app.tab {
        Tab::Tasks => components::task_browser::draw(f, app, body),
        Tab::Tree => components::candidate_tree::draw(f, app, body),
        Tab::Ir => components::ir_view::draw(f, app, body),
        Tab::Diff => components::diff_view::draw(f, app, body),
        Tab::Profile => components::profiler::draw(f, app, body),
        Tab::Trace => components::speedup_chart::draw(f, app, body),
        Tab::Jobs => components::jobs::draw(f, app, body),
    }
    draw_hints(f, app, hints);
    if app.review.is_some() && app.popup.is_none() {
        popups::review::draw(f, app, body);
    }
    popups::draw(f, app, body);
    draw_toasts(f, app, body);
}

fn draw_tabs(f: &mut Frame, app: &App, area: Rect) {
    let theme = &app.config.theme;
    let mut spans = vec![];
    for (i, (tab, name)) in TABS.iter().enumerate() {
        let style = if *tab == app.tab { theme.get("ui.tab.active") } else { theme.get("ui.tab") };
        spans.push(Span::styled(tab_label(i, name), style));
        spans.push(Span::raw(" "));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

const SPINNER: [char; 4] = ['|', '/', '-', '\\'];

pub fn spinner(app: &App) -> char {
    SPINNER[(app.clock_ms / 120) as usize % SPINNER.len()]
}

fn draw_status(f: &mut Frame, app: &App, area: Rect) {
    let theme = &app.config.theme;
    let mut parts: Vec<Span> = vec![];
    let task = app.current_task().unwrap_or_else(|| "no task".into());
    parts.push(Span::styled(format!(" {task} "), theme.get("ui.title")));
    if app.run.active || app.run.manual.is_some() {
        let label = match (&app.run.manual, app.run.active) {
            (Some(m), false) => format!(" manual: {m} · {} ", app.run.status),
            _ => format!(" {} {} {} · {} ", spinner(app), app.run.mode.label(), crate::agent::orchestrator::strategy_name(app.run.strategy), app.run.status),
        };
        parts.push(Span::styled(label, theme.get("ui.run")));
    } else if let Some(s) = &app.session {
        let state = if s.playing { format!("▶ {}x", s.speed) } else { "⏸".to_string() };
        let label = format!(" replay {state} event {}/{}: {} ", s.cursor, s.events.len(), s.describe(s.cursor.wrapping_sub(1)));
        parts.push(Span::styled(label, theme.get("ui.replay")));
    }
    let engine = match &app.engine {
        super::app::EngineState::Off => "engine off".to_string(),
        super::app::EngineState::Starting(w) => format!("engine {} {w}", spinner(app)),
        super::app::EngineState::Ready if app.device_lost.is_some() => format!("engine ready · {} unreachable", app.device),
        super::app::EngineState::Ready => format!("engine ready · timing on {}", app.device),
        super::app::EngineState::Failed(_) => "engine failed (7 shows why)".to_string(),
    };
    let used: usize = parts.iter().map(|s| s.content.chars().count()).sum();
    let pad = (area.width as usize).saturating_sub(used + engine.chars().count() + 1);
    parts.push(Span::raw(" ".repeat(pad)));
    parts.push(Span::styled(engine, theme.get("ui.dim")));
    f.render_widget(Paragraph::new(Line::from(parts)), area);
}

/// The most useful commands of the focused context, with their live keys.
fn draw_hints(f: &mut Frame, app: &App, area: Rect) {
    let theme = &app.config.theme;
    let ctx = app.context();
    let group = match ctx {
        "tasks" => "tasks",
        "tree" => "tree",
        "ir" => "ir",
        "diff" => "diff",
        "review" => "review",
        _ => "replay",
    };
    let mut spans = vec![];
    let mut width = 0usize;
    let general = [super::action::Command::Help, super::action::Command::Palette, super::action::Command::Quit];
    let picks = super::action::REGISTRY.iter().filter(|e| e.group == group).map(|e| e.command).chain(general);
    for cmd in picks {
        let Some(key) = app.config.keymap.keys_for(ctx, cmd).into_iter().next() else { continue };
        let desc = cmd.name().replace('_', " ");
        let w = key.chars().count() + desc.chars().count() + 3;
        if width + w > area.width as usize {
            break;
        }
        width += w;
        spans.push(Span::styled(key, theme.get("ui.hint.key")));
        spans.push(Span::styled(format!(" {desc}  "), theme.get("ui.hint")));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_toasts(f: &mut Frame, app: &App, body: Rect) {
    let theme = &app.config.theme;
    for (i, t) in app.toasts.iter().rev().take(3).enumerate() {
        let w = (t.text.chars().count() as u16 + 4).min(body.width.saturating_sub(2)).min(70);
        let y = body.y + body.height.saturating_sub(1 + i as u16);
        if y <= body.y {
            break;
        }
        let rect = Rect { x: body.x + body.width.saturating_sub(w + 1), y, width: w, height: 1 };
        let style = match t.level {
            Level::Info => theme.get("ui.toast.info"),
            Level::Warn => theme.get("ui.toast.warn"),
            Level::Error => theme.get("ui.toast.error"),
        };
        f.render_widget(Clear, rect);
        f.render_widget(Paragraph::new(format!(" {} ", t.text)).style(style.patch(Style::default())), rect);
    }
}
