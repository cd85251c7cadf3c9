//! Where kwb keeps its files: data (engine venv, caches, scratch), state (logs)
//! and config. `KWB_HOME` puts all three under one folder, which tests and CI
//! use to start from nothing.

use anyhow::{Context, Result};
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct Paths {
    pub data: PathBuf,
    pub state: PathBuf,
    pub config: PathBuf,
}

impl Paths {
    pub fn discover() -> Result<Self> {
        if let Some(home) = std::env::var_os("KWB_HOME") {
            // Absolute, because workers run in their own scratch directories.
            let home = std::path::absolute(Path::new(&home)).context("KWB_HOME is not a usable path")?;
            return Ok(Self::under(&home));
        }
        let dirs = directories::ProjectDirs::from("dev", "kwb", "kwb")
            .context("cannot find a home directory for kwb's data; set KWB_HOME to a folder")?;
        let data = dirs.data_dir().to_path_buf();
        let state = dirs.state_dir().map(Path::to_path_buf).unwrap_or_else(|| data.join("state"));
        Ok(Self { data, state, config: dirs.config_dir().to_path_buf() })
    }

    pub fn under(root: &Path) -> Self {
        Self { data: root.join("data"), state: root.join("state"), config: root.join("config") }
    }

    pub fn venv(&self) -> PathBuf {
        self.data.join("venv")
    }
    pub fn engine_src(&self) -> PathBuf {
        self.data.join("engine")
    }
    pub fn scratch(&self) -> PathBuf {
        self.data.join("scratch")
    }
    pub fn artifacts(&self) -> PathBuf {
        self.scratch().join("artifacts")
    }
    pub fn baseline_cache(&self) -> PathBuf {
        self.data.join("cache").join("baselines")
    }
    /// Reference outputs computed on this machine (see `eval::reference_outputs`).
    pub fn reference_outputs(&self) -> PathBuf {
        self.data.join("cache").join("reference-outputs")
    }
    pub fn log_dir(&self) -> PathBuf {
        self.state.join("logs")
    }
}
