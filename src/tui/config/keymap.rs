//! Keymaps: `keymaps/default.toml` and `keymaps/vim.toml` are embedded; a
//! user file overrides per context. Keys are strings (`"ctrl-d"`, `"g g"`),
//! values are action names. Problems become warnings and the default binding
//! stays, so a typo never locks a person out.

use crate::tui::action::Command;
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::{BTreeMap, HashMap};

pub const DEFAULT: &str = include_str!("../../../keymaps/default.toml");
pub const VIM: &str = include_str!("../../../keymaps/vim.toml");

/// Where a binding applies; `Global` is consulted after the focused one.
pub const CONTEXTS: &[&str] = &["global", "tasks", "tree", "ir", "diff", "profile", "trace", "jobs", "review"];

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Key {
    pub code: KeyCode,
    pub mods: KeyModifiers,
}

impl Key {
    /// Shift is folded into the character, so `G` and `shift-g` are one key.
    pub fn from_event(e: &KeyEvent) -> Self {
        let mut mods = e.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        let code = match e.code {
            KeyCode::Char(c) => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::Char(if e.modifiers.contains(KeyModifiers::CONTROL) { c.to_ascii_lowercase() } else { c })
            }
            KeyCode::BackTab => {
                mods.remove(KeyModifiers::SHIFT);
                KeyCode::BackTab
            }
            c => c,
        };
        Self { code, mods }
    }

    pub fn parse(s: &str) -> Result<Self, String> {
        let mut mods = KeyModifiers::NONE;
        let mut rest = s;
        loop {
            if let Some(r) = rest.strip_prefix("ctrl-") {
                mods |= KeyModifiers::CONTROL;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("alt-") {
                mods |= KeyModifiers::ALT;
                rest = r;
            } else if let Some(r) = rest.strip_prefix("shift-") {
                mods |= KeyModifiers::SHIFT;
                rest = r;
            } else {
                break;
            }
        }
        let code = match rest {
            "enter" => KeyCode::Enter,
            "esc" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "backtab" => KeyCode::BackTab,
            "space" => KeyCode::Char(' '),
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "backspace" => KeyCode::Backspace,
            "delete" => KeyCode::Delete,
            f if f.len() > 1 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => KeyCode::F(f[1..].parse().unwrap()),
            c if c.chars().count() == 1 => {
                let ch = c.chars().next().unwrap();
                KeyCode::Char(if mods.contains(KeyModifiers::SHIFT) { mods.remove(KeyModifiers::SHIFT); ch.to_ascii_uppercase() } else { ch })
            }
            other => return Err(format!("unknown key `{other}`")),
        };
        if code == KeyCode::BackTab {
            mods.remove(KeyModifiers::SHIFT);
        }
        Ok(Self { code, mods })
    }

    pub fn label(&self) -> String {
        let mut s = String::new();
        if self.mods.contains(KeyModifiers::CONTROL) {
            s += "ctrl-";
        }
        if self.mods.contains(KeyModifiers::ALT) {
            s += "alt-";
        }
        s += &match self.code {
            KeyCode::Char(' ') => "space".into(),
            KeyCode::Char(c) => c.to_string(),
            KeyCode::Enter => "enter".into(),
            KeyCode::Esc => "esc".into(),
            KeyCode::Tab => "tab".into(),
            KeyCode::BackTab => "shift-tab".into(),
            KeyCode::Up => "↑".into(),
            KeyCode::Down => "↓".into(),
            KeyCode::Left => "←".into(),
            KeyCode::Right => "→".into(),
            KeyCode::PageUp => "pgup".into(),
            KeyCode::PageDown => "pgdn".into(),
            KeyCode::Home => "home".into(),
            KeyCode::End => "end".into(),
            KeyCode::Backspace => "bksp".into(),
            KeyCode::Delete => "del".into(),
            KeyCode::F(n) => format!("f{n}"),
            other => format!("{other:?}").to_lowercase(),
        };
        s
    }
}

pub type Seq = Vec<Key>;

pub fn parse_seq(s: &str) -> Result<Seq, String> {
    let keys: Result<Seq, String> = s.split_whitespace().map(Key::parse).collect();
    match keys {
        Ok(k) if k.is_empty() => Err("empty key".into()),
        r => r,
    }
}

pub fn seq_label(seq: &Seq) -> String {
    seq.iter().map(Key::label).collect::<Vec<_>>().join(" ")
}

/// The outcome of feeding the pending keys to the keymap.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    Found(Command),
    /// The keys so far start a longer binding: wait for the next key.
    Prefix,
    None,
}

#[derive(Debug, Clone, Default)]
pub struct Keymap {
    pub contexts: BTreeMap<String, HashMap<Seq, Command>>,
}

type RawMap = BTreeMap<String, BTreeMap<String, String>>;

impl Keymap {
    /// The shipped defaults, a preset on top (`vim`), then the user's file.
    /// Every problem is reported in `warnings`; what was valid still applies.
    pub fn load(preset: Option<&str>, user: Option<&str>, warnings: &mut Vec<String>) -> Self {
        let mut km = Self::default();
        km.merge("keymaps/default.toml", DEFAULT, warnings);
        match preset {
            None | Some("default") => {}
            Some("vim") => km.merge("keymaps/vim.toml", VIM, warnings),
            Some(other) => warnings.push(format!("keymap preset `{other}` does not exist (presets: default, vim); using default")),
        }
        if let Some(text) = user {
            km.merge("keymap.toml", text, warnings);
        }
        km.drop_shadowed(warnings);
        km
    }

    fn merge(&mut self, source: &str, text: &str, warnings: &mut Vec<String>) {
        let raw: RawMap = match toml::from_str(text) {
            Ok(r) => r,
            Err(e) => {
                warnings.push(format!("{source}: {}; its bindings are ignored", e.to_string().trim()));
                return;
            }
        };
        for (ctx, bindings) in raw {
            if !CONTEXTS.contains(&ctx.as_str()) {
                warnings.push(format!("{source}: unknown context [{ctx}] (contexts: {})", CONTEXTS.join(", ")));
                continue;
            }
            let map = self.contexts.entry(ctx.clone()).or_default();
            for (keys, action) in bindings {
                let seq = match parse_seq(&keys) {
                    Ok(s) => s,
                    Err(e) => {
                        warnings.push(format!("{source}: [{ctx}] \"{keys}\": {e}"));
                        continue;
                    }
                };
                if action == "none" {
                    map.remove(&seq);
                    continue;
                }
                match Command::from_name(&action) {
                    Some(cmd) => {
                        map.insert(seq, cmd);
                    }
                    None => warnings.push(format!("{source}: [{ctx}] \"{keys}\" = \"{action}\": no such action (`?` lists them)")),
                }
            }
        }
    }

    /// A binding that a shorter one in the same context already claims can
    /// never fire: warn and drop the longer one.
    fn drop_shadowed(&mut self, warnings: &mut Vec<String>) {
        for (ctx, map) in &mut self.contexts {
            let seqs: Vec<Seq> = map.keys().cloned().collect();
            for long in &seqs {
                if let Some(short) = seqs.iter().find(|s| s.len() < long.len() && long.starts_with(s)) {
                    warnings.push(format!("[{ctx}] \"{}\" is shadowed by \"{}\" and never fires", seq_label(long), seq_label(short)));
                    map.remove(long);
                }
            }
        }
    }

    pub fn lookup(&self, context: &str, pending: &[Key]) -> Lookup {
        let mut prefix = false;
        for ctx in [context, "global"] {
            let Some(map) = self.contexts.get(ctx) else { continue };
            if let Some(cmd) = map.get(pending) {
                return Lookup::Found(*cmd);
            }
            prefix |= map.keys().any(|s| s.len() > pending.len() && s.starts_with(pending));
        }
        if prefix { Lookup::Prefix } else { Lookup::None }
    }

    /// The keys bound to a command in a context (falling back to global).
    pub fn keys_for(&self, context: &str, cmd: Command) -> Vec<String> {
        let mut out = vec![];
        for ctx in [context, "global"] {
            if let Some(map) = self.contexts.get(ctx) {
                let mut found: Vec<String> = map.iter().filter(|(_, c)| **c == cmd).map(|(s, _)| seq_label(s)).collect();
                // Single characters first, then alphabetical: stable hints and help.
                found.sort_by_key(|l| (l.chars().count() > 1, l.clone()));
                out.extend(found);
            }
            if !out.is_empty() {
                break;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_keymaps_load_without_warnings() {
        for preset in ["default", "vim"] {
            let mut w = vec![];
            let km = Keymap::load(Some(preset), None, &mut w);
            assert!(w.is_empty(), "{preset}: {w:?}");
            assert_eq!(km.lookup("tasks", &parse_seq("q").unwrap()), Lookup::Found(Command::Quit));
        }
    }

    #[test]
    fn bad_user_bindings_warn_and_keep_the_defaults() {
        let mut w = vec![];
        let km = Keymap::load(None, Some("[tree]\n\"x\" = \"explode\"\n\"ctrl-zz\" = \"quit\"\n[nowhere]\n\"a\" = \"quit\"\n"), &mut w);
        assert_eq!(w.len(), 3, "{w:?}");
        assert_eq!(km.lookup("tree", &parse_seq("j").unwrap()), Lookup::Found(Command::Down));
        let mut w = vec![];
        Keymap::load(None, Some("not toml ["), &mut w);
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn sequences_wait_and_shadowed_ones_are_dropped() {
        let mut w = vec![];
        let km = Keymap::load(Some("vim"), None, &mut w);
        assert_eq!(km.lookup("tree", &parse_seq("g").unwrap()), Lookup::Prefix);
        assert_eq!(km.lookup("tree", &parse_seq("g g").unwrap()), Lookup::Found(Command::Top));
        let mut w = vec![];
        Keymap::load(None, Some("[tree]\n\"z\" = \"top\"\n\"z z\" = \"bottom\"\n"), &mut w);
        assert!(w.iter().any(|m| m.contains("shadowed")), "{w:?}");
    }

    #[test]
    fn keys_parse_and_print() {
        assert_eq!(Key::parse("ctrl-d").unwrap().label(), "ctrl-d");
        assert_eq!(Key::parse("shift-g").unwrap(), Key::parse("G").unwrap());
        assert!(Key::parse("hyper-x").is_err());
    }
}
