//! The sweep panel: runs up to 100,000 seeds of the current scenario in slices of a few
//! milliseconds, so the page stays responsive, then shows the duplicates histogram and the mean
//! effects per order beside the closed form when the scenario fits it.

use std::cell::RefCell;

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::dom::{self, El};
use super::with_app;
use crate::decimal::Fixed;
use crate::sweep::{closed_form, Sweep};
use crate::Scenario;

pub const SEEDS_MAX: u64 = 100_000;
/// Work per slice before yielding to the browser: well under a 16 ms frame.
const SLICE_MS: f64 = 8.0;

struct Job {
    scenario: Scenario,
    next: u64,
    count: u64,
    totals: Sweep,
    started_ms: f64,
    generation: u32,
}

thread_local! {
    static JOB: RefCell<Option<Job>> = const { RefCell::new(None) };
    static GENERATION: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

pub fn mount() {
    let panel: Element = dom::by_id("panel-sweep");
    let form = El::new("div")
        .class("sweep-form")
        .child(
            &El::new("label")
                .text("Seeds ")
                .child(
                    &El::new("input")
                        .attr("id", "sweep-seeds")
                        .attr("type", "number")
                        .attr("min", "1")
                        .attr("max", &SEEDS_MAX.to_string())
                        .attr("value", "1000")
                        .el(),
                )
                .el(),
        )
        .child(
            &El::new("button")
                .attr("id", "sweep-run")
                .attr("type", "button")
                .text("Run sweep")
                .el(),
        )
        .child(
            &El::new("button")
                .attr("id", "sweep-stop")
                .attr("type", "button")
                .text("Stop")
                .el(),
        )
        .child(
            &El::new("progress")
                .attr("id", "sweep-progress")
                .attr("max", "1")
                .attr("value", "0")
                .attr("aria-label", "Sweep progress")
                .el(),
        );
    panel.append_child(&form.el()).ok();
    panel
        .append_child(
            &El::new("p")
                .attr("id", "sweep-summary")
                .attr("aria-live", "polite")
                .el(),
        )
        .ok();
    panel
        .append_child(
            &El::new("div")
                .attr("id", "sweep-histogram")
                .class("histogram")
                .attr("role", "img")
                .attr("aria-label", "Duplicates per run: no sweep has run yet")
                .el(),
        )
        .ok();
    dom::on_click("sweep-run", start);
    dom::on_click("sweep-stop", stop);
}

fn start() {
    let requested: u64 = dom::input("sweep-seeds").value().parse().unwrap_or(1_000);
    let count = requested.clamp(1, SEEDS_MAX);
    dom::input("sweep-seeds").set_value(&count.to_string());
    let scenario = with_app(|app| app.page.scenario.clone());
    let generation = GENERATION.with(|g| {
        g.set(g.get() + 1);
        g.get()
    });
    let next = scenario.seed;
    JOB.with(|job| {
        *job.borrow_mut() = Some(Job {
            scenario,
            next,
            count,
            totals: Sweep::default(),
            started_ms: dom::now_ms(),
            generation,
        })
    });
    dom::later(0, slice);
}

pub fn stop() {
    GENERATION.with(|g| g.set(g.get() + 1));
}

/// Runs seeds until the slice's time is up, then yields; a newer start or a stop ends it.
fn slice() {
    let deadline_ms = dom::now_ms() + SLICE_MS;
    let current = GENERATION.with(|g| g.get());
    let finished = JOB.with(|cell| {
        let mut borrow = cell.borrow_mut();
        let Some(job) = borrow.as_mut() else {
            return true;
        };
        if job.generation != current {
            return true;
        }
        let end = job.scenario.seed.saturating_add(job.count);
        while job.next < end && dom::now_ms() < deadline_ms {
            let mut s = job.scenario.clone();
            s.seed = job.next;
            job.totals
                .add(&crate::metrics::Metrics::of(&crate::sim::run(&s)));
            job.next += 1;
        }
        show(job);
        job.next >= end
    });
    if !finished {
        dom::later(0, slice);
    }
}

fn show(job: &Job) {
    let done = job.totals.runs;
    let progress: Element = dom::by_id("sweep-progress");
    progress
        .set_attribute(
            "value",
            &Fixed::<4>(done as f64 / job.count as f64).to_string(),
        )
        .ok();
    let elapsed_s = (dom::now_ms() - job.started_ms) / 1_000.0;
    let mut text = format!(
        "{done} of {} seeds in {} s: {} duplicates in {} runs, {} lost, {} races; {} ± {} effects per order",
        job.count,
        Fixed::<2>(elapsed_s),
        job.totals.duplicates_total,
        job.totals.runs_with_duplicates,
        job.totals.lost_total,
        job.totals.races_total,
        Fixed::<4>(job.totals.effects_mean_per_order()),
        Fixed::<4>(job.totals.effects_stderr()),
    );
    if let Some(expected) = closed_form(&job.scenario) {
        text.push_str(&format!(" (closed form: {})", Fixed::<4>(expected)));
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
            .set_property("height", &format!("{}%", Fixed::<1>(height)))
            .ok();
        root.append_child(&bar).ok();
        label.push_str(&format!("{duplicates}: {runs} runs; "));
    }
    root.set_attribute("aria-label", &label).ok();
}
