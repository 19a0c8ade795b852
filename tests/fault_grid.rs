//! The fault grid: seeds crossed with every fault the model has. The fixed configuration must
//! survive all of it; each wrong setting, taken alone, must be caught somewhere in it.
//! CI runs 17 faults × 700 seeds = 11,900 runs of the fix; `TEST_MODE=long` runs 100 times
//! that (1,190,000) and prints the totals.

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
        let m = idemlab::run(&s).1;
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
                let m = idemlab::run(&s).1;
                (m.duplicates > 0 || m.lost > 0).then(|| format!("{query}&seed={seed}"))
            })
        });
        assert!(
            caught.is_some(),
            "`{wrong}` did no harm anywhere in the grid"
        );
    }
}
