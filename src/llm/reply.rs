//! Reading a model's final answer: the prose, the one fenced code block it
//! proposes, and optional `Layer:` / `Kernel:` lines naming where it goes.

/// A closed fenced block: its info string (language) and its body.
#[derive(Debug, Clone, PartialEq)]
pub struct CodeBlock {
    pub lang: String,
    pub body: String,
}

#[derive(Debug, Clone, PartialEq, Default)]
pub struct Reply {
    /// The prose before the block, whitespace collapsed and shortened.
    pub rationale: String,
    /// The last closed block; None when there is none (or the only one was cut off).
    pub block: Option<CodeBlock>,
    /// From a `Layer: L1` line in the prose.
    pub layer: Option<String>,
    /// From a `Kernel: name` line in the prose.
    pub kernel: Option<String>,
    /// A block was opened and never closed: the reply was probably cut off.
    pub unclosed: bool,
}

/// The longest rationale kept: a node's rationale is shown on one line of the tree.
pub const RATIONALE_CHARS: usize = 600;

pub fn parse_reply(text: &str) -> Reply {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks: Vec<(usize, CodeBlock)> = vec![];
    let mut prose_before: Vec<Vec<&str>> = vec![vec![]];
    let mut unclosed = false;
    let mut i = 0;
    while i < lines.len() {
        if let Some((ticks, lang)) = fence_open(lines[i]) {
            let close = (i + 1..lines.len()).find(|&j| fence_close(lines[j], ticks));
            match close {
                Some(j) => {
                    blocks.push((prose_before.len() - 1, CodeBlock { lang: lang.to_string(), body: lines[i + 1..j].join("\n") }));
                    prose_before.push(vec![]);
                    i = j + 1;
                    continue;
                }
                None => {
                    unclosed = true;
                    break;
                }
            }
        }
        if let Some(v) = prose_before.last_mut() {
            v.push(lines[i]);
        }
        i += 1;
    }
    let all_prose: Vec<&str> = prose_before.iter().flatten().copied().collect();
    let field = |name: &str| all_prose.iter().find_map(|l| labelled(l, name));
    let layer = field("layer");
    let kernel = field("kernel");
    let (rationale_lines, block) = match blocks.pop() {
        Some((idx, b)) => (prose_before[..=idx].concat(), Some(b)),
        None => (all_prose.clone(), None),
    };
    let prose: Vec<&str> = rationale_lines.into_iter().filter(|l| labelled(l, "layer").is_none() && labelled(l, "kernel").is_none()).collect();
    Reply { rationale: shorten(&prose.join(" "), RATIONALE_CHARS), block, layer, kernel, unclosed }
}

/// "```lang" (up to three spaces in): the number of backticks and the language.
fn fence_open(line: &str) -> Option<(usize, &str)> {
    let t = line.trim_start();
    if line.len() - t.len() > 3 {
        return None;
    }
    let ticks = t.chars().take_while(|&c| c == '`').count();
    let info = t[ticks..].trim();
    (ticks >= 3 && !info.contains('`')).then(|| (ticks, info.split_whitespace().next().unwrap_or("")))
}

fn fence_close(line: &str, ticks: usize) -> bool {
    let t = line.trim();
    t.len() >= ticks && t.chars().all(|c| c == '`')
}

/// The value of a `Name: value` line (also `**Name:** value` and `- Name: value`).
fn labelled(line: &str, name: &str) -> Option<String> {
    let t = line.trim().trim_start_matches(['-', '*', '#', ' ']);
    let (k, v) = t.split_once(':')?;
    if !k.trim().trim_matches('*').eq_ignore_ascii_case(name) {
        return None;
    }
    let v = v.trim().trim_matches(['*', '`', ' ']).trim();
    (!v.is_empty() && !v.contains(' ')).then(|| v.to_string())
}

/// Whitespace collapsed and cut at a word boundary near `max` characters.
pub fn shorten(text: &str, max: usize) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    let mut out = String::new();
    for w in words {
        if out.chars().count() + w.chars().count() + 1 > max {
            out.push('…');
            return out;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(w);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_prose_and_the_last_closed_block() {
        let r = parse_reply("Tile the loop.\nLayer: L1\nKernel: **matmul**\n\n```python\nb = sch.get_sblock(\"c\")\n```\n");
        assert_eq!(r.rationale, "Tile the loop.");
        assert_eq!(r.layer.as_deref(), Some("L1"));
        assert_eq!(r.kernel.as_deref(), Some("matmul"));
        let b = r.block.unwrap();
        assert_eq!((b.lang.as_str(), b.body.as_str()), ("python", "b = sch.get_sblock(\"c\")"));
        assert!(!r.unclosed);
    }

    #[test]
    fn an_unclosed_block_is_not_a_block() {
        let r = parse_reply("Why.\n```llvm\ndefine void @f() {\n");
        assert!(r.block.is_none());
        assert!(r.unclosed);
        assert_eq!(r.rationale, "Why.");
    }

    #[test]
    fn long_rationales_are_cut_at_a_word() {
        let s = shorten(&"word ".repeat(500), 20);
        assert!(s.ends_with('…') && s.chars().count() <= 21, "{s}");
        assert_eq!(shorten("a\n  b", 10), "a b");
    }

    #[test]
    fn nested_backticks_need_a_longer_fence() {
        let r = parse_reply("x\n````text\n```\ninner\n```\n````\n");
        assert_eq!(r.block.unwrap().body, "```\ninner\n```");
    }
}
