//! The permalink: the page's whole state survives a trip through its URL.

use idemlab_app::page::{PageState, Theme};
use idemlab_core::scenario::Dedup;

#[test]
fn a_permalink_round_trips_the_whole_state() {
    let query = "seed=7&preset=race&compare=dedup%3Datomic&cursor=12&embed=1&controls=dedup,store&tab=sweep&speed=25&zoom=10..90&lesson=a&step=3&report=parent&hide=tabs,side,compare,counters,export,link&v=4294967295";
    let (page, opens, errors) = PageState::from_query(query);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(page.to_query(&opens), query);
    assert_eq!(page.compare_scenario().unwrap().dedup, Dedup::Atomic);
    assert!(page.control_open("dedup") && !page.control_open("seed"));
}

#[test]
fn bad_page_keys_are_reported_and_the_rest_still_loads() {
    let (page, opens, errors) = PageState::from_query(
        "seed=9&cursor=abc&tab=nope&compare=dedup%3Dmaybe&controls=dedup,<b>&retries=99",
    );
    let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(
        keys,
        ["retries", "cursor", "tab", "controls", "compare: dedup"]
    );
    assert_eq!(page.scenario.seed, 9);
    assert_eq!(page.compare, None);
    assert_eq!(page.to_query(&opens), "seed=9");
}

#[test]
fn compare_may_change_a_key_that_a_sets_too() {
    // Regression: B was built by appending its keys to A's query, which the codec refused as
    // a repeated key whenever A set the same key explicitly.
    let (page, _, errors) =
        PageState::from_query("seed=4&dedup=naive&compare=dedup%3Datomic%26retries%3D5");
    assert!(errors.is_empty(), "{errors:?}");
    let b = page.compare_scenario().unwrap();
    assert_eq!((b.dedup, b.retries, b.seed), (Dedup::Atomic, 5, 4));
}

#[test]
fn the_cli_reads_a_page_url_as_its_scenario() {
    let url = "http://127.0.0.1:8080/?seed=7&preset=race&compare=dedup%3Datomic&cursor=12";
    let cli = idemlab_core::scenario::decode(url).unwrap().scenario;
    assert_eq!(cli, PageState::from_query(url).0.scenario);
}

#[test]
fn an_unknown_lesson_or_step_is_reported_not_ignored() {
    let (page, opens, errors) = PageState::from_query("seed=3&lesson=z&step=0");
    let said: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].contains("lesson") && said[0].contains("a|b"),
        "{said:?}"
    );
    assert!(
        said[1].contains("step") && said[1].contains("1..=12"),
        "{said:?}"
    );
    assert_eq!(page.to_query(&opens), "seed=3");
    let (page, opens, errors) = PageState::from_query("seed=3&lesson=b&step=7");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(page.to_query(&opens), "seed=3&lesson=b&step=7");
}

#[test]
fn a_step_past_the_end_of_its_lesson_is_reported() {
    let (page, opens, errors) = PageState::from_query("seed=3&lesson=b&step=11");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].to_string().contains("1..=10"), "{}", errors[0]);
    assert_eq!(page.to_query(&opens), "seed=3&lesson=b");
}

fn said(query: &str) -> String {
    let (_, _, errors) = PageState::from_query(query);
    errors.iter().map(|e| format!("{e}\n")).collect()
}

#[test]
fn bad_theme_sweep_and_embed_values_are_named_and_good_ones_kept() {
    expect_test::expect![[r#"
        `theme=purple` is not valid: expected one of auto|light|dark
        `sweep=0` is not valid: expected a seed count, a whole number 1..=100000
        `embed=maybe` is not valid: expected 1 or 0 (also true/false)
    "#]]
    .assert_eq(&said("seed=2&theme=purple&sweep=0&embed=maybe"));
    let (page, opens, errors) = PageState::from_query("seed=2&theme=dark&sweep=100000&embed=0");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(page.to_query(&opens), "seed=2&theme=dark&sweep=100000");
}

#[test]
fn what_the_page_writes_loads_again_at_every_maximum() {
    // The longest value each page key accepts, with a compare that sets every scenario key.
    let keys: Vec<&str> = idemlab_core::scenario::codec::key_names()
        .filter(|k| *k != "preset" && *k != "seed")
        .collect();
    // Each name many times over (the page keeps each once), as often as the query's limit
    // lets a link that names every key once carry them: eight times.
    let controls = vec![keys.join(","); 8].join(",");
    let compare = "seed=18446744073709551615&orders=10000&clients=16&op=set&key=constant&dedup=naive&store=memory&timeout_ms=600000&retries=20&backoff_ms=600000&latency_ms=9999..10000&provider_ms=59999..60000&loss_req=0.123456&loss_resp=0.654321&partition=3599999..3600000&crash=api@after-respond&restart_ms=600000&replace_db_ms=3600000&rerun_ms=3600000&provider=keyed&retention_ms=604800000&body_change=1&order=respond,commit,effect,claim,lookup,begin&consumer=inbox&ack_loss=0.999999&visibility_ms=600000&deliveries_max=20&events_max=1000000";
    let query = format!(
        "{compare}&compare={}&cursor=4294967295&embed=1&controls={controls}&tab=lessons&speed=100&zoom=18446744073709551614..18446744073709551615&lesson=a&step=7&quiz=18446744073709551615&theme=light&sweep=100000&keys=1&height=4000",
        idemlab_core::scenario::codec::percent_encode(compare)
    );
    let (page, opens, errors) = PageState::from_query(&query);
    assert!(errors.is_empty(), "{errors:?}");
    let written = page.to_query(&opens);
    assert!(
        written.len() <= idemlab_core::scenario::codec::QUERY_LEN_MAX,
        "{}",
        written.len()
    );
    let (again, opens, errors) = PageState::from_query(&written);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(again.to_query(&opens), written);
}

#[test]
fn lesson_step_quiz_theme_and_sweep_are_typed_fields() {
    let (page, opens, errors) =
        PageState::from_query("seed=3&theme=auto&sweep=250&lesson=b&step=7&quiz=42");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(page.theme, Some(Theme::Auto));
    assert_eq!(page.sweep, Some(250));
    assert_eq!(opens.lesson.map(|l| l.id), Some("b"));
    assert_eq!((opens.step, opens.quiz), (Some(7), Some(42)));
    assert_eq!(
        page.to_query(&opens),
        "seed=3&theme=auto&sweep=250&lesson=b&step=7&quiz=42"
    );
}

#[test]
fn page_keys_are_written_in_one_canonical_order_whatever_the_link_gave() {
    let (page, opens, errors) =
        PageState::from_query("quiz=5&step=2&lesson=a&sweep=9&theme=dark&zoom=1..2&seed=1");
    assert!(errors.is_empty(), "{errors:?}");
    let written = "seed=1&zoom=1..2&theme=dark&sweep=9&lesson=a&step=2&quiz=5";
    assert_eq!(page.to_query(&opens), written);
    assert_eq!(written_again(written), written);
}

#[test]
fn bad_lesson_step_and_quiz_values_say_what_is_allowed() {
    expect_test::expect![[r#"
        `lesson=d` is not valid: expected a lesson, one of a|b|c
        `step=x` is not valid: expected a step number 1..=12
        `quiz=-1` is not valid: expected a quiz seed, a whole number 0..=18446744073709551615
    "#]]
    .assert_eq(&said("seed=2&lesson=d&step=x&quiz=-1"));
    expect_test::expect![[r#"
        `step=300` is not valid: expected a step number 1..=12
        `sweep=100001` is not valid: expected a seed count, a whole number 1..=100000
    "#]]
    .assert_eq(&said("seed=2&step=300&sweep=100001"));
    let (page, opens, _) = PageState::from_query("seed=2&lesson=d&step=x&quiz=-1&sweep=100001");
    assert_eq!(
        (opens.lesson, opens.step, opens.quiz, page.sweep),
        (None, None, None, None)
    );
}

#[test]
fn the_key_store_panel_is_a_typed_view_key_written_only_when_open() {
    let (page, opens, errors) = PageState::from_query("seed=3&lesson=a&step=5&keys=1");
    assert!(errors.is_empty(), "{errors:?}");
    assert!(page.keys);
    assert_eq!(page.to_query(&opens), "seed=3&lesson=a&step=5&keys=1");
    // Closed is the default, so the link leaves it out, whichever way it was written.
    for closed in ["keys=0", "keys=false", ""] {
        let (page, opens, errors) = PageState::from_query(&format!("seed=3&{closed}"));
        assert!(errors.is_empty(), "{closed}: {errors:?}");
        assert!(!page.keys, "{closed}");
        assert_eq!(page.to_query(&opens), "seed=3", "{closed}");
    }
    let (page, opens, _) = PageState::from_query("seed=3&keys=true&tab=lessons");
    assert_eq!(page.to_query(&opens), "seed=3&tab=lessons&keys=1");
}

#[test]
fn a_bad_keys_value_says_what_is_allowed() {
    expect_test::expect![[r#"
        `keys=open` is not valid: expected 1 or 0 (also true/false)
    "#]]
    .assert_eq(&said("seed=2&keys=open"));
    let (page, opens, _) = PageState::from_query("seed=2&keys=open");
    assert!(!page.keys);
    assert_eq!(page.to_query(&opens), "seed=2");
}

// Predict, then reveal: `gate=0|1` is a typed field, written only when off.
#[test]
fn gate_is_a_typed_field_on_by_default_and_written_only_when_off() {
    let (page, _, errors) = PageState::from_query("seed=2&lesson=a&step=3");
    assert!(errors.is_empty(), "{errors:?}");
    assert!(
        page.gate,
        "a step waits for its prediction unless the link says not"
    );
    let (page, opens, errors) = PageState::from_query("gate=0&seed=2&quiz=4&lesson=a&step=3");
    assert!(errors.is_empty(), "{errors:?}");
    assert!(!page.gate);
    let written = "seed=2&lesson=a&step=3&quiz=4&gate=0";
    assert_eq!(page.to_query(&opens), written);
    assert_eq!(written_again(written), written);
    let (page, opens, errors) = PageState::from_query("seed=2&gate=1");
    assert!(errors.is_empty() && page.gate, "{errors:?}");
    assert_eq!(
        page.to_query(&opens),
        "seed=2",
        "the default is not written"
    );
}

#[test]
fn a_bad_gate_value_says_what_is_allowed_and_leaves_the_gate_on() {
    expect_test::expect![[r#"
        `gate=off` is not valid: expected 1 (a step waits for its prediction) or 0
    "#]]
    .assert_eq(&said("seed=2&gate=off"));
    assert!(PageState::from_query("seed=2&gate=off").0.gate);
}

#[test]
fn focus_b_is_kept_while_comparing_and_dropped_without_b() {
    let (page, opens, errors) = PageState::from_query("seed=3&compare=dedup%3Datomic&focus=b");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        page.to_query(&opens),
        "seed=3&compare=dedup%3Datomic&focus=b"
    );
    let (page, opens, errors) = PageState::from_query("seed=3&focus=b");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(
        page.to_query(&opens),
        "seed=3",
        "no B, so nothing is in focus but A"
    );
}

/// A value kept as text could come back longer than it went in (an 8,039-byte `sweep=` as a
/// 24,039-byte permalink) and then fail to load. Every value the page keeps is typed and
/// bounded, so what it writes back is never longer than a link that loaded, and always loads
/// again.
#[test]
fn a_permalink_the_page_writes_from_a_long_link_loads_again() {
    let long_compare = "order%3Dbegin%2Clookup%2Ceffect%2Cclaim%2Ccommit%2Crespond%26".repeat(120);
    let links = [
        format!("sweep={}", "9".repeat(8_039)),
        format!("compare={long_compare}"),
        format!("seed=3&drop={}", "1,".repeat(4_000)),
        format!("seed=3&tab=sweep&sweep=100000&theme=dark&compare={long_compare}"),
    ];
    for link in links {
        let (page, opens, errors) = PageState::from_query(&link);
        let written = page.to_query(&opens);
        assert!(
            written.len() <= link.len(),
            "{} bytes written from {}",
            written.len(),
            link.len()
        );
        let (again, opens, errors_again) = PageState::from_query(&written);
        assert!(errors_again.is_empty(), "{written}: {errors_again:?}");
        assert_eq!(again.to_query(&opens), written);
        // What the link held that the page could not keep is named, key first.
        for error in errors {
            let text = error.to_string();
            assert!(
                text.contains("sweep") || text.contains("drop") || text.contains("query"),
                "{text}"
            );
        }
    }
}

#[test]
fn link_trackers_load_without_a_word_and_leave_the_link() {
    use idemlab_core::scenario::codec::is_tracker;
    for key in [
        "utm_source",
        "utm_campaign",
        "fbclid",
        "gclid",
        "mc_eid",
        "msclkid",
    ] {
        assert!(is_tracker(key), "{key}");
    }
    for key in ["utm", "seed", "theme", "colour", "ref"] {
        assert!(!is_tracker(key), "{key}");
    }
    let (page, opens, errors) =
        PageState::from_query("seed=3&utm_source=lms&fbclid=IwAR0&gclid=a&theme=dark&utm_source=x");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(page.theme, Some(Theme::Dark));
    assert_eq!(page.to_query(&opens), "seed=3&theme=dark");
    expect_test::expect![[r#"
        unknown key `utmsource`; scenario keys are seed, preset, contract, orders, clients, op, key, dedup, store, timeout_ms, retries, backoff_ms, latency_ms, provider_ms, loss_req, loss_resp, partition, drop, crash, restart_ms, replace_db_ms, restart_db_ms, rerun_ms, provider, retention_ms, body_change, tenants, scope, order, handler, lease_ms, concurrent, provider_fail, decline, replay, expired, loss_provider, lookup, reconcile_ms, consumer, ack_loss, visibility_ms, deliveries_max, consumer_crash, mail, relay, broker_dedup_ms, events_max; view keys are cursor, compare, embed, controls, lesson, step, quiz, theme, zoom, speed, sweep, tab, focus, keys, gate, report, hide, height, steps, v, lang, build
    "#]]
    .assert_eq(&said("seed=3&utmsource=lms"));
    // The CLI's strict decode skips them too: a tracked link pasted into `idemlab run` runs.
    assert!(idemlab_core::scenario::decode("seed=3&utm_source=lms").is_ok());
}

/// `height=N` is the fixed frame height a script-less snippet gives; it is checked
/// against `HEIGHT_PX`, written before `v=` and loads again.
#[test]
fn height_is_a_frame_height_in_bounds_kept_before_v() {
    let (page, opens, errors) = PageState::from_query("seed=7&embed=1&height=600&v=1");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(page.height, Some(600));
    assert_eq!(page.to_query(&opens), "seed=7&embed=1&height=600&v=1");
    for bad in ["319", "4001", "600px", ""] {
        let (page, _, errors) = PageState::from_query(&format!("seed=7&height={bad}"));
        assert_eq!(page.height, None, "height={bad}");
        assert_eq!(
            errors[0].to_string(),
            format!("`height={bad}` is not valid: expected a frame height in CSS px, 320..=4000")
        );
    }
}

#[test]
fn compare_may_name_a_preset_which_applies_first_with_a_keys_set_by_hand_winning() {
    // B is A under another preset: same seed, the race preset's values, A's own `retries=5`.
    let (page, _, errors) =
        PageState::from_query("seed=7&preset=lost-ack&retries=5&compare=preset%3Drace");
    assert!(errors.is_empty(), "{errors:?}");
    let b = page.compare_scenario().unwrap();
    let mut race = idemlab_core::scenario::decode("seed=7&preset=race&retries=5")
        .unwrap()
        .scenario;
    assert_eq!(b, race);
    // A pair after it still wins over the preset, wherever the preset stands in the box.
    let (page, _, _) =
        PageState::from_query("seed=7&preset=lost-ack&compare=dedup%3Dnone%26preset%3Drace");
    race = idemlab_core::scenario::decode("seed=7&preset=race&dedup=none")
        .unwrap()
        .scenario;
    assert_eq!(page.compare_scenario().unwrap(), race);
}

#[test]
fn a_preset_given_twice_in_compare_is_refused_as_in_a_link() {
    let (page, _, errors) =
        PageState::from_query("seed=7&compare=preset%3Drace%26preset%3Dlost-ack");
    assert_eq!(page.compare, None);
    let said: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        said,
        ["key `compare: preset` is given more than once; give it once"]
    );
}

#[test]
fn an_unknown_preset_in_compare_names_the_presets() {
    let (page, _, errors) = PageState::from_query("seed=7&compare=preset%3Dnope");
    assert_eq!(page.compare, None);
    let said: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].starts_with("`compare: preset=nope` is not valid: expected one of"),
        "{}",
        said[0]
    );
    assert!(said[0].contains("race"), "{}", said[0]);
}

/// What `to_query` writes for a link it read.
fn written_again(query: &str) -> String {
    let (page, opens, _) = PageState::from_query(query);
    page.to_query(&opens)
}
