//! The timeline's vocabulary: lanes, marks and the class names that CSS colours them by.
//!
//! A mark is plain data with its start, end, lane, typed shape, label and the indices of the
//! trace events it was made from, so the page can link a drawing to rows of the event table.

use serde::Serialize;

use crate::trace::{ClaimResult, DropCause, Found, Key, Node, Outcome, RollbackCause};

/// The index of a lane in `Timeline::lanes`.
pub type LaneIx = u16;

/// The index of an event in `Trace::events`.
pub type EventIx = u32;

/// One horizontal lane: a client pod, the API, the payment service or the database.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lane {
    pub node: Node,
    /// What the page prints at the lane's left edge, e.g. `pod 9494570e (rerun)`.
    pub label: String,
    /// True for a pod started by an operator's rerun.
    pub rerun: bool,
}

/// One drawable thing. `t0_us <= t1_us` always; a point has `t0_us == t1_us`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mark {
    pub t0_us: u64,
    pub t1_us: u64,
    /// The lane the mark sits on; for an arrow the lane it leaves from.
    pub lane: LaneIx,
    pub kind: MarkKind,
    pub label: String,
    /// The trace events this mark stands for, the one that starts it first.
    pub events: Vec<EventIx>,
    /// The order (1-based) the mark belongs to, for tooltips and filters.
    pub order: Option<u32>,
    pub attempt: Option<u16>,
}

/// The shape of a mark, with what its shape needs to be drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "shape")]
pub enum MarkKind {
    /// A message from `lane` to `to_lane`.
    Arrow {
        to_lane: LaneIx,
        msg: u32,
        payload: ArrowPayload,
        end: ArrowEnd,
    },
    /// Something that happened at one instant on one lane.
    Point { point: Point },
    /// A stretch of time on one lane: a transaction or a blocked wait.
    Span { span: Span },
    /// A shaded stretch across the whole height of one lane.
    Band { band: Band },
    /// A check-then-insert race: from `lane` down to `to_lane`, the two requests involved.
    Race {
        to_lane: LaneIx,
        reqs: [u32; 2],
        key: Key,
    },
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

/// An instant on one lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "point")]
pub enum Point {
    PodStart,
    OrderStart,
    Timeout,
    /// The client will send `attempt` after `delay_us`.
    Retry {
        attempt: u16,
        delay_us: u64,
    },
    OrderDone {
        outcome: Outcome,
        status: Option<u16>,
    },
    AttemptRow {
        row: u32,
    },
    Lookup {
        found: Found,
    },
    Claim {
        result: ClaimResult,
    },
    KeyExpired,
    /// `effect` is set for a new charge (not a replay): its place among its order's effects.
    Charge {
        number: u32,
        replay: bool,
        effect: Option<Effect>,
    },
    /// `rebooked` when the row books a charge the ledger already booked: a duplicate.
    LedgerRow {
        number: u32,
        rebooked: bool,
    },
    Write {
        value: u32,
    },
    Applied {
        value: u32,
        effect: Effect,
    },
    Store {
        status: u16,
    },
    Commit {
        txn: u32,
    },
    Rollback {
        txn: u32,
        cause: RollbackCause,
    },
    Reply {
        status: u16,
        replay: bool,
    },
    /// The consumer's inbox insert; `fresh` unless the event id was already there.
    Inbox {
        event: u32,
        fresh: bool,
    },
    /// A receipt mailed; `duplicate` when the same event already had one.
    Receipt {
        event: u32,
        number: u32,
        duplicate: bool,
    },
    Redeliver {
        event: u32,
        delivery: u16,
    },
    DeadLetter {
        event: u32,
    },
}

/// The `nth` of `total` effects of one order; `duplicate` when it repeated harm (metrics.rs:
/// every charge after the first, a write only when it changed the value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Effect {
    pub nth: u32,
    pub total: u32,
    pub duplicate: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "span")]
pub enum Span {
    /// BEGIN to COMMIT or ROLLBACK of one transaction.
    Txn { txn: u32, end: TxnEnd },
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
}

impl Class {
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
            MarkKind::Point { point } => point_class(point),
            MarkKind::Span { span } => match span {
                Span::Txn {
                    end: TxnEnd::Rollback { .. },
                    ..
                } => Class::TxnRollback,
                Span::Txn { .. } => Class::Txn,
                Span::Blocked => Class::Blocked,
            },
            MarkKind::Band { band } => match band {
                Band::ApiDown => Class::ApiDown,
                Band::LedgerReplaced { .. } => Class::LedgerReplaced,
                Band::Rerun => Class::Rerun,
                Band::CapReached => Class::CapReached,
            },
            MarkKind::Race { .. } => Class::Race,
        }
    }

    /// True for an effect that repeated harm: what the page counts as a duplicate.
    pub fn is_duplicate(&self) -> bool {
        match self.kind {
            MarkKind::Point {
                point:
                    Point::Charge {
                        effect: Some(effect),
                        ..
                    },
            }
            | MarkKind::Point {
                point: Point::Applied { effect, .. },
            } => effect.duplicate,
            MarkKind::Point {
                point: Point::LedgerRow { rebooked, .. },
            } => rebooked,
            MarkKind::Point {
                point: Point::Receipt { duplicate, .. },
            } => duplicate,
            _ => false,
        }
    }

    /// The first event the mark comes from: what `data-event` carries.
    pub fn event(&self) -> EventIx {
        self.events[0]
    }

    pub fn duration_us(&self) -> u64 {
        self.t1_us - self.t0_us
    }
}

fn point_class(point: Point) -> Class {
    match point {
        Point::PodStart => Class::PodStart,
        Point::OrderStart => Class::OrderStart,
        Point::Timeout => Class::Timeout,
        Point::Retry { .. } => Class::Retry,
        Point::OrderDone { outcome, .. } => match outcome {
            Outcome::Ok => Class::OrderOk,
            Outcome::Failed => Class::OrderFailed,
            Outcome::Unknown => Class::OrderUnknown,
        },
        Point::AttemptRow { .. } => Class::AttemptRow,
        Point::Lookup {
            found: Found::NotFound,
        } => Class::LookupMiss,
        Point::Lookup { .. } => Class::LookupHit,
        Point::Claim { result } => match result {
            ClaimResult::Ok => Class::ClaimOk,
            ClaimResult::Blocked => Class::ClaimBlocked,
            ClaimResult::Conflict => Class::ClaimConflict,
        },
        Point::KeyExpired => Class::KeyExpired,
        Point::Charge { replay: true, .. } => Class::ChargeReplay,
        Point::Charge {
            effect: Some(Effect {
                duplicate: true, ..
            }),
            ..
        } => Class::ChargeDuplicate,
        Point::Charge { .. } => Class::Charge,
        Point::LedgerRow { rebooked: true, .. } => Class::ChargeDuplicate,
        Point::LedgerRow { .. } => Class::LedgerRow,
        Point::Write { .. } => Class::Write,
        Point::Applied { effect, .. } if effect.duplicate => Class::AppliedDuplicate,
        Point::Applied { .. } => Class::Applied,
        Point::Store { .. } => Class::Store,
        Point::Commit { .. } => Class::Commit,
        Point::Rollback { .. } => Class::Rollback,
        Point::Reply { replay: true, .. } => Class::ReplyReplay,
        Point::Reply { status: 409, .. } => Class::ReplyConflict,
        Point::Reply { status, .. } if status >= 400 => Class::ReplyError,
        Point::Reply { .. } => Class::ReplyOk,
        Point::Inbox { fresh: true, .. } => Class::InboxNew,
        Point::Inbox { fresh: false, .. } => Class::InboxHit,
        Point::Receipt {
            duplicate: true, ..
        } => Class::ReceiptDuplicate,
        Point::Receipt { .. } => Class::Receipt,
        Point::Redeliver { .. } => Class::Redeliver,
        Point::DeadLetter { .. } => Class::DeadLetter,
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
    }
}
