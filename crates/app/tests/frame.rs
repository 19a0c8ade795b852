//! The page's one view (`view::view`): what a render paints, as one value, for a state.

use expect_test::expect;
use idemlab_app::{view, Frame, Msg, Page, PlaybackMsg, Seen};
use idemlab_course::quiz::progress::Progress;

fn frame(page: &Page) -> Frame {
    let progress = Progress::default();
    let seen = Seen {
        progress: &progress,
        quiz_note: None,
        scroll_top_px: 0,
    };
    view::view(&page.state, &page.runs, &seen)
}

/// The parts a newcomer reads first, in a few lines: a snapshot that says what changed.
fn outline(frame: &Frame) -> String {
    let side = |i: usize| {
        frame.runs.sides[i].as_ref().map(|side| {
            let cards: Vec<String> = (side.cards.iter())
                .filter(|card| card.shown)
                .map(|card| format!("{}={}", card.metric, card.value))
                .collect();
            format!("{} | {} | {}", side.title, side.counts_at, cards.join(" "))
        })
    };
    let rows: Vec<&str> = (frame.events.rows.iter().take(2))
        .map(|row| row.cells[6].as_str())
        .collect();
    format!(
        "A: {:?}\nB: {:?}\nstatus: {}\nplay: {} held={}\nrows: {:?}\nscroll to: {:?}\nbanner: {}",
        side(0),
        side(1),
        frame.playback.status,
        frame.playback.play_text,
        frame.playback.held,
        rows,
        frame.events.scroll_to_px,
        frame.banner.is_some(),
    )
}

#[test]
fn a_compare_link_paints_both_runs_their_counters_and_the_list() {
    let page = Page::built("seed=7&preset=lost-ack&compare=dedup%3Datomic");
    expect![[r#"
        A: Some("A: seed=7&preset=lost-ack | Counts at the end of the run: | orders=4 attempts=7 received=7 effects=7 duplicates=3 lost=0 races=0 unrecorded=0 ok=4 failed=0 unknown=0 in_flight=0")
        B: Some("B: A with dedup=atomic | Counts at the end of the run: | orders=4 attempts=7 received=7 effects=4 duplicates=0 lost=0 races=0 unrecorded=0 ok=4 failed=0 unknown=0 in_flight=0")
        status: A · event 113 of 113 · 1176.964 ms · order done: Ok (200)
        play: ▶ Play held=false
        rows: ["receives m22", "ledger row for charge #6 in tx6"]
        scroll to: Some(2624)
        banner: false"#]]
    .assert_eq(&outline(&frame(&page)));
}

#[test]
fn moving_the_cursor_changes_the_cursors_parts_and_not_the_controls() {
    let mut page = Page::built("seed=7&preset=lost-ack&orders=20");
    let before = frame(&page);
    page.dispatch(Msg::Playback(PlaybackMsg::Select(90)));
    let after = frame(&page);
    assert_eq!(
        before.controls, after.controls,
        "a tick repaints no control"
    );
    assert_eq!(before.screen, after.screen);
    assert_ne!(before.playback, after.playback);
    assert_ne!(before.events, after.events);
    assert!(
        after.events.scroll_to_px.is_some(),
        "row 90 is out of sight from the top, so the list scrolls to it"
    );
    let selected: Vec<&str> = (after.events.rows.iter())
        .filter(|row| row.selected)
        .map(|row| row.id.as_str())
        .collect();
    assert_eq!(selected, ["ev-90"], "the rows are drawn where it scrolls");
}

#[test]
fn the_tables_are_made_only_while_their_tab_is_open() {
    let mut page = Page::built("seed=7&preset=lost-ack");
    assert!(frame(&page).tables.is_none());
    page.dispatch(Msg::OpenTab(idemlab_app::Tab::Tables));
    assert!(frame(&page).tables.is_some());
}
