//! The Lessons tab's frame (`app::view::lessons`): the picker with this browser's marks and the
//! locks, the article (the check, "pick a lesson", or the step with its list, heading, text,
//! counts and way on), the outline's status and pressed phrase, and the calculator's result.

mod support;

use expect_test::expect;
use idemlab_app::view::lessons::{calculator_out, view};
use idemlab_app::{LessonBody, LessonsFrame, Msg, Page, StepFrame, TextPiece};
use idemlab_app::{LessonMsg, QuizMsg};
use idemlab_course::lessons::LESSONS;
use idemlab_course::quiz::progress::Progress;

fn frame(page: &Page) -> LessonsFrame {
    view(&page.state, &page.runs, &Progress::new())
}

fn step(page: &Page) -> StepFrame {
    match frame(page).body {
        LessonBody::Step(step) => *step,
        body => panic!("no step on screen: {body:?}"),
    }
}

#[test]
fn the_picker_marks_a_mastered_lesson_and_a_lock_keeps_the_others_shut() {
    let quiz = idemlab_course::quiz::generate(&LESSONS[0], 5);
    let answers: Vec<_> = quiz.questions.iter().map(|q| Some(q.answer)).collect();
    let mut progress = Progress::new();
    progress.record(&quiz, &answers);
    let page = Page::built("controls=dedup&lesson=b&step=1");
    let picker = view(&page.state, &page.runs, &progress).picker;
    expect![[r#"
        [
            PickerButton {
                id: "a",
                text: "Lesson A: The lost acknowledgement (25 min) ✓ mastered",
                disabled: true,
            },
            PickerButton {
                id: "b",
                text: "Lesson B: Duplicates outside the pod (25 min)",
                disabled: false,
            },
            PickerButton {
                id: "c",
                text: "Lesson C: In production (28 min)",
                disabled: true,
            },
        ]"#]]
    .assert_eq(&format!("{picker:#?}"));
}

#[test]
fn the_article_holds_the_check_a_prompt_or_the_step() {
    let mut page = Page::built("seed=7");
    assert_eq!(frame(&page).body, LessonBody::Pick);
    page.dispatch(Msg::Lesson(LessonMsg::Open(&LESSONS[0])));
    assert!(matches!(frame(&page).body, LessonBody::Step(_)));
    page.dispatch(Msg::Quiz(QuizMsg::Start {
        stored: Progress::new(),
        fresh_seed: 5,
    }));
    assert_eq!(frame(&page).body, LessonBody::Quiz);
}

#[test]
fn a_step_lists_its_steps_its_counts_and_its_way_on() {
    let page = Page::built("lesson=c&step=2");
    let step = step(&page);
    assert_eq!(step.steps.len(), LESSONS[2].steps.len());
    let current: Vec<_> = (step.steps.iter()).map(|s| s.current).collect();
    assert_eq!(current.iter().position(|&c| c), Some(1));
    assert_eq!(current.iter().filter(|&&c| c).count(), 1);
    expect![[r#"
        StepButton {
            title: "Commit the claim first, with a lease",
            tooltip: "Step 2: Commit the claim first, with a lease",
            current: true,
        }"#]]
    .assert_eq(&format!("{:#?}", step.steps[1]));
    let rest = StepFrame {
        steps: Vec::new(),
        text: Vec::new(),
        ..step
    };
    expect![[r#"
        StepFrame {
            steps: [],
            heading: "Step 2 of 9: Commit the claim first, with a lease",
            text: [],
            pointer_hint: true,
            claims: [
                ClaimItem {
                    metric: "conflicts",
                    side: "a",
                    text: "A: 409s answered = 6",
                },
                ClaimItem {
                    metric: "unknown",
                    side: "a",
                    text: "A: Unknown = 1",
                },
                ClaimItem {
                    metric: "unrecorded",
                    side: "a",
                    text: "A: Charges the ledger never recorded = 1",
                },
                ClaimItem {
                    metric: "takeovers",
                    side: "b",
                    text: "B: Takeovers = 1",
                },
                ClaimItem {
                    metric: "duplicates",
                    side: "b",
                    text: "B: Duplicates = 0",
                },
            ],
            boundary: Some(
                "Protects: the ledger database and the payment service (which takes the key) after a crash mid-call. Does not protect: a service that takes no key.",
            ),
            calculator: false,
            classify: false,
            ordering: false,
            previous: Some(
                0,
            ),
            next: Some(
                2,
            ),
            mastery: None,
            build: false,
        }"#]]
    .assert_eq(&format!("{rest:#?}"));
}

#[test]
fn the_last_step_offers_the_check_with_its_status() {
    let last = LESSONS[0].steps.len();
    let page = Page::built(&format!("lesson=a&step={last}"));
    let step = step(&page);
    assert_eq!((step.previous, step.next), (Some(last - 2), None));
    assert_eq!(
        step.mastery.as_deref(),
        Some("Mastery check: Not taken yet: 4 questions, one attempt each.")
    );
    assert!(step.steps[last - 1].current);
}

#[test]
fn the_steps_text_numbers_its_terms_after_the_questions() {
    let page = Page::built("lesson=a&step=1");
    let setup = idemlab_app::view::predict::view(&page.state)
        .shell
        .unwrap()
        .setup;
    let first = idemlab_app::view::predict::terms_in(&setup);
    let step = step(&page);
    let ids: Vec<usize> = (step.text.iter())
        .filter_map(|piece| match piece {
            TextPiece::Term { id, .. } => Some(id.0),
            _ => None,
        })
        .collect();
    assert_eq!(ids, (first..first + ids.len()).collect::<Vec<_>>());
    let pointers = (step.text.iter()).filter(|p| matches!(p, TextPiece::Pointer(..)));
    assert_eq!(pointers.count(), LESSONS[0].steps[0].pointers.len());
    assert!(step.pointer_hint);
}

#[test]
fn a_pressed_phrase_outlines_its_marks_and_says_how_many() {
    let mut page = Page::built("lesson=a&step=1");
    assert_eq!(
        (frame(&page).pointer_status, frame(&page).pressed),
        (String::new(), None)
    );
    page.dispatch(Msg::Lesson(LessonMsg::Predict(support::right_choice(
        &LESSONS[0],
        0,
    ))));
    page.dispatch(Msg::Lesson(LessonMsg::TogglePointer(1)));
    let frame = frame(&page);
    assert_eq!(frame.pressed, Some(1));
    assert!(
        frame.pointer_status.ends_with(" outlined."),
        "{}",
        frame.pointer_status
    );
}

#[test]
fn the_calculator_multiplies_what_is_typed_or_asks_for_whole_numbers() {
    assert_eq!(
        calculator_out("10000", " 24 ", "1000"),
        "= 864 GB held at any moment"
    );
    assert_eq!(
        calculator_out("10000", "-1", "1000"),
        "Enter whole numbers, 0 or more."
    );
    assert_eq!(
        calculator_out("", "24", "1000"),
        "Enter whole numbers, 0 or more."
    );
}

#[test]
fn an_outlined_timeline_scrolls_into_view_only_when_part_is_off_screen() {
    use idemlab_app::view::lessons::timeline_scroll;
    assert_eq!(timeline_scroll(100.0, 400.0, 800.0), None);
    assert_eq!(
        timeline_scroll(600.0, 900.0, 800.0),
        Some(false),
        "below: its bottom meets the window's"
    );
    assert_eq!(
        timeline_scroll(-50.0, 300.0, 800.0),
        Some(true),
        "above: its top meets the window's"
    );
}
