//! Which failure class an error belongs to, from the stage that failed and
//! the error's text. One table, first match wins; the worker's own guess is
//! the fallback. Unit-tested on errors captured from real TVM runs.

use crate::failure::FailureClass::{self, *};

/// (stages the rule applies to, or empty for any; lower-case needles, any of which matches; class)
const RULES: &[(&[&str], &[&str], FailureClass)] = &[
    // Timeouts and deaths are decided by the supervisor, whatever the text says.
    (&[], &["ran past its", "sigxcpu"], Timeout),
    (&[], &["killed by sigsegv", "killed by sigbus", "killed by sigabrt", "killed by sigill", "killed by sigfpe"], Crash),
    // Memory: allocation, scopes, bounds.
    (&[], &["bad_alloc", "out of memory", "failed to allocate", "cannot allocate", "unable to allocate", "memoryerror", "memory allocation"], Memory),
    (&[], &["storage scope", "illegal scope", "shared memory", "local memory", "out of bound", "outofbound", "index out of range"], Memory),
    // Parallel: thread mapping, races, GPU launch limits.
    (&[], &["threadidx", "blockidx", "thread binding", "bind thread", "max_threads", "maximum number of threads", "data race", "race condition", "thread extent", "threads per block", "is not parallelizable", "parallel loop"], Parallel),
    // The text itself: parse, well-formedness, signature, schedule API misuse.
    (&["parse", "legality", "signature", "trace", "l1", "l2", "target"], &[], SyntaxApi),
    (&[], &["syntax error", "not well formed", "is not defined", "has no attribute", "unexpected keyword", "positional argument"], SyntaxApi),
    // Precision downgrades and wrong results.
    (&["precision", "check"], &[], NumericMismatch),
    // Lowering and code generation.
    (&["build", "lower", "codegen", "baseline_build", "load"], &[], Build),
    // A candidate that raised while running.
    (&["run"], &[], Crash),
];

pub fn classify(stage: Option<&str>, message: &str, fallback: FailureClass) -> FailureClass {
    if matches!(fallback, Cancelled | Task) {
        return fallback;
    }
    let text = message.to_lowercase();
    for (stages, needles, class) in RULES {
        let stage_ok = stages.is_empty() || stage.is_some_and(|s| stages.contains(&s));
        let text_ok = needles.is_empty() || needles.iter().any(|n| text.contains(n));
        if stage_ok && text_ok && !(stages.is_empty() && needles.is_empty()) {
            return *class;
        }
    }
    fallback
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages as TVM 0.27 and the supervisor produced them on this project's candidates.
    #[test]
    fn real_errors_get_their_class() {
        let cases: &[(Option<&str>, &str, FailureClass)] = &[
            (Some("parse"), "syntax error: '(' was never closed", SyntaxApi),
            (Some("parse"), "error: In relax.add, the first input shape at dim 3 is T.int64(56) and the second input shape at dim 0 is T.int64(3), which are not broadcastable.\n --> <str>:11:13", SyntaxApi),
            (Some("signature"), "parameter 0 (x) is float32[1, 64, 56, 57], the task gives float32[1, 64, 56, 56]", SyntaxApi),
            (Some("trace"), "trace line 2: ScheduleError: An error occurred in the schedule primitive 'parallel'", SyntaxApi),
            (Some("l2"), "LLVM IR of `softmax` does not parse: error: use of undefined value '%undefined_value'", SyntaxApi),
            (Some("run"), "candidate failed at run time: std::bad_alloc", Memory),
            (Some("run"), "candidate failed at run time: InternalError: Check failed: ptr != nullptr: Failed to allocate 4398046511104 bytes", Memory),
            (Some("check"), "the worker running `check` died (killed by SIGSEGV (11)); it was restarted.", Crash),
            (Some("check"), "`check` ran past its 10 s limit; the worker was killed and restarted", Timeout),
            (Some("check"), "the worker running `check` died (killed by SIGXCPU (24)); it was restarted.", Timeout),
            (Some("check"), "seed 1: output 0: max abs error 4.22 over bound (reference rms 0.707)", NumericMismatch),
            (Some("precision"), "precision downgrade: the candidate uses float16 on a float32 task", NumericMismatch),
            (Some("legality"), "Check failed: The thread extent of threadIdx.x is 2048, which exceeds the maximum number of threads 1024", Parallel),
            (Some("build"), "build failed: TVMError: Cannot find the storage scope \"shared.dyn\" for CPU target", Memory),
            (Some("build"), "build failed: InternalError: Check failed: (lanes > 1) is false", Build),
        ];
        for (stage, msg, want) in cases {
            assert_eq!(classify(*stage, msg, Internal), *want, "{stage:?}: {msg}");
        }
    }

    #[test]
    fn task_and_cancel_are_kept() {
        assert_eq!(classify(Some("check"), "seed 0: out of memory", Task), Task);
        assert_eq!(classify(Some("check"), "cancelled", Cancelled), Cancelled);
    }

    #[test]
    fn unknown_errors_keep_the_workers_guess() {
        assert_eq!(classify(Some("somewhere"), "a new kind of failure", Build), Build);
    }
}
