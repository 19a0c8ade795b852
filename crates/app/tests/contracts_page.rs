//! The page's contracts table, natively: the rows it builds in slices are
//! `idemlab contracts`'s for the same query and seeds, a row loads as run A or B, Stop keeps
//! what was summed, and a scenario change drops the table.

use idemlab_app::{self as app, contracts_view, differing, Msg, State};
use idemlab_app::{ContractsMsg, ScenarioMsg, SweepMsg};
use idemlab_core::scenario::{codec, decode, Contract};
use idemlab_course::quiz::progress::Progress;
use idemlab_lab::contracts::table;
use idemlab_lab::run;
use idemlab_lab::sweep::SeedRange;
use idemlab_lab::Side;

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
    let effects = app::update(
        &mut state,
        Msg::Contracts(ContractsMsg::Start(seeds.into())),
    );
    assert!(effects.work && effects.render, "{effects:?}");
    state
}

#[test]
fn the_page_table_is_the_cli_table_for_the_same_query_and_seeds() {
    let mut state = started(FAULTS, "12");
    let view = contracts_view(&state).expect("a table");
    assert!(view.busy, "nothing ran yet");
    assert!(!view.note.contains('`'), "no raw backticks: {}", view.note);
    assert!(
        view.note.contains("Sums over seeds 3..=14, 0 of 72 runs;"),
        "{}",
        view.note
    );
    // The exact command that prints these rows: the CLI's default seeds are 0..100.
    let query = &state.contracts.as_ref().unwrap().query;
    assert_eq!(
        view.command,
        format!("idemlab contracts '{query}' --seeds 3..=14")
    );
    build(&mut state, 5);
    let query = state.contracts.as_ref().unwrap().query.clone();
    let cli = table(&query, SeedRange::parse("3..15").unwrap()).unwrap();
    assert_eq!(state.contracts.as_ref().unwrap().job.rows, cli);
    let view = contracts_view(&state).unwrap();
    assert!(!view.busy);
    assert!(view.note.contains(", 72 of 72 runs;"), "{}", view.note);
    let names: Vec<&str> = view.rows.iter().map(|row| row.name.as_str()).collect();
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
    for (shown, row) in view.rows.iter().zip(&cli) {
        let counts = &shown.counts;
        let want = app::CONTRACT_COLUMNS.map(|c| row.count(c).unwrap());
        assert_eq!(*counts, want, "{:?}", row.contract);
    }
}

#[test]
fn the_table_shows_every_count_the_cli_has_but_effects_in_its_order() {
    // sqs-fifo's duplicates were unexplained on the page: its duplicate receipts (a queue's
    // repeats, which `duplicates` includes) had no column, nor takeovers or lost events.
    let cli: Vec<idemlab_lab::Metric> = (idemlab_lab::contracts::COLUMNS.into_iter())
        .filter(|c| *c != idemlab_lab::Metric::Effects)
        .collect();
    assert_eq!(app::CONTRACT_COLUMNS.as_slice(), cli.as_slice());
    // Each column is headed with its counter's label, as the run's cards show it.
    let html =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/index.html"))
            .unwrap();
    let at = html.find("id=\"table-contracts\"").unwrap();
    let head = &html[at..at + html[at..].find("</thead>").unwrap()];
    let scenario = decode(FAULTS).unwrap().scenario;
    let shown: Vec<&str> = (head.split("</th>").filter_map(|th| th.rsplit('>').next()))
        .filter(|label| !label.is_empty())
        .collect();
    let want: Vec<&str> = std::iter::once("contract")
        .chain(app::CONTRACT_COLUMNS.map(|c| app::counter_label(c, &scenario)))
        .chain(["load as"])
        .collect();
    assert_eq!(shown, want);
    assert_eq!(
        head.matches(" title=\"").count(),
        10,
        "each count explained"
    );
}

#[test]
fn no_contract_sets_the_provider_or_result_lookup_as_the_caption_says() {
    for contract in Contract::ALL {
        for pair in contract.keys().split('&') {
            let key = pair.split('=').next().unwrap();
            assert!(
                !["provider", "lookup"].contains(&key),
                "{}",
                contract.name()
            );
        }
    }
    let state = started(FAULTS, "2");
    let note = contracts_view(&state).unwrap().note;
    assert!(
        note.contains("No contract turns on result lookup or a keyed provider: every row keeps provider=keyed and lookup=off."),
        "{note}"
    );
    assert!(note.contains("none overrode a contract's here"), "{note}");
}

#[test]
fn the_table_runs_the_run_in_focus_while_comparing() {
    let mut state = load(&format!("{FAULTS}&compare=replay%3Dfinal&focus=b"));
    app::update(&mut state, Msg::Contracts(ContractsMsg::Start("2".into())));
    let query = &state.contracts.as_ref().unwrap().query;
    assert!(query.contains("replay=final"), "{query}");
    // The caption says which of the scenario's keys won over a contract's.
    assert_eq!(
        app::overrides(query),
        [(
            "replay=final".to_string(),
            vec!["stripe-v1", "ietf-draft", "powertools"]
        )]
    );
    let note = contracts_view(&state).unwrap().note;
    assert!(
        note.contains(
            "its own keys winning (here replay=final overrode stripe-v1, ietf-draft, powertools)."
        ),
        "{note}"
    );
}

#[test]
fn the_caption_says_a_scenario_contract_is_replaced() {
    let state = started(&format!("{FAULTS}&contract=oasis&retention_ms=1000"), "1");
    let note = contracts_view(&state).unwrap().note;
    assert!(
        note.contains("(here retention_ms=1000 overrode stripe-v1, powertools, oasis; its own contract=oasis is replaced)"),
        "{note}"
    );
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
        Msg::Contracts(ContractsMsg::Load {
            row: 1,
            side: Side::A,
        }),
    );
    assert!(effects.rerun);
    assert_eq!(state.page.scenario, stripe);
    assert!(codec::encode(&state.page.scenario).contains("contract=stripe-v1"));
    // B stays the same run: every key as it was (B had no contract to name: it keeps A's
    // label, which is not a key).
    let b_after = state.page.compare_scenario().unwrap();
    assert_eq!(differing(&b_after, &b_before), "", "B stays");
    assert!(state.contracts.is_some(), "the table stays");

    let oasis = decode(&state.contracts.as_ref().unwrap().job.rows[4].scenario)
        .unwrap()
        .scenario;
    app::update(
        &mut state,
        Msg::Contracts(ContractsMsg::Load {
            row: 4,
            side: Side::B,
        }),
    );
    assert_eq!(state.page.scenario, stripe, "A stays");
    // B is A under oasis, named so in the URL and the title, with nothing else to add here.
    assert_eq!(state.page.compare.as_deref(), Some("contract=oasis"));
    assert_eq!(app::title(&state, Side::B), "B: A with contract=oasis");
    let b = state.page.compare_scenario().unwrap();
    assert_eq!(b, oasis);
    assert_eq!(state.focus(), Side::B);
    // The compare line names both contracts.
    let (a, b) = (run(&state.page.scenario).1, run(&b).1);
    let line = app::compare_sentence(&state, &a, &b).unwrap();
    assert!(line.starts_with("contract=stripe-v1: "), "{line}");
    assert!(line.contains(" → contract=oasis: "), "{line}");
    // Loading A again keeps B's contract named.
    app::update(
        &mut state,
        Msg::Contracts(ContractsMsg::Load {
            row: 2,
            side: Side::A,
        }),
    );
    assert_eq!(state.page.compare.as_deref(), Some("contract=oasis"));
    assert_eq!(state.page.compare_scenario().unwrap(), oasis);
    assert!(state.contracts.is_some());
}

#[test]
fn stop_keeps_the_rows_summed_so_far_and_a_scenario_change_drops_the_table() {
    let mut state = started(FAULTS, "10");
    state.contracts.as_mut().unwrap().job.step(13);
    app::update(&mut state, Msg::Sweep(SweepMsg::Stop));
    let view = contracts_view(&state).unwrap();
    assert!(!view.busy);
    assert!(
        view.note.contains(", 13 of 60 runs (stopped);"),
        "{}",
        view.note
    );
    assert_eq!(view.rows.len(), 2, "one row summed, the second begun");
    app::update(&mut state, Msg::Scenario(ScenarioMsg::NewSeed(9)));
    assert_eq!(contracts_view(&state), None);
}

#[test]
fn a_locked_embed_refuses_to_load_a_contract_unless_its_control_is_open() {
    let mut state = started(&format!("{FAULTS}&controls=seed"), "2");
    build(&mut state, 100);
    let before = state.page.scenario.clone();
    app::update(
        &mut state,
        Msg::Contracts(ContractsMsg::Load {
            row: 1,
            side: Side::A,
        }),
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
        let mut stepper = idemlab_core::sim::Stepper::new(&scenario);
        while !stepper.step(7).done {}
        let trace = stepper.finish();
        // The counts folded a few events at a time, as the page folds a long run's.
        let mut index = idemlab_lab::metrics::IndexJob::new(&trace);
        while !index.step(&trace, 5) {}
        table
            .job
            .add(&index.finish().at(&trace, trace.events.len()));
    }
    assert!(!table.busy());
    let cli = table_of(&table.query, "3..7");
    assert_eq!(table.job.rows, cli);
}

fn table_of(query: &str, seeds: &str) -> Vec<idemlab_lab::contracts::Row> {
    table(query, SeedRange::parse(seeds).unwrap()).unwrap()
}

#[test]
fn the_caption_says_which_of_the_presets_keys_a_contract_replaces() {
    // A newcomer read "its own keys winning (none overrode…)" as "the preset's 150 ms holds",
    // while stripe-v1's row kept keys for 24 h: a link's preset gives way to a contract.
    let state = started("seed=1&preset=key-expiry", "1");
    let query = &state.contracts.as_ref().unwrap().query;
    let replaced = app::preset_replaced(&state.page.scenario, query);
    assert!(
        replaced
            .iter()
            .any(|(pair, names)| pair == "retention_ms=150" && names.contains(&"stripe-v1")),
        "{replaced:?}"
    );
    let note = contracts_view(&state).unwrap().note;
    assert!(
        note.contains(
            "; a contract's keys replace preset key-expiry's: retention_ms=150 (by stripe-v1"
        ),
        "{note}"
    );
    // Under a contract of its own, the value named is still the preset's (150), not the
    // link's contract's (a review found the contract's 3,600,000 called the preset's).
    let own = "seed=1&preset=key-expiry&contract=powertools";
    let replaced =
        app::preset_replaced(&idemlab_core::scenario::decode(own).unwrap().scenario, own);
    assert!(
        replaced
            .iter()
            .all(|(pair, _)| pair != "retention_ms=3600000"),
        "{replaced:?}"
    );
    assert!(
        replaced.iter().any(|(pair, _)| pair == "retention_ms=150"),
        "{replaced:?}"
    );
    // A key the link sets by hand (to another value than the preset's, or the canonical link
    // drops it) is not the preset's, and is said to win instead.
    let state = started("seed=1&preset=key-expiry&retention_ms=200", "1");
    let note = contracts_view(&state).unwrap().note;
    assert!(!note.contains("replace preset"), "{note}");
    assert!(
        note.contains("retention_ms=200 overrode stripe-v1"),
        "{note}"
    );
}
