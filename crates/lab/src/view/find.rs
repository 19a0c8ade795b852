//! What a lesson's sentence points at: a kind of mark on the timeline. The Lessons tab turns a
//! phrase such as "both read \"not found\"" into a button that outlines the marks it names;
//! `tests/lessons.rs` checks that each phrase names at least one mark of its run.

use super::mark::{ArrowEnd, Band, Class, Mark, MarkKind, Span, TxnEnd};
use idemlab_core::trace::{DropCause, RollbackCause};

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
        // One template per form, the count a hole: a language puts the number where its
        // grammar wants it (`crate::i18n`).
        let (one, many) = match self {
            Find::Drop(_) => (
                crate::t!("{} dropped message"),
                crate::t!("{} dropped messages"),
            ),
            Find::Timeout => (crate::t!("{} timeout"), crate::t!("{} timeouts")),
            Find::Effect => (crate::t!("{} effect"), crate::t!("{} effects")),
            Find::Duplicate => (crate::t!("{} duplicate"), crate::t!("{} duplicates")),
            Find::Race => (crate::t!("{} race"), crate::t!("{} races")),
            Find::Blocked => (crate::t!("{} blocked wait"), crate::t!("{} blocked waits")),
            Find::Replay => (
                crate::t!("{} replayed answer"),
                crate::t!("{} replayed answers"),
            ),
            Find::Crash => (crate::t!("{} crash"), crate::t!("{} crashes")),
            Find::KeyExpired => (crate::t!("{} expired key"), crate::t!("{} expired keys")),
            Find::Rollback => (crate::t!("{} rollback"), crate::t!("{} rollbacks")),
            Find::Rerun => (crate::t!("{} rerun"), crate::t!("{} reruns")),
            Find::LedgerReplaced => (
                crate::t!("{} ledger replacement"),
                crate::t!("{} ledger replacements"),
            ),
            Find::AttemptRow => (crate::t!("{} attempt row"), crate::t!("{} attempt rows")),
            Find::Redeliver => (crate::t!("{} redelivery"), crate::t!("{} redeliveries")),
            Find::InboxHit => (crate::t!("{} inbox hit"), crate::t!("{} inbox hits")),
            Find::Refused => (crate::t!("{} refusal"), crate::t!("{} refusals")),
            Find::Failed => (crate::t!("{} failed order"), crate::t!("{} failed orders")),
            Find::Conflict => (crate::t!("{} 409 answer"), crate::t!("{} 409 answers")),
        };
        crate::i18n::fill(if count == 1 { one } else { many }, &[&count])
    }
}
