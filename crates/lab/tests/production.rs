//! What the lab claims about the production handler (issue 12): one test per harm and per fix,
//! swept over seeds. Every failure names the query and the seed that reproduces it.

mod common;

use common::{
    calls_after_a_500, check_trace, first_failing, overlay, replayed, run, scenario, seeds,
};
use idemlab_core::trace::{ClaimResult, EventKind, Found, Node, Outcome, Payload, Trace};
use idemlab_lab::Metrics;

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
        let m: Metrics = idemlab_lab::run(&s).1;
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
            assert_eq!(u64::from(ms.get()), s.worst_round_trip_ms(), "{query}");
            // The client's next word on this attempt is its retry, after exactly Retry-After
            // (unless the answer was lost or came too late, or retries ran out).
            let retry = trace.events[ix..]
                .iter()
                .find_map(|later| match later.kind {
                    EventKind::Retry { delay_us } if later.req() == e.req() => Some(delay_us),
                    EventKind::Timeout | EventKind::OrderDone { .. } if later.req() == e.req() => {
                        Some(0)
                    }
                    _ => None,
                });
            if retry == Some(u64::from(ms.get()) * 1_000) {
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

// ---------------------------------------------------------------------------------------------
// handler=phased and lease_ms: atomic phases, recovery points, takeovers.

/// Phased, with the provider honouring the forwarded key, and retries that outlast a lease.
const PHASED: &str =
    "orders=3&dedup=atomic&handler=phased&provider=keyed&retries=6&backoff_ms=30&timeout_ms=200";

/// For each request, whether a transaction of its was open when it sent its payment call.
fn txn_open_at_charge(trace: &Trace) -> Vec<bool> {
    let mut open: std::collections::BTreeSet<u32> = Default::default();
    let mut seen = Vec::new();
    for e in trace.events.iter() {
        let Some(req) = e.req() else { continue };
        match e.kind {
            EventKind::TxBegin { .. } => {
                open.insert(req);
            }
            EventKind::Commit { .. } | EventKind::Rollback { .. } => {
                open.remove(&req);
            }
            EventKind::Send {
                payload: Payload::Charge { .. },
                ..
            } => seen.push(open.contains(&req)),
            _ => {}
        }
    }
    seen
}

fn count(trace: &Trace, pick: impl Fn(&EventKind) -> bool) -> usize {
    trace.events.iter().filter(|e| pick(&e.kind)).count()
}

#[test]
fn the_txn_handler_holds_its_transaction_open_across_the_payment_call_and_phased_does_not() {
    use idemlab_core::trace::Recovery;
    for seed in 0..seeds(300) {
        let txn = format!("orders=3&dedup=atomic&provider=keyed&seed={seed}");
        let (trace, _) = run(&txn);
        assert!(txn_open_at_charge(&trace).iter().all(|&open| open), "{txn}");

        let phased = format!("{txn}&handler=phased");
        let (trace, m) = run(&phased);
        assert!(
            txn_open_at_charge(&trace).iter().all(|&open| !open),
            "{phased}"
        );
        assert_eq!(
            (m.effects, m.duplicates, m.unrecorded),
            (3, 0, 0),
            "{phased}"
        );
        let point = |p| count(&trace, |k| *k == EventKind::RecoveryPoint { point: p });
        assert_eq!(
            (point(Recovery::Started), point(Recovery::Finished)),
            (3, 3),
            "{phased}"
        );
        assert_eq!(check_trace(&trace), Ok(()), "{phased}");
    }
}

#[test]
fn a_copy_that_finds_a_phased_claim_in_progress_is_answered_409_and_charges_nothing() {
    for concurrent in ["wait", "conflict"] {
        let query = format!("{OVERLAP}&handler=phased&retries=6&concurrent={concurrent}");
        let t = totals(&query, seeds(1_000));
        assert!(t.conflicts > 100, "{query}: {t:?}");
        let failure = first_failing(&query, seeds(1_000), |m| m.duplicates == 0 && m.lost == 0);
        assert_eq!(failure, None, "{query}");
    }
}

#[test]
fn without_a_lease_a_crash_after_the_charge_leaves_the_phased_claim_stuck_in_progress() {
    let query = format!("{PHASED}&crash=api@after-effect");
    let failure = first_failing(&query, seeds(500), |m| {
        m.takeovers == 0 && m.unrecorded == 1 && m.outcomes.unknown == 1 && m.conflicts > 0
    });
    assert_eq!(failure, None, "{query}: the claim holds until retention_ms");
}

#[test]
fn with_a_lease_a_copy_takes_the_stuck_claim_over_and_the_keyed_provider_returns_the_first_charge()
{
    for crash in ["after-effect", "after-commit"] {
        let query = format!("{PHASED}&crash=api@{crash}&lease_ms=300");
        let failure = first_failing(&query, seeds(1_000), |m| {
            m.takeovers == 1
                && m.duplicates == 0
                && m.unrecorded == 0
                && m.lost == 0
                && m.outcomes.ok == 3
        });
        assert_eq!(failure, None, "{query}");
    }
}

#[test]
fn a_takeover_with_a_plain_provider_charges_again() {
    // The lease recovers the claim, not the boundary: the provider must honour the key.
    let query = overlay(&[PHASED, "crash=api@after-effect&lease_ms=300&provider=plain"]);
    let failure = first_failing(&query, seeds(1_000), |m| {
        m.takeovers == 1 && m.duplicates == 1 && m.unrecorded == 1
    });
    assert_eq!(failure, None, "{query}");
}

/// A lease shorter than the provider's work: the client's retry finds the claim "expired"
/// while the first copy is still waiting on the provider.
const SHORT_LEASE: &str = "orders=3&dedup=atomic&handler=phased&lease_ms=20&provider_ms=150..250\
    &timeout_ms=100&retries=4&backoff_ms=20";

#[test]
fn a_takeover_while_the_first_copy_still_runs_does_the_work_twice() {
    for provider in ["keyed", "plain"] {
        let query = format!("{SHORT_LEASE}&provider={provider}");
        let mut harmed = 0;
        for seed in 0..seeds(300) {
            let (trace, m) = run(&format!("{query}&seed={seed}"));
            assert!(m.takeovers > 0, "{query}&seed={seed}: {m:?}");
            harmed += u32::from(m.duplicates > 0);
            // Both copies record: with a keyed provider one charge is booked twice.
            let rows = count(&trace, |k| matches!(k, EventKind::LedgerRow { .. }));
            assert!(rows > 3 || m.duplicates == 0, "{query}&seed={seed}");
        }
        assert_eq!(harmed, seeds(300) as u32, "{query}: every seed is harmed");
    }
}

#[test]
fn a_lease_longer_than_the_worst_round_trip_is_never_taken_from_a_live_copy() {
    let query = overlay(&[SHORT_LEASE, "lease_ms=600&provider=keyed&timeout_ms=700"]);
    let failure = first_failing(&query, seeds(500), |m| {
        m.takeovers == 0 && m.duplicates == 0 && m.lost == 0
    });
    assert_eq!(failure, None, "{query}");
}

#[test]
fn under_conflict_retry_after_is_the_time_left_on_the_lease() {
    let query = format!("{OVERLAP}&handler=phased&concurrent=conflict&lease_ms=400");
    let mut answered = 0;
    for seed in 0..seeds(300) {
        let (trace, _) = run(&format!("{query}&seed={seed}"));
        for e in trace.events.iter() {
            if let EventKind::Send {
                payload:
                    Payload::Response {
                        retry_after_ms: Some(ms),
                        ..
                    },
                ..
            } = e.kind
            {
                assert!((1..=400).contains(&ms.get()), "{query}&seed={seed}: {ms}");
                answered += 1;
            }
        }
    }
    assert!(answered > 100, "{answered}");
}

// ---------------------------------------------------------------------------------------------
// provider_fail, decline and replay=all|final|success.

/// Failures at the provider, and lost answers so that clients repeat what they were answered.
const FAILING: &str =
    "orders=6&dedup=atomic&provider=keyed&provider_fail=0.4&retries=4&backoff_ms=30";

#[test]
fn a_provider_failure_answers_500_and_a_decline_402_and_neither_charges() {
    for seed in 0..seeds(200) {
        let failing = format!("orders=3&provider_fail=1&seed={seed}");
        let (trace, m) = run(&failing);
        assert_eq!(
            (m.effects, m.outcomes.unknown),
            (0, 3),
            "{failing}: retried, never charged"
        );
        assert_eq!(
            count(&trace, |k| matches!(
                k,
                EventKind::Reply { status: 500, .. }
            )),
            12
        );

        let declined = format!("orders=3&decline=1&seed={seed}");
        let (_, m) = run(&declined);
        assert_eq!(
            (m.effects, m.attempts, m.outcomes.failed),
            (0, 3, 3),
            "{declined}: final"
        );
    }
}

#[test]
fn under_replay_all_a_repeat_of_a_500_gets_the_same_500_and_charges_nothing() {
    // Stripe API v1: the result is saved once execution began, 500s included.
    let query = format!("{FAILING}&replay=all");
    let mut replays = 0;
    for seed in 0..seeds(500) {
        let (trace, m) = run(&format!("{query}&seed={seed}"));
        assert_eq!(
            m.replayed_failures as usize,
            replayed(&trace, 500),
            "seed {seed}"
        );
        assert_eq!(
            count(&trace, |k| matches!(k, EventKind::KeyDeleted { .. })),
            0
        );
        // An order whose first call failed never calls the provider again.
        let failed_orders: std::collections::BTreeSet<u32> = (trace.events.iter())
            .filter(|e| matches!(e.kind, EventKind::ChargeFailed { .. }))
            .filter_map(|e| e.order())
            .collect();
        for order in &failed_orders {
            let calls = (trace.events.iter())
                .filter(|e| e.order() == Some(*order))
                .filter(|e| {
                    matches!(
                        e.kind,
                        EventKind::Send {
                            payload: Payload::Charge { .. },
                            ..
                        }
                    )
                })
                .count();
            assert_eq!(calls, 1, "{query}&seed={seed}: order {order}");
        }
        assert_eq!(calls_after_a_500(&trace), 0, "{query}&seed={seed}");
        replays += m.replayed_failures;
    }
    assert!(replays > 500, "{replays}");
}

#[test]
fn under_replay_final_a_500_runs_again_and_a_402_is_replayed() {
    // OASIS Repeatable Requests: 2xx and 4xx are replayed, a 5xx is executed again.
    let query = overlay(&[FAILING, "replay=final&decline=0.3&loss_resp=0.4"]);
    for handler in ["txn", "phased"] {
        let query = format!("{query}&handler={handler}");
        let (mut ran_again, mut replayed_402) = (0, 0);
        for seed in 0..seeds(500) {
            let (trace, m) = run(&format!("{query}&seed={seed}"));
            assert_eq!(replayed(&trace, 500), 0, "{query}&seed={seed}");
            assert_eq!(m.duplicates, 0, "{query}&seed={seed}");
            ran_again += calls_after_a_500(&trace);
            replayed_402 += replayed(&trace, 402);
        }
        assert!(
            ran_again > 100 && replayed_402 > 10,
            "{query}: {ran_again} {replayed_402}"
        );
    }
}

#[test]
fn under_replay_success_every_failure_deletes_the_key_and_nothing_failed_is_replayed() {
    // AWS Lambda Powertools: an unhandled exception deletes the record; the call runs again.
    let query = overlay(&[FAILING, "replay=success&decline=0.3&loss_resp=0.4"]);
    for handler in ["txn", "phased"] {
        let query = format!("{query}&handler={handler}");
        let failure = first_failing(&query, seeds(500), |m| {
            m.replayed_failures == 0 && m.duplicates == 0
        });
        assert_eq!(failure, None, "{query}");
    }
}

#[test]
fn replaying_failures_trades_orders_that_could_have_succeeded_for_fewer_calls() {
    let all = totals(&format!("{FAILING}&replay=all"), seeds(1_000));
    let again = totals(&format!("{FAILING}&replay=final"), seeds(1_000));
    assert!(
        again.ok > all.ok,
        "a 500 run again can succeed: {all:?} {again:?}"
    );
    assert_eq!((all.duplicates, again.duplicates), (0, 0));
}

// ---------------------------------------------------------------------------------------------
// expired=new|reject: a key row past retention_ms runs as new, or is refused 412.

/// Lost answers and a retention shorter than a retry, so keys expire while clients retry.
const EXPIRING: &str = "orders=6&dedup=atomic&retention_ms=60&loss_resp=0.5&retries=4";

#[test]
fn an_expired_key_runs_as_new_by_default_and_is_refused_412_under_reject() {
    let (mut expired_runs, mut refused) = (0, 0);
    for seed in 0..seeds(300) {
        let new = format!("{EXPIRING}&seed={seed}");
        let (trace, m) = run(&new);
        assert_eq!(m.rejected_expired, 0, "{new}");
        let expired = count(&trace, |k| *k == EventKind::KeyExpired);
        expired_runs += u32::from(expired > 0);

        let reject = format!("{new}&expired=reject");
        let (trace, m) = run(&reject);
        check_trace(&trace).unwrap_or_else(|e| panic!("{reject}: {e}"));
        assert_eq!(
            count(&trace, |k| *k == EventKind::KeyExpired),
            0,
            "{reject}"
        );
        let answered_412 = count(&trace, |k| {
            matches!(k, EventKind::Reply { status: 412, .. })
        });
        assert_eq!(m.rejected_expired as usize, answered_412, "{reject}");
        // Every 412 comes from a read that found the row expired.
        let found_expired = count(&trace, |k| {
            *k == EventKind::Lookup {
                found: Found::Expired,
            }
        });
        assert_eq!(found_expired, answered_412, "{reject}");
        refused += m.rejected_expired;
    }
    assert!(
        expired_runs > 100 && refused > 200,
        "{expired_runs} {refused}"
    );
}

#[test]
fn under_reject_an_expired_key_never_charges_again_where_new_does() {
    // With one transaction for the claim, the charge's ledger row and the stored answer, a key
    // row exists only once its charge is recorded: the lookup by business key finds it.
    let new = totals(EXPIRING, seeds(500));
    let reject = totals(&format!("{EXPIRING}&expired=reject"), seeds(500));
    assert!(new.duplicates > 100, "{new:?}");
    assert_eq!(reject.duplicates, 0, "{reject:?}");
    assert_eq!(reject.lost, 0, "{reject:?}");
}

#[test]
fn after_a_412_the_client_looks_the_order_up_and_a_found_order_ends_done_without_another_attempt() {
    let query = format!("{EXPIRING}&expired=reject");
    let (mut found, mut minted) = (0, 0);
    for seed in 0..seeds(300) {
        let query = format!("{query}&seed={seed}");
        let (trace, _) = run(&query);
        for (ix, e) in trace.events.iter().enumerate() {
            let EventKind::Deliver { msg } = e.kind else {
                continue;
            };
            let Some(payload) = sent_payload(&trace, msg) else {
                continue;
            };
            let later = || {
                trace.events[ix + 1..]
                    .iter()
                    .filter(|l| l.order() == e.order())
            };
            match payload {
                // A 412 delivered to the client is followed by its lookup, on the same attempt.
                Payload::Response { status: 412, .. } if matches!(e.node, Node::Client(_)) => {
                    let next = later().find(|l| matches!(l.kind, EventKind::Send { .. }));
                    assert!(
                        matches!(
                            next.map(|l| l.kind),
                            Some(EventKind::Send {
                                payload: Payload::Find,
                                ..
                            })
                        ),
                        "{query}: event {ix}"
                    );
                }
                Payload::Found { number: Some(_) } => {
                    let done = later().find(|l| matches!(l.kind, EventKind::OrderDone { .. }));
                    assert!(
                        matches!(
                            done.map(|l| l.kind),
                            Some(EventKind::OrderDone {
                                outcome: Outcome::Ok,
                                ..
                            })
                        ),
                        "{query}: event {ix}"
                    );
                    let sends = later().filter(|l| is_request(&l.kind)).count();
                    assert_eq!(sends, 0, "{query}: event {ix}: no attempt after 'done'");
                    found += 1;
                }
                Payload::Found { number: None } => {
                    // The next attempt, if any, carries a key of its own, never the expired one.
                    if let Some(next) = later().find(|l| is_request(&l.kind)) {
                        assert!(next.key.is_some() && next.key != e.key, "{query}: {ix}");
                        minted += 1;
                    }
                }
                _ => {}
            }
        }
    }
    assert!(found > 100, "{found} {minted}");
}

#[test]
fn the_lookup_by_business_key_sees_the_ledger_only_so_an_unrecorded_charge_is_made_again() {
    // Phased: the claim commits in progress, the API crashes after the provider charged and
    // before the ledger row; with no lease the claim holds until it expires. Refused 412, the
    // client finds nothing in the ledger and charges again under a new key.
    let query = "orders=1&dedup=atomic&handler=phased&crash=api@after-effect&retention_ms=300\
                 &expired=reject&retries=6";
    let failure = first_failing(query, seeds(200), |m| {
        m.rejected_expired >= 1 && m.duplicates == 1 && m.outcomes.ok == 1
    });
    assert_eq!(failure, None, "{query}");
    let (trace, _) = run(&format!("{query}&seed=1"));
    assert!(trace
        .events
        .iter()
        .any(|e| e.kind == EventKind::WorkLookup { number: None }));
}

#[test]
fn expired_refuses_a_bad_value_naming_the_key_and_the_choices() {
    let errors = idemlab_core::scenario::decode("expired=maybe").unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "`expired=maybe` is not valid: expected one of new|reject"
    );
}

/// The payload of message `msg`, from its send.
fn sent_payload(trace: &Trace, msg: u32) -> Option<Payload> {
    trace.events.iter().find_map(|e| match e.kind {
        EventKind::Send {
            msg: m, payload, ..
        } if m == msg => Some(payload),
        _ => None,
    })
}

fn is_request(kind: &EventKind) -> bool {
    matches!(
        kind,
        EventKind::Send {
            payload: Payload::Request { .. },
            ..
        }
    )
}

// ---------------------------------------------------------------------------------------------
// loss_provider and lookup=on: a lost call or answer between the API and the provider, and
// result lookup by key.

/// Lost provider messages, one client, an atomic handler.
const PROVIDER_LOSS: &str = "orders=6&dedup=atomic&loss_provider=0.3&retries=5";

#[test]
fn only_a_lost_provider_message_times_the_call_out_and_the_api_then_answers_504() {
    let mut timeouts = 0;
    for query in [PROVIDER_LOSS, &format!("{PROVIDER_LOSS}&lookup=on")] {
        for seed in 0..seeds(300) {
            let query = format!("{query}&seed={seed}");
            let (trace, _) = run(&query);
            check_trace(&trace).unwrap_or_else(|e| panic!("{query}: {e}"));
            let s = scenario(&query);
            for (ix, e) in trace.events.iter().enumerate() {
                if e.kind != EventKind::CallTimeout {
                    continue;
                }
                timeouts += 1;
                // The request's last provider message was lost, exactly the wait ago.
                let call = trace.events[..ix].iter().rev().find(|l| {
                    l.req() == e.req()
                        && matches!(
                            l.kind,
                            EventKind::Send {
                                to: Node::Payment,
                                ..
                            }
                        )
                });
                let call = call.unwrap_or_else(|| panic!("{query}: event {ix}"));
                assert_eq!(
                    e.time_us - call.time_us,
                    s.provider_wait_ms() * 1_000,
                    "{query}: event {ix}"
                );
                let lost = trace.events[..ix].iter().any(|l| {
                    l.req() == e.req()
                        && l.time_us >= call.time_us
                        && matches!(
                            l.kind,
                            EventKind::Drop {
                                cause: idemlab_core::trace::DropCause::Loss,
                                ..
                            }
                        )
                });
                assert!(lost, "{query}: event {ix} timed out with nothing lost");
                let next = &trace.events[ix + 1];
                assert_eq!(
                    next.kind,
                    EventKind::Reply {
                        status: 504,
                        replay: false
                    },
                    "{query}: event {ix}"
                );
            }
            // Nothing is lost between the API and the provider without the key.
            let (trace, _) = run(&format!("orders=6&dedup=atomic&seed={seed}"));
            assert_eq!(count(&trace, |k| *k == EventKind::CallTimeout), 0);
        }
    }
    assert!(timeouts > 300, "{timeouts}");
}

#[test]
fn a_lost_provider_answer_charges_twice_unless_the_provider_is_keyed_or_the_api_looks_the_charge_up(
) {
    let plain = totals(PROVIDER_LOSS, seeds(500));
    let keyed = totals(&format!("{PROVIDER_LOSS}&provider=keyed"), seeds(500));
    let lookup = totals(&format!("{PROVIDER_LOSS}&lookup=on"), seeds(500));
    assert!(plain.duplicates > 100, "{plain:?}");
    assert_eq!(keyed.duplicates, 0, "{keyed:?}");
    assert_eq!(lookup.duplicates, 0, "{lookup:?}");
    // The lookup is one more round trip to lose, so fewer orders end ok within the retries.
    assert!(lookup.unknown > keyed.unknown, "{keyed:?} {lookup:?}");
}

#[test]
fn a_charge_found_by_lookup_is_recorded_without_a_second_call() {
    let query = format!("{PROVIDER_LOSS}&lookup=on");
    let mut found = 0;
    for seed in 0..seeds(300) {
        let query = format!("{query}&seed={seed}");
        let (trace, m) = run(&query);
        assert_eq!(
            m.lookups as usize,
            count(&trace, |k| matches!(
                k,
                EventKind::Send {
                    payload: Payload::FindCharge,
                    ..
                }
            )),
            "{query}"
        );
        for (ix, e) in trace.events.iter().enumerate() {
            let EventKind::Deliver { msg } = e.kind else {
                continue;
            };
            if e.node != Node::Api {
                continue;
            }
            let Some(Payload::ChargeFound {
                number: Some(number),
            }) = sent_payload(&trace, msg)
            else {
                continue;
            };
            found += 1;
            // The same request books that charge and calls no one.
            let rest = || trace.events[ix + 1..].iter().filter(|l| l.req() == e.req());
            assert!(
                rest().any(
                    |l| matches!(l.kind, EventKind::LedgerRow { number: n, .. } if n == number)
                ),
                "{query}: event {ix}"
            );
            assert!(
                !rest().any(|l| matches!(
                    l.kind,
                    EventKind::Send {
                        payload: Payload::Charge { .. },
                        ..
                    }
                )),
                "{query}: event {ix}"
            );
        }
    }
    assert!(found > 50, "{found}");
}

#[test]
fn without_lookup_a_phased_claim_whose_answer_was_lost_stays_unrecorded_and_lookup_after_a_takeover_records_it(
) {
    // Phased: a lost answer leaves the claim in progress at recovery point started. With a
    // lease a copy takes it over and calls again: a plain provider charges twice; with lookup
    // the copy finds the first charge and records it.
    let base = format!("{PROVIDER_LOSS}&handler=phased&lease_ms=150");
    let blind = totals(&base, seeds(500));
    let looked = totals(&format!("{base}&lookup=on"), seeds(500));
    assert!(blind.duplicates > 100, "{blind:?}");
    assert_eq!(looked.duplicates, 0, "{looked:?}");
    let stuck = totals(&format!("{PROVIDER_LOSS}&handler=phased"), seeds(500));
    assert!(stuck.unrecorded > 50 && stuck.unknown > 100, "{stuck:?}");
}

#[test]
fn loss_provider_and_lookup_refuse_bad_values_naming_the_key_and_what_is_allowed() {
    let said = |query: &str| idemlab_core::scenario::decode(query).unwrap_err()[0].to_string();
    assert_eq!(
        said("loss_provider=1.5"),
        "`loss_provider=1.5` is out of bounds: allowed a probability 0..=1 with at most 6 decimals, like 0.25"
    );
    assert_eq!(
        said("lookup=yes"),
        "`lookup=yes` is not valid: expected one of off|on"
    );
}

// ---------------------------------------------------------------------------------------------
// reconcile_ms: the job that compares the provider's charges with the ledger.

/// Late enough that every run below has settled: no request is in flight at the job's time.
const SETTLED: &str = "reconcile_ms=3600000";

#[test]
fn a_job_after_the_work_settles_records_every_unrecorded_charge_and_refunds_every_extra_one() {
    // Extra charges from lost client answers without dedup, and from lost provider answers
    // under the atomic handler; unrecorded ones from provider answers that never came back.
    for base in [
        "orders=6&loss_resp=0.4&retries=4",
        "orders=6&dedup=atomic&loss_provider=0.3&retries=5",
        "orders=6&dedup=atomic&loss_provider=0.3&retries=5&consumer=plain",
    ] {
        let (mut refunded, mut recorded) = (0, 0);
        let lossy_provider = base.contains("loss_provider");
        for seed in 0..seeds(300) {
            let before = run(&format!("{base}&seed={seed}")).1;
            let query = format!("{base}&{SETTLED}&seed={seed}");
            let (trace, after) = run(&query);
            check_trace(&trace).unwrap_or_else(|e| panic!("{query}: {e}"));
            // The job changes nothing that happened before it: duplicates still counts every
            // extra charge, and each one is refunded.
            assert_eq!(after.duplicates, before.duplicates, "{query}");
            assert_eq!(after.effects, before.effects, "{query}");
            assert_eq!(after.refunds, after.duplicates, "{query}");
            assert_eq!(after.reconciled, before.unrecorded, "{query}");
            assert_eq!(after.unrecorded, 0, "{query}");
            refunded += after.refunds;
            recorded += after.reconciled;
        }
        assert!(refunded > 50, "{base}: {refunded}");
        // Only a lost provider answer leaves a charge unrecorded here.
        assert_eq!(recorded > 20, lossy_provider, "{base}: {recorded}");
    }
}

#[test]
fn the_job_refunds_each_charge_after_its_orders_first_and_keeps_the_first() {
    let base = format!("orders=6&loss_resp=0.4&retries=4&{SETTLED}");
    for seed in 0..seeds(200) {
        let query = format!("{base}&seed={seed}");
        let (trace, _) = run(&query);
        let mut first: std::collections::BTreeMap<Option<u32>, u32> = Default::default();
        for e in trace.events.iter() {
            match e.kind {
                EventKind::Charge {
                    number,
                    replay: false,
                } => {
                    first.entry(e.order()).or_insert(number);
                }
                EventKind::Refund { number } => {
                    assert!(first[&e.order()] < number, "{query}: refund #{number}");
                }
                _ => {}
            }
        }
    }
}

#[test]
fn a_job_that_runs_while_a_ledger_row_is_uncommitted_books_that_charge_twice() {
    // Seed 1: the charge is made at 63 ms and its ledger row commits at 81 ms; the job at
    // 70 ms finds it unrecorded and writes a row, then the commit books it again.
    let query = "seed=1&orders=1&dedup=atomic&reconcile_ms=70";
    let (trace, m) = run(query);
    assert_eq!(
        (m.reconciled, m.duplicates, m.refunds),
        (1, 1, 0),
        "{query}"
    );
    let rows = count(&trace, |k| {
        matches!(k, EventKind::LedgerRow { number: 1, .. })
    });
    assert_eq!(rows, 2, "{query}");
}

#[test]
fn without_reconcile_ms_nothing_is_reconciled_or_refunded() {
    for base in [
        "orders=6&loss_resp=0.4&retries=4",
        "orders=6&dedup=atomic&loss_provider=0.3",
    ] {
        let failure = first_failing(base, seeds(200), |m| m.reconciled == 0 && m.refunds == 0);
        assert_eq!(failure, None, "{base}");
    }
}

#[test]
fn reconcile_ms_refuses_a_bad_value_naming_the_key_and_what_is_allowed() {
    let errors = idemlab_core::scenario::decode("reconcile_ms=soon").unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "`reconcile_ms=soon` is not valid: expected a whole number 0..=3600000, or none"
    );
}

// ---------------------------------------------------------------------------------------------
// restart_db_ms: the ledger's container restarts; its pod, UID and emptyDir stay.

/// The ledger-replaced preset's run, with the fault left to each test.
const POD_STORE: &str = "orders=3&dedup=atomic&store=pod&rerun_ms=400";

#[test]
fn a_container_restart_keeps_a_pod_store_where_a_pod_replacement_loses_it() {
    for seed in 0..seeds(300) {
        let replaced = format!("{POD_STORE}&replace_db_ms=350&seed={seed}");
        let (_, m) = run(&replaced);
        assert!(m.duplicates > 0, "{replaced}: the rerun is not recognised");
        let restarted = format!("{POD_STORE}&restart_db_ms=350&seed={seed}");
        let (trace, m) = run(&restarted);
        check_trace(&trace).unwrap_or_else(|e| panic!("{restarted}: {e}"));
        assert_eq!(
            (m.duplicates, m.lost),
            (0, 0),
            "{restarted}: the rerun is recognised"
        );
        assert!(!trace
            .events
            .iter()
            .any(|e| matches!(e.kind, EventKind::Replace { .. })));
    }
}

#[test]
fn a_restart_changes_the_boot_id_and_keeps_the_uid_while_a_replacement_changes_both() {
    let query = format!("{POD_STORE}&restart_db_ms=100&replace_db_ms=200&seed=3");
    let (trace, _) = run(&query);
    let faults: Vec<(u32, u32)> = (trace.events.iter())
        .filter_map(|e| match e.kind {
            EventKind::DbRestart { uid, boot } => Some((uid, boot)),
            EventKind::Replace { uid, boot, .. } => Some((uid, boot)),
            _ => None,
        })
        .collect();
    assert_eq!(faults.len(), 2, "{query}");
    let (restart, replace) = (faults[0], faults[1]);
    assert_eq!(restart, (0, 2), "{query}: the first pod's UID, a new boot");
    assert!(
        replace.0 != 0 && replace.1 == 3,
        "{query}: a new UID and a new boot"
    );
}

#[test]
fn a_restart_aborts_every_open_transaction_which_answers_503() {
    use idemlab_core::trace::RollbackCause;
    let mut aborted = 0;
    for seed in 0..seeds(300) {
        let query = format!("orders=4&clients=2&dedup=atomic&restart_db_ms=60&seed={seed}");
        let (trace, _) = run(&query);
        let at = (trace.events.iter())
            .position(|e| matches!(e.kind, EventKind::DbRestart { .. }))
            .unwrap_or_else(|| panic!("{query}: no restart"));
        let restart_us = trace.events[at].time_us;
        for (ix, e) in trace.events.iter().enumerate() {
            if let EventKind::Rollback {
                cause: RollbackCause::DbRestarted,
                ..
            } = e.kind
            {
                assert_eq!(e.time_us, restart_us, "{query}: event {ix}");
                let replied = trace.events[ix + 1..]
                    .iter()
                    .find(|l| l.req() == e.req() && matches!(l.kind, EventKind::Reply { .. }));
                assert_eq!(
                    replied.map(|l| l.kind),
                    Some(EventKind::Reply {
                        status: 503,
                        replay: false
                    }),
                    "{query}: event {ix}"
                );
                aborted += 1;
            }
        }
    }
    assert!(aborted > 100, "{aborted}");
}

#[test]
fn restart_db_ms_refuses_a_bad_value_naming_the_key_and_what_is_allowed() {
    let errors = idemlab_core::scenario::decode("restart_db_ms=3600001").unwrap_err();
    assert_eq!(
        errors[0].to_string(),
        "`restart_db_ms=3600001` is out of bounds: allowed a whole number 0..=3600000"
    );
}

// ---------------------------------------------------------------------------------------------
// tenants and scope=tenant|global.

/// Two tenants, lost answers so that each key is also repeated.
const TENANTS: &str = "orders=6&tenants=2&dedup=atomic&loss_resp=0.3&retries=4";

#[test]
fn keys_scoped_per_tenant_merge_each_orders_repeats_and_keep_every_tenants_orders_apart() {
    let mut repeats = 0;
    for seed in 0..seeds(300) {
        let query = format!("{TENANTS}&scope=tenant&seed={seed}");
        let (trace, m) = run(&query);
        check_trace(&trace).unwrap_or_else(|e| panic!("{query}: {e}"));
        assert_eq!((m.duplicates, m.lost), (0, 0), "{query}");
        assert_eq!(m.effects, 6, "{query}: each order charged once");
        repeats += m.attempts - m.orders;
    }
    assert!(repeats > 300, "{repeats}");
}

#[test]
fn a_key_scoped_globally_merges_two_tenants_work_and_one_of_them_is_lost() {
    let mut lost = 0;
    for seed in 0..seeds(300) {
        let query = format!("{TENANTS}&scope=global&seed={seed}");
        let (trace, m) = run(&query);
        // Tenant 2's orders share their keys with tenant 1's (case-1/work-1 for orders 1 and
        // 2): one charge answers both.
        assert_eq!(m.effects, 3, "{query}");
        // Each of the three orders without a charge of its own ends answered ok (lost work)
        // unless its client gave up first.
        assert!(
            m.lost <= 3 && m.lost + m.outcomes.unknown >= 3,
            "{query}: {m:?}"
        );
        lost += m.lost;
        let keys: std::collections::BTreeSet<String> = (trace.events.iter())
            .filter(|e| e.order().is_some())
            .filter_map(|e| e.key.map(|k| k.to_string()))
            .collect();
        assert_eq!(keys.len(), 3, "{query}: {keys:?}");
    }
    assert!(u64::from(lost) > seeds(300) * 2, "{lost}");
}

#[test]
fn with_one_tenant_the_scope_changes_nothing() {
    for seed in 0..seeds(100) {
        let base = format!("orders=6&dedup=atomic&loss_resp=0.3&seed={seed}");
        let (tenant, _) = run(&format!("{base}&scope=tenant"));
        let (global, _) = run(&format!("{base}&scope=global"));
        assert_eq!(tenant.events, global.events, "{base}");
    }
}

#[test]
fn a_scoped_key_names_its_tenant() {
    let (trace, _) = run("seed=1&orders=2&tenants=2&dedup=atomic");
    let keys: Vec<String> = (trace.events.iter())
        .filter(|e| is_request(&e.kind))
        .filter_map(|e| e.key.map(|k| k.to_string()))
        .collect();
    assert_eq!(keys, ["tenant-1/case-1/work-1", "tenant-2/case-1/work-1"]);
}

#[test]
fn tenants_and_scope_refuse_bad_values_naming_the_key_and_what_is_allowed() {
    let said = |query: &str| idemlab_core::scenario::decode(query).unwrap_err()[0].to_string();
    assert_eq!(
        said("tenants=0"),
        "`tenants=0` is out of bounds: allowed a whole number 1..=100"
    );
    assert_eq!(
        said("scope=world"),
        "`scope=world` is not valid: expected one of tenant|global"
    );
}

// ---------------------------------------------------------------------------------------------
// relay=outbox|direct and broker_dedup_ms.

/// A crash right after the first commit, with a queue behind the ledger.
const RELAY: &str = "orders=3&dedup=atomic&consumer=inbox&crash=api@after-commit";

#[test]
fn a_direct_publish_is_lost_in_a_crash_after_the_commit_and_the_outbox_loses_nothing() {
    for seed in 0..seeds(300) {
        let outbox = format!("{RELAY}&seed={seed}");
        let (trace, m) = run(&outbox);
        check_trace(&trace).unwrap_or_else(|e| panic!("{outbox}: {e}"));
        assert_eq!((m.lost_events, m.receipts), (0, 3), "{outbox}");

        let direct = format!("{outbox}&relay=direct");
        let (trace, m) = run(&direct);
        check_trace(&trace).unwrap_or_else(|e| panic!("{direct}: {e}"));
        let lost = count(&trace, |k| matches!(k, EventKind::EventLost { .. }));
        assert_eq!((m.lost_events as usize, lost), (1, 1), "{direct}");
        // The charge is booked and answered for; only its receipt never comes.
        assert_eq!((m.effects, m.receipts, m.duplicates), (3, 2, 0), "{direct}");
    }
}

#[test]
fn without_a_crash_a_direct_publish_leaves_the_api_one_statement_after_the_commit() {
    for seed in 0..seeds(200) {
        let query = format!("orders=3&dedup=atomic&consumer=plain&relay=direct&seed={seed}");
        let (trace, m) = run(&query);
        assert_eq!((m.lost_events, m.receipts), (0, 3), "{query}");
        for (ix, e) in trace.events.iter().enumerate() {
            let EventKind::Send {
                payload: Payload::Publish { .. },
                ..
            } = e.kind
            else {
                continue;
            };
            assert_eq!(e.node, Node::Api, "{query}: event {ix}");
            let commit = trace.events[..ix]
                .iter()
                .rev()
                .find(|l| l.req() == e.req() && matches!(l.kind, EventKind::Commit { .. }));
            let commit = commit.unwrap_or_else(|| panic!("{query}: event {ix}"));
            assert_eq!(e.time_us - commit.time_us, 1_000, "{query}: event {ix}");
        }
    }
}

/// A keyed provider under check-then-insert: two copies of an order get one charge and the
/// ledger books it twice, so its event is published twice.
const DOUBLE_BOOKED: &str = "preset=race&provider=keyed&consumer=plain";

#[test]
fn a_broker_deduplication_window_delivers_one_event_per_charge_within_it() {
    let (mut double, mut kept_out) = (0, 0);
    for seed in 0..seeds(300) {
        let plain = format!("{DOUBLE_BOOKED}&seed={seed}");
        let (trace, m) = run(&plain);
        let per_charge = receipts_per_charge(&trace);
        double += per_charge.values().filter(|&&n| n > 1).count();

        let deduped = format!("{plain}&broker_dedup_ms=300000");
        let (trace, d) = run(&deduped);
        check_trace(&trace).unwrap_or_else(|e| panic!("{deduped}: {e}"));
        let per_charge = receipts_per_charge(&trace);
        assert!(
            per_charge.values().all(|&n| n == 1),
            "{deduped}: {per_charge:?}"
        );
        let dropped = count(&trace, |k| matches!(k, EventKind::BrokerDedup { .. }));
        assert_eq!(
            d.receipts as usize,
            m.receipts as usize - dropped,
            "{deduped}"
        );
        kept_out += dropped;
    }
    assert!(double > 100 && kept_out == double, "{double} {kept_out}");
}

#[test]
fn an_event_outside_the_window_is_delivered_again() {
    // A window shorter than the gap between the two bookings keeps nothing out.
    let mut twice = 0;
    for seed in 0..seeds(200) {
        let query = format!("{DOUBLE_BOOKED}&broker_dedup_ms=1&seed={seed}");
        let (trace, _) = run(&query);
        let gap_ms = booking_gaps_ms(&trace);
        let dropped = count(&trace, |k| matches!(k, EventKind::BrokerDedup { .. }));
        assert_eq!(
            dropped,
            gap_ms.iter().filter(|&&ms| ms < 1).count(),
            "{query}"
        );
        twice += gap_ms.len();
    }
    assert!(twice > 50, "{twice}");
}

/// Receipts mailed per charge number.
fn receipts_per_charge(trace: &Trace) -> std::collections::BTreeMap<u32, u32> {
    let mut per = std::collections::BTreeMap::new();
    for e in trace.events.iter() {
        if let EventKind::Receipt { number, .. } = e.kind {
            *per.entry(number).or_default() += 1;
        }
    }
    per
}

/// For each charge published twice, the time between its two publishes' arrivals at the queue.
fn booking_gaps_ms(trace: &Trace) -> Vec<u64> {
    let mut first: std::collections::BTreeMap<u32, u64> = Default::default();
    let mut gaps = Vec::new();
    for e in trace.events.iter() {
        let EventKind::Deliver { msg } = e.kind else {
            continue;
        };
        if e.node != Node::Queue {
            continue;
        }
        let Some(Payload::Publish { event }) = sent_payload(trace, msg) else {
            continue;
        };
        let number = trace.events.iter().find_map(|l| match l.kind {
            EventKind::Receipt { event: id, number } if id == event => Some(number),
            EventKind::BrokerDedup { event: id, number } if id == event => Some(number),
            _ => None,
        });
        let Some(number) = number else { continue };
        match first.get(&number) {
            Some(&at_us) => gaps.push((e.time_us - at_us) / 1_000),
            None => {
                first.insert(number, e.time_us);
            }
        }
    }
    gaps
}

#[test]
fn relay_and_broker_dedup_ms_refuse_bad_values_naming_the_key_and_what_is_allowed() {
    let said = |query: &str| idemlab_core::scenario::decode(query).unwrap_err()[0].to_string();
    assert_eq!(
        said("relay=kafka"),
        "`relay=kafka` is not valid: expected one of outbox|direct"
    );
    assert_eq!(
        said("broker_dedup_ms=0"),
        "`broker_dedup_ms=0` is out of bounds: allowed a whole number 1..=604800000"
    );
}
