//! Every screen rendered at 80x24 and 120x40 (TestBackend, insta). The
//! frames are text only; colours are covered by the theme tests.

mod tui_support;

use kwb::agent::EditProposal;
use kwb::ir::Layer;
use kwb::session::EditBody;
use kwb::tui::action::{Action, Msg};
use kwb::tui::requests::ReviewRequest;
use tui_support::{Fixture, SIZES};

fn each_size(name: &str, make: impl Fn(u16, u16) -> String) {
    for &(w, h) in SIZES {
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), make(w, h));
    }
}

#[test]
fn task_browser() {
    let fx = Fixture::new();
    each_size("task_browser", |w, h| fx.browser(w, h).render());
}

#[test]
fn task_browser_filtered() {
    let fx = Fixture::new();
    each_size("task_browser_filtered", |w, h| {
        let mut app = fx.browser(w, h);
        app.keys("/");
        app.type_text("soft");
        app.render()
    });
}

#[test]
fn candidate_tree() {
    let fx = Fixture::new();
    each_size("candidate_tree", |w, h| fx.opened(w, h).render());
}

#[test]
fn ir_view_l1_kernel() {
    let fx = Fixture::new();
    each_size("ir_view_l1", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("2 g j 3");
        app.render()
    });
}

#[test]
fn ir_view_l0() {
    let fx = Fixture::new();
    each_size("ir_view_l0", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("2 g 3");
        app.render()
    });
}

#[test]
fn ir_view_l2() {
    let fx = Fixture::new();
    each_size("ir_view_l2", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("3");
        app.render()
    });
}

#[test]
fn diff_unified() {
    let fx = Fixture::new();
    each_size("diff_unified", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("4");
        app.render()
    });
}

#[test]
fn diff_side_by_side() {
    let fx = Fixture::new();
    each_size("diff_side_by_side", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("4 s");
        app.render()
    });
}

#[test]
fn profiler() {
    let fx = Fixture::new();
    each_size("profiler", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("5");
        app.render()
    });
}

#[test]
fn speedup_trace() {
    let fx = Fixture::new();
    each_size("speedup_trace", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("6");
        app.render()
    });
}

#[test]
fn jobs_and_log() {
    let fx = Fixture::new();
    each_size("jobs", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("7");
        app.render()
    });
}

#[test]
fn replay_midway() {
    let fx = Fixture::new();
    each_size("replay_midway", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("# 8 enter");
        app.render()
    });
}

#[test]
fn help_popup() {
    let fx = Fixture::new();
    each_size("help", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys("?");
        app.render()
    });
}

#[test]
fn command_palette() {
    let fx = Fixture::new();
    each_size("palette", |w, h| {
        let mut app = fx.opened(w, h);
        app.keys(":");
        app.type_text("diff");
        app.render()
    });
}

#[test]
fn step_mode_review() {
    let fx = Fixture::new();
    each_size("review", |w, h| {
        let mut app = fx.opened(w, h);
        let (reply, _answer) = tokio::sync::oneshot::channel();
        let proposal = EditProposal {
            layer: Layer::L1,
            kernel: Some("relu".into()),
            body: EditBody::Trace(vec!["s.parallel(s.get_loops(\"compute\")[1])".into(), "s.vectorize(s.get_loops(\"compute\")[3])".into()]),
            rationale: "parallelise the channel loop, vectorise the innermost".into(),
        };
        app.send(Action::Msg(Msg::Review(ReviewRequest { agent: "l1-builtin".into(), parent: 0, proposal, reply })));
        app.render()
    });
}

#[test]
fn too_small_terminal() {
    let fx = Fixture::new();
    let mut app = fx.opened(36, 8);
    insta::assert_snapshot!("too_small_36x8", app.render());
}
