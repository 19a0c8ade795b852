//! A check a learner cannot pass by pattern: no right answer is a sentence lifted from the
//! lesson's steps, and a right choice is not always in one place.

use idemlab_course::lessons::LESSONS;
use idemlab_course::quiz::{self, Form};

/// Seeds enough to meet every kind of every lesson many times.
const SEEDS: u64 = 64;

/// Lower case, letters and digits only, single spaces: a quote survives punctuation changes.
fn plain(text: &str) -> String {
    let kept: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    kept.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn lesson_words(lesson: &idemlab_course::lessons::Lesson) -> String {
    let mut all = String::new();
    for step in lesson.steps {
        for part in [
            step.title,
            step.text,
            step.predict.setup,
            step.predict.question,
        ] {
            all.push_str(&plain(part));
            all.push(' ');
        }
    }
    all
}

#[test]
fn no_right_answer_is_a_phrase_quoted_from_a_step() {
    for lesson in &LESSONS {
        let steps = lesson_words(lesson);
        for seed in 0..SEEDS {
            for q in quiz::generate(lesson, seed).questions {
                let Form::Choices(choices) = &q.form else {
                    continue;
                };
                let right = plain(choices[q.answer as usize].words());
                assert!(
                    right.split(' ').count() < 3 || !steps.contains(&right),
                    "lesson {} seed {seed}: the answer to {:?} is quoted from a step: {right:?}",
                    lesson.id,
                    q.kind
                );
            }
        }
    }
}

#[test]
fn the_right_choice_is_found_in_every_place() {
    for lesson in &LESSONS {
        for kind_seed in 0..SEEDS {
            for q in quiz::generate(lesson, kind_seed).questions {
                let Form::Choices(choices) = &q.form else {
                    continue;
                };
                assert!(choices.len() >= 3, "{:?} offers {}", q.kind, choices.len());
            }
        }
        let places: std::collections::BTreeSet<u32> = (0..SEEDS)
            .flat_map(|s| quiz::generate(lesson, s).questions)
            .filter(|q| matches!(q.form, Form::Choices(_)))
            .map(|q| q.answer)
            .collect();
        assert_eq!(
            places.len(),
            3,
            "lesson {}: right answers at {places:?}",
            lesson.id
        );
    }
}
