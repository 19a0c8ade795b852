//! The browser layer (wasm32 only). For now a placeholder page: it runs the default scenario
//! once and writes its counters into the elements that carry `data-metric="NAME"`.

use wasm_bindgen::prelude::*;

use crate::Metrics;

/// The scenario the page shows when it opens.
pub const DEFAULT_QUERY: &str = "seed=1&preset=lost-ack";

/// Runs when the module is instantiated (Trunk's loader calls it).
#[wasm_bindgen(start)]
pub fn start() -> Result<(), JsValue> {
    console_error_panic_hook::set_once();
    // No document means no page to paint (a worker, say): nothing to do.
    let Some(document) = web_sys::window().and_then(|window| window.document()) else {
        return Ok(());
    };
    let scenario = crate::scenario::decode(DEFAULT_QUERY)
        .map_err(codec_errors)?
        .scenario;
    let (_, metrics) = crate::run(&scenario);
    for (name, value) in counters(&metrics) {
        // The names are fixed identifiers, so they need no escaping inside the selector.
        if let Some(element) = document.query_selector(&format!("[data-metric=\"{name}\"]"))? {
            element.set_text_content(Some(&value.to_string()));
        }
    }
    // A hook for end-to-end tests: wait for this instead of sleeping.
    if let Some(root) = document.document_element() {
        root.set_attribute("data-state", "ready")?;
    }
    Ok(())
}

/// Runs a scenario query and returns its metrics and digest as a JS object.
#[wasm_bindgen]
pub fn run_query(query: &str) -> Result<JsValue, JsValue> {
    let decoded = crate::scenario::decode(query).map_err(codec_errors)?;
    let (trace, metrics) = crate::run(&decoded.scenario);
    let out = serde_wasm_bindgen::to_value(&(metrics, trace.digest()))?;
    Ok(out)
}

/// The counters the page shows, by their `data-metric` name.
fn counters(metrics: &Metrics) -> [(&'static str, u32); 9] {
    [
        ("orders", metrics.orders),
        ("attempts", metrics.attempts),
        ("effects", metrics.effects),
        ("duplicates", metrics.duplicates),
        ("lost", metrics.lost),
        ("races", metrics.races),
        ("ok", metrics.outcomes.ok),
        ("failed", metrics.outcomes.failed),
        ("unknown", metrics.outcomes.unknown),
    ]
}

fn codec_errors(errors: Vec<crate::scenario::CodecError>) -> JsValue {
    let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    JsValue::from_str(&lines.join("\n"))
}
