//! One screen: where the lesson goes, which counters a step names and what they are called, and
//! which run the cursor, the status line, Tables and Sweep follow while comparing.
//!
//! Rules decided here, each with a test in `tests/app.rs`:
//! - In a lesson (not in an embed) the lesson takes the controls' column and the controls fold
//!   into a drawer; the Lessons tab then opens no panel under the runs, so Events, Tables and
//!   Sweep open beside the step's text, never instead of it.
//! - A step names the counters of its claims and of its prediction; those show, the others fold
//!   under "more". A card is called by the step's own words: the effects of `op=charge` are
//!   "Charges", of `op=set` "Writes"; the attempts table's rows are "Attempt rows".
//! - While comparing, one run is in focus (A unless `focus=b`): the cursor is an event of that
//!   run, so each run scrubs to its own end, and the other run is counted up to the cursor's
//!   time.

use super::{Effects, Focus, State, Tab};
use crate::page::PageState;
use idemlab_core::scenario::{decode_lenient, Op, Scenario};
use idemlab_core::trace::Trace;
use idemlab_course::lessons::{Ask, Side, Step};
use idemlab_lab::{Metric, Metrics};

/// The page's arrangement: decided here, applied by `web` with classes and `hidden`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PageLayout {
    /// The lesson (its step, or its mastery check) sits in the first column, where the
    /// controls were.
    pub lesson_column: bool,
    /// The controls show: always beside the runs outside a lesson, in a drawer inside one.
    pub controls_shown: bool,
    /// The tab panel under the runs: none while a lesson's column holds the Lessons tab.
    pub panel: Option<Tab>,
    /// The A/B focus buttons: only while comparing.
    pub focus_toggle: bool,
    /// The step's claim lines, which describe its own run: they go once the ordering exercise
    /// has loaded the learner's order instead. (The column keeps its width on that step, so
    /// the timeline does not jump when the step opens.)
    pub claims: bool,
    /// On a phone, the timeline in focus docks at the screen's foot (`style.css`): not while a
    /// step waits for its answer or a check hides its run, when the run is held at its first
    /// event and the dock would only cover the choices.
    pub dock: bool,
    /// The first column shows at all: not for an embed that leaves no control of the side
    /// panel open and shows no lesson (`controls=` empty, or `seed` alone), whose runs then
    /// take the whole width.
    pub side: bool,
    /// A lesson's "☰ Controls" button: only when its drawer would hold an open control.
    pub drawer_toggle: bool,
    /// "Close lesson": not for a locked link's own lesson, which stays open (`locks`).
    pub close_lesson: bool,
    /// The phone's dock button, where the timeline may dock: whether it is docked (then the
    /// button puts it back in the page, so the text it covered can be read) or not (then it
    /// docks it again).
    pub dock_toggle: Option<bool>,
}

pub fn page_layout(state: &State) -> PageLayout {
    // A lesson's step stands beside its runs everywhere, in an embed too: kept in the Lessons tab,
    // a self-sizing frame's step would sit 1,000 px under its empty timeline. Only a frame that
    // sizes itself to its content leaves out what depends on the screen's height (the column's own
    // scrolling, the phone's docked timeline), which would grow the frame that grows the screen.
    let self_sizing = state.page.embed && state.page.height.is_none();
    let lesson_column = state.lesson.is_some() || state.quiz.is_some() || state.build.is_some();
    PageLayout {
        lesson_column,
        controls_shown: !lesson_column || state.drawer_open,
        panel: match state.tab {
            Tab::Lessons if lesson_column => None,
            tab => Some(tab),
        },
        focus_toggle: state.page.compare.is_some(),
        claims: state.verdict.is_none() && step_runs_shown(state),
        dock: dockable(state, lesson_column, self_sizing) && !state.undocked,
        dock_toggle: dockable(state, lesson_column, self_sizing).then_some(!state.undocked),
        side: lesson_column || side_controls_open(state),
        drawer_toggle: lesson_column && side_controls_open(state),
        close_lesson: !super::locks::refused(state, &super::Msg::Lesson(super::LessonMsg::Close)),
    }
}

/// Whether a phone's timeline may dock at the screen's foot (`style.css` docks it only on a
/// narrow screen): in a lesson, once the step is answered, and not in a frame that grows.
fn dockable(state: &State, lesson_column: bool, self_sizing: bool) -> bool {
    lesson_column && !self_sizing && !state.awaiting() && !super::run_hidden(state)
}

/// Whether the side panel holds any open control: every one without `controls=`, else those
/// it lists that the panel has (the seed lives in the toolbar, and the preset is no key).
/// Counting the seed too, `controls=seed` would leave a first column with nothing in it.
fn side_controls_open(state: &State) -> bool {
    let in_panel = |key: &String| {
        !super::TOOLBAR_KEYS.contains(&key.as_str())
            && idemlab_core::scenario::codec::keys()
                .iter()
                .any(|spec| spec.name == key)
    };
    (state.page.controls.as_ref()).is_none_or(|open| open.iter().any(in_panel))
}

/// What changes the screen and not the runs.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// The scenario controls' drawer: open or close it (Escape closes it).
    ShowControls(bool),
    /// A phone's docked timeline: put it back in the page, or dock it at the screen's foot again.
    ToggleDock,
    /// "more" under the counters: show every counter, or only those the step names.
    MoreCounters(bool),
    /// Put a run in focus while comparing, with the cursor on that run's event (`focus_on`
    /// converts it by time; a mark clicked on a timeline gives its own event).
    FocusOn { side: Side, cursor: Option<u32> },
}

/// The drawer, "more", the run in focus.
pub(super) fn update(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::ShowControls(open) => {
            let open = open && page_layout(state).drawer_toggle;
            state.drawer_open = open;
            Effects {
                render: true,
                focus: Some(if open {
                    Focus::Drawer
                } else {
                    Focus::DrawerToggle
                }),
                ..Effects::default()
            }
        }
        Msg::ToggleDock => {
            state.undocked = page_layout(state).dock;
            Effects {
                render: true,
                ..Effects::default()
            }
        }
        Msg::MoreCounters(more) => {
            state.counters_more = more;
            Effects {
                render: true,
                ..Effects::default()
            }
        }
        Msg::FocusOn { side, cursor } => {
            if state.page.compare.is_none() {
                return Effects::default();
            }
            state.playing = false;
            state.page.focus = side;
            let last = state.events_lead().saturating_sub(1);
            state.page.cursor = cursor.filter(|&c| c < last);
            Effects::view()
        }
    }
}

/// Leaving a lesson: its column gives way to the controls again; the run stays.
pub(super) fn close_lesson(state: &mut State) -> Effects {
    // A hidden quiz run was never run: run the page's scenario now, so the counters
    // show a real run and not the empty one's zeros.
    let was_hidden = super::run_hidden(state);
    state.lesson = None;
    state.quiz = None;
    state.build = None;
    state.drawer_open = false;
    // The picker, so another lesson is one click away.
    state.tab = Tab::Lessons;
    let focus = Some(super::Focus::LessonPicker);
    if was_hidden {
        state.scenario_changed();
        return Effects {
            focus,
            ..Effects::scenario()
        };
    }
    Effects {
        focus,
        ..Effects::view()
    }
}

/// The run in focus of two: `b` while B is in focus and there is a B, else `a`.
pub fn lead<'a, T>(state: &State, a: &'a T, b: Option<&'a T>) -> &'a T {
    match (state.focus(), b) {
        (Side::B, Some(b)) => b,
        _ => a,
    }
}

/// `Msg::FocusOn)` for the A/B buttons: the cursor moves to the last event of the new run at or
/// before the cursor's time, so the moment shown stays; at the end it stays at the end.
pub fn focus_on(state: &State, a: &Trace, b: Option<&Trace>, side: Side) -> super::Msg {
    let cursor = state.page.cursor.map(|_| {
        let time_us = lead(state, a, b)
            .events
            .get(state.cursor() as usize)
            .map_or(0, |e| e.time_us);
        let to = if side == Side::B { b.unwrap_or(a) } else { a };
        let by = to.events.partition_point(|e| e.time_us <= time_us);
        u32::try_from(by.saturating_sub(1)).unwrap_or(u32::MAX)
    });
    super::Msg::Screen(Msg::FocusOn { side, cursor })
}

/// The timeline canvas's accessible name: what it shows and where its text form is. While a
/// step waits for its prediction the run's length is left out, as on the status line. The run
/// is named by its side, not its title: the title is the heading just before the canvas, and
/// as a name it would read out a whole query (about 230 characters).
pub fn canvas_label(state: &State, side: Side, events: usize) -> String {
    let side = side.letter();
    if state.awaiting() {
        idemlab_lab::tf!(
            "Race timeline of run {}, held at its first event until you answer.",
            side
        )
    } else {
        idemlab_lab::tf!(
            "Race timeline of run {}: {} events, told order by order under \"The run as text\".",
            side,
            events
        )
    }
}

/// The status line under the scrubber: the cursor's event, and which run it is of while
/// comparing ("B · event 3 of 40 · …").
pub fn status_line(state: &State, lead: &Trace) -> String {
    let label = if state.awaiting() {
        super::text::cursor_label_held(lead, state.cursor() as usize)
    } else {
        super::cursor_label(lead, state.cursor() as usize)
    };
    match state.page.compare {
        Some(_) => format!("{} · {label}", state.focus().letter()),
        None => label,
    }
}

/// Above the Tables tab's tables while comparing: which run they fold.
pub fn tables_note(state: &State) -> Option<String> {
    state.page.compare.as_ref()?;
    Some(idemlab_lab::tf!(
        "Run {}'s tables at the cursor (the run in focus; pick A or B beside the scrubber).",
        state.focus().letter()
    ))
}

/// After the sweep's line while comparing: which run it swept.
pub fn sweep_note(job: &super::SweepJob) -> Option<String> {
    job.side
        .map(|side| idemlab_lab::tf!("Swept run {}, the run in focus.", side.letter()))
}

/// The plot is never narrower than this: on a phone the timeline scrolls sideways at a
/// readable scale rather than squeezing a run into the width that is left.
pub const PLOT_MIN_PX: u32 = 560;

/// On a wide screen the plot may be this narrow: a panel beside it (the key store) takes the
/// rest, and Fit must fit the run to the width the timeline has, not to `PLOT_MIN_PX` inside a
/// box that hides the overflow.
pub const PLOT_MIN_WIDE_PX: u32 = 300;

/// An embed's plot may be this narrow: a frame in a course column that scrolled sideways inside
/// the course page's own scrolling would cut the run's right edge off, so it fills whatever width
/// its column has, down to a 360 px phone's.
pub const PLOT_MIN_EMBED_PX: u32 = 160;

/// Below this window width the page is a phone's single column (`style.css`'s 900 px query).
pub const NARROW_MAX_PX: f64 = 900.0;

/// The plot's width from its timeline's inner width: what is left of it after the lane
/// labels and a border, never under the minimum for this window (a phone's timeline scrolls
/// sideways at `PLOT_MIN_PX`; an embed's fills its column), never over 8,000 px. Measured
/// again whenever the column changes width, so it follows a course page's sidebar.
pub fn plot_width_px(timeline_px: f64, window_px: f64, gutter_px: f64, embed: bool) -> u32 {
    let min_px = match (embed, window_px <= NARROW_MAX_PX) {
        (true, _) => PLOT_MIN_EMBED_PX,
        (false, true) => PLOT_MIN_PX,
        (false, false) => PLOT_MIN_WIDE_PX,
    };
    // max then min, not clamp: clamp's check of its bounds formats them as f64 when it fails,
    // and that alone links the float formatter into the page (scripts/test.sh checks).
    (timeline_px - gutter_px - 4.0)
        .max(f64::from(min_px))
        .min(8_000.0) as u32
}

/// The counters the step names on `side`: its claims', and its prediction's metric.
pub fn named_metrics(step: &Step, side: Side) -> Vec<Metric> {
    let mut names: Vec<Metric> = (step.claims.iter())
        .filter(|c| c.side == side)
        .map(|c| c.metric)
        .collect();
    let asked = match step.predict.ask {
        Ask::Count {
            side: asked,
            metric,
            ..
        } if asked == side => Some(metric),
        Ask::WhichHas { metric } => Some(metric),
        Ask::Count { .. } => None,
    };
    names.extend(asked);
    let mut unique = Vec::new();
    for name in names {
        if !unique.contains(&name) {
            unique.push(name);
        }
    }
    unique
}

/// A counter's card label, in the words the lessons use for it.
pub fn counter_label(metric: Metric, scenario: &Scenario) -> &'static str {
    metric.label(scenario.op == Op::Set)
}

/// The "unrecorded" card's label at a cursor before the end of the run: at a prefix the count
/// also holds charges whose ledger row is still waiting for its commit.
pub const UNRECORDED_SO_FAR: &str = "Charges the ledger has not recorded yet";

/// One side's counters as the page shows them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountersView {
    /// In the markup's order. `Counter::shown` is the one field that decides whether a card
    /// shows; `named` ones are emphasised.
    pub cards: Vec<super::Counter>,
    /// How many cards "more" would show (0: no "more" button).
    pub folded: u32,
    /// "more" is open: the folded cards show too.
    pub more_open: bool,
}

/// The counters of run `side` (`scenario` is that run's), with the step's named ones marked and
/// the rest folded under "more" while a step names any on this side.
pub fn counters_view(state: &State, side: Side, scenario: &Scenario, m: &Metrics) -> CountersView {
    let step = state
        .lesson
        .filter(|_| state.quiz.is_none())
        .map(|at| at.step());
    let named = step.map_or_else(Vec::new, |step| named_metrics(step, side));
    let fold = !named.is_empty();
    let mut folded = 0;
    // Before the end, a charge without a ledger row may only be waiting for its commit.
    let mid_run = state.page.cursor.is_some() && state.cursor() + 1 < state.events_lead();
    let production = super::production_counters(m, scenario);
    let cards = (super::counters(m, scenario.consumer).into_iter())
        .chain(production)
        .map(|mut card| {
            card.label = counter_label(card.metric, scenario);
            if mid_run && card.metric == Metric::Unrecorded {
                card.label = idemlab_lab::i18n::tr(UNRECORDED_SO_FAR);
            }
            card.named = named.contains(&card.metric);
            if card.shown && fold && !card.named {
                folded += 1;
                card.shown = state.counters_more;
            }
            card
        })
        .collect();
    CountersView {
        cards,
        folded,
        more_open: state.counters_more,
    }
}

/// A count a step promises, as the learner checks it on the counters: the card's label, so the
/// list and the cards use the same words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClaimLine {
    pub side: Side,
    pub metric: Metric,
    /// "B: Duplicates = 0", or "the run: Attempt rows = 6" when the step has no B.
    pub text: String,
}

pub(super) fn claim_lines(step: &Step) -> Vec<ClaimLine> {
    let a = decode_lenient(step.query).0.scenario;
    let page = PageState {
        scenario: a.clone(),
        compare: step.compare.map(String::from),
        ..PageState::default()
    };
    let b = page.compare_scenario().unwrap_or_else(|| a.clone());
    (step.claims.iter())
        .map(|c| {
            let (run, scenario) = match (c.side, step.compare) {
                (Side::A, Some(_)) => (Side::A.letter(), &a),
                (Side::A, None) => (idemlab_lab::t!("the run"), &a),
                (Side::B, _) => (Side::B.letter(), &b),
            };
            ClaimLine {
                side: c.side,
                metric: c.metric,
                text: format!("{run}: {} = {}", counter_label(c.metric, scenario), c.value),
            }
        })
        .collect()
}

/// Where a popup of `size` (width, height) goes for an anchor at (left, top, bottom), in a
/// viewport of `view` (width, height), all in px: under the anchor, or above it when it would
/// run past the foot; shifted left so it ends inside the right edge. Returns (left, top).
pub fn popup_at(anchor: (f64, f64, f64), size: (f64, f64), view: (f64, f64)) -> (f64, f64) {
    const MARGIN_PX: f64 = 4.0;
    let (left, top, bottom) = anchor;
    let (width, height) = size;
    let below = bottom + MARGIN_PX;
    let top = if below + height > view.1 && top - MARGIN_PX - height >= 0.0 {
        top - MARGIN_PX - height
    } else {
        below
    };
    let left = left.min(view.0 - MARGIN_PX - width).max(MARGIN_PX);
    (left, top)
}

/// How far right of and below the pointer a hover's tooltip starts, so it never covers the
/// mark under the pointer.
pub const TOOLTIP_OFFSET_PX: f64 = 14.0;

/// Where a timeline's tooltip `width_px` wide starts, wanting to start at `wanted_px` across
/// the timeline's content of which `visible_px` (from, to) shows: there, shifted to end
/// inside what shows. A phone's timeline scrolls sideways, and a tooltip placed in the
/// content's coordinates alone would end up off the left edge once it scrolled.
pub fn tooltip_left_px(wanted_px: f64, width_px: f64, visible_px: (f64, f64)) -> f64 {
    const MARGIN_PX: f64 = 4.0;
    let (from, to) = visible_px;
    wanted_px
        .min(to - MARGIN_PX - width_px)
        .max(from + MARGIN_PX)
}

/// What a 768 px screen leaves for the lanes of both runs in a lesson's compare, under the
/// chrome, run A's title and counters, two axes, and run B's title and counters.
pub const TWO_RUNS_LANES_PX: u32 = 388;
/// The squeezed lanes' floor: a label row above and below a mark still fits.
pub const LANE_MIN_PX: u32 = 32;

/// What a phone's dock (`PageLayout::dock`) gives the lanes: with the axis, about 230 px,
/// which leaves a 844 px screen room for the step above it.
pub const DOCK_LANES_PX: u32 = 200;

/// What an embed of fixed height (`height=`) keeps for everything but its lanes: the toolbar,
/// the run's title and counters, the axis, the playback bar and the legend's strip, at a
/// 1,000 px wide column.
pub const FIT_CHROME_PX: u32 = 400;

/// Each lane's height for a timeline of `lanes` lanes in a window `window_px` wide: in an
/// embed of fixed height, so that the runs fit the frame's height under its chrome; in a
/// lesson that compares, squeezed so that both runs' timelines fit one 1366×768 screen (the
/// step talks about B); in a lesson on a phone, so that the docked timeline shows every lane
/// without scrolling up and down (at the usual height a run's lanes can take 688 px of a
/// 374 px dock); else the usual.
pub fn lane_px(state: &State, lanes: usize, window_px: f64) -> Option<u32> {
    let lanes = lanes.max(1) as u32;
    let comparing = state.page.compare.is_some();
    if let Some(height_px) = state.page.height {
        let runs = if comparing { 2 } else { 1 };
        let fit = height_px.saturating_sub(FIT_CHROME_PX) / (runs * lanes);
        return (fit < 60).then_some(fit.max(LANE_MIN_PX));
    }
    // A frame that grows with its content has room for every lane at its usual height, and
    // never docks.
    if state.page.embed {
        return None;
    }
    let lesson = page_layout(state).lesson_column;
    let fit = if window_px <= NARROW_MAX_PX {
        DOCK_LANES_PX / lanes
    } else {
        TWO_RUNS_LANES_PX / (2 * lanes)
    };
    let squeeze = lesson && (comparing || window_px <= NARROW_MAX_PX);
    (squeeze && fit < 60).then_some(fit.max(LANE_MIN_PX))
}

/// Where a timeline's outline lies, in CSS px from its canvas's left edge: from the earliest
/// to the latest mark on `side` that the lesson's highlight matches and the viewport shows.
/// `None` with no outline on that side, or none of its marks in view.
pub fn outline_span_px(
    state: &State,
    side: Side,
    timeline: &idemlab_lab::view::Timeline,
    viewport: &idemlab_lab::view::Viewport,
) -> Option<(f64, f64)> {
    let (on, find) = state.highlight?;
    if on != side {
        return None;
    }
    let shown = viewport.t0_us()..=viewport.t1_us();
    let mut times = (timeline.marks().iter())
        .filter(|mark| find.matches(mark) && shown.contains(&mark.t0_us))
        .map(|mark| mark.t0_us);
    let first_us = times.next()?;
    let (first_us, last_us) =
        times.fold((first_us, first_us), |(lo, hi), t| (lo.min(t), hi.max(t)));
    let x = |t| idemlab_lab::view::GUTTER_PX + viewport.x_px(t);
    Some((x(first_us), x(last_us)))
}

/// The scroll position that shows an outline spanning `first_px..=last_px` in a scroller
/// showing `width_px` from `left_px`, whose left `GUTTER_PX` the lanes' names cover (the
/// canvas's own, or the page's copies once it scrolls): `None` when all of it already shows
/// (with a margin for the outline's rings); else the whole span, centred in the rest, when it
/// fits, and its start just right of the names when it does not (else a phone may show 1 of
/// 3 outlined duplicates).
pub fn outline_scroll_px(first_px: f64, last_px: f64, left_px: f64, width_px: f64) -> Option<f64> {
    const MARGIN_PX: f64 = 16.0;
    let names_px = idemlab_lab::view::GUTTER_PX;
    let (from_px, to_px) = (
        left_px + names_px + MARGIN_PX,
        left_px + width_px - MARGIN_PX,
    );
    if first_px >= from_px && last_px <= to_px {
        return None;
    }
    let room_px = width_px - names_px - 2.0 * MARGIN_PX;
    let to = if last_px - first_px <= room_px {
        (first_px + last_px) / 2.0 - names_px - (width_px - names_px) / 2.0
    } else {
        first_px - names_px - MARGIN_PX
    };
    Some(to.max(0.0))
}

/// Whether the runs on show are the open step's own (its scenario, and its fix as B), so that
/// the counts its text claims hold: not once the learner ran an order of their own, had an
/// operation of the classification exercise shown as run A (its "A: Writes = 7" would sit
/// beside a charge run), or changed a control. True outside a lesson.
pub fn step_runs_shown(state: &State) -> bool {
    let Some(at) = state.lesson else {
        return true;
    };
    let step = at.step();
    state.page.scenario == decode_lenient(step.query).0.scenario
        && state.page.compare.as_deref() == step.compare
}
