//! What a link opens, and what the banner says about it: a lesson link's own scenario or the
//! step's, link trackers, a link from another model version, and the codec's words for a bad key.

mod support;

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::{names_scenario, Banner, Msg, Tab};
use idemlab_app::{LessonMsg, ScenarioMsg};
use idemlab_core::scenario::Dedup;
use idemlab_course::lessons::LESSONS;
use support::{load, step_scenario};

#[test]
fn a_lesson_link_without_scenario_keys_opens_the_steps_scenario() {
    let state = load("lesson=a&step=4");
    assert_eq!(state.page.scenario, step_scenario(&LESSONS[0], 3));
    assert_eq!(state.tab, Tab::Lessons);
    assert_eq!(Banner::of(&state), None);
}

#[test]
fn a_lesson_link_with_scenario_keys_keeps_them_and_the_banner_says_so() {
    // The bug: `dedup=atomic` was dropped without a word, since only `seed=` and `preset=`
    // counted as naming a scenario.
    let state = load("dedup=atomic&lesson=a&step=4");
    assert_eq!(state.page.scenario.dedup, Dedup::Atomic);
    let banner = Banner::of(&state).expect("a banner");
    assert_eq!(banner.heading, "The link's own scenario loaded.");
    assert!(banner.lines[0].contains("lesson A step 4"), "{banner:?}");
    assert!(state.to_query().contains("dedup=atomic"));
}

#[test]
fn a_lesson_permalink_the_page_wrote_loads_as_it_was_with_no_note() {
    let mut state = load("");
    app::update(&mut state, Msg::Lesson(LessonMsg::Open(&LESSONS[0])));
    app::update(&mut state, Msg::Lesson(LessonMsg::OpenStep(3)));
    let again = load(&state.to_query());
    assert_eq!(again.page.scenario, state.page.scenario);
    assert_eq!(again.lesson, state.lesson);
    assert_eq!(Banner::of(&again), None);
}

#[test]
fn view_keys_do_not_name_a_scenario_but_any_scenario_key_does() {
    assert!(!names_scenario(
        "lesson=a&step=4&embed=1&controls=dedup&tab=lessons"
    ));
    for query in [
        "seed=3",
        "preset=race",
        "dedup=atomic",
        "?retries=2&lesson=a",
    ] {
        assert!(names_scenario(query), "{query}");
    }
}

#[test]
fn a_bad_quiz_seed_next_to_a_step_link_still_shows_in_the_banner() {
    let state = load("lesson=a&step=2&quiz=banana");
    let banner = Banner::of(&state).expect("a banner");
    assert!(banner.lines.iter().any(|l| l.contains("quiz=banana")));
    assert_eq!(
        banner.heading,
        "Some of the link was not understood; the rest loaded."
    );
}

#[test]
fn link_trackers_are_ignored_but_other_unknown_keys_are_not() {
    let tracked = "seed=2&utm_source=news&utm_medium=mail&fbclid=Ab1&gclid=x&msclkid=y&mc_eid=z";
    let state = load(tracked);
    assert_eq!(Banner::of(&state), None);
    assert_eq!(state.to_query(), "seed=2", "the page's own link drops them");
    let banner = Banner::of(&load("seed=2&utm_source=news&colour=red")).expect("a banner");
    assert_eq!(banner.lines.len(), 1, "{:?}", banner.lines);
    assert!(banner.lines[0].starts_with("unknown key `colour`"));
}

#[test]
fn a_link_from_another_model_version_gets_a_notice_until_the_run_changes() {
    let now = idemlab_app::page::MODEL_VERSION;
    assert_eq!(Banner::of(&load(&format!("seed=7&v={now}"))), None);
    let mut newer = load(&format!("seed=7&preset=lost-ack&v={}", now + 1));
    let banner = Banner::of(&newer).expect("a notice");
    expect![[r#"
        Banner {
            heading: "This link comes from another version of the lab.",
            lines: [
                "It was made with a newer model (version 3; this lab runs version 2), so this run may differ from the one its author saw.",
            ],
        }
    "#]]
    .assert_debug_eq(&banner);
    let kept = format!("&v={}", now + 1);
    assert!(newer.to_query().ends_with(&kept), "the address keeps it");
    app::update(&mut newer, Msg::Scenario(ScenarioMsg::NewSeed(8)));
    assert_eq!(Banner::of(&newer), None);
    assert!(
        !newer.to_query().contains("v="),
        "a changed run is this version's"
    );
    // A step link keeps the notice through opening its step.
    assert!(Banner::of(&load(&format!("lesson=a&step=2&v={}", now + 1))).is_some());
    // Copy link and the snippet write this version; v=0 and words are refused.
    assert!(app::permalink_query(&load("seed=7")).ends_with(&format!("&v={now}")));
    let copied = app::permalink_query(&load(&format!("seed=7&v={}", now + 1)));
    assert_eq!(
        copied,
        format!("seed=7&v={now}"),
        "a copy is of this version's run"
    );
    for bad in ["0", "one", "-1"] {
        let state = load(&format!("seed=7&v={bad}"));
        assert!(
            state.errors[0]
                .to_string()
                .contains("a model version, 1 or more"),
            "{bad}"
        );
    }
}

/// The banner words a codec error through `app::error_text` (translatable), the CLI through
/// `Display`: in English they are the same, byte for byte, for every kind of problem.
#[test]
fn the_banners_codec_errors_read_as_the_clis() {
    let long = format!(
        "seed={}",
        "1".repeat(idemlab_core::scenario::codec::QUERY_LEN_MAX)
    );
    let many = vec!["seed=1"; idemlab_core::scenario::codec::PAIRS_MAX + 1].join("&");
    let queries = [
        "colour=blue",
        "seed=1&seed=2",
        "dedup=sometimes",
        "retries=999",
        "theme=sepia&controls=dedup,nope&step=99&lesson=a",
        "compare=dedup%3Dmaybe",
        long.as_str(),
        many.as_str(),
    ];
    let mut kinds = std::collections::BTreeSet::new();
    for query in queries {
        let (_, _, errors) = idemlab_app::page::PageState::from_query(query);
        assert!(!errors.is_empty(), "{query}");
        for error in &errors {
            kinds.insert(
                format!("{:?}", error.problem)
                    .split([' ', '{'])
                    .next()
                    .unwrap()
                    .to_string(),
            );
            assert_eq!(app::error_text(error), error.to_string(), "{query}");
        }
    }
    assert_eq!(kinds.len(), 5, "{kinds:?}");
}
