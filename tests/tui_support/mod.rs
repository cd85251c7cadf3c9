//! Fixtures for the workbench tests: a small tasks folder, a session folder
//! holding the v1 fixture log with a hardware-agent profile appended, and a
//! harness opened on them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use tempfile::TempDir;

mod harness;
pub use harness::Harness;

pub struct Fixture {
    pub dir: TempDir,
}

const TASKS: &[(&str, u8, &str, &str)] = &[
    ("relu", 1, "mobile\", \"aiot", "ReLU over a 1 x 64 x 56 x 56 activation"),
    ("softmax", 1, "robotics", "Softmax over the last axis of a 128 x 1000 tensor"),
    ("conv_bn_relu", 2, "mobile", "Conv 3x3, batch norm and ReLU fused"),
];

const PROFILE: &str = r#"{"seq":22,"ts_ms":1796059340000,"type":"profile","node":1,"profile":{"kernels":[{"name":"relu","ms":0.0412,"share":0.83,"flops":200704,"bytes":1605632,"bound":"memory"},{"name":"copy","ms":0.0084,"share":0.17,"flops":0,"bytes":802816,"bound":"memory"}],"bottleneck":"memory bandwidth in relu","route":"L1","evidence":"relu moves 1.6 MB at 39 GB/s, 0.8 of the measured stream bandwidth; arithmetic intensity 0.125 FLOP/B"}}"#;

impl Fixture {
    pub fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        for (id, level, domains, title) in TASKS {
            let t = dir.path().join("tasks").join(format!("l{level}")).join(id);
            std::fs::create_dir_all(&t).unwrap();
            std::fs::write(
                t.join("task.toml"),
                format!("id = \"{id}\"\nlevel = {level}\ndomains = [\"{domains}\"]\ndtype = \"float32\"\ntitle = \"{title}\"\n\n[tolerance]\natol = 0.0001\nrtol = 0.0001\n"),
            )
            .unwrap();
            std::fs::write(
                t.join("model.py"),
                "import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n    def forward(self, x):\n        return torch.relu(x)\n\n\ndef get_inputs():\n    return [torch.randn(1, 64, 56, 56)]\n",
            )
            .unwrap();
        }
        let sessions = dir.path().join("sessions");
        std::fs::create_dir_all(&sessions).unwrap();
        let mut log = std::fs::read_to_string(fixture_log()).unwrap();
        if !log.ends_with('\n') {
            log.push('\n');
        }
        log.push_str(PROFILE);
        log.push('\n');
        std::fs::write(sessions.join("relu-sample.jsonl"), log).unwrap();
        Self { dir }
    }

    pub fn tasks(&self) -> PathBuf {
        self.dir.path().join("tasks")
    }
    pub fn sessions(&self) -> PathBuf {
        self.dir.path().join("sessions")
    }
    pub fn session(&self) -> PathBuf {
        self.sessions().join("relu-sample.jsonl")
    }

    /// The browser with tasks and the session index, nothing open.
    pub fn browser(&self, w: u16, h: u16) -> Harness {
        Harness::new(w, h).with_tasks(&self.tasks()).with_index(&self.sessions())
    }

    /// The sample session open at its end.
    pub fn opened(&self, w: u16, h: u16) -> Harness {
        self.browser(w, h).with_session(&self.session())
    }
}

pub fn fixture_log() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sessions/v1-relu.jsonl")
}

/// The two sizes every screen is checked at.
pub const SIZES: &[(u16, u16)] = &[(80, 24), (120, 40)];
