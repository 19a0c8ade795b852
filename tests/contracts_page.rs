//! The page's contracts table (issue 12, section 2), natively: the rows it builds in slices are
//! `idemlab contracts`'s for the same query and seeds, a row loads as run A or B, Stop keeps
//! what was summed, and a scenario change drops the table.

use idemlab::app::{self, contracts_view, differing, Msg, State};
use idemlab::contracts::table;
use idemlab::lessons::Side;
use idemlab::quiz::progress::Progress;
use idemlab::scenario::{codec, decode};
use idemlab::sweep::SeedRange;

const FAULTS: &str = "seed=3&orders=4&dedup=atomic&provider=keyed&loss_resp=0.3&provider_fail=0.3&retries=4&backoff_ms=30";

fn load(query: &str) -> State {
    State::load(query, &Progress::new())
}

/// What the browser's slices do: step the table, a few runs at a time, to its end.
fn build(state: &mut State, runs_per_slice: u64) {
    let table = state.contracts.as_mut().expect("a table was asked for");
    while table.busy() {
        table.job.step(runs_per_slice);
    }
}

fn started(query: &str, seeds: &str) -> State {
    let mut state = load(query);
    let effects = app::update(&mut state, Msg::ContractsStart(seeds.into()));
    assert!(effects.contracts_slice && effects.render, "{effects:?}");
    state
}

#[test]
fn the_page_table_is_the_cli_table_for_the_same_query_and_seeds() {
    let mut state = started(FAULTS, "12");
    let view = contracts_view(&state).expect("a table");
    assert!(view.busy, "nothing ran yet");
    assert!(view.note.contains(": `seed=3&"), "{}", view.note);
    assert!(
        view.note.contains("seeds 3..=14, 0 of 72 runs"),
        "{}",
        view.note
    );
    build(&mut state, 5);
    let query = state.contracts.as_ref().unwrap().query.clone();
    let cli = table(&query, SeedRange::parse("3..15").unwrap()).unwrap();
    assert_eq!(state.contracts.as_ref().unwrap().job.rows, cli);
    let view = contracts_view(&state).unwrap();
    assert!(!view.busy);
    assert!(view.note.ends_with("72 of 72 runs"), "{}", view.note);
    let names: Vec<&str> = view.rows.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "(none)",
            "stripe-v1",
            "ietf-draft",
            "powertools",
            "oasis",
            "sqs-fifo"
        ]
    );
    for ((_, counts), row) in view.rows.iter().zip(&cli) {
        let want = app::CONTRACT_COLUMNS.map(|c| row.count(c).unwrap());
        assert_eq!(*counts, want, "{:?}", row.contract);
    }
}

#[test]
fn the_table_runs_the_run_in_focus_while_comparing() {
    let mut state = load(&format!("{FAULTS}&compare=replay%3Dfinal&focus=b"));
    app::update(&mut state, Msg::ContractsStart("2".into()));
    let query = &state.contracts.as_ref().unwrap().query;
    assert!(query.contains("replay=final"), "{query}");
}

#[test]
fn a_row_loads_as_run_a_keeping_b_and_as_run_b_in_focus() {
    let mut state = started(&format!("{FAULTS}&compare=replay%3Dfinal"), "3");
    build(&mut state, 100);
    let b_before = state.page.compare_scenario().unwrap();
    let stripe = decode(&state.contracts.as_ref().unwrap().job.rows[1].scenario)
        .unwrap()
        .scenario;
    let effects = app::update(
        &mut state,
        Msg::ContractsLoad {
            row: 1,
            side: Side::A,
        },
    );
    assert!(effects.rerun);
    assert_eq!(state.page.scenario, stripe);
    assert!(codec::encode(&state.page.scenario).contains("contract=stripe-v1"));
    // B stays the same run: every key as it was (only the contract's label is not a key).
    let b_after = state.page.compare_scenario().unwrap();
    assert_eq!(differing(&b_after, &b_before), "", "B stays");
    assert!(state.contracts.is_some(), "the table stays");

    let oasis = decode(&state.contracts.as_ref().unwrap().job.rows[4].scenario)
        .unwrap()
        .scenario;
    app::update(
        &mut state,
        Msg::ContractsLoad {
            row: 4,
            side: Side::B,
        },
    );
    assert_eq!(state.page.scenario, stripe, "A stays");
    // B is A with the differing keys; only the contract's label is not a key.
    let b = state.page.compare_scenario().unwrap();
    assert_eq!(differing(&b, &oasis), "");
    assert_eq!(state.focus(), Side::B);
    assert!(state.contracts.is_some());
}

#[test]
fn stop_keeps_the_rows_summed_so_far_and_a_scenario_change_drops_the_table() {
    let mut state = started(FAULTS, "10");
    state.contracts.as_mut().unwrap().job.step(13);
    app::update(&mut state, Msg::SweepStop);
    let view = contracts_view(&state).unwrap();
    assert!(!view.busy);
    assert!(
        view.note.ends_with("13 of 60 runs (stopped)"),
        "{}",
        view.note
    );
    assert_eq!(view.rows.len(), 2, "one row summed, the second begun");
    app::update(&mut state, Msg::NewSeed(9));
    assert_eq!(contracts_view(&state), None);
}

#[test]
fn a_locked_embed_refuses_to_load_a_contract_unless_its_control_is_open() {
    let mut state = started(&format!("{FAULTS}&controls=seed"), "2");
    build(&mut state, 100);
    let before = state.page.scenario.clone();
    app::update(
        &mut state,
        Msg::ContractsLoad {
            row: 1,
            side: Side::A,
        },
    );
    assert_eq!(state.page.scenario, before);
    assert!(state.lock_note.as_deref().unwrap().contains("the contract"));
}

#[test]
fn runs_stepped_a_few_actions_at_a_time_give_the_cli_table() {
    // The page runs each of the table's runs in slices of actions (`sim::Stepper`), folds its
    // counts in slices of events (`metrics::IndexJob`) and adds them; any slicing ends with
    // `idemlab contracts`'s rows.
    let mut state = started(FAULTS, "4");
    let table = state.contracts.as_mut().unwrap();
    while let Some(scenario) = table.job.next() {
        let mut stepper = idemlab::sim::Stepper::new(&scenario);
        while !stepper.step(7).done {}
        let trace = stepper.finish();
        // The counts folded a few events at a time, as the page folds a long run's.
        let mut index = idemlab::metrics::IndexJob::new(&trace);
        while !index.step(&trace, 5) {}
        table
            .job
            .add(&index.finish().at(&trace, trace.events.len()));
    }
    assert!(!table.busy());
    let cli = table_of(&table.query, "3..7");
    assert_eq!(table.job.rows, cli);
}

fn table_of(query: &str, seeds: &str) -> Vec<idemlab::contracts::Row> {
    table(query, SeedRange::parse(seeds).unwrap()).unwrap()
}
