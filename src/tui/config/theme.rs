//! Themes: `themes/*.toml` with semantic keys (`diff.plus`, `tree.selected`),
//! a palette, `inherits`, and dotted names that fall back to their parents
//! (`diff.plus.emph` -> `diff.plus` -> `diff`). Each theme names the syntect
//! theme that highlights code with it. `NO_COLOR` keeps only modifiers.

use ratatui::style::{Color, Modifier, Style};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

pub const BUILTIN: &[(&str, &str)] = &[
    ("default", include_str!("../../../themes/default.toml")),
    ("dark", include_str!("../../../themes/dark.toml")),
    ("light", include_str!("../../../themes/light.toml")),
];

#[derive(Debug, Deserialize, Default)]
#[serde(deny_unknown_fields)]
struct RawTheme {
    inherits: Option<String>,
    syntect: Option<String>,
    /// "16" for themes that use only the ANSI colours; "truecolor" otherwise.
    colors: Option<String>,
    #[serde(default)]
    palette: BTreeMap<String, String>,
    #[serde(default)]
    styles: BTreeMap<String, RawStyle>,
}

#[derive(Debug, Deserialize, Clone)]
#[serde(untagged)]
enum RawStyle {
    Fg(String),
    Full {
        fg: Option<String>,
        bg: Option<String>,
        #[serde(default)]
        modifiers: Vec<String>,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColorMode {
    None,
    Ansi16,
    TrueColor,
}

#[derive(Debug, Clone)]
pub struct Theme {
    pub name: String,
    pub syntect: String,
    pub mode: ColorMode,
    styles: HashMap<String, Style>,
}

impl Theme {
    /// The style for a semantic key, falling back through its dotted parents.
    pub fn get(&self, key: &str) -> Style {
        let mut k = key;
        loop {
            if let Some(s) = self.styles.get(k) {
                return *s;
            }
            match k.rfind('.') {
                Some(i) => k = &k[..i],
                None => return Style::default(),
            }
        }
    }

    /// Loads a theme by name: the user's `<config>/themes/<name>.toml`
    /// first, then the shipped ones. Problems are warnings; the default
    /// theme is the fallback.
    pub fn load(name: &str, user_dir: Option<&std::path::Path>, no_color: bool, warnings: &mut Vec<String>) -> Self {
        let source = |n: &str| -> Option<String> {
            if let Some(dir) = user_dir
                && let Ok(t) = std::fs::read_to_string(dir.join(format!("{n}.toml")))
            {
                return Some(t);
            }
            BUILTIN.iter().find(|(b, _)| *b == n).map(|(_, t)| t.to_string())
        };
        let mut chain: Vec<RawTheme> = vec![];
        let mut next = Some(name.to_string());
        while let Some(n) = next.take() {
            if chain.len() > 8 {
                warnings.push(format!("theme `{name}`: `inherits` goes round in a circle; stopped at `{n}`"));
                break;
            }
            let Some(text) = source(&n) else {
                warnings.push(format!("theme `{n}` not found (shipped: default, dark, light; yours go in <config>/themes/); using default"));
                if n != "default" {
                    next = Some("default".into());
                }
                continue;
            };
            match toml::from_str::<RawTheme>(&text) {
                Ok(raw) => {
                    next = raw.inherits.clone();
                    chain.push(raw);
                }
                Err(e) => {
                    warnings.push(format!("theme `{n}`: {}; using default", e.to_string().trim()));
                    if n != "default" {
                        next = Some("default".into());
                    }
                }
            }
        }
        // Apply from the root ancestor down, so children override.
        let mut palette = BTreeMap::new();
        let mut raw_styles = BTreeMap::new();
        let (mut syntect, mut colors) = (None, None);
        for raw in chain.into_iter().rev() {
            palette.extend(raw.palette);
            raw_styles.extend(raw.styles);
            syntect = raw.syntect.or(syntect);
            colors = raw.colors.or(colors);
        }
        let mode = if no_color {
            ColorMode::None
        } else if colors.as_deref() == Some("16") {
            ColorMode::Ansi16
        } else {
            ColorMode::TrueColor
        };
        let mut styles = HashMap::new();
        for (key, raw) in raw_styles {
            match to_style(&raw, &palette) {
                Ok(s) => {
                    styles.insert(key, strip_colors_if(s, mode));
                }
                Err(e) => warnings.push(format!("theme `{name}`: {key}: {e}")),
            }
        }
        Self { name: name.to_string(), syntect: syntect.unwrap_or_else(|| "base16-ocean.dark".into()), mode, styles }
    }
}

fn strip_colors_if(s: Style, mode: ColorMode) -> Style {
    if mode != ColorMode::None {
        return s;
    }
    // Without colour, a background meant "this stands out": keep that as reverse video.
    let mut plain = Style::default().add_modifier(s.add_modifier);
    if s.bg.is_some() {
        plain = plain.add_modifier(Modifier::REVERSED);
    }
    plain
}

fn to_style(raw: &RawStyle, palette: &BTreeMap<String, String>) -> Result<Style, String> {
    let color = |c: &str| -> Result<Color, String> { parse_color(palette.get(c).map(String::as_str).unwrap_or(c)) };
    Ok(match raw {
        RawStyle::Fg(c) => Style::default().fg(color(c)?),
        RawStyle::Full { fg, bg, modifiers } => {
            let mut s = Style::default();
            if let Some(c) = fg {
                s = s.fg(color(c)?);
            }
            if let Some(c) = bg {
                s = s.bg(color(c)?);
            }
            for m in modifiers {
                s = s.add_modifier(match m.as_str() {
                    "bold" => Modifier::BOLD,
                    "dim" => Modifier::DIM,
                    "italic" => Modifier::ITALIC,
                    "underlined" => Modifier::UNDERLINED,
                    "reversed" => Modifier::REVERSED,
                    other => return Err(format!("unknown modifier `{other}` (bold, dim, italic, underlined, reversed)")),
                });
            }
            s
        }
    })
}

pub fn parse_color(s: &str) -> Result<Color, String> {
    if let Some(hex) = s.strip_prefix('#')
        && hex.len() == 6
        && let Ok(v) = u32::from_str_radix(hex, 16)
    {
        return Ok(Color::Rgb((v >> 16) as u8, (v >> 8) as u8, v as u8));
    }
    s.parse::<Color>().map_err(|_| format!("`{s}` is not a colour (a name like `light-red`, `#rrggbb`, or a palette entry)"))
}

/// The closest of the 16 ANSI colours, for code highlighting in a 16-colour theme.
pub fn nearest_ansi(r: u8, g: u8, b: u8) -> Color {
    const TABLE: &[(Color, (i32, i32, i32))] = &[
        (Color::Black, (0, 0, 0)),
        (Color::Red, (205, 49, 49)),
        (Color::Green, (13, 188, 121)),
        (Color::Yellow, (229, 229, 16)),
        (Color::Blue, (36, 114, 200)),
        (Color::Magenta, (188, 63, 188)),
        (Color::Cyan, (17, 168, 205)),
        (Color::Gray, (229, 229, 229)),
        (Color::DarkGray, (102, 102, 102)),
        (Color::LightRed, (241, 76, 76)),
        (Color::LightGreen, (35, 209, 139)),
        (Color::LightYellow, (245, 245, 67)),
        (Color::LightBlue, (59, 142, 234)),
        (Color::LightMagenta, (214, 112, 214)),
        (Color::LightCyan, (41, 184, 219)),
        (Color::White, (255, 255, 255)),
    ];
    let (r, g, b) = (r as i32, g as i32, b as i32);
    TABLE.iter().min_by_key(|(_, (tr, tg, tb))| (r - tr).pow(2) + (g - tg).pow(2) + (b - tb).pow(2)).map(|(c, _)| *c).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_themes_load_cleanly_and_pair_with_a_syntect_theme() {
        let syntect = syntect::highlighting::ThemeSet::load_defaults();
        for (name, _) in BUILTIN {
            let mut w = vec![];
            let t = Theme::load(name, None, false, &mut w);
            assert!(w.is_empty(), "{name}: {w:?}");
            assert!(syntect.themes.contains_key(&t.syntect), "{name}: no syntect theme {}", t.syntect);
            assert_ne!(t.get("diff.plus"), Style::default(), "{name}");
        }
        let default = Theme::load("default", None, false, &mut vec![]);
        assert_eq!(default.mode, ColorMode::Ansi16);
        assert!(default.styles.values().all(|s| !matches!(s.fg, Some(Color::Rgb(..)) | Some(Color::Indexed(_)))));
    }

    #[test]
    fn dotted_keys_fall_back_and_no_color_keeps_selection_visible() {
        let t = Theme::load("dark", None, true, &mut vec![]);
        assert_eq!(t.get("diff.plus.emph.deeper").fg, None);
        assert!(t.get("tree.selected").add_modifier.contains(Modifier::REVERSED));
    }

    #[test]
    fn unknown_theme_falls_back_with_a_warning() {
        let mut w = vec![];
        let t = Theme::load("neon", None, false, &mut w);
        assert_eq!(w.len(), 1);
        assert_ne!(t.get("diff.minus"), Style::default());
    }
}
