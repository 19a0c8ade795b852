//! Playback: play and pause, step, scrub, speed, and the keyboard shortcuts. The cursor is an
//! event index of run A; counters, timelines and the event table all follow it.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlDialogElement, KeyboardEvent};

use super::dom::{self, El};
use super::with_app;
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
        let value: u32 = target.value().parse().unwrap_or(10);
        with_app(|app| app.page.speed = value);
        super::render();
    });
    dom::on_click("play", toggle_play);
    dom::on_click("step-back", || step(-1));
    dom::on_click("step-fwd", || step(1));
    dom::on_click("to-start", || go_to(0));
    dom::on_click("to-end", || go_to(usize::MAX));
    let scrub = dom::input("scrub");
    let target = scrub.clone();
    dom::listen::<Event>(&scrub, "input", move |_| {
        go_to(target.value().parse().unwrap_or(0));
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

/// Moves the cursor to event `index` (clamped); the last event means "no cursor".
fn go_to(index: usize) {
    with_app(|app| {
        let last = app.a.trace.events.len().saturating_sub(1);
        app.page.cursor = (index < last).then_some(index as u32);
    });
    super::render();
}

fn step(delta: i64) {
    let index = with_app(|app| {
        app.playing = false;
        app.cursor() as i64 + delta
    });
    go_to(index.max(0) as usize);
}

fn toggle_play() {
    let start = with_app(|app| {
        app.playing = !app.playing;
        // Playing from the end starts over, as a video player does.
        if app.playing && app.page.cursor.is_none() {
            app.page.cursor = Some(0);
        }
        app.playing
    });
    super::render();
    if start {
        // A new chain of ticks; one still pending from before a pause finds itself outdated.
        let chain = CHAIN.with(|c| {
            c.set(c.get() + 1);
            c.get()
        });
        schedule_tick(chain);
    }
}

thread_local! {
    /// The current chain of playback ticks; pause-then-play must not leave two running.
    static CHAIN: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

fn schedule_tick(chain: u32) {
    let delay_ms = with_app(|app| 1_000 / app.page.speed.max(1)) as i32;
    dom::later(delay_ms, move || tick(chain));
}

fn tick(chain: u32) {
    if CHAIN.with(|c| c.get()) != chain {
        return;
    }
    let playing = with_app(|app| {
        if !app.playing {
            return false;
        }
        let next = app.cursor() + 1;
        let last = app.a.trace.events.len().saturating_sub(1);
        app.page.cursor = (next < last).then_some(next as u32);
        app.playing = next < last;
        app.playing
    });
    super::render();
    if playing {
        schedule_tick(chain);
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
            app.playing,
            app.page.speed,
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
            toggle_play();
            true
        }
        "ArrowLeft" => {
            step(-1);
            true
        }
        "ArrowRight" => {
            step(1);
            true
        }
        "Home" => {
            go_to(0);
            true
        }
        "End" => {
            go_to(usize::MAX);
            true
        }
        "n" | "N" if with_app(|app| app.page.control_open("seed")) => {
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
