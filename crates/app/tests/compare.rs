//! Comparing run A with run B: the compare line under the counters, B counted and drawn at A's
//! cursor, the run in focus, and the Compare box.

mod support;

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::{compare_sentence, counts_at_label, events_counted, Msg, Tab};
use idemlab_app::{PlaybackMsg, ScenarioMsg, SweepMsg};
use idemlab_lab::Side;
use support::{load, load_measured, ran_and_measured};

#[test]
fn the_compare_sentence_puts_as_values_beside_bs() {
    let state = load("seed=3&preset=race&compare=dedup%3Datomic");
    let a = idemlab_lab::run(&state.page.scenario).1;
    let b = idemlab_lab::run(&state.page.compare_scenario().unwrap()).1;
    expect!["dedup=naive: 1 duplicate → dedup=atomic: 0 duplicates"]
        .assert_eq(&compare_sentence(&state, &a, &b).unwrap());
    assert_eq!(compare_sentence(&load("seed=3"), &a, &b), None);
    // Lost orders are named on both sides once either run loses one.
    let mut lossy = a.clone();
    lossy.lost = 1;
    expect!["dedup=naive: 1 duplicate, 1 lost order → dedup=atomic: 0 duplicates, 0 lost orders"]
        .assert_eq(&compare_sentence(&state, &lossy, &b).unwrap());
}

#[test]
fn the_compare_sentence_names_as_preset_beside_bs() {
    let state = load("seed=3&preset=lost-ack&compare=preset%3Drace");
    let a = idemlab_lab::run(&state.page.scenario).1;
    let b = idemlab_lab::run(&state.page.compare_scenario().unwrap()).1;
    let line = compare_sentence(&state, &a, &b).unwrap();
    assert!(line.starts_with("preset=lost-ack: "), "{line}");
    assert!(line.contains(" → preset=race: "), "{line}");
    let bare = load("seed=3&compare=preset%3Drace");
    let line = compare_sentence(&bare, &a, &b).unwrap();
    assert!(line.starts_with("no preset: "), "{line}");
}

#[test]
fn a_changed_body_compare_line_names_the_failed_orders() {
    // A line of duplicates and lost orders alone reads the same on both sides here, while the
    // step is about two orders told they failed: the failed count must show.
    let state =
        load("seed=7&preset=lost-ack&orders=2&dedup=atomic&body_change=1&compare=body_change%3D0");
    let a = idemlab_lab::run(&state.page.scenario).1;
    let b = idemlab_lab::run(&state.page.compare_scenario().unwrap()).1;
    let line = app::compare_sentence(&state, &a, &b).unwrap();
    expect!["body_change=1: 0 duplicates, 2 failed → body_change=0: 0 duplicates, 0 failed"]
        .assert_eq(&line);
}

#[test]
fn a_retention_compare_line_says_the_spans_in_words() {
    // "retention_ms=86400000" asks the reader to do arithmetic: the line says the spans.
    let state = load("seed=1&preset=key-expiry&compare=retention_ms%3D86400000");
    let a = idemlab_lab::run(&state.page.scenario).1;
    let b = idemlab_lab::run(&state.page.compare_scenario().unwrap()).1;
    let line = app::compare_sentence(&state, &a, &b).unwrap();
    expect!["keys kept 150 ms: 2 duplicates → keys kept 24 h: 0 duplicates"].assert_eq(&line);
}

#[test]
fn the_compare_line_names_the_counts_a_step_is_about_when_they_differ() {
    // Duplicates and lost orders alone read the same on both sides of these steps, while A
    // leaves an order unknown (C2), lost an event (C8) or replays a failure (C4).
    let line = |query: &str| {
        let state = load(query);
        let a = idemlab_lab::run(&state.page.scenario).1;
        let b = idemlab_lab::run(&state.page.compare_scenario().unwrap()).1;
        app::compare_sentence(&state, &a, &b).unwrap()
    };
    for (lesson, step, words) in [
        (2, 2, "unknown"),
        (2, 9, "lost events"),
        (2, 4, "failures replayed"),
    ] {
        let text = line(&format!("lesson={}&step={step}", ["a", "b", "c"][lesson]));
        assert!(text.contains(words), "C{step}: {text}");
    }
    // Runs that differ only in duplicates keep the short line.
    let race = line("seed=3&preset=race&compare=dedup%3Datomic");
    assert!(
        !race.contains("unknown") && !race.contains("failed"),
        "{race}"
    );
}

#[test]
fn picking_a_compare_preset_turns_compare_on_with_its_fix() {
    let mut state = load("seed=4");
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::PickPreset("naive-vs-atomic".into())),
    );
    let fix = state.page.scenario.preset.unwrap().spec().fix;
    assert_eq!(state.page.compare.as_deref(), Some(fix));
    assert_eq!(state.page.scenario.seed, 4);
    let mut state = load("seed=4");
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::PickPreset("race".into())),
    );
    assert_eq!(state.page.compare, None, "a preset not made for comparing");
}

#[test]
fn bs_counts_at_the_cursor_fold_its_events_up_to_the_cursors_time() {
    let mut state = load("seed=3&preset=race&compare=retries%3D0");
    let a = idemlab_core::sim::run(&state.page.scenario);
    let b = idemlab_core::sim::run(&state.page.compare_scenario().unwrap());
    assert_eq!(
        events_counted(&state, &a, Side::B, &b),
        None,
        "no cursor: all"
    );
    app::update(&mut state, Msg::Playback(PlaybackMsg::GoTo(10)));
    assert_eq!(events_counted(&state, &a, Side::A, &a), Some(11));
    let time_us = a.events[10].time_us;
    let expected = b.events.iter().filter(|e| e.time_us <= time_us).count();
    assert_eq!(events_counted(&state, &a, Side::B, &b), Some(expected));
    assert!(counts_at_label(&state, &a).starts_with("Counts at "));
}

#[test]
fn b_fades_nothing_with_the_cursor_at_the_end_and_only_a_outlines_the_selected_event() {
    let mut state = load("seed=3&preset=race&compare=dedup%3Datomic");
    let a = idemlab_core::sim::run(&state.page.scenario);
    let end_us = a.events.last().unwrap().time_us;
    let on_b = app::overlay(&state, &a, Side::B);
    assert_eq!(
        on_b.fade_after_us,
        Some(u64::MAX),
        "B's later events happened too"
    );
    assert_eq!(
        app::overlay(&state, &a, Side::A).fade_after_us,
        Some(end_us)
    );
    app::update(&mut state, Msg::Playback(PlaybackMsg::Select(2)));
    let (on_a, on_b) = (
        app::overlay(&state, &a, Side::A),
        app::overlay(&state, &a, Side::B),
    );
    assert_eq!(on_a.cursor_us, Some(a.events[2].time_us));
    assert_eq!(
        (on_a.fade_after_us, on_b.fade_after_us),
        (on_a.cursor_us, on_a.cursor_us)
    );
    assert_eq!((on_a.selected_event, on_b.selected_event), (Some(2), None));
}

#[test]
fn comparing_the_run_in_focus_leads_the_cursor_status_tables_and_sweep() {
    // B (a durable store) runs longer than A here, so A's end is not B's.
    let mut state = load("seed=1&preset=restart&compare=store%3Ddurable");
    let a = idemlab_core::sim::run(&state.page.scenario);
    let b = idemlab_core::sim::run(&state.page.compare_scenario().unwrap());
    assert_eq!(state.focus(), Side::A);
    assert!(app::status_line(&state, &a).starts_with("A · event "));
    app::update(&mut state, Msg::Playback(PlaybackMsg::GoTo(3)));
    let at_us = a.events[3].time_us;
    let msg = app::focus_on(&state, &a, Some(&b), Side::B);
    app::update(&mut state, msg);
    assert_eq!(state.focus(), Side::B);
    let cursor = state.cursor() as usize;
    assert!(b.events[cursor].time_us <= at_us && b.events[cursor + 1].time_us > at_us);
    assert!(app::status_line(&state, &b).starts_with("B · event "));
    assert!(app::tables_note(&state)
        .unwrap()
        .starts_with("Run B's tables"));
    assert_eq!(*app::lead(&state, &1, Some(&2)), 2);
    assert_eq!(
        events_counted(&state, &b, Side::B, &b),
        Some(cursor + 1),
        "B counts to its own cursor"
    );
    // B scrubs to its own last event, not A's.
    app::update(
        &mut state,
        Msg::Playback(PlaybackMsg::GoTo(b.events.len() as u32 - 2)),
    );
    assert_eq!(state.cursor() as usize, b.events.len() - 2);
    assert!(state.to_query().contains("focus=b"));
    let again = load(&state.to_query());
    assert_eq!((again.focus(), again.cursor()), (Side::B, state.cursor()));
    app::update(&mut state, Msg::Sweep(SweepMsg::Start("10".into())));
    let job = state.sweep.as_ref().unwrap();
    assert_eq!(job.scenario, state.page.compare_scenario().unwrap());
    assert!(app::sweep_summary(job, 0.0).ends_with("Swept run B, the run in focus."));
    app::update(&mut state, Msg::Scenario(ScenarioMsg::CompareOn(false)));
    assert_eq!(state.focus(), Side::A);
    assert!(!state.to_query().contains("focus="));
}

/// A box left showing refused keys (invalid, or locked) would claim B runs them: a refusal puts
/// the Compare box back to the keys B runs, even while it has the focus; otherwise a focused box
/// is left to the learner.
#[test]
fn a_refused_compare_puts_the_box_back_to_the_keys_b_runs() {
    let mut state = load_measured("seed=7&preset=lost-ack&compare=dedup%3Datomic");
    assert_eq!(app::compare_box(&state, true), None);
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::CompareKeys("dedup=sometimes".into())),
    );
    ran_and_measured(&mut state);
    assert_eq!(state.page.compare.as_deref(), Some("dedup=atomic"));
    assert_eq!(
        app::compare_box(&state, true).as_deref(),
        Some("dedup=atomic")
    );
    let mut locked = load("seed=7&preset=lost-ack&compare=dedup%3Datomic&embed=1&controls=dedup");
    app::update(
        &mut locked,
        Msg::Scenario(ScenarioMsg::CompareKeys("orders=10".into())),
    );
    assert_eq!(
        app::compare_box(&locked, true).as_deref(),
        Some("dedup=atomic")
    );
    // The next message leaves a focused box to the learner again.
    app::update(&mut locked, Msg::OpenTab(Tab::Events));
    assert_eq!(app::compare_box(&locked, true), None);
}

#[test]
fn the_compare_box_splits_at_a_comma_before_a_preset_or_a_contract_too() {
    let mut state = load("seed=1&loss_resp=0.2");
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::CompareKeys("dedup=none, preset=race".into())),
    );
    assert_eq!(
        state.page.compare.as_deref(),
        Some("dedup=none&preset=race")
    );
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::CompareKeys(
            "retries=0,contract=stripe-v1".into(),
        )),
    );
    assert_eq!(
        state.page.compare.as_deref(),
        Some("retries=0&contract=stripe-v1")
    );
}

/// Issue 27's heavy compare link: each run may ask for 1,000,000 events, and two such runs
/// took 237 MiB of the page's 150.
const SHARED_QUERY: &str = "seed=3&orders=10000&clients=16&retries=20&timeout_ms=1&backoff_ms=0&loss_req=0.5&loss_resp=0.5&dedup=atomic&rerun_ms=0&provider_ms=0..60000&events_max=1000000&compare=seed%3D4";

proptest::proptest! {
    /// Two caps that fit the page are kept; two that do not are cut to exactly what it holds,
    /// and a side asking for at most half keeps its own.
    #[test]
    fn the_two_runs_share_the_pages_events(
        a in idemlab_core::scenario::bounds::EVENTS_MAX.0..=idemlab_core::scenario::bounds::EVENTS_MAX.1,
        b in idemlab_core::scenario::bounds::EVENTS_MAX.0..=idemlab_core::scenario::bounds::EVENTS_MAX.1,
    ) {
        use idemlab_app::page::{share_events, PAGE_EVENTS_MAX};
        let (a2, b2) = share_events(a, b);
        proptest::prop_assert!(a2 <= a && b2 <= b);
        if a + b <= PAGE_EVENTS_MAX {
            proptest::prop_assert_eq!((a2, b2), (a, b));
        } else {
            proptest::prop_assert_eq!(a2 + b2, PAGE_EVENTS_MAX);
        }
        for (own, kept) in [(a, a2), (b, b2)] {
            if own <= PAGE_EVENTS_MAX / 2 {
                proptest::prop_assert_eq!(kept, own);
            }
        }
    }
}

#[test]
fn a_heavy_compare_link_runs_each_side_in_half_the_pages_events_and_says_so() {
    let page = idemlab_app::work::Page::built(SHARED_QUERY);
    let a = page.runs.a.trace.events.len();
    let b = page.runs.b.as_ref().expect("comparing").trace.events.len();
    assert!(a <= 500_000 && b <= 500_000, "A {a}, B {b} events");
    let frame = idemlab_app::view::runs::view(&page.state, &page.runs);
    for (side, letter) in frame.sides.iter().zip(["A", "B"]) {
        let counts_at = &side.as_ref().expect("both sides show").counts_at;
        let note = format!(
            "Run {letter} stops at 500,000 events: a compare link's two runs share 1,000,000 (events_max). "
        );
        assert!(counts_at.starts_with(&note), "{counts_at}");
    }
    // The link keeps what it asked for; only the runs are cut.
    assert!(page
        .state
        .page
        .to_query(&Default::default())
        .contains("events_max=1000000"));
}

#[test]
fn a_light_compare_link_is_not_cut() {
    let page = idemlab_app::work::Page::built("seed=3&preset=race&compare=dedup%3Datomic");
    let frame = idemlab_app::view::runs::view(&page.state, &page.runs);
    for side in frame.sides.iter().flatten() {
        assert!(!side.counts_at.contains("stops at"), "{}", side.counts_at);
    }
    let (a, b) = page.state.page.runs();
    assert_eq!(a, page.state.page.scenario);
    assert_eq!(b, page.state.page.compare_scenario());
}

/// A second rerun before the first's run B started still hands B its last event block: a fresh
/// one would not fit the hole the old one left, and the page's memory would grow by B's size.
#[test]
fn run_b_records_into_its_last_block_across_quick_reruns() {
    let mut page = idemlab_app::work::Page::built("seed=3&preset=race&compare=dedup%3Datomic");
    let block = page
        .runs
        .b
        .as_ref()
        .expect("comparing")
        .trace
        .events
        .as_ptr();
    page.start();
    page.start();
    page.finish();
    let b = page.runs.b.as_ref().expect("comparing again");
    assert_eq!(
        b.trace.events.as_ptr(),
        block,
        "run B took a fresh event block"
    );
}
