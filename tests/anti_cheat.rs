//! Every candidate in the anti-cheat corpus (tests/cheats) is rejected with
//! its expected class and reason, and is never timed.

mod common;

use kwb::session::runner::derive;
use serde_json::json;

#[derive(serde::Deserialize)]
struct Corpus {
    cheat: Vec<Cheat>,
}

#[derive(serde::Deserialize)]
struct Cheat {
    file: String,
    task: String,
    class: String,
    reason: String,
    what: String,
    /// "module" (default), "trace" or "l2".
    #[serde(default)]
    kind: Option<String>,
    kernel: Option<String>,
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_cheat_is_caught_and_classified() {
    let dir = common::repo().join("tests/cheats");
    let corpus: Corpus = toml::from_str(&std::fs::read_to_string(dir.join("expected.toml")).unwrap()).unwrap();
    assert!(corpus.cheat.len() >= 18);
    let ev = common::evaluator(common::quick_opts()).await;
    let set = common::tasks();
    let mut escaped = Vec::new();
    for c in &corpus.cheat {
        let task = set.get(&c.task).unwrap();
        let source = std::fs::read_to_string(dir.join(&c.file)).unwrap();
        if let Some(kind @ ("trace" | "l2")) = c.kind.as_deref() {
            // Applied as an edit to the reference's L1 module, as an agent's would be.
            let root = derive(&ev, task, json!({"l0": task.reference_text().unwrap()})).await.expect("the reference derives");
            let kernel = c.kernel.clone().expect("trace and l2 cheats name their kernel");
            let args = if kind == "trace" {
                let lines: Vec<&str> = source.lines().filter(|l| !l.trim_start().starts_with('#') && !l.trim().is_empty()).collect();
                json!({"l1_module": root.l1_module, "kernel": kernel, "trace": lines})
            } else {
                json!({"l1_module": root.l1_module, "l2_overrides": {kernel: source}})
            };
            let verdict = match derive(&ev, task, args).await {
                Ok(_) => Some("ACCEPTED as an edit".to_string()),
                Err(f) if f.class.to_string() != c.class => Some(format!("refused as {} instead of {}: {}", f.class, c.class, f.message)),
                Err(f) if !c.reason.split('|').any(|r| f.message.contains(r)) => Some(format!("refused, but not for `{}`: {}", c.reason, f.message)),
                Err(_) => None,
            };
            if let Some(v) = verdict {
                escaped.push(format!("{} ({}): {v}", c.file, c.what));
            }
            continue;
        }
        let r = ev.evaluate(task, &source).await;
        let verdict = match &r.failure {
            None => Some(format!("PASSED as correct with speedup {:?}", r.speedup_median)),
            Some(f) if f.class.to_string() != c.class => Some(format!("rejected as {} instead of {}: {}", f.class, c.class, f.message)),
            Some(f) if !c.reason.split('|').any(|r| f.message.contains(r)) => Some(format!("rejected, but not for `{}`: {}", c.reason, f.message)),
            Some(_) => None,
        };
        if let Some(v) = verdict {
            escaped.push(format!("{} ({}): {v}", c.file, c.what));
        }
        assert!(r.speedup_median.is_none(), "{}: a rejected candidate must never be timed", c.file);
    }
    assert!(escaped.is_empty(), "cheats not caught as expected:\n{}", escaped.join("\n"));
}
