//! The lessons' time by the source lesson's measure (`pace`): Lesson A, with its check, within
//! the source's 25 minutes.

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

#[test]
fn lesson_a_and_its_check_fit_the_source_lessons_25_minutes() {
    let a = &LESSONS[0];
    let (steps, check) = (pace::of_steps(a), check(a));
    let whole = steps + check;
    println!(
        "lesson a: {steps:?} + check {check:?} = {} min",
        whole.minutes()
    );
    assert!(
        a.steps.len() <= 8,
        "at most 7 steps and the ordering exercise"
    );
    assert!(
        whole.seconds() <= 25 * 60,
        "{whole:?}: {} s",
        whole.seconds()
    );
}

#[test]
fn every_lesson_states_the_minutes_its_path_takes() {
    for lesson in &LESSONS {
        let minutes = (pace::of_steps(lesson) + check(lesson)).minutes();
        assert_eq!(
            lesson.minutes, minutes,
            "lesson {}: write the figure the measure gives",
            lesson.id
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
