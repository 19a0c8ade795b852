//! The run-as-text frame (`app::view::story`): each run's story, held while a step waits for
//! its prediction, and run B's section hidden when there is no run B.

use idemlab_app::view::story::view;
use idemlab_app::LessonMsg;
use idemlab_app::{Msg, Page};
use idemlab_course::lessons::LESSONS;
use idemlab_lab::story::HELD;

#[test]
fn a_run_is_told_and_a_side_without_a_run_hides() {
    let page = Page::built("seed=4&preset=race");
    let frame = view(&page.state, &page.runs);
    let [a, b] = &frame.runs;
    assert!(!a.hidden && b.hidden);
    assert_eq!(a.story, page.runs.a.story);
    assert!(!a.story.orders.is_empty());
}

#[test]
fn a_step_waiting_for_its_prediction_holds_both_stories_until_answered() {
    let lesson = &LESSONS[0];
    let at = lesson
        .steps
        .iter()
        .position(|s| s.compare.is_some())
        .unwrap();
    let mut page = Page::built(&format!("lesson={}&step={}", lesson.id, at + 1));
    assert!(page.state.awaiting());
    let frame = view(&page.state, &page.runs);
    for run in &frame.runs {
        assert!(!run.hidden, "the step compares: both sections show");
        assert_eq!(run.story.summary, HELD);
        assert!(run.story.orders.is_empty() && run.story.left_out.is_none());
    }
    page.dispatch(Msg::Lesson(LessonMsg::Predict(0)));
    let frame = view(&page.state, &page.runs);
    assert_eq!(frame.runs[0].story, page.runs.a.story);
    assert_eq!(
        Some(&frame.runs[1].story),
        page.runs.b.as_ref().map(|b| &b.story)
    );
}
