//! The key-store panel beside each run's timeline: `app::view::keys::view` painted into the
//! table shell in `index.html` (inside run A's block, so run B's copy has its own). A table is
//! rebuilt only when it changed since the last paint.

use web_sys::Element;

use super::dom::{self, El};
use super::{dispatch, paint_changed};
use idemlab_app::{KeyTable, KeysFrame, Msg};

pub fn mount() {
    dom::on_click("keystore-toggle", || dispatch(Msg::ToggleKeyStore));
}

/// Paints the panels as `app::view::keys::view` says, unless they are as last painted.
pub fn render(frame: &KeysFrame) {
    paint_changed(|u| &u.keys_painted, frame, paint);
}

fn paint(frame: &KeysFrame, last: Option<&KeysFrame>) {
    let toggle: Element = dom::by_id("keystore-toggle");
    let pressed = if frame.open { "true" } else { "false" };
    dom::set_attr(&toggle, "aria-pressed", pressed);
    for (i, name) in ["a", "b"].into_iter().enumerate() {
        let block: Element = dom::by_id(&format!("run-{name}"));
        (block.class_list())
            .toggle_with_force("keys-open", frame.open)
            .ok();
        dom::set_hidden(&dom::by_id(&format!("keystore-{name}")), !frame.open);
        let before = last.and_then(|last| last.tables[i].as_ref());
        match &frame.tables[i] {
            Some(table) if Some(table) != before => paint_table(name, table),
            _ => {}
        }
    }
}

fn paint_table(name: &str, table: &KeyTable) {
    let view = &table.view;
    dom::set_text(
        &dom::by_id(&format!("keystore-caption-{name}")),
        &view.caption,
    );
    let body: Element = dom::by_id(&format!("keystore-body-{name}"));
    dom::clear(&body);
    for row in &view.rows {
        let cells = [row.state_text, &row.response, &row.written, &row.expires];
        let tr = cells
            .iter()
            .fold(El::new("tr").child(&key_cell(&row.key)), |tr, cell| {
                tr.child(&El::new("td").text(cell).el())
            });
        let tr = tr.attr("data-state", row.state).attr("title", &row.by);
        body.append_child(&tr.el()).ok();
    }
    let note_el: Element = dom::by_id(&format!("keystore-note-{name}"));
    dom::set_text(&note_el, table.note.as_deref().unwrap_or(""));
    dom::set_hidden(&note_el, table.note.is_none());
}

/// A key's cell, which may break after a `/` and nowhere else: each part reads whole
/// ("proc-508f41de/" then "work-1"), and the Expires column stays in a narrow panel.
fn key_cell(key: &str) -> Element {
    let cell = El::new("td");
    let cell = (key.split_inclusive('/').enumerate()).fold(cell, |cell, (i, part)| {
        let cell = if i > 0 {
            cell.child(&El::new("wbr").el())
        } else {
            cell
        };
        cell.child(&El::new("span").text(part).el())
    });
    cell.el()
}
