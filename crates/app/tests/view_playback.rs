//! The playback bar's frame (`app::view::playback`): the scrubber over the run in focus, Play's
//! words, the speed, and the controls a waiting prediction holds.

use expect_test::expect;
use idemlab_app::view::playback::{shell, tick_ms, view};
use idemlab_app::{LessonMsg, PlaybackMsg};
use idemlab_app::{Msg, Page};

#[test]
fn the_bar_follows_the_cursor_and_play_says_what_a_press_does() {
    let mut page = Page::built("seed=4&preset=race");
    let frame = view(&page.state, &page.runs);
    let last = page.runs.a.trace.events.len() - 1;
    assert_eq!((frame.scrub_max, frame.scrub_value), (last, last));
    assert_eq!(frame.play_text, "▶ Play");
    page.dispatch(Msg::Playback(PlaybackMsg::Play));
    page.dispatch(Msg::Playback(PlaybackMsg::Tick));
    let frame = view(&page.state, &page.runs);
    expect![[r#"
        PlaybackFrame {
            scrub_max: 107,
            scrub_value: 1,
            status: "event 2 of 108 · 0 ms · starts the order",
            play_text: "❚❚ Pause",
            play_label: "Pause (space)",
            speed: 10,
            held: false,
        }
    "#]]
    .assert_debug_eq(&frame);
}

#[test]
fn a_step_waiting_for_its_prediction_holds_every_playback_control() {
    let mut page = Page::built("lesson=b&step=1");
    assert!(view(&page.state, &page.runs).held);
    page.dispatch(Msg::Lesson(LessonMsg::Predict(0)));
    assert!(!view(&page.state, &page.runs).held);
}

#[test]
fn the_speed_menu_offers_each_speed_and_sets_the_tick() {
    let speeds: Vec<String> = shell()
        .speeds
        .iter()
        .map(|(_, text)| text.clone())
        .collect();
    assert_eq!(speeds, ["2/s", "5/s", "10/s", "25/s", "100/s"]);
    let mut page = Page::built("seed=4&preset=race");
    assert_eq!(tick_ms(&page.state), 100);
    page.dispatch(Msg::Playback(PlaybackMsg::SetSpeed(25)));
    assert_eq!(view(&page.state, &page.runs).speed, 25);
    assert_eq!(tick_ms(&page.state), 40);
}
