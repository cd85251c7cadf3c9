//! Per-pane state and the derived views (tree rows, highlighted IR, diffs),
//! computed in the update step so drawing only reads.

use crate::diff::{self, Diff, DiffLine, Row};
use crate::ir::{Layer, LayerTexts};
use crate::session::CandidateTree;
use crate::tui::config::theme::Theme;
use crate::tui::highlight::{Highlighted, Lang};
use std::collections::HashSet;

/// Text search over a list of lines; `current` indexes `matches`.
#[derive(Debug, Default, Clone)]
pub struct Search {
    pub query: String,
    pub matches: Vec<usize>,
    pub current: usize,
}

impl Search {
    pub fn run(&mut self, lines: impl Iterator<Item = String>) {
        let q = self.query.to_lowercase();
        self.matches = if q.is_empty() { vec![] } else { lines.enumerate().filter(|(_, l)| l.to_lowercase().contains(&q)).map(|(i, _)| i).collect() };
        self.current = 0;
    }
    /// The next (or previous) match line, wrapping.
    pub fn step(&mut self, forward: bool) -> Option<usize> {
        if self.matches.is_empty() {
            return None;
        }
        let n = self.matches.len();
        self.current = if forward { (self.current + 1) % n } else { (self.current + n - 1) % n };
        Some(self.matches[self.current])
    }
}

#[derive(Debug, Clone, Copy)]
pub struct TreeRow {
    pub id: u32,
    pub depth: usize,
    pub has_children: bool,
    pub collapsed: bool,
}

#[derive(Debug, Default)]
pub struct TreeUi {
    pub selected: u32,
    pub collapsed: HashSet<u32>,
    pub rows: Vec<TreeRow>,
    pub scroll: usize,
    /// Nodes marked for a two-node diff, oldest first.
    pub marks: Vec<u32>,
    /// Where the next run starts.
    pub branch_from: Option<u32>,
}

impl TreeUi {
    /// Flattens the visible part of the tree (iteratively: trees can be deep).
    pub fn rebuild(&mut self, tree: &CandidateTree) {
        self.rows.clear();
        if tree.nodes.is_empty() {
            return;
        }
        let mut stack = vec![(0u32, 0usize)];
        while let Some((id, depth)) = stack.pop() {
            let Some(n) = tree.get(id) else { continue };
            let collapsed = self.collapsed.contains(&id);
            self.rows.push(TreeRow { id, depth, has_children: !n.children.is_empty(), collapsed });
            if !collapsed {
                stack.extend(n.children.iter().rev().map(|c| (*c, depth + 1)));
            }
        }
        if tree.get(self.selected).is_none() {
            self.selected = 0;
        }
    }

    pub fn selected_row(&self) -> Option<usize> {
        self.rows.iter().position(|r| r.id == self.selected)
    }

    pub fn move_by(&mut self, delta: isize) {
        if self.rows.is_empty() {
            return;
        }
        let i = self.selected_row().unwrap_or(0) as isize + delta;
        self.selected = self.rows[i.clamp(0, self.rows.len() as isize - 1) as usize].id;
    }

    /// Expands every ancestor so `id` has a row, then selects it.
    pub fn reveal(&mut self, tree: &CandidateTree, id: u32) {
        for a in tree.path_to(id) {
            if a != id {
                self.collapsed.remove(&a);
            }
        }
        self.selected = id;
        self.rebuild(tree);
    }

    /// Keeps the selected row inside a window of `height` rows.
    pub fn follow(&mut self, height: usize) {
        let Some(i) = self.selected_row() else { return };
        if i < self.scroll {
            self.scroll = i;
        } else if height > 0 && i >= self.scroll + height {
            self.scroll = i + 1 - height;
        }
    }
}

/// Which text of a node a view shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextKey {
    pub node: u32,
    pub layer: Layer,
    pub kernel: Option<String>,
}

/// The kernel a layer view shows: L0 has none; L1/L2 pick by index.
pub fn kernel_at(texts: &LayerTexts, layer: Layer, index: usize) -> Option<String> {
    if layer == Layer::L0 {
        return None;
    }
    let ks = texts.kernels();
    if ks.is_empty() { None } else { Some(ks[index % ks.len()].to_string()) }
}

pub fn text_of<'a>(texts: &'a LayerTexts, layer: Layer, kernel: Option<&str>) -> &'a str {
    texts.text(layer, kernel).unwrap_or("")
}

pub struct IrUi {
    /// The node whose edit last chose the layer: selecting another node
    /// shows the layer (and kernel) that node edited.
    pub follows: Option<u32>,
    pub layer: Layer,
    pub kernel: usize,
    pub scroll: usize,
    pub hscroll: usize,
    pub search: Search,
    pub view: Option<(TextKey, Highlighted)>,
}

impl Default for IrUi {
    fn default() -> Self {
        Self { follows: None, layer: Layer::L1, kernel: 0, scroll: 0, hscroll: 0, search: Search::default(), view: None }
    }
}

impl IrUi {
    pub fn prepare(&mut self, key: TextKey, text: &str, theme: &Theme, height: usize) {
        if self.view.as_ref().is_none_or(|(k, _)| *k != key) {
            let lang = if key.layer == Layer::L2 { Lang::Llvm } else { Lang::Python };
            self.view = Some((key, Highlighted::new(text, lang, theme)));
            self.scroll = 0;
            self.search.matches.clear();
        }
        if let Some((_, h)) = &mut self.view {
            self.scroll = self.scroll.min(h.len().saturating_sub(1));
            h.ensure(self.scroll + height);
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffBase {
    Parent,
    Marks,
}

/// A line of the flattened unified view.
pub enum UnifiedLine {
    Header(String),
    Line(DiffLine),
}

pub enum SideLine {
    Header(String),
    Row(Row),
}

pub struct DiffView {
    pub key: (TextKey, TextKey),
    pub title: String,
    pub inserted: usize,
    pub deleted: usize,
    pub unified: Vec<UnifiedLine>,
    pub side: Vec<SideLine>,
}

impl DiffView {
    pub fn build(key: (TextKey, TextKey), old: &str, new: &str) -> Self {
        let d: Diff = diff::diff(old, new, 3);
        let mut unified = Vec::new();
        let mut side = Vec::new();
        let rows = d.side_by_side();
        let mut rows = rows.into_iter();
        for h in &d.hunks {
            unified.push(UnifiedLine::Header(h.header.clone()));
            side.push(SideLine::Header(h.header.clone()));
            unified.extend(h.lines.iter().cloned().map(UnifiedLine::Line));
            // side_by_side() yields rows hunk by hunk; take as many as this hunk has.
            let n = side_rows_in(h);
            side.extend(rows.by_ref().take(n).map(SideLine::Row));
        }
        let title = format!("#{} {} → #{} {}", key.0.node, label(&key.0), key.1.node, label(&key.1));
        Self { key, title, inserted: d.inserted, deleted: d.deleted, unified, side }
    }

    pub fn len(&self, side_by_side: bool) -> usize {
        if side_by_side { self.side.len() } else { self.unified.len() }
    }

    pub fn line_text(&self, i: usize, side_by_side: bool) -> String {
        if side_by_side {
            match &self.side[i] {
                SideLine::Header(h) => h.clone(),
                SideLine::Row(r) => format!("{} {}", r.left.as_ref().map(DiffLine::text).unwrap_or_default(), r.right.as_ref().map(DiffLine::text).unwrap_or_default()),
            }
        } else {
            match &self.unified[i] {
                UnifiedLine::Header(h) => h.clone(),
                UnifiedLine::Line(l) => l.text(),
            }
        }
    }
}

fn side_rows_in(h: &diff::Hunk) -> usize {
    let (mut rows, mut dels, mut ins) = (0, 0, 0);
    for l in &h.lines {
        match l.tag {
            diff::Tag::Delete => dels += 1,
            diff::Tag::Insert => ins += 1,
            diff::Tag::Equal => {
                rows += usize::max(dels, ins) + 1;
                dels = 0;
                ins = 0;
            }
        }
    }
    rows + usize::max(dels, ins)
}

pub fn label(k: &TextKey) -> String {
    match &k.kernel {
        Some(kn) => format!("{} {kn}", k.layer),
        None => k.layer.to_string(),
    }
}

#[derive(Default)]
pub struct DiffUi {
    pub side_by_side: bool,
    pub base: Option<DiffBase>,
    pub scroll: usize,
    pub hscroll: usize,
    pub search: Search,
    pub view: Option<DiffView>,
}

impl DiffUi {
    pub fn base(&self) -> DiffBase {
        self.base.unwrap_or(DiffBase::Parent)
    }

    pub fn prepare(&mut self, key: (TextKey, TextKey), old: &str, new: &str) {
        if self.view.as_ref().is_none_or(|v| v.key != key) {
            self.view = Some(DiffView::build(key, old, new));
            self.scroll = 0;
            self.search.matches.clear();
        }
    }

    pub fn rerun_search(&mut self) {
        if let Some(v) = &self.view {
            let side = self.side_by_side;
            self.search.run((0..v.len(side)).map(|i| v.line_text(i, side)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_by_side_rows_are_split_per_hunk() {
        let old: String = (0..40).map(|i| format!("line {i}\n")).collect();
        let new = old.replace("line 3\n", "line three\nextra\n").replace("line 30\n", "");
        let k = TextKey { node: 0, layer: Layer::L0, kernel: None };
        let v = DiffView::build((k.clone(), TextKey { node: 1, ..k }), &old, &new);
        let headers = v.side.iter().filter(|l| matches!(l, SideLine::Header(_))).count();
        assert_eq!(headers, 2);
        assert_eq!((v.inserted, v.deleted), (2, 2));
        assert_eq!(v.side.len() - headers, crate::diff::diff(&old, &new, 3).side_by_side().len());
    }

    #[test]
    fn search_wraps_both_ways() {
        let mut s = Search { query: "B".into(), ..Default::default() };
        s.run(["a", "b", "ab", "c"].iter().map(|x| x.to_string()));
        assert_eq!(s.matches, vec![1, 2]);
        assert_eq!(s.step(true), Some(2));
        assert_eq!(s.step(true), Some(1));
        assert_eq!(s.step(false), Some(2));
    }
}
