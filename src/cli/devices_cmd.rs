//! `kwb devices`: what devices are configured and reachable, with each
//! one's target and measured peaks; `kwb devices serve` (also `kwb device
//! serve`) starts TVM RPC servers for a tracker.

use crate::devices::{self, Device, Reach, serve};
use crate::workspace::Workspace;
use anyhow::{Context, Result};
use clap::{Args, Subcommand};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct DevicesArgs {
    #[command(subcommand)]
    pub command: Option<DevicesCmd>,
    /// Print JSON.
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Subcommand, Debug)]
pub enum DevicesCmd {
    /// Serve this machine as a device: TVM RPC servers registered with a tracker under a key, until stopped (Ctrl-C). A server runs whatever code reaches it: it binds loopback unless --host names an address.
    Serve(ServeArgs),
    /// Measure the device's peaks on the device itself (FLOP/s, and bandwidth by working-set size: kernels built here for its target, timed there), kept for roofline shares and task sizing. The device is `--device`; a CUDA GPU's come from a carried run (`kwb carry report` keeps them).
    Measure,
}

#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The key the servers register under (a device's `key` in devices.toml).
    #[arg(long)]
    key: String,
    /// The tracker to register with.
    #[arg(long, default_value = "127.0.0.1:9190")]
    tracker: String,
    /// Start the tracker too, at --tracker's address.
    #[arg(long)]
    start_tracker: bool,
    /// The address the servers bind and report to the tracker.
    #[arg(long, default_value = "127.0.0.1")]
    host: String,
    /// The first port the servers try.
    #[arg(long, default_value_t = 9090)]
    port: u16,
    /// Servers to start (each serves one measurement at a time).
    #[arg(long, default_value_t = 1)]
    servers: u32,
    /// Serve an emulated board of this architecture (`aarch64`): its own Python and TVM runtime under qemu-user. Kernels cross-built for it are checked there; timing on it is refused.
    #[arg(long, value_name = "ARCH")]
    emulate: Option<String>,
}

pub async fn run(ctx: &Workspace, args: DevicesArgs) -> Result<ExitCode> {
    match args.command {
        Some(DevicesCmd::Serve(s)) => serve_cmd(ctx, s).await,
        Some(DevicesCmd::Measure) => measure_cmd(ctx, args.json).await,
        None => list(ctx, args.json).await,
    }
}

async fn list(ctx: &Workspace, as_json: bool) -> Result<ExitCode> {
    let list = devices::load(&ctx.paths)?;
    let machine = crate::roofline::Machine::cached(&ctx.paths);
    let mut rows = Vec::new();
    for d in &list {
        let probe = {
            let d = d.clone();
            tokio::task::spawn_blocking(move || devices::probe(&d, Duration::from_secs(3))).await?
        };
        // Peaks measured on the device come first; without them, what its
        // entry in devices.toml states (a datasheet's), said as such.
        let measured = match &d.reach {
            Reach::Local => machine.clone(),
            _ => crate::roofline::Machine::cached_for(&ctx.paths, &d.name),
        };
        let peaks = match (measured, &d.peaks) {
            (Some(m), _) => Some(json!({"peak_flops": m.peak_flops, "bandwidth_bytes_s": m.bandwidth_bytes_s, "source": "measured"})),
            (None, Some(p)) => Some(json!({"peak_flops": p.peak_flops, "bandwidth_bytes_s": p.bandwidth_bytes_s, "source": "devices.toml"})),
            _ => None,
        };
        // An emulated board served from this machine says so: it checks
        // kernels but refuses to time them.
        let emulated = match &d.reach {
            Reach::Rpc { tracker, key } => serve::live_record(&ctx.paths.state, key, tracker).and_then(|r| r.emulation),
            _ => None,
        };
        let detail = match &emulated {
            Some(label) => format!("{}; emulated ({label}): checks only, timing refused", probe.detail),
            None => probe.detail.clone(),
        };
        rows.push(json!({"name": d.name, "kind": d.kind(), "target": target_of(ctx, d).await, "reachable": probe.ok, "detail": detail, "emulated": emulated, "peaks": peaks, "size": d.size()}));
    }
    if as_json {
        println!("{}", serde_json::to_string_pretty(&json!({"config": devices::config_path(&ctx.paths), "devices": rows}))?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("{:<14} {:<6} {:<11} {:<40} target", "device", "kind", "reachable", "detail");
    for r in &rows {
        let peaks = r["peaks"].as_object().map(|p| {
            format!(
                " · peaks {:.0} GFLOP/s, {:.1} GB/s ({})",
                p["peak_flops"].as_f64().unwrap_or(0.0) / 1e9,
                p["bandwidth_bytes_s"].as_f64().unwrap_or(0.0) / 1e9,
                p["source"].as_str().unwrap_or("")
            )
        });
        let peaks = format!("{}{}", peaks.unwrap_or_default(), r["size"].as_str().map(|s| format!(" · task size `{s}`")).unwrap_or_default());
        println!(
            "{:<14} {:<6} {:<11} {:<40} {}{}",
            r["name"].as_str().unwrap_or(""),
            r["kind"].as_str().unwrap_or(""),
            if r["reachable"] == true { "yes" } else { "no" },
            r["detail"].as_str().unwrap_or(""),
            r["target"],
            peaks
        );
    }
    println!("config: {} (add RPC boards and GPUs there)", devices::config_path(&ctx.paths).display());
    Ok(ExitCode::SUCCESS)
}

/// `kwb --device D devices measure`: the device's peaks, measured on it.
async fn measure_cmd(ctx: &Workspace, as_json: bool) -> Result<ExitCode> {
    let device = ctx.device()?;
    let engine = ctx.engine(false).await?;
    let measured = ctx.measure_peaks(&engine).await;
    engine.shutdown();
    let m = measured?;
    if as_json {
        println!("{}", serde_json::to_string_pretty(&json!({"device": device.name, "peaks": m}))?);
        return Ok(ExitCode::SUCCESS);
    }
    println!("{}: {:.1} GFLOP/s, {:.1} GB/s from memory", device.name, m.peak_flops / 1e9, m.bandwidth_bytes_s / 1e9);
    for l in &m.bandwidth_by_size {
        println!("  working set {:>9} KiB: {:>8.1} GB/s", l.working_set_bytes >> 10, l.bandwidth_bytes_s / 1e9);
    }
    println!("method: {}", m.method);
    Ok(ExitCode::SUCCESS)
}

/// The device's target; the local CPU's is the host's, from the engine.
async fn target_of(ctx: &Workspace, d: &Device) -> Value {
    if let Some(t) = &d.target {
        return t.clone();
    }
    let base = crate::eval::EvalOptions::default().target;
    match ctx.engine(false).await {
        Ok(engine) => crate::eval::host_target(&base, &engine.versions()["host"]),
        Err(_) => base,
    }
}

async fn serve_cmd(ctx: &Workspace, a: ServeArgs) -> Result<ExitCode> {
    let paths = ctx.paths.clone();
    let env = tokio::task::spawn_blocking(move || crate::engine::pyenv::ensure(&paths, false, false)).await??;
    let emulation = match a.emulate {
        None => None,
        Some(arch) => {
            let (data, python, worker_dir) = (ctx.paths.data.clone(), env.python.clone(), env.worker_dir.clone());
            let emu = tokio::task::spawn_blocking(move || devices::emulate::prepare(&data, &python, &arch)).await??;
            eprintln!("emulating {}: correctness is checked on it, timing on it is refused", emu.label);
            Some((emu, worker_dir))
        }
    };
    let emulation_label = emulation.as_ref().map(|(e, _)| e.label.clone());
    let opts = serve::ServeOptions { key: a.key, tracker: a.tracker, start_tracker: a.start_tracker, host: a.host, port: a.port, servers: a.servers, emulation };
    let python = env.python.clone();
    // One thread starts the processes and supervises them for as long as
    // serving lasts: they die with it (PR_SET_PDEATHSIG belongs to the
    // thread that started them), so a kwb killed outright leaves no server.
    let (ready_tx, ready_rx) = tokio::sync::oneshot::channel();
    let (done_tx, done_rx) = tokio::sync::oneshot::channel();
    let (opts_key, tracker, n) = (opts.key.clone(), opts.tracker.clone(), opts.servers);
    std::thread::spawn(move || match serve::start(&python, &opts) {
        Ok(mut served) => {
            let _ = ready_tx.send(Ok(served.group()));
            let why = served.supervise();
            let _ = done_tx.send((served, why));
        }
        Err(e) => {
            let _ = ready_tx.send(Err(e));
        }
    });
    let group = ready_rx.await.context("the serving thread stopped")??;
    let record = serve::ServedRecord { key: opts_key.clone(), tracker: tracker.clone(), emulation: emulation_label, pid: std::process::id() };
    if let Err(e) = serve::write_record(&ctx.paths.state, &record) {
        eprintln!("warning: {e:#}; `kwb devices` will not say what this server is");
    }
    println!("serving: {n} server(s) under key {opts_key} at tracker {tracker}; stop with Ctrl-C");
    let mut term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())?;
    let exited = tokio::select! {
        _ = tokio::signal::ctrl_c() => None,
        _ = term.recv() => None,
        r = done_rx => Some(r.context("the serving thread stopped")?),
    };
    serve::remove_record(&ctx.paths.state, &record.key);
    match exited {
        Some((mut s, why)) => {
            s.stop();
            eprintln!("error: {why}; the other processes were stopped");
            Ok(ExitCode::from(1))
        }
        // The waiter owns the processes, and they are in their own group
        // (the terminal's Ctrl-C does not reach them): stop them by signal.
        None => {
            serve::stop_group(group.load(std::sync::atomic::Ordering::SeqCst));
            println!("stopped");
            Ok(ExitCode::SUCCESS)
        }
    }
}
