//! The classification exercise's decisions and words (`idemlab_course::classify` holds the operations):
//! an answer locks its operation and reveals why; "show me" loads the operation's scenario as
//! run A, a scenario change like any other (a new history entry, a rerun).

use super::{Effects, State};
use idemlab_core::scenario::decode_lenient;
use idemlab_course::classify::{score, Class, OPERATIONS};
use idemlab_lab::i18n::tr;

/// What a learner does in the classification exercise.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// Lock this answer for operation `index`.
    Answer { index: usize, answer: Class },
    /// "Show me": load operation `index`'s scenario as run A.
    Show(usize),
}

pub(super) fn update(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::Answer {
            index,
            answer: class,
        } => answer(state, index, class),
        Msg::Show(index) => show(state, index),
    }
}

/// The learner's answers, one per operation of `classify::OPERATIONS`.
pub type Answers = [Option<Class>; OPERATIONS.len()];

/// Locks `answer` for operation `index`; a second answer, or an index out of range, changes
/// nothing (the first answer stands, as in the mastery check).
pub(super) fn answer(state: &mut State, index: usize, answer: Class) -> Effects {
    match state.classify.get_mut(index) {
        Some(slot @ None) => {
            *slot = Some(answer);
            state.classify_last = Some(index);
            Effects {
                render: true,
                ..Effects::default()
            }
        }
        _ => Effects::default(),
    }
}

/// Loads operation `index`'s scenario as run A, alone: the comparison of the step is not about
/// it. Offered only once the operation is answered, since its run shows the answer.
pub(super) fn show(state: &mut State, index: usize) -> Effects {
    let answered = state.classify.get(index).is_some_and(Option::is_some);
    let Some(query) = OPERATIONS.get(index).and_then(|op| op.show) else {
        return Effects::default();
    };
    if !answered {
        return Effects::default();
    }
    let scenario = decode_lenient(query).0.scenario;
    state.page.compare = None;
    state.page.focus = idemlab_lab::Side::A;
    state.set_scenario(scenario);
    Effects::scenario()
}

/// One operation as the exercise shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifyItem {
    pub text: &'static str,
    /// The learner's answer, once given.
    pub answer: Option<Class>,
    /// The right class, revealed once answered.
    pub right: Option<Class>,
    /// "Right: not idempotent." or "Not quite: it is naturally idempotent.", once answered.
    pub verdict: Option<String>,
    pub why: Option<&'static str>,
    /// The whole reason, folded under "In depth", once answered.
    pub more: Option<&'static str>,
    /// Whether "show me" is offered: answered, and the model has a run of the same shape.
    pub show: bool,
}

/// The operations, with what each reveals so far.
pub fn classify_items(answers: &Answers) -> Vec<ClassifyItem> {
    OPERATIONS
        .iter()
        .zip(answers)
        .map(|(op, &answer)| {
            // The label is already in the page's language (`Class::label` is `t!`); the
            // operation's words are the exercise's data, translated here.
            let label = op.class.label();
            let verdict = answer.map(|given| {
                if given == op.class {
                    idemlab_lab::tf!("Right: {}.", label)
                } else {
                    idemlab_lab::tf!("Not quite: it is {}.", label)
                }
            });
            ClassifyItem {
                text: tr(op.text),
                answer,
                right: answer.map(|_| op.class),
                verdict,
                why: answer.map(|_| tr(op.why)),
                more: answer.map(|_| tr(op.more)),
                show: answer.is_some() && op.show.is_some(),
            }
        })
        .collect()
}

/// The score line as it speaks: the verdict of the operation answered last since the step
/// opened (`State::classify_last`, "Right: not idempotent.") ahead of the score, so that a
/// screen reader hears both: a count alone does not say whether that answer was right. A step
/// just opened says the score alone.
pub fn classify_said(answers: &Answers, last: Option<usize>) -> String {
    let score = classify_score(answers);
    let verdict = last.and_then(|i| classify_items(answers).into_iter().nth(i)?.verdict);
    match verdict {
        Some(verdict) => format!("{verdict} {score}"),
        None => score,
    }
}

/// "Answered 2 of 3: 1 right so far." while open; "Score: 2 of 3." once all are answered.
pub fn classify_score(answers: &Answers) -> String {
    let total = OPERATIONS.len();
    let answered = answers.iter().flatten().count();
    let right = score(answers);
    if answered == total {
        idemlab_lab::tf!("Score: {} of {}.", right, total)
    } else if answered == 0 {
        idemlab_lab::tf!("Answered 0 of {}.", total)
    } else {
        idemlab_lab::tf!(
            "Answered {} of {}: {} right so far.",
            answered,
            total,
            right
        )
    }
}
