//! A run as the page builds it, a slice at a time: simulate, lay out, index.
//!
//! The page promises that no link holds its main thread for more than 200 ms, and a run the
//! codec accepts can take a second of wasm time (`heaviest::WORST_QUERY`). So the page never
//! builds a run in one call: it asks `RunJob::step` for a few thousand units of work at a time
//! and yields to the browser between slices, showing the progress and offering Cancel.
//! Dropping a job cancels it. Work is counted in actions and events, not time: the core
//! has no clock, and the caller sizes its slices.
//!
//! `RunJob::run` is the same job in one go, and `tests/stepper.rs` proves that every slice size
//! ends with the trace, metrics, timeline and index the one-go path gives.

use idemlab_core::sim::Stepper;
use idemlab_core::trace::Event;
use idemlab_core::{scenario::Scenario, trace::Trace};
use idemlab_lab::metrics::{IndexJob, MetricsIndex};
use idemlab_lab::view::{LayoutJob, Timeline};
use idemlab_lab::{Metrics, SPARE_EVENTS_MAX};

/// A run and everything the page derives from it.
pub struct Built {
    pub trace: Trace,
    pub metrics: Metrics,
    pub timeline: Timeline,
    /// Counts at any cursor without refolding the trace on every frame of a scrub.
    pub index: MetricsIndex,
}

/// Which part of the work a job is in, in the order they come.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    Simulating,
    LayingOut,
    Indexing,
    Done,
}

impl Phase {
    /// What the page's progress line says the job is doing.
    pub fn text(self) -> &'static str {
        match self {
            Phase::Simulating => idemlab_lab::t!("simulating"),
            Phase::LayingOut => idemlab_lab::t!("drawing the timeline"),
            Phase::Indexing => idemlab_lab::t!("indexing the counts"),
            Phase::Done => idemlab_lab::t!("done"),
        }
    }
}

/// How far a job has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct JobProgress {
    pub phase: Phase,
    /// Events simulated so far (all of them once simulating is over).
    pub events: u32,
}

pub struct RunJob {
    stage: Stage,
}

enum Stage {
    Simulate(Box<Stepper>),
    Layout(Trace, Box<LayoutJob>),
    Index(Trace, Box<Timeline>, Box<IndexJob>),
    Done(Box<Built>),
    /// Only for the instant `step` takes the stage apart; every arm puts a stage back.
    Moving,
}

impl RunJob {
    pub fn new(scenario: &Scenario) -> RunJob {
        RunJob::reusing(scenario, Vec::new())
    }

    /// A job whose run records into `buffer`, a finished trace's (`Trace::into_buffer`).
    pub fn reusing(scenario: &Scenario, buffer: Vec<Event>) -> RunJob {
        RunJob {
            stage: Stage::Simulate(Box::new(Stepper::reusing(scenario, buffer))),
        }
    }

    /// A whole run in one call: what the CLI's views and the tests use.
    pub fn run(scenario: &Scenario) -> Built {
        let mut job = RunJob::new(scenario);
        while job.step(u32::MAX).phase != Phase::Done {}
        job.finish()
    }

    /// Does about `work` units (simulator actions, then events laid out, then events folded)
    /// and says where the job stands. A slice never mixes phases, so a phase's last slice may
    /// be short.
    pub fn step(&mut self, work: u32) -> JobProgress {
        let stage = std::mem::replace(&mut self.stage, Stage::Moving);
        self.stage = match stage {
            Stage::Simulate(mut stepper) => {
                if stepper.step(work).done {
                    let mut trace = stepper.finish();
                    // As `idemlab_lab::run` does: a kept trace gives a large unused part back
                    // before anything else is built.
                    trace.trim(SPARE_EVENTS_MAX);
                    let layout = LayoutJob::new(&trace);
                    Stage::Layout(trace, Box::new(layout))
                } else {
                    Stage::Simulate(stepper)
                }
            }
            Stage::Layout(trace, mut job) => {
                if job.step(&trace, work as usize) {
                    let timeline = job.finish(&trace);
                    let index = IndexJob::new(&trace);
                    Stage::Index(trace, Box::new(timeline), Box::new(index))
                } else {
                    Stage::Layout(trace, job)
                }
            }
            Stage::Index(trace, timeline, mut job) => {
                if job.step(&trace, work as usize) {
                    let index = job.finish();
                    let count = trace.events.len();
                    Stage::Done(Box::new(Built {
                        metrics: index.at(&trace, count),
                        trace,
                        timeline: *timeline,
                        index,
                    }))
                } else {
                    Stage::Index(trace, timeline, job)
                }
            }
            done @ Stage::Done(_) => done,
            Stage::Moving => unreachable!("a stage is always put back"),
        };
        self.progress()
    }

    /// The job's event buffer, emptied, at whatever stage it stands: a run cancelled half way
    /// gives its block to the next one too (`Trace::into_buffer`).
    pub fn into_buffer(self) -> Option<Vec<Event>> {
        match self.stage {
            Stage::Simulate(stepper) => stepper.into_buffer(),
            Stage::Layout(trace, job) => {
                drop(job);
                trace.into_buffer()
            }
            Stage::Index(trace, timeline, job) => {
                drop((timeline, job));
                trace.into_buffer()
            }
            Stage::Done(built) => {
                let Built {
                    trace, timeline, ..
                } = *built;
                drop(timeline);
                trace.into_buffer()
            }
            Stage::Moving => None,
        }
    }

    pub fn progress(&self) -> JobProgress {
        let (phase, events) = match &self.stage {
            Stage::Simulate(stepper) => (Phase::Simulating, stepper.progress().events),
            Stage::Layout(trace, _) => (Phase::LayingOut, len(trace)),
            Stage::Index(trace, ..) => (Phase::Indexing, len(trace)),
            Stage::Done(built) => (Phase::Done, len(&built.trace)),
            Stage::Moving => unreachable!("a stage is always put back"),
        };
        JobProgress { phase, events }
    }

    /// The built run, doing whatever work is left first.
    pub fn finish(mut self) -> Built {
        while self.progress().phase != Phase::Done {
            self.step(u32::MAX);
        }
        match self.stage {
            Stage::Done(built) => *built,
            _ => unreachable!("the loop above ends in Done"),
        }
    }
}

fn len(trace: &Trace) -> u32 {
    u32::try_from(trace.events.len()).expect("events are bounded by events_max")
}

/// One run to its counts alone, a bounded piece of work at a time: the runs of the page's sweep
/// and contracts table, which need no timeline. One seed of a heavy scenario can take longer
/// than a slice (a million events), so a run is simulated and then folded in steps too.
pub struct CountJob {
    stage: Count,
}

enum Count {
    Simulate(Box<Stepper>),
    Fold(Box<(Trace, IndexJob)>),
    /// Only for the instant `step` takes the stage apart.
    Moving,
}

impl CountJob {
    pub fn new(scenario: &Scenario) -> CountJob {
        CountJob {
            stage: Count::Simulate(Box::new(Stepper::new(scenario))),
        }
    }

    /// Does about `work` units (simulator actions, then events folded); the run's counts once
    /// it is done, as `Metrics::of` gives them.
    pub fn step(&mut self, work: u32) -> Option<Metrics> {
        let stage = std::mem::replace(&mut self.stage, Count::Moving);
        let (stage, metrics) = match stage {
            Count::Simulate(mut stepper) => match stepper.step(work).done {
                true => {
                    let trace = stepper.finish();
                    let index = IndexJob::new(&trace);
                    (Count::Fold(Box::new((trace, index))), None)
                }
                false => (Count::Simulate(stepper), None),
            },
            Count::Fold(mut fold) => {
                let (trace, index) = &mut *fold;
                match index.step(trace, work as usize) {
                    true => {
                        let (trace, index) = *fold;
                        let metrics = index.finish().at(&trace, trace.events.len());
                        (Count::Moving, Some(metrics))
                    }
                    false => (Count::Fold(fold), None),
                }
            }
            Count::Moving => (Count::Moving, None),
        };
        self.stage = stage;
        metrics
    }
}
