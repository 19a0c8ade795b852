//! Breaking run A by hand: Shift+click on a mark, or Shift+Enter on the Events list's selected
//! row, drops that arrow or crashes the API there; the link keeps it, and the page says what it
//! set.

mod support;

use idemlab_app as app;
use idemlab_app::Msg;
use idemlab_app::{PlaybackMsg, ScenarioMsg, ScreenMsg};
use idemlab_lab::Side;
use support::load;

#[test]
fn shift_click_drops_an_arrow_or_crashes_the_api_and_the_link_keeps_it() {
    use idemlab_core::trace::{EventKind, Node};
    let mut state = load("seed=7&orders=1");
    let trace = idemlab_core::sim::run(&state.page.scenario);
    // The API's answer: dropping it makes the client retry.
    let (answer_ix, answer_msg) = (trace.events.iter().enumerate())
        .find_map(|(ix, e)| match e.kind {
            EventKind::Send {
                msg,
                to: Node::Client(_),
                ..
            } => Some((ix as u32, msg)),
            _ => None,
        })
        .unwrap();
    let msg = app::break_at(&state.page.scenario, &trace, answer_ix).unwrap();
    app::update(&mut state, msg);
    assert_eq!(state.page.scenario.drop, [answer_msg]);
    assert!(state.to_query().contains(&format!("drop={answer_msg}")));
    // The same arrow again adds nothing; a mark on the client's lane is no break.
    let trace = idemlab_core::sim::run(&state.page.scenario);
    assert_eq!(app::break_at(&state.page.scenario, &trace, answer_ix), None);
    let client_mark = (trace.events.iter().position(|e| {
        matches!(e.node, Node::Client(_)) && !matches!(e.kind, EventKind::Send { .. })
    }))
    .unwrap() as u32;
    assert_eq!(
        app::break_at(&state.page.scenario, &trace, client_mark),
        None
    );
    // A mark on the API lane: a crash at that millisecond.
    let api = (trace.events.iter().enumerate())
        .find(|(_, e)| e.node == Node::Api && !matches!(e.kind, EventKind::Send { .. }))
        .unwrap();
    let msg = app::break_at(&state.page.scenario, &trace, api.0 as u32).unwrap();
    app::update(&mut state, msg);
    let at_ms = api.1.time_us / 1_000;
    assert!(state.to_query().contains(&format!("crash=api@{at_ms}")));
}

/// Shift+click needs a pointer; Shift+Enter on the selected row of the Events list breaks run A
/// the same way from the keyboard, and does nothing while B is in focus.
#[test]
fn shift_enter_on_an_event_row_breaks_run_a_as_shift_click_does() {
    let mut state = load("seed=1&preset=lost-ack");
    let (trace, _) = idemlab_lab::run(&state.page.scenario);
    let send = (trace.events.iter())
        .position(|e| matches!(e.kind, idemlab_core::trace::EventKind::Send { .. }))
        .unwrap() as u32;
    app::update(&mut state, Msg::Playback(PlaybackMsg::Select(send)));
    let msg = app::grid_break("Enter", true, &state, &trace);
    assert_eq!(msg, app::break_at(&state.page.scenario, &trace, send));
    assert!(
        matches!(msg, Some(Msg::Scenario(ScenarioMsg::SetKey { ref name, .. })) if name == "drop")
    );
    assert_eq!(app::grid_break("Enter", false, &state, &trace), None);
    let mut compared = load("seed=1&preset=lost-ack&compare=dedup%3Datomic&focus=b");
    app::update(&mut compared, Msg::Playback(PlaybackMsg::Select(send)));
    assert_eq!(app::grid_break("Enter", true, &compared, &trace), None);
}

/// A break from the keyboard changes a run the learner may not be looking at, so it says the key
/// it set and where the cursor is. A refused break says nothing here (the banner does).
#[test]
fn a_break_by_hand_says_what_it_set() {
    let mut state = load("seed=1&preset=lost-ack");
    let before = state.page.scenario.clone();
    let (trace, _) = idemlab_lab::run(&before);
    let send = (trace.events.iter())
        .position(|e| matches!(e.kind, idemlab_core::trace::EventKind::Send { .. }))
        .unwrap() as u32;
    app::update(&mut state, Msg::Playback(PlaybackMsg::Select(send)));
    let msg = app::grid_break("Enter", true, &state, &trace).unwrap();
    app::update(&mut state, msg);
    app::update(&mut state, Msg::Playback(PlaybackMsg::Select(send)));
    let (after, _) = idemlab_lab::run(&state.page.scenario);
    let said = app::break_said(&before, &state, &after).unwrap();
    assert!(said.starts_with("Broken by hand (drop="), "{said}");
    assert!(said.contains(&app::status_line(&state, &after)), "{said}");
    let mut locked = load("seed=1&preset=lost-ack&embed=1&controls=dedup");
    let before = locked.page.scenario.clone();
    let msg = app::break_at(&before, &trace, send).unwrap();
    app::update(&mut locked, msg);
    assert_eq!(app::break_said(&before, &locked, &trace), None);
}

#[test]
fn a_shift_click_breaks_only_run_a_and_a_plain_click_selects_with_its_tooltip() {
    let page = app::Page::built("seed=7&orders=1&compare=dedup%3Datomic");
    let timeline = &page.runs.a.timeline;
    // The first arrow's mark: a send, which Shift drops by hand.
    let arrow = (0..timeline.marks().len() as u32)
        .find(|&ix| {
            let event = timeline.mark(ix).first as usize;
            matches!(
                page.runs.a.trace.events[event].kind,
                idemlab_core::trace::EventKind::Send { .. }
            )
        })
        .expect("a run has an arrow");
    let (msg, tooltip) = app::click_mark(&page.state, &page.runs, Side::A, arrow, true);
    assert!(
        matches!(msg, Some(Msg::Scenario(ScenarioMsg::SetKey { ref name, .. })) if name == "drop"),
        "{msg:?}"
    );
    assert!(
        !tooltip,
        "a break reruns: no tooltip for a mark about to go"
    );
    let (msg, tooltip) = app::click_mark(&page.state, &page.runs, Side::B, arrow, true);
    assert!(
        matches!(
            msg,
            Some(Msg::Screen(ScreenMsg::FocusOn { side: Side::B, .. }))
        ),
        "B is not broken: {msg:?}"
    );
    assert!(tooltip);
    let (msg, _) = app::click_mark(&page.state, &page.runs, Side::A, arrow, false);
    assert!(
        matches!(msg, Some(Msg::Playback(PlaybackMsg::Select(_)))),
        "{msg:?}"
    );
}
