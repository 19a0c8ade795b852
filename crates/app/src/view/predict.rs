//! A lesson step's prediction as the page paints it: the question's markup, built once per step
//! (`PredictShell`: its setup with the terms underlined, the question, the choices, the step's
//! definitions and the hint under a held "Next step"), and what changes as it is answered (the
//! feedback, the marks on the choices, the reveal held back while it waits).
//!
//! Also the pieces of a step's texts as the page builds them (`TextPiece`), shared with the
//! step's own text (`view::lessons`): each term's definition has its own id.

use crate::{pieces, predict_view, step_terms, Piece, State, HOLD_HINT};
use idemlab_course::lessons::{Ask, Pointer, Side, Step, LESSONS};
use idemlab_lab::i18n::tr;

#[derive(Clone, Debug, PartialEq)]
pub struct PredictFrame {
    /// The question's markup: `None` while no step is on screen (none open, or the check).
    pub shell: Option<PredictShell>,
    /// The step waits for its answer: its reveal is hidden (`REVEAL` in the page), the way on
    /// disabled and `PredictShell::hold_hint` shown.
    pub waiting: bool,
    /// What the question shows: `None` hides it (the step asks nothing of these runs).
    pub asked: Option<Asked>,
}

/// What a step's question is built from: a function of the step alone.
#[derive(Clone, Debug, PartialEq)]
pub struct PredictShell {
    pub setup: Vec<TextPiece>,
    pub question: &'static str,
    /// What is asked (never its answer), so a test can ask the CLI for it: `data-ask`,
    /// `data-side` and `data-metric` of the choices.
    pub ask: &'static str,
    pub side: &'static str,
    pub metric: &'static str,
    pub choices: Vec<String>,
    /// The step's definitions, folded under a summary that names the words.
    pub terms: Option<TermList>,
    /// What the step says under a held "Next step".
    pub hold_hint: &'static str,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TermList {
    /// "Words this step uses: partition, idempotency key".
    pub summary: String,
    /// Each term's word and definition.
    pub entries: Vec<(&'static str, &'static str)>,
}

/// The question's state once the step asks it.
#[derive(Clone, Debug, PartialEq)]
pub struct Asked {
    /// The feedback line: empty until answered.
    pub feedback: String,
    /// The feedback's `data-result`: "right" or "wrong", once answered.
    pub result: Option<&'static str>,
    /// Answered: the choices give way to the feedback, and the definitions fold, once.
    pub answered: bool,
    pub choices: Vec<ChoiceMark>,
}

/// One choice's button once the question is asked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChoiceMark {
    /// `aria-pressed`: the learner's choice.
    pub pressed: bool,
    /// `aria-disabled`: answered, so no choice acts.
    pub locked: bool,
    /// "right" on the right choice, "wrong" on a wrong one chosen, else "".
    pub class: &'static str,
}

/// A piece of a step's text as the page builds it (`app::pieces`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextPiece {
    Plain(&'static str),
    /// A pointer phrase: the index into the step's `pointers`, and its words.
    Pointer(usize, &'static str),
    /// The first use of a glossary term, with its definition under `id`.
    Term {
        words: &'static str,
        id: TermId,
        word: &'static str,
        definition: &'static str,
    },
}

/// A term's definition's element id, `term-def-N`: numbered through the step's texts, the
/// setup first, so a term in the question is never described by another's definition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TermId(pub usize);

impl std::fmt::Display for TermId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "term-def-{}", self.0)
    }
}

/// `text` (already in the page's language) in pieces, its terms numbered from `first`.
pub fn text_pieces(text: &'static str, pointers: &[Pointer], first: usize) -> Vec<TextPiece> {
    let mut next = first;
    (pieces(text, pointers).into_iter())
        .map(|piece| match piece {
            Piece::Plain(words) => TextPiece::Plain(words),
            Piece::Pointer(index, words) => TextPiece::Pointer(index, words),
            Piece::Term(words, term) => {
                next += 1;
                TextPiece::Term {
                    words,
                    id: TermId(next - 1),
                    word: tr(term.word),
                    definition: tr(term.definition),
                }
            }
        })
        .collect()
}

/// How many terms `pieces` underlines: the next text numbers its own after them.
pub fn terms_in(pieces: &[TextPiece]) -> usize {
    (pieces.iter())
        .filter(|p| matches!(p, TextPiece::Term { .. }))
        .count()
}

/// The step on screen (none while the check is), as the lesson panel shows it.
pub(crate) fn step_on_screen(state: &State) -> Option<&'static Step> {
    let at = state.lesson.filter(|_| state.quiz.is_none())?;
    Some(at.step())
}

pub fn view(state: &State) -> PredictFrame {
    let view = predict_view(state);
    let asked = view.as_ref().map(|view| {
        let answered = view.answered;
        let choices = (0..view.choices.len())
            .map(|i| {
                let chosen = answered.is_some_and(|a| a.choice == i);
                let right = answered.is_some_and(|a| a.right == i);
                ChoiceMark {
                    pressed: chosen,
                    locked: answered.is_some(),
                    class: match (right, chosen) {
                        (true, _) => "right",
                        (false, true) => "wrong",
                        _ => "",
                    },
                }
            })
            .collect();
        Asked {
            feedback: view.feedback.clone().unwrap_or_default(),
            result: answered.map(|a| if a.is_right() { "right" } else { "wrong" }),
            answered: answered.is_some(),
            choices,
        }
    });
    PredictFrame {
        shell: step_on_screen(state).map(shell),
        waiting: view.is_some_and(|v| v.waiting),
        asked,
    }
}

/// The folded definitions' summary: a lesson's first step says how a term opens, before its
/// first question; the later steps name their words alone.
fn words_summary(step: &'static Step, words: &str) -> String {
    let first = LESSONS.iter().any(|l| std::ptr::eq(&l.steps[0], step));
    match first {
        true => idemlab_lab::tf!(
            "Words this step uses (point at or tab to an underlined one for its meaning): {}",
            words
        ),
        false => idemlab_lab::tf!("Words this step uses: {}", words),
    }
}

fn shell(step: &'static Step) -> PredictShell {
    let predict = &step.predict;
    let (ask, side, metric) = match predict.ask {
        Ask::Count { side, metric, .. } => ("count", side, metric),
        Ask::WhichHas { metric } => ("which", Side::A, metric),
    };
    let terms = step_terms(step);
    // Folded on every step, the first too: open, step 1's four definitions pushed its question
    // below the fold. The summary names the words; a click opens them.
    let terms = (!terms.is_empty()).then(|| {
        let words: Vec<&str> = terms.iter().map(|t| tr(t.word)).collect();
        TermList {
            summary: words_summary(step, &words.join(", ")),
            entries: (terms.iter())
                .map(|t| (tr(t.word), tr(t.definition)))
                .collect(),
        }
    });
    PredictShell {
        setup: text_pieces(tr(predict.setup), &[], 0),
        question: tr(predict.question),
        ask,
        side: if side == Side::B { "b" } else { "a" },
        metric: metric.name(),
        choices: predict.choices_shown(),
        terms,
        hold_hint: tr(HOLD_HINT),
    }
}

/// The room kept between the focused feedback and the edge it is scrolled to.
const FEEDBACK_MARGIN_PX: f64 = 8.0;

/// How the answer's feedback, just focused, is brought into view: by how much the lesson's
/// column scrolls (on a phone a short box with its own scroll), then by how much the window
/// does (where the column grows with the page), keeping it above a timeline docked at the
/// screen's foot. Boxes are (top, bottom) in the viewport's pixels, measured before either
/// scroll; `dock_top_px` is asked only when needed, since it reads computed styles.
pub fn feedback_scroll_px(
    feedback: (f64, f64),
    column: (f64, f64),
    dock_top_px: impl FnOnce() -> Option<f64>,
) -> (Option<f64>, Option<f64>) {
    let (top, bottom) = feedback;
    let column_by =
        (top < column.0 || bottom > column.1).then_some(top - column.0 - FEEDBACK_MARGIN_PX);
    let window_by = if top < 0.0 {
        Some(top - FEEDBACK_MARGIN_PX)
    } else {
        // Below the dock's top: up by its overlap, but never so far that its top leaves.
        (dock_top_px().filter(|&dock| bottom > dock))
            .map(|dock| (bottom - dock + FEEDBACK_MARGIN_PX).min(top - FEEDBACK_MARGIN_PX))
    };
    (column_by, window_by)
}
