//! A sweep: one candidate in which several kernels each take a schedule
//! trace. The built-in L1 agent offers one where a graph's time is spread
//! over many kernels; the engine applies every trace or none.

mod common;

use common::moves::{l1_moves_of, req, trace_of};
use kwb::agent::builtin::BuiltinAgent;
use kwb::agent::hardware::{self, PathFacts};
use kwb::agent::{Agent, AgentContext, BoxFuture, BudgetLeft, Proposal, Tools};
use kwb::ir::Layer;
use kwb::session::runner::{EditBody, SessionRunner};
use serde_json::Value;
use std::time::Duration;

/// The built-in agent asks for nothing through these.
struct NoTools;

impl Tools for NoTools {
    fn view(&self, _: u32, _: Layer, _: Option<&str>) -> Result<String, String> {
        Err("no tools here".into())
    }
    fn diff(&self, _: u32, _: u32, _: Layer, _: Option<&str>) -> Result<String, String> {
        Err("no tools here".into())
    }
    fn evaluate<'a>(&'a self, _: u32) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async { Err("no tools here".into()) })
    }
    fn profile<'a>(&'a self, _: u32) -> BoxFuture<'a, Result<Value, String>> {
        Box::pin(async { Err("no tools here".into()) })
    }
}

fn budget() -> BudgetLeft {
    BudgetLeft { wall: Duration::from_secs(120), candidates: 10, tokens: 0, device: Duration::from_secs(120) }
}

/// qwen2_block's time is spread over six matmuls (40%, 29%, 8%, 8%, 7%,
/// 3% of it on a Zen 4 core): the L1 agent's first proposal at the root
/// is a sweep that gives each open kernel its first-ranked move. The
/// candidate is correct, exactly those kernels changed, and the path
/// counts them scheduled, so the agent's next proposal there is one
/// kernel's move and a sweep is not offered again at that node.
#[tokio::test]
async fn the_l1_agent_sweeps_a_graph_whose_time_is_spread_over_many_kernels() {
    let ev = common::evaluator(common::quick_opts()).await;
    let set = common::tasks();
    let task = set.get("qwen2_block").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("sweep.jsonl"), task, &ev).await.unwrap();
    let profile = hardware::measure(&ev.engine, &ev.opts.target, task, &s.tree.get(0).unwrap().record.texts).await.unwrap();
    let mut agent = BuiltinAgent::new(Layer::L1, ev.engine.clone(), ev.opts.target.clone());

    let turn = {
        let ctx = AgentContext { task, tree: &s.tree, node: 0, layer: Some(Layer::L1), profile: Some(&profile), hint: None, budget: budget() };
        agent.propose(&ctx, &NoTools).await.unwrap()
    };
    let Proposal::Edit(p) = turn.proposal else { panic!("no proposal: {:?}", turn.transcript) };
    let EditBody::Traces(traces) = &p.body else { panic!("not a sweep: {} {:?}", p.rationale, p.kernel) };
    let swept: Vec<String> = traces.iter().map(|(k, _)| k.clone()).collect();
    assert!(swept.len() >= 4 && p.kernel.is_none() && p.rationale.starts_with("sweep:"), "{swept:?}: {}", p.rationale);
    let hottest = profile["kernels"][0]["name"].as_str().unwrap();
    assert_eq!(swept[0], hottest, "the hottest kernel goes first");
    for k in &swept {
        assert!(p.rationale.contains(&format!("`{k}`")), "the rationale does not name {k}: {}", p.rationale);
    }

    let n = s.edit(req(0, Layer::L1, None, p.body.clone(), &p.rationale)).await.unwrap().expect("the sweep applies");
    let node = s.tree.get(n).unwrap();
    assert!(node.result.as_ref().is_some_and(|r| r.correct), "{:?}", node.result);
    let root = &s.tree.get(0).unwrap().record.texts.l1;
    let mut changed: Vec<String> = node.record.texts.l1.iter().filter(|(k, t)| root.get(*k) != Some(*t)).map(|(k, _)| k.clone()).collect();
    let mut expected = swept.clone();
    changed.sort();
    expected.sort();
    assert_eq!(changed, expected, "a sweep changes exactly the kernels it names");
    let mut done = PathFacts::of(&s.tree, n).l1_kernels;
    done.sort();
    assert_eq!(done, expected, "the path counts the swept kernels scheduled");

    // At the root again: the sweep was offered there; now one kernel's move.
    let turn = {
        let ctx = AgentContext { task, tree: &s.tree, node: 0, layer: Some(Layer::L1), profile: Some(&profile), hint: None, budget: budget() };
        agent.propose(&ctx, &NoTools).await.unwrap()
    };
    let Proposal::Edit(p) = turn.proposal else { panic!("no second proposal: {:?}", turn.transcript) };
    assert!(matches!(p.body, EditBody::Trace(_)) && p.kernel.as_deref() == Some(hottest), "{:?} {}", p.kernel, p.rationale);
}

/// Every trace applies or none does: a kernel the module lacks, or a
/// trace that fails on the second kernel, refuses the edit with the
/// kernel named, and no node is made. A sweep that also names a kernel,
/// or has no traces, is a usage error before anything is logged.
#[tokio::test]
async fn a_sweep_with_a_bad_trace_is_refused_whole_and_names_the_kernel() {
    let ev = common::evaluator(common::quick_opts()).await;
    let set = common::tasks();
    let task = set.get("qwen2_block").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut s = SessionRunner::create(&dir.path().join("bad.jsonl"), task, &ev).await.unwrap();
    let texts = s.tree.get(0).unwrap().record.texts.clone();
    let kernels: Vec<String> = texts.l1.keys().filter(|k| k.contains("matmul")).take(2).cloned().collect();
    assert_eq!(kernels.len(), 2, "{:?}", texts.l1.keys());
    let good = trace_of(&l1_moves_of(&ev, &texts.l1_module, &kernels[0]).await["moves"][0]);
    let before = s.tree.next_id();

    let unknown = EditBody::Traces(vec![(kernels[0].clone(), good.clone()), ("no_such_kernel".into(), good.clone())]);
    let f = s.edit(req(0, Layer::L1, None, unknown, "unknown")).await.unwrap().expect_err("a kernel the module lacks");
    assert!(f.to_string().contains("no_such_kernel"), "{f}");

    let broken = EditBody::Traces(vec![(kernels[0].clone(), good.clone()), (kernels[1].clone(), vec!["sch.split(sch.get_loops(sch.get_sblock(\"no_block\"))[0], [None, 4])".into()])]);
    let f = s.edit(req(0, Layer::L1, None, broken, "broken")).await.unwrap().expect_err("a trace that fails");
    assert!(f.to_string().contains(&format!("`{}`", kernels[1])), "the failure does not name the kernel: {f}");
    assert_eq!(s.tree.next_id(), before, "a refused sweep makes no node");

    let named = EditBody::Traces(vec![(kernels[0].clone(), good)]);
    assert!(s.edit(req(0, Layer::L1, Some(&kernels[0]), named, "named")).await.is_err(), "a sweep that names a kernel");
    assert!(s.edit(req(0, Layer::L1, None, EditBody::Traces(vec![]), "empty")).await.is_err(), "a sweep of nothing");
}
