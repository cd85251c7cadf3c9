//! The system prompts, one per agent kind. The shipped ones are compiled in;
//! a file of the same name in `<config dir>/prompts/` replaces one, so people
//! can tune prompts without rebuilding.

use super::error::LlmError;
use crate::paths::Paths;
use std::path::PathBuf;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PromptKind {
    L0,
    L1,
    L2,
    Flat,
    OneShot,
}

impl PromptKind {
    pub const ALL: [Self; 5] = [Self::L0, Self::L1, Self::L2, Self::Flat, Self::OneShot];

    pub fn file_name(self) -> &'static str {
        match self {
            Self::L0 => "l0.md",
            Self::L1 => "l1.md",
            Self::L2 => "l2.md",
            Self::Flat => "flat.md",
            Self::OneShot => "one-shot.md",
        }
    }

    pub fn shipped(self) -> &'static str {
        match self {
            Self::L0 => include_str!("../../prompts/l0.md"),
            Self::L1 => include_str!("../../prompts/l1.md"),
            Self::L2 => include_str!("../../prompts/l2.md"),
            Self::Flat => include_str!("../../prompts/flat.md"),
            Self::OneShot => include_str!("../../prompts/one-shot.md"),
        }
    }
}

/// Where overrides are looked for.
#[derive(Debug, Clone, Default)]
pub struct Prompts {
    dir: Option<PathBuf>,
}

impl Prompts {
    /// Shipped prompts, overridden by `<config dir>/prompts/*.md`.
    pub fn new(paths: &Paths) -> Self {
        Self::from_dir(paths.config.join("prompts"))
    }

    pub fn from_dir(dir: PathBuf) -> Self {
        Self { dir: Some(dir) }
    }

    /// Only the shipped prompts.
    pub fn shipped() -> Self {
        Self { dir: None }
    }

    /// The override file for `kind`, whether or not it exists.
    pub fn override_path(&self, kind: PromptKind) -> Option<PathBuf> {
        self.dir.as_ref().map(|d| d.join(kind.file_name()))
    }

    /// The prompt text: the override when there is one, else the shipped prompt.
    pub fn get(&self, kind: PromptKind) -> Result<String, LlmError> {
        if let Some(p) = self.override_path(kind).filter(|p| p.exists()) {
            let text = std::fs::read_to_string(&p).map_err(|e| LlmError::Config(format!("cannot read the prompt {}: {e}; fix or delete it to use the shipped one", p.display())))?;
            if text.trim().is_empty() {
                return Err(LlmError::Config(format!("the prompt {} is empty; write a prompt or delete the file to use the shipped one", p.display())));
            }
            return Ok(text);
        }
        Ok(kind.shipped().to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_prompts_are_present_and_state_the_reply_format() {
        for k in PromptKind::ALL {
            let t = k.shipped();
            assert!(t.len() > 400, "{} is too short", k.file_name());
            assert!(t.contains("```"), "{} shows no fenced block", k.file_name());
        }
    }

    #[test]
    fn a_file_in_the_config_dir_overrides_one_prompt() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("l1.md"), "my loops prompt").unwrap();
        let p = Prompts::from_dir(dir.path().to_path_buf());
        assert_eq!(p.get(PromptKind::L1).unwrap(), "my loops prompt");
        assert_eq!(p.get(PromptKind::L0).unwrap(), PromptKind::L0.shipped());
        std::fs::write(dir.path().join("l2.md"), "  \n").unwrap();
        assert!(p.get(PromptKind::L2).unwrap_err().to_string().contains("empty"));
    }
}
