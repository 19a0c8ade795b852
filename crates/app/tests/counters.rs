//! The counter cards: which show (the ones a step names, the queue's only with a queue, the
//! production counters only with a key that can make them count), what each is called in the
//! step's own words, which mark harm, and the claims and the preset summary beside them.
// Native tests: Unicode case mapping costs the page nothing here (clippy.toml forbids it in
// the library, where it would link 18 KB of tables into the wasm).
#![allow(clippy::disallowed_methods)]

mod support;

use idemlab_app as app;
use idemlab_app::ScreenMsg;
use idemlab_app::{Msg, State};
use idemlab_core::scenario::{decode_lenient, Consumer};
use idemlab_course::lessons::{Side, LESSONS};
use support::load;

#[test]
fn counters_mark_duplicates_and_lost_work_and_show_queue_counts_only_with_a_queue() {
    let (_, metrics) = idemlab_lab::run(&decode_lenient("seed=3&preset=race").0.scenario);
    assert!(metrics.duplicates > 0, "the race preset duplicates");
    let counters = app::counters(&metrics, Consumer::Off);
    let names: Vec<&str> = counters.iter().map(|c| c.metric.name()).collect();
    assert_eq!(names[..4], ["orders", "attempts", "received", "effects"]);
    let bad: Vec<&str> = counters
        .iter()
        .filter(|c| c.bad)
        .map(|c| c.metric.name())
        .collect();
    assert!(bad.contains(&"duplicates") && bad.iter().all(|n| ["duplicates", "lost"].contains(n)));
    let hidden: Vec<&str> = counters
        .iter()
        .filter(|c| !c.shown)
        .map(|c| c.metric.name())
        .collect();
    assert_eq!(
        hidden,
        [
            "receipts",
            "duplicate_receipts",
            "redeliveries",
            "dead_letters"
        ]
    );
    assert!(app::counters(&metrics, Consumer::Inbox)
        .iter()
        .all(|c| c.shown));
    let none = app::counters(&idemlab_lab::Metrics::default(), Consumer::Off);
    assert!(none.iter().all(|c| !c.bad), "zero duplicates is not harm");
}

#[test]
fn production_counters_show_only_with_a_key_that_can_make_them_count() {
    let shown = |query: &str| -> Vec<&'static str> {
        let scenario = decode_lenient(query).0.scenario;
        let (_, metrics) = idemlab_lab::run(&scenario);
        (app::production_counters(&metrics, &scenario).iter())
            .filter(|c| c.shown)
            .map(|c| c.metric.name())
            .collect()
    };
    assert!(shown("seed=3&preset=race").is_empty(), "a run without them");
    assert_eq!(
        shown("seed=3&dedup=atomic&handler=phased&lease_ms=100"),
        ["conflicts", "takeovers"]
    );
    assert_eq!(shown("seed=3&provider_fail=0.5"), ["replayed_failures"]);
    assert_eq!(
        shown("seed=3&expired=reject&lookup=on"),
        ["rejected_expired", "lookups"]
    );
    assert_eq!(shown("seed=3&reconcile_ms=1000"), ["reconciled", "refunds"]);
    assert!(
        shown("seed=3&relay=direct").is_empty(),
        "no queue, no event to lose"
    );
    assert_eq!(shown("seed=3&relay=direct&consumer=plain"), ["lost_events"]);
    // A lost event is harm; the other counts describe what the contract did.
    let query = "seed=1&orders=3&dedup=atomic&consumer=inbox&crash=api@after-commit&relay=direct";
    let scenario = decode_lenient(query).0.scenario;
    let (_, metrics) = idemlab_lab::run(&scenario);
    let bad: Vec<&str> = (app::production_counters(&metrics, &scenario).iter())
        .filter(|c| c.bad)
        .map(|c| c.metric.name())
        .collect();
    assert_eq!(bad, ["lost_events"]);
    // The page's markup has a card for each, hidden until painted.
    let html = include_str!("../../../www/index.html");
    for card in app::production_counters(&metrics, &scenario) {
        assert!(
            html.contains(&format!("data-metric=\"{}\"", card.metric)),
            "{}",
            card.metric
        );
        assert!(
            !app::counter_label(card.metric, &scenario).is_empty(),
            "{}",
            card.metric
        );
    }
}

#[test]
fn mid_run_the_unrecorded_counter_says_not_recorded_yet() {
    // At a cursor before the end, a charge whose ledger row is not committed yet is counted
    // too; the card must not read as a final loss.
    let mut state = load("seed=1&dedup=atomic&crash=api@after-effect");
    let m = idemlab_lab::run(&state.page.scenario).1;
    let label = |state: &State| {
        let view = app::counters_view(state, Side::A, &state.page.scenario.clone(), &m);
        view.cards
            .iter()
            .find(|c| c.metric == idemlab_lab::Metric::Unrecorded)
            .unwrap()
            .label
    };
    assert_eq!(label(&state), "Charges the ledger never recorded");
    state.page.cursor = Some(1);
    assert_eq!(label(&state), "Charges the ledger has not recorded yet");
    state.page.cursor = Some(state.events_a - 1);
    assert_eq!(label(&state), "Charges the ledger never recorded");
}

#[test]
fn the_effects_card_says_charges_or_writes_as_the_run_does() {
    let step2 = load("lesson=a&step=2");
    let a = step2.page.scenario.clone();
    let b = step2.page.compare_scenario().unwrap();
    assert_eq!(
        app::counter_label(idemlab_lab::Metric::Effects, &a),
        "Writes",
        "op=set"
    );
    assert_eq!(
        app::counter_label(idemlab_lab::Metric::Effects, &b),
        "Charges",
        "op=charge"
    );
    assert_eq!(
        app::counter_label(idemlab_lab::Metric::Received, &a),
        "Attempt rows"
    );
}

#[test]
fn in_a_step_only_the_named_counters_show_until_more_is_opened() {
    let mut state = load("lesson=a&step=4");
    let step = state.lesson.unwrap().step();
    let (_, metrics) = idemlab_lab::run(&state.page.scenario);
    let view = app::counters_view(
        &state,
        Side::B,
        &state.page.compare_scenario().unwrap(),
        &metrics,
    );
    let shown: Vec<&str> = (view.cards.iter())
        .filter(|c| c.shown)
        .map(|c| c.metric.name())
        .collect();
    assert_eq!(
        shown,
        ["effects", "duplicates"],
        "B's claims and the prediction"
    );
    assert!(view
        .cards
        .iter()
        .all(|c| c.named == shown.contains(&c.metric.name())));
    assert_eq!(view.folded, 10, "the other non-queue counters fold");
    assert_eq!(
        app::named_metrics(step, Side::A),
        [idemlab_lab::Metric::Races, idemlab_lab::Metric::Duplicates]
    );
    app::update(&mut state, Msg::Screen(ScreenMsg::MoreCounters(true)));
    let view = app::counters_view(&state, Side::B, &state.page.scenario, &metrics);
    assert_eq!(view.cards.iter().filter(|c| c.shown).count(), 12);
    let free = load("seed=3&preset=race");
    let view = app::counters_view(&free, Side::A, &free.page.scenario, &metrics);
    assert_eq!(
        (view.folded, view.cards.iter().filter(|c| c.named).count()),
        (0, 0)
    );
    assert_eq!(
        view.cards.iter().filter(|c| c.shown).count(),
        12,
        "no lesson, no fold"
    );
}

/// A step's own words, lower-cased: its text, its prediction's setup and question.
fn step_words(step: &idemlab_course::lessons::Step) -> String {
    format!(
        "{} {} {}",
        step.text, step.predict.setup, step.predict.question
    )
    .to_lowercase()
}

#[test]
fn every_counter_a_step_names_is_called_by_the_steps_own_words() {
    for lesson in &LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            let state = load(&format!("lesson={}&step={}", lesson.id, index + 1));
            let words = step_words(step);
            for side in [Side::A, Side::B] {
                let scenario = match side {
                    Side::A => state.page.scenario.clone(),
                    Side::B => match state.page.compare_scenario() {
                        Some(b) => b,
                        None => continue,
                    },
                };
                for metric in app::named_metrics(step, side) {
                    let label = app::counter_label(metric, &scenario).to_lowercase();
                    // Singular or plural: "Charges" is said "1 charge" or "5 charges".
                    let stem: Vec<String> = (label.split(' '))
                        .map(|word| match word.strip_suffix("ies") {
                            Some(stem) => format!("{stem}y"),
                            None => word.trim_end_matches('s').to_string(),
                        })
                        .collect();
                    let stem = stem.join(" ");
                    assert!(
                        words.contains(&stem) || words.contains(&label),
                        "lesson {} step {}: the {metric} card on {side:?} says {label:?}, which the step never says",
                        lesson.id,
                        index + 1
                    );
                }
            }
            for line in app::claim_lines(step) {
                let scenario = match line.side {
                    Side::A => state.page.scenario.clone(),
                    Side::B => state.page.compare_scenario().unwrap(),
                };
                let label = app::counter_label(line.metric, &scenario);
                assert!(line.text.contains(label), "{}", line.text);
            }
        }
    }
}

#[test]
fn a_steps_claims_name_the_run_they_are_about() {
    let with_b = LESSONS[0]
        .steps
        .iter()
        .find(|s| s.compare.is_some())
        .unwrap();
    let lines = app::claim_lines(with_b);
    assert!(
        lines
            .iter()
            .all(|l| l.text.starts_with("A: ") || l.text.starts_with("B: ")),
        "{lines:?}"
    );
    let alone = LESSONS[0]
        .steps
        .iter()
        .find(|s| s.compare.is_none())
        .unwrap();
    assert!(app::claim_lines(alone)
        .iter()
        .all(|l| l.text.starts_with("the run: ")));
}

#[test]
fn a_preset_summary_shows_only_while_the_preset_stands_unchanged() {
    let scenario = |query: &str| decode_lenient(query).0.scenario;
    assert!(app::preset_summary(&scenario("seed=9&preset=lost-ack")).is_some());
    assert_eq!(
        app::preset_summary(&scenario("seed=9&preset=lost-ack&op=set")),
        None,
        "op=set makes \"every retry charges again\" untrue"
    );
    assert_eq!(app::preset_summary(&scenario("seed=9")), None);
}
