//! Every element id the web layer looks up by name is in `www/index.html` (or in a template it
//! stamps): a renamed id would panic in the browser only, so the names are checked here, as
//! the templates' are. Ids the web layer makes itself (run B's copy, rows, controls) are
//! named by a format and not listed.

use std::collections::BTreeSet;

/// The ids a web module names in a lookup: `by_id("x")`, `input("x")`, `on_click("x", …)`,
/// `get_element_by_id("x")`.
fn ids_named(code: &str) -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for call in [
        "by_id(\"",
        "input(\"",
        "on_click(\"",
        "get_element_by_id(\"",
    ] {
        for piece in code.split(call).skip(1) {
            ids.insert(piece.split('"').next().unwrap_or_default().to_string());
        }
    }
    // `by_id::<HtmlElement>("x")`: the turbofish form.
    for piece in code.split(">(\"").skip(1) {
        ids.insert(piece.split('"').next().unwrap_or_default().to_string());
    }
    ids.retain(|id| !id.is_empty() && !id.contains('{'));
    ids
}

/// The ids the web layer gives elements it makes: `.attr("id", "x")`.
fn ids_made(code: &str) -> BTreeSet<String> {
    (code.split(".attr(\"id\", \"").skip(1))
        .map(|piece| piece.split('"').next().unwrap_or_default().to_string())
        .collect()
}

#[test]
fn every_id_the_web_layer_names_is_in_the_markup() {
    let html = include_str!("../../../www/index.html");
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../web/src");
    let (mut named, mut made) = (BTreeSet::new(), BTreeSet::new());
    for entry in std::fs::read_dir(dir).unwrap() {
        let code = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        named.extend(ids_named(&code));
        made.extend(ids_made(&code));
    }
    assert!(named.len() > 100, "{named:?}");
    let missing: Vec<&String> = (named.iter())
        .filter(|id| !made.contains(*id) && !html.contains(&format!("id=\"{id}\"")))
        .collect();
    assert!(
        missing.is_empty(),
        "named in crates/web but not in www/index.html: {missing:?}"
    );
}

#[test]
fn the_reader_finds_each_form_of_lookup() {
    let code = r#"dom::by_id("a"); dom::by_id::<Element>("b"); dom::input("c"); dom::on_click("d", f);
        document().get_element_by_id("e"); dom::by_id(&format!("run-{side}"));"#;
    let ids: Vec<String> = ids_named(code).into_iter().collect();
    assert_eq!(ids, ["a", "b", "c", "d", "e"]);
}
