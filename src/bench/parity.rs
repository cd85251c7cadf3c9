//! Trials to parity: how many candidates an agent measured before one
//! matched the baseline (correct, validly timed, speedup >= 1.0), against
//! the trials MetaSchedule measured to build that baseline. Search that
//! needs as many trials as the compiler's own is no better than tuning longer.

use crate::session::CandidateTree;
use serde_json::Value;

/// The fewest trials a tuning must have measured for a quarter of them to
/// be at least one.
const MIN_SEARCHED: u64 = 4;

/// Candidates measured (the root, the task's reference, not counted) up to
/// and including the first that reached parity, in the order they were made.
pub fn trials_to_parity(tree: &CandidateTree) -> Option<u32> {
    let mut nodes: Vec<_> = tree.nodes.iter().filter(|n| n.id() != 0 && n.result.is_some()).collect();
    nodes.sort_by_key(|n| n.id());
    nodes.iter().position(|n| n.valid_speedup().is_some_and(|s| s >= 1.0)).map(|i| i as u32 + 1)
}

/// One line for the table: tasks at parity, the median trials it took, and
/// how many got there within a quarter of MetaSchedule's trials. `runs` are
/// the agent runs' records (`trials_to_parity`, `metaschedule_trials`).
pub fn summary(runs: &[Value]) -> Option<String> {
    if runs.is_empty() {
        return None;
    }
    let reached: Vec<(u64, Option<u64>)> = runs.iter().filter_map(|r| Some((r["trials_to_parity"].as_u64()?, r["metaschedule_trials"].as_u64()))).collect();
    let mut trials: Vec<u64> = reached.iter().map(|(t, _)| *t).collect();
    trials.sort_unstable();
    let median = |v: &[u64]| (!v.is_empty()).then(|| if v.len() % 2 == 1 { v[v.len() / 2] as f64 } else { (v[v.len() / 2 - 1] + v[v.len() / 2]) as f64 / 2.0 });
    let mut ms: Vec<u64> = reached.iter().filter_map(|(_, m)| *m).collect();
    ms.sort_unstable();
    // A tuning that measured fewer than four schedules (its space held no
    // more, or nothing was tunable) leaves less than one trial as its
    // quarter: no search can meet that, so those tasks are named apart.
    let searched = |m: &u64| *m >= MIN_SEARCHED;
    let quarter = reached.iter().filter(|(t, m)| m.is_some_and(|m| searched(&m) && *t * 4 <= m)).count();
    let with_ms = reached.iter().filter(|(_, m)| m.is_some_and(|m| searched(&m))).count();
    let tiny = reached.iter().filter(|(_, m)| m.is_some_and(|m| !searched(&m))).count();
    let mut s = format!("trials to parity with the baseline: reached on {} of {} tasks", reached.len(), runs.len());
    if let Some(m) = median(&trials) {
        s += &format!(", median {m} candidates");
    }
    if let Some(m) = median(&ms) {
        s += &format!(" (MetaSchedule measured a median {m} on those tasks); within a quarter of MetaSchedule's trials on {quarter} of {with_ms}");
        if tiny > 0 {
            s += &format!(
                "; left out of that count, {tiny} task(s) where MetaSchedule measured fewer than {MIN_SEARCHED} schedules (its whole space), whose quarter is less than one trial"
            );
        }
    }
    Some(s + "\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn tree(speedups: &[Option<f64>]) -> CandidateTree {
        let points: Vec<(Option<f64>, bool)> = speedups.iter().map(|s| (*s, s.is_some())).collect();
        CandidateTree::synthetic(&points)
    }

    #[test]
    fn parity_is_the_first_agent_candidate_at_or_above_the_baseline() {
        // The root (the reference, at 1.0x) never counts; a wrong candidate is a trial spent.
        assert_eq!(trials_to_parity(&tree(&[Some(0.5), None, Some(0.99), Some(1.2), Some(1.0)])), Some(4));
        assert_eq!(trials_to_parity(&tree(&[Some(0.5), None])), None);
        assert_eq!(trials_to_parity(&tree(&[Some(1.0)])), Some(1));
    }

    #[test]
    fn the_median_counts_only_tasks_that_reached_parity() {
        let runs = vec![
            json!({"trials_to_parity": 2, "metaschedule_trials": 80}),
            json!({"trials_to_parity": 30, "metaschedule_trials": 80}),
            json!({"trials_to_parity": 4, "metaschedule_trials": null}),
            json!({"trials_to_parity": null, "metaschedule_trials": 77}),
        ];
        let s = summary(&runs).unwrap();
        assert!(s.contains("reached on 3 of 4 tasks, median 4 candidates"), "{s}");
        assert!(s.contains("median 80 on those tasks); within a quarter of MetaSchedule's trials on 1 of 2"), "{s}");
        assert!(!s.contains("left out"), "{s}");
        assert!(summary(&[]).is_none());
    }

    #[test]
    fn a_tuning_with_a_one_point_space_is_named_apart_from_the_quarter_count() {
        let runs = vec![
            json!({"trials_to_parity": 2, "metaschedule_trials": 80}),
            json!({"trials_to_parity": 1, "metaschedule_trials": 1}),
            json!({"trials_to_parity": 1, "metaschedule_trials": 0}),
            json!({"trials_to_parity": 1, "metaschedule_trials": 4}),
        ];
        let s = summary(&runs).unwrap();
        assert!(s.contains("within a quarter of MetaSchedule's trials on 2 of 2; left out of that count, 2 task(s)"), "{s}");
    }
}
