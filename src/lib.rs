//! kwb: a terminal workbench for LLM-driven kernel optimisation.

pub mod agent;
pub mod baseline;
pub mod bench;
pub mod carry;
pub mod cli;
pub mod devices;
pub mod diff;
pub mod engine;
pub mod eval;
pub mod failure;
pub mod ir;
pub mod llm;
pub mod logging;
pub mod paths;
pub mod roofline;
pub mod session;
pub mod tasks;
pub mod tui;
pub mod workspace;
