//! What an LLM agent is told before it proposes: the task, the node's text at
//! its layer, how the node fared, the profile, the person's hint, the budget.

use crate::agent::AgentContext;
use crate::ir::Layer;
use crate::llm::reply::shorten;
use crate::session::tree::Node;
use serde_json::Value;

/// The longest text of one layer put into a prompt; past this the model is
/// told to page with `view_layer`. Whole-model LLVM IR can run to megabytes.
pub(crate) const MAX_TEXT_CHARS: usize = 120_000;

/// Which kernel an L1/L2 agent works on: the one the profile names slowest,
/// else the first. None when the node has no kernels.
pub(crate) fn pick_kernel(ctx: &AgentContext<'_>) -> Option<String> {
    let node = ctx.tree.get(ctx.node)?;
    let kernels = node.record.texts.kernels();
    let slowest = profile_kernels(ctx.profile)
        .into_iter()
        .filter(|(name, _)| kernels.contains(&name.as_str()))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(name, _)| name);
    slowest.or_else(|| kernels.first().map(|k| k.to_string()))
}

/// `kernels: [{name, ms}]` from a profile, in its order.
pub(crate) fn profile_kernels(profile: Option<&Value>) -> Vec<(String, f64)> {
    let Some(list) = profile.and_then(|p| p.get("kernels")).and_then(Value::as_array) else { return vec![] };
    list.iter().filter_map(|k| Some((k.get("name")?.as_str()?.to_string(), k.get("ms")?.as_f64()?))).collect()
}

/// Text cut at `max` characters with a note saying how to see the rest.
pub(crate) fn capped(text: &str, max: usize, how_to_see_all: &str) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let cut: String = text.chars().take(max).collect();
    format!("{cut}\n... [cut: {} more characters; {how_to_see_all}]", text.chars().count() - max)
}

/// The fence language for a layer's text.
fn lang(layer: Layer) -> &'static str {
    match layer {
        Layer::L0 | Layer::L1 => "tvmscript",
        Layer::L2 => "llvm",
    }
}

/// The user message that opens a proposal. `layer`/`kernel` is what the
/// agent is asked to edit (L0 for one-shot and, as the overview, for flat).
pub(crate) fn user_message(ctx: &AgentContext<'_>, layer: Layer, kernel: Option<&str>, flat: bool) -> String {
    let mut m = String::new();
    let task = &ctx.task.meta;
    m.push_str(&format!("## Task `{}`\n", task.id));
    if !task.title.is_empty() {
        m.push_str(&format!("{}\n", task.title));
    }
    m.push_str(&format!("Level {}, dtype {}, tolerance atol {} rtol {}.\n\n", task.level, task.dtype, task.tolerance.atol, task.tolerance.rtol));
    let model = ctx.task.dir.join("model.py");
    match std::fs::read_to_string(&model) {
        Ok(src) => m.push_str(&format!("### PyTorch source (model.py)\n```python\n{}\n```\n\n", capped(src.trim_end(), 20_000, "the rest is not needed"))),
        Err(e) => m.push_str(&format!("(model.py could not be read: {e})\n\n")),
    }
    let Some(node) = ctx.tree.get(ctx.node) else {
        m.push_str(&format!("Node #{} is not in the tree.\n", ctx.node));
        return m;
    };
    history(ctx, &mut m);
    m.push_str(&format!("## Current candidate: node #{} ({} edit by {})\n", node.id(), node.record.layer, node.record.author));
    let kernels = node.record.texts.kernels();
    if !kernels.is_empty() {
        let times = profile_kernels(ctx.profile);
        let listed: Vec<String> = kernels
            .iter()
            .map(|k| match times.iter().find(|(n, _)| n == k) {
                Some((_, ms)) => format!("{k} ({ms:.3} ms)"),
                None => k.to_string(),
            })
            .collect();
        m.push_str(&format!("Kernels: {}\n", listed.join(", ")));
    }
    m.push('\n');
    let mut show = |layer: Layer, kernel: Option<&str>| {
        let what = match kernel {
            Some(k) => format!("{} of kernel `{k}`", layer.name()),
            None => layer.name().to_string(),
        };
        match node.record.texts.text(layer, kernel) {
            Some(t) => m.push_str(&format!(
                "### {what}\n```{}\n{}\n```\n\n",
                lang(layer),
                capped(t.trim_end(), MAX_TEXT_CHARS, "call view_layer for the whole text")
            )),
            None => m.push_str(&format!("### {what}\n(not available)\n\n")),
        }
    };
    show(layer, if layer == Layer::L0 { None } else { kernel });
    if flat && let Some(k) = kernel {
        show(Layer::L1, Some(k));
    }
    evaluation(node, &mut m);
    refusals(ctx, &mut m);
    if let Some(p) = ctx.profile {
        m.push_str(&format!("## Profile of node #{}\n```json\n{}\n```\n\n", node.id(), capped(&p.to_string(), 4_000, "call profile for all of it")));
    }
    if let Some(h) = ctx.hint.filter(|h| !h.trim().is_empty()) {
        m.push_str(&format!("## Hint from the person steering this session\n{}\n\n", h.trim()));
    }
    let b = &ctx.budget;
    m.push_str(&format!(
        "## Budget left\n{:.0} s wall clock, {} candidates, {} tokens, {:.0} s of device time.\n\n",
        b.wall.as_secs_f64(),
        b.candidates,
        b.tokens,
        b.device.as_secs_f64()
    ));
    m.push_str(&match (flat, layer, kernel) {
        (true, _, _) => "Propose one edit at the layer that pays most, in the reply format.".to_string(),
        (false, Layer::L0, _) => "Propose one L0 edit: the complete module, in the reply format.".to_string(),
        (false, l, Some(k)) => format!("Propose one {l} edit of kernel `{k}`, in the reply format."),
        (false, l, None) => format!("Propose one {l} edit, in the reply format."),
    });
    m
}

/// The branch so far (newest last), so the model sees what was already tried.
fn history(ctx: &AgentContext<'_>, m: &mut String) {
    let path = ctx.tree.path_to(ctx.node);
    if path.len() < 2 {
        return;
    }
    m.push_str("## This branch so far\n");
    let skip = path.len().saturating_sub(8);
    for id in &path[skip..] {
        if let Some(n) = ctx.tree.get(*id) {
            let kernel = n.record.kernel.as_deref().map(|k| format!(" [{k}]")).unwrap_or_default();
            m.push_str(&format!("- #{} {}{} by {}: {} -- {}\n", n.id(), n.record.layer, kernel, n.record.author, outcome(n), shorten(&n.record.rationale, 160)));
        }
    }
    m.push('\n');
}

fn outcome(n: &Node) -> String {
    match &n.result {
        None => "not evaluated".into(),
        Some(r) if !r.correct => format!("failed ({})", r.failure_class.map(|c| c.to_string()).unwrap_or_else(|| "incorrect".into())),
        Some(r) => match (r.speedup_median, r.timing_valid) {
            (Some(x), true) => format!("correct, {x:.3}x"),
            (Some(x), false) => format!("correct, {x:.3}x (timing invalid)"),
            _ => "correct, not timed".into(),
        },
    }
}

fn evaluation(node: &Node, m: &mut String) {
    m.push_str(&format!("## Last evaluation of node #{}\n", node.id()));
    let Some(r) = &node.result else {
        m.push_str("Not evaluated yet.\n\n");
        return;
    };
    m.push_str(&format!("Compiles: {}. Correct: {}.", r.compile_ok, r.correct));
    if let Some(x) = r.speedup_median {
        m.push_str(&format!(" Speedup over tuned TVM: {x:.3}x (median of {} pairs, timing {}).", r.pair_count, if r.timing_valid { "valid" } else { "invalid" }));
    }
    if let (Some(c), Some(b)) = (r.candidate_ms, r.baseline_ms) {
        m.push_str(&format!(" Candidate {c:.4} ms, baseline {b:.4} ms."));
    }
    if let Some(f) = &r.failure {
        m.push_str(&format!("\nFailure ({}): {}", f.class, capped(&f.message, 2_000, "see the session log")));
    }
    m.push_str("\n\n");
}

/// Edits from this node that were refused before building: don't repeat them.
fn refusals(ctx: &AgentContext<'_>, m: &mut String) {
    let mine: Vec<_> = ctx.tree.refusals.iter().filter(|r| r.parent == ctx.node).collect();
    if mine.is_empty() {
        return;
    }
    m.push_str("## Edits from this node that were refused (do not repeat them)\n");
    for r in mine.iter().rev().take(3) {
        m.push_str(&format!("- by {} ({}): {}\n", r.author, r.failure.class, capped(&r.failure.message, 600, "")));
    }
    m.push('\n');
}
