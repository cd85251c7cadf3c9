//! Syntax highlighting with syntect, done incrementally: only the lines up
//! to the bottom of the view are highlighted, and the parser state is kept
//! so scrolling further continues where it stopped. The syntax and theme
//! sets load on first use, never before the first frame.

use super::config::theme::{ColorMode, nearest_ansi};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use std::sync::OnceLock;
use syntect::easy::HighlightLines;
use syntect::highlighting::{FontStyle, ThemeSet};
use syntect::parsing::SyntaxSet;

fn syntaxes() -> &'static SyntaxSet {
    static S: OnceLock<SyntaxSet> = OnceLock::new();
    S.get_or_init(SyntaxSet::load_defaults_newlines)
}

fn themes() -> &'static ThemeSet {
    static T: OnceLock<ThemeSet> = OnceLock::new();
    T.get_or_init(ThemeSet::load_defaults)
}

/// Which grammar a text uses. TVMScript is Python; LLVM IR has no bundled
/// grammar, so it is shown plain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    Plain,
}

pub struct Highlighted {
    source: Vec<String>,
    pub lines: Vec<Line<'static>>,
    state: Option<HighlightLines<'static>>,
    mode: ColorMode,
}

impl Highlighted {
    pub fn new(text: &str, lang: Lang, syntect_theme: &str, mode: ColorMode) -> Self {
        let source: Vec<String> = text.lines().map(|l| format!("{}\n", l.replace('\t', "    "))).collect();
        let state = match (lang, mode) {
            (Lang::Plain, _) | (_, ColorMode::None) => None,
            (Lang::Python, _) => {
                let ts = themes();
                let theme = ts.themes.get(syntect_theme).or_else(|| ts.themes.values().next());
                let syntax = syntaxes().find_syntax_by_extension("py");
                theme.zip(syntax).map(|(t, s)| HighlightLines::new(s, t))
            }
        };
        Self { source, lines: Vec::new(), state, mode }
    }

    pub fn len(&self) -> usize {
        self.source.len()
    }

    pub fn is_empty(&self) -> bool {
        self.source.is_empty()
    }

    pub fn source_line(&self, i: usize) -> &str {
        self.source[i].trim_end_matches('\n')
    }

    /// Highlights lines up to `upto` (exclusive), if not done yet.
    pub fn ensure(&mut self, upto: usize) {
        let upto = upto.min(self.source.len());
        while self.lines.len() < upto {
            let i = self.lines.len();
            let text = &self.source[i];
            let line = match &mut self.state {
                Some(h) => match h.highlight_line(text, syntaxes()) {
                    Ok(ranges) => Line::from(ranges.into_iter().map(|(st, s)| Span::styled(s.trim_end_matches('\n').to_string(), convert(st, self.mode))).collect::<Vec<_>>()),
                    Err(_) => Line::raw(text.trim_end_matches('\n').to_string()),
                },
                None => Line::raw(text.trim_end_matches('\n').to_string()),
            };
            self.lines.push(line);
        }
    }
}

fn convert(st: syntect::highlighting::Style, mode: ColorMode) -> Style {
    let c = st.foreground;
    let fg = match mode {
        ColorMode::TrueColor => Some(Color::Rgb(c.r, c.g, c.b)),
        ColorMode::Ansi16 => Some(nearest_ansi(c.r, c.g, c.b)),
        ColorMode::None => None,
    };
    let mut s = Style::default();
    if let Some(fg) = fg {
        s = s.fg(fg);
    }
    if st.font_style.contains(FontStyle::BOLD) {
        s = s.add_modifier(Modifier::BOLD);
    }
    if st.font_style.contains(FontStyle::ITALIC) {
        s = s.add_modifier(Modifier::ITALIC);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_is_coloured_only_as_far_as_asked() {
        let mut h = Highlighted::new("def f(x):\n    return x\n", Lang::Python, "base16-ocean.dark", ColorMode::Ansi16);
        h.ensure(1);
        assert_eq!(h.lines.len(), 1);
        assert!(h.lines[0].spans.len() > 1, "{:?}", h.lines[0]);
        h.ensure(99);
        assert_eq!(h.lines.len(), 2);
    }
}
