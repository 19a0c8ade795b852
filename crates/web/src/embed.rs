//! Embedding: the compact view (`embed=1`), the height it posts to its parent so an iframe can
//! size itself, `theme=`, links that keep the document's path, and the dialog that writes the
//! iframe snippet. The page posts its height, and with `report=parent` the learner's results
//! (`app::Report`), and listens to nothing from the parent.

use idemlab_app::OwnMsg;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, Event, HtmlInputElement, HtmlSelectElement, HtmlTextAreaElement};

use super::dom::{self, El};
use super::playback::{close_dialog, show_dialog};
use super::{dispatch, paint_changed, with_app, with_ui};

use idemlab_app::{EmbedForm, EmbedFrame, LooksFrame, Msg, Report};

pub fn mount() {
    // The lab started: the note for a host that refused its files (unstyled, since the
    // stylesheet that hides it was refused too) goes.
    if let Some(note) = dom::document().get_element_by_id("boot-note") {
        note.remove();
    }
    restyle();
    for report in with_app(|app| idemlab_app::report_on_load(&mut app.state)) {
        post_report(&report);
    }
    keep_path_in_links();
    if with_ui(
        |u| &u.looks_painted,
        |looks| looks.borrow().as_ref().map(|l| l.posts_height),
    ) == Some(true)
    {
        post_height_on_resize();
    }
    mount_dialog();
}

/// The link's embed settings (`app::view::embed::looks`): `embed=`, `height=` and `hide=` as
/// classes on the page (the stylesheet does the rest), and `theme=`. At mount, and again when
/// Back or Forward reaches a link with others (`Effects::restyle`).
pub fn restyle() {
    let frame = with_app(|app| idemlab_app::view::embed::looks(&app.state));
    paint_changed(|u| &u.looks_painted, &frame, paint_looks);
}

fn paint_looks(frame: &LooksFrame, last: Option<&LooksFrame>) {
    let app: Element = dom::by_id("app");
    for (class, on) in &frame.classes {
        app.class_list().toggle_with_force(class, *on).ok();
    }
    // The theme, through the CSSOM, which the page's CSP allows; the timeline reads its
    // colours from the same rules. The stylesheet has loaded by now: the module script that
    // mounts waits for it (a slow one is tested in `tests/e2e/embed.test.mjs`). Walking every
    // rule of the stylesheet cost a third of the load's script time (profiled): walk only when
    // the media text has to change, which on most loads (theme auto, the stylesheet's own) it
    // never does.
    let media_before = last.map_or(frame.dark_media[0], |last| last.theme_media);
    if media_before != frame.theme_media {
        set_theme_media(frame.theme_media, &frame.dark_media);
    }
    if let Some(root) = dom::document().document_element() {
        let root: &web_sys::HtmlElement = root.unchecked_ref();
        root.style()
            .set_property("color-scheme", frame.color_scheme)
            .ok();
    }
}

/// Gives every dark rule of the page's stylesheets (a rule whose media text is one of
/// `dark_media`) the media text `media`.
fn set_theme_media(media: &str, dark_media: &[&str]) {
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
            if text.is_some_and(|t| dark_media.contains(&t.as_str())) {
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
    // Chromium skips the rendering steps (resize observers, animation frames) of a frame from
    // another origin while it is scrolled out of view, so a course column that narrows leaves
    // such a frame at its old height until it is scrolled near. A timer still runs there:
    // reading the height lays out what changed, and costs next to nothing when nothing did.
    let tick = Closure::<dyn FnMut()>::new(|| {
        super::refit_runs();
        post_height();
    });
    let every_ms = HEIGHT_CHECK_MS;
    dom::window()
        .set_interval_with_callback_and_timeout_and_arguments_0(
            tick.as_ref().unchecked_ref(),
            every_ms,
        )
        .ok();
    tick.forget();
}

/// How often an embed checks its height where no resize observer runs.
const HEIGHT_CHECK_MS: i32 = 500;

/// Posts the content's height to the parent frame, in the lab's message and in Canvas's, when it
/// changed since the last post; nothing until the page is ready, since before then the body
/// holds markup the first paint hides (frames first reported 2,000 to 5,000 px).
pub fn post_height() {
    let posts = with_ui(
        |u| &u.looks_painted,
        |l| l.borrow().as_ref().map(|l| l.posts_height),
    );
    if posts != Some(true) || with_ui(|u| &u.loading, |l| l.get()) {
        return;
    }
    // The content's height, not the frame's: the root's scroll height is never less than the
    // frame, so a frame sized by it could only grow.
    let height = dom::document().body().map_or(0, |body| {
        body.get_bounding_client_rect().height().ceil() as i32
    });
    let height = height.max(0) as u32;
    if with_ui(|u| &u.height_posted_px, |h| h.replace(height)) == height {
        return;
    }
    // The height is not secret, and the page cannot know its embedder's origin in advance;
    // `report=ORIGIN` names it, and then nothing goes anywhere else.
    let origin = with_app(|app| app.state.page.report_origin.clone());
    let origin = origin.as_deref().unwrap_or("*");
    post(&idemlab_app::height_json(height), origin);
    post(&idemlab_app::frame_resize_json(height), origin);
}

/// `report=`: a result to the parent frame, as `app::report` writes it (README's schema), to
/// the origin it names.
pub fn post_report(report: &Report) {
    let referrer = dom::document().referrer();
    let (json, origin) = with_app(|app| {
        let view = idemlab_app::report_view(&app.state);
        let origin = idemlab_app::report_target(&app.state, &referrer);
        (report.json(&view), origin)
    });
    post(&json, &origin);
}

/// Posts a message written as JSON (`app::report`) to the parent frame, if there is one.
fn post(json: &str, target_origin: &str) {
    let window = dom::window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if parent == window {
        return;
    }
    let Ok(message) = js_sys::JSON::parse(json) else {
        return;
    };
    parent.post_message(&message, target_origin).ok();
}

fn mount_dialog() {
    let fieldset: Element = dom::by_id("embed-controls");
    for tick in idemlab_app::view::embed::shell().keys {
        let label = El::new("label")
            .child(
                &El::new("input")
                    .attr("type", "checkbox")
                    .attr("id", &tick.id)
                    .attr("data-key", tick.key)
                    .el(),
            )
            .child(&El::new("span").text(&tick.label).el());
        fieldset.append_child(&label.el()).ok();
    }
    dom::listen::<Event>(&fieldset, "change", |_| paint_dialog(&form()));
    dom::listen::<Event>(&dom::by_id::<Element>("embed-report"), "change", |_| {
        paint_dialog(&form())
    });
    for field in ["embed-name", "embed-height"] {
        dom::listen::<Event>(&dom::by_id::<Element>(field), "input", |_| {
            paint_dialog(&form())
        });
    }
    mount_composer();
    dom::on_click("embed-none", || tick_all(false));
    dom::on_click("embed-all", || tick_all(true));
    dom::on_click("embed-open", || {
        // Nothing editable until the author ticks it: an embed's keys are locked by default;
        // the report box as the link says.
        paint_dialog(&EmbedForm {
            open: Vec::new(),
            title: None,
            report: None,
            ..form()
        });
        show_dialog("embed-dialog");
    });
    dom::on_click("embed-close", || close_dialog("embed-dialog"));
    dom::on_click("embed-copy", || {
        let text = dom::by_id::<HtmlTextAreaElement>("embed-snippet").value();
        super::export::copy_text(&text, "embed-copy", "embed-snippet");
    });
}

/// What the dialog's fields say now.
fn form() -> EmbedForm {
    EmbedForm {
        page_url: super::page_url(),
        open: ticked(|tick| tick.checked()),
        height: dom::input("embed-height").value(),
        title: Some(dom::input("embed-name").value()),
        default_before: None,
        report: Some(dom::input("embed-report").checked()),
        ask: dom::by_id::<HtmlSelectElement>("compose-ask").value(),
        measured: with_ui(|u| &u.measured, |m| m.borrow().clone()),
    }
}

/// The keys of the ticks that `pick` picks.
fn ticked(pick: impl Fn(&HtmlInputElement) -> bool) -> Vec<String> {
    let fieldset: Element = dom::by_id("embed-controls");
    let Ok(ticks) = fieldset.query_selector_all("input[data-key]") else {
        return Vec::new();
    };
    let ticks = (0..ticks.length()).filter_map(|i| ticks.item(i));
    let ticks = ticks.filter_map(|t| t.dyn_into::<HtmlInputElement>().ok());
    ticks
        .filter(|tick| pick(tick))
        .filter_map(|tick| tick.get_attribute("data-key"))
        .collect()
}

/// None or All, then the snippet and its default title again.
fn tick_all(on: bool) {
    paint_dialog(&EmbedForm {
        open: ticked(|_| on),
        title: None,
        ..form()
    });
}

/// Paints the dialog as `app::view::embed::view` says for `form`: each part only when it
/// changed since the last paint, so a field the author is using is not rebuilt under them.
fn paint_dialog(form: &EmbedForm) {
    let frame = with_app(|app| idemlab_app::view::embed::view(&app.state, form));
    let last = with_ui(|u| &u.embed_painted, |last| last.replace(None));
    for (id, ticked) in &frame.ticks {
        dom::input(id).set_checked(*ticked);
    }
    let title = dom::input("embed-name");
    if title.value() != frame.title {
        title.set_value(&frame.title);
    }
    dom::input("embed-report").set_checked(frame.report);
    let error_el: Element = dom::by_id("embed-height-error");
    dom::set_text(&error_el, frame.height_error.as_deref().unwrap_or(""));
    dom::set_hidden(&error_el, frame.height_error.is_none());
    dom::by_id::<HtmlTextAreaElement>("embed-snippet").set_value(&frame.snippet);
    paint_composer(&frame, last.as_ref());
    let measuring = measuring_now();
    if frame.measure.is_some() && frame.measure != measuring {
        start_measuring(frame.measure.clone().unwrap_or_default());
    }
    let shown = frame.measure.is_some() && frame.measure == measuring_now();
    dom::set_hidden(&dom::by_id::<Element>("embed-measuring"), !shown);
    with_ui(|u| &u.embed_painted, |last| last.replace(Some(frame)));
}

/// The link being measured, while its measuring has not ended (or given up).
fn measuring_now() -> Option<String> {
    with_ui(|u| &u.measuring, |m| m.borrow().clone())
}

/// Measures the snippet's view in a hidden frame of this page's origin, at each width class's
/// width in turn (`app::WIDTH_CLASSES`), so that the snippet's frame starts at its height.
fn start_measuring(url: String) {
    with_ui(|u| &u.measuring, |m| m.replace(Some(url.clone())));
    let frame = measure_frame();
    dom::set_attr(&frame, "src", &url);
    measure_step(url, 0, Settle::default());
}

/// A hidden frame for measuring: rendered (a frame not rendered has no height), off screen, out
/// of the tab order and of the accessibility tree.
fn measure_frame() -> Element {
    if let Some(frame) = dom::document().get_element_by_id("embed-measure-frame") {
        return frame;
    }
    let frame = El::new("iframe")
        .attr("id", "embed-measure-frame")
        .attr("class", "measure-frame")
        .attr("aria-hidden", "true")
        .attr("tabindex", "-1")
        .attr("title", "")
        .el();
    if let Some(body) = dom::document().body() {
        body.append_child(&frame).ok();
    }
    frame
}

/// How far one width's measuring has come: the last height read, how many reads in a row gave
/// it, and how many reads there have been.
#[derive(Clone, Copy, Default)]
struct Settle {
    last_px: u32,
    same: u32,
    reads: u32,
}

/// Reads the measuring frame's height every `MEASURE_EVERY_MS` once its lab is ready, until it
/// holds still for `MEASURE_STILL` reads, then goes on to the next width; gives up (the snippet
/// keeps its unmeasured height) after `MEASURE_READS_MAX` reads of one width, or when the
/// dialog asks for another link.
fn measure_step(url: String, class: usize, settle: Settle) {
    if measuring_now().as_deref() != Some(url.as_str()) || settle.reads > MEASURE_READS_MAX {
        return;
    }
    let frame: web_sys::HtmlIFrameElement = measure_frame().unchecked_into();
    // A width's first read sets the frame to it; the reads after wait for it to settle there.
    if settle.reads == 0 {
        let width_px = idemlab_app::WIDTH_CLASSES[class].measure_px;
        frame
            .style()
            .set_property("width", &format!("{width_px}px"))
            .ok();
    }
    let height = frame.content_document().and_then(|doc| {
        let ready = doc.document_element()?.get_attribute("data-state")? == "ready";
        let body = doc.body().filter(|_| ready)?;
        idemlab_app::measured_height_px(body.get_bounding_client_rect().height())
    });
    let settle = match height {
        Some(px) if px == settle.last_px => Settle {
            same: settle.same + 1,
            reads: settle.reads + 1,
            ..settle
        },
        px => Settle {
            last_px: px.unwrap_or(0),
            same: 0,
            reads: settle.reads + 1,
        },
    };
    if settle.same < MEASURE_STILL {
        dom::later(MEASURE_EVERY_MS, move || measure_step(url, class, settle));
        return;
    }
    let mut heights = with_ui(|u| &u.measured, |m| m.borrow().clone())
        .filter(|(link, _)| *link == url)
        .map_or([0; idemlab_app::WIDTH_CLASSES.len()], |(_, px)| px);
    heights[class] = settle.last_px;
    with_ui(|u| &u.measured, |m| m.replace(Some((url.clone(), heights))));
    if class + 1 < heights.len() {
        dom::later(MEASURE_EVERY_MS, move || {
            measure_step(url, class + 1, Settle::default())
        });
        return;
    }
    // Measured: the lab in the frame goes, with its memory, and the snippet gets its heights.
    dom::set_attr(&frame, "src", "about:blank");
    with_ui(|u| &u.measuring, |m| m.replace(None));
    paint_dialog(&form());
}

const MEASURE_EVERY_MS: i32 = 100;
/// Reads in a row at one height before it counts: the lab refits its timelines after a resize.
const MEASURE_STILL: u32 = 3;
const MEASURE_READS_MAX: u32 = 150;

/// The composer of the author's own steps (`app::compose_add`): its fields are read when a
/// step is added; the sequence itself lives in the page's state.
fn mount_composer() {
    dom::on_click("compose-add", || {
        composed(Msg::Own(OwnMsg::Add {
            caption: dom::input("compose-caption").value(),
            ask: dom::by_id::<HtmlSelectElement>("compose-ask").value(),
            words: dom::input("compose-words").value(),
        }));
        // Added: the caption field is ready for the next step's.
        let refused = with_ui(
            |u| &u.embed_painted,
            |last| {
                last.borrow()
                    .as_ref()
                    .map(|frame| frame.compose_error.is_some())
            },
        );
        if refused == Some(false) {
            dom::input("compose-caption").set_value("");
            dom::input("compose-words").set_value("");
        }
    });
    dom::on_click("compose-clear", || composed(Msg::Own(OwnMsg::Clear)));
    let list: Element = dom::by_id("compose-list");
    dom::listen::<Event>(&list, "click", |event| {
        let target = event.target().and_then(|t| t.dyn_into::<Element>().ok());
        let index = target.and_then(|t| t.get_attribute("data-compose-remove"));
        if let Some(index) = index.and_then(|i| i.parse::<usize>().ok()) {
            composed(Msg::Own(OwnMsg::Remove(index)));
        }
    });
}

/// A change to the sequence: its list, the snippet, and the default title, unless edited.
fn composed(msg: Msg) {
    let default_before =
        with_app(|app| idemlab_app::view::embed::view(&app.state, &form())).default_title;
    dispatch(msg);
    paint_dialog(&EmbedForm {
        default_before: Some(default_before),
        ..form()
    });
}

/// The question menu (for the view on screen), the steps so far, and why an add was refused:
/// each rebuilt only when it changed.
fn paint_composer(frame: &EmbedFrame, last: Option<&EmbedFrame>) {
    let select: HtmlSelectElement = dom::by_id("compose-ask");
    if last.is_none_or(|last| last.asks != frame.asks) {
        dom::clear(&select);
        for (value, label) in &frame.asks {
            select
                .append_child(&El::new("option").attr("value", value).text(label).el())
                .ok();
        }
    }
    select.set_value(&frame.ask);
    if last.is_none_or(|last| last.steps != frame.steps) {
        let list: Element = dom::by_id("compose-list");
        dom::clear(&list);
        for (i, step) in frame.steps.iter().enumerate() {
            let remove = El::new("button").attr("type", "button");
            let remove = remove.attr("data-compose-remove", &i.to_string());
            let remove = (remove.attr("aria-label", &step.remove_label)).text(step.remove);
            let item = El::new("li")
                .child(&El::new("span").text(&step.text).el())
                .child(&remove.el());
            list.append_child(&item.el()).ok();
        }
    }
    dom::set_text(
        &dom::by_id::<Element>("compose-error"),
        frame.compose_error.as_deref().unwrap_or(""),
    );
}
