//! What the announcer says after each paint (`app::speak`), and says once: playback at its
//! pause, a step's title and first sentence, a named counter's new value, an answer's feedback
//! alone, a check's verdict, the classify exercise's verdict, and what a view shortcut did.

mod support;

use idemlab_app as app;
use idemlab_app::{ClassifyMsg, LessonMsg, PlaybackMsg, QuizMsg, ScenarioMsg};
use idemlab_app::{Msg, Shortcut, State};
use idemlab_course::lessons::{Side, LESSONS};
use idemlab_course::quiz::QUESTIONS;
use support::{load, load_measured, ran};

struct Runs {
    a: (
        idemlab_core::scenario::Scenario,
        idemlab_core::trace::Trace,
        idemlab_lab::Metrics,
    ),
    b: Option<(
        idemlab_core::scenario::Scenario,
        idemlab_core::trace::Trace,
        idemlab_lab::Metrics,
    )>,
}

fn runs(state: &State) -> Runs {
    let run = |s: idemlab_core::scenario::Scenario| {
        let (trace, metrics) = idemlab_lab::run(&s);
        (s, trace, metrics)
    };
    Runs {
        a: run(state.page.scenario.clone()),
        b: state.page.compare_scenario().map(run),
    }
}

/// One paint: what the announcer says.
fn paint(heard: &mut app::Heard, state: &State, runs: &Runs) -> Option<String> {
    let mut list = vec![(Side::A, &runs.a.0, &runs.a.2)];
    if let Some(b) = &runs.b {
        list.push((Side::B, &b.0, &b.2));
    }
    app::announce(heard, state, &runs.a.1, Some(&list), false, None)
}

#[test]
fn playback_speaks_once_when_it_pauses_not_on_every_tick() {
    let mut state = load("seed=1");
    let runs = runs(&state);
    let mut heard = app::Heard::default();
    assert_eq!(
        paint(&mut heard, &state, &runs),
        None,
        "the first paint sets the scene"
    );
    app::update(&mut state, Msg::Playback(PlaybackMsg::Play));
    let mut said = Vec::new();
    for _ in 0..30 {
        said.extend(paint(&mut heard, &state, &runs));
        app::update(&mut state, Msg::Playback(PlaybackMsg::Tick));
    }
    assert!(said.is_empty(), "{said:?}");
    app::update(&mut state, Msg::Playback(PlaybackMsg::Play));
    let pause = paint(&mut heard, &state, &runs).expect("the pause speaks");
    assert_eq!(pause, app::status_line(&state, &runs.a.1));
    assert_eq!(paint(&mut heard, &state, &runs), None, "and only once");
    // A step is a request: it speaks its event; a slider or a row says it itself.
    app::update(&mut state, Msg::Playback(PlaybackMsg::Step(1)));
    assert!(paint(&mut heard, &state, &runs).is_some());
    app::update(&mut state, Msg::Playback(PlaybackMsg::Step(1)));
    let list = [(Side::A, &runs.a.0, &runs.a.2)];
    assert_eq!(
        app::announce(&mut heard, &state, &runs.a.1, Some(&list), true, None),
        None
    );
}

#[test]
fn a_step_speaks_its_title_and_first_sentence_only_once() {
    let mut state = load("lesson=a&step=1&gate=0");
    let mut heard = app::Heard::default();
    paint(&mut heard, &state, &runs(&state));
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1)));
    ran(&mut state);
    let runs = runs(&state);
    let said = paint(&mut heard, &state, &runs).expect("the step speaks");
    let step = &LESSONS[0].steps[1];
    let total = LESSONS[0].steps.len();
    let first = app::first_sentence(step.text);
    assert_eq!(said, format!("Step 2 of {total}: {}. {first}", step.title));
    assert!(
        first.len() < step.text.len(),
        "the first sentence, not the text"
    );
    // The step's run arriving, or the next paint, says nothing more.
    assert_eq!(paint(&mut heard, &state, &runs), None);
}

#[test]
fn a_named_counter_speaks_its_new_value_when_the_run_changes() {
    // A step whose losses are drawn by chance: a new seed changes the run under the same step.
    let (index, step) = (LESSONS[0].steps.iter().enumerate())
        .find(|(_, s)| !s.claims.is_empty() && s.query.contains("loss"))
        .expect("a step names counters");
    let mut state = load(&format!("lesson=a&step={}&gate=0", index + 1));
    let mut heard = app::Heard::default();
    paint(&mut heard, &state, &runs(&state));
    // Seeds until one gives other counts for the named counters.
    let named = |runs: &Runs, state: &State| {
        let view = app::counters_view(state, Side::A, &runs.a.0, &runs.a.2);
        (view.cards.into_iter())
            .filter(|c| c.named)
            .map(|c| (c.label, c.value))
            .collect::<Vec<_>>()
    };
    let before = named(&runs(&state), &state);
    for seed in 2..200 {
        app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(seed)));
        ran(&mut state);
        let runs = runs(&state);
        let said = paint(&mut heard, &state, &runs);
        let now = named(&runs, &state);
        if now != before {
            let said = said.expect("new values are spoken");
            let (label, value) = now[0];
            assert!(said.contains(&format!("{label}: {value}.")), "{said}");
            assert_eq!(paint(&mut heard, &state, &runs), None);
            return;
        }
    }
    panic!("no seed changed the counters step {} names", step.title);
}

#[test]
fn first_sentence_stops_at_the_first_full_stop_followed_by_a_space() {
    assert_eq!(
        app::first_sentence("One 3.5 ms wait. Two."),
        "One 3.5 ms wait."
    );
    assert_eq!(app::first_sentence("Why? Because."), "Why?");
    assert_eq!(app::first_sentence("No stop"), "No stop");
}

/// A screen reader hears one thing at a time: an answer that also spoke the outline's count and
/// the cursor's event would talk over its own feedback, and the check re-reading the last step
/// would bury its heading. So the reveal leaves the speaking to the feedback, a phrase pressed
/// later speaks the outline once, and the check's heading speaks for itself.
#[test]
fn an_answer_speaks_once_and_the_check_does_not_reread_the_step() {
    let mut state = load_measured("lesson=a&step=4");
    let runs = runs(&state);
    let mut heard = app::Heard::default();
    paint(&mut heard, &state, &runs);
    assert!(state.awaiting());
    let right = app::predict_view(&state)
        .unwrap()
        .choices
        .iter()
        .position(|c| c == "only A");
    app::update(&mut state, Msg::Lesson(LessonMsg::Predict(right.unwrap())));
    assert!(!state.awaiting());
    let list = [(Side::A, &runs.a.0, &runs.a.2)];
    let outline = Some("1 duplicate charge outlined.".to_string());
    let mut say = |state: &State, outline: Option<String>| {
        app::announce(&mut heard, state, &runs.a.1, Some(&list), false, outline)
    };
    assert_eq!(say(&state, outline.clone()), None, "the feedback speaks");
    assert_eq!(say(&state, outline.clone()), None);
    let other = Some("1 race outlined.".to_string());
    assert_eq!(say(&state, other.clone()), other, "a pressed phrase speaks");
    assert_eq!(say(&state, other), None, "once");
    let stored = idemlab_course::quiz::progress::Progress::default();
    let start = Msg::Quiz(QuizMsg::Start {
        stored,
        fresh_seed: 1,
    });
    app::update(&mut state, start);
    assert!(state.quiz.is_some());
    assert_eq!(
        say(&state, None),
        None,
        "the check's heading speaks for itself"
    );
}

/// A count alone does not tell a listener whether the answer just given was right, so the
/// verdict of the operation just answered comes first. A step just opened says the score alone;
/// a message that answers nothing leaves the line as it was, so it does not speak again.
#[test]
fn the_classify_score_speaks_the_verdict_just_given() {
    use idemlab_course::classify::Class;
    let mut state = load("lesson=a&step=2");
    let said = |state: &State| {
        let frame = app::view::classify::view(state).expect("step 2 holds the exercise");
        frame.score
    };
    assert_eq!(said(&state), app::classify_score(&state.classify));
    let answer = Class::Not;
    app::update(
        &mut state,
        Msg::Classify(ClassifyMsg::Answer { index: 0, answer }),
    );
    let verdict = app::classify_items(&state.classify)[0]
        .verdict
        .clone()
        .unwrap();
    let spoken = format!("{verdict} Answered 1 of 3: 0 right so far.");
    assert_eq!(said(&state), spoken);
    app::update(&mut state, Msg::ToggleKeyStore);
    assert_eq!(said(&state), spoken);
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(2)));
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1)));
    assert_eq!(said(&state), "Answered 1 of 3: 0 right so far.");
}

/// A whole explanation read aloud runs to hundreds of characters, and an instruction read before
/// every question is noise: a check's answer speaks its verdict and the explanation's first
/// sentence, and the whole stays on screen.
#[test]
fn a_check_answer_speaks_its_verdict_and_first_sentence_not_the_instruction() {
    let mut state = load("lesson=a&quiz=3");
    app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
    let session = state.quiz.as_ref().unwrap();
    let index = session.shown.unwrap();
    assert_eq!(
        session.spoken(index),
        None,
        "the instruction is on screen only"
    );
    for index in 0..QUESTIONS {
        let session = state.quiz.as_mut().unwrap();
        session.answers[index] = Some(0);
        let (whole, _) = session.feedback(index);
        let said = session.spoken(index).unwrap();
        assert!(whole.starts_with(&said), "{said}");
        assert!(said.len() < whole.len() || whole.len() < 200, "{said}");
        assert!(said.len() < 400, "{} characters: {said}", said.len());
    }
}

/// A key that replaces the run in silence leaves a listener unsure anything happened: a shortcut
/// that changes the view says what it did; a new seed refused by a lock says nothing here (the
/// banner says why).
#[test]
fn a_view_shortcut_says_what_it_did() {
    let mut state = load("seed=7");
    app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(8)));
    assert_eq!(
        app::shortcut_said(&Shortcut::NewSeed, 7, &state).as_deref(),
        Some("New seed 8: a new run.")
    );
    let zoom_in = app::shortcut_said(&Shortcut::ZoomBy(2.0), 8, &state);
    assert_eq!(zoom_in.as_deref(), Some("Zoomed in."));
    let fit = app::shortcut_said(
        &Shortcut::Msg(Msg::Playback(PlaybackMsg::Zoom(None))),
        8,
        &state,
    );
    assert_eq!(fit.as_deref(), Some("Zoomed to fit the whole run."));
    assert_eq!(app::shortcut_said(&Shortcut::Help, 8, &state), None);
    let mut locked = load("seed=7&embed=1&controls=dedup");
    app::update(&mut locked, Msg::Scenario(ScenarioMsg::NewSeed(8)));
    assert_eq!(app::shortcut_said(&Shortcut::NewSeed, 7, &locked), None);
}
