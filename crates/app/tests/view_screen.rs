//! The one-screen frame (`app::view::screen`): free play's arrangement, a lesson's column and
//! drawer, the focus buttons while comparing, the phone's dock button, and an instructor's own
//! step box.

use expect_test::expect;
use idemlab_app::view::screen::view;
use idemlab_app::{LessonMsg, OwnMsg, ScenarioMsg, ScreenMsg};
use idemlab_app::{Msg, Page};
use idemlab_lab::Side;

#[test]
fn free_play_shows_the_controls_and_the_hint_and_no_lesson() {
    let page = Page::built("");
    expect![[r#"
        ScreenFrame {
            classes: [
                (
                    "lesson",
                    false,
                ),
                (
                    "run-own",
                    false,
                ),
                (
                    "dock",
                    false,
                ),
                (
                    "no-side",
                    false,
                ),
                (
                    "building",
                    false,
                ),
                (
                    "build-waiting",
                    false,
                ),
            ],
            lesson_column: false,
            controls_shown: true,
            drawer_toggle: false,
            drawer_open: false,
            close_lesson: true,
            start_hint: true,
            dock_toggle: DockToggle {
                shown: false,
                text: "Dock",
                label: "Dock the timeline at the screen's foot",
            },
            focus_toggle: false,
            focus: A,
            current_lesson: None,
            own_step: None,
        }
    "#]]
    .assert_debug_eq(&view(&page.state));
}

#[test]
fn a_lesson_takes_the_column_its_controls_fold_into_a_drawer_and_its_button_is_current() {
    let mut page = Page::built("lesson=b&step=3");
    let frame = view(&page.state);
    assert!(frame.lesson_column && frame.classes[0] == ("lesson", true));
    assert!(!frame.controls_shown && frame.drawer_toggle && frame.close_lesson);
    assert!(!frame.start_hint);
    assert_eq!(frame.current_lesson, Some("b"));
    page.dispatch(Msg::Screen(ScreenMsg::ShowControls(true)));
    let frame = view(&page.state);
    assert!(frame.controls_shown && frame.drawer_open);
    page.dispatch(Msg::Lesson(LessonMsg::Close));
    let frame = view(&page.state);
    assert!(!frame.lesson_column && frame.current_lesson.is_none());
}

#[test]
fn comparing_shows_the_focus_buttons_and_presses_the_run_in_focus() {
    let mut page = Page::built("seed=4&preset=race");
    page.dispatch(Msg::Scenario(ScenarioMsg::CompareOn(true)));
    page.rerun();
    let frame = view(&page.state);
    assert!(frame.focus_toggle && frame.focus == Side::A);
    page.dispatch(Msg::Screen(ScreenMsg::FocusOn {
        side: Side::B,
        cursor: None,
    }));
    assert_eq!(view(&page.state).focus, Side::B);
}

#[test]
fn the_dock_button_shows_after_the_answer_and_says_what_a_press_does() {
    let mut page = Page::built("lesson=b&step=1");
    assert!(
        !view(&page.state).dock_toggle.shown,
        "nothing docks before the answer"
    );
    page.dispatch(Msg::Lesson(LessonMsg::Predict(0)));
    let toggle = view(&page.state).dock_toggle;
    assert!(toggle.shown && toggle.text == "Undock");
    page.dispatch(Msg::Screen(ScreenMsg::ToggleDock));
    let toggle = view(&page.state).dock_toggle;
    assert_eq!(
        (toggle.text, toggle.label),
        ("Dock", "Dock the timeline at the screen's foot")
    );
}

#[test]
fn an_instructors_own_step_box_says_its_caption_counts_and_question() {
    let lines = "seed=7&preset=lost-ack&caption=Three%20repeats&check=duplicates:3&ask=effects\nseed=7&preset=lost-ack&compare=dedup%3Datomic&caption=One%20key";
    let steps = idemlab_core::scenario::codec::percent_encode(lines);
    let mut page = Page::built(&format!("steps={steps}&step=1"));
    let own = view(&page.state).own_step.expect("the instructor's step");
    assert_eq!(own.heading, "Your instructor's step 1 of 2");
    assert_eq!((own.note, own.reopen), (None, false));
    assert!(!own.previous && own.next);
    let question = own.question.expect("its question");
    assert!(!question.choices_hidden && question.feedback.is_empty());
    page.dispatch(Msg::Own(OwnMsg::Answer(0)));
    let question = view(&page.state).own_step.unwrap().question.unwrap();
    assert!(question.choices_hidden && !question.feedback.is_empty());
    // Runs that are not the step's own: the box says so and offers them again.
    page.dispatch(Msg::Scenario(ScenarioMsg::NewSeed(8)));
    let own = view(&page.state).own_step.expect("still open");
    assert!(own.reopen && own.note.is_some());
}
