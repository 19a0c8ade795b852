//! An instructor's own steps (`steps=`, `crate::steps`): which one is open, opening another,
//! and what its box says. The caption is the instructor's text, shown as text under a heading
//! that says whose it is, above the runs; the banner (the lab's own warnings) stays above it.

use super::{Effects, State};
use crate::lessons::Side;

/// What the instructor's step box shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnStepView {
    pub heading: String,
    pub caption: String,
    /// The counts the step states, one line each ("Run B: Duplicates 0").
    pub checks: Vec<String>,
    pub previous: bool,
    pub next: bool,
}

pub fn own_step_view(state: &State) -> Option<OwnStepView> {
    let (steps, index) = (state.page.steps.as_ref()?, state.own_step?);
    let step = steps.get(index)?;
    let checks = step.checks.iter().map(|c| {
        let label = super::counter_label(&c.metric, &step.scenario);
        let side = if c.side == Side::B { "B" } else { "A" };
        format!("Run {side}: {label} {}", c.count)
    });
    Some(OwnStepView {
        heading: format!("Your instructor's step {} of {}", index + 1, steps.len()),
        caption: step.caption.clone(),
        checks: checks.collect(),
        previous: index > 0,
        next: index + 1 < steps.len(),
    })
}

/// Opens step `index` of the instructor's sequence: its scenario and compare.
pub fn open(state: &mut State, index: usize) -> Effects {
    let Some(step) = state
        .page
        .steps
        .as_ref()
        .and_then(|s| s.get(index))
        .cloned()
    else {
        return Effects::default();
    };
    state.page.scenario = step.scenario;
    state.page.compare = step.compare;
    state.own_step = Some(index);
    state.errors.clear();
    state.scenario_changed();
    Effects::scenario()
}
