//! The append-only JSONL file behind a session.
//!
//! Each event is serialised first and written with one `write_all` of the
//! whole line, in append mode: a process killed mid-write leaves at most a
//! torn last line. Loading detects a torn or corrupt line, warns, and skips
//! it; opening for append first ends a torn line with a newline, so the next
//! event starts clean. The file is never rewritten in place. From schema 2
//! layer texts are stored once per log (see `text_store`).

use super::event::{Event, EventKind, Header, SCHEMA_VERSION};
use super::text_store::{self, Store, TextLine, Written};
use anyhow::{Context, Result, bail};
use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

pub struct SessionLog {
    path: PathBuf,
    file: File,
    next_seq: u64,
    /// Texts already in the file; None for a schema-1 log, which is
    /// continued in its own format.
    texts: Option<Written>,
}

/// A log as read back: the header, the events in order, and what was skipped.
#[derive(Debug)]
pub struct Loaded {
    pub header: Header,
    pub events: Vec<Event>,
    pub warnings: Vec<String>,
}

pub fn now_ms() -> u64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

impl SessionLog {
    /// Creates a new log; refuses to overwrite an existing file.
    pub fn create(path: &Path, header: &Header) -> Result<Self> {
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
        }
        let mut file = OpenOptions::new()
            .create_new(true)
            .append(true)
            .open(path)
            .with_context(|| format!("cannot create the session log {} (does it exist already?)", path.display()))?;
        let mut line = serde_json::to_vec(header)?;
        line.push(b'\n');
        file.write_all(&line)?;
        let texts = (header.kwb_session >= 2).then(Written::default);
        Ok(Self { path: path.to_path_buf(), file, next_seq: 1, texts })
    }

    /// Opens an existing log to continue it (resume); returns what it held.
    pub fn open(path: &Path) -> Result<(Self, Loaded)> {
        let loaded = load(path)?;
        let mut file = OpenOptions::new().append(true).read(true).open(path).with_context(|| format!("cannot open {}", path.display()))?;
        let len = file.metadata()?.len();
        if len > 0 {
            let mut last = [0u8; 1];
            file.seek(SeekFrom::Start(len - 1))?;
            file.read_exact(&mut last)?;
            if last[0] != b'\n' {
                file.write_all(b"\n")?;
            }
        }
        let next_seq = loaded.events.last().map(|e| e.seq + 1).unwrap_or(1);
        let texts = (loaded.header.kwb_session >= 2).then(|| {
            let mut w = Written::default();
            for e in &loaded.events {
                if let EventKind::Edit { node } = &e.kind {
                    node.texts.for_each_text(|t| w.remember(t));
                }
            }
            w
        });
        Ok((Self { path: path.to_path_buf(), file, next_seq, texts }, loaded))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends one event and returns it as written.
    pub fn append(&mut self, kind: EventKind) -> Result<Event> {
        let event = Event { seq: self.next_seq, ts_ms: now_ms(), kind };
        self.write(&event)?;
        Ok(event)
    }

    /// Writes an event as it is (its number and time kept): the texts it
    /// needs that the log lacks, then the event, in one write, so a killed
    /// process leaves at most a torn last line.
    fn write(&mut self, event: &Event) -> Result<()> {
        let mut bytes = Vec::new();
        match (&mut self.texts, &event.kind) {
            (Some(written), EventKind::Edit { node }) => {
                let mut node = serde_json::to_value(node)?;
                for line in written.dehydrate(&mut node) {
                    bytes.extend_from_slice(&line);
                }
                // Field order as the derived form writes it: the tag near the start.
                serde_json::to_writer(&mut bytes, &EditLine { seq: event.seq, ts_ms: event.ts_ms, kind: "edit", node })?;
            }
            _ => serde_json::to_writer(&mut bytes, event)?,
        }
        bytes.push(b'\n');
        self.file.write_all(&bytes).with_context(|| format!("cannot append to {}", self.path.display()))?;
        self.next_seq = event.seq + 1;
        Ok(())
    }

    /// Copies a log of any schema into a new one of the current schema,
    /// events numbered and timed as they were. Returns the warnings the
    /// source produced on loading (what it skipped).
    pub fn convert(src: &Path, dst: &Path) -> Result<Vec<String>> {
        let loaded = load(src)?;
        let mut header = loaded.header.clone();
        header.kwb_session = SCHEMA_VERSION;
        let mut log = Self::create(dst, &header)?;
        for e in &loaded.events {
            log.write(e)?;
        }
        log.sync()?;
        Ok(loaded.warnings)
    }

    /// Forces the appended events to disk (for a machine crash, not just a killed process).
    pub fn sync(&self) -> Result<()> {
        self.file.sync_data()?;
        Ok(())
    }
}

/// Reads a log. A torn last line or a corrupt line is skipped with a warning;
/// a missing or unreadable header is an error.
pub fn load(path: &Path) -> Result<Loaded> {
    let bytes = std::fs::read(path).with_context(|| format!("cannot read the session log {}", path.display()))?;
    parse(&bytes).with_context(|| format!("{} is not a readable kwb session", path.display()))
}

pub fn parse(bytes: &[u8]) -> Result<Loaded> {
    let mut lines = bytes.split(|b| *b == b'\n');
    let first = lines.next().unwrap_or_default();
    let header: Header = serde_json::from_slice(first).context("the first line is not a session header")?;
    if header.kwb_session == 0 || header.kwb_session > SCHEMA_VERSION {
        bail!("session schema {} is newer than this kwb understands ({SCHEMA_VERSION}); update kwb", header.kwb_session);
    }
    let ends_clean = bytes.last() == Some(&b'\n');
    let rest: Vec<&[u8]> = lines.collect();
    let n = rest.len();
    let mut events = Vec::with_capacity(n);
    let mut warnings = Vec::new();
    let mut last_seq = 0;
    let mut texts = Store::default();
    // From schema 2 an edit's texts are hashes of text lines (the writer
    // continues a log in its own schema, so a log is one or the other).
    let refs = header.kwb_session >= 2;
    for (i, line) in rest.into_iter().enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let is_last = i + 1 == n;
        if line.starts_with(text_store::TEXT_LINE_PREFIX) {
            match serde_json::from_slice::<TextLine>(line) {
                Ok(t) => {
                    if let Err(e) = texts.add(t) {
                        warnings.push(format!("line {}: {e}; skipped", i + 2));
                    }
                }
                Err(err) if is_last && !ends_clean => warnings.push(format!("line {}: the last text was cut off mid-write ({err}); ignored", i + 2)),
                Err(err) => warnings.push(format!("line {}: not a valid text line ({err}); skipped", i + 2)),
            }
            continue;
        }
        let parsed = serde_json::from_slice::<Event>(line).map_err(|e| e.to_string()).and_then(|mut e| {
            if let (true, EventKind::Edit { node }) = (refs, &mut e.kind) {
                texts.resolve(&mut node.texts)?;
            }
            Ok(e)
        });
        match parsed {
            Ok(e) if e.seq > last_seq => {
                last_seq = e.seq;
                events.push(e);
            }
            Ok(e) => warnings.push(format!("line {}: sequence number {} is not after {last_seq}; skipped", i + 2, e.seq)),
            Err(err) if is_last && !ends_clean => warnings.push(format!("line {}: the last event was cut off mid-write ({err}); ignored", i + 2)),
            Err(err) => warnings.push(format!("line {}: not a valid event ({err}); skipped", i + 2)),
        }
    }
    Ok(Loaded { header, events, warnings })
}

#[derive(serde::Serialize)]
struct EditLine {
    seq: u64,
    ts_ms: u64,
    #[serde(rename = "type")]
    kind: &'static str,
    node: serde_json::Value,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::event::EventKind;

    fn header() -> Header {
        Header { kwb_session: SCHEMA_VERSION, id: "t".into(), task: "relu".into(), created_unix_ms: 1, manifest: serde_json::Value::Null }
    }

    fn note(t: &str) -> EventKind {
        EventKind::Note { text: t.into(), node: None }
    }

    #[test]
    fn torn_last_line_is_ignored_and_the_next_append_starts_clean() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.jsonl");
        let mut log = SessionLog::create(&p, &header()).unwrap();
        log.append(note("a")).unwrap();
        log.append(note("b")).unwrap();
        drop(log);
        // A process killed mid-write leaves half a line.
        let mut f = OpenOptions::new().append(true).open(&p).unwrap();
        f.write_all(br#"{"seq":3,"ts_ms":5,"type":"note","te"#).unwrap();
        drop(f);
        let l = load(&p).unwrap();
        assert_eq!(l.events.len(), 2);
        assert!(l.warnings[0].contains("cut off"), "{:?}", l.warnings);
        let (mut log, _) = SessionLog::open(&p).unwrap();
        let e = log.append(note("c")).unwrap();
        assert_eq!(e.seq, 3, "numbering continues after the last whole event");
        let l = load(&p).unwrap();
        let texts: Vec<String> = l.events.iter().map(|e| match &e.kind { EventKind::Note { text, .. } => text.clone(), _ => String::new() }).collect();
        assert_eq!(texts, ["a", "b", "c"]);
        assert_eq!(l.warnings.len(), 1, "the repaired torn line is reported, not fatal: {:?}", l.warnings);
    }

    #[test]
    fn corrupt_and_out_of_order_lines_are_skipped() {
        let h = serde_json::to_string(&header()).unwrap();
        let text = format!(
            "{h}\n{}\nnot json\n{}\n{}\n",
            r#"{"seq":1,"ts_ms":1,"type":"note","text":"a"}"#, r#"{"seq":1,"ts_ms":2,"type":"note","text":"dup"}"#, r#"{"seq":2,"ts_ms":3,"type":"note","text":"b"}"#
        );
        let l = parse(text.as_bytes()).unwrap();
        assert_eq!(l.events.iter().map(|e| e.seq).collect::<Vec<_>>(), [1, 2]);
        assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
    }

    #[test]
    fn a_file_without_a_header_or_from_a_newer_kwb_is_refused() {
        assert!(parse(b"{\"seq\":1}\n").is_err());
        let mut h = header();
        h.kwb_session = SCHEMA_VERSION + 1;
        let e = parse(format!("{}\n", serde_json::to_string(&h).unwrap()).as_bytes()).unwrap_err();
        assert!(format!("{e:#}").contains("newer"), "{e:#}");
    }

    #[test]
    fn converting_a_schema_1_log_keeps_every_event_and_stores_each_text_once() {
        let dir = tempfile::tempdir().unwrap();
        let v1 = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sessions/v1-relu.jsonl");
        let v2 = dir.path().join("v2.jsonl");
        assert!(SessionLog::convert(&v1, &v2).unwrap().is_empty());
        let (a, b) = (load(&v1).unwrap(), load(&v2).unwrap());
        assert_eq!(b.header.kwb_session, SCHEMA_VERSION);
        assert!(b.warnings.is_empty(), "{:?}", b.warnings);
        assert_eq!(serde_json::to_value(&a.events).unwrap(), serde_json::to_value(&b.events).unwrap());
        let text = std::fs::read_to_string(&v2).unwrap();
        assert!(text.len() * 3 < std::fs::metadata(&v1).unwrap().len() as usize, "the texts repeat in the fixture");
        let blobs: Vec<&str> = text.lines().filter(|l| l.starts_with("{\"blob\"")).collect();
        let mut distinct = std::collections::HashSet::new();
        for e in &a.events {
            if let EventKind::Edit { node } = &e.kind {
                node.texts.for_each_text(|t| {
                    distinct.insert(t.to_string());
                });
            }
        }
        assert_eq!(blobs.len(), distinct.len(), "one line per distinct text");

        // Continuing the log adds only texts it lacks; a text line cut off
        // mid-write loses only the event that needed it.
        let (mut log, loaded) = SessionLog::open(&v2).unwrap();
        let EventKind::Edit { node } = loaded.events.iter().find(|e| matches!(e.kind, EventKind::Edit { .. })).unwrap().kind.clone() else { unreachable!() };
        let mut again = node.clone();
        again.id = 99;
        log.append(EventKind::Edit { node: again.clone() }).unwrap();
        let grown = std::fs::read_to_string(&v2).unwrap();
        assert_eq!(grown.lines().filter(|l| l.starts_with("{\"blob\"")).count(), blobs.len(), "known texts are not written again");
        again.texts.l0 = "a new graph".into();
        again.id = 100;
        log.append(EventKind::Edit { node: again }).unwrap();
        drop(log);
        let full = std::fs::read(&v2).unwrap();
        let cut = grown.len() + 20;
        std::fs::write(&v2, &full[..cut]).unwrap();
        let l = load(&v2).unwrap();
        assert_eq!(l.events.len(), a.events.len() + 1);
        assert!(l.warnings[0].contains("cut off"), "{:?}", l.warnings);
    }

    #[test]
    fn an_edit_whose_text_is_missing_is_skipped_with_a_warning() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.jsonl");
        let mut log = SessionLog::create(&p, &header()).unwrap();
        let node = crate::session::NodeRecord { id: 0, parent: None, layer: crate::ir::Layer::L0, kernel: None, author: "t".into(), rationale: String::new(), trace: None, texts: Default::default() };
        log.append(EventKind::Edit { node }).unwrap();
        log.append(note("after")).unwrap();
        drop(log);
        let text = std::fs::read_to_string(&p).unwrap();
        let without: String = text.lines().filter(|l| !l.starts_with("{\"blob\"")).map(|l| format!("{l}\n")).collect();
        std::fs::write(&p, without).unwrap();
        let l = load(&p).unwrap();
        assert_eq!(l.events.len(), 1, "the note survives");
        assert!(l.warnings[0].contains("not in the log"), "{:?}", l.warnings);
    }

    #[test]
    fn create_never_overwrites() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("s.jsonl");
        SessionLog::create(&p, &header()).unwrap();
        assert!(SessionLog::create(&p, &header()).is_err());
    }
}
