//! The classification exercise: three operations, one naturally idempotent, one not idempotent,
//! and one idempotent only after a redesign. The source lesson's other shapes (set a field, add a charge)
//! are the step's own runs A and B, so they are shown, not asked again. Each answer is explained;
//! where the model has an operation of the same shape, "show me" opens a run of it, and
//! `tests/classify.rs` checks that run shows what the explanation says (duplicates for a
//! non-idempotent operation, none for the others). Pure data.

/// The three answers, in the order the page offers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// Doing it twice leaves the same state as once, with no help from the server.
    Natural,
    /// Every repeat changes the state again, and nothing in the request tells a repeat from
    /// new work.
    Not,
    /// Not idempotent as written, but the request already names the operation (its id), so
    /// the server can record that name and skip repeats.
    Redesign,
}

impl Class {
    pub const ALL: [Class; 3] = [Class::Natural, Class::Not, Class::Redesign];

    /// The page's `data-class` and the answer's short name.
    pub fn name(self) -> &'static str {
        match self {
            Class::Natural => "natural",
            Class::Not => "not",
            Class::Redesign => "redesign",
        }
    }

    /// The answer as the page shows it, in the page's language.
    pub fn label(self) -> &'static str {
        match self {
            Class::Natural => idemlab_lab::t!("naturally idempotent"),
            Class::Not => idemlab_lab::t!("not idempotent"),
            Class::Redesign => idemlab_lab::t!("idempotent after a redesign"),
        }
    }

    pub fn from_name(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// One operation to classify.
#[derive(Clone, Copy, Debug)]
pub struct Operation {
    pub text: &'static str,
    pub class: Class,
    /// Why, in one sentence of words met so far, shown once the learner has answered.
    pub why: &'static str,
    /// The whole reason, folded under "In depth": off the lesson's path, so it may use words
    /// the later steps define.
    pub more: &'static str,
    /// A scenario of the same shape, in codec form, for "show me".
    pub show: Option<&'static str>,
}

pub static OPERATIONS: [Operation; 3] = [
    Operation {
        text: "Delete order 42",
        class: Class::Natural,
        why: "A repeat finds nothing left to delete, so the state is the same; only the reply may differ.",
        more: "After the first delete order 42 is gone; a repeat finds nothing to remove, so the state is the same. The reply may differ (404 instead of 200), which the client must accept.",
        show: None,
    },
    Operation {
        text: "Send an email",
        class: Class::Not,
        why: "A mail server sends whatever it is given, so each repeat is another email.",
        more: "A mail server sends whatever it is given, so a repeat is a second email. The sender can skip events it has recorded (an inbox), but a crash between sending and recording still mails twice unless the mail provider takes a key.",
        show: Some("seed=3&orders=4&dedup=atomic&consumer=plain&ack_loss=0.25"),
    },
    Operation {
        text: "Apply transfer T-9123 (it carries a unique id, which the server does not record yet)",
        class: Class::Redesign,
        why: "The server can record the id and answer a repeat with the first result: the id works as an idempotency key.",
        more: "The id names this one transfer. Recorded under a unique constraint in the same transaction as the ledger rows, a repeat finds it and returns the first result: the id works as an idempotency key.",
        show: Some("seed=7&preset=lost-ack&dedup=atomic"),
    },
];

/// Whether `answer` is right for operation `index`; `None` for an index out of range.
pub fn is_right(index: usize, answer: Class) -> Option<bool> {
    OPERATIONS.get(index).map(|op| op.class == answer)
}

/// How many of `answers` (one per operation, `None` where unanswered) are right.
pub fn score(answers: &[Option<Class>]) -> u32 {
    let right = OPERATIONS
        .iter()
        .zip(answers)
        .filter(|(op, answer)| **answer == Some(op.class))
        .count();
    right as u32
}
