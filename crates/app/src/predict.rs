//! Predict, then reveal; and terms first. A lesson step asks its question (`lessons::Predict`)
//! before its run plays: while it waits (`State::awaiting`) the counters are hidden, the cursor
//! stays on the first event and "Next step" is held. The answer is read from the runs the page
//! already has (`Msg::Measured`, the metrics of A and B at their end), never from a table. The
//! step's text is the reveal; the proof pointer's marks are outlined when the answer is in.
//! `gate=0` turns the waiting off (an instructor's link): the question is still offered.
//!
//! Also the step text's pieces: pointer phrases and the first use of each glossary term, so the
//! page only paints them.

use super::{Effects, Focus, State, UrlWrite};
use idemlab_core::scenario::decode_lenient;
use idemlab_course::glossary::{self, Term};
use idemlab_course::lessons::{Pointer, Predict};
use idemlab_lab::i18n::tr;
use idemlab_lab::Metrics;

/// A learner's answer to one step's prediction, kept for the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Prediction {
    pub choice: usize,
    /// The right choice, as the step's runs gave it when the learner answered.
    pub right: usize,
}

impl Prediction {
    pub fn is_right(&self) -> bool {
        self.choice == self.right
    }
}

/// The right choice of a step's prediction, read from that step's own runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepAnswer {
    pub lesson: &'static str,
    pub index: usize,
    pub right: usize,
}

impl State {
    /// The open step's prediction and its right answer, when the page has run the step's own
    /// scenario (a link with scenario keys of its own asks nothing: its runs are not the step's).
    pub fn asking(&self) -> Option<(&'static Predict, usize)> {
        let at = self.lesson.filter(|_| self.quiz.is_none())?;
        let known = self.step_answer?;
        (known.lesson == at.lesson.id && known.index == at.index())
            .then_some((&at.step().predict, known.right))
    }

    /// The lesson step on screen, by lesson id and index: none while the check replaces it.
    pub fn step_shown(&self) -> Option<(&'static str, usize)> {
        let at = self.lesson.filter(|_| self.quiz.is_none())?;
        Some((at.lesson.id, at.index()))
    }

    /// The learner's answer to the open step's prediction, if given this session.
    pub fn answered(&self) -> Option<Prediction> {
        let at = self.lesson?;
        let key = (at.lesson.id, at.index());
        (self.predictions.iter()).find_map(|&(k, p)| (k == key).then_some(p))
    }

    /// The open step waits for its answer: counters hidden, cursor held at the first event,
    /// its text and "Next step" held back. Never with `gate=0`.
    pub fn awaiting(&self) -> bool {
        let lesson = self.asking().is_some() && self.answered().is_none();
        self.page.gate && (lesson || self.own_awaiting())
    }

    /// What the open step's runs A and B are, in its plain words, while they are its own.
    pub fn run_names(&self) -> Option<(&'static str, Option<&'static str>)> {
        let at = self
            .lesson
            .filter(|_| self.quiz.is_none() && self.runs_are_steps_own())?;
        Some((at.step().run_a, at.step().run_b))
    }

    /// Whether runs A and B are the open step's own scenario and fix.
    fn runs_are_steps_own(&self) -> bool {
        let Some(at) = self.lesson else {
            return false;
        };
        let step = at.step();
        self.page.scenario == decode_lenient(step.query).0.scenario
            && self.page.compare.as_deref() == step.compare
    }
}

/// The runs finished: when they are the open step's own, its answer is read from them. While
/// the step waits for an answer the cursor goes back to the first event.
pub(super) fn measured(state: &mut State, a: &Metrics, b: Option<&Metrics>) -> Effects {
    if let Some(at) = state.lesson.filter(|_| state.runs_are_steps_own()) {
        state.step_answer = at.step().predict.answer(a, b).map(|right| StepAnswer {
            lesson: at.lesson.id,
            index: at.index(),
            right,
        });
    }
    super::own::measured(state, a, b);
    hold(state);
    Effects::default()
}

/// While a prediction waits, the run does not play and the cursor stays on the first event.
pub(super) fn hold(state: &mut State) {
    if state.awaiting() {
        state.playing = false;
        state.page.cursor = Some(0);
    }
}

/// The learner picks a choice: it is kept for the session, the proof is outlined and the
/// cursor goes to the end of the run. A step answers once.
pub(super) fn answer(state: &mut State, choice: usize) -> Effects {
    let (Some(at), Some((predict, right))) = (state.lesson, state.asking()) else {
        return Effects::default();
    };
    if state.answered().is_some() || choice >= predict.choices().len() {
        return Effects::default();
    }
    let key = (at.lesson.id, at.index());
    // `answered()` was `None` above, so the step has no entry yet.
    state.predictions.push((key, Prediction { choice, right }));
    let proof = predict.proof;
    state.highlight = Some((proof.side, proof.find));
    // The reveal talks about the run that proves it: put that one in focus, so the status line
    // follows it and a phone docks its timeline, not A's while the reveal is about B.
    if state.page.compare.is_some() {
        state.page.focus = proof.side;
    }
    state.playing = false;
    state.page.cursor = None;
    Effects {
        render: true,
        url: Some(UrlWrite::Replace),
        focus: Some(Focus::PredictFeedback),
        // No scroll: the step, timeline A and the named counters share the first screen, and
        // the feedback names the timeline that proves it (B's may be below; a click on the
        // step's phrase scrolls to it, as the learner chooses).
        show_timeline: None,
        // But a phone's docked timeline scrolls sideways to the proof, which may lie past the
        // part its box shows (only the run's first 400 ms, say).
        reveal: Some(proof.side),
        ..Effects::default()
    }
}

/// A step's question as the page shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredictView {
    /// The step's setup and question, in the language in force (`tr`).
    pub setup: &'static str,
    pub question: &'static str,
    pub choices: Vec<String>,
    /// The learner's answer, once given.
    pub answered: Option<Prediction>,
    /// "Right: 5. …" or "Not quite: you chose 3; the simulator's answer is 5. …", once answered.
    pub feedback: Option<String>,
    /// The step waits for this answer (`State::awaiting`): the counters of A and B are hidden,
    /// the step's text, claims and exercises held back, and "Next step" disabled with `HOLD_HINT`.
    pub waiting: bool,
}

/// What the step says under a held "Next step".
pub const HOLD_HINT: &str = "Answer the question to go on.";

/// The open step's question, or `None` when it asks nothing (no step open, the mastery check,
/// or runs that are not the step's own).
pub fn predict_view(state: &State) -> Option<PredictView> {
    let (predict, right) = state.asking()?;
    let choices = predict.choices_shown();
    let answered = state.answered();
    let on = match (state.page.compare.is_some(), predict.proof.side) {
        (false, _) => idemlab_lab::t!("the timeline"),
        (true, idemlab_lab::Side::A) => idemlab_lab::t!("timeline A"),
        (true, idemlab_lab::Side::B) => idemlab_lab::t!("timeline B"),
    };
    let feedback = answered.map(|a| {
        let truth = &choices[right];
        match a.choice == right {
            true => idemlab_lab::tf!("Right: {}. The outlined marks on {} show it.", truth, on),
            false => idemlab_lab::tf!(
                "Not quite: you chose {}; the simulator's answer is {}. The outlined marks on {} show it.",
                choices[a.choice],
                truth,
                on
            ),
        }
    });
    Some(PredictView {
        setup: tr(predict.setup),
        question: tr(predict.question),
        choices,
        answered,
        feedback,
        waiting: state.awaiting(),
    })
}

/// The counters of A and B are hidden while the open step waits for its prediction.
pub fn counters_hidden(state: &State) -> bool {
    state.awaiting()
}

/// A piece of a step's text: plain words, a pointer phrase (the index into the step's
/// `pointers`) or the first use of a glossary term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Piece<'t> {
    Plain(&'t str),
    Pointer(usize, &'t str),
    Term(&'t str, &'static Term),
}

/// A text, in the page's language, cut into pieces: each pointer phrase at its first
/// occurrence that no earlier phrase holds (a translation may put them in another order), and
/// the first use of each glossary term outside them (`glossary::spans`, common words
/// excepted). Concatenated, the pieces are the text.
pub fn pieces<'t>(text: &'t str, pointers: &[Pointer]) -> Vec<Piece<'t>> {
    // In text order, never overlapping.
    let mut marks: Vec<(usize, usize, Option<usize>)> = Vec::new();
    for (index, pointer) in pointers.iter().enumerate() {
        // The text is in the page's language (`i18n::tr`), so its phrases are too.
        let phrase = idemlab_lab::i18n::tr(pointer.phrase);
        let free = |&(start, _): &(usize, &str)| {
            let end = start + phrase.len();
            marks.iter().all(|&(s, e, _)| end <= s || e <= start)
        };
        if let Some((start, _)) = text.match_indices(phrase).find(free) {
            let at = marks.partition_point(|m| m.0 < start);
            marks.insert(at, (start, start + phrase.len(), Some(index)));
        }
    }
    // Terms inside a pointer phrase would nest one control in another: blank the phrases out
    // (ASCII spaces keep every byte offset and char boundary) so a term's first use is outside.
    let mut masked = text.as_bytes().to_vec();
    for &(start, end, _) in &marks {
        masked[start..end].fill(b' ');
    }
    let masked =
        String::from_utf8(masked).unwrap_or_else(|_| panic!("spaces over whole chars keep UTF-8"));
    let terms = glossary::spans(&masked, false);
    // Both lists are in text order and never overlap: merge them (a sort would link one more
    // sort routine into the page for a handful of items).
    for &(start, end, _) in &terms {
        let at = marks.partition_point(|m| m.0 < start);
        marks.insert(at, (start, end, None));
    }
    let mut out = Vec::new();
    let mut at = 0;
    for (start, end, pointer) in marks {
        if start > at {
            out.push(Piece::Plain(&text[at..start]));
        }
        let words = &text[start..end];
        out.push(match pointer {
            Some(index) => Piece::Pointer(index, words),
            None => {
                let term = terms.iter().find(|t| t.0 == start).expect("a term span").2;
                Piece::Term(words, term)
            }
        });
        at = end;
    }
    if at < text.len() {
        out.push(Piece::Plain(&text[at..]));
    }
    out
}

/// The definitions a step lists beside its text: each of its `terms`, as the glossary has it.
/// Matched exactly (a step lists a term as the glossary writes it), not by `glossary::lookup`,
/// whose Unicode lower-casing would bring its tables into the page.
pub fn step_terms(step: &idemlab_course::lessons::Step) -> Vec<&'static Term> {
    (step.terms.iter())
        .filter_map(|&word| glossary::TERMS.iter().find(|t| t.word == word))
        .collect()
}
