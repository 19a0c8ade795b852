//! The golden digests, recomputed in headless Chromium: the wasm build must give the same traces
//! as the native one. `tests/golden.rs` pins the file natively; this test only reads it.
//! Run with `scripts/test.sh`, or `cargo test --target wasm32-unknown-unknown --test web`.

// Natively this file compiles to an empty test binary (0 tests), which passes.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};

wasm_bindgen_test_configure!(run_in_browser);

const GOLDEN: &str = include_str!("golden/digests.txt");

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
    let scenario = match idemlab::scenario::decode(query) {
        Ok(decoded) => decoded.scenario,
        Err(errors) => panic!("golden query {query:?} does not decode: {errors:?}"),
    };
    let (trace, metrics) = idemlab::run(&scenario);
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
        "tests/golden/digests.txt has no lines"
    );
    let actual: Vec<Golden> = expected.iter().map(|g| compute(&g.query)).collect();
    // One comparison of the whole list shows every mismatching line at once.
    assert_eq!(actual, expected);
}
