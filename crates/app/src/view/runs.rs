//! The runs' blocks as the page paints them: for A (and B when comparing) the title, the
//! counters at the cursor, the moment they describe and the canvas's name; the progress line
//! of a run being computed, the preset's summary and the compare sentence. The timelines'
//! drawing is `lab::view::plot`'s, for the width the browser measures.

use idemlab_lab::{Metrics, Side};

use crate::work::{Run, Runs};
use crate::State;

#[derive(Clone, Debug, PartialEq)]
pub struct RunsFrame {
    /// The progress line while a run is computed; the runs are `aria-busy` while it shows.
    pub computing: Option<String>,
    /// The counters, the moment they describe and the compare line are hidden: a step waits
    /// for its answer, or a run is computing (zeros would read as a result).
    pub counters_hidden: bool,
    /// What the preset shows, in a sentence, above its timeline.
    pub summary: Option<&'static str>,
    /// "dedup=naive: 2 duplicates, … → dedup=atomic: 0 duplicates, …", while comparing.
    pub diff: Option<String>,
    /// A's block, then B's; `None` for B when not comparing (its block is hidden).
    pub sides: [Option<SideFrame>; 2],
    /// Which lines of the key show (`legend::LEGEND`'s order): the kinds of mark the runs draw.
    pub legend: [bool; idemlab_lab::view::legend::LEGEND.len()],
}

/// One run's block.
#[derive(Clone, Debug, PartialEq)]
pub struct SideFrame {
    pub title: String,
    /// While comparing, the run the cursor is an event of.
    pub in_focus: bool,
    /// The moment the counters describe ("at event 12 of 40, 245.3 ms"), or why they show none.
    pub counts_at: String,
    /// A quiz question hides this run: every value reads "–".
    pub run_hidden: bool,
    pub cards: Vec<CardFrame>,
    /// The "more" button: shown while cards are folded, its text and `aria-expanded`.
    pub more: Option<(String, bool)>,
    /// The run's length (`data-events`), and the canvas's accessible name.
    pub events: String,
    pub canvas_label: String,
}

/// One counter card.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CardFrame {
    /// Its `data-metric`.
    pub metric: &'static str,
    pub shown: bool,
    /// The step names it: emphasised (`named`) and marked `data-named`.
    pub named: bool,
    pub label: &'static str,
    pub value: String,
    /// Above zero, a harm: `bad`.
    pub bad: bool,
}

/// A docked timeline's caption names its run (the stylesheet shows it on a phone).
pub fn b_caption() -> &'static str {
    idemlab_lab::t!("Timeline B · swipe sideways ↔")
}

pub fn view(state: &State, runs: &Runs) -> RunsFrame {
    let hidden = crate::counters_hidden(state) || state.computing.is_some();
    let diff = runs
        .b
        .as_ref()
        .and_then(|b| crate::compare_sentence(state, &runs.a.metrics, &b.metrics));
    RunsFrame {
        computing: state.computing.map(|c| c.text()),
        counters_hidden: hidden,
        summary: runs.a.summary,
        diff: diff.filter(|_| !hidden),
        sides: Side::ALL.map(|side| runs.get(side).map(|run| side_view(state, runs, side, run))),
        legend: idemlab_lab::view::legend::shown(
            runs.a.classes | runs.b.as_ref().map_or(0, |b| b.classes),
        ),
    }
}

fn side_view(state: &State, runs: &Runs, side: Side, run: &Run) -> SideFrame {
    let lead = &runs.lead(state).trace;
    let metrics = metrics_at_cursor(state, runs, side, run);
    let hidden = crate::run_hidden(state);
    let view = crate::counters_view(state, side, &run.trace.scenario, &metrics);
    let cards = view.cards.iter().map(|card| CardFrame {
        metric: card.metric.name(),
        shown: card.shown,
        named: card.named,
        label: card.label,
        value: if hidden {
            "–".into()
        } else {
            card.value.to_string()
        },
        bad: card.bad && !hidden,
    });
    let more = (view.folded > 0).then(|| match view.more_open {
        true => (idemlab_lab::t!("fewer").to_string(), true),
        false => (idemlab_lab::tf!("more ({})", view.folded), false),
    });
    let counts_at = match (hidden, shared_cut(state, side, run)) {
        (true, _) => crate::hidden_note(state).to_string(),
        (false, None) => crate::counts_at_label(state, lead),
        (false, Some(note)) => format!("{note} {}", crate::counts_at_label(state, lead)),
    };
    let events = run.trace.events.len();
    SideFrame {
        title: crate::title(state, side),
        in_focus: runs.b.is_some() && state.focus() == side,
        counts_at,
        run_hidden: hidden,
        cards: cards.collect(),
        more,
        events: events.to_string(),
        canvas_label: crate::canvas_label(state, side, events),
    }
}

/// Why the run stopped short of the `events_max` its link asks for, when sharing the page's
/// events with the other run (`page::share_events`) is what stopped it.
fn shared_cut(state: &State, side: Side, run: &Run) -> Option<String> {
    let kept = run.trace.truncated.then(|| state.page.shared_cut(side))??;
    Some(crate::page::shared_events_note(side, kept))
}

/// The counts as they stand at the cursor, over the events `events_counted` says.
fn metrics_at_cursor(state: &State, runs: &Runs, side: Side, run: &Run) -> Metrics {
    let lead = &runs.lead(state).trace;
    match crate::events_counted(state, lead, side, &run.trace) {
        None => run.metrics.clone(),
        Some(count) => run.index.at(&run.trace, count),
    }
}
