//! The classification exercise says what the model shows: each "show me" run has duplicates
//! exactly when its operation is not idempotent, and every operation is explained.

use idemlab_core::scenario::codec;
use idemlab_course::classify::{is_right, score, Class, OPERATIONS};

#[test]
fn each_show_me_run_agrees_with_its_class() {
    for op in &OPERATIONS {
        let Some(query) = op.show else { continue };
        let scenario = codec::decode(query).unwrap_or_else(|e| panic!("{query}: {e:?}"));
        let metrics = idemlab_lab::run(&scenario.scenario).1;
        let duplicates = metrics.duplicates;
        match op.class {
            Class::Not => assert!(duplicates > 0, "{}: {query} shows no duplicate", op.text),
            Class::Natural | Class::Redesign => {
                assert_eq!(duplicates, 0, "{}: {query} shows duplicates", op.text)
            }
        }
    }
}

#[test]
fn one_operation_of_the_source_lesson_in_each_class() {
    assert_eq!(OPERATIONS.len(), 3);
    for class in Class::ALL {
        assert_eq!(
            OPERATIONS.iter().filter(|op| op.class == class).count(),
            1,
            "{class:?}"
        );
        assert_eq!(Class::from_name(class.name()), Some(class));
    }
    for op in &OPERATIONS {
        assert!(op.why.len() > 40 && op.why.len() < 400, "{}", op.text);
    }
}

#[test]
fn scoring_counts_right_answers_and_ignores_blanks() {
    let all_right: Vec<Option<Class>> = OPERATIONS.iter().map(|op| Some(op.class)).collect();
    assert_eq!(score(&all_right), 3);
    assert_eq!(score(&[None; 3]), 0);
    assert_eq!(score(&[Some(Class::Not); 3]), 1);
    assert_eq!(is_right(0, Class::Natural), Some(true));
    assert_eq!(is_right(99, Class::Natural), None);
}
