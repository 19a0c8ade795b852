//! The finale's task on the page: an empty sandbox whose run waits until every part is added,
//! a checklist that follows the learner's own controls, and a result's link that loads back
//! with every stage done and that the CLI's decoder reads as the same two runs.

use idemlab_app::view::lessons::view;
use idemlab_app::{BuildFrame, LessonBody, LessonMsg, Msg, Page, ScenarioMsg};
use idemlab_course::build::Part;
use idemlab_course::quiz::progress::Progress;

fn task(page: &Page) -> BuildFrame {
    match view(&page.state, &page.runs, &Progress::new()).body {
        LessonBody::Build(build) => *build,
        body => panic!("no task on screen: {body:?}"),
    }
}

fn done(page: &Page) -> Vec<bool> {
    task(page).stages.iter().map(|stage| stage.done).collect()
}

fn send(page: &mut Page, msg: Msg) {
    page.dispatch(msg);
    page.finish();
}

fn set(page: &mut Page, name: &str, value: &str) {
    let (name, value) = (name.into(), value.into());
    send(page, Msg::Scenario(ScenarioMsg::SetKey { name, value }));
}

fn opened() -> Page {
    let mut page = Page::built("");
    send(&mut page, Msg::Lesson(LessonMsg::Build));
    page
}

#[test]
fn the_sandbox_holds_only_the_client_and_runs_nothing_until_every_part_is_in() {
    let mut page = opened();
    assert!(
        page.runs.a.trace.events.is_empty(),
        "no run while parts are missing"
    );
    assert!(idemlab_app::run_hidden(&page.state));
    let added: Vec<_> = task(&page)
        .parts
        .iter()
        .map(|p| (p.name, p.added))
        .collect();
    assert_eq!(
        added,
        [
            ("client", true),
            ("api", false),
            ("payment", false),
            ("db", false)
        ]
    );
    assert_eq!(
        page.state.to_query(),
        format!("{}&tab=lessons&build=client", idemlab_course::build::START)
    );
    for part in [Part::Api, Part::Payment] {
        send(&mut page, Msg::Lesson(LessonMsg::AddPart(part)));
        assert!(page.runs.a.trace.events.is_empty());
    }
    send(&mut page, Msg::Lesson(LessonMsg::AddPart(Part::Database)));
    assert!(
        !page.runs.a.trace.events.is_empty(),
        "the last part lets the run go"
    );
    assert_eq!(done(&page), [true, false, false, false, false]);
}

#[test]
fn the_source_lessons_path_ends_with_a_link_that_loads_back_done() {
    let mut page = opened();
    for part in Part::ALL {
        send(&mut page, Msg::Lesson(LessonMsg::AddPart(part)));
    }
    set(&mut page, "timeout_ms", "300");
    set(&mut page, "retries", "1");
    assert_eq!(done(&page), [true, false, false, false, false]);
    set(&mut page, "partition", "0..400");
    assert!(page.runs.a.metrics.duplicates > 0);
    assert_eq!(done(&page), [true, true, true, false, false]);
    set(&mut page, "dedup", "atomic");
    assert!(task(&page).stages[3].missing.contains("store"));
    set(&mut page, "store", "durable");
    assert_eq!(page.runs.a.metrics.duplicates, 0);
    let frame = task(&page);
    assert_eq!(done(&page), [true; 5], "{frame:?}");
    let link = frame.result.expect("a result once every stage is done");
    assert!(
        link.contains("compare=dedup%3Datomic%26store%3Ddurable"),
        "{link}"
    );
    // The link loads as the task with both runs: every stage done again, A with duplicates.
    let back = Page::built(&link);
    assert_eq!(done(&back), [true; 5]);
    assert!(back.runs.a.metrics.duplicates > 0);
    assert_eq!(back.runs.b.as_ref().unwrap().metrics.duplicates, 0);
}

#[test]
fn changing_the_seed_before_the_rerun_is_named_and_the_stage_waits() {
    let mut page = opened();
    for part in Part::ALL {
        send(&mut page, Msg::Lesson(LessonMsg::AddPart(part)));
    }
    for (name, value) in [
        ("timeout_ms", "300"),
        ("retries", "1"),
        ("partition", "0..400"),
    ] {
        set(&mut page, name, value);
    }
    set(&mut page, "dedup", "atomic");
    set(&mut page, "store", "durable");
    send(&mut page, Msg::Scenario(ScenarioMsg::NewSeed(99)));
    let rerun = &task(&page).stages[4];
    assert!(!rerun.done && rerun.missing.contains("seed"), "{rerun:?}");
    assert!(task(&page).result.is_none());
}

#[test]
fn a_bad_build_value_is_named_and_opening_a_lesson_leaves_the_task() {
    let page = Page::built("build=api");
    let error = page.state.errors.first().expect("refused").to_string();
    assert!(
        error.contains("build") && error.contains("client"),
        "{error}"
    );
    let mut page = Page::built("build=client,api");
    assert!(page.state.build.is_some());
    send(
        &mut page,
        Msg::Lesson(LessonMsg::Open(&idemlab_course::lessons::LESSONS[0])),
    );
    assert!(page.state.build.is_none());
}
