//! An emulated board: another architecture's Python with TVM's runtime for
//! that architecture, run under qemu-user on this machine and served over
//! RPC like a real board (`kwb device serve --emulate aarch64`). Kernels
//! cross-built for the board are checked there for correct values; they are
//! not timed there, since qemu's times are this CPU translating another's
//! code (the servers say they are emulated, and the engine refuses).
//!
//! The Python comes from Debian's packages for the architecture, fetched
//! with apt into a private state folder (the system's apt setup is left as
//! it is) and unpacked, not installed; TVM's runtime, its FFI layer and numpy
//! from their wheels for the architecture, at the engine's own versions.
//! Made once per architecture and TVM version, under `<data>/emulate/`.

use anyhow::{Context, Result, bail};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What runs an emulated server.
#[derive(Debug, Clone)]
pub struct Emulation {
    pub arch: String,
    /// The qemu-user binary for the architecture.
    pub qemu: PathBuf,
    /// The unpacked Debian packages (qemu's `-L`).
    pub root: PathBuf,
    /// The architecture's Python, inside `root`.
    pub python: PathBuf,
    /// TVM's runtime and the wheels it needs, for the architecture.
    pub site: PathBuf,
    /// What the server says it runs under.
    pub label: String,
}

/// (kwb's name, Debian's architecture, qemu-user binary, wheel platform suffix).
const ARCHES: &[(&str, &str, &str, &str)] = &[("aarch64", "arm64", "qemu-aarch64", "aarch64")];

/// The Python packages the server imports, at the engine's versions.
const WHEELS: &[&str] = &["apache-tvm", "apache-tvm-ffi", "numpy", "typing_extensions", "cloudpickle", "psutil"];

/// Debian packages a server's Python does not need, though they are among
/// its recursive dependencies (tools of an installed system).
const SKIP_DEBS: &[&str] = &["dpkg", "tar", "install-info", "perl", "perl-base", "readline-common", "mailcap", "mime-support"];

pub fn known() -> String {
    ARCHES.iter().map(|a| a.0).collect::<Vec<_>>().join(", ")
}

/// The emulation for `arch`, made first if it is not there yet (a few
/// minutes and about 150 MB of downloads, once).
pub fn prepare(data: &Path, engine_python: &Path, arch: &str) -> Result<Emulation> {
    let Some(&(name, deb_arch, qemu_bin, wheel_arch)) = ARCHES.iter().find(|a| a.0 == arch) else {
        bail!("kwb cannot emulate `{arch}`; it knows: {}", known());
    };
    let qemu = which(qemu_bin).with_context(|| format!("{qemu_bin} is not installed: install Debian's qemu-user (`apt-get install qemu-user`)"))?;
    let versions = engine_versions(engine_python)?;
    let dir = data.join("emulate").join(name);
    let stamp = format!("{}\n{}", versions.iter().map(|(p, v)| format!("{p}=={v}")).collect::<Vec<_>>().join("\n"), qemu.display());
    let ready = dir.join("ready");
    if std::fs::read_to_string(&ready).ok().as_deref() != Some(stamp.as_str()) {
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        eprintln!("preparing an {name} Python with TVM's runtime for qemu-user, once (Debian packages and wheels, about 150 MB)");
        let py_version = unpack_debian_python(&dir, deb_arch)?;
        install_wheels(engine_python, &dir, &versions, &py_version, wheel_arch)?;
    }
    let root = dir.join("root");
    let python = std::fs::read_dir(root.join("usr/bin"))
        .with_context(|| format!("{} has no usr/bin: remove {} and serve again", root.display(), dir.display()))?
        .flatten()
        .map(|e| e.path())
        .find(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("python3.") && n[8..].chars().all(|c| c.is_ascii_digit())))
        .with_context(|| format!("no python3.N in {}: remove {} and serve again", root.join("usr/bin").display(), dir.display()))?;
    let emulation = Emulation { arch: name.into(), qemu, root, python, site: dir.join("site"), label: format!("qemu-user {name} on {}", std::env::consts::ARCH) };
    let probe = emulation.command().args(["-c", "import tvm, numpy; print(tvm.__version__)"]).output().context("running qemu-user")?;
    if !probe.status.success() {
        let _ = std::fs::remove_file(&ready);
        bail!("the emulated Python cannot import TVM's runtime: {}", String::from_utf8_lossy(&probe.stderr).trim());
    }
    std::fs::write(&ready, &stamp)?;
    Ok(emulation)
}

impl Emulation {
    /// qemu running the architecture's Python, with its packages on the path.
    pub fn command(&self) -> Command {
        let mut c = Command::new(&self.qemu);
        c.args(self.python_args()).envs(self.env(&[]));
        c
    }

    /// The environment its Python runs with: the architecture's packages
    /// first on the path, then `more` folders (pure Python, such as kwb's
    /// engine), and no user site.
    pub fn env(&self, more: &[&Path]) -> Vec<(String, String)> {
        let folders = std::iter::once(self.site.as_path()).chain(more.iter().copied());
        let path = std::env::join_paths(folders).map(|p| p.to_string_lossy().into_owned()).unwrap_or_default();
        vec![("PYTHONPATH".into(), path), ("PYTHONNOUSERSITE".into(), "1".into())]
    }

    /// qemu's arguments that run the architecture's Python.
    pub fn python_args(&self) -> Vec<String> {
        vec!["-L".into(), self.root.display().to_string(), self.python.display().to_string()]
    }
}

fn which(bin: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(bin)).find(|p| p.is_file()))
}

fn engine_versions(python: &Path) -> Result<Vec<(String, String)>> {
    let script = format!(
        "import importlib.metadata as m\nfor p in {WHEELS:?}:\n    print(p, m.version(p))"
    );
    let out = Command::new(python).args(["-c", &script]).output().context("running the engine's Python")?;
    if !out.status.success() {
        bail!("the engine's Python lacks a package the emulated server needs: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).lines().filter_map(|l| l.split_once(' ')).map(|(p, v)| (p.into(), v.into())).collect())
}

/// apt-get with its state, cache and architecture of its own: the
/// system's sources, nothing installed or changed outside `dir`.
fn apt(dir: &Path, deb_arch: &str, tool: &str) -> Command {
    let mut c = Command::new(tool);
    let state = dir.join("apt");
    for sub in ["lists/partial", "cache/archives/partial"] {
        let _ = std::fs::create_dir_all(state.join(sub));
    }
    let opt = |k: &str, v: &Path| format!("{k}={}", v.display());
    c.args(["-q", "-o"]).arg(opt("Dir::State", &state));
    c.arg("-o").arg(opt("Dir::State::Lists", &state.join("lists")));
    c.arg("-o").arg(opt("Dir::Cache", &state.join("cache")));
    c.arg("-o").arg(opt("Dir::State::status", Path::new("/dev/null")));
    c.args(["-o", &format!("APT::Architecture={deb_arch}"), "-o", &format!("APT::Architectures={deb_arch}")]);
    c.args(["-o", "APT::Sandbox::User=root"]);
    c
}

fn run(c: &mut Command, what: &str) -> Result<String> {
    let out = c.output().with_context(|| format!("cannot run {what}"))?;
    if !out.status.success() {
        bail!("{what} failed: {}", String::from_utf8_lossy(&out.stderr).trim());
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Downloads Debian's Python for the architecture and what it links,
/// unpacks them into `dir/root`, and returns its version ("3.11").
fn unpack_debian_python(dir: &Path, deb_arch: &str) -> Result<String> {
    let hint = "(Debian's package mirror must be reachable, and serve the architecture)";
    run(apt(dir, deb_arch, "apt-get").arg("update"), &format!("apt-get update for {deb_arch} {hint}"))?;
    let depends = run(apt(dir, deb_arch, "apt-cache").args(["depends", "python3-minimal"]), "apt-cache depends")?;
    let python = depends
        .split_whitespace()
        .find(|w| w.starts_with("python3.") && w.ends_with("-minimal"))
        .with_context(|| format!("Debian's python3-minimal for {deb_arch} names no python3.N-minimal"))?
        .trim_end_matches("-minimal")
        .to_string();
    let version = python.trim_start_matches("python").to_string();
    let tree = run(
        apt(dir, deb_arch, "apt-cache").args(["depends", "--recurse", "--no-recommends", "--no-suggests", "--no-conflicts", "--no-breaks", "--no-replaces", "--no-enhances"])
            .arg(format!("{python}-minimal"))
            .arg(format!("lib{python}-stdlib"))
            // TVM's runtime and its FFI layer are C++.
            .arg("libstdc++6"),
        "apt-cache depends --recurse",
    )?;
    let mut debs: Vec<&str> = tree.lines().filter(|l| !l.starts_with(' ') && !l.starts_with('<') && !SKIP_DEBS.contains(l) && !l.starts_with("perl-modules") && !l.starts_with("libperl")).collect();
    debs.sort();
    debs.dedup();
    let downloads = dir.join("debs");
    std::fs::create_dir_all(&downloads)?;
    run(apt(dir, deb_arch, "apt-get").current_dir(&downloads).arg("download").args(&debs), &format!("apt-get download {hint}"))?;
    let root = dir.join("root");
    for deb in std::fs::read_dir(&downloads)?.flatten().map(|e| e.path()) {
        run(Command::new("dpkg-deb").arg("-x").arg(&deb).arg(&root), &format!("dpkg-deb -x {}", deb.display()))?;
    }
    // Kept: the unpacked tree. The archives and package lists are only
    // what it was made from.
    let _ = std::fs::remove_dir_all(&downloads);
    let _ = std::fs::remove_dir_all(dir.join("apt"));
    Ok(version)
}

/// The architecture's wheels at the engine's versions, unpacked into
/// `dir/site`, TVM without its compiler (a board needs the runtime only).
fn install_wheels(python: &Path, dir: &Path, versions: &[(String, String)], py_version: &str, wheel_arch: &str) -> Result<()> {
    let wheels = dir.join("wheels");
    let mut pip = Command::new(python);
    pip.args(["-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:", "--python-version", py_version]);
    for tag in ["manylinux_2_28", "manylinux_2_27", "manylinux_2_24", "manylinux_2_17", "manylinux2014"] {
        pip.args(["--platform", &format!("{tag}_{wheel_arch}")]);
    }
    pip.args(versions.iter().map(|(p, v)| format!("{p}=={v}"))).arg("-d").arg(&wheels);
    run(&mut pip, &format!("pip download of the {wheel_arch} wheels (the package index must be reachable once)"))?;
    let unpack = "import sys, zipfile, glob\nskip = ('tvm/lib/libtvm_compiler.so', 'tvm/3rdparty/', 'tvm/web/')\n\
                  for w in glob.glob(sys.argv[1] + '/*.whl'):\n    z = zipfile.ZipFile(w)\n    \
                  z.extractall(sys.argv[2], [n for n in z.namelist() if not n.startswith(skip)])";
    let mut c = Command::new(python);
    c.args(["-c", unpack]).arg(&wheels).arg(dir.join("site"));
    run(&mut c, "unpacking the wheels")?;
    let _ = std::fs::remove_dir_all(&wheels);
    Ok(())
}
