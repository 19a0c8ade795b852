//! Every lesson step shows what its text says: each claimed count is checked against a run of
//! the step's scenario (and of its fix), and each claimed number appears in the text.

use idemlab_app::page::PageState;
use idemlab_course::lessons::LESSONS;
use idemlab_lab::{Metric, Side};

/// The page state a step opens: its scenario as A and its fix as B.
fn step_page(step: &idemlab_course::lessons::Step, place: &str) -> PageState {
    let mut query = step.query.to_string();
    if let Some(compare) = step.compare {
        let keys = idemlab_core::scenario::codec::percent_encode(compare);
        query.push_str(&format!("&compare={keys}"));
    }
    let (page, _, errors) = PageState::from_query(&query);
    assert!(errors.is_empty(), "{place}: {errors:?}");
    page
}

#[test]
fn every_lesson_step_shows_the_counts_its_text_claims() {
    for lesson in &LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            let place = format!("lesson {} step {}", lesson.id, index + 1);
            let page = step_page(step, &place);
            let a = idemlab_lab::run(&page.scenario).1;
            let b = page.compare_scenario().map(|s| idemlab_lab::run(&s).1);
            assert!(!step.claims.is_empty(), "{place} claims nothing");
            for claim in step.claims {
                let metrics = match claim.side {
                    Side::A => &a,
                    Side::B => b
                        .as_ref()
                        .unwrap_or_else(|| panic!("{place}: a claim about B without compare")),
                };
                let value = claim.metric.of(metrics);
                assert_eq!(
                    value, claim.value,
                    "{place} ({}): {} in {:?}",
                    step.title, claim.metric, claim.side
                );
                assert!(
                    step.text.contains(&claim.value.to_string()),
                    "{place}: the text never says {}",
                    claim.value
                );
            }
        }
    }
}

#[test]
fn the_storage_calculator_gives_the_textbook_figure() {
    use idemlab_course::lessons::{bytes_text, key_storage_bytes};
    // 10,000 requests/s kept 24 h at 1 KB each: 864 GB.
    let bytes = key_storage_bytes(10_000, 24 * 3_600, 1_000);
    assert_eq!(bytes, 864_000_000_000);
    assert_eq!(bytes_text(bytes), "864 GB");
    assert_eq!(bytes_text(key_storage_bytes(100, 3_600, 1_500)), "540 MB");
    assert_eq!(bytes_text(1_500), "1.5 KB");
    assert_eq!(bytes_text(0), "0 B");
    assert_eq!(
        bytes_text(key_storage_bytes(u64::MAX, u64::MAX, u64::MAX))
            .split(' ')
            .nth(1),
        Some("EB")
    );
}

#[test]
fn lesson_ids_are_unique_and_steps_titled() {
    assert_eq!(
        LESSONS.iter().map(|l| l.id).collect::<Vec<_>>(),
        ["a", "b", "c"]
    );
    for lesson in &LESSONS {
        assert!(lesson
            .steps
            .iter()
            // 560 bytes: step 1 says why neither order used all its attempts; what fits one
            // screen is tests/e2e/layout.test.mjs's to check.
            .all(|s| !s.title.is_empty() && s.text.len() < 560));
    }
}

#[test]
fn every_pointer_is_in_its_text_in_order_and_names_marks_of_its_run() {
    for lesson in &LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            let place = format!("lesson {} step {}", lesson.id, index + 1);
            let page = step_page(step, &place);
            let a = idemlab_lab::view::layout(&idemlab_lab::run(&page.scenario).0);
            let b = (page.compare_scenario())
                .map(|s| idemlab_lab::view::layout(&idemlab_lab::run(&s).0));
            let mut from = 0;
            for pointer in step.pointers {
                let at = step.text[from..].find(pointer.phrase).unwrap_or_else(|| {
                    panic!(
                        "{place}: `{}` is not in the text after the previous pointer",
                        pointer.phrase
                    )
                });
                from += at + pointer.phrase.len();
                let timeline = match pointer.side {
                    Side::A => &a,
                    Side::B => b.as_ref().expect("a B pointer needs compare"),
                };
                let named = timeline
                    .marks()
                    .iter()
                    .filter(|m| pointer.find.matches(m))
                    .count();
                assert!(
                    named > 0,
                    "{place}: `{}` names no {:?} mark",
                    pointer.phrase,
                    pointer.find
                );
            }
        }
    }
}

#[test]
fn the_ordering_exercise_sits_in_exactly_one_step_of_lesson_a() {
    let holders: Vec<(&str, &str)> = LESSONS
        .iter()
        .flat_map(|l| l.steps.iter().map(move |s| (l.id, s.title)))
        .filter(|(_, title)| *title == idemlab_course::lessons::ORDERING_STEP_TITLE)
        .collect();
    assert_eq!(holders, [("a", "The order of the steps matters")]);
}

/// Lesson B's last step asks for the charges of one seed's run and tells the learner to work
/// out the expected number, which its run's count is the nearest choice to:
/// 50 × (1 + r + r² + r³) with r = 0.2 and 3 retries.
#[test]
fn the_expected_charges_steps_run_is_the_choice_nearest_them() {
    let step = LESSONS[1].steps.last().unwrap();
    assert!(step.predict.question.contains("the choice nearest to it"));
    let page = step_page(step, "lesson b's last step");
    let charges = Metric::Effects.of(&idemlab_lab::run(&page.scenario).1);
    let expected = 50.0 * (1.0 + 0.2 + 0.04 + 0.008);
    let idemlab_course::lessons::Ask::Count { choices, .. } = step.predict.ask else {
        panic!("a count question")
    };
    let nearest = (choices.iter())
        .min_by(|a, b| {
            let d = |c: &&u32| (f64::from(**c) - expected).abs();
            d(a).total_cmp(&d(b))
        })
        .unwrap();
    assert_eq!(charges, *nearest, "expected {expected}");
}

/// A lesson names its runs in words: a B name exactly where the step compares, and no name
/// that is a link's keys.
#[test]
fn every_step_names_its_runs_in_plain_words() {
    for lesson in &idemlab_course::lessons::LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            let at = format!("lesson {} step {}", lesson.id, index + 1);
            assert_eq!(step.run_b.is_some(), step.compare.is_some(), "{at}");
            for name in [Some(step.run_a), step.run_b].into_iter().flatten() {
                assert!(!name.contains('=') && !name.contains('&'), "{at}: {name}");
                assert!(name.len() <= 48, "{at}: a title, not a sentence: {name}");
            }
        }
    }
}

/// Every step whose B applies a fix names its boundary: what the fix protects and what it
/// does not. Lesson A's second step compares two operations, and its B is no fix.
#[test]
fn every_fix_names_the_boundary_it_protects() {
    for lesson in &LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            let at = format!("lesson {} step {}", lesson.id, index + 1);
            let no_fix = lesson.id == "a" && step.classify;
            assert_eq!(
                step.boundary.is_some(),
                step.compare.is_some() && !no_fix,
                "{at}"
            );
        }
    }
}
