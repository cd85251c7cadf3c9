//! A session as the workbench sees it: the event log, a cursor into it, and
//! the state rebuilt from events `0..cursor` (tree, profiles, speedup
//! trace). Replay moves the cursor; a live run appends events and the cursor
//! follows when it was at the end. Also: the index of session files on disk
//! that gives the task browser its per-task best and sparkline.

use crate::session::{CandidateTree, Event, EventKind, Header, Loaded};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One evaluated candidate on the speedup trace.
#[derive(Debug, Clone, PartialEq)]
pub struct TracePoint {
    /// Seconds since the session's first event.
    pub t_s: f64,
    pub node: u32,
    /// None when the candidate failed or its timing is invalid.
    pub speedup: Option<f64>,
    /// The device it was timed on (a session can switch devices).
    pub device: String,
}

#[derive(Debug, Clone)]
pub struct SessionView {
    pub path: Option<PathBuf>,
    pub header: Header,
    pub events: Vec<Event>,
    pub cursor: usize,
    pub tree: CandidateTree,
    pub profiles: HashMap<u32, Value>,
    pub trace: Vec<TracePoint>,
    pub playing: bool,
    /// Events per second while playing.
    pub speed: f64,
    acc_ms: u64,
    pub warnings: Vec<String>,
}

pub const SPEEDS: &[f64] = &[0.5, 1.0, 2.0, 5.0, 10.0, 50.0];

impl SessionView {
    /// Opens a loaded log at its end (the latest state).
    pub fn new(path: Option<PathBuf>, loaded: Loaded) -> Self {
        let mut v = Self {
            path,
            header: loaded.header,
            events: loaded.events,
            cursor: 0,
            tree: CandidateTree::default(),
            profiles: HashMap::new(),
            trace: vec![],
            playing: false,
            speed: 2.0,
            acc_ms: 0,
            warnings: loaded.warnings,
        };
        v.seek(v.events.len());
        v
    }

    pub fn at_end(&self) -> bool {
        self.cursor == self.events.len()
    }

    fn apply_next(&mut self) {
        let e = &self.events[self.cursor];
        let t0 = self.events.first().map(|e| e.ts_ms).unwrap_or(e.ts_ms);
        match &e.kind {
            EventKind::Profile { node, profile } => {
                self.profiles.insert(*node, profile.clone());
            }
            EventKind::EvalFinished { node, result, .. } => {
                let speedup = result.speedup_median.filter(|_| result.correct && result.timing_valid);
                self.trace.push(TracePoint { t_s: e.ts_ms.saturating_sub(t0) as f64 / 1000.0, node: *node, speedup, device: result.manifest.device.clone() });
            }
            _ => {}
        }
        self.tree.apply(e);
        self.cursor += 1;
    }

    /// Puts the state at "after `k` events", replaying from the start when going back.
    pub fn seek(&mut self, k: usize) {
        let k = k.min(self.events.len());
        if k < self.cursor {
            self.cursor = 0;
            self.tree = CandidateTree::default();
            self.profiles.clear();
            self.trace.clear();
        }
        while self.cursor < k {
            self.apply_next();
        }
    }

    /// A live event: appended, and shown at once if the view was at the end.
    pub fn push(&mut self, e: Event) {
        let follow = self.at_end();
        self.events.push(e);
        if follow {
            self.seek(self.events.len());
        }
    }

    /// The moment a node's evaluation finished (or, failing that, it was created).
    pub fn event_of_node(&self, id: u32) -> Option<usize> {
        let finished = self.events.iter().position(|e| matches!(&e.kind, EventKind::EvalFinished { node, .. } if *node == id));
        finished.or_else(|| self.events.iter().position(|e| matches!(&e.kind, EventKind::Edit { node } if node.id == id)))
    }

    /// Advances playback by `ms`; returns whether anything moved.
    pub fn tick(&mut self, ms: u64) -> bool {
        if !self.playing {
            return false;
        }
        self.acc_ms += ms;
        let every = (1000.0 / self.speed) as u64;
        let mut moved = false;
        while self.acc_ms >= every && !self.at_end() {
            self.acc_ms -= every;
            self.seek(self.cursor + 1);
            moved = true;
        }
        if self.at_end() {
            self.playing = false;
            self.acc_ms = 0;
        }
        moved
    }

    pub fn change_speed(&mut self, faster: bool) {
        let i = SPEEDS.iter().position(|s| *s >= self.speed).unwrap_or(1);
        let j = if faster { (i + 1).min(SPEEDS.len() - 1) } else { i.saturating_sub(1) };
        self.speed = SPEEDS[j];
    }

    /// A one-line description of the event just applied.
    pub fn describe(&self, i: usize) -> String {
        let Some(e) = self.events.get(i) else { return "start".into() };
        match &e.kind {
            EventKind::Proposal { author, parent, layer, rationale, .. } => format!("{author} proposes {layer} from #{parent}: {rationale}"),
            EventKind::Edit { node } => format!("#{} created ({} by {})", node.id, node.layer, node.author),
            EventKind::Refused { author, failure, .. } => format!("refused ({author}): {}", failure.class),
            EventKind::EvalStarted { node } => format!("#{node} evaluating"),
            EventKind::EvalFinished { node, result, .. } => match (result.correct, result.speedup_median) {
                (true, Some(s)) => format!("#{node} correct, {s:.3}x"),
                (true, None) => format!("#{node} correct"),
                (false, _) => format!("#{node} failed: {}", result.failure_class.map(|c| c.to_string()).unwrap_or_default()),
            },
            EventKind::Profile { node, profile } => format!("#{node} profiled: {}", profile.get("bottleneck").and_then(Value::as_str).unwrap_or("no bottleneck named")),
            EventKind::HumanAction { action, node, .. } => format!("person: {action}{}", node.map(|n| format!(" #{n}")).unwrap_or_default()),
            EventKind::Note { text, .. } => format!("note: {text}"),
        }
    }
}

/// What the task browser shows for a task's sessions.
#[derive(Debug, Clone)]
pub struct SessionSummary {
    pub path: PathBuf,
    pub task: String,
    pub best: Option<f64>,
    /// The best valid speedup on each device the session timed on.
    pub best_by_device: std::collections::BTreeMap<String, f64>,
    pub evaluated: u32,
    pub failed: u32,
    /// Best-so-far speedup after each evaluation (the sparkline).
    pub best_so_far: Vec<f64>,
    pub modified: std::time::SystemTime,
}

/// Reads every `*.jsonl` session under the folders; unreadable files are skipped.
pub fn scan(dirs: &[PathBuf]) -> Vec<SessionSummary> {
    let mut out = vec![];
    for dir in dirs {
        let Ok(rd) = std::fs::read_dir(dir) else { continue };
        for entry in rd.flatten() {
            let p = entry.path();
            if p.extension().is_some_and(|e| e == "jsonl")
                && let Some(s) = summarise(&p)
            {
                out.push(s);
            }
        }
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.modified));
    out
}

fn summarise(path: &Path) -> Option<SessionSummary> {
    let loaded = crate::session::load(path).ok()?;
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).unwrap_or(std::time::UNIX_EPOCH);
    let (mut best, mut evaluated, mut failed, mut trace) = (None::<f64>, 0, 0, vec![]);
    let mut best_by_device = std::collections::BTreeMap::<String, f64>::new();
    for e in &loaded.events {
        if let EventKind::EvalFinished { result, .. } = &e.kind {
            evaluated += 1;
            if !result.correct {
                failed += 1;
            }
            if let Some(s) = result.speedup_median.filter(|_| result.correct && result.timing_valid) {
                best = Some(best.map_or(s, |b| b.max(s)));
                let on = best_by_device.entry(result.manifest.device.clone()).or_insert(s);
                *on = on.max(s);
            }
            trace.push(best.unwrap_or(0.0));
        }
    }
    Some(SessionSummary { path: path.to_path_buf(), task: loaded.header.task, best, best_by_device, evaluated, failed, best_so_far: trace, modified })
}

/// Eight-level bars for a list row.
pub fn sparkline(values: &[f64], width: usize) -> String {
    const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
    if values.is_empty() || width == 0 {
        return String::new();
    }
    let tail = &values[values.len().saturating_sub(width)..];
    let max = tail.iter().cloned().fold(f64::MIN, f64::max).max(1e-9);
    let min = tail.iter().cloned().fold(f64::MAX, f64::min).min(max);
    tail.iter()
        .map(|v| {
            let f = if max > min { (v - min) / (max - min) } else { 1.0 };
            BARS[((f * 7.0).round() as usize).min(7)]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fixture() -> SessionView {
        let p = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sessions/v1-relu.jsonl");
        SessionView::new(Some(p.clone()), crate::session::load(&p).unwrap())
    }

    #[test]
    fn seeking_back_and_forth_rebuilds_the_same_state() {
        let mut v = fixture();
        let (nodes, trace) = (v.tree.nodes.len(), v.trace.clone());
        v.seek(3);
        assert_eq!(v.tree.nodes.len(), 1);
        assert_eq!(v.trace.len(), 1);
        v.seek(usize::MAX);
        assert_eq!((v.tree.nodes.len(), v.trace.clone()), (nodes, trace));
    }

    #[test]
    fn playback_advances_at_its_speed_and_stops_at_the_end() {
        let mut v = fixture();
        v.seek(0);
        v.playing = true;
        v.speed = 10.0;
        assert!(v.tick(250));
        assert_eq!(v.cursor, 2);
        v.tick(1_000_000);
        assert!(v.at_end() && !v.playing);
    }

    /// A speedup belongs to the device it was timed on: the same session
    /// timed on a board is summarised under the board, not the local CPU.
    #[test]
    fn bests_are_kept_per_device() {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sessions/v1-relu.jsonl");
        let dir = tempfile::tempdir().unwrap();
        let text = std::fs::read_to_string(&src).unwrap();
        std::fs::write(dir.path().join("here.jsonl"), &text).unwrap();
        std::fs::write(dir.path().join("board.jsonl"), text.replace("\"device\":\"local-cpu\"", "\"device\":\"board\"")).unwrap();
        let all = scan(&[dir.path().to_path_buf()]);
        assert_eq!(all.len(), 2);
        let by = |name: &str| all.iter().find(|s| s.path.ends_with(name)).unwrap();
        let here: Vec<&str> = by("here.jsonl").best_by_device.keys().map(String::as_str).collect();
        let board: Vec<&str> = by("board.jsonl").best_by_device.keys().map(String::as_str).collect();
        assert_eq!((here, board), (vec!["local-cpu"], vec!["board"]));
        assert_eq!(by("board.jsonl").best_by_device["board"], by("here.jsonl").best.unwrap());
        let v = SessionView::new(None, crate::session::load(&dir.path().join("board.jsonl")).unwrap());
        assert!(!v.trace.is_empty() && v.trace.iter().all(|p| p.device == "board"));
    }

    #[test]
    fn sparkline_scales_to_its_range() {
        assert_eq!(sparkline(&[1.0, 2.0], 5), "▁█");
        assert_eq!(sparkline(&[], 5), "");
    }
}
