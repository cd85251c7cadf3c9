//! The event loop: terminal input, background messages and a tick are
//! drained together, effects are carried out, and one frame is drawn if
//! anything changed.

use super::UiArgs;
use super::action::{Action, Msg};
use super::app::{App, Level};
use super::config::Config;
use super::background::Driver;
use super::requests::Effect;
use super::terminal::{self, Input, Term};
use crate::workspace::Workspace;
use anyhow::{Context, Result};
use crossterm::event::{Event, KeyEventKind, MouseButton, MouseEventKind};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

const TICK: Duration = Duration::from_millis(50);

pub async fn run(ctx: &Workspace, args: UiArgs) -> Result<ExitCode> {
    if !std::io::stdout().is_terminal() {
        anyhow::bail!("the workbench needs a terminal; for scripts use `kwb session`, `kwb eval` or `kwb bench`");
    }
    let config = Config::load(Some(&ctx.paths.config), args.theme.as_deref());
    let mut app = App::new(config);
    let (tx, mut rx) = mpsc::unbounded_channel::<Action>();
    let mut driver = Driver::new(ctx, tx.clone());
    terminal::install_panic_hook();
    let log_dir = ctx.paths.log_dir();
    std::fs::create_dir_all(&log_dir).with_context(|| format!("cannot create {}", log_dir.display()))?;
    let stderr_log = log_dir.join("workbench-stderr.log");
    terminal::redirect_stderr(&stderr_log);
    terminal::enter(app.config.mouse)?;
    let mut term = Terminal::new(CrosstermBackend::new(std::io::stdout()))?;
    let size = term.size()?;
    app.update(Action::Resize { width: size.width, height: size.height });
    app.log_line(format!("info: log in {}; engine output in {}", log_dir.join("kwb.log").display(), stderr_log.display()));
    draw(&mut term, &mut app)?;
    // Only now the slow things start: tasks, sessions, the engine.
    driver.start_background(!args.no_engine);
    if let Some(s) = args.session.clone() {
        driver.load_session(s);
    }
    let _config_watch = watch_config(&ctx.paths.config, tx.clone());
    let (ev_tx, mut ev_rx) = mpsc::unbounded_channel();
    let input = Input::start(ev_tx);
    let mut tick = tokio::time::interval(TICK);
    let mut last_tick = Instant::now();
    let result = loop {
        tokio::select! {
            Some(e) = ev_rx.recv() => terminal_event(&mut app, e),
            Some(a) = rx.recv() => feed(&mut app, &mut driver, a),
            _ = tick.tick() => {
                let ms = last_tick.elapsed().as_millis() as u64;
                last_tick = Instant::now();
                app.update(Action::Tick { ms });
            }
        }
        while let Ok(e) = ev_rx.try_recv() {
            terminal_event(&mut app, e);
        }
        while let Ok(a) = rx.try_recv() {
            feed(&mut app, &mut driver, a);
        }
        if let Err(e) = perform(&mut app, &mut driver, &mut term, &input, ctx, args.theme.as_deref()) {
            break Err(e);
        }
        if app.quit {
            break Ok(());
        }
        if app.dirty
            && let Err(e) = draw(&mut term, &mut app)
        {
            break Err(e);
        }
    };
    terminal::leave();
    terminal::restore_stderr();
    result.map(|_| ExitCode::SUCCESS)
}

fn draw(term: &mut Term, app: &mut App) -> Result<()> {
    app.prepare();
    term.draw(|f| super::view::draw(f, app))?;
    app.dirty = false;
    Ok(())
}

fn feed(app: &mut App, driver: &mut Driver, a: Action) {
    if let Action::Msg(m) = &a {
        driver.observe(m);
    }
    app.update(a);
}

fn terminal_event(app: &mut App, e: Event) {
    match e {
        Event::Key(k) if k.kind != KeyEventKind::Release => app.update(Action::Input(k)),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => app.update(Action::ClickRow { x: m.column, y: m.row }),
            MouseEventKind::ScrollDown => app.update(Action::Scroll { down: true }),
            MouseEventKind::ScrollUp => app.update(Action::Scroll { down: false }),
            _ => {}
        },
        Event::Resize(width, height) => app.update(Action::Resize { width, height }),
        _ => {}
    }
}

fn perform(app: &mut App, driver: &mut Driver, term: &mut Term, input: &Input, ctx: &Workspace, theme: Option<&str>) -> Result<()> {
    for effect in std::mem::take(&mut app.effects) {
        match effect {
            Effect::Quit => {}
            Effect::Suspend => {
                input.pause();
                terminal::suspend(term, app.config.mouse)?;
                input.resume();
                app.dirty = true;
            }
            Effect::LoadSession(p) => driver.load_session(p),
            Effect::StartRun(r) => driver.start_run(r),
            Effect::Steer(s) => driver.steer(s),
            Effect::StartManual(req) => {
                if let Some(file) = driver.start_manual(req) {
                    match terminal::run_editor(term, input, &file, app.config.mouse) {
                        Ok(_) => app.toast(Level::Info, "editor closed; saves made in it were evaluated (x stops watching)"),
                        Err(e) => app.toast(Level::Error, e.to_string()),
                    }
                }
                app.dirty = true;
            }
            Effect::StopManual => driver.stop_manual(),
            Effect::OpenEditor { text, suffix, purpose } => {
                let file = ctx.paths.scratch().join(format!("proposal{suffix}"));
                std::fs::create_dir_all(ctx.paths.scratch())?;
                std::fs::write(&file, &text)?;
                let edited = match terminal::run_editor(term, input, &file, app.config.mouse) {
                    Ok(st) if st.success() => std::fs::read_to_string(&file).ok().filter(|t| *t != text),
                    Ok(_) => None,
                    Err(e) => {
                        app.toast(Level::Error, e.to_string());
                        None
                    }
                };
                app.update(Action::Msg(Msg::EditorClosed { purpose, text: edited }));
            }
            Effect::ReloadConfig => {
                let mouse = app.config.mouse;
                app.config = Config::load(Some(&ctx.paths.config), theme);
                if app.config.mouse != mouse {
                    terminal::set_mouse(app.config.mouse);
                }
                app.ir.view = None;
                app.tasks.source = None;
                for w in app.config.warnings.clone() {
                    app.toast(Level::Warn, w);
                }
                app.toast(Level::Info, "configuration reloaded");
            }
            Effect::SetMouse(on) => terminal::set_mouse(on),
        }
    }
    Ok(())
}

/// Hot reload: any change in the config folder reloads keymap and theme.
fn watch_config(dir: &std::path::Path, tx: mpsc::UnboundedSender<Action>) -> Option<notify::RecommendedWatcher> {
    use notify::Watcher;
    if !dir.is_dir() {
        return None;
    }
    let mut w = notify::recommended_watcher(move |r: notify::Result<notify::Event>| {
        if r.is_ok_and(|e| e.kind.is_modify() || e.kind.is_create()) {
            let _ = tx.send(Action::Msg(Msg::ConfigChanged));
        }
    })
    .ok()?;
    w.watch(dir, notify::RecursiveMode::Recursive).ok()?;
    Some(w)
}
