//! The Lessons tab: open a lesson or a step, answer its prediction, outline a phrase, the
//! ordering exercise, and leave.

use crate::model::order_outcome;
use crate::{Effects, Focus, OrderVerdict, State};
use idemlab_core::scenario::Step;
use idemlab_course::lessons::Lesson;

/// What a learner does in a lesson.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    Open(&'static Lesson),
    /// A step of the open lesson, from the list or the Previous/Next buttons.
    OpenStep(usize),
    /// A pointer phrase of the open step: outline what it names, or stop.
    TogglePointer(usize),
    /// The ordering draft: move the step at `from` to `to`.
    Reorder {
        from: usize,
        to: usize,
    },
    RunOrder,
    /// The learner answers the open step's prediction with this choice.
    Predict(usize),
    /// Leave the lesson: its column gives way to the controls again; the run stays.
    Close,
    /// Open the finale's task (`crate::build`) on its empty sandbox.
    Build,
    /// Add a part to the task's sandbox.
    AddPart(idemlab_course::build::Part),
}

pub(super) fn update(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::Open(lesson) => {
            state.open_step(lesson, 0);
            // The picker's button moves into the lesson's column: the focus goes to the step
            // rather than fall to the page.
            Effects {
                focus: Some(Focus::LessonHeading),
                ..Effects::scenario()
            }
        }
        Msg::OpenStep(index) => match state.lesson {
            Some(at) => {
                state.open_step(at.lesson, index);
                Effects {
                    focus: Some(Focus::LessonHeading),
                    ..Effects::scenario()
                }
            }
            None => Effects::default(),
        },
        Msg::TogglePointer(index) => toggle_pointer(state, index),
        Msg::Reorder { from, to } => {
            if from < 6 && to < 6 && from != to {
                move_step(&mut state.draft, from, to);
            }
            Effects::default()
        }
        Msg::RunOrder => {
            let verdict =
                idemlab_course::ordering::judge(state.draft, idemlab_course::ordering::SEEDS_PAGE);
            let (text, safe, scenario) = order_outcome(state.draft, &state.page.scenario, &verdict);
            state.set_scenario(scenario);
            state.verdict = Some(OrderVerdict { text, safe });
            Effects::scenario()
        }
        Msg::Close => crate::screen::close_lesson(state),
        Msg::Build => crate::build::open(state),
        Msg::AddPart(part) => crate::build::add(state, part),
        Msg::Predict(choice) => crate::predict::answer(state, choice),
    }
}

fn toggle_pointer(state: &mut State, index: usize) -> Effects {
    let Some(pointer) = state.lesson.and_then(|at| at.step().pointers.get(index)) else {
        return Effects::default();
    };
    let wanted = Some((pointer.side, pointer.find));
    state.highlight = if state.highlight == wanted {
        None
    } else {
        wanted
    };
    // Comparing, the outlined run comes into focus (at its end, so no cursor index of the
    // other run is read in this one): a phone docks the run in focus.
    if state.highlight.is_some() && state.page.compare.is_some() && state.focus() != pointer.side {
        state.page.focus = pointer.side;
        state.page.cursor = None;
        state.playing = false;
        return Effects {
            show_timeline: Some(pointer.side),
            reveal: Some(pointer.side),
            ..Effects::view()
        };
    }
    Effects {
        render: true,
        show_timeline: state.highlight.map(|(side, _)| side),
        reveal: state.highlight.map(|(side, _)| side),
        ..Effects::default()
    }
}

/// Moves the step at `from` to `to`, shifting the ones between.
pub fn move_step(draft: &mut [Step; 6], from: usize, to: usize) {
    if from < to {
        draft[from..=to].rotate_left(1);
    } else {
        draft[to..=from].rotate_right(1);
    }
}
