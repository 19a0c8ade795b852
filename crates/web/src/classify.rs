//! The classification exercise inside its lesson step, painted from `app::ClassifyFrame`: the
//! lesson's article holds its shell (`tpl-classify`, stamped with the step), this fills one
//! item per operation from `tpl-classify-item` and then marks the answers, verdicts and score.
//! Its clicks are delegated to the lesson panel, once, at mount.

use idemlab_app::ClassifyMsg;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event};

use super::dom::{self, El};
use super::{dispatch, repaint, with_ui};
use idemlab_app::{ClassifyFrame, ClassifyOp, Msg};
use idemlab_course::classify::Class;

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
        return dispatch(Msg::Classify(ClassifyMsg::Show(index)));
    }
    let answer = button.get_attribute("data-classify");
    if let Some(answer) = answer.as_deref().and_then(Class::from_name) {
        dispatch(Msg::Classify(ClassifyMsg::Answer { index, answer }));
    }
}

pub fn render(frame: Option<&ClassifyFrame>) {
    paint(frame);
}

/// Paints the exercise when its frame changed since the last paint; the first paint after
/// the step was built fills its items.
fn paint(frame: Option<&ClassifyFrame>) {
    let Some(frame) = frame else {
        with_ui(|u| &u.classify_painted, |cell| cell.take());
        return;
    };
    let Some(last) = repaint(|u| &u.classify_painted, frame) else {
        return;
    };
    let Some(root) = dom::document().get_element_by_id("classify") else {
        return;
    };
    if last.is_none() {
        fill(&root, &frame.ops);
    }
    for (index, op) in frame.ops.iter().enumerate() {
        paint_op(&dom::find(&root, &format!("[data-op=\"{index}\"]")), op);
    }
    dom::set_text(&dom::find(&root, "#classify-score"), &frame.score);
}

/// One item per operation, its words labelling its group of answer buttons.
fn fill(root: &Element, ops: &[ClassifyOp]) {
    let list = dom::find(root, ".classify-list");
    for (index, op) in ops.iter().enumerate() {
        let item = dom::copy("tpl-classify-item");
        dom::set_attr(&item, "data-op", &index.to_string());
        let text = dom::find(&item, ".classify-op");
        dom::set_attr(&text, "id", &op.text_id);
        dom::set_text(&text, op.text);
        let choices = dom::find(&item, ".classify-choices");
        dom::set_attr(&choices, "aria-labelledby", &op.text_id);
        for choice in &op.choices {
            let button = El::new("button").attr("type", "button");
            let button = button.attr("data-classify", choice.name).text(choice.label);
            choices.append_child(&button.el()).ok();
        }
        list.append_child(&item).ok();
    }
    // A status only from the next task, once its first words are in: a step change is announced
    // once, by its title, and the score speaks when an answer changes it.
    let score = dom::find(root, "#classify-score");
    dom::later(0, move || dom::set_attr(&score, "role", "status"));
}

fn paint_op(li: &Element, op: &ClassifyOp) {
    for choice in &op.choices {
        let button = dom::find(li, &format!("[data-classify=\"{}\"]", choice.name));
        let pressed = if choice.pressed { "true" } else { "false" };
        dom::set_attr(&button, "aria-pressed", pressed);
        if choice.locked {
            dom::set_attr(&button, "aria-disabled", "true");
        } else {
            button.remove_attribute("aria-disabled").ok();
        }
        dom::set_flag(&button, "data-right", choice.right);
    }
    dom::set_text(&dom::find(li, ".classify-verdict"), &op.verdict);
    dom::set_flag(li, "data-answered", op.answered);
    dom::set_attr(li, "data-correct", op.correct);
    dom::set_text(&dom::find(li, ".classify-why"), op.why);
    let more = dom::find(li, ".classify-more");
    dom::set_hidden(&more, op.more.is_none());
    dom::set_text(&dom::find(&more, "p"), op.more.unwrap_or(""));
    dom::set_hidden(&dom::find(li, "[data-classify-show]"), !op.show);
}
