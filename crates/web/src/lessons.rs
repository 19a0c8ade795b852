//! The Lessons tab: each step sets its scenario (and its fix as configuration B), says what to
//! look for, and lists the counts it promises, which the counters above then show. The step is
//! part of the permalink (`lesson=a&step=3`), so an instructor can link to any of them.

use web_sys::{Element, Event};

use super::dom::{self, El};
use super::predict;
use super::{dispatch, with_app};
use idemlab_app::{self as app, Msg};
use idemlab_course::lessons::{Lesson, Side, LESSONS};
use idemlab_lab::i18n::tr;

/// The panel's shells are in `index.html`; the picker's buttons follow `LESSONS`.
pub fn mount() {
    let panel: Element = dom::by_id("panel-lessons");
    let picker: Element = dom::by_id("lesson-picker");
    for lesson in &LESSONS {
        let button = El::new("button").attr("type", "button");
        let button = button.attr("data-lesson", lesson.id);
        picker.append_child(&button.el()).ok();
    }
    paint_picker();
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
        dispatch(Msg::Predict(choice));
    } else if target.has_attribute("data-quiz-start") {
        super::quiz::start();
    } else if let Some(id) = target.get_attribute("data-lesson") {
        if let Some(lesson) = Lesson::by_id(&id) {
            dispatch(Msg::OpenLesson(lesson));
        }
    } else if let Some(pointer) = number("data-pointer") {
        dispatch(Msg::TogglePointer(pointer));
    } else if let Some(step) = number("data-step") {
        dispatch(Msg::OpenStep(step));
    }
}

/// The picker's names, each with "✓ mastered" once passed (`app::lesson_button`): at mount
/// and whenever the progress is saved.
pub fn paint_picker() {
    let progress = super::quiz::load_progress();
    let picker: Element = dom::by_id("lesson-picker");
    for lesson in &LESSONS {
        let selector = format!("[data-lesson=\"{}\"]", lesson.id);
        if let Ok(Some(button)) = picker.query_selector(&selector) {
            let open = with_app(|app| app::lesson_open(&app.state, lesson.id));
            dom::set_flag(&button, "disabled", !open);
            dom::set_text(&button, &app::lesson_button(&progress, lesson));
        }
    }
}

/// The lesson and step index the Lessons tab shows.
pub fn current() -> Option<(&'static Lesson, usize)> {
    with_app(|app| app.state.lesson.map(|at| (at.lesson, at.index())))
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
        dispatch(Msg::TogglePointer(pointer));
    }
}

/// The outline's status line and the pressed phrase, from the state.
fn render_pointers() {
    let Some(status) = dom::document().get_element_by_id("pointer-status") else {
        return;
    };
    let (text, pressed) = with_app(|app| {
        let text = app::pointer_status(
            &app.state,
            &app.runs.a.timeline,
            app.runs.b.as_ref().map(|b| &b.timeline),
        );
        let pointers = app.state.lesson.map_or(&[][..], |at| at.step().pointers);
        let pressed = pointers
            .iter()
            .position(|p| Some((p.side, p.find)) == app.state.highlight);
        (text, pressed)
    });
    dom::set_text(&status, &text.unwrap_or_default());
    mark_pressed(pressed);
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
    if rect.top() < 0.0 || rect.bottom() > height_px {
        canvas.scroll_into_view_with_bool(rect.top() < 0.0);
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
/// first use of each glossary term underlined with its definition (`app::pieces`).
fn step_text(paragraph: &Element, step: &idemlab_course::lessons::Step) {
    for piece in app::pieces(idemlab_lab::i18n::tr(step.text), step.pointers) {
        match piece {
            app::Piece::Pointer(index, phrase) => {
                // A span, not a <button>: a button cannot wrap across lines inside a sentence.
                let button = dom::copy("tpl-pointer");
                button
                    .set_attribute("data-pointer", &index.to_string())
                    .ok();
                button.set_text_content(Some(phrase));
                paragraph.append_child(&button).ok();
            }
            piece => predict::piece(paragraph, piece),
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

pub fn render() {
    let steps: Element = dom::by_id("lesson-steps");
    let article: Element = dom::by_id("lesson-step");
    let quiz = with_app(|app| app.state.quiz.is_some());
    dom::set_hidden(&steps, quiz);
    dom::set_hidden(&article, quiz);
    dom::set_hidden(&dom::by_id("quiz"), !quiz);
    if quiz {
        // Forget the step shown, so that leaving the check rebuilds it.
        super::with_ui(|u| &u.lesson_shown, |shown| shown.set(None));
        super::quiz::render();
        return;
    }
    let now = current().map(|(lesson, index)| (lesson.id, index));
    // With no lesson open this used to rebuild the panel on every frame of playback.
    if super::with_ui(|u| &u.lesson_shown, |shown| shown.replace(Some(now))) == Some(now) {
        render_pointers();
        return predict::render();
    }
    dom::clear(&steps);
    dom::clear(&article);
    let Some((lesson, index)) = current() else {
        return dom::stamp("tpl-lesson-none", &article);
    };
    for (i, step) in lesson.steps.iter().enumerate() {
        let button = El::new("button").attr("type", "button");
        let title = tr(step.title);
        let button = button.attr("data-step", &i.to_string()).text(title);
        // In the lesson's column the list shows step numbers only; the title is the tooltip.
        let button = button.attr("title", &idemlab_lab::tf!("Step {}: {}", i + 1, title));
        let button = if i == index {
            button.attr("aria-current", "step")
        } else {
            button
        };
        steps
            .append_child(&El::new("li").child(&button.el()).el())
            .ok();
    }
    paint_step(&article, lesson, index);
    render_pointers();
    predict::render();
}

/// The step's article, from `tpl-lesson-step`: what the step has and the nav do not need goes.
fn paint_step(article: &Element, lesson: &Lesson, index: usize) {
    let step = &lesson.steps[index];
    dom::stamp("tpl-lesson-step", article);
    let heading = idemlab_lab::tf!(
        "Step {} of {}: {}",
        index + 1,
        lesson.steps.len(),
        tr(step.title)
    );
    dom::set_text(&dom::find(article, "#lesson-heading"), &heading);
    predict::paint(article, step);
    step_text(&dom::find(article, ".step-text"), step);
    if step.pointers.is_empty() {
        dom::find(article, ".pointer-hint").remove();
    }
    let claims = dom::find(article, ".claims");
    for line in app::claim_lines(step) {
        let side = if line.side == Side::B { "b" } else { "a" };
        let item = El::new("li").attr("data-metric", line.metric.name());
        let item = item.attr("data-side", side).text(&line.text);
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
        // on every other step, and no classify button takes its place (issue 11's walk).
        super::classify::paint(article);
    }
    if step.has_ordering_exercise() {
        dom::stamp("tpl-ordering", article);
        article.append_child(&nav).ok();
        super::ordering::render();
    }
    predict::hint(&nav);
    let to = app::step_nav(lesson.steps.len(), index);
    let buttons = [("[data-previous]", to.previous), ("[data-next]", to.next)];
    for (selector, step) in buttons {
        let button = dom::find(&nav, selector);
        match step {
            Some(step) => dom::set_attr(&button, "data-step", &step.to_string()),
            None => button.remove(),
        }
    }
    let status = dom::find(article, ".quiz-status");
    if to.last {
        let text = idemlab_lab::tf!("Mastery check: {}", super::quiz::status(lesson));
        dom::set_text(&status, &text);
        article.append_child(&status).ok();
    } else {
        dom::find(&nav, "[data-quiz-start]").remove();
        status.remove();
    }
}

fn update_calculator() {
    let Some(out) = dom::document().get_element_by_id("calc-out") else {
        return;
    };
    let read = |id: &str| {
        let input = dom::document().get_element_by_id(id)?;
        let input = wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlInputElement>(input).ok()?;
        input.value().trim().parse::<u64>().ok()
    };
    let text = match (read("calc-rate"), read("calc-hours"), read("calc-bytes")) {
        (Some(rate), Some(hours), Some(bytes)) => {
            let total = idemlab_course::lessons::key_storage_bytes(
                rate,
                hours.saturating_mul(3_600),
                bytes,
            );
            idemlab_lab::tf!(
                "= {} held at any moment",
                idemlab_course::lessons::bytes_text(total)
            )
        }
        _ => idemlab_lab::t!("Enter whole numbers, 0 or more.").to_string(),
    };
    dom::set_text(&out, &text);
}
