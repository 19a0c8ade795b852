//! The runs: for configuration A (and B when comparing) the counters at the cursor and the
//! race timeline, plus the difference between them and the timeline's pointer interactions.

use idemlab_app::PlaybackMsg;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlCanvasElement, HtmlElement, KeyboardEvent, MouseEvent, WheelEvent};

use super::dom;
use super::timeline::{Frame, GUTTER_PX};
use super::{dispatch, with_app, App};
use idemlab_app::Run;
use idemlab_app::{self as app, Msg};
use idemlab_lab::view::Viewport;
use idemlab_lab::Side;

const SIDES: [&str; 2] = ["a", "b"];

/// Run A's block, the zoom buttons, the summary, the compare line and the legend are in
/// `index.html`; run B's block is a copy of A's with its ids ending in `-b`.
pub fn mount() {
    let a: Element = dom::by_id("run-a");
    let b: Element = a
        .clone_node_with_deep(true)
        .expect("a copy of run A's block")
        .unchecked_into();
    b.set_id("run-b");
    if let Ok(named) = b.query_selector_all("[id$='-a']") {
        for element in (0..named.length()).filter_map(|i| named.item(i)) {
            let element: Element = element.unchecked_into();
            let id = element.id();
            element.set_id(&format!("{}-b", &id[..id.len() - 2]));
        }
    }
    // A docked timeline's caption (the stylesheet shows it on a phone) names its run.
    if let Ok(Some(timeline)) = b.query_selector("#timeline-b") {
        dom::set_attr(&timeline, "data-caption", app::view::runs::b_caption());
    }
    dom::by_id::<Element>("runs")
        .insert_before(&b, Some(&dom::by_id::<Element>("legend")))
        .ok();
    // Viewport::zoom(2.0) shows half as much time: in.
    dom::on_click("zoom-in", || zoom_by(2.0));
    dom::on_click("zoom-out", || zoom_by(0.5));
    dom::on_click("zoom-fit", || {
        dispatch(Msg::Playback(PlaybackMsg::Zoom(None)))
    });
    dom::on_click("cancel-run", || dispatch(Msg::CancelRun));
    for side in SIDES {
        wire_canvas(side);
    }
    wire_drag_window();
}

/// Paints the runs' blocks from their frame, and draws each timeline shown.
pub fn render(frame: &app::RunsFrame) {
    paint_computing_line(frame.computing.as_deref());
    for (side, shown) in Side::ALL.into_iter().zip(&frame.sides) {
        paint_side(side, shown.as_ref(), frame.counters_hidden);
    }
    let diff: Element = dom::by_id("diff");
    dom::set_hidden(&diff, frame.diff.is_none());
    dom::set_text(&diff, frame.diff.as_deref().unwrap_or(""));
    paint_legend(&frame.legend);
    let summary: Element = dom::by_id("preset-summary");
    dom::set_hidden(&summary, frame.summary.is_none());
    dom::set_text(&summary, frame.summary.unwrap_or(""));
}

/// The key shows only the kinds of mark the runs draw: 24 lines were most of a step's screen.
fn paint_legend(shown: &[bool]) {
    let Ok(items) = dom::by_id::<Element>("legend").query_selector_all(":scope > li") else {
        return;
    };
    for (i, on) in shown.iter().enumerate() {
        if let Some(item) = items.item(i as u32) {
            if let Ok(item) = wasm_bindgen::JsCast::dyn_into::<Element>(item) {
                dom::set_hidden(&item, !on);
            }
        }
    }
}

/// The progress line of a run being computed, alone (`Effects::paint_progress`).
pub fn paint_computing() {
    let line = with_app(|app| app::view::runs::view(&app.state, &app.runs).computing);
    paint_computing_line(line.as_deref());
}

/// The progress line, with `aria-busy` on the runs while it shows.
fn paint_computing_line(text: Option<&str>) {
    dom::set_hidden(&dom::by_id::<Element>("computing"), text.is_none());
    let runs: Element = dom::by_id("runs");
    match text {
        Some(text) => {
            dom::set_text(&dom::by_id::<Element>("computing-text"), text);
            runs.set_attribute("aria-busy", "true").ok();
            // A first run long enough to show its progress shows the page with it (its
            // Cancel button too), rather than the first view alone until it ends.
            if let Some(root) = dom::document().document_element() {
                root.class_list().remove_1("first-view").ok();
            }
        }
        None => {
            runs.remove_attribute("aria-busy").ok();
        }
    }
}

fn paint_side(side: Side, frame: Option<&app::SideFrame>, counters_hidden: bool) {
    let name = side.name();
    let block: Element = dom::by_id(&format!("run-{name}"));
    dom::set_hidden(&block, frame.is_none());
    let dl: Element = dom::by_id(&format!("counters-{name}"));
    let counts_at: Element = dom::by_id(&format!("counts-at-{name}"));
    dom::set_hidden(&dl, counters_hidden);
    dom::set_hidden(&counts_at, counters_hidden);
    let Some(frame) = frame else {
        // A hidden run names nothing: the page contract reads `data-named` as "on screen".
        if let Ok(named) = dl.query_selector_all("[data-named]") {
            for dd in (0..named.length()).filter_map(|i| named.item(i)) {
                dd.unchecked_into::<Element>()
                    .remove_attribute("data-named")
                    .ok();
            }
        }
        return;
    };
    paint_counters(&dl, frame);
    paint_more(name, frame.more.as_ref());
    dom::set_text(&dom::by_id(&format!("title-{name}")), &frame.title);
    dom::set_attr(&block, "data-focus", if frame.in_focus { "1" } else { "0" });
    dom::set_text(&counts_at, &frame.counts_at);
    let root: Element = dom::by_id(&format!("timeline-{name}"));
    dom::set_attr(&root, "data-events", &frame.events);
    let canvas: HtmlCanvasElement = dom::by_id(&format!("canvas-{name}"));
    dom::set_attr(&canvas, "aria-label", &frame.canvas_label);
    let (drawn, names) = with_app(|app| {
        with_frame(app, name, &canvas, |frame| {
            let names = idemlab_lab::view::lane_names(frame.timeline, &frame.overlay);
            (frame.paint(), names)
        })
    });
    dom::set_attr(&root, "data-drawn", &drawn.to_string());
    paint_lane_names(&root, &names);
}

/// The counter cards as the frame says: values, labels, which show, which the step names,
/// which are harm; "–" while a quiz question hides the run.
fn paint_counters(dl: &Element, frame: &app::SideFrame) {
    dom::set_flag(dl, "data-run-hidden", frame.run_hidden);
    for card in &frame.cards {
        let dd = dom::find(dl, &format!("[data-metric=\"{}\"]", card.metric));
        if let Some(row) = dd.parent_element() {
            dom::set_hidden(&row, !card.shown);
            row.set_class_name(if card.named { "named" } else { "" });
            if let Some(dt) = row.first_element_child() {
                dom::set_text(&dt, card.label);
            }
        }
        dom::set_text(&dd, &card.value);
        dd.set_class_name(if card.bad { "bad" } else { "" });
        if card.named {
            dom::set_attr(&dd, "data-named", "1");
        } else {
            dd.remove_attribute("data-named").ok();
        }
    }
}

fn paint_more(side: &str, more: Option<&(String, bool)>) {
    let button: Element = dom::by_id(&format!("more-{side}"));
    dom::set_hidden(&button, more.is_none());
    if let Some((text, expanded)) = more {
        dom::set_text(&button, text);
        let expanded = if *expanded { "true" } else { "false" };
        dom::set_attr(&button, "aria-expanded", expanded);
    }
}

/// The lanes' names over the timeline's left edge, for when it scrolls sideways and takes the
/// canvas's own names with it (a phone; the stylesheet shows them only there). Rebuilt only
/// when the names or their places change, not on every frame of a scrub.
fn paint_lane_names(root: &Element, names: &[(String, f64)]) {
    // Positions as decimals (`decimal::Fixed`): an f64's own `Display` would link core's
    // float formatter into the page.
    let px = |y: f64| idemlab_lab::decimal::Fixed::<1>(y).to_string();
    let key: String = (names.iter())
        .map(|(name, y)| format!("{name}@{};", px(*y)))
        .collect();
    let holder = match root.query_selector(".lane-names").ok().flatten() {
        Some(holder) if holder.get_attribute("data-key").as_deref() == Some(&key) => return,
        Some(holder) => holder,
        None => {
            let holder = dom::El::new("div").attr("class", "lane-names");
            let holder = holder.attr("aria-hidden", "true").el();
            root.prepend_with_node_1(&holder).ok();
            holder
        }
    };
    holder.set_text_content(None);
    for (name, y) in names {
        let label = dom::El::new("span").text(name).el();
        let label: HtmlElement = label.unchecked_into();
        label
            .style()
            .set_property("top", &format!("{}px", px(*y)))
            .ok();
        holder.append_child(&label).ok();
    }
    holder.set_attribute("data-key", &key).ok();
}

fn run_of<'a>(app: &'a App, side: &str) -> &'a Run {
    if side == "b" {
        app.runs
            .b
            .as_ref()
            .expect("side b is shown only when comparing")
    } else {
        &app.runs.a
    }
}

fn side_of(side: &str) -> Side {
    if side == "b" {
        Side::B
    } else {
        Side::A
    }
}

/// Scrolls both timelines back to their start (they scroll sideways on a phone).
pub fn rewind() {
    for side in SIDES {
        if let Some(timeline) = dom::document().get_element_by_id(&format!("timeline-{side}")) {
            timeline.set_scroll_left(0);
        }
    }
}

/// The shared time axis: the zoom window, or the whole of the longer run, by the rule the SVG
/// export uses too (`view::window`).
pub fn viewport(app: &App) -> Viewport {
    // `app::plot_width_px` keeps a phone's plot readable; its container scrolls sideways.
    app.runs.viewport(&app.state, width_px(app.page().embed))
}

/// The timelines' width, for work done outside a borrow of the app (a slice's view ahead).
pub fn timeline_width_px() -> u32 {
    width_px(with_app(|app| app.page().embed))
}

fn width_px(embed: bool) -> u32 {
    match super::with_ui(|u| &u.width_px, std::cell::Cell::get) {
        0 => measure_width(embed),
        width_px => width_px,
    }
}

/// Reads the timelines' width from the page, keeps it for the frames to come, and returns it.
pub fn measure_width(embed: bool) -> u32 {
    let root: HtmlElement = dom::by_id("timeline-a");
    let window_px = dom::window().inner_width().ok().and_then(|w| w.as_f64());
    let window_px = window_px.unwrap_or(f64::from(u32::MAX));
    let width_px = app::plot_width_px(f64::from(root.client_width()), window_px, GUTTER_PX, embed);
    super::with_ui(|u| &u.width_px, |cell| cell.set(width_px));
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
    view: &'a idemlab_lab::view::View,
) -> Frame<'a> {
    let timeline = &run_of(app, side).timeline;
    let mut overlay = app::overlay(&app.state, &app.lead().trace, side_of(side));
    let window_px = dom::window().inner_width().ok().and_then(|w| w.as_f64());
    let window_px = window_px.unwrap_or(f64::from(u32::MAX));
    overlay.lane_px = app::lane_px(&app.state, timeline.lanes().len(), window_px);
    Frame {
        canvas,
        timeline,
        viewport,
        view,
        overlay,
    }
}

pub fn zoom_by(factor: f64) {
    let msg = with_app(|app| app::zoom_about(viewport(app), app.cursor_time_us(), factor));
    dispatch(msg);
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
    dom::listen::<KeyboardEvent>(&canvas, "keyup", move |event| {
        if app::tooltip_follows(&event.key()) {
            show_cursor_tooltip(side);
        }
    });
}

fn mark_at(side: &str, canvas: &HtmlCanvasElement, event: &MouseEvent) -> Option<(usize, String)> {
    with_app(|app| {
        let (x, y) = (f64::from(event.offset_x()), f64::from(event.offset_y()));
        let ix = with_frame(app, side, canvas, |frame| frame.hit(x, y))?;
        let mark = run_of(app, side).timeline.mark(ix as u32);
        let run = run_of(app, side);
        Some((ix, app::mark_tooltip(&run.trace, &run.timeline, mark)))
    })
}

fn hover(side: &str, canvas: &HtmlCanvasElement, event: &MouseEvent) {
    match mark_at(side, canvas, event) {
        Some((_, text)) => show_tooltip(
            side,
            &text,
            f64::from(event.offset_x()) + app::TOOLTIP_OFFSET_PX,
            f64::from(event.offset_y()) + app::TOOLTIP_OFFSET_PX,
        ),
        None => hide_tooltip(side),
    }
}

fn click(side: &str, canvas: &HtmlCanvasElement, event: &MouseEvent) {
    if dragged_recently() {
        return;
    }
    let Some((ix, text)) = mark_at(side, canvas, event) else {
        return;
    };
    let (msg, tooltip) = with_app(|app| {
        app::click_mark(
            &app.state,
            &app.runs,
            side_of(side),
            ix as u32,
            event.shift_key(),
        )
    });
    if let Some(msg) = msg {
        // A tap focuses the canvas first, and its focus showed the old cursor's event: the
        // mark selected is what the tooltip says (a phone walk read another event's). Shown
        // before the page is painted again, so its measuring forces no layout of the page.
        if tooltip {
            let (x, y) = (f64::from(event.offset_x()), f64::from(event.offset_y()));
            let offset = app::TOOLTIP_OFFSET_PX;
            show_tooltip(side, &text, x + offset, y + offset);
        }
        dispatch(msg);
    }
}

/// Shows `text` starting at (`x`, `y`) of the canvas's content (the caller adds the pointer's
/// offset). The timeline's scroll and the canvas's place in it are read before anything is
/// written; only the tooltip's own width is read after its text, the one layout this forces,
/// in a hover or a tap and never in a render.
fn show_tooltip(side: &str, text: &str, x: f64, y: f64) {
    let timeline: HtmlElement = dom::by_id(&format!("timeline-{side}"));
    let canvas: HtmlElement = dom::by_id(&format!("canvas-{side}"));
    let from_px = f64::from(timeline.scroll_left());
    let visible_px = (from_px, from_px + f64::from(timeline.client_width()));
    // The canvas may sit under a caption line (a phone's dock): the tooltip is placed in the
    // timeline's box, the pointer measured in the canvas's.
    let (canvas_left_px, canvas_top_px) = (
        f64::from(canvas.offset_left()),
        f64::from(canvas.offset_top()),
    );
    let tooltip: HtmlElement = dom::by_id(&format!("tooltip-{side}"));
    dom::set_text(&tooltip, text);
    tooltip.set_hidden(false);
    let width_px = f64::from(tooltip.offset_width());
    let left_px = app::tooltip_left_px(canvas_left_px + x, width_px, visible_px);
    let style = tooltip.style();
    let px = |v: f64| format!("{}px", idemlab_lab::decimal::Fixed::<1>(v));
    style.set_property("left", &px(left_px)).ok();
    style.set_property("top", &px(canvas_top_px + y)).ok();
}

/// Escape: both timelines' tooltips close (`app::Shortcut::HideTooltip`).
pub fn hide_tooltips() {
    hide_tooltip("a");
    hide_tooltip("b");
}

fn hide_tooltip(side: &str) {
    let tooltip: HtmlElement = dom::by_id(&format!("tooltip-{side}"));
    tooltip.set_hidden(true);
}

/// Keyboard focus shows the cursor's event, so the timeline's details need no mouse.
fn show_cursor_tooltip(side: &str) {
    let text = with_app(|app| {
        let run = run_of(app, side);
        // The cursor is an event of the run in focus; the other run shows its event by time.
        let counted = app::events_counted(&app.state, &app.lead().trace, side_of(side), &run.trace);
        let index = counted
            .map_or(run.trace.events.len(), |n| n)
            .saturating_sub(1);
        app::cursor_tooltip(&run.trace, index)
    });
    if let Some(text) = text {
        // Past the lanes' names, at the left of what shows of the timeline (which a phone
        // scrolls sideways), over the axis.
        let timeline: HtmlElement = dom::by_id(&format!("timeline-{side}"));
        let from_px = f64::from(timeline.scroll_left());
        show_tooltip(side, &text, from_px + GUTTER_PX, app::TOOLTIP_OFFSET_PX);
    }
}

fn wheel(event: &WheelEvent) {
    event.prevent_default();
    let (delta_y, offset_x_px) = (event.delta_y(), f64::from(event.offset_x()));
    dispatch(with_app(|app| {
        app::wheel_zoom(viewport(app), delta_y, offset_x_px)
    }));
}

fn wire_drag(canvas: &HtmlCanvasElement) {
    dom::listen::<MouseEvent>(canvas, "mousedown", |event| {
        let viewport = with_app(|app| viewport(app));
        super::with_ui(
            |u| &u.drag,
            |d| *d.borrow_mut() = Some((f64::from(event.client_x()), viewport, false)),
        );
    });
}

/// The window's move and up listeners, once for both canvases.
fn wire_drag_window() {
    let window: web_sys::EventTarget = dom::window().unchecked_into();
    dom::listen::<MouseEvent>(&window, "mousemove", |event| {
        let Some((x0, start, _)) = super::with_ui(|u| &u.drag, |d| *d.borrow()) else {
            return;
        };
        let Some(msg) = app::pan(start, f64::from(event.client_x()) - x0) else {
            return;
        };
        super::with_ui(|u| &u.drag, |d| *d.borrow_mut() = Some((x0, start, true)));
        dispatch(msg);
    });
    dom::listen::<MouseEvent>(&window, "mouseup", |_| {
        let drag = super::with_ui(|u| &u.drag, |d| d.borrow_mut().take());
        if drag.is_some_and(|(_, _, moved)| moved) {
            super::with_ui(|u| &u.last_drag_ms, |t| t.set(dom::now_ms()));
        }
    });
}

fn dragged_recently() -> bool {
    dom::now_ms() - super::with_ui(|u| &u.last_drag_ms, |t| t.get()) < 200.0
}
