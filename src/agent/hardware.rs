//! The hardware agent: read-only. It profiles a candidate (per-kernel times
//! measured in place, FLOPs and bytes per kernel, launches and allocations),
//! places each kernel on this machine's roofline, names the bottleneck and
//! routes it to the layer that owns it. The routing and its evidence are
//! logged with the profile, so a person can see why a layer was chosen.

use crate::engine::Job;
use crate::failure::Failure;
use crate::ir::{Layer, LayerTexts};
use crate::roofline::Machine;
use crate::session::tree::CandidateTree;
use crate::tasks::Task;
use serde_json::{Value, json};
use std::time::Duration;

/// What the routing rules look at, besides the profile itself.
pub struct PathFacts {
    /// Kernels already rescheduled at L1 on the way to this node.
    pub l1_kernels: Vec<String>,
    /// Kernels whose target code was already edited on the way here.
    pub l2_kernels: Vec<String>,
    /// Graph (L0) edits already made on the way here.
    pub l0_edits: u32,
}

/// Graph edits one path may make. A second is routed only for a reason
/// still in the graph after the first (an NCHW convolution left after
/// fast-math, say): every move is one rewrite, and some pairs are worth
/// more than either alone (convnext_block needs both).
pub const MAX_L0_EDITS: u32 = 2;

impl PathFacts {
    pub fn of(tree: &CandidateTree, node: u32) -> Self {
        let mut f = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        for id in tree.path_to(node) {
            let Some(n) = tree.get(id) else { continue };
            if n.record.parent.is_none() {
                continue;
            }
            match (n.record.layer, &n.record.kernel) {
                (Layer::L0, _) => f.l0_edits += 1,
                (Layer::L1, Some(k)) => f.l1_kernels.push(k.clone()),
                // A sweep names no kernel: it rescheduled each kernel whose
                // text it changed.
                (Layer::L1, None) => {
                    let before = n.record.parent.and_then(|p| tree.get(p)).map(|p| &p.record.texts.l1);
                    let changed = n.record.texts.l1.iter().filter(|(k, t)| before.and_then(|b| b.get(*k)) != Some(*t));
                    f.l1_kernels.extend(changed.map(|(k, _)| k.clone()));
                }
                (Layer::L2, Some(k)) => f.l2_kernels.push(k.clone()),
                _ => {}
            }
        }
        f
    }
}

/// Runs the engine's profile job on a node's layers.
pub async fn measure(engine: &crate::engine::Engine, target: &Value, task: &Task, texts: &LayerTexts) -> Result<Value, Failure> {
    let spec = task.reference_meta().map_err(|e| Failure::new(crate::failure::FailureClass::Task, format!("{e:#}")))?;
    let args = json!({"l1_module": texts.l1_module, "l2_overrides": texts.l2_overrides, "target": target, "args_spec": spec.args});
    // Exclusive: the profile times kernels, so nothing else may run meanwhile.
    let out = engine.run(Job::new("profile", args, Duration::from_secs(300)).exclusive()).await?;
    Ok(out.result)
}

/// Relax ops whose elementwise transcendentals have a vectorizable form.
const LIBM_OPS: [&str; 8] = ["R.nn.softmax(", "R.nn.log_softmax(", "R.exp(", "R.tanh(", "R.erf(", "R.sigmoid(", "R.nn.gelu(", "R.nn.gelu_tanh("];

/// Adds roofline figures per kernel, then the bottleneck and its route.
/// `exhausted` lists layers that have nothing left to try at this node.
pub fn analyse(mut profile: Value, machine: Option<&Machine>, facts: &PathFacts, l0_text: &str, exhausted: &[Layer]) -> Value {
    let total = profile["total_ms"].as_f64().unwrap_or(0.0);
    let overhead = profile["overhead_ms"].as_f64().unwrap_or(0.0);
    let launches = profile["launches"].as_f64().unwrap_or(0.0);
    if let Some(rows) = profile["kernels"].as_array_mut() {
        for r in rows.iter_mut() {
            let (ms, flops, bytes) = (r["ms"].as_f64().unwrap_or(0.0), r["flops"].as_f64().unwrap_or(0.0), r["bytes"].as_f64().unwrap_or(0.0));
            if let Some(m) = machine
                && ms > 0.0
                && bytes > 0.0
            {
                let bw = m.bandwidth_for(bytes as u64);
                let ridge = m.peak_flops / bw;
                let intensity = flops / bytes;
                let attainable = m.peak_flops.min(intensity * bw);
                let achieved = if flops > 0.0 { flops / (ms / 1e3) } else { bytes / (ms / 1e3) };
                let share = if flops > 0.0 { achieved / attainable } else { achieved / bw };
                r["roofline_share"] = json!(share);
                r["bound"] = json!(if intensity >= ridge { "compute" } else { "memory" });
                r["intensity"] = json!(intensity);
            }
        }
    }
    let top = profile["kernels"].as_array().and_then(|k| k.first()).cloned().unwrap_or(Value::Null);
    let top_name = top["name"].as_str().unwrap_or("").to_string();
    let top_share = top["share"].as_f64().unwrap_or(0.0);
    let roof = top["roofline_share"].as_f64();
    let has_nchw_conv = l0_text.contains("R.nn.conv2d") && !l0_text.contains("data_layout=\"NHWC\"") && !only_depthwise_convs(l0_text);

    // Candidates in order of what the evidence says; the first layer that is
    // not exhausted wins.
    let mut routes: Vec<(Layer, String, String)> = vec![];
    let overhead_share = if total > 0.0 { overhead / total } else { 0.0 };
    // An L0 edit derives L1 and L2 again from the new graph, so the
    // schedules and target-code edits made on the way here would be lost:
    // graph rewrites are routed only from nodes without them.
    let unscheduled = facts.l1_kernels.is_empty() && facts.l2_kernels.is_empty();
    let l0_open = facts.l0_edits == 0 && unscheduled;
    // A reason found in the graph's text may be routed to L0 again after
    // one edit that left it there.
    let l0_again = facts.l0_edits < MAX_L0_EDITS && unscheduled;
    if launches >= 8.0 && overhead_share > 0.25 && l0_open {
        routes.push((Layer::L0, "launch and allocation overhead".into(), format!("{launches:.0} kernel launches per run; {:.0}% of {total:.3} ms is outside the kernels", overhead_share * 100.0)));
    }
    // The graph ops TVM has polynomial forms for (its FastMath pass): as
    // written they lower to a libm call per element, which no schedule
    // vectorizes (softmax at 3% of its roofline, eager 4x faster).
    let libm_op = LIBM_OPS.iter().find(|op| l0_text.contains(*op));
    if let Some(op) = libm_op.filter(|_| l0_again) {
        routes.push((Layer::L0, "transcendentals".into(), format!("`{}` calls libm once per element, which does not vectorize", op.trim_end_matches('('))));
    }
    // A maximum over an axis imports as a top-1 (a sort, an extern call on
    // the CPU); written as a max reduction it is twice as fast on reduce_max.
    if l0_again && l0_text.contains("R.topk(") && l0_text.contains("k=1,") {
        routes.push((Layer::L0, "a sort for a maximum".into(), "`R.topk` with k = 1 sorts the axis to find its maximum".into()));
    }
    // A cumulative sum lowers to an opaque loop per row, one dependent
    // addition after another, which no schedule move reaches.
    if l0_again && l0_text.contains("R.cumsum(") {
        routes.push((Layer::L0, "a sequential scan".into(), "`R.cumsum` lowers to one sequential loop per row, each addition waiting on the last".into()));
    }
    if has_nchw_conv && l0_again {
        routes.push((Layer::L0, "layout".into(), "conv2d runs in NCHW: channels are not the innermost, vectorizable axis".into()));
    }
    // After the layout route: a layout move carries this rewrite too.
    if l0_again && l0_text.contains("R.nn.batch_norm(") {
        routes.push((Layer::L0, "a batch norm's passes".into(), "`R.nn.batch_norm` decomposes into four passes over the tensor, one a division per element".into()));
    }
    if !top_name.is_empty() && !facts.l1_kernels.contains(&top_name) {
        let loops = format!(
            "{} parallel, {} vectorized loops of {}",
            top["parallel"].as_u64().unwrap_or(0),
            top["vectorized"].as_u64().unwrap_or(0),
            top["loops"].as_u64().unwrap_or(0)
        );
        routes.push((
            Layer::L1,
            format!("locality and parallelism in `{top_name}`"),
            format!("`{top_name}` takes {:.0}% of kernel time ({:.3} ms){}; {loops}", top_share * 100.0, top["ms"].as_f64().unwrap_or(0.0), roof.map(|r| format!(", at {:.1}% of its {} roofline", r * 100.0, top["bound"].as_str().unwrap_or(""))).unwrap_or_default()),
        ));
    }
    // Other unscheduled kernels, slowest first.
    for k in profile["kernels"].as_array().into_iter().flatten().skip(1) {
        let name = k["name"].as_str().unwrap_or("");
        if !name.is_empty() && !facts.l1_kernels.iter().any(|x| x == name) && k["share"].as_f64().unwrap_or(0.0) > 0.05 {
            routes.push((Layer::L1, format!("locality and parallelism in `{name}`"), format!("`{name}` takes {:.0}% of kernel time and has not been scheduled", k["share"].as_f64().unwrap_or(0.0) * 100.0)));
        }
    }
    if !top_name.is_empty() && !facts.l2_kernels.contains(&top_name) {
        routes.push((Layer::L2, format!("vectorisation in `{top_name}`"), format!("`{top_name}`'s generated code has no L2 edit yet{}", roof.map(|r| format!(" and reaches {:.1}% of its roofline", r * 100.0)).unwrap_or_default())));
    }
    if l0_open {
        routes.push((Layer::L0, "graph".into(), "no graph rewrite tried on this branch yet".into()));
    }
    let chosen = routes.iter().find(|(l, _, _)| !exhausted.contains(l)).cloned();
    match chosen {
        Some((layer, bottleneck, evidence)) => {
            profile["route"] = json!(layer.to_string());
            profile["bottleneck"] = json!(bottleneck);
            profile["evidence"] = json!(evidence);
            profile["kernel"] = json!(top_name);
        }
        None => {
            profile["route"] = Value::Null;
            profile["bottleneck"] = json!("none left to route");
            profile["evidence"] = json!("every layer has nothing left to try at this node");
        }
    }
    profile["alternatives"] = json!(routes.iter().map(|(l, b, _)| format!("{l}: {b}")).collect::<Vec<_>>());
    profile
}

/// The kernel the profile names as the bottleneck at `layer`, if any.
pub fn kernel_for(profile: Option<&Value>, layer: Layer, skip: &[String]) -> Option<String> {
    let rows = profile?["kernels"].as_array()?;
    rows.iter().filter_map(|r| r["name"].as_str()).find(|n| !skip.iter().any(|s| s == n)).map(str::to_string).filter(|_| layer != Layer::L0)
}

/// Whether every convolution in the graph is depthwise (one input channel
/// per group: `groups=G` and a weight of shape `(G, 1, ...)`). Its window
/// vectorizes along each output row in NCHW (the L1 `window-vec` move, 1.95x
/// TVM's build on depthwise_conv2d), where NHWC adds a transpose on each
/// side of a kernel that reads each input nine times from cache.
fn only_depthwise_convs(l0_text: &str) -> bool {
    let calls: Vec<&str> = l0_text.split("R.nn.conv2d(").skip(1).collect();
    !calls.is_empty()
        && calls.iter().all(|call| {
            let groups = call.split("groups=").nth(1).and_then(|g| g.split(|c: char| !c.is_ascii_digit()).next()).and_then(|g| g.parse::<u64>().ok());
            groups.is_some_and(|g| g > 1 && l0_text.contains(&format!("({g}, 1, ")))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn profile() -> Value {
        json!({"total_ms": 2.0, "overhead_ms": 0.1, "launches": 2.0, "kernels": [
            {"name": "matmul", "ms": 1.5, "share": 0.8, "flops": 2.0e9, "bytes": 1.0e6, "parallel": 0, "vectorized": 0, "loops": 3},
            {"name": "add", "ms": 0.3, "share": 0.2, "flops": 1.0e5, "bytes": 1.0e6}]})
    }

    fn machine() -> Machine {
        Machine { peak_flops: 100e9, bandwidth_bytes_s: 10e9, bandwidth_by_size: vec![], method: String::new() }
    }

    #[test]
    fn an_unscheduled_hot_kernel_goes_to_l1_with_its_roofline_evidence() {
        let facts = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        let p = analyse(profile(), Some(&machine()), &facts, "R.matmul", &[]);
        assert_eq!(p["route"], "L1");
        assert_eq!(p["kernels"][0]["bound"], "compute");
        let share = p["kernels"][0]["roofline_share"].as_f64().unwrap();
        assert!((share - 2.0e9 / 1.5e-3 / 100e9).abs() < 1e-9, "{share}");
        assert!(p["evidence"].as_str().unwrap().contains("matmul"));
    }

    #[test]
    fn a_scheduled_kernel_goes_to_l2_and_never_back_to_the_graph() {
        let facts = PathFacts { l1_kernels: vec!["matmul".into(), "add".into()], l2_kernels: vec![], l0_edits: 0 };
        assert_eq!(analyse(profile(), None, &facts, "", &[])["route"], "L2");
        // An L0 edit here would derive L1 again and lose both schedules.
        assert!(analyse(profile(), None, &facts, "R.nn.conv2d(x, w)", &[Layer::L2])["route"].is_null());
        let fresh = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        assert_eq!(analyse(profile(), None, &fresh, "", &[Layer::L1, Layer::L2])["route"], "L0");
        let done = PathFacts { l1_kernels: vec!["matmul".into(), "add".into()], l2_kernels: vec!["matmul".into()], l0_edits: 1 };
        assert!(analyse(profile(), None, &done, "", &[])["route"].is_null());
    }

    #[test]
    fn a_softmax_goes_to_the_graph_layer_for_its_exp_once() {
        let fresh = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        let a = analyse(profile(), None, &fresh, "lv = R.nn.softmax(x, axis=-1)", &[]);
        assert_eq!(a["route"], "L0");
        assert!(a["evidence"].as_str().unwrap().contains("R.nn.softmax"), "{a}");
        // The ops kwb's fast-math pass writes in terms of TVM's: named as themselves.
        for op in ["R.nn.log_softmax(x, axis=-1)", "R.sigmoid(x)", "R.nn.gelu(x)", "R.nn.gelu_tanh(x)"] {
            let a = analyse(profile(), None, &fresh, &format!("lv = {op}"), &[]);
            assert_eq!(a["route"], "L0", "{op}");
            assert!(a["evidence"].as_str().unwrap().contains(op.split('(').next().unwrap()), "{a}");
        }
        // Not from a node whose schedules an L0 edit would throw away.
        let scheduled = PathFacts { l1_kernels: vec!["matmul".into()], l2_kernels: vec![], l0_edits: 0 };
        assert_eq!(analyse(profile(), None, &scheduled, "lv = R.nn.softmax(x, axis=-1)", &[])["route"], "L1");
        assert_eq!(analyse(profile(), None, &fresh, "R.matmul(x, w)", &[])["route"], "L1");
    }

    #[test]
    fn many_launches_with_overhead_go_to_the_graph_layer() {
        let mut p = profile();
        p["launches"] = json!(30.0);
        p["overhead_ms"] = json!(1.0);
        let facts = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        let a = analyse(p, None, &facts, "", &[]);
        assert_eq!(a["route"], "L0");
        assert!(a["evidence"].as_str().unwrap().contains("30 kernel launches"));
    }

    #[test]
    fn a_top1_goes_to_the_graph_layer_but_a_top3_does_not() {
        let fresh = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        let a = analyse(profile(), None, &fresh, r#"lv = R.topk(x, k=1, axis=-1, ret_type="both")"#, &[]);
        assert_eq!(a["route"], "L0");
        assert_eq!(a["bottleneck"], "a sort for a maximum");
        assert_eq!(analyse(profile(), None, &fresh, r#"lv = R.topk(x, k=3, axis=-1, ret_type="both")"#, &[])["route"], "L1");
    }

    #[test]
    fn a_cumsum_goes_to_the_graph_layer_once() {
        let fresh = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        let text = "lv = R.cumsum(x, axis=-1, dtype=None, exclusive=False)";
        let a = analyse(profile(), None, &fresh, text, &[]);
        assert_eq!((a["route"].as_str(), a["bottleneck"].as_str()), (Some("L0"), Some("a sequential scan")));
        let scheduled = PathFacts { l1_kernels: vec!["cumsum".into()], l2_kernels: vec![], l0_edits: 1 };
        assert_ne!(analyse(profile(), None, &scheduled, text, &[])["route"], "L0");
    }

    #[test]
    fn a_batch_norm_goes_to_the_graph_layer_after_a_layout_change() {
        let fresh = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        let bn = "lv = R.nn.batch_norm(x, g, b, m, v, axis=1)";
        assert_eq!(analyse(profile(), None, &fresh, bn, &[])["bottleneck"], "a batch norm's passes");
        assert_eq!(analyse(profile(), None, &fresh, &format!("R.nn.conv2d(x, w)\n{bn}"), &[])["bottleneck"], "layout");
        let twice = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: MAX_L0_EDITS };
        assert_eq!(analyse(profile(), None, &twice, bn, &[])["route"], "L1");
    }

    #[test]
    fn a_second_graph_edit_needs_a_reason_the_first_left_in_the_graph() {
        let once = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 1 };
        // fast-math done, the NCHW convolution still there: layout next.
        let a = analyse(profile(), None, &once, "R.nn.conv2d(x, w)\nlv = R.fast_erf(y)", &[]);
        assert_eq!((a["route"].as_str(), a["bottleneck"].as_str()), (Some("L0"), Some("layout")), "{a}");
        // Nothing named in the graph: no second rewrite for its own sake.
        assert_eq!(analyse(profile(), None, &once, "R.matmul(x, w)", &[Layer::L1, Layer::L2])["route"], Value::Null);
        let mut p = profile();
        p["launches"] = json!(30.0);
        p["overhead_ms"] = json!(1.0);
        assert_eq!(analyse(p, None, &once, "", &[])["route"], "L1");
        // Never past the limit, and never once a kernel is scheduled.
        let twice = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: MAX_L0_EDITS };
        assert_eq!(analyse(profile(), None, &twice, "R.nn.conv2d(x, w)", &[])["route"], "L1");
        let scheduled = PathFacts { l1_kernels: vec!["matmul".into()], l2_kernels: vec![], l0_edits: 1 };
        assert_eq!(analyse(profile(), None, &scheduled, "R.nn.conv2d(x, w)", &[])["route"], "L1");
    }

    #[test]
    fn nchw_convolutions_are_routed_to_a_layout_change() {
        let facts = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        let a = analyse(profile(), None, &facts, "R.nn.conv2d(x, w)", &[]);
        assert_eq!(a["route"], "L0");
        assert_eq!(a["bottleneck"], "layout");
    }

    #[test]
    fn a_graph_of_depthwise_convolutions_only_keeps_its_layout() {
        let facts = PathFacts { l1_kernels: vec![], l2_kernels: vec![], l0_edits: 0 };
        let depthwise = "w: R.Tensor((64, 1, 3, 3), dtype=\"float32\")\nR.nn.conv2d(x, w, strides=[1, 1], groups=64, data_layout=\"NCHW\")";
        assert_ne!(analyse(profile(), None, &facts, depthwise, &[])["bottleneck"], "layout");
        // A pointwise convolution beside it still wants the channels innermost.
        let separable = format!("{depthwise}\nR.nn.conv2d(y, v, strides=[1, 1], groups=1, data_layout=\"NCHW\")");
        assert_eq!(analyse(profile(), None, &facts, &separable, &[])["bottleneck"], "layout");
        // A grouped convolution with several channels per group is no depthwise one.
        let grouped = "w: R.Tensor((64, 4, 3, 3), dtype=\"float32\")\nR.nn.conv2d(x, w, groups=16)";
        assert_eq!(analyse(profile(), None, &facts, grouped, &[])["bottleneck"], "layout");
    }
}
