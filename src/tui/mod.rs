//! The terminal workbench (ratatui + crossterm).

use crate::cli::Ctx;
use anyhow::Result;
use std::process::ExitCode;

/// `kwb ui [...]` (and `kwb` with no arguments).
#[derive(clap::Args, Debug, Default)]
pub struct UiArgs {
    /// Open this session file (replay it, or resume it live).
    #[arg(long)]
    pub session: Option<std::path::PathBuf>,
}

pub async fn run(_ctx: &Ctx, _args: UiArgs) -> Result<ExitCode> {
    anyhow::bail!("the workbench is not built yet")
}
