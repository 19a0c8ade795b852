//! The page's words and classes about one event: the cursor label, the timeline's tooltips
//! and the event table's row classes. Pure functions of run A's trace and the cursor.

use crate::trace::{describe, EventKind, Trace};
use crate::view::{ms_text, Mark, Timeline};

/// The scrubber's label (and its `aria-valuetext`): "event 3 of 40 · 12.5 ms · …".
pub fn cursor_label(trace: &Trace, cursor: usize) -> String {
    let Some(event) = trace.events.get(cursor) else {
        return "no events".into();
    };
    let mut label = format!(
        "event {} of {} · {} · ",
        cursor + 1,
        trace.events.len(),
        ms_text(event.time_us)
    );
    let _ = describe(&mut label, &event.kind, trace);
    label
}

/// The tooltip of a focused timeline: the cursor's event of that side's run, if it has one.
pub fn cursor_tooltip(trace: &Trace, cursor: usize) -> Option<String> {
    let event = trace.events.get(cursor)?;
    let mut text = format!("event {} at {}: ", cursor + 1, ms_text(event.time_us));
    let _ = describe(&mut text, &event.kind, trace);
    Some(text)
}

/// The tooltip of a mark under the pointer: its label and time, order and attempt, key, and
/// what happened.
pub fn mark_tooltip(trace: &Trace, timeline: &Timeline, mark: &Mark) -> String {
    let event = &trace.events[mark.event() as usize];
    let label = timeline.label(mark);
    let mut lines = vec![format!("{label} at {}", ms_text(mark.t0_us))];
    if let Some(order) = event.order {
        let attempt = event.attempt.map(|a| format!(", attempt {a}"));
        lines.push(format!("order {order}{}", attempt.unwrap_or_default()));
    }
    if let Some(key) = event.key {
        lines.push(format!("key {key}"));
    }
    let mut text = String::new();
    let _ = describe(&mut text, &event.kind, trace);
    lines.push(text);
    lines.join("\n")
}

/// An event table row's classes: rows past the cursor are dimmed ("future"); drops, crashes
/// and first-time charges are marked.
pub fn row_class(trace: &Trace, index: usize, cursor: usize) -> String {
    let mut class = String::new();
    if index > cursor {
        class.push_str("future ");
    }
    match trace.events[index].kind {
        EventKind::Drop { .. } => class.push_str("drop"),
        EventKind::Crash | EventKind::ConsumerCrash { .. } => class.push_str("crash"),
        EventKind::Charge { replay: false, .. } => class.push_str("charge"),
        _ => {}
    }
    class
}
