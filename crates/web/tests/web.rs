//! The golden digests, recomputed in headless Chromium: the wasm build must give the same traces
//! as the native one. `crates/lab/tests/golden.rs` pins the file natively; this test only reads it.
//! Run with `scripts/test.sh`, or `cargo test -p idemlab-web --target wasm32-unknown-unknown --test web`.

// Natively this file compiles to an empty test binary (0 tests), which passes.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

const GOLDEN: &str = include_str!("../../lab/tests/golden/digests.txt");

/// One golden line: `QUERY DIGEST events=N duplicates=N`.
#[derive(Debug, PartialEq, Eq)]
struct Golden {
    query: String,
    digest: String,
    events: u32,
    duplicates: u32,
}

fn parse(line: &str) -> Golden {
    let fields: Vec<&str> = line.split_whitespace().collect();
    let [query, digest, events, duplicates] = fields[..] else {
        panic!("golden line has not 4 fields: {line:?}");
    };
    let count = |field: &str, name: &str| -> u32 {
        (field.strip_prefix(name))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("expected `{name}N` in golden line {line:?}"))
    };
    Golden {
        query: query.to_owned(),
        digest: digest.to_owned(),
        events: count(events, "events="),
        duplicates: count(duplicates, "duplicates="),
    }
}

fn compute(query: &str) -> Golden {
    let scenario = match idemlab_core::scenario::decode(query) {
        Ok(decoded) => decoded.scenario,
        Err(errors) => panic!("golden query {query:?} does not decode: {errors:?}"),
    };
    let (trace, metrics) = idemlab_lab::run(&scenario);
    Golden {
        query: query.to_owned(),
        digest: trace.digest(),
        events: metrics.events,
        duplicates: metrics.duplicates,
    }
}

#[wasm_bindgen_test]
fn golden_digests_match_native() {
    let expected: Vec<Golden> = (GOLDEN.lines())
        .filter(|line| !line.trim().is_empty())
        .map(parse)
        .collect();
    assert!(
        !expected.is_empty(),
        "crates/lab/tests/golden/digests.txt has no lines"
    );
    let actual: Vec<Golden> = expected.iter().map(|g| compute(&g.query)).collect();
    // One comparison of the whole list shows every mismatching line at once.
    assert_eq!(actual, expected);
}

/// The page's own markup (the body of www/index.html), written into the test page.
fn mount_page(query: &str) {
    let html = include_str!("../../../www/index.html");
    let body =
        &html[html.find("<body>").expect("a body") + 6..html.rfind("</body>").expect("a body end")];
    let window = web_sys::window().unwrap();
    let document = window.document().unwrap();
    // Only this file's own static markup goes in as HTML; the page itself never does this. It
    // goes in a container of its own, because the test runner reports through the body.
    let container = document.create_element("div").unwrap();
    container.set_inner_html(body);
    document.body().unwrap().append_child(&container).unwrap();
    let history = window.history().unwrap();
    history
        .replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(query))
        .unwrap();
    idemlab::mount();
}

fn counter(name: &str) -> String {
    let document = web_sys::window().unwrap().document().unwrap();
    let selector = format!("#counters-a [data-metric=\"{name}\"]");
    document
        .query_selector(&selector)
        .unwrap()
        .expect("the counter exists")
        .text_content()
        .unwrap()
}

#[wasm_bindgen_test]
fn the_page_mounts_and_a_control_changes_the_counters() {
    use wasm_bindgen::JsCast;
    mount_page("?seed=7&preset=lost-ack");
    let document = web_sys::window().unwrap().document().unwrap();
    assert_eq!(
        document
            .document_element()
            .unwrap()
            .get_attribute("data-state")
            .as_deref(),
        Some("ready")
    );
    let native = compute("seed=7&preset=lost-ack");
    assert_eq!(counter("duplicates"), native.duplicates.to_string());
    assert_ne!(
        counter("duplicates"),
        "0",
        "lost-ack duplicates without dedup"
    );

    let dedup: web_sys::HtmlSelectElement = document
        .get_element_by_id("key-dedup")
        .unwrap()
        .dyn_into()
        .unwrap();
    dedup.set_value("atomic");
    dedup
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    assert_eq!(
        counter("duplicates"),
        "0",
        "atomic dedup stops the duplicates"
    );
    let url = web_sys::window().unwrap().location().search().unwrap();
    assert!(
        url.contains("dedup=atomic"),
        "the permalink follows the control: {url}"
    );
}

/// An instructor's question offers the same choices in the page as `idemlab steps` prints:
/// the pairs `tests/steps.rs` pins natively (its `PINNED_CHOICES`), checked in the browser.
#[wasm_bindgen_test]
fn own_step_choices_are_the_native_ones() {
    let pinned: [(u32, u64, [u32; 2], [u32; 4]); 5] = [
        (8, 1, [4, 16], [4, 8, 9, 16]),
        (3, 1, [0, 7], [0, 3, 4, 7]),
        (0, 7, [3, 0], [0, 1, 2, 3]),
        (12, u64::MAX - 5, [7, 30], [7, 12, 13, 30]),
        (500, 3, [480, 0], [480, 500, 532, 564]),
    ];
    for (value, seed, wrong, want) in pinned {
        assert_eq!(
            idemlab_app::steps::choices(value, seed, &wrong),
            want,
            "answer {value}, seed {seed}"
        );
    }
}
