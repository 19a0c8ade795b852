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

/// The query of README's opening picture.
const RACE_QUERY: &str = "seed=4&preset=race";

#[test]
fn readme_opens_with_the_race_as_idemlab_svg_draws_it() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_idemlab"))
        .args(["svg", RACE_QUERY])
        .output()
        .expect("the idemlab binary runs");
    assert!(output.status.success(), "idemlab svg {RACE_QUERY} failed");
    let drawn = String::from_utf8(output.stdout).expect("an SVG is UTF-8");
    let path = format!("{}/docs/race.svg", env!("CARGO_MANIFEST_DIR"));
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    if drawn != committed {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(&path, &drawn).expect("docs/race.svg is writable");
        } else {
            panic!(
                "docs/race.svg is not what `idemlab svg '{RACE_QUERY}'` draws now; \
                 run `UPDATE_EXPECT=1 cargo test --test readme`"
            );
        }
    }
    let readme = include_str!("../README.md");
    let opening: String = readme.lines().take(4).collect::<Vec<_>>().join("\n");
    assert!(
        opening.contains("](docs/race.svg)"),
        "README opens with the picture"
    );
}

#[test]
fn readme_contract_table_matches_the_contracts() {
    let readme = include_str!("../README.md");
    let table = idemlab::scenario::contracts::markdown_table();
    assert!(
        readme.contains(&table),
        "README's contract table is stale; regenerate it with `idemlab contracts --list`"
    );
}
