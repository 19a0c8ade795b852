//! The scenario codec is a public contract: instructors paste queries between the page and the
//! CLI. These tests pin its round trip, its overrides and its error messages.

use expect_test::expect;
use idemlab_core::scenario::presets::PRESETS;
use idemlab_core::scenario::{decode, decode_lenient, encode, Crash, Problem, Scenario, Step};

fn errors(query: &str) -> String {
    match decode(query) {
        Ok(_) => "ok".into(),
        Err(errors) => errors.iter().map(|e| format!("{e}\n")).collect(),
    }
}

#[test]
fn every_preset_round_trips_through_its_canonical_form() {
    for spec in PRESETS.iter() {
        let decoded = decode(&format!("seed=9&preset={}", spec.name))
            .unwrap()
            .scenario;
        let canonical = encode(&decoded);
        assert_eq!(canonical, format!("seed=9&preset={}", spec.name));
        assert_eq!(decode(&canonical).unwrap().scenario, decoded);
        let fixed = decode(&format!("{canonical}&{}", spec.fix))
            .unwrap()
            .scenario;
        assert_ne!(
            fixed, decoded,
            "{}: the fix must change something",
            spec.name
        );
    }
}

#[test]
fn canonical_form_lists_only_what_differs_in_table_order() {
    let s = decode("retries=5&dedup=atomic&seed=3&latency_ms=1..2&loss_resp=0.250")
        .unwrap()
        .scenario;
    assert_eq!(
        encode(&s),
        "seed=3&dedup=atomic&retries=5&latency_ms=1..2&loss_resp=0.25"
    );
    assert_eq!(encode(&Scenario::default()), "seed=1");
}

#[test]
fn explicit_keys_override_the_preset_wherever_they_stand() {
    let s = decode("dedup=atomic&preset=race").unwrap().scenario;
    assert_eq!(s.dedup, idemlab_core::scenario::Dedup::Atomic);
    assert_eq!(encode(&s), "seed=1&preset=race&dedup=atomic");
}

#[test]
fn a_page_url_decodes_and_its_view_keys_pass_through() {
    let url =
        "http://127.0.0.1:8080/lab/?seed=7&preset=race&cursor=42&compare=dedup%3Datomic#timeline";
    let decoded = decode(url).unwrap();
    assert_eq!(encode(&decoded.scenario), "seed=7&preset=race");
    let view = vec![
        ("cursor".to_string(), "42".to_string()),
        ("compare".to_string(), "dedup=atomic".to_string()),
    ];
    assert_eq!(decoded.view, view);
    assert_eq!(decode("?seed=7").unwrap().scenario.seed, 7);
    assert_eq!(decode("").unwrap().scenario, Scenario::default());
}

#[test]
fn values_in_every_accepted_form() {
    let s = decode(
        "loss_req=.5&loss_resp=1.0&latency_ms=7&crash=api@after-charge&order=213456&body_change=on",
    )
    .unwrap()
    .scenario;
    assert_eq!((s.loss_req, s.loss_resp), (500_000, 1_000_000));
    assert_eq!((s.latency_ms.lo, s.latency_ms.hi), (7, 7));
    assert_eq!(s.crash, Some(Crash::AfterStep(Step::Effect)));
    assert_eq!(s.order[..2], [Step::Lookup, Step::Begin]);
    assert!(s.body_change);
    assert_eq!(
        decode("crash=api@250").unwrap().scenario.crash,
        Some(Crash::AtMs(250))
    );
    assert_eq!(
        decode("preset=restart&crash=none").unwrap().scenario.crash,
        None
    );
}

#[test]
fn errors_name_the_key_and_what_is_allowed() {
    expect![[r#"
        `retries=99` is out of bounds: allowed a whole number 0..=20
    "#]]
    .assert_eq(&errors("retries=99"));
    expect![[r#"
        `dedup=sometimes` is not valid: expected one of none|naive|atomic
    "#]]
    .assert_eq(&errors("dedup=sometimes"));
    expect![[r#"
        `loss_resp=NaN` is not valid: expected a probability 0..=1 with at most 6 decimals, like 0.25
        `timeout_ms=1e309` is not valid: expected a whole number 1..=600000
        `orders=-3` is not valid: expected a whole number 1..=10000
    "#]]
    .assert_eq(&errors("loss_resp=NaN&timeout_ms=1e309&orders=-3"));
    expect![[r#"
        key `seed` is given more than once; give it once
    "#]]
    .assert_eq(&errors("seed=1&seed=2"));
    expect![[r#"
        `preset=<script>alert(1)</script>` is not valid: expected one of lost-ack|race|restart|pod-rerun|ledger-replaced|key-expiry|outside-boundary|naive-vs-atomic
    "#]]
    .assert_eq(&errors("preset=%3Cscript%3Ealert(1)%3C/script%3E"));
    expect![[r#"
        `latency_ms=20..5` is out of bounds: allowed a range lo..hi of whole milliseconds within 0..=10000, lo <= hi
    "#]]
    .assert_eq(&errors("latency_ms=20..5"));
}

#[test]
fn unknown_keys_list_every_key() {
    let message = errors("colour=blue");
    assert!(
        message
            .starts_with("unknown key `colour`; scenario keys are seed, preset, contract, orders,"),
        "{message}"
    );
    assert!(
        message.contains("view keys are cursor, compare"),
        "{message}"
    );
}

#[test]
fn huge_numbers_and_long_input_are_refused_not_wrapped() {
    assert!(matches!(
        decode("seed=18446744073709551616").unwrap_err()[0].problem,
        Problem::OutOfBounds { .. }
    ));
    assert_eq!(
        decode("seed=18446744073709551615").unwrap().scenario.seed,
        u64::MAX
    );
    let long = format!("seed={}", "9".repeat(10_000));
    assert!(matches!(
        decode(&long).unwrap_err()[0].problem,
        Problem::TooLong { .. }
    ));
    let many = "x=1&".repeat(100);
    assert!(matches!(
        decode(&many).unwrap_err()[0].problem,
        Problem::TooLong { .. }
    ));
}

#[test]
fn lenient_decoding_keeps_the_good_keys_and_reports_the_bad() {
    let (decoded, errors) = decode_lenient("seed=5&retries=abc&dedup=atomic&bogus=1");
    assert_eq!(encode(&decoded.scenario), "seed=5&dedup=atomic");
    let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(keys, ["bogus", "retries"]);
}

#[test]
fn quoted_values_are_shortened_and_escaped() {
    let (_, errors) = decode_lenient(&format!("dedup={}%0A", "a".repeat(100)));
    assert_eq!(errors[0].value.chars().count(), 41);
    let (_, errors) = decode_lenient("dedup=x%0Ay");
    assert_eq!(errors[0].value, "x\\ny");
}

#[test]
fn a_signed_step_digit_and_an_empty_toggle_are_errors() {
    expect![[r#"
        `order= 1,2,3,4,5,6` is not valid: expected the six steps begin,lookup,claim,effect,commit,respond each once, comma-separated in any order (or as digits, like 123456)
    "#]]
    .assert_eq(&errors("order=+1,2,3,4,5,6"));
    // `+` in a query is a space; `%2B` is the plus sign itself, which `parse` would accept.
    expect![[r#"
        `order=+1,2,3,4,5,6` is not valid: expected the six steps begin,lookup,claim,effect,commit,respond each once, comma-separated in any order (or as digits, like 123456)
    "#]].assert_eq(&errors("order=%2B1,2,3,4,5,6"));
    expect![[r#"
        `body_change=` is not valid: expected 1 or 0 (also true/false, yes/no, on/off)
    "#]]
    .assert_eq(&errors("body_change="));
    expect![[r#"
        `body_change=` is not valid: expected 1 or 0 (also true/false, yes/no, on/off)
    "#]]
    .assert_eq(&errors("body_change"));
    assert_eq!(errors("order=1,2,3,4,5,6&body_change=1"), "ok");
}

#[test]
fn echoed_values_escape_bidi_and_invisible_characters() {
    // U+202E would turn the rest of the message around; U+2066..U+2069, U+200E/F and U+061C
    // steer direction too; U+200B, U+2060 and U+FEFF are invisible.
    expect![[r#"
        `dedup=a\u{202e}b\u{2066}c\u{2069}d\u{200e}e\u{200f}f\u{61c}g\u{200b}h\u{2060}i\u{feff}j` is not valid: expected one of none|naive|atomic
    "#]]
    .assert_eq(&errors(
        "dedup=a\u{202e}b\u{2066}c\u{2069}d\u{200e}e\u{200f}f\u{61c}g\u{200b}h\u{2060}i\u{feff}j",
    ));
}

#[test]
fn drop_lists_are_canonical_bounded_and_say_what_is_allowed() {
    use idemlab_core::scenario::codec::{decode, encode};
    let decoded = decode("drop=12,5,5").unwrap();
    assert_eq!(decoded.scenario.drop, [5, 12]);
    assert_eq!(encode(&decoded.scenario), "seed=1&drop=5,12");
    assert_eq!(encode(&decode("drop=none").unwrap().scenario), "seed=1");
    let seventeen: Vec<String> = (0..17).map(|i| i.to_string()).collect();
    for bad in [
        "drop=1,x",
        "drop=",
        "drop=+1",
        "drop=1000001",
        &format!("drop={}", seventeen.join(",")),
    ] {
        let errors = decode(bad).unwrap_err();
        let text = format!("{}", errors[0]);
        assert!(
            text.contains("up to 16 message ids 0..=1000000"),
            "{bad}: {text}"
        );
    }
}
