//! The event loop: terminal input, background messages and a tick are
//! drained together and each folded in by `App::update`; the effects it
//! returns are carried out, and what they report is folded in the same way;
//! then one frame is drawn if anything changed.

use super::Options;
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
use std::collections::VecDeque;
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

const TICK: Duration = Duration::from_millis(50);

pub async fn run(ctx: &Workspace, args: Options) -> Result<ExitCode> {
    if !std::io::stdout().is_terminal() {
        anyhow::bail!("the workbench needs a terminal; for scripts use `kwb session`, `kwb eval` or `kwb bench`");
    }
    let config = Config::load(Some(&ctx.paths.config), args.theme.as_deref());
    let mut app = App::new(config);
    app.device = ctx.device.clone();
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
    let mut effects = app.update(Action::Resize { width: size.width, height: size.height });
    let where_logs = format!("info: log in {}; engine output in {}", log_dir.join("kwb.log").display(), stderr_log.display());
    effects.extend(app.update(Action::Msg(Msg::Log(where_logs))));
    term.draw(|f| super::view::draw(f, &app))?;
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
    let mut runtime = Runtime { driver, term, input, ctx, theme: args.theme.as_deref() };
    let result = 'run: loop {
        let mut actions = VecDeque::new();
        tokio::select! {
            Some(e) = ev_rx.recv() => actions.extend(terminal_action(e)),
            Some(a) = rx.recv() => actions.push_back(a),
            _ = tick.tick() => {
                let ms = last_tick.elapsed().as_millis() as u64;
                last_tick = Instant::now();
                actions.push_back(Action::Tick { ms });
            }
        }
        while let Ok(e) = ev_rx.try_recv() {
            actions.extend(terminal_action(e));
        }
        while let Ok(a) = rx.try_recv() {
            actions.push_back(a);
        }
        let mut redraw = false;
        // What the effects report (an editor closed, the config read again) is
        // folded in the same way, until nothing is left to do.
        loop {
            for effect in std::mem::take(&mut effects) {
                match runtime.perform(effect, &app.config) {
                    Ok(Performed { reports, redraw: r }) => {
                        actions.extend(reports);
                        redraw |= r;
                    }
                    Err(e) => break 'run Err(e),
                }
            }
            let Some(a) = actions.pop_front() else { break };
            effects = app.update(a);
            redraw |= app.dirty;
        }
        if app.quit {
            break Ok(());
        }
        if redraw && let Err(e) = runtime.term.draw(|f| super::view::draw(f, &app)) {
            break Err(e.into());
        }
    };
    terminal::leave();
    terminal::restore_stderr();
    result.map(|_| ExitCode::SUCCESS)
}
/// A terminal event as the action it stands for.
fn terminal_action(e: Event) -> Option<Action> {
    match e {
        Event::Key(k) if k.kind != KeyEventKind::Release => Some(Action::Input(k)),
        Event::Mouse(m) => match m.kind {
            MouseEventKind::Down(MouseButton::Left) => Some(Action::ClickRow { x: m.column, y: m.row }),
            MouseEventKind::ScrollDown => Some(Action::Scroll { down: true }),
            MouseEventKind::ScrollUp => Some(Action::Scroll { down: false }),
            _ => None,
        },
        Event::Resize(width, height) => Some(Action::Resize { width, height }),
        _ => None,
    }
}

/// What carries out effects: the background work, the terminal, the editor.
struct Runtime<'a> {
    driver: Driver,
    term: Term,
    input: Input,
    ctx: &'a Workspace,
    theme: Option<&'a str>,
}

/// What one effect reports back, and whether the screen must be drawn again
/// (after the terminal was handed to another program).
#[derive(Default)]
struct Performed {
    reports: Vec<Action>,
    redraw: bool,
}

impl Performed {
    fn report(m: Msg) -> Self {
        Self { reports: vec![Action::Msg(m)], redraw: false }
    }
}

impl Runtime<'_> {
    fn perform(&mut self, effect: Effect, config: &Config) -> Result<Performed> {
        let driver = &mut self.driver;
        let done = Performed::default();
        Ok(match effect {
            Effect::Quit => done,
            Effect::Suspend => {
                self.input.pause();
                terminal::suspend(&mut self.term, config.mouse)?;
                self.input.resume();
                Performed { reports: vec![], redraw: true }
            }
            Effect::LoadSession(p) => {
                driver.load_session(p);
                done
            }
            Effect::ReadTaskSource { task, path } => {
                let text = std::fs::read_to_string(path).unwrap_or_else(|e| format!("# cannot read model.py: {e}"));
                Performed::report(Msg::TaskSource { task, text })
            }
            Effect::TasksReady(set) => {
                driver.use_tasks(set);
                done
            }
            Effect::StartPending => {
                driver.start_pending();
                done
            }
            Effect::ListDevices => {
                driver.list_devices();
                done
            }
            Effect::SwitchDevice(name) => {
                driver.switch_device(name);
                done
            }
            Effect::DropPending => {
                driver.drop_pending();
                done
            }
            Effect::RunEnded => {
                driver.run_ended();
                done
            }
            Effect::StartRun(r) => {
                driver.start_run(r);
                done
            }
            Effect::Steer(s) => {
                driver.steer(s);
                done
            }
            Effect::StartManual(req) => {
                let Some(file) = driver.start_manual(req) else { return Ok(Performed { reports: vec![], redraw: true }) };
                let notice = match terminal::run_editor(&mut self.term, &self.input, &file, config.mouse) {
                    Ok(_) => Msg::Notice(Level::Info, "editor closed; saves made in it were evaluated (x stops watching)".into()),
                    Err(e) => Msg::Notice(Level::Error, e.to_string()),
                };
                Performed { reports: vec![Action::Msg(notice)], redraw: true }
            }
            Effect::StopManual => {
                driver.stop_manual();
                done
            }
            Effect::OpenEditor { text, suffix, purpose } => {
                let scratch = self.ctx.paths.scratch();
                let file = scratch.join(format!("proposal{suffix}"));
                std::fs::create_dir_all(&scratch)?;
                std::fs::write(&file, &text)?;
                let mut reports = vec![];
                let edited = match terminal::run_editor(&mut self.term, &self.input, &file, config.mouse) {
                    Ok(st) if st.success() => std::fs::read_to_string(&file).ok().filter(|t| *t != text),
                    Ok(_) => None,
                    Err(e) => {
                        reports.push(Action::Msg(Msg::Notice(Level::Error, e.to_string())));
                        None
                    }
                };
                reports.push(Action::Msg(Msg::EditorClosed { purpose, text: edited }));
                Performed { reports, redraw: false }
            }
            Effect::ReloadConfig => Performed::report(Msg::ConfigLoaded(Box::new(Config::load(Some(&self.ctx.paths.config), self.theme)))),
            Effect::SetMouse(on) => {
                terminal::set_mouse(on);
                done
            }
        })
    }
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
