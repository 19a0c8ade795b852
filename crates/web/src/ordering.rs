//! The ordering exercise inside Lesson A: the learner puts the six handler steps in order (by
//! dragging, with the up/down buttons, or with Alt+↑/↓), and "Run this order" judges it with
//! `idemlab_course::ordering::judge` and loads a run into the timeline: the first failing one, or the
//! current scenario with the order applied. The draft and the verdict are `app::State`'s, the
//! shell is `index.html`'s (`tpl-ordering`); this module builds the list's items and keeps the
//! pointer drag.

use idemlab_app::LessonMsg;
use std::cell::Cell;

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, KeyboardEvent, PointerEvent};

use super::dom;
use super::{dispatch, with_app};
use idemlab_app::{self as app, Msg};

/// The exercise's listeners, delegated to the lesson panel that holds it: once per page.
pub fn listen(panel: &Element) {
    let in_list = |event: &Event| {
        target_element(event).is_some_and(|t| t.closest("#order-list").ok().flatten().is_some())
    };
    dom::listen::<Event>(panel, "click", on_click);
    dom::listen::<KeyboardEvent>(panel, "keydown", move |event| {
        if in_list(&event) {
            on_key(event)
        }
    });
    dom::listen::<PointerEvent>(panel, "pointerdown", move |event| {
        if in_list(&event) {
            on_pointer_down(event)
        }
    });
    dom::listen::<PointerEvent>(panel, "pointermove", on_pointer_move);
    dom::listen::<PointerEvent>(panel, "pointerup", on_pointer_end);
    dom::listen::<PointerEvent>(panel, "pointercancel", on_pointer_end);
}

/// Paints the draft and the last verdict from the state.
pub fn render() {
    let frame = with_app(|app| app::view::ordering::view(&app.state));
    if let Some(list) = dom::document().get_element_by_id("order-list") {
        fill_list(&list, &frame);
    }
    show_verdict(&frame, None);
}

fn fill_list(list: &Element, frame: &app::OrderingFrame) {
    dom::clear(list);
    for (index, step) in frame.items.iter().enumerate() {
        list.append_child(&item(index, step)).ok();
    }
}

/// One step of the draft, from `tpl-order-item`.
fn item(index: usize, step: &app::OrderItem) -> Element {
    let at = index.to_string();
    let item = dom::copy("tpl-order-item");
    dom::set_attr(&item, "data-index", &at);
    dom::set_attr(&item, "data-order-step", step.name);
    dom::set_attr(&item, "aria-label", &step.label);
    dom::set_text(&dom::find(&item, "strong"), step.name);
    dom::set_text(&dom::find(&item, ".order-desc"), step.describe);
    for (dir, label, disabled) in &step.moves {
        let button = dom::find(&item, &format!("[data-move=\"{dir}\"]"));
        dom::set_attr(&button, "data-index", &at);
        dom::set_attr(&button, "aria-label", label);
        dom::set_flag(&button, "disabled", *disabled);
    }
    item
}

/// Moves the step at `from` by `delta` (clamped to the list), redraws the list, keeps focus on
/// the moved step and says so; returns where it went.
fn move_step(from: usize, delta: i64, refocus: bool) -> Option<usize> {
    let to = app::view::ordering::moved_to(from, delta)?;
    dispatch(Msg::Lesson(LessonMsg::Reorder { from, to }));
    let frame = with_app(|app| app::view::ordering::view(&app.state));
    if let Some(list) = dom::document().get_element_by_id("order-list") {
        fill_list(&list, &frame);
    }
    if refocus {
        focus_item(to);
    }
    if let Some(said) = with_app(|app| app::view::ordering::moved_said(&app.state, to)) {
        announce(&said);
    }
    Some(to)
}

fn focus_item(index: usize) {
    let selector = format!("#order-list li[data-index=\"{index}\"]");
    if let Ok(Some(item)) = dom::document().query_selector(&selector) {
        if let Some(html) = item.dyn_ref::<HtmlElement>() {
            html.focus().ok();
        }
    }
}

fn announce(text: &str) {
    if let Some(region) = dom::document().get_element_by_id("order-announce") {
        dom::set_text(&region, text);
    }
}

fn target_element(event: &Event) -> Option<Element> {
    event.target().and_then(|t| t.dyn_into::<Element>().ok())
}

fn index_of(element: &Element) -> Option<usize> {
    let item = element.closest("[data-index]").ok()??;
    item.get_attribute("data-index")?.parse().ok()
}

fn on_click(event: Event) {
    let Some(target) = target_element(&event) else {
        return;
    };
    if target.id() == "order-run" {
        return run();
    }
    let Some(button) = target.closest("button[data-move]").ok().flatten() else {
        return;
    };
    let Some(from) = index_of(&button) else {
        return;
    };
    let delta = match button.get_attribute("data-move").as_deref() {
        Some("up") => -1,
        _ => 1,
    };
    let Some(to) = move_step(from, delta, false) else {
        return;
    };
    // The pressed button was rebuilt; keep the learner's place on the same button of the moved
    // step, or on the step itself when that button is now disabled (at either end).
    let dir = button.get_attribute("data-move").unwrap_or_default();
    let selector = format!("#order-list li[data-index=\"{to}\"] button[data-move=\"{dir}\"]");
    match dom::document().query_selector(&selector) {
        Ok(Some(again)) if !again.has_attribute("disabled") => {
            if let Some(html) = again.dyn_ref::<HtmlElement>() {
                html.focus().ok();
            }
        }
        _ => focus_item(to),
    }
}

fn on_key(event: KeyboardEvent) {
    if !event.alt_key() {
        return;
    }
    let delta: i64 = match event.key().as_str() {
        "ArrowUp" => -1,
        "ArrowDown" => 1,
        _ => return,
    };
    let Some(from) = target_element(&event).as_ref().and_then(index_of) else {
        return;
    };
    event.prevent_default();
    move_step(from, delta, true);
}

fn on_pointer_down(event: PointerEvent) {
    let Some(target) = target_element(&event) else {
        return;
    };
    if target.closest(".order-grip").ok().flatten().is_none() {
        return;
    }
    let Some(index) = index_of(&target) else {
        return;
    };
    event.prevent_default();
    super::with_ui(|u| &u.dragging, |d| d.set(Some(index)));
    if let Some(list) = dom::document().get_element_by_id("order-list") {
        // Capture keeps the moves coming while the pointer leaves the list.
        list.set_pointer_capture(event.pointer_id()).ok();
        list.class_list().add_1("dragging").ok();
    }
    mark_dragged(index);
}

/// While dragging, the item follows the pointer: its new place is the number of other steps
/// whose middle lies above the pointer.
fn on_pointer_move(event: PointerEvent) {
    let Some(from) = super::with_ui(|u| &u.dragging, Cell::get) else {
        return;
    };
    let Some(list) = dom::document().get_element_by_id("order-list") else {
        return;
    };
    let items = list.children();
    let y = f64::from(event.client_y());
    let to = (0..items.length())
        .filter(|&i| i as usize != from)
        .filter_map(|i| items.item(i))
        .filter(|item| {
            let rect = item.get_bounding_client_rect();
            rect.top() + rect.height() / 2.0 < y
        })
        .count();
    if let Some(to) = move_step(from, to as i64 - from as i64, false) {
        super::with_ui(|u| &u.dragging, |d| d.set(Some(to)));
        mark_dragged(to);
    }
}

fn on_pointer_end(event: PointerEvent) {
    let Some(index) = super::with_ui(|u| &u.dragging, |d| d.take()) else {
        return;
    };
    if let Some(list) = dom::document().get_element_by_id("order-list") {
        list.release_pointer_capture(event.pointer_id()).ok();
        list.class_list().remove_1("dragging").ok();
    }
    mark_dragged(usize::MAX);
    focus_item(index);
}

fn mark_dragged(index: usize) {
    let Ok(items) = dom::document().query_selector_all("#order-list li") else {
        return;
    };
    for i in 0..items.length() {
        if let Some(item) = items.item(i).and_then(|n| n.dyn_into::<Element>().ok()) {
            let on = index_of(&item) == Some(index);
            item.class_list().toggle_with_force("dragged", on).ok();
        }
    }
}

/// Judges the draft and loads a run (`app::update` decides which); the judge's time is
/// measured here, around it, for the Playwright test's report.
fn run() {
    let start_ms = dom::now_ms();
    let effects = with_app(|app| app.dispatch(Msg::Lesson(LessonMsg::RunOrder)));
    let judge_ms = dom::now_ms() - start_ms;
    super::apply(effects);
    let frame = with_app(|app| app::view::ordering::view(&app.state));
    show_verdict(&frame, Some(judge_ms));
}

fn show_verdict(frame: &app::OrderingFrame, judge_ms: Option<f64>) {
    let Some(out) = dom::document().get_element_by_id("order-verdict") else {
        return;
    };
    let Some((text, verdict)) = &frame.verdict else {
        return;
    };
    dom::set_text(&out, text);
    dom::set_attr(&out, "data-verdict", verdict);
    // Read by the Playwright test, which reports how long a verdict takes in the browser.
    if let Some(judge_ms) = judge_ms {
        // The verdict shows whole (about 560 characters); its first sentence speaks.
        announce(idemlab_app::first_sentence(text));
        // A verdict just given is brought on screen, as little as needed (its column or page).
        let height_px = dom::window().inner_height().ok().and_then(|h| h.as_f64());
        if out.get_bounding_client_rect().bottom() > height_px.unwrap_or(f64::MAX) {
            out.scroll_into_view_with_bool(false);
        }
        out.set_attribute(
            "data-judge-ms",
            &idemlab_lab::decimal::Fixed::<1>(judge_ms).to_string(),
        )
        .ok();
    }
}
