//! The machine's roofline: measured peak FLOP/s and memory bandwidth, cached
//! per machine, and the share of it a timed candidate reaches.

use crate::engine::{Engine, Job};
use crate::paths::Paths;
use crate::tasks::meta::TaskSize;
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// The measuring method of `kwb_engine/machine.py` whose peaks are kept.
pub const METHOD: &str = "kernels v2";
/// The method of `kwb_engine/peaks.py`: a device's peaks, measured on it.
pub const DEVICE_METHOD: &str = "tir kernels v3";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Machine {
    pub peak_flops: f64,
    /// Bandwidth of a working set far larger than the caches.
    pub bandwidth_bytes_s: f64,
    /// Copy bandwidth by working-set size, smallest first.
    #[serde(default)]
    pub bandwidth_by_size: Vec<Level>,
    pub method: String,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Level {
    pub working_set_bytes: u64,
    pub bandwidth_bytes_s: f64,
}

impl Machine {
    fn path(paths: &Paths) -> std::path::PathBuf {
        paths.data.join("machine.json")
    }

    /// The cached peaks, unless they were measured by an older method
    /// (a library matmul and copies, which were no upper bound: shares
    /// passed 100%); those are measured again.
    pub fn cached(paths: &Paths) -> Option<Self> {
        let m: Self = serde_json::from_str(&std::fs::read_to_string(Self::path(paths)).ok()?).ok()?;
        m.method.starts_with(METHOD).then_some(m)
    }

    /// Measures (timing exclusively) and caches the peaks.
    pub async fn measure(engine: &Engine, paths: &Paths) -> anyhow::Result<Self> {
        let out = engine.run(Job::new("machine", serde_json::json!({}), Duration::from_secs(300)).exclusive()).await.map_err(|f| anyhow::anyhow!("{f}"))?;
        let m: Machine = serde_json::from_value(out.result)?;
        std::fs::create_dir_all(&paths.data)?;
        std::fs::write(Self::path(paths), serde_json::to_string_pretty(&m)?)?;
        Ok(m)
    }

    fn device_path(paths: &Paths, device: &str) -> std::path::PathBuf {
        let safe: String = device.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.' { c } else { '_' }).collect();
        paths.data.join("devices").join(safe).join("peaks.json")
    }

    /// The peaks of a named device: the local CPU's from its own kernels,
    /// another's as measured on that device (`kwb --device D devices
    /// measure`, or a carried run read back by `kwb carry report`).
    pub fn cached_for(paths: &Paths, device: &str) -> Option<Self> {
        if device == crate::devices::LOCAL_CPU {
            return Self::cached(paths);
        }
        let m: Self = serde_json::from_str(&std::fs::read_to_string(Self::device_path(paths, device)).ok()?).ok()?;
        m.method.starts_with(DEVICE_METHOD).then_some(m)
    }

    /// Keeps a device's measured peaks (not the local CPU's: those come
    /// from `measure`).
    pub fn save_for(&self, paths: &Paths, device: &str) -> anyhow::Result<std::path::PathBuf> {
        let path = Self::device_path(paths, device);
        std::fs::create_dir_all(path.parent().expect("a file in a folder"))?;
        let tmp = path.with_extension("json.tmp");
        std::fs::write(&tmp, serde_json::to_string_pretty(self)?)?;
        std::fs::rename(&tmp, &path)?;
        Ok(path)
    }

    /// Measures a remote device's peaks on the device: kernels built for
    /// its target here, timed there through its RPC server (`device_spec`,
    /// as jobs take it), exclusively on that device; the result is kept.
    pub async fn measure_on(engine: &Engine, paths: &Paths, device: &str, device_spec: serde_json::Value, target: serde_json::Value) -> anyhow::Result<Self> {
        let args = serde_json::json!({"device": device_spec, "target": target});
        let out = engine.run(Job::new("device_peaks", args, Duration::from_secs(600)).exclusive()).await.map_err(|f| anyhow::anyhow!("{f}"))?;
        let m: Machine = serde_json::from_value(out.result)?;
        m.save_for(paths, device)?;
        Ok(m)
    }

    /// Achieved over attainable performance: attainable is
    /// min(peak, intensity x bandwidth); kernels TVM counts no FLOPs for
    /// (copies, transcendental-only maps) are judged on bandwidth alone.
    /// The most bandwidth a working set of `bytes` can get: that measured
    /// at the largest working set no bigger than it (the smallest measured
    /// one for a smaller set). Bandwidth only falls as the set grows, so
    /// this is an upper bound and no share exceeds 100%; the next larger
    /// level is not: gemv's 4.2 MB ran at 65 GB/s on a Zen 4 core, where
    /// 32 MB measured 51 GB/s and 4 MB 100 GB/s.
    pub fn bandwidth_for(&self, bytes: u64) -> f64 {
        let mut levels: Vec<&Level> = self.bandwidth_by_size.iter().collect();
        levels.sort_by_key(|l| l.working_set_bytes);
        levels.iter().rev().find(|l| l.working_set_bytes <= bytes).or(levels.first()).map(|l| l.bandwidth_bytes_s).unwrap_or(self.bandwidth_bytes_s)
    }

    pub fn share(&self, size: &TaskSize, ms: f64) -> Option<f64> {
        if ms <= 0.0 || size.bytes_moved == 0 {
            return None;
        }
        let secs = ms / 1e3;
        let bw = self.bandwidth_for(size.bytes_moved);
        if size.flops > 0.0 {
            let intensity = size.flops / size.bytes_moved as f64;
            let attainable = self.peak_flops.min(intensity * bw);
            Some(size.flops / secs / attainable)
        } else {
            Some(size.bytes_moved as f64 / secs / bw)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_follow_the_roofline() {
        let m = Machine { peak_flops: 100e9, bandwidth_bytes_s: 10e9, bandwidth_by_size: vec![], method: String::new() };
        // Compute-bound: intensity 1000 FLOP/byte, attainable = peak. 1 GFLOP in 20 ms = 50 GFLOP/s.
        let s = m.share(&TaskSize { flops: 1e9, bytes_moved: 1_000_000, params: 0, kernels: 1 }, 20.0).unwrap();
        assert!((s - 0.5).abs() < 1e-9, "{s}");
        // Memory-bound: intensity 0.25, attainable 2.5 GFLOP/s. 25 MFLOP in 20 ms = 1.25 GFLOP/s.
        let s = m.share(&TaskSize { flops: 25e6, bytes_moved: 100_000_000, params: 0, kernels: 1 }, 20.0).unwrap();
        assert!((s - 0.5).abs() < 1e-9, "{s}");
        // No FLOPs counted: bandwidth alone. 100 MB in 20 ms = 5 GB/s of 10.
        let s = m.share(&TaskSize { flops: 0.0, bytes_moved: 100_000_000, params: 0, kernels: 1 }, 20.0).unwrap();
        assert!((s - 0.5).abs() < 1e-9, "{s}");
    }

    #[test]
    fn a_cache_resident_working_set_is_judged_against_its_cache() {
        let m = Machine {
            peak_flops: 100e9,
            bandwidth_bytes_s: 10e9,
            bandwidth_by_size: vec![Level { working_set_bytes: 1 << 20, bandwidth_bytes_s: 80e9 }, Level { working_set_bytes: 1 << 30, bandwidth_bytes_s: 10e9 }],
            method: String::new(),
        };
        assert_eq!(m.bandwidth_for(500_000), 80e9);
        assert_eq!(m.bandwidth_for(1 << 20), 80e9);
        // Between two levels, the faster one bounds it.
        assert_eq!(m.bandwidth_for(100 << 20), 80e9);
        assert_eq!(m.bandwidth_for(1 << 30), 10e9);
        assert_eq!(m.bandwidth_for(4 << 30), 10e9);
        let none = Machine { bandwidth_by_size: vec![], ..m };
        assert_eq!(none.bandwidth_for(1 << 20), 10e9);
    }
}
