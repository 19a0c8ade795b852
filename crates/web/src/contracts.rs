//! The contracts table (Sweep tab): built in slices of a few milliseconds, a run itself in
//! several when it is long (`job::CountJob`), so that no table holds the page for more than a
//! slice; each row has buttons that load it as run A or B. What it holds is
//! `app::contracts_view`'s.

use idemlab_app::ContractsMsg;
use web_sys::{Element, Event};

use super::dispatch;
use super::dom::{self, El};
use idemlab_app::{ContractRow, Msg};
use idemlab_lab::Side;

pub fn mount() {
    dom::on_click("contracts-run", || {
        dispatch(Msg::Contracts(ContractsMsg::Start(
            dom::input("sweep-seeds").value(),
        )));
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
        let side = (button.get_attribute("data-side").as_deref())
            .and_then(Side::from_name)
            .unwrap_or(Side::A);
        if let Some(row) = row {
            dispatch(Msg::Contracts(ContractsMsg::Load { row, side }));
        }
    });
}

/// Paints the table from the state, if what it shows changed.
pub fn paint(view: Option<&idemlab_app::ContractsView>) {
    if super::with_ui(
        |u| &u.contracts_shown,
        |shown| shown.borrow().as_ref() == view,
    ) {
        return;
    }
    let table: Element = dom::by_id("table-contracts");
    dom::set_hidden(&table, view.is_none());
    table.remove_attribute("aria-busy").ok();
    if let Some(view) = view {
        if view.busy {
            dom::set_attr(&table, "aria-busy", "true");
        }
        dom::set_text(&dom::find(&table, "caption span"), &view.note);
        dom::set_text(&dom::find(&table, "caption code"), &view.command);
        let body: Element = dom::by_id("contracts-body");
        dom::clear(&body);
        for (index, shown) in view.rows.iter().enumerate() {
            body.append_child(&row(index, shown)).ok();
        }
    }
    super::with_ui(
        |u| &u.contracts_shown,
        |shown| *shown.borrow_mut() = view.cloned(),
    );
}

fn row(index: usize, row: &ContractRow) -> Element {
    let head = El::new("th").attr("scope", "row").text(&row.name);
    let head = match row.keys.is_empty() {
        true => head,
        false => head.child(
            &El::new("details")
                .child(&El::new("summary").text(row.keys_label).el())
                .child(&El::new("code").attr("translate", "no").text(&row.keys).el())
                .el(),
        ),
    }
    .el();
    let tr = El::new("tr").child(&head);
    let tr = (row.counts.iter()).fold(tr, |tr, n| {
        tr.child(&El::new("td").text(&n.to_string()).el())
    });
    let load = (row.loads.iter()).fold(El::new("td"), |cell, (side, text, label)| {
        let button = El::new("button")
            .attr("type", "button")
            .attr("data-row", &index.to_string())
            .attr("data-side", side)
            .attr("aria-label", label)
            .text(text)
            .el();
        cell.child(&button)
    });
    tr.child(&load.el()).el()
}
