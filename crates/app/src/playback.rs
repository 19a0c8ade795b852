//! Playback: the cursor, the speed and the time window. A view change, never a rerun.

use crate::{Effects, State};

/// What moves the cursor or the window over the runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    SetSpeed(u32),
    /// Play or pause.
    Play,
    /// A playback timer fired.
    Tick,
    /// Step the cursor by this many events; pauses.
    Step(i64),
    /// Moves the cursor to an event of the run in focus (clamped; the last event means "the end").
    GoTo(u32),
    /// Moves the cursor to an event of the run in focus and pauses: a row, a mark.
    Select(u32),
    /// The visible time window; `None` fits the whole run.
    Zoom(Option<(u64, u64)>),
}

impl Msg {
    /// Whether it moves the cursor, which waits while a step's prediction is unanswered.
    pub fn moves_cursor(&self) -> bool {
        matches!(
            self,
            Msg::Play | Msg::Tick | Msg::Step(_) | Msg::GoTo(_) | Msg::Select(_)
        )
    }
}

/// The same history entry, rewritten: the view changed, not the scenario.
pub(super) fn update(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::SetSpeed(speed) => {
            if crate::page::SPEEDS.contains(&speed) {
                state.page.speed = speed;
            }
            Effects::view()
        }
        Msg::Play => play(state),
        Msg::Tick => tick(state),
        Msg::Step(delta) => {
            state.playing = false;
            let to = (i64::from(state.cursor()) + delta).max(0);
            go_to(state, u32::try_from(to).unwrap_or(u32::MAX))
        }
        Msg::GoTo(index) => go_to(state, index),
        Msg::Select(index) => {
            state.playing = false;
            state.page.cursor = Some(index.min(state.events_lead().saturating_sub(1)));
            Effects::view()
        }
        Msg::Zoom(window) => {
            state.page.zoom = window;
            Effects::view()
        }
    }
}

/// Playing from the end starts over, as a video player does.
fn play(state: &mut State) -> Effects {
    state.playing = !state.playing;
    if state.playing && state.page.cursor.is_none() {
        state.page.cursor = Some(0);
    }
    Effects {
        tick: state.playing,
        ..Effects::view()
    }
}

fn tick(state: &mut State) -> Effects {
    if !state.playing {
        return Effects::default();
    }
    let next = state.cursor() + 1;
    let last = state.events_lead().saturating_sub(1);
    state.page.cursor = (next < last).then_some(next);
    state.playing = next < last;
    Effects {
        tick: state.playing,
        ..Effects::view()
    }
}

/// The last event means "no cursor": the counts at the end of the run.
fn go_to(state: &mut State, index: u32) -> Effects {
    let last = state.events_lead().saturating_sub(1);
    state.page.cursor = (index < last).then_some(index);
    Effects::view()
}
