//! The limits a worker process runs under. Workers handle untrusted code
//! (TVMScript is parsed by evaluating Python; a built kernel is native code),
//! so every worker gets: its own process group (so a hung job and its
//! children die together), an address-space limit, no core dumps, no network
//! where the kernel allows a private network namespace, a private scratch
//! directory as HOME/TMPDIR/cwd, and an environment built from an allow-list,
//! so no API key can reach it.
//!
//! Work is split by role. A *build* worker turns candidate text into an
//! artifact, each job in a child forked from it (TVM imported, no candidate
//! seen) that exits after the job, so nothing a candidate did to its
//! interpreter outlives it. A *measure* worker only loads built
//! artifacts, checks and times them, and never parses candidate text. Both
//! confine themselves at start (`kwb_engine/confine.py`: Landlock, seccomp,
//! no capabilities). A *remote* worker measures on a board behind a TVM
//! RPC tracker: the same confinement, but with the host's network and TCP
//! connect (no listen), since it only uploads artifacts and drives them
//! there. *Trusted* work (tuning the reference, importing a task,
//! doctor) keeps the limits above only; tuning on a board (*trusted
//! remote*) keeps the host's network to reach it.

use std::ffi::OsString;
use std::os::unix::process::CommandExt;
use std::path::Path;
use tokio::process::Command;

/// Variables a worker may inherit; everything else is dropped.
const ENV_ALLOW: &[&str] = &["PATH", "LANG", "LC_ALL", "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "TZ"];

/// What a worker is for, and so how it is confined and whether it is reused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Parses candidate text, applies traces and L2 edits, builds, profiles.
    Build,
    /// Loads built artifacts, checks and times them.
    Measure,
    /// Checks and times on a device behind a TVM RPC tracker: uploads built
    /// artifacts and drives them there, so it may connect out (and only
    /// that), and never runs a candidate's code itself.
    Remote,
    /// Tuning the reference, importing tasks, doctor: no candidate text.
    Trusted,
    /// Tuning the reference on a device behind a TVM RPC tracker: trusted
    /// work (no candidate text) that needs the host's network to reach it.
    TrustedRemote,
}

impl Role {
    pub fn for_op(op: &str) -> Role {
        match op {
            "check" | "time" => Role::Measure,
            "build" | "derive" | "profile" | "l0_moves" | "l1_moves" | "l1_space_moves" | "gpu_variants" | "l2_moves" | "cuda_l2_moves" | "gpu_kernel_facts" | "size" => Role::Build,
            _ => Role::Trusted,
        }
    }

    /// The role for a job: a check or timing on an RPC device is remote.
    pub fn for_job(op: &str, args: &serde_json::Value) -> Role {
        match Role::for_op(op) {
            Role::Measure if args["device"]["kind"] == "rpc" => Role::Remote,
            Role::Trusted if args["device"]["kind"] == "rpc" => Role::TrustedRemote,
            role => role,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Build => "build",
            Role::Measure => "measure",
            Role::Remote => "remote",
            Role::Trusted => "trusted",
            Role::TrustedRemote => "trusted_remote",
        }
    }

}

/// One line per confined role saying what its sandbox applied, and whether
/// every layer is in force (Landlock, seccomp for measuring workers).
pub fn summary(report: &serde_json::Value) -> (Vec<String>, bool) {
    let mut lines = Vec::new();
    let mut complete = true;
    for role in ["build", "measure", "remote"] {
        let r = &report[role];
        if r.is_null() {
            continue;
        }
        let landlock = &r["landlock"];
        let ll = if landlock["applied"].as_bool() == Some(true) {
            format!("Landlock ABI {} (writes only to scratch{}, {})", landlock["abi"], if role == "build" { " and artifacts" } else { "" }, landlock["network"].as_str().unwrap_or("?"))
        } else {
            complete = false;
            format!("NO Landlock ({})", landlock["why"].as_str().unwrap_or("not applied"))
        };
        let sc = &r["seccomp"];
        let sc = if sc["applied"].as_bool() == Some(true) {
            "seccomp: no exec".to_string()
        } else if role != "build" {
            complete = false;
            format!("NO seccomp ({})", sc["why"].as_str().unwrap_or("not applied"))
        } else {
            "exec limited to the C toolchain".to_string()
        };
        lines.push(format!("{role} workers: {ll}; {sc}; capabilities {}", if r["capabilities_dropped"].as_bool() == Some(true) { "dropped" } else { "kept" }));
    }
    (lines, complete)
}

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

pub fn worker_env(scratch: &Path, pythonpath: &Path, role: Role, writable: &[&Path]) -> Vec<(OsString, OsString)> {
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
    env.push(("KWB_SANDBOX_ROLE".into(), role.as_str().into()));
    let dirs: Vec<&Path> = std::iter::once(scratch).chain(writable.iter().copied()).collect();
    env.push(("KWB_SANDBOX_WRITE".into(), std::env::join_paths(dirs).unwrap_or_default()));
    env
}

/// Applies the limits in the child between fork and exec.
pub fn apply(cmd: &mut Command, limits: Limits, role: Role) {
    let private_network = !matches!(role, Role::Remote | Role::TrustedRemote);
    let bytes = limits.address_space_bytes;
    // SAFETY: only async-signal-safe libc calls between fork and exec.
    unsafe {
        cmd.as_std_mut().pre_exec(move || {
            libc::setsid();
            // A worker dies with the kwb that started it: killed kwb (a
            // stopped tuning, a closed terminal) must not leave a worker
            // tuning or timing on its own, loading the machine under the
            // next run's measurements. SIGTERM, so the worker takes its own
            // process group (MetaSchedule's builders) with it
            // (kwb_engine/lifeline.py). Workers are spawned from the
            // runtime's long-lived threads, whose exit is the process's.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM as libc::c_ulong);
            if libc::getppid() == 1 {
                // kwb died before the prctl took effect.
                libc::_exit(1);
            }
            let as_limit = libc::rlimit { rlim_cur: bytes as libc::rlim_t, rlim_max: bytes as libc::rlim_t };
            libc::setrlimit(libc::RLIMIT_AS, &as_limit);
            let no_core = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
            libc::setrlimit(libc::RLIMIT_CORE, &no_core);
            // A private network namespace has no interfaces but a downed
            // loopback: the worker cannot reach any host. It needs
            // CAP_SYS_ADMIN; without it the worker runs with the host's network
            // and `kwb engine doctor` says so.
            if private_network {
                let _ = libc::unshare(libc::CLONE_NEWNET);
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn roles_follow_the_op() {
        assert_eq!(Role::for_op("derive"), Role::Build);
        assert_eq!(Role::for_op("time"), Role::Measure);
        assert_eq!(Role::for_op("tune"), Role::Trusted);
        assert_eq!(Role::for_job("time", &json!({"device": {"kind": "rpc", "key": "k"}})), Role::Remote);
        assert_eq!(Role::for_job("check", &json!({"device": {"kind": "local"}})), Role::Measure);
        assert_eq!(Role::for_job("build", &json!({"device": {"kind": "rpc"}})), Role::Build, "builds stay on this machine");
        assert_eq!(Role::for_job("tune", &json!({"device": {"kind": "rpc"}})), Role::TrustedRemote, "tuning on a board needs the network");
        assert_eq!(Role::for_job("tune", &json!({})), Role::Trusted);
    }

    #[test]
    fn a_missing_layer_makes_the_summary_incomplete() {
        let full = json!({
            "build": {"landlock": {"applied": true, "abi": 7, "network": "no TCP"}, "seccomp": {"applied": false}, "capabilities_dropped": true},
            "measure": {"landlock": {"applied": true, "abi": 7, "network": "no TCP"}, "seccomp": {"applied": true}, "capabilities_dropped": true},
        });
        let (lines, complete) = summary(&full);
        assert!(complete, "{lines:?}");
        assert_eq!(lines.len(), 2);
        let mut partial = full.clone();
        partial["measure"]["seccomp"] = json!({"applied": false, "why": "seccomp failed: Invalid argument"});
        let (lines, complete) = summary(&partial);
        assert!(!complete);
        assert!(lines[1].contains("NO seccomp (seccomp failed"), "{lines:?}");
        partial["build"]["landlock"] = json!({"applied": false, "why": "Landlock is not available"});
        assert!(summary(&partial).0[0].contains("NO Landlock"));
        // A remote-measuring worker needs seccomp as a measuring one does.
        let mut remote = full.clone();
        remote["remote"] = json!({"landlock": {"applied": true, "abi": 7, "network": "TCP connect only"}, "seccomp": {"applied": false, "why": "x"}, "capabilities_dropped": true});
        let (lines, complete) = summary(&remote);
        assert!(!complete, "{lines:?}");
        assert!(lines[2].starts_with("remote workers:") && lines[2].contains("TCP connect only") && lines[2].contains("NO seccomp"), "{lines:?}");
    }
}
