//! The mastery check's frame (`app::view::quiz`): the introduction with this browser's status,
//! a question with its marks and its form, locked once answered with the line that says why,
//! the way on to the score, and the score with its review. A note about the browser's storage
//! rides along for the page to show when it next builds the panel.

mod support;

use expect_test::expect;
use idemlab_app::view::quiz::view;
use idemlab_app::QuizMsg;
use idemlab_app::{AnswerInput, Msg, Page, QuizFields, QuizFrame, QuizShows};
use idemlab_course::quiz::progress::Progress;
use idemlab_course::quiz::QUESTIONS;
use support::right_answer;

fn frame(page: &Page) -> QuizFrame {
    view(&page.state, &Progress::new(), None)
}

#[test]
fn no_check_no_panel_and_the_note_rides_along() {
    let page = Page::built("lesson=a&step=1");
    let note = "Saved quiz progress could not be read, so it starts afresh.";
    let frame = view(&page.state, &Progress::new(), Some(note));
    assert_eq!(frame.panel, None);
    assert_eq!(frame.note.as_deref(), Some(note));
}

#[test]
fn the_introduction_says_how_the_check_works_and_the_lesson_status() {
    let page = Page::built("lesson=a&quiz=5");
    expect![[r#"
        QuizFrame {
            panel: Some(
                QuizPanel {
                    title: "Mastery check: Lesson A",
                    shows: Intro {
                        text: "4 questions on fresh variants of the lesson's situations: a prediction (a count), a concept (a step order, or which boundary a claim protects) and a diagnosis (which change prevents the harm), at least. Answer each before its run is shown; once your answer is locked the run appears, the cursor on the event that proves it. One attempt per question; all 4 right masters the lesson. Quiz seed 5: the same link gives the same questions.",
                        status: "Not taken yet: 4 questions, one attempt each.",
                    },
                },
            ),
            note: None,
        }"#]].assert_eq(&format!("{:#?}", frame(&page)));
}

#[test]
fn a_question_shows_its_marks_and_its_form() {
    let mut page = Page::built("lesson=a&quiz=5");
    page.dispatch(Msg::Quiz(QuizMsg::Begin));
    let Some(QuizShows::Question(before)) = frame(&page).panel.map(|p| p.shows) else {
        panic!("the first question");
    };
    expect![[r#"
        QuizQuestion {
            dots_label: "Questions",
            dots: [
                Dot {
                    text: "1 •",
                    label: "question 1: current question",
                    current: true,
                },
                Dot {
                    text: "2 ",
                    label: "question 2: to come",
                    current: false,
                },
                Dot {
                    text: "3 ",
                    label: "question 3: to come",
                    current: false,
                },
                Dot {
                    text: "4 ",
                    label: "question 4: to come",
                    current: false,
                },
            ],
            kind: "charges-for-order",
            number: "1",
            order: Some(
                "2",
            ),
            fields: Number {
                legend: "The API does not check keys. The client waits 220 ms for an answer (only a lost answer takes that long), then retries, up to 4 times. In this run 0 answers to order 2 are lost on the way back. How many times does the payment service charge order 2?",
                max: "999",
                given: None,
            },
            offers_try: false,
            check_disabled: false,
            feedback: "One attempt per question; all 4 right masters the lesson.",
            result: None,
            said: "",
            answered: false,
            next_label: None,
        }"#]].assert_eq(&format!("{before:#?}"));
}

#[test]
fn an_answered_question_locks_its_form_and_says_why() {
    let mut page = Page::built("lesson=a&quiz=5");
    page.dispatch(Msg::Quiz(QuizMsg::Begin));
    page.dispatch(Msg::Quiz(QuizMsg::Answer(right_answer(&page.state))));
    let panel = frame(&page).panel.unwrap();
    assert_eq!(panel.title, format!("Lesson A, question 1 of {QUESTIONS}"));
    let QuizShows::Question(after) = panel.shows else {
        panic!("still the first question");
    };
    assert!(after.answered && after.check_disabled && !after.offers_try);
    assert_eq!(after.result, Some("right"));
    assert!(after.feedback.starts_with("Right."), "{}", after.feedback);
    assert!(after.feedback.starts_with(&after.said) && after.said.len() < after.feedback.len());
    assert_eq!(
        after.next_label, None,
        "the markup's own \"Next question →\""
    );
    match &after.fields {
        QuizFields::Number { given, .. } => assert!(given.is_some()),
        QuizFields::Choices { choices, .. } => {
            assert!(choices.iter().all(|c| c.disabled));
            assert!(choices.iter().any(|c| c.checked && c.mark.contains('✓')));
        }
    }
}

#[test]
fn a_refused_answer_says_why_and_the_last_question_leads_to_the_score() {
    let mut page = Page::built("lesson=a&quiz=5");
    page.dispatch(Msg::Quiz(QuizMsg::Begin));
    page.dispatch(Msg::Quiz(QuizMsg::Answer(AnswerInput {
        choice: None,
        number: "many".into(),
    })));
    let Some(QuizShows::Question(refused)) = frame(&page).panel.map(|p| p.shows) else {
        panic!("the first question");
    };
    assert_eq!((refused.result, refused.answered), (None, false));
    assert_eq!(refused.feedback, refused.said, "a refusal speaks whole");
    for _ in 0..QUESTIONS {
        page.dispatch(Msg::Quiz(QuizMsg::Answer(right_answer(&page.state))));
        let Some(QuizShows::Question(question)) = frame(&page).panel.map(|p| p.shows) else {
            panic!("a question");
        };
        let last = question.number == QUESTIONS.to_string();
        assert_eq!(question.next_label, last.then_some("See the score →"));
        page.dispatch(Msg::Quiz(QuizMsg::Next));
    }
    let panel = frame(&page).panel.unwrap();
    assert_eq!(panel.title, "Mastery check: Lesson A, your score");
    expect![[r#"
        Score {
            verdict: "4 of 4 right: Lesson A mastered.",
            mastered: true,
            review: [
                "✓ question 1. ",
                "✓ question 2. ",
                "✓ question 3. ",
                "✓ question 4. ",
            ],
        }"#]]
    .assert_eq(&format!("{:#?}", panel.shows));
}
