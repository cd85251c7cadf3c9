//! The engine's Python environment: a venv under the data directory with the
//! pinned requirements, made on first use and checked on every start.
//!
//! A venv counts as ready only when its marker file holds the hash of the
//! requirements it was built from; anything else (half-made, older pins, a
//! deleted interpreter) is removed and rebuilt. `KWB_PYTHON` names an existing
//! interpreter instead, which is then used as it is.

use crate::paths::Paths;
use anyhow::{Context, Result, bail};
use include_dir::{Dir, include_dir};
use sha2::{Digest, Sha256};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub const REQUIREMENTS: &str = include_str!("requirements.txt");
pub const REQUIREMENTS_TORCH: &str = include_str!("requirements-torch.txt");
static WORKER_SOURCE: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/src/engine/python");

const READY_MARKER: &str = ".kwb-ready";
const TORCH_MARKER: &str = ".kwb-torch-ready";

/// The interpreter and worker source a pool starts workers with.
#[derive(Debug, Clone)]
pub struct PythonEnv {
    pub python: PathBuf,
    /// Folder holding the `kwb_engine` package (goes on PYTHONPATH).
    pub worker_dir: PathBuf,
    /// True when the interpreter came from KWB_PYTHON rather than kwb's venv.
    pub external: bool,
}

fn hash_text(parts: &[&str]) -> String {
    let mut h = Sha256::new();
    for p in parts {
        h.update(p.as_bytes());
        h.update([0]);
    }
    hex::encode(&h.finalize()[..8])
}

fn collect_files<'a>(dir: &'a Dir<'a>, out: &mut Vec<&'a include_dir::File<'a>>) {
    for f in dir.files() {
        if f.path().extension().is_some_and(|e| e == "py") {
            out.push(f);
        }
    }
    for d in dir.dirs() {
        collect_files(d, out);
    }
}

fn hash_worker_source() -> String {
    let mut h = Sha256::new();
    let mut files = Vec::new();
    collect_files(&WORKER_SOURCE, &mut files);
    files.sort_by_key(|f| f.path().to_path_buf());
    for f in files {
        h.update(f.path().to_string_lossy().as_bytes());
        h.update(f.contents());
    }
    hex::encode(&h.finalize()[..8])
}

/// Writes the embedded worker package under the data directory (once per
/// version of its source) and returns the folder to put on PYTHONPATH.
pub fn install_worker_source(paths: &Paths) -> Result<PathBuf> {
    let dir = paths.engine_src().join(format!("py-{}", hash_worker_source()));
    if dir.join("kwb_engine").join("__main__.py").exists() {
        // Trusted only while every file is what kwb embeds: a changed or
        // missing file means the copy is rewritten before any worker runs it.
        if installed_source_matches(&dir) {
            return Ok(dir);
        }
        tracing::warn!(dir = %dir.display(), "the installed engine code differs from kwb's; reinstalling it");
        std::fs::remove_dir_all(&dir).with_context(|| format!("cannot remove the altered engine code at {}", dir.display()))?;
    }
    let tmp = paths.engine_src().join(format!(".tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp).with_context(|| format!("cannot create {}", tmp.display()))?;
    WORKER_SOURCE.extract(&tmp).context("cannot write the engine worker's source")?;
    match std::fs::rename(&tmp, &dir) {
        Ok(()) => {}
        Err(_) if dir.exists() => {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        Err(e) => return Err(e).with_context(|| format!("cannot install {}", dir.display())),
    }
    Ok(dir)
}

fn installed_source_matches(dir: &Path) -> bool {
    let mut files = Vec::new();
    collect_files(&WORKER_SOURCE, &mut files);
    files.iter().all(|f| std::fs::read(dir.join(f.path())).is_ok_and(|on_disk| on_disk == f.contents()))
}

fn venv_python(venv: &Path) -> PathBuf {
    venv.join("bin").join("python")
}

/// The environment workers run in, creating it if needed. Progress goes to stderr.
pub fn ensure(paths: &Paths, with_torch: bool, force: bool) -> Result<PythonEnv> {
    let worker_dir = install_worker_source(paths)?;
    if let Some(py) = std::env::var_os("KWB_PYTHON") {
        return Ok(PythonEnv { python: PathBuf::from(py), worker_dir, external: true });
    }
    std::fs::create_dir_all(&paths.data)?;
    // One process builds the venv at a time; the others wait and then find it ready.
    let lock = File::create(paths.data.join("venv.lock"))?;
    lock.lock().context("cannot lock the engine environment")?;
    let venv = paths.venv();
    let want = hash_text(&[REQUIREMENTS]);
    let ready = std::fs::read_to_string(venv.join(READY_MARKER)).ok();
    let usable = ready.as_deref().map(str::trim) == Some(want.as_str()) && venv_python(&venv).exists() && missing_packages(&venv).is_empty();
    if force || !usable {
        if venv.exists() {
            eprintln!("engine setup: the environment at {} is incomplete or outdated; rebuilding it", venv.display());
            std::fs::remove_dir_all(&venv).with_context(|| format!("cannot remove {}", venv.display()))?;
        }
        create_venv(&venv)?;
        pip_install(&venv, REQUIREMENTS, "engine requirements")?;
        std::fs::write(venv.join(READY_MARKER), &want)?;
        eprintln!("engine setup: ready at {}", venv.display());
    }
    if with_torch {
        let want_torch = hash_text(&[REQUIREMENTS_TORCH]);
        let have = std::fs::read_to_string(venv.join(TORCH_MARKER)).ok();
        if have.as_deref().map(str::trim) != Some(want_torch.as_str()) {
            pip_install(&venv, REQUIREMENTS_TORCH, "PyTorch (for task import; about 6 GB)")?;
            std::fs::write(venv.join(TORCH_MARKER), &want_torch)?;
        }
    }
    Ok(PythonEnv { python: venv_python(&venv), worker_dir, external: false })
}

/// Packages the worker imports that are absent from the venv's site-packages:
/// a cheap file check, so a second start stays instant.
pub fn missing_packages(venv: &Path) -> Vec<&'static str> {
    let site = std::fs::read_dir(venv.join("lib"))
        .ok()
        .and_then(|rd| rd.flatten().map(|e| e.path()).find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("python"))))
        .map(|p| p.join("site-packages"));
    let Some(site) = site else { return vec!["python"] };
    ["tvm", "tvm_ffi", "numpy", "ml_dtypes", "psutil", "cloudpickle", "tornado"]
        .into_iter()
        .filter(|pkg| !site.join(pkg).join("__init__.py").exists())
        .collect()
}

pub fn has_torch_marker(paths: &Paths) -> bool {
    paths.venv().join(TORCH_MARKER).exists()
}

fn base_python() -> String {
    std::env::var("KWB_BASE_PYTHON").unwrap_or_else(|_| "python3".to_string())
}

fn create_venv(venv: &Path) -> Result<()> {
    let py = base_python();
    eprintln!("engine setup: creating a Python environment with {py} at {}", venv.display());
    let status = Command::new(&py)
        .args(["-m", "venv"])
        .arg(venv)
        .status()
        .with_context(|| format!("cannot run `{py}`: install Python 3.10+ or set KWB_BASE_PYTHON (or KWB_PYTHON)"))?;
    if !status.success() {
        bail!("`{py} -m venv` failed ({status}); on Debian install python3-venv, or set KWB_PYTHON to an interpreter that has TVM");
    }
    Ok(())
}

fn pip_install(venv: &Path, requirements: &str, what: &str) -> Result<()> {
    let req_file = venv.join(format!("kwb-req-{}.txt", hash_text(&[requirements])));
    std::fs::write(&req_file, requirements)?;
    eprintln!("engine setup: installing {what}");
    let mut child = Command::new(venv_python(venv))
        .args(["-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off", "-r"])
        .arg(&req_file)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .context("cannot start pip in the engine environment")?;
    if let Some(out) = child.stdout.take() {
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let line = line.trim();
            if line.starts_with("Collecting") || line.starts_with("Installing") || line.starts_with("Successfully") {
                eprintln!("engine setup: {line}");
            }
        }
    }
    let status = child.wait()?;
    if !status.success() {
        bail!("pip could not install the {what} ({status}); check that PyPI is reachable, then run `kwb engine setup --force`");
    }
    Ok(())
}
