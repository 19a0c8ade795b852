//! The classification exercise as the page paints it: each operation's words and its three
//! answer buttons, and once answered the marks on them, the verdict, why, and "Show me"; then
//! the score line, which speaks the verdict of the answer just given first.

use super::predict::step_on_screen;
use crate::{classify_items, classify_said, State};
use idemlab_course::classify::Class;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifyFrame {
    pub ops: Vec<ClassifyOp>,
    /// "Right: not idempotent. Answered 1 of 5: 1 right so far." (`classify_said`).
    pub score: String,
}

/// One operation's item (`data-op` is its index).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassifyOp {
    pub text: &'static str,
    /// The element id of its words, which label its group of buttons.
    pub text_id: String,
    pub choices: Vec<ClassifyChoice>,
    /// "Right: not idempotent." once answered, else empty.
    pub verdict: String,
    /// `data-answered`.
    pub answered: bool,
    /// `data-correct`: "1" for a right answer, else "0".
    pub correct: &'static str,
    /// Why, once answered, else empty.
    pub why: &'static str,
    /// The whole reason under "In depth", once answered.
    pub more: Option<&'static str>,
    /// "Show me this as run A" is offered.
    pub show: bool,
}

/// One of the three answer buttons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClassifyChoice {
    /// `data-classify`: the class's short name.
    pub name: &'static str,
    pub label: &'static str,
    /// `aria-pressed`: the learner's answer.
    pub pressed: bool,
    /// `aria-disabled="true"` once answered: not `disabled`, so the pressed button keeps the
    /// keyboard focus.
    pub locked: bool,
    /// `data-right`: the right class, revealed once answered.
    pub right: bool,
}

/// The exercise, while the step on screen holds it.
pub fn view(state: &State) -> Option<ClassifyFrame> {
    step_on_screen(state).filter(|step| step.classify)?;
    let ops = (classify_items(&state.classify).into_iter().enumerate())
        .map(|(index, item)| ClassifyOp {
            text: item.text,
            text_id: format!("classify-op-{index}"),
            choices: (Class::ALL.into_iter())
                .map(|class| ClassifyChoice {
                    name: class.name(),
                    label: class.label(),
                    pressed: item.answer == Some(class),
                    locked: item.answer.is_some(),
                    right: item.right == Some(class),
                })
                .collect(),
            verdict: item.verdict.unwrap_or_default(),
            answered: item.answer.is_some(),
            correct: match item.answer.is_some() && item.answer == item.right {
                true => "1",
                false => "0",
            },
            why: item.why.unwrap_or(""),
            more: item.more,
            show: item.show,
        })
        .collect();
    Some(ClassifyFrame {
        ops,
        score: classify_said(&state.classify, state.classify_last),
    })
}
