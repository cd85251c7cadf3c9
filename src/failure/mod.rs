//! Failure classes, shared by the engine, evaluation and reports. Every
//! failed evaluation gets exactly one class, so failure counts per class add
//! up to the number of failures. The first seven are the candidate's; the
//! rest say that something other than the candidate went wrong, and are kept
//! apart so that a broken task, a cancel or a kwb bug is never charged to an
//! agent.

pub mod classify;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureClass {
    /// Illegal buffer scope, out-of-bounds access, allocation failure.
    Memory,
    /// The text does not parse, is not well formed, or misuses the API.
    SyntaxApi,
    /// Wrong values, shapes, dtypes or output structure; input mutation.
    NumericMismatch,
    /// Races and thread-mapping errors.
    Parallel,
    /// Lowering or code generation failed.
    Build,
    /// Ran past its time limit (wall clock or CPU).
    Timeout,
    /// The process died (segfault, abort) or the candidate raised at run time.
    Crash,
    /// The task is broken (missing reference outputs, bad metadata).
    Task,
    /// Cancelled by the user.
    Cancelled,
    /// The device could not be reached or went away (twice): not the
    /// candidate's doing.
    Device,
    /// kwb or its worker failed; a bug to report.
    Internal,
}

impl FailureClass {
    pub fn parse(s: &str) -> Self {
        match s {
            "memory" => Self::Memory,
            "syntax_api" => Self::SyntaxApi,
            "numeric_mismatch" => Self::NumericMismatch,
            "parallel" => Self::Parallel,
            "build" => Self::Build,
            "timeout" => Self::Timeout,
            "crash" => Self::Crash,
            "task" => Self::Task,
            "cancelled" => Self::Cancelled,
            "device" => Self::Device,
            _ => Self::Internal,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Memory => "memory",
            Self::SyntaxApi => "syntax_api",
            Self::NumericMismatch => "numeric_mismatch",
            Self::Parallel => "parallel",
            Self::Build => "build",
            Self::Timeout => "timeout",
            Self::Crash => "crash",
            Self::Task => "task",
            Self::Cancelled => "cancelled",
            Self::Device => "device",
            Self::Internal => "internal",
        }
    }
}

impl std::fmt::Display for FailureClass {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a job or a candidate failed, with the place in the text when known.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Failure {
    pub class: FailureClass,
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stage: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<u32>,
}

impl Failure {
    pub fn new(class: FailureClass, message: impl Into<String>) -> Self {
        Self { class, message: message.into(), stage: None, line: None, column: None }
    }
    pub fn at(mut self, stage: &str) -> Self {
        self.stage = Some(stage.to_string());
        self
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "[{}] ", self.class)?;
        if let (Some(l), Some(c)) = (self.line, self.column) {
            write!(f, "line {l}, column {c}: ")?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Failure {}
