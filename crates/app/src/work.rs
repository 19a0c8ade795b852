//! The page's work, a slice at a time, through one scheduler: runs A and B (simulate, lay
//! out, index), the JSON export, the sweep's seeds and the contracts table's runs.
//!
//! A link may name a run that takes a second of wasm time, and the page promises that no task
//! holds its main thread for long. So the browser never runs anything in one call: it gives
//! `Page::step` a `Budget` (a deadline on its clock), paints what the slice says changed, and
//! schedules the next slice while `Stepped::more` says there is more. Every change the work
//! makes to the state goes through `update` as a `Msg` (`Computing`, `Built`, `Swept`,
//! `ContractsRan`), so a native test that steps a `Page` drives the very code the page does.

use std::cell::RefCell;
use std::rc::Rc;

use idemlab_core::scenario::Scenario;
use idemlab_core::trace::{Event, Trace};
use idemlab_course::quiz::progress::Progress;
use idemlab_lab::metrics::MetricsIndex;
use idemlab_lab::story::{self, Story};
use idemlab_lab::sweep::Sweep;
use idemlab_lab::view::{layout, Timeline, View, Viewport};
use idemlab_lab::Metrics;
use idemlab_lab::Side;

use crate::job::{Built, CountJob, Phase, RunJob};
use crate::{update, Effects, Msg, State};

/// Work units (simulator actions, events) between two looks at the budget: a few
/// milliseconds of wasm time.
pub const UNITS_PER_LOOK: u32 = 8_192;

/// How long one slice of a run may take: well under the 200 ms long-task limit, leaving the
/// browser time to paint the progress line and to take a click on Cancel.
pub const RUN_SLICE_MS: u32 = 40;

/// How long one slice of the sweep or the contracts table may take: well under a 16 ms frame,
/// since the page stays in use while they run.
pub const BACKGROUND_SLICE_MS: u32 = 8;

/// When a slice must end. The browser's is its clock against a deadline; a test's counts.
pub trait Budget {
    /// Whether the slice's time is up; asked every `UNITS_PER_LOOK` units of work.
    fn spent(&mut self) -> bool;

    /// The browser's clock, in ms: the sweep's rate is measured by it. A test's budget has no
    /// clock, and its sweeps take 0 s.
    fn now_ms(&self) -> f64 {
        0.0
    }
}

/// A budget that never runs out: the work in one go (the tests, and `mount` in one call).
pub struct Unbounded;

impl Budget for Unbounded {
    fn spent(&mut self) -> bool {
        false
    }
}

/// Events written in one part of the JSON export between looks at the budget.
pub const JSON_PART_EVENTS: usize = 2_048;

/// A budget of so many looks: a test's stand-in for a slice of the clock.
pub struct Looks(pub u32);

impl Budget for Looks {
    fn spent(&mut self) -> bool {
        self.0 = self.0.saturating_sub(1);
        self.0 == 0
    }
}

/// One configuration's run and everything derived from it.
pub struct Run {
    pub trace: Trace,
    pub metrics: Metrics,
    /// Counts at any cursor without refolding the whole trace on every frame of a scrub.
    pub index: MetricsIndex,
    pub timeline: Timeline,
    /// The marks (or density) of the last viewport: a scrub moves the cursor, not the view.
    view_cache: RefCell<Option<(Viewport, Rc<View>)>>,
    /// `preset_summary`, worked out once per run, not per frame.
    pub summary: Option<&'static str>,
    /// The run as text (`story::tell`), worked out once per run.
    pub story: Story,
    /// The mark classes its timeline draws (`legend::classes_of`), for the page's key.
    pub classes: u64,
    /// The key table last folded (`key_store`), and the moment it is of: a paint that moved
    /// neither the cursor nor the run does not fold every event up to the cursor again.
    keys_cache: RefCell<Option<(Option<crate::keys::Moment>, Rc<crate::KeyStoreView>)>>,
}

impl Run {
    /// A run with no events, standing in until the first real run.
    pub fn empty(scenario: &Scenario) -> Run {
        let trace = Trace::new(scenario);
        Run {
            metrics: Metrics::of(&trace),
            index: MetricsIndex::new(&trace),
            timeline: layout(&trace),
            summary: crate::preset_summary(scenario),
            story: Story::default(),
            classes: 0,
            trace,
            view_cache: RefCell::new(None),
            keys_cache: RefCell::new(None),
        }
    }

    fn built(built: Built, scenario: &Scenario) -> Run {
        let Built {
            trace,
            metrics,
            timeline,
            index,
        } = built;
        Run {
            summary: crate::preset_summary(scenario),
            story: story::tell(&trace, &metrics, story::ORDERS_SHOWN_MAX),
            classes: idemlab_lab::view::legend::classes_of(&timeline),
            trace,
            metrics,
            index,
            timeline,
            view_cache: RefCell::new(None),
            keys_cache: RefCell::new(None),
        }
    }

    /// Drops everything but the trace's event block and hands that back, emptied.
    fn into_buffer(self) -> Option<Vec<Event>> {
        let Run {
            trace, timeline, ..
        } = self;
        drop(timeline);
        trace.into_buffer()
    }

    /// What `viewport` shows of this run, reusing the last answer when the viewport is the same.
    pub fn view(&self, viewport: &Viewport) -> Rc<View> {
        let mut cache = self.view_cache.borrow_mut();
        match cache.as_ref() {
            Some((cached, view)) if cached == viewport => view.clone(),
            _ => {
                let view = Rc::new(self.timeline.view(viewport));
                *cache = Some((*viewport, view.clone()));
                view
            }
        }
    }

    /// This run's key-store panel (`key_store_for`, as side `side` of the page, `lead` the run
    /// in focus), folded again only when its moment moved since the last call.
    pub fn key_store(&self, state: &State, lead: &Trace, side: Side) -> Rc<crate::KeyStoreView> {
        let moment = crate::keys::moment(state, lead, side, &self.trace);
        let mut cache = self.keys_cache.borrow_mut();
        match cache.as_ref() {
            Some((cached, table)) if *cached == moment => table.clone(),
            _ => {
                let table = Rc::new(crate::keys::key_store_in(&self.trace, moment));
                *cache = Some((moment, table.clone()));
                table
            }
        }
    }

    /// Drops the cached view, so the next paint computes it again (the benchmark's cold draw).
    pub fn forget_view(&self) {
        self.view_cache.borrow_mut().take();
    }
}

/// Runs A and B as the page shows them.
pub struct Runs {
    pub a: Run,
    /// Present while comparing, once built.
    pub b: Option<Run>,
}

impl Runs {
    pub fn get(&self, side: Side) -> Option<&Run> {
        match side {
            Side::A => Some(&self.a),
            Side::B => self.b.as_ref(),
        }
    }

    /// The run in focus (`crate::lead`): the one the cursor is an event of.
    pub fn lead(&self, state: &State) -> &Run {
        crate::lead(state, &self.a, self.b.as_ref())
    }

    /// The window both timelines share, `width_px` wide: the longer run's whole span unless the
    /// link zooms.
    pub fn viewport(&self, state: &State, width_px: u32) -> Viewport {
        let end_us = (self.b.as_ref())
            .map_or(0, |b| b.timeline.end_us())
            .max(self.a.timeline.end_us());
        idemlab_lab::view::window(end_us, state.page.zoom, width_px)
    }
}

/// What a slice of work tells the state: the one way work changes it, through `update`.
#[derive(Clone, Debug, PartialEq)]
pub enum Done {
    /// Both runs are built: their lengths, and their metrics at the end for the open step's
    /// prediction.
    Built(Box<crate::BuiltRuns>),
    /// A slice of a run's computation ended here; more slices follow.
    Computing {
        side: Side,
        progress: crate::job::JobProgress,
    },
    /// A slice of the sweep ran these seeds.
    Swept(Box<crate::Swept>),
    /// A run of the contracts table finished.
    ContractsRan(Box<Metrics>),
    /// A slice of the JSON export wrote this much of the trace.
    JsonWritten { percent: u32, done: bool },
}

/// What a slice did, for the browser to paint and to schedule.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Stepped {
    /// More work is due: schedule another slice.
    pub more: bool,
    /// Both runs were built in this slice: paint the page.
    pub built: bool,
    /// The sweep's totals moved: paint its panel.
    pub swept: bool,
    /// The contracts table moved: paint it.
    pub tabled: bool,
    /// Parts of the JSON export written in this slice, in order: the browser keeps them
    /// outside wasm memory (a million events are over 300 MB of text).
    pub json: Vec<String>,
    /// The JSON export's last part is among them: save the file.
    pub json_done: bool,
    /// What the messages the work sent asked of the browser, merged.
    pub effects: Effects,
}

/// A run being counted, a slice at a time, and the scenario (seed included) it is a run of.
/// Work that moved on (a sweep stopped and begun again under a changed key, a new table) asks
/// for another scenario, and the half-run one is dropped: never counted for the wrong run.
type Counting = (Scenario, CountJob);

/// `UNITS_PER_LOOK` more of `scenario`'s run in `slot` (starting it if the slot holds another
/// scenario's), and its counts once it is done.
fn counted(slot: &mut Option<Counting>, scenario: &Scenario) -> Option<Metrics> {
    if slot.as_ref().is_none_or(|(held, _)| held != scenario) {
        *slot = Some((scenario.clone(), CountJob::new(scenario)));
    }
    let (_, job) = slot.as_mut().expect("just filled");
    let metrics = job.step(UNITS_PER_LOOK)?;
    *slot = None;
    Some(metrics)
}

/// The work under way, between slices.
#[derive(Default)]
struct Work {
    /// The run being computed, A then B; `None` once both are built.
    run: Option<(Side, RunJob)>,
    /// `start_runs` was called and the runs are not yet reported built.
    unreported: bool,
    /// A run built in a later slice, whose view the next slice computes in a task of its own:
    /// the view of a million events takes about 120 ms of wasm.
    warm: Option<Side>,
    /// The sweep's seed in progress, between slices.
    sweep: Option<Counting>,
    /// The contracts table's run in progress, between slices.
    table_run: Option<Counting>,
    /// Run B's last event block, emptied, for the next run B to record into (`Page::start`).
    buffer_b: Option<Vec<Event>>,
    /// Run A's trace as JSON, the parts not yet written.
    json: Option<idemlab_core::trace::JsonParts>,
}

/// The page: its state, its runs and the work under way. The browser holds one.
pub struct Page {
    pub state: State,
    pub runs: Runs,
    work: Work,
}

impl Page {
    /// The page as a link describes it, with this browser's quiz progress. No run is built
    /// yet: `start` begins them, and the slices build them.
    pub fn load(query: &str, stored: &Progress) -> Page {
        Page::from_state(State::load(query, stored))
    }

    /// A page in `state`, its runs not yet built (`start`).
    pub fn from_state(state: State) -> Page {
        let runs = Runs {
            a: Run::empty(&state.page.scenario),
            b: None,
        };
        Page {
            state,
            runs,
            work: Work::default(),
        }
    }

    /// A page loaded and built in one go: the native tests' way in.
    pub fn built(query: &str) -> Page {
        let mut page = Page::load(query, &Progress::new());
        page.start();
        page.finish();
        page
    }

    /// The one way a message reaches the state: `update`, then the work it starts.
    pub fn dispatch(&mut self, msg: Msg) -> Effects {
        let export = matches!(msg, Msg::ExportJson) && self.work.json.is_none();
        let effects = update(&mut self.state, msg);
        if effects.rerun {
            self.start();
        }
        if export && self.state.json_export.is_some() {
            self.work.json = Some(self.runs.a.trace.json_parts());
        }
        effects
    }

    /// Drops the old runs and starts computing A, then B (when comparing, and not while a quiz
    /// question hides its runs). A rerun keeps the cursor and zoom: only `update` resets them.
    pub fn start(&mut self) {
        // The old runs go first: wasm memory never shrinks, so building the new ones beside
        // them would leave the page holding both sizes for good.
        let job = self.work.run.take();
        self.work.warm = None;
        let old_b = self.runs.b.take();
        let old_a = std::mem::replace(&mut self.runs.a, Run::empty(&self.state.page.scenario));
        // Each new run records into its side's old event block (its largest), where it stands:
        // the run of that side still being built when this one started, or else its last
        // finished run. A fresh block for B would not fit the hole the old one left once A's
        // timeline has taken part of it, and the memory would grow by B's size.
        let (building_a, building_b) = match job {
            Some((Side::A, job)) => (Some(job), None),
            Some((Side::B, job)) => (None, Some(job)),
            None => (None, None),
        };
        let buffer = (building_a.and_then(RunJob::into_buffer))
            .or_else(|| old_a.into_buffer())
            .unwrap_or_default();
        let (a, b) = self.state.page.runs();
        // A block saved by a rerun whose B never started (a second rerun while A was still
        // being built) is the one to keep.
        self.work.buffer_b = (building_b.and_then(RunJob::into_buffer))
            .or_else(|| old_b.and_then(Run::into_buffer))
            .or_else(|| self.work.buffer_b.take())
            .filter(|_| b.is_some());
        // A quiz question's run is not run until its answer is locked, so no view can show it.
        if !crate::run_hidden(&self.state) {
            self.work.run = Some((Side::A, RunJob::reusing(&a, buffer)));
        }
        self.work.unreported = true;
    }

    /// The index of the last event shown, in the run in focus: the cursor, or its last event.
    pub fn cursor(&self) -> usize {
        self.state.cursor() as usize
    }

    /// The simulated time at the cursor.
    pub fn cursor_time_us(&self) -> u64 {
        let events = &self.lead().trace.events;
        events.get(self.cursor()).map_or(0, |e| e.time_us)
    }

    /// The run in focus: the one the cursor is an event of.
    pub fn lead(&self) -> &Run {
        self.runs.lead(&self.state)
    }

    pub fn page(&self) -> &crate::page::PageState {
        &self.state.page
    }

    /// How long the next slice may take: a run's may be longer, since nothing else on the page
    /// can be read while it computes.
    pub fn slice_ms(&self) -> u32 {
        if self.work.unreported || self.work.warm.is_some() || self.work.json.is_some() {
            RUN_SLICE_MS
        } else {
            BACKGROUND_SLICE_MS
        }
    }

    /// Whether any work is due.
    pub fn busy(&self) -> bool {
        let runs = self.work.unreported || self.work.warm.is_some();
        runs || self.work.json.is_some() || self.sweeping() || self.tabling()
    }

    /// Starts the runs and steps until they are built and reported, as the browser does after
    /// a rerun; a sweep or a table under way is left as it stands.
    pub fn rerun(&mut self) {
        self.start();
        while self.work.unreported || self.work.warm.is_some() {
            self.step(&mut Unbounded, u32::MAX, false);
        }
    }

    /// Steps until no work is due: the tests' way to let a page settle.
    pub fn finish(&mut self) -> Effects {
        let mut effects = Effects::default();
        while self.busy() {
            effects = effects.and(self.step(&mut Unbounded, u32::MAX, false).effects);
        }
        effects
    }

    /// One slice of work, until `budget` is spent: the runs first, then the sweep, then the
    /// contracts table. `width_px` is the timelines' width, for a view computed ahead. In a
    /// `later` slice (not the one a message started), a run just built ends the slice, so that
    /// its view is computed in a task of its own.
    pub fn step(&mut self, budget: &mut impl Budget, width_px: u32, later: bool) -> Stepped {
        let mut stepped = Stepped::default();
        if self.work.unreported || self.work.warm.is_some() {
            self.step_runs(budget, width_px, later, &mut stepped);
        } else if self.work.json.is_some() {
            self.step_json(budget, &mut stepped);
        } else if self.sweeping() {
            self.step_sweep(budget, &mut stepped);
        } else if self.tabling() {
            self.step_table(budget, &mut stepped);
        }
        stepped.more = self.busy();
        stepped
    }

    fn send(&mut self, done: Done, stepped: &mut Stepped) {
        let effects = update(&mut self.state, Msg::Work(Box::new(done)));
        stepped.effects = std::mem::take(&mut stepped.effects).and(effects);
    }

    fn step_runs(
        &mut self,
        budget: &mut impl Budget,
        width_px: u32,
        later: bool,
        out: &mut Stepped,
    ) {
        if let Some(side) = self.work.warm.take() {
            let viewport = self.runs.viewport(&self.state, width_px);
            if let Some(run) = self.runs.get(side) {
                run.view(&viewport);
            }
            return;
        }
        loop {
            let Some((side, job)) = self.work.run.as_mut() else {
                self.report_built(out);
                return;
            };
            let side = *side;
            let progress = job.step(UNITS_PER_LOOK);
            if progress.phase == Phase::Done {
                self.put_in_place(side);
                if later {
                    self.work.warm = Some(side);
                    return;
                }
            } else if budget.spent() {
                self.send(Done::Computing { side, progress }, out);
                return;
            }
        }
    }

    /// Puts the built run of `side` in place, and starts B after A when comparing.
    fn put_in_place(&mut self, side: Side) {
        let Some((_, job)) = self.work.run.take() else {
            return;
        };
        let built = job.finish();
        match side {
            Side::A => {
                self.runs.a = Run::built(built, &self.state.page.scenario);
                let buffer = self.work.buffer_b.take().unwrap_or_default();
                let b = self.state.page.runs().1;
                self.work.run = b.map(|b| (Side::B, RunJob::reusing(&b, buffer)));
            }
            Side::B => {
                let scenario = self.state.page.runs().1.unwrap_or_default();
                self.runs.b = Some(Run::built(built, &scenario));
            }
        }
    }

    /// Both runs are built: the state hears their lengths and their metrics at the end (the
    /// open step's prediction is read from them).
    fn report_built(&mut self, out: &mut Stepped) {
        self.work.unreported = false;
        let events = |run: Option<&Run>| {
            let events = run.map_or(0, |run| run.trace.events.len());
            u32::try_from(events).unwrap_or(u32::MAX)
        };
        let built = crate::BuiltRuns {
            events_a: events(Some(&self.runs.a)),
            events_b: events(self.runs.b.as_ref()),
            a: self.runs.a.metrics.clone(),
            b: self.runs.b.as_ref().map(|b| b.metrics.clone()),
        };
        // As before the scheduler moved here, the runs' arrival asks nothing of the browser but
        // the paint that `built` asks for.
        update(
            &mut self.state,
            Msg::Work(Box::new(Done::Built(Box::new(built)))),
        );
        out.built = true;
    }

    fn sweeping(&self) -> bool {
        self.state.sweep.as_ref().is_some_and(|job| job.running())
    }

    fn tabling(&self) -> bool {
        self.state
            .contracts
            .as_ref()
            .is_some_and(|table| table.busy())
    }

    /// Writes parts of the JSON export until the budget is spent, and tells the state how far
    /// it has got.
    fn step_json(&mut self, budget: &mut impl Budget, out: &mut Stepped) {
        let Some(parts) = self.work.json.as_mut() else {
            return;
        };
        loop {
            let Some(part) = parts.next_part(JSON_PART_EVENTS) else {
                out.json_done = true;
                break;
            };
            out.json.push(part);
            if budget.spent() {
                break;
            }
        }
        let (done, all) = parts.progress();
        let percent = (done * 100 / all.max(1)) as u32;
        if out.json_done {
            self.work.json = None;
        }
        let written = Done::JsonWritten {
            percent,
            done: out.json_done,
        };
        self.send(written, out);
    }

    /// Runs the sweep's seeds until the budget is spent, and tells the state the slice's totals.
    fn step_sweep(&mut self, budget: &mut impl Budget, out: &mut Stepped) {
        let Some(job) = self.state.sweep.as_ref() else {
            return;
        };
        let (first, done_before, count) = (job.range.first, job.done, job.range.count);
        let base = job.scenario.clone();
        let (mut totals, mut seeds) = (Sweep::default(), 0);
        let started_ms = budget.now_ms();
        while done_before + seeds < count {
            let mut scenario = base.clone();
            scenario.seed = first + done_before + seeds;
            if let Some(metrics) = counted(&mut self.work.sweep, &scenario) {
                totals.add(&metrics);
                seeds += 1;
            }
            if budget.spent() {
                break;
            }
        }
        let swept = crate::Swept {
            first,
            done_before,
            seeds,
            totals,
            clock_ms: (started_ms, budget.now_ms()),
        };
        self.send(Done::Swept(Box::new(swept)), out);
        out.swept = true;
    }

    /// Runs the contracts table's runs until the budget is spent, each finished one through
    /// `update`.
    fn step_table(&mut self, budget: &mut impl Budget, out: &mut Stepped) {
        loop {
            let next = (self.state.contracts.as_ref())
                .filter(|table| table.busy())
                .and_then(|table| table.job.next());
            let Some(next) = next else {
                break;
            };
            if let Some(metrics) = counted(&mut self.work.table_run, &next) {
                self.send(Done::ContractsRan(Box::new(metrics)), out);
            }
            if budget.spent() {
                break;
            }
        }
        out.tabled = true;
    }
}
