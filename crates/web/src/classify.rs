//! The classification exercise inside its lesson step: the shell and one item per operation
//! come from `index.html`'s templates, the three answer buttons follow `classify::Class::ALL`,
//! and every mark, verdict and the score come from `app::classify_items` and
//! `app::classify_score`. Its clicks are delegated to the lesson panel, once, at mount.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event};

use super::dom::{self, El};
use super::{dispatch, with_app, with_ui};
use idemlab_app::{self as app, Msg};
use idemlab_course::classify::{Class, OPERATIONS};
use idemlab_lab::i18n::tr;

pub fn mount() {
    let panel: Element = dom::by_id("panel-lessons");
    dom::listen::<Event>(&panel, "click", on_click);
}

fn on_click(event: Event) {
    let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return;
    };
    let Some(button) = target
        .closest("[data-classify], [data-classify-show]")
        .ok()
        .flatten()
    else {
        return;
    };
    let index = (button.closest("[data-op]").ok().flatten())
        .and_then(|item| item.get_attribute("data-op"))
        .and_then(|s| s.parse::<usize>().ok());
    let Some(index) = index else {
        return;
    };
    if button.has_attribute("data-classify-show") {
        return dispatch(Msg::ClassifyShow(index));
    }
    let answer = button.get_attribute("data-classify");
    if let Some(answer) = answer.as_deref().and_then(Class::from_name) {
        dispatch(Msg::Classify { index, answer });
    }
}

/// Builds the exercise at the end of the step's article, then paints the answers so far.
pub fn paint(article: &Element) {
    dom::stamp("tpl-classify", article);
    let list = dom::find(article, ".classify-list");
    for (index, op) in OPERATIONS.iter().enumerate() {
        let item = dom::copy("tpl-classify-item");
        dom::set_attr(&item, "data-op", &index.to_string());
        let text = dom::find(&item, ".classify-op");
        dom::set_attr(&text, "id", &format!("classify-op-{index}"));
        dom::set_text(&text, tr(op.text));
        let choices = dom::find(&item, ".classify-choices");
        dom::set_attr(&choices, "aria-labelledby", &format!("classify-op-{index}"));
        for class in Class::ALL {
            let button = El::new("button").attr("type", "button");
            let button = button
                .attr("data-classify", class.name())
                .text(class.label());
            choices.append_child(&button.el()).ok();
        }
        list.append_child(&item).ok();
    }
    with_ui(|u| &u.classify_painted, |cell| cell.set(None));
    render();
    // A status only from the next task, once its first words are in: a step change is announced
    // once, by its title (issue 14), and the score speaks when an answer changes it.
    let score = dom::find(article, "#classify-score");
    dom::later(0, move || dom::set_attr(&score, "role", "status"));
}

/// Paints the answers, verdicts and score when they changed since the last paint.
pub fn render() {
    let Some(root) = dom::document().get_element_by_id("classify") else {
        return;
    };
    let answers = with_app(|app| app.state.classify);
    let before = with_ui(|u| &u.classify_painted, |cell| cell.replace(Some(answers)));
    if before == Some(answers) {
        return;
    }
    for (index, item) in app::classify_items(&answers).iter().enumerate() {
        let li = dom::find(&root, &format!("[data-op=\"{index}\"]"));
        for class in Class::ALL {
            let button = dom::find(&li, &format!("[data-classify=\"{}\"]", class.name()));
            let chosen = item.answer == Some(class);
            dom::set_attr(
                &button,
                "aria-pressed",
                if chosen { "true" } else { "false" },
            );
            // aria-disabled, not disabled: the pressed button keeps the keyboard focus.
            if item.answer.is_some() {
                dom::set_attr(&button, "aria-disabled", "true");
            } else {
                button.remove_attribute("aria-disabled").ok();
            }
            dom::set_flag(&button, "data-right", item.right == Some(class));
        }
        let verdict = dom::find(&li, ".classify-verdict");
        dom::set_text(&verdict, item.verdict.as_deref().unwrap_or(""));
        let right = item.answer.is_some() && item.answer == item.right;
        dom::set_flag(&li, "data-answered", item.answer.is_some());
        dom::set_attr(&li, "data-correct", if right { "1" } else { "0" });
        dom::set_text(&dom::find(&li, ".classify-why"), item.why.unwrap_or(""));
        dom::set_hidden(&dom::find(&li, "[data-classify-show]"), !item.show);
    }
    dom::set_text(
        &dom::find(&root, "#classify-score"),
        &app::classify_said(before.as_ref(), &answers),
    );
}
