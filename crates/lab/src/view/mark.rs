//! The timeline's vocabulary: lanes, marks and the class names that CSS colours them by.
//!
//! A mark is 32 bytes of plain data: its start, end, lane, typed shape and the indices of the
//! trace events it was made from, so the page can link a drawing to rows of the event table.
//! It holds no text and no copy of an event: its label, order and attempt are read from the
//! trace when asked (`Timeline::label`), since a 1,000,000-event run has over a million marks
//! and the page's wasm memory never shrinks.

use serde::Serialize;

use idemlab_core::trace::{ClaimResult, DropCause, EventKind, Found, Node, Outcome, RollbackCause};

/// The index of a lane in `Timeline::lanes`.
pub type LaneIx = u16;

/// The index of an event in `Trace::events`.
pub type EventIx = u32;

/// One horizontal lane: a client pod, the API, the payment service or the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lane {
    pub node: Node,
    /// What the page prints at the lane's left edge, e.g. `client 2 (rerun)`.
    pub label: String,
    /// True for a pod started by an operator's rerun.
    pub rerun: bool,
}

/// `Mark::end` of a mark that nothing has ended (a point, a band, an arrow still in flight).
pub const NO_END: EventIx = EventIx::MAX;

/// One drawable thing. `t0_us <= t1_us` always; a point has `t0_us == t1_us`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub t0_us: u64,
    pub t1_us: u64,
    /// The trace event that starts the mark (a race's: the first "not found" read).
    pub first: EventIx,
    /// The event that ends an arrow, a span or an outage, or `NO_END`; for a race, its number
    /// among the timeline's races (`Timeline::events_of` lists its events).
    pub end: EventIx,
    /// The lane the mark sits on; for an arrow the lane it leaves from.
    pub lane: LaneIx,
    pub kind: MarkKind,
}

/// The shape of a mark, with what its shape needs to be drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "shape")]
pub enum MarkKind {
    /// A message from `lane` to `to_lane`.
    Arrow {
        to_lane: LaneIx,
        payload: ArrowPayload,
        end: ArrowEnd,
    },
    /// Something that happened at one instant on one lane (never a send, a delivery or a drop,
    /// which are arrows): its class says what, and a duplicate has a duplicate's class. For an
    /// effect (a new charge or an applied write), `nth` of `total` is its place among its
    /// order's effects; both are 0 for every other point.
    Point { class: Class, nth: u16, total: u16 },
    /// A stretch of time on one lane: a transaction or a blocked wait.
    Span { span: Span },
    /// A shaded stretch across the whole height of one lane.
    Band { band: Band },
    /// A check-then-insert race: from `lane` down to `to_lane`, the two requests involved.
    Race { to_lane: LaneIx },
}

/// What an arrow carries, which decides its class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ArrowPayload {
    Request,
    Response,
    /// API to payment service.
    Charge,
    /// Payment service to API.
    Charged,
    /// Outbox to queue, or queue to consumer: one event of a booked charge.
    Event,
    /// Consumer to queue.
    Ack,
}

/// How an arrow ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "end")]
pub enum ArrowEnd {
    Delivered,
    /// Dropped at `t1_us`. `midway` when it died in flight (loss, partition): the page draws
    /// the cross half-way between the lanes, because the network drops at half the flight time.
    /// Otherwise it reached the other side and was refused there (API down, late, caller gone).
    Dropped {
        cause: DropCause,
        midway: bool,
    },
    /// Still in flight when the run stopped at `events_max`; it ends at the end of the trace.
    InFlight,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "span")]
pub enum Span {
    /// BEGIN to COMMIT or ROLLBACK of one transaction (its number is in its first event).
    Txn { end: TxnEnd },
    /// An insert waiting on another transaction's claim, until it is resolved.
    Blocked,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "end")]
pub enum TxnEnd {
    Commit,
    Rollback {
        cause: RollbackCause,
    },
    /// Still open when the trace ends.
    Open,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "band")]
pub enum Band {
    /// Crash to restart (or to the end of the trace).
    ApiDown,
    /// An instant: the ledger pod was replaced; `wiped` when its store went with it.
    LedgerReplaced { wiped: bool },
    /// An instant: the ledger's container restarted in its pod (a new boot id, the store kept).
    LedgerRestarted,
    /// An instant: an operator's rerun started this pod.
    Rerun,
    /// An instant: the run stopped at `events_max`.
    CapReached,
}

/// A style class. The page's CSS and `svg::STYLE` colour these names; the view never picks a
/// colour, so dark and light themes are the stylesheet's business alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Class {
    Request,
    Response,
    ChargeCall,
    ChargeReply,
    PodStart,
    OrderStart,
    Timeout,
    Retry,
    OrderOk,
    OrderFailed,
    OrderUnknown,
    AttemptRow,
    LookupMiss,
    LookupHit,
    ClaimOk,
    ClaimBlocked,
    ClaimConflict,
    KeyExpired,
    Charge,
    ChargeDuplicate,
    ChargeReplay,
    LedgerRow,
    Write,
    Applied,
    AppliedDuplicate,
    Store,
    Commit,
    Rollback,
    ReplyOk,
    ReplyReplay,
    ReplyConflict,
    ReplyError,
    Txn,
    TxnRollback,
    Blocked,
    ApiDown,
    LedgerReplaced,
    Rerun,
    CapReached,
    Race,
    QueueEvent,
    QueueAck,
    InboxNew,
    InboxHit,
    Receipt,
    ReceiptDuplicate,
    Redeliver,
    DeadLetter,
    ConsumerCrash,
    MailReplay,
}

impl Class {
    /// Every class, in declaration order.
    pub const ALL: [Class; 50] = [
        Class::Request,
        Class::Response,
        Class::ChargeCall,
        Class::ChargeReply,
        Class::PodStart,
        Class::OrderStart,
        Class::Timeout,
        Class::Retry,
        Class::OrderOk,
        Class::OrderFailed,
        Class::OrderUnknown,
        Class::AttemptRow,
        Class::LookupMiss,
        Class::LookupHit,
        Class::ClaimOk,
        Class::ClaimBlocked,
        Class::ClaimConflict,
        Class::KeyExpired,
        Class::Charge,
        Class::ChargeDuplicate,
        Class::ChargeReplay,
        Class::LedgerRow,
        Class::Write,
        Class::Applied,
        Class::AppliedDuplicate,
        Class::Store,
        Class::Commit,
        Class::Rollback,
        Class::ReplyOk,
        Class::ReplyReplay,
        Class::ReplyConflict,
        Class::ReplyError,
        Class::Txn,
        Class::TxnRollback,
        Class::Blocked,
        Class::ApiDown,
        Class::LedgerReplaced,
        Class::Rerun,
        Class::CapReached,
        Class::Race,
        Class::QueueEvent,
        Class::QueueAck,
        Class::InboxNew,
        Class::InboxHit,
        Class::Receipt,
        Class::ReceiptDuplicate,
        Class::Redeliver,
        Class::DeadLetter,
        Class::ConsumerCrash,
        Class::MailReplay,
    ];

    pub fn name(self) -> &'static str {
        use Class::*;
        match self {
            Request => "request",
            Response => "response",
            ChargeCall => "charge-call",
            ChargeReply => "charge-reply",
            PodStart => "pod-start",
            OrderStart => "order-start",
            Timeout => "timeout",
            Retry => "retry",
            OrderOk => "order-ok",
            OrderFailed => "order-failed",
            OrderUnknown => "order-unknown",
            AttemptRow => "attempt-row",
            LookupMiss => "lookup-miss",
            LookupHit => "lookup-hit",
            ClaimOk => "claim-ok",
            ClaimBlocked => "claim-blocked",
            ClaimConflict => "claim-conflict",
            KeyExpired => "key-expired",
            Charge => "charge",
            ChargeDuplicate => "charge-duplicate",
            ChargeReplay => "charge-replay",
            LedgerRow => "ledger-row",
            Write => "write",
            Applied => "applied",
            AppliedDuplicate => "applied-duplicate",
            Store => "store",
            Commit => "commit",
            Rollback => "rollback",
            ReplyOk => "reply-ok",
            ReplyReplay => "reply-replay",
            ReplyConflict => "reply-conflict",
            ReplyError => "reply-error",
            Txn => "txn",
            TxnRollback => "txn-rollback",
            Blocked => "blocked",
            ApiDown => "api-down",
            LedgerReplaced => "ledger-replaced",
            Rerun => "rerun",
            CapReached => "cap-reached",
            Race => "race",
            QueueEvent => "queue-event",
            QueueAck => "queue-ack",
            InboxNew => "inbox-new",
            InboxHit => "inbox-hit",
            Receipt => "receipt",
            ReceiptDuplicate => "receipt-duplicate",
            Redeliver => "redeliver",
            DeadLetter => "dead-letter",
            ConsumerCrash => "consumer-crash",
            MailReplay => "mail-replay",
        }
    }
}

impl Mark {
    pub fn class(&self) -> Class {
        match self.kind {
            MarkKind::Arrow { payload, .. } => match payload {
                ArrowPayload::Request => Class::Request,
                ArrowPayload::Response => Class::Response,
                ArrowPayload::Charge => Class::ChargeCall,
                ArrowPayload::Charged => Class::ChargeReply,
                ArrowPayload::Event => Class::QueueEvent,
                ArrowPayload::Ack => Class::QueueAck,
            },
            MarkKind::Point { class, .. } => class,
            MarkKind::Span { span } => match span {
                // A read-only transaction's end undoes nothing: drawn as a plain transaction.
                Span::Txn {
                    end:
                        TxnEnd::Rollback {
                            cause: RollbackCause::ReadOnly,
                        },
                    ..
                } => Class::Txn,
                Span::Txn {
                    end: TxnEnd::Rollback { .. },
                    ..
                } => Class::TxnRollback,
                Span::Txn { .. } => Class::Txn,
                Span::Blocked => Class::Blocked,
            },
            MarkKind::Band { band } => match band {
                Band::ApiDown => Class::ApiDown,
                // Drawn as a replacement that kept its store, which is what it amounts to for
                // the work; its caption tells the two apart.
                Band::LedgerReplaced { .. } | Band::LedgerRestarted => Class::LedgerReplaced,
                Band::Rerun => Class::Rerun,
                Band::CapReached => Class::CapReached,
            },
            MarkKind::Race { .. } => Class::Race,
        }
    }

    /// True for an effect that repeated harm: what the page counts as a duplicate.
    pub fn is_duplicate(&self) -> bool {
        matches!(
            self.kind,
            MarkKind::Point {
                class: Class::ChargeDuplicate | Class::AppliedDuplicate | Class::ReceiptDuplicate,
                ..
            }
        )
    }

    /// The first event the mark comes from: what `data-event` carries.
    pub fn event(&self) -> EventIx {
        self.first
    }

    /// True for a new charge or an applied write.
    pub fn is_effect(&self) -> bool {
        matches!(self.kind, MarkKind::Point { nth, .. } if nth > 0)
    }

    pub fn duration_us(&self) -> u64 {
        self.t1_us - self.t0_us
    }
}

/// The class of a point for `event`; `duplicate` when it repeated harm (metrics.rs: every
/// charge after an order's first, a write that changed the value, a ledger row that books a
/// booked charge again, a receipt its queue event already had).
pub(super) fn point_class(event: EventKind, duplicate: bool) -> Class {
    match event {
        EventKind::PodStart { .. } => Class::PodStart,
        EventKind::OrderStart => Class::OrderStart,
        EventKind::Timeout => Class::Timeout,
        EventKind::Retry { .. } => Class::Retry,
        EventKind::OrderDone { outcome, .. } => match outcome {
            Outcome::Ok => Class::OrderOk,
            Outcome::Failed => Class::OrderFailed,
            Outcome::Unknown => Class::OrderUnknown,
        },
        EventKind::AttemptRow { .. } => Class::AttemptRow,
        EventKind::Lookup { .. }
        | EventKind::WorkLookup { .. }
        | EventKind::ChargeLookup { .. }
        | EventKind::Claim { .. }
        | EventKind::KeyExpired
        | EventKind::RecoveryPoint { .. }
        | EventKind::Takeover { .. }
        | EventKind::KeyDeleted { .. } => key_class(event),
        // The API stops waiting for the provider as a client stops waiting for the API.
        EventKind::CallTimeout => Class::Timeout,
        // A refund undoes a charge: drawn as an undo until a lesson step gives it a mark.
        EventKind::Refund { .. } => Class::Rollback,
        // Drawn as error answers until a lesson step gives failures their own marks.
        EventKind::ChargeFailed { .. } => Class::ReplyError,
        EventKind::Charge { .. }
        | EventKind::LedgerRow { .. }
        | EventKind::Write { .. }
        | EventKind::Applied { .. } => effect_class(event, duplicate),
        EventKind::Store { .. } => Class::Store,
        EventKind::Commit { .. } => Class::Commit,
        EventKind::Rollback { .. } => Class::Rollback,
        EventKind::Reply { replay: true, .. } => Class::ReplyReplay,
        EventKind::Reply { status: 409, .. } => Class::ReplyConflict,
        EventKind::Reply { status, .. } if status >= 400 => Class::ReplyError,
        EventKind::Reply { .. } => Class::ReplyOk,
        EventKind::Inbox { fresh: true, .. } => Class::InboxNew,
        EventKind::Inbox { fresh: false, .. } => Class::InboxHit,
        EventKind::Receipt { .. } if duplicate => Class::ReceiptDuplicate,
        EventKind::Receipt { .. } => Class::Receipt,
        EventKind::Redeliver { .. } => Class::Redeliver,
        EventKind::DeadLetter { .. } => Class::DeadLetter,
        // An event never published ends like one never delivered; a dedup hit at the broker
        // reads like the inbox's.
        EventKind::EventLost { .. } => Class::DeadLetter,
        EventKind::BrokerDedup { .. } => Class::InboxHit,
        EventKind::MailReplay { .. } => Class::MailReplay,
        EventKind::ConsumerCrash { .. } => Class::ConsumerCrash,
        // A restart is a process starting, drawn like a pod's start.
        EventKind::ConsumerRestart => Class::PodStart,
        // Arrows, transactions, outages, replacements and the cap are never points.
        EventKind::Send { .. }
        | EventKind::Deliver { .. }
        | EventKind::Drop { .. }
        | EventKind::TxBegin { .. }
        | EventKind::Crash
        | EventKind::Restart
        | EventKind::Replace { .. }
        | EventKind::DbRestart { .. }
        | EventKind::CapReached => {
            unreachable!("arrows, transactions, outages, replacements and the cap are not points")
        }
    }
}

/// The class of a point for a key's event: its lookups, its claim, its row's changes.
fn key_class(event: EventKind) -> Class {
    match event {
        EventKind::Lookup {
            found: Found::NotFound,
        } => Class::LookupMiss,
        EventKind::Lookup { .. } => Class::LookupHit,
        // The lookup by business key after a 412 reads like the key lookup it stands in for.
        EventKind::WorkLookup { number: None } => Class::LookupMiss,
        EventKind::WorkLookup { .. } => Class::LookupHit,
        EventKind::ChargeLookup { number: None } => Class::LookupMiss,
        EventKind::ChargeLookup { .. } => Class::LookupHit,
        EventKind::Claim { result } => match result {
            ClaimResult::Ok => Class::ClaimOk,
            ClaimResult::Blocked => Class::ClaimBlocked,
            ClaimResult::Conflict | ClaimResult::InUse => Class::ClaimConflict,
        },
        EventKind::KeyExpired => Class::KeyExpired,
        // Until a lesson step gives them marks of their own: a recovery point is a write to
        // the key row, and a takeover ends a claim whose lease ran out.
        EventKind::RecoveryPoint { .. } => Class::Store,
        EventKind::Takeover { .. } => Class::KeyExpired,
        EventKind::KeyDeleted { .. } => Class::KeyExpired,
        _ => unreachable!("key_class() is called for a key's events"),
    }
}

/// The class of an effect's point: a charge, a ledger row or a write; `duplicate` as for
/// `point_class`.
fn effect_class(event: EventKind, duplicate: bool) -> Class {
    match event {
        EventKind::Charge { replay: true, .. } => Class::ChargeReplay,
        EventKind::Charge { .. } | EventKind::LedgerRow { .. } if duplicate => {
            Class::ChargeDuplicate
        }
        EventKind::Charge { .. } => Class::Charge,
        EventKind::LedgerRow { .. } => Class::LedgerRow,
        EventKind::Write { .. } => Class::Write,
        EventKind::Applied { .. } if duplicate => Class::AppliedDuplicate,
        EventKind::Applied { .. } => Class::Applied,
        _ => unreachable!("effect_class() is called for charges, ledger rows and writes"),
    }
}

/// The short word the page prints next to a dropped arrow's cross.
pub fn cause_label(cause: DropCause) -> &'static str {
    match cause {
        DropCause::Loss => "loss",
        DropCause::Partition => "partition",
        DropCause::ApiDown => "API down",
        DropCause::CallerGone => "no one waiting",
        DropCause::Late => "late",
        DropCause::Chosen => "dropped by you",
        DropCause::ConsumerDown => "consumer down",
    }
}
