//! The timeline: playback, zoom, pan and the wheel, a click on a mark, the plot's width and Fit,
//! the lanes' height, and where a tooltip goes on a scrolled timeline.

mod support;

use idemlab_app as app;
use idemlab_app::Msg;
use idemlab_app::{PlaybackMsg, ScreenMsg};
use idemlab_lab::view::{Viewport, GUTTER_PX};
use idemlab_lab::Side;
use support::load;

#[test]
fn playing_from_the_end_starts_over_and_stops_at_the_last_event() {
    let mut state = load("seed=2");
    let effects = app::update(&mut state, Msg::Playback(PlaybackMsg::Play));
    assert!(effects.tick && state.playing);
    assert_eq!(state.page.cursor, Some(0));
    let mut ticks = 0;
    while app::update(&mut state, Msg::Playback(PlaybackMsg::Tick)).tick {
        ticks += 1;
    }
    assert!(!state.playing);
    assert_eq!(state.page.cursor, None, "the end");
    assert_eq!(ticks + 2, state.events_a);
}

fn window(msg: Msg) -> (u64, u64) {
    match msg {
        Msg::Playback(PlaybackMsg::Zoom(Some(window))) => window,
        other => panic!("not a zoom window: {other:?}"),
    }
}

#[test]
fn zoom_about_keeps_the_cursor_in_place() {
    let viewport = Viewport::new(0, 1_000_000, 1_000);
    // Zooming in 2x about 250 ms: the cursor stays a quarter of the way across.
    assert_eq!(
        window(app::zoom_about(viewport, 250_000, 2.0)),
        (125_000, 625_000)
    );
    assert_eq!(window(app::zoom_about(viewport, 0, 2.0)), (0, 500_000));
}

#[test]
fn wheel_down_zooms_out_about_the_pointer() {
    let viewport = Viewport::new(1_000_000, 2_000_000, 1_000);
    let at_middle_px = GUTTER_PX + 500.0;
    let (t0, t1) = window(app::wheel_zoom(viewport, 1.0, at_middle_px));
    assert_eq!(t1 - t0, 1_250_000, "down zooms out by 0.8");
    assert_eq!((t0 + t1) / 2, 1_500_000, "about the pointer");
    let (t0, t1) = window(app::wheel_zoom(viewport, -1.0, at_middle_px));
    assert_eq!(t1 - t0, 800_000, "up zooms in by 1.25");
    // Over the gutter the anchor is the window's start.
    let (t0, _) = window(app::wheel_zoom(viewport, -1.0, 10.0));
    assert_eq!(t0, 1_000_000);
}

#[test]
fn pan_follows_the_pointer_after_a_small_dead_zone() {
    let start = Viewport::new(1_000_000, 2_000_000, 1_000);
    assert_eq!(app::pan(start, 2.0), None, "still a click");
    assert_eq!(app::pan(start, -2.9), None, "still a click");
    // 1,000 px for 1 s: dragging 100 px right shows 100 ms earlier.
    assert_eq!(
        window(app::pan(start, 100.0).unwrap()),
        (900_000, 1_900_000)
    );
    assert_eq!(
        window(app::pan(start, -100.0).unwrap()),
        (1_100_000, 2_100_000)
    );
}

#[test]
fn a_mark_selects_its_own_event_and_a_mark_of_the_other_run_brings_that_run_into_focus() {
    let mut state = load("seed=3&preset=race&compare=dedup%3Datomic");
    assert_eq!(
        app::mark_select(&state, Side::A, 5),
        Msg::Playback(PlaybackMsg::Select(5)),
        "A's own event"
    );
    let msg = app::mark_select(&state, Side::B, 7);
    assert_eq!(
        msg,
        Msg::Screen(ScreenMsg::FocusOn {
            side: Side::B,
            cursor: Some(7)
        })
    );
    app::update(&mut state, msg);
    assert_eq!((state.focus(), state.cursor()), (Side::B, 7));
    assert_eq!(
        app::mark_select(&state, Side::B, 3),
        Msg::Playback(PlaybackMsg::Select(3))
    );
    let alone = load("seed=3&preset=race");
    assert_eq!(
        app::mark_select(&alone, Side::B, 3),
        Msg::Playback(PlaybackMsg::Select(3)),
        "no B, no focus"
    );
}

/// With the key store beside it a desktop timeline is about 620 px wide, and Fit
/// must fit the run to that; only a phone keeps the readable minimum and scrolls sideways.
#[test]
fn the_plot_fits_the_width_beside_the_key_store_and_keeps_its_minimum_on_a_phone() {
    assert_eq!(app::plot_width_px(620.0, 1366.0, GUTTER_PX, false), 488);
    assert_eq!(app::plot_width_px(904.0, 1366.0, GUTTER_PX, false), 772);
    assert_eq!(
        app::plot_width_px(200.0, 1366.0, GUTTER_PX, false),
        app::PLOT_MIN_WIDE_PX
    );
    assert_eq!(
        app::plot_width_px(374.0, 390.0, GUTTER_PX, false),
        app::PLOT_MIN_PX,
        "a phone scrolls"
    );
}

/// An embed's column narrows after load (a course page's sidebar opens) down to a
/// phone's 360 px; the plot follows it and Fit keeps the whole run in view, with no right
/// edge cut off, while the same width outside a frame keeps the phone's readable minimum.
#[test]
fn an_embeds_plot_fills_its_column_at_any_width_so_fit_shows_the_whole_run() {
    for (timeline_px, window_px) in [
        (1000.0, 1016.0),
        (730.0, 748.0),
        (544.0, 560.0),
        (344.0, 360.0),
    ] {
        let plot_px = app::plot_width_px(timeline_px, window_px, GUTTER_PX, true);
        assert_eq!(
            plot_px,
            (timeline_px - GUTTER_PX - 4.0) as u32,
            "a {timeline_px} px column"
        );
        assert!(
            f64::from(plot_px) + GUTTER_PX <= timeline_px,
            "nothing cut at {timeline_px} px"
        );
    }
    assert_eq!(
        app::plot_width_px(200.0, 360.0, GUTTER_PX, true),
        app::PLOT_MIN_EMBED_PX
    );
    assert_eq!(
        app::plot_width_px(344.0, 360.0, GUTTER_PX, false),
        app::PLOT_MIN_PX
    );
}

/// Fit at a 360 px embed's plot (212 px) puts the run across three quarters of it,
/// not a quarter; a wide plot (the export's 1,000 px) keeps its 160 px for the last label.
#[test]
fn fit_fills_a_narrow_plot_with_the_run() {
    let end_us = 1_176_964;
    for (width_px, fill_min, fill_max) in [(212, 0.74, 0.76), (1000, 0.83, 0.85)] {
        let viewport = idemlab_lab::view::window(end_us, None, width_px);
        let fill = viewport.x_px(end_us) / f64::from(width_px);
        assert!(
            (fill_min..=fill_max).contains(&fill),
            "{width_px} px: the run fills {fill}"
        );
    }
}

#[test]
fn a_lesson_that_compares_squeezes_the_lanes_so_both_runs_fit_one_screen() {
    // At the usual lanes a compare step's run B falls below the fold at 1366×768.
    let compare = load("lesson=a&step=5");
    let fits = |lanes: usize, px: u32| 2 * lanes as u32 * px <= app::TWO_RUNS_LANES_PX;
    for lanes in [4, 5, 6] {
        let px = app::lane_px(&compare, lanes, 1366.0).expect("squeezed");
        assert!(
            fits(lanes, px) && px >= app::LANE_MIN_PX,
            "{lanes} lanes: {px} px"
        );
    }
    assert_eq!(
        app::lane_px(&load("lesson=a&step=1"), 4, 1366.0),
        None,
        "one run: the usual lanes"
    );
    let free = load("seed=1&preset=restart&compare=store%3Ddurable");
    assert_eq!(app::lane_px(&free, 4, 1366.0), None, "free play keeps them");
    assert_eq!(
        app::lane_px(&free, 4, 390.0),
        None,
        "free play on a phone keeps them too"
    );
    // At the usual lanes a phone's docked timeline would be 688 px of lanes in a 374 px box.
    for lanes in [4, 5, 6] {
        let px = app::lane_px(&load("lesson=a&step=4"), lanes, 390.0).expect("docked");
        assert!(lanes as u32 * px <= app::DOCK_LANES_PX.max(lanes as u32 * app::LANE_MIN_PX));
    }
    // The plot is as tall as its lanes say, and the hit test finds a mark on a squeezed lane.
    let (scenario, overlay) = (
        idemlab_core::scenario::decode("seed=3&preset=race")
            .unwrap()
            .scenario,
        idemlab_lab::view::Overlay {
            lane_px: Some(40),
            ..Default::default()
        },
    );
    let trace = idemlab_lab::run(&scenario).0;
    let timeline = idemlab_lab::view::layout(&trace);
    let lanes = timeline.lanes().len();
    assert_eq!(
        idemlab_lab::view::plot_height_px(lanes, overlay.lane_px()),
        30.0 + 40.0 * lanes as f64
    );
}

/// In a frame of fixed height the lanes shrink so the run fits under the chrome (B
/// too while comparing), never under `LANE_MIN_PX`; a tall frame keeps the usual lanes.
#[test]
fn a_fixed_height_squeezes_the_lanes_to_fit_the_frame() {
    let fit = |query: &str, lanes| app::lane_px(&load(query), lanes, 1000.0);
    assert_eq!(fit("seed=7&embed=1", 5), None, "no height: the usual lanes");
    assert_eq!(fit("seed=7&embed=1&height=600", 5), Some(40));
    assert_eq!(
        fit("seed=7&embed=1&height=600&compare=dedup%3Datomic", 5),
        Some(app::LANE_MIN_PX)
    );
    assert_eq!(
        fit("seed=7&embed=1&height=1200", 5),
        None,
        "room for 60 px lanes"
    );
    assert_eq!(fit("seed=7&embed=1&height=320", 4), Some(app::LANE_MIN_PX));
    let budget = 600 - app::FIT_CHROME_PX;
    assert!(5 * 40 <= budget);
}

#[test]
fn a_timelines_tooltip_ends_inside_what_shows_of_a_scrolled_timeline() {
    // Beside the point where there is room.
    assert_eq!(app::tooltip_left_px(114.0, 200.0, (0.0, 390.0)), 114.0);
    // Near the right edge of what shows, shifted left to end inside it.
    assert_eq!(app::tooltip_left_px(914.0, 200.0, (600.0, 990.0)), 786.0);
    // Scrolled 600 px, a point left of what shows puts it at the left edge, not off screen.
    assert_eq!(app::tooltip_left_px(0.0, 200.0, (600.0, 990.0)), 604.0);
    // Wider than what shows: it starts at the left edge.
    assert_eq!(app::tooltip_left_px(714.0, 500.0, (600.0, 990.0)), 604.0);
}

#[test]
fn a_step_about_many_orders_labels_only_what_it_points_at() {
    let labelled = |query: &str| {
        let page = idemlab_app::Page::built(query);
        let a = &page.runs.a.trace;
        idemlab_app::overlay(&page.state, a, idemlab_lab::Side::A).labelled
    };
    assert_eq!(
        labelled("lesson=b&step=10&gate=0"),
        Some(idemlab_lab::view::Find::Effect),
        "50 orders: the charges its text counts"
    );
    assert_eq!(
        labelled("lesson=a&step=1&gate=0"),
        None,
        "one order: every label"
    );
    assert_eq!(
        labelled("seed=1&orders=50"),
        None,
        "outside a lesson: every label"
    );
}
