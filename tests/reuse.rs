//! A schedule that won on one branch is carried to another branch whose
//! kernel has the same text: through the real binary and engine, the
//! built-in L1 agent's first proposal there is that schedule, and the
//! node it makes is correct.

mod common;

use common::{events, kwb, text};
use serde_json::Value;

fn view(session: &str, node: u32, layer: &str, kernel: Option<&str>) -> String {
    let n = node.to_string();
    let mut args = vec!["session", "view", session, "--node", &n, "--layer", layer];
    if let Some(k) = kernel {
        args.extend(["--kernel", k]);
    }
    let out = kwb(&args);
    assert!(out.status.success(), "{}", text(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_schedule_that_won_on_one_branch_is_carried_to_a_kernel_with_its_text() {
    let dir = tempfile::tempdir().unwrap();
    let s = dir.path().join("mm.jsonl");
    let session = s.to_str().unwrap();
    let out = kwb(&["session", "new", "--task", "matmul_256", "--out", session]);
    assert!(out.status.success(), "{}", text(&out));
    // A second branch: the graph as it is, with a comment, so node 1's
    // kernels read exactly as the root's.
    let l0 = dir.path().join("l0.py");
    std::fs::write(&l0, format!("# the same graph\n{}", view(session, 0, "L0", None))).unwrap();
    let out = kwb(&["session", "edit", session, "--node", "0", "--layer", "L0", "--file", l0.to_str().unwrap(), "--rationale", "a second branch"]);
    assert!(out.status.success(), "{}", text(&out));
    let kernel = "matmul";
    assert_eq!(view(session, 1, "L1", Some(kernel)), view(session, 0, "L1", Some(kernel)), "the branch's kernel reads as the root's");
    // The agents schedule the root's matmul (a register tile: several times
    // the default schedule's speed).
    let run = |node: &str, n: &str| kwb(&["run", "--task", "matmul_256", "--session", session, "--node", node, "--budget", "6m", "--candidates", n, "--baseline", "default", "--json"]);
    let out = run("0", "2");
    assert!(out.status.success(), "{}", text(&out));
    let ev = events(&s);
    let speed = |id: u64| ev.iter().rev().find(|e| e["type"] == "eval_finished" && e["node"] == id && e["result"]["correct"] == true).and_then(|e| e["result"]["speedup_median"].as_f64());
    let root = speed(0).expect("the root is correct");
    let winner = ev
        .iter()
        .filter(|e| e["type"] == "edit" && e["node"]["parent"] == 0 && e["node"]["layer"] == "L1" && e["node"]["kernel"] == kernel)
        .filter_map(|e| Some((e["node"]["id"].as_u64()?, speed(e["node"]["id"].as_u64()?)?)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .filter(|(_, s)| *s > 1.5 * root)
        .unwrap_or_else(|| panic!("no schedule of the root's matmul won clearly (root {root}): {}", text(&out)));
    // From the other branch, the first L1 proposal is that schedule.
    let before = ev.iter().filter(|e| e["type"] == "edit").count();
    let out = run("1", "2");
    assert!(out.status.success(), "{}", text(&out));
    let ev = events(&s);
    let new: Vec<&Value> = ev.iter().filter(|e| e["type"] == "edit").skip(before).collect();
    let first = new.first().unwrap_or_else(|| panic!("no edit from node 1: {}", text(&out)));
    let node = &first["node"];
    assert_eq!((node["parent"].as_u64(), node["layer"].as_str(), node["kernel"].as_str()), (Some(1), Some("L1"), Some(kernel)), "{node}");
    let rationale = node["rationale"].as_str().unwrap();
    assert!(rationale.starts_with("reuse-") && rationale.contains(&format!("node {}", winner.0)), "{rationale}");
    let id = node["id"].as_u64().unwrap();
    assert_eq!(view(session, id as u32, "L1", Some(kernel)), view(session, winner.0 as u32, "L1", Some(kernel)), "the kernel takes the winner's schedule");
    // The kernel had its round on the other branch: no more of its moves here.
    let again: Vec<&str> = new.iter().skip(1).filter(|e| e["node"]["parent"] == 1 && e["node"]["kernel"] == kernel).filter_map(|e| e["node"]["rationale"].as_str()).collect();
    assert!(again.is_empty(), "node 1's matmul was scheduled again after the reuse: {again:?}");
    let fin = ev.iter().rev().find(|e| e["type"] == "eval_finished" && e["node"] == id).expect("the reuse was evaluated");
    assert_eq!(fin["result"]["correct"], true, "{fin}");
    assert!(fin["result"]["speedup_median"].as_f64().unwrap() > 1.5 * root, "the carried schedule is as fast there: {fin}");
}
