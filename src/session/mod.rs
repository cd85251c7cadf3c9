//! Sessions: an append-only event log per session and the candidate tree
//! rebuilt from it. Resume and replay share one code path: load, replay.

pub mod event;
pub mod log;
pub mod runner;
pub mod text_store;
pub mod tree;

pub use runner::{EditBody, EditRequest, SessionRunner};
pub use event::{Cost, Event, EventKind, Header, NodeRecord, SCHEMA_VERSION};
pub use log::{Loaded, SessionLog, load};
pub use tree::{CandidateTree, Node, NodeStatus};
