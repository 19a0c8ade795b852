//! The step's question's frame (`app::view::predict`): built per step with what it asks (never
//! its answer), its terms numbered through the step's texts, the reveal held while it waits,
//! the marks once answered, and nothing while the check replaces the step.

mod support;

use expect_test::expect;
use idemlab_app::view::predict::view;
use idemlab_app::{ChoiceMark, Msg, Page, TextPiece};
use idemlab_app::{LessonMsg, QuizMsg};
use idemlab_course::lessons::LESSONS;

#[test]
fn a_step_waits_for_its_answer_with_the_choices_unmarked() {
    let page = Page::built("lesson=a&step=1");
    let frame = view(&page.state);
    assert!(frame.waiting);
    let asked = frame.asked.as_ref().expect("step 1 asks");
    let unanswered = (asked.feedback.as_str(), asked.result, asked.answered);
    assert_eq!(unanswered, ("", None, false));
    let unmarked = ChoiceMark {
        pressed: false,
        locked: false,
        class: "",
    };
    assert_eq!(asked.choices, vec![unmarked; 3]);
    let shell = frame.shell.expect("a step is on screen");
    assert_eq!(
        (shell.ask, shell.side, shell.metric),
        ("count", "a", "effects")
    );
    assert_eq!(shell.hold_hint, "Answer the question to go on.");
    let terms = shell.terms.expect("step 1 lists its words");
    assert!(terms
        .summary
        .starts_with("Words this step uses (point at or tab to an underlined one"));
    assert_eq!(terms.entries.len(), LESSONS[0].steps[0].terms.len());
    expect![[
        r#"How many charges will the payment service make for this one order? ["1", "2", "3"]"#
    ]]
    .assert_eq(&format!("{} {:?}", shell.question, shell.choices));
}

#[test]
fn the_setup_numbers_its_terms_first_and_each_id_is_its_own() {
    let page = Page::built("lesson=a&step=1");
    let shell = view(&page.state).shell.unwrap();
    let ids: Vec<String> = (shell.setup.iter())
        .filter_map(|piece| match piece {
            TextPiece::Term { id, .. } => Some(id.to_string()),
            _ => None,
        })
        .collect();
    let numbered: Vec<String> = (0..ids.len()).map(|n| format!("term-def-{n}")).collect();
    assert!(!ids.is_empty(), "step 1's setup underlines a term");
    assert_eq!(ids, numbered);
    let text: String = (shell.setup.iter())
        .map(|piece| match *piece {
            TextPiece::Plain(words) | TextPiece::Pointer(_, words) => words,
            TextPiece::Term { words, .. } => words,
        })
        .collect();
    assert_eq!(
        text, LESSONS[0].steps[0].predict.setup,
        "the pieces are the text"
    );
}

#[test]
fn a_wrong_answer_marks_both_choices_and_reveals_the_step() {
    let mut page = Page::built("lesson=a&step=1");
    let right = support::right_choice(&LESSONS[0], 0);
    let wrong = usize::from(right == 0);
    page.dispatch(Msg::Lesson(LessonMsg::Predict(wrong)));
    let frame = view(&page.state);
    assert!(!frame.waiting);
    let asked = frame.asked.expect("still asked, now answered");
    assert!(asked.answered && asked.feedback.starts_with("Not quite: you chose "));
    assert_eq!(asked.result, Some("wrong"));
    let marks: Vec<_> = (asked.choices.iter())
        .map(|m| (m.pressed, m.locked, m.class))
        .collect();
    for (i, (pressed, locked, class)) in marks.into_iter().enumerate() {
        assert_eq!(pressed, i == wrong);
        assert!(locked);
        let expected = match i {
            i if i == right => "right",
            i if i == wrong => "wrong",
            _ => "",
        };
        assert_eq!(class, expected, "choice {i}");
    }
}

#[test]
fn gate_0_asks_without_waiting_and_the_check_asks_nothing() {
    let mut page = Page::built("lesson=a&step=1&gate=0");
    let frame = view(&page.state);
    assert!(!frame.waiting && frame.asked.is_some());
    page.dispatch(Msg::Quiz(QuizMsg::Start {
        stored: Default::default(),
        fresh_seed: 5,
    }));
    let frame = view(&page.state);
    assert_eq!(
        (frame.shell, frame.waiting, frame.asked),
        (None, false, None)
    );
}

#[test]
fn a_link_with_its_own_scenario_hides_the_question_and_holds_nothing() {
    let page = Page::built("orders=3&lesson=a&step=1");
    let frame = view(&page.state);
    assert!(frame.shell.is_some(), "the step is still on screen");
    assert_eq!((frame.waiting, frame.asked), (false, None));
}

#[test]
fn the_feedback_scrolls_into_its_column_then_above_a_docked_timeline() {
    use idemlab_app::view::predict::feedback_scroll_px;
    let no_dock = || None;
    assert_eq!(
        feedback_scroll_px((100.0, 140.0), (50.0, 600.0), no_dock),
        (None, None),
        "in view: no scroll"
    );
    assert_eq!(
        feedback_scroll_px((700.0, 740.0), (50.0, 600.0), no_dock),
        (Some(642.0), None),
        "below a phone's short column: the column scrolls, 8 px short of its top"
    );
    assert_eq!(
        feedback_scroll_px((-30.0, 10.0), (-400.0, 900.0), no_dock),
        (None, Some(-38.0)),
        "above the window: the window scrolls up"
    );
    assert_eq!(
        feedback_scroll_px((500.0, 560.0), (0.0, 900.0), || Some(520.0)),
        (None, Some(48.0)),
        "under the docked timeline: up by the overlap and 8 px"
    );
    assert_eq!(
        feedback_scroll_px((20.0, 560.0), (0.0, 900.0), || Some(520.0)),
        (None, Some(12.0)),
        "but never so far that its top leaves the window"
    );
}
