//! What helps a newcomer find their way: the sweep shows its formula beside the measured mean,
//! the lesson buttons say "mastered", free play points a newcomer at Lesson A, and the Compare
//! box reads commas and never proposes a copy of A.

use idemlab_app::{self as app, Msg, State};
use idemlab_app::{LessonMsg, ScenarioMsg, SweepMsg};
use idemlab_core::scenario::{decode_lenient, Scenario};
use idemlab_course::lessons::LESSONS;
use idemlab_course::quiz::progress::{Progress, VERSION};

fn load(query: &str) -> State {
    app::Page::built(query).state
}

fn scenario(query: &str) -> Scenario {
    decode_lenient(query).0.scenario
}

#[test]
fn the_sweep_step_shows_its_formula_and_its_value_beside_the_mean() {
    let s = scenario("seed=1&orders=50&loss_resp=0.2&retries=3&timeout_ms=500");
    let formula = app::sweep_formula(&s).expect("the sweep step's scenario fits the formula");
    // 1 + 0.2 + 0.04 + 0.008, and 1/0.8 with no cap.
    assert!(
        formula.starts_with("formula 1 + r + r² + r³ = 1.2480 (r = 0.2"),
        "{formula}"
    );
    assert!(formula.ends_with("1/(1−r) = 1.2500)"), "{formula}");
    let expected = idemlab_lab::sweep::closed_form(&s).unwrap();
    assert!((expected - 1.248).abs() < 1e-12, "{expected}");

    // Every lesson step that sends the learner to the Sweep tab has a formula to land on.
    for lesson in &LESSONS {
        for step in lesson.steps.iter().filter(|s| s.text.contains("Sweep tab")) {
            assert!(
                app::sweep_formula(&scenario(step.query)).is_some(),
                "lesson {} step {:?}: no formula",
                lesson.id,
                step.title
            );
        }
    }

    // The sweep's line puts the formula right after the measured mean.
    let mut state = load("seed=1&orders=50&loss_resp=0.2&retries=3&timeout_ms=500");
    app::update(&mut state, Msg::Sweep(SweepMsg::Start("20".into())));
    let job = state.sweep.as_mut().unwrap();
    while !job.finished() {
        job.run_one();
    }
    let line = app::sweep_summary(job, 0.5);
    assert!(
        line.contains(" effects per order, formula 1 + r + r² + r³ = 1.2480"),
        "{line}"
    );
}

#[test]
fn the_formula_follows_the_retries_and_the_loss_the_model_uses() {
    let text = |q: &str| app::sweep_formula(&scenario(q)).unwrap();
    assert!(text("loss_resp=0.5&retries=0&timeout_ms=500").starts_with("formula 1 = 1.0000"));
    assert!(text("loss_resp=0.5&retries=1&timeout_ms=500").starts_with("formula 1 + r = 1.5000"));
    let six = text("loss_resp=0.5&retries=6&timeout_ms=500");
    assert!(
        six.starts_with("formula 1 + r + r² + r³ + … + r⁶ = 1.9844"),
        "{six}"
    );
    // Requests lost too: each attempt charges with 1−q and is unanswered with t.
    let both = text("loss_req=0.1&loss_resp=0.2&retries=3&timeout_ms=500");
    assert!(
        both.starts_with("formula (1−q)(1 + t + t² + t³) = "),
        "{both}"
    );
    assert!(
        both.contains("q = 0.1 of requests lost, t = 1−(1−q)(1−r);"),
        "{both}"
    );
    assert!(both.ends_with("1/(1−r) = 1.2500)"), "{both}");
    // Every answer lost: no limit to write.
    let all = text("loss_resp=1&retries=3&timeout_ms=500");
    assert!(!all.contains("1/(1−r)"), "{all}");
    // Anything the formula leaves out: none.
    assert_eq!(app::sweep_formula(&scenario("preset=race")), None);
}

#[test]
fn a_lesson_button_says_its_time_and_mastered_once_its_check_is_passed() {
    let lesson = &LESSONS[0];
    let none = app::lesson_button(&Progress::new(), lesson);
    assert_eq!(
        none,
        format!("Lesson A: {} ({} min)", lesson.title, lesson.minutes),
        "no progress, no mark; the time it takes"
    );
    let record = |mastered: u8| {
        let text = format!(
            "idemlab-progress {VERSION}\nlesson=a mastered={mastered} best=3 quiz=7 answers=-,-,-,-\n"
        );
        Progress::parse(Some(&text)).0
    };
    assert_eq!(app::lesson_button(&record(0), lesson), none);
    assert_eq!(
        app::lesson_button(&record(1), lesson),
        format!("{none} ✓ mastered")
    );
    assert!(!app::lesson_button(&record(1), &LESSONS[1]).contains("mastered"));
}

#[test]
fn the_bare_page_hints_at_lesson_a_until_dismissed_or_a_lesson_opens() {
    assert!(app::start_hint(&load("")));
    assert!(app::start_hint(&load("?")));
    // A permalink, an embed, a lesson: no hint.
    assert!(!app::start_hint(&load("seed=3&preset=race")));
    assert!(!app::start_hint(&load("lesson=a&step=2")));
    let mut state = load("");
    app::update(&mut state, Msg::DismissHint);
    assert!(!app::start_hint(&state));
    let mut state = load("");
    app::update(&mut state, Msg::Lesson(LessonMsg::Open(&LESSONS[0])));
    app::update(&mut state, Msg::Lesson(LessonMsg::Close));
    assert!(!app::start_hint(&state), "found the lessons once");
}

#[test]
fn the_compare_box_reads_commas_only_where_a_key_follows() {
    let t = app::compare_text;
    assert_eq!(t("dedup=atomic&retries=0"), "dedup=atomic&retries=0");
    assert_eq!(t("dedup=atomic, retries=0"), "dedup=atomic&retries=0");
    assert_eq!(t(" dedup=atomic ,retries=0 "), "dedup=atomic&retries=0");
    // Values with commas of their own stay whole.
    assert_eq!(t("drop=5,12"), "drop=5,12");
    assert_eq!(t("drop=5,12,retries=0"), "drop=5,12&retries=0");
    assert_eq!(t("order=132456,dedup=atomic"), "order=132456&dedup=atomic");
    assert_eq!(t("dedup=atomic,,"), "dedup=atomic,,");
    assert_eq!(t(""), "");

    let mut state = load("seed=3&preset=race");
    app::update(
        &mut state,
        Msg::Scenario(ScenarioMsg::CompareKeys("dedup=atomic, retries=0".into())),
    );
    assert!(state.errors.is_empty(), "{:?}", state.errors);
    assert_eq!(
        state.page.compare.as_deref(),
        Some("dedup=atomic&retries=0")
    );
}

#[test]
fn ticking_compare_proposes_a_change_never_a_copy_of_a() {
    for query in [
        "seed=3&preset=race",
        "seed=3&preset=race&dedup=atomic",
        "seed=1",
        "seed=1&dedup=atomic",
        "seed=1&dedup=atomic&provider=keyed&store=durable",
        "seed=7&preset=restart",
        "seed=7&preset=restart&store=durable",
    ] {
        let mut state = load(query);
        app::update(&mut state, Msg::Scenario(ScenarioMsg::CompareOn(true)));
        let b = state.page.compare_scenario().expect("comparing");
        assert_ne!(
            b, state.page.scenario,
            "{query}: B {:?} is A",
            state.page.compare
        );
    }
    // The fix the scenario lacks: the preset's own first, else the atomic claim.
    let proposed = |q: &str| app::proposed_change(&scenario(q));
    assert_eq!(proposed("seed=7&preset=restart"), "store=durable");
    assert_eq!(proposed("seed=1"), "dedup=atomic");
    assert_eq!(
        proposed("seed=3&preset=race&dedup=atomic"),
        "provider=keyed"
    );
}
