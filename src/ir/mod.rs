//! The layered kernel IR. One candidate is one TVM IRModule seen at three
//! layers: L0 the Relax graph, L1 the TIR PrimFuncs (one view per kernel),
//! L2 the generated target code per kernel (LLVM IR on CPU). The engine
//! derives each layer from the one above, deterministically.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Layer {
    L0,
    L1,
    L2,
}

impl Layer {
    pub fn parse(s: &str) -> Option<Self> {
        match s.to_ascii_uppercase().as_str() {
            "L0" | "GRAPH" => Some(Self::L0),
            "L1" | "LOOPS" => Some(Self::L1),
            "L2" | "TARGET" => Some(Self::L2),
            _ => None,
        }
    }
    pub fn name(self) -> &'static str {
        match self {
            Self::L0 => "L0 graph",
            Self::L1 => "L1 loops",
            Self::L2 => "L2 target code",
        }
    }
}

impl std::fmt::Display for Layer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::L0 => "L0",
            Self::L1 => "L1",
            Self::L2 => "L2",
        })
    }
}

/// Every layer of one candidate, as text.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LayerTexts {
    /// L0: the Relax functions (the module as a person edits the graph).
    pub l0: String,
    /// The whole lowered module (Relax + TIR) that L1 edits apply to and builds use.
    pub l1_module: String,
    /// L1 per kernel: each PrimFunc's TVMScript.
    pub l1: BTreeMap<String, String>,
    /// L2 per kernel: the generated target code (LLVM IR on CPU).
    pub l2: BTreeMap<String, String>,
    /// Kernels whose target code was edited by hand: these replace codegen.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub l2_overrides: BTreeMap<String, String>,
}

impl LayerTexts {
    /// Every text this node holds, each layer and kernel.
    pub fn for_each_text(&self, mut f: impl FnMut(&str)) {
        f(&self.l0);
        f(&self.l1_module);
        self.l1.values().chain(self.l2.values()).chain(self.l2_overrides.values()).for_each(|t| f(t));
    }

    /// The text of one layer (for L1 and L2, of one kernel; None for the whole L1 module).
    pub fn text(&self, layer: Layer, kernel: Option<&str>) -> Option<&str> {
        match (layer, kernel) {
            (Layer::L0, _) => Some(&self.l0),
            (Layer::L1, None) => Some(&self.l1_module),
            (Layer::L1, Some(k)) => self.l1.get(k).map(String::as_str),
            (Layer::L2, Some(k)) => self.l2_overrides.get(k).or_else(|| self.l2.get(k)).map(String::as_str),
            (Layer::L2, None) => None,
        }
    }

    pub fn kernels(&self) -> Vec<&str> {
        self.l1.keys().map(String::as_str).collect()
    }
}
