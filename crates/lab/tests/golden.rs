//! Golden digests: the same queries must give the same traces on every machine and target.
//! The file is shared with the browser test (`crates/web/tests/web.rs`), which recomputes it in wasm.
//! After an intended change to the model, refresh it with `UPDATE_EXPECT=1 cargo test -p idemlab-lab --test golden`.

use expect_test::expect_file;
use idemlab_core::scenario::decode;

/// The queries whose digests are pinned, one per line in the golden file.
const QUERIES: [&str; 3] = [
    "seed=7&preset=lost-ack",
    "seed=7&preset=race",
    "seed=7&preset=outside-boundary",
];

#[test]
fn golden_digests_are_stable() {
    let mut out = String::new();
    for query in QUERIES {
        let scenario = decode(query).expect("golden queries decode").scenario;
        let (trace, metrics) = idemlab_lab::run(&scenario);
        out.push_str(&format!(
            "{query} {} events={} duplicates={}\n",
            trace.digest(),
            metrics.events,
            metrics.duplicates
        ));
    }
    expect_file!["golden/digests.txt"].assert_eq(&out);
}

#[test]
fn same_query_same_digest() {
    for query in QUERIES {
        let scenario = decode(query).unwrap().scenario;
        let first = idemlab_core::sim::run(&scenario).digest();
        let second = idemlab_core::sim::run(&scenario).digest();
        assert_eq!(first, second, "{query}");
    }
}

/// `v=` in a link names `idemlab_core::MODEL_VERSION`; a model change that moves these digests must
/// raise it, so a link made before the change gets its notice. This pin fails until both the
/// version and the file's hash are updated together.
#[test]
fn a_change_of_the_golden_digests_raises_the_model_version() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/golden/digests.txt"
    ))
    .expect("the golden file");
    // FNV-1a: a stable hash with no dependency.
    let hash = (text.bytes()).fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    });
    let pinned = (2, 0x60a5_6aea_ab80_52a7_u64);
    assert_eq!(
        (idemlab_core::MODEL_VERSION, hash),
        pinned,
        "the golden digests changed: raise idemlab_core::MODEL_VERSION and pin the new pair here"
    );
}
