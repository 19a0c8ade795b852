//! The lessons' time by the source lesson's measure (`pace`), counted over the lesson's own
//! words: the floor under the minutes each lesson states.

use idemlab_course::lessons::LESSONS;
use idemlab_course::pace::{self, Pace};
use idemlab_course::quiz;

/// The check a learner meets: its time over several seeds, the longest kept.
fn check(lesson: &'static idemlab_course::lessons::Lesson) -> Pace {
    (1..=8)
        .map(|seed| pace::of_check(&quiz::generate(lesson, seed)))
        .max_by_key(|pace| pace.seconds())
        .unwrap()
}

/// The lesson's own words are a lower bound of its time: the page adds its hints, counters
/// and captions, which the browser walk (`tests/e2e/pace.test.mjs`) counts and the stated
/// minutes follow. Lesson A keeps the source's shape: at most 7 steps and the ordering
/// exercise.
#[test]
fn every_lesson_states_at_least_what_its_own_words_take() {
    assert!(
        LESSONS[0].steps.len() <= 8,
        "at most 7 steps and the ordering exercise"
    );
    for lesson in &LESSONS {
        let own = pace::of_steps(lesson) + check(lesson);
        println!("lesson {}: {own:?} = {} min", lesson.id, own.minutes());
        assert!(
            lesson.minutes >= own.minutes(),
            "lesson {}: states {} min, its own words take {}",
            lesson.id,
            lesson.minutes,
            own.minutes()
        );
    }
}

#[test]
fn the_measure_counts_words_at_200_a_minute_and_20_s_a_press() {
    let pace = Pace {
        words: 400,
        interactions: 3,
    };
    assert_eq!(pace.seconds(), 120 + 60);
    assert_eq!(pace.minutes(), 3);
    assert_eq!(pace::words("one  two\nthree"), 3);
}
