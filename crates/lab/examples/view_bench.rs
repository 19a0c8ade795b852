//! Times the timeline view on a big trace: `cargo run --release -p idemlab-lab --example view_bench [QUERY]`.
//! With `--svg` it prints the SVG of the whole run instead, for looking at a layout by eye.
//!
//! The tests run the same workload (`view::pan_sweep`) untimed; only this binary reads a clock.

// The view has no clock; a benchmark must, and this one stays out of the library.
#![allow(clippy::disallowed_types)]

use std::time::Instant;

use idemlab_lab::view::{self, SvgOptions, View, Viewport};

const QUERY_DEFAULT: &str = "orders=5000&preset=lost-ack&events_max=1000000";

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let svg = args.iter().any(|a| a == "--svg");
    let query = (args.iter().find(|a| !a.starts_with("--")))
        .map_or(QUERY_DEFAULT, String::as_str)
        .to_string();
    let scenario = match idemlab_core::scenario::decode(&query) {
        Ok(decoded) => decoded.scenario,
        Err(errors) => {
            for error in errors {
                eprintln!("{error}");
            }
            std::process::exit(2);
        }
    };
    let trace = idemlab_core::sim::run(&scenario);
    if svg {
        let timeline = view::layout(&trace);
        let viewport = Viewport::fit(timeline.end_us(), 1_200);
        let options = SvgOptions {
            title: query,
            ..SvgOptions::default()
        };
        print!("{}", view::svg(&timeline, &viewport, &options));
        return;
    }
    bench(&query, &trace);
}

fn bench(query: &str, trace: &idemlab_core::trace::Trace) {
    let started = Instant::now();
    let timeline = view::layout(trace);
    let layout_ms = started.elapsed().as_secs_f64() * 1e3;
    println!("{query}");
    println!(
        "events {}, marks {}, end {} ms, layout {layout_ms:.2} ms",
        trace.events.len(),
        timeline.marks().len(),
        timeline.end_us() / 1_000
    );
    let frames: u32 = 1_000;
    for span_ms in [50u64, 500, 5_000, 50_000] {
        let started = Instant::now();
        let seen = view::pan_sweep(&timeline, 1_200, span_ms * 1_000, frames);
        let frame_us = started.elapsed().as_secs_f64() * 1e6 / f64::from(frames);
        println!("pan {span_ms:>6} ms window: {frame_us:>8.1} µs per frame ({seen} seen)");
    }
    let whole = Viewport::fit(timeline.end_us(), 1_200);
    let started = Instant::now();
    let mode = match timeline.view(&whole) {
        View::Marks { marks } => format!("{} marks", marks.len()),
        View::Density(d) => format!("density, {} marks in {} columns", d.marks, d.columns),
    };
    let view_ms = started.elapsed().as_secs_f64() * 1e3;
    println!("whole run: {mode}, {view_ms:.2} ms");
    let started = Instant::now();
    let bytes = view::svg(&timeline, &whole, &SvgOptions::default()).len();
    let svg_ms = started.elapsed().as_secs_f64() * 1e3;
    println!("svg of the whole run: {bytes} bytes, {svg_ms:.2} ms");
}
