//! Play and pause, step, scrub and speed as the page paints them: the scrubber over the run in
//! focus, the Play button's words, and the controls a waiting prediction holds.

use crate::page::SPEEDS;
use crate::work::Runs;
use crate::{status_line, State};

/// The speed menu, built once: each speed's `value` and its words.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaybackShell {
    pub speeds: Vec<(u32, String)>,
}

pub fn shell() -> PlaybackShell {
    PlaybackShell {
        speeds: (SPEEDS.iter())
            .map(|&s| (s, idemlab_lab::tf!("{}/s", s)))
            .collect(),
    }
}

/// What a paint sets on the playback bar.
#[derive(Clone, Debug, PartialEq)]
pub struct PlaybackFrame {
    /// The scrubber's `max` (the run in focus's last event) and `value` (the cursor).
    pub scrub_max: usize,
    pub scrub_value: usize,
    /// Where the cursor is, in words: the status line and the scrubber's `aria-valuetext`.
    pub status: String,
    pub play_text: &'static str,
    pub play_label: &'static str,
    /// The speed menu's value.
    pub speed: u32,
    /// A lesson step's run waits at its first event for the prediction (`State::awaiting`):
    /// every playback control is disabled.
    pub held: bool,
}

pub fn view(state: &State, runs: &Runs) -> PlaybackFrame {
    let lead = &runs.lead(state).trace;
    let (play_text, play_label) = match state.playing {
        true => (
            idemlab_lab::t!("❚❚ Pause"),
            idemlab_lab::t!("Pause (space)"),
        ),
        false => (idemlab_lab::t!("▶ Play"), idemlab_lab::t!("Play (space)")),
    };
    PlaybackFrame {
        scrub_max: lead.events.len().saturating_sub(1),
        scrub_value: state.cursor() as usize,
        status: status_line(state, lead),
        play_text,
        play_label,
        speed: state.page.speed,
        held: state.awaiting(),
    }
}

/// How long playback waits between two events at the page's speed.
pub fn tick_ms(state: &State) -> u32 {
    1_000 / state.page.speed.max(1)
}
