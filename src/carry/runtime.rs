//! What a device with no TVM needs to run a pack: TVM's runtime (the `tvm`
//! package of kwb's engine without its compiler library, about 4 MB packed),
//! the wheel of its FFI layer for the device's Python, and `run.sh`. Made
//! once per TVM version and device Python, then copied into each pack.

use crate::engine::Engine;
use anyhow::{Context, Result, bail};
use std::path::Path;
use std::process::Command;

const RUN_SH: &str = r#"#!/usr/bin/env bash
# Runs this pack on the device: bash run.sh OUT_DIR [--only a,b] [--time-limit S]
# Needs Python 3 with numpy (and PyTorch for the eager column), nvcc for CUDA;
# no TVM and no network: TVM's runtime travels in runtime/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${1:?usage: bash run.sh OUT_DIR [--only a,b] [--time-limit S]}"; shift
site="$(mktemp -d)/site"
python3 -m pip install -q --no-index --no-deps --no-compile --target "$site" "$here"/runtime/*.whl
tar -C "$site" -xzf "$here/runtime/tvm_rt.tar.gz"
mkdir -p "$out"
PYTHONPATH="$site:$here/engine" PYTHONUNBUFFERED=1 python3 -m kwb_engine.carried "$here" "$out" "$@" 2>&1 | tee "$out/log.txt"
"#;

pub fn write(engine: &Engine, pack: &Path, device_python: &str) -> Result<()> {
    let python = &engine.config().env.python;
    let cache = engine.config().artifacts.parent().unwrap_or(Path::new(".")).join("carry-runtime").join(format!("py{device_python}"));
    if !cache.join("tvm_rt.tar.gz").exists() || !has_wheel(&cache) {
        make(python, &cache, device_python)?;
    }
    let to = pack.join("runtime");
    std::fs::create_dir_all(&to)?;
    for entry in std::fs::read_dir(&cache)? {
        let p = entry?.path();
        std::fs::copy(&p, to.join(p.file_name().expect("file name")))?;
    }
    std::fs::write(pack.join("run.sh"), RUN_SH)?;
    Ok(())
}

fn has_wheel(dir: &Path) -> bool {
    std::fs::read_dir(dir).map(|d| d.flatten().any(|e| e.path().extension().is_some_and(|x| x == "whl"))).unwrap_or(false)
}

fn make(python: &Path, cache: &Path, device_python: &str) -> Result<()> {
    std::fs::create_dir_all(cache)?;
    let probe = Command::new(python)
        .args(["-c", "import importlib.metadata as m, importlib.util as u, os; print(os.path.dirname(os.path.dirname(u.find_spec('tvm').origin))); print(m.version('apache-tvm-ffi'))"])
        .output()
        .context("running the engine's Python")?;
    let text = String::from_utf8_lossy(&probe.stdout).to_string();
    let mut lines = text.lines();
    let (Some(site), Some(ffi)) = (lines.next(), lines.next()) else {
        bail!("cannot find TVM in the engine's Python: {}", String::from_utf8_lossy(&probe.stderr));
    };
    let tar = Command::new("tar")
        .args(["-czf"])
        .arg(cache.join("tvm_rt.tar.gz"))
        .args(["-C", site, "--exclude=tvm/lib/libtvm_compiler.so", "--exclude=tvm/3rdparty", "--exclude=tvm/web", "--exclude=__pycache__", "tvm"])
        .status()
        .context("running tar")?;
    if !tar.success() {
        bail!("tar of TVM's runtime failed");
    }
    let pip = Command::new(python)
        .args(["-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--python-version", device_python])
        .args(["--platform", "manylinux_2_28_x86_64", "--platform", "manylinux_2_17_x86_64", "--platform", "manylinux2014_x86_64"])
        .arg(format!("apache-tvm-ffi=={ffi}"))
        .arg("-d")
        .arg(cache)
        .status()
        .context("running pip download")?;
    if !pip.success() {
        bail!("cannot download the apache-tvm-ffi {ffi} wheel for Python {device_python} (the package index must be reachable once)");
    }
    Ok(())
}
