//! The classification exercise's frame (`app::view::classify`): on screen only on its step, each
//! operation's buttons unmarked until answered, then locked with the right class shown, the
//! verdict, why and "Show me" where the lab has a run of the same shape.

use expect_test::expect;
use idemlab_app::view::classify::view;
use idemlab_app::{ClassifyMsg, LessonMsg, QuizMsg};
use idemlab_app::{Msg, Page};
use idemlab_course::classify::Class;

#[test]
fn the_exercise_is_on_screen_only_on_its_own_step() {
    let mut page = Page::built("lesson=a&step=1");
    assert_eq!(view(&page.state), None, "step 1 has no exercise");
    page.dispatch(Msg::Lesson(LessonMsg::OpenStep(1)));
    let frame = view(&page.state).expect("step 2 holds it");
    assert_eq!(frame.ops.len(), 3);
    let names: Vec<_> = frame.ops[0].choices.iter().map(|c| c.name).collect();
    assert_eq!(names, ["natural", "not", "redesign"]);
    assert_eq!(frame.score, "Answered 0 of 3.");
    page.dispatch(Msg::Quiz(QuizMsg::Start {
        stored: Default::default(),
        fresh_seed: 5,
    }));
    assert_eq!(view(&page.state), None, "the check replaces the step");
}

#[test]
fn an_operation_is_unmarked_until_answered() {
    let page = Page::built("lesson=a&step=2&gate=0");
    let frame = view(&page.state).unwrap();
    expect![[r#"
        ClassifyOp {
            text: "Delete order 42",
            text_id: "classify-op-0",
            choices: [
                ClassifyChoice {
                    name: "natural",
                    label: "naturally idempotent",
                    pressed: false,
                    locked: false,
                    right: false,
                },
                ClassifyChoice {
                    name: "not",
                    label: "not idempotent",
                    pressed: false,
                    locked: false,
                    right: false,
                },
                ClassifyChoice {
                    name: "redesign",
                    label: "idempotent after a redesign",
                    pressed: false,
                    locked: false,
                    right: false,
                },
            ],
            verdict: "",
            answered: false,
            correct: "0",
            why: "",
            more: None,
            show: false,
        }"#]]
    .assert_eq(&format!("{:#?}", frame.ops[0]));
}

#[test]
fn a_wrong_answer_locks_its_buttons_and_marks_the_right_class() {
    let mut page = Page::built("lesson=a&step=2&gate=0");
    let index = (page.state.classify.iter().enumerate())
        .map(|(i, _)| i)
        .find(|&i| {
            let op = &idemlab_course::classify::OPERATIONS[i];
            op.class != Class::Not && op.show.is_some()
        })
        .expect("an operation with a run that is not 'not idempotent'");
    page.dispatch(Msg::Classify(ClassifyMsg::Answer {
        index,
        answer: Class::Not,
    }));
    let frame = view(&page.state).unwrap();
    let op = &frame.ops[index];
    let marks: Vec<_> = (op.choices.iter())
        .map(|c| (c.name, c.pressed, c.locked, c.right))
        .collect();
    let right = idemlab_course::classify::OPERATIONS[index].class.name();
    for (name, pressed, locked, is_right) in marks {
        assert_eq!(pressed, name == "not", "{name}");
        assert!(
            locked,
            "{name}: every button of an answered operation is locked"
        );
        assert_eq!(is_right, name == right, "{name}");
    }
    assert!(op.answered && op.show);
    assert_eq!(op.correct, "0");
    assert!(
        op.verdict.starts_with("Not quite: it is "),
        "{}",
        op.verdict
    );
    assert!(op.why.len() > 20, "{}", op.why);
    assert!(frame.score.starts_with(&op.verdict), "{}", frame.score);
    let others = (frame.ops.iter().enumerate()).filter(|&(i, _)| i != index);
    assert!(others
        .clone()
        .all(|(_, op)| !op.answered && op.verdict.is_empty()));
}
