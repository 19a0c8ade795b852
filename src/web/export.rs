//! Export and sharing: the permalink to the clipboard, the timeline as SVG or PNG, and the trace
//! as JSON, all as downloads made in the page with nothing sent anywhere.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

use super::dom;
use super::with_app;

pub fn mount() {
    dom::on_click("copy-link", copy_link);
    dom::on_click("export-svg", export_svg);
    dom::on_click("export-png", export_png);
    dom::on_click("export-json", export_json);
}

pub fn copy_link() {
    copy_text(&super::permalink(), "copy-link");
}

/// Copies text and says so on the button, restoring its label after a moment.
pub fn copy_text(text: &str, button_id: &str) {
    let clipboard = dom::window().navigator().clipboard();
    let _ = clipboard.write_text(text);
    let button: web_sys::Element = dom::by_id(button_id);
    let label = button.text_content().unwrap_or_default();
    if label != "Copied" {
        dom::set_text(&button, "Copied");
        let id = button_id.to_string();
        dom::later(1_500, move || dom::set_text(&dom::by_id(&id), &label));
    }
}

fn export_svg() {
    // The same file `idemlab svg` writes for this URL: run A, the `zoom=` window or the whole
    // run, at the export's fixed width (see `view::export`).
    let svg =
        with_app(|app| crate::view::export(&app.a.timeline, &app.a.trace.query(), app.page().zoom));
    download(&svg, "image/svg+xml", "idemlab-timeline.svg");
}

/// How long one slice of the JSON export may take (the 200 ms long-task limit), and how many
/// events go in one part between looks at the clock.
const JSON_SLICE_MS: f64 = 40.0;
const JSON_PART_EVENTS: usize = 2_048;

/// The trace of run A as JSON, written in slices: a million events are over 300 MB of text, and
/// in one go they held the page for seconds. Each part goes straight into the download's list
/// of strings, outside wasm memory. The button says how far it has got.
fn export_json() {
    let button: web_sys::Element = dom::by_id("export-json");
    if button.has_attribute("aria-busy") {
        return;
    }
    let label = button.text_content().unwrap_or_default();
    button.set_attribute("aria-busy", "true").ok();
    let parts = with_app(|app| app.a.trace.json_parts());
    json_slice(parts, js_sys::Array::new(), label);
}

/// One slice: its parts become one small `Blob`, so the download at the end joins blobs (which
/// copies nothing) rather than encoding 300 MB of strings in one task.
fn json_slice(mut parts: crate::trace::JsonParts, written: js_sys::Array, label: String) {
    let deadline_ms = dom::now_ms() + JSON_SLICE_MS;
    let slice = js_sys::Array::new();
    let mut done = false;
    while dom::now_ms() < deadline_ms {
        let Some(part) = parts.next_part(JSON_PART_EVENTS) else {
            done = true;
            break;
        };
        slice.push(&JsValue::from_str(&part));
    }
    if let Ok(blob) = Blob::new_with_str_sequence(&slice) {
        written.push(&blob);
    }
    if done {
        let button: web_sys::Element = dom::by_id("export-json");
        button.remove_attribute("aria-busy").ok();
        dom::set_text(&button, &label);
        let options = BlobPropertyBag::new();
        options.set_type("application/json");
        if let Ok(blob) = Blob::new_with_blob_sequence_and_options(&written, &options) {
            save_blob(&blob, "idemlab-trace.json");
        }
        return;
    }
    let (done, all) = parts.progress();
    let percent = done * 100 / all.max(1);
    dom::set_text(
        &dom::by_id("export-json"),
        &format!("Writing JSON {percent}%"),
    );
    dom::later(0, move || json_slice(parts, written, label));
}

fn export_png() {
    let canvas: HtmlCanvasElement = dom::by_id("canvas-a");
    let callback = Closure::once_into_js(move |blob: JsValue| {
        if let Ok(blob) = blob.dyn_into::<Blob>() {
            save_blob(&blob, "idemlab-timeline.png");
        }
    });
    canvas.to_blob(callback.unchecked_ref()).ok();
}

fn download(text: &str, mime: &str, name: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = BlobPropertyBag::new();
    options.set_type(mime);
    if let Ok(blob) = Blob::new_with_str_sequence_and_options(&parts, &options) {
        save_blob(&blob, name);
    }
}

fn save_blob(blob: &Blob, name: &str) {
    let Ok(url) = Url::create_object_url_with_blob(blob) else {
        return;
    };
    let anchor: HtmlAnchorElement = dom::document()
        .create_element("a")
        .expect("an anchor")
        .unchecked_into();
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    let _ = Url::revoke_object_url(&url);
}
