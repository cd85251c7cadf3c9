//! Jobs that work on one kernel parse that kernel's text alone: an L1 edit
//! parses again only the kernel it changed, and the L1 moves read only the
//! kernel they schedule. What they give must be what a parse of the whole
//! module gives.

mod common;

use kwb::engine::{Engine, Job};
use serde_json::{Value, json};
use std::time::Duration;

async fn job(engine: &Engine, op: &'static str, args: Value) -> Value {
    engine.run(Job::new(op, args, Duration::from_secs(300))).await.unwrap_or_else(|f| panic!("{op}: {f}")).result
}

/// attention_scores lowers to several kernels (a batched matmul, the scaling, the softmax).
async fn attention_l1(engine: &Engine) -> (Value, String) {
    let set = common::tasks();
    let task = set.get("attention_scores").unwrap();
    let root = job(engine, "derive", json!({"l0": task.reference_text().unwrap(), "target": {"kind": "llvm"}})).await;
    let l1 = root["l1_module"].as_str().unwrap().to_string();
    assert!(root["l1"].as_object().unwrap().len() >= 3, "attention_scores has several kernels: {:?}", root["l1"].as_object().unwrap().keys());
    (root, l1)
}

#[tokio::test]
async fn an_l1_edit_gives_the_views_a_parse_of_its_whole_text_gives() {
    let engine = common::engine(1).await;
    let (root, l1) = attention_l1(&engine).await;
    let target = json!({"kind": "llvm"});
    let kernels: Vec<String> = root["l1"].as_object().unwrap().keys().cloned().collect();
    let mut edited = 0;
    for kernel in &kernels {
        let moves = job(&engine, "l1_moves", json!({"l1_module": l1, "kernel": kernel, "target": target})).await;
        let Some(m) = moves["moves"].as_array().and_then(|a| a.first()) else { continue };
        let child = job(&engine, "derive", json!({"l1_module": l1, "kernel": kernel, "trace": m["trace"], "target": target})).await;
        assert_ne!(child["l1"][kernel], root["l1"][kernel], "{} changes `{kernel}`", m["name"]);
        for other in kernels.iter().filter(|k| *k != kernel) {
            assert_eq!(child["l1"][other], root["l1"][other], "an edit of `{kernel}` leaves `{other}` as it was");
        }
        // Derived again from its text alone, with every function parsed.
        let whole = job(&engine, "derive", json!({"l1_module": child["l1_module"], "target": target})).await;
        assert_eq!(whole["l1_module"], child["l1_module"]);
        assert_eq!(whole["l1"], child["l1"], "the L1 views of `{kernel}`'s edit");
        assert_eq!(whole["l2"], child["l2"], "the target code of `{kernel}`'s edit");
        edited += 1;
    }
    assert!(edited >= 2, "moves for at least two of the kernels");
}

#[tokio::test]
async fn the_l1_moves_of_a_kernel_read_alone_are_those_of_the_whole_module() {
    let engine = common::engine(1).await;
    let (root, l1) = attention_l1(&engine).await;
    // A line the printer never writes: the text is then parsed whole.
    let whole = format!("{l1}\n# not in the printer's layout\n");
    for kernel in root["l1"].as_object().unwrap().keys() {
        let args = |text: &str| json!({"l1_module": text, "kernel": kernel, "target": {"kind": "llvm"}});
        let alone = job(&engine, "l1_moves", args(&l1)).await;
        let from_whole = job(&engine, "l1_moves", args(&whole)).await;
        assert_eq!(alone["moves"], from_whole["moves"], "`{kernel}`");
        assert_eq!(alone["blocks"], from_whole["blocks"], "`{kernel}`");
    }
    let missing = engine.run(Job::new("l1_moves", json!({"l1_module": l1, "kernel": "no_such_kernel", "target": {"kind": "llvm"}}), Duration::from_secs(60))).await;
    assert!(missing.is_err(), "a kernel the module lacks is an error: {missing:?}");
}
