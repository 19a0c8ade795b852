//! The trace's JSON is written by hand (`src/json.rs`) so that the page carries no serde; these
//! tests hold it to the text serde_json makes of the derived `Serialize`, byte for byte, for
//! every event kind and every payload, and for whole runs of every preset and its fix.

use std::num::NonZeroU32;

use idemlab_core::scenario::decode;
use idemlab_core::scenario::presets::PRESETS;
use idemlab_core::trace::{
    ClaimResult, DropCause, Event, EventKind as K, Found, Ids, Key, Node, Outcome, Payload as P,
    Recovery, RollbackCause, Trace,
};

fn serde_text(trace: &Trace) -> String {
    serde_json::to_string_pretty(trace).expect("a trace serializes")
}

/// One of each payload, with and without its optional fields.
fn payloads() -> Vec<P> {
    vec![
        P::Request { body: 7 },
        P::Response {
            status: 200,
            number: Some(3),
            replay: false,
            retry_after_ms: None,
        },
        P::Response {
            status: 409,
            number: None,
            replay: true,
            retry_after_ms: NonZeroU32::new(250),
        },
        P::Charge { keyed: true },
        P::Charged { number: 4 },
        P::ChargeFailed { status: 503 },
        P::FindCharge,
        P::ChargeFound { number: None },
        P::ChargeFound { number: Some(9) },
        P::Find,
        P::Found { number: Some(2) },
        P::Publish { event: 11 },
        P::Delivery {
            event: 11,
            delivery: 2,
        },
        P::Ack {
            event: 11,
            delivery: 1,
        },
    ]
}

/// One of each event kind (every value of the small enums they carry), then a send per payload.
fn kinds() -> Vec<K> {
    let mut kinds = vec![
        K::PodStart {
            uid: 0xdead_beef,
            rerun: true,
        },
        K::OrderStart,
        K::Deliver { msg: 5 },
        K::Timeout,
        K::Retry { delay_us: 1_500 },
        K::OrderDone {
            outcome: Outcome::Ok,
            status: Some(201),
        },
        K::OrderDone {
            outcome: Outcome::Failed,
            status: None,
        },
        K::OrderDone {
            outcome: Outcome::Unknown,
            status: None,
        },
        K::AttemptRow { row: 8 },
        K::TxBegin { txn: 3 },
        K::KeyExpired,
        K::Charge {
            number: 1,
            replay: false,
        },
        K::ChargeFailed { status: 500 },
        K::ChargeLookup { number: None },
        K::CallTimeout,
        K::KeyDeleted { status: 204 },
        K::WorkLookup { number: Some(6) },
        K::LedgerRow {
            number: 2,
            txn: Some(4),
            reconciled: false,
        },
        K::LedgerRow {
            number: 2,
            txn: None,
            reconciled: true,
        },
        K::Refund { number: 2 },
        K::Write {
            value: 10,
            txn: None,
        },
        K::Applied { value: 10 },
        K::Store { status: 200 },
        K::Commit { txn: 3 },
        K::Reply {
            status: 200,
            replay: true,
        },
        K::Crash,
        K::Restart,
        K::Replace {
            uid: 1,
            boot: 2,
            wiped: true,
        },
        K::DbRestart { uid: 0xff, boot: 1 },
        K::Inbox {
            event: 1,
            fresh: false,
        },
        K::Receipt {
            event: 1,
            number: 2,
        },
        K::MailReplay {
            event: 1,
            number: 2,
        },
        K::ConsumerCrash {
            event: 3,
            inbox: true,
        },
        K::ConsumerRestart,
        K::Redeliver {
            event: 3,
            delivery: 4,
        },
        K::EventLost { number: 5 },
        K::BrokerDedup {
            event: 3,
            number: 5,
        },
        K::DeadLetter { event: 3 },
        K::CapReached,
    ];
    for cause in [
        DropCause::Loss,
        DropCause::Partition,
        DropCause::ApiDown,
        DropCause::CallerGone,
        DropCause::Late,
        DropCause::Chosen,
        DropCause::ConsumerDown,
    ] {
        kinds.push(K::Drop { msg: 1, cause });
    }
    for found in [
        Found::NotFound,
        Found::Completed,
        Found::InProgress,
        Found::Mismatch,
        Found::Expired,
    ] {
        kinds.push(K::Lookup { found });
    }
    for result in [
        ClaimResult::Ok,
        ClaimResult::Blocked,
        ClaimResult::Conflict,
        ClaimResult::InUse,
    ] {
        kinds.push(K::Claim { result });
    }
    for point in [Recovery::Started, Recovery::Finished] {
        kinds.push(K::RecoveryPoint { point });
        kinds.push(K::Takeover { point });
    }
    for cause in [
        RollbackCause::Crash,
        RollbackCause::DbReplaced,
        RollbackCause::DbRestarted,
        RollbackCause::Conflict,
        RollbackCause::ReadOnly,
        RollbackCause::NoCommit,
    ] {
        kinds.push(K::Rollback { txn: 2, cause });
    }
    for (n, payload) in payloads().into_iter().enumerate() {
        let to = [
            Node::Api,
            Node::Payment,
            Node::Db,
            Node::Queue,
            Node::Consumer,
        ][n % 5];
        kinds.push(K::Send {
            msg: n as u32,
            to,
            payload,
        });
    }
    kinds
}

/// Every node and every kind of key, and none of each id.
fn ids() -> Vec<(Node, Ids)> {
    let keys = [
        None,
        Some(Key::Business { work: 4, tenant: 0 }),
        Some(Key::Business { work: 4, tenant: 2 }),
        Some(Key::Process {
            process: 0xabc,
            work: 1,
            tenant: 0,
        }),
        Some(Key::Process {
            process: 0xabc,
            work: 1,
            tenant: 3,
        }),
        Some(Key::Attempt {
            uuid: 0x0123_4567_89ab_cdef,
        }),
        Some(Key::Constant { tenant: 0 }),
        Some(Key::Constant { tenant: 1 }),
    ];
    let nodes = [
        Node::Client(3),
        Node::Api,
        Node::Payment,
        Node::Db,
        Node::Queue,
        Node::Consumer,
    ];
    (keys.iter().enumerate())
        .map(|(n, key)| {
            let ids = Ids {
                order: (n % 2 == 0).then_some(n as u32),
                attempt: (n % 3 == 0).then_some(n as u16),
                pod: (n % 2 == 1).then_some(1),
                req: (n > 2).then_some(40 + n as u32),
                key: *key,
            };
            (nodes[n % nodes.len()], ids)
        })
        .collect()
}

#[test]
fn every_event_kind_writes_the_json_serde_writes() {
    let scenario = decode("seed=5").unwrap().scenario;
    let mut trace = Trace::new(&scenario);
    let ids = ids();
    let events: Vec<Event> = (kinds().into_iter().enumerate())
        .map(|(n, kind)| {
            let (node, ids) = ids[n % ids.len()];
            Event::new(n as u64 * 1_000, node, ids, kind)
        })
        .collect();
    trace.events = std::sync::Arc::new(events);
    assert_eq!(trace.json(), serde_text(&trace));
    // And a part at a time, as the page writes its export.
    let mut parts = trace.json_parts();
    let mut joined = String::new();
    while let Some(part) = parts.next_part(3) {
        joined.push_str(&part);
    }
    assert_eq!(joined, serde_text(&trace));
}

#[test]
fn an_empty_trace_writes_the_json_serde_writes() {
    let trace = Trace::new(&decode("seed=1").unwrap().scenario);
    assert_eq!(trace.json(), serde_text(&trace));
}

#[test]
fn every_preset_and_its_fix_write_the_json_serde_writes() {
    for spec in PRESETS.iter() {
        for seed in 1..=3 {
            for fix in ["", spec.fix] {
                let query = format!("seed={seed}&preset={}&{fix}", spec.name);
                let scenario = decode(query.trim_end_matches('&')).unwrap().scenario;
                let trace = idemlab_core::sim::run(&scenario);
                assert_eq!(trace.json(), serde_text(&trace), "{query}");
            }
        }
    }
}
