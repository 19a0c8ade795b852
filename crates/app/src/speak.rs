//! What the page says aloud (WCAG 4.1.3): one polite region (`#announce`), written
//! only when something worth one sentence happened, never on every frame. Playback speaks when
//! it pauses; a cursor moved by a step (a request) speaks its event; a new lesson step speaks its
//! title and first sentence; a new run speaks the counters the step names, if they changed.
//! The browser keeps the last `Heard` between paints and writes what `announce` returns.

use super::State;
use idemlab_core::scenario::Scenario;
use idemlab_core::trace::Trace;
use idemlab_lab::Metrics;
use idemlab_lab::Side;

/// What the page looked like at the last paint, as far as the announcer cares.
/// Only `Default`: each derive costs the page's wasm.
#[derive(Default)]
pub struct Heard {
    /// A paint has been heard: the first one sets the scene and says nothing.
    seen: bool,
    playing: bool,
    cursor: Option<u32>,
    step: Option<(&'static str, usize)>,
    runs: Option<(Scenario, Option<String>)>,
    /// The named counters of the last built runs: side, label, value.
    named: Vec<(Side, &'static str, u32)>,
    /// The runs changed (not by a step) and their counters are not announced yet.
    pending: bool,
    /// The run was held back for a prediction or a question (`held`).
    held: bool,
    /// What the lesson's outline showed (`State::highlight`), and its words.
    outline: Option<String>,
}

/// The sentence to announce after this paint, if any, and what was heard updated. `runs` are
/// each built run's side, scenario and metrics (`None` while a run computes); `self_spoken`: the
/// focused element reads the cursor out itself (the scrubber's value, the event list's row);
/// `outline`: what the lesson's outline shows (`pointer_status`), said when a phrase changes it.
pub fn announce(
    heard: &mut Heard,
    state: &State,
    lead: &Trace,
    runs: Option<&[(Side, &Scenario, &Metrics)]>,
    self_spoken: bool,
    outline: Option<String>,
) -> Option<String> {
    let step = (state.lesson)
        .filter(|_| state.quiz.is_none())
        .map(|at| (at.lesson.id, at.index()));
    let scenario = Some((state.page.scenario.clone(), state.page.compare.clone()));
    let cursor = state.page.cursor;
    let held = held(state);
    let mut said = None;
    if !heard.seen {
        heard.seen = true;
    } else if step != heard.step {
        // The step's own runs come with it: its title says enough. Leaving the lesson for its
        // check says nothing here: the check's heading takes the focus.
        heard.pending = false;
        said = step.and_then(|_| step_words(state));
    } else if heard.held && !held {
        // An answer revealed the run: its feedback speaks (its own status), and the cursor's
        // move to the end is part of that reveal, not news of its own.
    } else if outline != heard.outline && outline.is_some() {
        said = outline.clone();
    } else if scenario != heard.runs {
        heard.pending = true;
    } else if heard.playing && !state.playing
        || !state.playing && cursor != heard.cursor && !self_spoken
    {
        said = Some(super::status_line(state, lead));
    }
    let named = runs
        .filter(|_| visible(state))
        .map(|runs| named(state, runs));
    if let Some(named) = named {
        if heard.pending && named != heard.named && !named.is_empty() {
            said = said.or_else(|| Some(counter_words(&named)));
        }
        heard.pending = false;
        heard.named = named;
    }
    heard.playing = state.playing;
    heard.held = held;
    heard.outline = outline;
    heard.cursor = cursor;
    heard.step = step;
    heard.runs = scenario;
    said
}

/// The run waits for an answer: a lesson's or an own step's prediction, or a check's question.
fn held(state: &State) -> bool {
    state.awaiting() || super::run_hidden(state)
}

/// Counters are read only when they show: not while a prediction or a question hides them.
fn visible(state: &State) -> bool {
    !super::counters_hidden(state) && !super::run_hidden(state) && state.computing.is_none()
}

/// The counters the open step names, in each run, with their labels.
fn named(state: &State, runs: &[(Side, &Scenario, &Metrics)]) -> Vec<(Side, &'static str, u32)> {
    let mut out = Vec::new();
    for &(side, scenario, metrics) in runs {
        let view = super::counters_view(state, side, scenario, metrics);
        let cards = view.cards.into_iter().filter(|c| c.named && c.shown);
        out.extend(cards.map(|c| (side, c.label, c.value)));
    }
    out
}

/// "Duplicates: 2. Races: 1." and, comparing, "A, Duplicates: 2. B, Duplicates: 0."
fn counter_words(named: &[(Side, &'static str, u32)]) -> String {
    let both = named.iter().any(|n| n.0 == Side::B);
    let words: Vec<String> = (named.iter())
        .map(|(side, label, value)| match both {
            true => idemlab_lab::tf!("{}, {}: {}.", side.letter(), label, value),
            false => idemlab_lab::tf!("{}: {}.", label, value),
        })
        .collect();
    words.join(" ")
}

/// "Step 2 of 7: A timeout is not a failure. The client waited 300 ms." The title and the
/// first sentence of what the step shows: its setup while it waits for the prediction.
fn step_words(state: &State) -> Option<String> {
    let at = state.lesson?;
    let step = at.step();
    let text = if state.awaiting() {
        step.predict.setup
    } else {
        step.text
    };
    Some(idemlab_lab::tf!(
        "Step {} of {}: {}. {}",
        at.index() + 1,
        at.lesson.steps.len(),
        idemlab_lab::i18n::tr(step.title),
        first_sentence(idemlab_lab::i18n::tr(text))
    ))
}

/// The first `n` sentences of `text` (`first_sentence`, repeated).
pub fn first_sentences(text: &str, n: usize) -> &str {
    let mut end = 0;
    for _ in 0..n {
        let rest = text[end..].trim_start();
        if rest.is_empty() {
            break;
        }
        end = text.len() - rest.len() + first_sentence(rest).len();
    }
    &text[..end]
}

/// Up to the first full stop, question or exclamation mark followed by a space (or the end).
/// A byte scan: the punctuation is ASCII, so the cut is on a character boundary.
pub fn first_sentence(text: &str) -> &str {
    let bytes = text.as_bytes();
    let end = (bytes.windows(2))
        .position(|pair| matches!(pair[0], b'.' | b'?' | b'!') && pair[1] == b' ')
        .map_or(text.len(), |at| at + 1);
    &text[..end]
}
