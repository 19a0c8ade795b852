//! A run computed in slices (`app::Computing`): the line that says how far it has got, and
//! Cancel, which goes back to the last scenario that finished.

mod support;

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::ScenarioMsg;
use idemlab_app::{Banner, Effects, Msg, State, UrlWrite};
use idemlab_course::quiz::progress::Progress;
use idemlab_lab::Side;
use support::{load, ran};

/// A slice of run `side` ended `events` events into simulating.
fn computing(state: &mut State, side: Side, events: u32) -> Effects {
    let progress = idemlab_app::job::JobProgress {
        phase: idemlab_app::job::Phase::Simulating,
        events,
    };
    app::update(
        state,
        Msg::Work(Box::new(app::work::Done::Computing { side, progress })),
    )
}

#[test]
fn a_run_computing_in_slices_says_how_far_it_has_got_and_repaints_only_that() {
    let mut state = load("seed=3");
    let effects = computing(&mut state, Side::A, 41_200);
    assert_eq!(
        effects,
        Effects {
            paint_progress: true,
            ..Effects::default()
        }
    );
    let line = state.computing.map(|c| c.text());
    expect!["Computing run A: simulating, 41,200 events so far (at most 250,000)."]
        .assert_eq(line.as_deref().unwrap_or(""));
    ran(&mut state);
    assert_eq!(state.computing, None, "a finished run computes nothing");
}

#[test]
fn cancel_goes_back_to_the_last_scenario_that_finished_and_says_so() {
    let mut state = load("seed=3&orders=7");
    let finished = state.page.scenario.clone();
    app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(99)));
    computing(&mut state, Side::A, 5_000);
    let effects = app::update(&mut state, Msg::CancelRun);
    assert!(effects.rerun);
    assert_eq!(
        effects.url,
        Some(UrlWrite::Push),
        "Back returns to the cancelled run"
    );
    assert_eq!(state.page.scenario, finished);
    assert_eq!(state.computing, None);
    let banner = Banner::of(&state).expect("the banner says what was cancelled");
    assert_eq!(banner.heading, "The run was cancelled.");
    expect!["Run A was cancelled while simulating after 5,000 events. The page shows the last scenario that finished; Back returns to the cancelled one."]
        .assert_eq(&banner.lines.join("\n"));
    // The note lasts until the scenario changes again.
    app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(5)));
    assert_eq!(Banner::of(&state), None);
}

#[test]
fn cancel_on_a_link_whose_run_never_finished_shows_the_default_scenario() {
    let mut state = State::load("orders=9000&clients=16", &Progress::new());
    computing(&mut state, Side::A, 70_000);
    app::update(&mut state, Msg::CancelRun);
    assert_eq!(
        state.page.scenario,
        idemlab_core::scenario::Scenario::default()
    );
    let banner = Banner::of(&state).expect("a banner");
    assert!(
        banner.lines[0].contains("the default scenario"),
        "{banner:?}"
    );
}

#[test]
fn cancel_with_nothing_computing_changes_nothing() {
    let mut state = load("seed=3");
    let before = state.to_query();
    assert_eq!(app::update(&mut state, Msg::CancelRun), Effects::default());
    assert_eq!(state.to_query(), before);
}
