//! `kwb carry report`: a device run's results.json as the benchmark table.
//!
//! The same figures as `kwb bench`: per task the baseline (the default
//! build for the device: dlight schedules on a GPU), the winner's confirmed
//! speedup (its third measurement, on inputs neither earlier one used) and
//! the search-time one, PyTorch eager measured in the same run; then
//! Compile@1, Correct@1, fast_1.0 / fast_2.0 and the geometric means. A task
//! where no candidate beat the baseline shows the baseline (1.0x, marked
//! `ref`) and counts towards neither Correct@1 nor fast_p.

use serde_json::Value;
use std::fmt::Write;

/// One task's line of the table.
#[derive(Debug, Clone)]
pub struct Row {
    pub id: String,
    /// The task's size (`gpu`, ...) where not its own, and its first input's shape.
    pub size: Option<String>,
    pub shape: Option<String>,
    pub baseline_ms: Option<f64>,
    pub best_ms: Option<f64>,
    /// The confirmed speedup; 1.0 where the baseline stands (`fallback`).
    pub speedup: f64,
    /// Its interval was within bounds (otherwise shown with `?`, never fast).
    pub valid: bool,
    pub ci: f64,
    pub noise: f64,
    pub search: Option<f64>,
    pub fallback: bool,
    pub compiled: usize,
    pub correct: usize,
    pub candidates: usize,
    pub eager_ms: Option<f64>,
    pub problem: Option<String>,
    /// kwb's best time as a share of the device's roofline (its peaks
    /// measured in the same run), where the task's size is known.
    pub roofline: Option<f64>,
}

impl Row {
    /// Faster than the baseline by more than `p`, with confidence: the lower
    /// end of the interval, widened by the noise floor, clears p.
    pub fn fast(&self, p: f64) -> bool {
        !self.fallback && self.valid && self.problem.is_none() && self.speedup * (1.0 - self.ci) - self.noise > p
    }
}

/// The peaks the device measured at the start of the run (see
/// kwb_engine/peaks.py), if it did.
pub fn peaks(results: &Value) -> Option<crate::roofline::Machine> {
    serde_json::from_value(results["peaks"].clone()).ok().filter(|m: &crate::roofline::Machine| m.peak_flops > 0.0 && m.bandwidth_bytes_s > 0.0)
}

pub fn rows(results: &Value) -> Vec<Row> {
    let machine = peaks(results);
    let mut out = Vec::new();
    for (id, t) in results["tasks"].as_object().into_iter().flatten() {
        let cands = t["candidates"].as_array().cloned().unwrap_or_default();
        let winner = &t["winner"];
        let valid = winner["valid"].as_bool() == Some(true);
        let problem = t["error"].as_str().map(str::to_string).or_else(|| t["skipped"].as_str().map(|s| format!("skipped: {s}"))).or_else(|| {
            (t["baseline_correct"].as_bool() == Some(false)).then(|| format!("baseline wrong: {}", t["baseline_failure"]["message"].as_str().unwrap_or("?")))
        });
        let baseline_ms = winner["baseline_ms"].as_f64().or(t["baseline_ms"].as_f64());
        let (speedup, fallback) = match winner["speedup"].as_f64() {
            Some(s) if s > 0.0 => (s, false),
            _ => (1.0, true),
        };
        let best_ms = if fallback { baseline_ms } else { winner["candidate_ms"].as_f64() };
        let size = match (t["flops"].as_f64(), t["bytes"].as_u64()) {
            (Some(flops), Some(bytes_moved)) => Some(crate::tasks::meta::TaskSize { flops, bytes_moved, params: 0, kernels: 0 }),
            _ => None,
        };
        let roofline = match (&machine, size, best_ms) {
            (Some(m), Some(size), Some(ms)) if problem.is_none() => m.share(&size, ms),
            _ => None,
        };
        let shape = t["shapes"][0].as_array().map(|d| d.iter().map(|x| x.to_string()).collect::<Vec<_>>().join("x"));
        out.push(Row {
            id: id.clone(),
            size: t["size"].as_str().map(str::to_string),
            shape,
            baseline_ms,
            best_ms,
            speedup,
            valid,
            ci: if fallback { 0.0 } else { winner["confirm"]["ci"].as_f64().unwrap_or(0.0) },
            noise: t["noise"].as_f64().unwrap_or(0.0),
            search: winner["search_speedup"].as_f64(),
            fallback,
            compiled: cands.iter().filter(|c| c["compiled"].as_bool() == Some(true)).count(),
            correct: cands.iter().filter(|c| c["correct"].as_bool() == Some(true)).count(),
            candidates: cands.len(),
            eager_ms: t["eager"]["ms"].as_f64(),
            problem,
            roofline,
        });
    }
    out
}

fn geomean(xs: impl Iterator<Item = f64>) -> Option<f64> {
    let v: Vec<f64> = xs.filter(|x| *x > 0.0 && x.is_finite()).collect();
    (!v.is_empty()).then(|| (v.iter().map(|x| x.ln()).sum::<f64>() / v.len() as f64).exp())
}

fn ms(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| if v < 0.1 { format!("{v:.4}") } else { format!("{v:.3}") })
}

/// The table and its summary lines, as markdown.
pub fn markdown(results: &Value) -> String {
    let rows = rows(results);
    let mut s = String::new();
    let pack = &results["pack"];
    let _ = writeln!(s, "device `{}`, target `{}`; {}", pack["device"].as_str().unwrap_or("?"), pack["target"], results["meta"]["gpu"].as_str().unwrap_or(""));
    match peaks(results) {
        Some(m) => {
            let _ = writeln!(s, "peaks measured on the device in this run: {:.1} GFLOP/s fp32, {:.1} GB/s from memory ({})", m.peak_flops / 1e9, m.bandwidth_bytes_s / 1e9, m.method);
        }
        None => {
            let why = results["peaks"]["error"].as_str().unwrap_or("the run measured none");
            let _ = writeln!(s, "no roofline shares: no peaks measured on the device ({why})");
        }
    }
    let _ = writeln!(s);
    let _ = writeln!(s, "| task | size | baseline ms | kwb ms | speedup | search | compiled/correct/cands | eager ms | eager / kwb | roofline |");
    let _ = writeln!(s, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for r in &rows {
        let speed = match (&r.problem, r.fallback) {
            (Some(p), _) => p.replace('|', "/").chars().take(140).collect::<String>(),
            (None, true) => "1.000 ref".into(),
            (None, false) if !r.valid => format!("{:.3}?", r.speedup),
            (None, false) => format!("{:.3}{}", r.speedup, if r.fast(1.0) { "" } else { " ~" }),
        };
        let vs_eager = match (r.eager_ms, r.best_ms) {
            (Some(e), Some(b)) if b > 0.0 => format!("{:.2}", e / b),
            _ => "-".into(),
        };
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {}/{}/{} | {} | {} | {} |",
            r.id,
            match (&r.size, &r.shape) {
                (Some(z), Some(sh)) => format!("{z} {sh}"),
                (None, Some(sh)) => format!("own {sh}"),
                (Some(z), None) => z.clone(),
                (None, None) => "-".into(),
            },
            ms(r.baseline_ms),
            ms(r.best_ms),
            speed,
            r.search.map_or("-".into(), |x| format!("{x:.3}")),
            r.compiled,
            r.correct,
            r.candidates,
            ms(r.eager_ms),
            vs_eager,
            r.roofline.map_or("-".into(), |x| format!("{:.1}%", 100.0 * x))
        );
    }
    let n = rows.len().max(1) as f64;
    let share = |k: usize| format!("{:.0}%", 100.0 * k as f64 / n);
    let _ = writeln!(s);
    let _ = writeln!(
        s,
        "{} tasks: Compile@1 {}, Correct@1 {}, fast_1.0 {}, fast_2.0 {}, geomean speedup {:.3} over the baseline",
        rows.len(),
        share(rows.iter().filter(|r| r.compiled > 0).count()),
        share(rows.iter().filter(|r| !r.fallback && r.problem.is_none()).count()),
        share(rows.iter().filter(|r| r.fast(1.0)).count()),
        share(rows.iter().filter(|r| r.fast(2.0)).count()),
        geomean(rows.iter().filter(|r| r.problem.is_none()).map(|r| r.speedup)).unwrap_or(f64::NAN),
    );
    let eager = |f: &dyn Fn(&Row) -> Option<f64>| geomean(rows.iter().filter_map(|r| Some(r.eager_ms? / f(r)?)));
    if let (Some(k), Some(b)) = (eager(&|r| r.best_ms), eager(&|r| r.baseline_ms)) {
        let _ = writeln!(s, "PyTorch eager over kwb's best: geomean {k:.3} (over the baseline: {b:.3}); above 1 means faster than eager");
    }
    let _ = writeln!(s, "`?`: the confirming measurement's interval was wider than 1%; `~`: not faster with confidence (interval and noise floor); `ref`: no candidate beat the baseline, the baseline is shown.");
    s += &hardware_agent(results);
    s
}

fn pct(x: Option<f64>) -> String {
    x.map_or("-".into(), |v| format!("{:.0}%", 100.0 * v))
}

/// The hardware agent's reading of each task's baseline, profiled on the
/// device: its top kernel placed against the run's peaks, its occupancy,
/// and where the bottleneck goes (see gpu_route.rs); beside it, the same
/// kernel in the winner's profile, so a reader sees what the change did to
/// the bottleneck. Empty where no task carries a profile.
pub fn hardware_agent(results: &Value) -> String {
    let machine = peaks(results);
    let gpu = &results["gpu"];
    let mut s = String::new();
    for (id, t) in results["tasks"].as_object().into_iter().flatten() {
        let profile = &t["profile"];
        let readings = super::gpu_route::read(profile, machine.as_ref(), gpu);
        let Some(route) = super::gpu_route::route(&readings, profile, gpu) else { continue };
        let Some(top) = readings.iter().find(|r| r.name == route.kernel) else { continue };
        if s.is_empty() {
            let _ = writeln!(s);
            let _ = writeln!(s, "Hardware agent: each baseline's kernels timed on the device ({}), placed against the peaks above; occupancy from the launch shape and the registers and shared memory the device's compiler gave each kernel ({}). `winner`: the same kernel in the winning candidate's profile, measured the same way.",
                results["tasks"].as_object().into_iter().flatten().find_map(|(_, t)| t["profile"]["timer"].as_str()).unwrap_or("per call"),
                gpu["name"].as_str().map_or("no GPU properties in this run".to_string(), |n| format!("{n}, {} SMs", gpu["sms"])));
            let _ = writeln!(s);
            let _ = writeln!(s, "| task | top kernel | ms | of kernels | kernels | bound | achieved | of roof | SM fill | occupancy | bottleneck | to | why | winner ms | winner of roof | winner occupancy |");
            let _ = writeln!(s, "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        }
        let after = super::gpu_route::read(&t["winner"]["profile"], machine.as_ref(), gpu);
        let won = after.iter().find(|r| r.name == top.name);
        let _ = writeln!(
            s,
            "| {id} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} | {} |",
            top.name,
            ms(Some(top.ms)),
            pct(Some(top.time_share)),
            readings.len(),
            top.bound,
            if top.achieved.is_empty() { "-" } else { &top.achieved },
            pct(top.roof_share),
            pct(top.sm_fill),
            pct(top.occupancy),
            route.bottleneck,
            route.layer.unwrap_or("-"),
            route.why.replace('|', "/"),
            ms(won.map(|w| w.ms)),
            pct(won.and_then(|w| w.roof_share)),
            pct(won.and_then(|w| w.occupancy)),
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_winner_counts_only_when_confirmed_and_clear_of_the_noise() {
        let res = json!({"tasks": {
            "a": {"baseline_ms": 2.0, "noise": 0.01, "size": "gpu", "shapes": [[64, 1024], [1024]], "candidates": [{"compiled": true, "correct": true}],
                  "winner": {"speedup": 2.5, "valid": true, "candidate_ms": 0.8, "baseline_ms": 2.0, "confirm": {"ci": 0.01}, "search_speedup": 2.6},
                  "eager": {"ms": 1.6}},
            "b": {"baseline_ms": 1.0, "noise": 0.05, "candidates": [{"compiled": true, "correct": true}],
                  "winner": {"speedup": 1.03, "valid": true, "candidate_ms": 0.97, "baseline_ms": 1.0, "confirm": {"ci": 0.01}}},
            "c": {"baseline_ms": 1.0, "candidates": [{"compiled": false}], "winner": null},
            "e": {"baseline_ms": 4.0, "noise": 0.0, "candidates": [{"compiled": true, "correct": true}],
                  "winner": {"speedup": 3.0, "valid": false, "candidate_ms": 1.3, "baseline_ms": 4.0, "confirm": {"ci": 0.02}}},
            "d": {"baseline_correct": false, "baseline_failure": {"message": "seed 0 differs"}, "candidates": []}
        }});
        let r = rows(&res);
        let by = |id: &str| r.iter().find(|x| x.id == id).unwrap().clone();
        assert!(by("a").fast(2.0) && by("a").fast(1.0));
        assert!(!by("b").fast(1.0), "3% over the baseline is inside a 5% noise floor");
        assert!(by("c").fallback && !by("c").fast(1.0) && by("c").compiled == 0);
        assert!(by("d").problem.as_deref().unwrap().contains("seed 0 differs"));
        assert!(!by("e").fallback && !by("e").fast(1.0), "a speedup whose interval is too wide is shown, never counted fast");
        let md = markdown(&res);
        assert!(md.contains("5 tasks: Compile@1 60%, Correct@1 60%, fast_1.0 20%, fast_2.0 20%"), "{md}");
        assert!(md.contains("| a | gpu 64x1024 | 2.000 | 0.800 | 2.500 | 2.600 | 1/1/1 | 1.600 | 2.00 |"), "{md}");
        assert!(md.contains("| e | - | 4.000 | 1.300 | 3.000? |"), "{md}");
    }

    #[test]
    fn the_hardware_agent_sets_the_winners_bottleneck_kernel_beside_the_baselines() {
        let gpu = json!({"name": "H200", "sms": 132, "threads_per_sm": 2048, "registers_per_sm": 65536, "shared_per_sm": 233472, "blocks_per_sm": 32});
        let peaks = json!({"peak_flops": 63.7e12, "bandwidth_bytes_s": 4.5e12, "bandwidth_by_size": [], "method": "test"});
        // 4.5e8 bytes in 0.2 ms is half the bandwidth; in 0.125 ms, 80%.
        let kernel = |ms: f64| json!({"name": "relu", "ms": ms, "flops": 5e7, "bytes": 4.5e8, "blocks": 8192, "threads": 256, "registers": 16});
        let res = json!({"peaks": peaks, "gpu": gpu, "tasks": {
            "relu": {"profile": {"whole_ms": 0.2, "timer": "CUDA events around each call", "kernels": [kernel(0.2)]},
                     "winner": {"speedup": 1.6, "profile": {"whole_ms": 0.125, "kernels": [kernel(0.125)]}}},
            "no_winner": {"profile": {"whole_ms": 0.2, "kernels": [kernel(0.2)]}, "winner": null}
        }});
        let table = hardware_agent(&res);
        assert!(table.contains("(CUDA events around each call)"), "the timer is named: {table}");
        let row = table.lines().find(|l| l.starts_with("| relu |")).unwrap_or_else(|| panic!("{table}"));
        assert!(row.contains("| 50% |") && row.contains("memory throughput"), "{row}");
        assert!(row.trim_end().ends_with("| 0.125 | 80% | 100% |"), "the winner's same kernel, placed the same way: {row}");
        let bare = table.lines().find(|l| l.starts_with("| no_winner |")).unwrap();
        assert!(bare.trim_end().ends_with("| - | - | - |"), "no winner, no after: {bare}");
    }
}
