//! Lesson A's two exercises on the page: putting the handler's steps in order (a failing order
//! loads the run that fails it), and classifying operations (an answer locks and says why, and
//! "show me" loads the operation's run).

mod support;

use idemlab_app as app;
use idemlab_app::{order_outcome, Effects, Msg, State, Tab, UrlWrite};
use idemlab_app::{ClassifyMsg, LessonMsg, ScenarioMsg};
use idemlab_core::scenario::{decode_lenient, Step};
use idemlab_course::lessons::LESSONS;
use idemlab_course::quiz::progress::Progress;
use support::{load, step_scenario};

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
    app::update(
        &mut state,
        Msg::Lesson(LessonMsg::Reorder { from: 2, to: 1 }),
    );
    let draft = state.draft;
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::RunOrder));
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
fn the_classification_exercise_is_in_lesson_a_step_2_only() {
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

/// Delete order 42 is naturally idempotent; "not" is wrong, and the answer locks.
fn a_wrong_answer_to_the_first_operation_locks_and_says_why(state: &mut State) {
    use idemlab_course::classify::{Class, OPERATIONS};
    let effects = app::update(
        state,
        Msg::Classify(ClassifyMsg::Answer {
            index: 0,
            answer: Class::Not,
        }),
    );
    assert!(effects.render && !effects.rerun && effects.url.is_none());
    let effects = app::update(
        state,
        Msg::Classify(ClassifyMsg::Answer {
            index: 0,
            answer: Class::Natural,
        }),
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
}

#[test]
fn a_classification_answer_locks_and_says_why() {
    use idemlab_course::classify::{Class, OPERATIONS};
    let mut state = load("lesson=a&step=2");
    assert_eq!(app::classify_score(&state.classify), "Answered 0 of 3.");
    let items = app::classify_items(&state.classify);
    assert!(items
        .iter()
        .all(|i| i.verdict.is_none() && i.why.is_none() && !i.show));
    a_wrong_answer_to_the_first_operation_locks_and_says_why(&mut state);
    app::update(
        &mut state,
        Msg::Classify(ClassifyMsg::Answer {
            index: 1,
            answer: Class::Not,
        }),
    );
    let email = &app::classify_items(&state.classify)[1];
    assert_eq!(email.verdict.as_deref(), Some("Right: not idempotent."));
    assert!(email.show, "the email has a run of the same shape");
    // Shown as run A, the operation replaces the step's runs: the step's claims no longer
    // hold, so they hide (with a note), until the step's number brings its runs back.
    assert!(app::page_layout(&state).claims);
    app::update(&mut state, Msg::Classify(ClassifyMsg::Show(1)));
    assert!(!app::step_runs_shown(&state) && !app::page_layout(&state).claims);
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1)));
    assert!(app::step_runs_shown(&state) && app::page_layout(&state).claims);
    assert_eq!(
        app::classify_score(&state.classify),
        "Answered 2 of 3: 1 right so far."
    );
    // An index out of range changes nothing.
    assert_eq!(
        app::update(
            &mut state,
            Msg::Classify(ClassifyMsg::Answer {
                index: 3,
                answer: Class::Not
            })
        ),
        Effects::default()
    );
    for (index, op) in OPERATIONS.iter().enumerate() {
        app::update(
            &mut state,
            Msg::Classify(ClassifyMsg::Answer {
                index,
                answer: op.class,
            }),
        );
    }
    assert_eq!(app::classify_score(&state.classify), "Score: 2 of 3.");
}

#[test]
fn show_me_loads_the_operations_run_as_a_once_answered() {
    use idemlab_course::classify::{Class, OPERATIONS};
    let mut state = load("lesson=a&step=2");
    let transfer = OPERATIONS
        .iter()
        .position(|op| op.text.starts_with("Apply transfer"))
        .unwrap();
    // Before the answer, its run would give the answer away.
    assert_eq!(
        app::update(&mut state, Msg::Classify(ClassifyMsg::Show(transfer))),
        Effects::default()
    );
    app::update(
        &mut state,
        Msg::Classify(ClassifyMsg::Answer {
            index: transfer,
            answer: Class::Redesign,
        }),
    );
    let effects = app::update(&mut state, Msg::Classify(ClassifyMsg::Show(transfer)));
    assert!(effects.rerun && effects.render);
    assert_eq!(effects.url, Some(UrlWrite::Push));
    let wanted = decode_lenient(OPERATIONS[transfer].show.unwrap())
        .0
        .scenario;
    assert_eq!(state.page.scenario, wanted);
    assert_eq!(state.page.compare, None);
    assert_eq!(state.tab, Tab::Lessons);
    assert_eq!(state.lesson.map(|at| at.index()), Some(1));
    // An operation with no run of its own offers none.
    let delete = OPERATIONS.iter().position(|op| op.show.is_none()).unwrap();
    app::update(
        &mut state,
        Msg::Classify(ClassifyMsg::Answer {
            index: delete,
            answer: Class::Natural,
        }),
    );
    assert!(!app::classify_items(&state.classify)[delete].show);
    let before = state.page.scenario.clone();
    assert_eq!(
        app::update(&mut state, Msg::Classify(ClassifyMsg::Show(delete))),
        Effects::default()
    );
    assert_eq!(state.page.scenario, before);
    // Back to the step's own link keeps the answers given on this visit.
    let query = "lesson=a&step=2".to_string();
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::UrlChanged {
            query,
            stored: Progress::new(),
        }),
    );
    assert_eq!(state.page.scenario, step_scenario(&LESSONS[0], 1));
    assert_eq!(state.classify[transfer], Some(Class::Redesign));
}

#[test]
fn the_ordering_list_names_each_step_and_a_move_stops_at_either_end() {
    use idemlab_app::view::ordering::{moved_said, moved_to, view};
    let mut page = idemlab_app::Page::built("lesson=a&step=1");
    let frame = view(&page.state);
    assert_eq!(frame.items.len(), 6);
    let first = &frame.items[0];
    assert!(
        first
            .label
            .starts_with(&format!("1 of 6: {}. ", first.name)),
        "{}",
        first.label
    );
    assert!(first.moves[0].2, "the first step cannot move up");
    assert!(frame.items[5].moves[1].2, "nor the last down");
    assert_eq!(
        (moved_to(0, -1), moved_to(5, 1), moved_to(2, -1)),
        (None, None, Some(1))
    );
    assert_eq!(
        moved_to(1, 9),
        Some(5),
        "a drag past the end goes to the end"
    );
    let name = first.name;
    page.dispatch(Msg::Lesson(LessonMsg::Reorder { from: 0, to: 1 }));
    assert_eq!(view(&page.state).items[1].name, name);
    assert_eq!(
        moved_said(&page.state, 1),
        Some(format!("{name} moved to position 2 of 6."))
    );
    assert_eq!(view(&page.state).verdict, None, "no verdict before a run");
}
