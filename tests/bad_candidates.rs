//! Every way a candidate can go wrong ends in a classified failure, and the
//! engine keeps serving the next evaluation.

mod common;

use kwb::failure::FailureClass;

async fn eval_named(ev: &kwb::eval::Evaluator, name: &str) -> kwb::eval::EvalResult {
    let set = common::tasks();
    let task = set.get("relu").unwrap();
    ev.evaluate(task, &common::candidate("relu", name)).await
}

async fn reference_still_works(ev: &kwb::eval::Evaluator) {
    let set = common::tasks();
    let task = set.get("relu").unwrap();
    let r = ev.evaluate(task, &task.reference_text().unwrap()).await;
    assert!(r.correct, "the engine must keep working after a bad candidate: {:?}", r.failure);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn syntax_error_names_line_and_column() {
    let ev = common::evaluator(common::quick_opts()).await;
    let r = eval_named(&ev, "syntax_error").await;
    let f = r.failure.expect("a syntax error fails");
    assert_eq!(f.class, FailureClass::SyntaxApi);
    assert_eq!(f.line, Some(10), "{f}");
    assert!(f.column.is_some());
    assert!(!r.compile_ok);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shape_error_is_refused_before_build_with_location() {
    let ev = common::evaluator(common::quick_opts()).await;
    let r = eval_named(&ev, "shape_error").await;
    let f = r.failure.expect("a shape error fails");
    assert_eq!(f.class, FailureClass::SyntaxApi);
    assert_eq!(f.line, Some(11), "{f}");
    assert!(f.message.contains("broadcast"), "{f}");
    assert!(!f.message.contains("ir.Op("), "the op's repr is noise: {f}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_signature_is_refused() {
    let ev = common::evaluator(common::quick_opts()).await;
    let r = eval_named(&ev, "wrong_signature").await;
    let f = r.failure.expect("wrong parameters fail");
    assert_eq!(f.class, FailureClass::SyntaxApi);
    assert_eq!(f.stage.as_deref(), Some("signature"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn all_zero_output_fails_the_check() {
    let ev = common::evaluator(common::quick_opts()).await;
    let r = eval_named(&ev, "zeros").await;
    assert!(r.compile_ok);
    assert!(!r.correct);
    assert_eq!(r.failure_class, Some(FailureClass::NumericMismatch));
    assert!(r.seeds.iter().all(|s| !s.ok), "every seed must fail: {:?}", r.seeds);
    assert!(r.speedup_median.is_none(), "an incorrect candidate is never timed");
}

/// NaN outputs give infinite errors, which JSON cannot carry: the reply
/// must still parse, and the candidate fail as wrong, not as kwb's fault.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn not_a_number_outputs_fail_the_check() {
    let ev = common::evaluator(common::quick_opts()).await;
    let r = eval_named(&ev, "not_a_number").await;
    assert!(r.compile_ok);
    assert!(!r.correct);
    assert_eq!(r.failure_class, Some(FailureClass::NumericMismatch), "{:?}", r.failure);
    assert!(r.failure.as_ref().is_some_and(|f| f.message.contains("non-finite")), "{:?}", r.failure);
    reference_still_works(&ev).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn segfault_is_a_crash_and_the_engine_recovers() {
    let ev = common::evaluator(common::quick_opts()).await;
    let r = eval_named(&ev, "segfault").await;
    let f = r.failure.expect("a segfault fails");
    assert_eq!(f.class, FailureClass::Crash, "{f}");
    assert!(f.message.contains("SIGSEGV"), "{f}");
    // It died in a process of its own (a side), not in the measure worker.
    assert!(f.message.contains("candidate's process died"), "{f}");
    reference_still_works(&ev).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn infinite_loop_times_out_and_the_engine_recovers() {
    let ev = common::evaluator(common::quick_opts()).await;
    reference_still_works(&ev).await;
    let r = eval_named(&ev, "hang").await;
    let f = r.failure.expect("a hang fails");
    assert_eq!(f.class, FailureClass::Timeout, "{f}");
    // The check's own wall-clock limit ended it: not the CPU limit (the
    // worker dies of SIGXCPU), nor a default of minutes. Its timer starts
    // once the job holds this CPU and has a worker, so the test's own
    // clock is not the check's: in CI it read 96 s past the build, with
    // another test's timing jobs holding the CPU.
    assert!(f.message.contains("its 10 s limit"), "{f}");
    reference_still_works(&ev).await;
}

/// A search's hard stop ends a candidate that would run on: the hung check
/// is stopped by the deadline, not by its own 10 s limit, and the engine
/// serves the next evaluation.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_candidate_ends_at_the_searchs_hard_stop() {
    let ev = common::evaluator(common::quick_opts()).await;
    reference_still_works(&ev).await;
    let set = common::tasks();
    let task = set.get("relu").unwrap();
    let hang = kwb::eval::BuildSource::module(&common::candidate("relu", "hang"));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(3);
    let r = ev.evaluate_source_until(task, &hang, Some(deadline)).await;
    let f = r.failure.expect("a hang fails");
    assert_eq!(f.class, FailureClass::Timeout, "{f}");
    assert!(f.message.contains("hard stop") && !f.message.contains("10 s limit"), "{f}");
    reference_still_works(&ev).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unbounded_allocation_is_a_memory_failure() {
    let ev = common::evaluator(common::quick_opts()).await;
    let r = eval_named(&ev, "unbounded_alloc").await;
    let f = r.failure.expect("a 4 TiB allocation fails");
    assert_eq!(f.class, FailureClass::Memory, "{f}");
    reference_still_works(&ev).await;
}

/// A candidate far slower than the baseline is settled after the fewest
/// pairs (every one of them under half the baseline's speed) instead of
/// being measured to a 1% interval: a loser's figure needs no precision,
/// and the search's budget goes to the next candidate.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_far_slower_candidate_is_settled_after_five_pairs() {
    let ev = common::evaluator(common::quick_opts()).await;
    let r = eval_named(&ev, "slow").await;
    assert!(r.correct, "{:?}", r.failure);
    let x = r.speedup_median.expect("timed");
    assert!(x < 0.5, "the slow ReLU measured {x:.3}x");
    assert!(r.timing_valid, "a settled loser's timing counts");
    assert_eq!(r.pair_count, 5, "{x:.3}x after {} pairs", r.pair_count);
    reference_still_works(&ev).await;
}
