//! What the page writes back from a link stays compact and loads again: own steps' captions
//! are escaped once, not once in their line and again around it.

use idemlab_app::page::PageState;
use idemlab_core::scenario::codec::QUERY_LEN_MAX;

/// As a browser's `encodeURIComponent` writes a value: how instructors' tools build a link.
fn uri_component(text: &str) -> String {
    let mut out = String::new();
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-_.!~*'()".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Six own steps whose captions are as long as a caption may be and mostly `(`: a link of
/// 1,944 bytes, as an instructor's tool writes it.
fn six_captioned_steps() -> String {
    let caption = format!("{}retry(key)", "(".repeat(262));
    let lines: Vec<String> = (1..=6)
        .map(|n| format!("seed={n}&caption={caption}&check=duplicates:3"))
        .collect();
    format!("steps={}&step=2&speed=5", uri_component(&lines.join("\n")))
}

#[test]
fn own_steps_with_parenthesised_captions_are_written_back_compactly_and_load() {
    let link = six_captioned_steps();
    let (page, opens, errors) = PageState::from_query(&link);
    assert!(errors.is_empty(), "{errors:?}");
    let written = page.to_query(&opens);
    eprintln!("link {} bytes, written {} bytes", link.len(), written.len());
    assert!(written.len() <= QUERY_LEN_MAX, "{} bytes", written.len());
    let (again, opens_again, errors) = PageState::from_query(&written);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!((again, opens_again), (page, opens));
}
