//! The page's one scheduler (`app::work`): runs, the sweep and the contracts table built a
//! slice at a time end where the same work in one go ends, and every change they make to the
//! state arrives through `update`.

use idemlab_app::{ContractsMsg, ScenarioMsg, SweepMsg};
use idemlab_app::{Looks, Msg, Page, Unbounded};
use idemlab_lab::sweep::sweep;
use idemlab_lab::Side;

/// Steps `page` in slices of `looks` looks at the budget until no work is due; the number of
/// slices it took.
fn settle_in_slices(page: &mut Page, looks: u32) -> u32 {
    let mut slices = 0;
    while page.busy() {
        page.step(&mut Looks(looks), 800, slices > 0);
        slices += 1;
        assert!(slices < 100_000, "the work ends");
    }
    slices
}

#[test]
fn runs_built_in_slices_are_the_runs_built_in_one_go() {
    let query = "seed=3&preset=race&compare=dedup%3Datomic&orders=40";
    let whole = Page::built(query);
    let mut sliced = Page::load(query, &Default::default());
    sliced.start();
    let slices = settle_in_slices(&mut sliced, 1);
    assert!(
        slices > 2,
        "a run of this size takes several slices ({slices})"
    );
    assert_eq!(sliced.runs.a.trace.digest(), whole.runs.a.trace.digest());
    let b = |page: &Page| page.runs.b.as_ref().map(|b| b.trace.digest());
    assert_eq!(b(&sliced), b(&whole));
    assert!(b(&whole).is_some(), "comparing builds B");
    assert_eq!(sliced.state, whole.state, "the state heard the same");
}

#[test]
fn a_slice_that_runs_out_says_how_far_the_run_has_got() {
    let mut page = Page::load("seed=3&orders=200&loss=0.3", &Default::default());
    page.start();
    let stepped = page.step(&mut Looks(1), 800, false);
    assert!(stepped.more && !stepped.built);
    assert!(stepped.effects.paint_progress, "the progress line repaints");
    let computing = page.state.computing.expect("the state says it computes");
    assert_eq!(computing.side, Side::A);
    page.finish();
    assert_eq!(page.state.computing, None, "built: nothing computes");
    let events = page.runs.a.trace.events.len() as u32;
    assert_eq!(
        page.state.events_a, events,
        "the cursor's bound is the run's length"
    );
}

#[test]
fn a_rerun_mid_computation_drops_the_old_run() {
    let mut page = Page::load("seed=3&orders=200", &Default::default());
    page.start();
    page.step(&mut Looks(1), 800, false);
    page.dispatch(Msg::Scenario(ScenarioMsg::NewSeed(4)));
    page.finish();
    let fresh = Page::built("seed=4&orders=200");
    assert_eq!(page.runs.a.trace.digest(), fresh.runs.a.trace.digest());
}

#[test]
fn a_sweep_in_slices_counts_what_one_sweep_in_one_go_counts() {
    let mut page = Page::built("seed=1&preset=lost-ack");
    page.dispatch(Msg::Sweep(SweepMsg::Start("60".into())));
    let slices = settle_in_slices(&mut page, 3);
    assert!(slices > 1, "{slices}");
    let job = page.state.sweep.as_ref().expect("the sweep stays on show");
    assert!(job.finished());
    let scenario = page.state.page.scenario.clone();
    assert_eq!(job.totals, sweep(&scenario, job.range.first, 60));
}

#[test]
fn a_stopped_sweep_runs_no_more_seeds() {
    let mut page = Page::built("seed=1&preset=lost-ack");
    page.dispatch(Msg::Sweep(SweepMsg::Start("200".into())));
    page.step(&mut Looks(2), 800, true);
    page.dispatch(Msg::Sweep(SweepMsg::Stop));
    let done = page.state.sweep.as_ref().map(|job| job.done);
    assert!(!page.busy(), "nothing is due");
    page.finish();
    assert_eq!(page.state.sweep.as_ref().map(|job| job.done), done);
}

#[test]
fn a_contracts_table_in_slices_fills_every_row() {
    let mut page = Page::built("seed=1&preset=lost-ack");
    page.dispatch(Msg::Contracts(ContractsMsg::Start("3".into())));
    assert!(page.busy(), "the table has runs due");
    settle_in_slices(&mut page, 2);
    let table = page
        .state
        .contracts
        .as_ref()
        .expect("the table stays on show");
    assert!(!table.busy());
    assert_eq!(table.job.runs_done(), table.job.runs_total());
    let mut whole = Page::built("seed=1&preset=lost-ack");
    whole.dispatch(Msg::Contracts(ContractsMsg::Start("3".into())));
    whole.finish();
    assert_eq!(page.state.contracts, whole.state.contracts);
}

#[test]
fn finish_with_no_work_due_changes_nothing() {
    let mut page = Page::built("seed=2");
    let before = page.state.clone();
    assert!(!page.busy());
    page.finish();
    page.step(&mut Unbounded, 800, true);
    assert_eq!(page.state, before);
}

#[test]
fn the_json_export_in_slices_is_the_traces_json_and_the_button_says_how_far() {
    let mut page = Page::built("seed=3&preset=lost-ack&orders=30");
    let effects = page.dispatch(Msg::ExportJson);
    assert!(effects.work, "the export is work for the scheduler");
    assert_eq!(
        idemlab_app::view::export::json_button(&page.state).as_deref(),
        Some("Writing JSON 0%")
    );
    assert!(
        !page.dispatch(Msg::ExportJson).work,
        "a second press starts no second export"
    );
    let mut written = String::new();
    let mut slices = 0;
    loop {
        let stepped = page.step(&mut Looks(1), 800, true);
        written.extend(stepped.json);
        slices += 1;
        if stepped.json_done {
            break;
        }
        let said = idemlab_app::view::export::json_button(&page.state).unwrap();
        assert!(
            said.starts_with("Writing JSON ") && said.ends_with('%'),
            "{said}"
        );
    }
    assert!(slices > 2, "{slices}");
    assert_eq!(written, page.runs.a.trace.json());
    assert_eq!(idemlab_app::view::export::json_button(&page.state), None);
    assert!(!page.busy());
}
