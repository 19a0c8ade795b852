//! The resumable run: a run computed in slices of any size ends with the trace that
//! `run` gives in one go, and a run that reaches its event cap takes no action after it. The
//! page's whole job (`job::RunJob`: simulate, lay out, index) in slices ends with the same
//! trace, counts, timeline and index as each part done in one go, and the JSON export written
//! in parts is the JSON written in one go.

#[path = "../../lab/tests/common/mod.rs"]
mod common;

use common::{overlay, scenario, seeds};
use idemlab_app::job::{Phase, RunJob};
use idemlab_core::scenario::presets::PRESETS;
use idemlab_core::scenario::Scenario;
use idemlab_core::sim::{self, Progress, Stepper};
use idemlab_lab::metrics::MetricsIndex;
use idemlab_lab::view::layout;
use idemlab_lab::Metrics;

/// Slice sizes from one action at a time to more than most runs need.
const SLICES: [u32; 6] = [1, 2, 3, 7, 64, 5_000];

/// Faults and queue keys over the presets, so that crashes, replacements, reruns, locks and
/// redeliveries all fall across slice boundaries somewhere.
const EXTRA: [&str; 5] = [
    "clients=4&orders=30&dedup=atomic&key=constant&replace_db_ms=80&crash=api@after-claim",
    "clients=3&orders=20&loss_resp=0.3&consumer=inbox&ack_loss=0.4&visibility_ms=30",
    "clients=2&orders=12&dedup=naive&rerun_ms=100&store=pod&replace_db_ms=60",
    "orders=40&clients=16&timeout_ms=1&backoff_ms=0&retries=20&events_max=3000",
    "dedup=atomic&key=constant&provider_ms=600..600&timeout_ms=1&backoff_ms=0&latency_ms=0..0&clients=16&orders=400&retries=20&replace_db_ms=70&events_max=20000",
];

/// Steps `scenario` in slices of `slice` actions and returns the finished trace's digest.
fn stepped_digest(scenario: &Scenario, slice: u32) -> String {
    let mut stepper = Stepper::new(scenario);
    let mut last = stepper.progress();
    let mut slices = 0u64;
    while !last.done {
        let next = stepper.step(slice);
        assert!(
            next.actions > last.actions,
            "a step takes at least one action"
        );
        assert!(
            next.actions - last.actions <= u64::from(slice),
            "a step stays in its slice"
        );
        assert!(next.events >= last.events && next.time_us >= last.time_us);
        last = next;
        slices += 1;
        assert!(slices <= 10_000_000, "the run ends");
    }
    assert_eq!(stepper.step(slice), last, "an ended run stays ended");
    stepper.finish().digest()
}

fn queries() -> Vec<String> {
    let mut out: Vec<String> = PRESETS
        .iter()
        .map(|p| format!("preset={}", p.name))
        .collect();
    out.extend(EXTRA.iter().map(|q| q.to_string()));
    out
}

#[test]
fn a_run_in_slices_equals_the_run_in_one_go() {
    for query in queries() {
        for seed in 0..seeds(12) {
            let s = scenario(&overlay(&[&query, &format!("seed={seed}")]));
            let whole = sim::run(&s).digest();
            for slice in SLICES {
                assert_eq!(
                    stepped_digest(&s, slice),
                    whole,
                    "{query}&seed={seed} in slices of {slice}"
                );
            }
        }
    }
}

#[test]
fn finish_after_some_slices_equals_the_run() {
    for query in queries() {
        let s = scenario(&overlay(&[&query, "seed=5"]));
        let mut stepper = Stepper::new(&s);
        stepper.step(10);
        assert_eq!(stepper.finish().digest(), sim::run(&s).digest(), "{query}");
    }
}

#[test]
fn a_run_that_reaches_its_cap_stops_there() {
    // Work after the cap would be work no one sees: the run ends with the action that reaches
    // it, and the cap event is the trace's last.
    let s = scenario("orders=200&clients=16&timeout_ms=1&backoff_ms=0&retries=20&events_max=500");
    let mut stepper = Stepper::new(&s);
    let mut progress: Progress = stepper.progress();
    while !progress.done {
        progress = stepper.step(1);
    }
    assert_eq!(progress.events, 500);
    let actions = progress.actions;
    assert_eq!(
        stepper.step(1_000).actions,
        actions,
        "no action after the cap"
    );
    let trace = stepper.finish();
    assert!(trace.truncated);
    assert_eq!(
        trace.events.last().map(|e| e.kind),
        Some(idemlab_core::trace::EventKind::CapReached)
    );
}

/// Runs the page's job in slices of `slice` units, checking that the phases only move forward.
fn job_in_slices(scenario: &Scenario, slice: u32) -> idemlab_app::job::Built {
    let mut job = RunJob::new(scenario);
    let mut last = job.progress();
    let mut slices = 0u64;
    while last.phase != Phase::Done {
        let next = job.step(slice);
        assert!(next.phase >= last.phase, "phases only move forward");
        last = next;
        slices += 1;
        assert!(slices <= 50_000_000, "the job ends");
    }
    job.finish()
}

#[test]
fn the_page_job_in_slices_equals_each_part_in_one_go() {
    for query in queries() {
        for seed in 0..seeds(4) {
            let s = scenario(&overlay(&[&query, &format!("seed={seed}")]));
            let (trace, metrics) = idemlab_lab::run(&s);
            let timeline = layout(&trace);
            let index = MetricsIndex::new(&trace);
            for slice in [1, 5, 333, u32::MAX] {
                let built = job_in_slices(&s, slice);
                let at = format!("{query}&seed={seed} in slices of {slice}");
                assert_eq!(built.trace.digest(), trace.digest(), "{at}");
                assert_eq!(built.metrics, metrics, "{at}");
                assert_eq!(built.timeline.marks(), timeline.marks(), "{at}");
                assert_eq!(built.timeline.lanes(), timeline.lanes(), "{at}");
                assert_eq!(built.timeline.races(), timeline.races(), "{at}");
                for mark in timeline.marks() {
                    assert_eq!(built.timeline.events_of(mark), timeline.events_of(mark));
                }
                let len = trace.events.len();
                for count in [0, 1, len / 3, len / 2, len.saturating_sub(1), len] {
                    assert_eq!(
                        built.index.at(&built.trace, count),
                        index.at(&trace, count),
                        "{at}, counts after {count} events"
                    );
                    assert_eq!(
                        built.index.at(&built.trace, count),
                        Metrics::of_prefix(&trace, count),
                        "{at}, counts after {count} events"
                    );
                }
            }
        }
    }
}

#[test]
fn a_dropped_job_leaves_nothing_behind_and_a_new_one_starts_afresh() {
    // Cancel is a drop: the next job of the same scenario ends as if the first never ran.
    let s = scenario(EXTRA[4]);
    let mut job = RunJob::new(&s);
    for _ in 0..50 {
        job.step(100);
    }
    drop(job);
    assert_eq!(
        RunJob::run(&s).trace.digest(),
        idemlab_lab::run(&s).0.digest()
    );
}

/// Joins a trace's JSON parts of at most `events_max` events each.
fn json_in_parts(trace: &idemlab_core::trace::Trace, events_max: usize) -> String {
    let mut parts = trace.json_parts();
    let mut out = String::new();
    while let Some(part) = parts.next_part(events_max) {
        out.push_str(&part);
    }
    assert_eq!(parts.progress(), (trace.events.len(), trace.events.len()));
    out
}

#[test]
fn the_json_written_in_parts_is_the_json_written_in_one_go() {
    let empty = idemlab_core::trace::Trace::new(&Scenario::default());
    assert_eq!(
        json_in_parts(&empty, 3),
        empty.json(),
        "a trace with no events"
    );
    for query in queries() {
        for seed in 0..seeds(3) {
            let s = scenario(&overlay(&[&query, &format!("seed={seed}")]));
            let trace = sim::run(&s);
            let whole = trace.json();
            for events_max in [1, 7, 4_096] {
                assert!(
                    json_in_parts(&trace, events_max) == whole,
                    "{query}&seed={seed} in parts of {events_max} events"
                );
            }
        }
    }
}

/// The page reruns into the last run's event block (`Trace::into_buffer`): a run recorded into
/// a used buffer, bigger or smaller than it needs, is the run recorded into a fresh one.
#[test]
fn a_run_into_a_reused_buffer_equals_a_fresh_run() {
    let queries = queries();
    let mut buffer = Vec::new();
    for query in queries.iter().chain(queries.iter().rev()) {
        let scenario = scenario(query);
        let fresh = sim::run(&scenario);
        let mut stepper = Stepper::reusing(&scenario, std::mem::take(&mut buffer));
        while !stepper.step(333).done {}
        let reused = stepper.finish();
        assert_eq!(reused.digest(), fresh.digest(), "{query}");
        assert_eq!(reused.events, fresh.events, "{query}");
        buffer = reused.into_buffer().expect("nothing else holds the trace");
        assert!(buffer.is_empty());
    }
    // A trace whose events a view still shares gives no buffer.
    let trace = sim::run(&scenario("seed=1"));
    let timeline = layout(&trace);
    assert!(trace.into_buffer().is_none());
    drop(timeline);
}

/// A job abandoned in any phase gives its event buffer back, emptied, for the next run.
#[test]
fn a_job_abandoned_in_any_phase_gives_its_buffer_back() {
    let scenario = scenario("seed=3&preset=race&orders=40");
    let mut phases = Vec::new();
    for steps in 0..10_000 {
        let mut job = RunJob::new(&scenario);
        let mut phase = job.progress().phase;
        for _ in 0..steps {
            phase = job.step(50).phase;
        }
        let buffer = job
            .into_buffer()
            .expect("the job is the trace's only holder");
        assert!(buffer.is_empty(), "after {steps} steps");
        if phases.last() != Some(&phase) {
            phases.push(phase);
        }
        if phase == Phase::Done {
            break;
        }
    }
    assert_eq!(
        phases,
        [
            Phase::Simulating,
            Phase::LayingOut,
            Phase::Indexing,
            Phase::Done
        ]
    );
}

#[test]
fn a_count_job_in_slices_gives_the_runs_counts() {
    // The page's sweep and contracts table count a long run in slices (`job::CountJob`): any
    // slice size must end with the counts of the run in one go.
    for query in queries() {
        for seed in 0..seeds(4) {
            let s = scenario(&overlay(&[&query, &format!("seed={seed}")]));
            let whole = Metrics::of(&sim::run(&s));
            for slice in SLICES {
                let mut job = idemlab_app::job::CountJob::new(&s);
                let mut slices = 0u64;
                let counts = loop {
                    slices += 1;
                    if let Some(counts) = job.step(slice) {
                        break counts;
                    }
                };
                assert_eq!(counts, whole, "{query}&seed={seed} in slices of {slice}");
                assert!(
                    slices > 1 || slice > 1,
                    "one slice of 1 cannot finish a run"
                );
            }
        }
    }
}
