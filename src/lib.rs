//! kwb: a terminal workbench for LLM-driven kernel optimisation.

pub mod bench;
pub mod cli;
pub mod engine;
pub mod eval;
pub mod failure;
pub mod logging;
pub mod paths;
pub mod tasks;
