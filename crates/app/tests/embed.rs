//! Embedding the lab in a course page: the embed link and its snippet (self-sizing, or of a fixed
//! height without a script), the dialog's titles, the theme, the parts an embed hides, and what
//! Copy says.

mod support;

use expect_test::expect;
use idemlab_app as app;
use idemlab_app::page::MODEL_VERSION;
use idemlab_app::Banner;
use support::load;

#[test]
fn the_embed_link_is_this_state_compact_with_only_the_ticked_controls() {
    let state = load("seed=4&preset=race&cursor=3");
    let query = app::embed_query(&state, vec!["dedup".into(), "retries".into()], None, false);
    assert!(
        query.ends_with(&format!(
            "&cursor=3&embed=1&controls=dedup,retries&v={MODEL_VERSION}"
        )),
        "{query}"
    );
    let snippet = app::embed_snippet(
        &format!("https://lab.example/?{query}"),
        "t",
        app::Sizing::Unmeasured,
    );
    assert!(
        snippet.contains("src=\"https://lab.example/?seed=4&amp;"),
        "{snippet}"
    );
    assert!(snippet.contains(app::HEIGHT_MESSAGE));
}

#[test]
fn every_snippet_sizes_its_own_frame_with_one_listener_per_page() {
    let a = app::embed_snippet(
        "https://lab.example/lab/index.html?seed=1&embed=1",
        "a",
        app::Sizing::Unmeasured,
    );
    let b = app::embed_snippet(
        "https://lab.example/lab/index.html?seed=2&embed=1",
        "b",
        app::Sizing::Unmeasured,
    );
    // No shared id: the listener finds the frame whose window sent the message.
    assert!(!a.contains(" id="), "{a}");
    assert!(a.starts_with(
        "<iframe data-idemlab src=\"https://lab.example/lab/index.html?seed=1&amp;embed=1\""
    ));
    assert!(a.contains("frame.contentWindow === event.source"), "{a}");
    assert!(
        a.contains("querySelectorAll(\"iframe[data-idemlab]\")"),
        "{a}"
    );
    // Pasted twice, the guard registers one listener.
    assert!(a.contains("window.idemlabSize || addEventListener(\"message\", window.idemlabSize ="));
    // On paper a frame is a page at most, and its screen height comes back after.
    assert!(a.contains(r#"["beforeprint", "afterprint"]"#) && a.contains(r#"? "100vh" : """#));
    // A first height that the message replaces, up or down: no min-height to stop a shrink.
    assert!(!a.contains("min-height"), "{a}");
    assert!(a.contains(&format!("height:{}px", app::EMBED_HEIGHT_PX)));
    assert!(
        a.contains(" allow=\"clipboard-write\""),
        "Copy link may write the clipboard"
    );
    let script = |s: &str| s[s.find("<script>").unwrap()..].to_string();
    assert_eq!(
        script(&a),
        script(&b),
        "every snippet carries the same script"
    );
}

/// Not every course page runs a pasted script: with a fixed height the snippet carries
/// `height=` and no script at all, and the frame keeps that height; the dialog's field takes a
/// height in `page::HEIGHT_PX` only.
#[test]
fn a_fixed_height_snippet_has_no_script_and_asks_the_lab_to_fit() {
    let state = load("seed=7&preset=lost-ack");
    let query = app::embed_query(
        &state,
        vec!["dedup".into()],
        app::embed_height(" 600 "),
        false,
    );
    assert!(
        query.ends_with(&format!(
            "&embed=1&controls=dedup&height=600&v={MODEL_VERSION}"
        )),
        "{query}"
    );
    let snippet = app::embed_snippet(
        &format!("https://lab.example/?{query}"),
        "t",
        app::Sizing::Fixed(600),
    );
    assert!(!snippet.contains("<script"), "{snippet}");
    assert!(snippet.contains("height:600px\""), "{snippet}");
    let v = format!("&amp;height=600&amp;v={MODEL_VERSION}\"");
    assert!(snippet.contains(&v), "{snippet}");
    for typed in ["", "319", "4001", "6e2", "-600"] {
        assert_eq!(app::embed_height(typed), None, "{typed:?}");
    }
    assert_eq!(app::embed_height("4000"), Some(4000));
    // A height it cannot use is said, with what it can (an instructor's 200 was dropped
    // without a word).
    let said = app::embed_height_error("200").unwrap();
    assert!(
        said.contains("200 px") && said.contains("320 to 4000"),
        "{said}"
    );
    assert_eq!(app::embed_height_error(" "), None);
    assert_eq!(app::embed_height_error("600"), None);
}

#[test]
fn the_embed_dialog_titles_each_view_apart_and_escapes_an_edited_title() {
    let free = load("seed=7&preset=lost-ack&compare=dedup%3Datomic");
    let step = load("lesson=a&step=3");
    let edited = load("seed=2&lesson=a&step=3&compare=dedup%3Datomic");
    let titles = [
        app::embed_title(&free, &[]),
        app::embed_title(&free, &["dedup".into()]),
        app::embed_title(&step, &[]),
        app::embed_title(&edited, &[]),
        app::embed_title(&load("lesson=b&quiz=4"), &[]),
    ];
    expect![[r#"
        [
            "idemlab: lost-ack, seed 7 vs dedup=atomic",
            "idemlab: lost-ack, seed 7 vs dedup=atomic (dedup editable)",
            "idemlab: Lesson A step 3",
            "idemlab: Lesson A step 3 vs dedup=atomic",
            "idemlab: Lesson B mastery check",
        ]
    "#]]
    .assert_debug_eq(&titles);
    let snippet = app::embed_snippet(
        "https://lab.example/?seed=1",
        "A \"quoted\" <b> & co",
        app::Sizing::Unmeasured,
    );
    assert!(
        snippet.contains(r#" title="A &quot;quoted&quot; &lt;b> &amp; co" "#),
        "{snippet}"
    );
}

#[test]
fn a_links_theme_applies_and_a_wrong_one_is_named_in_the_banner() {
    use idemlab_app::page::Theme;
    let auto = ("(prefers-color-scheme: dark)", "light dark");
    assert_eq!(app::theme_rules(None), auto, "no key: the browser's scheme");
    assert_eq!(app::theme_rules(Some(Theme::Auto)), auto);
    assert_eq!(app::theme_rules(Some(Theme::Dark)), ("all", "dark"));
    assert_eq!(app::theme_rules(Some(Theme::Light)), ("not all", "light"));
    // Each theme's rules are found again to apply the next one over them (Back, Forward).
    for theme in [None, Some(Theme::Light), Some(Theme::Dark)] {
        assert!(app::is_theme_media(app::theme_rules(theme).0));
    }
    assert!(!app::is_theme_media("(max-width: 900px)") && !app::is_theme_media("print"));
    let state = load("seed=2&embed=1&theme=dark");
    assert_eq!(Banner::of(&state), None);
    assert!(
        state.to_query().contains("&theme=dark"),
        "the link keeps it"
    );
    let banner = Banner::of(&load("seed=2&theme=purple")).expect("a banner");
    assert_eq!(
        banner.lines,
        ["`theme=purple` is not valid: expected one of auto|light|dark"]
    );
}

#[test]
fn hide_names_parts_once_in_order_and_refuses_others() {
    let state = load("seed=1&hide=link,tabs,link,counters");
    assert!(state.page.hides("tabs") && state.page.hides("link") && !state.page.hides("side"));
    assert!(
        state.to_query().ends_with("&hide=tabs,counters,link"),
        "{}",
        state.to_query()
    );
    let bad = load("seed=1&hide=tabs,menu");
    expect![[r#"
        [
            "`hide=tabs,menu` is not valid: expected a list of tabs|side|compare|counters|export|link",
        ]
    "#]]
    .assert_debug_eq(&bad.errors.iter().map(ToString::to_string).collect::<Vec<_>>());
    assert_eq!(bad.page.hide, 0);
}

#[test]
fn copy_says_copied_only_when_the_clipboard_write_resolved() {
    let done = app::copy_view(true);
    assert_eq!((done.label, done.show_field), ("Copied", false));
    let blocked = app::copy_view(false);
    assert_eq!((blocked.label, blocked.show_field), ("Not copied", true));
}

/// README shows a snippet as the dialog writes it: the same function writes README's example.
#[test]
fn readmes_snippet_is_the_one_the_dialog_writes() {
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md is readable");
    let snippet = app::embed_snippet(
        "https://example.org/idemlab/index.html?seed=7&preset=lost-ack&embed=1&controls=dedup,store",
        "idemlab: retries and idempotency keys",
        app::Sizing::Measured([1792, 1362, 1167]),
    );
    assert!(
        readme.contains(&format!("```html\n{snippet}\n```")),
        "README's example snippet differs from:\n{snippet}"
    );
}
