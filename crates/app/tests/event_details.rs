//! Words and classes about one event (`app::text`): the cursor's label and tooltip, a mark's
//! tooltip, a request's Idempotency-Key header line, the Events list's row classes, and the
//! Tables tab's rows.

use idemlab_app as app;
use idemlab_app::tables_at;
use idemlab_core::scenario::decode_lenient;

fn trace_of(query: &str) -> idemlab_core::trace::Trace {
    idemlab_core::sim::run(&decode_lenient(query).0.scenario)
}

#[test]
fn the_cursor_label_counts_times_and_describes() {
    let trace = trace_of("seed=7");
    let label = app::cursor_label(&trace, 0);
    let head = format!("event 1 of {} · ", trace.events.len());
    assert!(label.starts_with(&head), "{label}");
    let mut what = String::new();
    idemlab_core::trace::describe(&mut what, &trace.events[0].kind, &trace).unwrap();
    assert!(label.ends_with(&format!(" · {what}")), "{label}");
    assert_eq!(app::cursor_label(&trace, trace.events.len()), "no events");
}

#[test]
fn the_cursor_tooltip_is_the_events_number_time_and_description() {
    let trace = trace_of("seed=7");
    let text = app::cursor_tooltip(&trace, 2).unwrap();
    let time = idemlab_lab::view::ms_text(trace.events[2].time_us);
    assert!(text.starts_with(&format!("event 3 at {time}: ")), "{text}");
    assert_eq!(app::cursor_tooltip(&trace, trace.events.len()), None);
}

#[test]
fn a_marks_tooltip_names_order_attempt_and_key() {
    let trace = trace_of("seed=7&dedup=naive");
    let timeline = idemlab_lab::view::layout(&trace);
    let mark = timeline
        .marks()
        .iter()
        .find(|m| {
            let e = &trace.events[m.event() as usize];
            e.order().is_some() && e.attempt().is_some() && e.key.is_some()
        })
        .expect("a mark with order, attempt and key");
    let event = &trace.events[mark.event() as usize];
    let lines: Vec<String> = app::mark_tooltip(&trace, &timeline, mark)
        .lines()
        .map(str::to_string)
        .collect();
    // The client's lane says "client"; the pod that sent it is a line of its own.
    let pod = match event.node {
        idemlab_core::trace::Node::Client(pod) => {
            Some(format!("client pod {:08x}", trace.pod_uid(pod)))
        }
        _ => None,
    };
    let lines: Vec<String> = (lines.into_iter())
        .filter(|line| Some(line) != pod.as_ref())
        .collect();
    assert_eq!(lines.len(), 4, "{lines:?}");
    assert_eq!(
        lines[1],
        format!(
            "order {}, attempt {}",
            event.order().unwrap(),
            event.attempt().unwrap()
        )
    );
    // A request carries its key as the header a real client sends; other events name it.
    let request = app::request_header(&trace, mark.event() as usize);
    let key = format!("key {}", event.key.unwrap());
    assert_eq!(lines[2], request.unwrap_or(key));
}

#[test]
fn a_client_lane_is_called_client_and_its_marks_name_their_pod() {
    let trace = trace_of("seed=1&preset=pod-rerun");
    let timeline = idemlab_lab::view::layout(&trace);
    let labels: Vec<&str> = (timeline.lanes().iter())
        .map(|lane| lane.label.as_str())
        .take(2)
        .collect();
    assert_eq!(labels, ["client", "client (rerun)"]);
    let mark = (timeline.marks().iter())
        .find(|m| {
            matches!(
                trace.events[m.event() as usize].node,
                idemlab_core::trace::Node::Client(1)
            )
        })
        .expect("a mark of the rerun's pod");
    let tooltip = app::mark_tooltip(&trace, &timeline, mark);
    let pod = format!("client pod {:08x}", trace.pod_uid(1));
    assert!(tooltip.lines().any(|l| l == pod), "{tooltip}");
    let several = idemlab_lab::view::layout(&trace_of("seed=1&clients=2&orders=2"));
    assert_eq!(several.lanes()[1].label, "client 2");
}

/// The index of a trace's first request to the API.
fn first_request(trace: &idemlab_core::trace::Trace) -> usize {
    use idemlab_core::trace::{EventKind, Payload};
    (trace.events.iter())
        .position(|e| {
            matches!(
                e.kind,
                EventKind::Send {
                    payload: Payload::Request { .. },
                    ..
                }
            )
        })
        .expect("a request")
}

#[test]
fn a_key_the_api_does_not_check_says_so_in_its_header_line() {
    let trace = trace_of("seed=7&preset=lost-ack");
    let index = first_request(&trace);
    let header = app::request_header(&trace, index).unwrap();
    assert!(
        header.ends_with("(the API does not check it: dedup=none)"),
        "{header}"
    );
}

#[test]
fn a_request_shows_its_key_as_an_idempotency_key_header_in_every_detail() {
    let trace = trace_of("seed=7&preset=lost-ack&dedup=atomic");
    let index = first_request(&trace);
    let key = trace.events[index].key.expect("lost-ack sends keys");
    let header = format!("Idempotency-Key: {key}");
    assert_eq!(app::request_header(&trace, index), Some(header.clone()));
    let tooltip = app::cursor_tooltip(&trace, index).unwrap();
    assert!(tooltip.ends_with(&format!("\n{header}")), "{tooltip}");
    assert!(app::cursor_label(&trace, index).ends_with(&format!(" · {header}")));
    let timeline = idemlab_lab::view::layout(&trace);
    let mark = (timeline.marks().iter())
        .find(|m| m.event() as usize == index)
        .expect("the request's arrow");
    let lines = app::mark_tooltip(&trace, &timeline, mark);
    assert!(lines.lines().any(|l| l == header), "{lines}");
    // Other events have no header line; a request without a key says so.
    assert_eq!(app::request_header(&trace, 0), None);
    let bare = trace_of("seed=7&preset=lost-ack&key=none");
    let index = first_request(&bare);
    assert_eq!(
        app::request_header(&bare, index).as_deref(),
        Some("no Idempotency-Key header")
    );
}

#[test]
fn a_read_only_transaction_ends_as_done_not_as_a_rollback() {
    use idemlab_lab::view::Class;
    let trace = trace_of("seed=7&preset=lost-ack&dedup=atomic");
    let timeline = idemlab_lab::view::layout(&trace);
    let labels: Vec<String> = (timeline.marks().iter())
        .filter(|m| m.class() == Class::Rollback)
        .map(|m| timeline.label(m))
        .collect();
    assert!(!labels.is_empty(), "replays end read-only transactions");
    assert!(
        labels.iter().all(|l| l.ends_with("done (read only)")),
        "{labels:?}"
    );
    assert!(timeline
        .marks()
        .iter()
        .all(|m| m.class() != Class::TxnRollback));
}

#[test]
fn rows_past_the_cursor_are_future_and_charges_drops_crashes_marked() {
    use idemlab_core::trace::EventKind;
    let trace = trace_of("seed=7&dedup=naive");
    let charge = trace
        .events
        .iter()
        .position(|e| matches!(e.kind, EventKind::Charge { replay: false, .. }))
        .expect("a charge");
    assert_eq!(app::row_class(&trace, charge, charge), "charge");
    assert_eq!(app::row_class(&trace, charge, 0), "future charge");
    let plain = trace
        .events
        .iter()
        .position(|e| {
            !matches!(
                e.kind,
                EventKind::Charge { .. } | EventKind::Drop { .. } | EventKind::Crash
            )
        })
        .unwrap();
    assert_eq!(app::row_class(&trace, plain, plain), "");
    assert_eq!(app::row_class(&trace, plain, trace.events.len()), "");
}

#[test]
fn the_tables_fold_typed_rows_and_the_ledger_agrees_with_the_metrics() {
    let (trace, metrics) =
        idemlab_lab::run(&decode_lenient("seed=3&preset=ledger-replaced").0.scenario);
    let tables = tables_at(&trace, trace.events.len());
    assert_eq!(tables.attempts.len() as u32, metrics.received);
    let unrecorded = tables.charges.iter().filter(|c| !c.committed).count() as u32;
    assert_eq!(unrecorded, metrics.unrecorded);
    assert_eq!(tables.receipts, None, "no queue, no receipts table");
    let (trace, metrics) = idemlab_lab::run(&decode_lenient("seed=3&consumer=plain").0.scenario);
    let receipts = tables_at(&trace, trace.events.len()).receipts.unwrap();
    assert_eq!(receipts.len() as u32, metrics.receipts);
    let repeats = receipts.iter().filter(|r| r.nth > 1).count() as u32;
    assert_eq!(repeats, metrics.duplicate_receipts);
    assert!(tables_at(&trace, 0).attempts.is_empty());
}

#[test]
fn table_rows_become_cells_and_a_long_table_says_how_many_it_lists() {
    let row = app::ChargeRow {
        charge: 2,
        order: Some(1),
        attempt: None,
        pod_uid: Some(0xab),
        committed: false,
    };
    assert_eq!(row.cells(), ["2", "1", "", "000000ab", "no"]);
    let receipt = app::ReceiptRow {
        event: 4,
        charge: 2,
        order: None,
        nth: 2,
        inbox: false,
    };
    assert_eq!(
        receipt.cells(),
        ["e4", "#2", "", "repeat 2 (duplicate)", "no inbox"]
    );
    assert_eq!(app::rows_cut_note(app::TABLE_ROWS_MAX), "");
    assert_eq!(app::rows_cut_note(412), " — first 300 of 412");
}
