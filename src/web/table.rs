//! The text alternative to the timeline: the event table (virtualised, so 100,000 rows cost
//! what 30 do) and the attempts and ledger tables as they stand at the cursor. Selecting a row
//! moves the cursor, and the cursor selects its row.

use std::fmt::Write as _;

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, KeyboardEvent};

use super::dom::{self, El};
use super::{render as render_all, with_app, App};
use crate::trace::{node_name, EventKind, Trace};

const ROW_PX: i32 = 26;
/// Rows rendered beyond the visible ones, so fast scrolling shows no blank band.
const OVERSCAN_ROWS: i32 = 10;
/// The attempts and ledger tables list at most this many rows; the rest is summarised.
const TABLE_ROWS_MAX: usize = 300;

pub fn mount() {
    let panel: Element = dom::by_id("panel-events");
    let header = [
        "#",
        "time",
        "lane",
        "order",
        "attempt",
        "key",
        "what happened",
    ]
    .iter()
    .fold(El::new("tr"), |tr, h| {
        tr.child(&El::new("th").attr("scope", "col").text(h).el())
    });
    let table = El::new("table")
        .attr("id", "events")
        .attr(
            "aria-label",
            "Trace events (select a row to move the cursor)",
        )
        .child(&El::new("thead").child(&header.el()).el())
        .child(&El::new("tbody").attr("id", "events-body").el());
    let scroll = El::new("div")
        .class("events-scroll")
        .attr("id", "events-scroll")
        .child(
            &El::new("div")
                .attr("id", "events-spacer")
                .class("spacer-rows")
                .el(),
        )
        .child(&table.el());
    panel.append_child(&scroll.el()).ok();
    let scroll: Element = dom::by_id("events-scroll");
    dom::listen::<Event>(&scroll, "scroll", |_| {
        // A scroll event comes after layout, so reading the position here forces nothing.
        let scroll: HtmlElement = dom::by_id("events-scroll");
        SCROLL_TOP_PX.with(|top| top.set(scroll.scroll_top()));
        render_rows();
    });
    let body: Element = dom::by_id("events-body");
    dom::listen::<Event>(&body, "click", |event| select_from(&event));
    dom::listen::<KeyboardEvent>(&body, "keydown", |event| {
        if event.key() == "Enter" || event.key() == " " {
            event.prevent_default();
            select_from(&event);
        }
    });
    mount_tabs();
}

fn mount_tabs() {
    for tab in crate::page::TABS {
        let Some(button) = dom::document().get_element_by_id(&format!("tab-{tab}")) else {
            continue;
        };
        dom::listen::<Event>(&button, "click", move |_| {
            with_app(|app| app.page.tab = tab.to_string());
            render_all();
        });
    }
}

fn select_from(event: &Event) {
    let Some(row) = event
        .target()
        .and_then(|t| t.dyn_into::<Element>().ok())
        .and_then(|t| t.closest("tr[data-index]").ok().flatten())
    else {
        return;
    };
    let index: u32 = row
        .get_attribute("data-index")
        .and_then(|i| i.parse().ok())
        .unwrap_or(0);
    with_app(|app| {
        app.playing = false;
        app.page.cursor = Some(index);
    });
    render_all();
}

pub fn render() {
    render_tabs();
    let (count, cursor) = with_app(|app| (app.a.trace.events.len(), app.cursor()));
    let spacer: HtmlElement = dom::by_id("events-spacer");
    spacer
        .style()
        .set_property("height", &format!("{}px", count as i32 * ROW_PX))
        .ok();
    // The event table is the timeline's text alternative, so it always follows the cursor; the
    // attempts and ledger tables are folded only while their tab is open.
    scroll_into_view(cursor, count);
    // A hidden list has no layout box and ignores scrollTop, so the position kept while it was
    // hidden is written back when it shows again.
    let shown = with_app(|app| app.page.tab == "events");
    if shown && !EVENTS_SHOWN.with(|was| was.replace(shown)) {
        let top = SCROLL_TOP_PX.with(std::cell::Cell::get);
        dom::by_id::<HtmlElement>("events-scroll").set_scroll_top(top);
    }
    EVENTS_SHOWN.with(|was| was.set(shown));
    render_rows();
    if with_app(|app| app.page.tab == "tables") {
        render_tables();
    }
}

fn render_tabs() {
    let current = with_app(|app| app.page.tab.clone());
    for tab in crate::page::TABS {
        let (Some(button), Some(panel)) = (
            dom::document().get_element_by_id(&format!("tab-{tab}")),
            dom::document().get_element_by_id(&format!("panel-{tab}")),
        ) else {
            continue;
        };
        let selected = tab == current;
        button
            .set_attribute("aria-selected", if selected { "true" } else { "false" })
            .ok();
        button
            .set_attribute("tabindex", if selected { "0" } else { "-1" })
            .ok();
        dom::set_hidden(&panel, !selected);
    }
}

thread_local! {
    /// The event list's scroll position, kept from its scroll events and our own scrolling, so
    /// a frame never reads it back after writing the page (that forced a layout per frame).
    static SCROLL_TOP_PX: std::cell::Cell<i32> = const { std::cell::Cell::new(0) };
    /// Whether the Events tab was open at the last render.
    static EVENTS_SHOWN: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// The event list's height: fixed by the stylesheet (`.events-scroll`), so read from there.
const VIEW_HEIGHT_PX: i32 = 340;

/// Keeps the cursor's row on screen without jumping when it already is.
fn scroll_into_view(cursor: usize, rows: usize) {
    let top = cursor as i32 * ROW_PX;
    let view_top = SCROLL_TOP_PX.with(std::cell::Cell::get);
    if top < view_top || top + 2 * ROW_PX > view_top + VIEW_HEIGHT_PX {
        // Capped as the browser caps it, so the kept position is the real one.
        let top_max = (rows as i32 * ROW_PX - VIEW_HEIGHT_PX).max(0);
        let new_top = (top - VIEW_HEIGHT_PX / 2).clamp(0, top_max);
        SCROLL_TOP_PX.with(|cell| cell.set(new_top));
        dom::by_id::<HtmlElement>("events-scroll").set_scroll_top(new_top);
    }
}

fn render_rows() {
    let body: HtmlElement = dom::by_id("events-body");
    let first = (SCROLL_TOP_PX.with(std::cell::Cell::get) / ROW_PX - OVERSCAN_ROWS).max(0);
    let rows = VIEW_HEIGHT_PX / ROW_PX + 2 * OVERSCAN_ROWS;
    dom::clear(&body);
    with_app(|app| {
        let count = app.a.trace.events.len() as i32;
        let table: HtmlElement = dom::by_id("events");
        table
            .style()
            .set_property("transform", &format!("translateY({}px)", first * ROW_PX))
            .ok();
        table
            .set_attribute("aria-rowcount", &(count + 1).to_string())
            .ok();
        for index in first..(first + rows).min(count) {
            body.append_child(&row(app, index as usize)).ok();
        }
    });
}

fn row(app: &App, index: usize) -> Element {
    let trace = &app.a.trace;
    let event = &trace.events[index];
    let mut what = String::new();
    let _ = crate::trace::describe(&mut what, &event.kind, trace);
    let cells = [
        (index + 1).to_string(),
        crate::view::ms_text(event.time_us),
        node_name(event.node, trace),
        event.order.map(|o| o.to_string()).unwrap_or_default(),
        event.attempt.map(|a| a.to_string()).unwrap_or_default(),
        event.key.map(|k| k.to_string()).unwrap_or_default(),
        what,
    ];
    let selected = app.page.cursor.is_some() && index == app.cursor();
    let tr = El::new("tr")
        .attr("data-index", &index.to_string())
        .attr("aria-rowindex", &(index + 2).to_string())
        .attr("aria-selected", if selected { "true" } else { "false" })
        .attr("tabindex", "0")
        .class(&row_class(app, index));
    cells
        .iter()
        .fold(tr, |tr, cell| tr.child(&El::new("td").text(cell).el()))
        .el()
}

/// Rows past the cursor are dimmed; duplicate charges and drops are marked.
fn row_class(app: &App, index: usize) -> String {
    let mut class = String::new();
    if index > app.cursor() {
        class.push_str("future ");
    }
    match app.a.trace.events[index].kind {
        EventKind::Drop { .. } => class.push_str("drop"),
        EventKind::Crash => class.push_str("crash"),
        EventKind::Charge { replay: false, .. } => class.push_str("charge"),
        _ => {}
    }
    class
}

/// The attempts and ledger tables (and, with a queue, the receipts) as they stand at the
/// cursor, from the events so far.
fn render_tables() {
    let panel: Element = dom::by_id("panel-tables");
    dom::clear(&panel);
    with_app(|app| {
        let upto = app.cursor() + 1;
        let (attempts, ledger) = tables_at(&app.a.trace, upto);
        panel
            .append_child(&table(
                "Attempts (one row per request received, duplicates kept)",
                &["row", "pod", "order", "attempt", "key"],
                &attempts,
            ))
            .ok();
        panel
            .append_child(&table(
                "Charges made by the payment service, and whether the database ledger committed a row for each",
                &[
                    "charge",
                    "order",
                    "attempt",
                    "pod",
                    "committed in the ledger",
                ],
                &ledger,
            ))
            .ok();
        if app.a.trace.scenario.consumer != crate::scenario::Consumer::Off {
            panel
                .append_child(&table(
                    "Receipts the consumer mailed, one row per receipt (a repeat is a duplicate)",
                    &[
                        "event",
                        "charge",
                        "order",
                        "receipt for this event",
                        "inbox row",
                    ],
                    &receipts_at(&app.a.trace, upto),
                ))
                .ok();
        }
    });
}

/// The consumer's receipts up to `upto`, numbered per queue event (the metrics' rule), with
/// whether an inbox row stands behind them: with `consumer=inbox` every receipt has one, as the
/// inbox insert precedes it in the same transaction.
fn receipts_at(trace: &Trace, upto: usize) -> Rows {
    let inbox = trace.scenario.consumer == crate::scenario::Consumer::Inbox;
    let events = &trace.events[..upto.min(trace.events.len())];
    let mut rows = Vec::new();
    crate::metrics::walk_receipts(events, |ix, id, nth| {
        let EventKind::Receipt { number, .. } = events[ix].kind else {
            return;
        };
        rows.push([
            format!("e{id}"),
            format!("#{number}"),
            events[ix].order.map(|o| o.to_string()).unwrap_or_default(),
            if nth == 1 {
                "first".into()
            } else {
                format!("repeat {nth} (duplicate)")
            },
            if inbox { "yes" } else { "no inbox" }.into(),
        ]);
    });
    rows
}

type Rows = Vec<[String; 5]>;

fn tables_at(trace: &Trace, upto: usize) -> (Rows, Rows) {
    let (mut attempts, mut charges) = (Vec::new(), Vec::new());
    let events = &trace.events[..upto.min(trace.events.len())];
    let committed = crate::metrics::walk_ledger(events, |_, _, _| {});
    for event in events {
        let pod = event
            .pod
            .map(|p| format!("{:08x}", trace.pod_uid(p)))
            .unwrap_or_default();
        let order = event.order.map(|o| o.to_string()).unwrap_or_default();
        let attempt = event.attempt.map(|a| a.to_string()).unwrap_or_default();
        match event.kind {
            EventKind::AttemptRow { row } => attempts.push([
                row.to_string(),
                pod,
                order,
                attempt,
                event.key.map(|k| k.to_string()).unwrap_or_default(),
            ]),
            EventKind::Charge {
                number,
                replay: false,
            } => charges.push([number.to_string(), order, attempt, pod, String::new()]),
            _ => {}
        }
    }
    for charge in &mut charges {
        let number: u32 = charge[0].parse().unwrap_or(0);
        charge[4] = if committed.contains(&number) {
            "yes".into()
        } else {
            "no".into()
        };
    }
    (attempts, charges)
}

fn table(caption: &str, headers: &[&str], rows: &Rows) -> Element {
    let head = headers.iter().fold(El::new("tr"), |tr, h| {
        tr.child(&El::new("th").attr("scope", "col").text(h).el())
    });
    let body = rows
        .iter()
        .take(TABLE_ROWS_MAX)
        .fold(El::new("tbody"), |body, cells| {
            body.child(
                &cells
                    .iter()
                    .fold(El::new("tr"), |tr, c| tr.child(&El::new("td").text(c).el()))
                    .el(),
            )
        });
    let mut title = caption.to_string();
    if rows.len() > TABLE_ROWS_MAX {
        let _ = write!(title, " — first {TABLE_ROWS_MAX} of {}", rows.len());
    }
    El::new("table")
        .class("data")
        .child(&El::new("caption").text(&title).el())
        .child(&El::new("thead").child(&head.el()).el())
        .child(&body.el())
        .el()
}
