//! Helpers the page's test binaries share: a page loaded as the browser leaves it after its
//! runs, and the answer a lesson step's own runs give. Each binary uses a subset.
#![allow(dead_code)]

use idemlab_app as app;
use idemlab_app::{AnswerInput, State};
use idemlab_core::scenario::decode_lenient;
use idemlab_course::lessons::Lesson;
use idemlab_course::quiz::progress::Progress;

/// The page `query` opens, with no stored progress, once its runs are built.
pub fn load(query: &str) -> State {
    let mut state = State::load(query, &Progress::new());
    ran(&mut state);
    state
}

/// What the page does after a rerun: its scheduler builds A and B and tells the state their
/// lengths and metrics.
pub fn ran(state: &mut State) {
    let mut page = app::Page::from_state(state.clone());
    page.rerun();
    *state = page.state;
}

/// The scenario of step `index` (from 0) of `lesson`, as its own link gives it.
pub fn step_scenario(lesson: &Lesson, index: usize) -> idemlab_core::scenario::Scenario {
    decode_lenient(lesson.steps[index].query).0.scenario
}

/// The same as `ran`: the scheduler reports lengths and metrics together.
pub fn ran_and_measured(state: &mut State) {
    ran(state);
}

/// The page `query` opens, once its runs are built (as `load`).
pub fn load_measured(query: &str) -> State {
    let mut state = State::load(query, &Progress::new());
    ran_and_measured(&mut state);
    state
}

/// The right choice, read from the step's own runs as the lessons test does.
pub fn right_choice(lesson: &Lesson, index: usize) -> usize {
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

/// The right answer to the check's question on screen, as a learner who worked it out types it.
pub fn right_answer(state: &State) -> AnswerInput {
    let session = state.quiz.as_ref().expect("a check on screen");
    let question = &session.quiz.questions[session.shown.expect("a question on screen")];
    match question.form {
        idemlab_course::quiz::Form::Choices(_) => AnswerInput {
            choice: Some(question.answer),
            number: String::new(),
        },
        idemlab_course::quiz::Form::Number => AnswerInput {
            choice: None,
            number: question.answer.to_string(),
        },
    }
}
