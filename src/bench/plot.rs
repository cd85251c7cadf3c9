//! The benchmark's pictures: speedup per task (sorted bars, log scale, the
//! baseline at 1x) and the distribution of speedups, as SVG.

use crate::eval::EvalResult;
use anyhow::{Result, anyhow};
use plotters::prelude::*;
use std::path::Path;

fn speedups(results: &[EvalResult]) -> Vec<(String, f64)> {
    let mut v: Vec<(String, f64)> = results.iter().filter(|r| r.correct && r.timing_valid).filter_map(|r| r.speedup_median.map(|s| (r.task.clone(), s))).collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    v
}

/// Sorted bars of the speedup per task on a log axis, with the baseline line.
pub fn speedup_bars(results: &[EvalResult], path: &Path, title: &str) -> Result<()> {
    let v = speedups(results);
    if v.is_empty() {
        return Ok(());
    }
    let lo = v.iter().map(|x| x.1).fold(1.0f64, f64::min) / 1.5;
    let hi = v.iter().map(|x| x.1).fold(1.0f64, f64::max) * 1.5;
    let width = (240 + 18 * v.len() as u32).max(640);
    let root = SVGBackend::new(path, (width, 480)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(120)
        .y_label_area_size(60)
        .build_cartesian_2d(0..v.len(), (lo..hi).log_scale())
        .map_err(|e| anyhow!("{e}"))?;
    let names: Vec<String> = v.iter().map(|x| x.0.clone()).collect();
    chart
        .configure_mesh()
        .x_labels(v.len())
        .x_label_formatter(&|i| names.get(*i).cloned().unwrap_or_default())
        .x_label_style(("sans-serif", 11).into_font().transform(FontTransform::Rotate90))
        .y_desc("speedup over the baseline (log)")
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .draw_series(v.iter().enumerate().map(|(i, (_, s))| {
            let color = if *s >= 1.0 { GREEN.mix(0.7) } else { RED.mix(0.7) };
            Rectangle::new([(i, 1.0f64.min(*s)), (i + 1, 1.0f64.max(*s))], color.filled())
        }))
        .map_err(|e| anyhow!("{e}"))?;
    chart.draw_series(LineSeries::new([(0, 1.0), (v.len(), 1.0)], BLACK.stroke_width(1))).map_err(|e| anyhow!("{e}"))?;
    root.present().map_err(|e| anyhow!("{e}"))?;
    Ok(())
}

/// Histogram of log2 speedups (bins of a quarter octave).
pub fn speedup_histogram(results: &[EvalResult], path: &Path, title: &str) -> Result<()> {
    let v = speedups(results);
    if v.is_empty() {
        return Ok(());
    }
    let bins: Vec<i32> = v.iter().map(|(_, s)| (s.log2() * 4.0).floor() as i32).collect();
    let (lo, hi) = (*bins.iter().min().unwrap() - 1, *bins.iter().max().unwrap() + 2);
    let top = (lo..hi).map(|b| bins.iter().filter(|x| **x == b).count()).max().unwrap_or(1) as u32 + 1;
    let root = SVGBackend::new(path, (640, 400)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow!("{e}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(40)
        .build_cartesian_2d((lo..hi).into_segmented(), 0u32..top)
        .map_err(|e| anyhow!("{e}"))?;
    chart
        .configure_mesh()
        .x_desc("speedup (quarter-octave bins)")
        .y_desc("tasks")
        .x_label_formatter(&|b| match b {
            SegmentValue::CenterOf(b) | SegmentValue::Exact(b) => format!("{:.2}x", 2f64.powf(*b as f64 / 4.0)),
            SegmentValue::Last => String::new(),
        })
        .draw()
        .map_err(|e| anyhow!("{e}"))?;
    chart.draw_series(Histogram::vertical(&chart).style(BLUE.mix(0.6).filled()).data(bins.iter().map(|b| (*b, 1u32)))).map_err(|e| anyhow!("{e}"))?;
    root.present().map_err(|e| anyhow!("{e}"))?;
    Ok(())
}
