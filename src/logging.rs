//! Tracing goes to a log file in the state directory, never to stdout, so
//! JSON output and (later) the TUI stay clean.

use crate::paths::Paths;
use tracing_subscriber::EnvFilter;

/// Keeps the background writer alive; drop it at exit to flush.
pub struct LogGuard(#[allow(dead_code)] Option<tracing_appender::non_blocking::WorkerGuard>);

pub fn init(paths: &Paths) -> LogGuard {
    let dir = paths.log_dir();
    if std::fs::create_dir_all(&dir).is_err() {
        return LogGuard(None);
    }
    let appender = tracing_appender::rolling::never(&dir, "kwb.log");
    let (writer, guard) = tracing_appender::non_blocking(appender);
    let filter = EnvFilter::try_from_env("KWB_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let ok = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer)
        .with_ansi(false)
        .try_init()
        .is_ok();
    LogGuard(ok.then_some(guard))
}
