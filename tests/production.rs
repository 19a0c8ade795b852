//! What the lab claims about the production handler (issue 12): one test per harm and per fix,
//! swept over seeds. Every failure names the query and the seed that reproduces it.

mod common;

use common::{check_trace, first_failing, overlay, run, scenario, seeds};
use idemlab::trace::{ClaimResult, EventKind, Node, Payload, Trace};
use idemlab::Metrics;

/// The metrics of seeds 0..count of `query`, added up field by field where a test needs them.
#[derive(Debug, Default)]
struct Totals {
    duplicates: u64,
    conflicts: u64,
    lost: u64,
    unrecorded: u64,
    ok: u64,
    unknown: u64,
}

fn totals(query: &str, count: u64) -> Totals {
    let mut s = scenario(query);
    let mut t = Totals::default();
    for seed in 0..count {
        s.seed = seed;
        let m: Metrics = idemlab::run(&s).1;
        t.duplicates += u64::from(m.duplicates);
        t.conflicts += u64::from(m.conflicts);
        t.lost += u64::from(m.lost);
        t.unrecorded += u64::from(m.unrecorded);
        t.ok += u64::from(m.outcomes.ok);
        t.unknown += u64::from(m.outcomes.unknown);
    }
    t
}

fn has_claim(trace: &Trace, result: ClaimResult) -> bool {
    trace
        .events
        .iter()
        .any(|e| e.kind == EventKind::Claim { result })
}

/// The race preset's copies overlap on one key while the first is still charging.
const OVERLAP: &str = "preset=race&dedup=atomic&provider=keyed";

#[test]
fn a_concurrent_copy_waits_on_the_lock_by_default_and_is_answered_409_under_conflict() {
    let (mut blocked_runs, mut refused_runs) = (0, 0);
    for seed in 0..seeds(500) {
        let waiting = format!("{OVERLAP}&seed={seed}");
        let (trace, m) = run(&waiting);
        assert_eq!(m.conflicts, 0, "{waiting}: a waiter is never answered 409");
        assert!(!has_claim(&trace, ClaimResult::InUse), "{waiting}");
        blocked_runs += u32::from(has_claim(&trace, ClaimResult::Blocked));

        let refusing = format!("{waiting}&concurrent=conflict");
        let (trace, m) = run(&refusing);
        assert!(!has_claim(&trace, ClaimResult::Blocked), "{refusing}");
        let in_use = (trace.events.iter())
            .filter(|e| {
                e.kind
                    == EventKind::Claim {
                        result: ClaimResult::InUse,
                    }
            })
            .count();
        assert_eq!(
            m.conflicts as usize, in_use,
            "{refusing}: each 409 is a copy refused"
        );
        refused_runs += u32::from(in_use > 0);
    }
    assert!(blocked_runs > 50, "copies overlap often: {blocked_runs}");
    assert_eq!(
        blocked_runs, refused_runs,
        "the same seeds overlap either way"
    );
}

#[test]
fn a_409_carries_retry_after_and_the_client_waits_exactly_that_long() {
    let mut honoured = 0;
    for seed in 0..seeds(300) {
        let query = format!("{OVERLAP}&concurrent=conflict&seed={seed}");
        let (trace, _) = run(&query);
        let s = scenario(&query);
        for (ix, e) in trace.events.iter().enumerate() {
            let EventKind::Send {
                payload,
                to: Node::Client(_),
                ..
            } = e.kind
            else {
                continue;
            };
            let Payload::Response {
                status,
                retry_after_ms,
                ..
            } = payload
            else {
                continue;
            };
            assert_eq!(
                status == 409,
                retry_after_ms.is_some(),
                "{query}: event {ix}"
            );
            let Some(ms) = retry_after_ms else { continue };
            assert_eq!(u64::from(ms), s.worst_round_trip_ms(), "{query}");
            // The client's next word on this attempt is its retry, after exactly Retry-After
            // (unless the answer was lost or came too late, or retries ran out).
            let retry = trace.events[ix..]
                .iter()
                .find_map(|later| match later.kind {
                    EventKind::Retry { delay_us } if later.req == e.req => Some(delay_us),
                    EventKind::Timeout | EventKind::OrderDone { .. } if later.req == e.req => {
                        Some(0)
                    }
                    _ => None,
                });
            if retry == Some(u64::from(ms) * 1_000) {
                honoured += 1;
            }
        }
    }
    assert!(honoured > 50, "409s honoured as the next delay: {honoured}");
}

#[test]
fn under_conflict_each_order_still_charges_once_and_is_not_lost() {
    for provider in ["keyed", "plain"] {
        let provider = format!("provider={provider}");
        let query = overlay(&[OVERLAP, &provider, "concurrent=conflict&retries=6"]);
        let failure = first_failing(&query, seeds(2_000), |m| {
            m.duplicates == 0 && m.lost == 0 && m.unrecorded == 0
        });
        assert_eq!(failure, None, "{query}");
    }
}

#[test]
fn without_a_wait_to_absorb_them_409s_can_use_up_the_retries() {
    // The price of answering at once: a client whose retries are few can run out of them on
    // 409s while the first copy is still at work, where a waiting copy would have been served.
    let wait = totals(&format!("{OVERLAP}&retries=1"), seeds(1_000));
    let conflict = totals(
        &format!("{OVERLAP}&retries=1&concurrent=conflict"),
        seeds(1_000),
    );
    assert_eq!((wait.duplicates, conflict.duplicates), (0, 0));
    assert!(conflict.conflicts > 0, "{conflict:?}");
    assert!(conflict.unknown > 2 * wait.unknown, "{wait:?} {conflict:?}");
    assert_eq!(
        wait.lost + conflict.lost,
        0,
        "an order given up on was still charged once"
    );
}

#[test]
fn every_conflict_run_is_a_coherent_trace() {
    for seed in 0..seeds(300) {
        let query = format!(
            "preset=lost-ack&dedup=atomic&clients=3&orders=6&concurrent=conflict&seed={seed}"
        );
        let (trace, _) = run(&query);
        assert_eq!(check_trace(&trace), Ok(()), "{query}");
    }
}
