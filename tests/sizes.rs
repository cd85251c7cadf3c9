//! Tasks sized for a device (`kwb tasks resize`): a size grown from the same
//! model.py for a faster device, with its own reference outputs, which that
//! device's runs then use while this CPU keeps the task's own. Needs
//! PyTorch in the engine environment (KWB_TEST_TORCH=1, as `.ci/run` sets).

mod common;

use kwb::engine::pyenv;
use std::path::Path;
use std::process::{Command, Output};

fn torch_ready() -> bool {
    if std::env::var_os("KWB_TEST_TORCH").is_some() {
        assert!(pyenv::has_torch_marker(&common::paths()), "KWB_TEST_TORCH is set but the test home has no PyTorch: run .ci/run");
        return true;
    }
    eprintln!("PyTorch is not set up for the tests (KWB_TEST_TORCH); resize tests not run");
    false
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        if e.file_name() == "sizes" {
            continue; // the shipped sizes: this test makes its own
        } else if p.is_dir() {
            copy_dir(&p, &to.join(e.file_name()));
        } else {
            std::fs::copy(&p, to.join(e.file_name())).unwrap();
        }
    }
}

fn json_of(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|_| panic!("{}", text(o)))
}

#[test]
fn a_task_resized_for_a_faster_device_is_what_that_device_runs() {
    if !torch_ready() {
        return;
    }
    let env = pyenv::ensure(&common::paths(), true, false).expect("engine environment");
    let home = tempfile::tempdir().unwrap();
    let tasks = tempfile::tempdir().unwrap();
    for t in ["matmul_256", "relu"] {
        copy_dir(&common::repo().join("tasks/l1").join(t), &tasks.path().join("l1").join(t));
    }
    std::fs::create_dir_all(home.path().join("config")).unwrap();
    std::fs::write(
        home.path().join("config/devices.toml"),
        "[[device]]\nname = \"gpu0\"\nkind = \"cuda\"\nindex = 7\ntarget = { kind = \"cuda\", arch = \"sm_90\" }\npeaks = { peak_flops = 6.7e13, bandwidth_bytes_s = 4.8e12 }\n\n\
         [[device]]\nname = \"board\"\nkind = \"rpc\"\ntracker = \"127.0.0.1:9\"\nkey = \"b\"\nsize = \"small\"\ntarget = { kind = \"llvm\" }\n",
    )
    .unwrap();
    let kwb = |device: &str| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_kwb"));
        c.env("KWB_HOME", home.path()).env("KWB_PYTHON", &env.python).env("KWB_TASKS", tasks.path()).args(["--device", device]);
        c
    };

    // `kwb devices` says a device's size and where its peaks come from.
    let list = json_of(&kwb("local-cpu").args(["devices", "--json"]).output().unwrap());
    let gpu0 = list["devices"].as_array().unwrap().iter().find(|d| d["name"] == "gpu0").unwrap();
    assert_eq!(gpu0["size"], "gpu", "{gpu0}");
    assert_eq!(gpu0["peaks"]["source"], "devices.toml", "{gpu0}");

    // A device kwb cannot measure needs its peaks to size by.
    let no_peaks = kwb("board").args(["tasks", "resize", "--task", "relu"]).output().unwrap();
    assert!(!no_peaks.status.success() && text(&no_peaks).contains("peaks = {"), "{}", text(&no_peaks));

    // 3 us at 67 TFLOP/s is 2e8 FLOPs: the 256^3 matmul (3.4e7) doubles once.
    let out = kwb("gpu0").args(["tasks", "resize", "--task", "matmul_256,relu", "--min-us", "3"]).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let sized = tasks.path().join("l1/matmul_256/sizes/gpu");
    for f in ["task.toml", "model.py", "reference.py", "reference.json", "outputs/seed0.digest.npz"] {
        assert!(sized.join(f).is_file(), "{f} missing: {}", text(&out));
    }
    let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(sized.join("reference.json")).unwrap()).unwrap();
    assert_eq!(meta["args"][0]["shape"], serde_json::json!([512, 512]), "{}", text(&out));
    let toml: toml::Table = toml::from_str(&std::fs::read_to_string(sized.join("task.toml")).unwrap()).unwrap();
    assert_eq!(toml["id"].as_str(), Some("matmul_256"), "a size keeps the task's id");
    assert_eq!(toml["overrides"]["M"].as_integer(), Some(512), "what growing chose is recorded: {toml:?}");
    assert!(toml["title"].as_str().unwrap().ends_with("[size gpu: K=512 M=512 N=512]"), "{toml:?}");
    // relu's batch of 1 goes first: 0.8 MB in and out is 0.3 us at 4.8 TB/s.
    let relu: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(tasks.path().join("l1/relu/sizes/gpu/reference.json")).unwrap()).unwrap();
    let shape: Vec<u64> = serde_json::from_value(relu["args"][0]["shape"].clone()).unwrap();
    // Grown until reading and writing it (8 bytes an element) takes 3 us there.
    let moved = 8.0 * shape.iter().product::<u64>() as f64;
    assert!(shape[0] > 1 && moved >= 3e-6 * 4.8e12, "{shape:?}");

    // What a size ships of PyTorch's outputs stays small however large the
    // outputs (the repository travels to the device): 1024 blocks at most.
    let digest = std::fs::metadata(tasks.path().join("l1/relu/sizes/gpu/outputs/seed0.digest.npz")).unwrap().len();
    assert!(digest < 40_000, "a digest of {digest} bytes");

    // The device runs the size; this CPU, the task's own.
    let on_gpu = json_of(&kwb("gpu0").args(["tasks", "list", "--json"]).output().unwrap());
    let on_cpu = json_of(&kwb("local-cpu").args(["tasks", "list", "--json"]).output().unwrap());
    let dir_of = |l: &serde_json::Value, id: &str| l["tasks"].as_array().unwrap().iter().find(|t| t["id"] == id).unwrap()["dir"].as_str().unwrap().to_string();
    assert!(dir_of(&on_gpu, "matmul_256").ends_with("sizes/gpu"), "{on_gpu}");
    assert!(dir_of(&on_cpu, "matmul_256").ends_with("l1/matmul_256"), "{on_cpu}");

    // The size's reference, built here, agrees with the outputs recorded for it.
    let check = Command::new(env!("CARGO_BIN_EXE_kwb"))
        .env("KWB_HOME", home.path())
        .env("KWB_PYTHON", &env.python)
        .env("KWB_TASKS", tasks.path().join("l1/matmul_256/sizes"))
        .args(["tasks", "check"])
        .output()
        .unwrap();
    assert!(check.status.success() && text(&check).contains("1 passed"), "{}", text(&check));

    // Sized already: skipped unless asked again.
    let again = kwb("gpu0").args(["tasks", "resize", "--task", "matmul_256"]).output().unwrap();
    assert!(again.status.success() && text(&again).contains("skipped"), "{}", text(&again));
    // Asked again, it is made again (the shape the same: the same growing).
    let before = std::fs::metadata(sized.join("reference.json")).unwrap().modified().unwrap();
    let redo = kwb("gpu0").args(["tasks", "resize", "--task", "matmul_256", "--min-us", "3", "--again"]).output().unwrap();
    assert!(redo.status.success() && text(&redo).contains("imported"), "{}", text(&redo));
    assert!(std::fs::metadata(sized.join("reference.json")).unwrap().modified().unwrap() > before);

    // KernelBench's files are sized for large GPUs: imported, they are fitted
    // to this CPU; sized for the device, to the device's bounds instead, from
    // the file's own values (6 GiB of input, halved until the bound fits:
    // here 64 MiB, to keep the test short; relu is bound by bytes on both).
    let kb = tasks.path().join("l1/relu_kb");
    let imported = kwb("local-cpu").args(["tasks", "import", "--fit", "--max-bytes", "67108864", "--id", "relu_kb", "--out"]).arg(&kb).arg(common::repo().join("tests/kernelbench/19_ReLU.py")).output().unwrap();
    assert!(imported.status.success(), "{}", text(&imported));
    let kb_gpu = kwb("gpu0").args(["tasks", "resize", "--task", "relu_kb", "--max-bytes", "67108864"]).output().unwrap();
    assert!(kb_gpu.status.success(), "{}", text(&kb_gpu));
    let bytes = |dir: &Path| -> u64 {
        let m: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("reference.json")).unwrap()).unwrap();
        m["args"].as_array().unwrap().iter().map(|a| 4 * a["shape"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap()).product::<u64>()).sum()
    };
    let (cpu, gpu) = (bytes(&kb), bytes(&kb.join("sizes/gpu")));
    assert!(gpu >= cpu && gpu <= 64 << 20 && gpu > 32 << 20, "cpu {cpu} bytes, gpu {gpu} bytes: {}", text(&kb_gpu));

    // A size whose files are broken is a problem named, and the task runs at its own size.
    std::fs::write(tasks.path().join("l1/relu/sizes/gpu/task.toml"), "id = \"relu\"\nlevel = 9\n").unwrap();
    let listed = kwb("gpu0").args(["tasks", "list", "--json"]).output().unwrap();
    let l = json_of(&listed);
    assert!(dir_of(&l, "relu").ends_with("l1/relu"), "{l}");
    assert!(l["problems"].to_string().contains("sizes/gpu"), "{l}");
}
