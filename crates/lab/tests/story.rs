//! The run as text (`idemlab_lab::story`, issue 14): what it says is what the trace holds. Its
//! races and duplicates add up to the counters, a race step names the race and the duplicate,
//! and a big run is cut to a few orders with a sentence saying how many are left out.

use idemlab_lab::metrics::Metrics;
use idemlab_lab::story::{self, Story};

fn story(query: &str, shown_max: usize) -> (Story, Metrics) {
    let scenario = idemlab_core::scenario::decode(query).unwrap().scenario;
    let (trace, metrics) = idemlab_lab::run(&scenario);
    (story::tell(&trace, &metrics, shown_max), metrics)
}

/// The duplicates the orders' paragraphs name: charges listed after an order's first, ledger
/// rows booking a charge again, and receipts after an event's first.
fn duplicates_named(text: &str) -> u32 {
    let mut n = 0;
    for part in text.split(" Duplicate charge").skip(1) {
        let list = &part[..part
            .find(", after")
            .expect("the list ends at its first charge")];
        n += list.matches('#').count() as u32;
    }
    n += text.matches("booked twice in the ledger").count() as u32;
    for part in text
        .split(" of them duplicates")
        .take(text.matches(" of them duplicates").count())
    {
        let number = part.rsplit(", ").next().unwrap();
        n += number.parse::<u32>().unwrap();
    }
    n
}

#[test]
fn a_race_step_names_the_race_and_the_duplicate() {
    // Lesson A step 4: order 1's retry reads "not found" before its first try records the key.
    let (story, metrics) = story("seed=3&preset=race", 12);
    assert_eq!((metrics.races, metrics.duplicates), (1, 1));
    let first = &story.orders[0];
    // Each try's fate reads in the order it happened: the client gave up before the late answer.
    let try1 = &first[first.find("Try 1: ").unwrap()..first.find("Try 2: ").unwrap()];
    let (timeout, late) = (
        try1.find("timed out"),
        try1.find("answer lost (client already timed out)"),
    );
    assert!(timeout.is_some() && timeout < late, "{try1}");
    assert!(first.starts_with("Order 1 "), "{first}");
    assert!(
        first.contains("Race: try 1 at ") && first.contains("both read \"not found\""),
        "{first}"
    );
    assert!(first.contains("Duplicate charge: #2, after #1."), "{first}");
    assert!(
        story
            .summary
            .contains("Races (two copies both read \"not found\"): 1."),
        "{}",
        story.summary
    );
    assert!(
        story.orders[1..].iter().all(|o| !o.contains("Race:")),
        "{story:?}"
    );
}

#[test]
fn lost_answers_say_why() {
    // Lesson A step 1: a partition drops answers, and the network loses one more.
    let (story, metrics) = story("seed=7&preset=lost-ack&orders=2", 12);
    let text = story.orders.join(" ");
    assert!(text.contains("answer lost (partition)"), "{text}");
    assert!(text.contains("answer lost (lost on the network)"), "{text}");
    assert!(text.contains("timed out"), "{text}");
    assert!(
        story.orders[0].starts_with("Order 1 (ok, 3 tries, key case-1/work-1)"),
        "{text}"
    );
    assert!(
        story.orders[1].starts_with("Order 2 (ok, 2 tries, key case-1/work-2)"),
        "{text}"
    );
    assert_eq!(duplicates_named(&text), metrics.duplicates);
    assert!(
        story.summary.contains("Charges: 5. Duplicates: 3."),
        "{}",
        story.summary
    );
}

#[test]
fn races_and_duplicates_named_add_up_to_the_counters() {
    let extras = [
        "",
        "&orders=6&consumer=plain&ack_loss=0.3",
        "&dedup=atomic&clients=3&orders=12",
    ];
    for spec in &idemlab_core::scenario::presets::PRESETS {
        for extra in extras {
            for seed in 1..=4 {
                let query = format!("seed={seed}&preset={}{extra}", spec.name);
                let (story, metrics) = story(&query, usize::MAX);
                let text = story.orders.join(" ");
                assert_eq!(
                    text.matches(" Race: ").count() as u32,
                    metrics.races,
                    "{query}: {text}"
                );
                if !query.contains("op=set") && metrics.refunds == 0 {
                    assert_eq!(
                        duplicates_named(&text),
                        metrics.duplicates,
                        "{query}: {text}"
                    );
                }
                assert_eq!(story.orders.len() as u32, metrics.orders, "{query}");
                assert!(story.left_out.is_none(), "{query}");
            }
        }
    }
}

#[test]
fn a_big_run_shows_eventful_orders_first_and_says_how_many_are_left_out() {
    let (story, metrics) = story(
        "seed=1&orders=50&loss_resp=0.2&retries=3&timeout_ms=500",
        12,
    );
    assert_eq!(story.orders.len(), 12);
    // The 9 orders that needed a retry come first, then plain ones in order.
    let retried = (story.orders.iter())
        .take_while(|o| !o.contains("(ok, 1 try,"))
        .count();
    assert_eq!(retried, 9, "{:?}", story.orders);
    let plain = &story.orders[retried..];
    assert!(plain.iter().all(|o| o.contains("(ok, 1 try,")), "{plain:?}");
    assert!(plain[0].starts_with("Order 2 "), "{plain:?}");
    let left = story.left_out.expect("38 orders are left out");
    assert!(
        left.starts_with(&format!("{} more orders are left out", metrics.orders - 12)),
        "{left}"
    );
}

#[test]
fn a_set_counts_writes_not_charges() {
    // Lesson A step 2: 7 writes, none changing the value.
    let (story, metrics) = story("seed=7&preset=lost-ack&op=set", 12);
    assert_eq!((metrics.effects, metrics.duplicates), (7, 0));
    assert!(
        story.summary.contains("Writes: 7. Duplicates: 0."),
        "{}",
        story.summary
    );
    assert!(
        story.orders.join(" ").contains("0 changing the value"),
        "{:?}",
        story.orders
    );
}

#[test]
fn the_event_list_names_the_duplicates_and_the_race_reads_in_text() {
    for query in [
        "seed=3&preset=race",
        "seed=7&preset=lost-ack&orders=2",
        "seed=3&orders=4&dedup=atomic&consumer=plain&ack_loss=0.25",
    ] {
        let scenario = idemlab_core::scenario::decode(query).unwrap().scenario;
        let (trace, metrics) = idemlab_lab::run(&scenario);
        let timeline = idemlab_lab::view::layout(&trace);
        let notes: Vec<&str> = (0..trace.events.len() as u32)
            .filter_map(|ix| timeline.row_note(ix))
            .collect();
        let duplicates = notes.iter().filter(|n| n.starts_with("duplicate")).count() as u32;
        let raced = notes.iter().filter(|n| n.starts_with("raced")).count() as u32;
        assert_eq!(duplicates, metrics.duplicates, "{query}: {notes:?}");
        assert_eq!(raced, 2 * metrics.races, "{query}: {notes:?}");
    }
}

#[test]
fn a_rerun_pod_s_own_key_is_named() {
    // Lesson B step 2: the key is made from the pod, so the rerun's tries carry another key.
    let (rerun, metrics) = story("seed=1&preset=pod-rerun", 12);
    assert_eq!(metrics.duplicates, 3);
    let first = &rerun.orders[0];
    assert!(first.contains(", key proc-"), "{first}");
    assert!(
        first.contains("Try 1 (rerun pod) with key proc-"),
        "{first}"
    );
    // Made from the work, the key is the same on the rerun: nothing names another.
    let (business, _) = story("seed=1&preset=pod-rerun&key=business", 12);
    assert!(
        !business.orders[0].contains(" with key "),
        "{}",
        business.orders[0]
    );
}

#[test]
fn a_run_too_long_to_tell_is_summed_up_and_says_so() {
    let query = "seed=1&orders=10000&loss_resp=0.2&retries=3";
    let (story, metrics) = story(query, 12);
    assert!(metrics.orders == 10_000);
    let scenario = idemlab_core::scenario::decode(query).unwrap().scenario;
    let (trace, _) = idemlab_lab::run(&scenario);
    if trace.events.len() > story::EVENTS_TOLD_MAX {
        assert!(story.orders.is_empty());
        let left = story.left_out.unwrap();
        assert!(
            left.starts_with(&format!("This run has {} events", trace.events.len())),
            "{left}"
        );
        assert!(
            story.summary.starts_with("Orders: 10000."),
            "{}",
            story.summary
        );
    } else {
        assert_eq!(story.orders.len(), 12);
    }
}
