//! The text alternative to the timeline: the event table (virtualised, so 100,000 rows cost
//! what 30 do) and the attempts and ledger tables as they stand at the cursor. Selecting a row
//! moves the cursor, and the cursor selects its row.

use idemlab_app::PlaybackMsg;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement, KeyboardEvent};

use super::dom::{self, El};
use super::{dispatch, with_app};
use idemlab_app::view::events::{EVENTS_VIEW_PX, EVENT_ROW_PX};
use idemlab_app::{self as app, Msg, Tab};

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
            render_rows(&with_app(|app| {
                app::view::events::events(&app.state, &app.runs, top)
            }));
        }
    });
    let body: Element = dom::by_id("events-body");
    dom::listen::<Event>(&body, "click", |event| select_from(&event));
    // The list is one Tab stop (the table, a grid); its keys move the selected row, which is the
    // cursor's event, and the focus stays on the table however the rows are redrawn.
    let table: Element = dom::by_id("events");
    dom::listen::<KeyboardEvent>(&table, "keydown", |event| {
        let page_rows = (EVENTS_VIEW_PX / EVENT_ROW_PX - 1) as u32;
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
                dispatch(Msg::Playback(PlaybackMsg::Select(cursor)));
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
            let shown = with_app(|app| app::view::events::shown_tabs(&app.state));
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
    dispatch(Msg::Playback(PlaybackMsg::Select(index)));
}

/// Paints the tab bar, the event list and, while their tab is open, the tables.
pub fn render(
    tabs: &[app::TabFrame],
    events: &app::EventsFrame,
    tables: Option<&app::TablesFrame>,
) {
    render_tabs(tabs);
    // The spacer first: a scroll past the old run's end would be capped at it.
    let spacer_px = format!("{}px", events.spacer_px);
    (dom::by_id::<HtmlElement>("events-spacer").style())
        .set_property("height", &spacer_px)
        .ok();
    if let Some(top) = events.scroll_to_px {
        super::with_ui(|u| &u.scroll_top_px, |cell| cell.set(top));
        dom::by_id::<HtmlElement>("events-scroll").set_scroll_top(top);
    }
    // The position kept while the list was hidden is written back as it shows again.
    let shown = events.shown;
    if shown && !super::with_ui(|u| &u.events_shown, |was| was.replace(shown)) {
        let top = super::with_ui(|u| &u.scroll_top_px, std::cell::Cell::get);
        dom::by_id::<HtmlElement>("events-scroll").set_scroll_top(top);
    }
    super::with_ui(|u| &u.events_shown, |was| was.set(shown));
    render_rows(events);
    if let Some(tables) = tables {
        paint_tables(tables);
    }
}

fn render_tabs(tabs: &[app::TabFrame]) {
    for tab in tabs {
        let name = tab.tab.name();
        let (Some(button), Some(panel)) = (
            dom::document().get_element_by_id(&format!("tab-{name}")),
            dom::document().get_element_by_id(&format!("panel-{name}")),
        ) else {
            continue;
        };
        dom::set_attr(
            &button,
            "aria-selected",
            if tab.selected { "true" } else { "false" },
        );
        dom::set_attr(&button, "tabindex", if tab.focusable { "0" } else { "-1" });
        dom::set_hidden(&button, tab.hidden);
        dom::set_hidden(&panel, tab.panel_hidden);
    }
}

fn render_rows(frame: &app::EventsFrame) {
    let table: HtmlElement = dom::by_id("events");
    let top_px = format!("{}px", frame.top_px);
    table.style().set_property("top", &top_px).ok();
    dom::set_attr(&table, "aria-rowcount", &frame.row_count);
    let body: HtmlElement = dom::by_id("events-body");
    dom::clear(&body);
    for row in &frame.rows {
        body.append_child(&event_row(row)).ok();
    }
    match &frame.active {
        Some(id) => dom::set_attr(&table, "aria-activedescendant", id),
        None => _ = table.remove_attribute("aria-activedescendant"),
    }
    dom::set_text(&dom::by_id("events-note"), &frame.note);
}

fn event_row(row: &app::EventRow) -> Element {
    let tr = El::new("tr")
        .attr("data-index", &row.index)
        .attr("aria-rowindex", &row.row_index)
        .attr("id", &row.id)
        .attr("aria-selected", if row.selected { "true" } else { "false" })
        .class(&row.class);
    (row.cells.iter())
        .fold(tr, |tr, cell| tr.child(&El::new("td").text(cell).el()))
        .el()
}

/// The attempts and ledger tables (and, with a queue, the receipts) as they stand at the
/// cursor; their shells are in `index.html`.
fn paint_tables(tables: &app::TablesFrame) {
    let run: Element = dom::by_id("tables-run");
    dom::set_hidden(&run, tables.run_note.is_none());
    dom::set_text(&run, tables.run_note.as_deref().unwrap_or(""));
    dom::set_hidden(&dom::by_id("table-sql"), tables.sql.rows.is_empty());
    fill("table-sql", &tables.sql);
    fill("table-attempts", &tables.attempts);
    fill("table-charges", &tables.charges);
    dom::set_hidden(&dom::by_id("table-receipts"), tables.receipts.is_none());
    fill(
        "table-receipts",
        tables
            .receipts
            .as_ref()
            .unwrap_or(&app::TableFrame::default()),
    );
}

/// Writes a table's rows and its caption's note.
fn fill(id: &str, frame: &app::TableFrame) {
    let table: Element = dom::by_id(id);
    dom::set_text(&dom::find(&table, "caption span"), &frame.note);
    let body = dom::find(&table, "tbody");
    dom::clear(&body);
    for row in &frame.rows {
        let tr = (row.iter()).fold(El::new("tr"), |tr, c| tr.child(&El::new("td").text(c).el()));
        body.append_child(&tr.el()).ok();
    }
}
