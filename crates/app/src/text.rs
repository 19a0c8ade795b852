//! The page's words and classes about one event: the cursor label, the timeline's tooltips
//! and the event table's row classes. Pure functions of run A's trace and the cursor.

use idemlab_core::trace::{describe, EventKind, Node, Payload, Trace};
use idemlab_lab::view::{ms_text, Mark, Timeline};
use std::fmt::Write;

/// The scrubber's label (and its `aria-valuetext`): "event 3 of 40 · 12.5 ms · …".
pub fn cursor_label(trace: &Trace, cursor: usize) -> String {
    event_label(trace, cursor, true)
}

/// The cursor label without the run's length ("event 1 · 0 ms · …"): while a step waits for
/// its prediction, "of 81" would hint at how the run goes.
pub fn cursor_label_held(trace: &Trace, cursor: usize) -> String {
    event_label(trace, cursor, false)
}

fn event_label(trace: &Trace, cursor: usize, with_total: bool) -> String {
    let Some(event) = trace.events.get(cursor) else {
        return idemlab_lab::t!("no events").into();
    };
    // The page's words; the event's description after them is the trace's own vocabulary.
    let mut label = match with_total {
        true => idemlab_lab::tf!("event {} of {}", cursor + 1, trace.events.len()),
        false => idemlab_lab::tf!("event {}", cursor + 1),
    };
    let _ = write!(label, " · {} · ", ms_text(event.time_us));
    let _ = describe(&mut label, &event.kind, trace);
    if let Some(header) = request_header(trace, cursor) {
        label.push_str(" · ");
        label.push_str(&header);
    }
    label
}

/// A request's idempotency key as the header line it travels in, `Idempotency-Key: <key>`,
/// for the event that sends a request to the API (`None` for any other event); a request
/// sent with `key=none` says it has no such header.
pub fn request_header(trace: &Trace, index: usize) -> Option<String> {
    let event = trace.events.get(index)?;
    let EventKind::Send {
        to: Node::Api,
        payload: Payload::Request { .. },
        ..
    } = event.kind
    else {
        return None;
    };
    // Every request carries its key from Lesson A's first step, before the API looks at it:
    // say so, or the header reads as if it already protected something.
    let unchecked = trace.scenario.dedup == idemlab_core::scenario::Dedup::None;
    Some(match event.key {
        Some(key) if unchecked => {
            idemlab_lab::tf!(
                "Idempotency-Key: {} (the API does not check it: dedup=none)",
                key
            )
        }
        Some(key) => format!("Idempotency-Key: {key}"),
        None => idemlab_lab::t!("no Idempotency-Key header").into(),
    })
}

/// The tooltip of a focused timeline: the cursor's event of that side's run, if it has one.
pub fn cursor_tooltip(trace: &Trace, cursor: usize) -> Option<String> {
    let event = trace.events.get(cursor)?;
    let mut text = idemlab_lab::tf!("event {} at {}:", cursor + 1, ms_text(event.time_us));
    text.push(' ');
    let _ = describe(&mut text, &event.kind, trace);
    if let Some(header) = request_header(trace, cursor) {
        text.push('\n');
        text.push_str(&header);
    }
    if let Some(sql) = sql_line(trace, cursor) {
        text.push('\n');
        text.push_str(&sql);
    }
    Some(text)
}

/// How many of the database's statements the Tables tab lists, the last up to the cursor.
pub const SQL_ROWS_MAX: usize = 12;

/// The Tables tab's statements: the last `SQL_ROWS_MAX` the database received up to event
/// `cursor`, each as time, request, transaction, statement and what it returns in this run.
pub fn sql_rows(trace: &Trace, cursor: usize) -> Vec<[String; 5]> {
    (idemlab_lab::sql::last_statements(trace, cursor, SQL_ROWS_MAX).into_iter())
        .map(|s| {
            [
                ms_text(s.time_us),
                s.req.to_string(),
                s.txn.map_or_else(|| "autocommit".into(), |t| t.to_string()),
                s.sql,
                s.expect.words(),
            ]
        })
        .collect()
}

/// A database step's SQL and what it returns in this run (`idemlab_lab::sql`), for the details.
pub fn sql_line(trace: &Trace, index: usize) -> Option<String> {
    let statement = idemlab_lab::sql::statement_at(trace, index)?;
    Some(format!(
        "SQL: {}; {}",
        statement.sql,
        statement.expect.words()
    ))
}

/// The tooltip of a mark under the pointer: its label and time, order and attempt, key (a
/// request's as its `Idempotency-Key` header line), and what happened.
pub fn mark_tooltip(trace: &Trace, timeline: &Timeline, mark: &Mark) -> String {
    let event = &trace.events[mark.event() as usize];
    let label = timeline.label(mark);
    let mut lines = vec![idemlab_lab::tf!("{} at {}", label, ms_text(mark.t0_us))];
    if let Some(order) = event.order() {
        lines.push(match event.attempt() {
            Some(attempt) => idemlab_lab::tf!("order {}, attempt {}", order, attempt),
            None => idemlab_lab::tf!("order {}", order),
        });
    }
    // The lane says "client"; which pod sent it is a detail (a `key=process` key is made from it).
    if let Node::Client(pod) = event.node {
        let uid = format!("{:08x}", trace.pod_uid(pod));
        lines.push(idemlab_lab::tf!("client pod {}", uid));
    }
    match (request_header(trace, mark.event() as usize), event.key) {
        (Some(header), _) => lines.push(header),
        (None, Some(key)) => lines.push(idemlab_lab::tf!("key {}", key)),
        (None, None) => {}
    }
    let mut text = String::new();
    let _ = describe(&mut text, &event.kind, trace);
    lines.push(text);
    lines.extend(sql_line(trace, mark.event() as usize));
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
