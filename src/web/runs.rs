//! The runs: for configuration A (and B when comparing) the counters at the cursor and the
//! race timeline, plus the difference between them and the timeline's pointer interactions.

use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, KeyboardEvent, MouseEvent, WheelEvent};

use super::dom::{self, El};
use super::timeline::{Frame, GUTTER_PX};
use super::{with_app, App, Run};
use crate::decimal::Fixed;
use crate::lessons::Side;
use crate::scenario::codec;
use crate::view::Viewport;
use crate::Metrics;

/// The counters, with `data-metric` names as in `idemlab run`'s JSON.
const COUNTERS: [(&str, &str, &str); 16] = [
    ("orders", "Orders", "Orders a client started"),
    (
        "attempts",
        "Requests sent",
        "Every attempt the clients sent, retries and reruns included",
    ),
    (
        "received",
        "Attempts recorded",
        "Rows in the attempts table: requests that reached the API",
    ),
    (
        "effects",
        "Effects",
        "Charges made by the payment service (op=charge), or writes that took effect (op=set)",
    ),
    (
        "duplicates",
        "Duplicates",
        "Repeated harm: each charge after an order's first, each ledger row that books a charge again, and each receipt after an event's first",
    ),
    (
        "lost",
        "Lost work",
        "Orders the client saw succeed that have no effect of their own",
    ),
    (
        "races",
        "Races",
        "Lookups that read \"not found\" while another copy of the key was mid-flight",
    ),
    (
        "unrecorded",
        "Unrecorded charges",
        "Charges the ledger never committed a row for",
    ),
    ("ok", "OK", "Orders that ended with a success response"),
    ("failed", "Failed", "Orders refused with 400 or 422"),
    (
        "unknown",
        "Unknown",
        "Orders whose client gave up without an answer",
    ),
    (
        "in_flight",
        "In flight",
        "Orders started and not finished at the cursor",
    ),
    (
        "receipts",
        "Receipts",
        "Receipts the queue's consumer mailed, repeats included",
    ),
    (
        "duplicate_receipts",
        "Duplicate receipts",
        "Receipts beyond the first for the same queue event",
    ),
    (
        "redeliveries",
        "Redeliveries",
        "Events the queue delivered again because no acknowledgement came back",
    ),
    (
        "dead_letters",
        "Dead letters",
        "Events the queue gave up on after deliveries_max deliveries",
    ),
];

/// The counters that only mean something when the run has a queue (`consumer=plain|inbox`).
const QUEUE_COUNTERS: [&str; 4] = [
    "receipts",
    "duplicate_receipts",
    "redeliveries",
    "dead_letters",
];

const SIDES: [&str; 2] = ["a", "b"];

pub fn mount() {
    let runs: Element = dom::by_id("runs");
    let zoom = El::new("div")
        .class("zoom")
        .attr("role", "group")
        .attr("aria-label", "Zoom the time axis")
        .child(
            &El::new("button")
                .attr("id", "zoom-in")
                .attr("type", "button")
                .attr("aria-label", "Zoom in (+)")
                .text("+")
                .el(),
        )
        .child(
            &El::new("button")
                .attr("id", "zoom-out")
                .attr("type", "button")
                .attr("aria-label", "Zoom out (-)")
                .text("−")
                .el(),
        )
        .child(
            &El::new("button")
                .attr("id", "zoom-fit")
                .attr("type", "button")
                .attr("aria-label", "Fit the whole run (0)")
                .text("Fit")
                .el(),
        );
    runs.append_child(&zoom.el()).ok();
    let summary = El::new("p")
        .attr("id", "preset-summary")
        .class("summary")
        .el();
    runs.append_child(&summary).ok();
    runs.append_child(
        &El::new("p")
            .attr("id", "diff")
            .class("diff")
            .attr("aria-live", "polite")
            .el(),
    )
    .ok();
    for side in SIDES {
        runs.append_child(&side_block(side)).ok();
    }
    runs.append_child(&legend()).ok();
    // Viewport::zoom(2.0) shows half as much time: in.
    dom::on_click("zoom-in", || zoom_by(2.0));
    dom::on_click("zoom-out", || zoom_by(0.5));
    dom::on_click("zoom-fit", fit);
    for side in SIDES {
        wire_canvas(side);
    }
    wire_drag_window();
}

fn side_block(side: &str) -> Element {
    let counters = COUNTERS.iter().fold(
        El::new("dl")
            .class("counters")
            .attr("id", &format!("counters-{side}")),
        |dl, (name, label, help)| {
            dl.child(
                &El::new("div")
                    .attr("title", help)
                    .child(&El::new("dt").text(label).el())
                    .child(&El::new("dd").attr("data-metric", name).text("–").el())
                    .el(),
            )
        },
    );
    let canvas = El::new("canvas")
        .attr("id", &format!("canvas-{side}"))
        .attr("tabindex", "0")
        .attr("role", "img")
        .el();
    let tooltip = El::new("div")
        .class("tooltip")
        .attr("id", &format!("tooltip-{side}"))
        .attr("role", "tooltip")
        .el();
    dom::set_hidden(&tooltip, true);
    El::new("section")
        .class("run")
        .attr("id", &format!("run-{side}"))
        .child(&El::new("h2").attr("id", &format!("title-{side}")).el())
        .child(
            &El::new("p")
                .attr("id", &format!("counts-at-{side}"))
                .class("counts-at")
                .el(),
        )
        .child(&counters.el())
        .child(
            &El::new("div")
                .class("timeline")
                .attr("id", &format!("timeline-{side}"))
                .child(&canvas)
                .child(&tooltip)
                .el(),
        )
        .el()
}

fn legend() -> Element {
    let items = [
        ("request", "request"),
        ("response", "response"),
        ("charge-call", "call to payment service"),
        ("drop", "✕ dropped (cause beside it)"),
        ("timeout", "timeout / retry"),
        ("lookup-miss", "lookup: not found"),
        ("claim-blocked", "blocked on the unique index"),
        ("charge", "charge"),
        ("charge-duplicate", "duplicate charge"),
        ("txn", "transaction"),
        ("txn-rollback", "rolled back"),
        ("race", "race: both copies read \"not found\""),
        ("api-down", "API down"),
    ];
    let list = El::new("ul").class("legend").attr("aria-label", "Legend");
    items
        .iter()
        .fold(list, |list, (class, text)| {
            list.child(
                &El::new("li")
                    .child(&El::new("span").class(&format!("swatch tl-{class}")).el())
                    .child(&El::new("span").text(text).el())
                    .el(),
            )
        })
        .el()
}

pub fn render() {
    for side in SIDES {
        render_side(side);
    }
    render_diff();
    render_summary();
}

/// What the preset shows, in a sentence, above its timeline (see `Run::summary`).
fn render_summary() {
    let text = with_app(|app| app.a.summary);
    let summary: Element = dom::by_id("preset-summary");
    dom::set_hidden(&summary, text.is_none());
    dom::set_text(&summary, text.unwrap_or(""));
}

fn render_side(side: &str) {
    let block: Element = dom::by_id(&format!("run-{side}"));
    let shown = with_app(|app| side == "a" || app.b.is_some());
    dom::set_hidden(&block, !shown);
    if !shown {
        return;
    }
    with_app(|app| {
        let run = run_of(app, side);
        let metrics = metrics_at_cursor(app, run);
        let queued = run.trace.scenario.consumer != crate::scenario::Consumer::Off;
        render_counters(side, &metrics, queued);
        dom::set_text(&dom::by_id(&format!("title-{side}")), &title(app, side));
        dom::set_text(&dom::by_id(&format!("counts-at-{side}")), &counts_at(app));
        let root: Element = dom::by_id(&format!("timeline-{side}"));
        root.set_attribute("data-events", &run.trace.events.len().to_string())
            .ok();
        let canvas: HtmlCanvasElement = dom::by_id(&format!("canvas-{side}"));
        let label = format!(
            "Race timeline of {}: {} events. The Events tab lists them as text.",
            title(app, side),
            run.trace.events.len()
        );
        canvas.set_attribute("aria-label", &label).ok();
        with_frame(app, side, &canvas, |frame| frame.paint());
    });
}

fn run_of<'a>(app: &'a App, side: &str) -> &'a Run {
    if side == "b" {
        app.b.as_ref().expect("side b is shown only when comparing")
    } else {
        &app.a
    }
}

/// The counts as they stand at the cursor: A up to the cursor event, B up to the same time.
fn metrics_at_cursor(app: &App, run: &Run) -> Metrics {
    if app.page.cursor.is_none() {
        return run.metrics.clone();
    }
    let count = if std::ptr::eq(run, &app.a) {
        app.cursor() + 1
    } else {
        run.events_by(app.cursor_time_us())
    };
    run.index.at(&run.trace, count)
}

fn render_counters(side: &str, m: &Metrics, queued: bool) {
    let values = [
        m.orders,
        m.attempts,
        m.received,
        m.effects,
        m.duplicates,
        m.lost,
        m.races,
        m.unrecorded,
        m.outcomes.ok,
        m.outcomes.failed,
        m.outcomes.unknown,
        m.outcomes.in_flight,
        m.receipts,
        m.duplicate_receipts,
        m.redeliveries,
        m.dead_letters,
    ];
    let dl: Element = dom::by_id(&format!("counters-{side}"));
    for ((name, _, _), value) in COUNTERS.iter().zip(values) {
        if let Ok(Some(dd)) = dl.query_selector(&format!("[data-metric=\"{name}\"]")) {
            if let (true, Some(row)) = (QUEUE_COUNTERS.contains(name), dd.parent_element()) {
                dom::set_hidden(&row, !queued);
            }
            dom::set_text(&dd, &value.to_string());
            dd.set_class_name(if (*name == "duplicates" || *name == "lost") && value > 0 {
                "bad"
            } else {
                ""
            });
        }
    }
}

/// Which moment the counters describe: the end of the run, or the cursor's time, which playback,
/// the scrub bar and the mastery check's proofs all move.
fn counts_at(app: &App) -> String {
    let last = app.a.trace.events.len().saturating_sub(1);
    match app.page.cursor {
        None => "Counts at the end of the run:".into(),
        Some(_) if app.cursor() >= last => "Counts at the end of the run:".into(),
        Some(_) => format!(
            "Counts at {} (the cursor; ▶| shows the end):",
            crate::view::ms_text(app.cursor_time_us())
        ),
    }
}

/// "A: seed=7&preset=race" and "B: … + dedup=atomic".
fn title(app: &App, side: &str) -> String {
    match (side, &app.page.compare) {
        ("b", Some(compare)) => format!("B: A with {compare}"),
        ("a", Some(_)) => format!("A: {}", codec::encode(&app.a.scenario)),
        _ => codec::encode(&app.a.scenario),
    }
}

/// "dedup=naive: 2 duplicates, 0 lost → dedup=atomic: 0 duplicates, 0 lost".
fn render_diff() {
    let text = with_app(|app| {
        let (b, compare) = (app.b.as_ref()?, app.page.compare.as_ref()?);
        let a_label = compare_keys_in(&app.a.scenario, compare);
        let (ma, mb) = (&app.a.metrics, &b.metrics);
        let dups = |n: u32| format!("{n} duplicate{}", if n == 1 { "" } else { "s" });
        Some(format!(
            "{a_label}: {}, {} lost → {compare}: {}, {} lost",
            dups(ma.duplicates),
            ma.lost,
            dups(mb.duplicates),
            mb.lost
        ))
    });
    let diff: Element = dom::by_id("diff");
    dom::set_hidden(&diff, text.is_none());
    dom::set_text(&diff, text.as_deref().unwrap_or(""));
}

/// The values A has for the keys that B changes, in the same form: `dedup=naive`.
fn compare_keys_in(scenario: &crate::Scenario, compare: &str) -> String {
    let names: Vec<&str> = compare
        .split('&')
        .filter_map(|pair| pair.split('=').next())
        .collect();
    let parts: Vec<String> = codec::keys()
        .iter()
        .filter(|spec| names.contains(&spec.name))
        .map(|spec| format!("{}={}", spec.name, spec.value(scenario)))
        .collect();
    if parts.is_empty() {
        "A".into()
    } else {
        parts.join("&")
    }
}

/// The shared time axis: the zoom window, or the whole of the longer run.
pub fn viewport(app: &App) -> Viewport {
    let width_px = timeline_width_px();
    let end_us = app
        .b
        .as_ref()
        .map_or(0, |b| b.timeline.end_us())
        .max(app.a.timeline.end_us());
    // Room after the last event for about one label (160 px), so it is not cut off.
    let end_us = end_us.max(1_000);
    let pad_us = end_us * 160 / u64::from(width_px.saturating_sub(160).max(1));
    let whole = Viewport::fit(end_us + pad_us, width_px);
    match app.page.zoom {
        // A zoom from the URL is kept inside the run, whatever numbers it came with.
        Some((t0, t1)) => Viewport::new(t0, t1, width_px).clamp_to(whole.t1_us()),
        None => whole,
    }
}

thread_local! {
    /// The timelines' width, measured when the layout changes (see `measure_width`), never in
    /// the middle of a frame: reading `clientWidth` after a frame's DOM writes forced a layout
    /// every frame, half of a scrub frame's time by Chromium's profiler.
    static WIDTH_PX: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

fn timeline_width_px() -> u32 {
    match WIDTH_PX.with(std::cell::Cell::get) {
        0 => measure_width(),
        width_px => width_px,
    }
}

/// Reads the timelines' width from the page, keeps it for the frames to come, and returns it.
pub fn measure_width() -> u32 {
    let root: HtmlElement = dom::by_id("timeline-a");
    let width = f64::from(root.client_width()) - GUTTER_PX - 4.0;
    let width_px = width.clamp(200.0, 8_000.0) as u32;
    WIDTH_PX.with(|cell| cell.set(width_px));
    width_px
}

/// Paints one side's timeline, or finds the mark under a pointer, with the cached view.
fn with_frame<R>(
    app: &App,
    side: &str,
    canvas: &HtmlCanvasElement,
    f: impl FnOnce(&Frame) -> R,
) -> R {
    let viewport = viewport(app);
    let view = run_of(app, side).view(&viewport);
    f(&frame(app, side, canvas, viewport, &view))
}

fn frame<'a>(
    app: &'a App,
    side: &str,
    canvas: &'a HtmlCanvasElement,
    viewport: Viewport,
    view: &'a crate::view::View,
) -> Frame<'a> {
    Frame {
        canvas,
        timeline: &run_of(app, side).timeline,
        viewport,
        view,
        cursor_us: app.cursor_time_us(),
        fade_after_us: match (side, app.page.cursor) {
            ("b", None) => u64::MAX,
            _ => app.cursor_time_us(),
        },
        selected_event: if side == "a" { app.page.cursor } else { None },
        highlight: app.highlight.and_then(|(on, find)| {
            let this = if side == "a" { Side::A } else { Side::B };
            (on == this).then_some(find)
        }),
    }
}

fn zoom_by(factor: f64) {
    with_app(|app| {
        let viewport = viewport(app);
        let anchor_px = viewport.x_px(app.cursor_time_us());
        set_zoom(app, viewport.zoom(factor, anchor_px));
    });
    super::render();
}

fn fit() {
    with_app(|app| app.page.zoom = None);
    super::render();
}

fn set_zoom(app: &mut App, viewport: Viewport) {
    app.page.zoom = Some((viewport.t0_us(), viewport.t1_us()));
}

pub fn keyboard_zoom(key: &str) -> bool {
    match key {
        "+" | "=" => zoom_by(2.0),
        "-" | "_" => zoom_by(0.5),
        "0" => fit(),
        _ => return false,
    }
    true
}

fn wire_canvas(side: &'static str) {
    let canvas: HtmlCanvasElement = dom::by_id(&format!("canvas-{side}"));
    let target = canvas.clone();
    dom::listen::<MouseEvent>(&canvas, "mousemove", move |event| {
        hover(side, &target, &event)
    });
    let target = canvas.clone();
    dom::listen::<MouseEvent>(&canvas, "click", move |event| click(side, &target, &event));
    dom::listen::<MouseEvent>(&canvas, "mouseleave", move |_| hide_tooltip(side));
    dom::listen::<WheelEvent>(&canvas, "wheel", move |event| wheel(&event));
    wire_drag(&canvas);
    dom::listen::<web_sys::FocusEvent>(&canvas, "focus", move |_| show_cursor_tooltip(side));
    dom::listen::<web_sys::FocusEvent>(&canvas, "blur", move |_| hide_tooltip(side));
    dom::listen::<KeyboardEvent>(&canvas, "keyup", move |_| show_cursor_tooltip(side));
}

fn mark_at(side: &str, canvas: &HtmlCanvasElement, event: &MouseEvent) -> Option<(usize, String)> {
    with_app(|app| {
        let (x, y) = (f64::from(event.offset_x()), f64::from(event.offset_y()));
        let ix = with_frame(app, side, canvas, |frame| frame.hit(x, y))?;
        let mark = run_of(app, side).timeline.mark(ix as u32);
        Some((ix, describe_mark(run_of(app, side), mark)))
    })
}

fn describe_mark(run: &Run, mark: &crate::view::Mark) -> String {
    let event = &run.trace.events[mark.event() as usize];
    let mut text = String::new();
    let _ = crate::trace::describe(&mut text, &event.kind, &run.trace);
    let mut lines = vec![format!(
        "{} at {}",
        mark.label,
        crate::view::ms_text(mark.t0_us)
    )];
    if let Some(order) = event.order {
        lines.push(format!(
            "order {order}{}",
            event
                .attempt
                .map(|a| format!(", attempt {a}"))
                .unwrap_or_default()
        ));
    }
    if let Some(key) = event.key {
        lines.push(format!("key {key}"));
    }
    lines.push(text);
    lines.join("\n")
}

fn hover(side: &str, canvas: &HtmlCanvasElement, event: &MouseEvent) {
    match mark_at(side, canvas, event) {
        Some((_, text)) => show_tooltip(
            side,
            &text,
            f64::from(event.offset_x()),
            f64::from(event.offset_y()),
        ),
        None => hide_tooltip(side),
    }
}

fn click(side: &str, canvas: &HtmlCanvasElement, event: &MouseEvent) {
    if dragged_recently() {
        return;
    }
    let Some((ix, _)) = mark_at(side, canvas, event) else {
        return;
    };
    let moved = with_app(|app| {
        let mark = run_of(app, side).timeline.mark(ix as u32);
        let target = if side == "a" {
            mark.event()
        } else {
            app.a.events_by(mark.t0_us).saturating_sub(1) as u32
        };
        app.page.cursor = Some(target);
        app.playing = false;
        true
    });
    if moved {
        super::render();
    }
}

fn show_tooltip(side: &str, text: &str, x: f64, y: f64) {
    let tooltip: HtmlElement = dom::by_id(&format!("tooltip-{side}"));
    dom::set_text(&tooltip, text);
    let style = tooltip.style();
    let px = |v: f64| format!("{}px", Fixed::<1>(v + 14.0));
    style.set_property("left", &px(x)).ok();
    style.set_property("top", &px(y)).ok();
    tooltip.set_hidden(false);
}

fn hide_tooltip(side: &str) {
    let tooltip: HtmlElement = dom::by_id(&format!("tooltip-{side}"));
    tooltip.set_hidden(true);
}

/// Keyboard focus shows the cursor's event, so the timeline's details need no mouse.
fn show_cursor_tooltip(side: &str) {
    let text = with_app(|app| {
        let run = run_of(app, side);
        let event = run.trace.events.get(app.cursor())?;
        let mut text = format!(
            "event {} at {}: ",
            app.cursor() + 1,
            crate::view::ms_text(event.time_us)
        );
        let _ = crate::trace::describe(&mut text, &event.kind, &run.trace);
        Some(text)
    });
    if let Some(text) = text {
        show_tooltip(side, &text, GUTTER_PX, 0.0);
    }
}

fn wheel(event: &WheelEvent) {
    event.prevent_default();
    // Wheel down (positive delta) zooms out, as in maps and editors.
    let factor = if event.delta_y() > 0.0 { 0.8 } else { 1.25 };
    let anchor_px = f64::from(event.offset_x()) - GUTTER_PX;
    with_app(|app| {
        let viewport = viewport(app);
        set_zoom(app, viewport.zoom(factor, anchor_px.max(0.0)));
    });
    super::render();
}

thread_local! {
    /// (x where the drag started, viewport then, whether it moved), while a drag is on.
    static DRAG: std::cell::RefCell<Option<(f64, Viewport, bool)>> = const { std::cell::RefCell::new(None) };
    static LAST_DRAG_MS: std::cell::Cell<f64> = const { std::cell::Cell::new(-1e9) };
}

fn wire_drag(canvas: &HtmlCanvasElement) {
    dom::listen::<MouseEvent>(canvas, "mousedown", |event| {
        let viewport = with_app(|app| viewport(app));
        DRAG.with(|d| *d.borrow_mut() = Some((f64::from(event.client_x()), viewport, false)));
    });
}

/// The window's move and up listeners, once for both canvases.
fn wire_drag_window() {
    let window: web_sys::EventTarget = dom::window().unchecked_into();
    dom::listen::<MouseEvent>(&window, "mousemove", |event| {
        let Some((x0, start, _)) = DRAG.with(|d| *d.borrow()) else {
            return;
        };
        let dx = f64::from(event.client_x()) - x0;
        if dx.abs() < 3.0 {
            return;
        }
        DRAG.with(|d| *d.borrow_mut() = Some((x0, start, true)));
        with_app(|app| set_zoom(app, start.pan(-dx)));
        super::render();
    });
    dom::listen::<MouseEvent>(&window, "mouseup", |_| {
        if DRAG
            .with(|d| d.borrow_mut().take())
            .is_some_and(|(_, _, moved)| moved)
        {
            LAST_DRAG_MS.with(|t| t.set(dom::now_ms()));
        }
    });
}

fn dragged_recently() -> bool {
    dom::now_ms() - LAST_DRAG_MS.with(|t| t.get()) < 200.0
}
