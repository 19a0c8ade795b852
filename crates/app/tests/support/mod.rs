//! Helpers the page's test binaries share: a page loaded as the browser leaves it after its
//! runs, and the answer a lesson step's own runs give. Each binary uses a subset.
#![allow(dead_code)]

use idemlab_app as app;
use idemlab_app::{Msg, State};
use idemlab_core::scenario::decode_lenient;
use idemlab_course::lessons::Lesson;
use idemlab_course::quiz::progress::Progress;

/// The page `query` opens, with no stored progress, once its runs' lengths are in.
pub fn load(query: &str) -> State {
    let mut state = State::load(query, &Progress::new());
    ran(&mut state);
    state
}

/// What the browser does after a rerun: tells the state how many events A and B have.
pub fn ran(state: &mut State) {
    let events_a = idemlab_core::sim::run(&state.page.scenario).events.len() as u32;
    let events_b = (state.page.compare_scenario().as_ref())
        .map_or(0, |b| idemlab_core::sim::run(b).events.len() as u32);
    app::update(state, Msg::Ran { events_a, events_b });
}

/// The scenario of step `index` (from 0) of `lesson`, as its own link gives it.
pub fn step_scenario(lesson: &Lesson, index: usize) -> idemlab_core::scenario::Scenario {
    decode_lenient(lesson.steps[index].query).0.scenario
}

/// What the browser does after a rerun, in full: A's length, then both runs' metrics.
pub fn ran_and_measured(state: &mut State) {
    ran(state);
    let a = idemlab_lab::run(&state.page.scenario).1;
    let b = (state.page.compare_scenario()).map(|s| Box::new(idemlab_lab::run(&s).1));
    app::update(state, Msg::Measured { a: Box::new(a), b });
}

/// The page `query` opens, once its runs' lengths and metrics are in.
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
