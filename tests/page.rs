//! The permalink: the page's whole state survives a trip through its URL.

use idemlab::page::PageState;
use idemlab::scenario::Dedup;

#[test]
fn a_permalink_round_trips_the_whole_state() {
    let query = "seed=7&preset=race&compare=dedup%3Datomic&cursor=12&embed=1&controls=dedup,store&tab=sweep&speed=25&zoom=10..90&lesson=a&step=3";
    let (page, errors) = PageState::from_query(query);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(page.to_query(), query);
    assert_eq!(page.compare_scenario().unwrap().dedup, Dedup::Atomic);
    assert!(page.control_open("dedup") && !page.control_open("seed"));
}

#[test]
fn bad_page_keys_are_reported_and_the_rest_still_loads() {
    let (page, errors) = PageState::from_query(
        "seed=9&cursor=abc&tab=nope&compare=dedup%3Dmaybe&controls=dedup,<b>&retries=99",
    );
    let keys: Vec<&str> = errors.iter().map(|e| e.key.as_str()).collect();
    assert_eq!(
        keys,
        ["retries", "cursor", "tab", "controls", "compare: dedup"]
    );
    assert_eq!(page.scenario.seed, 9);
    assert_eq!(page.compare, None);
    assert_eq!(page.to_query(), "seed=9");
}

#[test]
fn compare_may_change_a_key_that_a_sets_too() {
    // Regression: B was built by appending its keys to A's query, which the codec refused as
    // a repeated key whenever A set the same key explicitly.
    let (page, errors) =
        PageState::from_query("seed=4&dedup=naive&compare=dedup%3Datomic%26retries%3D5");
    assert!(errors.is_empty(), "{errors:?}");
    let b = page.compare_scenario().unwrap();
    assert_eq!((b.dedup, b.retries, b.seed), (Dedup::Atomic, 5, 4));
}

#[test]
fn the_cli_reads_a_page_url_as_its_scenario() {
    let url = "http://127.0.0.1:8080/?seed=7&preset=race&compare=dedup%3Datomic&cursor=12";
    let cli = idemlab::scenario::decode(url).unwrap().scenario;
    assert_eq!(cli, PageState::from_query(url).0.scenario);
}

#[test]
fn an_unknown_lesson_or_step_is_reported_not_ignored() {
    let (page, errors) = PageState::from_query("seed=3&lesson=z&step=0");
    let said: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert!(
        said[0].contains("lesson") && said[0].contains("a|b"),
        "{said:?}"
    );
    assert!(
        said[1].contains("step") && said[1].contains("1..=9"),
        "{said:?}"
    );
    assert_eq!(page.to_query(), "seed=3");
    let (page, errors) = PageState::from_query("seed=3&lesson=b&step=7");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(page.to_query(), "seed=3&lesson=b&step=7");
}

#[test]
fn a_step_past_the_end_of_its_lesson_is_reported() {
    let (page, errors) = PageState::from_query("seed=3&lesson=b&step=9");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].to_string().contains("1..=7"), "{}", errors[0]);
    assert_eq!(page.to_query(), "seed=3&lesson=b");
}
