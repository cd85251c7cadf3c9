//! `kwb baseline export|import`: tuning databases that outlive a machine's
//! data directory. Tuning a suite at the calibrated budget takes hours on
//! two cores; an export (one .tar.gz of the calibration and every finished
//! or partial tuning folder) can be committed and imported by a later
//! session, which then resumes instead of starting over. A tuning folder is
//! named by task, reference and target, so an import onto a machine whose
//! target differs adds folders that nothing there uses.

use crate::workspace::Workspace;
use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

/// The files of a tuning folder worth keeping (MetaSchedule's logs are
/// not); kwb-reused.json lists the kernels whose records were copied from
/// other tasks' tunings, so a resumed tuning leaves them out again and a
/// later one does not count those records twice.
const KEPT: &[&str] = &["database_workload.json", "database_tuning_record.json", "kwb-tuning.json", "kwb-reused.json"];
const CALIBRATION: &str = "calibration.json";

fn baselines(ctx: &Workspace) -> PathBuf {
    ctx.paths.data.join("baselines")
}

pub fn export(ctx: &Workspace, out: &Path) -> Result<ExitCode> {
    let root = baselines(ctx);
    let stage = tempfile::tempdir()?;
    let dest = stage.path().join("baselines");
    std::fs::create_dir_all(dest.join("tuned"))?;
    let mut folders = 0;
    for e in std::fs::read_dir(root.join("tuned")).into_iter().flatten().flatten() {
        let from = e.path();
        if !from.join("database_tuning_record.json").is_file() {
            continue;
        }
        let to = dest.join("tuned").join(e.file_name());
        std::fs::create_dir_all(&to)?;
        for f in KEPT {
            if from.join(f).is_file() {
                std::fs::copy(from.join(f), to.join(f))?;
            }
        }
        folders += 1;
    }
    let calibrated = root.join(CALIBRATION).is_file();
    if calibrated {
        std::fs::copy(root.join(CALIBRATION), dest.join(CALIBRATION))?;
    }
    if folders == 0 && !calibrated {
        bail!("nothing to export: no tuning under {} (run `kwb baseline tune` first)", root.display());
    }
    if let Some(parent) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)?;
    }
    let tmp = out.with_extension("partial");
    let ok = Command::new("tar").arg("-czf").arg(&tmp).arg("-C").arg(stage.path()).arg("baselines").status().context("running tar")?;
    if !ok.success() {
        bail!("tar could not write {}", tmp.display());
    }
    std::fs::rename(&tmp, out)?;
    let bytes = std::fs::metadata(out)?.len();
    println!("exported {folders} tuning folders{} to {} ({:.1} KiB)", if calibrated { " and the calibration" } else { "" }, out.display(), bytes as f64 / 1024.0);
    Ok(ExitCode::SUCCESS)
}

/// Adds an export's tunings to this machine's. A folder here with more
/// tuning records than the export's is kept: an import never loses trials.
pub fn import(ctx: &Workspace, file: &Path) -> Result<ExitCode> {
    let stage = tempfile::tempdir()?;
    let ok = Command::new("tar").arg("-xzf").arg(file).arg("-C").arg(stage.path()).status().context("running tar")?;
    if !ok.success() {
        bail!("{} is not an export of `kwb baseline export` (tar could not read it)", file.display());
    }
    let from = stage.path().join("baselines");
    if !from.is_dir() {
        bail!("{} holds no baselines/ folder: is it an export of `kwb baseline export`?", file.display());
    }
    let root = baselines(ctx);
    std::fs::create_dir_all(root.join("tuned"))?;
    let (mut added, mut kept) = (0, 0);
    for e in std::fs::read_dir(from.join("tuned")).into_iter().flatten().flatten() {
        let name = e.file_name();
        if name.to_string_lossy().contains("..") || name.to_string_lossy().contains('/') {
            continue;
        }
        let to = root.join("tuned").join(&name);
        if records(&to) >= records(&e.path()) && to.join("database_tuning_record.json").is_file() {
            kept += 1;
            continue;
        }
        std::fs::create_dir_all(&to)?;
        for f in KEPT {
            let src = e.path().join(f);
            if src.is_file() {
                std::fs::copy(&src, to.join(f))?;
            } else {
                // An unfinished tuning has no report: so it resumes.
                let _ = std::fs::remove_file(to.join(f));
            }
        }
        added += 1;
    }
    let calibration = from.join(CALIBRATION);
    let calibrated = calibration.is_file() && !root.join(CALIBRATION).is_file();
    if calibrated {
        std::fs::copy(&calibration, root.join(CALIBRATION))?;
    }
    println!(
        "imported {added} tuning folders ({kept} kept: this machine's had as many records){}",
        if calibrated { "; the calibration too" } else if calibration.is_file() { "; this machine's own calibration kept" } else { "" }
    );
    Ok(ExitCode::SUCCESS)
}

/// Tuning records in a folder (one JSON line each).
fn records(dir: &Path) -> usize {
    std::fs::read_to_string(dir.join("database_tuning_record.json")).map_or(0, |t| t.lines().filter(|l| !l.trim().is_empty()).count())
}
