//! idemlab: a deterministic lab that shows why retries duplicate side effects and how
//! idempotency keys stop them.
//!
//! The pipeline is `Scenario` → [`sim::run`] → [`Trace`] → views ([`metrics`], the timeline).
//! `scenario`, `sim`, `trace` and `dense` live in the `idemlab-core` crate (`core/`) and are
//! re-exported here under the same names. Everything outside `web` (the page, wasm32 only) and
//! the binary is pure: no IO, no clock, no DOM, and one seed drives every random choice.

pub use idemlab_core::{dense, scenario, sim, trace};

pub mod app;
pub mod classify;
pub mod contracts;
pub mod decimal;
pub mod glossary;
pub mod heaviest;
pub mod i18n;
pub mod job;
pub mod keystore;
pub mod lessons;
pub mod metrics;
pub mod ordering;
pub mod page;
pub mod quiz;
pub mod sql;
pub mod steps;
pub mod story;
pub mod sweep;
pub mod view;

#[cfg(target_arch = "wasm32")]
pub mod web;

pub use metrics::Metrics;
pub use scenario::Scenario;
pub use trace::Trace;

/// Unused trace slots `run` leaves in place (about 320 KB of events).
const SPARE_EVENTS_MAX: usize = 4_096;

/// Runs a scenario and folds its metrics: what the CLI's `run` and the page both show.
pub fn run(scenario: &Scenario) -> (Trace, Metrics) {
    let mut trace = sim::run(scenario);
    // The simulator sizes the buffer from an estimate of the workload; a trace that is kept
    // (the page keeps its runs) gives a large unused part back before anything else is built.
    // Small spares stay: the ordering judge and the quiz run thousands of small scenarios,
    // and a reallocation each would cost more than the memory it returns.
    trace.trim(SPARE_EVENTS_MAX);
    let metrics = Metrics::of(&trace);
    (trace, metrics)
}
