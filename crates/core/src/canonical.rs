//! The trace's canonical bytes: what `Trace::digest` hashes.
//!
//! Every enum variant has a tag written here by hand, and every field a fixed width, little
//! endian. So a renamed variant, a reordered enum, a new `Debug` or a new text form moves no
//! digest; only a change to what a run does, or to this encoding, does. Tags are never reused
//! or renumbered: a new variant takes the next free one, and a change here raises
//! `MODEL_VERSION` with the golden digests.

use crate::trace::{
    ClaimResult, DropCause, Event, EventKind, Found, Key, Node, Outcome, Payload, Recovery,
    RollbackCause, Trace,
};

/// Where the bytes go: a hasher, or a buffer in tests.
pub trait Sink {
    fn eat(&mut self, bytes: &[u8]);
}

impl Sink for Vec<u8> {
    fn eat(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// 64-bit FNV-1a: stable, byte-at-a-time, no dependency.
pub struct Fnv1a(pub u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Sink for Fnv1a {
    fn eat(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 ^= u64::from(*byte);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// Writes fields in the encoding's fixed widths.
struct Out<'a, S: Sink>(&'a mut S);

impl<S: Sink> Out<'_, S> {
    fn u8(&mut self, v: u8) {
        self.0.eat(&[v]);
    }
    fn u16(&mut self, v: u16) {
        self.0.eat(&v.to_le_bytes());
    }
    fn u32(&mut self, v: u32) {
        self.0.eat(&v.to_le_bytes());
    }
    fn u64(&mut self, v: u64) {
        self.0.eat(&v.to_le_bytes());
    }
    fn bool(&mut self, v: bool) {
        self.u8(u8::from(v));
    }
    /// `None` as 0; `Some(v)` as 1 and then `v`.
    fn opt_u16(&mut self, v: Option<u16>) {
        self.bool(v.is_some());
        self.u16(v.unwrap_or(0));
    }
    fn opt_u32(&mut self, v: Option<u32>) {
        self.bool(v.is_some());
        self.u32(v.unwrap_or(0));
    }
    /// A tag and up to two 32-bit fields: most event kinds fit this shape.
    fn tagged(&mut self, tag: u8, a: u32, b: u32) {
        self.u8(tag);
        self.u32(a);
        self.u32(b);
    }
}

/// The trace: its scenario's canonical query, seed, pods, events and whether it was cut short.
pub fn write_trace<S: Sink>(trace: &Trace, sink: &mut S) {
    let mut out = Out(sink);
    let query = trace.query();
    out.u32(query.len() as u32);
    out.0.eat(query.as_bytes());
    out.u64(trace.seed);
    out.u32(trace.pods.len() as u32);
    for pod in &trace.pods {
        out.u32(pod.uid);
        out.u16(pod.client);
        out.bool(pod.rerun);
    }
    out.u32(trace.events.len() as u32);
    for event in trace.events.iter() {
        write_event(&mut out, event);
    }
    out.bool(trace.truncated);
}

fn write_event<S: Sink>(out: &mut Out<S>, event: &Event) {
    out.u64(event.time_us);
    write_node(out, event.node);
    out.opt_u32(event.order());
    out.opt_u16(event.attempt());
    out.opt_u16(event.pod());
    out.opt_u32(event.req());
    out.bool(event.key.is_some());
    if let Some(key) = event.key {
        write_key(out, key);
    }
    write_kind(out, &event.kind);
}

fn write_node<S: Sink>(out: &mut Out<S>, node: Node) {
    let (tag, pod) = match node {
        Node::Client(pod) => (0, pod),
        Node::Api => (1, 0),
        Node::Payment => (2, 0),
        Node::Db => (3, 0),
        Node::Queue => (4, 0),
        Node::Consumer => (5, 0),
    };
    out.u8(tag);
    out.u16(pod);
}

fn write_key<S: Sink>(out: &mut Out<S>, key: Key) {
    let (tag, wide, work, tenant) = match key {
        Key::Business { work, tenant } => (0, 0, work, tenant),
        Key::Process {
            process,
            work,
            tenant,
        } => (1, u64::from(process), work, tenant),
        Key::Attempt { uuid } => (2, uuid, 0, 0),
        Key::Constant { tenant } => (3, 0, 0, tenant),
    };
    out.u8(tag);
    out.u64(wide);
    out.u32(work);
    out.u16(tenant);
}

fn write_payload<S: Sink>(out: &mut Out<S>, payload: &Payload) {
    match *payload {
        Payload::Request { body } => out.tagged(0, body, 0),
        Payload::Response {
            status,
            number,
            replay,
            retry_after_ms,
        } => {
            out.tagged(1, u32::from(status), u32::from(replay));
            out.opt_u32(number);
            out.opt_u32(retry_after_ms.map(|ms| ms.get()));
        }
        Payload::Charge { keyed } => out.tagged(2, u32::from(keyed), 0),
        Payload::Charged { number } => out.tagged(3, number, 0),
        Payload::ChargeFailed { status } => out.tagged(4, u32::from(status), 0),
        Payload::FindCharge => out.tagged(5, 0, 0),
        Payload::ChargeFound { number } => {
            out.u8(6);
            out.opt_u32(number);
        }
        Payload::Find => out.tagged(7, 0, 0),
        Payload::Found { number } => {
            out.u8(8);
            out.opt_u32(number);
        }
        Payload::Publish { event } => out.tagged(9, event, 0),
        Payload::Delivery { event, delivery } => out.tagged(10, event, u32::from(delivery)),
        Payload::Ack { event, delivery } => out.tagged(11, event, u32::from(delivery)),
    }
}

fn drop_cause_tag(cause: DropCause) -> u32 {
    match cause {
        DropCause::Loss => 0,
        DropCause::Partition => 1,
        DropCause::ApiDown => 2,
        DropCause::CallerGone => 3,
        DropCause::Late => 4,
        DropCause::Chosen => 5,
        DropCause::ConsumerDown => 6,
    }
}

fn found_tag(found: Found) -> u32 {
    match found {
        Found::NotFound => 0,
        Found::Completed => 1,
        Found::InProgress => 2,
        Found::Mismatch => 3,
        Found::Expired => 4,
    }
}

fn claim_tag(result: ClaimResult) -> u32 {
    match result {
        ClaimResult::Ok => 0,
        ClaimResult::Blocked => 1,
        ClaimResult::Conflict => 2,
        ClaimResult::InUse => 3,
    }
}

fn rollback_tag(cause: RollbackCause) -> u32 {
    match cause {
        RollbackCause::Crash => 0,
        RollbackCause::DbReplaced => 1,
        RollbackCause::DbRestarted => 2,
        RollbackCause::Conflict => 3,
        RollbackCause::ReadOnly => 4,
        RollbackCause::NoCommit => 5,
    }
}

fn recovery_tag(point: Recovery) -> u32 {
    match point {
        Recovery::Started => 0,
        Recovery::Finished => 1,
    }
}

fn outcome_tag(outcome: Outcome) -> u32 {
    match outcome {
        Outcome::Ok => 0,
        Outcome::Failed => 1,
        Outcome::Unknown => 2,
    }
}

/// An event kind: its tag, then its fields. Kinds with an optional field or more than two write
/// the rest after the common shape.
fn write_kind<S: Sink>(out: &mut Out<S>, kind: &EventKind) {
    match *kind {
        EventKind::Send { msg, to, payload } => {
            out.tagged(2, msg, 0);
            write_node(out, to);
            write_payload(out, &payload);
        }
        EventKind::OrderDone { outcome, status } => {
            out.tagged(7, outcome_tag(outcome), 0);
            out.opt_u16(status);
        }
        EventKind::ChargeLookup { number } => opt_kind(out, 17, number),
        EventKind::WorkLookup { number } => opt_kind(out, 20, number),
        EventKind::LedgerRow {
            number,
            txn,
            reconciled,
        } => {
            out.tagged(21, number, u32::from(reconciled));
            out.opt_u32(txn);
        }
        EventKind::Write { value, txn } => {
            out.tagged(23, value, 0);
            out.opt_u32(txn);
        }
        EventKind::Replace { uid, boot, wiped } => {
            out.tagged(32, uid, boot);
            out.bool(wiped);
        }
        EventKind::Retry { delay_us } => {
            out.u8(6);
            out.u64(delay_us);
        }
        _ => {
            let (tag, a, b) = plain_kind(kind);
            out.tagged(tag, a, b);
        }
    }
}

fn opt_kind<S: Sink>(out: &mut Out<S>, tag: u8, number: Option<u32>) {
    out.u8(tag);
    out.opt_u32(number);
}

/// The kinds whose fields fit in two `u32`s: (tag, first, second).
fn plain_kind(kind: &EventKind) -> (u8, u32, u32) {
    use EventKind as K;
    let n16 = u32::from;
    let b = u32::from;
    match *kind {
        K::PodStart { uid, rerun } => (0, uid, b(rerun)),
        K::OrderStart => (1, 0, 0),
        K::Deliver { msg } => (3, msg, 0),
        K::Drop { msg, cause } => (4, msg, drop_cause_tag(cause)),
        K::Timeout => (5, 0, 0),
        K::AttemptRow { row } => (8, row, 0),
        K::TxBegin { txn } => (9, txn, 0),
        K::Lookup { found } => (10, found_tag(found), 0),
        K::Claim { result } => (11, claim_tag(result), 0),
        K::KeyExpired => (12, 0, 0),
        K::RecoveryPoint { point } => (13, recovery_tag(point), 0),
        K::Takeover { point } => (14, recovery_tag(point), 0),
        K::Charge { number, replay } => (15, number, b(replay)),
        K::ChargeFailed { status } => (16, n16(status), 0),
        K::CallTimeout => (18, 0, 0),
        K::KeyDeleted { status } => (19, n16(status), 0),
        K::Refund { number } => (22, number, 0),
        K::Applied { value } => (24, value, 0),
        K::Store { status } => (25, n16(status), 0),
        K::Commit { txn } => (26, txn, 0),
        K::Rollback { txn, cause } => (27, txn, rollback_tag(cause)),
        K::Reply { status, replay } => (28, n16(status), b(replay)),
        K::Crash => (29, 0, 0),
        K::Restart => (30, 0, 0),
        K::DbRestart { uid, boot } => (31, uid, boot),
        K::Inbox { event, fresh } => (33, event, b(fresh)),
        K::Receipt { event, number } => (34, event, number),
        K::MailReplay { event, number } => (35, event, number),
        K::ConsumerCrash { event, inbox } => (36, event, b(inbox)),
        K::ConsumerRestart => (37, 0, 0),
        K::Redeliver { event, delivery } => (38, event, n16(delivery)),
        K::EventLost { number } => (39, number, 0),
        K::BrokerDedup { event, number } => (40, event, number),
        K::DeadLetter { event } => (41, event, 0),
        K::CapReached => (42, 0, 0),
        K::Send { .. }
        | K::Retry { .. }
        | K::OrderDone { .. }
        | K::ChargeLookup { .. }
        | K::WorkLookup { .. }
        | K::LedgerRow { .. }
        | K::Write { .. }
        | K::Replace { .. } => unreachable!("write_kind encodes these kinds itself"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::trace::{Ids, Payload};
    use std::num::NonZeroU32;

    /// One of every kind, fields alike where they can be: a tag written twice would make two
    /// of these encode the same.
    fn one_of_each() -> Vec<EventKind> {
        [
            sends(),
            client_kinds(),
            api_kinds(),
            effect_kinds(),
            fault_and_queue_kinds(),
        ]
        .concat()
    }

    /// A send of every payload.
    fn sends() -> Vec<EventKind> {
        let to = Node::Api;
        let payloads = [
            Payload::Request { body: 1 },
            Payload::Response {
                status: 1,
                number: None,
                replay: false,
                retry_after_ms: NonZeroU32::new(1),
            },
            Payload::Charge { keyed: true },
            Payload::Charged { number: 1 },
            Payload::ChargeFailed { status: 1 },
            Payload::FindCharge,
            Payload::ChargeFound { number: None },
            Payload::Find,
            Payload::Found { number: None },
            Payload::Publish { event: 1 },
            Payload::Delivery {
                event: 1,
                delivery: 1,
            },
            Payload::Ack {
                event: 1,
                delivery: 1,
            },
        ];
        (payloads.iter())
            .map(|&payload| EventKind::Send {
                msg: 1,
                to,
                payload,
            })
            .collect()
    }

    /// The client's kinds other than its sends.
    fn client_kinds() -> Vec<EventKind> {
        use EventKind as K;
        vec![
            K::PodStart {
                uid: 1,
                rerun: true,
            },
            K::OrderStart,
            K::Deliver { msg: 1 },
            K::Drop {
                msg: 1,
                cause: DropCause::Loss,
            },
            K::Timeout,
            K::Retry { delay_us: 1 },
            K::OrderDone {
                outcome: Outcome::Ok,
                status: None,
            },
        ]
    }

    /// The API's kinds: its key table, its transactions, its answers.
    fn api_kinds() -> Vec<EventKind> {
        use EventKind as K;
        vec![
            K::AttemptRow { row: 1 },
            K::TxBegin { txn: 1 },
            K::Lookup {
                found: Found::NotFound,
            },
            K::Claim {
                result: ClaimResult::Ok,
            },
            K::KeyExpired,
            K::RecoveryPoint {
                point: Recovery::Started,
            },
            K::Takeover {
                point: Recovery::Started,
            },
            K::KeyDeleted { status: 1 },
            K::Store { status: 1 },
            K::Commit { txn: 1 },
            K::Rollback {
                txn: 1,
                cause: RollbackCause::Crash,
            },
            K::Reply {
                status: 1,
                replay: true,
            },
        ]
    }

    /// The effects' kinds: the payment service's and the ledger's.
    fn effect_kinds() -> Vec<EventKind> {
        use EventKind as K;
        vec![
            K::Charge {
                number: 1,
                replay: true,
            },
            K::ChargeFailed { status: 1 },
            K::ChargeLookup { number: None },
            K::CallTimeout,
            K::WorkLookup { number: None },
            K::LedgerRow {
                number: 1,
                txn: None,
                reconciled: true,
            },
            K::Refund { number: 1 },
            K::Write {
                value: 1,
                txn: None,
            },
            K::Applied { value: 1 },
        ]
    }

    /// The pods' faults, the queue's and the consumer's kinds, and the cap.
    fn fault_and_queue_kinds() -> Vec<EventKind> {
        use EventKind as K;
        vec![
            K::Crash,
            K::Restart,
            K::Replace {
                uid: 1,
                boot: 1,
                wiped: true,
            },
            K::DbRestart { uid: 1, boot: 1 },
            K::Inbox {
                event: 1,
                fresh: true,
            },
            K::Receipt {
                event: 1,
                number: 1,
            },
            K::MailReplay {
                event: 1,
                number: 1,
            },
            K::ConsumerCrash {
                event: 1,
                inbox: true,
            },
            K::ConsumerRestart,
            K::Redeliver {
                event: 1,
                delivery: 1,
            },
            K::EventLost { number: 1 },
            K::BrokerDedup {
                event: 1,
                number: 1,
            },
            K::DeadLetter { event: 1 },
            K::CapReached,
        ]
    }

    fn bytes(kind: EventKind) -> Vec<u8> {
        let mut buffer = Vec::new();
        write_event(
            &mut Out(&mut buffer),
            &Event::new(0, Node::Db, Ids::default(), kind),
        );
        buffer
    }

    #[test]
    fn no_two_kinds_encode_alike() {
        let kinds = one_of_each();
        let mut seen = std::collections::BTreeMap::new();
        for kind in kinds {
            if let Some(earlier) = seen.insert(bytes(kind), kind) {
                panic!("{kind:?} encodes as {earlier:?} does");
            }
        }
    }

    #[test]
    fn a_field_of_any_kind_moves_the_bytes() {
        let a = EventKind::Drop {
            msg: 1,
            cause: DropCause::Loss,
        };
        let b = EventKind::Drop {
            msg: 1,
            cause: DropCause::Late,
        };
        assert_ne!(bytes(a), bytes(b));
        let a = EventKind::OrderDone {
            outcome: Outcome::Ok,
            status: None,
        };
        let b = EventKind::OrderDone {
            outcome: Outcome::Ok,
            status: Some(0),
        };
        assert_ne!(bytes(a), bytes(b));
    }
}
