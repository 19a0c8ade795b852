//! The sweep panel: runs up to 100,000 seeds of the current scenario in slices of a few
//! milliseconds, so the page stays responsive, then shows the duplicates histogram and the mean
//! effects per order beside the closed form when the scenario fits it.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement};

use super::dom::{self, El};
use super::{dispatch, with_app};
use idemlab_app::{Msg, SweepJob};
use idemlab_lab::sweep::Sweep;

const SEEDS_MAX: u64 = idemlab_app::SWEEP_SEEDS_MAX;

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

/// A sweep or a contracts table was started: its rate counts from now.
pub fn started() {
    super::with_ui(|u| &u.sweep_started_ms, |at| at.set(dom::now_ms()));
}

/// Paints the sweep panel when the state's sweep moved (a slice ran, Stop, a new sweep) or is
/// gone: a scenario change drops it, and its totals (another scenario's) must not stand
/// beside the new run.
pub fn render() {
    let job = with_app(|app| app.state.sweep.clone());
    let at = job
        .as_ref()
        .map(|j| (j.range.first, j.range.count, j.done, j.stopped));
    if super::with_ui(|u| &u.sweep_painted, |painted| painted.replace(at)) == at {
        return;
    }
    if let Some(job) = job {
        let started_ms = super::with_ui(|u| &u.sweep_started_ms, std::cell::Cell::get);
        show(&job, started_ms);
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
