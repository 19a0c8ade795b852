//! The heaviest in-bounds run (issue 10): a search over the bounds, at CI size, finds no run
//! whose work is over the budget. Work is counted, not timed, so the test cannot flake on a
//! busy machine; `scripts/bench.sh` prints the wall-clock figure.

mod common;

use common::long_mode;
use idemlab_core::scenario::codec::key_names;
use idemlab_core::scenario::decode;
use idemlab_lab::heaviest::{search, work, Config, KNOBS, STARTS, WORK_MAX, WORST_QUERY};

#[test]
fn the_heaviest_run_found_stays_within_the_work_budget() {
    let config = Config {
        seed: 10,
        restarts: if long_mode() { 20 } else { 1 },
        moves: if long_mode() { 60 } else { 3 },
    };
    let found = search(config, work);
    if long_mode() {
        println!(
            "heaviest by work: {} units after {} runs: {}",
            found.cost, found.evaluations, found.query
        );
    }
    assert!(
        found.cost <= WORK_MAX,
        "{} units of work, over {WORK_MAX}: {}",
        found.cost,
        found.query
    );
    // The climb starts from the known corners, so it is at least as heavy as the worst of them.
    let corners = STARTS.iter().map(|q| work(&decode(q).unwrap().scenario));
    assert!(found.cost >= corners.max().unwrap());
}

#[test]
fn the_readme_heaviest_run_reaches_the_cap_within_the_budget() {
    let scenario = decode(WORST_QUERY).expect("decodes").scenario;
    let (trace, _) = idemlab_lab::run(&scenario);
    assert!(trace.truncated, "the heaviest run is stopped by its cap");
    let units = work(&scenario);
    assert!(units > 1_000_000 && units <= WORK_MAX, "{units}");
}

#[test]
fn the_search_covers_every_scenario_key_that_can_make_work() {
    // `drop` names messages by id, which a search over bounds cannot aim at; `preset` and
    // `contract` are bundles of the keys searched one by one.
    let searched: Vec<&str> = KNOBS.iter().map(|(key, _)| *key).collect();
    for key in key_names().filter(|k| !["drop", "preset", "contract"].contains(k)) {
        assert!(searched.contains(&key), "`{key}` is not in the search");
    }
}
