//! The Lessons tab: each step sets its scenario (and its fix as configuration B), says what to
//! look for, and lists the counts it promises, which the counters above then show. The step is
//! part of the permalink (`lesson=a&step=3`), so an instructor can link to any of them.

use web_sys::{Element, Event};

use super::dom::{self, El};
use super::with_app;
use crate::lessons::{Lesson, Side, LESSONS};
use crate::scenario::decode_lenient;

pub fn mount() {
    let panel: Element = dom::by_id("panel-lessons");
    let picker = LESSONS.iter().fold(
        El::new("div")
            .class("lesson-picker")
            .attr("role", "group")
            .attr("aria-label", "Lessons"),
        |div, lesson| {
            div.child(
                &El::new("button")
                    .attr("type", "button")
                    .attr("data-lesson", lesson.id)
                    .text(&format!(
                        "Lesson {}: {}",
                        lesson.id.to_uppercase(),
                        lesson.title
                    ))
                    .el(),
            )
        },
    );
    panel.append_child(&picker.el()).ok();
    panel
        .append_child(
            &El::new("ol")
                .attr("id", "lesson-steps")
                .class("lesson-steps")
                .el(),
        )
        .ok();
    panel
        .append_child(
            &El::new("article")
                .attr("id", "lesson-step")
                .class("lesson-step")
                .attr("aria-live", "polite")
                .el(),
        )
        .ok();
    super::quiz::mount(&panel);
    dom::listen::<Event>(&panel, "click", on_click);
    dom::listen::<web_sys::KeyboardEvent>(&panel, "keydown", on_pointer_key);
    dom::listen::<Event>(&panel, "input", |_| update_calculator());
    open_linked_step();
}

/// A link that names a lesson step but no scenario of its own opens that step's scenario.
/// A link with `quiz=` opens the tab on the mastery check instead.
fn open_linked_step() {
    let search = dom::window().location().search().unwrap_or_default();
    let names_scenario = search.contains("seed=") || search.contains("preset=");
    if super::quiz::active() {
        with_app(|app| app.page.tab = "lessons".into());
    } else if let Some((lesson, step)) = current() {
        if !names_scenario {
            // Opening the step must not hide what the link got wrong (a bad `quiz=`, say).
            let errors = with_app(|app| std::mem::take(&mut app.errors));
            go(lesson, step);
            with_app(|app| app.errors = errors);
        }
    }
}

fn on_click(event: Event) {
    let Some(target) = event
        .target()
        .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
    else {
        return;
    };
    if target.has_attribute("data-quiz-start") {
        if let Some((lesson, _)) = current() {
            super::quiz::start(lesson);
        }
    } else if let Some(id) = target.get_attribute("data-lesson") {
        if let Some(lesson) = Lesson::by_id(&id) {
            go(lesson, 0);
        }
    } else if let Some(pointer) = target
        .get_attribute("data-pointer")
        .and_then(|s| s.parse::<usize>().ok())
    {
        toggle_pointer(pointer);
    } else if let Some(step) = target
        .get_attribute("data-step")
        .and_then(|s| s.parse::<usize>().ok())
    {
        if let Some((lesson, _)) = current() {
            FOCUS_HEADING.with(|focus| focus.set(true));
            go(lesson, step);
        }
    }
}

/// The lesson and step index named by the page's `lesson=` and `step=` keys.
pub fn current() -> Option<(&'static Lesson, usize)> {
    with_app(|app| {
        let get = |key: &str| {
            app.page
                .extra
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.clone())
        };
        let lesson = Lesson::by_id(&get("lesson")?)?;
        let step = get("step")
            .and_then(|s| s.parse::<usize>().ok())
            .unwrap_or(1)
            .clamp(1, lesson.steps.len());
        Some((lesson, step - 1))
    })
}

/// Opens step `index` of `lesson`: its scenario, its fix as B, and the Lessons tab. Leaves
/// any mastery check (`quiz=`).
pub(super) fn go(lesson: &'static Lesson, index: usize) {
    let index = index.min(lesson.steps.len() - 1);
    let step = &lesson.steps[index];
    with_app(|app| {
        app.page.scenario = decode_lenient(step.query).0.scenario;
        app.page.compare = step.compare.map(String::from);
        app.page.tab = "lessons".into();
        app.page
            .extra
            .retain(|(k, _)| k != "lesson" && k != "step" && k != "quiz");
        app.page.extra.push(("lesson".into(), lesson.id.into()));
        app.page
            .extra
            .push(("step".into(), (index + 1).to_string()));
        app.errors.clear();
        app.highlight = None;
    });
    super::refresh();
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
        toggle_pointer(pointer);
    }
}

/// Outlines the marks a phrase of the current step names, or stops if it already does.
fn toggle_pointer(index: usize) {
    let Some((lesson, step)) = current() else {
        return;
    };
    let Some(pointer) = lesson.steps[step].pointers.get(index) else {
        return;
    };
    let wanted = Some((pointer.side, pointer.find));
    let status = with_app(|app| {
        app.highlight = if app.highlight == wanted {
            None
        } else {
            wanted
        };
        app.highlight.map(|(side, find)| {
            let run = match side {
                Side::A => Some(&app.a),
                Side::B => app.b.as_ref(),
            };
            let count = run.map_or(0, |run| {
                (run.timeline.marks().iter())
                    .filter(|mark| find.matches(mark))
                    .count()
            });
            let on = if app.b.is_some() {
                format!(" on timeline {side:?}")
            } else {
                String::new()
            };
            format!("{} outlined{on}.", find.count_text(count))
        })
    });
    mark_pressed(index, status.is_some());
    dom::set_text(&dom::by_id("pointer-status"), &status.unwrap_or_default());
    super::render();
    if let Some((side, _)) = with_app(|app| app.highlight) {
        show_timeline(side);
    }
}

/// Scrolls the outlined timeline into view when any of it is off-screen: the step's text sits
/// below the timelines, so the marks a phrase names are often above the window.
fn show_timeline(side: Side) {
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

fn mark_pressed(index: usize, on: bool) {
    let article: Element = dom::by_id("lesson-step");
    for i in 0.. {
        let selector = format!("[data-pointer=\"{i}\"]");
        let Ok(Some(button)) = article.query_selector(&selector) else {
            break;
        };
        let pressed = on && i == index;
        button
            .set_attribute("aria-pressed", if pressed { "true" } else { "false" })
            .ok();
    }
}

/// The step's text, with each pointer phrase as a button that outlines what it names.
fn step_text(step: &crate::lessons::Step) -> Element {
    let mut paragraph = El::new("p").class("step-text");
    let mut rest = step.text;
    for (index, pointer) in step.pointers.iter().enumerate() {
        let Some(at) = rest.find(pointer.phrase) else {
            continue;
        };
        // A span, not a <button>: a button cannot wrap across lines inside a sentence.
        let button = El::new("span")
            .attr("role", "button")
            .attr("tabindex", "0")
            .class("pointer")
            .attr("data-pointer", &index.to_string())
            .attr("aria-pressed", "false")
            .attr("title", "Outline what this names on the timeline")
            .text(pointer.phrase);
        paragraph = paragraph.append_text(&rest[..at]).child(&button.el());
        rest = &rest[at + pointer.phrase.len()..];
    }
    paragraph.append_text(rest).el()
}

thread_local! {
    /// The step the panel shows, so that it is rebuilt only when the step changes, not on
    /// every frame of playback (and the calculator keeps what the learner typed).
    /// `None` until the panel is first built; then the step it shows, if any.
    static SHOWN: std::cell::Cell<Option<Option<(&'static str, usize)>>> = const { std::cell::Cell::new(None) };
    /// Set when the learner moved to another step, so the new step's heading takes the focus
    /// (and scrolls into view); a step opened by a link leaves the page where it loads.
    static FOCUS_HEADING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

pub fn render() {
    let steps: Element = dom::by_id("lesson-steps");
    let article: Element = dom::by_id("lesson-step");
    let quiz = super::quiz::active();
    dom::set_hidden(&steps, quiz);
    dom::set_hidden(&article, quiz);
    dom::set_hidden(&dom::by_id("quiz"), !quiz);
    if quiz {
        // Forget the step shown, so that leaving the check rebuilds it.
        SHOWN.with(|shown| shown.set(None));
        super::quiz::render();
        return;
    }
    let now = current().map(|(lesson, index)| (lesson.id, index));
    // With no lesson open this used to rebuild the panel on every frame of playback.
    if SHOWN.with(|shown| shown.replace(Some(now))) == Some(now) {
        return;
    }
    with_app(|app| app.highlight = None);
    dom::clear(&steps);
    dom::clear(&article);
    let Some((lesson, index)) = current() else {
        article.append_child(&El::new("p").text("Pick a lesson. Each step sets up a situation on the timeline above and says what to look for.").el()).ok();
        return;
    };
    for (i, step) in lesson.steps.iter().enumerate() {
        let button = El::new("button")
            .attr("type", "button")
            .attr("data-step", &i.to_string())
            .text(step.title);
        let button = if i == index {
            button.attr("aria-current", "step")
        } else {
            button
        };
        steps
            .append_child(&El::new("li").child(&button.el()).el())
            .ok();
    }
    let step = &lesson.steps[index];
    article
        .append_child(
            &El::new("h3")
                .attr("id", "lesson-heading")
                .attr("tabindex", "-1")
                .text(&format!(
                    "Step {} of {}: {}",
                    index + 1,
                    lesson.steps.len(),
                    step.title
                ))
                .el(),
        )
        .ok();
    article.append_child(&step_text(step)).ok();
    if FOCUS_HEADING.with(|focus| focus.replace(false)) {
        let heading: web_sys::HtmlElement = dom::by_id("lesson-heading");
        heading.focus().ok();
    }
    article
        .append_child(
            &El::new("p")
                .attr("id", "pointer-status")
                .class("pointer-status")
                .attr("aria-live", "polite")
                .el(),
        )
        .ok();
    if !step.pointers.is_empty() {
        article
            .append_child(
                &El::new("p")
                    .class("look-for")
                    .text("Click an underlined phrase to outline what it names on the timeline.")
                    .el(),
            )
            .ok();
    }
    let look = step
        .claims
        .iter()
        .fold(El::new("ul").class("claims"), |ul, claim| {
            let side = match (claim.side, step.compare) {
                (Side::A, Some(_)) => "A",
                (Side::A, None) => "the run",
                (Side::B, _) => "B",
            };
            ul.child(
                &El::new("li")
                    .text(&format!("{}: {} = {}", side, claim.metric, claim.value))
                    .el(),
            )
        });
    article
        .append_child(
            &El::new("p")
                .class("look-for")
                .text("Check on the counters (as the step opens; click its title in the list to reopen it):")
                .el(),
        )
        .ok();
    article.append_child(&look.el()).ok();
    if step.calculator {
        article.append_child(&calculator()).ok();
        update_calculator();
    }
    if step.has_ordering_exercise() {
        article.append_child(&super::ordering::exercise()).ok();
    }
    let nav = El::new("div").class("lesson-nav");
    let nav = if index > 0 {
        nav.child(
            &El::new("button")
                .attr("type", "button")
                .attr("data-step", &(index - 1).to_string())
                .text("← Previous step")
                .el(),
        )
    } else {
        nav
    };
    let nav = if index + 1 < lesson.steps.len() {
        nav.child(
            &El::new("button")
                .attr("type", "button")
                .attr("data-step", &(index + 1).to_string())
                .text("Next step →")
                .el(),
        )
    } else {
        nav.child(
            &El::new("button")
                .attr("type", "button")
                .attr("data-quiz-start", "")
                .text("Take the mastery check →")
                .el(),
        )
    };
    article.append_child(&nav.el()).ok();
    if index + 1 == lesson.steps.len() {
        let status = format!("Mastery check: {}", super::quiz::status(lesson));
        article
            .append_child(&El::new("p").class("quiz-status").text(&status).el())
            .ok();
    }
}

/// Inputs for rate, retention and entry size; the storage they need is computed by the core.
const CALCULATOR: [(&str, &str, &str); 3] = [
    (
        "calc-rate",
        "New operations (new keys) per second; retries add none",
        "10000",
    ),
    ("calc-hours", "Keys kept for (hours)", "24"),
    (
        "calc-bytes",
        "Bytes per entry (key plus stored response)",
        "1000",
    ),
];

fn calculator() -> Element {
    let legend = El::new("legend")
        .text("How much storage do the keys need?")
        .el();
    let form = El::new("fieldset").class("calculator").child(&legend);
    let form = CALCULATOR.iter().fold(form, |form, (id, label, value)| {
        let input = El::new("input")
            .attr("id", id)
            .attr("type", "number")
            .attr("min", "0")
            .attr("value", value);
        form.child(&El::new("label").text(label).child(&input.el()).el())
    });
    form.child(
        &El::new("output")
            .attr("id", "calc-out")
            .attr("aria-live", "polite")
            .el(),
    )
    .el()
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
            let total = crate::lessons::key_storage_bytes(rate, hours.saturating_mul(3_600), bytes);
            format!("= {} held at any moment", crate::lessons::bytes_text(total))
        }
        _ => "Enter whole numbers, 0 or more.".to_string(),
    };
    dom::set_text(&out, &text);
}
