//! The engine: Python workers that run TVM, and the Rust side that starts,
//! sandboxes and supervises them.

pub mod pool;
pub mod protocol;
pub mod pyenv;
pub mod sandbox;
pub mod worker;

pub use pool::{Engine, EngineConfig, Job, JobOutput};
