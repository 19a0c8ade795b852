//! The key-store panel beside each run's timeline: `app::key_store` at the cursor, painted into
//! the table shell in `index.html` (inside run A's block, so run B's copy has its own). The fold
//! reads every event up to the cursor, so it runs only while the panel is open and only when
//! the run or the cursor changed since the last paint.

use web_sys::Element;

use super::dom::{self, El};
use super::{dispatch, with_app, with_ui};
use idemlab_app::{self as app, Msg};
use idemlab_lab::Side;

/// What a key panel was painted from: the run (its events' address), the events folded, and
/// the cursor (the caption says its moment, which moves without B's count moving).
pub type Painted = (usize, usize, Option<u32>);

pub fn mount() {
    dom::on_click("keystore-toggle", || dispatch(Msg::ToggleKeyStore));
}

pub fn render() {
    let open = with_app(|app| app.state.page.keys);
    let toggle: Element = dom::by_id("keystore-toggle");
    dom::set_attr(&toggle, "aria-pressed", if open { "true" } else { "false" });
    for (i, side) in [(0, Side::A), (1, Side::B)] {
        let name = if side == Side::A { "a" } else { "b" };
        let block: Element = dom::by_id(&format!("run-{name}"));
        block.class_list().toggle_with_force("keys-open", open).ok();
        dom::set_hidden(&dom::by_id(&format!("keystore-{name}")), !open);
        // What was painted last: the run (its events' address) and how many events were folded.
        let now = if open {
            with_app(|app| painted_for(app, side))
        } else {
            None
        };
        let before = with_ui(|u| &u.keys_painted, |cell| cell.get()[i]);
        if now.is_some() && now != before {
            paint(name, side);
        }
        with_ui(
            |u| &u.keys_painted,
            |cell| {
                let mut painted = cell.get();
                painted[i] = now;
                cell.set(painted);
            },
        );
    }
}

/// The run's identity and the events the panel folds, or `None` when the side has no run.
fn painted_for(app: &super::App, side: Side) -> Option<Painted> {
    let run = match side {
        Side::A => &app.runs.a,
        Side::B => app.runs.b.as_ref()?,
    };
    let count = app::events_counted(&app.state, &app.lead().trace, side, &run.trace);
    let count = count.unwrap_or(run.trace.events.len());
    let cursor = app.state.page.cursor.map(|_| app.state.cursor());
    Some((
        std::sync::Arc::as_ptr(&run.trace.events) as usize,
        count,
        cursor,
    ))
}

fn paint(name: &str, side: Side) {
    let view = with_app(|app| {
        let run = match side {
            Side::A => &app.runs.a,
            Side::B => app.runs.b.as_ref().expect("painted only when B runs"),
        };
        app::key_store_for(&app.state, &app.lead().trace, side, &run.trace)
    });
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
    let note = view.more.as_deref().or(view.empty).unwrap_or("");
    let note_el: Element = dom::by_id(&format!("keystore-note-{name}"));
    dom::set_text(&note_el, note);
    dom::set_hidden(&note_el, note.is_empty());
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
