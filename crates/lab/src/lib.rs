//! Folds and drawings of one trace: the counts, the story, the SQL listing, the key table, the
//! sweep over seeds, the contracts table, the heaviest run, and the timeline (`view`).
//!
//! Everything here is a pure function of a `Scenario` or a `Trace` from `idemlab-core`: no IO,
//! no clock, no DOM. The page's words pass through `i18n`, which lives here because the
//! drawings and tables are the first code that speaks to a learner.

pub mod contracts;
pub mod decimal;
pub mod heaviest;
pub mod i18n;
pub mod keystore;
pub mod metrics;
pub mod sql;
pub mod story;
pub mod sweep;
pub mod view;

pub use metrics::{Metric, Metrics};

use idemlab_core::{scenario::Scenario, trace::Trace};

/// Which of the two runs the page compares: the scenario (A) or configuration B.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub const ALL: [Side; 2] = [Side::A, Side::B];

    /// The letter the page shows: `A`, `B`.
    pub fn letter(self) -> &'static str {
        match self {
            Side::A => "A",
            Side::B => "B",
        }
    }

    /// The name in links, element ids and attributes: `a`, `b` (`focus=b`, `timeline-b`).
    pub fn name(self) -> &'static str {
        match self {
            Side::A => "a",
            Side::B => "b",
        }
    }

    pub fn from_name(name: &str) -> Option<Side> {
        Side::ALL.into_iter().find(|side| side.name() == name)
    }

    /// The prefix a count of this run takes in `check=` and `ask=` (`b.duplicates`).
    pub fn prefix(self) -> &'static str {
        match self {
            Side::A => "",
            Side::B => "b.",
        }
    }
}

/// Unused trace slots `run` leaves in place (about 320 KB of events).
pub const SPARE_EVENTS_MAX: usize = 4_096;

/// Runs a scenario and folds its metrics: what the CLI's `run` and the page both show.
pub fn run(scenario: &Scenario) -> (Trace, Metrics) {
    let mut trace = idemlab_core::sim::run(scenario);
    // The simulator sizes the buffer from an estimate of the workload; a trace that is kept
    // (the page keeps its runs) gives a large unused part back before anything else is built.
    // Small spares stay: the ordering judge and the quiz run thousands of small scenarios,
    // and a reallocation each would cost more than the memory it returns.
    trace.trim(SPARE_EVENTS_MAX);
    let metrics = Metrics::of(&trace);
    (trace, metrics)
}
