//! Locks that hold (`controls=`, `app::locks`): a link that lists its open controls keeps every
//! other key as its author set it, whatever the learner does, and a refused action says which
//! lock refused it.

mod support;

use idemlab_app as app;
use idemlab_app::{Banner, KeyTarget, Msg, Shortcut, State};
use idemlab_app::{ClassifyMsg, LessonMsg, QuizMsg, ScenarioMsg};
use idemlab_core::scenario::Dedup;
use idemlab_course::lessons::LESSONS;
use idemlab_course::quiz::progress::Progress;
use support::load;

#[test]
fn an_embed_that_opens_some_controls_locks_and_hides_the_rest() {
    use idemlab_core::scenario::codec::{self, Group};
    let spec = |name: &str| codec::keys().iter().find(|s| s.name == name).unwrap();
    let state = load("seed=1&embed=1&controls=dedup&retries=99");
    let dedup = app::control_view(&state, spec("dedup"));
    assert!(!dedup.locked && !dedup.hidden);
    let retries = app::control_view(&state, spec("retries"));
    assert!(retries.locked && retries.hidden && retries.invalid);
    let open_group = spec("dedup").group;
    assert!(!app::group_hidden(&state, open_group));
    assert!(Group::ALL.iter().any(|&g| app::group_hidden(&state, g)));
    let page = load("seed=1&controls=dedup");
    let retries = app::control_view(&page, spec("retries"));
    assert!(
        retries.locked && !retries.hidden,
        "outside an embed, locked but shown"
    );
}

/// Every way a learner can try to change the scenario, on the page as loaded.
fn every_change(state: &State) -> Vec<Msg> {
    let trace = idemlab_core::sim::run(&state.page.scenario);
    let mut msgs = vec![
        Msg::Scenario(ScenarioMsg::SetKey {
            name: "orders".into(),
            value: "10".into(),
        }),
        Msg::Scenario(ScenarioMsg::NewSeed(99)),
        Msg::Scenario(ScenarioMsg::PickPreset("race".into())),
        Msg::Scenario(ScenarioMsg::PickPreset(String::new())),
        Msg::Scenario(ScenarioMsg::CompareOn(true)),
        Msg::Scenario(ScenarioMsg::CompareKeys("orders=10".into())),
        Msg::Scenario(ScenarioMsg::CompareKeys("dedup=atomic, retries=0".into())),
        Msg::Lesson(LessonMsg::Open(&LESSONS[0])),
        Msg::Lesson(LessonMsg::Open(&LESSONS[1])),
        Msg::Lesson(LessonMsg::OpenStep(2)),
        Msg::Lesson(LessonMsg::RunOrder),
        Msg::Classify(ClassifyMsg::Show(0)),
        Msg::Quiz(QuizMsg::Start {
            stored: Progress::new(),
            fresh_seed: 5,
        }),
    ];
    // Shift+click on every mark that breaks something: a drop or a crash.
    let breaks = (0..trace.events.len() as u32)
        .filter_map(|e| app::break_at(&state.page.scenario, &trace, e));
    msgs.extend(breaks.take(20));
    // The keyboard: every shortcut that is a message.
    for key in ["n", " ", "ArrowRight", "Home", "End", "l", "+"] {
        if let Some(Shortcut::Msg(msg)) = app::shortcut(key, false, KeyTarget::Page) {
            msgs.push(msg);
        }
    }
    msgs
}

/// The scenario's keys as the codec writes them, but for `dedup`.
fn keys_but_dedup(scenario: &idemlab_core::scenario::Scenario) -> Vec<String> {
    let query = idemlab_core::scenario::encode(scenario);
    (query.split('&').filter(|p| !p.starts_with("dedup=")))
        .map(String::from)
        .collect()
}

#[test]
fn with_controls_dedup_no_action_changes_another_key() {
    let link = "seed=7&preset=lost-ack&embed=1&controls=dedup&cursor=5";
    for msg in every_change(&load(link)) {
        let mut state = load(link);
        app::update(&mut state, msg.clone());
        let (before, after) = (load(link).page, &state.page);
        assert_eq!(
            keys_but_dedup(&after.scenario),
            keys_but_dedup(&before.scenario),
            "{msg:?}"
        );
        // B may differ from A in open keys only.
        let b = after
            .compare_scenario()
            .unwrap_or_else(|| after.scenario.clone());
        assert_eq!(
            keys_but_dedup(&b),
            keys_but_dedup(&before.scenario),
            "B after {msg:?}"
        );
        assert!(state.lesson.is_none() && state.quiz.is_none(), "{msg:?}");
    }
    // Not vacuous: without the lock, these same actions change other keys.
    let free = "seed=7&preset=lost-ack&embed=1&cursor=5";
    let changed = (every_change(&load(free)).into_iter())
        .filter(|msg| {
            let mut state = load(free);
            app::update(&mut state, msg.clone());
            let b = (state.page.compare_scenario()).unwrap_or_else(|| state.page.scenario.clone());
            let before = keys_but_dedup(&load(free).page.scenario);
            keys_but_dedup(&state.page.scenario) != before || keys_but_dedup(&b) != before
        })
        .count();
    assert!(
        changed >= 20,
        "only {changed} actions change a key when nothing is locked"
    );
    // The open key still changes, and B may compare it; a refused compare keeps the cursor.
    let mut state = load(link);
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::SetKey {
            name: "dedup".into(),
            value: "atomic".into(),
        }),
    );
    assert_eq!(state.page.scenario.dedup, Dedup::Atomic);
    let mut state = load(link);
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::CompareKeys("orders=10".into())),
    );
    assert_eq!(
        (state.page.compare.as_deref(), state.page.cursor),
        (None, Some(5))
    );
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::CompareKeys("dedup=atomic".into())),
    );
    assert_eq!(state.page.compare.as_deref(), Some("dedup=atomic"));
    assert!(!app::compare_locked(&state, None));
}

#[test]
fn an_authors_compare_over_a_locked_key_cannot_be_dropped_or_changed() {
    let mut state = load("seed=7&preset=lost-ack&compare=retries%3D0&controls=dedup");
    assert!(app::compare_locked(&state, None));
    app::update(&mut state, Msg::Scenario(ScenarioMsg::CompareOn(false)));
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::CompareKeys("dedup=atomic".into())),
    );
    assert_eq!(state.page.compare.as_deref(), Some("retries=0"));
    // Without locks the box is free.
    assert!(!app::compare_locked(
        &load("seed=7&compare=retries%3D0"),
        None
    ));
}

#[test]
fn a_locked_lesson_embed_walks_its_own_lesson_and_check_only() {
    let mut state = load("lesson=a&step=1&embed=1&controls=dedup");
    assert!(app::lesson_open(&state, "a") && !app::lesson_open(&state, "b"));
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1)));
    assert_eq!(state.lesson.map(|at| at.index()), Some(1));
    app::update(&mut state, Msg::Lesson(LessonMsg::Open(&LESSONS[1])));
    assert_eq!(state.lesson.map(|at| at.lesson.id), Some("a"));
    // The build task needs the controls a lock keeps shut: its button is not offered, and the
    // message is refused, so the learner stays in the lesson.
    let last = LESSONS[0].steps.len();
    let at_end = load(&format!("lesson=a&step={last}&embed=1&controls="));
    assert!(app::refused(&at_end, &Msg::Lesson(LessonMsg::Build)));
    let unlocked = load(&format!("lesson=a&step={last}"));
    assert!(!app::refused(&unlocked, &Msg::Lesson(LessonMsg::Build)));
    app::update(
        &mut state,
        Msg::Quiz(QuizMsg::Start {
            stored: Progress::new(),
            fresh_seed: 5,
        }),
    );
    assert!(state.quiz.is_some());
    // A quiz link counts as its lesson's.
    assert!(app::lesson_open(
        &load("lesson=b&quiz=3&controls=dedup"),
        "b"
    ));
}

#[test]
fn a_locked_links_lesson_stays_open_so_its_runs_never_show_before_the_answer() {
    // Closing the lesson of a locked embed would show the whole run before the answer.
    let mut state = load("lesson=a&step=3&embed=1&controls=");
    assert!(app::refused(&state, &Msg::Lesson(LessonMsg::Close)));
    app::update(&mut state, Msg::Lesson(LessonMsg::Close));
    assert!(state.lesson.is_some(), "still in the lesson");
    assert!(state
        .lock_note
        .as_deref()
        .unwrap_or("")
        .contains("the lesson stays as it is"));
    assert!(
        !app::page_layout(&state).close_lesson,
        "no button that would only be refused"
    );
    // Unlocked, it closes as before.
    let mut free = load("lesson=a&step=3&embed=1");
    assert!(app::page_layout(&free).close_lesson);
    app::update(&mut free, Msg::Lesson(LessonMsg::Close));
    assert!(free.lesson.is_none());
}

/// A refused locked action says which lock refused it and what may change instead
/// (in the banner), and changes nothing else; the note goes with the next scenario change.
#[test]
fn a_refused_locked_action_names_its_lock_in_the_banner() {
    let link = "seed=7&preset=lost-ack&embed=1&controls=dedup";
    let mut state = load(link);
    let effects = app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(99)));
    assert_eq!(
        (effects.render, effects.rerun, effects.url),
        (true, false, None)
    );
    assert_eq!(state.page, load(link).page, "nothing changed");
    let banner = Banner::of(&state).expect("a banner");
    assert_eq!(banner.heading, "That change is locked.");
    expect_test::expect![[r#"
        [
            "This lab's author set it up so that only dedup can be changed here: the seed stays as it is.",
        ]
    "#]]
    .assert_debug_eq(&banner.lines);
    let says = |msg: Msg| {
        let mut state = load(link);
        app::update(&mut state, msg);
        state.lock_note.unwrap_or_default()
    };
    assert!(
        says(Msg::Scenario(ScenarioMsg::CompareKeys("orders=10".into())))
            .contains("the Compare box")
    );
    assert!(says(Msg::Lesson(LessonMsg::Open(&LESSONS[1]))).contains("Lesson B stays as it is"));
    assert!(says(Msg::Scenario(ScenarioMsg::SetKey {
        name: "retries".into(),
        value: "1".into()
    }))
    .contains("the retries setting"));
    let none = "seed=7&embed=1&controls=";
    let mut state = load(none);
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::PickPreset("race".into())),
    );
    assert!(state
        .lock_note
        .as_deref()
        .unwrap()
        .contains("so that nothing can be changed here:"));
    // The open key changes, and the note goes.
    let mut state = load(link);
    app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(3)));
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::SetKey {
            name: "dedup".into(),
            value: "atomic".into(),
        }),
    );
    assert_eq!((state.lock_note.clone(), Banner::of(&state)), (None, None));
    // Without locks nothing is refused and nothing is said.
    let mut free = load("seed=7");
    app::update(&mut free, Msg::Scenario(ScenarioMsg::NewSeed(3)));
    assert_eq!(free.lock_note, None);
}
