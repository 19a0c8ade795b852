//! The contracts table (Sweep tab): built in slices of a few milliseconds, a run itself in
//! several when it is long (`job::CountJob`), so that no table holds the page for more than a
//! slice; each row has buttons that load it as run A or B. What it holds is
//! `app::contracts_view`'s.

use std::cell::{Cell, RefCell};

use web_sys::{Element, Event};

use super::dom::{self, El};
use super::{dispatch, with_app};
use idemlab_app::job::CountJob;
use idemlab_app::{ContractsView, Msg};
use idemlab_course::lessons::Side;

/// Work per slice before yielding to the browser, as the sweep's.
const SLICE_MS: f64 = 8.0;
/// Simulator actions between two looks at the clock: well under a millisecond of wasm time.
const STEP_ACTIONS: u32 = 8_192;

thread_local! {
    /// The chain of slices that may go on: a new table starts a new chain and ends the old.
    static CHAIN: Cell<u32> = const { Cell::new(0) };
    /// What the table shows now, so that a repaint of the page rebuilds it only on a change.
    static SHOWN: RefCell<Option<ContractsView>> = const { RefCell::new(None) };
    /// The run in progress, between slices: the table's `next` run.
    static RUN: RefCell<Option<CountJob>> = const { RefCell::new(None) };
}

pub fn mount() {
    dom::on_click("contracts-run", || {
        dispatch(Msg::ContractsStart(dom::input("sweep-seeds").value()));
    });
    let body: Element = dom::by_id("contracts-body");
    dom::listen::<Event>(&body, "click", |event| {
        let button = (event.target())
            .and_then(|t| wasm_bindgen::JsCast::dyn_into::<Element>(t).ok())
            .and_then(|t| t.closest("button[data-row]").ok().flatten());
        let Some(button) = button else {
            return;
        };
        let row = button
            .get_attribute("data-row")
            .and_then(|r| r.parse().ok());
        let side = match button.get_attribute("data-side").as_deref() {
            Some("b") => Side::B,
            _ => Side::A,
        };
        if let Some(row) = row {
            dispatch(Msg::ContractsLoad { row, side });
        }
    });
}

/// Starts a new chain of slices for the state's table (`Effects::contracts_slice`).
pub fn schedule() {
    let chain = CHAIN.with(|c| c.get().wrapping_add(1));
    CHAIN.with(|c| c.set(chain));
    // A run of the table this one replaces.
    RUN.with(|run| run.borrow_mut().take());
    dom::later(0, move || slice(chain));
}

/// Runs the table's runs until the slice's time is up, paints, and yields while more are due;
/// a stop, a new table or a scenario change ends the chain.
fn slice(chain: u32) {
    if CHAIN.with(Cell::get) != chain {
        return;
    }
    let deadline_ms = dom::now_ms() + SLICE_MS;
    while dom::now_ms() < deadline_ms && advance() {}
    paint();
    let busy = with_app(|app| app.state.contracts.as_ref().is_some_and(|t| t.busy()));
    if busy {
        dom::later(0, move || slice(chain));
    }
}

/// Does `STEP_ACTIONS` more of the table's run in progress (starting its next run if none is),
/// and adds a finished run's counts to the table; false once nothing is due.
fn advance() -> bool {
    let next = || {
        with_app(|app| {
            (app.state.contracts.as_ref())
                .filter(|t| t.busy())?
                .job
                .next()
        })
    };
    RUN.with(|cell| {
        let mut run = cell.borrow_mut();
        if run.is_none() {
            let Some(scenario) = next() else {
                return false;
            };
            *run = Some(CountJob::new(&scenario));
        }
        let counts = run.as_mut().and_then(|job| job.step(STEP_ACTIONS));
        if let Some(metrics) = counts {
            *run = None;
            with_app(|app| {
                if let Some(table) = app.state.contracts.as_mut().filter(|t| t.busy()) {
                    table.job.add(&metrics);
                }
            });
        }
        true
    })
}

/// Paints the table from the state, if what it shows changed.
pub fn paint() {
    let view = with_app(|app| idemlab_app::contracts_view(&app.state));
    if SHOWN.with(|shown| *shown.borrow() == view) {
        return;
    }
    if view.is_none() {
        // The table is gone (a scenario change): so is the run it had in progress.
        RUN.with(|run| run.borrow_mut().take());
    }
    let table: Element = dom::by_id("table-contracts");
    dom::set_hidden(&table, view.is_none());
    table.remove_attribute("aria-busy").ok();
    if let Some(view) = &view {
        if view.busy {
            dom::set_attr(&table, "aria-busy", "true");
        }
        dom::set_text(&dom::find(&table, "caption span"), &view.note);
        dom::set_text(&dom::find(&table, "caption code"), &view.command);
        let body: Element = dom::by_id("contracts-body");
        dom::clear(&body);
        for (index, (name, sets, counts)) in view.rows.iter().enumerate() {
            body.append_child(&row(index, name, sets, counts)).ok();
        }
    }
    SHOWN.with(|shown| *shown.borrow_mut() = view);
}

fn row(
    index: usize,
    name: &str,
    sets: &str,
    counts: &[u64; idemlab_app::CONTRACT_COLUMNS.len()],
) -> Element {
    let head = El::new("th").attr("scope", "row").text(name);
    // What the contract changes, folded: a practitioner asked which keys a row runs with.
    let head = match sets.is_empty() {
        true => head,
        false => head.child(
            &El::new("details")
                .child(&El::new("summary").text(idemlab_lab::t!("keys")).el())
                .child(
                    &El::new("code")
                        .attr("translate", "no")
                        .text(&sets.replace('&', " "))
                        .el(),
                )
                .el(),
        ),
    }
    .el();
    let tr = El::new("tr").child(&head);
    let tr = (counts.iter()).fold(tr, |tr, n| {
        tr.child(&El::new("td").text(&n.to_string()).el())
    });
    let load = ["a", "b"].iter().fold(El::new("td"), |cell, side| {
        let label = idemlab_lab::tf!("Load {} as run {}", name, side.to_ascii_uppercase());
        let button = El::new("button")
            .attr("type", "button")
            .attr("data-row", &index.to_string())
            .attr("data-side", side)
            .attr("aria-label", &label)
            .text(&side.to_ascii_uppercase())
            .el();
        cell.child(&button)
    });
    tr.child(&load.el()).el()
}
