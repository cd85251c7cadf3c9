//! Turning a model's final answer into an edit: which layer and kernel it is
//! for, and whether an L1 block is a schedule trace or a whole PrimFunc.

use crate::agent::EditProposal;
use crate::ir::Layer;
use crate::llm::StopReason;
use crate::llm::reply::{CodeBlock, Reply, parse_reply, shorten};
use crate::session::EditBody;

/// What the agent asked for: its layer (None: flat, the reply decides) and the kernel it showed.
pub(crate) struct Target<'a> {
    pub layer: Option<Layer>,
    pub kernel: Option<&'a str>,
    pub kernels: &'a [&'a str],
}

/// The edit in `text`, or why there is none.
pub(crate) fn to_proposal(text: &str, stop: &StopReason, target: &Target<'_>) -> Result<EditProposal, String> {
    let reply = parse_reply(text);
    let Some(block) = &reply.block else { return Err(no_block(text, stop, &reply)) };
    if block.body.trim().is_empty() {
        return Err("the reply's code block is empty".into());
    }
    let layer = match target.layer {
        Some(l) => l,
        None => match reply.layer.as_deref() {
            Some(s) => Layer::parse(s).ok_or_else(|| format!("the reply names layer `{s}`; it must be L0, L1 or L2"))?,
            None => infer_layer(block).ok_or("the reply does not say which layer its code is for (no `Layer:` line) and the code does not show it")?,
        },
    };
    let kernel = match layer {
        Layer::L0 => None,
        Layer::L1 | Layer::L2 => Some(pick_kernel(&reply, target)?),
    };
    let body = match layer {
        Layer::L1 if is_trace(block) => EditBody::Trace(block.body.lines().filter(|l| !l.trim().is_empty()).map(str::to_string).collect()),
        _ => EditBody::Text(format!("{}\n", block.body.trim_end())),
    };
    let rationale = if reply.rationale.is_empty() { "(no rationale given)".to_string() } else { reply.rationale.clone() };
    Ok(EditProposal { layer, kernel, body, rationale })
}

fn no_block(text: &str, stop: &StopReason, reply: &Reply) -> String {
    if reply.unclosed || *stop == StopReason::MaxTokens {
        return "the reply was cut off at max_tokens before its code block closed; raise `max_tokens` for this provider in llm.toml".into();
    }
    if text.trim().is_empty() {
        return "the model sent an empty reply".into();
    }
    format!("the reply holds no code block: {}", shorten(text, 300))
}

/// The kernel the reply names, when the node has it; else the one the agent showed.
fn pick_kernel(reply: &Reply, target: &Target<'_>) -> Result<String, String> {
    match reply.kernel.as_deref() {
        Some(k) if target.kernels.contains(&k) => Ok(k.to_string()),
        Some(k) => Err(format!("the reply names kernel `{k}`, which this node does not have (kernels: {})", target.kernels.join(", "))),
        None => target.kernel.map(str::to_string).ok_or_else(|| "the reply names no kernel (no `Kernel:` line) and none was shown".to_string()),
    }
}

/// An L1 block is a full PrimFunc when it starts (after blank lines) with the
/// TVMScript header or the decorator; else, in a python block, a trace.
fn is_trace(block: &CodeBlock) -> bool {
    let first = block.body.lines().map(str::trim).find(|l| !l.is_empty()).unwrap_or("");
    let full_func = first.starts_with("# from tvm.script") || first.starts_with("@T.prim_func") || block.body.contains("@T.prim_func");
    !full_func && matches!(block.lang.as_str(), "python" | "py" | "")
}

/// A flat agent's layer when the reply does not say it.
fn infer_layer(block: &CodeBlock) -> Option<Layer> {
    let b = &block.body;
    if block.lang == "llvm" || b.contains("define ") && (b.contains("@__tvm_ffi") || b.trim_start().starts_with(';')) {
        Some(Layer::L2)
    } else if b.contains("@R.function") || b.contains("@I.ir_module") {
        Some(Layer::L0)
    } else if b.contains("@T.prim_func") || b.contains("sch.") {
        Some(Layer::L1)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KERNELS: &[&str] = &["relu", "matmul"];

    fn target(layer: Option<Layer>) -> Target<'static> {
        Target { layer, kernel: Some("relu"), kernels: KERNELS }
    }

    #[test]
    fn l1_python_is_a_trace_and_tvmscript_is_a_function() {
        let p = to_proposal("Parallel.\n```python\nb = sch.get_sblock(\"compute\")\n\nsch.parallel(sch.get_loops(b)[0])\n```", &StopReason::EndTurn, &target(Some(Layer::L1))).unwrap();
        assert!(matches!(&p.body, EditBody::Trace(l) if l.len() == 2));
        assert_eq!(p.kernel.as_deref(), Some("relu"));
        let p = to_proposal("F.\n```python\n# from tvm.script import tirx as T\n@T.prim_func\ndef main(): pass\n```", &StopReason::EndTurn, &target(Some(Layer::L1))).unwrap();
        assert!(matches!(p.body, EditBody::Text(_)));
    }

    #[test]
    fn flat_replies_say_or_show_their_layer() {
        let p = to_proposal("Why.\nLayer: L2\nKernel: matmul\n```llvm\ndefine void @f() {\n}\n```", &StopReason::EndTurn, &target(None)).unwrap();
        assert_eq!((p.layer, p.kernel.as_deref()), (Layer::L2, Some("matmul")));
        let p = to_proposal("Why.\n```tvmscript\n@I.ir_module\nclass Module:\n  pass\n```", &StopReason::EndTurn, &target(None)).unwrap();
        assert_eq!((p.layer, p.kernel), (Layer::L0, None));
        assert!(to_proposal("Why.\n```text\nhello\n```", &StopReason::EndTurn, &target(None)).unwrap_err().contains("which layer"));
    }

    #[test]
    fn unknown_kernels_and_missing_blocks_are_refused_with_reasons() {
        let e = to_proposal("Kernel: conv\n```python\nsch.parallel(x)\n```", &StopReason::EndTurn, &target(Some(Layer::L1))).unwrap_err();
        assert!(e.contains("`conv`") && e.contains("relu, matmul"), "{e}");
        assert!(to_proposal("I would tile it.", &StopReason::EndTurn, &target(Some(Layer::L1))).unwrap_err().contains("no code block"));
        assert!(to_proposal("Tile.\n```python\nsch.", &StopReason::MaxTokens, &target(Some(Layer::L1))).unwrap_err().contains("max_tokens"));
    }
}
