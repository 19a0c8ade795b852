//! The Lessons tab, painted from `app::LessonsFrame`: the picker, and each step (its scenario,
//! its fix as configuration B, what to look for and the counts it promises, which the counters
//! above then show), rebuilt only when the step changes so the calculator keeps what the
//! learner typed. The step is part of the permalink (`lesson=a&step=3`), so an instructor can
//! link to any of them.

use idemlab_app::LessonMsg;
use web_sys::{Element, Event};

use super::dom::{self, El};
use super::predict;
use super::{dispatch, repaint, with_app, with_ui};
use idemlab_app::{self as app, LessonBody, LessonsFrame, Msg, PickerButton, StepFrame, TextPiece};
use idemlab_course::build::Part;
use idemlab_course::lessons::{Lesson, Side, LESSONS};

/// The panel's shells are in `index.html`; the picker's buttons follow `LESSONS`.
pub fn mount() {
    let panel: Element = dom::by_id("panel-lessons");
    let picker: Element = dom::by_id("lesson-picker");
    for lesson in &LESSONS {
        let button = El::new("button").attr("type", "button");
        let button = button.attr("data-lesson", lesson.id);
        picker.append_child(&button.el()).ok();
    }
    // Named at once, before the first runs are built and the rest of the tab is painted.
    paint_picker(&super::frame().lessons.picker);
    super::quiz::mount();
    // Delegated once, here: the step panel and the ordering exercise inside it are rebuilt,
    // their listeners never are.
    dom::listen::<Event>(&panel, "click", on_click);
    dom::listen::<web_sys::KeyboardEvent>(&panel, "keydown", on_pointer_key);
    predict::listen();
    dom::listen::<Event>(&panel, "input", |_| update_calculator());
    super::ordering::listen(&panel);
}

fn on_click(event: Event) {
    let Some(target) = event
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
    else {
        return;
    };
    let number = |name: &str| {
        target
            .get_attribute(name)
            .and_then(|s| s.parse::<usize>().ok())
    };
    if let Some(choice) = number("data-choice") {
        dispatch(Msg::Lesson(LessonMsg::Predict(choice)));
    } else if target.has_attribute("data-quiz-start") {
        super::quiz::start();
    } else if target.has_attribute("data-build") {
        dispatch(Msg::Lesson(LessonMsg::Build));
    } else if let Some(part) = target.get_attribute("data-part") {
        if let Some(part) = Part::from_name(&part) {
            dispatch(Msg::Lesson(LessonMsg::AddPart(part)));
        }
    } else if let Some(id) = target.get_attribute("data-lesson") {
        if let Some(lesson) = Lesson::by_id(&id) {
            dispatch(Msg::Lesson(LessonMsg::Open(lesson)));
        }
    } else if let Some(pointer) = number("data-pointer") {
        dispatch(Msg::Lesson(LessonMsg::TogglePointer(pointer)));
    } else if let Some(step) = number("data-step") {
        dispatch(Msg::Lesson(LessonMsg::OpenStep(step)));
    }
}

/// The picker's names, each with "✓ mastered" once passed, and which may open.
fn paint_picker(buttons: &[PickerButton]) {
    let picker: Element = dom::by_id("lesson-picker");
    for button in buttons {
        let selector = format!("[data-lesson=\"{}\"]", button.id);
        if let Ok(Some(element)) = picker.query_selector(&selector) {
            dom::set_flag(&element, "disabled", button.disabled);
            dom::set_text(&element, &button.text);
        }
    }
}

/// Enter or Space on a pointer phrase acts like a click, as on a real button.
fn on_pointer_key(event: web_sys::KeyboardEvent) {
    if event.key() != "Enter" && event.key() != " " {
        return;
    }
    let pointer = (event.target())
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
        .and_then(|t| t.get_attribute("data-pointer"))
        .and_then(|s| s.parse::<usize>().ok());
    if let Some(pointer) = pointer {
        event.prevent_default();
        dispatch(Msg::Lesson(LessonMsg::TogglePointer(pointer)));
    }
}

/// The outline's status line and the pressed phrase.
fn paint_pointers(frame: &LessonsFrame) {
    let Some(status) = dom::document().get_element_by_id("pointer-status") else {
        return;
    };
    dom::set_text(&status, &frame.pointer_status);
    mark_pressed(frame.pressed);
}

/// Scrolls the outlined timeline into view when any of it is off-screen: B's is often below the
/// first screen, and on a phone the runs scroll under the pinned step text.
pub(super) fn show_timeline(side: Side) {
    let id = match side {
        Side::A => "canvas-a",
        Side::B => "canvas-b",
    };
    let canvas: Element = dom::by_id(id);
    let rect = canvas.get_bounding_client_rect();
    let height_px = (dom::window().inner_height().ok())
        .and_then(|h| h.as_f64())
        .unwrap_or(0.0);
    let scroll = app::view::lessons::timeline_scroll(rect.top(), rect.bottom(), height_px);
    if let Some(align_top) = scroll {
        canvas.scroll_into_view_with_bool(align_top);
    }
}

/// Scrolls a timeline wider than its box (a phone's) sideways to its outline, when that lies
/// outside the part it shows (`app::outline_scroll_px`).
pub(super) fn reveal_outline(side: Side) {
    let id = match side {
        Side::A => "timeline-a",
        Side::B => "timeline-b",
    };
    let span = with_app(|app| {
        let run = match side {
            Side::A => Some(&app.runs.a),
            Side::B => app.runs.b.as_ref(),
        }?;
        let viewport = super::runs::viewport(app);
        app::outline_span_px(&app.state, side, &run.timeline, &viewport)
    });
    let Some((first_px, last_px)) = span else {
        return;
    };
    let scroller: Element = dom::by_id(id);
    let (left_px, width_px) = (
        f64::from(scroller.scroll_left()),
        f64::from(scroller.client_width()),
    );
    if let Some(to_px) = app::outline_scroll_px(first_px, last_px, left_px, width_px) {
        scroller.set_scroll_left(to_px as i32);
    }
}

fn mark_pressed(index: Option<usize>) {
    let article: Element = dom::by_id("lesson-step");
    for i in 0.. {
        let selector = format!("[data-pointer=\"{i}\"]");
        let Ok(Some(button)) = article.query_selector(&selector) else {
            break;
        };
        let pressed = index == Some(i);
        button
            .set_attribute("aria-pressed", if pressed { "true" } else { "false" })
            .ok();
    }
}

/// Fills the step's text: each pointer phrase a button that outlines what it names, and the
/// first use of each glossary term underlined with its definition.
fn step_text(paragraph: &Element, pieces: &[TextPiece]) {
    for piece in pieces {
        match *piece {
            TextPiece::Pointer(index, phrase) => {
                // A span, not a <button>: a button cannot wrap across lines inside a sentence.
                let button = dom::copy("tpl-pointer");
                dom::set_attr(&button, "data-pointer", &index.to_string());
                button.set_text_content(Some(phrase));
                paragraph.append_child(&button).ok();
            }
            ref piece => predict::piece(paragraph, piece),
        }
    }
}

/// The learner moved to another step: its heading takes the focus (and scrolls into view).
/// A step opened: the page goes back to its top, where the step, timeline A and the counters
/// it names share the first screen (the learner may have scrolled down to reach "Next step"),
/// and the heading takes the focus without scrolling again.
pub(super) fn focus_heading() {
    dom::window().scroll_to_with_x_and_y(0.0, 0.0);
    // On a wide screen the lesson's column scrolls on its own: a new step starts at its top
    // (a newcomer's walk found step 2's heading scrolled out of view after "Next step").
    if let Some(column) = dom::document().get_element_by_id("lesson-column") {
        column.set_scroll_top(0);
    }
    if let Some(heading) = dom::document().get_element_by_id("lesson-heading") {
        if let Ok(heading) = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(heading) {
            let options = web_sys::FocusOptions::new();
            options.set_prevent_scroll(true);
            heading.focus_with_options(&options).ok();
        }
    }
}

pub fn render(lessons: &LessonsFrame, predict: &app::PredictFrame, quiz: &app::QuizFrame) {
    paint(lessons);
    predict::paint(predict);
    super::quiz::paint(quiz);
}

/// Paints what changed since the last paint: the picker, the article (rebuilt), the outline.
fn paint(frame: &LessonsFrame) {
    let Some(last) = repaint(|u| &u.lessons_painted, frame) else {
        return;
    };
    if last.as_ref().map(|l| &l.picker) != Some(&frame.picker) {
        paint_picker(&frame.picker);
    }
    let rebuilt = last.as_ref().map(|l| &l.body) != Some(&frame.body);
    if rebuilt {
        paint_body(&frame.body);
    }
    let outline = |f: &LessonsFrame| (f.pointer_status.clone(), f.pressed);
    if rebuilt || last.as_ref().map(outline) != Some(outline(frame)) {
        paint_pointers(frame);
    }
}

/// The step list and the article, afresh: the step's question and exercise are built again
/// inside it by their own painters.
fn paint_body(body: &LessonBody) {
    let steps: Element = dom::by_id("lesson-steps");
    let article: Element = dom::by_id("lesson-step");
    let quiz = matches!(body, LessonBody::Quiz);
    let no_steps = quiz || matches!(body, LessonBody::Build(_));
    dom::set_hidden(&steps, no_steps);
    // The list's label goes with it: over the check or the task it would label nothing.
    dom::set_hidden(&dom::by_id("lesson-steps-label"), no_steps);
    dom::set_hidden(&article, quiz);
    dom::set_hidden(&dom::by_id("quiz"), !quiz);
    if quiz {
        return;
    }
    dom::clear(&steps);
    dom::clear(&article);
    with_ui(|u| &u.predict_painted, |cell| cell.take());
    with_ui(|u| &u.classify_painted, |cell| cell.take());
    let step = match body {
        LessonBody::Step(step) => step,
        LessonBody::Build(build) => return paint_build(&article, build),
        _ => return dom::stamp("tpl-lesson-none", &article),
    };
    for (i, entry) in step.steps.iter().enumerate() {
        let button = El::new("button").attr("type", "button");
        let button = button.attr("data-step", &i.to_string()).text(entry.title);
        let button = button.attr("title", &entry.tooltip);
        let button = if entry.current {
            button.attr("aria-current", "step")
        } else {
            button
        };
        steps
            .append_child(&El::new("li").child(&button.el()).el())
            .ok();
    }
    paint_step(&article, step);
}

/// The step's article, from `tpl-lesson-step`: what the step has and the nav do not need goes.
fn paint_step(article: &Element, step: &StepFrame) {
    dom::stamp("tpl-lesson-step", article);
    dom::set_text(&dom::find(article, "#lesson-heading"), &step.heading);
    step_text(&dom::find(article, ".step-text"), &step.text);
    if !step.pointer_hint {
        dom::find(article, ".pointer-hint").remove();
    }
    match &step.boundary {
        Some(line) => dom::set_text(&dom::find(article, "[data-boundary]"), line),
        None => dom::find(article, "[data-boundary]").remove(),
    }
    let claims = dom::find(article, ".claims");
    for claim in &step.claims {
        let item = El::new("li").attr("data-metric", claim.metric);
        let item = item.attr("data-side", claim.side).text(&claim.text);
        claims.append_child(&item.el()).ok();
    }
    let nav = dom::find(article, ".lesson-nav");
    if step.calculator {
        dom::stamp("tpl-calculator", article);
        article.append_child(&nav).ok();
        update_calculator();
    }
    if step.classify {
        // Stamped after the nav, which stays put: "Next step" sits under the step's text as
        // on every other step, and no classify button takes its place.
        dom::stamp("tpl-classify", article);
    }
    if step.ordering {
        dom::stamp("tpl-ordering", article);
        article.append_child(&nav).ok();
        super::ordering::render();
    }
    let buttons = [
        ("[data-previous]", step.previous),
        ("[data-next]", step.next),
    ];
    for (selector, to) in buttons {
        let button = dom::find(&nav, selector);
        match to {
            Some(to) => dom::set_attr(&button, "data-step", &to.to_string()),
            None => button.remove(),
        }
    }
    let status = dom::find(article, ".quiz-status");
    match &step.mastery {
        Some(text) => {
            dom::set_text(&status, text);
            article.append_child(&status).ok();
        }
        None => {
            dom::find(&nav, "[data-quiz-start]").remove();
            status.remove();
        }
    }
    if !step.build {
        dom::find(&nav, "[data-build]").remove();
    }
}

/// The finale's task from `tpl-build`: the parts (a button for each still to add), the
/// checklist, and the result's link once every stage is done.
fn paint_build(article: &Element, frame: &app::BuildFrame) {
    dom::stamp("tpl-build", article);
    let parts = dom::find(article, ".build-parts");
    for part in &frame.parts {
        let item = match part.added {
            true => El::new("li").attr("data-added", part.name).text(&part.text),
            false => {
                let button = El::new("button").attr("type", "button");
                let button = button.attr("data-part", part.name).text(&part.text);
                El::new("li").child(&button.el())
            }
        };
        parts.append_child(&item.el()).ok();
    }
    let stages = dom::find(article, ".build-stages");
    for stage in &frame.stages {
        let item = El::new("li").attr("data-done", if stage.done { "1" } else { "0" });
        let item = item.child(&El::new("strong").text(stage.task).el());
        let item = match stage.done {
            true => item.child(&El::new("span").text(" ✓").el()),
            false => item.child(
                &El::new("span")
                    .attr("class", "build-missing")
                    .text(&stage.missing)
                    .el(),
            ),
        };
        stages.append_child(&item.el()).ok();
    }
    dom::set_text(&dom::find(article, ".build-status"), &frame.status);
    let result = dom::find(article, ".build-result");
    match &frame.result {
        Some(query) => dom::set_attr(&dom::find(&result, "a"), "href", &format!("?{query}")),
        None => result.remove(),
    }
}

/// The calculator's result for what its fields hold now (`app::view::lessons::calculator_out`).
fn update_calculator() {
    let Some(out) = dom::document().get_element_by_id("calc-out") else {
        return;
    };
    let read = |id: &str| {
        let input = dom::document().get_element_by_id(id);
        let input =
            input.and_then(|i| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(i).ok());
        input.map(|input| input.value()).unwrap_or_default()
    };
    let text = app::view::lessons::calculator_out(
        &read("calc-rate"),
        &read("calc-hours"),
        &read("calc-bytes"),
    );
    dom::set_text(&out, &text);
}
