//! Playback: play and pause, step, scrub, speed, and the keyboard shortcuts. The cursor is an
//! event index of run A; counters, timelines and the event table all follow it.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlDialogElement, KeyboardEvent};

use super::dom::{self, El};
use super::{dispatch, with_app};
use crate::app::Msg;
use crate::page::SPEEDS;

pub fn mount() {
    let speed = dom::select("speed");
    for s in SPEEDS {
        speed
            .append_child(
                &El::new("option")
                    .attr("value", &s.to_string())
                    .text(&format!("{s}/s"))
                    .el(),
            )
            .ok();
    }
    let target = speed.clone();
    dom::listen::<Event>(&speed, "change", move |_| {
        dispatch(Msg::SetSpeed(target.value().parse().unwrap_or(10)));
    });
    dom::on_click("play", || dispatch(Msg::Play));
    dom::on_click("step-back", || dispatch(Msg::Step(-1)));
    dom::on_click("step-fwd", || dispatch(Msg::Step(1)));
    dom::on_click("to-start", || dispatch(Msg::GoTo(0)));
    dom::on_click("to-end", || dispatch(Msg::GoTo(u32::MAX)));
    let scrub = dom::input("scrub");
    let target = scrub.clone();
    dom::listen::<Event>(&scrub, "input", move |_| {
        dispatch(Msg::GoTo(target.value().parse().unwrap_or(0)));
    });
    let document: web_sys::EventTarget = dom::document().unchecked_into();
    dom::listen::<KeyboardEvent>(&document, "keydown", shortcut);
    dom::on_click("help-open", || show_dialog("help-dialog"));
    dom::on_click("help-close", || close_dialog("help-dialog"));
}

pub fn show_dialog(id: &str) {
    let dialog: HtmlDialogElement = dom::by_id(id);
    if !dialog.open() {
        dialog.show_modal().ok();
    }
}

pub fn close_dialog(id: &str) {
    dom::by_id::<HtmlDialogElement>(id).close();
}

/// Starts a new chain of ticks (`Effects::tick` on play); one still pending from before a
/// pause finds itself outdated.
pub fn schedule_tick() {
    let chain = super::with_ui(|u| &u.chain, |c| c.get()) + 1;
    super::with_ui(|u| &u.chain, |c| c.set(chain));
    later_tick(chain);
}

fn later_tick(chain: u32) {
    let delay_ms = with_app(|app| 1_000 / app.page().speed.max(1)) as i32;
    dom::later(delay_ms, move || tick(chain));
}

/// One step of playback; its own `Effects::tick` continues this chain rather than a new one.
fn tick(chain: u32) {
    if super::with_ui(|u| &u.chain, |c| c.get()) != chain {
        return;
    }
    let effects = with_app(|app| crate::app::update(&mut app.state, Msg::Tick));
    let more = effects.tick;
    super::apply(crate::app::Effects {
        tick: false,
        ..effects
    });
    if more {
        later_tick(chain);
    }
}

pub fn render() {
    let (cursor, count, playing, speed, label) = with_app(|app| {
        let cursor = app.cursor();
        let event = app.a.trace.events.get(cursor);
        let mut label = match event {
            Some(e) => format!(
                "event {} of {} · {} · ",
                cursor + 1,
                app.a.trace.events.len(),
                crate::view::ms_text(e.time_us)
            ),
            None => "no events".into(),
        };
        if let Some(e) = event {
            let _ = crate::trace::describe(&mut label, &e.kind, &app.a.trace);
        }
        (
            cursor,
            app.a.trace.events.len(),
            app.state.playing,
            app.page().speed,
            label,
        )
    });
    let scrub = dom::input("scrub");
    scrub.set_max(&count.saturating_sub(1).to_string());
    scrub.set_value(&cursor.to_string());
    scrub.set_attribute("aria-valuetext", &label).ok();
    let play: Element = dom::by_id("play");
    dom::set_text(&play, if playing { "❚❚ Pause" } else { "▶ Play" });
    play.set_attribute(
        "aria-label",
        if playing {
            "Pause (space)"
        } else {
            "Play (space)"
        },
    )
    .ok();
    dom::select("speed").set_value(&speed.to_string());
    dom::set_text(&dom::by_id("cursor-label"), &label);
}

/// Keyboard shortcuts, except while typing in a field.
fn shortcut(event: KeyboardEvent) {
    if typing(&event) || event.ctrl_key() || event.meta_key() || event.alt_key() {
        return;
    }
    let handled = match event.key().as_str() {
        " " => {
            dispatch(Msg::Play);
            true
        }
        "ArrowLeft" => {
            dispatch(Msg::Step(-1));
            true
        }
        "ArrowRight" => {
            dispatch(Msg::Step(1));
            true
        }
        "Home" => {
            dispatch(Msg::GoTo(0));
            true
        }
        "End" => {
            dispatch(Msg::GoTo(u32::MAX));
            true
        }
        "n" | "N" if with_app(|app| app.page().control_open("seed")) => {
            super::controls::new_seed();
            true
        }
        "l" | "L" => {
            super::export::copy_link();
            true
        }
        "?" => {
            show_dialog("help-dialog");
            true
        }
        key => super::runs::keyboard_zoom(key),
    };
    if handled {
        event.prevent_default();
    }
}

/// True when the key belongs to the focused element: typing in a field, or Space and Enter on
/// a button (which press it). Arrow keys on a button still move the cursor.
fn typing(event: &KeyboardEvent) -> bool {
    let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return false;
    };
    let tag = target.tag_name().to_ascii_lowercase();
    let presses = matches!(event.key().as_str(), " " | "Enter");
    matches!(tag.as_str(), "input" | "select" | "textarea")
        || (presses && matches!(tag.as_str(), "button" | "summary" | "tr"))
        || target.closest("dialog").ok().flatten().is_some()
}
