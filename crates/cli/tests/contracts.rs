//! Contracts (issue 12, section 2): each `contract=` profile checked against the rule README
//! says it encodes, on the trace; the order preset → contract → explicit keys; and the
//! side-by-side table against separate runs. Every failure names the query and the seed.

#[path = "../../lab/tests/common/mod.rs"]
mod common;

use common::{calls_after_a_500, check_trace, first_failing, replayed, run, scenario, seeds};
use idemlab_core::scenario::{codec, Concurrent, Contract, Expired, Handler, Replay};
use idemlab_core::trace::{ClaimResult, EventKind, Trace};
use idemlab_lab::contracts::{self, Row};
use idemlab_lab::sweep::SeedRange;

fn count(trace: &Trace, pick: impl Fn(&EventKind) -> bool) -> usize {
    trace.events.iter().filter(|e| pick(&e.kind)).count()
}

/// Provider failures and declines, and lost answers so that clients repeat what they got.
const FAILING: &str = "orders=6&provider=keyed&provider_fail=0.4&decline=0.3&loss_resp=0.4\
    &retries=4&backoff_ms=30";

// --- The codec: names, order, canonical form ---------------------------------------------

#[test]
fn contract_refuses_an_unknown_name_listing_every_contract() {
    let errors = codec::decode("contract=stripe").unwrap_err();
    let message = errors[0].to_string();
    for name in Contract::names() {
        assert!(message.contains(name), "{message}");
    }
    assert!(
        message.starts_with("`contract=stripe` is not valid"),
        "{message}"
    );
}

#[test]
fn the_preset_applies_first_then_the_contract_then_explicit_keys_wherever_they_stand() {
    // key-expiry sets retention_ms=150; oasis sets 300000; the explicit key sets 150 again.
    for query in [
        "preset=key-expiry&contract=oasis",
        "contract=oasis&preset=key-expiry",
    ] {
        assert_eq!(scenario(query).retention_ms, 300_000, "{query}");
    }
    for query in [
        "retention_ms=150&contract=oasis&preset=key-expiry",
        "contract=oasis&preset=key-expiry&retention_ms=150",
    ] {
        let s = scenario(query);
        assert_eq!(
            (s.retention_ms, s.expired, s.replay),
            (150, Expired::Reject, Replay::Final),
            "{query}"
        );
    }
}

#[test]
fn a_contract_round_trips_through_the_canonical_form() {
    for name in Contract::names() {
        for extra in ["", "&replay=final", "&dedup=none", "&preset=race"] {
            let query = format!("seed=3&contract={name}{extra}");
            let s = scenario(&query);
            let canonical = codec::encode(&s);
            assert!(
                canonical.contains(&format!("contract={name}")),
                "{canonical}"
            );
            assert_eq!(scenario(&canonical), s, "{query} → {canonical}");
        }
    }
}

#[test]
fn without_a_contract_nothing_changes() {
    assert_eq!(
        scenario("seed=1"),
        idemlab_core::scenario::Scenario::default()
    );
    assert_eq!(
        codec::encode(&scenario("preset=race")),
        "seed=1&preset=race"
    );
}

// --- Each profile's documented rule, on the trace ------------------------------------------

#[test]
fn under_stripe_v1_a_repeat_of_a_500_gets_the_same_500_and_charges_nothing() {
    let query = format!("{FAILING}&contract=stripe-v1");
    let mut replays = 0;
    for seed in 0..seeds(300) {
        let q = format!("{query}&seed={seed}");
        let (trace, m) = run(&q);
        assert_eq!(calls_after_a_500(&trace), 0, "{q}");
        assert_eq!(m.duplicates, 0, "{q}");
        replays += replayed(&trace, 500);
    }
    assert!(replays > 100, "{query}: {replays}");
}

#[test]
fn under_stripe_v1_and_the_ietf_draft_a_concurrent_copy_is_answered_409_at_once() {
    for name in ["stripe-v1", "ietf-draft"] {
        let query = format!("preset=race&provider=keyed&contract={name}");
        let s = scenario(&query);
        assert_eq!(s.concurrent, Concurrent::Conflict);
        let mut in_use = 0;
        for seed in 0..seeds(300) {
            let q = format!("{query}&seed={seed}");
            let (trace, m) = run(&q);
            assert_eq!((m.duplicates, m.lost), (0, 0), "{q}");
            in_use += count(&trace, |k| {
                *k == EventKind::Claim {
                    result: ClaimResult::InUse,
                }
            });
        }
        assert!(in_use > 100, "{query}: {in_use}");
    }
}

#[test]
fn under_the_ietf_draft_a_completed_key_returns_its_stored_result_success_or_error() {
    let query = format!("{FAILING}&contract=ietf-draft");
    let (mut errors, mut successes) = (0, 0);
    for seed in 0..seeds(300) {
        let (trace, _) = run(&format!("{query}&seed={seed}"));
        errors += replayed(&trace, 500) + replayed(&trace, 402);
        successes += replayed(&trace, 200);
    }
    assert!(errors > 100 && successes > 100, "{errors} {successes}");
}

#[test]
fn under_the_ietf_draft_a_request_without_a_key_is_answered_400_and_charges_nothing() {
    // The draft's missing-key rule is modelled: atomic dedup needs a key, so the lookup answers
    // 400, and the client takes a 400 as final.
    let query = "orders=3&key=none&loss_resp=0.3&contract=ietf-draft";
    for seed in 0..seeds(100) {
        let q = format!("{query}&seed={seed}");
        let (trace, m) = run(&q);
        let answers: Vec<u16> = (trace.events.iter())
            .filter_map(|e| match e.kind {
                EventKind::Reply { status, .. } => Some(status),
                _ => None,
            })
            .collect();
        assert!(!answers.is_empty(), "{q}: no answer");
        assert!(
            answers.iter().all(|&status| status == 400),
            "{q}: {answers:?}"
        );
        assert_eq!((m.effects, m.outcomes.ok), (0, 0), "{q}");
    }
}

#[test]
fn under_oasis_a_500_runs_again_a_402_is_replayed_and_an_expired_key_is_refused_412() {
    let query = format!("{FAILING}&contract=oasis");
    let (mut ran_again, mut replayed_402) = (0, 0);
    for seed in 0..seeds(300) {
        let q = format!("{query}&seed={seed}");
        let (trace, m) = run(&q);
        assert_eq!(replayed(&trace, 500), 0, "{q}");
        assert_eq!(m.duplicates, 0, "{q}");
        ran_again += calls_after_a_500(&trace);
        replayed_402 += replayed(&trace, 402);
    }
    assert!(
        ran_again > 100 && replayed_402 > 10,
        "{ran_again} {replayed_402}"
    );

    assert_eq!(scenario("contract=oasis").retention_ms, 300_000);
    let expiring = "preset=key-expiry&contract=oasis&retention_ms=150";
    let failure = first_failing(expiring, seeds(300), |m| {
        m.rejected_expired > 0 && m.duplicates == 0
    });
    assert_eq!(failure, None, "{expiring}");
}

#[test]
fn under_powertools_an_in_progress_claim_is_taken_over_after_its_lease() {
    let s = scenario("contract=powertools");
    assert_eq!(
        (s.handler, s.lease_ms, s.retention_ms),
        (Handler::Phased, Some(200), 3_600_000)
    );
    // The API crashes after the charge: the committed claim stays in progress until its lease
    // runs out, then the client's retry takes it over; the keyed provider returns the charge.
    let query = "preset=outside-boundary&provider=keyed&contract=powertools";
    let failure = first_failing(query, seeds(300), |m| {
        m.takeovers == 1 && m.duplicates == 0 && m.unrecorded == 0 && m.lost == 0
    });
    assert_eq!(failure, None, "{query}");
}

#[test]
fn under_powertools_a_failure_deletes_the_record_so_the_call_runs_again() {
    let query = format!("{FAILING}&contract=powertools");
    let mut ran_again = 0;
    for seed in 0..seeds(300) {
        let q = format!("{query}&seed={seed}");
        let (trace, m) = run(&q);
        assert_eq!(m.replayed_failures, 0, "{q}");
        ran_again += calls_after_a_500(&trace);
    }
    assert!(ran_again > 100, "{query}: {ran_again}");
}

#[test]
fn under_sqs_fifo_a_charge_published_twice_within_5_minutes_is_delivered_once() {
    // Under `race` with a keyed provider, the ledger can book one charge twice, so its event
    // is published twice; the broker keeps the second out.
    let query = "preset=race&provider=keyed&contract=sqs-fifo";
    let mut kept_out = 0;
    for seed in 0..seeds(300) {
        let q = format!("{query}&seed={seed}");
        let (trace, m) = run(&q);
        check_trace(&trace).unwrap_or_else(|e| panic!("{q}: {e}"));
        assert_eq!(m.duplicate_receipts, 0, "{q}");
        kept_out += count(&trace, |k| matches!(k, EventKind::BrokerDedup { .. }));
    }
    assert!(kept_out > 100, "{query}: {kept_out}");
}

#[test]
fn under_sqs_fifo_an_unacknowledged_event_still_reaches_a_plain_consumer_again() {
    // The broker's window is on publishing, not on redelivery: only an inbox stops these.
    let query = "orders=6&contract=sqs-fifo&ack_loss=0.5";
    let redelivered = first_failing(query, seeds(100), |m| m.duplicate_receipts == 0);
    assert!(redelivered.is_some(), "{query}");
    let inbox = format!("{query}&consumer=inbox");
    let failure = first_failing(&inbox, seeds(100), |m| m.duplicate_receipts == 0);
    assert_eq!(failure, None, "{inbox}");
}

// --- The table ---------------------------------------------------------------------------

const FAULT: &str = "preset=lost-ack&provider_fail=0.2&consumer=plain&ack_loss=0.3";

fn range(first: u64, count: u64) -> SeedRange {
    SeedRange { first, count }
}

#[test]
fn the_table_has_no_contract_first_then_every_contract_in_order() {
    let rows = contracts::table(FAULT, range(0, 2)).unwrap();
    let names: Vec<Option<&str>> = rows.iter().map(|r| r.contract).collect();
    let mut expected = vec![None];
    expected.extend(Contract::names().map(Some));
    assert_eq!(names, expected);
}

#[test]
fn each_row_adds_up_the_runs_of_its_contract_seed_by_seed() {
    let seeds = range(5, 40);
    let rows = contracts::table(FAULT, seeds).unwrap();
    for row in &rows {
        let contract = row
            .contract
            .map_or(String::new(), |n| format!("&contract={n}"));
        let mut s = scenario(&format!("{FAULT}{contract}"));
        let mut sum = Row {
            contract: row.contract,
            scenario: row.scenario.clone(),
            runs: seeds.count,
            ..Row::default()
        };
        for seed in seeds.first..seeds.first + seeds.count {
            s.seed = seed;
            let m = idemlab_lab::run(&s).1;
            sum.orders += u64::from(m.orders);
            sum.effects += u64::from(m.effects);
            sum.duplicates += u64::from(m.duplicates);
            sum.lost += u64::from(m.lost);
            sum.conflicts += u64::from(m.conflicts);
            sum.takeovers += u64::from(m.takeovers);
            sum.replayed_failures += u64::from(m.replayed_failures);
            sum.rejected_expired += u64::from(m.rejected_expired);
            sum.unrecorded += u64::from(m.unrecorded);
            sum.refunds += u64::from(m.refunds);
            sum.duplicate_receipts += u64::from(m.duplicate_receipts);
            sum.lost_events += u64::from(m.lost_events);
        }
        assert_eq!(*row, sum, "{FAULT}{contract}");
    }
    // The contracts tell this fault apart.
    let dups: Vec<u64> = rows.iter().map(|r| r.duplicates).collect();
    assert!(dups.iter().any(|&d| d != dups[0]), "{dups:?}");
}

#[test]
fn the_table_equals_separate_idemlab_run_totals() {
    let seeds = range(0, 3);
    let rows = contracts::table(FAULT, seeds).unwrap();
    for row in &rows {
        let contract = row
            .contract
            .map_or(String::new(), |n| format!("&contract={n}"));
        let mut totals = std::collections::BTreeMap::<idemlab_lab::Metric, u64>::new();
        for seed in 0..seeds.count {
            let query = format!("{FAULT}{contract}&seed={seed}");
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_idemlab"))
                .args(["run", &query])
                .output()
                .expect("the idemlab binary runs");
            assert!(out.status.success(), "idemlab run {query}");
            let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
            for column in contracts::COLUMNS {
                *totals.entry(column).or_default() += json[column.name()].as_u64().unwrap();
            }
        }
        for column in contracts::COLUMNS {
            assert_eq!(
                row.count(column),
                Some(totals[&column]),
                "{FAULT}{contract}: {column}"
            );
        }
    }
}

#[test]
fn the_querys_own_contract_is_replaced_and_its_explicit_keys_still_win() {
    let query = "orders=6&provider=keyed&provider_fail=0.4&contract=oasis&replay=final";
    let rows = contracts::table(query, range(0, 30)).unwrap();
    let stripe = rows
        .iter()
        .find(|r| r.contract == Some("stripe-v1"))
        .unwrap();
    assert!(
        stripe.scenario.contains("contract=stripe-v1"),
        "{}",
        stripe.scenario
    );
    assert!(
        stripe.scenario.contains("replay=final"),
        "{}",
        stripe.scenario
    );
    assert_eq!(stripe.replayed_failures, 0, "replay=final re-runs a 500");
    assert!(
        !rows[0].scenario.contains("contract="),
        "{}",
        rows[0].scenario
    );
}

#[test]
fn a_bad_query_is_refused_with_every_problem() {
    let errors = contracts::table("retries=99&contract=nope", range(0, 1)).unwrap_err();
    assert!(errors.iter().any(|e| e.key == "retries"), "{errors:?}");
}

#[test]
fn the_markdown_table_has_a_line_per_contract() {
    let rows = contracts::table(FAULT, range(0, 2)).unwrap();
    let md = contracts::markdown(&rows);
    assert_eq!(md.lines().count(), 2 + rows.len());
    assert!(
        md.contains("| (none) |") && md.contains("| `sqs-fifo` |"),
        "{md}"
    );
}

#[test]
fn the_table_built_in_slices_equals_the_table_in_one_go() {
    let seeds = range(3, 7);
    let whole = contracts::table(FAULT, seeds).unwrap();
    for slice in [1, 2, 6, 7, 8, 41, 42, 1_000] {
        let mut job = contracts::TableJob::new(FAULT, seeds).unwrap();
        let mut steps = 0;
        while !job.step(slice) {
            steps += 1;
            assert!(steps <= 42, "slice {slice}: runs past the 42 runs");
        }
        assert!(job.step(slice), "a finished job stays finished");
        assert_eq!(job.rows, whole, "slice {slice}");
    }
}
