//! The Events tab's list, the tab bar and the Tables tab as the page paints them
//! (`view::events`).

use idemlab_app as app;
use idemlab_app::view::events::{self, EVENTS_VIEW_PX, EVENT_ROW_PX};
use idemlab_app::PlaybackMsg;
use idemlab_app::{Msg, Page, Tab};

#[test]
fn the_stylesheet_sizes_the_list_as_its_arithmetic_does() {
    let css = include_str!("../../../www/style.css");
    assert!(css.contains(&format!("--event-row-px: {EVENT_ROW_PX}px;")));
    assert!(css.contains(&format!("--events-view-px: {EVENTS_VIEW_PX}px;")));
    assert!(css.contains("height: var(--event-row-px)"));
    assert!(css.contains("height: var(--events-view-px)"));
}

#[test]
fn the_list_draws_the_rows_in_sight_and_a_margin_and_marks_the_cursors() {
    let mut page = Page::built("seed=1&preset=lost-ack&orders=20");
    let count = page.runs.a.trace.events.len();
    assert!(count > 100, "{count}");
    page.dispatch(Msg::Playback(PlaybackMsg::Select(60)));
    let top = events::scroll_to(60, count, 0).expect("row 60 is out of sight at the top");
    assert_eq!(
        events::scroll_to(60, count, top),
        None,
        "and in sight once scrolled"
    );
    let frame = events::events(&page.state, &page.runs, top);
    let first: usize = frame.rows[0].index.parse().unwrap();
    assert_eq!(frame.top_px, first as i32 * EVENT_ROW_PX);
    let drawn = (EVENTS_VIEW_PX / EVENT_ROW_PX + 20) as usize;
    assert_eq!(frame.rows.len(), drawn);
    let selected: Vec<&str> = (frame.rows.iter())
        .filter(|r| r.selected)
        .map(|r| r.id.as_str())
        .collect();
    assert_eq!(selected, ["ev-60"]);
    assert_eq!(frame.active.as_deref(), Some("ev-60"));
    assert_eq!(frame.row_count, (count + 1).to_string());
    assert_eq!(
        frame.rows[0].cells[0],
        (first + 1).to_string(),
        "numbered from 1"
    );
}

#[test]
fn a_lesson_hides_the_lessons_tab_and_opens_no_panel_until_one_is_picked() {
    let mut page = Page::built("lesson=a&step=1");
    let tabs = events::tabs(&page.state);
    let lessons = &tabs[3];
    assert!(
        lessons.hidden && !lessons.panel_hidden,
        "the lesson's column is its panel"
    );
    assert!(tabs[..3].iter().all(|t| !t.selected && t.panel_hidden));
    assert!(
        tabs[0].focusable,
        "Events keeps the tab bar in the Tab order"
    );
    assert_eq!(
        events::shown_tabs(&page.state),
        [Tab::Events, Tab::Tables, Tab::Sweep]
    );
    assert_eq!(
        events::tables(&page.state, &page.runs),
        None,
        "folded only while open"
    );
    page.dispatch(Msg::OpenTab(Tab::Tables));
    let tables = events::tables(&page.state, &page.runs).expect("the Tables tab is open");
    assert!(events::tabs(&page.state)[1].selected);
    assert_eq!(tables.receipts, None, "no queue, no receipts table");
    let _: &app::TableFrame = &tables.attempts;
}
