//! Views derived from the state for the screen of the current size: the
//! selected task's highlighted source, the IR and the diff, each rebuilt only
//! when what it shows changed.

use super::{App, Tab, panes};
use crate::tui::requests::Effect;
use crate::tui::highlight::{Highlighted, Lang};

impl App {
    /// Brings the derived views up to date for a frame of the current size.
    pub(super) fn refresh_views(&mut self) {
        let body = crate::tui::view::body_height(self) as usize;
        self.follow_selected_edit();
        match self.tab {
            Tab::Tasks => self.prepare_task_source(body),
            Tab::Ir => self.prepare_ir(body),
            Tab::Diff => self.prepare_diff(),
            _ => {}
        }
        self.tree.follow(body.saturating_sub(2));
        if self.tasks.selected < self.tasks.scroll {
            self.tasks.scroll = self.tasks.selected;
        } else if self.tasks.selected >= self.tasks.scroll + body.saturating_sub(3) {
            self.tasks.scroll = self.tasks.selected + 1 - body.saturating_sub(3).max(1);
        }
    }

    fn follow_selected_edit(&mut self) {
        let sel = self.tree.selected;
        if self.ir.follows == Some(sel) {
            return;
        }
        let Some(n) = self.selected_node() else { return };
        let layer = n.record.layer;
        let kernel = n.record.kernel.as_ref().and_then(|k| n.record.texts.kernels().iter().position(|x| x == k)).unwrap_or(0);
        self.ir.follows = Some(sel);
        self.ir.layer = layer;
        self.ir.kernel = kernel;
    }

    fn prepare_task_source(&mut self, height: usize) {
        let Some(task) = self.selected_task() else { return };
        let id = task.meta.id.clone();
        let shown = self.tasks.source.as_ref().is_some_and(|(k, _)| *k == id);
        if !shown && self.tasks.source_asked.as_ref() != Some(&id) {
            let path = task.dir.join("model.py");
            self.tasks.source_asked = Some(id.clone());
            self.effects.push(Effect::ReadTaskSource { task: id, path });
        }
        if let Some((_, h)) = &mut self.tasks.source {
            h.ensure(self.tasks.source_scroll + height);
        }
    }

    /// The source read for the task browser arrived.
    pub(super) fn task_source(&mut self, task: String, text: String) {
        let h = Highlighted::new(&text, Lang::Python, &self.config.theme);
        self.tasks.source = Some((task, h));
        self.tasks.source_scroll = 0;
    }

    fn prepare_ir(&mut self, height: usize) {
        let Some(node) = self.selected_node() else { return };
        let texts = &node.record.texts;
        let key = panes::TextKey { node: node.id(), layer: self.ir.layer, kernel: panes::kernel_at(texts, self.ir.layer, self.ir.kernel) };
        let same = self.ir.view.as_ref().is_some_and(|(k, _)| *k == key);
        let text = if same { String::new() } else { panes::text_of(texts, key.layer, key.kernel.as_deref()).to_string() };
        self.ir.prepare(key, &text, &self.config.theme, height);
    }

    /// The pair of texts the diff pane compares: parent → node, or the two marks.
    pub fn diff_pair(&self) -> Option<(panes::TextKey, panes::TextKey)> {
        let s = self.session.as_ref()?;
        let (a, b) = match self.diff.base() {
            panes::DiffBase::Marks if self.tree.marks.len() == 2 => (self.tree.marks[0], self.tree.marks[1]),
            _ => {
                let n = s.tree.get(self.tree.selected)?;
                (n.record.parent.unwrap_or(n.id()), n.id())
            }
        };
        let (na, nb) = (s.tree.get(a)?, s.tree.get(b)?);
        let layer = self.ir.layer;
        let kernel = panes::kernel_at(&nb.record.texts, layer, self.ir.kernel);
        Some((panes::TextKey { node: na.id(), layer, kernel: kernel.clone() }, panes::TextKey { node: nb.id(), layer, kernel }))
    }

    fn prepare_diff(&mut self) {
        let Some((ka, kb)) = self.diff_pair() else { return };
        // The texts can be megabytes: copy them only when the pair changed.
        if self.diff.view.as_ref().is_some_and(|v| v.key.0 == ka && v.key.1 == kb) {
            return;
        }
        let s = self.session.as_ref().expect("diff_pair needs a session");
        let old = panes::text_of(&s.tree.nodes[ka.node as usize].record.texts, ka.layer, ka.kernel.as_deref()).to_string();
        let new = panes::text_of(&s.tree.nodes[kb.node as usize].record.texts, kb.layer, kb.kernel.as_deref()).to_string();
        self.diff.prepare((ka, kb), &old, &new);
    }
}
