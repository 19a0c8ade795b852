//! Measurements for `scripts/bench.sh`, exported to JavaScript. They run the same code the page
//! runs; the browser's clock is read here, in the web layer, never in the core.

use wasm_bindgen::prelude::*;

use super::dom;

/// Runs seeds `first..first + seeds` of `query` and returns the events simulated; the caller
/// times it, so the same seeds can be timed natively by `idemlab bench`.
#[wasm_bindgen]
pub fn bench_events(query: &str, first: u32, seeds: u32) -> Result<f64, JsValue> {
    let mut scenario = idemlab_core::scenario::decode(query)
        .map_err(|errors| JsValue::from_str(&errors[0].to_string()))?
        .scenario;
    let mut events = 0u64;
    for seed in first..first.saturating_add(seeds) {
        scenario.seed = u64::from(seed);
        events += idemlab_core::sim::run(&scenario).events.len() as u64;
    }
    Ok(events as f64)
}

/// A whole sweep as the sweep panel runs it (simulate and fold the metrics), in milliseconds.
#[wasm_bindgen]
pub fn bench_sweep_ms(query: &str, seeds: u32) -> Result<f64, JsValue> {
    let scenario = idemlab_core::scenario::decode(query)
        .map_err(|errors| JsValue::from_str(&errors[0].to_string()))?
        .scenario;
    let started = dom::now_ms();
    let totals = idemlab_lab::sweep::sweep(&scenario, scenario.seed, u64::from(seeds));
    let elapsed = dom::now_ms() - started;
    if totals.runs != u64::from(seeds) {
        return Err(JsValue::from_str("the sweep did not run every seed"));
    }
    Ok(elapsed)
}

/// Milliseconds to draw the mounted page's timelines from scratch (culling or density included)
/// `repeats` times, one value each.
#[wasm_bindgen]
pub fn bench_draw_ms(repeats: u32) -> Vec<f64> {
    (0..repeats)
        .map(|_| {
            super::with_app(|app| {
                app.runs.a.forget_view();
                app.runs.b.iter().for_each(|b| b.forget_view());
            });
            let started = dom::now_ms();
            let frame = super::with_app(|app| idemlab_app::view::runs::view(&app.state, &app.runs));
            super::runs::render(&frame);
            dom::now_ms() - started
        })
        .collect()
}

/// Milliseconds per frame while the cursor is dragged across the whole run in `frames` steps:
/// each step is what the scrub bar does (move the cursor, render everything that follows it).
#[wasm_bindgen]
pub fn bench_scrub_ms(frames: u32) -> Vec<f64> {
    let events = super::with_app(|app| app.runs.a.trace.events.len()) as u64;
    (0..frames)
        .map(|frame| {
            let cursor = (u64::from(frame) * events / u64::from(frames.max(1))) as u32;
            let started = dom::now_ms();
            super::dispatch(idemlab_app::Msg::Playback(idemlab_app::PlaybackMsg::GoTo(
                cursor,
            )));
            dom::now_ms() - started
        })
        .collect()
}

/// Milliseconds to judge the textbook step order `repeats` times, one value each: a safe order
/// runs every probe over every seed, the most work a click on "Run this order" can cost.
#[wasm_bindgen]
pub fn bench_judge_ms(repeats: u32) -> Vec<f64> {
    (0..repeats)
        .map(|_| {
            let started = dom::now_ms();
            let verdict = idemlab_course::ordering::judge(
                idemlab_core::scenario::Step::CORRECT,
                idemlab_course::ordering::SEEDS_PAGE,
            );
            let elapsed = dom::now_ms() - started;
            debug_assert!(verdict.is_safe());
            elapsed
        })
        .collect()
}

/// Milliseconds to draw the mastery check of `lesson` for quiz seeds `0..seeds`, one value each.
#[wasm_bindgen]
pub fn bench_quiz_ms(lesson: &str, seeds: u32) -> Result<Vec<f64>, JsValue> {
    let lesson = idemlab_course::lessons::Lesson::by_id(lesson)
        .ok_or_else(|| JsValue::from_str("lesson must be a or b"))?;
    Ok((0..seeds)
        .map(|seed| {
            let started = dom::now_ms();
            let quiz = idemlab_course::quiz::generate(lesson, u64::from(seed));
            let elapsed = dom::now_ms() - started;
            debug_assert_eq!(quiz.questions.len(), idemlab_course::quiz::QUESTIONS);
            elapsed
        })
        .collect())
}
