//! The timeline view, natively: layouts of the presets say what the page claims, culling agrees
//! with a brute-force filter, and the SVG export is well-formed XML.
//!
//! Every failure names the query (and seed) that reproduces it.

mod common;

use expect_test::expect;
use idemlab_core::scenario::{decode, presets::PRESETS};
use idemlab_core::trace::{ClaimResult, DropCause, EventKind, Found, Trace};
use idemlab_lab::metrics::Metrics;
use idemlab_lab::view::{
    self, layout, ArrowEnd, Band, Class, Mark, MarkKind, Span, SvgOptions, Timeline, View, Viewport,
};
use rand::{Rng, SeedableRng};

fn run(query: &str) -> (Trace, Timeline) {
    let scenario = decode(query)
        .unwrap_or_else(|e| panic!("{query}: {e:?}"))
        .scenario;
    let trace = idemlab_core::sim::run(&scenario);
    let timeline = layout(&trace);
    (trace, timeline)
}

/// Every preset over a few dozen seeds, plus the race with the atomic fix (blocked claims).
fn sweep_queries() -> Vec<String> {
    let mut queries = Vec::new();
    for seed in 1..=40 {
        for spec in &PRESETS {
            queries.push(format!("seed={seed}&preset={}", spec.name));
        }
        queries.push(format!("seed={seed}&preset=race&dedup=atomic"));
        queries.push(format!(
            "seed={seed}&preset=naive-vs-atomic&op=set&body_change=true"
        ));
        // A keyed provider with no dedup at the API: one charge, booked twice in the ledger.
        queries.push(format!("seed={seed}&preset=lost-ack&provider=keyed"));
        queries.push(format!(
            "seed={seed}&preset=outside-boundary&dedup=none&provider=keyed"
        ));
    }
    queries
}

fn marks_of(timeline: &Timeline, class: Class) -> Vec<&Mark> {
    (timeline.marks().iter())
        .filter(|mark| mark.class() == class)
        .collect()
}

#[test]
fn naive_race_has_a_race_region_and_a_duplicate_charge() {
    // With the race preset the retry reads the key while the first attempt is still charging.
    let query = "seed=7&preset=race&dedup=naive";
    let (trace, timeline) = run(query);
    let races: Vec<&Mark> = marks_of(&timeline, Class::Race);
    assert!(!races.is_empty(), "{query}");
    assert_eq!(
        races.len() as u32,
        idemlab_lab::Metrics::of(&trace).races,
        "{query}"
    );
    let race = races[0];
    for &ix in &timeline.events_of(race)[..2] {
        let kind = trace.events[ix as usize].kind;
        let not_found = EventKind::Lookup {
            found: Found::NotFound,
        };
        assert_eq!(
            kind, not_found,
            "{query}: a race starts at two not-found reads"
        );
    }
    let reqs = timeline
        .race_reqs(race)
        .expect("a race mark has two requests");
    assert_ne!(reqs[0], reqs[1], "{query}: a race is between two requests");
    let dups = marks_of(&timeline, Class::ChargeDuplicate);
    let dup = dups.first().expect("the race duplicates a charge");
    let label = timeline.label(dup);
    assert!(label.contains("charge 2 of"), "{label}");
    assert!(
        dup.t1_us <= race.t1_us,
        "{query}: the region covers both charges"
    );
    let first = (timeline.marks().iter())
        .find(|mark| {
            timeline.order(mark) == timeline.order(dup)
                && timeline.label(mark).contains("charge 1 of")
        })
        .expect("the first charge says it is one of several");
    assert_eq!(first.class(), Class::Charge);
}

#[test]
fn lost_ack_has_responses_dropped_by_the_partition() {
    let query = "seed=7&preset=lost-ack";
    let (_, timeline) = run(query);
    let dropped: Vec<&Mark> = (timeline.marks().iter())
        .filter(|mark| {
            matches!(
                mark.kind,
                MarkKind::Arrow {
                    end: ArrowEnd::Dropped {
                        cause: DropCause::Partition,
                        midway: true
                    },
                    ..
                }
            )
        })
        .collect();
    assert!(!dropped.is_empty(), "{query}: no partition drops");
    for mark in dropped {
        assert_eq!(
            mark.class(),
            Class::Response,
            "{query}: only responses are cut"
        );
    }
}

/// A lesson phrase such as "the ✕ on the arrows to the client" outlines the crosses it names,
/// not only the sender's end of each arrow (a newcomer saw the boxes sit on the API's dot).
#[test]
fn outlining_dropped_messages_boxes_their_crosses() {
    let query = "seed=7&preset=lost-ack&orders=2";
    let (_, timeline) = run(query);
    let viewport = view::window(timeline.end_us(), None, 632);
    let shown = timeline.view(&viewport);
    let find = view::Find::Drop(DropCause::Partition);
    let scene = view::Scene {
        timeline: &timeline,
        viewport,
        view: &shown,
        overlay: view::Overlay {
            highlight: Some(find),
            ..view::Overlay::default()
        },
        links: false,
        top_px: 0.0,
    };
    let drawing = view::plot(&scene);
    let shapes = || drawing.groups.iter().flat_map(|group| &group.shapes);
    let boxes: Vec<view::Rect> = shapes()
        .filter(|shape| shape.ink == view::Ink::Selected)
        .filter_map(|shape| match shape.geometry {
            view::Geometry::Rect(rect) => Some(rect),
            _ => None,
        })
        .collect();
    let named = timeline.marks().iter().filter(|m| find.matches(m)).count();
    assert!(named > 0, "{query}: no partition drops");
    assert_eq!(boxes.len(), named, "{query}: one box per dropped message");
    for rect in &boxes {
        let crosses = shapes().filter(|shape| shape.ink == view::Ink::Drop);
        let inside = crosses.filter(|shape| {
            let view::Geometry::Path { points, .. } = &shape.geometry else {
                return false;
            };
            points.iter().all(|point| {
                let (view::PathPoint::Move(x, y) | view::PathPoint::Line(x, y)) = *point;
                (rect.x..=rect.x + rect.w).contains(&x) && (rect.y..=rect.y + rect.h).contains(&y)
            })
        });
        assert!(inside.count() >= 1, "{query}: the box {rect:?} holds no ✕");
    }
}

#[test]
fn outside_boundary_has_an_api_down_band() {
    let query = "seed=7&preset=outside-boundary";
    let (trace, timeline) = run(query);
    let bands = marks_of(&timeline, Class::ApiDown);
    assert_eq!(bands.len(), 1, "{query}");
    let band = bands[0];
    assert_eq!(
        Some(band.lane),
        timeline.lane_of(idemlab_core::trace::Node::Api)
    );
    let events = timeline.events_of(band);
    assert_eq!(trace.events[events[0] as usize].kind, EventKind::Crash);
    assert_eq!(trace.events[events[1] as usize].kind, EventKind::Restart);
    assert!(
        band.t1_us > band.t0_us,
        "{query}: the API is down for restart_ms"
    );
}

#[test]
fn atomic_race_draws_a_blocked_wait_until_the_unique_violation() {
    let query = "seed=8&preset=race&dedup=atomic";
    let (trace, timeline) = run(query);
    let waits = marks_of(&timeline, Class::Blocked);
    assert!(!waits.is_empty(), "{query}: no blocked wait");
    for wait in waits {
        let events = timeline.events_of(wait);
        let [start, end] = [events[0], events[1]].map(|i| trace.events[i as usize]);
        let blocked = EventKind::Claim {
            result: ClaimResult::Blocked,
        };
        assert_eq!(start.kind, blocked, "{query}");
        assert_eq!(
            start.req(),
            end.req(),
            "{query}: a wait ends for the request that waited"
        );
        assert!(matches!(
            wait.kind,
            MarkKind::Span {
                span: Span::Blocked
            }
        ));
    }
    assert_eq!(
        timeline.duplicates(),
        0,
        "{query}: the claim stops the duplicate"
    );
}

#[test]
fn reruns_and_replacements_are_bands() {
    let (_, timeline) = run("seed=7&preset=ledger-replaced");
    let replaced = marks_of(&timeline, Class::LedgerReplaced);
    assert_eq!(replaced.len(), 1);
    assert_eq!(
        replaced[0].t0_us, replaced[0].t1_us,
        "a replacement is an instant"
    );
    let db = timeline.lane_of(idemlab_core::trace::Node::Db);
    assert_eq!(Some(replaced[0].lane), db);
    let reruns = marks_of(&timeline, Class::Rerun);
    assert_eq!(reruns.len(), 1);
    let lane = &timeline.lanes()[usize::from(reruns[0].lane)];
    assert!(
        lane.rerun && lane.label.ends_with("(rerun)"),
        "{}",
        lane.label
    );
}

#[test]
fn conflicts_and_mismatches_show_their_status() {
    let cases = [
        // A claim committed outside the transaction is visible: the retry's lookup gets 409.
        (
            "seed=1&preset=race&dedup=atomic&order=claim,begin,lookup,effect,commit,respond",
            Class::ReplyConflict,
            "409 in progress",
        ),
        // A retry whose body changed under the same key gets 422.
        (
            "seed=1&preset=lost-ack&dedup=atomic&body_change=true",
            Class::ReplyError,
            "422 body mismatch",
        ),
    ];
    for (query, class, label) in cases {
        let (_, timeline) = run(query);
        let replies = marks_of(&timeline, class);
        let says = |m: &Mark| timeline.label(m) == label;
        assert!(replies.iter().any(|m| says(m)), "{query}: {label}");
        let status = &label[..3];
        let arrow = (timeline.marks().iter())
            .find(|m| m.class() == Class::Response && timeline.label(m).starts_with(status));
        assert!(arrow.is_some(), "{query}: the response arrow says {status}");
    }
}

#[test]
fn view_counts_match_metrics_over_presets_and_seeds() {
    for query in sweep_queries() {
        let (trace, timeline) = run(&query);
        let metrics = Metrics::of(&trace);
        assert_eq!(timeline.races(), metrics.races, "{query}: races");
        assert_eq!(
            timeline.duplicates(),
            metrics.duplicates,
            "{query}: duplicates"
        );
    }
}

#[test]
fn every_send_has_exactly_one_arrow_and_no_arrow_runs_backwards() {
    for query in sweep_queries() {
        let (trace, timeline) = run(&query);
        let mut arrows_by_send = vec![0u32; trace.events.len()];
        for mark in timeline.marks() {
            let MarkKind::Arrow { end, .. } = mark.kind else {
                continue;
            };
            let events = timeline.events_of(mark);
            let EventKind::Send { msg, .. } = trace.events[events[0] as usize].kind else {
                panic!("{query}: an arrow starts at a send");
            };
            assert!(
                mark.t1_us >= mark.t0_us,
                "{query}: arrow m{msg} ends before it starts"
            );
            let send = trace.events[events[0] as usize];
            assert!(
                matches!(send.kind, EventKind::Send { msg: m, .. } if m == msg),
                "{query}: arrow m{msg} starts at its send"
            );
            arrows_by_send[events[0] as usize] += 1;
            if end == ArrowEnd::InFlight {
                continue;
            }
            let last = trace.events[events[1] as usize];
            let ends = matches!(last.kind,
                EventKind::Deliver { msg: m } | EventKind::Drop { msg: m, .. } if m == msg);
            assert!(ends, "{query}: arrow m{msg} ends at its delivery or drop");
            assert_eq!(last.time_us, mark.t1_us, "{query}: m{msg}");
        }
        for (ix, event) in trace.events.iter().enumerate() {
            let is_send = matches!(event.kind, EventKind::Send { .. });
            assert_eq!(
                arrows_by_send[ix],
                u32::from(is_send),
                "{query}: event {ix}"
            );
        }
    }
}

#[test]
fn marks_are_sorted_and_point_at_real_events() {
    for query in sweep_queries() {
        let (trace, timeline) = run(&query);
        let lanes = timeline.lanes().len();
        assert_eq!(lanes, trace.pods.len() + 3, "{query}");
        for pair in timeline.marks().windows(2) {
            assert!(
                pair[0].t0_us <= pair[1].t0_us,
                "{query}: marks sorted by start"
            );
        }
        for mark in timeline.marks() {
            assert!(
                mark.t0_us <= mark.t1_us && mark.t1_us <= timeline.end_us(),
                "{query}"
            );
            assert!(usize::from(mark.lane) < lanes, "{query}");
            let first = trace.events[mark.event() as usize];
            let label = timeline.label(mark);
            assert_eq!(first.time_us, mark.t0_us, "{query}: {label}");
            assert!((timeline.events_of(mark).iter()).all(|&e| (e as usize) < trace.events.len()));
        }
    }
}

#[test]
fn every_transaction_is_a_span_that_ends_at_its_commit_or_rollback() {
    for query in sweep_queries() {
        let (trace, timeline) = run(&query);
        let begins = (trace.events.iter())
            .filter(|e| matches!(e.kind, EventKind::TxBegin { .. }))
            .count();
        let spans = (timeline.marks().iter())
            .filter(|m| {
                matches!(
                    m.kind,
                    MarkKind::Span {
                        span: Span::Txn { .. }
                    }
                )
            })
            .count();
        assert_eq!(begins, spans, "{query}");
    }
}

#[test]
fn a_truncated_run_still_lays_out() {
    let query = "seed=3&preset=lost-ack&orders=20&events_max=100";
    let (trace, timeline) = run(query);
    assert!(trace.truncated && timeline.truncated(), "{query}");
    assert_eq!(marks_of(&timeline, Class::CapReached).len(), 1, "{query}");
    let svg = view::svg(
        &timeline,
        &Viewport::fit(timeline.end_us(), 600),
        &SvgOptions::default(),
    );
    xml::check(&svg).unwrap_or_else(|e| panic!("{query}: {e}"));
}

/// The brute-force answer `Timeline::visible` must equal.
fn overlapping(timeline: &Timeline, viewport: &Viewport) -> Vec<u32> {
    (timeline.marks().iter().enumerate())
        .filter(|(_, m)| m.t0_us <= viewport.t1_us() && m.t1_us >= viewport.t0_us())
        .map(|(ix, _)| ix as u32)
        .collect()
}

#[test]
fn culling_equals_a_brute_force_filter_on_random_viewports() {
    let queries = [
        "seed=8&preset=race",
        "seed=7&preset=outside-boundary",
        "seed=5&preset=key-expiry",
        "seed=2&preset=naive-vs-atomic&orders=300&clients=4",
        "seed=4&preset=lost-ack&orders=500&events_max=5000",
    ];
    for query in queries {
        let (_, timeline) = run(query);
        for seed in 0..300u64 {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
            let end_us = timeline.end_us() + 1_000;
            let t0_us = rng.random_range(0..end_us);
            let span_us = rng.random_range(1..=end_us);
            let viewport = Viewport::new(t0_us, t0_us + span_us, rng.random_range(1..2_000));
            let fast = timeline.visible(&viewport);
            let slow = overlapping(&timeline, &viewport);
            assert_eq!(fast, slow, "{query} seed {seed}: {viewport:?}");
        }
    }
}

#[test]
fn a_crowded_viewport_turns_into_per_column_counts() {
    let query = "seed=1&preset=naive-vs-atomic&orders=2000&clients=4&events_max=1000000";
    let (trace, timeline) = run(query);
    let metrics = Metrics::of(&trace);
    let viewport = Viewport::fit(timeline.end_us(), 800);
    let View::Density(density) = timeline.view(&viewport) else {
        panic!(
            "{query}: {} marks in 800 px should aggregate",
            timeline.marks().len()
        );
    };
    let counted: u32 = density.counts.iter().sum::<u32>()
        + density.races.iter().sum::<u32>()
        + density.bands.len() as u32;
    assert_eq!(
        counted, density.marks,
        "{query}: every visible mark counted once"
    );
    assert_eq!(
        density.marks as usize,
        timeline.marks().len(),
        "{query}: fit shows all"
    );
    assert_eq!(density.races.iter().sum::<u32>(), metrics.races, "{query}");
    assert_eq!(
        density.duplicates.iter().sum::<u32>(),
        metrics.duplicates,
        "{query}"
    );
    // Zoomed in to a few orders, the same timeline lists marks again.
    let narrow = Viewport::new(timeline.end_us() / 2, timeline.end_us() / 2 + 100_000, 800);
    assert!(
        matches!(timeline.view(&narrow), View::Marks { .. }),
        "{query}"
    );
}

#[test]
fn a_hundred_thousand_events_lay_out_and_pan() {
    // The page's worst case; `cargo run --release --example view_bench` times this workload.
    let query = "orders=5000&preset=lost-ack&events_max=1000000";
    let (trace, timeline) = run(query);
    assert!(
        trace.events.len() > 90_000,
        "{query}: {}",
        trace.events.len()
    );
    let seen = view::pan_sweep(&timeline, 1_200, 2_000_000, 200);
    assert!(seen > 0, "{query}");
}

#[test]
fn ticks_fall_on_round_steps_inside_the_window() {
    for (t0_us, t1_us, width_px) in [
        (0, 182_331, 1_000),
        (12_345, 12_400, 300),
        (0, 3_600_000_000, 1_200),
        (999, 1_000_000_999, 97),
    ] {
        let viewport = Viewport::new(t0_us, t1_us, width_px);
        let ticks = viewport.ticks(80);
        assert!(!ticks.is_empty(), "{viewport:?}");
        let step_us = view::tick_step_us(viewport.span_us(), width_px, 80);
        let mantissa = step_us / 10u64.pow(step_us.ilog10());
        assert!(
            [1, 2, 5].contains(&mantissa),
            "{viewport:?}: step {step_us}"
        );
        for pair in ticks.windows(2) {
            assert_eq!(pair[1].time_us - pair[0].time_us, step_us);
            assert!(pair[1].x_px - pair[0].x_px >= 79.9, "{viewport:?}");
        }
        for tick in &ticks {
            assert!(
                (t0_us..=viewport.t1_us()).contains(&tick.time_us),
                "{viewport:?}"
            );
            assert_eq!(tick.time_us % step_us, 0);
        }
    }
    let ticks = Viewport::new(0, 1_000, 1_000).ticks(80);
    let labels: Vec<&str> = ticks.iter().map(|t| t.label.as_str()).collect();
    assert_eq!(labels[..3], ["0 ms", "0.1 ms", "0.2 ms"]);
}

#[test]
fn a_run_with_no_events_draws_no_time_scale() {
    // A quiz question's run is held (no events) until its answer: walk 3 read its axis,
    // "0 ms … 1.5 ms", as the run's length. With events, the same plot has its ticks.
    let axis_shapes = |trace: &Trace| {
        let timeline = layout(trace);
        let drawing = common::page_plot(&timeline, Viewport::new(0, 1_500, 600));
        let axis = drawing
            .groups
            .iter()
            .find(|g| g.class == "axis")
            .expect("an axis group");
        axis.shapes.len()
    };
    let scenario = decode("seed=3&preset=race").unwrap();
    assert_eq!(axis_shapes(&Trace::new(&scenario.scenario)), 0);
    let (trace, _) = run("seed=3&preset=race");
    assert!(axis_shapes(&trace) > 0);
}

#[test]
fn zoom_keeps_the_time_under_the_pointer_and_pan_moves_by_pixels() {
    let viewport = Viewport::new(10_000, 110_000, 1_000);
    let anchor_us = viewport.time_us_at(250.0);
    let zoomed = viewport.zoom(4.0, 250.0);
    assert_eq!(zoomed.span_us(), 25_000);
    assert_eq!(zoomed.time_us_at(250.0), anchor_us);
    assert_eq!(zoomed.zoom(0.25, 250.0), viewport);
    let panned = viewport.pan(100.0);
    assert_eq!(panned.t0_us(), 20_000);
    assert_eq!(panned.pan(-100.0), viewport);
    assert_eq!(viewport.pan(-1e9).t0_us(), 0, "pan stops at 0");
    assert!(viewport.zoom(1e12, 0.0).span_us() >= view::SPAN_US_MIN);
    assert_eq!(Viewport::new(0, 500, 100).clamp_to(200).span_us(), 200);
}

#[test]
fn svg_is_well_formed_with_titles_legend_and_event_links() {
    for query in [
        "seed=8&preset=race",
        "seed=7&preset=outside-boundary",
        "seed=7&preset=pod-rerun",
    ] {
        let (_, timeline) = run(query);
        let viewport = Viewport::fit(timeline.end_us(), 1_000);
        let options = SvgOptions {
            title: format!("{query} <'\"&>"),
            ..SvgOptions::default()
        };
        let svg = view::svg(&timeline, &viewport, &options);
        xml::check(&svg).unwrap_or_else(|e| panic!("{query}: {e}\n{svg}"));
        assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
        assert!(svg.contains("<title>seed="), "{query}");
        assert!(
            svg.contains("&lt;&apos;&quot;&amp;&gt;"),
            "{query}: title escaped"
        );
        assert!(svg.contains("prefers-color-scheme: dark"), "{query}");
        assert!(svg.contains("class=\"legend\""), "{query}");
        let links = svg.matches(" data-event=\"").count();
        assert_eq!(
            links,
            timeline.visible(&viewport).len(),
            "{query}: one per mark"
        );
    }
}

#[test]
fn svg_of_a_crowded_viewport_is_well_formed_and_bounded() {
    let query = "seed=1&preset=lost-ack&orders=3000&events_max=1000000";
    let (_, timeline) = run(query);
    let svg = view::svg(
        &timeline,
        &Viewport::fit(timeline.end_us(), 1_000),
        &SvgOptions::default(),
    );
    xml::check(&svg).unwrap_or_else(|e| panic!("{query}: {e}"));
    assert!(
        !svg.contains(" data-event=\""),
        "{query}: density mode draws counts"
    );
    assert!(svg.len() < 2_000_000, "{query}: {} bytes", svg.len());
}

#[test]
fn escape_covers_the_five_xml_characters() {
    assert_eq!(
        view::escape(r#"a&b<c>d"e'f"#),
        "a&amp;b&lt;c&gt;d&quot;e&apos;f"
    );
    assert!(xml::check("<a b=\"&amp;\">&lt;</a>").is_ok());
    assert!(
        xml::check("<a>&</a>").is_err(),
        "the checker catches a bare ampersand"
    );
    assert!(
        xml::check("<a><b></a></b>").is_err(),
        "the checker catches misnesting"
    );
}

#[test]
fn every_band_kind_has_a_class() {
    for band in [
        Band::ApiDown,
        Band::LedgerReplaced { wiped: true },
        Band::Rerun,
        Band::CapReached,
    ] {
        let mark = Mark {
            t0_us: 0,
            t1_us: 0,
            lane: 0,
            kind: MarkKind::Band { band },
            first: 0,
            end: view::NO_END,
        };
        let name = mark.class().name();
        assert!(
            view::palette::svg_style().contains(&format!("--tl-{name}:")),
            "{band:?}"
        );
    }
}

#[test]
fn the_export_draws_the_page_s_shapes_for_every_mark() {
    let query = "seed=4&preset=race";
    let (_, timeline) = run(query);
    let viewport = Viewport::fit(timeline.end_us(), 1_000);
    let page = common::page_plot(&timeline, viewport);
    let export = view::svg::drawing(&timeline, &viewport, &SvgOptions::default());
    let marks = |drawing: &view::Drawing| -> Vec<view::Group> {
        (drawing.groups.iter())
            .filter(|group| group.class.starts_with("mark "))
            .cloned()
            .collect()
    };
    let (on_page, exported) = (marks(&page), marks(&export));
    assert_eq!(on_page.len(), timeline.visible(&viewport).len(), "{query}");
    assert_eq!(on_page.len(), exported.len(), "{query}");
    // The export puts its heading and legend above the same plot: the same shapes, lower.
    let dy = export.height_px - page.height_px;
    assert!(dy > 0.0, "{query}");
    for (a, b) in on_page.iter().zip(&exported) {
        assert_eq!(a.class, b.class, "{query}");
        assert_eq!(a.shapes.len(), b.shapes.len(), "{query}: {}", a.class);
        for (x, y) in a.shapes.iter().zip(&b.shapes) {
            assert_eq!(
                (x.ink, x.paint, x.alpha),
                (y.ink, y.paint, y.alpha),
                "{}",
                a.class
            );
            if let (
                view::Geometry::Circle { at: p, r: rp },
                view::Geometry::Circle { at: q, r: rq },
            ) = (&x.geometry, &y.geometry)
            {
                assert_eq!((p.0, rp), (q.0, rq));
                assert!((q.1 - p.1 - dy).abs() < 1e-9, "{}", a.class);
            }
        }
    }
    // A duplicate charge is a target: a dot inside a ring, both in its class's ink.
    let duplicate = (on_page.iter())
        .find(|group| group.class.contains("charge-duplicate"))
        .expect("the race preset duplicates a charge");
    let kinds: Vec<(f64, view::Ink, bool)> = (duplicate.shapes.iter())
        .filter_map(|shape| match shape.geometry {
            view::Geometry::Circle { r, .. } => {
                Some((r, shape.ink, matches!(shape.paint, view::Paint::Fill)))
            }
            _ => None,
        })
        .collect();
    let ink = view::Ink::Mark(Class::ChargeDuplicate);
    assert_eq!(kinds, [(4.5, ink, true), (8.0, ink, false)]);
}

#[test]
fn layout_summary_of_one_raced_order() {
    let (_, timeline) = run("seed=8&preset=race&orders=1");
    expect![[r#"
        lanes: client | API | payment service | database
        end 132098 µs, 42 events, 33 marks, 1 races, 1 duplicates
               0        0 0    pod-start "pod 77c3d628 starts" [0]
               0        0 0    order-start "order 1 starts" [1]
               0     9637 0>1  request "attempt 1" [2,3]
            9637     9637 3    attempt-row "attempt row 1" [4]
           10637    10637 3    lookup-miss "lookup: not found" [5]
           10637   114718 1>3  race "race: order 1, attempts 1 and 2 both read not found" [5,13,2,3,4,6,7,8,9,10,11,12,14,15,16,17,18,19,20,21,22,23,24,25,26,27,29,30,31,32,33,39]
           11637    26046 1>2  charge-call "charge (no key)" [6,7]
           45000    45000 0    timeout "timeout" [8]
           45000    45000 0    retry "retry after 7.107 ms" [9]
           52107    60420 0>1  request "attempt 2" [10,11]
           60420    60420 3    attempt-row "attempt row 2" [12]
           61420    61420 3    lookup-miss "lookup: not found" [13]
           62420    74112 1>2  charge-call "charge (no key)" [14,17]
           64444    64444 2    charge "order 1: charge 1 of 2 (#1)" [15]
           64444    78971 2>1  charge-reply "charged #1" [16,18]
           78971    78971 3    ledger-row "ledger row #1" [19]
           79971    79971 3    store "store 200" [20]
           80971    80971 1    reply-ok "200" [21]
           80971    89241 1>0  response ✕ late "200 #1" [22,23]
           97107    97107 0    timeout "timeout" [24]
           97107    97107 0    retry "retry after 10.272 ms" [25]
          104653   104653 2    charge-duplicate duplicate "order 1: charge 2 of 2 (#2)" [26]
          104653   113718 2>1  charge-reply "charged #2" [27,29]
          107379   120398 0>1  request "attempt 3" [28,34]
          113718   113718 3    ledger-row "ledger row #2" [30]
          114718   114718 3    store "store 200" [31]
          115718   115718 1    reply-ok "200" [32]
          115718   122604 1>0  response ✕ late "200 #2" [33,39]
          120398   120398 3    attempt-row "attempt row 3" [35]
          121398   121398 3    lookup-hit "lookup: found completed" [36]
          121398   121398 1    reply-replay "200 (replayed)" [37]
          121398   132098 1>0  response "200 #2 (replayed)" [38,40]
          132098   132098 0    order-ok "order 1 done: ok (200)" [41]
    "#]]
    .assert_eq(&timeline.summary());
}

/// A small XML well-formedness checker, written here rather than taken as a dependency: the
/// export needs only elements, attributes, text, the five entities and numeric references,
/// and this checks exactly those rules (plus one root and no duplicate attributes).
mod xml {
    pub fn check(doc: &str) -> Result<(), String> {
        let mut stack: Vec<&str> = Vec::new();
        let mut roots = 0;
        let mut rest = doc
            .strip_prefix("<?xml")
            .map_or(doc, |r| r.split_once("?>").map_or("", |(_, after)| after));
        while !rest.is_empty() {
            let lt = rest.find('<').unwrap_or(rest.len());
            let text = &rest[..lt];
            check_text(text)?;
            if stack.is_empty() && !text.trim().is_empty() {
                return Err(format!("text outside the root: {text:?}"));
            }
            rest = &rest[lt..];
            if rest.is_empty() {
                break;
            }
            if let Some(after) = rest.strip_prefix("<!--") {
                let (_, after) = after.split_once("-->").ok_or("unclosed comment")?;
                rest = after;
                continue;
            }
            let gt = rest.find('>').ok_or("unclosed tag")?;
            let tag = &rest[1..gt];
            rest = &rest[gt + 1..];
            if let Some(name) = tag.strip_prefix('/') {
                let open = stack.pop().ok_or(format!("</{name}> closes nothing"))?;
                if open != name.trim_end() {
                    return Err(format!("<{open}> closed by </{name}>"));
                }
                continue;
            }
            let (tag, empty) = match tag.strip_suffix('/') {
                Some(tag) => (tag, true),
                None => (tag, false),
            };
            let name = element(tag)?;
            if stack.is_empty() {
                roots += 1;
            }
            if !empty {
                stack.push(name);
            }
        }
        match (stack.last(), roots) {
            (Some(open), _) => Err(format!("<{open}> never closed")),
            (None, 1) => Ok(()),
            (None, n) => Err(format!("{n} root elements")),
        }
    }

    /// Checks a start tag's name and attributes; returns the name.
    fn element(tag: &str) -> Result<&str, String> {
        let name_end = tag.find(char::is_whitespace).unwrap_or(tag.len());
        let name = &tag[..name_end];
        check_name(name)?;
        let mut rest = tag[name_end..].trim_start();
        let mut seen: Vec<&str> = Vec::new();
        while !rest.is_empty() {
            let (attr, after) = rest
                .split_once('=')
                .ok_or(format!("bad attribute in <{tag}>"))?;
            let attr = attr.trim();
            check_name(attr)?;
            if seen.contains(&attr) {
                return Err(format!("duplicate attribute {attr} in <{name}>"));
            }
            seen.push(attr);
            let after = after.trim_start();
            let quote = after.chars().next().ok_or("attribute without value")?;
            if quote != '"' && quote != '\'' {
                return Err(format!("unquoted attribute {attr}"));
            }
            let (value, after) = after[1..].split_once(quote).ok_or("unclosed attribute")?;
            if value.contains('<') {
                return Err(format!("< in attribute {attr}"));
            }
            check_text(value)?;
            if !after.is_empty() && !after.starts_with(char::is_whitespace) {
                return Err(format!("no space after attribute {attr}"));
            }
            rest = after.trim_start();
        }
        Ok(name)
    }

    fn check_name(name: &str) -> Result<(), String> {
        let mut chars = name.chars();
        let first_ok = chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == ':');
        let rest_ok = chars.all(|c| c.is_ascii_alphanumeric() || "_:.-".contains(c));
        if first_ok && rest_ok {
            Ok(())
        } else {
            Err(format!("bad name {name:?}"))
        }
    }

    /// Every `&` must start one of the five entities or a numeric reference.
    fn check_text(text: &str) -> Result<(), String> {
        let mut rest = text;
        while let Some(amp) = rest.find('&') {
            rest = &rest[amp + 1..];
            let semi = rest.find(';').ok_or("& without ;")?;
            let entity = &rest[..semi];
            let named = ["amp", "lt", "gt", "quot", "apos"].contains(&entity);
            let numeric = entity.strip_prefix("#x").map_or_else(
                || {
                    entity
                        .strip_prefix('#')
                        .is_some_and(|d| !d.is_empty() && d.chars().all(|c| c.is_ascii_digit()))
                },
                |h| !h.is_empty() && h.chars().all(|c| c.is_ascii_hexdigit()),
            );
            if !named && !numeric {
                return Err(format!("bad entity &{entity};"));
            }
            rest = &rest[semi + 1..];
        }
        Ok(())
    }
}

/// Issue 11: "dropped", "duplicate charge" and "API down" shared one red and a reader could not
/// tell them apart. Now a dropped message ends in a cross, a duplicate is a target (a dot in a
/// ring) and an outage is a hatched band, each in its own ink (tests/palette.rs keeps the
/// three colours apart, colour-blind readers included).
#[test]
fn dropped_duplicate_and_api_down_differ_in_shape() {
    let page = |query: &str| {
        let (_, timeline) = run(query);
        common::page_plot(&timeline, view::window(timeline.end_us(), None, 1_000))
    };
    let shapes = |drawing: &view::Drawing, class: &str| -> Vec<(String, view::Ink)> {
        let group = (drawing.groups.iter())
            .find(|group| group.class.contains(class))
            .unwrap_or_else(|| panic!("no {class}"));
        (group.shapes.iter())
            .filter(|shape| !matches!(shape.geometry, view::Geometry::Text { .. }))
            .map(|shape| {
                let kind = match (&shape.geometry, shape.paint) {
                    (view::Geometry::Circle { r, .. }, view::Paint::Fill) => format!("dot {r}"),
                    (view::Geometry::Circle { r, .. }, _) => format!("ring {r}"),
                    (view::Geometry::Path { points, .. }, _) => {
                        format!("strokes {}", points.len() / 2)
                    }
                    (view::Geometry::Rect(_), _) => "rect".into(),
                    (view::Geometry::Line { .. }, _) => "line".into(),
                    (view::Geometry::Text { .. }, _) => unreachable!(),
                };
                (kind, shape.ink)
            })
            .collect()
    };
    let dropped = shapes(&page("seed=1&preset=lost-ack"), " dropped");
    let duplicate = shapes(&page("seed=4&preset=race"), "charge-duplicate");
    let down = shapes(&page("seed=7&preset=outside-boundary"), "api-down");
    let drop_ink = view::Ink::Drop;
    let dup_ink = view::Ink::Mark(Class::ChargeDuplicate);
    let down_ink = view::Ink::Mark(Class::ApiDown);
    assert_eq!(
        dropped[1..],
        [("strokes 2".to_string(), drop_ink)],
        "{dropped:?}"
    );
    assert_eq!(
        duplicate,
        [
            ("dot 4.5".to_string(), dup_ink),
            ("ring 8".to_string(), dup_ink)
        ]
    );
    assert_eq!(down[0], ("rect".to_string(), down_ink), "{down:?}");
    assert!(
        matches!(down[1], (ref kind, ink) if kind.starts_with("strokes ") && ink == down_ink),
        "hatched: {down:?}"
    );
    for dark in [false, true] {
        let colours = [drop_ink, dup_ink, down_ink].map(|ink| view::palette::colour(ink, dark));
        assert!(
            colours[0] != colours[1] && colours[1] != colours[2] && colours[0] != colours[2],
            "{colours:?}"
        );
    }
}

#[test]
fn a_zoomed_in_outage_is_hatched_where_the_plot_shows_it() {
    let (_, timeline) = run("seed=7&preset=outside-boundary");
    let band = marks_of(&timeline, Class::ApiDown)[0];
    let middle_us = (band.t0_us + band.t1_us) / 2;
    // 100 µs across 632 px: the band is thousands of pixels wide on either side.
    let viewport = Viewport::new(middle_us - 50, middle_us + 50, 632);
    let drawing = common::page_plot(&timeline, viewport);
    let group = (drawing.groups.iter())
        .find(|group| group.class.contains("api-down"))
        .expect("the outage is drawn");
    let Some(view::Geometry::Path { points, .. }) = group.shapes.get(1).map(|s| &s.geometry) else {
        panic!("no hatching: {:?}", group.shapes);
    };
    assert!(points.len() >= 2 * 632 / 8, "{} points", points.len());
    let inside = |p: &view::PathPoint| match *p {
        view::PathPoint::Move(x, _) | view::PathPoint::Line(x, _) => {
            (view::GUTTER_PX - 8.0..=drawing.width_px + 8.0).contains(&x)
        }
    };
    assert!(points.iter().all(inside));
}

#[test]
fn a_nodes_lane_label_is_what_the_timeline_prints() {
    let trace = idemlab_core::sim::run(
        &idemlab_core::scenario::decode("seed=1&preset=pod-rerun")
            .unwrap()
            .scenario,
    );
    let timeline = idemlab_lab::view::layout(&trace);
    use idemlab_core::trace::Node;
    assert_eq!(timeline.lane_label(Node::Client(0)), Some("client"));
    assert_eq!(timeline.lane_label(Node::Client(1)), Some("client (rerun)"));
    assert_eq!(timeline.lane_label(Node::Api), Some("API"));
    assert_eq!(timeline.lane_label(Node::Db), Some("database"));
    assert_eq!(
        timeline.lane_label(Node::Queue),
        None,
        "no queue lane without a consumer"
    );
}

/// A dot's centre, its radius and the label texts its mark may show (whole, or after "order N: ").
struct Dot {
    at: (f64, f64),
    r: f64,
    names: [String; 2],
}

fn dots(drawing: &view::Drawing) -> Vec<Dot> {
    let marks = (drawing.groups.iter()).filter(|g| g.class.starts_with("mark "));
    marks
        .filter_map(|group| {
            // A ring's outer edge is half its stroke beyond its radius.
            let circles = group
                .shapes
                .iter()
                .filter_map(|s| match (&s.geometry, s.paint) {
                    (&view::Geometry::Circle { at, r }, view::Paint::Stroke { width_px, .. }) => {
                        Some((at, r + width_px / 2.0))
                    }
                    (&view::Geometry::Circle { at, r }, _) => Some((at, r)),
                    _ => None,
                });
            let (at, r) = circles.max_by(|a, b| a.1.total_cmp(&b.1))?;
            let name = group.link.as_ref()?.title.lines().next()?.to_string();
            let short = name
                .split_once(": ")
                .map_or(String::new(), |(_, s)| s.into());
            Some(Dot {
                at,
                r,
                names: [name, short],
            })
        })
        .collect()
}

fn gap_to(label: &view::Rect, dot: &Dot) -> f64 {
    let x = dot.at.0.clamp(label.x, label.x + label.w);
    let y = dot.at.1.clamp(label.y, label.y + label.h);
    ((x - dot.at.0).hypot(y - dot.at.1) - dot.r).max(0.0)
}

/// Labels of one drawing that name one dot alone: (text box, own dot, leader if drawn).
fn check_labels(query: &str, drawing: &view::Drawing) -> usize {
    let dots = dots(drawing);
    let labels = (drawing.groups.iter())
        .find(|g| g.class == "labels")
        .unwrap();
    let leaders: Vec<((f64, f64), (f64, f64))> = (labels.shapes.iter())
        .filter_map(|s| match s.geometry {
            view::Geometry::Line { from, to } => Some((from, to)),
            _ => None,
        })
        .collect();
    let mut checked = 0;
    for shape in &labels.shapes {
        let view::Geometry::Text {
            at,
            ref text,
            font,
            anchor,
        } = shape.geometry
        else {
            continue;
        };
        if !matches!(shape.paint, view::Paint::Fill) {
            continue; // the halo under a label
        }
        let mut own = dots.iter().filter(|d| d.names.contains(text));
        let (Some(own), None) = (own.next(), own.next()) else {
            continue;
        };
        let rect = view::text_box(at, text, font, anchor);
        let own_gap = gap_to(&rect, own);
        let rival = (dots.iter())
            .filter(|d| d.at != own.at)
            .map(|d| gap_to(&rect, d))
            .fold(f64::INFINITY, f64::min);
        checked += 1;
        // A pixel of slack: the page's glyph boxes are the rings' outer edge.
        if own_gap <= view::LABEL_NEAR_PX + 1.0 && rival >= own_gap + view::LABEL_CLEAR_PX - 1.0 {
            continue;
        }
        let joined = leaders.iter().any(|&(from, to)| {
            (to.0 - own.at.0).abs() < 0.01
                && (to.1 - own.at.1).abs() < 0.01
                && from.0 >= rect.x - 0.01
                && from.0 <= rect.x + rect.w + 0.01
                && from.1 >= rect.y - 0.01
                && from.1 <= rect.y + rect.h + 0.01
        });
        assert!(
            joined,
            "{query}: {text:?} is {own_gap:.1} px from its own dot and {rival:.1} px from another, with no leader"
        );
    }
    checked
}

#[test]
fn every_label_sits_at_its_own_dot_or_is_joined_to_it() {
    let mut checked = 0;
    for query in sweep_queries() {
        let (_, timeline) = run(&query);
        // The page's widths: a laptop's timeline and a phone's.
        for width_px in [1_000, 340] {
            let drawing = plot_whole(&timeline, width_px, view::Overlay::default(), true);
            checked += check_labels(&query, &drawing);
        }
    }
    assert!(checked > 1_000, "only {checked} labels named one dot alone");
}

/// The whole run, `width_px` wide, under `overlay`; `links` as the SVG export has them.
fn plot_whole(
    timeline: &Timeline,
    width_px: u32,
    overlay: view::Overlay,
    links: bool,
) -> view::Drawing {
    let viewport = Viewport::fit(timeline.end_us(), width_px);
    let shown = timeline.view(&viewport);
    let scene = view::Scene {
        timeline,
        viewport,
        view: &shown,
        overlay,
        links,
        top_px: 0.0,
    };
    view::plot(&scene)
}

/// The texts of a drawing's labels, halos and "+N" counts aside.
fn label_texts(drawing: &view::Drawing) -> Vec<String> {
    let labels = (drawing.groups.iter()).filter(|g| g.class == "labels");
    let shapes = labels.flat_map(|g| &g.shapes);
    let texts = shapes.filter_map(|s| match (&s.geometry, s.paint) {
        (view::Geometry::Text { text, .. }, view::Paint::Fill) => Some(text.clone()),
        _ => None,
    });
    texts.filter(|t| !t.starts_with('+')).collect()
}

#[test]
fn a_labelled_find_keeps_only_the_labels_of_the_marks_it_finds() {
    let (_, timeline) = run("seed=1&orders=50&loss_resp=0.2&retries=3&timeout_ms=500");
    let find = view::Find::Effect;
    let names: Vec<String> = (timeline.marks().iter())
        .filter(|mark| find.matches(mark))
        .map(|mark| timeline.label(mark))
        .flat_map(|name| {
            let short = name.split_once(": ").map(|(_, s)| s.to_string());
            std::iter::once(name.clone()).chain(short)
        })
        .collect();
    let plot = |labelled| {
        let overlay = view::Overlay {
            labelled,
            ..view::Overlay::default()
        };
        label_texts(&plot_whole(&timeline, 1_000, overlay, false))
    };
    let (all, only) = (plot(None), plot(Some(find)));
    assert!(
        !only.is_empty() && only.len() < all.len(),
        "{} of {}",
        only.len(),
        all.len()
    );
    for text in &only {
        assert!(names.contains(text), "{text:?} names no charge");
    }
    assert!(
        all.iter().any(|text| !names.contains(text)),
        "the unfiltered run labels more"
    );
}
