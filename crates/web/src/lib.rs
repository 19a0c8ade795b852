#![cfg(target_arch = "wasm32")]
//! The browser layer (wasm32 only): element handles, one `dispatch(Msg)` entry, and painting.
//! Every decision is `idemlab_app`'s: a handler turns an event into a `Msg`, `app::update`
//! changes the state and returns `Effects` (rerun, repaint, URL push or replace, focus), and
//! `render` paints the state and the runs.

// Only the benchmark's build (`--features bench`, scripts/bench.sh) exports the measurements;
// the page that ships does not carry them.
mod access;
#[cfg(feature = "bench")]
mod bench;
mod classify;
mod contracts;
mod controls;
mod dom;
mod embed;
mod export;
mod i18n;
mod keys;
mod lessons;
mod ordering;
mod playback;
mod predict;
mod quiz;
mod runs;
mod screen;
mod story;
mod sweep;
mod table;
mod timeline;

use idemlab_app::ScenarioMsg;
use std::cell::{Cell, RefCell};

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use idemlab_app::{self as app, Banner, Effects, Focus, Msg, UrlWrite};
use idemlab_lab::view::Viewport;

/// The page: its state, its runs and the work under way (`idemlab_app::work`).
pub(crate) type App = idemlab_app::Page;

/// What the browser side remembers about the browser (layout, timers, pointers, what it last
/// painted), never a fact the page shows: those are `State`'s. Each field is its own cell, so
/// reading one never conflicts with a borrow of another or of the app.
pub(crate) struct Ui {
    /// The Lessons tab as last painted: its article is rebuilt only when the step changes, so
    /// the calculator keeps what the learner typed.
    pub lessons_painted: RefCell<Option<app::LessonsFrame>>,
    /// The step's question as last painted; none once its article is rebuilt.
    pub predict_painted: RefCell<Option<app::PredictFrame>>,
    /// The check as last painted, so the panel is rebuilt only when it changes (a rebuild on
    /// every playback frame would drop a half-typed answer).
    pub quiz_painted: RefCell<Option<app::QuizFrame>>,
    /// Why quiz progress could not be read or saved, shown once under the check.
    pub quiz_note: RefCell<Option<String>>,
    /// This browser's progress record as last read or written (`quiz::load_progress`), for
    /// the picker's marks and the mastery status.
    pub progress: RefCell<Option<idemlab_course::quiz::progress::Progress>>,
    /// When the URL was last written, and whether a trailing write is already scheduled.
    pub url_sync: Cell<(f64, bool)>,
    /// The current chain of playback ticks; pause-then-play must not leave two running.
    pub chain: Cell<u32>,
    /// The timelines' width, measured when the layout changes (`runs::measure_width`), never
    /// in the middle of a frame: reading `clientWidth` after a frame's DOM writes forced a
    /// layout every frame.
    pub width_px: Cell<u32>,
    /// (x where a timeline drag started, viewport then, whether it moved), while a drag is on.
    pub drag: RefCell<Option<(f64, Viewport, bool)>>,
    pub last_drag_ms: Cell<f64>,
    /// The ordering item being dragged, while a pointer drag is under way.
    pub dragging: Cell<Option<usize>>,
    /// The event list's scroll position, kept from its scroll events and our own scrolling,
    /// so a frame never reads it back after writing the page.
    pub scroll_top_px: Cell<i32>,
    /// Whether the Events tab was open at the last render.
    pub events_shown: Cell<bool>,
    /// The frames last painted (`app::view`), so that a paint that would change nothing is
    /// skipped: a playback frame moves the cursor, not the controls. The controls' is
    /// forgotten when a field the learner edited may no longer show it.
    pub controls_painted: RefCell<Option<app::ControlsFrame>>,
    pub playback_painted: RefCell<Option<app::PlaybackFrame>>,
    pub screen_painted: RefCell<Option<app::ScreenFrame>>,
    pub keys_painted: RefCell<Option<app::KeysFrame>>,
    pub story_painted: RefCell<Option<app::StoryFrame>>,
    /// The embed settings and theme last applied: the stylesheet's own media text until then.
    pub looks_painted: RefCell<Option<app::LooksFrame>>,
    /// The Embed dialog as last painted: its default title, and the composer's parts.
    pub embed_painted: RefCell<Option<app::EmbedFrame>>,
    /// The classification exercise as last painted; none once its step is rebuilt.
    pub classify_painted: RefCell<Option<app::ClassifyFrame>>,
    /// A slice of the page's work is scheduled: one chain of slices, whatever the work.
    pub work_due: Cell<bool>,
    /// The JSON export's parts written so far, as blobs outside wasm memory.
    pub json_blobs: RefCell<Option<js_sys::Array>>,
    /// The JSON button's own text (the markup's, translated), for when the export ends.
    pub json_label: RefCell<Option<String>>,
    /// The sweep panel as last painted.
    pub sweep_painted: RefCell<Option<app::SweepFrame>>,
    /// The contracts table as last painted, so that a repaint rebuilds it only on a change.
    pub contracts_shown: RefCell<Option<app::ContractsView>>,
    /// Until the first runs are built: then the page marks itself ready.
    pub loading: Cell<bool>,
    /// The height last posted to the parent frame, so an unchanged one is not posted again.
    pub height_posted_px: Cell<u32>,
    /// The Embed dialog's snippet link last measured, and its view's height at each width
    /// class (`app::WIDTH_CLASSES`); and the link being measured now, if any.
    pub measured: RefCell<Option<(String, [u32; app::WIDTH_CLASSES.len()])>>,
    pub measuring: RefCell<Option<String>>,
    /// What the announcer heard at the last paint (`app::announce`), so it speaks once.
    pub heard: RefCell<Option<app::Heard>>,
}

/// The browser side's one thread-local: the page, and what the browser remembers beside it.
struct Web {
    app: RefCell<Option<App>>,
    ui: Ui,
}

thread_local! {
    static WEB: Web = const {
        Web {
            app: RefCell::new(None),
            ui: Ui {
                lessons_painted: RefCell::new(None),
                predict_painted: RefCell::new(None),
                quiz_painted: RefCell::new(None),
                quiz_note: RefCell::new(None),
                progress: RefCell::new(None),
                url_sync: Cell::new((f64::MIN, false)),
                chain: Cell::new(0),
                width_px: Cell::new(0),
                drag: RefCell::new(None),
                last_drag_ms: Cell::new(-1e9),
                dragging: Cell::new(None),
                scroll_top_px: Cell::new(0),
                events_shown: Cell::new(false),
                controls_painted: RefCell::new(None),
                playback_painted: RefCell::new(None),
                screen_painted: RefCell::new(None),
                keys_painted: RefCell::new(None),
                story_painted: RefCell::new(None),
                looks_painted: RefCell::new(None),
                embed_painted: RefCell::new(None),
                classify_painted: RefCell::new(None),
                work_due: Cell::new(false),
                sweep_painted: RefCell::new(None),
                json_blobs: RefCell::new(None),
                json_label: RefCell::new(None),
                contracts_shown: RefCell::new(None),
                loading: Cell::new(true),
                height_posted_px: Cell::new(0),
                measured: RefCell::new(None),
                measuring: RefCell::new(None),
                heard: RefCell::new(None),
            },
        }
    };
}

/// Runs `f` on one of `Ui`'s cells, picked by `pick`.
pub(crate) fn with_ui<T, R>(
    pick: impl for<'a> FnOnce(&'a Ui) -> &'a T,
    f: impl FnOnce(&T) -> R,
) -> R {
    WEB.with(|web| f(pick(&web.ui)))
}

/// Whether `frame` differs from the one last painted in the `Ui` cell `pick` names. If it
/// does, it becomes the last painted and the one before comes back (`Some(None)` at a first
/// paint); `None` means the paint can be skipped.
pub(crate) fn repaint<T: Clone + PartialEq>(
    pick: impl for<'a> FnOnce(&'a Ui) -> &'a RefCell<Option<T>>,
    frame: &T,
) -> Option<Option<T>> {
    with_ui(pick, |cell| {
        if cell.borrow().as_ref() == Some(frame) {
            return None;
        }
        Some(cell.replace(Some(frame.clone())))
    })
}

/// Paints `frame` (`paint` gets the last one too, for the parts it compares) unless it equals
/// the frame last painted in the cell `pick` picks (`repaint`).
pub(crate) fn paint_changed<F: Clone + PartialEq>(
    pick: impl for<'a> FnOnce(&'a Ui) -> &'a RefCell<Option<F>>,
    frame: &F,
    paint: impl FnOnce(&F, Option<&F>),
) {
    if let Some(last) = repaint(pick, frame) {
        paint(frame, last.as_ref());
    }
}

/// Runs `f` on the app. Handlers never nest, so the borrow cannot be taken twice.
pub(crate) fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> R {
    WEB.with(|web| f(web.app.borrow_mut().as_mut().expect("the app is mounted")))
}

/// The one entry for every user action, timer and finished slice: the state changes in
/// `app::update` (one borrow of the app), then the browser carries out what it asked for.
pub(crate) fn dispatch(msg: Msg) {
    let effects = with_app(|app| app.dispatch(msg));
    apply(effects);
}

pub(crate) fn apply(effects: Effects) {
    // A change made while the first runs were still computing (Cancel, a control) ends the
    // loading when its own runs are built, after its own URL write (Cancel's push must not
    // be replaced by the loading's).
    let loaded = effects.rerun && first_slice() && with_ui(|u| &u.loading, |l| l.get());
    if effects.paint_progress {
        runs::paint_computing();
    }
    if effects.restyle {
        embed::restyle();
    }
    if effects.save_progress {
        // The picker's marks follow in the paint below (`render` always follows a save).
        quiz::save_progress();
    }
    if effects.render || effects.rerun {
        render();
    }
    if effects.rerun {
        // A new run starts at its start: a phone's sideways scroll of the old one (a step's
        // reveal) would open the next step part-way along (Lesson A's walk).
        runs::rewind();
    }
    match effects.focus {
        Some(Focus::LessonHeading) => lessons::focus_heading(),
        Some(Focus::QuizTitle) => quiz::focus_title(),
        Some(Focus::Drawer) => screen::focus_drawer(),
        Some(Focus::DrawerToggle) => screen::focus_toggle(),
        Some(Focus::PredictFeedback) => predict::focus_feedback(),
        Some(Focus::LessonPicker) => access::focus("#lesson-picker button:not([disabled])"),
        Some(Focus::QuizAnswer) => access::focus("#quiz-body input"),
        None => {}
    }
    for report in &effects.reports {
        embed::post_report(report);
    }
    if let Some(side) = effects.show_timeline {
        lessons::show_timeline(side);
    }
    if let Some(side) = effects.reveal {
        lessons::reveal_outline(side);
    }
    if effects.tick {
        playback::schedule_tick();
    }
    if effects.work {
        schedule_work();
    }
    match effects.url {
        Some(UrlWrite::Push) => write_url(UrlWrite::Push),
        Some(UrlWrite::Replace) => sync_url(),
        None => {}
    }
    if loaded {
        show_loaded();
    }
}

/// A slice's budget: the browser's clock against a deadline.
struct Clock {
    deadline_ms: f64,
}

impl Clock {
    fn for_ms(slice_ms: u32) -> Clock {
        Clock {
            deadline_ms: dom::now_ms() + f64::from(slice_ms),
        }
    }
}

impl app::Budget for Clock {
    fn spent(&mut self) -> bool {
        dom::now_ms() >= self.deadline_ms
    }

    fn now_ms(&self) -> f64 {
        dom::now_ms()
    }
}

/// The runs just restarted (`Page::dispatch` began them): the first slice runs at once, since
/// most runs are built within it, and the caller paints them; a longer one goes on in later
/// tasks behind a progress line. Returns whether both runs are built.
fn first_slice() -> bool {
    let width_px = runs::timeline_width_px();
    let stepped = with_app(|app| app.step(&mut Clock::for_ms(app.slice_ms()), width_px, false));
    carry_out(&stepped);
    stepped.built
}

/// Schedules the next slice of the page's work, unless one is already due.
fn schedule_work() {
    if with_ui(|u| &u.work_due, |due| due.replace(true)) {
        return;
    }
    dom::later(0, later_slice);
}

/// A later slice: the work goes on where it stands, whatever started it.
fn later_slice() {
    with_ui(|u| &u.work_due, |due| due.set(false));
    let width_px = runs::timeline_width_px();
    let stepped = with_app(|app| app.step(&mut Clock::for_ms(app.slice_ms()), width_px, true));
    carry_out(&stepped);
    if stepped.built {
        if with_ui(|u| &u.loading, |l| l.get()) {
            show_loaded();
        } else {
            render();
        }
    }
}

/// Paints what a slice changed, and schedules the next one while work is due.
fn carry_out(stepped: &app::Stepped) {
    if stepped.effects.paint_progress {
        runs::paint_computing();
    }
    // A slice changes one part: only its frame is made, not the page's.
    if stepped.swept {
        sweep::render(&with_app(|app| app::view::sweep::view(&app.state)));
    }
    if stepped.tabled {
        contracts::paint(with_app(|app| app::contracts_view(&app.state)).as_ref());
    }
    if !stepped.json.is_empty() {
        export::keep_parts(&stepped.json, stepped.json_done);
        export::render(with_app(|app| app::view::export::json_button(&app.state)).as_deref());
    }
    if stepped.more {
        schedule_work();
    }
}

/// Runs when the module loads: mounts the lab if this document is the lab's page (a test
/// harness page, which has no `#app`, mounts it itself after writing the markup).
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
    if dom::document().get_element_by_id("app").is_some() {
        // Two tasks, not one: the controls appear first, and no single task blocks the page
        // for long even when the linked scenario runs to 100,000 events.
        mount_ui();
        dom::later(0, run_and_show);
    }
}

/// Reads the URL, runs the scenario and wires every part of the page, in one go (tests use
/// this; the page itself splits it in two tasks). Call once per document.
pub fn mount() {
    mount_ui();
    // In one go, as the tests that call this expect the page ready when it returns.
    with_app(|app| {
        app.start();
        app.finish();
    });
    show_loaded();
}

/// Reads the URL and builds every part of the page, with no run yet.
fn mount_ui() {
    if let Some(performance) = dom::window().performance() {
        performance.mark("idemlab-mount").ok();
    }
    let query = dom::window().location().search().unwrap_or_default();
    // The language first: everything the page writes from here on is in it.
    let lang = idemlab_app::page::PageState::from_query(&query).0.lang;
    idemlab_lab::i18n::set_lang(lang.unwrap_or(idemlab_lab::i18n::Lang::English));
    i18n::translate_markup();
    let start_ms = dom::now_ms();
    let page = App::load(&query, &quiz::load_progress());
    let load_ms = dom::now_ms() - start_ms;
    WEB.with(|web| *web.app.borrow_mut() = Some(page));
    controls::mount();
    runs::mount();
    playback::mount();
    table::mount();
    sweep::mount();
    contracts::mount();
    embed::mount();
    export::mount();
    lessons::mount();
    screen::mount();
    keys::mount();
    classify::mount();
    access::mount();
    quiz::drawn(load_ms);
    listen_to_history();
}

/// Runs A (and B) for the linked state, keeping its cursor and zoom, and shows them: now if
/// they are built within the first slice, else when the last slice ends (`next_slice`).
fn run_and_show() {
    // A rerun keeps the cursor and zoom: only `update` resets them, on a scenario change.
    with_app(|app| app.start());
    if first_slice() {
        show_loaded();
    } else {
        render();
    }
}

/// The end of loading, once the runs are built: paint, and say the page is ready.
fn show_loaded() {
    with_ui(|u| &u.loading, |l| l.set(false));
    render();
    // The link's state as the page's own permalink (a step link gains its scenario).
    write_url(UrlWrite::Replace);
    rerender_on_resize();
    // Tests and embedders wait for this before reading the counters; the benchmark reads the
    // mark to measure load to interactive.
    if let Some(root) = dom::document().document_element() {
        root.set_attribute("data-state", "ready").ok();
    }
    // The first view's copies of the page's templates carry the page's classes: gone, they
    // cannot be found, read out or printed in place of the page's own.
    if let Some(first) = dom::document().get_element_by_id("first") {
        first.remove();
    }
    if let Some(performance) = dom::window().performance() {
        performance.mark("idemlab-ready").ok();
    }
    embed::post_height();
}

/// Back, Forward and a hash change move to another history entry: load the state its URL
/// holds, so the URL and the page agree.
fn listen_to_history() {
    let window: web_sys::EventTarget = dom::window().unchecked_into();
    dom::listen::<web_sys::Event>(&window, "popstate", |_| {
        let query = dom::window().location().search().unwrap_or_default();
        let stored = quiz::load_progress();
        dispatch(Msg::Scenario(ScenarioMsg::UrlChanged { query, stored }));
    });
}

/// The timelines are as wide as their column: repaint when it changes size.
fn rerender_on_resize() {
    let callback = Closure::<dyn FnMut()>::new(refit_runs);
    let observer =
        web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).expect("ResizeObserver");
    observer.observe(&dom::by_id::<web_sys::Element>("runs"));
    // The key-store panel narrows the timeline without changing the runs' width.
    observer.observe(&dom::by_id::<web_sys::Element>("timeline-a"));
    // Both live as long as the page.
    callback.forget();
    std::mem::forget(observer);
}

/// Repaints the timelines if their column's width changed since they were last measured.
pub(crate) fn refit_runs() {
    // Printing lays the page out at the paper's width: the screen's drawing scales to it, and
    // a redraw for that width would stay on screen after.
    if printing() {
        return;
    }
    let before = with_ui(|u| &u.width_px, |w| w.get());
    // From a resize observer, which runs after layout, measuring forces nothing.
    let width = runs::measure_width(with_app(|app| app.page().embed));
    if width != before {
        runs::render(&with_app(|app| {
            app::view::runs::view(&app.state, &app.runs)
        }));
    }
}

fn printing() -> bool {
    let print = dom::window().match_media("print").ok().flatten();
    print.is_some_and(|media| media.matches())
}

/// Paints every part of the page from the state; nothing here changes it.
pub(crate) fn render() {
    let frame = frame();
    screen::render(&frame.screen);
    controls::render(&frame.controls);
    runs::render(&frame.runs);
    playback::render(&frame.playback);
    table::render(&frame.tabs, &frame.events, frame.tables.as_ref());
    export::render(frame.json_button.as_deref());
    sweep::render(&frame.sweep);
    lessons::render(&frame.lessons, &frame.predict, &frame.quiz);
    keys::render(&frame.keys);
    story::render(&frame.story);
    classify::render(frame.classify.as_ref());
    contracts::paint(frame.contracts.as_ref());
    render_banner(frame.banner.as_ref());
    access::speak();
}

/// The page's frame (`app::view::view`), with what the browser has seen beside the state.
pub(crate) fn frame() -> app::Frame {
    let note = with_ui(|u| &u.quiz_note, |note| note.borrow().clone());
    let scroll_top_px = with_ui(|u| &u.scroll_top_px, Cell::get);
    quiz::with_progress(|progress| {
        let seen = app::Seen {
            progress,
            quiz_note: note.as_deref(),
            scroll_top_px,
        };
        with_app(|app| app::view::view(&app.state, &app.runs, &seen))
    })
}

fn render_banner(model: Option<&Banner>) {
    let banner: web_sys::Element = dom::by_id("banner");
    dom::clear(&banner);
    dom::set_hidden(&banner, model.is_none());
    let Some(model) = model else {
        return;
    };
    let list = (model.lines.iter()).fold(dom::El::new("ul"), |list, line| {
        list.child(&dom::El::new("li").text(line).el())
    });
    banner
        .append_child(&dom::El::new("strong").text(model.heading).el())
        .ok();
    banner.append_child(&list.el()).ok();
}

/// This page's address without its query.
pub(crate) fn page_url() -> String {
    let location = dom::window().location();
    let origin = location.origin().unwrap_or_default();
    format!("{origin}{}", location.pathname().unwrap_or_default())
}

/// The permalink for the current state.
pub(crate) fn permalink() -> String {
    let query = with_app(|app| app::permalink_query(&app.state));
    format!("{}?{query}", page_url())
}

/// Browsers throttle (and complain about) more than about 100 history writes in 10 s, and a
/// scrub renders 60 times a second; so view changes rewrite the URL at most every 250 ms, with
/// a trailing write that records where the cursor came to rest.
const URL_SYNC_MS: f64 = 250.0;

fn sync_url() {
    let (last_ms, pending) = with_ui(|u| &u.url_sync, |s| s.get());
    let now_ms = dom::now_ms();
    if now_ms - last_ms >= URL_SYNC_MS {
        write_url(UrlWrite::Replace);
    } else if !pending {
        with_ui(|u| &u.url_sync, |s| s.set((last_ms, true)));
        dom::later(URL_SYNC_MS as i32, || write_url(UrlWrite::Replace));
    }
}

/// Writes the state's permalink: a new history entry for a scenario change, else the same one.
/// Nothing is written when the URL already says it (so a reload or Back adds no entry).
fn write_url(how: UrlWrite) {
    with_ui(|u| &u.url_sync, |s| s.set((dom::now_ms(), false)));
    let query = format!("?{}", with_app(|app| app::address_query(&app.state)));
    // The printed page's link to this view (shown only in print).
    dom::set_text(
        &dom::by_id::<web_sys::Element>("print-link"),
        &format!("{}{query}", page_url()),
    );
    let location = dom::window().location();
    if location.search().ok().as_deref() == Some(query.as_str()) {
        return;
    }
    // With the path: a bare `?…` resolves against `<base href="./">`, which drops `index.html`,
    // and a host without directory indexes answers that address with a 404.
    let query = format!("{}{query}", location.pathname().unwrap_or_default());
    let Ok(history) = dom::window().history() else {
        return;
    };
    let _ = match how {
        UrlWrite::Push => history.push_state_with_url(&JsValue::NULL, "", Some(&query)),
        UrlWrite::Replace => history.replace_state_with_url(&JsValue::NULL, "", Some(&query)),
    };
}

/// Runs a query and returns its counts and digest: the small, copyable result that tests and
/// automation need from the wasm build (see `tests/web.rs`).
#[wasm_bindgen]
pub fn run_query(query: &str) -> Result<JsValue, JsValue> {
    let decoded = idemlab_core::scenario::decode(query).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        JsValue::from_str(&lines.join("\n"))
    })?;
    let (trace, metrics) = idemlab_lab::run(&decoded.scenario);
    let result = js_sys::Object::new();
    let set =
        |key: &str, value: JsValue| js_sys::Reflect::set(&result, &key.into(), &value).map(|_| ());
    set("digest", trace.digest().into())?;
    set("events", metrics.events.into())?;
    set("duplicates", metrics.duplicates.into())?;
    set("effects", metrics.effects.into())?;
    Ok(result.into())
}
