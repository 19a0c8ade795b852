//! Small DOM helpers. Text always goes in as text nodes (`set_text_content`), never as HTML,
//! so nothing from a URL or a trace can become markup.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{
    Document, Element, Event, EventTarget, HtmlElement, HtmlInputElement, HtmlSelectElement,
    HtmlTemplateElement, Window,
};

pub fn window() -> Window {
    web_sys::window().expect("the page has a window")
}

pub fn document() -> Document {
    window().document().expect("the window has a document")
}

/// The element with this id, cast to `T`. The ids are the page's own, so a miss is a bug.
pub fn by_id<T: JsCast>(id: &str) -> T {
    document()
        .get_element_by_id(id)
        .unwrap_or_else(|| panic!("index.html has no #{id}"))
        .dyn_into::<T>()
        .unwrap_or_else(|_| panic!("#{id} is not the expected element type"))
}

pub fn input(id: &str) -> HtmlInputElement {
    by_id(id)
}

pub fn select(id: &str) -> HtmlSelectElement {
    by_id(id)
}

/// A builder around `Element` for the few places that create markup.
pub struct El(pub Element);

impl El {
    pub fn new(tag: &str) -> El {
        El(document().create_element(tag).expect("valid tag name"))
    }

    pub fn attr(self, name: &str, value: &str) -> El {
        self.0
            .set_attribute(name, value)
            .expect("valid attribute name");
        self
    }

    pub fn class(self, class: &str) -> El {
        self.0.set_class_name(class);
        self
    }

    pub fn text(self, text: &str) -> El {
        self.0.set_text_content(Some(text));
        self
    }

    pub fn child(self, child: &Element) -> El {
        self.0.append_child(child).expect("append a fresh element");
        self
    }

    pub fn el(self) -> Element {
        self.0
    }
}

/// Appends a copy of `<template id="ID">`'s content (static markup from `index.html`) to `into`.
pub fn stamp(id: &str, into: &Element) {
    let template: HtmlTemplateElement = by_id(id);
    let copy = template.content().clone_node_with_deep(true);
    into.append_child(&copy.expect("copy a template"))
        .expect("append a template's copy");
}

/// A copy of the one element `<template id="ID">` holds.
pub fn copy(id: &str) -> Element {
    let template: HtmlTemplateElement = by_id(id);
    let element = template.content().first_element_child();
    let element = element.unwrap_or_else(|| panic!("#{id} holds no element"));
    element
        .clone_node_with_deep(true)
        .expect("copy a template")
        .unchecked_into()
}

/// The first element under `root` that `selector` finds. The markup is the page's own (often
/// just stamped from a template), so a miss is a bug.
pub fn find(root: &Element, selector: &str) -> Element {
    (root.query_selector(selector).ok().flatten())
        .unwrap_or_else(|| panic!("no {selector} in #{}", root.id()))
}

/// Sets an attribute the page's own code names, so a failure is a bug.
pub fn set_attr(element: &Element, name: &str, value: &str) {
    (element.set_attribute(name, value)).expect("a valid attribute name");
}

/// Sets or removes a boolean attribute (`disabled`, `checked`, `hidden` in markup).
pub fn set_flag(element: &Element, name: &str, on: bool) {
    if on {
        set_attr(element, name, "");
    } else {
        element.remove_attribute(name).ok();
    }
}

pub fn clear(element: &Element) {
    element.set_text_content(None);
}

pub fn set_text(element: &Element, text: &str) {
    if element.text_content().as_deref() != Some(text) {
        element.set_text_content(Some(text));
    }
}

pub fn set_hidden(element: &Element, hidden: bool) {
    if let Some(html) = element.dyn_ref::<HtmlElement>() {
        html.set_hidden(hidden);
    }
}

/// Listens for `name` on `target` for the life of the page. The page's controls live as long as
/// the page, so the closure is deliberately leaked; per-row handlers use delegation instead.
pub fn listen<E: JsCast + 'static>(
    target: &EventTarget,
    name: &str,
    mut handler: impl FnMut(E) + 'static,
) {
    let closure =
        Closure::<dyn FnMut(Event)>::new(move |event: Event| handler(event.unchecked_into::<E>()));
    target
        .add_event_listener_with_callback(name, closure.as_ref().unchecked_ref())
        .expect("add an event listener");
    closure.forget();
}

pub fn on_click(id: &str, mut handler: impl FnMut() + 'static) {
    let target: EventTarget = by_id(id);
    listen::<Event>(&target, "click", move |_| handler());
}

/// Runs `f` after `delay_ms` on the event loop; used to chunk long work so the page never freezes.
pub fn later(delay_ms: i32, f: impl FnOnce() + 'static) {
    let closure = Closure::once_into_js(f);
    window()
        .set_timeout_with_callback_and_timeout_and_arguments_0(closure.unchecked_ref(), delay_ms)
        .expect("schedule a timeout");
}

pub fn now_ms() -> f64 {
    window().performance().map(|p| p.now()).unwrap_or(0.0)
}
