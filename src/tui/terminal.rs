//! The terminal's lifecycle: raw mode and the alternate screen, a panic hook
//! that restores the terminal before the message prints, Ctrl-Z, handing
//! the terminal to $EDITOR, and an input thread that can be paused so the
//! editor gets every key. While the workbench owns the screen, stderr goes
//! to a file in the state directory, so stray output cannot tear the frame.

use crossterm::event::{self, DisableMouseCapture, EnableMouseCapture, Event};
use crossterm::terminal::{EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode};
use crossterm::{cursor, execute};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::{Stdout, stdout};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::time::Duration;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

/// The real stderr while it is redirected (-1 when not).
static SAVED_STDERR: AtomicI32 = AtomicI32::new(-1);
static MOUSE: AtomicBool = AtomicBool::new(false);

pub fn enter(mouse: bool) -> std::io::Result<()> {
    enable_raw_mode()?;
    execute!(stdout(), EnterAlternateScreen, cursor::Hide)?;
    set_mouse(mouse);
    Ok(())
}

pub fn set_mouse(on: bool) {
    let r = if on { execute!(stdout(), EnableMouseCapture) } else { execute!(stdout(), DisableMouseCapture) };
    if r.is_ok() {
        MOUSE.store(on, Ordering::SeqCst);
    }
}

/// Gives the terminal back; safe to call more than once.
pub fn leave() {
    if MOUSE.swap(false, Ordering::SeqCst) {
        let _ = execute!(stdout(), DisableMouseCapture);
    }
    let _ = execute!(stdout(), LeaveAlternateScreen, cursor::Show);
    let _ = disable_raw_mode();
}

pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        leave();
        restore_stderr();
        previous(info);
    }));
}

/// Sends fd 2 to `file` until [`restore_stderr`].
pub fn redirect_stderr(file: &Path) {
    use std::os::fd::IntoRawFd;
    let Ok(f) = std::fs::OpenOptions::new().create(true).append(true).open(file) else { return };
    let fd = f.into_raw_fd();
    // SAFETY: plain descriptor juggling on fds this process owns.
    unsafe {
        let saved = libc::dup(2);
        if saved >= 0 && libc::dup2(fd, 2) >= 0 {
            SAVED_STDERR.store(saved, Ordering::SeqCst);
        }
        libc::close(fd);
    }
}

pub fn restore_stderr() {
    let saved = SAVED_STDERR.swap(-1, Ordering::SeqCst);
    if saved >= 0 {
        // SAFETY: `saved` is the duplicate made in redirect_stderr.
        unsafe {
            libc::dup2(saved, 2);
            libc::close(saved);
        }
    }
}

/// Ctrl-Z: give the terminal back, stop, and take it again on `fg`.
pub fn suspend(term: &mut Term, mouse: bool) -> std::io::Result<()> {
    leave();
    // SAFETY: raising a signal at ourselves; the default action stops the process.
    unsafe {
        libc::raise(libc::SIGTSTP);
    }
    enter(mouse)?;
    term.clear()
}

/// Runs $EDITOR (then $VISUAL, then vi) on `file` with the terminal handed over.
pub fn run_editor(term: &mut Term, input: &Input, file: &Path, mouse: bool) -> std::io::Result<std::process::ExitStatus> {
    input.pause();
    leave();
    let editor = std::env::var("EDITOR").or_else(|_| std::env::var("VISUAL")).unwrap_or_else(|_| "vi".into());
    let mut parts = editor.split_whitespace();
    let program = parts.next().unwrap_or("vi").to_string();
    let status = std::process::Command::new(&program).args(parts).arg(file).status();
    enter(mouse)?;
    term.clear()?;
    input.resume();
    status.map_err(|e| std::io::Error::new(e.kind(), format!("cannot run the editor `{program}` ({e}); set $EDITOR")))
}

/// Reads terminal events on a thread of its own. Pausing it stops it from
/// touching stdin, so a child process (the editor) gets every key.
pub struct Input {
    paused: Arc<AtomicBool>,
    idle: Arc<AtomicBool>,
}

impl Input {
    pub fn start(tx: tokio::sync::mpsc::UnboundedSender<Event>) -> Self {
        let paused = Arc::new(AtomicBool::new(false));
        let idle = Arc::new(AtomicBool::new(false));
        let (p, i) = (paused.clone(), idle.clone());
        std::thread::spawn(move || {
            loop {
                if p.load(Ordering::SeqCst) {
                    i.store(true, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
                i.store(false, Ordering::SeqCst);
                match event::poll(Duration::from_millis(30)) {
                    Ok(true) => match event::read() {
                        Ok(e) => {
                            if tx.send(e).is_err() {
                                return;
                            }
                        }
                        Err(_) => return,
                    },
                    Ok(false) => {}
                    Err(_) => return,
                }
            }
        });
        Self { paused, idle }
    }

    pub fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
        for _ in 0..50 {
            if self.idle.load(Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    pub fn resume(&self) {
        self.paused.store(false, Ordering::SeqCst);
    }
}
