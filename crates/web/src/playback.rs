//! Playback: play and pause, step, scrub, speed, and the keyboard shortcuts. The cursor is an
//! event index of the run in focus (A unless comparing with B in focus); counters, timelines
//! and the event table all follow it.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlDialogElement, KeyboardEvent};

use super::dom::{self, El};
use super::{dispatch, with_app};
use idemlab_app::page::SPEEDS;
use idemlab_app::{self as app, KeyTarget, Msg, Shortcut};

pub fn mount() {
    let speed = dom::select("speed");
    for s in SPEEDS {
        speed
            .append_child(
                &El::new("option")
                    .attr("value", &s.to_string())
                    .text(&idemlab_lab::tf!("{}/s", s))
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
        // Its heading, not its first control (the help's first is a link that leaves the
        // page): not by `autofocus`, which a cross-origin frame refuses with an error.
        let heading = dialog.query_selector("h2[tabindex]").ok().flatten();
        if let Some(heading) = heading.and_then(|h| h.dyn_into::<web_sys::HtmlElement>().ok()) {
            heading.focus().ok();
        }
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
    let effects = with_app(|app| app.dispatch(Msg::Tick));
    let more = effects.tick;
    super::apply(idemlab_app::Effects {
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
        let label = app::status_line(&app.state, &app.lead().trace);
        (
            cursor,
            app.lead().trace.events.len(),
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
    let text = if playing {
        idemlab_lab::t!("❚❚ Pause")
    } else {
        idemlab_lab::t!("▶ Play")
    };
    dom::set_text(&play, text);
    play.set_attribute(
        "aria-label",
        if playing {
            idemlab_lab::t!("Pause (space)")
        } else {
            idemlab_lab::t!("Play (space)")
        },
    )
    .ok();
    dom::select("speed").set_value(&speed.to_string());
    dom::set_text(&dom::by_id("cursor-label"), &label);
    // A lesson step's run waits at its first event for the prediction (`app::predict`).
    let held = with_app(|app| app.state.awaiting());
    for id in [
        "to-start",
        "step-back",
        "play",
        "step-fwd",
        "to-end",
        "scrub",
    ] {
        dom::set_flag(&dom::by_id(id), "disabled", held);
    }
}

/// Keyboard shortcuts, as `app::shortcut` maps them.
fn shortcut(event: KeyboardEvent) {
    let modified = event.ctrl_key() || event.meta_key() || event.alt_key();
    let target = key_target(&event);
    let shortcut = with_app(|app| app::shortcut_for(&app.state, &event.key(), modified, target));
    let Some(shortcut) = shortcut else {
        return;
    };
    if shortcut == Shortcut::HideTooltip {
        // Escape keeps its other meanings (a term's definition, the drawer): no default stopped.
        return super::runs::hide_tooltips();
    }
    event.prevent_default();
    let seed_before = with_app(|app| app.state.page.scenario.seed);
    match shortcut.clone() {
        Shortcut::Msg(msg) => dispatch(msg),
        Shortcut::NewSeed => super::controls::new_seed(),
        Shortcut::CopyLink => super::export::copy_link(),
        Shortcut::Help => show_dialog("help-dialog"),
        Shortcut::ZoomBy(factor) => super::runs::zoom_by(factor),
        Shortcut::HideTooltip => {}
    }
    // After the paint, whose own announcement this replaces: the key's effect is the news.
    if let Some(said) = with_app(|app| app::shortcut_said(&shortcut, seed_before, &app.state)) {
        dom::by_id::<Element>("announce").set_text_content(Some(&said));
    }
}

/// What the key's target is, for `app::shortcut`: its tag, type and role, as `app::key_target`
/// sorts them.
fn key_target(event: &KeyboardEvent) -> KeyTarget {
    let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
        return KeyTarget::Page;
    };
    let in_dialog = target.closest("dialog").ok().flatten().is_some();
    let attr = |name: &str| target.get_attribute(name).unwrap_or_default();
    let tag = target.tag_name().to_ascii_lowercase();
    app::key_target(&tag, &attr("type"), &attr("role"), in_dialog)
}
