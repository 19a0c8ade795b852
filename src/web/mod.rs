//! The browser layer (wasm32 only): mounts the page, wires controls, paints views.

use wasm_bindgen::prelude::*;

/// Runs a scenario query and returns its metrics and digest as a JS object.
#[wasm_bindgen]
pub fn run_query(query: &str) -> Result<JsValue, JsValue> {
    let decoded = crate::scenario::decode(query).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        JsValue::from_str(&lines.join("\n"))
    })?;
    let (trace, metrics) = crate::run(&decoded.scenario);
    let out = serde_wasm_bindgen::to_value(&(metrics, trace.digest()))?;
    Ok(out)
}
