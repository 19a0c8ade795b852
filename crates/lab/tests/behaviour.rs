//! What the lab claims, one test per claim. Each would fail if the model stopped showing it.
//! Every failure names the query and the seed that reproduces it.

mod common;

use common::{first_failing, run, scenario, seeds, sweep};
use idemlab_core::scenario::presets::PRESETS;
use idemlab_core::trace::{ClaimResult, EventKind};

/// The fix the lab teaches: an atomic claim in a durable store, the business key, and a
/// payment service that honours the forwarded key.
const FIXED: &str = "dedup=atomic&store=durable&key=business&provider=keyed";

#[test]
fn fixed_configuration_has_no_duplicates_nor_lost_work_for_every_preset_over_10k_seeds() {
    for spec in PRESETS.iter().filter(|spec| spec.name != "key-expiry") {
        let query = format!("preset={}&{FIXED}", spec.name);
        let failure = first_failing(&query, seeds(10_000), |m| m.duplicates == 0 && m.lost == 0);
        assert_eq!(failure, None, "{query}: (seed, metrics) that broke the fix");
    }
}

#[test]
fn outside_boundary_duplicates_with_a_plain_provider_and_not_with_a_keyed_one() {
    let plain = sweep(
        "preset=outside-boundary&dedup=atomic&store=durable&key=business&provider=plain",
        1_000,
    );
    assert!(
        plain.duplicates_total > 0,
        "a crash between charge and commit must duplicate: {plain:?}"
    );
    assert!(
        plain.unrecorded_total > 0,
        "the ledger rolled back charges the provider kept: {plain:?}"
    );
    let keyed = sweep(&format!("preset=outside-boundary&{FIXED}"), 1_000);
    assert_eq!(keyed.duplicates_total, 0, "{keyed:?}");
}

#[test]
fn key_expiry_before_the_retry_horizon_duplicates_even_with_the_fix() {
    let short = scenario(&format!("preset=key-expiry&{FIXED}"));
    assert!(u64::from(short.retention_ms) < short.retry_horizon_ms());
    let expired = sweep(&format!("preset=key-expiry&{FIXED}"), 1_000);
    assert!(expired.duplicates_total > 0, "{expired:?}");

    let horizon_ms = short.retry_horizon_ms() + 1_000;
    let kept = format!("preset=key-expiry&{FIXED}&retention_ms={horizon_ms}");
    let failure = first_failing(&kept, seeds(2_000), |m| m.duplicates == 0);
    assert_eq!(failure, None, "{kept}");
}

#[test]
fn no_dedup_with_response_loss_duplicates() {
    let totals = sweep("orders=10&loss_resp=0.3&dedup=none", 200);
    assert!(totals.duplicates_total > 0, "{totals:?}");
    assert!(totals.effects_mean_per_order() > 1.2, "{totals:?}");
}

#[test]
fn naive_races_and_duplicates_where_atomic_has_none_on_the_same_seeds() {
    let mut racy_seeds = 0;
    let naive = scenario("preset=race&dedup=naive");
    let mut atomic = scenario("preset=race&dedup=atomic");
    for seed in 0..seeds(2_000) {
        let mut naive = naive.clone();
        naive.seed = seed;
        let m = idemlab_lab::run(&naive).1;
        if m.races == 0 || m.duplicates == 0 {
            continue;
        }
        racy_seeds += 1;
        atomic.seed = seed;
        let fixed = idemlab_lab::run(&atomic).1;
        assert_eq!(
            fixed.duplicates, 0,
            "preset=race&dedup=atomic seed={seed}: {fixed:?}"
        );
    }
    assert!(
        racy_seeds > 100,
        "naive should race on many seeds, raced on {racy_seeds}"
    );
}

#[test]
fn two_concurrent_copies_of_one_key_produce_exactly_one_effect() {
    let mut blocked_runs = 0;
    for seed in 0..500 {
        let (trace, _) = run(&format!(
            "preset=race&dedup=atomic&provider=plain&seed={seed}"
        ));
        let blocked = trace.events.iter().any(|e| {
            e.kind
                == EventKind::Claim {
                    result: ClaimResult::Blocked,
                }
        });
        if !blocked {
            continue;
        }
        blocked_runs += 1;
        for order in 1..=3 {
            let effects = trace
                .events
                .iter()
                .filter(|e| {
                    e.order() == Some(order)
                        && matches!(e.kind, EventKind::Charge { replay: false, .. })
                })
                .count();
            assert!(effects <= 1, "seed={seed} order {order}: {effects} charges");
        }
    }
    assert!(
        blocked_runs > 50,
        "copies should overlap on the unique index often: {blocked_runs}"
    );
}

#[test]
fn memory_store_duplicates_after_an_api_restart_and_durable_does_not() {
    let memory = "preset=restart&store=memory&provider=plain";
    let durable = "preset=restart&store=durable&provider=plain";
    assert!(sweep(memory, 500).duplicates_total > 0);
    assert_eq!(
        first_failing(durable, seeds(2_000), |m| m.duplicates == 0),
        None,
        "{durable}"
    );
}

#[test]
fn attempt_key_behaves_like_no_dedup() {
    // Every attempt carries a fresh key, so every attempt that reaches the API charges.
    for query in [
        "preset=lost-ack&dedup=atomic&key=attempt",
        "preset=lost-ack&dedup=none",
    ] {
        let failure = first_failing(query, 1_000, |m| m.effects == m.received);
        assert_eq!(failure, None, "{query}");
    }
    assert!(sweep("preset=lost-ack&dedup=atomic&key=attempt", 200).duplicates_total > 0);
}

#[test]
fn constant_key_merges_orders_and_loses_work() {
    let query = "orders=4&dedup=atomic&key=constant";
    let failure = first_failing(query, 500, |m| m.lost >= 1 && m.effects < m.orders);
    assert_eq!(failure, None, "{query}: every run should merge orders");
    let (_, m) = run(query);
    assert_eq!(m.duplicates, 0, "a coarse key hides duplicates...");
    assert_eq!(m.lost, 3, "...by losing every order but the first: {m:?}");
}

#[test]
fn process_key_misses_a_rerun_and_business_key_catches_it() {
    let process = "preset=pod-rerun&key=process&provider=plain";
    let business = "preset=pod-rerun&key=business&provider=plain";
    assert_eq!(
        first_failing(process, 500, |m| m.duplicates > 0),
        None,
        "{process}"
    );
    assert_eq!(
        first_failing(business, seeds(2_000), |m| m.duplicates == 0),
        None,
        "{business}"
    );
}

#[test]
fn rerun_with_business_key_returns_the_first_charge_and_still_records_the_attempt() {
    let (trace, m) = run("preset=pod-rerun&key=business&provider=plain");
    assert_eq!(m.effects, 3);
    assert_eq!(
        m.received, m.attempts,
        "every attempt row is kept, duplicates included"
    );
    let replays = trace
        .events
        .iter()
        .filter(|e| {
            matches!(
                e.kind,
                EventKind::Reply {
                    status: 200,
                    replay: true
                }
            )
        })
        .count();
    assert_eq!(replays, 3, "each rerun order gets the first response back");
}

#[test]
fn pod_store_duplicates_after_the_ledger_pod_is_replaced() {
    let pod = "preset=ledger-replaced&store=pod&provider=plain";
    assert_eq!(first_failing(pod, 500, |m| m.duplicates > 0), None, "{pod}");
    // A durable store keeps every key. What is left is the replacement aborting a transaction
    // after its charge: a duplicate past the ledger's boundary, which leaves a charge the ledger
    // never recorded, and which a keyed provider absorbs.
    let durable = "preset=ledger-replaced&store=durable&provider=plain";
    let failure = first_failing(durable, seeds(2_000), |m| m.duplicates <= m.unrecorded);
    assert_eq!(failure, None, "{durable}");
    let keyed = "preset=ledger-replaced&store=durable&provider=keyed";
    assert_eq!(
        first_failing(keyed, seeds(2_000), |m| m.duplicates == 0),
        None,
        "{keyed}"
    );
}

#[test]
fn body_change_answers_422_and_applies_nothing() {
    let query = "preset=lost-ack&dedup=atomic&body_change=1";
    let mut rejected = 0;
    for seed in 0..300 {
        let (trace, m) = run(&format!("{query}&seed={seed}"));
        assert_eq!(m.duplicates, 0, "seed={seed}");
        let rejected_reqs: Vec<_> = (trace.events.iter())
            .filter(|e| matches!(e.kind, EventKind::Reply { status: 422, .. }))
            .map(|e| e.req())
            .collect();
        rejected += rejected_reqs.len();
        let applied_by_rejected = trace.events.iter().any(|e| {
            matches!(
                e.kind,
                EventKind::Charge { .. } | EventKind::LedgerRow { .. }
            ) && rejected_reqs.contains(&e.req())
        });
        assert!(
            !applied_by_rejected,
            "seed={seed}: a 422 request applied an effect"
        );
    }
    assert!(
        rejected > 100,
        "retries with a new body should be refused often: {rejected}"
    );
}

#[test]
fn set_is_naturally_idempotent_under_the_same_faults() {
    let charge = sweep("preset=lost-ack&op=charge", 300);
    let set = sweep("preset=lost-ack&op=set", 300);
    assert!(charge.duplicates_total > 0);
    assert_eq!(
        set.duplicates_total, 0,
        "repeating a set leaves the same state"
    );
    assert!(
        set.effects_total > set.orders_total,
        "the writes do repeat, harmlessly"
    );
}

#[test]
fn missing_key_is_refused_with_400_when_dedup_needs_one() {
    let (trace, m) = run("orders=2&dedup=atomic&key=none");
    assert_eq!(m.effects, 0);
    assert_eq!(m.outcomes.failed, 2);
    assert!(trace
        .events
        .iter()
        .any(|e| matches!(e.kind, EventKind::Reply { status: 400, .. })));
}

#[test]
fn event_cap_is_reported_not_hung() {
    let (trace, m) = run("orders=10000&retries=20&loss_req=0.9&events_max=1000");
    assert!(m.truncated && trace.truncated);
    assert!(m.events <= 1_000, "{}", m.events);
    assert_eq!(
        trace.events.last().map(|e| e.kind),
        Some(EventKind::CapReached)
    );
}

#[test]
fn counts_at_any_cursor_match_a_fold_of_the_prefix() {
    // The page's counters at the cursor come from MetricsIndex; they must be what folding the
    // first N events gives, across checkpoint boundaries.
    let (trace, _) = run("seed=5&preset=naive-vs-atomic&orders=600&events_max=1000000");
    let index = idemlab_lab::metrics::MetricsIndex::new(&trace);
    let len = trace.events.len();
    assert!(
        len > 3 * idemlab_lab::metrics::CHECKPOINT_EVENTS,
        "{len} events"
    );
    for count in [0, 1, 4_095, 4_096, 4_097, 9_000, len / 2, len - 1, len] {
        assert_eq!(
            index.at(&trace, count),
            idemlab_lab::Metrics::of_prefix(&trace, count),
            "count {count}"
        );
    }
}

/// The queue of Lesson A step 6: a charge that is booked once, then delivered at least once.
const QUEUE: &str = "orders=6&dedup=atomic&store=durable&key=business&consumer=plain&ack_loss=0.3";

#[test]
fn a_lost_ack_makes_the_queue_redeliver_and_a_plain_consumer_mail_twice() {
    let failure = first_failing(QUEUE, seeds(1_000), |m| {
        m.receipts == m.effects + m.duplicate_receipts && m.duplicates == m.duplicate_receipts
    });
    assert_eq!(failure, None, "every duplicate is a repeated receipt");
    let plain = sweep(QUEUE, 1_000);
    assert!(plain.duplicates_total > 0, "{plain:?}");
}

#[test]
fn an_inbox_consumer_mails_one_receipt_per_event_on_the_same_redeliveries() {
    let inbox = QUEUE.replace("consumer=plain", "consumer=inbox");
    let mut plain_s = scenario(QUEUE);
    let mut inbox_s = scenario(&inbox);
    for seed in 0..seeds(1_000) {
        (plain_s.seed, inbox_s.seed) = (seed, seed);
        let plain = idemlab_lab::run(&plain_s).1;
        let inboxed = idemlab_lab::run(&inbox_s).1;
        // The network's fates depend on the seed alone, so the same acks are lost.
        assert_eq!(plain.redeliveries, inboxed.redeliveries, "seed {seed}");
        assert_eq!(inboxed.receipts, inboxed.effects, "{inbox} seed {seed}");
        assert_eq!(inboxed.duplicates, 0, "{inbox} seed {seed}");
    }
}

/// Lesson A's crash step: an inbox consumer that dies once, after its first mail and before
/// its inbox row commits.
const CONSUMER_CRASH: &str =
    "orders=4&dedup=atomic&store=durable&key=business&consumer=inbox&consumer_crash=after-mail";

#[test]
fn a_consumer_crash_between_mail_and_commit_makes_an_inbox_mail_twice() {
    let failure = first_failing(CONSUMER_CRASH, seeds(1_000), |m| {
        m.duplicate_receipts == 1 && m.receipts == m.effects + 1 && m.duplicates == 1
    });
    assert_eq!(
        failure, None,
        "the rolled-back inbox row lets the redelivery mail again"
    );
    let (trace, _) = run(CONSUMER_CRASH);
    let crash = (trace.events.iter()).position(|e| {
        matches!(
            e.kind,
            EventKind::ConsumerCrash {
                event: 0,
                inbox: true
            }
        )
    });
    let receipts: Vec<usize> = (trace.events.iter().enumerate())
        .filter(|(_, e)| matches!(e.kind, EventKind::Receipt { event: 0, .. }))
        .map(|(ix, _)| ix)
        .collect();
    let crash = crash.expect("the consumer crashes after mailing e0");
    assert!(receipts.len() == 2 && receipts[0] < crash && crash < receipts[1]);
}

#[test]
fn a_keyed_mail_provider_mails_once_despite_the_consumer_crash() {
    let keyed = format!("{CONSUMER_CRASH}&mail=keyed");
    let failure = first_failing(&keyed, seeds(1_000), |m| {
        m.duplicate_receipts == 0 && m.receipts == m.effects && m.redeliveries >= 1
    });
    assert_eq!(
        failure, None,
        "the provider answers the repeat with its first send"
    );
    let (trace, _) = run(&keyed);
    let replays = (trace.events.iter())
        .filter(|e| matches!(e.kind, EventKind::MailReplay { event: 0, .. }))
        .count();
    assert_eq!(replays, 1, "{keyed}");
}

#[test]
fn without_the_crash_an_inbox_mails_once_even_on_redeliveries() {
    let query = CONSUMER_CRASH.replace("consumer_crash=after-mail", "ack_loss=0.3");
    let mut s = scenario(&query);
    let mut redelivered = 0;
    for seed in 0..seeds(1_000) {
        s.seed = seed;
        redelivered += idemlab_lab::run(&s).1.redeliveries;
    }
    assert!(redelivered > 0, "{query}: lost acks make redeliveries");
    let failure = first_failing(&query, seeds(1_000), |m| {
        m.duplicate_receipts == 0 && m.receipts == m.effects
    });
    assert_eq!(failure, None, "{query}");
}

#[test]
fn an_inbox_cannot_catch_a_duplicate_charge_made_upstream() {
    // Without API dedup a lost response makes a second charge, which the outbox publishes as a
    // second event with its own id: the inbox sees two different events and mails both.
    let query = "preset=lost-ack&dedup=none&consumer=inbox";
    let upstream = sweep(query, 200);
    assert!(upstream.duplicates_total > 0, "{upstream:?}");
    let failure = first_failing(query, seeds(200), |m| {
        m.duplicate_receipts == 0 && m.receipts == m.effects
    });
    assert_eq!(
        failure, None,
        "one receipt per charge, duplicate charges included"
    );
}

#[test]
fn the_queue_dead_letters_an_event_after_deliveries_max() {
    let query = "orders=3&consumer=plain&ack_loss=1&deliveries_max=4";
    let (trace, m) = run(query);
    assert_eq!(m.dead_letters, 3);
    assert_eq!(m.receipts, 12, "4 deliveries of each of 3 events");
    assert_eq!(m.redeliveries, 9);
    let last = trace.events.iter().rev().find(|e| {
        matches!(
            e.kind,
            EventKind::DeadLetter { .. } | EventKind::Redeliver { .. }
        )
    });
    assert!(matches!(
        last.map(|e| e.kind),
        Some(EventKind::DeadLetter { .. })
    ));
}

/// The id of the first message of `trace` whose payload `pick` accepts.
fn first_message(
    trace: &idemlab_core::trace::Trace,
    pick: impl Fn(&idemlab_core::trace::Payload) -> bool,
) -> u32 {
    trace
        .events
        .iter()
        .find_map(|e| match e.kind {
            EventKind::Send { msg, payload, .. } if pick(&payload) => Some(msg),
            _ => None,
        })
        .expect("the run sends such a message")
}

#[test]
fn dropping_the_first_answer_by_hand_makes_the_client_charge_again_unless_keys_are_checked() {
    use idemlab_core::trace::{DropCause, Payload};
    for seed in 1..=seeds(200) {
        let base = format!("seed={seed}&orders=1");
        let (trace, metrics) = run(&base);
        assert_eq!(metrics.effects, 1, "seed {seed}: no faults, one charge");
        let answer = first_message(&trace, |p| matches!(p, Payload::Response { .. }));
        let dropped = format!("{base}&drop={answer}");
        let (trace, metrics) = run(&dropped);
        let cause = trace.events.iter().find_map(|e| match e.kind {
            EventKind::Drop { msg, cause } if msg == answer => Some(cause),
            _ => None,
        });
        assert_eq!(cause, Some(DropCause::Chosen), "{dropped}");
        assert_eq!(metrics.effects, 2, "{dropped}: the retry charges again");
        let (_, fixed) = run(&format!("{dropped}&dedup=atomic"));
        assert_eq!(
            (fixed.effects, fixed.duplicates),
            (1, 0),
            "{dropped}&dedup=atomic"
        );
    }
}

#[test]
fn dropping_a_request_by_hand_costs_a_retry_and_no_charge() {
    use idemlab_core::trace::Payload;
    for seed in 1..=seeds(200) {
        let base = format!("seed={seed}&orders=1");
        let (trace, _) = run(&base);
        let request = first_message(&trace, |p| matches!(p, Payload::Request { .. }));
        let (_, metrics) = run(&format!("{base}&drop={request}"));
        assert_eq!((metrics.attempts, metrics.effects), (2, 1), "seed {seed}");
    }
}
