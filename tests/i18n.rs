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

/// The one table: every string the page can show in words, from three places.
fn catalog() -> std::collections::BTreeSet<String> {
    let mut strings = std::collections::BTreeSet::new();
    let mut sources = Vec::new();
    rust_files(std::path::Path::new("src"), &mut sources);
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        // Comments may show the macros (`t!("…")`) without calling them.
        let code: Vec<&str> = (text.lines())
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        for literal in macro_literals(&code.join("\n")) {
            strings.insert(literal);
        }
    }
    strings.extend(data_strings().into_iter().map(str::to_string));
    strings.extend(markup_strings(
        &std::fs::read_to_string("www/index.html").unwrap(),
    ));
    strings
}

fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The string literal of every `t!("…")` and `tf!("…", …)` in a Rust file, unescaped.
fn macro_literals(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("t!(") {
        let before = &text[..at];
        // `t!(` or `tf!(`… but not `format!(`, `print!(`: the macro's name starts after a
        // path separator or a non-identifier character.
        let name_start = before
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map_or(0, |i| i + 1);
        let name = &text[name_start..at + 1];
        if name != "t" {
            continue;
        }
        let literal = text[at + 3..].trim_start();
        let Some(body) = literal.strip_prefix('"') else {
            panic!("t! without a string literal: {:.60}", &text[at..]);
        };
        out.push(unescape_literal(body));
    }
    // "tf!(" has no "t!(" in it: look for it on its own.
    for (at, _) in text.match_indices("tf!(") {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let literal = text[at + 4..].trim_start();
        let body = literal
            .strip_prefix('"')
            .unwrap_or_else(|| panic!("tf! without a string literal: {:.60}", &text[at..]));
        out.push(unescape_literal(body));
    }
    out
}

/// A Rust string literal's value, from just after its opening quote to its closing one.
fn unescape_literal(body: &str) -> String {
    let mut out = String::new();
    let mut chars = body.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' => return out,
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some('"') => out.push('"'),
                Some('\'') => out.push('\''),
                Some('0') => out.push('\0'),
                // A line continuation: the break and the next line's indentation go.
                Some('\n') => {
                    while chars.peek().is_some_and(|c| c.is_whitespace()) {
                        chars.next();
                    }
                }
                Some('u') => {
                    let code: String = chars.by_ref().skip(1).take_while(|c| *c != '}').collect();
                    out.push(char::from_u32(u32::from_str_radix(&code, 16).unwrap()).unwrap());
                }
                other => panic!("an escape the catalog does not read: \\{other:?}"),
            },
            c => out.push(c),
        }
    }
    panic!("an unterminated literal: {out:.60}")
}

/// The lessons' data, translated where it is shown (`i18n::tr`).
fn data_strings() -> Vec<&'static str> {
    let mut out = Vec::new();
    for lesson in &idemlab::lessons::LESSONS {
        out.push(lesson.title);
        for step in lesson.steps {
            out.extend([
                step.title,
                step.text,
                step.predict.setup,
                step.predict.question,
            ]);
            out.extend(step.pointers.iter().map(|p| p.phrase));
            out.push(step.predict.proof.phrase);
        }
    }
    out.extend(idemlab::lessons::WHICH_CHOICES);
    for term in &idemlab::glossary::TERMS {
        out.push(term.word);
        out.extend(term.aliases);
        out.push(term.definition);
    }
    for operation in &idemlab::classify::OPERATIONS {
        out.extend([operation.text, operation.why]);
    }
    out.extend(idemlab::ordering::PROBES.iter().map(|p| p.name));
    out.extend(idemlab::ordering::RULES.iter().map(|r| r.cause));
    out.push(idemlab::ordering::BOUNDARY);
    out.extend(
        idemlab::quiz::ORDER_SITUATIONS
            .iter()
            .map(|(words, _)| *words),
    );
    // The core's words that the page shows: each preset's summary, each key's help and the
    // controls' group titles (the CLI prints the same English from the core).
    use idemlab::scenario::codec;
    out.extend(
        idemlab::scenario::presets::PRESETS
            .iter()
            .map(|p| p.summary),
    );
    out.extend(codec::keys().iter().map(|k| k.help));
    out.extend(codec::Group::ALL.iter().map(|g| g.title()));
    out.extend(
        idemlab::view::legend::LEGEND
            .iter()
            .map(|entry| entry.label),
    );
    out.extend(TRANSLATED_CONSTS);
    out
}

/// Constants a display site passes through `i18n::tr` (kept as constants for the tests that
/// compare with them).
const TRANSLATED_CONSTS: [&str; 5] = [
    idemlab::story::HELD,
    idemlab::app::HOLD_HINT,
    idemlab::app::RUN_HIDDEN_NOTE,
    idemlab::app::HIDDEN_TITLE,
    idemlab::app::UNRECORDED_SO_FAR,
];

/// The words of `www/index.html`: text outside `MARKUP_SKIPPED` elements and those marked
/// `translate="no"`, and the `MARKUP_ATTRIBUTES`, each collapsed, as `web::i18n` reads them.
fn markup_strings(html: &str) -> Vec<String> {
    const VOID: [&str; 10] = [
        "input", "br", "img", "meta", "link", "hr", "source", "col", "base", "wbr",
    ];
    let mut out = Vec::new();
    let mut skipping: Vec<String> = Vec::new();
    let mut rest = html;
    while !rest.is_empty() {
        if let Some(comment) = rest.strip_prefix("<!--") {
            let end = comment.find("-->").expect("a closed comment");
            rest = &comment[end + 3..];
            continue;
        }
        if rest.starts_with('<') {
            let end = rest.find('>').expect("a closed tag");
            let tag = &rest[1..end];
            rest = &rest[end + 1..];
            if tag.starts_with('!') {
                continue;
            }
            if let Some(name) = tag.strip_prefix('/') {
                if skipping.last().is_some_and(|s| s == name.trim()) {
                    skipping.pop();
                }
                continue;
            }
            let name: String = tag
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric())
                .collect();
            let name = name.to_ascii_lowercase();
            let skip = idemlab::i18n::MARKUP_SKIPPED.contains(&name.as_str())
                || tag.contains("translate=\"no\"");
            if !skipping.is_empty() || skip {
                if !VOID.contains(&name.as_str()) && !tag.ends_with('/') {
                    skipping.push(name);
                }
                continue;
            }
            for attribute in idemlab::i18n::MARKUP_ATTRIBUTES {
                let needle = format!(" {attribute}=\"");
                if let Some(at) = tag.find(&needle) {
                    let value = &tag[at + needle.len()..];
                    let value = &value[..value.find('"').expect("a closed attribute")];
                    push_markup(&mut out, value);
                }
            }
            continue;
        }
        let end = rest.find('<').unwrap_or(rest.len());
        if skipping.is_empty() {
            push_markup(&mut out, &rest[..end]);
        }
        rest = &rest[end..];
    }
    out
}

fn push_markup(out: &mut Vec<String>, raw: &str) {
    let text = raw
        .replace("&quot;", "\"")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&");
    let text = idemlab::i18n::collapse(&text);
    if idemlab::i18n::worth_translating(&text) {
        out.push(text);
    }
}

const TABLE_PATH: &str = "lang/en.txt";

fn table_text(strings: &std::collections::BTreeSet<String>) -> String {
    let mut out = String::from(
        "# idemlab's page strings: the one table (lang/README.md says how to translate it).\n\
         # tests/i18n.rs writes this file from the code: run `UPDATE_EXPECT=1 cargo test --test\n\
         # i18n` after changing a string, and never edit it by hand.\n",
    );
    for text in strings {
        out.push_str(&format!("\nen: {}\nxx:\n", idemlab::i18n::escape(text)));
    }
    out
}

#[test]
fn the_one_table_holds_every_string_the_page_shows_and_no_other() {
    let strings = catalog();
    assert!(strings.len() > 500, "only {} strings", strings.len());
    let want = table_text(&strings);
    let have = std::fs::read_to_string(TABLE_PATH).unwrap_or_default();
    if have != want {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(TABLE_PATH, &want).unwrap();
            return;
        }
        panic!(
            "{TABLE_PATH} is out of date with the code ({} strings now): run \
             `UPDATE_EXPECT=1 cargo test --test i18n` and commit the file",
            strings.len()
        );
    }
    assert!(parse(&have).is_ok(), "the table parses");
}

#[test]
fn every_shipped_language_is_a_table_of_the_page_s_own_strings_with_its_holes() {
    let strings = catalog();
    for (name, text) in idemlab::i18n::LANGS {
        let pairs = parse(text).unwrap_or_else(|e| panic!("lang/{name}.txt: {e}"));
        for (en, translated) in pairs {
            assert!(
                strings.contains(&en),
                "lang/{name}.txt: {en:?} is not a page string"
            );
            let holes = |s: &str| {
                s.matches("{}").count() + (0..9).filter(|i| s.contains(&format!("{{{i}}}"))).count()
            };
            assert_eq!(
                holes(&en),
                holes(&translated),
                "lang/{name}.txt: the holes of {en:?}"
            );
        }
    }
}
