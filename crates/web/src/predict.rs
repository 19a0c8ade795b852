//! A lesson step's prediction (asked before its run plays) and its terms, painted from
//! `app::PredictFrame`: the question and its choices, the feedback, what waits for the answer,
//! the definition list, and the underlined terms whose definitions open on focus. The markup is
//! in `index.html`'s `tpl-predict` and `tpl-terms`.

use web_sys::{Element, FocusEvent, KeyboardEvent, PointerEvent};

use super::dom::{self, El};
use super::repaint;
use idemlab_app::{Asked, PredictFrame, PredictShell, TextPiece};

/// The parts of a step that are the reveal: held back while the step waits for its answer.
const REVEAL: &str =
    ".step-text, .boundary, #pointer-status, .pointer-hint, .look-for, .claims, .calculator, .ordering";

/// A step's way on: "Next step", or on the last step "Take the mastery check", which waits for
/// the step's answer too (a phone walk found it open under "Answer … to go on").
const FORWARD: &str = "[data-next], [data-quiz-start]";

/// Paints the question when its frame changed; the first paint after the step was built
/// builds its markup.
pub fn paint(frame: &PredictFrame) {
    let Some(last) = repaint(|u| &u.predict_painted, frame) else {
        return;
    };
    let Some(shell) = &frame.shell else {
        return;
    };
    let Some(article) = dom::document().get_element_by_id("lesson-step") else {
        return;
    };
    if last.is_none() {
        build(&article, shell);
    }
    paint_state(&article, frame);
}

/// Builds the step's terms and question after its heading, and the hint under its way on.
fn build(article: &Element, shell: &PredictShell) {
    let heading = dom::find(article, "#lesson-heading");
    let section = dom::copy("tpl-predict");
    let setup = dom::find(&section, ".predict-setup");
    for piece in &shell.setup {
        self::piece(&setup, piece);
    }
    dom::set_text(&dom::find(&section, ".predict-question"), shell.question);
    let group = dom::find(&section, ".predict-choices");
    dom::set_attr(&group, "data-ask", shell.ask);
    dom::set_attr(&group, "data-side", shell.side);
    dom::set_attr(&group, "data-metric", shell.metric);
    for (i, choice) in shell.choices.iter().enumerate() {
        let button = El::new("button").attr("type", "button");
        let button = button.attr("data-choice", &i.to_string()).text(choice);
        group.append_child(&button.el()).ok();
    }
    heading.after_with_node_1(&section).ok();
    if let Some(terms) = &shell.terms {
        let details = dom::copy("tpl-terms");
        dom::set_text(&dom::find(&details, "summary"), &terms.summary);
        let list = dom::find(&details, "dl");
        for (word, definition) in &terms.entries {
            list.append_child(&El::new("dt").text(word).el()).ok();
            list.append_child(&El::new("dd").text(definition).el()).ok();
        }
        heading.after_with_node_1(&details).ok();
    }
    if let Ok(Some(nav)) = article.query_selector(".lesson-nav") {
        hint(&nav, shell.hold_hint);
    }
}

/// The hint under a held way on, tied to the button.
fn hint(nav: &Element, text: &str) {
    let hint = El::new("p").attr("id", "next-hint").class("next-hint");
    let hint = hint.text(text).el();
    dom::set_hidden(&hint, true);
    if let Ok(ways) = nav.query_selector_all(FORWARD) {
        for way in (0..ways.length()).filter_map(|i| ways.item(i)) {
            let way: Element = wasm_bindgen::JsCast::unchecked_into(way);
            dom::set_attr(&way, "aria-describedby", "next-hint");
        }
    }
    nav.after_with_node_1(&hint).ok();
}

/// Appends a plain or term piece of a step's text (a pointer phrase's words go in plain; the
/// step's own text makes them buttons, in `lessons`).
pub fn piece(paragraph: &Element, piece: &TextPiece) {
    match *piece {
        TextPiece::Plain(words) | TextPiece::Pointer(_, words) => {
            paragraph.insert_adjacent_text("beforeend", words).ok();
        }
        TextPiece::Term {
            words,
            id,
            word,
            definition,
        } => {
            let id = id.to_string();
            // A span, not a <button>, for the same reason as a pointer phrase: it wraps.
            let term = El::new("span").class("term").attr("role", "button");
            let term = term.attr("tabindex", "0").attr("aria-expanded", "false");
            // Described by its definition, so that a screen reader reads it on focus too.
            let term = term
                .attr("aria-controls", &id)
                .attr("aria-describedby", &id);
            let term = term.text(words).el();
            let def = El::new("span").class("term-def").attr("id", &id);
            let def = def
                .attr("role", "note")
                .child(&El::new("strong").text(word).el());
            let def = def.el();
            def.insert_adjacent_text("beforeend", &format!(": {definition}"))
                .ok();
            dom::set_hidden(&def, true);
            paragraph.append_child(&term).ok();
            paragraph.append_child(&def).ok();
        }
    }
}

/// Shows the question's state: the choices and feedback once answered, the reveal, the held
/// way on and its hint.
fn paint_state(article: &Element, frame: &PredictFrame) {
    let Ok(Some(section)) = article.query_selector(".predict") else {
        return;
    };
    dom::set_hidden(&section, frame.asked.is_none());
    let waiting = frame.waiting;
    if let Ok(parts) = article.query_selector_all(REVEAL) {
        for part in (0..parts.length()).filter_map(|i| parts.item(i)) {
            dom::set_hidden(&wasm_bindgen::JsCast::unchecked_into(part), waiting);
        }
    }
    if let Ok(Some(next)) = article.query_selector(FORWARD) {
        dom::set_flag(&next, "disabled", waiting);
    }
    if let Some(hint) = dom::document().get_element_by_id("next-hint") {
        dom::set_hidden(&hint, !waiting);
    }
    if let Some(asked) = &frame.asked {
        paint_asked(article, &section, asked, waiting);
    }
}

fn paint_asked(article: &Element, section: &Element, asked: &Asked, waiting: bool) {
    let feedback = dom::find(section, ".predict-feedback");
    dom::set_text(&feedback, &asked.feedback);
    match asked.result {
        Some(result) => dom::set_attr(&feedback, "data-result", result),
        None => {
            feedback.remove_attribute("data-result").ok();
        }
    }
    dom::set_hidden(&dom::find(section, ".predict-note"), !waiting);
    // Once answered the choices give way to the feedback (which names the answer) and the
    // step's word list folds to its summary, once. The setup stays, in small type: the reveal
    // refers to it.
    dom::set_flag(section, "data-answered", asked.answered);
    dom::set_hidden(&dom::find(section, ".predict-choices"), asked.answered);
    if let Ok(Some(terms)) = article.query_selector(".step-terms[open]:not([data-folded])") {
        if asked.answered {
            terms.remove_attribute("open").ok();
            dom::set_attr(&terms, "data-folded", "1");
        }
    }
    for (i, mark) in asked.choices.iter().enumerate() {
        let selector = format!("[data-choice=\"{i}\"]");
        let Ok(Some(button)) = section.query_selector(&selector) else {
            continue;
        };
        let flag = |on: bool| if on { "true" } else { "false" };
        dom::set_attr(&button, "aria-pressed", flag(mark.pressed));
        dom::set_attr(&button, "aria-disabled", flag(mark.locked));
        button.set_class_name(mark.class);
    }
}

/// The answer is in: its feedback takes the focus (the choices no longer act).
pub fn focus_feedback() {
    let feedback = dom::document().query_selector("#lesson-step .predict-feedback");
    if let Ok(Some(feedback)) = feedback {
        if let Ok(feedback) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(feedback) {
            // The feedback sits at the top of the lesson's column, which is already on screen;
            // a plain focus() would scroll the window to it past the sticky column.
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            feedback.focus_with_options(&options).ok();
            let column: web_sys::Element = dom::by_id("lesson-column");
            let (inner, outer) = (
                feedback.get_bounding_client_rect(),
                column.get_bounding_client_rect(),
            );
            let (column_by, window_by) = idemlab_app::view::predict::feedback_scroll_px(
                (inner.top(), inner.bottom()),
                (outer.top(), outer.bottom()),
                dock_top,
            );
            if let Some(by) = column_by {
                column.set_scroll_top(column.scroll_top() + by as i32);
            }
            if let Some(by) = window_by {
                dom::window().scroll_by_with_x_and_y(0.0, by);
            }
        }
    }
}

/// The top of the timeline docked at the screen's foot (a phone's lesson), if one is.
fn dock_top() -> Option<f64> {
    let window = dom::window();
    ["timeline-a", "timeline-b"].iter().find_map(|id| {
        let timeline = dom::document().get_element_by_id(id)?;
        let style = window.get_computed_style(&timeline).ok()??;
        let fixed = style.get_property_value("position").ok()? == "fixed";
        fixed.then(|| timeline.get_bounding_client_rect().top())
    })
}

/// A term's definition opens when the term is focused (a click or Tab), hovered by a mouse, or
/// on Enter or Space, and closes when it loses the focus and the pointer, or on Escape.
/// Delegated once, on the whole lab.
pub fn listen() {
    let app_root: Element = dom::by_id("app");
    dom::listen::<PointerEvent>(&app_root, "pointerover", |event| {
        if event.pointer_type() == "mouse" {
            if let Some(term) = term_of(event.target()) {
                open(&term, true);
            }
        }
    });
    dom::listen::<PointerEvent>(&app_root, "pointerout", |event| {
        let Some(term) = term_of(event.target()) else {
            return;
        };
        let focused = dom::document().active_element().is_some_and(|e| e == term);
        if event.pointer_type() == "mouse" && !focused {
            open(&term, false);
        }
    });
    dom::listen::<FocusEvent>(&app_root, "focusin", |event| {
        if let Some(term) = term_of(event.target()) {
            open(&term, true);
        }
    });
    dom::listen::<FocusEvent>(&app_root, "focusout", |event| {
        if let Some(term) = term_of(event.target()) {
            open(&term, false);
        }
    });
    dom::listen::<KeyboardEvent>(&app_root, "keydown", |event| {
        let Some(term) = term_of(event.target()) else {
            return;
        };
        match event.key().as_str() {
            "Enter" | " " => {
                event.prevent_default();
                open(&term, true);
            }
            "Escape" => open(&term, false),
            _ => {}
        }
    });
}

fn term_of(target: Option<web_sys::EventTarget>) -> Option<Element> {
    let element = wasm_bindgen::JsCast::dyn_into::<Element>(target?).ok()?;
    element.class_list().contains("term").then_some(element)
}

fn open(term: &Element, open: bool) {
    dom::set_attr(term, "aria-expanded", if open { "true" } else { "false" });
    let def = term
        .get_attribute("aria-controls")
        .and_then(|id| dom::document().get_element_by_id(&id));
    if let Some(def) = def {
        dom::set_hidden(&def, !open);
        if open {
            place_def(term, &def);
        }
    }
}

/// Fixed at `app::popup_at`'s place, so no scrolling column clips it at the screen's edges.
fn place_def(term: &Element, def: &Element) {
    let Ok(def) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(def.clone()) else {
        return;
    };
    let (at, own) = (
        term.get_bounding_client_rect(),
        def.get_bounding_client_rect(),
    );
    let window = dom::window();
    let read = |v: Result<wasm_bindgen::JsValue, _>| v.ok().and_then(|v| v.as_f64());
    let view = (read(window.inner_width()), read(window.inner_height()));
    let (Some(width), Some(height)) = view else {
        return;
    };
    let (left, top) = idemlab_app::popup_at(
        (at.left(), at.top(), at.bottom()),
        (own.width(), own.height()),
        (width, height),
    );
    let style = def.style();
    for (name, px) in [("left", left), ("top", top)] {
        let value = format!("{}px", idemlab_lab::decimal::Fixed::<0>(px));
        style.set_property(name, &value).ok();
    }
}
