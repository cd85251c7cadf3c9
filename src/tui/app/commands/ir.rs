//! The IR pane: which layer and which kernel it shows.

use super::super::App;
use crate::ir::Layer;
use crate::tui::action::Command;

impl App {
    pub(super) fn ir_command(&mut self, c: Command) -> bool {
        use Command::*;
        match c {
            CycleLayer => {
                self.ir.layer = match self.ir.layer {
                    Layer::L0 => Layer::L1,
                    Layer::L1 => Layer::L2,
                    Layer::L2 => Layer::L0,
                };
            }
            NextKernel => self.ir.kernel = (self.ir.kernel + 1) % self.kernel_count().max(1),
            PrevKernel => self.ir.kernel = self.ir.kernel.checked_sub(1).unwrap_or(self.kernel_count().saturating_sub(1)),
            _ => return false,
        }
        true
    }

    fn kernel_count(&self) -> usize {
        self.selected_node().map(|n| n.record.texts.kernels().len()).unwrap_or(0)
    }
}
