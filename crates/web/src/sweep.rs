//! The sweep panel: runs up to 100,000 seeds of the current scenario in slices of a few
//! milliseconds, so the page stays responsive, then shows the duplicates histogram and the mean
//! effects per order beside the closed form when the scenario fits it.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use std::cell::RefCell;

use super::dom::{self, El};
use super::{dispatch, with_app};
use idemlab_app::job::CountJob;
use idemlab_app::{Msg, SweepJob};
use idemlab_core::scenario::Scenario;
use idemlab_lab::sweep::Sweep;

const SEEDS_MAX: u64 = idemlab_app::SWEEP_SEEDS_MAX;
/// Work per slice before yielding to the browser: well under a 16 ms frame.
const SLICE_MS: f64 = 8.0;

/// The sweep form is in `index.html`; its bound comes from the model's.
pub fn mount() {
    (dom::input("sweep-seeds"))
        .set_attribute("max", &SEEDS_MAX.to_string())
        .ok();
    dom::on_click("sweep-run", start);
    dom::on_click("sweep-stop", stop);
}

fn start() {
    dispatch(Msg::SweepStart(dom::input("sweep-seeds").value()));
    let job = with_app(|app| app.state.sweep.clone());
    if let Some(job) = job {
        dom::input("sweep-seeds").set_value(&job.range.asked.to_string());
    }
}

fn stop() {
    dispatch(Msg::SweepStop);
}

/// Schedules the next slice of the state's sweep (`Effects::sweep_slice`).
pub fn schedule() {
    let started_ms = dom::now_ms();
    dom::later(0, move || slice(started_ms));
}

/// Runs seeds of the state's sweep until the slice's time is up, then yields; a stop (which
/// marks it stopped), a new sweep or a scenario change (which replace or drop it) ends the
/// chain.
fn slice(started_ms: f64) {
    let deadline_ms = dom::now_ms() + SLICE_MS;
    let job = with_app(|app| {
        let job = app.state.sweep.as_mut()?;
        while job.running() && dom::now_ms() < deadline_ms {
            advance(job);
        }
        Some(job.clone())
    });
    let Some(job) = job else {
        return;
    };
    show(&job, started_ms);
    if job.running() {
        dom::later(0, move || {
            slice_if_current(started_ms, job.range.first, job.done)
        });
    }
}

/// Simulator actions (then events folded) between two looks at the clock.
const STEP_ACTIONS: u32 = 8_192;

thread_local! {
    /// The seed in progress between slices: which sweep and seed it is (its scenario, its
    /// first seed and how many were done before it), and its run so far. The scenario too: a
    /// sweep stopped mid-seed, then begun again from the same seed under a changed key, must
    /// not count the old scenario's half-run seed (a review).
    static RUN: RefCell<Option<(Scenario, u64, u64, CountJob)>> = const { RefCell::new(None) };
}

/// Does `STEP_ACTIONS` more of the sweep's next seed, adding its counts once it is done. A
/// run of another sweep, or of a seed already counted, is dropped and the right one started.
fn advance(job: &mut SweepJob) {
    let at = (job.range.first, job.done);
    RUN.with(|cell| {
        let mut run = cell.borrow_mut();
        let current = (run.as_ref()).is_some_and(|(scenario, first, done, _)| {
            (*first, *done) == at && *scenario == job.scenario
        });
        if !current {
            *run = (job.next_scenario())
                .map(|s| (job.scenario.clone(), at.0, at.1, CountJob::new(&s)));
        }
        let Some((.., count)) = run.as_mut() else {
            return;
        };
        if let Some(metrics) = count.step(STEP_ACTIONS) {
            job.add(&metrics);
            *run = None;
        }
    });
}

/// Continues only the chain that left off where the state's sweep stands.
fn slice_if_current(started_ms: f64, first: u64, done: u64) {
    let current = with_app(|app| {
        (app.state.sweep.as_ref()).is_some_and(|j| j.range.first == first && j.done == done)
    });
    if current {
        slice(started_ms);
    }
}

/// Clears the panel once the state holds no sweep: a scenario change drops one, and its
/// totals (another scenario's) must not stand beside the new run. A sweep's own painting is
/// `show`'s, slice by slice.
pub fn render() {
    if with_app(|app| app.state.sweep.is_some()) {
        return;
    }
    dom::set_text(&dom::by_id("sweep-summary"), "");
    (dom::by_id::<Element>("sweep-progress"))
        .set_attribute("value", "0")
        .ok();
    let histogram_box = dom::find(&dom::by_id("panel-sweep"), ".histogram-box");
    dom::set_hidden(&histogram_box, true);
}

fn show(job: &SweepJob, started_ms: f64) {
    let progress: Element = dom::by_id("sweep-progress");
    let done = job.totals.runs as f64 / job.range.count as f64;
    progress
        .set_attribute("value", &idemlab_lab::decimal::Fixed::<3>(done).to_string())
        .ok();
    let elapsed_s = (dom::now_ms() - started_ms).max(0.0) / 1_000.0;
    let text = idemlab_app::sweep_summary(job, elapsed_s);
    dom::set_text(&dom::by_id("sweep-summary"), &text);
    // Hidden until a sweep runs: empty, it stood over the contracts table as if it were its.
    dom::set_hidden(
        &dom::find(&dom::by_id("panel-sweep"), ".histogram-box"),
        false,
    );
    histogram(&job.totals);
}

/// Paints `app::histogram`'s bars.
fn histogram(totals: &Sweep) {
    let root: HtmlElement = dom::by_id("sweep-histogram");
    dom::clear(&root);
    let (bars, label) = idemlab_app::histogram(totals);
    for bar in bars {
        let (duplicates, runs) = (bar.duplicates, bar.runs);
        let title = idemlab_lab::tf!("{} runs with {} duplicates", runs, duplicates);
        let class = if duplicates > 0 { "bar bad" } else { "bar" };
        let text = El::new("span").text(&duplicates.to_string()).el();
        let element = El::new("div")
            .class(class)
            .attr("title", &title)
            .child(&text);
        // Through the CSSOM, not a style attribute, so a strict style-src CSP allows it.
        let height = format!("{}%", idemlab_lab::decimal::Fixed::<1>(bar.height_percent));
        let element = element.el().unchecked_into::<HtmlElement>();
        element.style().set_property("height", &height).ok();
        root.append_child(&element).ok();
    }
    root.set_attribute("aria-label", &label).ok();
}
