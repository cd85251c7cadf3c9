//! A task's size (FLOPs and compulsory bytes, what its roofline share is
//! against) counts the work the operator must do, not what TVM's default
//! lowering happens to do: no products with a dilated input's zeros, no
//! bytes of an embedding table that its indices do not pick.

mod common;

use serde_json::{Value, json};
use std::time::Duration;

async fn size_of(task: &str) -> (Value, Value) {
    let set = common::tasks();
    let source = set.get(task).unwrap().reference_text().unwrap();
    size_of_source(task, &source).await
}

/// The size of `source`, a graph with the task's signature.
async fn size_of_source(task: &str, source: &str) -> (Value, Value) {
    let engine = common::engine(1).await;
    let set = common::tasks();
    let meta = set.get(task).unwrap().reference_meta().unwrap();
    let spec = serde_json::to_value(&meta.args).unwrap();
    let outputs = serde_json::to_value(&meta.outputs).unwrap();
    let job = kwb::engine::Job::new("size", json!({"source": source, "target": {"kind": "llvm"}, "args_spec": spec, "outputs": outputs}), Duration::from_secs(120));
    (engine.run(job).await.unwrap().result, spec)
}

fn shape(spec: &Value, name: &str) -> Vec<u64> {
    let arg = spec.as_array().unwrap().iter().find(|a| a["name"] == name).unwrap_or_else(|| panic!("no argument {name} in {spec}"));
    arg["shape"].as_array().unwrap().iter().map(|d| d.as_u64().unwrap()).collect()
}

#[tokio::test]
async fn an_embedding_moves_the_rows_it_gathers_not_its_table() {
    let (size, spec) = size_of("embedding").await;
    let ids: u64 = shape(&spec, "ids").iter().product();
    let table = shape(&spec, "p_table_weight");
    let row_bytes = table[1] * 4;
    // ids (int64) in, the picked rows read, the same rows written out.
    let expected = ids * 8 + 2 * ids * row_bytes;
    assert_eq!(size["bytes_moved"].as_u64(), Some(expected), "{size}");
    assert!(expected < table[0] * row_bytes, "the table would dominate: {size}");
}

#[tokio::test]
async fn a_transposed_convolution_counts_no_products_with_zeros() {
    let (size, spec) = size_of("conv_transpose2d").await;
    let x = shape(&spec, "x");
    let w = shape(&spec, "p_deconv_weight"); // IOHW
    // Every input pixel times every tap, once: a lower bound on the work.
    let useful = 2 * x.iter().product::<u64>() * w[1] * w[2] * w[3];
    let flops = size["flops"].as_f64().unwrap();
    assert!(flops >= useful as f64 && flops < 1.3 * useful as f64, "{flops} FLOPs against {useful} useful (the dilated form has 4x)");
}

/// FLOPs count each distinct value once, as the compiled code computes it.
/// After fast-math, GELU's erf is a polynomial whose clamped argument the
/// inlined expression holds 24 times over: TVM's estimate counts that tree,
/// 78 FLOPs per element, and put linear_gelu's GELU kernel at 233% of its
/// compute roofline; its distinct operations are 29.
#[tokio::test]
async fn a_polynomial_counts_its_repeated_argument_once() {
    let engine = common::engine(1).await;
    let set = common::tasks();
    let reference = set.get("gelu").unwrap().reference_text().unwrap();
    let l0 = engine.run(kwb::engine::Job::new("l0_moves", json!({"l0": reference}), Duration::from_secs(120))).await.unwrap().result;
    let fast = l0["moves"].as_array().unwrap().iter().find(|m| m["name"] == "fast-math").unwrap_or_else(|| panic!("no fast-math move: {l0}"));
    let (size, spec) = size_of_source("gelu", fast["text"].as_str().unwrap()).await;
    let elements: u64 = shape(&spec, "x").iter().product();
    let per_element = size["flops"].as_f64().unwrap() / elements as f64;
    eprintln!("fast-math GELU: {per_element:.1} FLOPs per element");
    assert!(per_element > 20.0 && per_element < 40.0, "{per_element} FLOPs per element: {size}");
}
