//! Devices: where timing happens. The local CPU is always one; more come
//! from `<config>/devices.toml`: boards behind a TVM RPC tracker (the way
//! edge teams already drive them) and CUDA GPUs. A GPU on this machine is
//! found without configuring it.
//!
//! ```toml
//! [[device]]
//! name = "pi5"
//! kind = "rpc"
//! tracker = "127.0.0.1:9190"
//! key = "pi5"
//! target = { kind = "llvm", mtriple = "aarch64-linux-gnu", mcpu = "cortex-a76" }
//!
//! [[device]]
//! name = "h200"
//! kind = "cuda"
//! target = { kind = "cuda", arch = "sm_90" }
//! size = "gpu"                 # tasks' sizes/gpu/ (the default for CUDA)
//! peaks = { peak_flops = 6.7e13, bandwidth_bytes_s = 4.8e12 }
//! ```

pub mod emulate;
pub mod serve;
pub mod tracker;

use crate::paths::Paths;
use anyhow::{Context, Result, bail};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::PathBuf;
use std::time::Duration;

/// The device every machine has.
pub const LOCAL_CPU: &str = "local-cpu";

/// How a device is reached.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case", deny_unknown_fields)]
pub enum Reach {
    /// This machine's CPU, timed in kwb's own engine workers.
    Local,
    /// Servers registered under `key` with the TVM RPC tracker at `tracker`.
    Rpc { tracker: String, key: String },
    /// A CUDA GPU of this machine, by index.
    Cuda {
        #[serde(default)]
        index: u32,
    },
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Device {
    pub name: String,
    #[serde(flatten)]
    pub reach: Reach,
    /// The TVM target kernels are built for: the board's or GPU's own
    /// (`mtriple`/`mcpu`/`mattr`, or `arch`). The local CPU's is the host's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Value>,
    /// The task size it runs (`<task>/sizes/<size>/`, written by `kwb tasks
    /// resize`); a CUDA device's is `gpu` unless it says otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// Its peaks, where kwb cannot measure them (a device it cannot reach):
    /// what `kwb tasks resize` sizes tasks by.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peaks: Option<Peaks>,
}

/// A device's peak fp32 FLOP/s and memory bandwidth in bytes/s.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Peaks {
    pub peak_flops: f64,
    pub bandwidth_bytes_s: f64,
}

/// The size CUDA devices run unless they name another.
pub const GPU_SIZE: &str = "gpu";

impl Device {
    pub fn local_cpu() -> Self {
        Self { name: LOCAL_CPU.into(), reach: Reach::Local, target: None, size: None, peaks: None }
    }

    /// The task size this device runs, if not the tasks' own.
    pub fn size(&self) -> Option<&str> {
        match (&self.size, &self.reach) {
            (Some(s), _) => Some(s.as_str()),
            (None, Reach::Cuda { .. }) => Some(GPU_SIZE),
            (None, _) => None,
        }
    }

    pub fn kind(&self) -> &'static str {
        match self.reach {
            Reach::Local => "local",
            Reach::Rpc { .. } => "rpc",
            Reach::Cuda { .. } => "cuda",
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DevicesFile {
    #[serde(default)]
    device: Vec<toml::Value>,
}

pub fn config_path(paths: &Paths) -> PathBuf {
    paths.config.join("devices.toml")
}

/// The devices in `text` (a devices.toml), checked: names unique and not
/// the local CPU's, RPC and CUDA devices with a target.
pub fn parse(text: &str, origin: &str) -> Result<Vec<Device>> {
    let file: DevicesFile = toml::from_str(text).with_context(|| format!("{origin} is not a valid devices file"))?;
    let mut out: Vec<Device> = Vec::new();
    for (i, raw) in file.device.into_iter().enumerate() {
        let label = raw.get("name").and_then(|n| n.as_str()).map(|n| format!("device `{n}`")).unwrap_or_else(|| format!("device #{}", i + 1));
        let dev: Device = raw.try_into().with_context(|| format!("{origin}: {label}: write name, kind (\"rpc\" with tracker and key, or \"cuda\" with index) and target"))?;
        if dev.name.trim().is_empty() || dev.name.contains(char::is_whitespace) {
            bail!("{origin}: {label}: a name is one word");
        }
        if dev.name == LOCAL_CPU || dev.reach == Reach::Local {
            bail!("{origin}: {label}: `{LOCAL_CPU}` is built in; name a remote or GPU device");
        }
        if out.iter().any(|d| d.name == dev.name) {
            bail!("{origin}: two devices are named `{}`", dev.name);
        }
        match &dev.target {
            Some(t) if t.get("kind").and_then(Value::as_str).is_some() => {}
            _ => bail!(
                "{origin}: {label}: give its target, the board's or GPU's own: e.g. target = {{ kind = \"llvm\", mtriple = \"aarch64-linux-gnu\", mcpu = \"cortex-a76\" }} or {{ kind = \"cuda\", arch = \"sm_90\" }}"
            ),
        }
        if let Reach::Rpc { tracker, key } = &dev.reach {
            if tracker.rsplit_once(':').is_none_or(|(_, p)| p.parse::<u16>().is_err()) {
                bail!("{origin}: {label}: tracker `{tracker}`: write HOST:PORT, e.g. 127.0.0.1:9190");
            }
            if key.is_empty() {
                bail!("{origin}: {label}: give the key its servers register under");
            }
        }
        out.push(dev);
    }
    Ok(out)
}

/// Every device: the local CPU, CUDA GPUs found on this machine, then the
/// configured ones (a configured GPU replaces the found one of its index).
pub fn load(paths: &Paths) -> Result<Vec<Device>> {
    let path = config_path(paths);
    let configured = match std::fs::read_to_string(&path) {
        Ok(text) => parse(&text, &path.display().to_string())?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    };
    let mut out = vec![Device::local_cpu()];
    for gpu in local_gpus() {
        let taken = configured.iter().any(|d| d.reach == gpu.reach || d.name == gpu.name);
        if !taken {
            out.push(gpu);
        }
    }
    out.extend(configured);
    Ok(out)
}

/// The device called `name`, or an error listing the ones there are.
pub fn find(devices: &[Device], name: &str) -> Result<Device> {
    devices.iter().find(|d| d.name == name).cloned().with_context(|| {
        format!("no device `{name}`; there are: {} (add one to devices.toml, see `kwb devices`)", devices.iter().map(|d| d.name.as_str()).collect::<Vec<_>>().join(", "))
    })
}

/// CUDA GPUs on this machine, from nvidia-smi (none where it is missing).
fn local_gpus() -> Vec<Device> {
    let Ok(out) = std::process::Command::new("nvidia-smi").args(["--query-gpu=index,compute_cap", "--format=csv,noheader"]).output() else {
        return Vec::new();
    };
    if !out.status.success() {
        return Vec::new();
    }
    parse_gpus(&String::from_utf8_lossy(&out.stdout))
}

fn parse_gpus(csv: &str) -> Vec<Device> {
    csv.lines()
        .filter_map(|l| {
            let (index, cap) = l.split_once(',')?;
            let index: u32 = index.trim().parse().ok()?;
            let arch = format!("sm_{}", cap.trim().replace('.', ""));
            Some(Device { name: format!("cuda-{index}"), reach: Reach::Cuda { index }, target: Some(serde_json::json!({"kind": "cuda", "arch": arch})), size: None, peaks: None })
        })
        .collect()
}

/// Whether a device can be reached now, in a line.
#[derive(Debug, Clone, Serialize)]
pub struct Reachable {
    pub ok: bool,
    pub detail: String,
}

/// Reaches the device (a tracker's queue for RPC) within `timeout`.
pub fn probe(device: &Device, timeout: Duration) -> Reachable {
    match &device.reach {
        Reach::Local => Reachable { ok: true, detail: "this machine".into() },
        Reach::Cuda { index } => {
            let found = local_gpus().iter().any(|g| g.reach == Reach::Cuda { index: *index });
            Reachable { ok: found, detail: if found { format!("GPU {index} of this machine") } else { format!("no CUDA GPU {index} on this machine (nvidia-smi)") } }
        }
        Reach::Rpc { tracker, key } => match tracker::summary(tracker, timeout) {
            Ok(s) => match s.queues.get(key) {
                Some(q) => Reachable { ok: q.free > 0 || q.pending > 0, detail: format!("tracker {tracker}: key {key}: {} free, {} pending", q.free, q.pending) },
                None => Reachable {
                    ok: false,
                    detail: format!(
                        "tracker {tracker} has no server under key {key}{}",
                        if s.queues.is_empty() { String::new() } else { format!(" (it has: {})", s.queues.keys().cloned().collect::<Vec<_>>().join(", ")) }
                    ),
                },
            },
            Err(e) => Reachable { ok: false, detail: format!("{e:#}") },
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_devices_file_gives_rpc_and_cuda_devices() {
        let text = r#"
[[device]]
name = "pi5"
kind = "rpc"
tracker = "127.0.0.1:9190"
key = "pi5"
target = { kind = "llvm", mtriple = "aarch64-linux-gnu", mcpu = "cortex-a76" }

[[device]]
name = "gpu"
kind = "cuda"
target = { kind = "cuda", arch = "sm_90" }
peaks = { peak_flops = 6.7e13, bandwidth_bytes_s = 4.8e12 }

[[device]]
name = "orin"
kind = "rpc"
tracker = "127.0.0.1:9190"
key = "orin"
size = "board"
target = { kind = "cuda", arch = "sm_87" }
"#;
        let d = parse(text, "devices.toml").unwrap();
        assert_eq!(d[0].reach, Reach::Rpc { tracker: "127.0.0.1:9190".into(), key: "pi5".into() });
        assert_eq!(d[0].target.as_ref().unwrap()["mcpu"], "cortex-a76");
        assert_eq!(d[0].size(), None, "a board runs the tasks' own size unless it names one");
        assert_eq!(d[1].reach, Reach::Cuda { index: 0 });
        assert_eq!(d[1].kind(), "cuda");
        assert_eq!(d[1].size(), Some(GPU_SIZE));
        assert_eq!(d[1].peaks, Some(Peaks { peak_flops: 6.7e13, bandwidth_bytes_s: 4.8e12 }));
        assert_eq!(d[2].size(), Some("board"));
        assert_eq!(Device::local_cpu().size(), None);
    }

    #[test]
    fn mistakes_are_named_with_what_to_write() {
        let cases = [
            ("[[device]]\nname = \"a\"\nkind = \"rpc\"\ntracker = \"h:9190\"\nkey = \"k\"\n", "give its target"),
            ("[[device]]\nname = \"a\"\nkind = \"rpc\"\ntracker = \"nohost\"\nkey = \"k\"\ntarget = { kind = \"llvm\" }\n", "HOST:PORT"),
            ("[[device]]\nname = \"a\"\nkind = \"fpga\"\ntarget = { kind = \"llvm\" }\n", "device `a`"),
            ("[[device]]\nname = \"local-cpu\"\nkind = \"cuda\"\ntarget = { kind = \"cuda\" }\n", "built in"),
            ("[[device]]\nname = \"a\"\nkind = \"cuda\"\ntarget = { kind = \"cuda\" }\n[[device]]\nname = \"a\"\nkind = \"cuda\"\nindex = 1\ntarget = { kind = \"cuda\" }\n", "two devices"),
            ("[[device]\n", "not a valid devices file"),
            ("[[device]]\nname = \"a\"\nkind = \"cuda\"\ntarget = { kind = \"cuda\" }\npeaks = { flops = 1.0 }\n", "device `a`"),
        ];
        for (text, want) in cases {
            let e = format!("{:#}", parse(text, "devices.toml").unwrap_err());
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    #[test]
    fn nvidia_smi_lines_become_gpu_devices() {
        let d = parse_gpus("0, 9.0\n1, 8.6\ngarbage\n");
        assert_eq!(d.len(), 2);
        assert_eq!(d[0].name, "cuda-0");
        assert_eq!(d[1].target.as_ref().unwrap()["arch"], "sm_86");
    }

    #[test]
    fn an_unknown_device_lists_the_known_ones() {
        let e = find(&[Device::local_cpu()], "pi5").unwrap_err();
        assert!(format!("{e:#}").contains("there are: local-cpu"), "{e:#}");
    }

    #[test]
    fn an_rpc_device_without_a_tracker_is_unreachable_with_the_reason() {
        // A port nothing listens on: bound, then released.
        let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let d = Device { name: "b".into(), reach: Reach::Rpc { tracker: format!("127.0.0.1:{port}"), key: "k".into() }, target: None, size: None, peaks: None };
        let r = probe(&d, Duration::from_secs(2));
        assert!(!r.ok && r.detail.contains("no RPC tracker answers"), "{r:?}");
    }
}
