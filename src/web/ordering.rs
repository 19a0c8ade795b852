//! The ordering exercise inside Lesson A: the learner puts the six handler steps in order (by
//! dragging, with the up/down buttons, or with Alt+↑/↓), and "Run this order" judges it with
//! `crate::ordering::judge` and loads a run into the timeline: the first failing one, or the
//! current scenario with the order applied. Only the list is this module's state.

use std::cell::{Cell, RefCell};

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, KeyboardEvent, PointerEvent};

use super::dom::{self, El};
use super::{set_scenario, with_app};
use crate::decimal::Fixed;
use crate::ordering::{self, Verdict, SEEDS_PAGE};
use crate::scenario::{decode, Step};

thread_local! {
    /// The learner's draft; it reaches the scenario only through "Run this order".
    static DRAFT: Cell<[Step; 6]> = const { Cell::new(Step::CORRECT) };
    /// The index of the item being dragged, while a pointer drag is under way.
    static DRAGGING: Cell<Option<usize>> = const { Cell::new(None) };
    /// The last verdict's text, so a rebuilt panel shows it again.
    static SHOWN: RefCell<Option<(String, &'static str)>> = const { RefCell::new(None) };
}

/// The exercise, built for a lesson step; it starts from the scenario's own order.
pub fn exercise() -> Element {
    DRAFT.with(|d| d.set(with_app(|app| app.page.scenario.order)));
    SHOWN.with(|s| s.borrow_mut().take());
    let intro = El::new("p").attr("id", "order-help").text(
        "Put the six steps in the order the server should run them: drag a step by its handle, \
         use its ↑ and ↓ buttons, or focus it and press Alt+↑ or Alt+↓. Then run the order.",
    );
    let list = El::new("ol")
        .attr("id", "order-list")
        .class("order-list")
        .attr("aria-label", "Handler steps, in the order they run")
        .attr("aria-describedby", "order-help")
        .el();
    let run = El::new("button")
        .attr("type", "button")
        .attr("id", "order-run")
        .text("Run this order");
    let verdict = El::new("div")
        .attr("id", "order-verdict")
        .class("order-verdict")
        .attr("role", "status")
        .attr("aria-live", "polite");
    let announce = El::new("div")
        .attr("id", "order-announce")
        .class("visually-hidden")
        .attr("aria-live", "assertive");
    let section = El::new("section")
        .class("ordering")
        .attr("data-exercise", "ordering")
        .attr("aria-label", "Ordering exercise")
        .child(&intro.el())
        .child(&list)
        .child(&run.el())
        .child(&verdict.el())
        .child(&announce.el())
        .el();
    dom::listen::<Event>(&section, "click", on_click);
    dom::listen::<KeyboardEvent>(&list, "keydown", on_key);
    dom::listen::<PointerEvent>(&list, "pointerdown", on_pointer_down);
    dom::listen::<PointerEvent>(&list, "pointermove", on_pointer_move);
    dom::listen::<PointerEvent>(&list, "pointerup", on_pointer_end);
    dom::listen::<PointerEvent>(&list, "pointercancel", on_pointer_end);
    fill_list(&list);
    section
}

fn fill_list(list: &Element) {
    dom::clear(list);
    let draft = DRAFT.with(Cell::get);
    for (index, step) in draft.iter().enumerate() {
        list.append_child(&item(index, *step)).ok();
    }
}

fn item(index: usize, step: Step) -> Element {
    let name = step.name();
    let button = |dir: &str, glyph: &str, disabled: bool| {
        let b = El::new("button")
            .attr("type", "button")
            .attr("data-move", dir)
            .attr("data-index", &index.to_string())
            .attr("aria-label", &format!("Move {name} {dir}"))
            .text(glyph);
        if disabled {
            b.attr("disabled", "").el()
        } else {
            b.el()
        }
    };
    El::new("li")
        .class("order-item")
        .attr("tabindex", "0")
        .attr("data-index", &index.to_string())
        .attr("data-order-step", name)
        .attr(
            "aria-label",
            &format!("{} of 6: {name}. {}", index + 1, ordering::describe(step)),
        )
        .child(
            &El::new("span")
                .class("order-grip")
                .attr("aria-hidden", "true")
                .attr("title", "Drag to move")
                .text("⠿")
                .el(),
        )
        .child(&El::new("strong").text(name).el())
        .child(
            &El::new("span")
                .class("order-desc")
                .text(ordering::describe(step))
                .el(),
        )
        .child(&button("up", "↑", index == 0))
        .child(&button("down", "↓", index == 5))
        .el()
}

/// Moves the step at `from` to `to`, redraws the list, keeps focus on the moved step and says so.
fn move_step(from: usize, to: usize, refocus: bool) {
    if from == to || from > 5 || to > 5 {
        return;
    }
    let mut draft = DRAFT.with(Cell::get);
    let step = draft[from];
    if from < to {
        draft[from..=to].rotate_left(1);
    } else {
        draft[to..=from].rotate_right(1);
    }
    DRAFT.with(|d| d.set(draft));
    let Some(list) = dom::document().get_element_by_id("order-list") else {
        return;
    };
    fill_list(&list);
    if refocus {
        focus_item(to);
    }
    announce(&format!(
        "{} moved to position {} of 6.",
        step.name(),
        to + 1
    ));
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
    let to = match button.get_attribute("data-move").as_deref() {
        Some("up") => from.saturating_sub(1),
        _ => (from + 1).min(5),
    };
    move_step(from, to, false);
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
    let to = (from as i64 + delta).clamp(0, 5) as usize;
    move_step(from, to, true);
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
    DRAGGING.with(|d| d.set(Some(index)));
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
    let Some(from) = DRAGGING.with(Cell::get) else {
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
    if to != from {
        move_step(from, to, false);
        DRAGGING.with(|d| d.set(Some(to)));
        mark_dragged(to);
    }
}

fn on_pointer_end(event: PointerEvent) {
    let Some(index) = DRAGGING.with(|d| d.take()) else {
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

/// Judges the draft and loads a run: the first failing one, or the scenario with this order.
fn run() {
    let order = DRAFT.with(Cell::get);
    let start_ms = dom::now_ms();
    let verdict = ordering::judge(order, SEEDS_PAGE);
    let judge_ms = dom::now_ms() - start_ms;
    let (text, kind) = match &verdict {
        Verdict::Safe { runs } => (
            format!(
                "Safe across {runs} runs ({} situations × {SEEDS_PAGE} seeds): 0 duplicates, \
                 0 lost, 0 missing from the ledger, every order ended ok. The timeline above shows \
                 the same run with your order.",
                ordering::PROBES.len()
            ),
            "safe",
        ),
        Verdict::Fails(failure) => (
            format!(
                "Fails. {}. The timeline above now shows that run ({}, seed {}).",
                capitalise(&failure.why),
                failure.probe.name,
                decode(&failure.query).map_or(0, |d| d.scenario.seed)
            ),
            "fails",
        ),
    };
    let scenario = match &verdict {
        Verdict::Fails(failure) => {
            decode(&failure.query)
                .expect("the judge builds its queries with the codec")
                .scenario
        }
        Verdict::Safe { .. } => {
            let mut scenario = with_app(|app| app.page.scenario.clone());
            scenario.order = order;
            scenario
        }
    };
    SHOWN.with(|s| *s.borrow_mut() = Some((text, kind)));
    set_scenario(scenario);
    show_verdict(judge_ms);
}

fn capitalise(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or(String::new(), |first| {
        first.to_uppercase().collect::<String>() + chars.as_str()
    })
}

fn show_verdict(judge_ms: f64) {
    let Some(out) = dom::document().get_element_by_id("order-verdict") else {
        return;
    };
    let Some((text, kind)) = SHOWN.with(|s| s.borrow().clone()) else {
        return;
    };
    dom::set_text(&out, &text);
    out.set_attribute("data-verdict", kind).ok();
    // Read by the Playwright test, which reports how long a verdict takes in the browser.
    out.set_attribute("data-judge-ms", &Fixed::<1>(judge_ms).to_string())
        .ok();
}
