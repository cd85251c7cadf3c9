//! `kwb session fork` and `kwb session convert`: a session's events copied
//! into a new log, which is written in the current schema.

use crate::session::{SCHEMA_VERSION, SessionLog, load};
use anyhow::Result;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Copies events (up to `upto`) into a new log, numbered afresh, to branch a recording.
pub fn fork(src: &Path, out: &Path, upto: Option<u64>, progress: bool) -> Result<ExitCode> {
    let loaded = load(src)?;
    let mut header = loaded.header.clone();
    header.kwb_session = SCHEMA_VERSION;
    header.id = out.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    let mut log = SessionLog::create(out, &header)?;
    let mut stdout = std::io::stdout().lock();
    for e in loaded.events.iter().filter(|e| upto.is_none_or(|u| e.seq <= u)) {
        let written = log.append(e.kind.clone())?;
        if progress {
            writeln!(stdout, "{}", written.seq)?;
            stdout.flush()?;
        }
    }
    if !progress {
        eprintln!("forked the events of {} into {}", src.display(), out.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// Rewrites a log in the current schema, events as they were.
pub fn convert(src: &Path, out: &Path) -> Result<ExitCode> {
    for w in SessionLog::convert(src, out)? {
        eprintln!("warning: {}: {w}", src.display());
    }
    let (a, b) = (std::fs::metadata(src)?.len(), std::fs::metadata(out)?.len());
    eprintln!("{} ({:.1} MiB) -> {} ({:.1} MiB)", src.display(), a as f64 / 1048576.0, out.display(), b as f64 / 1048576.0);
    Ok(ExitCode::SUCCESS)
}
