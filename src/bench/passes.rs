//! Second passes: `kwb bench --resume --rerun-invalid` runs again the
//! finished tasks that were correct but not validly timed (the interval of
//! their median stayed wider than asked for, as on a noisy machine).
//!
//! A new pass never replaces the one before in silence: the earlier figures
//! go with the new result into progress.jsonl and results.json, the earlier
//! session is kept beside the new one, and the table names every task that
//! ran again with what its earlier passes read. A wrong candidate is not
//! run again: that is the agents' result, not the machine's noise.

use super::progress::{Finished, Progress};
use serde_json::{Value, json};
use std::path::{Path, PathBuf};

/// Whether a finished task was correct but its timing not valid.
pub fn needs_another_pass(f: &Finished) -> bool {
    f.result.correct && !f.result.timing_valid
}

/// Takes those tasks out of `progress.done`, so that they run again. Their
/// lines stay in progress.jsonl until each new pass is recorded (a later
/// line for a task stands for it), so a run stopped before then loses
/// nothing.
pub fn take(progress: &mut Progress) -> Vec<Finished> {
    let tasks: Vec<String> = progress.done.values().filter(|f| needs_another_pass(f)).map(|f| f.task.clone()).collect();
    tasks.iter().filter_map(|t| progress.done.remove(t)).collect()
}

/// Moves a task's session out of the way of its next pass, to
/// `<task>.pass<N>.jsonl` for the pass `before` was; where that session is
/// now, if there was one. When that name is taken, an earlier call set it
/// aside already and the run after it was stopped: the stopped pass's
/// session stays, and the search goes on from it.
pub fn set_aside_session(sessions: &Path, task: &str, before: &Finished) -> std::io::Result<Option<PathBuf>> {
    let to = sessions.join(format!("{task}.pass{}.jsonl", before.earlier.len() + 1));
    if to.exists() {
        return Ok(Some(to));
    }
    let current = sessions.join(format!("{task}.jsonl"));
    if !current.exists() {
        return Ok(None);
    }
    std::fs::rename(&current, &to)?;
    Ok(Some(to))
}

/// What a task's new record carries: its earlier passes, the last one added.
pub fn earlier_passes(before: &Finished, session: Option<&Path>) -> Vec<Value> {
    let r = &before.result;
    let mut passes = before.earlier.clone();
    passes.push(json!({
        "speedup_median": r.speedup_median, "ci": r.ci, "timing_valid": r.timing_valid, "correct": r.correct,
        "baseline_ms": r.baseline_ms, "candidate_ms": r.candidate_ms, "session": session.map(|p| p.display().to_string()),
    }));
    passes
}

/// Lines for the table: each task that ran again, now and before.
pub fn summary<'a>(records: impl IntoIterator<Item = &'a Finished>) -> Option<String> {
    let again: Vec<&Finished> = records.into_iter().filter(|f| !f.earlier.is_empty()).collect();
    if again.is_empty() {
        return None;
    }
    let mut s = format!("run again after a timing without confidence (--rerun-invalid): {} tasks\n", again.len());
    for f in again {
        let r = &f.result;
        let now = match r.speedup_median {
            Some(x) if r.correct && r.timing_valid => format!("{x:.3}x"),
            Some(x) => format!("{x:.3}x, not valid"),
            None => "no figure".into(),
        };
        let before: Vec<String> = f
            .earlier
            .iter()
            .map(|e| match (e["speedup_median"].as_f64(), e["ci"].as_f64()) {
                (Some(x), Some(ci)) => format!("{x:.3}x, interval {:.1}%", ci * 100.0),
                (Some(x), None) => format!("{x:.3}x"),
                _ => "no figure".into(),
            })
            .collect();
        s += &format!("  {}: {now} (before: {})\n", f.task, before.join("; "));
    }
    Some(s)
}

#[cfg(test)]
mod tests {
    use super::super::progress::{Progress, Settings, finished_for_test as finished};
    use super::*;

    fn settings() -> Settings {
        Settings { suite: "l1".into(), agent: "layered-builtin".into(), baseline: "tuned".into(), device: "local-cpu".into(), budget_per_task_s: 60.0, max_candidates: 30, pairs: 15, eager: true }
    }

    #[test]
    fn an_invalid_timing_runs_again_and_its_first_pass_is_kept_with_the_new_one() {
        let dir = tempfile::tempdir().unwrap();
        let sessions = dir.path().join("sessions");
        std::fs::create_dir_all(&sessions).unwrap();
        std::fs::write(sessions.join("exp.jsonl"), "first pass\n").unwrap();
        let mut p = Progress::open(dir.path(), &settings(), false).unwrap();
        p.record(finished("relu", true, true, 1.1, 0.004)).unwrap();
        p.record(finished("exp", true, false, 13.4, 0.066)).unwrap();
        p.record(finished("tanh", false, false, 2.0, 0.02)).unwrap();

        let mut p = Progress::open(dir.path(), &settings(), true).unwrap();
        let again = take(&mut p);
        assert_eq!(again.iter().map(|f| f.task.as_str()).collect::<Vec<_>>(), ["exp"], "valid rows and wrong candidates stay");
        assert!(!p.done.contains_key("exp") && p.done.contains_key("tanh"));

        // Stopped before the new pass was recorded: the first pass is still there.
        let p2 = Progress::open(dir.path(), &settings(), true).unwrap();
        assert_eq!(p2.done["exp"].result.speedup_median, Some(13.4));

        let moved = set_aside_session(&sessions, "exp", &again[0]).unwrap().unwrap();
        assert_eq!(moved, sessions.join("exp.pass1.jsonl"));
        assert_eq!(std::fs::read_to_string(&moved).unwrap(), "first pass\n");
        // The second pass is stopped part way and run again: its session
        // stays for the search to go on from, and the first pass keeps its name.
        std::fs::write(sessions.join("exp.jsonl"), "second pass, stopped\n").unwrap();
        assert_eq!(set_aside_session(&sessions, "exp", &again[0]).unwrap().unwrap(), moved);
        assert_eq!(std::fs::read_to_string(&moved).unwrap(), "first pass\n");
        assert!(sessions.join("exp.jsonl").exists());
        assert!(set_aside_session(&sessions, "relu", &again[0]).unwrap().is_none(), "no session, nothing to move");

        let mut p = Progress::open(dir.path(), &settings(), true).unwrap();
        let mut second = finished("exp", true, true, 10.0, 0.004);
        second.earlier = earlier_passes(&again[0], Some(&moved));
        p.record(second).unwrap();
        let p = Progress::open(dir.path(), &settings(), true).unwrap();
        let exp = &p.done["exp"];
        assert_eq!(exp.result.speedup_median, Some(10.0), "the later line stands for the task");
        assert_eq!(exp.earlier.len(), 1);
        assert_eq!(exp.earlier[0]["speedup_median"], 13.4);
        assert!(exp.earlier[0]["session"].as_str().unwrap().ends_with("exp.pass1.jsonl"));

        let table = summary(p.done.values()).unwrap();
        assert!(table.contains("1 tasks") && table.contains("exp: 10.000x (before: 13.400x, interval 6.6%)"), "{table}");
        assert!(!table.contains("relu"), "{table}");
    }
}
