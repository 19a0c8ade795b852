//! Embedding: the compact view (`embed=1`), the height it posts to its parent so an iframe can
//! size itself, and the dialog that writes the iframe snippet. The page posts only its height
//! and listens to nothing from the parent.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlInputElement, HtmlTextAreaElement};

use super::dom::{self, El};
use super::playback::{close_dialog, show_dialog};
use super::with_app;
use crate::scenario::codec;

use crate::app::HEIGHT_MESSAGE;

pub fn mount() {
    let embedded = with_app(|app| app.page().embed);
    let app: Element = dom::by_id("app");
    app.class_list().toggle_with_force("embed", embedded).ok();
    if embedded {
        post_height_on_resize();
    }
    mount_dialog();
}

fn post_height_on_resize() {
    let callback = Closure::<dyn FnMut()>::new(post_height);
    let observer =
        web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).expect("ResizeObserver");
    let root = dom::document()
        .document_element()
        .expect("a document element");
    observer.observe(&root);
    // Both live as long as the page.
    callback.forget();
    std::mem::forget(observer);
    post_height();
}

fn post_height() {
    let window = dom::window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    let height = dom::document()
        .document_element()
        .map_or(0, |e| e.scroll_height());
    let message = js_sys::Object::new();
    js_sys::Reflect::set(&message, &"type".into(), &HEIGHT_MESSAGE.into()).ok();
    js_sys::Reflect::set(&message, &"height".into(), &height.into()).ok();
    // The height is not secret, and the page cannot know its embedder's origin in advance.
    parent.post_message(&message, "*").ok();
}

fn mount_dialog() {
    let fieldset: Element = dom::by_id("embed-controls");
    for name in codec::key_names() {
        let id = format!("embed-open-{name}");
        let label = El::new("label")
            .child(
                &El::new("input")
                    .attr("type", "checkbox")
                    .attr("id", &id)
                    .attr("data-key", name)
                    .el(),
            )
            .child(&El::new("span").text(&format!(" {name}")).el());
        fieldset.append_child(&label.el()).ok();
    }
    dom::listen::<Event>(&fieldset, "change", |_| write_snippet());
    dom::on_click("embed-open", || {
        tick_open_controls();
        write_snippet();
        show_dialog("embed-dialog");
    });
    dom::on_click("embed-close", || close_dialog("embed-dialog"));
    dom::on_click("embed-copy", || {
        let text = dom::by_id::<HtmlTextAreaElement>("embed-snippet").value();
        super::export::copy_text(&text, "embed-copy");
    });
}

/// Starts from the controls open now: all of them, or the embed's list.
fn tick_open_controls() {
    let open: Vec<String> = with_app(|app| {
        codec::key_names()
            .filter(|k| app.page().control_open(k))
            .map(String::from)
            .collect()
    });
    for name in codec::key_names() {
        dom::input(&format!("embed-open-{name}")).set_checked(open.iter().any(|k| k == name));
    }
}

fn chosen_controls() -> Vec<String> {
    codec::key_names()
        .filter(|name| dom::by_id::<HtmlInputElement>(&format!("embed-open-{name}")).checked())
        .map(String::from)
        .collect()
}

fn write_snippet() {
    let controls = chosen_controls();
    let query = with_app(|app| crate::app::embed_query(&app.state, controls));
    let url = format!("{}?{query}", super::page_url());
    let snippet = crate::app::embed_snippet(&url);
    dom::by_id::<HtmlTextAreaElement>("embed-snippet").set_value(&snippet);
}
