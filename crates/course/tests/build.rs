//! The finale's checklist against the simulator: the path the source lesson describes passes
//! every stage, and each way off it is named.

use idemlab_core::scenario::{decode, Scenario};
use idemlab_course::build::{fix_keys, is_first, stages, Part, Parts, Ran, START};

/// `START` with `keys` set over it, as the learner's controls set them.
fn scenario(keys: &str) -> Scenario {
    let mut scenario = decode(START).expect("a valid query").scenario;
    for pair in keys.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').expect("key=value");
        idemlab_core::scenario::codec::set_key(&mut scenario, key, value).expect("a valid key");
    }
    scenario
}

fn duplicates(scenario: &Scenario) -> u32 {
    idemlab_lab::run(scenario).1.duplicates
}

fn ran(scenario: &Scenario) -> Ran<'_> {
    Ran {
        scenario,
        duplicates: duplicates(scenario),
    }
}

const FAULTY: &str = "&retries=1&timeout_ms=300&partition=0..400";
const FIXED: &str = "&dedup=atomic&store=durable";

fn done(list: &[idemlab_course::build::Stage]) -> Vec<bool> {
    list.iter().map(|stage| stage.missing.is_none()).collect()
}

#[test]
fn the_empty_sandbox_has_everything_still_to_do_and_charges_each_order_once() {
    let start = scenario("");
    assert_eq!(duplicates(&start), 0, "no fault yet, so nothing to fix");
    let list = stages(Parts::default(), None, ran(&start));
    assert_eq!(done(&list), [false; 5]);
    let first = list[0].missing.as_deref().unwrap();
    for part in Part::ALL {
        assert!(first.contains(part.label()), "{first}");
    }
}

#[test]
fn the_source_lessons_path_passes_every_stage_and_its_link_reproduces_both_runs() {
    let before = scenario(FAULTY);
    let first = ran(&before);
    assert!(
        first.duplicates > 0,
        "the partition loses an answer and the retry charges again"
    );
    assert!(is_first(Parts::ALL, first));
    assert_eq!(
        done(&stages(Parts::ALL, None, first)),
        [true, true, false, false, false],
        "until the page records the run, the duplicate stage waits"
    );
    let after = scenario(&format!("{FAULTY}{FIXED}"));
    assert!(
        !is_first(Parts::ALL, ran(&after)),
        "a fixed run is no 'before'"
    );
    assert_eq!(duplicates(&after), 0);
    assert_eq!(
        done(&stages(Parts::ALL, Some(first), ran(&after))),
        [true; 5]
    );
    // The result's link is A = the run with the duplicate, B = it with these keys.
    let fix = fix_keys(&before, &after);
    assert_eq!(fix, "dedup=atomic&store=durable");
    assert_eq!(scenario(&format!("{FAULTY}&{fix}")), after);
}

#[test]
fn each_way_off_the_path_is_named() {
    let before = scenario(FAULTY);
    let first = ran(&before);
    let missing = |query: String| {
        let now = scenario(&query);
        let list = stages(Parts::ALL, Some(first), ran(&now));
        list[3]
            .missing
            .clone()
            .or(list[4].missing.clone())
            .unwrap_or_default()
    };
    assert!(missing(format!("{FAULTY}&dedup=naive&store=durable")).contains("dedup"));
    assert!(missing(format!("{FAULTY}&dedup=atomic")).contains("store"));
    let other_seed = missing(format!("{FAULTY}{FIXED}&seed=2"));
    assert!(
        other_seed.contains("seed") && other_seed.contains('1'),
        "{other_seed}"
    );
    let no_partition = scenario("&retries=1&timeout_ms=300");
    let list = stages(Parts::ALL, None, ran(&no_partition));
    assert!(list[1].missing.as_deref().unwrap().contains("partition"));
    let long = scenario("&retries=1&partition=0..400");
    let list = stages(Parts::ALL.with(Part::Api), None, ran(&long));
    assert!(list[1].missing.as_deref().unwrap().contains("timeout_ms"));
}

#[test]
fn a_partition_that_loses_no_answer_says_so() {
    let late = scenario("&retries=1&timeout_ms=300&partition=5000..6000");
    let run = ran(&late);
    assert_eq!(run.duplicates, 0);
    assert!(!is_first(Parts::ALL, run));
    let list = stages(Parts::ALL, None, run);
    assert!(list[2]
        .missing
        .as_deref()
        .unwrap()
        .contains("widen the partition"));
}

#[test]
fn parts_keep_their_names_in_order() {
    let parts = Parts::default().with(Part::Database).with(Part::Api);
    assert_eq!(parts.names(), "api,db");
    assert_eq!(parts.missing().collect::<Vec<_>>(), [Part::Payment]);
    assert_eq!(Part::from_name("payment"), Some(Part::Payment));
    assert_eq!(Part::from_name("client"), None);
}

#[test]
fn the_task_takes_the_minutes_its_buttons_say() {
    use idemlab_course::build::{INTERACTIONS, MINUTES};
    use idemlab_course::pace::{words, Pace};
    let html =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/index.html"))
            .expect("the page's markup");
    let template = html
        .split("<template id=\"tpl-build\">")
        .nth(1)
        .expect("tpl-build");
    let template = template.split("</template>").next().unwrap();
    let text: String = template
        .split('<')
        .map(|tag| tag.split_once('>').map_or("", |(_, t)| t))
        .collect::<Vec<_>>()
        .join(" ");
    // The checklist as it first reads: each stage and what it still misses.
    let list = stages(Parts::default(), None, ran(&scenario("")));
    let checklist: u32 = list
        .iter()
        .map(|stage| words(stage.task) + words(stage.missing.as_deref().unwrap_or("")))
        .sum();
    let pace = Pace {
        words: words(&text) + checklist,
        interactions: INTERACTIONS,
    };
    assert_eq!(pace.minutes(), MINUTES, "{pace:?}");
    assert_eq!(
        html.matches(&format!("yourself ({MINUTES} min) →")).count(),
        2
    );
}
