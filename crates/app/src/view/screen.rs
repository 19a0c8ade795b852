//! The one-screen arrangement as the page paints it (`page_layout`): the lesson's column in
//! place of the controls, the controls' drawer and its button, the phone's dock button, the A/B
//! focus buttons, free play's hint, the instructor's own step, and which lesson is current.

use idemlab_lab::Side;

use crate::{own_step_view, page_layout, start_hint, OwnQuestionView, State};

/// What a paint sets on the page's arrangement.
#[derive(Clone, Debug, PartialEq)]
pub struct ScreenFrame {
    /// The classes of `#app` this paint sets or clears: `lesson`, `run-own`, `dock`, `no-side`,
    /// `building` (the finale's task is open: its drawer opens on the right, clear of the
    /// checklist) and `build-waiting` (the task lacks a part: no timeline to show).
    pub classes: [(&'static str, bool); 6],
    /// The Lessons tab's panel sits in the lesson's column (shown), else in the tabs.
    pub lesson_column: bool,
    pub controls_shown: bool,
    /// The lesson's "☰ Controls" button, and whether its drawer is open (`aria-expanded`).
    pub drawer_toggle: bool,
    pub drawer_open: bool,
    pub close_lesson: bool,
    pub start_hint: bool,
    /// Each run's dock button.
    pub dock_toggle: DockToggle,
    /// The A/B focus buttons, while comparing; which one is pressed.
    pub focus_toggle: bool,
    pub focus: Side,
    /// The lesson whose picker button is `aria-current`: the open step's or check's.
    pub current_lesson: Option<&'static str>,
    /// The instructor's own step, when one is open.
    pub own_step: Option<OwnStepFrame>,
}

/// The dock button: there when the timeline may dock, its words saying what a press does.
#[derive(Clone, Debug, PartialEq)]
pub struct DockToggle {
    pub shown: bool,
    pub text: &'static str,
    pub label: &'static str,
}

/// The instructor's own step box (`own_step_view`).
#[derive(Clone, Debug, PartialEq)]
pub struct OwnStepFrame {
    pub heading: String,
    pub caption: String,
    pub checks: Vec<String>,
    /// One line serves both: why the runs are not the step's own, or the last step's tally.
    pub note: Option<String>,
    /// "Show this step's runs": when they are not on screen.
    pub reopen: bool,
    pub previous: bool,
    pub next: bool,
    pub question: Option<OwnQuestionFrame>,
}

/// The own step's question: its choices until answered, then the feedback in their place.
#[derive(Clone, Debug, PartialEq)]
pub struct OwnQuestionFrame {
    pub text: String,
    pub choices: Vec<String>,
    pub choices_hidden: bool,
    /// Empty until answered.
    pub feedback: String,
}

pub fn view(state: &State) -> ScreenFrame {
    let layout = page_layout(state);
    let quiz = state.quiz.as_ref().map(|q| q.quiz.lesson);
    ScreenFrame {
        classes: [
            ("lesson", layout.lesson_column),
            ("run-own", !layout.claims),
            ("dock", layout.dock),
            ("no-side", !layout.side),
            ("building", state.build.is_some()),
            ("build-waiting", crate::build::waiting(state)),
        ],
        lesson_column: layout.lesson_column,
        controls_shown: layout.controls_shown,
        drawer_toggle: layout.drawer_toggle,
        drawer_open: state.drawer_open,
        close_lesson: layout.close_lesson,
        start_hint: start_hint(state),
        dock_toggle: dock_toggle(layout.dock_toggle),
        focus_toggle: layout.focus_toggle,
        focus: state.focus(),
        current_lesson: state.lesson.map(|at| at.lesson.id).or(quiz),
        own_step: own_step_view(state).map(|view| OwnStepFrame {
            note: view.not_own.clone().or(view.done),
            reopen: view.not_own.is_some(),
            heading: view.heading,
            caption: view.caption,
            checks: view.checks,
            previous: view.previous,
            next: view.next,
            question: view.question.map(question),
        }),
    }
}

fn dock_toggle(toggle: Option<bool>) -> DockToggle {
    let shown = toggle.is_some();
    match toggle == Some(true) {
        true => DockToggle {
            shown,
            text: idemlab_lab::t!("Undock"),
            label: idemlab_lab::t!("Undock the timeline: put it back in the page"),
        },
        false => DockToggle {
            shown,
            text: idemlab_lab::t!("Dock"),
            label: idemlab_lab::t!("Dock the timeline at the screen's foot"),
        },
    }
}

fn question(view: OwnQuestionView) -> OwnQuestionFrame {
    OwnQuestionFrame {
        text: view.text,
        choices: view.choices,
        choices_hidden: view.chosen.is_some(),
        feedback: view.feedback.unwrap_or_default(),
    }
}
