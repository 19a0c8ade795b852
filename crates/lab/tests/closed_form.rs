//! The sweep agrees with the closed form for a client that retries until it hears back:
//! E[effects per order] = (1−q)(1−(1−s)^(R+1))/s with s = (1−q)(1−r).

mod common;

use common::{scenario, seeds};
use idemlab_lab::sweep::{closed_form, sweep};

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
    for query in [
        "dedup=atomic",
        "crash=api@100",
        "partition=0..100",
        "timeout_ms=50",
        "provider=keyed",
        "op=set",
    ] {
        assert_eq!(closed_form(&scenario(query)), None, "{query}");
    }
}

#[test]
fn with_many_retries_duplicates_approach_the_response_loss() {
    // As R grows, effects per order tend to 1/(1−r): P(duplicate) ≈ r, whatever q is.
    let s = scenario("dedup=none&loss_req=0.4&loss_resp=0.2&retries=20&timeout_ms=500");
    let expected = closed_form(&s).unwrap();
    assert!((expected - 1.0 / 0.8).abs() < 1e-3, "{expected}");
}
