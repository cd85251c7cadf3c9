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

/// How to open the workbench.
#[derive(Debug, Default)]
pub struct Options {
    /// Open this session file (replay it, or resume it live).
    pub session: Option<std::path::PathBuf>,
    /// Theme for this run, over the configured one.
    pub theme: Option<String>,
    /// Do not start the engine (browse and replay only).
    pub no_engine: bool,
}

/// Opens the workbench and runs it until the person quits.
pub async fn run(ctx: &Workspace, opts: Options) -> Result<ExitCode> {
    runtime::run(ctx, opts).await
}
