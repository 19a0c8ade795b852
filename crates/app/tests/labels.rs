//! A readable timeline: no two labels of a drawing overlap, at any width or zoom.
//!
//! Every preset × 100 seeds × 3 plot widths (262 px, a 390 px phone column less the lane
//! gutter; 632 px, a 760 px column less the gutter; 1,000 px, the export's) × 3 windows (the
//! whole run, a 4× zoom and a 32× zoom about a point drawn from the seed), plus busy links:
//! each text's box, measured by `view::text_box` (the fixed advance measure the canvas also
//! paints to), misses every other text's box and lies inside the drawing, and every label of a
//! mark lies inside the plot. It takes about a second; `TEST_MODE=long` runs 1,000 seeds.

#[path = "../../lab/tests/common/mod.rs"]
mod common;

use idemlab_core::scenario::{decode, presets::PRESETS};
use idemlab_lab::view::{self, Drawing, Font, Rect, Timeline, Viewport};

/// Plot widths, without the lane gutter.
const WIDTHS_PX: [u32; 3] = [262, 632, view::EXPORT_WIDTH_PX];

fn seeds() -> u64 {
    match std::env::var("TEST_MODE").as_deref() {
        Ok("long") => 1_000,
        _ => 100,
    }
}

fn timeline(query: &str) -> Timeline {
    let scenario = decode(query)
        .unwrap_or_else(|e| panic!("{query}: {e:?}"))
        .scenario;
    view::layout(&idemlab_core::sim::run(&scenario))
}

fn check_timeline(timeline: &Timeline, name: &str, seed: u64) -> usize {
    let mut checked = 0;
    for width_px in WIDTHS_PX {
        for viewport in viewports(timeline, width_px, seed) {
            let what = format!(
                "{name} at {width_px} px, {}..{} µs",
                viewport.t0_us(),
                viewport.t1_us()
            );
            checked += check(&common::page_plot(timeline, viewport), &what);
        }
    }
    checked
}

/// The whole run, then a 4× and a 32× zoom about a point that moves with the seed.
fn viewports(timeline: &Timeline, width_px: u32, seed: u64) -> Vec<Viewport> {
    let whole = view::window(timeline.end_us(), None, width_px);
    let anchor_px = f64::from(width_px) * ((seed * 37 % 100) as f64 / 100.0);
    let zoom4 = whole.zoom(4.0, anchor_px);
    let zoom32 = zoom4.zoom(8.0, anchor_px);
    vec![whole, zoom4, zoom32]
}

/// The boxes of the drawing's dots, rings and drop crosses: what a label must not cover.
fn glyphs(drawing: &Drawing) -> Vec<Rect> {
    let mut out = Vec::new();
    for shape in drawing.groups.iter().flat_map(|g| &g.shapes) {
        match &shape.geometry {
            view::Geometry::Circle { at, r } if *r <= 8.0 => {
                // A ring is stroked: half its width lies outside its radius.
                let r = match shape.paint {
                    view::Paint::Stroke { width_px, .. } => r + width_px / 2.0,
                    view::Paint::Fill => *r,
                };
                out.push(Rect::new(at.0 - r, at.1 - r, 2.0 * r, 2.0 * r));
            }
            view::Geometry::Path { points, .. } if shape.ink == view::Ink::Drop => {
                let xy = points.iter().map(|p| match *p {
                    view::PathPoint::Move(x, y) | view::PathPoint::Line(x, y) => (x, y),
                });
                let (xs, ys): (Vec<f64>, Vec<f64>) = xy.unzip();
                let (x0, x1) = (
                    xs.iter().cloned().fold(f64::MAX, f64::min),
                    xs.iter().cloned().fold(f64::MIN, f64::max),
                );
                let (y0, y1) = (
                    ys.iter().cloned().fold(f64::MAX, f64::min),
                    ys.iter().cloned().fold(f64::MIN, f64::max),
                );
                out.push(Rect::new(x0, y0, x1 - x0, y1 - y0));
            }
            _ => {}
        }
    }
    out
}

/// Every text of the drawing overlaps no other and stays inside the drawing; mark labels stay
/// inside the plot and off every dot, ring and cross (a duplicate's label may cover one when
/// nothing else has room: it must always say what it is). Returns how many boxes it checked.
fn check(drawing: &Drawing, what: &str) -> usize {
    let page = Rect::new(0.0, 0.0, drawing.width_px, drawing.height_px);
    let glyphs = glyphs(drawing);
    let mut boxes: Vec<(Rect, &str)> = Vec::new();
    for group in &drawing.groups {
        for shape in &group.shapes {
            let Some(rect) = shape.text_box() else {
                continue;
            };
            let view::Geometry::Text { text, .. } = &shape.geometry else {
                unreachable!()
            };
            assert!(
                page.contains(&rect),
                "{what}: {text:?} at {rect:?} leaves the drawing"
            );
            if group.clip {
                assert!(
                    drawing.clip.contains(&rect),
                    "{what}: {text:?} at {rect:?} leaves the plot {:?}",
                    drawing.clip
                );
                let covered = glyphs.iter().find(|g| g.intersects(&rect));
                assert!(
                    // A duplicate's label, drawn in the duplicate's ink, may touch its ring.
                    covered.is_none() || shape.ink.name().contains("duplicate"),
                    "{what}: {text:?} at {rect:?} covers a mark at {covered:?}"
                );
            }
            for (other, other_text) in &boxes {
                assert!(
                    !rect.intersects(other),
                    "{what}: {text:?} at {rect:?} overlaps {other_text:?} at {other:?}"
                );
            }
            boxes.push((rect, text));
        }
    }
    boxes.len()
}

fn check_query(query: &str, seed: u64) -> usize {
    check_timeline(&timeline(query), query, seed)
}

/// Lesson steps draw crowded timelines the presets never draw: every step's run A and its fix
/// B, at every width and zoom, with the zoom's anchor drawn from a few seeds.
#[test]
fn every_lesson_step_keeps_its_labels_apart() {
    for lesson in &idemlab_course::lessons::LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            let mut query = step.query.to_string();
            if let Some(compare) = step.compare {
                let keys = idemlab_core::scenario::codec::percent_encode(compare);
                query.push_str(&format!("&compare={keys}"));
            }
            let (page, _, errors) = idemlab_app::page::PageState::from_query(&query);
            assert!(errors.is_empty(), "{query}: {errors:?}");
            let runs = [Some(page.scenario.clone()), page.compare_scenario()];
            for (side, scenario) in runs.iter().enumerate() {
                let Some(scenario) = scenario else { continue };
                let timeline = view::layout(&idemlab_core::sim::run(scenario));
                let name = format!("lesson {} step {} run {side}", lesson.id, index + 1);
                for seed in 1..=5 {
                    check_timeline(&timeline, &name, seed);
                }
            }
        }
    }
}

#[test]
fn no_two_labels_overlap_for_any_preset_seed_width_or_zoom() {
    let mut checked = 0;
    let mut drawings = 0;
    for spec in &PRESETS {
        for seed in 1..=seeds() {
            checked += check_query(&format!("seed={seed}&preset={}", spec.name), seed);
            drawings += WIDTHS_PX.len() * 3;
        }
    }
    // The test would pass vacuously if nothing were labelled.
    assert!(
        checked > drawings * 5,
        "{checked} boxes in {drawings} drawings"
    );
    eprintln!("{checked} label boxes in {drawings} drawings, none overlapping");
}

#[test]
fn busy_links_keep_their_labels_apart() {
    for seed in 1..=10 {
        for query in [
            "preset=race&clients=8&orders=40",
            "preset=naive-vs-atomic&orders=40&loss_resp=0.3",
            "preset=lost-ack&orders=30&consumer=inbox",
            "preset=outside-boundary&orders=20&clients=4",
        ] {
            check_query(&format!("seed={seed}&{query}"), seed);
        }
    }
}

#[test]
fn the_export_keeps_its_heading_legend_and_labels_apart() {
    for spec in &PRESETS {
        let query = format!("seed=3&preset={}", spec.name);
        let timeline = timeline(&query);
        let viewport = view::window(timeline.end_us(), None, view::EXPORT_WIDTH_PX);
        let drawing = view::svg::drawing(&timeline, &viewport, &view::SvgOptions::default());
        check(&drawing, &query);
    }
}

#[test]
fn a_label_left_without_room_is_counted_in_a_plus_n() {
    // Eight orders on a phone's width: more labels than room, in every window that still
    // draws marks (a window that draws counts per pixel column has only band captions).
    let timeline = timeline("seed=2&preset=naive-vs-atomic");
    let mut more = Vec::new();
    for viewport in viewports(&timeline, 262, 2) {
        let drawing = common::page_plot(&timeline, viewport);
        for group in drawing.groups.iter().filter(|group| group.class == "more") {
            if let view::Geometry::Text { text, .. } = &group.shapes[0].geometry {
                more.push(text.clone());
            }
        }
    }
    assert!(!more.is_empty(), "no +N on a crowded phone timeline");
    assert!(
        (more.iter()).all(|text| text
            .strip_prefix('+')
            .is_some_and(|n| n.parse::<u32>().is_ok_and(|n| n >= 1))),
        "{more:?}"
    );
}

#[test]
fn a_long_lane_name_is_shortened_in_the_middle_to_fit_the_gutter() {
    let fitted = view::shorten("pod 9494570e (rerun)", Font::Plain, 116.0);
    assert!(Font::Plain.width_px(&fitted) <= 116.0, "{fitted}");
    assert!(
        fitted.starts_with("pod ") && fitted.ends_with("(rerun)"),
        "{fitted}"
    );
    assert_eq!(view::shorten("API", Font::Plain, 116.0), "API");
}

#[test]
fn the_measure_is_at_least_the_widest_common_font_s() {
    // DejaVu Sans at 12 px, as Chromium measures it (the widest of the usual `system-ui`
    // fonts), with the stated margin of 5 %.
    for (text, font, measured_px) in [
        ("duplicate charge", Font::Plain, 100.64),
        ("M", Font::Plain, 10.35),
        ("0", Font::Plain, 7.63),
        ("order 12: charge 2 of 2 (#4)", Font::Plain, 169.37),
        ("pod 9494570e (rerun)", Font::Plain, 132.59),
        ("+12", Font::Bold, 26.75),
    ] {
        let width = font.width_px(text);
        assert!(
            width >= measured_px * 1.05,
            "{text}: {width} < {measured_px} + 5 %"
        );
    }
}

#[test]
fn squeezed_lanes_keep_their_labels_apart() {
    // A lesson squeezes the lanes (`app::lane_px`): both runs of a compare step at 1366×768,
    // a phone's docked timeline. Their labels must stay apart as well.
    for spec in &PRESETS {
        for seed in 1..=20 {
            let query = format!("seed={seed}&preset={}", spec.name);
            let timeline = timeline(&query);
            for lane_px in [idemlab_app::LANE_MIN_PX, 40, 50] {
                for width_px in [view::EXPORT_WIDTH_PX, 560] {
                    let viewport = view::window(timeline.end_us(), None, width_px);
                    let shown = timeline.view(&viewport);
                    let scene = view::Scene {
                        timeline: &timeline,
                        viewport,
                        view: &shown,
                        overlay: view::Overlay {
                            lane_px: Some(lane_px),
                            ..Default::default()
                        },
                        links: false,
                        top_px: 0.0,
                    };
                    let what = format!("{query} with {lane_px} px lanes at {width_px} px");
                    check(&view::plot(&scene), &what);
                }
            }
        }
    }
}
