//! Keyboard access: what kind of element has the focus, where the arrow keys go on the tab list
//! and in the event list, and where the skip link to the lesson lands. The browser reads the
//! event and the focused element's tag and role; these decide.

use super::{Msg, State, Tab};
use crate::PlaybackMsg;

/// What the focused element is, as the shortcuts care (`KeyTarget`): from its tag, an
/// `input`'s type, its ARIA role, and whether it is inside an open dialog.
pub fn key_target(tag: &str, input_type: &str, role: &str, in_dialog: bool) -> super::KeyTarget {
    use super::KeyTarget::*;
    if in_dialog {
        return Dialog;
    }
    match (tag, role) {
        // A checkbox, a radio or a range takes Space and the arrows, but types no letter.
        ("input", _) if matches!(input_type, "checkbox" | "radio" | "range" | "button") => {
            Pressable
        }
        ("input" | "select" | "textarea", _) => Field,
        // Buttons, summaries, the tab list, the event list (a grid), an ordering item, a lesson
        // phrase (a span with role "button") and a scrolled panel: each uses Space, Enter or the
        // arrows itself.
        ("button" | "summary" | "tr" | "table" | "li" | "section", _)
        | (_, "button" | "tab" | "row" | "grid" | "option" | "radio" | "checkbox") => Pressable,
        // The page, the timeline's canvas, a heading, a link.
        _ => Page,
    }
}

/// An arrow, Home or End on the tab `from` of the tab list: the tab to select and focus (the
/// ARIA tabs pattern, activation follows focus), among the tabs `shown` in the bar's order.
/// Wraps at either end; `None` for any other key.
pub fn tab_key(key: &str, from: Tab, shown: &[Tab]) -> Option<Tab> {
    let at = shown.iter().position(|&t| t == from)?;
    let last = shown.len() - 1;
    let to = match key {
        "ArrowRight" | "ArrowDown" => (at + 1) % shown.len(),
        "ArrowLeft" | "ArrowUp" => at.checked_sub(1).unwrap_or(last),
        "Home" => 0,
        "End" => last,
        _ => return None,
    };
    Some(shown[to])
}

/// A key in the event list (one Tab stop, a grid whose selected row is the cursor's event):
/// ↑/↓ a row, Page Up/Down `page_rows`, Home/End the first or last, Enter or Space keeps the row.
/// With no cursor (the run's end) ↓ starts at the first row and ↑ at the last. `events` > 0.
pub fn grid_key(key: &str, cursor: Option<u32>, events: u32, page_rows: u32) -> Option<Msg> {
    let last = events.checked_sub(1)?;
    let to = match (key, cursor) {
        ("ArrowDown", None) | ("Home", _) => 0,
        ("ArrowUp", None) | ("End", _) => last,
        ("ArrowDown", Some(c)) => c.saturating_add(1),
        ("ArrowUp", Some(c)) => c.saturating_sub(1),
        ("PageDown", c) => c.unwrap_or(0).saturating_add(page_rows),
        ("PageUp", c) => c.unwrap_or(last).saturating_sub(page_rows),
        ("Enter" | " ", Some(c)) => c,
        _ => return None,
    };
    Some(Msg::Playback(PlaybackMsg::Select(to.min(last))))
}

/// Shift+Enter in the event list: the keyboard's Shift+click, breaking run A at the selected
/// row (`break_at`: a send is dropped, an API event crashes the API). Only while the list
/// shows run A, the run a break changes.
pub fn grid_break(
    key: &str,
    shift: bool,
    state: &State,
    a: &idemlab_core::trace::Trace,
) -> Option<Msg> {
    if !(shift && key == "Enter") || state.focus() != idemlab_lab::Side::A {
        return None;
    }
    super::break_at(&state.page.scenario, a, state.page.cursor?)
}

/// What Shift+Enter says once it broke the run (else a screen reader hears nothing while the
/// run and its counts change): the key it set and the event the cursor is back on. `None` when
/// the scenario did not change (a lock refused it, and the banner says why).
pub fn break_said(
    before: &idemlab_core::scenario::Scenario,
    state: &State,
    lead: &idemlab_core::trace::Trace,
) -> Option<String> {
    let set = super::differing(before, &state.page.scenario);
    (!set.is_empty()).then(|| {
        idemlab_lab::tf!(
            "Broken by hand ({}): a new run. {}",
            set,
            super::status_line(state, lead)
        )
    })
}

/// Where a skip link (by its id) lands: the lesson's (`lesson_skip`), or the timeline.
pub fn skip_to(state: &State, link: &str) -> (Option<Msg>, &'static str) {
    match link {
        "skip-lesson" => lesson_skip(state),
        _ => (None, "#canvas-a"),
    }
}

/// Where "Skip to the lesson" lands: the open step's heading, the mastery check's title, or,
/// with no lesson open, the Lessons tab opened (`Some` message) and its first lesson button.
pub fn lesson_skip(state: &State) -> (Option<Msg>, &'static str) {
    if state.quiz.is_some() {
        (None, "#quiz-title")
    } else if state.lesson.is_some() {
        (None, "#lesson-heading")
    } else {
        (Some(Msg::OpenTab(Tab::Lessons)), "#lesson-picker button")
    }
}

/// Whether a key released on the timeline shows its cursor tooltip again: not Escape, which
/// has just closed it (WCAG 1.4.13: dismissable without moving the focus).
pub fn tooltip_follows(key: &str) -> bool {
    key != "Escape"
}
