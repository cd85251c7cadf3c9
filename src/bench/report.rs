//! What a benchmark run leaves behind (results.json, results.csv, report.md)
//! and the comparison of two runs.

use crate::eval::EvalResult;
use anyhow::{Context, Result};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

pub fn write(dir: &Path, results_json: &Value, results: &[EvalResult], table: &str) -> Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    std::fs::write(dir.join("results.json"), serde_json::to_string_pretty(results_json)?)?;
    let mut csv = String::from("task,compile_ok,correct,failure_class,candidate_ms,baseline_ms,speedup_median,ci,timing_valid,samples,compile_s\n");
    for r in results {
        let f = |x: Option<f64>| x.map(|v| format!("{v}")).unwrap_or_default();
        let _ = writeln!(
            csv,
            "{},{},{},{},{},{},{},{},{},{},{}",
            r.task,
            r.compile_ok,
            r.correct,
            r.failure_class.map(|c| c.to_string()).unwrap_or_default(),
            f(r.candidate_ms),
            f(r.baseline_ms),
            f(r.speedup_median),
            f(r.ci),
            r.timing_valid,
            r.pair_count,
            f(r.compile_s)
        );
    }
    std::fs::write(dir.join("results.csv"), csv)?;
    let manifest = results.first().map(|r| serde_json::to_string_pretty(&r.manifest).unwrap_or_default()).unwrap_or_default();
    let md = format!(
        "# kwb bench: suite `{}`, agent `{}`\n\nBaseline: {}\n\n```\n{table}```\n\nManifest of the first result:\n\n```json\n{manifest}\n```\n",
        results_json["suite"].as_str().unwrap_or("?"),
        results_json["agent"].as_str().unwrap_or("?"),
        results_json["baseline"].as_str().unwrap_or("?"),
    );
    let title = format!("{} vs {}", results_json["agent"].as_str().unwrap_or("?"), results_json["baseline"].as_str().unwrap_or("?"));
    for stale in ["speedups.svg", "speedup-distribution.svg"] {
        let _ = std::fs::remove_file(dir.join(stale));
    }
    super::plot::speedup_bars(results, &dir.join("speedups.svg"), &title)?;
    super::plot::speedup_histogram(results, &dir.join("speedup-distribution.svg"), &title)?;
    // The plots show validly timed tasks: where there are none, no plot is drawn.
    let mut md = md;
    for (file, alt) in [("speedups.svg", "speedup per task"), ("speedup-distribution.svg", "distribution of speedups")] {
        if dir.join(file).exists() {
            md += &format!("\n![{alt}]({file})\n");
        }
    }
    std::fs::write(dir.join("report.md"), md)?;
    Ok(())
}

pub fn read(path: &Path) -> Result<Value> {
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let v: Value = serde_json::from_str(&text).with_context(|| format!("{} is not a kwb results.json", path.display()))?;
    if v["schema"].as_u64() != Some(1) {
        anyhow::bail!("{} has results schema {}, this kwb reads 1", path.display(), v["schema"]);
    }
    Ok(v)
}

/// Per task: speedup in A and B and their ratio; then the aggregates side by side.
pub fn compare(a: &Value, b: &Value) -> String {
    let index = |v: &Value| -> BTreeMap<String, Value> {
        v["results"].as_array().into_iter().flatten().map(|r| (r["task"].as_str().unwrap_or("?").to_string(), r.clone())).collect()
    };
    let (ia, ib) = (index(a), index(b));
    let mut s = format!("A: {} / {} / {}\nB: {} / {} / {}\n\n", a["suite"], a["agent"], a["baseline"], b["suite"], b["agent"], b["baseline"]);
    let _ = writeln!(s, "{:<28} {:>10} {:>10} {:>8}", "task", "A speedup", "B speedup", "B/A");
    let speed = |r: Option<&Value>| -> Option<f64> { r.filter(|r| r["correct"] == true && r["timing_valid"] == true).and_then(|r| r["speedup_median"].as_f64()) };
    let mut tasks: Vec<&String> = ia.keys().chain(ib.keys()).collect();
    tasks.sort();
    tasks.dedup();
    for t in tasks {
        let (x, y) = (speed(ia.get(t)), speed(ib.get(t)));
        let show = |v: Option<f64>, r: Option<&Value>| match (v, r) {
            (Some(v), _) => format!("{v:.3}x"),
            (None, None) => "absent".into(),
            (None, Some(r)) => r["failure_class"].as_str().unwrap_or("invalid").to_string(),
        };
        let ratio = match (x, y) {
            (Some(x), Some(y)) => format!("{:.3}", y / x),
            _ => "-".into(),
        };
        let _ = writeln!(s, "{:<28} {:>10} {:>10} {:>8}", t, show(x, ia.get(t)), show(y, ib.get(t)), ratio);
    }
    let _ = writeln!(s);
    for key in ["compile_at_1", "correct_at_1", "fast_1_0", "fast_2_0", "geomean_speedup"] {
        let _ = writeln!(s, "{:<16} A {:>8} B {:>8}", key, fmt(&a["aggregate"][key]), fmt(&b["aggregate"][key]));
    }
    s
}

fn fmt(v: &Value) -> String {
    v.as_f64().map(|x| format!("{x:.3}")).unwrap_or_else(|| "-".into())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn compare_lines_up_tasks_and_ratios() {
        let a = json!({"schema": 1, "suite": "s", "agent": "x", "baseline": "b", "aggregate": {"geomean_speedup": 1.0},
                       "results": [{"task": "t1", "correct": true, "timing_valid": true, "speedup_median": 2.0},
                                   {"task": "t2", "correct": false, "timing_valid": false, "failure_class": "crash"}]});
        let b = json!({"schema": 1, "suite": "s", "agent": "y", "baseline": "b", "aggregate": {"geomean_speedup": 1.5},
                       "results": [{"task": "t1", "correct": true, "timing_valid": true, "speedup_median": 3.0}]});
        let s = compare(&a, &b);
        assert!(s.contains("t1") && s.contains("1.500"), "{s}");
        assert!(s.lines().any(|l| l.starts_with("t2") && l.contains("crash") && l.contains("absent")), "{s}");
        assert!(s.contains("geomean_speedup  A    1.000 B    1.500"), "{s}");
    }
}
