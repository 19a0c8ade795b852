//! What a key press or a pointer gesture on the page means: the keyboard shortcut map (and
//! when a key belongs to the focused element instead), and the geometry of a zoom, a pan or a
//! wheel turn on the timeline. The browser measures and reports; these decide.

use super::Msg;
use crate::{PlaybackMsg, ScenarioMsg, ScreenMsg};
use idemlab_lab::view::Viewport;
use idemlab_lab::Side;

/// What has keyboard focus when a key goes down, as far as the shortcuts care.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyTarget {
    /// The page itself or an element that takes no keys (a canvas, a link, a heading).
    Page,
    /// An `input`, `select` or `textarea`: every key types.
    Field,
    /// A control that uses Space, Enter and the arrows itself: a button, a tab, a lesson phrase,
    /// the event list, an ordering item, a checkbox (`access::key_target`).
    Pressable,
    /// Anything inside an open dialog (the help): its own keys only.
    Dialog,
}

/// A shortcut's meaning. Most are a `Msg`; the rest need the browser first (a random seed, the
/// clipboard, the dialog, the measured width).
#[derive(Clone, Debug, PartialEq)]
pub enum Shortcut {
    Msg(Msg),
    /// `n`: a new seed (the browser picks it), only while the seed control is open.
    NewSeed,
    /// `l`: copy the permalink.
    CopyLink,
    /// `?`: the keyboard help.
    Help,
    /// `+`/`-`: zoom by this factor about the cursor (`zoom_about`).
    ZoomBy(f64),
    /// Escape: close the timeline's tooltip (WCAG 1.4.13).
    HideTooltip,
}

/// The shortcut for `key` (a `KeyboardEvent.key`), or `None` when the key is not a shortcut,
/// carries a modifier (Ctrl, Meta or Alt: the browser's and the system's keys), or belongs to
/// the focused element: a field types every key; a control (`Pressable`) keeps Space, Enter,
/// the arrows, Home and End, so they never move the cursor from a button, a tab, a row or a
/// phrase. `N` is a shortcut even with the seed locked: `update` then refuses the new seed and
/// says which lock refused it. Escape closes the tooltip from anywhere but a dialog.
pub fn shortcut(key: &str, modified: bool, target: KeyTarget) -> Option<Shortcut> {
    let own = matches!(
        key,
        " " | "Enter" | "ArrowLeft" | "ArrowRight" | "ArrowUp" | "ArrowDown" | "Home" | "End"
    );
    let typing = match target {
        KeyTarget::Page => false,
        KeyTarget::Field | KeyTarget::Dialog => true,
        KeyTarget::Pressable => own,
    };
    if key == "Escape" && target != KeyTarget::Dialog {
        return Some(Shortcut::HideTooltip);
    }
    if typing || modified {
        return None;
    }
    Some(match key {
        " " => Shortcut::Msg(Msg::Playback(PlaybackMsg::Play)),
        "ArrowLeft" => Shortcut::Msg(Msg::Playback(PlaybackMsg::Step(-1))),
        "ArrowRight" => Shortcut::Msg(Msg::Playback(PlaybackMsg::Step(1))),
        "Home" => Shortcut::Msg(Msg::Playback(PlaybackMsg::GoTo(0))),
        "End" => Shortcut::Msg(Msg::Playback(PlaybackMsg::GoTo(u32::MAX))),
        "n" | "N" => Shortcut::NewSeed,
        "l" | "L" => Shortcut::CopyLink,
        "?" => Shortcut::Help,
        "+" | "=" => Shortcut::ZoomBy(2.0),
        "-" | "_" => Shortcut::ZoomBy(0.5),
        "0" => Shortcut::Msg(Msg::Playback(PlaybackMsg::Zoom(None))),
        _ => return None,
    })
}

/// `shortcut` under the learner's setting (`State::shortcuts_off`, kept with the progress):
/// off, no character key (a letter, digit, symbol or Space) is a shortcut (WCAG 2.1.4); the
/// arrows, Home, End and Escape still are where `shortcut` allows them.
pub fn shortcut_for(
    state: &super::State,
    key: &str,
    modified: bool,
    target: KeyTarget,
) -> Option<Shortcut> {
    let character = key.chars().count() == 1;
    if state.shortcuts_off && character {
        return None;
    }
    shortcut(key, modified, target)
}

/// What a shortcut that changes the view without moving focus says once it acted (else N
/// replaces the run in silence for a screen reader): the new seed, when it changed
/// (`seed_before`; a refused one is said by the banner), or the zoom. The playback keys are
/// said by the announcer, Help by its dialog, Copy link by its own note.
pub fn shortcut_said(
    shortcut: &Shortcut,
    seed_before: u64,
    state: &super::State,
) -> Option<String> {
    let seed = state.page.scenario.seed;
    match shortcut {
        Shortcut::NewSeed if seed != seed_before => {
            Some(idemlab_lab::tf!("New seed {}: a new run.", seed))
        }
        Shortcut::ZoomBy(factor) if *factor > 1.0 => Some(idemlab_lab::t!("Zoomed in.").into()),
        Shortcut::ZoomBy(_) => Some(idemlab_lab::t!("Zoomed out.").into()),
        Shortcut::Msg(Msg::Playback(PlaybackMsg::Zoom(None))) => {
            Some(idemlab_lab::t!("Zoomed to fit the whole run.").into())
        }
        _ => None,
    }
}

/// Zooms `viewport` by `factor` keeping the cursor's time where it is on screen.
pub fn zoom_about(viewport: Viewport, cursor_us: u64, factor: f64) -> Msg {
    let anchor_px = viewport.x_px(cursor_us);
    window_msg(viewport.zoom(factor, anchor_px))
}

/// A wheel turn at `offset_x_px` from the canvas's left edge (the gutter included): down
/// (positive `delta_y`) zooms out, as in maps and editors, about the time under the pointer.
pub fn wheel_zoom(viewport: Viewport, delta_y: f64, offset_x_px: f64) -> Msg {
    let factor = if delta_y > 0.0 { 0.8 } else { 1.25 };
    let anchor_px = (offset_x_px - idemlab_lab::view::GUTTER_PX).max(0.0);
    window_msg(viewport.zoom(factor, anchor_px))
}

/// Below this many pixels a press and release is a click, not a drag.
pub const DRAG_MIN_PX: f64 = 3.0;

/// A drag `dx_px` to the right of where it started on `start`: the content follows the
/// pointer, so the window moves left. `None` while the drag is still a click.
pub fn pan(start: Viewport, dx_px: f64) -> Option<Msg> {
    (dx_px.abs() >= DRAG_MIN_PX).then(|| window_msg(start.pan(-dx_px)))
}

fn window_msg(viewport: Viewport) -> Msg {
    Msg::Playback(PlaybackMsg::Zoom(Some((
        viewport.t0_us(),
        viewport.t1_us(),
    ))))
}

/// A click on a mark selects its event. While comparing, the timeline clicked comes into
/// focus: a mark of B selects B's own event, so the status line, the tables and the cursor
/// follow that run.
pub fn mark_select(state: &super::State, side: Side, event: u32) -> Msg {
    if side == state.focus() || state.page.compare.is_none() {
        Msg::Playback(PlaybackMsg::Select(event))
    } else {
        Msg::Screen(ScreenMsg::FocusOn {
            side,
            cursor: Some(event),
        })
    }
}

/// A click on mark `mark` of run `side`'s timeline: with Shift on run A it breaks the run there
/// (`break_at`), else it selects the mark's event (`mark_select`). Returns the message, and
/// whether the tooltip shows the mark (a break reruns, and the mark is gone).
pub fn click_mark(
    state: &super::State,
    runs: &crate::work::Runs,
    side: Side,
    mark: u32,
    shift: bool,
) -> (Option<Msg>, bool) {
    let Some(run) = runs.get(side) else {
        return (None, false);
    };
    let mark = run.timeline.mark(mark);
    if shift && side == Side::A {
        return (
            break_at(&state.page.scenario, &runs.a.trace, mark.first),
            false,
        );
    }
    (Some(mark_select(state, side, mark.event())), true)
}

/// A shift-click on the mark of event `event` of run A: the learner breaks the run there. On an
/// arrow (a send) its message is dropped by hand, added to `drop=`; on a mark of the API's lane
/// the API crashes at that moment, `crash=api@T` (whole milliseconds, so at or just before
/// the mark). Both go through `Msg::Scenario(ScenarioMsg::SetKey)`, so the change is in the permalink and
/// `idemlab run` reproduces it. `None` for any other mark, or when `drop=` is full.
pub fn break_at(
    scenario: &idemlab_core::scenario::Scenario,
    trace: &idemlab_core::trace::Trace,
    event: u32,
) -> Option<Msg> {
    use idemlab_core::scenario::bounds::DROPS_MAX;
    use idemlab_core::trace::{EventKind, Node};
    let e = trace.events.get(event as usize)?;
    match e.kind {
        EventKind::Send { msg, .. } => {
            if scenario.drop.contains(&msg) || scenario.drop.len() >= DROPS_MAX {
                return None;
            }
            let mut ids = scenario.drop.clone();
            ids.push(msg);
            ids.sort_unstable();
            let ids: Vec<String> = ids.iter().map(u32::to_string).collect();
            Some(Msg::Scenario(ScenarioMsg::SetKey {
                name: "drop".into(),
                value: ids.join(","),
            }))
        }
        _ if e.node == Node::Api => Some(Msg::Scenario(ScenarioMsg::SetKey {
            name: "crash".into(),
            value: format!("api@{}", e.time_us / 1_000),
        })),
        _ => None,
    }
}
