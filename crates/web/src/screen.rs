//! One screen: paints `app::view::screen::view` (the lesson's column in place of the controls,
//! the controls' drawer, the A/B focus buttons, the instructor's own step) and wires their
//! buttons; the decisions are the app's.

use idemlab_app::{LessonMsg, OwnMsg, ScreenMsg};
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, KeyboardEvent};

use super::dom;
use super::{dispatch, paint_changed, with_app};
use idemlab_app::{self as app, DockToggle, Msg, OwnQuestionFrame, OwnStepFrame, ScreenFrame};
use idemlab_lab::Side;

pub fn mount() {
    dom::on_click("controls-toggle", || {
        let open = with_app(|app| app.state.drawer_open);
        dispatch(Msg::Screen(ScreenMsg::ShowControls(!open)));
    });
    dom::on_click("controls-close", || {
        dispatch(Msg::Screen(ScreenMsg::ShowControls(false)))
    });
    dom::on_click("lesson-close", || dispatch(Msg::Lesson(LessonMsg::Close)));
    for id in ["dock-toggle-a", "dock-toggle-b"] {
        dom::on_click(id, || dispatch(Msg::Screen(ScreenMsg::ToggleDock)));
    }
    // An instructor's own steps (`steps=`).
    for (id, delta) in [("own-previous", -1), ("own-next", 1)] {
        dom::on_click(id, move || {
            let at = with_app(|app| app.state.own_step.unwrap_or(0) as i64 + delta);
            dispatch(Msg::Own(OwnMsg::Open(at.max(0) as usize)));
        });
    }
    // Runs not the step's own (`OwnStepView::not_own`): open the step again, with its runs.
    dom::on_click("own-reopen", || {
        let at = with_app(|app| app.state.own_step.unwrap_or(0));
        dispatch(Msg::Own(OwnMsg::Open(at)));
    });
    // The own step's choices are rebuilt on each paint: one delegated listener serves them.
    let choices: web_sys::EventTarget = dom::by_id("own-choices");
    dom::listen::<web_sys::Event>(&choices, "click", |event| {
        let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
        let choice = target.and_then(|t| t.get_attribute("data-own-choice"));
        if let Some(choice) = choice.and_then(|c| c.parse::<usize>().ok()) {
            dispatch(Msg::Own(OwnMsg::Answer(choice)));
        }
    });
    // Free play's hint (`app::start_hint`); its "Start Lesson A" is a plain link.
    dom::on_click("start-hint-close", || dispatch(Msg::DismissHint));
    for side in ["a", "b"] {
        dom::on_click(&format!("more-{side}"), || {
            let more = with_app(|app| app.state.counters_more);
            dispatch(Msg::Screen(ScreenMsg::MoreCounters(!more)));
        });
    }
    for (id, side) in [("focus-a", Side::A), ("focus-b", Side::B)] {
        dom::on_click(id, move || {
            let msg = with_app(|app| {
                let b = app.runs.b.as_ref().map(|b| &b.trace);
                app::focus_on(&app.state, &app.runs.a.trace, b, side)
            });
            dispatch(msg);
        });
    }
    // Escape closes the drawer wherever the focus is, a field inside it included.
    let document: web_sys::EventTarget = dom::document().unchecked_into();
    dom::listen::<KeyboardEvent>(&document, "keydown", |event| {
        if event.key() == "Escape" && with_app(|app| app.state.drawer_open) {
            event.prevent_default();
            dispatch(Msg::Screen(ScreenMsg::ShowControls(false)));
        }
    });
}

/// Paints the arrangement as `app::view::screen::view` says, unless it is as last painted.
pub fn render(frame: &ScreenFrame) {
    paint_changed(|u| &u.screen_painted, frame, |frame, _| paint(frame));
}

fn paint(frame: &ScreenFrame) {
    mark_current_lesson(frame.current_lesson);
    paint_own_step(frame.own_step.as_ref());
    dom::set_hidden(&dom::by_id("start-hint"), !frame.start_hint);
    paint_dock_toggles(&frame.dock_toggle);
    dom::set_hidden(&dom::by_id("lesson-close"), !frame.close_lesson);
    let root: Element = dom::by_id("app");
    for (class, on) in frame.classes {
        root.class_list().toggle_with_force(class, on).ok();
    }
    place_lesson_panel(frame.lesson_column);
    dom::set_hidden(&dom::by_id("lesson-column"), !frame.lesson_column);
    let controls: Element = dom::by_id("controls");
    dom::set_hidden(&controls, !frame.controls_shown);
    let toggle: Element = dom::by_id("controls-toggle");
    dom::set_hidden(&toggle, !frame.drawer_toggle);
    let expanded = if frame.drawer_open { "true" } else { "false" };
    dom::set_attr(&toggle, "aria-expanded", expanded);
    dom::set_hidden(&dom::by_id("focus-toggle"), !frame.focus_toggle);
    for (id, side) in [("focus-a", Side::A), ("focus-b", Side::B)] {
        let pressed = if frame.focus == side { "true" } else { "false" };
        dom::set_attr(&dom::by_id(id), "aria-pressed", pressed);
    }
}

/// The picker's button of the open lesson is `aria-current`; in the lesson's column it is the
/// only one shown, as the lesson's title (the others are a "Close lesson" away).
fn mark_current_lesson(open: Option<&str>) {
    let Ok(buttons) = dom::by_id::<Element>("lesson-picker").query_selector_all("[data-lesson]")
    else {
        return;
    };
    for button in (0..buttons.length()).filter_map(|i| buttons.item(i)) {
        let button: Element = button.unchecked_into();
        let id = button.get_attribute("data-lesson");
        let current = open.is_some() && id.as_deref() == open;
        dom::set_flag(&button, "aria-current", current);
    }
}

/// The Lessons tab's panel lives in the tabs while no lesson is open (its picker), and in the
/// lesson's column once one is: moved, not copied, so its listeners and state go with it.
fn place_lesson_panel(in_column: bool) {
    let panel: Element = dom::by_id("panel-lessons");
    let home: Element = if in_column {
        dom::by_id("lesson-column")
    } else {
        dom::by_id("tabs")
    };
    let placed = panel
        .parent_element()
        .is_some_and(|parent| parent.is_same_node(Some(&home)));
    if placed {
        return;
    }
    home.append_child(&panel).ok();
    if in_column {
        panel.remove_attribute("role").ok();
    } else {
        dom::set_attr(&panel, "role", "tabpanel");
    }
}

/// The drawer opened: its first field takes the focus, so the keyboard is where the eye is.
pub(super) fn focus_drawer() {
    let first = dom::by_id::<Element>("controls")
        .query_selector("select, input, button:not(#controls-close)")
        .ok()
        .flatten();
    if let Some(first) = first.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        first.focus().ok();
    }
}

/// The drawer closed: the focus goes back to the button that opens it.
pub(super) fn focus_toggle() {
    dom::by_id::<HtmlElement>("controls-toggle").focus().ok();
}

/// The instructor's own step: its heading, caption and counts, as text.
fn paint_own_step(frame: Option<&OwnStepFrame>) {
    let section: Element = dom::by_id("own-step");
    dom::set_hidden(&section, frame.is_none());
    let Some(frame) = frame else {
        return;
    };
    dom::set_text(&dom::by_id::<Element>("own-heading"), &frame.heading);
    dom::set_text(&dom::by_id::<Element>("own-caption"), &frame.caption);
    let list: Element = dom::by_id("own-checks");
    dom::clear(&list);
    for line in &frame.checks {
        list.append_child(&dom::El::new("li").text(line).el()).ok();
    }
    let note_el: Element = dom::by_id("own-note");
    dom::set_text(&note_el, frame.note.as_deref().unwrap_or(""));
    dom::set_hidden(&note_el, frame.note.is_none());
    dom::set_hidden(&dom::by_id("own-reopen"), !frame.reopen);
    dom::set_hidden(&dom::by_id("own-previous"), !frame.previous);
    dom::set_hidden(&dom::by_id("own-next"), !frame.next);
    paint_own_question(frame.question.as_ref());
}

/// The own step's question: its choices until answered, then the feedback in their place.
fn paint_own_question(frame: Option<&OwnQuestionFrame>) {
    dom::set_hidden(&dom::by_id("own-question"), frame.is_none());
    let Some(frame) = frame else {
        return;
    };
    dom::set_text(&dom::by_id::<Element>("own-question-text"), &frame.text);
    let group: Element = dom::by_id("own-choices");
    dom::clear(&group);
    dom::set_hidden(&group, frame.choices_hidden);
    for (i, choice) in frame.choices.iter().enumerate() {
        let button = dom::El::new("button").attr("type", "button");
        let button = button.attr("data-own-choice", &i.to_string()).text(choice);
        group.append_child(&button.el()).ok();
    }
    let feedback: HtmlElement = dom::by_id("own-feedback");
    let was = feedback.text_content().unwrap_or_default();
    dom::set_text(&feedback, &frame.feedback);
    // The answer is in: its feedback takes the focus, as a lesson step's does.
    if was.is_empty() && !frame.feedback.is_empty() {
        feedback.focus().ok();
    }
}

/// Each run's dock button (the stylesheet shows the focused run's, on a phone only): there
/// when the timeline may dock, saying what a press does.
fn paint_dock_toggles(toggle: &DockToggle) {
    for id in ["dock-toggle-a", "dock-toggle-b"] {
        let button: Element = dom::by_id(id);
        dom::set_hidden(&button, !toggle.shown);
        dom::set_text(&button, toggle.text);
        dom::set_attr(&button, "aria-label", toggle.label);
    }
}
