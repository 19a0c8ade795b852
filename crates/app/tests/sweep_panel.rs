//! The Sweep tab: the seed range it runs, the job that runs it, the line that sums it up, and
//! Stop.

mod support;

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::{sweep_range, Msg};
use idemlab_app::{ScenarioMsg, SweepMsg};
use support::load;

#[test]
fn a_sweep_from_the_largest_seed_runs_the_one_seed_there_and_says_why() {
    let range = sweep_range(u64::MAX, "1000");
    assert_eq!((range.first, range.count), (u64::MAX, 1));
    expect!["Only 1 of the 1000 seeds asked for exist from seed 18446744073709551615: seeds end at 18446744073709551615."]
        .assert_eq(range.note.as_deref().unwrap());
    let range = sweep_range(u64::MAX - 9, "1000");
    assert_eq!(range.count, 10);
    let range = sweep_range(0, "250000");
    assert_eq!((range.count, range.asked), (100_000, 100_000));
    assert!(range.note.is_some());
    assert_eq!(sweep_range(7, "abc").count, 1_000);
    assert_eq!(sweep_range(7, " 12 ").note, None);
}

#[test]
fn a_sweep_job_runs_every_seed_of_its_range_and_no_more() {
    let mut state = load(&format!("seed={}", u64::MAX - 2));
    let effects = app::update(&mut state, Msg::Sweep(SweepMsg::Start("5".into())));
    assert!(effects.work);
    let job = state.sweep.as_mut().unwrap();
    for _ in 0..10 {
        job.run_one();
    }
    assert!(job.finished());
    assert_eq!(job.totals.runs, 3);
}

#[test]
fn the_sweep_line_gives_totals_the_closed_form_and_the_ranges_note_first() {
    let mut state = load(&format!("seed={}&preset=lost-ack", u64::MAX - 1));
    app::update(&mut state, Msg::Sweep(SweepMsg::Start("5".into())));
    let job = state.sweep.as_mut().unwrap();
    while !job.finished() {
        job.run_one();
    }
    let text = app::sweep_summary(job, 0.5);
    assert!(text.starts_with("Only 2 of the 5 seeds"), "{text}");
    assert!(text.contains("2 of 2 seeds in 0.50 s: "), "{text}");
    // "0 lost" leaves a newcomer asking what was lost: the line names the orders.
    assert!(text.contains(" lost orders, "), "{text}");
    let (bars, label) = app::histogram(&job.totals);
    let runs: u64 = bars.iter().map(|b| b.runs).sum();
    assert_eq!(runs, 2);
    assert!(bars.iter().any(|b| b.height_percent == 100.0));
    assert!(label.starts_with("Duplicates per run: "), "{label}");
}

#[test]
fn stop_keeps_a_sweeps_totals_and_a_scenario_change_drops_them() {
    let mut state = load("seed=1&loss_resp=0.2&tab=sweep");
    app::update(&mut state, Msg::Sweep(SweepMsg::Start("50".into())));
    for _ in 0..5 {
        state.sweep.as_mut().unwrap().run_one();
    }
    app::update(&mut state, Msg::Sweep(SweepMsg::Stop));
    let job = state.sweep.clone().expect("stopped, not dropped");
    assert!(job.stopped && !job.running() && job.done == 5);
    let said = app::sweep_summary(&job, 0.5);
    assert!(
        said.starts_with("5 of 50 seeds (stopped) in 0.50 s: "),
        "{said}"
    );
    assert!(
        said.contains(" duplicates, in ") && said.contains(" runs that had any, "),
        "{said}"
    );
    state.sweep.as_mut().unwrap().run_one();
    assert_eq!(
        state.sweep.as_ref().unwrap().done,
        5,
        "no seed runs after Stop"
    );
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::SetKey {
            name: "dedup".into(),
            value: "atomic".into(),
        }),
    );
    assert!(state.sweep.is_none(), "the totals were another scenario's");
}

#[test]
fn the_panel_shows_the_sweep_in_the_state_and_empties_when_a_scenario_change_drops_it() {
    let mut page = app::Page::built("seed=1&preset=lost-ack");
    let empty = app::view::sweep::view(&page.state);
    assert!(!empty.histogram_shown && empty.summary.is_empty() && empty.bars.is_empty());
    assert_eq!(
        (empty.progress.as_str(), empty.seeds_max.as_str()),
        ("0", "100000")
    );
    page.dispatch(Msg::Sweep(SweepMsg::Start("20".into())));
    page.finish();
    let frame = app::view::sweep::view(&page.state);
    expect_test::expect![[r#"
        SweepFrame {
            summary: "20 of 20 seeds in 0.00 s: 58 duplicates, in 20 runs that had any, 0 lost orders, 0 races; 1.7250 ± 0.1052 effects per order, the formula does not apply: a partition drops answers",
            progress: "1.000",
            histogram_shown: true,
            bars: [
                BarFrame {
                    text: "2",
                    title: "9 runs with 2 duplicates",
                    class: "bar bad",
                    height: "100.0%",
                },
                BarFrame {
                    text: "3",
                    title: "5 runs with 3 duplicates",
                    class: "bar bad",
                    height: "55.6%",
                },
                BarFrame {
                    text: "4",
                    title: "5 runs with 4 duplicates",
                    class: "bar bad",
                    height: "55.6%",
                },
                BarFrame {
                    text: "5",
                    title: "1 runs with 5 duplicates",
                    class: "bar bad",
                    height: "11.1%",
                },
            ],
            label: "Duplicates per run: 2: 9 runs; 3: 5 runs; 4: 5 runs; 5: 1 runs; ",
            seeds_max: "100000",
        }
    "#]]
    .assert_debug_eq(&frame);
    page.dispatch(Msg::Scenario(ScenarioMsg::SetKey {
        name: "dedup".into(),
        value: "atomic".into(),
    }));
    assert_eq!(app::view::sweep::view(&page.state), empty);
}

/// A finished sweep of `query` over `seeds` seeds from 0, built as `Msg::SweepStart` builds it.
fn swept(query: &str, seeds: &str) -> app::SweepJob {
    let scenario = idemlab_core::scenario::decode(query)
        .expect("a valid query")
        .scenario;
    let mut job = app::SweepJob {
        scenario,
        side: None,
        range: sweep_range(0, seeds),
        done: 0,
        totals: Default::default(),
        stopped: false,
        clock_ms: None,
    };
    while !job.finished() {
        job.run_one();
    }
    job
}

#[test]
fn the_sweep_line_shows_the_formula_only_where_it_holds_and_otherwise_says_why() {
    // Issue 26: with loss_provider=0.3 the line showed 1.000 beside a mean of 1.338.
    for (query, why) in [
        (
            "loss_resp=0.2&loss_provider=0.3",
            "the payment service's hop loses messages",
        ),
        (
            "loss_resp=0.2&decline=0.3",
            "the payment service declines some calls",
        ),
        (
            "loss_resp=0.2&provider_fail=0.3",
            "the payment service fails some calls",
        ),
        (
            "loss_resp=0.2&lookup=on",
            "result lookup finds earlier charges",
        ),
        ("loss_resp=0.2&restart_db_ms=30", "the ledger restarts"),
        (
            "orders=200&loss_resp=0.2&events_max=100",
            "some runs reached the event cap",
        ),
        ("preset=race", "the API deduplicates"),
    ] {
        let line = app::sweep_summary(&swept(query, "20"), 0.5);
        assert!(
            !line.contains("formula 1") && !line.contains("formula (1"),
            "{query}: {line}"
        );
        assert!(
            line.contains(&format!(
                " effects per order, the formula does not apply: {why}"
            )),
            "{query}: {line}"
        );
    }
    let line = app::sweep_summary(&swept("orders=20&loss_resp=0.2", "20"), 0.5);
    assert!(
        line.contains(" effects per order, formula 1 + r + r² + r³ = 1.2480"),
        "{line}"
    );
}
