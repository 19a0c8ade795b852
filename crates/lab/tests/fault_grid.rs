//! The fault grid: seeds crossed with every fault the model has. The fixed configuration must
//! survive all of it; each wrong setting, taken alone, must be caught somewhere in it.
//! CI runs 17 faults × 700 seeds = 11,900 runs of the fix; `TEST_MODE=long` runs 100 times
//! that (1,190,000) and prints the totals. Issue 12's production configuration runs the same
//! grid and 8 more faults (25 × 700 = 17,500 runs, 1,750,000 in long mode).

mod common;

use common::{long_mode, overlay, scenario};

/// Every fault, one per cell, over a small workload with retries that outlast the faults.
const FAULTS: [&str; 17] = [
    "loss_req=0.3",
    "loss_resp=0.3",
    "partition=0..400",
    "crash=api@after-begin",
    "crash=api@after-lookup",
    "crash=api@after-claim",
    "crash=api@after-effect",
    "crash=api@after-commit",
    "crash=api@after-respond",
    "crash=api@120&restart_ms=80",
    "replace_db_ms=150",
    "rerun_ms=250",
    "rerun_ms=60&clients=2",
    "timeout_ms=45&backoff_ms=5",
    "body_change=1&loss_resp=0.5",
    "clients=3&orders=6&loss_resp=0.2",
    "ack_loss=0.3&loss_resp=0.2",
];

const BASE: &str = "orders=4&retries=6&backoff_ms=30&timeout_ms=200";
const FIXED: &str =
    "dedup=atomic&store=durable&key=business&provider=keyed&retention_ms=604800000&consumer=inbox";

/// Each wrong setting alone, over the fix.
const WRONG: [&str; 10] = [
    "dedup=none",
    "dedup=naive",
    "store=memory&provider=plain",
    "store=pod&provider=plain",
    "key=attempt",
    "key=process",
    "key=constant",
    "provider=plain",
    "retention_ms=100",
    "consumer=plain",
];

fn seeds() -> u64 {
    if long_mode() {
        70_000
    } else {
        700
    }
}

#[derive(Default, Debug)]
struct Totals {
    runs: u64,
    duplicates: u64,
    lost: u64,
    events: u64,
}

fn sweep_cell(query: &str, seeds: u64, totals: &mut Totals) -> Option<u64> {
    let mut s = scenario(query);
    let mut first_bad = None;
    for seed in 0..seeds {
        s.seed = seed;
        let m = idemlab_lab::run(&s).1;
        totals.runs += 1;
        totals.duplicates += u64::from(m.duplicates);
        totals.lost += u64::from(m.lost);
        totals.events += u64::from(m.events);
        if (m.duplicates > 0 || m.lost > 0) && first_bad.is_none() {
            first_bad = Some(seed);
        }
    }
    first_bad
}

#[test]
fn the_fix_survives_every_fault_in_the_grid() {
    let mut totals = Totals::default();
    for fault in FAULTS {
        let query = overlay(&[BASE, FIXED, fault]);
        let bad = sweep_cell(&query, seeds(), &mut totals);
        assert_eq!(bad, None, "{query}: the seed that broke the fix");
    }
    if long_mode() {
        println!("fault grid, fixed configuration: {totals:?}");
    }
    assert!(totals.runs >= 11_900, "{totals:?}");
}

#[test]
fn each_wrong_setting_alone_is_caught_somewhere_in_the_grid() {
    for wrong in WRONG {
        let caught = FAULTS.iter().find_map(|fault| {
            let query = overlay(&[BASE, FIXED, fault, wrong]);
            let mut s = scenario(&query);
            (0..200).find_map(|seed| {
                s.seed = seed;
                let m = idemlab_lab::run(&s).1;
                (m.duplicates > 0 || m.lost > 0).then(|| format!("{query}&seed={seed}"))
            })
        });
        assert!(
            caught.is_some(),
            "`{wrong}` did no harm anywhere in the grid"
        );
    }
}

// --- Issue 12: the production configuration over the grid and the new faults -------------

/// The faults issue 12 added, each one cell, beside every fault above.
const PRODUCTION_FAULTS: [&str; 8] = [
    "loss_provider=0.3",
    "loss_provider=0.3&crash=api@after-claim",
    "provider_fail=0.3&loss_resp=0.3",
    "decline=0.3&loss_resp=0.3",
    "restart_db_ms=150",
    "restart_db_ms=100&replace_db_ms=300",
    "clients=3&orders=6&concurrent=conflict",
    "tenants=3&orders=9&loss_resp=0.3",
];

/// The production configuration: the phased handler with a lease longer than any live copy's
/// work here, a keyed provider, result lookup, reconciliation once the work has settled, the
/// business key scoped per tenant (two tenants, so scope matters), a durable store, and the
/// outbox relay with an inbox.
const PRODUCTION: &str = "dedup=atomic&handler=phased&lease_ms=400&provider=keyed&lookup=on\
    &reconcile_ms=3600000&key=business&scope=tenant&tenants=2&store=durable\
    &retention_ms=604800000&relay=outbox&consumer=inbox";

fn production_faults() -> impl Iterator<Item = &'static str> {
    FAULTS.into_iter().chain(PRODUCTION_FAULTS)
}

/// Whether the production configuration answers every order of a cell: all but those where a
/// client may rightly end without an answer (a random loss takes every attempt's request or
/// answer, a 500 is replayed, a changed body is refused).
fn answered(fault: &str) -> bool {
    !["loss", "provider_fail", "body_change"]
        .iter()
        .any(|key| fault.contains(key))
}

/// What a production run must never show: a duplicate (even one the reconciliation refunds: the
/// customer was charged twice), lost work, a charge the ledger never recorded, an event never
/// published, or, in an `answered` cell, an order left unknown (a claim stuck in progress);
/// `None` when the run is clean.
fn harm(m: &idemlab_lab::Metrics, answered: bool) -> Option<String> {
    let stuck = if answered { m.outcomes.unknown } else { 0 };
    let counts = [m.duplicates, m.lost, m.unrecorded, m.lost_events, stuck];
    (counts.iter().any(|&n| n > 0)).then(|| {
        format!(
            "{} duplicates ({} refunded), {} lost, {} unrecorded, {} events lost, {stuck} orders left unknown",
            m.duplicates, m.refunds, m.lost, m.unrecorded, m.lost_events
        )
    })
}

#[test]
fn the_production_configuration_survives_every_fault_in_the_grid() {
    // Stronger than "no duplicate left unrefunded": no duplicate at all, so the reconciliation
    // never has one to refund; and every order answered where nothing loses the answer.
    let mut runs = 0u64;
    for fault in production_faults() {
        let query = overlay(&[BASE, PRODUCTION, fault]);
        let mut s = scenario(&query);
        for seed in 0..seeds() {
            s.seed = seed;
            let m = idemlab_lab::run(&s).1;
            runs += 1;
            if let Some(harm) = harm(&m, answered(fault)) {
                panic!("{query}&seed={seed}: {harm}");
            }
        }
    }
    if long_mode() {
        println!("fault grid, production configuration: {runs} runs, all clean");
    }
    assert!(runs >= 17_500, "{runs}");
}

/// The first run in the grid where `wrong`, over the production configuration, does harm.
fn production_caught(wrong: &str) -> Option<String> {
    production_faults().find_map(|fault| {
        let query = overlay(&[BASE, PRODUCTION, fault, wrong]);
        let mut s = scenario(&query);
        (0..200).find_map(|seed| {
            s.seed = seed;
            let m = idemlab_lab::run(&s).1;
            harm(&m, answered(fault)).map(|harm| format!("{query}&seed={seed}: {harm}"))
        })
    })
}

macro_rules! production_wrong {
    ($($name:ident: $wrong:literal,)*) => {$(
        #[test]
        fn $name() {
            let caught = production_caught($wrong);
            assert!(caught.is_some(), "`{}` did no harm anywhere in the grid", $wrong);
            println!("`{}` caught: {}", $wrong, caught.unwrap_or_default());
        }
    )*};
}

production_wrong! {
    production_with_dedup_none_is_caught: "dedup=none",
    production_with_dedup_naive_is_caught: "dedup=naive",
    production_with_store_memory_is_caught: "store=memory",
    production_with_key_attempt_is_caught: "key=attempt",
    production_with_key_process_is_caught: "key=process",
    production_with_key_constant_is_caught: "key=constant",
    production_with_scope_global_is_caught: "scope=global",
    production_with_no_lease_is_caught: "lease_ms=none",
    production_with_a_lease_shorter_than_the_work_is_caught: "lease_ms=1",
    production_with_no_reconciliation_is_caught: "reconcile_ms=none",
    production_with_reconciliation_before_the_work_settled_is_caught: "reconcile_ms=100",
    production_with_relay_direct_is_caught: "relay=direct",
    production_with_consumer_plain_is_caught: "consumer=plain",
    production_with_retention_shorter_than_the_retries_is_caught: "retention_ms=100",
    // The keyed provider and result lookup each answer a repeated charge call, so dropping both
    // is the wrong setting at the provider (each alone is covered: below).
    production_with_neither_a_keyed_provider_nor_lookup_is_caught: "provider=plain&lookup=off",
}

/// Defences the production configuration has twice: the keyed provider and result lookup each
/// stop a repeated charge, so either alone (or a pod store, whose lost keys only let a repeat
/// reach them) does no harm; and `handler=txn` is the textbook fix, not a wrong setting. Checked
/// so that the wrong settings above stay the ones that matter.
#[test]
fn a_defence_the_production_configuration_has_twice_may_go_alone() {
    for setting in ["provider=plain", "lookup=off", "store=pod", "handler=txn"] {
        assert_eq!(production_caught(setting), None, "{setting}");
    }
}
