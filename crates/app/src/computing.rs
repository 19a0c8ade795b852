//! A run being computed in slices, so a heavy one does not freeze the page: what the page says
//! while it works, and Cancel.
//!
//! The runs themselves (`job::RunJob`, megabytes of trace) live beside the state in the web
//! layer, as finished runs do; the state holds the facts the page shows about them: which run
//! is computing, how far it has got, and the scenario Cancel goes back to.

use super::{Effects, State, UrlWrite};
use crate::job::{JobProgress, Phase};
use idemlab_core::scenario::Scenario;
use idemlab_lab::Side;

/// The run being computed and how far it has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Computing {
    pub side: Side,
    pub progress: JobProgress,
    /// The run's event cap, which bounds what simulating can reach.
    pub events_max: u32,
}

impl Computing {
    /// The progress line: which run, what it is doing, and how many events so far.
    pub fn text(&self) -> String {
        let JobProgress { phase, events } = self.progress;
        let run = run_name(self.side);
        match phase {
            Phase::Simulating => idemlab_lab::tf!(
                "Computing run {}: simulating, {} events so far (at most {}).",
                run,
                grouped(events),
                grouped(self.events_max)
            ),
            _ => idemlab_lab::tf!(
                "Computing run {}: {} of {} events.",
                run,
                phase.text(),
                grouped(events)
            ),
        }
    }
}

fn run_name(side: Side) -> &'static str {
    match side {
        Side::A => "A",
        Side::B => "B",
    }
}

/// A count with thousands separators, as the counters write them.
pub(crate) fn grouped(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

/// A slice of run `side` ended at `progress`: the progress line changes, nothing else.
pub fn progress(state: &mut State, side: Side, progress: JobProgress) -> Effects {
    let (a, b) = state.page.runs();
    let events_max = match side {
        Side::A => a.events_max,
        Side::B => b.map_or(0, |s| s.events_max),
    };
    state.computing = Some(Computing {
        side,
        progress,
        events_max,
    });
    Effects {
        paint_progress: true,
        ..Effects::default()
    }
}

/// Both runs are built: nothing computes, and Cancel would now come back to this page state.
pub fn ran(state: &mut State) {
    state.computing = None;
    state.last_ran = Some(Box::new(state.page.clone()));
}

/// Cancel: stop computing and go back to the scenario (and compare keys) of the last run that
/// finished, or, on a link whose run never finished, the default scenario. The banner says
/// what was stopped; Back returns to the cancelled scenario, as to any other.
pub fn cancel(state: &mut State) -> Effects {
    let Some(computing) = state.computing.take() else {
        return Effects::default();
    };
    let (run, doing, events) = (
        run_name(computing.side),
        computing.progress.phase.text(),
        grouped(computing.progress.events),
    );
    let (scenario, compare, line) = match state.last_ran.as_deref() {
        Some(last) => (
            last.scenario.clone(),
            last.compare.clone(),
            idemlab_lab::tf!("Run {} was cancelled while {} after {} events. The page shows the last scenario that finished; Back returns to the cancelled one.", run, doing, events),
        ),
        None => (
            Scenario::default(),
            None,
            idemlab_lab::tf!("Run {} was cancelled while {} after {} events. The page shows the default scenario; Back returns to the cancelled one.", run, doing, events),
        ),
    };
    state.set_scenario(scenario);
    state.page.compare = compare;
    state.cancelled = Some(line);
    Effects {
        url: Some(UrlWrite::Push),
        ..Effects::scenario()
    }
}
