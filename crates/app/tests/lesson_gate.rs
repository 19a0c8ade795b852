//! Predict, then reveal: a lesson step holds its run at the first event, with its counters
//! hidden, until its prediction is answered; the answer is judged on the step's own runs,
//! outlines the proof and stays answered for the session.

mod support;

use idemlab_app as app;
use idemlab_app::{Effects, Focus, Msg};
use idemlab_app::{LessonMsg, PlaybackMsg, ScenarioMsg};
use idemlab_course::lessons::{Side, LESSONS};
use idemlab_course::quiz::progress::Progress;
use idemlab_lab::view::{Viewport, GUTTER_PX};
use support::{load_measured, ran_and_measured, right_choice};

#[test]
fn a_step_waits_for_its_prediction_with_counters_hidden_and_the_cursor_held_at_0() {
    let mut state = load_measured("lesson=a&step=1");
    assert!(state.awaiting());
    assert!(app::counters_hidden(&state));
    assert_eq!(
        state.page.cursor,
        Some(0),
        "the run waits at its first event"
    );
    let view = app::predict_view(&state).expect("step 1 asks");
    assert!(view.waiting && view.answered.is_none() && view.feedback.is_none());
    assert_eq!(view.choices, LESSONS[0].steps[0].predict.choices());
    for msg in [
        Msg::Playback(PlaybackMsg::Play),
        Msg::Playback(PlaybackMsg::Tick),
        Msg::Playback(PlaybackMsg::Step(1)),
        Msg::Playback(PlaybackMsg::GoTo(9)),
        Msg::Playback(PlaybackMsg::Select(9)),
    ] {
        assert_eq!(
            app::update(&mut state, msg.clone()),
            Effects::default(),
            "{msg:?}"
        );
        assert_eq!(
            (state.page.cursor, state.playing),
            (Some(0), false),
            "{msg:?}"
        );
    }
}

#[test]
fn answering_checks_against_the_runs_reveals_outlines_the_proof_and_goes_to_the_end() {
    let right = right_choice(&LESSONS[0], 0);
    let wrong = (right + 1) % LESSONS[0].steps[0].predict.choices().len();
    let mut state = load_measured("lesson=a&step=1");
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::Predict(wrong)));
    assert!(!state.awaiting() && !app::counters_hidden(&state));
    assert_eq!(state.page.cursor, None, "the end of the run");
    let proof = LESSONS[0].steps[0].predict.proof;
    assert_eq!(state.highlight, Some((proof.side, proof.find)));
    assert_eq!(
        effects.show_timeline, None,
        "the reveal never scrolls the page"
    );
    assert_eq!(effects.focus, Some(Focus::PredictFeedback));
    let view = app::predict_view(&state).unwrap();
    let choices = &view.choices;
    assert_eq!(
        view.feedback.unwrap(),
        format!(
            "Not quite: you chose {}; the simulator's answer is {}. The outlined marks on the timeline show it.",
            choices[wrong], choices[right]
        )
    );
    assert!(!view.answered.unwrap().is_right());
    // A step answers once: a second pick changes nothing.
    assert_eq!(
        app::update(&mut state, Msg::Lesson(LessonMsg::Predict(right))),
        Effects::default()
    );
    assert_eq!(state.answered().unwrap().choice, wrong);
}

/// A phone's docked timeline shows only the run's first few hundred ms, and the proof may lie
/// further on: the answer asks the page to scroll the proving run sideways to its outline.
#[test]
fn a_reveal_scrolls_its_timeline_sideways_to_the_proof_when_it_lies_out_of_view() {
    let lesson = &LESSONS[2];
    let index = (lesson.steps.iter())
        .position(|step| step.title == "Commit the claim first, with a lease")
        .expect("step C2");
    let mut state = load_measured(&format!("lesson=c&step={}", index + 1));
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::Predict(0)));
    let proof = lesson.steps[index].predict.proof;
    assert_eq!(effects.reveal, Some(proof.side));
    let scenario = match proof.side {
        Side::A => state.page.scenario.clone(),
        Side::B => state.page.compare_scenario().unwrap(),
    };
    let timeline = idemlab_lab::view::layout(&idemlab_core::sim::run(&scenario));
    // A phone's plot: wider than the 372 px box that shows it.
    let viewport = idemlab_lab::view::window(timeline.end_us(), None, app::PLOT_MIN_PX);
    let (first_px, last_px) = app::outline_span_px(&state, proof.side, &timeline, &viewport)
        .expect("the proof has marks in view");
    let times: Vec<u64> = (timeline.marks().iter())
        .filter(|mark| proof.find.matches(mark))
        .map(|mark| mark.t0_us)
        .collect();
    let x = |t: u64| GUTTER_PX + viewport.x_px(t);
    assert_eq!(first_px, x(*times.iter().min().unwrap()));
    assert_eq!(last_px, x(*times.iter().max().unwrap()));
    let other = match proof.side {
        Side::A => Side::B,
        Side::B => Side::A,
    };
    assert_eq!(
        app::outline_span_px(&state, other, &timeline, &viewport),
        None
    );
    // The box's left 128 px hold the lanes' names. All in view right of them: no scroll. A
    // span that fits: centred in the rest. One wider than the rest: its start just right of
    // the names. Never before the plot's start.
    assert_eq!(app::outline_scroll_px(200.0, 300.0, 0.0, 372.0), None);
    assert_eq!(app::outline_scroll_px(140.0, 300.0, 0.0, 372.0), Some(0.0));
    assert_eq!(
        app::outline_scroll_px(300.0, 500.0, 0.0, 372.0),
        Some(150.0)
    );
    assert_eq!(
        app::outline_scroll_px(300.0, 900.0, 0.0, 372.0),
        Some(156.0)
    );
    assert_eq!(
        app::outline_scroll_px(150.0, 200.0, 300.0, 372.0),
        Some(0.0)
    );
}

#[test]
fn an_answered_step_stays_answered_going_back_and_after_browser_back() {
    let mut state = load_measured("lesson=a&step=1");
    app::update(
        &mut state,
        Msg::Lesson(LessonMsg::Predict(right_choice(&LESSONS[0], 0))),
    );
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1)));
    ran_and_measured(&mut state);
    assert!(state.awaiting(), "step 2 asks its own question");
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(0)));
    ran_and_measured(&mut state);
    assert!(!state.awaiting());
    assert_eq!(
        state.page.cursor, None,
        "an answered step shows its run at once"
    );
    let view = app::predict_view(&state).unwrap();
    assert!(view.answered.unwrap().is_right());
    assert!(view.feedback.unwrap().starts_with("Right: "));
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::UrlChanged {
            query: "lesson=a&step=1&tab=lessons".into(),
            stored: Progress::new(),
        }),
    );
    ran_and_measured(&mut state);
    assert!(
        state.answered().is_some(),
        "Back keeps the session's answers"
    );
}

#[test]
fn every_steps_prediction_on_the_page_equals_the_simulators_answer() {
    for lesson in &LESSONS {
        for index in 0..lesson.steps.len() {
            let query = format!("lesson={}&step={}", lesson.id, index + 1);
            let mut state = load_measured(&query);
            assert!(state.awaiting(), "{query}");
            app::update(
                &mut state,
                Msg::Lesson(LessonMsg::Predict(right_choice(lesson, index))),
            );
            let answered = state.answered().unwrap();
            assert!(answered.is_right(), "{query}: {answered:?}");
        }
    }
}

#[test]
fn gate_0_asks_without_waiting_and_a_links_own_scenario_asks_nothing() {
    let mut state = load_measured("lesson=a&step=1&gate=0");
    assert!(!state.awaiting() && !app::counters_hidden(&state));
    assert_eq!(state.page.cursor, None);
    let view = app::predict_view(&state).expect("the question is still offered");
    assert!(!view.waiting);
    app::update(&mut state, Msg::Playback(PlaybackMsg::Step(-1)));
    assert_eq!(
        state.page.cursor,
        Some(state.events_a - 2),
        "the cursor moves"
    );
    assert!(state.to_query().ends_with("gate=0"), "{}", state.to_query());
    let state = load_measured("dedup=atomic&lesson=a&step=4");
    assert_eq!(
        app::predict_view(&state),
        None,
        "its runs are not the step's"
    );
    assert!(!state.awaiting());
}

#[test]
fn a_run_of_another_scenario_inside_a_waiting_step_keeps_the_wait() {
    let mut state = load_measured("lesson=a&step=1");
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::SetKey {
            name: "dedup".into(),
            value: "atomic".into(),
        }),
    );
    ran_and_measured(&mut state);
    assert!(state.awaiting());
    assert_eq!(state.page.cursor, Some(0));
    app::update(
        &mut state,
        Msg::Lesson(LessonMsg::Predict(right_choice(&LESSONS[0], 0))),
    );
    assert!(
        state.answered().unwrap().is_right(),
        "judged on the step's own runs"
    );
}

/// A waiting step's picture must not give its answer away. Every step of every
/// lesson, on A and on B: while the prediction waits, the drawing holds no mark that ends
/// after the held cursor (the first event) and no mark there can be hovered; once answered,
/// the whole run is drawn again.
#[test]
fn a_waiting_step_draws_nothing_after_its_first_event_on_a_or_b() {
    let mut checked = [0, 0];
    for lesson in &LESSONS {
        for index in 0..lesson.steps.len() {
            let query = format!("lesson={}&step={}", lesson.id, index + 1);
            let mut state = load_measured(&query);
            if !state.awaiting() {
                continue;
            }
            let a = idemlab_core::sim::run(&state.page.scenario);
            let b = (state.page.compare_scenario()).map(|s| idemlab_core::sim::run(&s));
            let first_us = a.events[0].time_us;
            let mut sides = vec![(Side::A, &a)];
            if let Some(b) = &b {
                sides.push((Side::B, b));
            }
            for &(side, trace) in &sides {
                checked[usize::from(side == Side::B)] += 1;
                let overlay = app::overlay(&state, &a, side);
                assert_eq!(overlay.cut_after_us, Some(first_us), "{query} {side:?}");
                let drawn = drawn_marks(trace, overlay);
                let whole = trace_marks(trace);
                assert!(drawn < whole, "{query} {side:?}: {drawn} of {whole} drawn");
                let timeline = idemlab_lab::view::layout(trace);
                for ix in 0..timeline.marks().len() as u32 {
                    let mark = timeline.mark(ix);
                    if mark.t1_us > first_us {
                        assert!(!overlay.shows(mark), "{query} {side:?}: mark {ix} shown");
                    }
                }
            }
            app::update(&mut state, Msg::Lesson(LessonMsg::Predict(0)));
            for &(side, trace) in &sides {
                let overlay = app::overlay(&state, &a, side);
                assert_eq!(overlay.cut_after_us, None, "{query} answered");
                assert_eq!(drawn_marks(trace, overlay), trace_marks(trace), "{query}");
            }
        }
    }
    assert!(
        checked[0] >= 10 && checked[1] >= 5,
        "waiting steps on A and B: {checked:?}"
    );
}

/// How many marks the page's plot draws of a trace, fitted to 800 px, under an overlay.
fn drawn_marks(trace: &idemlab_core::trace::Trace, overlay: idemlab_lab::view::Overlay) -> usize {
    let timeline = idemlab_lab::view::layout(trace);
    let viewport = Viewport::fit(timeline.end_us(), 800);
    let view = timeline.view(&viewport);
    let scene = idemlab_lab::view::Scene {
        timeline: &timeline,
        viewport,
        view: &view,
        overlay,
        links: false,
        top_px: 0.0,
    };
    idemlab_lab::view::plot(&scene).mark_count()
}

fn trace_marks(trace: &idemlab_core::trace::Trace) -> usize {
    drawn_marks(trace, idemlab_lab::view::Overlay::default())
}

/// A run's length hints at how it goes ("event 1 of 81", "81 events"), so while a step waits
/// the status line and the canvas's name leave it out until the answer.
#[test]
fn a_waiting_step_names_no_run_length_on_the_status_line_or_the_canvas() {
    let mut state = load_measured("lesson=a&step=1");
    assert!(state.awaiting(), "step 1 asks before it shows");
    let trace = idemlab_core::sim::run(&state.page.scenario);
    let total = format!("of {}", trace.events.len());
    let status = app::status_line(&state, &trace);
    assert!(status.starts_with("event 1 · "), "{status}");
    assert!(!status.contains(&total), "{status}");
    let name = app::canvas_label(&state, Side::A, trace.events.len());
    assert!(!name.contains(&trace.events.len().to_string()), "{name}");
    app::update(
        &mut state,
        Msg::Lesson(LessonMsg::Predict(right_choice(&LESSONS[0], 0))),
    );
    assert!(app::status_line(&state, &trace).contains(&total));
    let name = app::canvas_label(&state, Side::A, trace.events.len());
    assert!(
        name.contains(&format!("{} events", trace.events.len())),
        "{name}"
    );
}
