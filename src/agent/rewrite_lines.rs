//! Lines of work below a graph rewrite, and when one is judged.
//!
//! An L0 rewrite that changes the kernels (a transpose folded into its
//! matmul, a layout change) is slower than its parent until those kernels
//! are scheduled. While one hot kernel is still unscheduled on two lines,
//! it dominates both and their times differ by noise: on swiglu_mlp the
//! line with packed `NT_matmul`s measured 0.141x and the line with weight
//! transposes 0.145x, the search followed the second, and the first, which
//! has no transposes to pay for, was never finished. So a rewrite's line
//! keeps the work while it is below parity and within a factor of two of
//! the fastest node, for a few rounds, before it is judged by its time.
//! A line further behind is behind for a reason (conv_avgpool_linear_head:
//! a pointwise convolution as a matmul at 0.27x beside NHWC at 0.59x; its
//! second round spent five candidates and found nothing).

use crate::ir::Layer;
use crate::session::NodeStatus;
use crate::session::tree::{CandidateTree, Node};
use std::collections::{BTreeSet, HashMap};

/// Rounds a rewrite's line gets before it is judged: the rewrite's own
/// round and one more, enough to schedule the second of two hot kernels
/// (a gated MLP's two matmul shapes) without starving the best line.
pub const ROUNDS_PER_REWRITE: u32 = 2;

/// How far behind the fastest node a line may be and still be followed.
const LINE_MIN_SHARE: f64 = 0.5;

/// The node to work from next on an unfinished rewrite's line, with the
/// rewrite it belongs to: rewrites in the order they were made, each whose
/// line is below parity, at least half as fast as the fastest candidate
/// (`LINE_MIN_SHARE`), and has had fewer than [`ROUNDS_PER_REWRITE`]
/// rounds. A line is the rewrite and what L1 and L2 edits grew from it; a
/// rewrite refined by another rewrite hands its line on to that one.
pub fn unfinished_line(tree: &CandidateTree, rounds: &HashMap<u32, u32>, dead: &BTreeSet<u32>) -> Option<(u32, u32)> {
    let fastest = tree.nodes.iter().filter(|n| n.id() != 0).filter_map(Node::point_speedup).fold(0.0, f64::max);
    let rewrites = tree.nodes.iter().filter(|n| n.id() != 0 && n.record.layer == Layer::L0 && n.status == NodeStatus::Correct);
    for rewrite in rewrites {
        let refined = rewrite.children.iter().filter_map(|c| tree.get(*c)).any(|c| c.record.layer == Layer::L0);
        if refined || rounds.get(&rewrite.id()).copied().unwrap_or(0) >= ROUNDS_PER_REWRITE {
            continue;
        }
        let line = line_of(tree, rewrite.id());
        let best_speedup = line.iter().filter_map(|n| n.point_speedup()).fold(0.0, f64::max);
        if best_speedup >= 1.0 || best_speedup < LINE_MIN_SHARE * fastest {
            continue;
        }
        let next = line.iter().filter(|n| !dead.contains(&n.id())).filter_map(|n| n.point_speedup().map(|s| (s, n.id()))).max_by(|a, b| a.0.total_cmp(&b.0));
        if let Some((_, id)) = next {
            return Some((rewrite.id(), id));
        }
    }
    None
}

/// `rewrite` and its descendants through L1 and L2 edits.
fn line_of(tree: &CandidateTree, rewrite: u32) -> Vec<&Node> {
    let mut line = vec![];
    let mut stack = vec![rewrite];
    while let Some(id) = stack.pop() {
        let Some(n) = tree.get(id) else { continue };
        line.push(n);
        stack.extend(n.children.iter().copied().filter(|c| tree.get(*c).is_some_and(|c| c.record.layer != Layer::L0)));
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Layer::{L0, L1};

    /// swiglu_mlp's tree after its first rounds: two rewrites of the root
    /// (fast-math #1, the folded transpose #2, refined by fast-math as #3),
    /// one matmul scheduled on each line (#4 under #1, #5 under #3).
    fn swiglu_like(speedups: [f64; 2]) -> CandidateTree {
        CandidateTree::synthetic_tree(&[(0, L0, Some(0.039)), (0, L0, Some(0.059)), (2, L0, Some(0.057)), (1, L1, Some(speedups[0])), (3, L1, Some(speedups[1]))])
    }

    #[test]
    fn a_rewrite_below_parity_gets_a_second_round_before_it_is_judged() {
        let t = swiglu_like([0.145, 0.141]);
        let mut rounds = HashMap::from([(1, 1), (2, 1), (3, 1)]);
        let dead = BTreeSet::new();
        assert_eq!(unfinished_line(&t, &rounds, &dead), Some((1, 4)), "the oldest unfinished line, from its fastest node");
        rounds.insert(1, 2);
        assert_eq!(unfinished_line(&t, &rounds, &dead), Some((3, 5)), "#2 was refined by #3, whose line comes next though it is slower than #4");
        rounds.insert(3, 2);
        assert_eq!(unfinished_line(&t, &rounds, &dead), None, "every line had its rounds: the search ranks by time again");
    }

    #[test]
    fn a_line_at_parity_far_behind_or_dead_is_not_followed() {
        let t = swiglu_like([1.3, 0.9]);
        let rounds = HashMap::from([(1, 1), (3, 1)]);
        assert_eq!(unfinished_line(&t, &rounds, &BTreeSet::new()), Some((3, 5)), "#1's line is past parity");
        assert_eq!(unfinished_line(&t, &rounds, &BTreeSet::from([5])), Some((3, 3)), "a dead end gives way to the next node on its line");
        let far_behind = swiglu_like([0.59, 0.27]);
        assert_eq!(unfinished_line(&far_behind, &rounds, &BTreeSet::new()), Some((1, 4)), "#1's line comes first");
        let first_done = HashMap::from([(1, 2), (3, 1)]);
        assert_eq!(unfinished_line(&far_behind, &first_done, &BTreeSet::new()), None, "#3's line is under half the speed of #4");
        let wrong = CandidateTree::synthetic_tree(&[(0, L0, None)]);
        assert_eq!(unfinished_line(&wrong, &HashMap::new(), &BTreeSet::new()), None, "a wrong rewrite has no line");
    }
}
