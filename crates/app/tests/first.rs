//! The first view (`idemlab first`, shown before the wasm arrives) says what the page then
//! paints: each step's heading, text, question and run A's picture, checked against the lesson
//! data and the CLI's own SVG path rather than the view code the first view reuses.

use idemlab_app::first::{entries, first, picture};
use idemlab_course::lessons::LESSONS;

#[test]
fn a_step_answered_shows_the_text_the_first_view_hid() {
    // What the page shows after the answer is the lesson's own text, which the first view
    // would have shown had the step not waited: the two share `first::plain`.
    let mut page = idemlab_app::Page::built("lesson=a&step=4");
    page.dispatch(idemlab_app::Msg::Lesson(idemlab_app::LessonMsg::Predict(0)));
    let progress = idemlab_course::quiz::progress::Progress::new();
    let seen = idemlab_app::Seen {
        progress: &progress,
        quiz_note: None,
        scroll_top_px: 0,
    };
    let frame = idemlab_app::view::view(&page.state, &page.runs, &seen);
    let idemlab_app::LessonBody::Step(step) = frame.lessons.body else {
        panic!("a step")
    };
    assert!(!frame.predict.waiting);
    assert_eq!(
        idemlab_app::first::plain(&step.text),
        LESSONS[0].steps[3].text
    );
}

#[test]
fn every_lesson_step_first_view_has_the_steps_heading_text_and_question() {
    let mut terms_marked = false;
    for lesson in LESSONS.iter() {
        for (index, step) in lesson.steps.iter().enumerate() {
            let query = format!("lesson={}&step={}", lesson.id, index + 1);
            let shown = first("x", &query);
            let heading = format!(
                "Step {} of {}: {}",
                index + 1,
                lesson.steps.len(),
                step.title
            );
            assert_eq!(shown.heading, heading, "{query}");
            // The text tells the outcome: the page shows it only once the question is answered.
            assert_eq!(shown.text, "", "{query}");
            let setup: String = shown
                .setup
                .iter()
                .map(|(words, _)| words.as_str())
                .collect();
            assert_eq!(setup, step.predict.setup, "{query}");
            terms_marked |= shown.setup.iter().any(|(_, term)| *term);
            assert_eq!(shown.question, step.predict.question, "{query}");
            assert!(shown.choices.len() >= 2, "{query}: {:?}", shown.choices);
            assert!(!shown.picture, "{query}: the picture would tell the answer");
            // What stands above the heading on the page: the lesson's button and its steps.
            let name = format!("Lesson {}:", lesson.id.to_ascii_uppercase());
            assert!(shown.lesson.starts_with(&name), "{query}: {}", shown.lesson);
            let titles: Vec<&str> = lesson.steps.iter().map(|s| s.title).collect();
            assert_eq!(
                (shown.steps.clone(), shown.step),
                (titles.iter().map(|t| t.to_string()).collect(), index),
                "{query}"
            );
            assert_eq!(
                shown.terms.is_empty(),
                shown.terms_summary.is_empty(),
                "{query}"
            );
        }
    }
    assert!(
        terms_marked,
        "a setup's glossary terms are marked, as the page underlines them"
    );
}

#[test]
fn every_first_picture_is_the_svg_the_cli_writes_for_run_a() {
    for (name, query) in entries() {
        if !first(&name, &query).picture {
            continue;
        }
        // `idemlab svg` on run A's own query: the scenario the lesson step runs.
        let svg = picture(&query);
        let run_a = svg
            .split("<title>")
            .nth(1)
            .and_then(|t| t.split("</title>").next());
        let run_a = run_a.expect("the SVG names its run").replace("&amp;", "&");
        let decoded = idemlab_core::scenario::codec::decode(&run_a);
        let scenario = decoded.expect("run A's query decodes").scenario;
        let trace = idemlab_core::sim::run(&scenario);
        let timeline = idemlab_lab::view::layout(&trace);
        let cli = idemlab_lab::view::export(&timeline, &trace.query(), None);
        assert_eq!(svg, cli, "{name}: {query}");
    }
}

#[test]
fn a_checks_first_view_has_its_title_whatever_the_quiz_seed() {
    for lesson in LESSONS.iter() {
        let titles: Vec<String> = [1, 7, 123_456]
            .iter()
            .map(|seed| first("x", &format!("lesson={}&quiz={seed}", lesson.id)).heading)
            .collect();
        assert_eq!(
            titles[0],
            format!("Mastery check: {}", lesson_name(lesson.id))
        );
        assert!(titles.iter().all(|t| *t == titles[0]), "{titles:?}");
        assert!(!first("x", &format!("lesson={}&quiz=1", lesson.id)).picture);
    }
}

#[test]
fn a_checks_first_view_has_its_introduction_with_a_slot_for_the_links_seed() {
    let (name, query) = (entries().into_iter())
        .find(|(name, _)| name == "a-check")
        .expect("Lesson A's check");
    let built = first(&name, &query);
    assert_eq!(built.text.matches(idemlab_app::first::SEED_SLOT).count(), 1);
    // With the slot filled it is the page's own introduction for that seed.
    let filled = built.text.replace(idemlab_app::first::SEED_SLOT, "2024");
    assert_eq!(filled, first("x", "lesson=a&quiz=2024").text);
    assert!(filled.ends_with("Quiz seed 2024: the same link gives the same questions."));
}

fn lesson_name(id: &str) -> String {
    format!("Lesson {}", id.to_ascii_uppercase())
}

#[test]
fn the_entries_are_the_bare_page_every_step_and_every_check() {
    let steps: usize = LESSONS.iter().map(|lesson| lesson.steps.len()).sum();
    let names: Vec<String> = entries().into_iter().map(|(name, _)| name).collect();
    let presets = idemlab_core::scenario::presets::PRESETS.len();
    assert_eq!(names.len(), 1 + presets + steps + LESSONS.len());
    assert_eq!(names[0], "bare");
    assert!(names.contains(&"a-4".to_string()) && names.contains(&"c-check".to_string()));
    assert!(
        first("bare", "").picture,
        "the bare page holds nothing back"
    );
}

#[test]
fn a_presets_first_view_is_its_summary_and_no_picture_whatever_the_seed() {
    for spec in idemlab_core::scenario::presets::PRESETS.iter() {
        let built = first("x", &format!("preset={}", spec.name));
        assert!(!built.picture && built.heading.is_empty(), "{}", spec.name);
        assert_eq!(built.text, spec.summary);
        // The page shows the same sentence for another seed, compared or not.
        let other = format!("seed=7&preset={}&compare=dedup%3Datomic", spec.name);
        assert_eq!(first("x", &other).text, built.text, "{other}");
    }
}
