//! Schedules that won on one branch, offered to another. Branches that
//! differ in their graph rewrites still share most of their kernels, text
//! for text: on kws_dscnn the NHWC convolution that a register tile made
//! 11x faster on one L0 branch was left at TVM's default schedule on the
//! branch beside it, which spent its rounds on another kernel and ended at
//! 2.48x against the first branch's 3.06x. An L1 schedule is a function of
//! the kernel's text (and the target), so where a node's kernel reads as
//! the text a winning edit started from, that edit's result is the first
//! thing to try there: one candidate, not another round.

use crate::ir::Layer;
use crate::session::tree::{CandidateTree, Node};
use std::collections::{HashMap, HashSet};

/// How much faster than its parent a node must have measured for its
/// schedule to be carried to other branches (whole-graph speedups; below
/// this it is within the noise of two measurements).
const MIN_GAIN: f64 = 1.05;

/// A schedule to carry: `kernel` of the node at hand takes `text`, the
/// kernel as node `from` has it.
#[derive(Debug, Clone, PartialEq)]
pub struct Reuse {
    pub kernel: String,
    pub text: String,
    pub from: u32,
    pub gain: f64,
    /// The move that made `from` (its rationale's first word).
    pub move_name: String,
}

/// A kernel's text with its parameters named by position: the graph's
/// lowering names them after its variables (`lv3_2` on one branch,
/// `lv3_1_1` on another), and a PrimFunc's parameters are positional, so
/// two kernels that differ only there are the same kernel.
fn key(text: &str) -> String {
    let params = params(text);
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        match params.iter().position(|p| p == word) {
            Some(i) => out.push_str(&format!("__param{i}__")),
            None => out.push_str(word),
        }
        word.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

/// A kernel's buffer parameters, by name, in order (from its `def` line).
fn params(text: &str) -> Vec<&str> {
    let Some(def) = text.lines().find(|l| l.trim_start().starts_with("def ")) else { return vec![] };
    let pieces: Vec<&str> = def.split(": T.Buffer(").collect();
    // Every piece but the last ends with a parameter's name.
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    pieces[..pieces.len().saturating_sub(1)].iter().filter_map(|p| p.rsplit(|c: char| !ident(c)).next()).filter(|n| !n.is_empty()).collect()
}

/// The winning L1 edits of the tree, by the key of the kernel they started
/// from: the one with the largest gain over its parent for each.
fn winners(tree: &CandidateTree) -> HashMap<String, (&Node, f64)> {
    let mut out: HashMap<String, (&Node, f64)> = HashMap::new();
    for child in &tree.nodes {
        let (Layer::L1, Some(kernel)) = (child.record.layer, child.record.kernel.as_deref()) else { continue };
        let Some(parent) = child.record.parent.and_then(|p| tree.get(p)) else { continue };
        let (Some(after), Some(before)) = (child.point_speedup(), parent.point_speedup()) else { continue };
        let gain = after / before;
        let (Some(from_text), Some(to_text)) = (parent.record.texts.l1.get(kernel), child.record.texts.l1.get(kernel)) else { continue };
        if gain < MIN_GAIN || from_text == to_text {
            continue;
        }
        let e = out.entry(key(from_text)).or_insert((child, gain));
        if gain > e.1 {
            *e = (child, gain);
        }
    }
    out
}

/// The next schedule to carry to `node`: a kernel of it whose text is the
/// text a winning edit elsewhere started from, largest gain first; never
/// one `offered` already holds for this node and kernel, nor one the node
/// has a child for with that text.
pub fn next(tree: &CandidateTree, node: u32, offered: &HashSet<(u32, String)>) -> Option<Reuse> {
    let here = tree.get(node)?;
    let won = winners(tree);
    let child_texts: HashSet<(&str, String)> = here
        .children
        .iter()
        .filter_map(|c| tree.get(*c))
        .filter_map(|c| {
            let k = c.record.kernel.as_deref()?;
            Some((k, key(c.record.texts.l1.get(k)?)))
        })
        .collect();
    let path: HashSet<u32> = tree.path_to(node).into_iter().collect();
    let mut found: Vec<Reuse> = vec![];
    for (kernel, text) in &here.record.texts.l1 {
        let Some((winner, gain)) = won.get(&key(text)) else { continue };
        let Some(new_text) = winner.record.texts.l1.get(winner.record.kernel.as_deref().unwrap_or_default()) else { continue };
        if path.contains(&winner.id()) || offered.contains(&(node, kernel.clone())) || child_texts.contains(&(kernel.as_str(), key(new_text))) {
            continue;
        }
        let name = winner.record.rationale.split(':').next().unwrap_or_default();
        let move_name = name.strip_prefix("reuse-").unwrap_or(name).to_string();
        found.push(Reuse { kernel: kernel.clone(), text: new_text.clone(), from: winner.id(), gain: *gain, move_name });
    }
    found.into_iter().max_by(|a, b| a.gain.total_cmp(&b.gain))
}

#[cfg(test)]
mod tests {
    use super::*;
    use Layer::{L0, L1};

    /// Two graph rewrites of the root (1, 2) that share kernel `conv` by
    /// text; node 3 schedules `conv` on branch 1 (3x), node 4 schedules
    /// `mm` on branch 2 (1.02x: noise).
    fn two_branches() -> CandidateTree {
        let mut t = CandidateTree::synthetic_tree(&[(0, L0, Some(0.3)), (0, L0, Some(0.35)), (1, L1, Some(0.9)), (2, L1, Some(0.357))]);
        let set = |t: &mut CandidateTree, id: usize, kernel: Option<&str>, texts: &[(&str, &str)]| {
            let n = &mut t.nodes[id];
            n.record.kernel = kernel.map(str::to_string);
            n.record.rationale = kernel.map(|_| "micro5x32: a register tile".to_string()).unwrap_or_default();
            n.record.texts.l1 = texts.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
        };
        set(&mut t, 1, None, &[("conv", "conv default"), ("mm", "mm default a")]);
        set(&mut t, 2, None, &[("conv_1", "conv default"), ("mm", "mm default b")]);
        set(&mut t, 3, Some("conv"), &[("conv", "conv tiled"), ("mm", "mm default a")]);
        set(&mut t, 4, Some("mm"), &[("conv_1", "conv default"), ("mm", "mm tiled")]);
        t
    }

    #[test]
    fn a_winning_schedule_is_offered_where_the_kernel_text_matches() {
        let t = two_branches();
        let none = HashSet::new();
        // Node 4's `conv_1` reads as node 1's `conv` did: node 3's tile goes there.
        let r = next(&t, 4, &none).expect("a reuse for node 4");
        assert_eq!((r.kernel.as_str(), r.text.as_str(), r.from, r.move_name.as_str()), ("conv_1", "conv tiled", 3, "micro5x32"));
        assert!((r.gain - 3.0).abs() < 1e-9);
        assert_eq!(next(&t, 2, &none).map(|r| r.kernel), Some("conv_1".into()));
        // Not on the winner's own path, not twice, and not for a gain within noise (node 4's 1.02x).
        assert_eq!(next(&t, 3, &none), None, "node 3 is the winner");
        assert_eq!(next(&t, 1, &none), None, "node 1 already has that child");
        let offered: HashSet<(u32, String)> = [(4, "conv_1".to_string())].into_iter().collect();
        assert_eq!(next(&t, 4, &offered), None);
    }

    #[test]
    fn kernels_that_differ_only_in_their_parameters_names_match() {
        let k = |a: &str, b: &str| format!("@T.prim_func(private=True)\ndef main({a}: T.Buffer((T.int64(8),), \"float32\"), {b}: T.Buffer((T.int64(8),), \"float32\")):\n    for i in range(8):\n        with T.sblock(\"compute\"):\n            {b}[i] = {a}[i] + lv3\n");
        assert_eq!(params(&k("lv3_2", "out")), ["lv3_2", "out"]);
        assert_eq!(key(&k("lv3_2", "out")), key(&k("lv3_1_1", "compute_1")), "renamed parameters");
        // A name that is a parameter in one and something else in the other is not matched away.
        assert_ne!(key(&k("lv3_2", "out")), key(&k("lv3", "out")));
        let mut t = two_branches();
        t.nodes[2].record.texts.l1.insert("conv_1".into(), k("lv3_1_1", "o"));
        t.nodes[4].record.texts.l1.insert("conv_1".into(), k("lv3_1_1", "o"));
        t.nodes[1].record.texts.l1.insert("conv".into(), k("lv3_2", "out"));
        assert_eq!(next(&t, 4, &HashSet::new()).map(|r| (r.kernel, r.text)), Some(("conv_1".to_string(), "conv tiled".to_string())));
    }

    #[test]
    fn a_kernel_whose_text_differs_gets_nothing() {
        let mut t = two_branches();
        t.nodes[4].record.texts.l1.insert("conv_1".into(), "conv default, other layout".into());
        assert_eq!(next(&t, 4, &HashSet::new()), None);
    }
}
