//! Embedding: the compact view (`embed=1`), the height it posts to its parent so an iframe can
//! size itself, `theme=`, links that keep the document's path, and the dialog that writes the
//! iframe snippet. The page posts its height, and with `report=parent` the learner's results
//! (`app::Report`), and listens to nothing from the parent.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use super::dom::{self, El};
use super::playback::{close_dialog, show_dialog};
use super::{dispatch, with_app};
use idemlab_core::scenario::codec;

use idemlab_app::{Msg, Report, HEIGHT_MESSAGE};

pub fn mount() {
    // The lab started: the note for a host that refused its files (unstyled, since the
    // stylesheet that hides it was refused too) goes.
    if let Some(note) = dom::document().get_element_by_id("boot-note") {
        note.remove();
    }
    restyle();
    if let Some(report) = with_app(|app| idemlab_app::report_on_load(&app.state)) {
        post_report(&report);
    }
    keep_path_in_links();
    if with_app(|app| app.page().embed) {
        post_height_on_resize();
    }
    mount_dialog();
}

/// The link's embed settings: `embed=`, `height=` and `hide=` as classes on the page (the
/// stylesheet does the rest), and `theme=`. At mount, and again when Back or Forward reaches a
/// link with others (`Effects::restyle`).
pub fn restyle() {
    let app: Element = dom::by_id("app");
    let classes = with_app(|app| {
        let page = app.page();
        let parts = idemlab_app::page::PARTS.map(|part| (part, page.hides(part)));
        (page.embed, page.height.is_some(), parts)
    });
    let (embedded, fit, parts) = classes;
    app.class_list().toggle_with_force("embed", embedded).ok();
    // `height=`: the page fits the frame's fixed height (the stylesheet's `.fit`).
    app.class_list().toggle_with_force("fit", fit).ok();
    // `hide=`: a class per part left out; the stylesheet hides it.
    for (part, hidden) in parts {
        let class = format!("hide-{part}");
        app.class_list().toggle_with_force(&class, hidden).ok();
    }
    apply_theme();
}

/// `theme=` (`app::theme_rules`): the stylesheet's dark rules get media text that always or
/// never holds (light, dark) or their own (auto), and the root its `color-scheme`. Through the
/// CSSOM, which the page's CSP allows; the timeline reads its colours from the same rules.
/// The stylesheet has loaded by now: the module script that mounts waits for it (a slow one is
/// tested in `tests/e2e/embed.test.mjs`).
fn apply_theme() {
    let (media, scheme) = with_app(|app| idemlab_app::theme_rules(app.page().theme));
    // Walking every rule of the stylesheet through the CSSOM cost a third of the load's
    // script time (profiled): walk only when the media text has to change, which on most
    // loads (theme auto, the stylesheet's own) it never does.
    if THEME_MEDIA_SET.with(|set| set.replace(media)) != media {
        set_theme_media(media);
    }
    if let Some(root) = dom::document().document_element() {
        let root: &web_sys::HtmlElement = root.unchecked_ref();
        root.style().set_property("color-scheme", scheme).ok();
    }
}

thread_local! {
    /// The media text the stylesheet's dark rules have now: at first, the stylesheet's own.
    static THEME_MEDIA_SET: std::cell::Cell<&'static str> =
        const { std::cell::Cell::new(idemlab_app::THEME_MEDIA[0]) };
}

/// Gives every dark rule of the page's stylesheets the media text `media`.
fn set_theme_media(media: &str) {
    let get = |target: &JsValue, key: &JsValue| js_sys::Reflect::get(target, key);
    let (media_key, text_key) = (JsValue::from_str("media"), JsValue::from_str("mediaText"));
    let sheets = get(&dom::document(), &"styleSheets".into()).unwrap_or_default();
    for sheet in js_sys::Array::from(&sheets).iter() {
        // A sheet not yet loaded, or from elsewhere, has no readable rules.
        let Ok(rules) = get(&sheet, &"cssRules".into()) else {
            continue;
        };
        for rule in js_sys::Array::from(&rules).iter() {
            let Ok(list) = get(&rule, &media_key) else {
                continue;
            };
            let text = get(&list, &text_key).ok().and_then(|t| t.as_string());
            if text.is_some_and(|t| idemlab_app::is_theme_media(&t)) {
                js_sys::Reflect::set(&list, &text_key, &media.into()).ok();
            }
        }
    }
}

/// The page's own `?…` links (Start Lesson A) resolve against `<base href="./">`, which drops
/// `index.html`: they get the document's path, so a host without directory indexes finds them.
fn keep_path_in_links() {
    let path = dom::window().location().pathname().unwrap_or_default();
    let Ok(links) = dom::document().query_selector_all("a[href^='?']") else {
        return;
    };
    for i in 0..links.length() {
        if let Some(link) = links.item(i).and_then(|l| l.dyn_into::<Element>().ok()) {
            let href = link.get_attribute("href").unwrap_or_default();
            dom::set_attr(&link, "href", &format!("{path}{href}"));
        }
    }
}

fn post_height_on_resize() {
    let callback = Closure::<dyn FnMut()>::new(post_height);
    let observer =
        web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).expect("ResizeObserver");
    // The body holds the content: it changes size when the content does, whatever the frame.
    observer.observe(&dom::document().body().expect("a body"));
    // Both live as long as the page.
    callback.forget();
    std::mem::forget(observer);
    post_height();
}

fn post_height() {
    let window = dom::window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    // The content's height, not the frame's: the root's scroll height is never less than the
    // frame, so a frame sized by it could only grow.
    let height = dom::document().body().map_or(0, |body| {
        body.get_bounding_client_rect().height().ceil() as i32
    });
    // The height is not secret, and the page cannot know its embedder's origin in advance.
    post(HEIGHT_MESSAGE, &[("height", height.into())], "*");
}

/// `report=parent`: a result to the parent frame, as README's schema gives it.
pub fn post_report(report: &Report) {
    let fields: Vec<(&str, JsValue)> = match report {
        &Report::Step {
            lesson,
            step,
            steps,
        } => {
            let mut fields = vec![("lesson", lesson.into()), ("step", step.into())];
            fields.extend(steps.map(|n| ("steps", n.into())));
            fields
        }
        Report::Prediction {
            lesson,
            step,
            answer,
            choice,
            correct,
            steps,
        } => {
            let mut fields = vec![
                ("lesson", (*lesson).into()),
                ("step", (*step).into()),
                ("answer", (*answer).into()),
                ("choice", choice.into()),
                ("correct", (*correct).into()),
            ];
            fields.extend(steps.map(|n| ("steps", n.into())));
            fields
        }
        &Report::Quiz {
            lesson,
            seed,
            score,
            total,
            mastered,
        } => vec![
            ("lesson", lesson.into()),
            // A string: seeds go past 2^53, where a JavaScript number loses digits.
            ("seed", seed.to_string().into()),
            ("score", score.into()),
            ("total", total.into()),
            ("mastered", mastered.into()),
        ],
    };
    // To the course page's origin when the browser says it (`document.referrer`, which is the
    // parent's address or origin); otherwise to any, since the messages hold only what the
    // learner did in this frame (README, Embedding).
    let referrer = dom::document().referrer();
    let origin = web_sys::Url::new(&referrer).map_or("*".into(), |url| url.origin());
    post(report.kind(), &fields, &origin);
}

fn post(kind: &str, fields: &[(&str, JsValue)], target_origin: &str) {
    let window = dom::window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    let message = js_sys::Object::new();
    js_sys::Reflect::set(&message, &"type".into(), &kind.into()).ok();
    for (key, value) in fields {
        js_sys::Reflect::set(&message, &(*key).into(), value).ok();
    }
    parent.post_message(&message, target_origin).ok();
}

fn mount_dialog() {
    let fieldset: Element = dom::by_id("embed-controls");
    for name in codec::key_names() {
        let id = format!("embed-open-{name}");
        let label = El::new("label")
            .child(
                &El::new("input")
                    .attr("type", "checkbox")
                    .attr("id", &id)
                    .attr("data-key", name)
                    .el(),
            )
            .child(&El::new("span").text(&format!(" {name}")).el());
        fieldset.append_child(&label.el()).ok();
    }
    dom::listen::<Event>(&fieldset, "change", |_| write_snippet());
    dom::listen::<Event>(&dom::by_id::<Element>("embed-report"), "change", |_| {
        write_snippet()
    });
    for field in ["embed-name", "embed-height"] {
        dom::listen::<Event>(&dom::by_id::<Element>(field), "input", |_| write_snippet());
    }
    mount_composer();
    dom::on_click("embed-none", || tick_all(false));
    dom::on_click("embed-all", || tick_all(true));
    dom::on_click("embed-open", || {
        paint_composer();
        // A page whose link reports already offers a snippet that does too, untickable.
        let reports = with_app(|app| app.state.page.report);
        dom::input("embed-report").set_checked(reports);
        // Nothing editable until the author ticks it: an embed's keys are locked by default.
        tick_all(false);
        show_dialog("embed-dialog");
    });
    dom::on_click("embed-close", || close_dialog("embed-dialog"));
    dom::on_click("embed-copy", || {
        let text = dom::by_id::<HtmlTextAreaElement>("embed-snippet").value();
        super::export::copy_text(&text, "embed-copy", "embed-snippet");
    });
}

/// None or All, then the snippet and its default title again.
fn tick_all(on: bool) {
    for name in codec::key_names() {
        dom::input(&format!("embed-open-{name}")).set_checked(on);
    }
    dom::input("embed-name").set_value(&default_title());
    write_snippet();
}

fn chosen_controls() -> Vec<String> {
    codec::key_names()
        .filter(|name| dom::by_id::<HtmlInputElement>(&format!("embed-open-{name}")).checked())
        .map(String::from)
        .collect()
}

fn write_snippet() {
    let controls = chosen_controls();
    let typed = dom::input("embed-height").value();
    let height = idemlab_app::embed_height(&typed);
    let error = idemlab_app::embed_height_error(&typed);
    let error_el: Element = dom::by_id("embed-height-error");
    dom::set_text(&error_el, error.as_deref().unwrap_or(""));
    dom::set_hidden(&error_el, error.is_none());
    let report = dom::input("embed-report").checked();
    let query = with_app(|app| idemlab_app::embed_query(&app.state, controls, height, report));
    let url = format!("{}?{query}", super::page_url());
    let snippet = idemlab_app::embed_snippet(&url, &dom::input("embed-name").value(), height);
    dom::by_id::<HtmlTextAreaElement>("embed-snippet").set_value(&snippet);
}

/// The composer of the author's own steps (`app::compose_add`): its fields are read when a
/// step is added; the sequence itself lives in the page's state.
fn mount_composer() {
    dom::on_click("compose-add", || {
        let before = default_title();
        let msg = with_app(|app| {
            let check = dom::input("compose-check").checked();
            let b = app.runs.b.as_ref().map(|b| &b.metrics);
            let checks = match check {
                true => idemlab_app::compose_checks(&app.state, &app.runs.a.metrics, b),
                false => Vec::new(),
            };
            Msg::ComposeAdd {
                caption: dom::input("compose-caption").value(),
                ask: dom::by_id::<HtmlSelectElement>("compose-ask").value(),
                checks,
            }
        });
        dispatch(msg);
        if with_app(|app| app.state.compose_error.is_none()) {
            dom::input("compose-caption").set_value("");
        }
        composed(&before);
    });
    dom::on_click("compose-clear", || {
        let before = default_title();
        dispatch(Msg::ComposeClear);
        composed(&before);
    });
    let list: Element = dom::by_id("compose-list");
    dom::listen::<Event>(&list, "click", |event| {
        let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
        let index = target.and_then(|t| t.get_attribute("data-compose-remove"));
        if let Some(index) = index.and_then(|i| i.parse::<usize>().ok()) {
            let before = default_title();
            dispatch(Msg::ComposeRemove(index));
            composed(&before);
        }
    });
}

/// A change to the sequence: its list, the snippet, and the default title, unless edited.
fn composed(title_before: &str) {
    paint_composer();
    let title = dom::input("embed-name");
    if title.value() == title_before {
        title.set_value(&default_title());
    }
    write_snippet();
}

fn default_title() -> String {
    with_app(|app| idemlab_app::embed_title(&app.state, &chosen_controls()))
}

/// The question menu (for the view on screen), the steps so far, and why an add was refused.
fn paint_composer() {
    let (asks, lines, error) = with_app(|app| {
        let state = &app.state;
        let lines = idemlab_app::compose_lines(state);
        (
            idemlab_app::compose_ask_choices(state),
            lines,
            state.compose_error.clone(),
        )
    });
    let select: HtmlSelectElement = dom::by_id("compose-ask");
    let chosen = select.value();
    dom::clear(&select);
    for (value, label) in &asks {
        select
            .append_child(&El::new("option").attr("value", value).text(label).el())
            .ok();
    }
    if asks.iter().any(|(value, _)| *value == chosen) {
        select.set_value(&chosen);
    }
    let list: Element = dom::by_id("compose-list");
    dom::clear(&list);
    for (i, line) in lines.iter().enumerate() {
        let remove = El::new("button").attr("type", "button");
        let remove = remove.attr("data-compose-remove", &i.to_string());
        let remove = remove
            .attr("aria-label", &idemlab_lab::tf!("Remove step {}", i + 1))
            .text(idemlab_lab::t!("Remove"));
        let item = El::new("li")
            .child(&El::new("span").text(line).el())
            .child(&remove.el());
        list.append_child(&item.el()).ok();
    }
    dom::set_text(
        &dom::by_id::<Element>("compose-error"),
        error.as_deref().unwrap_or(""),
    );
}
