//! The browser layer (wasm32 only): it reads the URL, runs the core, paints what the core's
//! views computed and wires the controls. It decides nothing the core could decide.
//!
//! State lives in one `App` behind a thread-local; every user action changes `App::page` and
//! calls `refresh` (scenario changed: rerun) or `render` (only the view changed).

// Only the benchmark's build (`--features bench`, scripts/bench.sh) exports the measurements;
// the page that ships does not carry them.
#[cfg(feature = "bench")]
mod bench;
mod controls;
mod dom;
mod embed;
mod export;
mod lessons;
mod ordering;
mod playback;
mod quiz;
mod runs;
mod sweep;
mod table;
mod timeline;

use std::cell::RefCell;

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::metrics::MetricsIndex;
use crate::page::PageState;
use crate::scenario::{codec, CodecError, Scenario};
use crate::view::{layout, Timeline, View, Viewport};
use crate::{Metrics, Trace};

/// One configuration's run and everything derived from it.
pub(crate) struct Run {
    pub scenario: Scenario,
    pub trace: Trace,
    pub metrics: Metrics,
    /// Counts at any cursor without refolding the whole trace on every frame of a scrub.
    pub index: MetricsIndex,
    pub timeline: Timeline,
    /// The marks (or density) of the last viewport: a scrub moves the cursor, not the view.
    view_cache: std::cell::RefCell<Option<(Viewport, std::rc::Rc<View>)>>,
    /// The preset's one-sentence summary, while the scenario is the preset as it stands (seed
    /// aside): a changed key can make the sentence untrue (with `op=set`, lost-ack's "every
    /// retry charges again" is false). Worked out once per run, not per frame.
    pub summary: Option<&'static str>,
}

fn preset_summary(scenario: &Scenario) -> Option<&'static str> {
    let unchanged = crate::scenario::encode(scenario).split('&').count() <= 2;
    scenario
        .preset
        .filter(|_| unchanged)
        .map(|p| p.spec().summary)
}

impl Run {
    /// A run with no events, standing in until the first real run: building the page's
    /// controls needs an `App`, and the run comes a task later.
    fn empty(scenario: Scenario) -> Run {
        let trace = Trace::new(&scenario);
        Run {
            metrics: Metrics::of(&trace),
            index: MetricsIndex::new(&trace),
            timeline: layout(&trace),
            summary: preset_summary(&scenario),
            scenario,
            trace,
            view_cache: std::cell::RefCell::new(None),
        }
    }

    fn of(scenario: Scenario) -> Run {
        let (trace, metrics) = crate::run(&scenario);
        let timeline = layout(&trace);
        let index = MetricsIndex::new(&trace);
        Run {
            summary: preset_summary(&scenario),
            scenario,
            trace,
            metrics,
            index,
            timeline,
            view_cache: std::cell::RefCell::new(None),
        }
    }

    /// Drops the cached view, so the next paint computes it again (the benchmark's cold draw).
    #[cfg(feature = "bench")]
    pub fn forget_view(&self) {
        self.view_cache.borrow_mut().take();
    }

    /// What `viewport` shows of this run, reusing the last answer when the viewport is the same.
    pub fn view(&self, viewport: &Viewport) -> std::rc::Rc<View> {
        let mut cache = self.view_cache.borrow_mut();
        match cache.as_ref() {
            Some((cached, view)) if cached == viewport => view.clone(),
            _ => {
                let view = std::rc::Rc::new(self.timeline.view(viewport));
                *cache = Some((*viewport, view.clone()));
                view
            }
        }
    }

    /// How many of this run's events have happened by `time_us`.
    pub fn events_by(&self, time_us: u64) -> usize {
        self.trace.events.partition_point(|e| e.time_us <= time_us)
    }
}

pub(crate) struct App {
    pub page: PageState,
    pub errors: Vec<CodecError>,
    /// Whether `errors` came from the link (some of it did not load) or from a control (the
    /// value was refused); the banner words them differently.
    pub errors_from_link: bool,
    pub a: Run,
    pub b: Option<Run>,
    pub playing: bool,
    /// The marks a lesson sentence outlines, and on which run; cleared when the step changes.
    pub highlight: Option<(crate::lessons::Side, crate::view::Find)>,
}

impl App {
    /// The index of the last event shown: the cursor, or the last event of A.
    pub fn cursor(&self) -> usize {
        let last = self.a.trace.events.len().saturating_sub(1);
        self.page.cursor.map_or(last, |c| (c as usize).min(last))
    }

    /// The simulated time at the cursor.
    pub fn cursor_time_us(&self) -> u64 {
        self.a
            .trace
            .events
            .get(self.cursor())
            .map_or(0, |e| e.time_us)
    }
}

thread_local! {
    static APP: RefCell<Option<App>> = const { RefCell::new(None) };
}

/// Runs `f` on the app. Handlers never nest, so the borrow cannot be taken twice.
pub(crate) fn with_app<R>(f: impl FnOnce(&mut App) -> R) -> R {
    APP.with(|cell| f(cell.borrow_mut().as_mut().expect("the app is mounted")))
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
    run_and_show();
}

/// Reads the URL and builds every part of the page, with no run yet.
fn mount_ui() {
    if let Some(performance) = dom::window().performance() {
        performance.mark("idemlab-mount").ok();
    }
    let query = dom::window().location().search().unwrap_or_default();
    let (page, errors) = PageState::from_query(&query);
    let a = Run::empty(page.scenario.clone());
    APP.with(|cell| {
        *cell.borrow_mut() = Some(App {
            page,
            errors,
            errors_from_link: true,
            a,
            b: None,
            playing: false,
            highlight: None,
        })
    });
    controls::mount();
    runs::mount();
    playback::mount();
    table::mount();
    sweep::mount();
    embed::mount();
    export::mount();
    lessons::mount();
}

/// Runs A (and B) for the linked state, keeping its cursor and zoom, and shows them.
fn run_and_show() {
    with_app(rerun);
    render();
    rerender_on_resize();
    // Tests and embedders wait for this before reading the counters; the benchmark reads the
    // mark to measure load to interactive.
    if let Some(root) = dom::document().document_element() {
        root.set_attribute("data-state", "ready").ok();
    }
    if let Some(performance) = dom::window().performance() {
        performance.mark("idemlab-ready").ok();
    }
}

/// Runs A (and B) again for the page's scenario. The old runs go first: wasm memory never
/// shrinks, so building the new ones beside them would leave the page holding both sizes.
fn rerun(app: &mut App) {
    app.b = None;
    app.a = Run::empty(app.page.scenario.clone());
    app.a = Run::of(app.page.scenario.clone());
    app.b = app.page.compare_scenario().map(Run::of);
}

/// The timelines are as wide as their column: repaint when it changes size.
fn rerender_on_resize() {
    let last_width = std::rc::Rc::new(std::cell::Cell::new(0));
    let callback = Closure::<dyn FnMut()>::new(move || {
        // A resize observer runs after layout, so measuring here forces nothing.
        let width = runs::measure_width();
        if width != last_width.replace(width) {
            runs::render();
        }
    });
    let observer =
        web_sys::ResizeObserver::new(callback.as_ref().unchecked_ref()).expect("ResizeObserver");
    observer.observe(&dom::by_id::<web_sys::Element>("runs"));
    // Both live as long as the page.
    callback.forget();
    std::mem::forget(observer);
}

/// Sets one scenario key from a control. A bad value shows the banner and changes nothing.
pub(crate) fn set_key(name: &str, value: &str) {
    with_app(|app| {
        app.errors_from_link = false;
        app.errors = match codec::set_key(&mut app.page.scenario, name, value) {
            Ok(()) => Vec::new(),
            Err(error) => vec![error],
        };
    });
    refresh();
}

/// Replaces the scenario (a preset or a new seed) and reruns.
pub(crate) fn set_scenario(scenario: Scenario) {
    with_app(|app| {
        app.page.scenario = scenario;
        app.errors.clear();
        app.errors_from_link = false;
    });
    refresh();
}

/// The scenario or the compare keys changed: rerun both configurations, then render.
pub(crate) fn refresh() {
    // A sweep in progress belongs to the old scenario.
    sweep::stop();
    with_app(|app| {
        app.playing = false;
        app.page.cursor = None;
        app.page.zoom = None;
        // An outline belongs to the run a lesson phrase named; on another run (a quiz
        // question, say) it could point at the answer.
        app.highlight = None;
        rerun(app);
    });
    render();
    // A changed scenario is a new permalink at once; only cursor moves are throttled.
    write_url(dom::now_ms());
}

/// Brings every part of the page in line with the app state, and the URL with the page.
pub(crate) fn render() {
    controls::render();
    runs::render();
    playback::render();
    table::render();
    lessons::render();
    render_banner();
    sync_url();
}

fn render_banner() {
    let banner: web_sys::Element = dom::by_id("banner");
    let (lines, from_link) = with_app(|app| {
        (
            app.errors.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
            app.errors_from_link,
        )
    });
    dom::clear(&banner);
    dom::set_hidden(&banner, lines.is_empty());
    if lines.is_empty() {
        return;
    }
    let list = dom::El::new("ul");
    let list = lines.iter().fold(list, |list, line| {
        list.child(&dom::El::new("li").text(line).el())
    });
    banner
        .append_child(
            &dom::El::new("strong")
                .text(if from_link {
                    "Some of the link was not understood; the rest loaded."
                } else {
                    "That value was not accepted; the run is unchanged."
                })
                .el(),
        )
        .ok();
    banner.append_child(&list.el()).ok();
}

/// The permalink for the current state, relative to this page.
pub(crate) fn permalink() -> String {
    let location = dom::window().location();
    let base = format!(
        "{}{}",
        location.origin().unwrap_or_default(),
        location.pathname().unwrap_or_default()
    );
    format!("{base}?{}", with_app(|app| app.page.to_query()))
}

thread_local! {
    /// When the URL was last written, and whether a trailing write is already scheduled.
    static URL_SYNC: std::cell::Cell<(f64, bool)> = const { std::cell::Cell::new((f64::MIN, false)) };
}

/// Browsers throttle (and complain about) more than about 100 history writes in 10 s, and a
/// scrub renders 60 times a second; so the URL is written at most every 250 ms, with a trailing
/// write that records where the cursor came to rest.
const URL_SYNC_MS: f64 = 250.0;

fn sync_url() {
    let (last_ms, pending) = URL_SYNC.with(|s| s.get());
    let now_ms = dom::now_ms();
    if now_ms - last_ms >= URL_SYNC_MS {
        write_url(now_ms);
    } else if !pending {
        URL_SYNC.with(|s| s.set((last_ms, true)));
        dom::later(URL_SYNC_MS as i32, || write_url(dom::now_ms()));
    }
}

fn write_url(now_ms: f64) {
    URL_SYNC.with(|s| s.set((now_ms, false)));
    let query = with_app(|app| app.page.to_query());
    if let Ok(history) = dom::window().history() {
        let _ = history.replace_state_with_url(&JsValue::NULL, "", Some(&format!("?{query}")));
    }
}

/// Runs a query and returns its counts and digest: the small, copyable result that tests and
/// automation need from the wasm build (see `tests/web.rs`).
#[wasm_bindgen]
pub fn run_query(query: &str) -> Result<JsValue, JsValue> {
    let decoded = crate::scenario::decode(query).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        JsValue::from_str(&lines.join("\n"))
    })?;
    let (trace, metrics) = crate::run(&decoded.scenario);
    let result = js_sys::Object::new();
    let set =
        |key: &str, value: JsValue| js_sys::Reflect::set(&result, &key.into(), &value).map(|_| ());
    set("digest", trace.digest().into())?;
    set("events", metrics.events.into())?;
    set("duplicates", metrics.duplicates.into())?;
    set("effects", metrics.effects.into())?;
    Ok(result.into())
}
