//! The text alternative to the timeline: the event table (virtualised, so 100,000 rows cost
//! what 30 do) and the attempts and ledger tables as they stand at the cursor. Selecting a row
//! moves the cursor, and the cursor selects its row.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, KeyboardEvent};

use super::dom::{self, El};
use super::{dispatch, with_app, App};
use idemlab_app::{self as app, Msg, Tab};
use idemlab_core::trace::node_name;

const ROW_PX: i32 = 26;
/// Rows rendered beyond the visible ones, so fast scrolling shows no blank band.
const OVERSCAN_ROWS: i32 = 10;

/// The event table's markup is in `index.html`; here are its listeners.
pub fn mount() {
    let scroll: Element = dom::by_id("events-scroll");
    dom::listen::<Event>(&scroll, "scroll", |_| {
        // A scroll event comes after layout, so reading the position here forces nothing.
        let scroll: HtmlElement = dom::by_id("events-scroll");
        let top = scroll.scroll_top();
        // When the page scrolled the list itself (`scroll_into_view`), `render` already drew the
        // rows for that position: drawing them again here doubled a scrub frame's table work.
        if super::with_ui(|u| &u.scroll_top_px, |kept| kept.replace(top)) != top {
            render_rows();
        }
    });
    let body: Element = dom::by_id("events-body");
    dom::listen::<Event>(&body, "click", |event| select_from(&event));
    // The list is one Tab stop (the table, a grid); its keys move the selected row, which is the
    // cursor's event, and the focus stays on the table however the rows are redrawn.
    let table: Element = dom::by_id("events");
    dom::listen::<KeyboardEvent>(&table, "keydown", |event| {
        let page_rows = (VIEW_HEIGHT_PX / ROW_PX - 1) as u32;
        if event.alt_key() || event.ctrl_key() {
            return;
        }
        let (broke, before, cursor) = with_app(|app| {
            let broke = app::grid_break(
                &event.key(),
                event.shift_key(),
                &app.state,
                &app.runs.a.trace,
            );
            (
                broke,
                app.state.page.scenario.clone(),
                app.state.page.cursor,
            )
        });
        if let Some(msg) = broke {
            event.prevent_default();
            dispatch(msg);
            // The run up to the broken event is the same: the cursor goes back to it.
            if let Some(cursor) = cursor {
                dispatch(Msg::Select(cursor));
            }
            let said = with_app(|app| app::break_said(&before, &app.state, &app.lead().trace));
            if let Some(said) = said {
                dom::by_id::<Element>("announce").set_text_content(Some(&said));
            }
            return;
        }
        let msg = with_app(|app| {
            let events = app.state.events_lead();
            app::grid_key(&event.key(), app.state.page.cursor, events, page_rows)
        });
        if let Some(msg) = msg {
            event.prevent_default();
            dispatch(msg);
        }
    });
    mount_tabs();
}

fn mount_tabs() {
    for tab in Tab::ALL {
        let Some(button) = dom::document().get_element_by_id(&format!("tab-{}", tab.name())) else {
            continue;
        };
        dom::listen::<Event>(&button, "click", move |_| dispatch(Msg::OpenTab(tab)));
        // The ARIA tabs pattern: the arrows, Home and End move to another tab and open it.
        dom::listen::<KeyboardEvent>(&button, "keydown", move |event| {
            let shown: Vec<Tab> = (Tab::ALL.into_iter())
                .filter(|t| !dom::by_id::<HtmlElement>(&format!("tab-{}", t.name())).hidden())
                .collect();
            let Some(to) = app::tab_key(&event.key(), tab, &shown) else {
                return;
            };
            event.prevent_default();
            dispatch(Msg::OpenTab(to));
            dom::by_id::<HtmlElement>(&format!("tab-{}", to.name()))
                .focus()
                .ok();
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
    dispatch(Msg::Select(index));
}

pub fn render() {
    render_tabs();
    let (count, cursor) = with_app(|app| (app.lead().trace.events.len(), app.cursor()));
    let spacer: HtmlElement = dom::by_id("events-spacer");
    spacer
        .style()
        // One row more: the sticky header's.
        .set_property("height", &format!("{}px", (count as i32 + 1) * ROW_PX))
        .ok();
    // The event table is the timeline's text alternative, so it always follows the cursor; the
    // attempts and ledger tables are folded only while their tab is open.
    scroll_into_view(cursor, count);
    // A hidden list has no layout box and ignores scrollTop, so the position kept while it was
    // hidden is written back when it shows again.
    let shown = with_app(|app| app.state.tab == Tab::Events);
    if shown && !super::with_ui(|u| &u.events_shown, |was| was.replace(shown)) {
        let top = super::with_ui(|u| &u.scroll_top_px, std::cell::Cell::get);
        dom::by_id::<HtmlElement>("events-scroll").set_scroll_top(top);
    }
    super::with_ui(|u| &u.events_shown, |was| was.set(shown));
    render_rows();
    if with_app(|app| app::page_layout(&app.state).panel == Some(Tab::Tables)) {
        render_tables();
    }
}

fn render_tabs() {
    // In a lesson the Lessons tab's panel is the lesson's column (`web::screen`), and no
    // panel opens under the runs until the learner picks Events, Tables or Sweep.
    let (current, column) = with_app(|app| {
        let layout = app::page_layout(&app.state);
        (layout.panel, layout.lesson_column)
    });
    for tab in Tab::ALL {
        let (Some(button), Some(panel)) = (
            dom::document().get_element_by_id(&format!("tab-{}", tab.name())),
            dom::document().get_element_by_id(&format!("panel-{}", tab.name())),
        ) else {
            continue;
        };
        let selected = Some(tab) == current;
        button
            .set_attribute("aria-selected", if selected { "true" } else { "false" })
            .ok();
        let focusable = selected || (current.is_none() && tab == Tab::Events);
        button
            .set_attribute("tabindex", if focusable { "0" } else { "-1" })
            .ok();
        let lessons = tab == Tab::Lessons && column;
        dom::set_hidden(&button, lessons);
        dom::set_hidden(&panel, !selected && !lessons);
    }
}

/// The event list's height: fixed by the stylesheet (`.events-scroll`), so read from there.
const VIEW_HEIGHT_PX: i32 = 340;

/// Keeps the cursor's row on screen without jumping when it already is.
/// Row `i` sits at `(i + 1) × ROW_PX`, under the header row, which sticks to the top.
fn scroll_into_view(cursor: usize, rows: usize) {
    let top = (cursor as i32 + 1) * ROW_PX;
    let view_top = super::with_ui(|u| &u.scroll_top_px, std::cell::Cell::get);
    if top < view_top + ROW_PX || top + 2 * ROW_PX > view_top + VIEW_HEIGHT_PX {
        // Capped as the browser caps it, so the kept position is the real one.
        let top_max = ((rows as i32 + 1) * ROW_PX - VIEW_HEIGHT_PX).max(0);
        let new_top = (top - VIEW_HEIGHT_PX / 2).clamp(0, top_max);
        super::with_ui(|u| &u.scroll_top_px, |cell| cell.set(new_top));
        dom::by_id::<HtmlElement>("events-scroll").set_scroll_top(new_top);
    }
}

fn render_rows() {
    let body: HtmlElement = dom::by_id("events-body");
    let first = (super::with_ui(|u| &u.scroll_top_px, std::cell::Cell::get) / ROW_PX
        - OVERSCAN_ROWS)
        .max(0);
    let rows = VIEW_HEIGHT_PX / ROW_PX + 2 * OVERSCAN_ROWS;
    dom::clear(&body);
    with_app(|app| {
        let count = app.lead().trace.events.len() as i32;
        let table: HtmlElement = dom::by_id("events");
        // `top`, not a transform: the header's `position: sticky` works from the layout box.
        table
            .style()
            .set_property("top", &format!("{}px", first * ROW_PX))
            .ok();
        table
            .set_attribute("aria-rowcount", &(count + 1).to_string())
            .ok();
        for index in first..(first + rows).min(count) {
            body.append_child(&row(app, index as usize)).ok();
        }
        // The selected row, when drawn, is the grid's active one (its focus stays on the table).
        let cursor = app.page().cursor.map(|_| app.cursor() as i32);
        match cursor.filter(|c| (first..first + rows).contains(c)) {
            Some(c) => dom::set_attr(&table, "aria-activedescendant", &format!("ev-{c}")),
            None => _ = table.remove_attribute("aria-activedescendant"),
        }
        rows_note(first, (first + rows).min(count), count);
    });
}

/// The "what happened" cell: what the timeline marks as a harm, in words first (issue 14).
fn what_text(app: &App, index: usize) -> String {
    let run = app.lead();
    let mut what = String::new();
    if let Some(note) = run.timeline.row_note(index as u32) {
        what.push_str(note);
        what.push_str(": ");
    }
    let _ = idemlab_core::trace::describe(&mut what, &run.trace.events[index].kind, &run.trace);
    what
}

/// Says that only some of the rows are in the page: a screen reader's table commands meet only
/// those (issue 14).
fn rows_note(first: i32, end: i32, count: i32) {
    let note = idemlab_lab::story::rows_note(first as u32, end as u32, count as u32);
    dom::set_text(&dom::by_id("events-note"), &note);
}

fn row(app: &App, index: usize) -> Element {
    let trace = &app.lead().trace;
    let event = &trace.events[index];
    let what = what_text(app, index);
    let lane = app.lead().timeline.lane_label(event.node);
    let cells = [
        (index + 1).to_string(),
        idemlab_lab::view::ms_text(event.time_us),
        lane.map_or_else(|| node_name(event.node, trace), String::from),
        event.order().map(|o| o.to_string()).unwrap_or_default(),
        event.attempt().map(|a| a.to_string()).unwrap_or_default(),
        event.key.map(|k| k.to_string()).unwrap_or_default(),
        what,
    ];
    let selected = app.page().cursor.is_some() && index == app.cursor();
    let tr = El::new("tr")
        .attr("data-index", &index.to_string())
        .attr("aria-rowindex", &(index + 2).to_string())
        .attr("id", &format!("ev-{index}"))
        .attr("aria-selected", if selected { "true" } else { "false" })
        .class(&idemlab_app::row_class(trace, index, app.cursor()));
    cells
        .iter()
        .fold(tr, |tr, cell| tr.child(&El::new("td").text(cell).el()))
        .el()
}

/// The attempts and ledger tables (and, with a queue, the receipts) as they stand at the
/// cursor, folded by `app::tables_at`; their shells are in `index.html`.
fn render_tables() {
    let (tables, note) = with_app(|app| {
        let tables = app::tables_at(&app.lead().trace, app.cursor() + 1);
        (tables, app::tables_note(&app.state))
    });
    let run: Element = dom::by_id("tables-run");
    dom::set_hidden(&run, note.is_none());
    dom::set_text(&run, note.as_deref().unwrap_or(""));
    let sql = with_app(|app| app::sql_rows(&app.lead().trace, app.cursor()));
    dom::set_hidden(&dom::by_id("table-sql"), sql.is_empty());
    fill("table-sql", &sql, <[String; 5]>::clone);
    fill("table-attempts", &tables.attempts, app::AttemptRow::cells);
    fill("table-charges", &tables.charges, app::ChargeRow::cells);
    dom::set_hidden(&dom::by_id("table-receipts"), tables.receipts.is_none());
    let receipts = tables.receipts.unwrap_or_default();
    fill("table-receipts", &receipts, app::ReceiptRow::cells);
}

/// Writes a table's first `app::TABLE_ROWS_MAX` rows and its caption's note.
fn fill<R>(id: &str, rows: &[R], cells: fn(&R) -> [String; 5]) {
    let table: Element = dom::by_id(id);
    dom::set_text(
        &dom::find(&table, "caption span"),
        &app::rows_cut_note(rows.len()),
    );
    let body = dom::find(&table, "tbody");
    dom::clear(&body);
    for row in rows.iter().take(app::TABLE_ROWS_MAX) {
        let tr =
            (cells(row).iter()).fold(El::new("tr"), |tr, c| tr.child(&El::new("td").text(c).el()));
        body.append_child(&tr.el()).ok();
    }
}
