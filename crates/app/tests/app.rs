//! The page's decisions, natively: `app::update` and the view model, one test per decision the
//! web layer used to make on its own.
// Native tests: Unicode case mapping costs the page nothing here (clippy.toml forbids it in
// the library, where it would link 18 KB of tables into the wasm).
#![allow(clippy::disallowed_methods)]

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::{
    self, compare_sentence, counts_at_label, events_counted, names_scenario, order_outcome,
    sweep_range, tables_at, AnswerInput, Banner, Effects, Focus, KeyTarget, Msg, Shortcut, State,
    Tab, UrlWrite,
};
use idemlab_core::scenario::{decode_lenient, Consumer, Dedup, Step};
use idemlab_course::lessons::{Lesson, Side, LESSONS};
use idemlab_course::quiz::progress::Progress;
use idemlab_course::quiz::{Form, QUESTIONS};
use idemlab_lab::view::{Viewport, GUTTER_PX};

fn load(query: &str) -> State {
    let mut state = State::load(query, &Progress::new());
    ran(&mut state);
    state
}

/// What the page does after a rerun: its scheduler builds A and B and tells the state.
fn ran(state: &mut State) {
    let mut page = app::Page::from_state(state.clone());
    page.rerun();
    *state = page.state;
}

fn step_scenario(lesson: &Lesson, index: usize) -> idemlab_core::scenario::Scenario {
    decode_lenient(lesson.steps[index].query).0.scenario
}

#[test]
fn a_lesson_link_without_scenario_keys_opens_the_steps_scenario() {
    let state = load("lesson=a&step=4");
    assert_eq!(state.page.scenario, step_scenario(&LESSONS[0], 3));
    assert_eq!(state.tab, Tab::Lessons);
    assert_eq!(Banner::of(&state), None);
}

#[test]
fn a_lesson_link_with_scenario_keys_keeps_them_and_the_banner_says_so() {
    // The bug: `dedup=atomic` was dropped without a word, since only `seed=` and `preset=`
    // counted as naming a scenario.
    let state = load("dedup=atomic&lesson=a&step=4");
    assert_eq!(state.page.scenario.dedup, Dedup::Atomic);
    let banner = Banner::of(&state).expect("a banner");
    assert_eq!(banner.heading, "The link's own scenario loaded.");
    assert!(banner.lines[0].contains("lesson A step 4"), "{banner:?}");
    assert!(state.to_query().contains("dedup=atomic"));
}

#[test]
fn a_lesson_permalink_the_page_wrote_loads_as_it_was_with_no_note() {
    let mut state = load("");
    app::update(&mut state, Msg::OpenLesson(&LESSONS[0]));
    app::update(&mut state, Msg::OpenStep(3));
    let again = load(&state.to_query());
    assert_eq!(again.page.scenario, state.page.scenario);
    assert_eq!(again.lesson, state.lesson);
    assert_eq!(Banner::of(&again), None);
}

#[test]
fn view_keys_do_not_name_a_scenario_but_any_scenario_key_does() {
    assert!(!names_scenario(
        "lesson=a&step=4&embed=1&controls=dedup&tab=lessons"
    ));
    for query in [
        "seed=3",
        "preset=race",
        "dedup=atomic",
        "?retries=2&lesson=a",
    ] {
        assert!(names_scenario(query), "{query}");
    }
}

#[test]
fn a_bad_quiz_seed_next_to_a_step_link_still_shows_in_the_banner() {
    let state = load("lesson=a&step=2&quiz=banana");
    let banner = Banner::of(&state).expect("a banner");
    assert!(banner.lines.iter().any(|l| l.contains("quiz=banana")));
    assert_eq!(
        banner.heading,
        "Some of the link was not understood; the rest loaded."
    );
}

#[test]
fn the_compare_sentence_puts_as_values_beside_bs() {
    let state = load("seed=3&preset=race&compare=dedup%3Datomic");
    let a = idemlab_lab::run(&state.page.scenario).1;
    let b = idemlab_lab::run(&state.page.compare_scenario().unwrap()).1;
    expect!["dedup=naive: 1 duplicate, 0 lost orders → dedup=atomic: 0 duplicates, 0 lost orders"]
        .assert_eq(&compare_sentence(&state, &a, &b).unwrap());
    assert_eq!(compare_sentence(&load("seed=3"), &a, &b), None);
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
fn bs_counts_at_the_cursor_fold_its_events_up_to_the_cursors_time() {
    let mut state = load("seed=3&preset=race&compare=retries%3D0");
    let a = idemlab_core::sim::run(&state.page.scenario);
    let b = idemlab_core::sim::run(&state.page.compare_scenario().unwrap());
    assert_eq!(
        events_counted(&state, &a, Side::B, &b),
        None,
        "no cursor: all"
    );
    app::update(&mut state, Msg::GoTo(10));
    assert_eq!(events_counted(&state, &a, Side::A, &a), Some(11));
    let time_us = a.events[10].time_us;
    let expected = b.events.iter().filter(|e| e.time_us <= time_us).count();
    assert_eq!(events_counted(&state, &a, Side::B, &b), Some(expected));
    assert!(counts_at_label(&state, &a).starts_with("Counts at "));
}

#[test]
fn bs_key_table_is_captioned_at_the_cursors_moment_like_the_counters() {
    // Issue 11's second walk: the check's A counters said 90.77 ms and B's key table 88.99 ms,
    // the time of B's last event before the cursor, as if taken at another moment.
    let query = "seed=463183&orders=5&dedup=naive&timeout_ms=41&backoff_ms=2&latency_ms=6..14";
    let mut state = load(&format!("{query}&compare=dedup%3Datomic"));
    let a = idemlab_core::sim::run(&state.page.scenario);
    let b = idemlab_core::sim::run(&state.page.compare_scenario().unwrap());
    let at = (1..a.events.len() - 1)
        .find(|&i| !b.events.iter().any(|e| e.time_us == a.events[i].time_us))
        .expect("a moment of A where B has no event");
    app::update(&mut state, Msg::GoTo(at as u32));
    let moment = idemlab_lab::view::ms_text(a.events[at].time_us);
    for (side, run) in [(Side::A, &a), (Side::B, &b)] {
        let view = app::key_store_for(&state, &a, side, run);
        assert!(
            view.caption.starts_with(&format!("Key table at {moment}:")),
            "{side:?}: {}",
            view.caption
        );
    }
    assert!(counts_at_label(&state, &a).contains(&moment));
}

#[test]
fn a_failing_order_loads_the_failing_run_and_a_safe_one_the_current_scenario() {
    let current = load("seed=5&preset=race").page.scenario;
    let wrong = [
        Step::Begin,
        Step::Effect,
        Step::Lookup,
        Step::Claim,
        Step::Commit,
        Step::Respond,
    ];
    let verdict = idemlab_course::ordering::judge(wrong, 20);
    let (text, safe, scenario) = order_outcome(wrong, &current, &verdict);
    assert!(!safe && text.starts_with("Fails."), "{text}");
    assert!(text.contains(&format!("seed {}", scenario.seed)));
    assert_ne!(scenario, current);
    let verdict = idemlab_course::ordering::judge(Step::CORRECT, 20);
    let (_, safe, scenario) = order_outcome(Step::CORRECT, &current, &verdict);
    assert!(safe);
    assert_eq!(scenario.order, Step::CORRECT);
    assert_eq!(scenario.seed, current.seed);
}

#[test]
fn running_an_order_keeps_the_draft_and_pushes_the_loaded_run() {
    let mut state = load("lesson=a&step=1");
    app::update(&mut state, Msg::Reorder { from: 2, to: 1 });
    let draft = state.draft;
    let effects = app::update(&mut state, Msg::RunOrder);
    assert_eq!(effects.url, Some(UrlWrite::Push));
    assert!(effects.rerun);
    assert_eq!(state.draft, draft);
    assert!(state.verdict.is_some());
}

#[test]
fn reordering_moves_one_step_and_shifts_the_ones_between() {
    let mut draft = Step::CORRECT;
    app::move_step(&mut draft, 0, 2);
    assert_eq!(
        &draft[..3],
        &[Step::CORRECT[1], Step::CORRECT[2], Step::CORRECT[0]]
    );
    app::move_step(&mut draft, 2, 0);
    assert_eq!(draft, Step::CORRECT);
}

#[test]
fn picking_a_compare_preset_turns_compare_on_with_its_fix() {
    let mut state = load("seed=4");
    app::update(&mut state, Msg::PickPreset("naive-vs-atomic".into()));
    let fix = state.page.scenario.preset.unwrap().spec().fix;
    assert_eq!(state.page.compare.as_deref(), Some(fix));
    assert_eq!(state.page.scenario.seed, 4);
    let mut state = load("seed=4");
    app::update(&mut state, Msg::PickPreset("race".into()));
    assert_eq!(state.page.compare, None, "a preset not made for comparing");
}

#[test]
fn a_scenario_change_pushes_history_and_a_view_change_replaces_it() {
    let mut state = load("seed=4");
    let push = app::update(
        &mut state,
        Msg::SetKey {
            name: "retries".into(),
            value: "2".into(),
        },
    );
    assert_eq!(push.url, Some(UrlWrite::Push));
    ran(&mut state);
    for msg in [
        Msg::GoTo(3),
        Msg::Zoom(Some((0, 900))),
        Msg::OpenTab(Tab::Tables),
    ] {
        assert_eq!(app::update(&mut state, msg).url, Some(UrlWrite::Replace));
    }
    let refused = app::update(
        &mut state,
        Msg::SetKey {
            name: "retries".into(),
            value: "99".into(),
        },
    );
    assert_eq!(refused.url, None, "a refused value changes nothing");
    assert_eq!(
        Banner::of(&state).unwrap().heading,
        "That value was not accepted; the run is unchanged."
    );
}

#[test]
fn after_back_the_state_is_the_urls() {
    let mut state = load("seed=4");
    // What the address bar holds (with `v=`, issue 13).
    let before = app::address_query(&state);
    assert_eq!(before, "seed=4&v=2");
    app::update(&mut state, Msg::NewSeed(9));
    let effects = app::update(
        &mut state,
        Msg::UrlChanged {
            query: format!("?{before}"),
            stored: Progress::new(),
        },
    );
    assert!(effects.rerun && effects.url.is_none());
    assert_eq!(app::address_query(&state), before);
    let same = app::update(
        &mut state,
        Msg::UrlChanged {
            query: before.clone(),
            stored: Progress::new(),
        },
    );
    assert_eq!(
        same,
        Effects::default(),
        "a hash change alone reloads nothing"
    );
}

#[test]
fn a_sweep_from_the_largest_seed_runs_the_one_seed_there_and_says_why() {
    let range = sweep_range(u64::MAX, "1000");
    assert_eq!((range.first, range.count), (u64::MAX, 1));
    expect!["Only 1 of the 1000 seeds asked for exist from seed 18446744073709551615: seeds end at 18446744073709551615."]
        .assert_eq(range.note.as_deref().unwrap());
    let range = sweep_range(u64::MAX - 9, "1000");
    assert_eq!(range.count, 10);
    let range = sweep_range(0, "250000");
    assert_eq!((range.count, range.asked), (100_000, 100_000));
    assert!(range.note.is_some());
    assert_eq!(sweep_range(7, "abc").count, 1_000);
    assert_eq!(sweep_range(7, " 12 ").note, None);
}

#[test]
fn a_sweep_job_runs_every_seed_of_its_range_and_no_more() {
    let mut state = load(&format!("seed={}", u64::MAX - 2));
    let effects = app::update(&mut state, Msg::SweepStart("5".into()));
    assert!(effects.sweep_slice);
    let job = state.sweep.as_mut().unwrap();
    for _ in 0..10 {
        job.run_one();
    }
    assert!(job.finished());
    assert_eq!(job.totals.runs, 3);
}

#[test]
fn the_tables_fold_typed_rows_and_the_ledger_agrees_with_the_metrics() {
    let (trace, metrics) =
        idemlab_lab::run(&decode_lenient("seed=3&preset=ledger-replaced").0.scenario);
    let tables = tables_at(&trace, trace.events.len());
    assert_eq!(tables.attempts.len() as u32, metrics.received);
    let unrecorded = tables.charges.iter().filter(|c| !c.committed).count() as u32;
    assert_eq!(unrecorded, metrics.unrecorded);
    assert_eq!(tables.receipts, None, "no queue, no receipts table");
    let (trace, metrics) = idemlab_lab::run(&decode_lenient("seed=3&consumer=plain").0.scenario);
    let receipts = tables_at(&trace, trace.events.len()).receipts.unwrap();
    assert_eq!(receipts.len() as u32, metrics.receipts);
    let repeats = receipts.iter().filter(|r| r.nth > 1).count() as u32;
    assert_eq!(repeats, metrics.duplicate_receipts);
    assert!(tables_at(&trace, 0).attempts.is_empty());
}

#[test]
fn changing_step_clears_the_outline_in_update_not_in_render() {
    let mut state = load("lesson=a&step=2");
    let index = (0..LESSONS[0].steps.len())
        .find(|&i| !LESSONS[0].steps[i].pointers.is_empty())
        .unwrap();
    app::update(&mut state, Msg::OpenStep(index));
    let effects = app::update(&mut state, Msg::TogglePointer(0));
    assert!(state.highlight.is_some());
    assert_eq!(effects.show_timeline, Some(state.highlight.unwrap().0));
    let effects = app::update(&mut state, Msg::OpenStep(index));
    assert_eq!(state.highlight, None);
    assert_eq!(effects.focus, Some(Focus::LessonHeading));
    app::update(&mut state, Msg::TogglePointer(0));
    app::update(&mut state, Msg::TogglePointer(0));
    assert_eq!(state.highlight, None, "a second press turns it off");
}

#[test]
fn a_quiz_link_draws_its_check_on_load_and_opens_the_lessons_tab() {
    let state = load("lesson=b&quiz=99");
    let session = state.quiz.as_ref().expect("drawn on load, not by painting");
    assert_eq!((session.quiz.lesson, session.quiz.seed), ("b", 99));
    assert_eq!(
        session.shown, None,
        "a fresh check opens on its introduction"
    );
    assert_eq!(state.tab, Tab::Lessons);
    assert!(state.to_query().ends_with("lesson=b&quiz=99"));
}

fn first_answer(state: &State) -> AnswerInput {
    let session = state.quiz.as_ref().unwrap();
    let question = &session.quiz.questions[session.shown.unwrap()];
    match question.form {
        Form::Choices(_) => AnswerInput {
            choice: Some(question.answer),
            number: String::new(),
        },
        Form::Number => AnswerInput {
            choice: None,
            number: question.answer.to_string(),
        },
    }
}

#[test]
fn a_quiz_resumes_where_the_learner_left_it_and_next_moves_on() {
    let mut state = load("lesson=a&quiz=5");
    app::update(&mut state, Msg::QuizBegin);
    let answer = first_answer(&state);
    let effects = app::update(&mut state, Msg::QuizAnswer(answer));
    assert!(effects.save_progress && effects.rerun);
    let session = state.quiz.clone().unwrap();
    assert_eq!(
        state.page.cursor,
        Some(session.quiz.questions[0].proof_event)
    );
    let mut stored = Progress::new();
    stored.record(&session.quiz, &session.answers);
    // The last step's "take the check" resumes the unfinished one, whatever fresh seed came.
    let mut again = load(&format!("lesson=a&step={}", LESSONS[0].steps.len()));
    app::update(
        &mut again,
        Msg::QuizStart {
            stored: stored.clone(),
            fresh_seed: 777,
        },
    );
    let resumed = again.quiz.as_ref().unwrap();
    assert_eq!(resumed.quiz.seed, 5);
    assert_eq!(resumed.shown, Some(1), "at the first open question");
    app::update(&mut again, Msg::QuizNext);
    assert_eq!(again.quiz.as_ref().unwrap().shown, Some(2));
    app::update(&mut again, Msg::QuizShow(QUESTIONS + 3));
    assert_eq!(again.quiz.as_ref().unwrap().shown, Some(QUESTIONS));
}

#[test]
fn a_quiz_answer_is_checked_before_it_is_locked_in() {
    let mut state = load("lesson=a&quiz=31");
    app::update(&mut state, Msg::QuizBegin);
    let empty = AnswerInput {
        choice: None,
        number: "lots".into(),
    };
    let effects = app::update(&mut state, Msg::QuizAnswer(empty));
    let session = state.quiz.as_ref().unwrap();
    assert!(!effects.save_progress);
    assert!(session.answers[0].is_none());
    assert!(session.feedback.is_some());
    let effects = app::update(&mut state, Msg::QuizTry(None));
    assert!(!effects.rerun);
    let effects = app::update(&mut state, Msg::QuizClose);
    assert!(state.quiz.is_none() && effects.rerun);
    let last = LESSONS[0].steps.len() - 1;
    assert_eq!(state.lesson.unwrap().index(), last);
}

#[test]
fn playing_from_the_end_starts_over_and_stops_at_the_last_event() {
    let mut state = load("seed=2");
    let effects = app::update(&mut state, Msg::Play);
    assert!(effects.tick && state.playing);
    assert_eq!(state.page.cursor, Some(0));
    let mut ticks = 0;
    while app::update(&mut state, Msg::Tick).tick {
        ticks += 1;
    }
    assert!(!state.playing);
    assert_eq!(state.page.cursor, None, "the end");
    assert_eq!(ticks + 2, state.events_a);
}

#[test]
fn the_quiz_says_right_or_wrong_and_all_right_masters_the_lesson() {
    let mut state = load("lesson=b&quiz=8");
    app::update(&mut state, Msg::QuizBegin);
    let (hint, result) = state.quiz.as_ref().unwrap().feedback(0);
    assert!(hint.starts_with("Answer before you see the run") && result.is_none());
    for index in 0..QUESTIONS {
        let answer = first_answer(&state);
        app::update(&mut state, Msg::QuizAnswer(answer));
        let (text, result) = state.quiz.as_ref().unwrap().feedback(index);
        assert!(text.starts_with("Right."), "{text}");
        assert_eq!(result, Some(true));
        app::update(&mut state, Msg::QuizNext);
    }
    let session = state.quiz.as_ref().unwrap();
    assert_eq!(session.shown, Some(QUESTIONS));
    let (text, mastered) = session.score_text();
    assert!(mastered);
    expect!["4 of 4 right: Lesson B mastered."].assert_eq(&text);
}

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

#[test]
fn a_steps_claims_name_the_run_they_are_about() {
    let with_b = LESSONS[0]
        .steps
        .iter()
        .find(|s| s.compare.is_some())
        .unwrap();
    let lines = app::claim_lines(with_b);
    assert!(
        lines
            .iter()
            .all(|l| l.text.starts_with("A: ") || l.text.starts_with("B: ")),
        "{lines:?}"
    );
    let alone = LESSONS[0]
        .steps
        .iter()
        .find(|s| s.compare.is_none())
        .unwrap();
    assert!(app::claim_lines(alone)
        .iter()
        .all(|l| l.text.starts_with("the run: ")));
}

// ---- Keys and pointer gestures (`app::input`) ----

fn key(key: &str, target: KeyTarget) -> Option<Shortcut> {
    app::shortcut(key, false, target)
}

#[test]
fn shortcut_map_on_the_page() {
    let msg = |m| Some(Shortcut::Msg(m));
    assert_eq!(key(" ", KeyTarget::Page), msg(Msg::Play));
    assert_eq!(key("ArrowLeft", KeyTarget::Page), msg(Msg::Step(-1)));
    assert_eq!(key("ArrowRight", KeyTarget::Page), msg(Msg::Step(1)));
    assert_eq!(key("Home", KeyTarget::Page), msg(Msg::GoTo(0)));
    assert_eq!(key("End", KeyTarget::Page), msg(Msg::GoTo(u32::MAX)));
    assert_eq!(key("0", KeyTarget::Page), msg(Msg::Zoom(None)));
    for (k, want) in [
        ("n", Shortcut::NewSeed),
        ("N", Shortcut::NewSeed),
        ("l", Shortcut::CopyLink),
        ("L", Shortcut::CopyLink),
        ("?", Shortcut::Help),
        ("+", Shortcut::ZoomBy(2.0)),
        ("=", Shortcut::ZoomBy(2.0)),
        ("-", Shortcut::ZoomBy(0.5)),
        ("_", Shortcut::ZoomBy(0.5)),
    ] {
        assert_eq!(key(k, KeyTarget::Page), Some(want), "key {k:?}");
    }
    assert_eq!(key("x", KeyTarget::Page), None);
    assert_eq!(key("Enter", KeyTarget::Page), None);
}

#[test]
fn shortcut_new_seed_is_refused_with_a_word_while_the_seed_is_locked() {
    assert_eq!(
        app::shortcut("n", false, KeyTarget::Page),
        Some(Shortcut::NewSeed)
    );
    // Issue 13: not silently dropped; the state machine refuses it and says why.
    let mut state = load("seed=7&embed=1&controls=dedup");
    app::update(&mut state, Msg::NewSeed(8));
    assert_eq!(state.page.scenario.seed, 7);
    assert!(state.lock_note.unwrap().contains("the seed stays as it is"));
}

#[test]
fn shortcut_not_with_a_modifier() {
    for k in [" ", "ArrowLeft", "l", "+", "0"] {
        assert_eq!(app::shortcut(k, true, KeyTarget::Page), None, "{k:?}");
    }
}

#[test]
fn shortcut_not_while_typing_or_in_a_dialog() {
    for k in [" ", "ArrowLeft", "Home", "l", "?", "+", "0"] {
        assert_eq!(key(k, KeyTarget::Field), None, "field {k:?}");
        assert_eq!(key(k, KeyTarget::Dialog), None, "dialog {k:?}");
    }
}

#[test]
fn shortcut_space_and_arrows_belong_to_a_focused_control() {
    // Issue 14: Space on a button or phrase, an arrow on a tab or row, never reach the cursor.
    for k in [" ", "Enter", "ArrowRight", "ArrowLeft", "Home", "End"] {
        assert_eq!(key(k, KeyTarget::Pressable), None, "{k:?}");
    }
    assert_eq!(key("l", KeyTarget::Pressable), Some(Shortcut::CopyLink));
}

fn window(msg: Msg) -> (u64, u64) {
    match msg {
        Msg::Zoom(Some(window)) => window,
        other => panic!("not a zoom window: {other:?}"),
    }
}

#[test]
fn zoom_about_keeps_the_cursor_in_place() {
    let viewport = Viewport::new(0, 1_000_000, 1_000);
    // Zooming in 2x about 250 ms: the cursor stays a quarter of the way across.
    assert_eq!(
        window(app::zoom_about(viewport, 250_000, 2.0)),
        (125_000, 625_000)
    );
    assert_eq!(window(app::zoom_about(viewport, 0, 2.0)), (0, 500_000));
}

#[test]
fn wheel_down_zooms_out_about_the_pointer() {
    let viewport = Viewport::new(1_000_000, 2_000_000, 1_000);
    let at_middle_px = GUTTER_PX + 500.0;
    let (t0, t1) = window(app::wheel_zoom(viewport, 1.0, at_middle_px));
    assert_eq!(t1 - t0, 1_250_000, "down zooms out by 0.8");
    assert_eq!((t0 + t1) / 2, 1_500_000, "about the pointer");
    let (t0, t1) = window(app::wheel_zoom(viewport, -1.0, at_middle_px));
    assert_eq!(t1 - t0, 800_000, "up zooms in by 1.25");
    // Over the gutter the anchor is the window's start.
    let (t0, _) = window(app::wheel_zoom(viewport, -1.0, 10.0));
    assert_eq!(t0, 1_000_000);
}

#[test]
fn pan_follows_the_pointer_after_a_small_dead_zone() {
    let start = Viewport::new(1_000_000, 2_000_000, 1_000);
    assert_eq!(app::pan(start, 2.0), None, "still a click");
    assert_eq!(app::pan(start, -2.9), None, "still a click");
    // 1,000 px for 1 s: dragging 100 px right shows 100 ms earlier.
    assert_eq!(
        window(app::pan(start, 100.0).unwrap()),
        (900_000, 1_900_000)
    );
    assert_eq!(
        window(app::pan(start, -100.0).unwrap()),
        (1_100_000, 2_100_000)
    );
}

#[test]
fn a_mark_selects_its_own_event_and_a_mark_of_the_other_run_brings_that_run_into_focus() {
    let mut state = load("seed=3&preset=race&compare=dedup%3Datomic");
    assert_eq!(
        app::mark_select(&state, Side::A, 5),
        Msg::Select(5),
        "A's own event"
    );
    let msg = app::mark_select(&state, Side::B, 7);
    assert_eq!(
        msg,
        Msg::FocusOn {
            side: Side::B,
            cursor: Some(7)
        }
    );
    app::update(&mut state, msg);
    assert_eq!((state.focus(), state.cursor()), (Side::B, 7));
    assert_eq!(app::mark_select(&state, Side::B, 3), Msg::Select(3));
    let alone = load("seed=3&preset=race");
    assert_eq!(
        app::mark_select(&alone, Side::B, 3),
        Msg::Select(3),
        "no B, no focus"
    );
}

// ---- Words and classes about one event (`app::text`) ----

fn trace_of(query: &str) -> idemlab_core::trace::Trace {
    idemlab_core::sim::run(&decode_lenient(query).0.scenario)
}

#[test]
fn the_cursor_label_counts_times_and_describes() {
    let trace = trace_of("seed=7");
    let label = app::cursor_label(&trace, 0);
    let head = format!("event 1 of {} · ", trace.events.len());
    assert!(label.starts_with(&head), "{label}");
    let mut what = String::new();
    idemlab_core::trace::describe(&mut what, &trace.events[0].kind, &trace).unwrap();
    assert!(label.ends_with(&format!(" · {what}")), "{label}");
    assert_eq!(app::cursor_label(&trace, trace.events.len()), "no events");
}

#[test]
fn the_cursor_tooltip_is_the_events_number_time_and_description() {
    let trace = trace_of("seed=7");
    let text = app::cursor_tooltip(&trace, 2).unwrap();
    let time = idemlab_lab::view::ms_text(trace.events[2].time_us);
    assert!(text.starts_with(&format!("event 3 at {time}: ")), "{text}");
    assert_eq!(app::cursor_tooltip(&trace, trace.events.len()), None);
}

#[test]
fn a_marks_tooltip_names_order_attempt_and_key() {
    let trace = trace_of("seed=7&dedup=naive");
    let timeline = idemlab_lab::view::layout(&trace);
    let mark = timeline
        .marks()
        .iter()
        .find(|m| {
            let e = &trace.events[m.event() as usize];
            e.order().is_some() && e.attempt().is_some() && e.key.is_some()
        })
        .expect("a mark with order, attempt and key");
    let event = &trace.events[mark.event() as usize];
    let lines: Vec<String> = app::mark_tooltip(&trace, &timeline, mark)
        .lines()
        .map(str::to_string)
        .collect();
    // The client's lane says "client"; the pod that sent it is a line of its own.
    let pod = match event.node {
        idemlab_core::trace::Node::Client(pod) => {
            Some(format!("client pod {:08x}", trace.pod_uid(pod)))
        }
        _ => None,
    };
    let lines: Vec<String> = (lines.into_iter())
        .filter(|line| Some(line) != pod.as_ref())
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(
        lines[1],
        format!(
            "order {}, attempt {}",
            event.order().unwrap(),
            event.attempt().unwrap()
        )
    );
    // A request carries its key as a header line (issue 11); other events name it.
    let request = app::request_header(&trace, mark.event() as usize);
    let key = format!("key {}", event.key.unwrap());
    assert_eq!(lines[2], request.unwrap_or(key));
}

#[test]
fn a_client_lane_is_called_client_and_its_marks_name_their_pod() {
    let trace = trace_of("seed=1&preset=pod-rerun");
    let timeline = idemlab_lab::view::layout(&trace);
    let labels: Vec<&str> = (timeline.lanes().iter())
        .map(|lane| lane.label.as_str())
        .take(2)
        .collect();
    assert_eq!(labels, ["client", "client (rerun)"]);
    let mark = (timeline.marks().iter())
        .find(|m| {
            matches!(
                trace.events[m.event() as usize].node,
                idemlab_core::trace::Node::Client(1)
            )
        })
        .expect("a mark of the rerun's pod");
    let tooltip = app::mark_tooltip(&trace, &timeline, mark);
    let pod = format!("client pod {:08x}", trace.pod_uid(1));
    assert!(tooltip.lines().any(|l| l == pod), "{tooltip}");
    let several = idemlab_lab::view::layout(&trace_of("seed=1&clients=2&orders=2"));
    assert_eq!(several.lanes()[1].label, "client 2");
}

/// The index of a trace's first request to the API.
fn first_request(trace: &idemlab_core::trace::Trace) -> usize {
    use idemlab_core::trace::{EventKind, Payload};
    (trace.events.iter())
        .position(|e| {
            matches!(
                e.kind,
                EventKind::Send {
                    payload: Payload::Request { .. },
                    ..
                }
            )
        })
        .expect("a request")
}

#[test]
fn a_key_the_api_does_not_check_says_so_in_its_header_line() {
    let trace = trace_of("seed=7&preset=lost-ack");
    let index = first_request(&trace);
    let header = app::request_header(&trace, index).unwrap();
    assert!(
        header.ends_with("(the API does not check it: dedup=none)"),
        "{header}"
    );
}

#[test]
fn a_read_only_transaction_ends_as_done_not_as_a_rollback() {
    use idemlab_lab::view::Class;
    let trace = trace_of("seed=7&preset=lost-ack&dedup=atomic");
    let timeline = idemlab_lab::view::layout(&trace);
    let labels: Vec<String> = (timeline.marks().iter())
        .filter(|m| m.class() == Class::Rollback)
        .map(|m| timeline.label(m))
        .collect();
    assert!(!labels.is_empty(), "replays end read-only transactions");
    assert!(
        labels.iter().all(|l| l.ends_with("done (read only)")),
        "{labels:?}"
    );
    assert!(timeline
        .marks()
        .iter()
        .all(|m| m.class() != Class::TxnRollback));
}

#[test]
fn rows_past_the_cursor_are_future_and_charges_drops_crashes_marked() {
    use idemlab_core::trace::EventKind;
    let trace = trace_of("seed=7&dedup=naive");
    let charge = trace
        .events
        .iter()
        .position(|e| matches!(e.kind, EventKind::Charge { replay: false, .. }))
        .expect("a charge");
    assert_eq!(app::row_class(&trace, charge, charge), "charge");
    assert_eq!(app::row_class(&trace, charge, 0), "future charge");
    let plain = trace
        .events
        .iter()
        .position(|e| {
            !matches!(
                e.kind,
                EventKind::Charge { .. } | EventKind::Drop { .. } | EventKind::Crash
            )
        })
        .unwrap();
    assert_eq!(app::row_class(&trace, plain, plain), "");
    assert_eq!(app::row_class(&trace, plain, trace.events.len()), "");
}

// ---- The mastery check's dots and status line ----

/// A given answer to `question` that is wrong.
fn wrong(question: &idemlab_course::quiz::Question) -> u32 {
    (0..).find(|&a| !question.is_right(a)).unwrap()
}

#[test]
fn quiz_dots_mark_right_wrong_current_and_to_come() {
    let mut session = app::QuizSession::draw(&LESSONS[0], 5, &Progress::new());
    let qs = session.quiz.questions.clone();
    session.answers[0] = Some(qs[0].answer);
    session.answers[1] = Some(wrong(&qs[1]));
    let dots = session.dots(2);
    assert_eq!(dots.len(), QUESTIONS);
    let texts: Vec<&str> = dots.iter().map(|d| d.text.as_str()).collect();
    assert_eq!(&texts[..3], ["1 ✓", "2 ✗", "3 •"]);
    assert_eq!(dots[0].label, "question 1: right");
    assert_eq!(dots[1].label, "question 2: wrong");
    assert_eq!(dots[2].label, "question 3: current question");
    assert_eq!(dots[3].label, "question 4: to come");
    assert_eq!(dots[3].text, "4 ");
    let current: Vec<bool> = dots.iter().map(|d| d.current).collect();
    assert_eq!(current.iter().filter(|&&c| c).count(), 1);
    assert!(dots[2].current);
}

#[test]
fn three_of_four_says_in_questions_what_mastery_needs() {
    // Issue 11: "80% is needed" read as if 3 of 4 might do, and "all 4 right" beside it made
    // two rules: one rule, in questions, and no percent.
    let mut state = load("lesson=a&quiz=31");
    app::update(&mut state, Msg::QuizBegin);
    for index in 0..QUESTIONS {
        let mut answer = first_answer(&state);
        if index == 0 {
            let question = &state.quiz.as_ref().unwrap().quiz.questions[0];
            answer.choice = answer.choice.map(|c| (c + 1) % 3);
            answer.number = wrong(question).to_string();
        }
        app::update(&mut state, Msg::QuizAnswer(answer));
        app::update(&mut state, Msg::QuizNext);
    }
    let (text, mastered) = state.quiz.as_ref().unwrap().score_text();
    assert!(!mastered);
    expect!["3 of 4 right: not mastered yet; all 4 right masters the lesson. Try a new variant when ready."].assert_eq(&text);
}

#[test]
fn closing_the_lesson_mid_question_runs_a_real_scenario_not_the_hidden_empty_one() {
    // Issue 11: "Close lesson" during a check painted the never-run question's zeros as counts.
    let mut state = load("lesson=a&quiz=5");
    app::update(&mut state, Msg::QuizBegin);
    assert!(app::run_hidden(&state));
    let effects = app::update(&mut state, Msg::CloseLesson);
    assert!(!app::run_hidden(&state));
    assert!(effects.rerun, "the page runs its scenario again");
}

#[test]
fn mid_run_the_unrecorded_counter_says_not_recorded_yet() {
    // Issue 11: at a cursor before the end, a charge whose ledger row is not committed yet is
    // counted too; the card must not read as a final loss.
    let mut state = load("seed=1&dedup=atomic&crash=api@after-effect");
    let m = idemlab_lab::run(&state.page.scenario).1;
    let label = |state: &State| {
        let view = app::counters_view(state, Side::A, &state.page.scenario.clone(), &m);
        view.cards
            .iter()
            .find(|c| c.name == "unrecorded")
            .unwrap()
            .label
    };
    assert_eq!(label(&state), "Charges the ledger never recorded");
    state.page.cursor = Some(1);
    assert_eq!(label(&state), "Charges the ledger has not recorded yet");
    state.page.cursor = Some(state.events_a - 1);
    assert_eq!(label(&state), "Charges the ledger never recorded");
}

#[test]
fn quiz_status_says_not_taken_best_so_far_or_mastered() {
    let quiz = idemlab_course::quiz::generate(&LESSONS[0], 5);
    let mut progress = Progress::new();
    assert_eq!(
        app::quiz_status(&progress, "a"),
        format!("Not taken yet: {QUESTIONS} questions, one attempt each.")
    );
    let mut answers: Vec<Option<u32>> = quiz.questions.iter().map(|q| Some(q.answer)).collect();
    answers[0] = Some(wrong(&quiz.questions[0]));
    progress.record(&quiz, &answers);
    let best = QUESTIONS - 1;
    assert_eq!(
        app::quiz_status(&progress, "a"),
        format!("Best so far: {best} of {QUESTIONS}; all {QUESTIONS} right masters the lesson.")
    );
    answers[0] = Some(quiz.questions[0].answer);
    progress.record(&quiz, &answers);
    assert_eq!(
        app::quiz_status(&progress, "a"),
        format!("Mastered (best {QUESTIONS} of {QUESTIONS}).")
    );
}

#[test]
fn step_nav_has_no_previous_first_and_offers_the_check_last() {
    let nav = app::step_nav(4, 0);
    assert_eq!((nav.previous, nav.next, nav.last), (None, Some(1), false));
    let nav = app::step_nav(4, 2);
    assert_eq!(
        (nav.previous, nav.next, nav.last),
        (Some(1), Some(3), false)
    );
    let nav = app::step_nav(4, 3);
    assert_eq!((nav.previous, nav.next, nav.last), (Some(2), None, true));
    let nav = app::step_nav(1, 0);
    assert_eq!((nav.previous, nav.next, nav.last), (None, None, true));
}

#[test]
fn counters_mark_duplicates_and_lost_work_and_show_queue_counts_only_with_a_queue() {
    let (_, metrics) = idemlab_lab::run(&decode_lenient("seed=3&preset=race").0.scenario);
    assert!(metrics.duplicates > 0, "the race preset duplicates");
    let counters = app::counters(&metrics, Consumer::Off);
    let names: Vec<&str> = counters.iter().map(|c| c.name).collect();
    assert_eq!(names[..4], ["orders", "attempts", "received", "effects"]);
    let bad: Vec<&str> = counters.iter().filter(|c| c.bad).map(|c| c.name).collect();
    assert!(bad.contains(&"duplicates") && bad.iter().all(|n| ["duplicates", "lost"].contains(n)));
    let hidden: Vec<&str> = counters
        .iter()
        .filter(|c| !c.shown)
        .map(|c| c.name)
        .collect();
    assert_eq!(
        hidden,
        [
            "receipts",
            "duplicate_receipts",
            "redeliveries",
            "dead_letters"
        ]
    );
    assert!(app::counters(&metrics, Consumer::Inbox)
        .iter()
        .all(|c| c.shown));
    let none = app::counters(&idemlab_lab::Metrics::default(), Consumer::Off);
    assert!(none.iter().all(|c| !c.bad), "zero duplicates is not harm");
}

#[test]
fn a_preset_summary_shows_only_while_the_preset_stands_unchanged() {
    let scenario = |query: &str| decode_lenient(query).0.scenario;
    assert!(app::preset_summary(&scenario("seed=9&preset=lost-ack")).is_some());
    assert_eq!(
        app::preset_summary(&scenario("seed=9&preset=lost-ack&op=set")),
        None,
        "op=set makes \"every retry charges again\" untrue"
    );
    assert_eq!(app::preset_summary(&scenario("seed=9")), None);
}

#[test]
fn table_rows_become_cells_and_a_long_table_says_how_many_it_lists() {
    let row = app::ChargeRow {
        charge: 2,
        order: Some(1),
        attempt: None,
        pod_uid: Some(0xab),
        committed: false,
    };
    assert_eq!(row.cells(), ["2", "1", "", "000000ab", "no"]);
    let receipt = app::ReceiptRow {
        event: 4,
        charge: 2,
        order: None,
        nth: 2,
        inbox: false,
    };
    assert_eq!(
        receipt.cells(),
        ["e4", "#2", "", "repeat 2 (duplicate)", "no inbox"]
    );
    assert_eq!(app::rows_cut_note(app::TABLE_ROWS_MAX), "");
    assert_eq!(app::rows_cut_note(412), " — first 300 of 412");
}

#[test]
fn the_sweep_line_gives_totals_the_closed_form_and_the_ranges_note_first() {
    let mut state = load(&format!("seed={}&preset=lost-ack", u64::MAX - 1));
    app::update(&mut state, Msg::SweepStart("5".into()));
    let job = state.sweep.as_mut().unwrap();
    while !job.finished() {
        job.run_one();
    }
    let text = app::sweep_summary(job, 0.5);
    assert!(text.starts_with("Only 2 of the 5 seeds"), "{text}");
    assert!(text.contains("2 of 2 seeds in 0.50 s: "), "{text}");
    // Walk 11: "0 lost" left a newcomer asking what was lost.
    assert!(text.contains(" lost orders, "), "{text}");
    let (bars, label) = app::histogram(&job.totals);
    let runs: u64 = bars.iter().map(|b| b.runs).sum();
    assert_eq!(runs, 2);
    assert!(bars.iter().any(|b| b.height_percent == 100.0));
    assert!(label.starts_with("Duplicates per run: "), "{label}");
}

#[test]
fn the_embed_link_is_this_state_compact_with_only_the_ticked_controls() {
    let state = load("seed=4&preset=race&cursor=3");
    let query = app::embed_query(&state, vec!["dedup".into(), "retries".into()], None, false);
    assert!(
        query.ends_with("&cursor=3&embed=1&controls=dedup,retries&v=2"),
        "{query}"
    );
    let snippet = app::embed_snippet(&format!("https://lab.example/?{query}"), "t", None);
    assert!(
        snippet.contains("src=\"https://lab.example/?seed=4&amp;"),
        "{snippet}"
    );
    assert!(snippet.contains(app::HEIGHT_MESSAGE));
}

#[test]
fn issue_13_every_snippet_sizes_its_own_frame_with_one_listener_per_page() {
    let a = app::embed_snippet(
        "https://lab.example/lab/index.html?seed=1&embed=1",
        "a",
        None,
    );
    let b = app::embed_snippet(
        "https://lab.example/lab/index.html?seed=2&embed=1",
        "b",
        None,
    );
    // No shared id: the listener finds the frame whose window sent the message.
    assert!(!a.contains(" id="), "{a}");
    assert!(a.starts_with(
        "<iframe data-idemlab src=\"https://lab.example/lab/index.html?seed=1&amp;embed=1\""
    ));
    assert!(a.contains("frame.contentWindow === event.source"), "{a}");
    assert!(
        a.contains("querySelectorAll(\"iframe[data-idemlab]\")"),
        "{a}"
    );
    // Pasted twice, the guard registers one listener.
    assert!(a.contains("window.idemlabSize || addEventListener(\"message\", window.idemlabSize ="));
    // A first height that the message replaces, up or down: no min-height to stop a shrink.
    assert!(!a.contains("min-height"), "{a}");
    assert!(a.contains(&format!("height:{}px", app::EMBED_HEIGHT_PX)));
    assert!(
        a.contains(" allow=\"clipboard-write\""),
        "Copy link may write the clipboard"
    );
    let script = |s: &str| s[s.find("<script>").unwrap()..].to_string();
    assert_eq!(
        script(&a),
        script(&b),
        "every snippet carries the same script"
    );
}

#[test]
fn issue_13_theme_applies_and_a_wrong_one_is_named_in_the_banner() {
    use idemlab_app::page::Theme;
    let auto = ("(prefers-color-scheme: dark)", "light dark");
    assert_eq!(app::theme_rules(None), auto, "no key: the browser's scheme");
    assert_eq!(app::theme_rules(Some(Theme::Auto)), auto);
    assert_eq!(app::theme_rules(Some(Theme::Dark)), ("all", "dark"));
    assert_eq!(app::theme_rules(Some(Theme::Light)), ("not all", "light"));
    // Each theme's rules are found again to apply the next one over them (Back, Forward).
    for theme in [None, Some(Theme::Light), Some(Theme::Dark)] {
        assert!(app::is_theme_media(app::theme_rules(theme).0));
    }
    assert!(!app::is_theme_media("(max-width: 900px)") && !app::is_theme_media("print"));
    let state = load("seed=2&embed=1&theme=dark");
    assert_eq!(Banner::of(&state), None);
    assert!(
        state.to_query().contains("&theme=dark"),
        "the link keeps it"
    );
    let banner = Banner::of(&load("seed=2&theme=purple")).expect("a banner");
    assert_eq!(
        banner.lines,
        ["`theme=purple` is not valid: expected one of auto|light|dark"]
    );
}

#[test]
fn issue_13_link_trackers_are_ignored_other_unknown_keys_are_not() {
    let tracked = "seed=2&utm_source=news&utm_medium=mail&fbclid=Ab1&gclid=x&msclkid=y&mc_eid=z";
    let state = load(tracked);
    assert_eq!(Banner::of(&state), None);
    assert_eq!(state.to_query(), "seed=2", "the page's own link drops them");
    let banner = Banner::of(&load("seed=2&utm_source=news&colour=red")).expect("a banner");
    assert_eq!(banner.lines.len(), 1, "{:?}", banner.lines);
    assert!(banner.lines[0].starts_with("unknown key `colour`"));
}

#[test]
fn issue_13_copy_says_copied_only_when_the_write_resolved() {
    let done = app::copy_view(true);
    assert_eq!((done.label, done.show_field), ("Copied", false));
    let blocked = app::copy_view(false);
    assert_eq!((blocked.label, blocked.show_field), ("Not copied", true));
}

#[test]
fn the_quiz_titles_its_views_and_marks_the_choices_once_answered() {
    let mut state = load("lesson=a&quiz=5");
    let session = state.quiz.as_ref().unwrap();
    assert_eq!(session.title(), "Mastery check: Lesson A");
    assert!(session.intro_text().contains("Quiz seed 5"));
    app::update(&mut state, Msg::QuizBegin);
    let session = state.quiz.as_ref().unwrap();
    assert_eq!(
        session.title(),
        format!("Lesson A, question 1 of {QUESTIONS}")
    );
    let index =
        (0..QUESTIONS).find(|&i| matches!(session.quiz.questions[i].form, Form::Choices(_)));
    let Some(index) = index else {
        panic!("quiz seed 5 of lesson a has a question with choices");
    };
    let question = session.quiz.questions[index].clone();
    let wrong = wrong(&question);
    let mut session = state.quiz.clone().unwrap();
    assert!(
        !session.choice_text(index, wrong).contains('✗'),
        "no marks before answering"
    );
    session.answers[index] = Some(wrong);
    assert!(session
        .choice_text(index, wrong)
        .ends_with(" ✗ your answer"));
    let right = session.choice_text(index, question.answer);
    assert!(right.ends_with(" ✓ the right answer"), "{right}");
    session.shown = Some(QUESTIONS);
    assert_eq!(session.title(), "Mastery check: Lesson A, your score");
    let review = session.review();
    assert_eq!(review.len(), QUESTIONS);
    assert!(
        review[index].starts_with("✗ you answered "),
        "{}",
        review[index]
    );
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
    app::update(&mut state, Msg::Select(2));
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

/// `src/web` copies static markup from `index.html`'s `<template>`s by id; a renamed or lost
/// template would panic in the browser only, so check the names here.
#[test]
fn every_template_the_web_layer_copies_is_in_index_html() {
    let html = include_str!("../../../www/index.html");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src");
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let code = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        for piece in code.split("\"tpl-").skip(1) {
            names.push(format!("tpl-{}", piece.split('"').next().unwrap()));
        }
    }
    assert!(names.len() >= 15, "{names:?}");
    for name in names {
        let tag = format!("<template id=\"{name}\">");
        assert!(html.contains(&tag), "www/index.html has no {tag}");
    }
}

// ---- One screen: the lesson's column, the drawer, named counters, the run in focus ----

/// A step's own words, lower-cased: its text, its prediction's setup and question.
fn step_words(step: &idemlab_course::lessons::Step) -> String {
    format!(
        "{} {} {}",
        step.text, step.predict.setup, step.predict.question
    )
    .to_lowercase()
}

#[test]
fn every_counter_a_step_names_is_called_by_the_steps_own_words() {
    for lesson in &LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            let state = load(&format!("lesson={}&step={}", lesson.id, index + 1));
            let words = step_words(step);
            for side in [Side::A, Side::B] {
                let scenario = match side {
                    Side::A => state.page.scenario.clone(),
                    Side::B => match state.page.compare_scenario() {
                        Some(b) => b,
                        None => continue,
                    },
                };
                for metric in app::named_metrics(step, side) {
                    let label = app::counter_label(metric, &scenario).to_lowercase();
                    // Singular or plural: "Charges" is said "1 charge" or "5 charges".
                    let stem: Vec<String> = (label.split(' '))
                        .map(|word| match word.strip_suffix("ies") {
                            Some(stem) => format!("{stem}y"),
                            None => word.trim_end_matches('s').to_string(),
                        })
                        .collect();
                    let stem = stem.join(" ");
                    assert!(
                        words.contains(&stem) || words.contains(&label),
                        "lesson {} step {}: the {metric} card on {side:?} says {label:?}, which the step never says",
                        lesson.id,
                        index + 1
                    );
                }
            }
            for line in app::claim_lines(step) {
                let scenario = match line.side {
                    Side::A => state.page.scenario.clone(),
                    Side::B => state.page.compare_scenario().unwrap(),
                };
                let label = app::counter_label(line.metric, &scenario);
                assert!(line.text.contains(label), "{}", line.text);
            }
        }
    }
}

#[test]
fn the_effects_card_says_charges_or_writes_as_the_run_does() {
    let step2 = load("lesson=a&step=2");
    let a = step2.page.scenario.clone();
    let b = step2.page.compare_scenario().unwrap();
    assert_eq!(app::counter_label("effects", &a), "Writes", "op=set");
    assert_eq!(app::counter_label("effects", &b), "Charges", "op=charge");
    assert_eq!(app::counter_label("received", &a), "Attempt rows");
}

#[test]
fn in_a_step_only_the_named_counters_show_until_more_is_opened() {
    let mut state = load("lesson=a&step=5");
    let step = state.lesson.unwrap().step();
    let (_, metrics) = idemlab_lab::run(&state.page.scenario);
    let view = app::counters_view(
        &state,
        Side::B,
        &state.page.compare_scenario().unwrap(),
        &metrics,
    );
    let shown: Vec<&str> = (view.cards.iter())
        .filter(|c| c.shown)
        .map(|c| c.name)
        .collect();
    assert_eq!(
        shown,
        ["effects", "duplicates"],
        "B's claims and the prediction"
    );
    assert!(view
        .cards
        .iter()
        .all(|c| c.named == shown.contains(&c.name)));
    assert_eq!(view.folded, 10, "the other non-queue counters fold");
    assert_eq!(app::named_metrics(step, Side::A), ["duplicates"]);
    app::update(&mut state, Msg::MoreCounters(true));
    let view = app::counters_view(&state, Side::B, &state.page.scenario, &metrics);
    assert_eq!(view.cards.iter().filter(|c| c.shown).count(), 12);
    let free = load("seed=3&preset=race");
    let view = app::counters_view(&free, Side::A, &free.page.scenario, &metrics);
    assert_eq!(
        (view.folded, view.cards.iter().filter(|c| c.named).count()),
        (0, 0)
    );
    assert_eq!(
        view.cards.iter().filter(|c| c.shown).count(),
        12,
        "no lesson, no fold"
    );
}

#[test]
fn a_lesson_takes_the_controls_column_and_the_controls_fold_into_a_drawer() {
    let mut state = load("lesson=b&step=3");
    let layout = app::page_layout(&state);
    assert!(layout.lesson_column && !layout.controls_shown);
    assert_eq!(
        layout.panel, None,
        "the step is the column; no panel under the runs"
    );
    let effects = app::update(&mut state, Msg::ShowControls(true));
    assert_eq!(effects.focus, Some(Focus::Drawer));
    assert!(app::page_layout(&state).controls_shown);
    let effects = app::update(&mut state, Msg::ShowControls(false));
    assert_eq!(
        effects.focus,
        Some(Focus::DrawerToggle),
        "Escape gives the focus back"
    );
    app::update(&mut state, Msg::OpenTab(Tab::Tables));
    let layout = app::page_layout(&state);
    assert!(
        layout.lesson_column,
        "Tables opens beside the step, not instead of it"
    );
    assert_eq!(layout.panel, Some(Tab::Tables));
    app::update(&mut state, Msg::OpenStep(3));
    assert_eq!(
        app::page_layout(&state).panel,
        None,
        "the next step closes it"
    );
    app::update(&mut state, Msg::CloseLesson);
    let layout = app::page_layout(&state);
    assert!(!layout.lesson_column && layout.controls_shown);
    assert!(!state.to_query().contains("lesson="));
    // Issue 11: the ordering step's claims describe its own run, not the learner's order.
    let mut ordering = load("lesson=a&step=12");
    assert!(app::page_layout(&ordering).claims);
    app::update(&mut ordering, Msg::RunOrder);
    assert!(!app::page_layout(&ordering).claims, "no stale claim lines");
    let embed = load("lesson=a&step=4&embed=1");
    let layout = app::page_layout(&embed);
    assert!(
        layout.lesson_column && layout.side,
        "a self-sizing embed puts the step beside its runs too (an instructor's walk)"
    );
    // Answered, a step docks its timeline on a phone's page, and in a frame of fixed height,
    // but not in a frame that grows with its content.
    let docks = |query: &str| {
        let mut state = load_measured(query);
        assert!(
            !app::page_layout(&state).dock,
            "{query}: nothing docks before the answer"
        );
        app::update(&mut state, Msg::Predict(0));
        app::page_layout(&state).dock
    };
    assert!(docks("lesson=a&step=4"));
    assert!(docks("lesson=a&step=4&embed=1&height=600"));
    assert!(
        !docks("lesson=a&step=4&embed=1"),
        "a frame that grows with its content docks nothing to the screen's foot"
    );
    // Issue 13: an embed with nothing open has no empty first column; one with a lesson does.
    assert!(!app::page_layout(&load("seed=4&embed=1&controls=")).side);
    assert!(app::page_layout(&load("seed=4&embed=1&controls=dedup")).side);
    // The seed's control is in the toolbar: `controls=seed` leaves the side panel empty.
    assert!(!app::page_layout(&load("seed=4&embed=1&controls=seed")).side);
    // A lesson's drawer button shows only when its drawer holds an open control.
    let drawer = |query: &str| app::page_layout(&load(query)).drawer_toggle;
    assert!(drawer("lesson=a&step=4"));
    assert!(drawer("lesson=a&step=4&embed=1&controls=dedup"));
    assert!(!drawer("lesson=a&step=4&embed=1&controls="));
    assert!(!drawer("lesson=a&step=4&embed=1&controls=seed"));
    assert!(app::page_layout(&load("lesson=a&step=4&embed=1&height=600&controls=")).side);
    let fixed = load("lesson=a&step=4&embed=1&height=600");
    assert!(
        app::page_layout(&fixed).lesson_column,
        "an embed of fixed height puts the step beside the runs (issue 13)"
    );
    let mut free = load("seed=3&preset=race");
    app::update(&mut free, Msg::ShowControls(true));
    assert!(!free.drawer_open, "no drawer outside a lesson");
}

#[test]
fn comparing_the_run_in_focus_leads_the_cursor_status_tables_and_sweep() {
    // B (a durable store) runs longer than A here, so A's end is not B's.
    let mut state = load("seed=1&preset=restart&compare=store%3Ddurable");
    let a = idemlab_core::sim::run(&state.page.scenario);
    let b = idemlab_core::sim::run(&state.page.compare_scenario().unwrap());
    assert_eq!(state.focus(), Side::A);
    assert!(app::status_line(&state, &a).starts_with("A · event "));
    app::update(&mut state, Msg::GoTo(3));
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
    app::update(&mut state, Msg::GoTo(b.events.len() as u32 - 2));
    assert_eq!(state.cursor() as usize, b.events.len() - 2);
    assert!(state.to_query().contains("focus=b"));
    let again = load(&state.to_query());
    assert_eq!((again.focus(), again.cursor()), (Side::B, state.cursor()));
    app::update(&mut state, Msg::SweepStart("10".into()));
    let job = state.sweep.as_ref().unwrap();
    assert_eq!(job.scenario, state.page.compare_scenario().unwrap());
    assert!(app::sweep_summary(job, 0.0).ends_with("Swept run B, the run in focus."));
    app::update(&mut state, Msg::CompareOn(false));
    assert_eq!(state.focus(), Side::A);
    assert!(!state.to_query().contains("focus="));
}

/// The choice question of lesson A's check for quiz seed 5, with the state showing it.
fn choice_question_shown() -> (State, usize, idemlab_course::quiz::Question) {
    let mut state = load("lesson=a&quiz=5");
    let session = state.quiz.as_ref().unwrap();
    let index = (0..QUESTIONS)
        .find(|&i| matches!(session.quiz.questions[i].form, Form::Choices(_)))
        .expect("quiz seed 5 of lesson a has a question with choices");
    let question = session.quiz.questions[index].clone();
    app::update(&mut state, Msg::QuizShow(index));
    ran(&mut state);
    (state, index, question)
}

#[test]
fn a_quiz_question_hides_its_run_until_the_answer_is_locked() {
    let mut state = load("lesson=a&quiz=5");
    // A reload of a first question opens the introduction with that question's scenario.
    assert!(
        app::run_hidden(&state),
        "the introduction hides the run too"
    );
    let effects = app::update(&mut state, Msg::QuizBegin);
    assert!(effects.rerun);
    assert!(app::run_hidden(&state), "an open question hides its run");
    assert_eq!(state.page.compare, None, "and shows no B");
    let question = state.quiz.as_ref().unwrap().quiz.questions[0].clone();
    // Issue 11: the question's scenario is nowhere the learner could copy it from before the
    // answer is locked: not the link, not the run's title.
    let seed = format!("seed={}", decode_lenient(&question.query).0.scenario.seed);
    assert!(!state.to_query().contains(&seed), "{}", state.to_query());
    assert_eq!(
        state.page.scenario,
        idemlab_core::scenario::Scenario::default()
    );
    assert_eq!(app::title(&state, Side::A), "The question's run (hidden)");
    // A sweep of the question's scenario would count what the question asks.
    let effects = app::update(&mut state, Msg::SweepStart("1".into()));
    assert!(state.sweep.is_none() && !effects.sweep_slice);
    let answer = first_answer(&state);
    let effects = app::update(&mut state, Msg::QuizAnswer(answer));
    assert!(effects.rerun && effects.save_progress);
    assert!(!app::run_hidden(&state), "a locked answer opens the run");
    assert_eq!(
        idemlab_core::scenario::encode(&state.page.scenario),
        question.query
    );
    assert_eq!(state.page.cursor, Some(question.proof_event));
    assert_eq!(state.page.compare, question.proof_compare);
    app::update(&mut state, Msg::QuizNext);
    assert!(app::run_hidden(&state), "the next question hides its own");
    app::update(&mut state, Msg::QuizClose);
    assert!(!app::run_hidden(&state), "a lesson step hides nothing");
}

#[test]
fn show_my_choice_as_b_is_refused_until_the_answer_is_locked() {
    let (mut state, index, question) = choice_question_shown();
    let Form::Choices(choices) = &question.form else {
        unreachable!("a choice question")
    };
    let effects = app::update(&mut state, Msg::QuizTry(Some(question.answer)));
    assert!(!effects.rerun && effects.render);
    assert_eq!(state.page.compare, None);
    let feedback = state.quiz.as_ref().unwrap().feedback(index).0;
    assert!(feedback.starts_with("Lock your answer first"), "{feedback}");
    let wrong = wrong(&question);
    let locked = AnswerInput {
        choice: Some(wrong),
        number: String::new(),
    };
    assert!(
        !state.quiz.as_ref().unwrap().offers_try(index),
        "not before locking"
    );
    app::update(&mut state, Msg::QuizAnswer(locked));
    assert!(
        state.quiz.as_ref().unwrap().offers_try(index),
        "a wrong choice offers itself"
    );
    assert_eq!(
        state.page.compare, question.proof_compare,
        "the right one as B"
    );
    let effects = app::update(&mut state, Msg::QuizTry(Some(wrong)));
    assert!(effects.rerun);
    assert_eq!(
        state.page.compare.as_deref(),
        Some(choices[wrong as usize].keys.as_str())
    );
}

#[test]
fn a_right_choice_is_not_offered_as_b_since_b_already_shows_it() {
    let (mut state, index, question) = choice_question_shown();
    let locked = AnswerInput {
        choice: Some(question.answer),
        number: String::new(),
    };
    app::update(&mut state, Msg::QuizAnswer(locked));
    assert_eq!(state.page.compare, question.proof_compare);
    assert!(!state.quiz.as_ref().unwrap().offers_try(index));
}

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

// Issue 11, deliverable 4: the key store beside the timeline.

#[test]
fn issue_11_the_key_store_says_each_state_and_its_stored_response_in_words() {
    use idemlab_core::scenario::Op;
    use idemlab_core::trace::Key;
    use idemlab_lab::keystore::{KeyRow, KeyState};
    let row = |state, expires_us| KeyRow {
        key: Key::Business { work: 3, tenant: 0 },
        state,
        created_us: 41_250,
        expires_us,
        order: 3,
        attempt: 2,
        req: 9,
    };
    let done = KeyState::Done {
        status: 200,
        number: Some(3),
    };
    let rows = [
        (row(KeyState::Claimed, None), Op::Charge),
        (row(KeyState::InProgress, Some(191_250)), Op::Charge),
        (row(done, Some(191_250)), Op::Charge),
        (row(done, Some(191_250)), Op::Set),
        (
            row(
                KeyState::Done {
                    status: 422,
                    number: None,
                },
                Some(191_250),
            ),
            Op::Charge,
        ),
        (row(KeyState::Expired, Some(191_250)), Op::Charge),
    ];
    let text: String = rows
        .iter()
        .map(|(row, op)| {
            let t = app::row_text(row, *op, idemlab_core::scenario::Expired::New);
            let cells: [&str; 6] = [
                &t.key,
                t.state_text,
                &t.response,
                &t.written,
                &t.expires,
                &t.by,
            ];
            format!("{} [{}]\n", cells.join(" | "), t.state)
        })
        .collect();
    expect![[r#"
        case-1/work-3 | claimed, not committed | none: not committed, so no other request sees it | 41.25 ms | – | written by order 3, attempt 2 [claimed]
        case-1/work-3 | in progress | none yet: a repeat gets 409 | 41.25 ms | 150 ms after | written by order 3, attempt 2 [in-progress]
        case-1/work-3 | done | 200, charge #3 | 41.25 ms | 150 ms after | written by order 3, attempt 2 [done]
        case-1/work-3 | done | 200, value 3 | 41.25 ms | 150 ms after | written by order 3, attempt 2 [done]
        case-1/work-3 | done | 422 | 41.25 ms | 150 ms after | written by order 3, attempt 2 [done]
        case-1/work-3 | expired | none: the next read removes the key and runs the request as new | 41.25 ms | 150 ms after | written by order 3, attempt 2 [expired]
    "#]]
    .assert_eq(&text);
}

#[test]
fn issue_11_the_key_store_lists_at_most_50_rows_the_latest_and_counts_the_rest() {
    let trace =
        idemlab_core::sim::run(&decode_lenient("seed=1&orders=200&dedup=atomic").0.scenario);
    let table = idemlab_lab::keystore::table_at(&trace, trace.events.len());
    assert_eq!(table.len(), 200);
    let view = app::key_store(&trace, None);
    assert_eq!(view.rows.len(), app::KEY_ROWS_MAX);
    assert_eq!(view.more.as_deref(), Some("+150 more, written earlier"));
    assert!(view.caption.ends_with(": 200 keys"), "{}", view.caption);
    // The rows kept are the ones written last, listed in the table's own (key) order.
    let shown: Vec<&idemlab_lab::keystore::KeyRow> = table
        .iter()
        .filter(|row| view.rows.iter().any(|r| r.key == row.key.to_string()))
        .collect();
    assert_eq!(shown.len(), app::KEY_ROWS_MAX);
    let oldest_shown = shown.iter().map(|r| r.created_us).min().unwrap();
    let cut = table.iter().filter(|row| !shown.contains(row));
    assert!(cut.into_iter().all(|row| row.created_us <= oldest_shown));
    let keys: Vec<String> = shown.iter().map(|r| r.key.to_string()).collect();
    let listed: Vec<&String> = view.rows.iter().map(|r| &r.key).collect();
    assert_eq!(listed, keys.iter().collect::<Vec<_>>());
}

#[test]
fn issue_11_at_the_end_of_an_atomic_durable_run_every_order_has_a_done_key() {
    let query = "seed=3&preset=race&dedup=atomic&store=durable";
    let (trace, metrics) = idemlab_lab::run(&decode_lenient(query).0.scenario);
    let view = app::key_store(&trace, None);
    let done = view.rows.iter().filter(|r| r.state == "done").count();
    assert_eq!(done as u32, metrics.orders, "{view:?}");
    assert!(view
        .rows
        .iter()
        .all(|r| r.response.starts_with("200, charge #")));
    assert_eq!((view.more, view.empty), (None, None));
    // Somewhere in the run a claim is held by an open transaction, and the panel says so.
    let claimed = (1..trace.events.len()).find(|&count| {
        let view = app::key_store(&trace, Some(count));
        view.rows.iter().any(|r| r.state == "claimed")
    });
    assert!(claimed.is_some(), "no moment shows a claimed key");
}

#[test]
fn issue_11_an_empty_key_store_says_why() {
    let trace = |q: &str| idemlab_core::sim::run(&decode_lenient(q).0.scenario);
    let none = trace("seed=1&orders=2&dedup=none");
    assert_eq!(
        app::key_store(&none, None).empty,
        Some("This API stores no keys (dedup=none): every request runs.")
    );
    let atomic = trace("seed=1&orders=2&dedup=atomic");
    let view = app::key_store(&atomic, Some(0));
    assert_eq!(view.empty, Some("No keys yet: the run has not started."));
    assert_eq!(view.caption, "Key table at 0 ms: 0 keys");
}

#[test]
fn issue_11_the_key_store_toggle_is_a_view_change_kept_in_the_permalink() {
    let mut state = load("seed=3&preset=race");
    assert!(!state.page.keys);
    let effects = app::update(&mut state, Msg::ToggleKeyStore);
    assert!(effects.render && !effects.rerun);
    assert_eq!(effects.url, Some(UrlWrite::Replace));
    assert!(
        state.to_query().ends_with("&keys=1"),
        "{}",
        state.to_query()
    );
    assert!(load(&state.to_query()).page.keys);
    app::update(&mut state, Msg::ToggleKeyStore);
    assert!(!state.to_query().contains("keys="));
}

#[test]
fn issue_11_a_step_about_the_key_table_opens_the_key_store() {
    let opens: Vec<(&str, usize)> = LESSONS
        .iter()
        .flat_map(|l| {
            (l.steps.iter().enumerate())
                .filter(|(_, s)| s.keystore)
                .map(move |(i, _)| (l.id, i + 1))
        })
        .collect();
    assert_eq!(
        opens,
        [
            ("a", 4),
            ("a", 5),
            ("a", 6),
            ("a", 7),
            ("b", 2),
            ("b", 4),
            ("b", 5),
            ("c", 2),
            ("c", 4),
            ("c", 5)
        ]
    );
    assert!(load("lesson=a&step=5").page.keys);
    assert!(load("lesson=a&step=5").to_query().contains("keys=1"));
    let mut state = load("lesson=a&step=1");
    assert!(!state.page.keys);
    app::update(&mut state, Msg::OpenStep(3));
    assert!(state.page.keys);
    // A later step not about it closes what a step opened (step 4 opens it, step 10 is the
    // consumer's inbox), but leaves it as the learner set it.
    app::update(&mut state, Msg::OpenStep(9));
    assert!(!state.page.keys, "step 10 closes the table step 4 opened");
    app::update(&mut state, Msg::ToggleKeyStore);
    app::update(&mut state, Msg::OpenStep(8));
    assert!(state.page.keys, "the learner opened it: it stays");
    app::update(&mut state, Msg::ToggleKeyStore);
    app::update(&mut state, Msg::OpenStep(7));
    assert!(!state.page.keys);
}

// Issue 11, deliverable 6: the classification exercise.

#[test]
fn issue_11_the_classification_exercise_is_in_lesson_a_step_2_only() {
    let steps: Vec<(&str, &str)> = LESSONS
        .iter()
        .flat_map(|l| {
            l.steps
                .iter()
                .filter(|s| s.classify)
                .map(move |s| (l.id, s.title))
        })
        .collect();
    assert_eq!(steps, [("a", "Some operations are safe to repeat")]);
    assert!(LESSONS[0].steps[1].classify);
}

#[test]
fn issue_11_an_answer_locks_and_says_why() {
    use idemlab_course::classify::{Class, OPERATIONS};
    let mut state = load("lesson=a&step=2");
    assert_eq!(
        app::classify_score(&state.classify),
        "Classify each of the 7 operations; each answer locks and says why."
    );
    let items = app::classify_items(&state.classify);
    assert!(items
        .iter()
        .all(|i| i.verdict.is_none() && i.why.is_none() && !i.show));
    // Delete order 42 is naturally idempotent; "not" is wrong, and the answer locks.
    let effects = app::update(
        &mut state,
        Msg::Classify {
            index: 0,
            answer: Class::Not,
        },
    );
    assert!(effects.render && !effects.rerun && effects.url.is_none());
    let effects = app::update(
        &mut state,
        Msg::Classify {
            index: 0,
            answer: Class::Natural,
        },
    );
    assert_eq!(effects, Effects::default());
    let first = &app::classify_items(&state.classify)[0];
    assert_eq!(first.answer, Some(Class::Not));
    assert_eq!(first.right, Some(Class::Natural));
    assert_eq!(
        first.verdict.as_deref(),
        Some("Not quite: it is naturally idempotent.")
    );
    assert_eq!(first.why, Some(OPERATIONS[0].why));
    app::update(
        &mut state,
        Msg::Classify {
            index: 2,
            answer: Class::Not,
        },
    );
    let third = &app::classify_items(&state.classify)[2];
    assert_eq!(third.verdict.as_deref(), Some("Right: not idempotent."));
    assert!(third.show, "append has a run of the same shape");
    // Shown as run A, the operation replaces the step's runs: the step's claims no longer
    // hold, so they hide (with a note), until the step's number brings its runs back.
    assert!(app::page_layout(&state).claims);
    app::update(&mut state, Msg::ClassifyShow(2));
    assert!(!app::step_runs_shown(&state) && !app::page_layout(&state).claims);
    app::update(&mut state, Msg::OpenStep(1));
    assert!(app::step_runs_shown(&state) && app::page_layout(&state).claims);
    assert_eq!(
        app::classify_score(&state.classify),
        "Answered 2 of 7: 1 right so far."
    );
    // An index out of range changes nothing.
    assert_eq!(
        app::update(
            &mut state,
            Msg::Classify {
                index: 7,
                answer: Class::Not
            }
        ),
        Effects::default()
    );
    for (index, op) in OPERATIONS.iter().enumerate() {
        app::update(
            &mut state,
            Msg::Classify {
                index,
                answer: op.class,
            },
        );
    }
    assert_eq!(app::classify_score(&state.classify), "Score: 6 of 7.");
}

#[test]
fn issue_11_show_me_loads_the_operations_run_as_a_once_answered() {
    use idemlab_course::classify::{Class, OPERATIONS};
    let mut state = load("lesson=a&step=2");
    let put = OPERATIONS
        .iter()
        .position(|op| op.text.starts_with("PUT"))
        .unwrap();
    // Before the answer, its run would give the answer away.
    assert_eq!(
        app::update(&mut state, Msg::ClassifyShow(put)),
        Effects::default()
    );
    app::update(
        &mut state,
        Msg::Classify {
            index: put,
            answer: Class::Natural,
        },
    );
    let effects = app::update(&mut state, Msg::ClassifyShow(put));
    assert!(effects.rerun && effects.render);
    assert_eq!(effects.url, Some(UrlWrite::Push));
    let wanted = decode_lenient(OPERATIONS[put].show.unwrap()).0.scenario;
    assert_eq!(state.page.scenario, wanted);
    assert_eq!(state.page.compare, None);
    assert_eq!(state.tab, Tab::Lessons);
    assert_eq!(state.lesson.map(|at| at.index()), Some(1));
    // An operation with no run of its own offers none.
    let delete = OPERATIONS.iter().position(|op| op.show.is_none()).unwrap();
    app::update(
        &mut state,
        Msg::Classify {
            index: delete,
            answer: Class::Natural,
        },
    );
    assert!(!app::classify_items(&state.classify)[delete].show);
    let before = state.page.scenario.clone();
    assert_eq!(
        app::update(&mut state, Msg::ClassifyShow(delete)),
        Effects::default()
    );
    assert_eq!(state.page.scenario, before);
    // Back to the step's own link keeps the answers given on this visit.
    let query = "lesson=a&step=2".to_string();
    app::update(
        &mut state,
        Msg::UrlChanged {
            query,
            stored: Progress::new(),
        },
    );
    assert_eq!(state.page.scenario, step_scenario(&LESSONS[0], 1));
    assert_eq!(state.classify[put], Some(Class::Natural));
}

// Issue 11: predict, then reveal; terms first; the Idempotency-Key header in event details.

/// What the page does after a rerun, in full (the scheduler reports lengths and metrics).
fn ran_and_measured(state: &mut State) {
    ran(state);
}

fn load_measured(query: &str) -> State {
    let mut state = State::load(query, &Progress::new());
    ran_and_measured(&mut state);
    state
}

/// The right choice, read from the step's own runs as the lessons test does.
fn right_choice(lesson: &Lesson, index: usize) -> usize {
    let step = &lesson.steps[index];
    let a = idemlab_lab::run(&step_scenario(lesson, index)).1;
    let page = idemlab_app::page::PageState {
        scenario: step_scenario(lesson, index),
        compare: step.compare.map(String::from),
        ..Default::default()
    };
    let b = page.compare_scenario().map(|s| idemlab_lab::run(&s).1);
    step.predict
        .answer(&a, b.as_ref())
        .expect("an answer among the choices")
}

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
        Msg::Play,
        Msg::Tick,
        Msg::Step(1),
        Msg::GoTo(9),
        Msg::Select(9),
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
    let effects = app::update(&mut state, Msg::Predict(wrong));
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
            "Not quite: you chose {}; the simulator's answer is {}. The outlined marks on the timeline show it, and the Events tab lists the same events in words.",
            choices[wrong], choices[right]
        )
    );
    assert!(!view.answered.unwrap().is_right());
    // A step answers once: a second pick changes nothing.
    assert_eq!(
        app::update(&mut state, Msg::Predict(right)),
        Effects::default()
    );
    assert_eq!(state.answered().unwrap().choice, wrong);
}

/// Issue 11's phone walk saw the docked timeline show only its first 400 ms while the proof
/// lay further on: the answer asks the page to scroll the proving run sideways to its outline.
#[test]
fn a_reveal_scrolls_its_timeline_sideways_to_the_proof_when_it_lies_out_of_view() {
    let lesson = &LESSONS[2];
    let index = (lesson.steps.iter())
        .position(|step| step.title == "Commit the claim first, with a lease")
        .expect("step C2");
    let mut state = load_measured(&format!("lesson=c&step={}", index + 1));
    let effects = app::update(&mut state, Msg::Predict(0));
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
    app::update(&mut state, Msg::Predict(right_choice(&LESSONS[0], 0)));
    app::update(&mut state, Msg::OpenStep(1));
    ran_and_measured(&mut state);
    assert!(state.awaiting(), "step 2 asks its own question");
    app::update(&mut state, Msg::OpenStep(0));
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
        Msg::UrlChanged {
            query: "lesson=a&step=1&tab=lessons".into(),
            stored: Progress::new(),
        },
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
            app::update(&mut state, Msg::Predict(right_choice(lesson, index)));
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
    app::update(&mut state, Msg::Step(-1));
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
        Msg::SetKey {
            name: "dedup".into(),
            value: "atomic".into(),
        },
    );
    ran_and_measured(&mut state);
    assert!(state.awaiting());
    assert_eq!(state.page.cursor, Some(0));
    app::update(&mut state, Msg::Predict(right_choice(&LESSONS[0], 0)));
    assert!(
        state.answered().unwrap().is_right(),
        "judged on the step's own runs"
    );
}

#[test]
fn step_text_pieces_keep_the_text_put_pointers_in_place_and_underline_first_uses() {
    use app::Piece;
    for lesson in &LESSONS {
        for step in lesson.steps {
            let pieces = app::pieces(step.text, step.pointers);
            let joined: String = (pieces.iter())
                .map(|p| match p {
                    Piece::Plain(w) | Piece::Pointer(_, w) | Piece::Term(w, _) => *w,
                })
                .collect();
            assert_eq!(joined, step.text, "{}", step.title);
            let pointers = pieces.iter().filter(|p| matches!(p, Piece::Pointer(..)));
            assert_eq!(pointers.count(), step.pointers.len(), "{}", step.title);
            let mut terms: Vec<&str> = (pieces.iter())
                .filter_map(|p| match p {
                    Piece::Term(_, term) => Some(term.word),
                    _ => None,
                })
                .collect();
            let count = terms.len();
            terms.dedup();
            assert_eq!(terms.len(), count, "one underline per term: {}", step.title);
        }
    }
    let text = "Retries make at-least-once delivery; an Idempotency key makes it idempotent.";
    let words: Vec<String> = (app::pieces(text, &[]).iter())
        .filter_map(|p| match p {
            Piece::Term(w, t) => Some(format!("{w}={}", t.word)),
            _ => None,
        })
        .collect();
    assert_eq!(
        words,
        [
            "at-least-once delivery=at-least-once delivery",
            "Idempotency key=idempotency key",
            "idempotent=idempotent"
        ]
    );
}

#[test]
fn step_1_of_each_lesson_defines_its_terms_from_the_glossary() {
    let terms = app::step_terms(&LESSONS[0].steps[0]);
    let words: Vec<&str> = terms.iter().map(|t| t.word).collect();
    assert_eq!(
        words,
        [
            "idempotent",
            "idempotency key",
            "at-least-once delivery",
            "exactly-once effect",
            "one-way partition"
        ]
    );
    for lesson in &LESSONS {
        for step in lesson.steps {
            assert_eq!(
                app::step_terms(step).len(),
                step.terms.len(),
                "{}",
                step.title
            );
        }
    }
    // Step 1's text uses its five words, so each is underlined where it first appears.
    let step = &LESSONS[0].steps[0];
    let underlined: Vec<&str> = (app::pieces(step.text, step.pointers).iter())
        .filter_map(|p| match p {
            app::Piece::Term(_, term) => Some(term.word),
            _ => None,
        })
        .collect();
    assert_eq!(
        underlined,
        [
            "one-way partition",
            "at-least-once delivery",
            "idempotency key",
            "idempotent",
            "exactly-once effect"
        ]
    );
}

#[test]
fn a_request_shows_its_key_as_an_idempotency_key_header_in_every_detail() {
    let trace = trace_of("seed=7&preset=lost-ack&dedup=atomic");
    let index = first_request(&trace);
    let key = trace.events[index].key.expect("lost-ack sends keys");
    let header = format!("Idempotency-Key: {key}");
    assert_eq!(app::request_header(&trace, index), Some(header.clone()));
    let tooltip = app::cursor_tooltip(&trace, index).unwrap();
    assert!(tooltip.ends_with(&format!("\n{header}")), "{tooltip}");
    assert!(app::cursor_label(&trace, index).ends_with(&format!(" · {header}")));
    let timeline = idemlab_lab::view::layout(&trace);
    let mark = (timeline.marks().iter())
        .find(|m| m.event() as usize == index)
        .expect("the request's arrow");
    let lines = app::mark_tooltip(&trace, &timeline, mark);
    assert!(lines.lines().any(|l| l == header), "{lines}");
    // Other events have no header line; a request without a key says so.
    assert_eq!(app::request_header(&trace, 0), None);
    let bare = trace_of("seed=7&preset=lost-ack&key=none");
    let index = first_request(&bare);
    assert_eq!(
        app::request_header(&bare, index).as_deref(),
        Some("no Idempotency-Key header")
    );
}

/// A slice of run `side` ended `events` events into simulating.
fn computing(state: &mut State, side: Side, events: u32) -> Effects {
    let progress = idemlab_app::job::JobProgress {
        phase: idemlab_app::job::Phase::Simulating,
        events,
    };
    app::update(state, Msg::Computing { side, progress })
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
    app::update(&mut state, Msg::NewSeed(99));
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
    app::update(&mut state, Msg::NewSeed(5));
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

/// Issue 11: a waiting step's picture must not give its answer away. Every step of every
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
            app::update(&mut state, Msg::Predict(0));
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

/// Issue 11: with the key store beside it a desktop timeline is about 620 px wide, and Fit
/// must fit the run to that; only a phone keeps the readable minimum and scrolls sideways.
#[test]
fn the_plot_fits_the_width_beside_the_key_store_and_keeps_its_minimum_on_a_phone() {
    assert_eq!(app::plot_width_px(620.0, 1366.0, GUTTER_PX, false), 488);
    assert_eq!(app::plot_width_px(904.0, 1366.0, GUTTER_PX, false), 772);
    assert_eq!(
        app::plot_width_px(200.0, 1366.0, GUTTER_PX, false),
        app::PLOT_MIN_WIDE_PX
    );
    assert_eq!(
        app::plot_width_px(374.0, 390.0, GUTTER_PX, false),
        app::PLOT_MIN_PX,
        "a phone scrolls"
    );
}

/// Issue 13: an embed's column narrows after load (a course page's sidebar opens) down to a
/// phone's 360 px; the plot follows it and Fit keeps the whole run in view, with no right
/// edge cut off, while the same width outside a frame keeps the phone's readable minimum.
#[test]
fn an_embeds_plot_fills_its_column_at_any_width_so_fit_shows_the_whole_run() {
    for (timeline_px, window_px) in [
        (1000.0, 1016.0),
        (730.0, 748.0),
        (544.0, 560.0),
        (344.0, 360.0),
    ] {
        let plot_px = app::plot_width_px(timeline_px, window_px, GUTTER_PX, true);
        assert_eq!(
            plot_px,
            (timeline_px - GUTTER_PX - 4.0) as u32,
            "a {timeline_px} px column"
        );
        assert!(
            f64::from(plot_px) + GUTTER_PX <= timeline_px,
            "nothing cut at {timeline_px} px"
        );
    }
    assert_eq!(
        app::plot_width_px(200.0, 360.0, GUTTER_PX, true),
        app::PLOT_MIN_EMBED_PX
    );
    assert_eq!(
        app::plot_width_px(344.0, 360.0, GUTTER_PX, false),
        app::PLOT_MIN_PX
    );
}

#[test]
fn a_keys_expiry_reads_as_a_span_after_its_write() {
    use idemlab_lab::keystore::{KeyRow, KeyState};
    let row = |created_us, expires_us| KeyRow {
        key: idemlab_core::trace::Key::Business { work: 1, tenant: 0 },
        state: KeyState::Expired,
        created_us,
        expires_us: Some(expires_us),
        order: 1,
        attempt: 1,
        req: 1,
    };
    let expires = |created_us, expires_us| {
        app::row_text(
            &row(created_us, expires_us),
            idemlab_core::scenario::Op::Charge,
            idemlab_core::scenario::Expired::New,
        )
        .expires
    };
    assert_eq!(expires(146_977, 86_400_146_977), "24 h after");
    assert_eq!(expires(0, 300_000_000), "5 min after");
    assert_eq!(expires(10, 90_000_010), "90 s after");
    assert_eq!(expires(41_250, 191_250), "150 ms after");
}

/// Walk 2: while a step waits, "event 1 of 81" on the status line and "81 events" in the
/// canvas's name hinted at how the run goes. Both leave the length out until the answer.
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
    app::update(&mut state, Msg::Predict(right_choice(&LESSONS[0], 0)));
    assert!(app::status_line(&state, &trace).contains(&total));
    let name = app::canvas_label(&state, Side::A, trace.events.len());
    assert!(
        name.contains(&format!("{} events", trace.events.len())),
        "{name}"
    );
}

// Issue 13 (h13b): locks that hold, results to the course page, links that name their version.

/// Every way a learner can try to change the scenario, on the page as loaded.
fn every_change(state: &State) -> Vec<Msg> {
    let trace = idemlab_core::sim::run(&state.page.scenario);
    let mut msgs = vec![
        Msg::SetKey {
            name: "orders".into(),
            value: "10".into(),
        },
        Msg::NewSeed(99),
        Msg::PickPreset("race".into()),
        Msg::PickPreset(String::new()),
        Msg::CompareOn(true),
        Msg::CompareKeys("orders=10".into()),
        Msg::CompareKeys("dedup=atomic, retries=0".into()),
        Msg::OpenLesson(&LESSONS[0]),
        Msg::OpenLesson(&LESSONS[1]),
        Msg::OpenStep(2),
        Msg::RunOrder,
        Msg::ClassifyShow(0),
        Msg::QuizStart {
            stored: Progress::new(),
            fresh_seed: 5,
        },
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
fn issue_13_with_controls_dedup_no_action_changes_another_key() {
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
        Msg::SetKey {
            name: "dedup".into(),
            value: "atomic".into(),
        },
    );
    assert_eq!(state.page.scenario.dedup, Dedup::Atomic);
    let mut state = load(link);
    app::update(&mut state, Msg::CompareKeys("orders=10".into()));
    assert_eq!(
        (state.page.compare.as_deref(), state.page.cursor),
        (None, Some(5))
    );
    app::update(&mut state, Msg::CompareKeys("dedup=atomic".into()));
    assert_eq!(state.page.compare.as_deref(), Some("dedup=atomic"));
    assert!(!app::compare_locked(&state, None));
}

#[test]
fn issue_13_an_authors_compare_over_a_locked_key_cannot_be_dropped_or_changed() {
    let mut state = load("seed=7&preset=lost-ack&compare=retries%3D0&controls=dedup");
    assert!(app::compare_locked(&state, None));
    app::update(&mut state, Msg::CompareOn(false));
    app::update(&mut state, Msg::CompareKeys("dedup=atomic".into()));
    assert_eq!(state.page.compare.as_deref(), Some("retries=0"));
    // Without locks the box is free.
    assert!(!app::compare_locked(
        &load("seed=7&compare=retries%3D0"),
        None
    ));
}

#[test]
fn issue_13_a_locked_lesson_embed_walks_its_own_lesson_and_check_only() {
    let mut state = load("lesson=a&step=1&embed=1&controls=dedup");
    assert!(app::lesson_open(&state, "a") && !app::lesson_open(&state, "b"));
    app::update(&mut state, Msg::OpenStep(1));
    assert_eq!(state.lesson.map(|at| at.index()), Some(1));
    app::update(&mut state, Msg::OpenLesson(&LESSONS[1]));
    assert_eq!(state.lesson.map(|at| at.lesson.id), Some("a"));
    app::update(
        &mut state,
        Msg::QuizStart {
            stored: Progress::new(),
            fresh_seed: 5,
        },
    );
    assert!(state.quiz.is_some());
    // A quiz link counts as its lesson's.
    assert!(app::lesson_open(
        &load("lesson=b&quiz=3&controls=dedup"),
        "b"
    ));
}

#[test]
fn issue_13_hide_names_parts_once_in_order_and_refuses_others() {
    let state = load("seed=1&hide=link,tabs,link,counters");
    assert!(state.page.hides("tabs") && state.page.hides("link") && !state.page.hides("side"));
    assert!(
        state.to_query().ends_with("&hide=tabs,counters,link"),
        "{}",
        state.to_query()
    );
    let bad = load("seed=1&hide=tabs,menu");
    expect![[r#"
        [
            "`hide=tabs,menu` is not valid: expected a list of tabs|side|compare|counters|export|link",
        ]
    "#]]
    .assert_debug_eq(&bad.errors.iter().map(ToString::to_string).collect::<Vec<_>>());
    assert_eq!(bad.page.hide, 0);
}

#[test]
fn issue_13_the_embed_dialog_titles_each_view_apart_and_escapes_an_edited_title() {
    let free = load("seed=7&preset=lost-ack&compare=dedup%3Datomic");
    let step = load("lesson=a&step=3");
    let titles = [
        app::embed_title(&free, &[]),
        app::embed_title(&free, &["dedup".into()]),
        app::embed_title(&step, &[]),
        app::embed_title(&load("lesson=b&quiz=4"), &[]),
    ];
    expect![[r#"
        [
            "idemlab: lost-ack, seed 7 vs dedup=atomic",
            "idemlab: lost-ack, seed 7 vs dedup=atomic (dedup editable)",
            "idemlab: Lesson A step 3",
            "idemlab: Lesson B mastery check",
        ]
    "#]]
    .assert_debug_eq(&titles);
    let snippet = app::embed_snippet("https://lab.example/?seed=1", "A \"quoted\" <b> & co", None);
    assert!(
        snippet.contains(r#" title="A &quot;quoted&quot; &lt;b> &amp; co" "#),
        "{snippet}"
    );
}

#[test]
fn issue_13_report_parent_sends_the_step_reached_and_nothing_without_it() {
    let mut state = load("lesson=a&step=1&report=parent");
    assert_eq!(
        app::report_on_load(&state),
        Some(app::Report::Step {
            lesson: "a",
            step: 1,
            steps: None
        })
    );
    let effects = app::update(&mut state, Msg::OpenStep(1));
    assert_eq!(
        effects.report,
        Some(app::Report::Step {
            lesson: "a",
            step: 2,
            steps: None
        })
    );
    assert_eq!(
        app::update(&mut state, Msg::OpenTab(Tab::Events)).report,
        None
    );
    assert_eq!(
        app::update(&mut state, Msg::OpenStep(1)).report,
        None,
        "the same step"
    );
    let mut quiet = load("lesson=a&step=1");
    assert_eq!(app::report_on_load(&quiet), None);
    assert_eq!(app::update(&mut quiet, Msg::OpenStep(1)).report, None);
    assert!(load("seed=1&report=parent")
        .to_query()
        .ends_with("&report=parent"));
    let bad = load("seed=1&report=all");
    assert!(!bad.page.report && bad.errors[0].to_string().contains("expected parent"));
}

#[test]
fn issue_13_report_parent_sends_each_prediction_with_whether_it_was_right() {
    let mut state = load_measured("lesson=a&step=1&report=parent");
    let right = right_choice(&LESSONS[0], 0);
    let wrong = (right + 1) % LESSONS[0].steps[0].predict.choices().len();
    let effects = app::update(&mut state, Msg::Predict(wrong));
    assert_eq!(
        effects.report,
        Some(app::Report::Prediction {
            lesson: "a",
            step: 1,
            answer: wrong,
            choice: LESSONS[0].steps[0].predict.choices()[wrong].clone(),
            correct: false,
            steps: None
        })
    );
    // Answered once: a second choice sends nothing.
    assert_eq!(app::update(&mut state, Msg::Predict(right)).report, None);
}

#[test]
fn issue_13_report_parent_sends_the_checks_score_once_its_last_answer_is_locked() {
    for (seed, wrong_at) in [(5, None), (31, Some(3))] {
        let mut state = load(&format!("lesson=a&quiz={seed}&report=parent"));
        assert_eq!(
            app::report_on_load(&state),
            None,
            "no step while the check is open"
        );
        app::update(&mut state, Msg::QuizBegin);
        let questions = state.quiz.as_ref().unwrap().quiz.questions.clone();
        let mut reports = Vec::new();
        for (i, question) in questions.iter().enumerate() {
            let right = (0..=idemlab_course::quiz::NUMBER_MAX)
                .find(|&a| question.is_right(a))
                .unwrap();
            let answer = if wrong_at == Some(i) {
                (0..).find(|&a| !question.is_right(a)).unwrap()
            } else {
                right
            };
            let input = match question.form {
                Form::Choices(_) => AnswerInput {
                    choice: Some(answer),
                    number: String::new(),
                },
                Form::Number => AnswerInput {
                    choice: None,
                    number: answer.to_string(),
                },
            };
            reports.extend(app::update(&mut state, Msg::QuizAnswer(input)).report);
            app::update(&mut state, Msg::QuizNext);
        }
        let score = if wrong_at.is_some() { 3 } else { 4 };
        assert_eq!(
            reports,
            [app::Report::Quiz {
                lesson: "a",
                seed,
                score,
                total: QUESTIONS as u32,
                mastered: score == 4
            }]
        );
    }
}

#[test]
fn issue_13_a_link_from_another_model_version_gets_a_notice_until_the_run_changes() {
    let now = idemlab_app::page::MODEL_VERSION;
    assert_eq!(Banner::of(&load(&format!("seed=7&v={now}"))), None);
    let mut newer = load(&format!("seed=7&preset=lost-ack&v={}", now + 1));
    let banner = Banner::of(&newer).expect("a notice");
    expect![[r#"
        Banner {
            heading: "This link comes from another version of the lab.",
            lines: [
                "It was made with a newer model (version 3; this lab runs version 2), so this run may differ from the one its author saw.",
            ],
        }
    "#]]
    .assert_debug_eq(&banner);
    assert!(newer.to_query().ends_with("&v=3"), "the address keeps it");
    app::update(&mut newer, Msg::NewSeed(8));
    assert_eq!(Banner::of(&newer), None);
    assert!(
        !newer.to_query().contains("v="),
        "a changed run is this version's"
    );
    // A step link keeps the notice through opening its step.
    assert!(Banner::of(&load(&format!("lesson=a&step=2&v={}", now + 1))).is_some());
    // Copy link and the snippet write this version; v=0 and words are refused.
    assert!(app::permalink_query(&load("seed=7")).ends_with(&format!("&v={now}")));
    let copied = app::permalink_query(&load(&format!("seed=7&v={}", now + 1)));
    assert_eq!(
        copied,
        format!("seed=7&v={now}"),
        "a copy is of this version's run"
    );
    for bad in ["0", "one", "-1"] {
        let state = load(&format!("seed=7&v={bad}"));
        assert!(
            state.errors[0]
                .to_string()
                .contains("a model version, 1 or more"),
            "{bad}"
        );
    }
}

#[test]
fn a_term_definition_flips_and_shifts_to_stay_inside_the_viewport() {
    // Issue 11's walk: the glossary popup was cut at the lesson panel's edge.
    let view = (1366.0, 768.0);
    assert_eq!(
        app::popup_at((100.0, 200.0, 220.0), (300.0, 80.0), view),
        (100.0, 224.0),
        "under the term"
    );
    let (left, top) = app::popup_at((1300.0, 720.0, 740.0), (300.0, 80.0), view);
    assert_eq!(
        (left, top),
        (1062.0, 636.0),
        "above the term, shifted in from the right edge"
    );
    let phone = app::popup_at((-20.0, 10.0, 30.0), (300.0, 900.0), (390.0, 844.0));
    assert_eq!(
        phone,
        (4.0, 34.0),
        "no room above: it stays under, and never starts off-screen"
    );
}

#[test]
fn a_lesson_that_compares_squeezes_the_lanes_so_both_runs_fit_one_screen() {
    // Issue 11's walk: in compare steps run B's timeline ran below the fold at 1366×768.
    let compare = load("lesson=a&step=5");
    let fits = |lanes: usize, px: u32| 2 * lanes as u32 * px <= app::TWO_RUNS_LANES_PX;
    for lanes in [4, 5, 6] {
        let px = app::lane_px(&compare, lanes, 1366.0).expect("squeezed");
        assert!(
            fits(lanes, px) && px >= app::LANE_MIN_PX,
            "{lanes} lanes: {px} px"
        );
    }
    assert_eq!(
        app::lane_px(&load("lesson=a&step=4"), 4, 1366.0),
        None,
        "one run: the usual lanes"
    );
    let free = load("seed=1&preset=restart&compare=store%3Ddurable");
    assert_eq!(app::lane_px(&free, 4, 1366.0), None, "free play keeps them");
    assert_eq!(
        app::lane_px(&free, 4, 390.0),
        None,
        "free play on a phone keeps them too"
    );
    // Issue 11's walk: a phone's docked timeline was 688 px of lanes in a 374 px box.
    for lanes in [4, 5, 6] {
        let px = app::lane_px(&load("lesson=a&step=4"), lanes, 390.0).expect("docked");
        assert!(lanes as u32 * px <= app::DOCK_LANES_PX.max(lanes as u32 * app::LANE_MIN_PX));
    }
    // The plot is as tall as its lanes say, and the hit test finds a mark on a squeezed lane.
    let (scenario, overlay) = (
        idemlab_core::scenario::decode("seed=3&preset=race")
            .unwrap()
            .scenario,
        idemlab_lab::view::Overlay {
            lane_px: Some(40),
            ..Default::default()
        },
    );
    let trace = idemlab_lab::run(&scenario).0;
    let timeline = idemlab_lab::view::layout(&trace);
    let lanes = timeline.lanes().len();
    assert_eq!(
        idemlab_lab::view::plot_height_px(lanes, overlay.lane_px()),
        30.0 + 40.0 * lanes as f64
    );
}

#[test]
fn a_changed_body_compare_line_names_the_failed_orders() {
    // Issue 11's walk: step 8's line read "0 duplicates, 0 lost" on both sides of a step about
    // two orders told they failed.
    let state =
        load("seed=7&preset=lost-ack&orders=2&dedup=atomic&body_change=1&compare=body_change%3D0");
    let a = idemlab_lab::run(&state.page.scenario).1;
    let b = idemlab_lab::run(&state.page.compare_scenario().unwrap()).1;
    let line = app::compare_sentence(&state, &a, &b).unwrap();
    expect!["body_change=1: 0 duplicates, 0 lost orders, 2 failed → body_change=0: 0 duplicates, 0 lost orders, 0 failed"].assert_eq(&line);
}

#[test]
fn the_key_panel_keeps_a_hidden_question_hidden_instead_of_showing_the_default_run() {
    // Issue 11's walk: while a check's run was hidden, the panel said "This API stores no keys
    // (dedup=none)" (the page's default scenario), against a question about keys.
    let mut state = load("lesson=a&quiz=1");
    app::update(&mut state, Msg::QuizBegin);
    assert!(app::run_hidden(&state));
    let trace = idemlab_core::sim::run(&state.page.scenario);
    let view = app::key_store_for(&state, &trace, Side::A, &trace);
    assert_eq!(view.empty, Some(app::RUN_HIDDEN_NOTE));
    assert!(view.rows.is_empty());
}

#[test]
fn a_retention_compare_line_says_the_spans_in_words() {
    // Issue 11's walk: step 7's line read "retention_ms=150 … → retention_ms=86400000".
    let state = load("seed=1&preset=key-expiry&compare=retention_ms%3D86400000");
    let a = idemlab_lab::run(&state.page.scenario).1;
    let b = idemlab_lab::run(&state.page.compare_scenario().unwrap()).1;
    let line = app::compare_sentence(&state, &a, &b).unwrap();
    expect!["keys kept 150 ms: 2 duplicates, 0 lost orders → keys kept 24 h: 0 duplicates, 0 lost orders"]
        .assert_eq(&line);
}

#[test]
fn a_phrase_about_the_other_run_brings_that_run_into_focus() {
    // Issue 11's walk: on a phone the docked timeline is the run in focus; a phrase about A on
    // a step whose reveal put B in focus outlined marks nobody could see.
    let mut state = load_measured("lesson=a&step=5");
    app::update(&mut state, Msg::Predict(right_choice(&LESSONS[0], 4)));
    assert_eq!(state.focus(), Side::B, "the reveal is about B");
    let a_phrase = LESSONS[0].steps[4]
        .pointers
        .iter()
        .position(|p| p.side == Side::A)
        .unwrap();
    app::update(&mut state, Msg::TogglePointer(a_phrase));
    assert_eq!(state.focus(), Side::A);
    assert_eq!(state.page.cursor, None, "at the end of the run in focus");
}

#[test]
fn issue_12_production_counters_show_only_with_a_key_that_can_make_them_count() {
    let shown = |query: &str| -> Vec<&'static str> {
        let scenario = decode_lenient(query).0.scenario;
        let (_, metrics) = idemlab_lab::run(&scenario);
        (app::production_counters(&metrics, &scenario).iter())
            .filter(|c| c.shown)
            .map(|c| c.name)
            .collect()
    };
    assert!(shown("seed=3&preset=race").is_empty(), "a run without them");
    assert_eq!(
        shown("seed=3&dedup=atomic&handler=phased&lease_ms=100"),
        ["conflicts", "takeovers"]
    );
    assert_eq!(shown("seed=3&provider_fail=0.5"), ["replayed_failures"]);
    assert_eq!(
        shown("seed=3&expired=reject&lookup=on"),
        ["rejected_expired", "lookups"]
    );
    assert_eq!(shown("seed=3&reconcile_ms=1000"), ["reconciled", "refunds"]);
    assert!(
        shown("seed=3&relay=direct").is_empty(),
        "no queue, no event to lose"
    );
    assert_eq!(shown("seed=3&relay=direct&consumer=plain"), ["lost_events"]);
    // A lost event is harm; the other counts describe what the contract did.
    let query = "seed=1&orders=3&dedup=atomic&consumer=inbox&crash=api@after-commit&relay=direct";
    let scenario = decode_lenient(query).0.scenario;
    let (_, metrics) = idemlab_lab::run(&scenario);
    let bad: Vec<&str> = (app::production_counters(&metrics, &scenario).iter())
        .filter(|c| c.bad)
        .map(|c| c.name)
        .collect();
    assert_eq!(bad, ["lost_events"]);
    // The page's markup has a card for each, hidden until painted.
    let html = include_str!("../../../www/index.html");
    for card in app::production_counters(&metrics, &scenario) {
        assert!(
            html.contains(&format!("data-metric=\"{}\"", card.name)),
            "{}",
            card.name
        );
        assert!(
            !app::counter_label(card.name, &scenario).is_empty(),
            "{}",
            card.name
        );
        assert!(
            idemlab_course::lessons::metric(&metrics, card.name).is_some(),
            "{}",
            card.name
        );
    }
}

/// Issue 13, Deliver 1: a snippet without its script. With a fixed height the snippet carries
/// `height=` and no script at all, and the frame keeps that height; the dialog's field takes a
/// height in `page::HEIGHT_PX` only.
#[test]
fn issue_13_a_fixed_height_snippet_has_no_script_and_asks_the_lab_to_fit() {
    let state = load("seed=7&preset=lost-ack");
    let query = app::embed_query(
        &state,
        vec!["dedup".into()],
        app::embed_height(" 600 "),
        false,
    );
    assert!(
        query.ends_with("&embed=1&controls=dedup&height=600&v=2"),
        "{query}"
    );
    let snippet = app::embed_snippet(&format!("https://lab.example/?{query}"), "t", Some(600));
    assert!(!snippet.contains("<script"), "{snippet}");
    assert!(snippet.contains("height:600px\""), "{snippet}");
    assert!(snippet.contains("&amp;height=600&amp;v=2\""), "{snippet}");
    for typed in ["", "319", "4001", "6e2", "-600"] {
        assert_eq!(app::embed_height(typed), None, "{typed:?}");
    }
    assert_eq!(app::embed_height("4000"), Some(4000));
    // A height it cannot use is said, with what it can (an instructor's 200 was dropped
    // without a word).
    let said = app::embed_height_error("200").unwrap();
    assert!(
        said.contains("200 px") && said.contains("320 to 4000"),
        "{said}"
    );
    assert_eq!(app::embed_height_error(" "), None);
    assert_eq!(app::embed_height_error("600"), None);
}

#[test]
fn the_embed_dialog_can_send_results_to_the_course_page() {
    let state = load("lesson=a&step=3");
    let query = app::embed_query(&state, vec![], None, true);
    assert!(query.contains("&report=parent"), "{query}");
    assert!(!app::embed_query(&state, vec![], None, false).contains("report="));
    // The box decides, on a page whose link reports already too (the dialog opens it ticked).
    let reporting = load("lesson=a&step=3&report=parent");
    assert!(!app::embed_query(&reporting, vec![], None, false).contains("report="));
    assert!(reporting.page.report);
}

/// Issue 13: in a frame of fixed height the lanes shrink so the run fits under the chrome (B
/// too while comparing), never under `LANE_MIN_PX`; a tall frame keeps the usual lanes.
#[test]
fn issue_13_a_fixed_height_squeezes_the_lanes_to_fit_the_frame() {
    let fit = |query: &str, lanes| app::lane_px(&load(query), lanes, 1000.0);
    assert_eq!(fit("seed=7&embed=1", 5), None, "no height: the usual lanes");
    assert_eq!(fit("seed=7&embed=1&height=600", 5), Some(40));
    assert_eq!(
        fit("seed=7&embed=1&height=600&compare=dedup%3Datomic", 5),
        Some(app::LANE_MIN_PX)
    );
    assert_eq!(
        fit("seed=7&embed=1&height=1200", 5),
        None,
        "room for 60 px lanes"
    );
    assert_eq!(fit("seed=7&embed=1&height=320", 4), Some(app::LANE_MIN_PX));
    let budget = 600 - app::FIT_CHROME_PX;
    assert!(5 * 40 <= budget);
}

/// Issue 13: a refused locked action says which lock refused it and what may change instead
/// (in the banner), and changes nothing else; the note goes with the next scenario change.
#[test]
fn issue_13_a_refused_locked_action_names_its_lock_in_the_banner() {
    let link = "seed=7&preset=lost-ack&embed=1&controls=dedup";
    let mut state = load(link);
    let effects = app::update(&mut state, Msg::NewSeed(99));
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
    assert!(says(Msg::CompareKeys("orders=10".into())).contains("the Compare box"));
    assert!(says(Msg::OpenLesson(&LESSONS[1])).contains("Lesson B stays as it is"));
    assert!(says(Msg::SetKey {
        name: "retries".into(),
        value: "1".into()
    })
    .contains("the retries setting"));
    let none = "seed=7&embed=1&controls=";
    let mut state = load(none);
    app::update(&mut state, Msg::PickPreset("race".into()));
    assert!(state
        .lock_note
        .as_deref()
        .unwrap()
        .contains("so that nothing can be changed here:"));
    // The open key changes, and the note goes.
    let mut state = load(link);
    app::update(&mut state, Msg::NewSeed(3));
    app::update(
        &mut state,
        Msg::SetKey {
            name: "dedup".into(),
            value: "atomic".into(),
        },
    );
    assert_eq!((state.lock_note.clone(), Banner::of(&state)), (None, None));
    // Without locks nothing is refused and nothing is said.
    let mut free = load("seed=7");
    app::update(&mut free, Msg::NewSeed(3));
    assert_eq!(free.lock_note, None);
}

/// Issue 13: Back or Forward onto a link of another theme (or other embed settings) restyles
/// the page; a change that keeps them does not.
#[test]
fn issue_13_back_to_a_link_of_another_theme_restyles_the_page() {
    let mut state = load("seed=7&embed=1&theme=dark");
    let back = |state: &mut app::State, query: &str| {
        app::update(
            state,
            Msg::UrlChanged {
                query: query.into(),
                stored: Progress::new(),
            },
        )
    };
    assert!(
        back(&mut state, "seed=7&embed=1").restyle,
        "dark → the browser's"
    );
    assert!(back(&mut state, "seed=7&embed=1&theme=light").restyle);
    assert!(back(&mut state, "seed=7&embed=1&theme=light&hide=tabs").restyle);
    assert!(
        !back(&mut state, "seed=8&embed=1&theme=light&hide=tabs").restyle,
        "the seed only"
    );
    assert!(!app::update(&mut state, Msg::NewSeed(4)).restyle);
}

/// Issue 13: the address bar carries `v=` as Copy link does; an older link keeps its own until
/// the scenario changes, so a reload still says the run may differ.
#[test]
fn issue_13_the_address_bar_names_the_model_version() {
    let state = load("seed=7&preset=lost-ack");
    assert_eq!(app::address_query(&state), "seed=7&preset=lost-ack&v=2");
    assert_eq!(app::address_query(&state), app::permalink_query(&state));
    let mut old = load("seed=7&v=3");
    assert_eq!(app::address_query(&old), "seed=7&v=3");
    assert!(Banner::of(&old).is_some());
    app::update(&mut old, Msg::NewSeed(8));
    assert_eq!(app::address_query(&old), "seed=8&v=2");
    // The address bar's own entry is the state: Back onto it reloads nothing.
    let same = app::update(
        &mut old,
        Msg::UrlChanged {
            query: "?seed=8&v=2".into(),
            stored: Progress::new(),
        },
    );
    assert_eq!(same, app::Effects::default());
}

/// Issue 13, Deliver 5: a link with an instructor's own steps opens the step it names, with its
/// scenario and compare; the box names it as the instructor's, states its counts, and Previous
/// and Next walk the sequence, each a history entry, with the link naming the step.
#[test]
fn issue_13_an_instructors_own_steps_open_from_their_link_and_walk() {
    let lines = "seed=7&preset=lost-ack&caption=Three%20repeats&check=duplicates:3\nseed=7&preset=lost-ack&compare=dedup%3Datomic&caption=One%20key&check=b.duplicates:0";
    let steps = idemlab_core::scenario::codec::percent_encode(lines);
    let mut state = load(&format!("steps={steps}&step=2&embed=1&controls="));
    assert_eq!(state.page.compare.as_deref(), Some("dedup=atomic"));
    assert_eq!(
        state.page.scenario.preset.map(|p| p.name()),
        Some("lost-ack")
    );
    let view = app::own_step_view(&state).expect("the instructor's step");
    assert_eq!(view.heading, "Your instructor's step 2 of 2");
    assert_eq!(view.caption, "One key");
    assert_eq!(view.checks, ["Run B: Duplicates 0"]);
    assert!(view.previous && !view.next);
    let effects = app::update(&mut state, Msg::OwnStep(0));
    assert!(
        effects.rerun && effects.url == Some(app::UrlWrite::Push),
        "locks let the author's steps open"
    );
    assert_eq!(state.page.compare, None);
    let query = state.to_query();
    assert!(
        query.contains("&step=1&") && query.contains(&format!("steps={steps}")),
        "{query}"
    );
    assert_eq!(
        app::own_step_view(&load(&query)).unwrap().caption,
        "Three repeats"
    );
    assert_eq!(app::update(&mut state, Msg::OwnStep(7)), Effects::default());
    assert_eq!(app::own_step_view(&load("seed=7")), None);
}

/// Issue 13: Fit at a 360 px embed's plot (212 px) puts the run across three quarters of it,
/// not a quarter; a wide plot (the export's 1,000 px) keeps its 160 px for the last label.
#[test]
fn issue_13_fit_fills_a_narrow_plot_with_the_run() {
    let end_us = 1_176_964;
    for (width_px, fill_min, fill_max) in [(212, 0.74, 0.76), (1000, 0.83, 0.85)] {
        let viewport = idemlab_lab::view::window(end_us, None, width_px);
        let fill = viewport.x_px(end_us) / f64::from(width_px);
        assert!(
            (fill_min..=fill_max).contains(&fill),
            "{width_px} px: the run fills {fill}"
        );
    }
}

#[test]
fn an_own_steps_question_holds_the_run_until_answered_and_its_answer_is_the_simulators() {
    let lines = "seed=7&preset=lost-ack&check=effects:7&ask=effects";
    let query = format!(
        "steps={}",
        idemlab_core::scenario::codec::percent_encode(lines)
    );
    let mut state = load_measured(&query);
    assert!(state.awaiting(), "the question waits for its answer");
    assert!(app::counters_hidden(&state));
    let view = app::own_step_view(&state).unwrap();
    // The stated count would give the answer away: it waits with the question.
    assert!(view.checks.is_empty(), "{:?}", view.checks);
    let question = view.question.unwrap();
    assert_eq!(question.choices.len(), 4);
    let right = question
        .choices
        .iter()
        .position(|c| c == "7")
        .expect("7 is offered");
    let wrong = (right + 1) % 4;
    app::update(&mut state, Msg::OwnAnswer(wrong));
    assert!(!state.awaiting());
    let view = app::own_step_view(&state).unwrap();
    assert_eq!(view.checks, ["Run A: Charges 7"]);
    let feedback = view.question.unwrap().feedback.unwrap();
    assert!(feedback.starts_with("Not quite: you chose "), "{feedback}");
    assert!(
        feedback.contains("the simulator's answer is 7."),
        "{feedback}"
    );
    // One answer per step.
    app::update(&mut state, Msg::OwnAnswer(right));
    let again = app::own_step_view(&state).unwrap().question.unwrap();
    assert_eq!(again.chosen, Some(wrong));
    // gate=0 (an instructor previewing) never holds the run.
    let open = load_measured(&format!("{query}&gate=0"));
    assert!(!open.awaiting());
}

#[test]
fn the_embed_dialogs_composer_writes_a_sequence_that_loads_as_the_authors_steps() {
    let mut state = load("seed=7&preset=lost-ack");
    let a = idemlab_lab::run(&state.page.scenario).1;
    let checks = app::compose_checks(&state, &a, None);
    let caption = "Count the charges".to_string();
    let ask = "effects".to_string();
    app::update(
        &mut state,
        Msg::ComposeAdd {
            caption,
            ask,
            checks,
        },
    );
    assert_eq!(state.compose_error, None);
    // A question about B without a compare is refused, with why; nothing is added.
    let (caption, ask) = (String::new(), "b.duplicates".to_string());
    app::update(
        &mut state,
        Msg::ComposeAdd {
            caption,
            ask,
            checks: vec![],
        },
    );
    assert_eq!(
        state.compose_error.as_deref(),
        Some("a question about B needs a compare")
    );
    // The second step: the same scenario with a compare.
    app::update(&mut state, Msg::CompareKeys("dedup=atomic".into()));
    let asks = app::compose_ask_choices(&state);
    assert!(asks
        .iter()
        .any(|(v, l)| v == "b.duplicates" && l == "How many duplicates in run B?"));
    let (caption, ask) = ("One key per order".to_string(), "b.effects".to_string());
    app::update(
        &mut state,
        Msg::ComposeAdd {
            caption,
            ask,
            checks: vec![],
        },
    );
    expect![[r#"
        [
            "seed=7&preset=lost-ack · Count the charges · asks effects",
            "seed=7&preset=lost-ack (B: dedup=atomic) · One key per order · asks b.effects",
        ]
    "#]]
    .assert_debug_eq(&app::compose_lines(&state));
    // The snippet's default title names the sequence, not the view on screen.
    assert_eq!(
        app::embed_title(&state, &[]),
        "idemlab: Count the charges (2 steps)"
    );
    // The snippet's link opens step 1, and its stated counts are the simulator's.
    let query = app::embed_query(&state, vec![], None, false);
    let opened = load(&query);
    assert_eq!(opened.own_step, Some(0));
    assert_eq!(opened.page.compare, None);
    let steps = opened.page.steps.clone().unwrap();
    assert_eq!(steps.len(), 2);
    let (_, _, checked) = steps[0].check();
    assert_eq!(checked.len(), 3);
    assert!(checked.iter().all(|c| c.holds()), "{checked:?}");
    app::update(&mut state, Msg::ComposeRemove(0));
    assert_eq!(state.compose.len(), 1);
    app::update(&mut state, Msg::ComposeClear);
    assert!(state.compose.is_empty());
}

#[test]
fn issue_13_report_parent_sends_an_own_steps_step_and_answer_as_lesson_own() {
    let lines = "seed=7&preset=lost-ack&ask=effects\nseed=7&preset=race";
    let query = format!(
        "steps={}&report=parent",
        idemlab_core::scenario::codec::percent_encode(lines)
    );
    let mut state = load_measured(&query);
    let step_1 = Some(app::Report::Step {
        lesson: "own",
        step: 1,
        steps: Some(2),
    });
    assert_eq!(app::report_on_load(&state), step_1);
    let choices = app::own_step_view(&state)
        .unwrap()
        .question
        .unwrap()
        .choices;
    let right = choices.iter().position(|c| c == "7").unwrap();
    let effects = app::update(&mut state, Msg::OwnAnswer(right));
    let answered = app::Report::Prediction {
        lesson: "own",
        step: 1,
        answer: right,
        choice: "7".into(),
        correct: true,
        steps: Some(2),
    };
    assert_eq!(effects.report, Some(answered));
    let effects = app::update(&mut state, Msg::OwnStep(1));
    assert_eq!(
        effects.report,
        Some(app::Report::Step {
            lesson: "own",
            step: 2,
            steps: Some(2)
        })
    );
}

/// Walk of issue 13: an own step's `step=` changed by hand over other runs than its own shows
/// none of its counts or question, says why, and offers its own runs; a link carrying step 1's
/// keys exactly opens the step it names with that step's runs.
#[test]
fn issue_13_an_own_step_over_runs_not_its_own_hides_its_counts_and_says_why() {
    let lines = "seed=7&preset=lost-ack&check=duplicates:3\nseed=7&preset=race&check=effects:4&ask=duplicates";
    let steps = idemlab_core::scenario::codec::percent_encode(lines);
    let mut state = load_measured(&format!("seed=9&preset=lost-ack&steps={steps}&step=2"));
    let view = app::own_step_view(&state).unwrap();
    assert_eq!(view.heading, "Your instructor's step 2 of 2");
    assert!(view.checks.is_empty() && view.question.is_none() && view.done.is_none());
    assert_eq!(
        view.not_own.as_deref(),
        Some("The runs on screen are not this step's own, so its counts and question are hidden.")
    );
    app::update(&mut state, Msg::OwnStep(1));
    ran_and_measured(&mut state);
    let view = app::own_step_view(&state).unwrap();
    assert_eq!(view.not_own, None);
    assert!(view.question.is_some());
    // The snippet's keys are step 1's: step=2 by hand opens step 2's own runs.
    let by_hand = load(&format!("seed=7&preset=lost-ack&steps={steps}&step=2"));
    assert_eq!(by_hand.page.scenario.preset.map(|p| p.name()), Some("race"));
    assert_eq!(app::own_step_view(&by_hand).unwrap().not_own, None);
}

/// Walk of issue 13: the last own step says, once its question is answered, how many of the
/// sequence's questions were answered right.
#[test]
fn issue_13_the_last_own_step_says_how_many_were_answered_right() {
    let lines = "seed=7&preset=lost-ack&ask=effects\nseed=7&preset=lost-ack&compare=dedup%3Datomic&ask=b.duplicates";
    let query = format!(
        "steps={}",
        idemlab_core::scenario::codec::percent_encode(lines)
    );
    let mut state = load_measured(&query);
    let pick = |state: &State, value: &str| {
        let view = app::own_step_view(state).unwrap();
        assert_eq!(view.done, None);
        let choices = view.question.unwrap().choices;
        choices.iter().position(|c| c == value).unwrap()
    };
    let right = pick(&state, "7");
    app::update(&mut state, Msg::OwnAnswer((right + 1) % 4));
    app::update(&mut state, Msg::OwnStep(1));
    ran_and_measured(&mut state);
    let right = pick(&state, "0");
    app::update(&mut state, Msg::OwnAnswer(right));
    let view = app::own_step_view(&state).unwrap();
    assert_eq!(
        view.done.as_deref(),
        Some("Last step: 1 of 2 answered right.")
    );
}
// ---- Issue 14: keyboard, focus, shortcuts and what is announced (`app::access`, `app::speak`) ----
// Which key acts on what given the focused element's kind, the tab list's and the event list's
// arrows, the skip link to the lesson, the shortcuts setting kept with the progress, and what
// the announcer says (once) after each paint.

#[test]
fn the_focused_elements_kind_from_its_tag_type_and_role() {
    use KeyTarget::*;
    let kind = |tag, kind, role| app::key_target(tag, kind, role, false);
    assert_eq!(kind("body", "", ""), Page);
    assert_eq!(kind("canvas", "", "img"), Page);
    assert_eq!(kind("h3", "", ""), Page);
    assert_eq!(kind("input", "text", ""), Field);
    assert_eq!(kind("input", "number", ""), Field);
    assert_eq!(kind("select", "", ""), Field);
    assert_eq!(kind("textarea", "", ""), Field);
    for (tag, kind_, role) in [
        ("button", "button", "tab"),
        ("button", "button", ""),
        ("span", "", "button"),
        ("table", "", "grid"),
        ("li", "", ""),
        ("section", "", ""),
        ("input", "checkbox", ""),
        ("input", "radio", ""),
        ("input", "range", ""),
    ] {
        assert_eq!(kind(tag, kind_, role), Pressable, "{tag} {role}");
    }
    assert_eq!(app::key_target("button", "", "", true), Dialog);
}

#[test]
fn letters_still_fire_from_a_button_but_never_from_a_field() {
    for k in ["n", "l", "0", "+", "-", "?"] {
        assert_ne!(app::shortcut(k, false, KeyTarget::Pressable), None, "{k}");
        assert_eq!(app::shortcut(k, false, KeyTarget::Field), None, "{k}");
    }
}

#[test]
fn escape_closes_the_tooltip_from_anywhere_but_a_dialog() {
    for target in [KeyTarget::Page, KeyTarget::Field, KeyTarget::Pressable] {
        assert_eq!(
            app::shortcut("Escape", false, target),
            Some(Shortcut::HideTooltip)
        );
    }
    assert_eq!(app::shortcut("Escape", false, KeyTarget::Dialog), None);
    // Releasing Escape on the timeline does not open the tooltip it just closed.
    assert!(!app::tooltip_follows("Escape"));
    assert!(app::tooltip_follows("ArrowRight"));
}

#[test]
fn the_setting_turns_off_every_character_key_but_not_the_arrows() {
    let mut state = load("seed=1");
    app::update(&mut state, Msg::ShortcutsOff(true));
    for k in [" ", "n", "N", "l", "0", "+", "-", "?"] {
        assert_eq!(
            app::shortcut_for(&state, k, false, KeyTarget::Page),
            None,
            "{k:?}"
        );
    }
    let step = app::shortcut_for(&state, "ArrowRight", false, KeyTarget::Page);
    assert_eq!(step, Some(Shortcut::Msg(Msg::Step(1))));
    app::update(&mut state, Msg::ShortcutsOff(false));
    let play = app::shortcut_for(&state, " ", false, KeyTarget::Page);
    assert_eq!(play, Some(Shortcut::Msg(Msg::Play)));
}

#[test]
fn the_setting_is_kept_with_the_progress_and_read_back() {
    let mut progress = Progress::new();
    progress.shortcuts_off = true;
    let text = progress.to_text();
    assert!(text.ends_with("shortcuts=off\n"), "{text}");
    let (read, note) = Progress::parse(Some(&text));
    assert_eq!(note, None);
    assert!(read.shortcuts_off);
    // A page loaded with that record starts with the shortcuts off.
    assert!(State::load("seed=1", &read).shortcuts_off);
    // A record without the line (every record before issue 14) reads as "on".
    let (old, note) = Progress::parse(Some("idemlab-progress 5\n"));
    assert_eq!(note, None);
    assert!(!old.shortcuts_off);
}

#[test]
fn arrows_on_the_tab_list_move_between_the_tabs_shown_and_wrap() {
    let all = Tab::ALL;
    assert_eq!(
        app::tab_key("ArrowRight", Tab::Events, &all),
        Some(Tab::Tables)
    );
    assert_eq!(
        app::tab_key("ArrowLeft", Tab::Events, &all),
        Some(Tab::Lessons)
    );
    assert_eq!(
        app::tab_key("ArrowRight", Tab::Lessons, &all),
        Some(Tab::Events)
    );
    assert_eq!(app::tab_key("Home", Tab::Sweep, &all), Some(Tab::Events));
    assert_eq!(app::tab_key("End", Tab::Events, &all), Some(Tab::Lessons));
    assert_eq!(app::tab_key(" ", Tab::Events, &all), None);
    // In a lesson the Lessons tab is the column, not a tab: the arrows skip it.
    let shown = [Tab::Events, Tab::Tables, Tab::Sweep];
    assert_eq!(
        app::tab_key("ArrowRight", Tab::Sweep, &shown),
        Some(Tab::Events)
    );
}

#[test]
fn arrows_on_a_tab_never_move_the_playback_cursor() {
    let target = app::key_target("button", "button", "tab", false);
    for k in ["ArrowLeft", "ArrowRight", "Home", "End", " "] {
        assert_eq!(app::shortcut(k, false, target), None, "{k}");
    }
}

#[test]
fn the_event_list_moves_its_selected_row_and_keeps_it_on_enter() {
    let key = |k, cursor| app::grid_key(k, cursor, 100, 12);
    assert_eq!(key("ArrowDown", Some(5)), Some(Msg::Select(6)));
    assert_eq!(key("ArrowUp", Some(5)), Some(Msg::Select(4)));
    assert_eq!(key("ArrowUp", Some(0)), Some(Msg::Select(0)));
    assert_eq!(key("ArrowDown", Some(99)), Some(Msg::Select(99)));
    assert_eq!(key("PageDown", Some(95)), Some(Msg::Select(99)));
    assert_eq!(key("PageUp", Some(20)), Some(Msg::Select(8)));
    assert_eq!(key("Home", Some(50)), Some(Msg::Select(0)));
    assert_eq!(key("End", Some(50)), Some(Msg::Select(99)));
    assert_eq!(key("Enter", Some(7)), Some(Msg::Select(7)));
    // No cursor is the run's end: ↓ starts at the top, ↑ at the bottom.
    assert_eq!(key("ArrowDown", None), Some(Msg::Select(0)));
    assert_eq!(key("ArrowUp", None), Some(Msg::Select(99)));
    assert_eq!(key("ArrowLeft", Some(5)), None);
    assert_eq!(key("n", Some(5)), None);
    assert_eq!(app::grid_key("ArrowDown", None, 0, 12), None);
}

#[test]
fn the_skip_link_to_the_lesson_lands_on_the_step_or_opens_the_lessons_tab() {
    assert_eq!(
        app::lesson_skip(&load("lesson=a&step=2")),
        (None, "#lesson-heading")
    );
    assert_eq!(
        app::lesson_skip(&load("seed=3")),
        (Some(Msg::OpenTab(Tab::Lessons)), "#lesson-picker button")
    );
    let state = load("seed=3");
    assert_eq!(app::skip_to(&state, "skip-timeline"), (None, "#canvas-a"));
    assert_eq!(app::skip_to(&state, "skip-back"), (None, "#canvas-a"));
    assert_eq!(
        app::skip_to(&state, "skip-lesson"),
        app::lesson_skip(&state)
    );
}

// ---- The announcer ----

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
    app::update(&mut state, Msg::Play);
    let mut said = Vec::new();
    for _ in 0..30 {
        said.extend(paint(&mut heard, &state, &runs));
        app::update(&mut state, Msg::Tick);
    }
    assert!(said.is_empty(), "{said:?}");
    app::update(&mut state, Msg::Play);
    let pause = paint(&mut heard, &state, &runs).expect("the pause speaks");
    assert_eq!(pause, app::status_line(&state, &runs.a.1));
    assert_eq!(paint(&mut heard, &state, &runs), None, "and only once");
    // A step is a request: it speaks its event; a slider or a row says it itself.
    app::update(&mut state, Msg::Step(1));
    assert!(paint(&mut heard, &state, &runs).is_some());
    app::update(&mut state, Msg::Step(1));
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
    app::update(&mut state, Msg::OpenStep(1));
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
    // Lesson A's step 2 names counters; a new seed changes the run under the same step.
    let (index, step) = (LESSONS[0].steps.iter().enumerate())
        .find(|(_, s)| !s.claims.is_empty())
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
        app::update(&mut state, Msg::NewSeed(seed));
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

#[test]
fn closing_a_lesson_focuses_the_picker_as_its_column_goes() {
    let mut state = load("lesson=a&step=2");
    let effects = app::update(&mut state, Msg::CloseLesson);
    assert_eq!(effects.focus, Some(Focus::LessonPicker));
}

#[test]
fn the_compare_line_names_the_counts_a_step_is_about_when_they_differ() {
    // Lesson C's walk: step 2 read "0 duplicates, 0 lost orders" on both sides while A left an
    // order unknown; step 8 the same while A lost an event.
    let line = |query: &str| {
        let state = load(query);
        let a = idemlab_lab::run(&state.page.scenario).1;
        let b = idemlab_lab::run(&state.page.compare_scenario().unwrap()).1;
        app::compare_sentence(&state, &a, &b).unwrap()
    };
    for (lesson, step, words) in [
        (2, 2, "unknown"),
        (2, 8, "lost events"),
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
fn an_expired_key_row_says_what_a_repeat_gets_under_the_expiry_rule() {
    // Lesson C step 5's walk: under expired=reject the row said "runs the request as new".
    let expired_text = |query: &str| {
        let trace = idemlab_core::sim::run(&decode_lenient(query).0.scenario);
        let view = app::key_store(&trace, Some(trace.events.len() / 2));
        let rows = view.rows.into_iter().filter(|r| r.state == "expired");
        rows.map(|r| r.response).next()
    };
    let reject = expired_text("seed=1&preset=key-expiry&expired=reject");
    assert_eq!(
        reject.as_deref(),
        Some("none: a repeat gets 412 and the row stays")
    );
}

/// Walk of issue 13: refused compare keys (invalid, or locked) put the Compare box back to the
/// keys B runs, even while it has the focus; otherwise a focused box is left to the learner.
#[test]
fn issue_13_a_refused_compare_puts_the_box_back_to_the_keys_b_runs() {
    let mut state = load_measured("seed=7&preset=lost-ack&compare=dedup%3Datomic");
    assert_eq!(app::compare_box(&state, true), None);
    app::update(&mut state, Msg::CompareKeys("dedup=sometimes".into()));
    ran_and_measured(&mut state);
    assert_eq!(state.page.compare.as_deref(), Some("dedup=atomic"));
    assert_eq!(
        app::compare_box(&state, true).as_deref(),
        Some("dedup=atomic")
    );
    let mut locked = load("seed=7&preset=lost-ack&compare=dedup%3Datomic&embed=1&controls=dedup");
    app::update(&mut locked, Msg::CompareKeys("orders=10".into()));
    assert_eq!(
        app::compare_box(&locked, true).as_deref(),
        Some("dedup=atomic")
    );
    // The next message leaves a focused box to the learner again.
    app::update(&mut locked, Msg::OpenTab(Tab::Events));
    assert_eq!(app::compare_box(&locked, true), None);
}

/// Walk of issue 14 (keyboard and screen reader): an answer spoke three regions at once (its
/// feedback, the outline's count and the cursor's event); opening the check re-read the last
/// step. Now the reveal leaves the speaking to the feedback, a phrase pressed later speaks the
/// outline once, and the check's heading speaks for itself.
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
        .position(|c| c == "1");
    app::update(&mut state, Msg::Predict(right.unwrap()));
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
    let start = Msg::QuizStart {
        stored,
        fresh_seed: 1,
    };
    app::update(&mut state, start);
    assert!(state.quiz.is_some());
    assert_eq!(
        say(&state, None),
        None,
        "the check's heading speaks for itself"
    );
}

/// Walk of issue 14: the classify exercise spoke only its count; now the verdict of the
/// operation just answered comes first. A repaint with nothing new, or the first paint, says
/// the score alone.
#[test]
fn the_classify_score_speaks_the_verdict_just_given() {
    use idemlab_course::classify::Class;
    let mut state = load("lesson=a&step=2");
    let before = state.classify;
    assert_eq!(
        app::classify_said(None, &before),
        app::classify_score(&before)
    );
    let answer = Class::Not;
    app::update(&mut state, Msg::Classify { index: 0, answer });
    let said = app::classify_said(Some(&before), &state.classify);
    let verdict = app::classify_items(&state.classify)[0]
        .verdict
        .clone()
        .unwrap();
    assert_eq!(said, format!("{verdict} Answered 1 of 7: 0 right so far."));
    assert_eq!(
        app::classify_said(Some(&state.classify), &state.classify),
        "Answered 1 of 7: 0 right so far."
    );
}

/// Walk of issue 14: a check's answer read out 540 to 760 characters, and its instruction was
/// read before every question. It speaks the verdict and the explanation's first sentence.
#[test]
fn a_check_answer_speaks_its_verdict_and_first_sentence_not_the_instruction() {
    let mut state = load("lesson=a&quiz=3");
    app::update(&mut state, Msg::QuizBegin);
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

/// Walk of issue 14: Shift+click breaks run A at a mark; Shift+Enter on the selected row of
/// the Events list does the same from the keyboard, and nothing while B is in focus.
#[test]
fn shift_enter_on_an_event_row_breaks_run_a_as_shift_click_does() {
    let mut state = load("seed=1&preset=lost-ack");
    let (trace, _) = idemlab_lab::run(&state.page.scenario);
    let send = (trace.events.iter())
        .position(|e| matches!(e.kind, idemlab_core::trace::EventKind::Send { .. }))
        .unwrap() as u32;
    app::update(&mut state, Msg::Select(send));
    let msg = app::grid_break("Enter", true, &state, &trace);
    assert_eq!(msg, app::break_at(&state.page.scenario, &trace, send));
    assert!(matches!(msg, Some(Msg::SetKey { ref name, .. }) if name == "drop"));
    assert_eq!(app::grid_break("Enter", false, &state, &trace), None);
    let mut compared = load("seed=1&preset=lost-ack&compare=dedup%3Datomic&focus=b");
    app::update(&mut compared, Msg::Select(send));
    assert_eq!(app::grid_break("Enter", true, &compared, &trace), None);
}

/// Walk of issue 14: N replaced the run in silence. A shortcut that changes the view says
/// what it did; a new seed refused by a lock says nothing here (the banner says why).
#[test]
fn a_view_shortcut_says_what_it_did() {
    let mut state = load("seed=7");
    app::update(&mut state, Msg::NewSeed(8));
    assert_eq!(
        app::shortcut_said(&Shortcut::NewSeed, 7, &state).as_deref(),
        Some("New seed 8: a new run.")
    );
    let zoom_in = app::shortcut_said(&Shortcut::ZoomBy(2.0), 8, &state);
    assert_eq!(zoom_in.as_deref(), Some("Zoomed in."));
    let fit = app::shortcut_said(&Shortcut::Msg(Msg::Zoom(None)), 8, &state);
    assert_eq!(fit.as_deref(), Some("Zoomed to fit the whole run."));
    assert_eq!(app::shortcut_said(&Shortcut::Help, 8, &state), None);
    let mut locked = load("seed=7&embed=1&controls=dedup");
    app::update(&mut locked, Msg::NewSeed(8));
    assert_eq!(app::shortcut_said(&Shortcut::NewSeed, 7, &locked), None);
}

/// Keyboard re-walk of issue 14: Shift+Enter changed the run in silence; it now says the key it
/// set and where the cursor is. A refused break says nothing here (the banner does).
#[test]
fn a_break_by_hand_says_what_it_set() {
    let mut state = load("seed=1&preset=lost-ack");
    let before = state.page.scenario.clone();
    let (trace, _) = idemlab_lab::run(&before);
    let send = (trace.events.iter())
        .position(|e| matches!(e.kind, idemlab_core::trace::EventKind::Send { .. }))
        .unwrap() as u32;
    app::update(&mut state, Msg::Select(send));
    let msg = app::grid_break("Enter", true, &state, &trace).unwrap();
    app::update(&mut state, msg);
    app::update(&mut state, Msg::Select(send));
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

/// Keyboard re-walk of issue 14: "Check my answer" with nothing chosen redrew the form and left
/// the focus on the page; it now goes back to the form's first field.
#[test]
fn a_check_answer_it_cannot_take_keeps_the_focus_in_the_form() {
    let mut state = load("lesson=a&quiz=3");
    app::update(&mut state, Msg::QuizBegin);
    let effects = app::update(
        &mut state,
        Msg::QuizAnswer(AnswerInput {
            choice: None,
            number: String::new(),
        }),
    );
    assert_eq!(effects.focus, Some(Focus::QuizAnswer));
    assert!(state.quiz.as_ref().unwrap().feedback.is_some());
}

/// The banner words a codec error through `app::error_text` (translatable), the CLI through
/// `Display`: in English they are the same, byte for byte, for every kind of problem.
#[test]
fn the_banners_codec_errors_read_as_the_clis() {
    let long = format!(
        "seed={}",
        "1".repeat(idemlab_core::scenario::codec::QUERY_LEN_MAX)
    );
    let many = vec!["seed=1"; idemlab_core::scenario::codec::PAIRS_MAX + 1].join("&");
    let queries = [
        "colour=blue",
        "seed=1&seed=2",
        "dedup=sometimes",
        "retries=999",
        "theme=sepia&controls=dedup,nope&step=99&lesson=a",
        "compare=dedup%3Dmaybe",
        long.as_str(),
        many.as_str(),
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for query in queries {
        let (_, errors) = idemlab_app::page::PageState::from_query(query);
        assert!(!errors.is_empty(), "{query}");
        for error in &errors {
            kinds.insert(
                format!("{:?}", error.problem)
                    .split([' ', '{'])
                    .next()
                    .unwrap()
                    .to_string(),
            );
            assert_eq!(app::error_text(error), error.to_string(), "{query}");
        }
    }
    assert_eq!(kinds.len(), 5, "{kinds:?}");
}

#[test]
fn a_locked_links_lesson_stays_open_so_its_runs_never_show_before_the_answer() {
    // An instructor's walk closed the lesson of a locked embed and saw the whole run.
    let mut state = load("lesson=a&step=3&embed=1&controls=");
    assert!(app::refused(&state, &Msg::CloseLesson));
    app::update(&mut state, Msg::CloseLesson);
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
    app::update(&mut free, Msg::CloseLesson);
    assert!(free.lesson.is_none());
}

#[test]
fn a_phones_docked_timeline_can_be_put_back_in_the_page_and_docked_again() {
    // A phone walk found the docked strip over the reveal's text with no way to move it.
    let mut state = load_measured("lesson=b&step=1");
    assert_eq!(
        app::page_layout(&state).dock_toggle,
        None,
        "nothing docks before the answer"
    );
    app::update(&mut state, Msg::Predict(0));
    let layout = app::page_layout(&state);
    assert!(layout.dock && layout.dock_toggle == Some(true));
    app::update(&mut state, Msg::ToggleDock);
    let layout = app::page_layout(&state);
    assert!(!layout.dock && layout.dock_toggle == Some(false));
    // The learner's choice holds on the next step.
    app::update(&mut state, Msg::OpenStep(1));
    ran_and_measured(&mut state);
    app::update(&mut state, Msg::Predict(0));
    assert!(!app::page_layout(&state).dock);
    app::update(&mut state, Msg::ToggleDock);
    assert!(app::page_layout(&state).dock);
}

#[test]
fn a_timelines_tooltip_ends_inside_what_shows_of_a_scrolled_timeline() {
    // Beside the point where there is room.
    assert_eq!(app::tooltip_left_px(114.0, 200.0, (0.0, 390.0)), 114.0);
    // Near the right edge of what shows, shifted left to end inside it.
    assert_eq!(app::tooltip_left_px(914.0, 200.0, (600.0, 990.0)), 786.0);
    // Scrolled 600 px, a point left of what shows puts it at the left edge, not off screen.
    assert_eq!(app::tooltip_left_px(0.0, 200.0, (600.0, 990.0)), 604.0);
    // Wider than what shows: it starts at the left edge.
    assert_eq!(app::tooltip_left_px(714.0, 500.0, (600.0, 990.0)), 604.0);
}

#[test]
fn stop_keeps_a_sweeps_totals_and_a_scenario_change_drops_them() {
    let mut state = load("seed=1&loss_resp=0.2&tab=sweep");
    app::update(&mut state, Msg::SweepStart("50".into()));
    for _ in 0..5 {
        state.sweep.as_mut().unwrap().run_one();
    }
    app::update(&mut state, Msg::SweepStop);
    let job = state.sweep.clone().expect("stopped, not dropped");
    assert!(job.stopped && !job.running() && job.done == 5);
    let said = app::sweep_summary(&job, 0.5);
    assert!(
        said.starts_with("5 of 50 seeds (stopped) in 0.50 s: "),
        "{said}"
    );
    assert!(
        said.contains(" duplicates, in ") && said.contains(" runs that had any, "),
        "{said}"
    );
    state.sweep.as_mut().unwrap().run_one();
    assert_eq!(
        state.sweep.as_ref().unwrap().done,
        5,
        "no seed runs after Stop"
    );
    app::update(
        &mut state,
        Msg::SetKey {
            name: "dedup".into(),
            value: "atomic".into(),
        },
    );
    assert!(state.sweep.is_none(), "the totals were another scenario's");
}

#[test]
fn the_compare_box_splits_at_a_comma_before_a_preset_or_a_contract_too() {
    let mut state = load("seed=1&loss_resp=0.2");
    app::update(
        &mut state,
        Msg::CompareKeys("dedup=none, preset=race".into()),
    );
    assert_eq!(
        state.page.compare.as_deref(),
        Some("dedup=none&preset=race")
    );
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    app::update(
        &mut state,
        Msg::CompareKeys("retries=0,contract=stripe-v1".into()),
    );
    assert_eq!(
        state.page.compare.as_deref(),
        Some("retries=0&contract=stripe-v1")
    );
}
