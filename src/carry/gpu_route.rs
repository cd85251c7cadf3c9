//! The hardware agent on a carried GPU: reads the baseline's per-kernel
//! profile measured on the device (kwb_engine/carried_profile.py), places
//! each kernel against the peaks measured in the same run, works out its
//! occupancy from its launch shape and the registers and shared memory the
//! device's compiler gave it, and routes the bottleneck of the kernel that
//! takes the most time to the layer that owns it, with the evidence.
//!
//! Read-only, like the local agent (`agent::hardware`): it measures nothing
//! itself and changes nothing; a figure it cannot support (no peaks, no
//! resource usage) is left out, never guessed.

use crate::roofline::Machine;
use serde_json::Value;

/// A kernel's share of its roofline at and above which nothing is routed.
const NEAR_ROOF: f64 = 0.6;
/// Below this share of the SMs given a block, the grid is the bottleneck.
const SM_FILL_LOW: f64 = 0.5;
/// Below this share of an SM's warps resident, latency goes unhidden.
const OCCUPANCY_LOW: f64 = 0.25;
/// A kernel this short is mostly its launch.
const LAUNCH_MS: f64 = 0.005;

/// The per-SM limits occupancy is computed from (carried_profile.gpu_properties).
#[derive(Debug, Clone, Copy)]
pub struct Sm {
    pub count: f64,
    pub threads: f64,
    pub registers: f64,
    pub shared: f64,
    pub blocks: f64,
}

impl Sm {
    pub fn from_json(gpu: &Value) -> Option<Self> {
        let f = |k: &str| gpu[k].as_f64().filter(|x| *x > 0.0);
        Some(Sm { count: f("sms")?, threads: f("threads_per_sm")?, registers: f("registers_per_sm")?, shared: f("shared_per_sm")?, blocks: f("blocks_per_sm").unwrap_or(32.0) })
    }

    /// Resident blocks per SM and the share of the SM's warps they fill,
    /// for `threads` per block, `registers` per thread and `shared` bytes per
    /// block (registers are allocated per warp in units of 256).
    pub fn occupancy(&self, threads: f64, registers: f64, shared: f64) -> (f64, f64) {
        let warps = (threads / 32.0).ceil().max(1.0);
        let by_threads = (self.threads / (warps * 32.0)).floor();
        let per_warp = ((registers * 32.0) / 256.0).ceil() * 256.0;
        let by_registers = if per_warp > 0.0 { ((self.registers / per_warp).floor() / warps).floor() } else { f64::INFINITY };
        let by_shared = if shared > 0.0 { (self.shared / shared).floor() } else { f64::INFINITY };
        let blocks = self.blocks.min(by_threads).min(by_registers).min(by_shared).max(0.0);
        (blocks, (blocks * warps * 32.0 / self.threads).min(1.0))
    }
}

/// One kernel of the profile, placed.
#[derive(Debug, Clone)]
pub struct Reading {
    pub name: String,
    pub ms: f64,
    /// Of the profiled kernels' time.
    pub time_share: f64,
    pub bound: &'static str,
    /// Achieved over attainable (FLOP/s under compute, bytes/s under memory).
    pub roof_share: Option<f64>,
    pub achieved: String,
    pub sm_fill: Option<f64>,
    pub occupancy: Option<f64>,
    pub blocks_per_sm: Option<f64>,
}

/// The bottleneck of the top kernel and the layer it goes to (None: near
/// its roof, nothing to route).
#[derive(Debug, Clone)]
pub struct Route {
    pub kernel: String,
    pub bottleneck: &'static str,
    pub layer: Option<&'static str>,
    pub why: String,
}

pub fn read(profile: &Value, machine: Option<&Machine>, gpu: &Value) -> Vec<Reading> {
    let sm = Sm::from_json(gpu);
    let rows = profile["kernels"].as_array().cloned().unwrap_or_default();
    let total: f64 = rows.iter().filter_map(|r| r["ms"].as_f64()).sum();
    rows.iter()
        .map(|r| {
            let f = |k: &str| r[k].as_f64().unwrap_or(0.0);
            let (ms, flops, bytes) = (f("ms"), f("flops"), f("bytes"));
            let (mut bound, mut roof_share, mut achieved) = ("unknown", None, String::new());
            if let Some(m) = machine
                && ms > 0.0
                && bytes > 0.0
            {
                let bw = m.bandwidth_for(bytes as u64);
                let intensity = flops / bytes;
                let secs = ms / 1e3;
                if flops > 0.0 && intensity >= m.peak_flops / bw {
                    bound = "compute";
                    roof_share = Some(flops / secs / m.peak_flops);
                    achieved = format!("{:.2} TFLOP/s", flops / secs / 1e12);
                } else {
                    bound = "memory";
                    roof_share = Some(bytes / secs / bw);
                    achieved = format!("{:.0} GB/s", bytes / secs / 1e9);
                }
            }
            let (threads, blocks) = (f("threads"), f("blocks"));
            let sm_fill = sm.filter(|_| blocks > 0.0).map(|s| (blocks / s.count).min(1.0));
            // A PrimFunc that launches several device functions (split-K's
            // partial sums, then their sum) has no one launch shape to set
            // against one register count: no occupancy rather than a wrong one.
            let one_launch = r["device_functions"].as_u64().unwrap_or(1) <= 1;
            let occ = match (sm, r["registers"].as_f64()) {
                (Some(s), Some(regs)) if threads > 0.0 && one_launch => Some(s.occupancy(threads, regs, f("shared_bytes"))),
                _ => None,
            };
            Reading {
                name: r["name"].as_str().unwrap_or("?").to_string(),
                ms,
                time_share: if total > 0.0 { ms / total } else { 0.0 },
                bound,
                roof_share,
                achieved,
                sm_fill,
                occupancy: occ.map(|o| o.1),
                blocks_per_sm: occ.map(|o| o.0),
            }
        })
        .collect()
}

/// Routes the kernel that takes the most time; the rules in the order a
/// GPU engineer checks them: launches, then the grid, then occupancy, then
/// the throughput the kernel is bound by.
pub fn route(readings: &[Reading], profile: &Value, gpu: &Value) -> Option<Route> {
    let top = readings.iter().max_by(|a, b| a.ms.total_cmp(&b.ms))?;
    let whole = profile["whole_ms"].as_f64().unwrap_or(0.0);
    let launches = readings.len();
    let sms = gpu["sms"].as_f64().unwrap_or(0.0);
    let r = |bottleneck, layer, why: String| Some(Route { kernel: top.name.clone(), bottleneck, layer, why });
    if launches > 1 && top.ms < LAUNCH_MS {
        return r("launches", Some("L0"), format!("{launches} kernels, the longest {:.1} us: the run is kernel launches (whole run {whole:.4} ms); fuse them", top.ms * 1e3));
    }
    if top.roof_share.is_some_and(|s| s >= NEAR_ROOF) {
        return r("near its roof", None, format!("`{}` at {:.0}% of its {} roofline ({})", top.name, 100.0 * top.roof_share.unwrap_or(0.0), top.bound, top.achieved));
    }
    if let Some(fill) = top.sm_fill
        && fill < SM_FILL_LOW
    {
        return r("parallelism", Some("L1"), format!("`{}` launches blocks for {:.0}% of the {sms:.0} SMs: more, smaller blocks (or a split reduction) would use the rest", top.name, 100.0 * fill));
    }
    if let (Some(occ), Some(blocks)) = (top.occupancy, top.blocks_per_sm)
        && occ < OCCUPANCY_LOW
    {
        return r("occupancy", Some("L1"), format!("`{}` keeps {blocks:.0} block(s) per SM, {:.0}% of its warps: fewer registers or less shared memory per block (a smaller tile)", top.name, 100.0 * occ));
    }
    let share = top.roof_share.map_or("?".to_string(), |s| format!("{:.0}%", 100.0 * s));
    match top.bound {
        "memory" => r("memory throughput", Some("L1"), format!("`{}` moves {} ({share} of the measured bandwidth): coalesced, vectorized loads, data kept in shared memory", top.name, top.achieved)),
        "compute" => r("compute throughput", Some("L1"), format!("`{}` runs at {} ({share} of the measured peak): shared-memory and register tiling", top.name, top.achieved)),
        _ => r("unplaced", Some("L1"), format!("`{}` takes {:.0}% of the kernel time; no peaks to place it against", top.name, 100.0 * top.time_share)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn h200() -> Value {
        json!({"sms": 132, "threads_per_sm": 2048, "registers_per_sm": 65536, "shared_per_sm": 233472, "blocks_per_sm": 32})
    }

    fn machine() -> Machine {
        serde_json::from_value(json!({"peak_flops": 63.7e12, "bandwidth_bytes_s": 4.5e12, "bandwidth_by_size": [], "method": "test"})).unwrap()
    }

    #[test]
    fn occupancy_is_limited_by_threads_registers_and_shared_memory() {
        let sm = Sm::from_json(&h200()).unwrap();
        // 256 threads, 32 registers: threads allow 8 blocks, registers 8: all 64 warps.
        assert_eq!(sm.occupancy(256.0, 32.0, 0.0), (8.0, 1.0));
        // 255 registers a thread: 8 warps' worth of registers per block of 8 warps... one block.
        let (blocks, occ) = sm.occupancy(256.0, 255.0, 0.0);
        assert_eq!(blocks, 1.0);
        assert!((occ - 0.125).abs() < 1e-9, "{occ}");
        // 100 KiB of shared memory a block: two fit in 228 KiB.
        assert_eq!(sm.occupancy(128.0, 32.0, 100.0 * 1024.0).0, 2.0);
    }

    #[test]
    fn the_top_kernel_is_routed_by_grid_occupancy_and_throughput() {
        let m = machine();
        // 32 blocks on 132 SMs: the grid leaves most of the GPU idle.
        let small_grid = json!({"whole_ms": 0.05, "kernels": [{"name": "matmul", "ms": 0.04, "flops": 3.3e7, "bytes": 7.8e5, "blocks": 32, "threads": 128, "registers": 64}]});
        let route = route(&read(&small_grid, Some(&m), &h200()), &small_grid, &h200()).unwrap();
        assert_eq!((route.bottleneck, route.layer), ("parallelism", Some("L1")), "{route:?}");
        assert!(route.why.contains("24% of the 132 SMs"), "{}", route.why);

        // A full grid with 255 registers a thread: occupancy.
        let fat = json!({"whole_ms": 1.0, "kernels": [{"name": "conv", "ms": 1.0, "flops": 1e10, "bytes": 1e8, "blocks": 4096, "threads": 256, "registers": 255}]});
        let route = super::route(&read(&fat, Some(&m), &h200()), &fat, &h200()).unwrap();
        assert_eq!(route.bottleneck, "occupancy", "{route:?}");

        // A streaming kernel at a fifth of the bandwidth: memory throughput.
        let stream = json!({"whole_ms": 1.0, "kernels": [{"name": "add", "ms": 1.0, "flops": 1e8, "bytes": 9e8, "blocks": 8192, "threads": 256, "registers": 16}]});
        let readings = read(&stream, Some(&m), &h200());
        assert_eq!(readings[0].bound, "memory");
        assert!((readings[0].roof_share.unwrap() - 0.2).abs() < 1e-6, "{:?}", readings[0]);
        assert_eq!(super::route(&readings, &stream, &h200()).unwrap().bottleneck, "memory throughput");

        // The same at 4 TB/s is near its roof: nothing to route.
        let fast = json!({"whole_ms": 0.25, "kernels": [{"name": "add", "ms": 0.225, "flops": 1e8, "bytes": 9e8, "blocks": 8192, "threads": 256, "registers": 16}]});
        let route = super::route(&read(&fast, Some(&m), &h200()), &fast, &h200()).unwrap();
        assert_eq!((route.bottleneck, route.layer), ("near its roof", None), "{route:?}");

        // Split-K's PrimFunc launches two device functions (the partial
        // sums' 256 threads with 93 registers, their sum's 1024 threads):
        // the profile's launch shape mixes them, so no occupancy is given.
        let split = json!({"whole_ms": 0.09, "kernels": [{"name": "matmul", "ms": 0.09, "flops": 2.1e9, "bytes": 1.5e7, "blocks": 256, "threads": 1024, "registers": 93, "device_functions": 2}]});
        let readings = read(&split, Some(&m), &h200());
        assert_eq!(readings[0].occupancy, None, "{:?}", readings[0]);
        assert!(readings[0].roof_share.is_some() && readings[0].sm_fill.is_some());

        // Three kernels of two microseconds: launches, to L0.
        let tiny = json!({"whole_ms": 0.02, "kernels": [{"name": "a", "ms": 0.002}, {"name": "b", "ms": 0.002}, {"name": "c", "ms": 0.001}]});
        assert_eq!(super::route(&read(&tiny, Some(&m), &h200()), &tiny, &h200()).unwrap().layer, Some("L0"));
    }
}
