//! Configuration files as a person writes them, valid and not: every
//! problem is a warning and the defaults stay in force.

use kwb::tui::action::Command;
use kwb::tui::config::Config;
use kwb::tui::config::keymap::{Lookup, parse_seq};

fn dir_with(files: &[(&str, &str)]) -> tempfile::TempDir {
    let d = tempfile::tempdir().unwrap();
    for (name, text) in files {
        let p = d.path().join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    d
}

#[test]
fn no_config_at_all_is_fine() {
    let d = tempfile::tempdir().unwrap();
    let c = Config::load(Some(d.path()), None);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.theme.name, "default");
}

#[test]
fn a_user_binding_overrides_one_key_and_keeps_the_rest() {
    let d = dir_with(&[("keymap.toml", "[tree]\n\"ctrl-b\" = \"jump_best\"\n\"b\" = \"none\"\n")]);
    let c = Config::load(Some(d.path()), None);
    assert!(c.warnings.is_empty(), "{:?}", c.warnings);
    assert_eq!(c.keymap.lookup("tree", &parse_seq("ctrl-b").unwrap()), Lookup::Found(Command::JumpBest));
    assert_eq!(c.keymap.lookup("tree", &parse_seq("b").unwrap()), Lookup::None);
    assert_eq!(c.keymap.lookup("tree", &parse_seq("j").unwrap()), Lookup::Found(Command::Down));
}

#[test]
fn invalid_files_warn_and_fall_back() {
    let d = dir_with(&[
        ("config.toml", "theme = \"mine\"\nkeymap = \"emacs\"\n"),
        ("keymap.toml", "[tree]\n\"j\" = \"fly\"\n\"ctrl-\" = \"quit\"\n"),
        ("themes/mine.toml", "inherits = \"dark\"\n[styles]\n\"diff.plus\" = \"not-a-colour\"\n\"diff.minus\" = { fg = \"red\", modifiers = [\"blinking\"] }\n"),
    ]);
    let c = Config::load(Some(d.path()), None);
    let w = c.warnings.join("\n");
    for expected in ["emacs", "fly", "ctrl-", "not-a-colour", "blinking"] {
        assert!(w.contains(expected), "no warning about {expected}:\n{w}");
    }
    assert_eq!(c.keymap.lookup("tree", &parse_seq("j").unwrap()), Lookup::Found(Command::Down), "the default binding stays");
    assert_eq!(c.theme.syntect, "base16-mocha.dark", "the rest of the theme still inherits from dark");
}

#[test]
fn a_theme_that_inherits_itself_stops() {
    let d = dir_with(&[("themes/loop.toml", "inherits = \"loop\"\n")]);
    let c = Config::load(Some(d.path()), Some("loop"));
    assert!(c.warnings.iter().any(|w| w.contains("circle")), "{:?}", c.warnings);
}

#[test]
fn every_shipped_file_parses() {
    for name in ["default", "dark", "light"] {
        let c = Config::load(None, Some(name));
        assert!(c.warnings.is_empty(), "{name}: {:?}", c.warnings);
    }
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in ["keymaps", "themes"] {
        for e in std::fs::read_dir(root.join(dir)).unwrap() {
            let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
            toml::from_str::<toml::Value>(&text).unwrap();
        }
    }
}
