//! `kwb tasks import` through the real binary and a real PyTorch. Needs the
//! engine environment with PyTorch (`kwb engine setup --with-torch`), which
//! `.ci/run` installs and announces with KWB_TEST_TORCH=1.

mod common;

use std::process::{Command, Output};

fn kwb() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_kwb"));
    c.env("KWB_HOME", common::home()).env("KWB_TASKS", common::repo().join("tasks"));
    c
}

fn torch_ready() -> bool {
    if std::env::var_os("KWB_TEST_TORCH").is_some() {
        assert!(kwb::engine::pyenv::has_torch_marker(&common::paths()), "KWB_TEST_TORCH is set but the test home has no PyTorch: run .ci/run");
        return true;
    }
    eprintln!("PyTorch is not set up for the tests (set KWB_TEST_TORCH=1 after `kwb engine setup --with-torch`); import tests not run");
    false
}

fn import(file: &str, out: &std::path::Path, extra: &[&str]) -> Output {
    kwb().args(["tasks", "import"]).arg(common::repo().join("tests/kernelbench").join(file)).arg("--out").arg(out).args(extra).output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

#[test]
fn kernelbench_file_sized_for_a_gpu_is_refused_then_imported_with_overrides() {
    if !torch_ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("relu_kb");
    let big = import("19_ReLU.py", &dest, &[]);
    assert!(!big.status.success());
    let t = text(&big);
    assert!(t.contains("6144.0 MiB") && t.contains("--set"), "refusal names the size and the fix: {t}");
    assert!(!dest.join("reference.json").exists(), "a refused import writes nothing");

    let ok = import("19_ReLU.py", &dest, &["--set", "batch_size=16", "--set", "dim=1024", "--id", "relu_kb"]);
    assert!(ok.status.success(), "{}", text(&ok));
    for f in ["model.py", "task.toml", "reference.py", "reference.json", "outputs/seed0.digest.npz", "outputs/seed1.digest.npz", "outputs/seed2.digest.npz"] {
        assert!(dest.join(f).exists(), "{f} missing");
    }
    let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dest.join("reference.json")).unwrap()).unwrap();
    assert_eq!(meta["args"][0]["shape"], serde_json::json!([16, 1024]));
    // The imported task evaluates without PyTorch, like any shipped one.
    let ev = kwb().args(["eval", "--json", "--task", "relu_kb", "--tasks"]).arg(dir.path()).output().unwrap();
    let r: serde_json::Value = serde_json::from_slice(&ev.stdout).unwrap_or_else(|_| panic!("{}", text(&ev)));
    assert_eq!(r["correct"], true, "{}", r["failure"]);
}

#[test]
fn batch_norm_statistics_become_arguments_and_match_pytorch() {
    if !torch_ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let dest = dir.path().join("cbr");
    let o = import("conv_bn_relu.py", &dest, &["--level", "2", "--domains", "mobile"]);
    assert!(o.status.success(), "{}", text(&o));
    let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dest.join("reference.json")).unwrap()).unwrap();
    let sources: Vec<&str> = meta["args"].as_array().unwrap().iter().map(|a| a["source"].as_str().unwrap()).collect();
    assert!(sources.contains(&"bn.running_var"), "{sources:?}");
    let var = meta["args"].as_array().unwrap().iter().find(|a| a["source"] == "bn.running_var").unwrap();
    assert_eq!(var["init"]["kind"], "positive", "variances must stay positive");
    let toml = std::fs::read_to_string(dest.join("task.toml")).unwrap();
    assert!(toml.contains("level = 2") && toml.contains("mobile"), "{toml}");
    assert!(!std::fs::read_to_string(dest.join("reference.py")).unwrap().contains("metadata["));
}

#[test]
fn files_that_cannot_be_tasks_are_refused_with_the_reason() {
    if !torch_ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("no_get_inputs.py", "get_inputs"),
        ("vanishing.py", "near zero"),
        ("random_forward.py", "aten.bernoulli"),
    ];
    for (file, reason) in cases {
        let o = import(file, &dir.path().join(file), &[]);
        assert!(!o.status.success(), "{file} must be refused");
        let t = text(&o);
        assert!(t.contains("refused") && t.contains(reason), "{file}: {t}");
    }
    // A directory import reports every file and keeps going.
    let all = kwb().args(["tasks", "import"]).arg(common::repo().join("tests/kernelbench")).arg("--out").arg(dir.path().join("all")).output().unwrap();
    let t = text(&all);
    assert_eq!(t.matches("imported ").count(), 3, "{t}");
    assert!(t.contains("imported  amax_reduce"), "kwb's own amax/amin converter: {t}");
    assert!(t.contains("imported  masked_softmax_inf"), "an infinity constant: {t}");
    assert_eq!(t.matches("refused ").count(), 4, "{t}");
}

/// The printer writes a Relax constant that is not finite as a string its
/// parser refuses; kwb prints it as `float("-inf")`, and the task builds,
/// checks and times from its printed reference.
#[test]
fn an_infinity_constant_round_trips() {
    if !torch_ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let o = import("masked_softmax_inf.py", &dir.path().join("msi"), &["--id", "masked_softmax_inf"]);
    assert!(o.status.success(), "{}", text(&o));
    let reference = std::fs::read_to_string(dir.path().join("msi/reference.py")).unwrap();
    assert!(reference.contains("float(\"-inf\")"), "{reference}");
    let ev = kwb().args(["eval", "--json", "--task", "masked_softmax_inf", "--tasks"]).arg(dir.path()).output().unwrap();
    let r: serde_json::Value = serde_json::from_slice(&ev.stdout).unwrap_or_else(|_| panic!("{}", text(&ev)));
    assert_eq!(r["correct"], true, "{}", r["failure"]);
}

/// The directory of files written for kwb's own import fixes: ops whose TVM
/// lowering differs from PyTorch (SELU, LayerNorm, GroupNorm after a
/// convolution, InstanceNorm on wide rows; kwb gives them converters),
/// tensor constants (lifted to arguments), and an input just under the size
/// bound. Imported as one directory, in parallel, into a suite named after
/// it, with a report; a second run skips them all.
#[test]
fn a_directory_of_fixes_imports_as_a_suite_and_reruns_skip() {
    if !torch_ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tasks");
    let fixes = common::repo().join("tests/kernelbench/fixes");
    // The time estimate divides bytes by the bandwidth measured on this
    // machine, which a loaded CI machine measures low (near_size_bound was
    // once estimated at 535 ms against the default 500): this test is about
    // the memory bound and the converters, so the time budget is left wide.
    let run = || kwb().args(["tasks", "import", "--workers", "2", "--budget-ms", "60000"]).arg(&fixes).arg("--out").arg(&out).output().unwrap();
    let first = run();
    let t = text(&first);
    assert!(first.status.success(), "{t}");
    let names = [
        "selu",
        "layer_norm_wide",
        "group_norm_after_conv",
        "instance_norm_wide",
        "instance_norm_constants",
        "near_size_bound",
        "frobenius_norm",
        "cross_entropy",
        "kl_div",
        "min_over_dim",
        "conv_transpose3d",
        "scalar_input",
        "last_step_select",
        "patches_unfold",
        "random_state_in_forward",
        "state_kept_on_module",
    ];
    for n in names {
        assert!(t.contains(&format!("imported  {n}")), "{n}: {t}");
    }
    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("import-fixes.json")).unwrap()).unwrap();
    assert_eq!(report["counts"]["imported"], names.len(), "{report}");
    assert_eq!(report["files"].as_array().unwrap().len(), names.len());
    let split = &report["time_split"];
    assert!(split["torch_s"].as_f64().unwrap() > 0.0 && split["tvm_s"].as_f64().unwrap() > 0.0, "{split}");
    assert!(split["torch_s"].as_f64().unwrap() + split["tvm_s"].as_f64().unwrap() <= split["files_s"].as_f64().unwrap(), "{split}");
    let listed = kwb().args(["tasks", "list", "--json", "--suite", "fixes", "--tasks"]).arg(&out).output().unwrap();
    let listed: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap_or_else(|_| panic!("{}", text(&listed)));
    assert_eq!(listed["tasks"].as_array().unwrap().len(), names.len(), "{listed}");

    // Tensor constants: exact, as arguments with init specs, no metadata.
    let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("instance_norm_constants/reference.json")).unwrap()).unwrap();
    let consts: Vec<&serde_json::Value> = meta["args"].as_array().unwrap().iter().filter(|a| a["role"] == "const").collect();
    assert!(consts.iter().any(|a| a["init"]["kind"] == "values"), "the per-channel gain is recorded: {consts:?}");
    assert!(!std::fs::read_to_string(out.join("instance_norm_constants/reference.py")).unwrap().contains("metadata["));
    let ev = kwb().args(["eval", "--json", "--task", "instance_norm_constants", "--tasks"]).arg(&out).output().unwrap();
    let r: serde_json::Value = serde_json::from_slice(&ev.stdout).unwrap_or_else(|_| panic!("{}", text(&ev)));
    assert_eq!(r["correct"], true, "{}", r["failure"]);

    // Labels from the file's own range; probabilities drawn as the file draws them.
    let ce: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("cross_entropy/reference.json")).unwrap()).unwrap();
    let labels = ce["args"].as_array().unwrap().iter().find(|a| a["dtype"] == "int64").unwrap();
    assert_eq!(labels["init"]["high"].as_i64().unwrap() > 900, true, "{labels}");
    let kl: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("kl_div/reference.json")).unwrap()).unwrap();
    assert!(kl["args"].as_array().unwrap().iter().all(|a| a["init"]["kind"] == "uniform" && a["init"]["low"].as_f64().unwrap() > 0.0), "{}", kl["args"]);
    let fro: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join("frobenius_norm/reference.json")).unwrap()).unwrap();
    assert!(fro["torch_precision"].as_str().unwrap().starts_with("float64"), "{fro}");

    // Random draws in forward and state kept on the module become inputs,
    // after the file's own, drawn as the file draws them.
    let inputs = |task: &str| -> Vec<serde_json::Value> {
        let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(out.join(task).join("reference.json")).unwrap()).unwrap();
        meta["args"].as_array().unwrap().iter().filter(|a| a["role"] == "input").cloned().collect()
    };
    let lstm = inputs("random_state_in_forward");
    let lstm_names: Vec<&str> = lstm.iter().map(|a| a["name"].as_str().unwrap()).collect();
    assert_eq!(lstm_names, ["x", "randn_0", "randn_1"], "{lstm:?}");
    assert_eq!(lstm[1]["shape"], serde_json::json!([2, 4, 32]));
    assert_eq!(lstm[1]["init"]["kind"], "normal");
    let rnn = inputs("state_kept_on_module");
    assert_eq!(rnn.iter().map(|a| a["name"].as_str().unwrap()).collect::<Vec<_>>(), ["x", "state_hidden"], "{rnn:?}");
    assert!((rnn[1]["init"]["scale"].as_f64().unwrap() - 1.0).abs() < 0.2, "drawn like the file's randn: {}", rnn[1]["init"]);
    let ev = kwb().args(["eval", "--json", "--task", "random_state_in_forward", "--tasks"]).arg(&out).output().unwrap();
    let r: serde_json::Value = serde_json::from_slice(&ev.stdout).unwrap_or_else(|_| panic!("{}", text(&ev)));
    assert_eq!(r["correct"], true, "{}", r["failure"]);

    let again = run();
    let t = text(&again);
    assert!(again.status.success(), "{t}");
    assert_eq!(t.matches("skipped ").count(), names.len(), "{t}");
}

/// A file sized for a large GPU is refused at once (no build, no reference
/// run) with values that fit, and `--fit` imports it with constants that
/// must agree halved together, recorded in task.toml.
#[test]
fn a_gpu_sized_file_is_refused_at_once_or_fitted() {
    if !torch_ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = common::repo().join("tests/kernelbench/fit/gemm_sized_for_a_gpu.py");
    let dest = dir.path().join("gemm");
    let t0 = std::time::Instant::now();
    let refused = kwb().args(["tasks", "import"]).arg(&file).arg("--out").arg(&dest).output().unwrap();
    let t = text(&refused);
    assert!(!refused.status.success(), "{t}");
    assert!(t.contains("GFLOP") && t.contains("--budget-ms") && t.contains("--fit") && t.contains("--set"), "{t}");
    // Refused from the estimate: the untuned reference (tens of seconds) never ran.
    assert!(t0.elapsed().as_secs() < 240, "took {:?}", t0.elapsed());
    assert!(!dest.join("reference.json").exists());

    let fitted = kwb().args(["tasks", "import", "--fit", "--budget-ms", "20"]).arg(&file).arg("--out").arg(&dest).output().unwrap();
    let t = text(&fitted);
    assert!(fitted.status.success(), "{t}");
    let toml: toml::Table = toml::from_str(&std::fs::read_to_string(dest.join("task.toml")).unwrap()).unwrap();
    let o = &toml["overrides"];
    let (i, w) = (o["in_features"].as_integer().unwrap(), o["out_features"].as_integer().unwrap());
    assert_eq!(i, w, "equal constants are scaled together: {o:?}");
    assert!(i < 4096, "{o:?}");
    let batch = o.get("batch_size").and_then(|b| b.as_integer()).unwrap_or(2048);
    assert!(batch < 2048, "{o:?}");
    let meta: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dest.join("reference.json")).unwrap()).unwrap();
    let input = meta["args"].as_array().unwrap().iter().find(|a| a["role"] == "input").unwrap();
    assert_eq!(input["shape"], serde_json::json!([batch, i]), "{}", meta["args"]);
}

#[test]
fn a_long_recurrence_is_fitted_by_its_sequence_not_its_widths() {
    if !torch_ready() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = common::repo().join("tests/kernelbench/fit/long_recurrence.py");
    let dest = dir.path().join("gru");
    // Cheap to run, but 16k operators unrolled: refused from the count.
    let refused = kwb().args(["tasks", "import"]).arg(&file).arg("--out").arg(&dest).output().unwrap();
    let t = text(&refused);
    assert!(!refused.status.success(), "{t}");
    assert!(t.contains("operators") && t.contains("--max-ops") && t.contains("--set seq_len="), "{t}");
    assert!(!t.contains("--budget-ms"), "within the time budget: {t}");
    assert!(!dest.join("reference.json").exists());

    let fitted = kwb().args(["tasks", "import", "--fit", "--max-ops", "400"]).arg(&file).arg("--out").arg(&dest).output().unwrap();
    let t = text(&fitted);
    assert!(fitted.status.success(), "{t}");
    let toml: toml::Table = toml::from_str(&std::fs::read_to_string(dest.join("task.toml")).unwrap()).unwrap();
    let o = toml["overrides"].as_table().unwrap();
    assert!(o["seq_len"].as_integer().unwrap() < 1024, "{o:?}");
    assert_eq!(o.keys().collect::<Vec<_>>(), ["seq_len"], "the widths are kept: {o:?}");
}
