//! The workbench's configuration: `<config>/config.toml` (theme, keymap
//! preset, mouse), `<config>/keymap.toml` (per-context overrides) and
//! `<config>/themes/`. Nothing is required; every problem is a warning.

pub mod keymap;
pub mod theme;

use keymap::Keymap;
use serde::Deserialize;
use std::path::{Path, PathBuf};
use theme::Theme;

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct Settings {
    theme: Option<String>,
    keymap: Option<String>,
    mouse: Option<bool>,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub keymap: Keymap,
    pub theme: Theme,
    pub mouse: bool,
    pub warnings: Vec<String>,
    /// The folder watched for hot reload (None in tests).
    pub dir: Option<PathBuf>,
}

impl Config {
    /// Loads from `dir` (the config directory); `theme` overrides the file's choice.
    pub fn load(dir: Option<&Path>, theme_override: Option<&str>) -> Self {
        let mut warnings = vec![];
        let settings: Settings = match dir.map(|d| d.join("config.toml")).filter(|p| p.exists()) {
            Some(p) => match std::fs::read_to_string(&p).map_err(|e| e.to_string()).and_then(|t| toml::from_str(&t).map_err(|e| e.to_string())) {
                Ok(s) => s,
                Err(e) => {
                    warnings.push(format!("{}: {}; using the defaults", p.display(), e.trim()));
                    Settings::default()
                }
            },
            None => Settings::default(),
        };
        let user_keys = dir.and_then(|d| std::fs::read_to_string(d.join("keymap.toml")).ok());
        let keymap = Keymap::load(settings.keymap.as_deref(), user_keys.as_deref(), &mut warnings);
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let name = theme_override.or(settings.theme.as_deref()).unwrap_or("default");
        let theme = Theme::load(name, dir.map(|d| d.join("themes")).as_deref(), no_color, &mut warnings);
        Self { keymap, theme, mouse: settings.mouse.unwrap_or(true), warnings, dir: dir.map(Path::to_path_buf) }
    }

    /// Built-in defaults only, with a chosen colour behaviour (what tests draw with).
    pub fn builtin(no_color: bool) -> Self {
        let mut warnings = vec![];
        let keymap = Keymap::load(None, None, &mut warnings);
        let theme = Theme::load("default", None, no_color, &mut warnings);
        Self { keymap, theme, mouse: true, warnings, dir: None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_broken_settings_file_warns_and_uses_defaults() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), "theme = 3\n").unwrap();
        let c = Config::load(Some(dir.path()), None);
        assert_eq!(c.warnings.len(), 1, "{:?}", c.warnings);
        assert!(c.mouse);
    }

    #[test]
    fn settings_pick_the_preset_theme_and_mouse() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("config.toml"), "theme = \"light\"\nkeymap = \"vim\"\nmouse = false\n").unwrap();
        std::fs::create_dir(dir.path().join("themes")).unwrap();
        std::fs::write(dir.path().join("themes/mine.toml"), "inherits = \"light\"\n[styles]\n\"diff.plus\" = \"#010203\"\n").unwrap();
        let c = Config::load(Some(dir.path()), None);
        assert!(c.warnings.is_empty(), "{:?}", c.warnings);
        assert!(!c.mouse);
        assert_eq!(c.theme.syntect, "InspiredGitHub");
        let mine = Config::load(Some(dir.path()), Some("mine"));
        assert_eq!(mine.theme.get("diff.plus").fg, Some(ratatui::style::Color::Rgb(1, 2, 3)));
        assert_eq!(mine.theme.syntect, "InspiredGitHub");
    }
}
