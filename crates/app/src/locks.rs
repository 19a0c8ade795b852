//! Locks that hold (`controls=`): a link that lists its open controls keeps every other key as
//! its author set it, whatever the learner does. `update` asks `refused` before any message
//! that can change the scenario, so a control, the Compare box, a lesson, the quiz, a keyboard
//! shortcut and a Shift+click on the timeline all meet the same rule.

use super::{free, Msg, State};
use crate::{ClassifyMsg, ContractsMsg, LessonMsg, QuizMsg, ScenarioMsg};

/// Whether `msg` would change a key the link locked (then `update` does nothing but say so).
pub fn refused(state: &State, msg: &Msg) -> bool {
    refusal(state, msg).is_some()
}

/// What the page says when it refuses `msg`: the lock it met, and what may change instead, so
/// that a locked action never fails silently.
pub fn refusal(state: &State, msg: &Msg) -> Option<String> {
    let open_keys = state.page.controls.as_ref()?;
    let open = |key: &str| state.page.control_open(key);
    let in_lesson = state
        .lesson
        .is_some_and(|at| lesson_open(state, at.lesson.id));
    // Plain words, not the link's keys: learners meet this, not the author.
    let locked = match msg {
        Msg::Scenario(ScenarioMsg::SetKey { name, .. }) if !open(name) => {
            idemlab_lab::tf!("the {} setting", name)
        }
        Msg::Scenario(ScenarioMsg::NewSeed(_)) if !open("seed") => {
            idemlab_lab::t!("the seed").into()
        }
        Msg::Scenario(ScenarioMsg::PickPreset(_)) if !open("preset") => {
            idemlab_lab::t!("the preset").into()
        }
        Msg::Scenario(ScenarioMsg::CompareOn(_)) | Msg::Scenario(ScenarioMsg::CompareKeys(_))
            if compare_locked(state, Some(msg)) =>
        {
            idemlab_lab::t!("the Compare box (B may differ from A only where you can change A)")
                .into()
        }
        Msg::Lesson(LessonMsg::Open(lesson)) if !lesson_open(state, lesson.id) => {
            idemlab_lab::tf!("Lesson {}", lesson.id.to_ascii_uppercase())
        }
        Msg::Lesson(LessonMsg::RunOrder) if !(open("order") || in_lesson) => {
            idemlab_lab::t!("the handler's order of steps").into()
        }
        // A contracts row sets a whole contract's keys, as a preset does.
        Msg::Contracts(ContractsMsg::Load { .. }) if !open("contract") => {
            idemlab_lab::t!("the contract").into()
        }
        // Closing the lesson a locked link opened would show its runs whole, answers and
        // all, before the step's question is answered.
        Msg::Lesson(LessonMsg::Close) if state.link_lesson.is_some() => {
            idemlab_lab::t!("the lesson").into()
        }
        // The task builds its own runs from the controls, which a lock keeps shut.
        Msg::Lesson(LessonMsg::Build) => idemlab_lab::t!("the build task").into(),
        Msg::Lesson(LessonMsg::OpenStep(_))
        | Msg::Classify(ClassifyMsg::Show(_))
        | Msg::Quiz(QuizMsg::Start { .. })
            if !in_lesson =>
        {
            idemlab_lab::t!("the lessons").into()
        }
        _ => return None,
    };
    Some(match open_keys.as_slice() {
        [] => idemlab_lab::tf!(
            "This lab's author set it up so that nothing can be changed here: {} stays as it is.",
            locked
        ),
        keys => idemlab_lab::tf!(
            "This lab's author set it up so that only {} can be changed here: {} stays as it is.",
            keys.join(", "),
            locked
        ),
    })
}

/// With locks, the lessons a learner may open: only the one the link itself opened (its steps
/// and its check), since each step loads a scenario of its own.
pub fn lesson_open(state: &State, lesson: &str) -> bool {
    state.page.controls.is_none() || state.link_lesson == Some(lesson)
}

/// Whether the Compare box is locked (with `msg`, whether that change of it is refused): B may
/// only differ from A in open keys, before and after, so a locked key stays as the link set it
/// in both runs, and an author's compare that sets a locked key cannot be dropped.
pub fn compare_locked(state: &State, msg: Option<&Msg>) -> bool {
    if state.page.controls.is_none() {
        return false;
    }
    let now = state.page.compare.clone();
    let next = match msg {
        Some(Msg::Scenario(ScenarioMsg::CompareKeys(text))) => Some(free::compare_text(text)),
        Some(Msg::Scenario(ScenarioMsg::CompareOn(false))) => None,
        // Ticking it proposes the fix A lacks (`free::proposed_change`).
        _ => Some(
            now.clone()
                .unwrap_or_else(|| free::proposed_change(&state.page.scenario)),
        ),
    };
    !within(state, now.as_deref()) || !within(state, next.as_deref())
}

/// Whether compare keys name open controls only.
fn within(state: &State, compare: Option<&str>) -> bool {
    let pairs = compare.unwrap_or("").split('&').filter(|p| !p.is_empty());
    pairs
        .map(|pair| pair.split_once('=').map_or(pair, |(key, _)| key))
        .all(|key| state.page.control_open(key))
}
