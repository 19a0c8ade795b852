//! The key-store panels' frame (`app::view::keys`): no table while closed, each run's table at
//! the cursor once open, and a run that folds again only when its moment moved.

use idemlab_app::{PlaybackMsg, ScenarioMsg, ScreenMsg};
use std::rc::Rc;

use expect_test::expect;
use idemlab_app::view::keys::view;
use idemlab_app::{Msg, Page};

#[test]
fn a_closed_panel_folds_nothing_and_an_open_one_tables_each_run() {
    let mut page = Page::built("seed=4&preset=race");
    let frame = view(&page.state, &page.runs);
    assert!(!frame.open && frame.tables == [None, None]);
    page.dispatch(Msg::ToggleKeyStore);
    let frame = view(&page.state, &page.runs);
    assert!(frame.open && frame.tables[1].is_none(), "no run B");
    let a = frame.tables[0].as_ref().expect("run A's table");
    expect!["Key table at 352.041 ms: 3 keys"].assert_eq(&a.view.caption);
    assert_eq!(a.note, None);
    assert_eq!(a.view.rows.len(), 3);
    page.dispatch(Msg::Scenario(ScenarioMsg::CompareOn(true)));
    page.rerun();
    let frame = view(&page.state, &page.runs);
    assert!(frame.tables.iter().all(Option::is_some));
}

#[test]
fn an_empty_table_says_why_under_it() {
    let mut page = Page::built("seed=4&preset=race&keys=1");
    page.dispatch(Msg::Playback(PlaybackMsg::GoTo(0)));
    let frame = view(&page.state, &page.runs);
    let a = frame.tables[0].as_ref().expect("open");
    expect![[r#"
        (
            "Key table at 0 ms: 0 keys",
            Some(
                "No keys stored at this moment.",
            ),
        )
    "#]]
    .assert_debug_eq(&(&a.view.caption, &a.note));
}

#[test]
fn a_paint_that_moved_neither_the_run_nor_the_cursor_does_not_fold_again() {
    let mut page = Page::built("seed=4&preset=race&keys=1");
    let table = |page: &Page| view(&page.state, &page.runs).tables[0].clone().unwrap();
    let first = table(&page);
    page.dispatch(Msg::Screen(ScreenMsg::MoreCounters(true)));
    assert!(Rc::ptr_eq(&first.view, &table(&page).view));
    page.dispatch(Msg::Playback(PlaybackMsg::GoTo(3)));
    let moved = table(&page);
    assert!(!Rc::ptr_eq(&first.view, &moved.view));
    assert_ne!(first.view.caption, moved.view.caption);
}
