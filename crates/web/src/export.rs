//! Export and sharing: the permalink to the clipboard, the timeline as SVG or PNG, and the trace
//! as JSON, all as downloads made in the page with nothing sent anywhere.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, Url};

use super::dom;
use super::with_app;
use idemlab_app::Msg;

pub fn mount() {
    dom::on_click("copy-link", copy_link);
    dom::on_click("export-svg", export_svg);
    dom::on_click("export-png", export_png);
    dom::on_click("export-json", export_json);
}

pub fn copy_link() {
    copy_text(&super::permalink(), "copy-link", "copy-field");
}

/// Copies text and, once the clipboard has answered, says what happened on the button
/// (`app::copy_view`): "Copied" only when the write resolved. A blocked or missing clipboard
/// leaves the text selected in `field_id` (an input or textarea) to copy by hand.
pub fn copy_text(text: &str, button_id: &str, field_id: &str) {
    let navigator = dom::window().navigator();
    // `navigator.clipboard` is missing outside a secure context: calling it would throw.
    let clipboard = js_sys::Reflect::get(&navigator, &"clipboard".into())
        .ok()
        .filter(|c| !c.is_undefined() && !c.is_null());
    let show = |written: bool| {
        let (text, button, field) = (
            text.to_string(),
            button_id.to_string(),
            field_id.to_string(),
        );
        move |_: JsValue| copied(written, &text, &button, &field)
    };
    let Some(clipboard) = clipboard else {
        return show(false)(JsValue::NULL);
    };
    let promise = clipboard
        .unchecked_into::<web_sys::Clipboard>()
        .write_text(text);
    let ok: Closure<dyn FnMut(JsValue)> = Closure::once(show(true));
    let blocked: Closure<dyn FnMut(JsValue)> = Closure::once(show(false));
    let _ = promise.then2(&ok, &blocked);
    // Only one of the two runs: both are left behind, a few bytes per click.
    ok.forget();
    blocked.forget();
}

fn copied(written: bool, text: &str, button_id: &str, field_id: &str) {
    let view = idemlab_app::copy_view(written);
    let button: web_sys::Element = dom::by_id(button_id);
    // The button's own label, kept on first use so that a second click restores it too.
    if !button.has_attribute("data-label") {
        let label = button.text_content().unwrap_or_default();
        dom::set_attr(&button, "data-label", &label);
    }
    dom::set_text(&button, view.label);
    let id = button_id.to_string();
    dom::later(1_500, move || {
        let button: web_sys::Element = dom::by_id(&id);
        let label = button.get_attribute("data-label").unwrap_or_default();
        dom::set_text(&button, &label);
    });
    let field: web_sys::Element = dom::by_id(field_id);
    if let Some(input) = field.dyn_ref::<web_sys::HtmlInputElement>() {
        // The link's own field shows only while it is needed.
        input.set_hidden(!view.show_field);
        if view.show_field {
            input.set_value(text);
            input.focus().ok();
            input.select();
        }
    } else if let Some(area) = field.dyn_ref::<web_sys::HtmlTextAreaElement>() {
        // The snippet's box is always there: select its text.
        if view.show_field {
            area.focus().ok();
            area.select();
        }
    }
}

fn export_svg() {
    // The same file `idemlab svg` writes for this URL: run A, the `zoom=` window or the whole
    // run, at the export's fixed width (see `view::export`).
    let svg = with_app(|app| {
        idemlab_lab::view::export(
            &app.runs.a.timeline,
            &app.runs.a.trace.query(),
            app.page().zoom,
        )
    });
    download(&svg, "image/svg+xml", "idemlab-timeline.svg");
}

/// The trace of run A as JSON, written a slice at a time by the page's work (a million events
/// are over 300 MB of text, and in one go they held the page for seconds).
fn export_json() {
    super::dispatch(Msg::ExportJson);
}

/// Keeps a slice's parts as one small `Blob`, outside wasm memory, and saves the file after the
/// last: the download joins blobs, which copies nothing, rather than encoding 300 MB of
/// strings in one task.
pub fn keep_parts(parts: &[String], done: bool) {
    super::with_ui(
        |u| &u.json_blobs,
        |blobs| {
            let mut blobs = blobs.borrow_mut();
            let written = blobs.get_or_insert_with(js_sys::Array::new);
            let slice: js_sys::Array = parts.iter().map(|p| JsValue::from_str(p)).collect();
            if let Ok(blob) = Blob::new_with_str_sequence(&slice) {
                written.push(&blob);
            }
            if !done {
                return;
            }
            let options = BlobPropertyBag::new();
            options.set_type("application/json");
            if let Ok(blob) = Blob::new_with_blob_sequence_and_options(written, &options) {
                save_blob(&blob, "idemlab-trace.json");
            }
            *blobs = None;
        },
    );
}

/// The JSON button: busy with its progress while the export is written.
pub fn render(text: Option<&str>) {
    let button: web_sys::Element = dom::by_id("export-json");
    let label = super::with_ui(
        |u| &u.json_label,
        |label| {
            label
                .borrow_mut()
                .get_or_insert_with(|| button.text_content().unwrap_or_default())
                .clone()
        },
    );
    match text.is_some() {
        true => dom::set_attr(&button, "aria-busy", "true"),
        false => _ = button.remove_attribute("aria-busy"),
    }
    dom::set_text(&button, text.unwrap_or(&label));
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
