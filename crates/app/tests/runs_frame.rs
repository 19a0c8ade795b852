//! The runs' blocks as the page paints them (`view::runs`): one frame says every title,
//! counter, label and flag, so the browser decides none of them.

use idemlab_app as app;
use idemlab_app::ScreenMsg;
use idemlab_app::{Msg, Page};
use idemlab_lab::Side;

#[test]
fn comparing_shows_both_blocks_and_the_compare_sentence() {
    let page = Page::built("seed=4&preset=race&compare=dedup%3Datomic");
    let frame = app::view::runs::view(&page.state, &page.runs);
    let [a, b] = &frame.sides;
    let (a, b) = (a.as_ref().expect("A shows"), b.as_ref().expect("B shows"));
    assert!(
        a.in_focus && !b.in_focus,
        "A is in focus until the learner moves it"
    );
    assert!(!frame.counters_hidden);
    assert_eq!(frame.computing, None);
    let diff = frame.diff.as_deref().expect("a sentence compares them");
    assert!(diff.contains("dedup=atomic"), "{diff}");
    let card = |side: &app::SideFrame, metric: &str| {
        side.cards
            .iter()
            .find(|c| c.metric == metric)
            .cloned()
            .expect("a card")
    };
    let duplicates = card(a, "duplicates");
    assert_eq!(duplicates.value, page.runs.a.metrics.duplicates.to_string());
    assert_eq!(duplicates.bad, page.runs.a.metrics.duplicates > 0);
    assert_eq!(
        card(b, "duplicates").value,
        "0",
        "atomic keys end the race's duplicate"
    );
    assert_eq!(a.events, page.runs.a.trace.events.len().to_string());
}

#[test]
fn a_step_waiting_for_its_answer_hides_the_counts_and_the_sentence() {
    let page = Page::built("lesson=a&step=2");
    let frame = app::view::runs::view(&page.state, &page.runs);
    assert!(
        frame.counters_hidden,
        "the counts would give the answer away"
    );
    assert_eq!(frame.diff, None);
}

#[test]
fn without_compare_b_has_no_block_and_more_folds_the_unnamed_counters() {
    let mut page = Page::built("lesson=a&step=1&gate=0");
    let frame = app::view::runs::view(&page.state, &page.runs);
    assert!(frame.sides[1].is_none());
    let a = frame.sides[0].as_ref().unwrap();
    let (text, open) = a
        .more
        .clone()
        .expect("a step names some counters: the rest fold");
    assert!(text.starts_with("more (") && !open, "{text}");
    page.dispatch(Msg::Screen(ScreenMsg::MoreCounters(true)));
    let a = app::view::runs::view(&page.state, &page.runs).sides[0]
        .clone()
        .unwrap();
    assert_eq!(a.more, Some(("fewer".into(), true)));
}

#[test]
fn a_steps_own_runs_are_titled_by_its_words_and_a_changed_run_by_its_keys() {
    let page = Page::built("lesson=a&step=5&gate=0");
    let title = |page: &Page, side| idemlab_app::title(&page.state, side);
    assert_eq!(title(&page, Side::A), "A: keys in API memory, kept 150 ms");
    assert_eq!(
        title(&page, Side::B),
        "B: keys in the database, kept 24 hours"
    );
    let diff = idemlab_app::view::runs::view(&page.state, &page.runs).diff;
    assert!(diff
        .unwrap()
        .starts_with("keys in API memory, kept 150 ms: 2 duplicates"));
    let changed = Page::built("lesson=a&step=5&seed=2");
    assert!(
        title(&changed, Side::A).contains("seed=2"),
        "not the step's run"
    );
}

/// The key lists the kinds of mark the runs draw, not every kind the lab has.
#[test]
fn the_key_shows_only_the_kinds_of_mark_in_the_runs() {
    use idemlab_lab::view::legend::LEGEND;
    let page = Page::built("lesson=a&step=1&gate=0");
    let frame = app::view::runs::view(&page.state, &page.runs);
    let shown: Vec<&str> = (LEGEND.iter().zip(frame.legend))
        .filter(|(_, on)| *on)
        .map(|(entry, _)| entry.label)
        .collect();
    assert!(
        shown.contains(&"request") && shown.contains(&"response"),
        "{shown:?}"
    );
    assert!(shown.iter().any(|l| l.starts_with("dropped")), "{shown:?}");
    assert!(!shown.contains(&"ledger pod replaced"), "{shown:?}");
    assert!(shown.len() <= LEGEND.len() / 2, "{shown:?}");
    let queue = Page::built("lesson=a&step=6&gate=0");
    let frame = app::view::runs::view(&queue.state, &queue.runs);
    let queued = LEGEND
        .iter()
        .zip(frame.legend)
        .any(|(e, on)| on && e.label.starts_with("queue"));
    assert!(queued, "a run with a queue keys its arrows");
}
