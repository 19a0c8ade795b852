//! README's key reference is generated from the codec; this keeps the two from drifting.
//! After changing a key, paste the output of `idemlab keys --markdown` into README.

#[test]
fn readme_key_table_matches_the_codec() {
    let readme = include_str!("../README.md");
    let table = idemlab::scenario::codec::markdown_table();
    assert!(
        readme.contains(&table),
        "README's key table is stale; regenerate it with `idemlab keys --markdown`"
    );
}

#[test]
fn readme_preset_table_matches_the_presets() {
    let readme = include_str!("../README.md");
    let table = idemlab::scenario::presets::markdown_table();
    assert!(
        readme.contains(&table),
        "README's preset table is stale; regenerate it with `idemlab presets --markdown`"
    );
}
