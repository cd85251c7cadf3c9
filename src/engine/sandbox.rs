//! The limits a worker process runs under. The worker parses untrusted
//! TVMScript (the parser calls Python's eval), so it gets: its own process
//! group (so a hung job and its children die together), an address-space
//! limit, no core dumps, no network where the kernel allows a private network
//! namespace, a private scratch directory as HOME/TMPDIR/cwd, and an
//! environment built from an allow-list, so no API key can reach it.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::Path;
use tokio::process::Command;

/// Variables a worker may inherit; everything else is dropped.
const ENV_ALLOW: &[&str] = &["PATH", "LANG", "LC_ALL", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "TZ"];

#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub address_space_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        let mb = std::env::var("KWB_WORKER_MEMORY_MB").ok().and_then(|v| v.parse::<u64>().ok()).unwrap_or(8192);
        Self { address_space_bytes: mb << 20 }
    }
}

pub fn worker_env(scratch: &Path, pythonpath: &Path) -> Vec<(OsString, OsString)> {
    let mut env: Vec<(OsString, OsString)> = ENV_ALLOW
        .iter()
        .filter_map(|k| std::env::var_os(k).map(|v| (OsString::from(k), v)))
        .collect();
    if !env.iter().any(|(k, _)| k == "PATH") {
        env.push(("PATH".into(), "/usr/local/bin:/usr/bin:/bin".into()));
    }
    env.push(("HOME".into(), scratch.into()));
    env.push(("TMPDIR".into(), scratch.into()));
    env.push(("PYTHONPATH".into(), pythonpath.into()));
    env.push(("PYTHONDONTWRITEBYTECODE".into(), "1".into()));
    env.push(("PYTHONUNBUFFERED".into(), "1".into()));
    env
}

/// Applies the limits in the child between fork and exec.
pub fn apply(cmd: &mut Command, limits: Limits) {
    let bytes = limits.address_space_bytes;
    // SAFETY: only async-signal-safe libc calls between fork and exec.
    unsafe {
        cmd.as_std_mut().pre_exec(move || {
            libc::setsid();
            let as_limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
            libc::setrlimit(libc::RLIMIT_AS, &as_limit);
            let no_core = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            // A private network namespace has no interfaces but a downed
            // loopback: the worker cannot reach any host. It needs
            // CAP_SYS_ADMIN; without it the worker runs with the host's network
            // and `kwb engine doctor` says so.
            let _ = libc::unshare(libc::CLONE_NEWNET);
            Ok(())
        });
    }
}
