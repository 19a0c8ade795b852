//! Keyboard and screen-reader access: the skip links, the help's shortcuts setting
//! (kept in the progress record), and the one announcement region, written as
//! `app::announce` says after each paint. The decisions are `app`'s.

use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlElement};

use super::{dispatch, dom, with_app, with_ui};
use idemlab_app::{self as app, Msg};
use idemlab_lab::Side;

pub fn mount() {
    // One delegated listener for the three skip links (each closure costs the page's wasm).
    let document: web_sys::EventTarget = dom::document().unchecked_into();
    dom::listen::<Event>(&document, "click", |event| {
        let link = (event.target())
            .and_then(|t| t.dyn_into::<Element>().ok())
            .and_then(|t| t.closest("a.skip").ok().flatten());
        let Some(link) = link else {
            return;
        };
        event.prevent_default();
        let (msg, selector) = with_app(|app| app::skip_to(&app.state, &link.id()));
        if let Some(msg) = msg {
            dispatch(msg);
        }
        focus(selector);
    });
    let setting = dom::input("shortcuts-off");
    setting.set_checked(with_app(|app| app.state.shortcuts_off));
    let target = setting.clone();
    dom::listen::<Event>(&setting, "change", move |_| {
        let off = target.checked();
        let mut progress = super::quiz::load_progress();
        progress.shortcuts_off = off;
        super::quiz::store_progress(progress);
        dispatch(Msg::ShortcutsOff(off));
    });
}

pub(super) fn focus(selector: &str) {
    let found = dom::document().query_selector(selector).ok().flatten();
    if let Some(element) = found.and_then(|e| e.dyn_into::<HtmlElement>().ok()) {
        element.focus().ok();
    }
}

/// After a paint: what `app::announce` says is worth one sentence goes to `#announce`.
pub fn speak() {
    let active = dom::document().active_element().map(|e| e.id());
    let self_spoken = matches!(active.as_deref(), Some("scrub" | "events"));
    let said = with_app(|app| {
        let built = app.state.computing.is_none() && app.state.events_a > 0;
        let mut runs = vec![(Side::A, &app.runs.a.trace.scenario, &app.runs.a.metrics)];
        if let Some(b) = &app.runs.b {
            runs.push((Side::B, &b.trace.scenario, &b.metrics));
        }
        let lead = &app.lead().trace;
        let outline = app::pointer_status(
            &app.state,
            &app.runs.a.timeline,
            app.runs.b.as_ref().map(|b| &b.timeline),
        );
        with_ui(
            |u| &u.heard,
            |heard| {
                let runs = built.then_some(&runs[..]);
                let mut heard = heard.borrow_mut();
                let heard = heard.get_or_insert_with(Default::default);
                app::announce(heard, &app.state, lead, runs, self_spoken, outline)
            },
        )
    });
    if let Some(said) = said {
        // Written afresh even when the same words come again (a second pause at one event).
        dom::by_id::<Element>("announce").set_text_content(Some(&said));
    }
}
