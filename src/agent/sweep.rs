//! A sweep: every kernel of a graph not yet scheduled on the path takes
//! its first-ranked L1 move, all in one candidate. One kernel per
//! candidate does not reach them: resnet18_slim has 16 convolutions that
//! each hold 2% to 17% of the time, a candidate costs about 15 s, and a
//! 3-minute run scheduled four of them, ending at 0.10x the tuned build
//! with the rest at TVM's default schedules. A sweep is offered once per
//! node, beside the round's own proposals, where the time is spread that
//! way; the search keeps it only if it measures faster.

use serde_json::Value;

/// The least share of kernel time a kernel needs to be swept: the move
/// lists of a graph's reshapes cost a job each and earn nothing.
pub const MIN_SHARE: f64 = 0.01;
/// The fewest kernels worth a sweep: below this, a round per kernel does.
pub const MIN_KERNELS: usize = 4;
/// The least share of the time the open kernels other than the hottest must
/// hold: where one kernel holds nearly all of it, its own round is the
/// better spend. Lower than `search`'s SHARED_TIME: after resnet18_slim's
/// first sweep (0.10x to 0.95x the tuned build), nine kernels of 1% to 8%
/// were left, 15% of the time besides the hottest, and the rest of the
/// budget scheduled two of them.
pub const OTHERS_SHARE: f64 = 0.10;

/// The kernels a sweep at a node with this profile would schedule, with
/// their shares, hottest first: those not in `done` nor `skip`, at
/// MIN_SHARE or more. Empty where too few are open or the hottest holds
/// nearly all the time.
pub fn kernels(profile: &Value, done: &[String], skip: impl Fn(&str) -> bool) -> Vec<(String, f64)> {
    let rows = profile["kernels"].as_array().map(Vec::as_slice).unwrap_or_default();
    let mut open: Vec<(String, f64)> = rows
        .iter()
        .filter_map(|r| Some((r["name"].as_str()?.to_string(), r["share"].as_f64()?)))
        .filter(|(k, share)| *share >= MIN_SHARE && !done.contains(k) && !skip(k))
        .collect();
    open.sort_by(|a, b| b.1.total_cmp(&a.1));
    let others: f64 = open.iter().skip(1).map(|(_, s)| s).sum();
    if open.len() < MIN_KERNELS || others < OTHERS_SHARE {
        return vec![];
    }
    open
}

/// The sweep's rationale: what it does, and which move each kernel took.
pub fn rationale(picked: &[(String, String)], share: f64) -> String {
    let each: Vec<String> = picked.iter().map(|(kernel, name)| format!("`{kernel}` {name}")).collect();
    format!(
        "sweep: the {} kernels not yet scheduled on this path, {:.0}% of the kernel time, each take their first-ranked schedule in one candidate, where a round per kernel would spend the budget before reaching most of them: {}",
        picked.len(),
        share * 100.0,
        each.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn profile(shares: &[(&str, f64)]) -> Value {
        json!({"kernels": shares.iter().map(|(n, s)| json!({"name": n, "share": s})).collect::<Vec<_>>()})
    }

    #[test]
    fn spread_time_sweeps_the_open_kernels_hottest_first() {
        let p = profile(&[("conv_a", 0.2), ("conv_b", 0.15), ("conv_c", 0.12), ("conv_d", 0.12), ("conv_e", 0.1), ("reshape", 0.001)]);
        let picked: Vec<String> = kernels(&p, &[], |_| false).into_iter().map(|(k, _)| k).collect();
        assert_eq!(picked, ["conv_a", "conv_b", "conv_c", "conv_d", "conv_e"], "the reshape below 1% stays out");
        // Kernels scheduled on the path, or skipped, are not swept again.
        let picked: Vec<String> = kernels(&p, &["conv_a".into()], |k| k == "conv_e").into_iter().map(|(k, _)| k).collect();
        assert!(picked.is_empty(), "three open kernels are a round each: {picked:?}");
        let picked = kernels(&p, &["conv_b".into()], |_| false);
        assert_eq!(picked.len(), 4);
    }

    #[test]
    fn one_dominant_kernel_or_few_kernels_get_no_sweep() {
        let dominant = profile(&[("matmul", 0.9), ("a", 0.03), ("b", 0.02), ("c", 0.02), ("d", 0.02)]);
        assert!(kernels(&dominant, &[], |_| false).is_empty());
        let few = profile(&[("a", 0.4), ("b", 0.3), ("c", 0.3)]);
        assert!(kernels(&few, &[], |_| false).is_empty());
        assert!(kernels(&json!({}), &[], |_| false).is_empty(), "no profile rows");
    }

    #[test]
    fn a_sweep_edited_as_text_parses_back_kernel_by_kernel() {
        use crate::session::EditBody;
        let body = EditBody::Traces(vec![("conv_a".into(), vec!["b = sch.get_sblock(\"c\")".into(), "sch.vectorize(L[1])".into()]), ("conv_b".into(), vec!["sch.unroll(L[0])".into()])]);
        let text = body.editable_text();
        assert!(text.starts_with("# kernel conv_a\n"), "{text}");
        let EditBody::Traces(back) = body.edited(text.replace("sch.unroll(L[0])", "sch.unroll(L[2])\n\n")) else { panic!("not a sweep") };
        assert_eq!(back, vec![("conv_a".into(), vec!["b = sch.get_sblock(\"c\")".to_string(), "sch.vectorize(L[1])".into()]), ("conv_b".into(), vec!["sch.unroll(L[2])".to_string()])]);
    }

    #[test]
    fn the_rationale_names_each_kernel_and_its_move() {
        let r = rationale(&[("conv_a".into(), "micro16x16".into()), ("conv_b".into(), "tile8".into())], 0.5);
        assert!(r.starts_with("sweep: the 2 kernels") && r.contains("50%") && r.contains("`conv_a` micro16x16, `conv_b` tile8"), "{r}");
    }
}
