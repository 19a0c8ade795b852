//! Lesson C ("In production"), one test per step: what each step's text says happens is read
//! off the events of its own runs (A, the step's scenario, and B, its change), not only off the
//! counters `tests/lessons.rs` checks.

use idemlab_app::page::PageState;
use idemlab_core::trace::{
    ClaimResult, DropCause, EventKind, Node, Outcome, Payload, RollbackCause, Trace,
};
use idemlab_course::lessons::{Lesson, Step};

/// Step `n` (from 1) of Lesson C, with its runs: A and B.
fn step(n: usize) -> (&'static Step, Trace, Trace) {
    let step = &Lesson::by_id("c").expect("lesson c").steps[n - 1];
    let compare = step.compare.expect("every step of lesson C compares");
    let query = format!(
        "{}&compare={}",
        step.query,
        idemlab_core::scenario::codec::percent_encode(compare)
    );
    let (page, _, errors) = PageState::from_query(&query);
    assert!(errors.is_empty(), "{query}: {errors:?}");
    let a = idemlab_lab::run(&page.scenario).0;
    let b = idemlab_lab::run(&page.compare_scenario().expect("B")).0;
    (step, a, b)
}

fn count(trace: &Trace, pick: impl Fn(&EventKind) -> bool) -> usize {
    trace.events.iter().filter(|e| pick(&e.kind)).count()
}

fn replies(trace: &Trace, status: u16) -> usize {
    count(
        trace,
        |k| matches!(k, EventKind::Reply { status: s, .. } if *s == status),
    )
}

fn ms(time_us: u64) -> u64 {
    (time_us + 500) / 1_000
}

/// The times, in whole ms, of order `order`'s first transaction's begin and commit.
fn first_txn_ms(trace: &Trace, order: u32) -> (u64, u64) {
    let mine = || trace.events.iter().filter(|e| e.order() == Some(order));
    let (txn, begin) = mine()
        .find_map(|e| match e.kind {
            EventKind::TxBegin { txn } => Some((txn, e.time_us)),
            _ => None,
        })
        .expect("a transaction");
    let commit = mine()
        .find(|e| e.kind == EventKind::Commit { txn })
        .expect("its commit");
    (ms(begin), ms(commit.time_us))
}

#[test]
fn c1_the_txn_handler_holds_its_lock_across_the_call_and_conflict_answers_409_with_retry_after() {
    let (step, a, b) = step(1);
    // A: order 1's transaction spans the payment call, 10 to 86 ms, and its retry blocks on the
    // unique index, then replays the stored answer.
    assert_eq!(first_txn_ms(&a, 1), (10, 86));
    assert!(step
        .text
        .contains("for the first order, 10 to 86 ms (the database lane's first"));
    // "The first order" and "the first bar" are order 1's: the run's first transaction.
    let first_begin = (a.events.iter())
        .find(|e| matches!(e.kind, EventKind::TxBegin { .. }))
        .expect("a transaction");
    assert_eq!(first_begin.order(), Some(1));
    let blocked = |t: &Trace| {
        count(t, |k| {
            matches!(
                k,
                EventKind::Claim {
                    result: ClaimResult::Blocked
                }
            )
        })
    };
    assert_eq!((blocked(&a), replies(&a, 409)), (1, 0));
    // B: no wait; one 409, whose Retry-After (128 ms) the client waits exactly.
    assert_eq!((blocked(&b), replies(&b, 409)), (0, 1));
    let retry_after_ms = b.events.iter().find_map(|e| match e.kind {
        EventKind::Send {
            payload: Payload::Response { retry_after_ms, .. },
            ..
        } => retry_after_ms,
        _ => None,
    });
    assert_eq!(retry_after_ms.map(|ms| ms.get()), Some(128));
    assert!(step.text.contains("128 ms"));
    let delays: Vec<u64> = (b.events.iter())
        .filter_map(|e| match e.kind {
            EventKind::Retry { delay_us } => Some(delay_us),
            _ => None,
        })
        .collect();
    assert!(delays.contains(&128_000), "{delays:?}");
    // The 409's transaction ends at once (read only), holding nothing while the client waits.
    let read_only = count(&b, |k| {
        matches!(
            k,
            EventKind::Rollback {
                cause: RollbackCause::ReadOnly,
                ..
            }
        )
    });
    assert!(read_only >= 1);
}

#[test]
fn c2_without_a_lease_the_phased_claim_answers_409_for_ever_and_with_one_it_is_taken_over() {
    let (step, a, b) = step(2);
    // Both: the claim commits at recovery point started before the payment call.
    for t in [&a, &b] {
        assert!(count(t, |k| matches!(k, EventKind::RecoveryPoint { .. })) > 0);
    }
    // A: every retry of order 1 is answered 409 and it ends unknown; charge #1 has no row.
    assert_eq!(replies(&a, 409), 6);
    let outcome = |t: &Trace, order: u32| {
        t.events.iter().find_map(|e| match e.kind {
            EventKind::OrderDone { outcome, .. } if e.order() == Some(order) => Some(outcome),
            _ => None,
        })
    };
    assert_eq!(outcome(&a, 1), Some(Outcome::Unknown));
    let rows_for_1 = |t: &Trace| count(t, |k| matches!(k, EventKind::LedgerRow { number: 1, .. }));
    assert_eq!(rows_for_1(&a), 0);
    // B: the third try takes it over, the keyed provider returns charge #1, which is recorded.
    let takeover = (b.events.iter())
        .find(|e| matches!(e.kind, EventKind::Takeover { .. }))
        .expect("a takeover");
    assert_eq!((takeover.order(), takeover.attempt()), (Some(1), Some(3)));
    let replayed = count(&b, |k| {
        matches!(
            k,
            EventKind::Charge {
                number: 1,
                replay: true
            }
        )
    });
    assert_eq!((replayed, rows_for_1(&b)), (1, 1));
    assert_eq!(outcome(&b, 1), Some(Outcome::Ok));
    assert!(step.text.contains("the third try takes the claim over"));
}

#[test]
fn c3_a_lease_shorter_than_the_call_is_taken_from_a_live_copy_and_both_charge() {
    let (_, a, b) = step(3);
    let fresh = |t: &Trace| count(t, |k| matches!(k, EventKind::Charge { replay: false, .. }));
    // A: two takeovers, each while its first copy's call is still out; 4 charges for 2 orders.
    assert_eq!(count(&a, |k| matches!(k, EventKind::Takeover { .. })), 2);
    for (ix, e) in a.events.iter().enumerate() {
        if !matches!(e.kind, EventKind::Takeover { .. }) {
            continue;
        }
        let first_charge_later = a.events[ix..].iter().any(|l| {
            l.order() == e.order()
                && l.attempt() == Some(1)
                && matches!(l.kind, EventKind::Charge { .. })
        });
        assert!(first_charge_later, "event {ix}: the first copy was done");
    }
    assert_eq!(fresh(&a), 4);
    // B: no takeover; the retries get 409 and each order is charged once.
    assert_eq!(count(&b, |k| matches!(k, EventKind::Takeover { .. })), 0);
    assert!(replies(&b, 409) > 0);
    assert_eq!(fresh(&b), 2);
}

#[test]
fn c4_stripe_replays_the_500_oasis_and_powertools_run_it_again() {
    let (step, a, b) = step(4);
    let failed = |t: &Trace| {
        (t.events.iter())
            .filter(|e| matches!(e.kind, EventKind::ChargeFailed { status: 500 }))
            .map(|e| e.order())
            .collect::<Vec<_>>()
    };
    // The payment service fails order 3 once, charging nothing, in both runs.
    assert_eq!(failed(&a), [Some(3)]);
    assert_eq!(failed(&b), [Some(3)]);
    // A (replay=all): every retry of order 3 gets the stored 500.
    let replayed_500 = count(&a, |k| {
        matches!(
            k,
            EventKind::Reply {
                status: 500,
                replay: true
            }
        )
    });
    assert_eq!(replayed_500, 3);
    // B (replay=final) and Powertools' rule (replay=success): the retry charges.
    let mut success = idemlab_core::scenario::decode(step.query).unwrap().scenario;
    idemlab_core::scenario::codec::set_key(&mut success, "replay", "success").unwrap();
    let (c, m) = idemlab_lab::run(&success);
    assert_eq!(m.outcomes.ok, 3);
    for t in [&b, &c] {
        let charged_3 = count(t, |k| matches!(k, EventKind::Charge { replay: false, .. }));
        assert_eq!(charged_3, 3);
        assert_eq!(replies(t, 500), 1);
    }
    // Only A keeps the 500 under the key; B and C leave no record of it (this handler's claim
    // is uncommitted, so dropping the record is its rollback).
    let stored_500 = |t: &Trace| count(t, |k| *k == EventKind::Store { status: 500 });
    assert_eq!((stored_500(&a), stored_500(&b), stored_500(&c)), (1, 0, 0));
}

#[test]
fn c5_an_expired_key_charges_again_or_is_refused_412_and_looked_up_by_business_key() {
    let (_, a, b) = step(5);
    assert!(count(&a, |k| *k == EventKind::KeyExpired) > 0);
    assert_eq!(replies(&b, 412), 3);
    // One 412 reaches the client, which looks order 1 up and finds charge #1.
    let found = b.events.iter().find(|e| {
        matches!(
            e.kind,
            EventKind::WorkLookup {
                number: Some(number)
            } if number == 1
        )
    });
    assert_eq!(found.and_then(|e| e.order()), Some(1));
    let fresh = count(&b, |k| matches!(k, EventKind::Charge { replay: false, .. }));
    assert_eq!(fresh, 2);
}

#[test]
fn c6_a_lost_provider_answer_charges_again_unless_the_api_looks_the_charge_up() {
    let (_, a, b) = step(6);
    // A: one message lost on the API ↔ payment hop: charge #2's answer.
    let lost_at_api = |t: &Trace| {
        (t.events.iter())
            .filter(|e| {
                e.node == Node::Api
                    && matches!(
                        e.kind,
                        EventKind::Drop {
                            cause: DropCause::Loss,
                            ..
                        }
                    )
            })
            .count()
    };
    assert_eq!(lost_at_api(&a), 1);
    assert_eq!(count(&a, |k| *k == EventKind::CallTimeout), 1);
    assert_eq!(replies(&a, 504), 1);
    let rows = |t: &Trace, n: u32| {
        count(
            t,
            |k| matches!(k, EventKind::LedgerRow { number, .. } if *number == n),
        )
    };
    assert_eq!((rows(&a, 2), rows(&a, 3)), (0, 1));
    // B: order 2's retry finds charge #2 by key and records it.
    let found = b.events.iter().find(|e| {
        matches!(
            e.kind,
            EventKind::ChargeLookup {
                number: Some(number)
            } if number == 2
        )
    });
    assert_eq!(found.and_then(|e| e.order()), Some(2));
    assert_eq!(rows(&b, 2), 1);
}

#[test]
fn c7_reconciliation_records_the_missing_charge_and_refunds_the_repeat() {
    let (_, a, b) = step(7);
    assert_eq!(
        count(&a, |k| matches!(k, EventKind::Refund { .. })),
        0,
        "A has no job"
    );
    let reconciled: Vec<u32> = (b.events.iter())
        .filter_map(|e| match e.kind {
            EventKind::LedgerRow {
                number,
                reconciled: true,
                ..
            } => Some(number),
            _ => None,
        })
        .collect();
    assert_eq!(reconciled, [2]);
    let refunds: Vec<(u32, Option<u32>, u64)> = (b.events.iter())
        .filter_map(|e| match e.kind {
            EventKind::Refund { number } => Some((number, e.order(), ms(e.time_us))),
            _ => None,
        })
        .collect();
    assert_eq!(refunds, [(3, Some(2), 900)]);
    // The job runs after every order is done.
    let last_done = (b.events.iter())
        .filter(|e| matches!(e.kind, EventKind::OrderDone { .. }))
        .map(|e| e.time_us)
        .max();
    assert!(last_done < Some(900_000));
}

#[test]
fn c9_a_direct_publish_is_lost_in_the_crash_and_the_outbox_loses_nothing() {
    let (_, a, b) = step(9);
    let lost: Vec<u32> = (a.events.iter())
        .filter_map(|e| match e.kind {
            EventKind::EventLost { number } => Some(number),
            _ => None,
        })
        .collect();
    assert_eq!(lost, [1]);
    // The crash comes right after the first commit, before the publish.
    let crash = a.events.iter().position(|e| e.kind == EventKind::Crash);
    let first_commit = (a.events.iter()).position(|e| matches!(e.kind, EventKind::Commit { .. }));
    assert_eq!(crash, first_commit.map(|ix| ix + 1));
    let receipts = |t: &Trace| count(t, |k| matches!(k, EventKind::Receipt { .. }));
    assert_eq!((receipts(&a), receipts(&b)), (2, 3));
    assert_eq!(count(&b, |k| matches!(k, EventKind::EventLost { .. })), 0);
}

#[test]
fn every_counter_a_step_names_has_a_card_on_its_side() {
    // A named counter the page does not show (a production count whose key the run lacks)
    // would point the learner at nothing.
    for (i, step) in Lesson::by_id("c").unwrap().steps.iter().enumerate() {
        let (_, a, b) = self::step(i + 1);
        let (sa, sb) = {
            let query = format!(
                "{}&compare={}",
                step.query,
                idemlab_core::scenario::codec::percent_encode(step.compare.unwrap())
            );
            let page = PageState::from_query(&query).0;
            let b = page.compare_scenario().unwrap();
            (page.scenario, b)
        };
        for (side, scenario, trace) in [
            (idemlab_lab::Side::A, &sa, &a),
            (idemlab_lab::Side::B, &sb, &b),
        ] {
            let m = idemlab_lab::metrics::Metrics::of(trace);
            let cards: Vec<idemlab_app::Counter> = (idemlab_app::counters(&m, scenario.consumer)
                .into_iter())
            .chain(idemlab_app::production_counters(&m, scenario))
            .collect();
            for name in idemlab_app::named_metrics(step, side) {
                let card = cards.iter().find(|c| c.metric == name);
                assert!(
                    card.is_some_and(|c| c.shown),
                    "step {} names {name} on {side:?}, which shows no card",
                    i + 1
                );
            }
        }
    }
}
