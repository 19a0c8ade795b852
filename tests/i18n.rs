//! Issue 13, item 10: translations are possible. The pieces of `idemlab::i18n` (holes, the
//! table format, the pseudo-language), and that the one table, `lang/en.txt`, holds exactly
//! the strings the page can show.

use idemlab::i18n::{self, fill, parse, pseudo, Lang};

#[test]
fn holes_fill_in_order_or_by_number_and_braces_double() {
    assert_eq!(fill("Step {} of {}", &[&2, &8]), "Step 2 of 8");
    assert_eq!(fill("{1} sur {0}", &[&8, &2]), "2 sur 8");
    assert_eq!(fill("{{literal}} {}", &[&"x"]), "{literal} x");
    // A hole with no argument stays as written: a faulty translation shows, never panics.
    assert_eq!(fill("{} and {}", &[&1]), "1 and {}");
    assert_eq!(fill("{5} {x} }", &[&1]), "{5} {x} }");
    assert_eq!(fill("ünï {} ✓", &[&"ok"]), "ünï ok ✓");
}

#[test]
fn the_pseudo_language_swaps_letters_and_keeps_holes_markup_and_phrases() {
    assert_eq!(pseudo("Step {} of {0}"), "Şŧḗƥ {} ǿƒ {0}");
    assert_eq!(pseudo("<b>a</b> &amp; b"), "<b>ȧ</b> &amp; ƀ");
    // Text that only looks like markup is text.
    assert_eq!(pseudo("a < b & c"), "ȧ < ƀ & ƈ");
    assert_eq!(pseudo("7 ms, 0..=20"), "7 ḿş, 0..=20");
    let text = "Its retry waits on that lock, then gets the stored answer.";
    assert!(pseudo(text).contains(&pseudo("waits on that lock")));
    assert!(!pseudo(text).chars().any(|c| c.is_ascii_alphabetic()));
}

#[test]
fn a_table_reads_back_what_escape_writes_and_names_the_line_of_a_fault() {
    let text = "# a comment\nen: Next step\nde: Nächster Schritt\n\nen: a\\nb \\\\ c\nde: x\n\nen: left out\nde:\n";
    let pairs = parse(text).unwrap();
    assert_eq!(
        pairs,
        [
            ("Next step".to_string(), "Nächster Schritt".to_string()),
            ("a\nb \\ c".to_string(), "x".to_string())
        ]
    );
    assert_eq!(i18n::escape("a\nb \\ c"), "a\\nb \\\\ c");
    let missing = parse("en: one\n\nen: two\nde: zwei\n").unwrap_err();
    assert!(missing.starts_with("line 1:"), "{missing}");
    let orphan = parse("de: zwei\n").unwrap_err();
    assert!(orphan.contains("no `en:` line"), "{orphan}");
    let junk = parse("en: one\njust words\n").unwrap_err();
    assert!(junk.starts_with("line 2:"), "{junk}");
}

#[test]
fn lang_names_what_it_accepts_and_the_page_strings_follow_it() {
    assert_eq!(Lang::from_name("en"), Some(Lang::English));
    assert_eq!(Lang::from_name("qps"), Some(Lang::Pseudo));
    assert_eq!(Lang::from_name("xx"), None);
    assert!(Lang::names().starts_with(&["en", "qps"]));
    i18n::set_lang(Lang::Pseudo);
    assert_eq!(idemlab::t!("Next step"), "Ƞḗẋŧ şŧḗƥ");
    assert_eq!(idemlab::tf!("Step {} of {}", 2, 8), "Şŧḗƥ 2 ǿƒ 8");
    assert_eq!(i18n::tr_markup("Seed").as_deref(), Some("Şḗḗḓ"));
    i18n::set_lang(Lang::English);
    assert_eq!(idemlab::t!("Next step"), "Next step");
    assert_eq!(i18n::tr_markup("Seed"), None);
}
