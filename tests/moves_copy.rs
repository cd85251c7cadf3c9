//! Copies: a concatenation cut at its inputs' boundaries, its effect on the
//! generated code, and that the result stays correct.

mod common;

use common::moves::{l1_moves_of, req, timed_evaluator, trace_of};
use kwb::ir::Layer;
use kwb::session::runner::{EditBody, SessionRunner};

/// TVM builds concat (two 1 x 32 x 28 x 28 inputs along the channels) as
/// one loop whose every element chooses its input; LLVM hoists the choice
/// out of each channel and copies 3 KiB at a time. The first L1 move cuts
/// the channel loop at 32: each part reads one input, the choice folds
/// away, and LLVM copies each input with one `memcpy` of 98 KiB. Correct,
/// and no slower than TVM's build (1.09x in this test on one Emerald
/// Rapids core; asserted at 0.9x: a copy's time is mostly memory's).
#[tokio::test]
async fn a_concatenation_is_cut_at_its_inputs_boundaries_into_plain_copies() {
    let ev = timed_evaluator().await;
    let set = common::tasks();
    let task = set.get("concat").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("concat.jsonl"), task, &ev).await.unwrap();
    let root = s.tree.get(0).unwrap().record.texts.clone();
    let kernel = root.l1.keys().find(|k| k.contains("concat")).cloned().unwrap_or_else(|| panic!("no concat kernel in {:?}", root.l1.keys()));
    let out = l1_moves_of(&ev, &root.l1_module, &kernel).await;
    let first = out["moves"][0].clone();
    assert_eq!(first["name"], "concat-split", "{out}");
    assert!(trace_of(&first).iter().any(|l| l.contains("loop_partition") && l.contains("[32, None]")), "not cut at 32: {first}");
    let n1 = s.edit(req(0, Layer::L1, Some(&kernel), EditBody::Trace(trace_of(&first)), "concat-split")).await.unwrap().expect("the cut applies");
    let node = s.tree.get(n1).unwrap();
    let ll = &node.record.texts.l2[&kernel];
    assert!(ll.matches("call void @llvm.memcpy").count() == 2 && ll.matches("i64 100352, i1 false)").count() == 2, "each input is not one copy of 98 KiB: {ll}");
    let r = node.result.clone().unwrap();
    assert!(r.correct, "{:?}", r.failure);
    let speedup = r.speedup_median.expect("timed");
    eprintln!("concat-split: {speedup:.2}x TVM's default build");
    assert!(speedup > 0.9, "the cut concatenation is {speedup:.2}x TVM's default build");
}
