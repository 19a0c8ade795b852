//! Results to the course page (`report=parent`, `app::report`): the step reached, each
//! prediction and whether it was right, the check's score once its last answer is locked, an
//! instructor's own steps as lesson "own"; and the embed dialog's box that asks for them.

mod support;

use idemlab_app as app;
use idemlab_app::{AnswerInput, Msg, Tab};
use idemlab_app::{LessonMsg, OwnMsg, QuizMsg};
use idemlab_course::lessons::LESSONS;
use idemlab_course::quiz::{Form, QUESTIONS};
use support::{load, load_measured, right_choice};

#[test]
fn report_parent_sends_the_step_reached_and_nothing_without_it() {
    let mut state = load("lesson=a&step=1&report=parent");
    assert_eq!(
        app::report_on_load(&state),
        Some(app::Report::Step {
            lesson: "a",
            step: 1,
            steps: None
        })
    );
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1)));
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
        app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(1))).report,
        None,
        "the same step"
    );
    let mut quiet = load("lesson=a&step=1");
    assert_eq!(app::report_on_load(&quiet), None);
    assert_eq!(
        app::update(&mut quiet, Msg::Lesson(LessonMsg::OpenStep(1))).report,
        None
    );
    assert!(load("seed=1&report=parent")
        .to_query()
        .ends_with("&report=parent"));
    let bad = load("seed=1&report=all");
    assert!(!bad.page.report && bad.errors[0].to_string().contains("expected parent"));
}

#[test]
fn report_parent_sends_each_prediction_with_whether_it_was_right() {
    let mut state = load_measured("lesson=a&step=1&report=parent");
    let right = right_choice(&LESSONS[0], 0);
    let wrong = (right + 1) % LESSONS[0].steps[0].predict.choices().len();
    let effects = app::update(&mut state, Msg::Lesson(LessonMsg::Predict(wrong)));
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
    assert_eq!(
        app::update(&mut state, Msg::Lesson(LessonMsg::Predict(right))).report,
        None
    );
}

#[test]
fn report_parent_sends_the_checks_score_once_its_last_answer_is_locked() {
    for (seed, wrong_at) in [(5, None), (31, Some(3))] {
        let mut state = load(&format!("lesson=a&quiz={seed}&report=parent"));
        assert_eq!(
            app::report_on_load(&state),
            None,
            "no step while the check is open"
        );
        app::update(&mut state, Msg::Quiz(QuizMsg::Begin));
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
            reports.extend(app::update(&mut state, Msg::Quiz(QuizMsg::Answer(input))).report);
            app::update(&mut state, Msg::Quiz(QuizMsg::Next));
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
fn report_parent_sends_an_own_steps_step_and_answer_as_lesson_own() {
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
    let effects = app::update(&mut state, Msg::Own(OwnMsg::Answer(right)));
    let answered = app::Report::Prediction {
        lesson: "own",
        step: 1,
        answer: right,
        choice: "7".into(),
        correct: true,
        steps: Some(2),
    };
    assert_eq!(effects.report, Some(answered));
    let effects = app::update(&mut state, Msg::Own(OwnMsg::Open(1)));
    assert_eq!(
        effects.report,
        Some(app::Report::Step {
            lesson: "own",
            step: 2,
            steps: Some(2)
        })
    );
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
