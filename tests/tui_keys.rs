//! The workbench driven headless by key strings through the real update
//! code: what each key sequence does to the state.

mod tui_support;

use kwb::agent::{Decision, EditProposal};
use kwb::ir::Layer;
use kwb::session::EditBody;
use kwb::tui::action::{Action, Msg};
use kwb::tui::app::Tab;
use kwb::tui::app::panes::DiffBase;
use kwb::tui::requests::{Effect, Mode, ReviewRequest};
use tui_support::Fixture;

fn review(app: &mut tui_support::Harness) -> tokio::sync::oneshot::Receiver<Decision> {
    let (reply, answer) = tokio::sync::oneshot::channel();
    let proposal = EditProposal { layer: Layer::L1, kernel: Some("relu".into()), body: EditBody::Text("def relu(): pass".into()), rationale: "vectorise".into() };
    app.send(Action::Msg(Msg::Review(ReviewRequest { agent: "l1-builtin".into(), parent: 1, proposal, reply })));
    answer
}

#[test]
fn filtering_narrows_the_list_and_escape_restores_it() {
    let fx = Fixture::new();
    let mut app = fx.browser(80, 24);
    assert_eq!(app.app.tasks.rows.len(), 3);
    app.keys("/");
    app.type_text("soft");
    assert_eq!(app.app.tasks.rows.len(), 1);
    assert_eq!(app.app.selected_task().unwrap().meta.id, "softmax");
    app.keys("esc");
    assert_eq!(app.app.tasks.rows.len(), 3);
}

#[test]
fn suites_cycle_and_levels_sort_the_list() {
    let fx = Fixture::new();
    let mut app = fx.browser(80, 24);
    let ids: Vec<String> = app.app.tasks.rows.iter().map(|i| app.app.tasks.set.as_ref().unwrap().tasks[*i].meta.id.clone()).collect();
    assert_eq!(ids.last().unwrap(), "conv_bn_relu", "level 2 after level 1: {ids:?}");
    app.keys("s");
    assert!(app.app.tasks.suite.is_some());
    assert!(app.app.tasks.rows.len() < 3);
}

#[test]
fn opening_a_task_opens_its_latest_session() {
    let fx = Fixture::new();
    let mut app = fx.browser(80, 24);
    app.keys("/");
    app.type_text("relu");
    app.keys("enter enter");
    assert_eq!(app.app.tab, Tab::Tree);
    let s = app.app.session.as_ref().expect("the relu session opened");
    assert_eq!(s.header.task, "relu");
    assert!(s.at_end());
    assert_eq!(s.tree.nodes.len(), 5);
}

#[test]
fn tree_navigation_collapse_and_jump_to_best() {
    let fx = Fixture::new();
    let mut app = fx.opened(120, 40);
    let best = app.app.session.as_ref().unwrap().tree.best().unwrap().id();
    app.keys("2 g");
    assert_eq!(app.app.tree.selected, 0);
    app.keys("j");
    assert_eq!(app.app.tree.selected, 1);
    app.keys("G");
    assert_eq!(app.app.tree.selected, app.app.tree.rows.last().unwrap().id);
    app.keys("g space");
    assert_eq!(app.app.tree.rows.len(), 1, "the root collapsed");
    app.keys("b");
    assert_eq!(app.app.tree.selected, best);
    assert!(app.app.tree.rows.iter().any(|r| r.id == best), "jumping to best shows its row");
}

#[test]
fn two_marks_switch_the_diff_to_compare_them() {
    let fx = Fixture::new();
    let mut app = fx.opened(120, 40);
    app.keys("2 g j m j m 4");
    assert_eq!(app.app.tree.marks, vec![1, 4]);
    assert_eq!(app.app.diff.base(), DiffBase::Marks);
    app.render();
    let v = app.app.diff.view.as_ref().unwrap();
    assert_eq!((v.key.0.node, v.key.1.node), (1, 4));
    app.keys("d");
    app.render();
    let v = app.app.diff.view.as_ref().unwrap();
    assert_eq!(v.key.0.node, 1, "back to parent → node");
}

#[test]
fn diff_search_finds_lines_and_moves_between_them() {
    let fx = Fixture::new();
    let mut app = fx.opened(120, 40);
    app.keys("2 g j 4");
    app.render();
    app.keys("/");
    app.type_text("parallel");
    app.keys("enter");
    let n = app.app.diff.search.matches.len();
    assert!(n >= 1, "node 1 parallelises a loop");
    let first = app.app.diff.search.current;
    app.keys("n");
    assert_eq!(app.app.diff.search.current, (first + 1) % n);
}

#[test]
fn ir_view_switches_layer_and_kernel() {
    let fx = Fixture::new();
    let mut app = fx.opened(120, 40);
    app.keys("2 g j 3");
    app.render();
    let key = &app.app.ir.view.as_ref().unwrap().0;
    assert_eq!((key.node, key.layer, key.kernel.as_deref()), (1, Layer::L1, Some("relu")), "the layer node 1 edited");
    app.keys("L");
    app.render();
    let key = &app.app.ir.view.as_ref().unwrap().0;
    assert_eq!(key.layer, Layer::L2);
    assert_eq!(key.kernel.as_deref(), Some("relu"));
    app.keys("L");
    app.render();
    assert_eq!(app.app.ir.view.as_ref().unwrap().0.kernel, None);
    app.keys("2 k 3");
    app.render();
    assert_eq!(app.app.ir.view.as_ref().unwrap().0.layer, Layer::L0, "the root is the L0 import");
}

#[test]
fn replay_steps_plays_and_jumps() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    let end = app.app.session.as_ref().unwrap().events.len();
    app.keys(", ,");
    assert_eq!(app.app.session.as_ref().unwrap().cursor, end - 2);
    app.keys("# 3 enter");
    let s = app.app.session.as_ref().unwrap();
    assert_eq!((s.cursor, s.tree.nodes.len()), (3, 1));
    app.keys("+ + p");
    assert!(app.app.session.as_ref().unwrap().playing);
    app.send(Action::Tick { ms: 1000 });
    assert!(app.app.session.as_ref().unwrap().cursor > 3);
    app.keys("p 2 G J");
    let s = app.app.session.as_ref().unwrap();
    let last = app.app.tree.selected;
    assert!(s.tree.get(last).unwrap().result.is_some(), "jumping to a node shows it evaluated");
}

#[test]
fn step_mode_run_and_accept() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    app.keys("r");
    let Some(Effect::StartRun(req)) = app.effects.pop() else { panic!("r starts a run: {:?}", app.effects) };
    assert_eq!((req.mode, req.task.as_str()), (Mode::Step, "relu"));
    assert_eq!(req.session.as_deref(), Some(fx.session().as_path()), "the open session continues");
    let mut answer = review(&mut app);
    assert_eq!(app.app.context(), "review");
    app.keys("a");
    assert!(matches!(answer.try_recv(), Ok(Decision::Accept)));
    assert!(app.app.review.is_none());
}

#[test]
fn step_mode_retry_with_a_hint_and_reject() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    let mut answer = review(&mut app);
    app.keys("h");
    app.type_text("tile the k loop");
    app.keys("enter");
    match answer.try_recv() {
        Ok(Decision::Retry { hint }) => assert_eq!(hint, "tile the k loop"),
        other => panic!("expected a retry, got {other:?}"),
    }
    let mut answer = review(&mut app);
    app.keys("r");
    assert!(matches!(answer.try_recv(), Ok(Decision::Reject)));
}

#[test]
fn editing_a_proposal_replaces_it() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    let mut answer = review(&mut app);
    app.keys("e");
    assert!(matches!(app.effects.last(), Some(Effect::OpenEditor { .. })));
    app.send(Action::Msg(Msg::EditorClosed { purpose: kwb::tui::requests::EditorPurpose::Proposal, text: Some("def relu(): return 1".into()) }));
    match answer.try_recv() {
        Ok(Decision::Replace(p)) => assert!(matches!(p.body, EditBody::Text(ref t) if t.contains("return 1"))),
        other => panic!("expected a replacement, got {other:?}"),
    }
}

#[test]
fn auto_run_pause_resume_and_stop_steer_the_run() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    app.keys("2 B a");
    let Some(Effect::StartRun(req)) = app.effects.pop() else { panic!("a starts a run") };
    assert_eq!((req.mode, req.start_node), (Mode::Auto, Some(app.app.tree.selected)));
    app.keys("p");
    assert!(matches!(app.effects.pop(), Some(Effect::Steer(s)) if s.paused));
    app.keys("w");
    assert!(matches!(app.effects.pop(), Some(Effect::Steer(s)) if s.next_layer == Some(Layer::L0)));
    app.keys("x");
    assert!(matches!(app.effects.pop(), Some(Effect::Steer(s)) if s.cancelled));
    app.send(Action::Msg(Msg::RunFinished(Err("not implemented yet".into()))));
    assert!(!app.app.run.active);
    assert!(app.render().contains("not implemented yet"));
}

#[test]
fn live_events_extend_the_tree_when_following() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    let n = app.app.session.as_ref().unwrap().tree.nodes.len() as u32;
    let (_, events) = kwb::tui::synthetic::synth_session("relu", n + 1, 10);
    let mut e = events.into_iter().find(|e| matches!(&e.kind, kwb::session::EventKind::Edit { node } if node.id == n)).unwrap();
    if let kwb::session::EventKind::Edit { node } = &mut e.kind {
        node.parent = Some(0);
    }
    app.send(Action::Msg(Msg::RunEvent(e)));
    assert_eq!(app.app.session.as_ref().unwrap().tree.nodes.len() as u32, n + 1);
}

#[test]
fn manual_edit_asks_for_the_selected_layer() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    app.keys("2 g j 3 E");
    let Some(Effect::StartManual(req)) = app.effects.pop() else { panic!("E starts a manual edit") };
    assert_eq!((req.parent, req.layer, req.kernel.as_deref()), (1, Layer::L1, Some("relu")));
    assert!(req.text.contains("T.prim_func"), "{}", req.text);
}

#[test]
fn palette_runs_an_action_by_name() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    app.keys("2 g :");
    app.type_text("jump best");
    app.keys("enter");
    assert!(app.app.popup.is_none());
    assert_eq!(Some(app.app.tree.selected), app.app.session.as_ref().unwrap().tree.best().map(|n| n.id()));
}

#[test]
fn help_lists_live_keys_and_closes() {
    let fx = Fixture::new();
    let mut app = fx.opened(120, 40);
    app.keys("?");
    let frame = app.render();
    assert!(frame.contains("quit — Leave the workbench"), "{frame}");
    app.keys("pagedown pagedown");
    let frame = app.render();
    assert!(frame.contains("b          ") && frame.contains("jump_best"), "{frame}");
    app.keys("esc");
    assert!(app.app.popup.is_none());
}

#[test]
fn tabs_cycle_and_mouse_clicks_select() {
    let fx = Fixture::new();
    let mut app = fx.opened(120, 40);
    app.keys("1 tab");
    assert_eq!(app.app.tab, Tab::Tree);
    app.keys("backtab backtab");
    assert_eq!(app.app.tab, Tab::Jobs);
    app.send(Action::ClickRow { x: 12, y: 0 });
    assert_eq!(app.app.tab, Tab::Tree);
    app.keys("f12");
    app.send(Action::ClickRow { x: 2, y: 0 });
    assert_eq!(app.app.tab, Tab::Tree, "mouse off ignores clicks");
}

#[test]
fn ctrl_z_suspends_and_quit_quits() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    app.keys("ctrl-z");
    assert!(matches!(app.effects.pop(), Some(Effect::Suspend)));
    app.keys("q");
    assert!(app.app.quit);
}

#[test]
fn a_resize_below_the_minimum_degrades_and_recovers() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    app.resize(30, 8);
    assert!(app.render().contains("kwb needs at least"));
    app.resize(80, 24);
    assert!(app.render().contains("Candidate tree"));
}

#[test]
fn vim_keymap_waits_for_g_g() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    let mut warnings = vec![];
    app.app.config.keymap = kwb::tui::config::keymap::Keymap::load(Some("vim"), None, &mut warnings);
    assert!(warnings.is_empty(), "{warnings:?}");
    app.keys("2 G g");
    assert_ne!(app.app.tree.selected, 0, "one g waits");
    app.keys("g");
    assert_eq!(app.app.tree.selected, 0);
}

#[test]
fn every_screen_draws_at_small_sizes_without_panicking() {
    let fx = Fixture::new();
    for (w, h) in [(40, 10), (52, 12), (64, 16), (79, 23), (200, 60)] {
        let mut app = fx.opened(w, h);
        for keys in ["1", "2", "3", "4", "4 s", "5", "6", "7", "?", "esc :", "esc 2 e"] {
            app.keys(keys);
            let frame = app.render();
            assert!(frame.contains("Tasks"), "{w}x{h} after {keys}:\n{frame}");
        }
    }
}

#[test]
fn resume_continues_the_open_session_from_the_selected_node() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    app.keys("2 g j R");
    let Some(Effect::StartRun(req)) = app.effects.pop() else { panic!("R resumes: {:?}", app.effects) };
    assert_eq!((req.session.as_deref(), req.start_node, req.mode), (Some(fx.session().as_path()), Some(1), Mode::Step));
    app.keys("R");
    assert!(app.effects.is_empty(), "a second run is refused while one is going");
}

#[test]
fn a_burst_of_config_changes_reloads_once() {
    let fx = Fixture::new();
    let mut app = fx.opened(80, 24);
    for _ in 0..5 {
        app.send(Action::Msg(Msg::ConfigChanged));
    }
    assert_eq!(app.effects.iter().filter(|e| matches!(e, Effect::ReloadConfig)).count(), 1);
    app.send(Action::Tick { ms: 600 });
    app.send(Action::Msg(Msg::ConfigChanged));
    assert_eq!(app.effects.iter().filter(|e| matches!(e, Effect::ReloadConfig)).count(), 2);
}

#[test]
fn the_device_picker_lists_probed_devices_and_switches_only_to_a_reachable_one() {
    use kwb::tui::requests::DeviceRow;
    let fx = Fixture::new();
    let mut app = fx.opened(100, 24);
    app.keys("D");
    assert!(matches!(app.effects.pop(), Some(Effect::ListDevices)), "D asks for the devices");
    let row = |name: &str, kind: &str, reachable: bool, detail: &str| DeviceRow { name: name.into(), kind: kind.into(), reachable, detail: detail.into() };
    let rows = vec![
        row("local-cpu", "local", true, "this machine"),
        row("board", "rpc", false, "tracker 127.0.0.1:9190: connection refused"),
        row("board2", "rpc", true, "tracker 127.0.0.1:9390: key k1: 2 free, 0 pending"),
    ];
    app.send(Action::Msg(Msg::Devices(Ok(rows))));
    let screen = app.render();
    assert!(screen.contains("board2") && screen.contains("unreachable") && screen.contains("2 free"), "{screen}");
    app.keys("j enter");
    assert!(app.effects.is_empty(), "an unreachable device is not switched to: {:?}", app.effects);
    assert!(app.render().contains("cannot be reached"), "the picker says why");
    app.keys("j enter");
    assert!(matches!(app.effects.pop(), Some(Effect::SwitchDevice(n)) if n == "board2"));
    app.send(Action::Msg(Msg::DeviceSwitched(Ok("board2".into()))));
    app.send(Action::Msg(Msg::EngineReady));
    assert_eq!(app.app.device, "board2");
    assert!(app.render().contains("timing on board2"), "the header names the device");
    // A run in progress keeps its device.
    app.keys("2 B a");
    assert!(matches!(app.effects.pop(), Some(Effect::StartRun(_))));
    app.send(Action::Msg(Msg::RunStarted { session: "/tmp/x.jsonl".into(), mode: Mode::Auto }));
    app.effects.clear();
    app.keys("D");
    assert!(!app.effects.iter().any(|e| matches!(e, Effect::ListDevices)), "no switch while a run times on board2");
    assert!(app.render().contains("stop the run first"));
}

#[test]
fn a_device_that_goes_away_mid_run_is_shown_and_the_run_goes_on() {
    let fx = Fixture::new();
    let mut app = fx.opened(120, 24);
    app.send(Action::Msg(Msg::EngineReady));
    app.keys("2 B a");
    assert!(matches!(app.effects.pop(), Some(Effect::StartRun(_))));
    let log = std::fs::read_to_string(tui_support::fixture_log()).unwrap();
    let finished: serde_json::Value = log.lines().map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()).find(|e| e["type"] == "eval_finished").unwrap();
    let event = |seq: u64, class: Option<&str>| {
        let mut e = finished.clone();
        e["seq"] = seq.into();
        if let Some(c) = class {
            e["result"]["correct"] = false.into();
            e["result"]["failure_class"] = c.into();
            e["result"]["failure"] = serde_json::json!({"class": c, "message": "no RPC tracker answers at 127.0.0.1:9390"});
        }
        serde_json::from_value::<kwb::session::Event>(e).unwrap()
    };
    app.send(Action::Msg(Msg::RunEvent(event(1000, Some("device")))));
    let screen = app.render();
    assert!(screen.contains("local-cpu unreachable"), "the header says the device went away:\n{screen}");
    assert!(screen.contains("went away"), "{screen}");
    assert!(app.app.run.active, "the run goes on");
    app.keys("7");
    assert!(app.render().contains("no RPC tracker answers"), "the jobs pane says why");
    app.send(Action::Msg(Msg::RunEvent(event(1001, Some("numeric_mismatch")))));
    assert!(!app.render().contains("unreachable"), "an evaluation that reached the device clears it");
}
