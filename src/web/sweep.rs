//! The sweep panel: runs up to 100,000 seeds of the current scenario in slices of a few
//! milliseconds, so the page stays responsive, then shows the duplicates histogram and the mean
//! effects per order beside the closed form when the scenario fits it.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::dom::{self, El};
use super::{dispatch, with_app};
use crate::app::{Msg, SweepJob};
use crate::sweep::{closed_form, Sweep};

const SEEDS_MAX: u64 = crate::app::SWEEP_SEEDS_MAX;
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

/// Runs seeds of the state's sweep until the slice's time is up, then yields; a stop, a new
/// sweep or a scenario change (each replaces `state.sweep`) ends the chain.
fn slice(started_ms: f64) {
    let deadline_ms = dom::now_ms() + SLICE_MS;
    let job = with_app(|app| {
        let job = app.state.sweep.as_mut()?;
        while !job.finished() && dom::now_ms() < deadline_ms {
            job.run_one();
        }
        Some(job.clone())
    });
    let Some(job) = job else {
        return;
    };
    show(&job, started_ms);
    if !job.finished() {
        dom::later(0, move || {
            slice_if_current(started_ms, job.range.first, job.done)
        });
    }
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

fn show(job: &SweepJob, started_ms: f64) {
    let done = job.totals.runs;
    let progress: Element = dom::by_id("sweep-progress");
    progress
        .set_attribute("value", &(done as f64 / job.range.count as f64).to_string())
        .ok();
    let elapsed_s = (dom::now_ms() - started_ms).max(0.0) / 1_000.0;
    let mut text = format!(
        "{done} of {} seeds in {elapsed_s:.2} s: {} duplicates in {} runs, {} lost, {} races; {:.4} ± {:.4} effects per order",
        job.range.count,
        job.totals.duplicates_total,
        job.totals.runs_with_duplicates,
        job.totals.lost_total,
        job.totals.races_total,
        job.totals.effects_mean_per_order(),
        job.totals.effects_stderr(),
    );
    if let Some(expected) = closed_form(&job.scenario) {
        text.push_str(&format!(" (closed form: {expected:.4})"));
    }
    if let Some(note) = &job.range.note {
        text = format!("{note} {text}");
    }
    dom::set_text(&dom::by_id("sweep-summary"), &text);
    histogram(&job.totals);
}

fn histogram(totals: &Sweep) {
    let root: HtmlElement = dom::by_id("sweep-histogram");
    dom::clear(&root);
    let peak = totals
        .duplicates_histogram
        .values()
        .copied()
        .max()
        .unwrap_or(1)
        .max(1);
    let mut label = String::from("Duplicates per run: ");
    for (duplicates, runs) in &totals.duplicates_histogram {
        let height = (*runs as f64 / peak as f64 * 100.0).max(1.0);
        let bar = El::new("div")
            .class(if *duplicates > 0 { "bar bad" } else { "bar" })
            .attr(
                "title",
                &format!("{runs} runs with {duplicates} duplicates"),
            )
            .child(&El::new("span").text(&duplicates.to_string()).el())
            .el();
        // Through the CSSOM, not a style attribute, so a strict style-src CSP allows it.
        bar.unchecked_ref::<HtmlElement>()
            .style()
            .set_property("height", &format!("{height:.1}%"))
            .ok();
        root.append_child(&bar).ok();
        label.push_str(&format!("{duplicates}: {runs} runs; "));
    }
    root.set_attribute("aria-label", &label).ok();
}
