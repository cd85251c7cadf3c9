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

/// Which grammar a text uses. TVMScript is Python; syntect bundles no LLVM
/// grammar, so LLVM IR gets a small tokenizer of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Python,
    Llvm,
    Plain,
}

/// The theme's styles for the LLVM tokenizer.
#[derive(Debug, Clone, Copy, Default)]
pub struct LlvmStyles {
    pub comment: Style,
    pub keyword: Style,
    pub name: Style,
    pub number: Style,
}

impl LlvmStyles {
    pub fn from_theme(t: &super::config::theme::Theme) -> Self {
        Self { comment: t.get("code.comment"), keyword: t.get("code.keyword"), name: t.get("code.name"), number: t.get("code.number") }
    }
}

const LLVM_KEYWORDS: &[&str] = &[
    "define", "declare", "call", "tail", "ret", "br", "label", "load", "store", "alloca", "getelementptr", "inbounds", "phi", "icmp", "fcmp", "add", "sub",
    "mul", "fadd", "fsub", "fmul", "fdiv", "select", "switch", "attributes", "align", "to", "bitcast", "sext", "zext", "trunc", "fptosi", "sitofp", "and",
    "or", "xor", "shl", "lshr", "ashr", "insertelement", "extractelement", "shufflevector", "nsw", "nuw", "fast", "entry",
];

fn llvm_line(line: &str, st: &LlvmStyles) -> Line<'static> {
    let (code, comment) = match line.find(';') {
        Some(i) => (&line[..i], Some(&line[i..])),
        None => (line, None),
    };
    let mut spans = vec![];
    let mut word = String::new();
    let flush = |word: &mut String, spans: &mut Vec<Span<'static>>| {
        if word.is_empty() {
            return;
        }
        let style = if word.starts_with('%') || word.starts_with('@') || word.starts_with('!') || word.starts_with('#') {
            st.name
        } else if word.chars().next().is_some_and(|c| c.is_ascii_digit() || c == '-') {
            st.number
        } else if LLVM_KEYWORDS.contains(&word.as_str()) {
            st.keyword
        } else {
            Style::default()
        };
        spans.push(Span::styled(std::mem::take(word), style));
    };
    for c in code.chars() {
        if c.is_alphanumeric() || matches!(c, '%' | '@' | '!' | '#' | '_' | '.' | '-' | '$') {
            word.push(c);
        } else {
            flush(&mut word, &mut spans);
            spans.push(Span::raw(c.to_string()));
        }
    }
    flush(&mut word, &mut spans);
    if let Some(c) = comment {
        spans.push(Span::styled(c.to_string(), st.comment));
    }
    Line::from(spans)
}

pub struct Highlighted {
    source: Vec<String>,
    pub lines: Vec<Line<'static>>,
    state: Option<HighlightLines<'static>>,
    mode: ColorMode,
    llvm: Option<LlvmStyles>,
}

impl Highlighted {
    pub fn new(text: &str, lang: Lang, theme: &super::config::theme::Theme) -> Self {
        let (syntect_theme, mode) = (theme.syntect.as_str(), theme.mode);
        let source: Vec<String> = text.lines().map(|l| format!("{}\n", l.replace('\t', "    "))).collect();
        let state = match (lang, mode) {
            (Lang::Plain | Lang::Llvm, _) | (_, ColorMode::None) => None,
            (Lang::Python, _) => {
                let ts = themes();
                let theme = ts.themes.get(syntect_theme).or_else(|| ts.themes.values().next());
                let syntax = syntaxes().find_syntax_by_extension("py");
                theme.zip(syntax).map(|(t, s)| HighlightLines::new(s, t))
            }
        };
        let llvm = (lang == Lang::Llvm).then(|| LlvmStyles::from_theme(theme));
        Self { source, lines: Vec::new(), state, mode, llvm }
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
                None => match &self.llvm {
                    Some(st) => llvm_line(text.trim_end_matches('\n'), st),
                    None => Line::raw(text.trim_end_matches('\n').to_string()),
                },
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
        let theme = crate::tui::config::theme::Theme::load("default", None, false, &mut vec![]);
        let mut h = Highlighted::new("def f(x):\n    return x\n", Lang::Python, &theme);
        h.ensure(1);
        assert_eq!(h.lines.len(), 1);
        assert!(h.lines[0].spans.len() > 1, "{:?}", h.lines[0]);
        h.ensure(99);
        assert_eq!(h.lines.len(), 2);
    }

    #[test]
    fn llvm_names_keywords_and_comments_are_told_apart() {
        let theme = crate::tui::config::theme::Theme::load("default", None, false, &mut vec![]);
        let mut h = Highlighted::new("  %0 = icmp eq i32 %n, 2 ; check\n", Lang::Llvm, &theme);
        h.ensure(1);
        let spans = &h.lines[0].spans;
        let style_of = |t: &str| spans.iter().find(|s| s.content == t).map(|s| s.style).unwrap();
        assert_eq!(style_of("%0"), theme.get("code.name"));
        assert_eq!(style_of("icmp"), theme.get("code.keyword"));
        assert_eq!(style_of("; check"), theme.get("code.comment"));
        assert_eq!(h.lines[0].spans.iter().map(|s| s.content.as_ref()).collect::<String>(), "  %0 = icmp eq i32 %n, 2 ; check");
    }
}
