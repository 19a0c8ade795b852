//! The ordering exercise as the page paints it: the draft's six steps with their names,
//! descriptions and move buttons, the last verdict, and the words a move says.

use idemlab_core::scenario::Step;
use idemlab_course::ordering;

use crate::State;

/// The draft has six steps; a move goes at most to either end.
pub const LAST: usize = 5;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderingFrame {
    pub items: Vec<OrderItem>,
    /// The last verdict's text and `data-verdict` (`safe` or `fails`).
    pub verdict: Option<(String, &'static str)>,
}

/// One step of the draft.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OrderItem {
    pub name: &'static str,
    pub describe: &'static str,
    /// "2 of 6: claim. …", the item's accessible name.
    pub label: String,
    /// Its up and down buttons: (`data-move`, accessible name, disabled at that end).
    pub moves: [(&'static str, String, bool); 2],
}

pub fn view(state: &State) -> OrderingFrame {
    let items = state
        .draft
        .iter()
        .enumerate()
        .map(|(index, &step)| item(index, step));
    let verdict =
        (state.verdict.as_ref()).map(|v| (v.text.clone(), if v.safe { "safe" } else { "fails" }));
    OrderingFrame {
        items: items.collect(),
        verdict,
    }
}

fn item(index: usize, step: Step) -> OrderItem {
    let name = step.name();
    let describe = ordering::describe(step);
    OrderItem {
        name,
        describe,
        label: idemlab_lab::tf!("{} of 6: {}. {}", index + 1, name, describe),
        moves: [
            ("up", idemlab_lab::tf!("Move {} up", name), index == 0),
            (
                "down",
                idemlab_lab::tf!("Move {} down", name),
                index == LAST,
            ),
        ],
    }
}

/// Where a move by `delta` places the step at `from` (clamped to the list), or `None` when it
/// stays where it is.
pub fn moved_to(from: usize, delta: i64) -> Option<usize> {
    let to = (from as i64 + delta).clamp(0, LAST as i64) as usize;
    (from <= LAST && to != from).then_some(to)
}

/// What a move says aloud.
pub fn moved_said(state: &State, to: usize) -> Option<String> {
    let step = state.draft.get(to)?;
    Some(idemlab_lab::tf!(
        "{} moved to position {} of 6.",
        step.name(),
        to + 1
    ))
}
