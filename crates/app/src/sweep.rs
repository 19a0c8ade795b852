//! The Sweep tab's sweep: one scenario over many seeds, a slice at a time, and its totals.

use crate::model::sweep_range;
use crate::{Effects, SeedRange, State};
use idemlab_core::scenario::Scenario;
use idemlab_course::lessons::Side;
use idemlab_lab::sweep::Sweep;

/// What the Sweep tab's buttons do.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// A sweep over the seed count typed in the form (as typed).
    Start(String),
    /// Stops the sweep and the contracts table, keeping what they counted so far.
    Stop,
}

pub(super) fn update(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::Start(requested) => start(state, &requested),
        Msg::Stop => stop(state),
    }
}

/// A sweep under way (or finished): its seeds and the totals of those run so far.
#[derive(Clone, Debug, PartialEq)]
pub struct SweepJob {
    pub scenario: Scenario,
    /// Which run it sweeps, while comparing (the run in focus when it started).
    pub side: Option<Side>,
    pub range: SeedRange,
    /// Seeds run so far, from `range.first`.
    pub done: u64,
    pub totals: Sweep,
    /// Stop was pressed: the totals so far stay on show, and no more seeds run.
    pub stopped: bool,
    /// The browser's clock when its first slice began and its last one ended, in ms: the
    /// summary's seconds.
    pub clock_ms: Option<(f64, f64)>,
}

impl SweepJob {
    /// Seconds between the first slice's start and the last one's end.
    pub fn elapsed_s(&self) -> f64 {
        self.clock_ms.map_or(0.0, |(first_ms, last_ms)| {
            (last_ms - first_ms).max(0.0) / 1_000.0
        })
    }
}

impl SweepJob {
    pub fn finished(&self) -> bool {
        self.done >= self.range.count
    }

    /// Whether seeds remain to run: neither finished nor stopped.
    pub fn running(&self) -> bool {
        !self.stopped && !self.finished()
    }

    /// Runs the next seed in one go, unless stopped. The range never passes the largest seed
    /// (`sweep_range`).
    pub fn run_one(&mut self) {
        if self.stopped {
            return;
        }
        if let Some(scenario) = self.next_scenario() {
            self.add(&idemlab_lab::Metrics::of(&idemlab_core::sim::run(
                &scenario,
            )));
        }
    }

    /// The next seed's scenario, none once every seed has run. The page runs it in slices
    /// (`job::CountJob`): one seed of a heavy scenario can take longer than a frame.
    pub fn next_scenario(&self) -> Option<Scenario> {
        if self.finished() {
            return None;
        }
        let mut scenario = self.scenario.clone();
        scenario.seed = self.range.first + self.done;
        Some(scenario)
    }

    /// Adds the next seed's counts.
    pub fn add(&mut self, metrics: &idemlab_lab::Metrics) {
        self.totals.add(metrics);
        self.done += 1;
    }
}

/// What `work::Done::Swept` adds to the sweep that started at `first` and had run `done_before`
/// seeds: `seeds` more, with their totals.
#[derive(Clone, Debug, PartialEq)]
pub struct Swept {
    pub first: u64,
    pub done_before: u64,
    pub seeds: u64,
    pub totals: Sweep,
    /// The browser's clock at the slice's start and end, in ms.
    pub clock_ms: (f64, f64),
}

/// Adds a slice's seeds to the sweep they were run for; a sweep since replaced or stopped
/// (a slice never straddles a click, so this is a guard) keeps its own totals.
pub(super) fn add(state: &mut State, swept: &Swept) {
    let Some(job) = state.sweep.as_mut() else {
        return;
    };
    if job.range.first != swept.first || job.done != swept.done_before || !job.running() {
        return;
    }
    job.totals.merge(&swept.totals);
    job.done += swept.seeds;
    let (start_ms, end_ms) = swept.clock_ms;
    let first_ms = job.clock_ms.map_or(start_ms, |(first_ms, _)| first_ms);
    job.clock_ms = Some((first_ms, end_ms));
}

/// Stopped, not dropped: the sweep's totals so far stay, as the table's rows do. Only a new
/// sweep or a scenario change (whose totals they no longer are) drops them. One Stop for both
/// jobs of the Sweep tab: a stopped table keeps its rows so far.
fn stop(state: &mut State) -> Effects {
    if let Some(job) = &mut state.sweep {
        job.stopped = true;
    }
    if let Some(table) = &mut state.contracts {
        table.stopped = true;
    }
    Effects::paint()
}

fn start(state: &mut State, requested: &str) -> Effects {
    let range = sweep_range(state.page.scenario.seed, requested);
    state.sweep = Some(SweepJob {
        // The run in focus: comparing, the learner sweeps the configuration they look at.
        scenario: state.lead_scenario(),
        side: state.page.compare.as_ref().map(|_| state.focus()),
        range,
        done: 0,
        totals: Sweep::default(),
        stopped: false,
        clock_ms: None,
    });
    Effects {
        work: true,
        ..Effects::default()
    }
}
