//! Playback: play and pause, step, scrub, speed, and the keyboard shortcuts. The cursor is an
//! event index of the run in focus (A unless comparing with B in focus); counters, timelines
//! and the event table all follow it.

use idemlab_app::PlaybackMsg;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlDialogElement, KeyboardEvent};

use super::dom::{self, El};
use super::{dispatch, paint_changed, with_app, with_ui};
use idemlab_app::{self as app, KeyTarget, Msg, PlaybackFrame, Shortcut};

pub fn mount() {
    let speed = dom::select("speed");
    for (value, text) in idemlab_app::view::playback::shell().speeds {
        let option = El::new("option")
            .attr("value", &value.to_string())
            .text(&text);
        speed.append_child(&option.el()).ok();
    }
    let target = speed.clone();
    dom::listen::<Event>(&speed, "change", move |_| {
        dispatch(Msg::Playback(PlaybackMsg::SetSpeed(
            target.value().parse().unwrap_or(10),
        )));
    });
    dom::on_click("play", || dispatch(Msg::Playback(PlaybackMsg::Play)));
    dom::on_click("step-back", || {
        dispatch(Msg::Playback(PlaybackMsg::Step(-1)))
    });
    dom::on_click("step-fwd", || dispatch(Msg::Playback(PlaybackMsg::Step(1))));
    dom::on_click("to-start", || dispatch(Msg::Playback(PlaybackMsg::GoTo(0))));
    dom::on_click("to-end", || {
        dispatch(Msg::Playback(PlaybackMsg::GoTo(u32::MAX)))
    });
    let scrub = dom::input("scrub");
    let target = scrub.clone();
    dom::listen::<Event>(&scrub, "input", move |_| {
        dispatch(Msg::Playback(PlaybackMsg::GoTo(
            target.value().parse().unwrap_or(0),
        )));
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
    let chain = with_ui(|u| &u.chain, |c| c.get()) + 1;
    with_ui(|u| &u.chain, |c| c.set(chain));
    later_tick(chain);
}

fn later_tick(chain: u32) {
    let delay_ms = with_app(|app| idemlab_app::tick_ms(&app.state)) as i32;
    dom::later(delay_ms, move || tick(chain));
}

/// One step of playback; its own `Effects::tick` continues this chain rather than a new one.
fn tick(chain: u32) {
    if with_ui(|u| &u.chain, |c| c.get()) != chain {
        return;
    }
    let effects = with_app(|app| app.dispatch(Msg::Playback(PlaybackMsg::Tick)));
    let more = effects.tick;
    super::apply(idemlab_app::Effects {
        tick: false,
        ..effects
    });
    if more {
        later_tick(chain);
    }
}

/// Paints the playback bar as `app::view::playback::view` says, unless it is as last painted.
pub fn render(frame: &PlaybackFrame) {
    paint_changed(|u| &u.playback_painted, frame, |frame, _| paint(frame));
}

fn paint(frame: &PlaybackFrame) {
    let scrub = dom::input("scrub");
    scrub.set_max(&frame.scrub_max.to_string());
    scrub.set_value(&frame.scrub_value.to_string());
    dom::set_attr(&scrub, "aria-valuetext", &frame.status);
    let play: Element = dom::by_id("play");
    dom::set_text(&play, frame.play_text);
    dom::set_attr(&play, "aria-label", frame.play_label);
    dom::select("speed").set_value(&frame.speed.to_string());
    dom::set_text(&dom::by_id("cursor-label"), &frame.status);
    for id in [
        "to-start",
        "step-back",
        "play",
        "step-fwd",
        "to-end",
        "scrub",
    ] {
        dom::set_flag(&dom::by_id(id), "disabled", frame.held);
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
