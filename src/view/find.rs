//! What a lesson's sentence points at: a kind of mark on the timeline. The Lessons tab turns a
//! phrase such as "both read \"not found\"" into a button that outlines the marks it names;
//! `tests/lessons.rs` checks that each phrase names at least one mark of its run.

use super::mark::{ArrowEnd, Band, Class, Mark, MarkKind, Span, TxnEnd};
use crate::trace::{DropCause, RollbackCause};

/// A kind of mark a sentence can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Find {
    /// An arrow that ends in a ✕ for this cause.
    Drop(DropCause),
    Timeout,
    /// A charge or a write that took effect.
    Effect,
    /// Anything the counts call a duplicate: a repeated charge, a rebooked ledger row, a
    /// repeated receipt.
    Duplicate,
    /// The shaded region of a check-then-insert race.
    Race,
    /// An insert waiting on the unique index.
    Blocked,
    /// A stored answer (or a provider's first charge or first mail) handed back instead of a new
    /// effect.
    Replay,
    /// The API's outage band, or the consumer's crash.
    Crash,
    KeyExpired,
    /// A transaction rolled back with writes to undo (not a read-only one).
    Rollback,
    Rerun,
    LedgerReplaced,
    AttemptRow,
    Redeliver,
    /// A consumer's inbox insert that found the event already there.
    InboxHit,
    /// The API's refusal: a 4xx or 503 answer (a reused key with another body gets 422).
    Refused,
    /// An order its client was told failed (400 or 422).
    Failed,
    /// A 409 answered to a copy that found its key in progress.
    Conflict,
}

impl Find {
    pub fn matches(self, mark: &Mark) -> bool {
        match (self, mark.kind) {
            (Find::Duplicate, _) => mark.is_duplicate(),
            (Find::Drop(cause), MarkKind::Arrow { end, .. }) => {
                matches!(end, ArrowEnd::Dropped { cause: c, .. } if c == cause)
            }
            (Find::Race, MarkKind::Race { .. }) => true,
            (Find::Blocked, MarkKind::Span { span }) => span == Span::Blocked,
            // A read-only rollback (a replay that wrote nothing) undoes nothing worth pointing at.
            (Find::Rollback, MarkKind::Span { span }) => matches!(
                span,
                Span::Txn {
                    end: TxnEnd::Rollback { cause },
                    ..
                } if cause != RollbackCause::ReadOnly
            ),
            (Find::Crash, MarkKind::Band { band }) => band == Band::ApiDown,
            (Find::Rerun, MarkKind::Band { band }) => band == Band::Rerun,
            (Find::LedgerReplaced, MarkKind::Band { band }) => {
                matches!(band, Band::LedgerReplaced { .. })
            }
            (Find::Effect, MarkKind::Point { .. }) => mark.is_effect(),
            (_, MarkKind::Point { class, .. }) => self.matches_point(class),
            _ => false,
        }
    }

    fn matches_point(self, class: Class) -> bool {
        match self {
            Find::Timeout => class == Class::Timeout,
            Find::Replay => matches!(
                class,
                Class::ReplyReplay | Class::ChargeReplay | Class::MailReplay
            ),
            Find::Crash => class == Class::ConsumerCrash,
            Find::KeyExpired => class == Class::KeyExpired,
            Find::AttemptRow => class == Class::AttemptRow,
            Find::Redeliver => class == Class::Redeliver,
            Find::InboxHit => class == Class::InboxHit,
            Find::Refused => class == Class::ReplyError,
            Find::Failed => class == Class::OrderFailed,
            Find::Conflict => class == Class::ReplyConflict,
            _ => false,
        }
    }

    /// What the page announces after outlining: "1 race", "3 duplicates".
    pub fn count_text(self, count: usize) -> String {
        let (one, many) = match self {
            Find::Drop(_) => ("dropped message", "dropped messages"),
            Find::Timeout => ("timeout", "timeouts"),
            Find::Effect => ("effect", "effects"),
            Find::Duplicate => ("duplicate", "duplicates"),
            Find::Race => ("race", "races"),
            Find::Blocked => ("blocked wait", "blocked waits"),
            Find::Replay => ("replayed answer", "replayed answers"),
            Find::Crash => ("crash", "crashes"),
            Find::KeyExpired => ("expired key", "expired keys"),
            Find::Rollback => ("rollback", "rollbacks"),
            Find::Rerun => ("rerun", "reruns"),
            Find::LedgerReplaced => ("ledger replacement", "ledger replacements"),
            Find::AttemptRow => ("attempt row", "attempt rows"),
            Find::Redeliver => ("redelivery", "redeliveries"),
            Find::InboxHit => ("inbox hit", "inbox hits"),
            Find::Refused => ("refusal", "refusals"),
            Find::Failed => ("failed order", "failed orders"),
            Find::Conflict => ("409 answer", "409 answers"),
        };
        format!("{count} {}", if count == 1 { one } else { many })
    }
}
