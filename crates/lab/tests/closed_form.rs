//! The sweep agrees with the closed form for a client that retries until it hears back:
//! E[effects per order] = (1−q)(1−(1−s)^(R+1))/s with s = (1−q)(1−r).

mod common;

use common::{scenario, seeds};
use idemlab_lab::sweep::{closed_form, closed_form_of, sweep, unfit, Unfit};

/// (loss_req, loss_resp, retries): loss on either side, both, none, and retry counts.
const CASES: [(&str, &str, u32); 6] = [
    ("0", "0.3", 3),
    ("0.2", "0", 3),
    ("0.1", "0.25", 5),
    ("0.3", "0.3", 1),
    ("0", "0", 2),
    ("0.5", "0.5", 8),
];

#[test]
fn sweep_matches_the_closed_form_within_4_standard_errors() {
    for (q, r, retries) in CASES {
        let query = format!(
            "orders=50&dedup=none&loss_req={q}&loss_resp={r}&retries={retries}&timeout_ms=500"
        );
        let s = scenario(&query);
        let expected = closed_form(&s).expect("a plain scenario fits the formula");
        let totals = sweep(&s, 0, seeds(400));
        let (mean, stderr) = (totals.effects_mean_per_order(), totals.effects_stderr());
        let allowed = 4.0 * stderr.max(1e-9);
        assert!(
            (mean - expected).abs() <= allowed,
            "{query}: mean {mean:.4} vs closed form {expected:.4}, stderr {stderr:.4}"
        );
    }
}

#[test]
fn closed_form_refuses_scenarios_it_does_not_describe() {
    for (query, why) in [
        ("dedup=atomic", Unfit::Dedup),
        ("op=set", Unfit::Set),
        ("provider=keyed", Unfit::KeyedProvider),
        ("lookup=on", Unfit::Lookup),
        ("loss_provider=0.3", Unfit::ProviderLoss),
        ("provider_fail=0.2", Unfit::ProviderFail),
        ("decline=0.2", Unfit::Decline),
        ("crash=api@100", Unfit::Crash),
        ("restart_db_ms=30", Unfit::RestartDb),
        ("replace_db_ms=30", Unfit::ReplaceDb),
        ("rerun_ms=100", Unfit::Rerun),
        ("partition=0..100", Unfit::Partition),
        ("drop=1", Unfit::Drop),
        ("timeout_ms=50", Unfit::Timeout),
    ] {
        let s = scenario(query);
        assert_eq!(closed_form(&s), None, "{query}");
        assert_eq!(unfit(&s), Some(why), "{query}");
    }
}

/// (query, seeds): each breaks one condition of the formula, and its sweep's mean effects per
/// order lies far from the formula's value for its loss and retries, so showing that value
/// beside the mean would be false.
const DEPARTS: [(&str, u64); 7] = [
    ("loss_resp=0.2&loss_provider=0.3", 400),
    ("loss_resp=0.2&decline=0.3", 400),
    ("orders=20&loss_resp=0.2&provider_fail=0.5", 400),
    ("loss_resp=0.2&lookup=on", 400),
    ("orders=1&loss_resp=0.2&restart_db_ms=30", 400),
    ("orders=1&loss_resp=0.2&provider=keyed", 400),
    ("orders=200&loss_resp=0.2&events_max=100", 100),
];

#[test]
fn where_the_formula_is_refused_the_measured_mean_departs_from_it() {
    for (query, count) in DEPARTS {
        let s = scenario(query);
        let totals = sweep(&s, 0, seeds(count));
        let refused = closed_form_of(&s, &totals);
        assert!(refused.is_err(), "{query}: the formula was shown");
        // The value the formula would give for this loss and these retries.
        let mut plain = scenario(&format!("loss_resp=0.2&retries={}", s.retries));
        plain.orders = s.orders;
        let would = closed_form(&plain).expect("the plain scenario fits");
        let (mean, stderr) = (totals.effects_mean_per_order(), totals.effects_stderr());
        assert!(
            (mean - would).abs() > 4.0 * stderr.max(1e-3),
            "{query}: mean {mean:.4} is within 4 standard errors ({stderr:.4}) of {would:.4}"
        );
    }
}

#[test]
fn a_sweep_with_a_truncated_run_is_refused_though_its_scenario_fits() {
    let s = scenario("orders=200&loss_resp=0.2&events_max=100");
    assert!(closed_form(&s).is_some(), "the scenario alone fits");
    let totals = sweep(&s, 0, 3);
    assert_eq!(totals.runs_truncated, 3);
    assert_eq!(closed_form_of(&s, &totals), Err(Unfit::Truncated));
    let summary = totals.summary(&s, "0..3");
    assert_eq!(
        summary.effects_expected_per_order, None,
        "the CLI's JSON says null"
    );
}

/// Scenarios the formula describes, beyond loss and retries: several clients, a key per attempt
/// to a keyed provider, a queue with lost acks, a reconciliation job, lookup with no key to look
/// up by, a direct relay, tenants, a short backoff.
const FITS: [&str; 8] = [
    "orders=12&clients=3&loss_resp=0.3",
    "orders=10&loss_req=0.2&loss_resp=0.2&provider=keyed&key=attempt",
    "orders=10&loss_resp=0.25&consumer=plain&ack_loss=0.3",
    "orders=10&loss_resp=0.25&reconcile_ms=300",
    "orders=10&loss_resp=0.25&lookup=on&key=none",
    "orders=10&loss_resp=0.25&consumer=inbox&relay=direct",
    "orders=10&loss_req=0.1&loss_resp=0.3&tenants=3&scope=global&backoff_ms=0",
    "orders=10&loss_resp=0.4&retries=6&latency_ms=0..40&timeout_ms=300",
];

#[test]
fn where_the_formula_is_shown_the_measured_mean_agrees_within_4_standard_errors() {
    for query in FITS {
        let s = scenario(query);
        let totals = sweep(&s, 0, seeds(400));
        assert_eq!(totals.runs_truncated, 0, "{query}");
        let expected =
            closed_form_of(&s, &totals).unwrap_or_else(|why| panic!("{query}: refused ({why:?})"));
        let (mean, stderr) = (totals.effects_mean_per_order(), totals.effects_stderr());
        assert!(
            (mean - expected).abs() <= 4.0 * stderr.max(1e-9),
            "{query}: mean {mean:.4} vs closed form {expected:.4}, stderr {stderr:.4}"
        );
    }
}

#[test]
fn with_many_retries_duplicates_approach_the_response_loss() {
    // As R grows, effects per order tend to 1/(1−r): P(duplicate) ≈ r, whatever q is.
    let s = scenario("dedup=none&loss_req=0.4&loss_resp=0.2&retries=20&timeout_ms=500");
    let expected = closed_form(&s).unwrap();
    assert!((expected - 1.0 / 0.8).abs() < 1e-3, "{expected}");
}
