//! README's key reference is generated from the codec; this keeps the two from drifting.
//! After changing a key, paste the output of `idemlab keys --markdown` into README.

#[test]
fn readme_key_table_matches_the_codec() {
    let readme = include_str!("../../../README.md");
    let table = idemlab_core::scenario::codec::markdown_table();
    assert!(
        readme.contains(&table),
        "README's key table is stale; regenerate it with `idemlab keys --markdown`"
    );
}

#[test]
fn readme_preset_table_matches_the_presets() {
    let readme = include_str!("../../../README.md");
    let table = idemlab_core::scenario::presets::markdown_table();
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
    let path = format!("{}/../../docs/race.svg", env!("CARGO_MANIFEST_DIR"));
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
    let readme = include_str!("../../../README.md");
    let opening: String = readme.lines().take(4).collect::<Vec<_>>().join("\n");
    assert!(
        opening.contains("](docs/race.svg)"),
        "README opens with the picture"
    );
}

#[test]
fn readme_contract_table_matches_the_contracts() {
    let readme = include_str!("../../../README.md");
    let table = idemlab_core::scenario::contracts::markdown_table();
    assert!(
        readme.contains(&table),
        "README's contract table is stale; regenerate it with `idemlab contracts --list`"
    );
}

/// The variants of `pub enum NAME` in the trace's source, as its JSON names them (kebab case).
fn variants(source: &str, name: &str) -> Vec<String> {
    let start = source
        .find(&format!("pub enum {name} {{"))
        .unwrap_or_else(|| panic!("no enum {name} in core/src/trace.rs"));
    let body = &source[start..];
    let body = &body[..body.find("\n}").expect("the enum ends")];
    (body.lines().skip(1))
        .filter_map(|line| line.strip_prefix("    "))
        .filter(|line| line.starts_with(|c: char| c.is_ascii_uppercase()))
        .map(|line| {
            let ident = line.split([' ', ',', '{', '(']).next().unwrap();
            let mut kebab = String::new();
            for (i, c) in ident.chars().enumerate() {
                if c.is_ascii_uppercase() && i > 0 {
                    kebab.push('-');
                }
                kebab.push(c.to_ascii_lowercase());
            }
            kebab
        })
        .collect()
}

#[test]
fn readme_lists_every_event_type_and_value_of_the_trace_json() {
    let readme = include_str!("../../../README.md");
    let source = include_str!("../../core/src/trace.rs");
    let start = readme
        .find("  - `type` and its fields:")
        .expect("README's event list");
    let list = &readme[start..start + readme[start..].find("\n  - A `send`").unwrap()];
    for kind in variants(source, "EventKind")
        .iter()
        .chain(&variants(source, "Payload"))
    {
        assert!(
            list.contains(&format!("`{kind} {{")) || list.contains(&format!("`{kind}`")),
            "README's event list lacks `{kind}`"
        );
    }
    for (field, enumeration) in [
        ("cause", "DropCause"),
        ("result", "ClaimResult"),
        ("found", "Found"),
        ("cause", "RollbackCause"),
        ("point", "Recovery"),
        ("outcome", "Outcome"),
    ] {
        let values = variants(source, enumeration).join("|");
        // The whole list: the value after the last is the field's end or the next field.
        assert!(
            ["}", ","]
                .iter()
                .any(|end| list.contains(&format!("{field}: {values}{end}"))),
            "README's event list lacks `{field}: {values}` ({enumeration})"
        );
    }
}
