//! The sweep panel: runs up to 100,000 seeds of the current scenario in slices of a few
//! milliseconds, so the page stays responsive, then shows the duplicates histogram and the mean
//! effects per order beside the closed form when the scenario fits it.

use idemlab_app::SweepMsg;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use super::dom::{self, El};
use super::{dispatch, with_app};
use idemlab_app::{self as app, Msg, SweepFrame};

pub fn mount() {
    dom::on_click("sweep-run", start);
    dom::on_click("sweep-stop", stop);
    // The form's bound is the model's.
    let frame = with_app(|app| app::view::sweep::view(&app.state));
    dom::set_attr(&dom::input("sweep-seeds"), "max", &frame.seeds_max);
}

fn start() {
    dispatch(Msg::Sweep(SweepMsg::Start(
        dom::input("sweep-seeds").value(),
    )));
    // The box shows the count the sweep runs, within the form's bounds.
    let asked = with_app(|app| app.state.sweep.as_ref().map(|job| job.range.asked));
    if let Some(asked) = asked {
        dom::input("sweep-seeds").set_value(&asked.to_string());
    }
}

fn stop() {
    dispatch(Msg::Sweep(SweepMsg::Stop));
}

/// Paints the sweep panel when its frame changed (a slice ran, Stop, a new sweep, or a
/// scenario change that dropped it).
pub fn render(frame: &SweepFrame) {
    super::paint_changed(|u| &u.sweep_painted, frame, |frame, _| paint(frame));
}

fn paint(frame: &SweepFrame) {
    dom::set_text(&dom::by_id("sweep-summary"), &frame.summary);
    dom::set_attr(&dom::by_id("sweep-progress"), "value", &frame.progress);
    let histogram_box = dom::find(&dom::by_id("panel-sweep"), ".histogram-box");
    dom::set_hidden(&histogram_box, !frame.histogram_shown);
    let root: HtmlElement = dom::by_id("sweep-histogram");
    dom::clear(&root);
    for bar in &frame.bars {
        let text = El::new("span").text(&bar.text).el();
        let element = El::new("div").class(bar.class).attr("title", &bar.title);
        let element = element.child(&text).el().unchecked_into::<HtmlElement>();
        // Through the CSSOM, not a style attribute, so a strict style-src CSP allows it.
        element.style().set_property("height", &bar.height).ok();
        root.append_child(&element).ok();
    }
    if frame.histogram_shown {
        root.set_attribute("aria-label", &frame.label).ok();
    }
}
