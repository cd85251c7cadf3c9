//! The benchmark table: per-task results and the paper's aggregates.

pub mod coverage;
pub mod parity;
pub mod passes;
pub mod plot;
pub mod progress;
pub mod report;

use crate::eval::EvalResult;
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Serialize)]
pub struct Aggregate {
    pub tasks: usize,
    pub compile_at_1: f64,
    pub correct_at_1: f64,
    /// Share of ALL tasks that are correct, validly timed and faster than p.
    pub fast_1_0: f64,
    pub fast_2_0: f64,
    /// Over correct, validly timed tasks; slowdowns kept. None when there are none.
    pub geomean_speedup: Option<f64>,
    /// How many tasks that is: a reader of the summary line sees when a
    /// geometric mean stands for fewer tasks than the run had.
    pub geomean_over: usize,
    pub failure_classes: BTreeMap<String, usize>,
    /// Seconds the device spent checking and timing, per candidate and per correct one.
    pub device_s_per_candidate: f64,
    pub device_s_per_success: Option<f64>,
    /// Median over timed tasks of the roofline share; the largest peak memory.
    pub median_roofline_share: Option<f64>,
    pub max_peak_memory_bytes: Option<u64>,
    /// Against PyTorch eager on the same cores, over the correct tasks where
    /// both were timed: the geometric mean of eager / candidate, and how
    /// many of them (of `eager_timed`) were faster than eager.
    pub geomean_vs_eager: Option<f64>,
    pub faster_than_eager: usize,
    pub eager_timed: usize,
}

/// Device time of one evaluation: correctness runs, timing, baseline choice.
pub fn device_s(r: &EvalResult) -> f64 {
    r.stages.iter().filter(|s| matches!(s.stage.as_str(), "check" | "time" | "baseline_choice")).map(|s| s.wall_s).sum()
}

/// Aggregates per group (level, domain suite): group name -> task ids.
pub fn breakdown(results: &[EvalResult], groups: &BTreeMap<String, Vec<String>>) -> BTreeMap<String, Aggregate> {
    groups
        .iter()
        .filter_map(|(name, ids)| {
            let rs: Vec<EvalResult> = results.iter().filter(|r| ids.contains(&r.task)).cloned().collect();
            (!rs.is_empty()).then(|| (name.clone(), aggregate(&rs)))
        })
        .collect()
}

/// Share of ALL tasks that are correct, validly timed, and faster than `p`
/// with confidence: the lower end of the speedup's ~95% interval is above
/// `p`, so a candidate equal to the baseline does not count as faster half
/// the time by noise alone.
pub fn fast_p(results: &[EvalResult], p: f64) -> f64 {
    if results.is_empty() {
        return 0.0;
    }
    let n = results.iter().filter(|r| faster_than(r, p)).count();
    n as f64 / results.len() as f64
}

pub fn faster_than(r: &EvalResult, p: f64) -> bool {
    r.correct && r.fallback.is_none() && r.timing_valid && r.speedup_median.is_some_and(|s| s * (1.0 - r.ci.unwrap_or(0.0) - r.noise.unwrap_or(0.0)) > p)
}

pub fn aggregate(results: &[EvalResult]) -> Aggregate {
    let n = results.len().max(1) as f64;
    let timed: Vec<f64> = results.iter().filter(|r| r.correct && r.timing_valid).filter_map(|r| r.speedup_median).filter(|s| *s > 0.0).collect();
    let geomean = (!timed.is_empty()).then(|| (timed.iter().map(|s| s.ln()).sum::<f64>() / timed.len() as f64).exp());
    let mut classes = BTreeMap::new();
    for r in results {
        if let Some(c) = r.failure_class {
            *classes.entry(c.to_string()).or_insert(0) += 1;
        }
    }
    Aggregate {
        tasks: results.len(),
        compile_at_1: results.iter().filter(|r| r.compile_ok).count() as f64 / n,
        correct_at_1: results.iter().filter(|r| r.correct && r.fallback.is_none()).count() as f64 / n,
        fast_1_0: fast_p(results, 1.0),
        fast_2_0: fast_p(results, 2.0),
        geomean_speedup: geomean,
        geomean_over: timed.len(),
        failure_classes: classes,
        median_roofline_share: {
            let mut v: Vec<f64> = results.iter().filter_map(|r| r.roofline_share).collect();
            v.sort_by(|a, b| a.total_cmp(b));
            (!v.is_empty()).then(|| v[v.len() / 2])
        },
        max_peak_memory_bytes: results.iter().filter_map(|r| r.peak_memory_bytes).max(),
        geomean_vs_eager: {
            let v: Vec<f64> = results.iter().filter_map(|r| r.vs_eager()).collect();
            (!v.is_empty()).then(|| (v.iter().map(|s| s.ln()).sum::<f64>() / v.len() as f64).exp())
        },
        faster_than_eager: results.iter().filter_map(|r| r.vs_eager()).filter(|s| *s > 1.0).count(),
        eager_timed: results.iter().filter(|r| r.vs_eager().is_some()).count(),
        device_s_per_candidate: results.iter().map(device_s).sum::<f64>() / n,
        device_s_per_success: {
            let ok = results.iter().filter(|r| r.correct).count();
            (ok > 0).then(|| results.iter().map(device_s).sum::<f64>() / ok as f64)
        },
    }
}

pub fn table(results: &[EvalResult], agent: &str, baseline: &str, groups: &BTreeMap<String, Vec<String>>) -> String {
    let device = results.first().map_or(crate::devices::LOCAL_CPU, |r| r.manifest.device.as_str());
    let mut s = format!("agent {agent}  baseline {baseline}  device {device}\n");
    let eager = results.iter().any(|r| r.eager.is_some());
    if let Some(e) = results.iter().find_map(|r| r.eager.as_ref()) {
        s += &format!("PyTorch eager: torch {} on {} thread(s), the thread count of TVM's runtime here\n", e.torch, e.threads);
    }
    let eager_cols = |a: &str, b: &str| if eager { format!(" {a:>10} {b:>8}") } else { String::new() };
    s += &format!("{:<26} {:>7} {:>7} {:>11} {:>11} {:>8}{} {:>6} {:>6} {:>6} {:>9}  failure\n", "task", "build", "correct", "cand ms", "base ms", "speedup", eager_cols("eager ms", "vs eager"), "+/-", "valid", "roof", "peak mem");
    for r in results {
        let f = |x: Option<f64>| x.map(|v| format!("{v:.3}")).unwrap_or_else(|| "-".into());
        s += &format!(
            "{:<26} {:>7} {:>7} {:>11} {:>11} {:>8}{} {:>6} {:>6} {:>6} {:>9}  {}\n",
            r.task,
            if r.compile_ok { "ok" } else { "FAIL" },
            if r.correct { "yes" } else { "no" },
            f(r.candidate_ms),
            f(r.baseline_ms),
            r.speedup_median.map(|v| format!("{v:.3}x")).unwrap_or_else(|| "-".into()),
            eager_cols(&f(r.eager.as_ref().map(|e| e.ms)), &r.vs_eager().map(|v| format!("{v:.3}x")).unwrap_or_else(|| "-".into())),
            r.ci.map(|c| format!("{:.1}%", (c + r.noise.unwrap_or(0.0)) * 100.0)).unwrap_or_else(|| "-".into()),
            if r.timing_valid { "yes" } else { "no" },
            r.roofline_share.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_else(|| "-".into()),
            r.peak_memory_bytes.map(|b| format!("{:.1} KiB", b as f64 / 1024.0)).unwrap_or_else(|| "-".into()),
            match (&r.fallback, r.search_speedup) {
                (Some(f), _) => format!("no agent candidate ({f} shown)"),
                (None, Some(x)) => format!("confirmed; search saw {x:.3}x"),
                _ => r.failure_class.map(|c| c.to_string()).unwrap_or_default(),
            }
        );
    }
    let a = aggregate(results);
    s += &format!(
        "\nCompile@1 {:.1}%   Correct@1 {:.1}%   fast_1.0 {:.1}%   fast_2.0 {:.1}%   geomean speedup {}{}   ({} tasks)\n",
        a.compile_at_1 * 100.0,
        a.correct_at_1 * 100.0,
        a.fast_1_0 * 100.0,
        a.fast_2_0 * 100.0,
        a.geomean_speedup.map(|g| format!("{g:.3}x")).unwrap_or_else(|| "-".into()),
        if a.geomean_speedup.is_some() && a.geomean_over < a.tasks { format!(" over the {} validly timed", a.geomean_over) } else { String::new() },
        a.tasks
    );
    if a.eager_timed > 0 {
        s += &format!(
            "against PyTorch eager: geomean {}   faster on {} of {} correct tasks\n",
            a.geomean_vs_eager.map(|g| format!("{g:.3}x")).unwrap_or_else(|| "-".into()),
            a.faster_than_eager,
            a.eager_timed
        );
    }
    if !a.failure_classes.is_empty() {
        let parts: Vec<String> = a.failure_classes.iter().map(|(k, v)| format!("{k} {v} ({:.0}%)", *v as f64 * 100.0 / a.tasks.max(1) as f64)).collect();
        s += &format!("failures: {}\n", parts.join(", "));
    }
    s += &format!(
        "device time: {:.2} s per candidate, {} per correct one; median roofline share {}; largest peak memory {}\n",
        a.device_s_per_candidate,
        a.device_s_per_success.map(|d| format!("{d:.2} s")).unwrap_or_else(|| "-".into()),
        a.median_roofline_share.map(|x| format!("{:.1}%", x * 100.0)).unwrap_or_else(|| "-".into()),
        a.max_peak_memory_bytes.map(|b| format!("{:.1} KiB", b as f64 / 1024.0)).unwrap_or_else(|| "-".into())
    );
    let by = breakdown(results, groups);
    if by.len() > 1 {
        s += &format!("\n{:<10} {:>6} {:>10} {:>10} {:>9} {:>9} {:>9}\n", "group", "tasks", "Compile@1", "Correct@1", "fast_1.0", "fast_2.0", "geomean");
        for (name, g) in &by {
            s += &format!(
                "{:<10} {:>6} {:>9.1}% {:>9.1}% {:>8.1}% {:>8.1}% {:>9}\n",
                name,
                g.tasks,
                g.compile_at_1 * 100.0,
                g.correct_at_1 * 100.0,
                g.fast_1_0 * 100.0,
                g.fast_2_0 * 100.0,
                g.geomean_speedup.map(|x| format!("{x:.3}x")).unwrap_or_else(|| "-".into())
            );
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::failure::FailureClass;

    fn result(correct: bool, valid: bool, speedup: Option<f64>) -> EvalResult {
        let mut r: EvalResult = serde_json::from_value(serde_json::json!({
            "task": "t", "candidate_sha256": "0", "compile_ok": true, "correct": correct, "seeds": [], "max_errors": [],
            "failure_class": null, "failure": null, "candidate_ms": null, "baseline_ms": null, "speedup_median": speedup,
            "timing_valid": valid, "spread": null, "ci": null, "samples": 0, "sample_list": [], "timing_rounds": 0,
            "compile_s": null, "wall_s": 0.0, "engine_overhead_s": 0.0, "stages": [],
            "manifest": {"kwb_version": "0", "protocol": 1, "versions": null, "target": null, "device": "d", "baseline": "b",
                         "task_hash": "", "config_hash": "", "config": null, "created_unix_s": 0}
        }))
        .unwrap();
        if !correct {
            r.failure_class = Some(FailureClass::NumericMismatch);
        }
        r
    }

    #[test]
    fn fast_p_counts_all_tasks_and_needs_valid_timing() {
        let mut within_noise = result(true, true, Some(1.004));
        within_noise.ci = Some(0.008);
        let rs = vec![
            result(true, true, Some(2.5)),
            result(true, true, Some(1.2)),
            result(true, false, Some(3.0)), // invalid timing never counts
            result(false, false, None),
            within_noise, // 1.004x +/- 0.8% is not faster than 1.0 with confidence
        ];
        assert_eq!(fast_p(&rs, 1.0), 0.4);
        assert_eq!(fast_p(&rs, 2.0), 0.2);
        let a = aggregate(&rs);
        assert_eq!(a.correct_at_1, 0.8);
        assert_eq!(a.failure_classes.get("numeric_mismatch"), Some(&1));
    }

    #[test]
    fn geomean_keeps_slowdowns() {
        let rs = vec![result(true, true, Some(4.0)), result(true, true, Some(0.25))];
        let g = aggregate(&rs).geomean_speedup.unwrap();
        assert!((g - 1.0).abs() < 1e-12, "{g}");
        assert!(aggregate(&[result(false, false, None)]).geomean_speedup.is_none());
    }

    #[test]
    fn the_summary_says_when_the_geomean_leaves_out_tasks_timed_without_confidence() {
        let rs = vec![result(true, true, Some(3.0)), result(true, false, Some(1.4)), result(true, false, Some(1.3))];
        let a = aggregate(&rs);
        assert!((a.geomean_speedup.unwrap() - 3.0).abs() < 1e-12 && (a.geomean_over, a.tasks) == (1, 3), "{a:?}");
        let text = table(&rs, "a", "b", &BTreeMap::new());
        assert!(text.contains("geomean speedup 3.000x over the 1 validly timed   (3 tasks)"), "{text}");
        let all_valid = table(&rs[..1], "a", "b", &BTreeMap::new());
        assert!(all_valid.contains("geomean speedup 3.000x   (1 tasks)"), "{all_valid}");
    }

    #[test]
    fn the_noise_floor_widens_the_interval_and_a_fallback_never_counts() {
        let mut biased = result(true, true, Some(1.03));
        biased.ci = Some(0.005);
        assert!(faster_than(&biased, 1.0), "1.03x +/- 0.5% clears 1.0 without a noise floor");
        biased.noise = Some(0.04);
        assert!(!faster_than(&biased, 1.0), "a 4% self-comparison bias swallows a 3% gain");
        let mut fallback = result(true, true, Some(1.5));
        fallback.fallback = Some("reference".into());
        assert!(!faster_than(&fallback, 1.0));
        let a = aggregate(&[fallback, result(true, true, Some(1.5))]);
        assert_eq!(a.correct_at_1, 0.5, "the reference an agent fell back to is not its correct candidate");
    }

    #[test]
    fn pytorch_eager_is_compared_on_correct_tasks_only() {
        let eager = |ms: f64| Some(crate::eval::eager::EagerTiming { ms, spread: None, rounds: 10, threads: 1, torch: "2".into() });
        let mut faster = result(true, true, Some(1.0));
        faster.candidate_ms = Some(1.0);
        faster.eager = eager(4.0);
        let mut slower = result(true, true, Some(1.0));
        slower.candidate_ms = Some(4.0);
        slower.eager = eager(1.0);
        let mut wrong = result(false, false, None);
        wrong.candidate_ms = Some(0.001);
        wrong.eager = eager(1.0);
        let rs = vec![faster, slower, wrong, result(true, true, Some(1.0))];
        let a = aggregate(&rs);
        assert_eq!((a.faster_than_eager, a.eager_timed), (1, 2), "a wrong candidate is never faster than eager");
        assert!((a.geomean_vs_eager.unwrap() - 1.0).abs() < 1e-12);
        let t = table(&rs, "a", "b", &BTreeMap::new());
        assert!(t.contains("vs eager") && t.contains("4.000x") && t.contains("0.250x") && t.contains("faster on 1 of 2 correct tasks"), "{t}");
        assert!(!table(&[result(true, true, Some(1.0))], "a", "b", &BTreeMap::new()).contains("eager"), "no eager columns when none was timed");
    }
}
