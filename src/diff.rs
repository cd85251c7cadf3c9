//! Diffs between two versions of a layer's text: unified and side by side,
//! with word-level emphasis on changed lines. The CLI prints them; the TUI
//! draws the same structure.

use serde::Serialize;
use similar::{ChangeTag, TextDiff};
use std::time::Duration;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tag {
    Equal,
    Delete,
    Insert,
}

/// A piece of a line; `emphasized` marks the words that changed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Segment {
    pub emphasized: bool,
    pub text: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct DiffLine {
    pub tag: Tag,
    pub old_no: Option<usize>,
    pub new_no: Option<usize>,
    pub segments: Vec<Segment>,
}

impl DiffLine {
    pub fn text(&self) -> String {
        self.segments.iter().map(|s| s.text.as_str()).collect()
    }
}

/// One row of a side-by-side view.
#[derive(Debug, Clone, Serialize)]
pub struct Row {
    pub left: Option<DiffLine>,
    pub right: Option<DiffLine>,
}

/// A group of changes with its context, as in a unified diff's hunk.
#[derive(Debug, Clone, Serialize)]
pub struct Hunk {
    pub header: String,
    pub lines: Vec<DiffLine>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Diff {
    pub hunks: Vec<Hunk>,
    pub inserted: usize,
    pub deleted: usize,
}

/// Long inputs get a deadline so a pathological diff degrades to a coarser
/// one instead of stalling the UI.
const DEADLINE: Duration = Duration::from_millis(200);

pub fn diff(old: &str, new: &str, context: usize) -> Diff {
    let td = TextDiff::configure().algorithm(similar::Algorithm::Patience).deadline(std::time::Instant::now() + DEADLINE).diff_lines(old, new);
    let mut hunks = Vec::new();
    let (mut inserted, mut deleted) = (0, 0);
    for group in td.grouped_ops(context) {
        let (first, last) = (&group[0], &group[group.len() - 1]);
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        let header = format!("@@ -{},{} +{},{} @@", old_range.start + 1, old_range.len(), new_range.start + 1, new_range.len());
        let mut lines = Vec::new();
        for op in &group {
            for change in td.iter_inline_changes(op) {
                let tag = match change.tag() {
                    ChangeTag::Equal => Tag::Equal,
                    ChangeTag::Delete => {
                        deleted += 1;
                        Tag::Delete
                    }
                    ChangeTag::Insert => {
                        inserted += 1;
                        Tag::Insert
                    }
                };
                let segments = change
                    .iter_strings_lossy()
                    .map(|(emph, s)| Segment { emphasized: emph && tag != Tag::Equal, text: s.trim_end_matches('\n').to_string() })
                    .filter(|s| !s.text.is_empty() || s.emphasized)
                    .collect();
                lines.push(DiffLine { tag, old_no: change.old_index().map(|i| i + 1), new_no: change.new_index().map(|i| i + 1), segments });
            }
        }
        hunks.push(Hunk { header, lines });
    }
    Diff { hunks, inserted, deleted }
}

impl Diff {
    pub fn is_empty(&self) -> bool {
        self.hunks.is_empty()
    }

    /// Plain unified text; with `color`, ANSI colours and reversed changed words.
    pub fn unified(&self, old_name: &str, new_name: &str, color: bool) -> String {
        let mut s = format!("--- {old_name}\n+++ {new_name}\n");
        for h in &self.hunks {
            s += &paint(&h.header, "36", color);
            s.push('\n');
            for l in &h.lines {
                let (sign, code) = match l.tag {
                    Tag::Equal => (' ', ""),
                    Tag::Delete => ('-', "31"),
                    Tag::Insert => ('+', "32"),
                };
                s.push_str(&paint(&sign.to_string(), code, color));
                for seg in &l.segments {
                    s += &if seg.emphasized && color { format!("\x1b[7;{code}m{}\x1b[0m", seg.text) } else { paint(&seg.text, code, color) };
                }
                s.push('\n');
            }
        }
        s
    }

    /// Pairs deletions with the insertions that replace them.
    pub fn side_by_side(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        for h in &self.hunks {
            let mut dels: Vec<DiffLine> = Vec::new();
            let mut ins: Vec<DiffLine> = Vec::new();
            let flush = |dels: &mut Vec<DiffLine>, ins: &mut Vec<DiffLine>, rows: &mut Vec<Row>| {
                let n = dels.len().max(ins.len());
                let mut d = dels.drain(..);
                let mut i = ins.drain(..);
                for _ in 0..n {
                    rows.push(Row { left: d.next(), right: i.next() });
                }
            };
            for l in &h.lines {
                match l.tag {
                    Tag::Delete => dels.push(l.clone()),
                    Tag::Insert => ins.push(l.clone()),
                    Tag::Equal => {
                        flush(&mut dels, &mut ins, &mut rows);
                        rows.push(Row { left: Some(l.clone()), right: Some(l.clone()) });
                    }
                }
            }
            flush(&mut dels, &mut ins, &mut rows);
        }
        rows
    }

    pub fn side_by_side_text(&self, width: usize) -> String {
        let col = width.saturating_sub(3) / 2;
        let cell = |l: &Option<DiffLine>, sign: char| -> String {
            match l {
                Some(l) => {
                    let no = l.old_no.or(l.new_no).map(|n| format!("{n:>5}")).unwrap_or_default();
                    let mark = if l.tag == Tag::Equal { ' ' } else { sign };
                    let text: String = format!("{no}{mark}{}", l.text()).chars().take(col).collect();
                    format!("{text:<col$}")
                }
                None => " ".repeat(col),
            }
        };
        self.side_by_side().iter().map(|r| format!("{} | {}\n", cell(&r.left, '-'), cell(&r.right, '+'))).collect()
    }
}

fn paint(s: &str, code: &str, color: bool) -> String {
    if color && !code.is_empty() { format!("\x1b[{code}m{s}\x1b[0m") } else { s.to_string() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_words_are_emphasized() {
        let d = diff("for i in range(64):\n    y[i] = x[i]\n", "for i in range(64):\n    y[i] = x[i] * 2\n", 3);
        assert_eq!((d.inserted, d.deleted), (1, 1));
        let ins = d.hunks[0].lines.iter().find(|l| l.tag == Tag::Insert).unwrap();
        let emph: String = ins.segments.iter().filter(|s| s.emphasized).map(|s| s.text.as_str()).collect();
        assert!(emph.contains('*') && emph.contains('2'), "{emph:?}");
        assert!(!emph.contains("y[i]"), "unchanged words are not emphasized: {emph:?}");
        let u = d.unified("a", "b", false);
        assert!(u.contains("-    y[i] = x[i]\n") && u.contains("+    y[i] = x[i] * 2\n"), "{u}");
    }

    #[test]
    fn side_by_side_pairs_replacements() {
        let d = diff("a\nb\nc\n", "a\nB\nc\nd\n", 1);
        let rows = d.side_by_side();
        let replaced = rows.iter().find(|r| r.left.as_ref().is_some_and(|l| l.text() == "b")).unwrap();
        assert_eq!(replaced.right.as_ref().unwrap().text(), "B");
        assert!(rows.iter().any(|r| r.left.is_none() && r.right.as_ref().is_some_and(|l| l.text() == "d")));
    }

    #[test]
    fn identical_texts_have_no_hunks() {
        assert!(diff("x\n", "x\n", 3).is_empty());
    }
}
