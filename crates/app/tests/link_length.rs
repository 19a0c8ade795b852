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

/// Twelve own steps of long captions fit in a link as the instructor typed them, but not once
/// the page escapes each `(`: the page keeps the first steps its link can hold, writes no link
/// it would refuse, and the banner names the steps it left out.
#[test]
fn a_state_too_long_for_its_link_leaves_out_the_last_steps_and_says_which() {
    use idemlab_app::page::{Dropped, WRITTEN_LEN_MAX};
    let caption = "(".repeat(280);
    let lines: Vec<String> = (1..=12)
        .map(|n| format!("seed={n}&caption={caption}"))
        .collect();
    let link = format!("steps={}", uri_component(&lines.join("\n")));
    assert!(link.len() <= QUERY_LEN_MAX, "{}", link.len());
    let state = idemlab_app::State::load(&link, &Default::default());
    let kept = state.page.steps.as_ref().map_or(0, Vec::len);
    assert_eq!(state.link_dropped, [Dropped::Steps { kept, of: 12 }]);
    assert!((1..12).contains(&kept), "{kept}");
    let written = idemlab_app::address_query(&state);
    assert!(written.len() <= WRITTEN_LEN_MAX + "&v=4294967295".len());
    let again = idemlab_app::State::load(&written, &Default::default());
    assert!(again.errors.is_empty() && again.link_dropped.is_empty());
    assert_eq!(again.page.steps, state.page.steps);
    let banner = idemlab_app::Banner::of(&state).expect("a banner");
    assert_eq!(
        banner.heading,
        "The page's link cannot hold all of this page."
    );
    assert_eq!(
        banner.lines,
        [format!("The page's link would be longer than the {WRITTEN_LEN_MAX} bytes a link may have, so it leaves out own steps {} to 12 (steps=) and keeps steps 1 to {kept}.", kept + 1)]
    );
}

/// A link the page refuses whole loads the defaults, and the banner says so rather than that
/// the rest loaded.
#[test]
fn a_link_refused_whole_says_the_defaults_are_shown() {
    for link in [
        format!("seed=3&caption={}", "x".repeat(QUERY_LEN_MAX)),
        "retries=99&nope=1".into(),
    ] {
        let state = idemlab_app::State::load(&link, &Default::default());
        let banner = idemlab_app::Banner::of(&state).expect("a banner");
        assert_eq!(
            banner.heading,
            "None of the link could be used, so the lab's defaults are shown."
        );
    }
    let partly = idemlab_app::State::load("seed=3&retries=99", &Default::default());
    assert_eq!(
        idemlab_app::Banner::of(&partly).unwrap().heading,
        "Some of the link was not understood; the rest loaded."
    );
    let fine = idemlab_app::State::load(&six_captioned_steps(), &Default::default());
    assert_eq!(idemlab_app::Banner::of(&fine), None);
}

/// Own steps go up to `STEPS_MAX`, past the longest lesson: a link to the last one opens it.
#[test]
fn a_link_to_the_last_of_twelve_own_steps_opens_it() {
    let lines = ["seed=1&caption=x"; idemlab_app::steps::STEPS_MAX].join("\n");
    let link = format!("steps={}&step=12", uri_component(&lines));
    let (_, opens, errors) = PageState::from_query(&link);
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(opens.step, Some(12));
}
