//! The terminal workbench (ratatui + crossterm).
//!
//! Layout: [`action`] (every state change is an Action; the registry feeds
//! help, hints and the palette), [`app`] (state and the update code),
//! [`view`] with [`components`] and [`popups`] (drawing, read-only),
//! [`config`] (keymaps, themes), [`sessions`] (replay state), [`background`]
//! and [`manual`] (engine, runs, manual edits in the background), [`requests`]
//! (what the update code and the background work ask of each other),
//! [`terminal`] (lifecycle), [`runtime`] (the event loop) and
//! [`frame_timings`] (`kwb ui --bench`, on a [`synthetic`] session).

pub mod action;
pub mod app;
pub mod background;
pub mod components;
pub mod config;
pub mod frame_timings;
pub mod highlight;
pub mod manual;
pub mod popups;
pub mod requests;
pub mod runtime;
pub mod sessions;
pub mod synthetic;
pub mod terminal;
pub mod view;

use crate::workspace::Workspace;
use anyhow::Result;
use std::process::ExitCode;

/// `kwb ui [...]` (and `kwb` with no arguments).
#[derive(clap::Args, Debug, Default)]
pub struct UiArgs {
    /// Open this session file (replay it, or resume it live).
    #[arg(long)]
    pub session: Option<std::path::PathBuf>,
    /// Theme for this run (default, dark, light, or one in <config>/themes/).
    #[arg(long)]
    pub theme: Option<String>,
    /// Do not start the engine (browse and replay only).
    #[arg(long)]
    pub no_engine: bool,
    /// Print time to first frame, frame render time with a 10,000-node tree
    /// and a 20,000-line diff, and resident memory; then exit.
    #[arg(long)]
    pub bench: bool,
}

pub async fn run(ctx: &Workspace, args: UiArgs) -> Result<ExitCode> {
    if args.bench {
        return frame_timings::run(ctx).await;
    }
    runtime::run(ctx, args).await
}
