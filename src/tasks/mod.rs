//! Tasks: discovery under a tasks directory, loading with clear errors, and
//! named suites. A task directory holds model.py (KernelBench format),
//! task.toml, reference.py (TVMScript), reference.json and outputs/seedN.digest.npz
//! (a digest of PyTorch's outputs; older imports: outputs/seedN.npz in full).

pub mod import;
pub mod import_batch;
pub mod meta;

use anyhow::{Context, Result, bail};
pub use meta::{ReferenceMeta, TaskMeta, Tolerance};
use serde::Serialize;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, Serialize)]
pub struct Task {
    pub meta: TaskMeta,
    pub dir: PathBuf,
    #[serde(skip)]
    pub reference: Option<ReferenceMeta>,
    /// The size this is, where not the task's own: `sizes/<size>/`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
}

/// A task directory that could not be loaded, and why.
#[derive(Debug, Clone, Serialize)]
pub struct TaskProblem {
    pub dir: PathBuf,
    pub message: String,
}

#[derive(Debug, Default)]
pub struct TaskSet {
    pub root: PathBuf,
    pub tasks: Vec<Task>,
    pub problems: Vec<TaskProblem>,
    pub suites: BTreeMap<String, Vec<String>>,
}

impl Task {
    pub fn load(dir: &Path) -> Result<Self> {
        let toml_path = dir.join("task.toml");
        let text = std::fs::read_to_string(&toml_path).with_context(|| format!("cannot read {}", toml_path.display()))?;
        let meta: TaskMeta = toml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {}", toml_path.display(), e.to_string().trim()))?;
        let problems = meta.problems();
        if !problems.is_empty() {
            bail!("{}: {}", toml_path.display(), problems.join("; "));
        }
        let ref_path = dir.join("reference.json");
        let reference = if ref_path.exists() {
            let t = std::fs::read_to_string(&ref_path)?;
            Some(serde_json::from_str(&t).with_context(|| format!("{} is malformed: re-run `kwb tasks import`", ref_path.display()))?)
        } else {
            None
        };
        Ok(Self { meta, dir: dir.to_path_buf(), reference, size: None })
    }

    /// Where its sizes for other devices live: `sizes/<size>/`, each a task
    /// directory of its own (model.py with other constants, written by
    /// `kwb tasks resize`). Never searched by the task set.
    pub fn sizes_dir(&self) -> PathBuf {
        self.dir.join("sizes")
    }

    /// The sizes it has besides its own.
    pub fn sizes(&self) -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(self.sizes_dir())
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.path().join("task.toml").is_file())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        out.sort();
        out
    }

    /// The task at `size`, or None where it has no such size. A sized task
    /// keeps the id; it must, or results would not line up.
    pub fn sized(&self, size: &str) -> Option<Result<Task>> {
        let dir = self.sizes_dir().join(size);
        if !dir.join("task.toml").is_file() {
            return None;
        }
        Some(Task::load(&dir).and_then(|mut t| {
            if t.meta.id != self.meta.id {
                bail!("{}: its id `{}` is not the task's `{}`", dir.join("task.toml").display(), t.meta.id, self.meta.id);
            }
            t.size = Some(size.to_string());
            Ok(t)
        }))
    }

    pub fn id(&self) -> &str {
        &self.meta.id
    }

    pub fn reference_text(&self) -> Result<String> {
        let p = self.dir.join("reference.py");
        std::fs::read_to_string(&p).with_context(|| format!("{} is missing: import the task with `kwb tasks import {}`", p.display(), self.dir.join("model.py").display()))
    }

    pub fn reference_meta(&self) -> Result<&ReferenceMeta> {
        self.reference
            .as_ref()
            .with_context(|| format!("task {} has no reference.json: import it with `kwb tasks import {}`", self.id(), self.dir.join("model.py").display()))
    }

    pub fn outputs_dir(&self) -> PathBuf {
        self.dir.join("outputs")
    }

    /// Identifies the task's reference program and its recorded outputs; keys caches.
    /// The recorded outputs are what the import wrote: each file's sha256
    /// against the one in reference.json. Older tasks without a record pass.
    pub fn verify_outputs(&self) -> Result<()> {
        let meta = self.reference_meta()?;
        for (file, want) in &meta.outputs_sha256 {
            let path = self.outputs_dir().join(file);
            let bytes = std::fs::read(&path).with_context(|| format!("cannot read {}", path.display()))?;
            if hex::encode(Sha256::digest(&bytes)) != *want {
                bail!("{} changed since the task was imported (its sha256 is not the one in reference.json): re-import the task with `kwb tasks import`", path.display());
            }
        }
        Ok(())
    }

    /// Whether the task ships a digest of PyTorch's outputs (checks then
    /// compare with the reference built on this machine, once it agrees
    /// with the digest) rather than the outputs themselves.
    pub fn has_output_digest(&self) -> bool {
        self.outputs_dir().join("seed0.digest.npz").is_file()
    }

    pub fn content_hash(&self) -> Result<String> {
        let mut h = Sha256::new();
        h.update(self.reference_text()?.as_bytes());
        let meta = self.reference_meta()?;
        h.update(serde_json::to_vec(&meta.args)?);
        let names: Vec<String> = if meta.outputs_sha256.is_empty() { (0..3).map(|s| format!("seed{s}.npz")).collect() } else { meta.outputs_sha256.keys().cloned().collect() };
        for name in names {
            if let Ok(b) = std::fs::read(self.outputs_dir().join(name)) {
                h.update(&b);
            }
        }
        Ok(hex::encode(&h.finalize()[..10]))
    }
}

impl TaskSet {
    /// Loads every task under `root`. Broken tasks become problems, not errors.
    pub fn load(root: &Path) -> Result<Self> {
        if !root.is_dir() {
            bail!("no tasks directory at {}: pass --tasks DIR or set KWB_TASKS", root.display());
        }
        // Absolute, because workers run in their own scratch directories.
        let root = &std::fs::canonicalize(root).with_context(|| format!("cannot open {}", root.display()))?;
        let mut set = TaskSet { root: root.to_path_buf(), ..Default::default() };
        let mut dirs = Vec::new();
        find_task_dirs(root, &mut dirs, 0);
        dirs.sort();
        for dir in dirs {
            match Task::load(&dir) {
                Ok(t) => {
                    if set.tasks.iter().any(|o| o.meta.id == t.meta.id) {
                        set.problems.push(TaskProblem { dir, message: format!("duplicate task id `{}`", t.meta.id) });
                    } else {
                        set.tasks.push(t);
                    }
                }
                Err(e) => set.problems.push(TaskProblem { dir, message: format!("{e:#}") }),
            }
        }
        set.suites = builtin_suites(&set.tasks);
        let suites_file = root.join("suites.toml");
        if suites_file.exists() {
            let text = std::fs::read_to_string(&suites_file)?;
            let named: BTreeMap<String, Vec<String>> = toml::from_str::<SuitesFile>(&text)
                .map_err(|e| anyhow::anyhow!("{}: {}", suites_file.display(), e.to_string().trim()))?
                .suites;
            for (name, ids) in named {
                for id in &ids {
                    if !set.tasks.iter().any(|t| &t.meta.id == id) {
                        set.problems.push(TaskProblem { dir: suites_file.clone(), message: format!("suite `{name}` names unknown task `{id}`") });
                    }
                }
                set.suites.insert(name, ids);
            }
        }
        Ok(set)
    }

    /// Every task at `size` where it has one (the others as they are), and
    /// the ids of those without it. A size that cannot be loaded is a
    /// problem, and the task stays at its own size.
    pub fn at_size(mut self, size: &str) -> (Self, Vec<String>) {
        let mut missing = Vec::new();
        for t in self.tasks.iter_mut() {
            match t.sized(size) {
                Some(Ok(s)) => *t = s,
                Some(Err(e)) => {
                    self.problems.push(TaskProblem { dir: t.sizes_dir().join(size), message: format!("{e:#}") });
                    missing.push(t.meta.id.clone());
                }
                None => missing.push(t.meta.id.clone()),
            }
        }
        (self, missing)
    }

    pub fn get(&self, id: &str) -> Result<&Task> {
        self.tasks.iter().find(|t| t.meta.id == id).with_context(|| {
            let close: Vec<&str> = self.tasks.iter().map(|t| t.meta.id.as_str()).filter(|t| t.contains(id) || id.contains(*t)).take(5).collect();
            if close.is_empty() { format!("no task `{id}`; `kwb tasks list` shows them") } else { format!("no task `{id}`; did you mean {}?", close.join(", ")) }
        })
    }

    pub fn suite(&self, name: &str) -> Result<Vec<&Task>> {
        let ids = self.suites.get(name).with_context(|| format!("no suite `{name}`; suites: {}", self.suites.keys().cloned().collect::<Vec<_>>().join(", ")))?;
        ids.iter().map(|id| self.get(id)).collect()
    }
}

#[derive(serde::Deserialize)]
struct SuitesFile {
    suites: BTreeMap<String, Vec<String>>,
}

fn builtin_suites(tasks: &[Task]) -> BTreeMap<String, Vec<String>> {
    let mut s: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for t in tasks {
        s.entry("all".into()).or_default().push(t.meta.id.clone());
        s.entry(format!("l{}", t.meta.level)).or_default().push(t.meta.id.clone());
        for d in &t.meta.domains {
            s.entry(d.clone()).or_default().push(t.meta.id.clone());
        }
    }
    s
}

fn find_task_dirs(dir: &Path, out: &mut Vec<PathBuf>, depth: usize) {
    if depth > 6 {
        return;
    }
    if dir.join("task.toml").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() && !p.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.')) {
                find_task_dirs(&p, out, depth + 1);
            }
        }
    }
}

/// The tasks directory: --tasks, then KWB_TASKS, then ./tasks, then the one
/// beside the binary's source tree (for `cargo run` from elsewhere).
pub fn resolve_root(flag: Option<&Path>) -> PathBuf {
    if let Some(p) = flag {
        return p.to_path_buf();
    }
    if let Some(p) = std::env::var_os("KWB_TASKS") {
        return PathBuf::from(p);
    }
    let local = PathBuf::from("tasks");
    if local.is_dir() {
        return local;
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tasks")
}
