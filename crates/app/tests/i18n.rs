//! Translations are possible. The pieces of `idemlab_lab::i18n` (holes, the
//! table format, the pseudo-language), and that the one table, `lang/en.txt`, holds exactly
//! the strings the page can show.

use idemlab_lab::i18n::{self, fill, parse, pseudo, Lang};

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
    assert_eq!(idemlab_lab::t!("Next step"), "Ƞḗẋŧ şŧḗƥ");
    assert_eq!(idemlab_lab::tf!("Step {} of {}", 2, 8), "Şŧḗƥ 2 ǿƒ 8");
    assert_eq!(i18n::tr_markup("Seed").as_deref(), Some("Şḗḗḓ"));
    i18n::set_lang(Lang::English);
    assert_eq!(idemlab_lab::t!("Next step"), "Next step");
    assert_eq!(i18n::tr_markup("Seed"), None);
}

/// The one table: every string the page can show in words, each with where it is used, in
/// an order a translator can follow: the lessons' data step by step, then the rest of the
/// data, the code file by file, and the markup in document order. A string used in several
/// places comes once, first where it first appears, with each place.
struct Catalog {
    strings: Vec<(String, Vec<String>)>,
    index: std::collections::BTreeMap<String, usize>,
}

impl Catalog {
    fn add(&mut self, text: &str, place: String) {
        match self.index.get(text) {
            Some(&at) if self.strings[at].1.contains(&place) => {}
            Some(&at) => self.strings[at].1.push(place),
            None => {
                self.index.insert(text.to_string(), self.strings.len());
                self.strings.push((text.to_string(), vec![place]));
            }
        }
    }

    fn contains(&self, text: &str) -> bool {
        self.index.contains_key(text)
    }
}

fn catalog() -> Catalog {
    let mut catalog = Catalog {
        strings: Vec::new(),
        index: std::collections::BTreeMap::new(),
    };
    for (text, place) in data_strings() {
        catalog.add(text, place);
    }
    let mut sources = Vec::new();
    for krate in std::fs::read_dir(root().join("crates")).unwrap() {
        rust_files(&krate.unwrap().path().join("src"), &mut sources);
    }
    sources.sort();
    for path in sources {
        let text = std::fs::read_to_string(&path).unwrap();
        let path = path.strip_prefix(root()).unwrap();
        // Comments may show the macros (`t!("…")`) without calling them.
        let code: Vec<&str> = (text.lines())
            .filter(|line| !line.trim_start().starts_with("//"))
            .collect();
        for literal in macro_literals(&code.join("\n")) {
            catalog.add(&literal, path.display().to_string());
        }
    }
    let html =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../www/index.html"))
            .unwrap();
    for text in markup_strings(&html) {
        catalog.add(&text, "www/index.html".into());
    }
    catalog
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

/// Each lesson's title and each step's words, with the step they belong to.
fn push_lesson_strings(out: &mut Vec<(&'static str, String)>) {
    for lesson in &idemlab_course::lessons::LESSONS {
        let id = lesson.id.to_ascii_uppercase();
        out.push((lesson.title, format!("lesson {id}: its title")));
        for (index, step) in lesson.steps.iter().enumerate() {
            let at = format!("lesson {id} step {}", index + 1);
            out.push((step.title, format!("{at}: title")));
            out.push((step.run_a, format!("{at}: what run A is, in a few words")));
            if let Some(boundary) = step.boundary {
                out.push((boundary.protects, format!("{at}: what its fix protects")));
                out.push((boundary.not, format!("{at}: what its fix does not protect")));
            }
            if let Some(run_b) = step.run_b {
                out.push((run_b, format!("{at}: what run B is, in a few words")));
            }
            out.push((step.predict.setup, format!("{at}: the question's set-up")));
            out.push((step.predict.question, format!("{at}: the question")));
            out.push((step.text, format!("{at}: the text shown after the answer")));
            let phrases = step.pointers.iter().chain([&step.predict.proof]);
            for pointer in phrases {
                let place = format!("{at}: a phrase of its text (write it as your text has it)");
                out.push((pointer.phrase, place));
            }
        }
    }
}

/// The lessons' data and the core's words, translated where they are shown (`i18n::tr`),
/// each with its place.
fn data_strings() -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    push_lesson_strings(&mut out);
    for choice in idemlab_course::lessons::WHICH_CHOICES {
        out.push((choice, "a question's choice".into()));
    }
    for template in idemlab_core::scenario::codec::ERROR_TEMPLATES {
        out.push((
            template,
            "a link's or control's refused value (the codec's words)".into(),
        ));
    }
    for term in &idemlab_course::glossary::TERMS {
        out.push((
            term.word,
            "glossary: a term (the lessons' texts use it)".into(),
        ));
        for alias in term.aliases {
            out.push((
                alias,
                format!("glossary: another form of \"{}\"", term.word),
            ));
        }
        let place = format!("glossary: the definition of \"{}\"", term.word);
        out.push((term.definition, place));
    }
    for operation in &idemlab_course::classify::OPERATIONS {
        out.push((
            operation.text,
            "classification exercise: an operation".into(),
        ));
        out.push((operation.why, "classification exercise: why".into()));
        out.push((
            operation.more,
            "classification exercise: why, in depth".into(),
        ));
    }
    for probe in &idemlab_course::ordering::PROBES {
        out.push((probe.name, "ordering exercise: a situation".into()));
    }
    for rule in &idemlab_course::ordering::RULES {
        out.push((rule.cause, "ordering exercise: a verdict's cause".into()));
    }
    out.push((
        idemlab_course::ordering::BOUNDARY,
        "ordering exercise: a verdict".into(),
    ));
    for (words, _) in &idemlab_course::quiz::ORDER_SITUATIONS {
        out.push((words, "mastery check: a situation".into()));
    }
    push_core_and_view_strings(&mut out);
    for (name, text) in TRANSLATED_CONSTS {
        out.push((text, name.to_string()));
    }
    out
}

/// The core's words that the page shows: each preset's summary, each key's help and the
/// controls' group titles (the CLI prints the same English from the core); and the legend's.
fn push_core_and_view_strings(out: &mut Vec<(&'static str, String)>) {
    use idemlab_core::scenario::codec;
    for preset in &idemlab_core::scenario::presets::PRESETS {
        out.push((
            preset.summary,
            format!("preset {}: its summary", preset.name),
        ));
    }
    for key in codec::keys() {
        out.push((key.help, format!("control {}: its help", key.name)));
    }
    for group in codec::Group::ALL {
        out.push((group.title(), "controls: a group's title".into()));
    }
    for entry in &idemlab_lab::view::legend::LEGEND {
        out.push((entry.label, "the legend (and the SVG export's)".into()));
    }
}

/// Constants a display site passes through `i18n::tr` (kept as constants for the tests that
/// compare with them).
const TRANSLATED_CONSTS: [(&str, &str); 5] = [
    ("crates/lab/src/story.rs", idemlab_lab::story::HELD),
    ("crates/app/src/predict.rs", idemlab_app::HOLD_HINT),
    ("crates/app/src/quiz.rs", idemlab_app::RUN_HIDDEN_NOTE),
    ("crates/app/src/model.rs", idemlab_app::HIDDEN_TITLE),
    ("crates/app/src/screen.rs", idemlab_app::UNRECORDED_SO_FAR),
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
            let skip = idemlab_lab::i18n::MARKUP_SKIPPED.contains(&name.as_str())
                || tag.contains("translate=\"no\"");
            if !skipping.is_empty() || skip {
                if !VOID.contains(&name.as_str()) && !tag.ends_with('/') {
                    skipping.push(name);
                }
                continue;
            }
            for attribute in idemlab_lab::i18n::MARKUP_ATTRIBUTES {
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
    let text = idemlab_lab::i18n::collapse(&text);
    if idemlab_lab::i18n::worth_translating(&text) {
        out.push(text);
    }
}

const TABLE_PATH: &str = "lang/en.txt";

/// The repository's root: the table, the markup and every crate's sources are named from it.
fn root() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

fn table_text(catalog: &Catalog) -> String {
    let mut out = String::from(
        "# idemlab's page strings: the one table. crates/app/tests/i18n.rs writes it from the code\n\
         # (run `UPDATE_EXPECT=1 cargo test -p idemlab-app --test i18n` after changing a string);\n\
         # never edit it by hand. A translation is a copy, lang/NAME.txt, with a translation\n\
         # written after each `xx:` (lang/README.md). The `#` lines say where each string is used.\n",
    );
    for (text, places) in &catalog.strings {
        out.push('\n');
        for place in places {
            out.push_str(&format!("# {place}\n"));
        }
        out.push_str(&format!("en: {}\nxx:\n", idemlab_lab::i18n::escape(text)));
    }
    out
}

#[test]
fn the_one_table_holds_every_string_the_page_shows_and_no_other() {
    let catalog = catalog();
    assert!(
        catalog.strings.len() > 900,
        "only {} strings",
        catalog.strings.len()
    );
    let want = table_text(&catalog);
    let have = std::fs::read_to_string(root().join(TABLE_PATH)).unwrap_or_default();
    if have != want {
        if std::env::var_os("UPDATE_EXPECT").is_some() {
            std::fs::write(root().join(TABLE_PATH), &want).unwrap();
            return;
        }
        panic!(
            "{TABLE_PATH} is out of date with the code ({} strings now): run \
             `UPDATE_EXPECT=1 cargo test -p idemlab-app --test i18n` and commit the file",
            catalog.strings.len()
        );
    }
    assert!(parse(&have).is_ok(), "the table parses");
}

/// What a translation must keep of its English: every hole, each used, none past the last.
/// `{}` counts in order; `{N}` names one. Returns the faults in words.
fn hole_faults(en: &str, translated: &str) -> Option<String> {
    let used = |text: &str| -> Vec<usize> {
        let mut next = 0;
        let mut out = Vec::new();
        let mut rest = text.replace("{{", "").replace("}}", "");
        while let Some(open) = rest.find('{') {
            let Some(close) = rest[open..].find('}') else {
                break;
            };
            let inside = &rest[open + 1..open + close];
            if inside.is_empty() {
                out.push(next);
                next += 1;
            } else if let Ok(n) = inside.parse::<usize>() {
                out.push(n);
            }
            rest = rest[open + close + 1..].to_string();
        }
        out.sort_unstable();
        out.dedup();
        out
    };
    let (want, have) = (used(en), used(translated));
    (want != have).then(|| {
        format!(
            "the English fills {} hole(s) {want:?} and the translation {have:?}: keep every \
             `{{}}` (or number them `{{0}}`, `{{1}}`, … to reorder)",
            want.len()
        )
    })
}

/// Every fault of one translation, with its line, so a translator fixes them in one pass.
fn table_faults(name: &str, text: &str, catalog: &Catalog) -> Vec<String> {
    let pairs = match parse(text) {
        Ok(pairs) => pairs,
        Err(e) => return vec![format!("lang/{name}.txt: {e}")],
    };
    let line_of = |en: &str| {
        let needle = format!("en: {}", idemlab_lab::i18n::escape(en));
        text.lines().position(|l| l == needle).map_or(0, |i| i + 1)
    };
    let mut faults = Vec::new();
    let translations: std::collections::BTreeMap<&str, &str> = pairs
        .iter()
        .map(|(en, t)| (en.as_str(), t.as_str()))
        .collect();
    for (en, translated) in &pairs {
        let line = line_of(en);
        if !catalog.contains(en) {
            let near = (catalog.strings.iter())
                .max_by_key(|(s, _)| {
                    s.chars()
                        .zip(en.chars())
                        .take_while(|(a, b)| a == b)
                        .count()
                })
                .map(|(s, _)| s.as_str())
                .unwrap_or("");
            faults.push(format!(
                "lang/{name}.txt line {line}: {en:?} is not one of the page's strings (the \
                 nearest is {near:?}); copy the English from lang/en.txt"
            ));
        } else if let Some(fault) = hole_faults(en, translated) {
            faults.push(format!("lang/{name}.txt line {line}: {en:?}: {fault}"));
        }
    }
    // A step's phrases are buttons only where the step's text contains them.
    for lesson in &idemlab_course::lessons::LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            let Some(text) = translations.get(step.text) else {
                continue;
            };
            for pointer in step.pointers.iter().chain([&step.predict.proof]) {
                let phrase = translations
                    .get(pointer.phrase)
                    .copied()
                    .unwrap_or(pointer.phrase);
                if !text.contains(phrase) {
                    faults.push(format!(
                        "lang/{name}.txt line {}: lesson {} step {}'s text has no {phrase:?} \
                         (a phrase of it that is a button): translate the phrase as the text has it",
                        line_of(step.text),
                        lesson.id.to_ascii_uppercase(),
                        index + 1
                    ));
                }
            }
        }
    }
    faults
}

#[test]
fn every_shipped_language_is_a_table_of_the_page_s_own_strings_with_its_holes() {
    let catalog = catalog();
    let mut faults = Vec::new();
    for (name, text) in idemlab_lab::i18n::LANGS {
        faults.extend(table_faults(name, text, &catalog));
        let done = parse(text).map_or(0, |pairs| pairs.len());
        eprintln!(
            "lang/{name}.txt: {done} of {} strings translated",
            catalog.strings.len()
        );
    }
    // A table in lang/ that LANGS does not name would never be checked, nor shown.
    for entry in std::fs::read_dir(root().join("lang")).unwrap() {
        let file = entry.unwrap().file_name().to_string_lossy().to_string();
        let Some(name) = file.strip_suffix(".txt") else {
            continue;
        };
        if name != "en" && !idemlab_lab::i18n::LANGS.iter().any(|(n, _)| *n == name) {
            faults.push(format!(
                "lang/{file} is not in crates/lab/src/i18n.rs's LANGS: add it there"
            ));
        }
    }
    assert!(faults.is_empty(), "{}", faults.join("\n"));
}

#[test]
fn a_translation_s_faults_are_all_named_with_their_lines() {
    let catalog = catalog();
    let step = &idemlab_course::lessons::LESSONS[0].steps[0];
    let pointer = step.pointers[0].phrase;
    let text = format!(
        "en: Step {{}} of {{}}: {{}}\nde: Schritt {{}} von {{}}\n\n\
         en: Step {{}} of {{}}\nde: Schritt {{}} von {{}}\n\n\
         en: Next step →\nde: Weiter {{3}} →\n\n\
         en: {}\nde: Ein Text ohne die Phrase\n\n\
         en: {pointer}\nde: eine Phrase\n",
        idemlab_lab::i18n::escape(step.text)
    );
    let faults = table_faults("de", &text, &catalog);
    // The text's other phrases are left in English, which its German does not contain either.
    assert_eq!(faults.len(), 3 + 1 + step.pointers.len(), "{faults:#?}");
    let says = |i: usize, line: &str, what: &str| {
        assert!(
            faults[i].contains(line) && faults[i].contains(what),
            "{}",
            faults[i]
        );
    };
    says(0, "lang/de.txt line 1:", "3 hole(s)");
    says(1, "line 4:", "nearest is \"Step {} of {}: {}\"");
    says(2, "line 7:", "[3]");
    says(3, "line 10:", "\"eine Phrase\"");
}

#[test]
fn lang_in_a_link_is_checked_and_kept_in_the_link_the_page_writes() {
    use idemlab_app::page::{Opens, PageState};
    let (page, _, errors) = PageState::from_query("seed=3&lang=qps");
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(page.lang, Some(Lang::Pseudo));
    assert!((page.to_query(&Opens::default()).split('&')).any(|pair| pair == "lang=qps"));
    let (page, _, errors) = PageState::from_query("seed=3&lang=fr");
    assert_eq!(page.lang, None);
    let said = idemlab_app::error_text(&errors[0]);
    assert_eq!(said, "`lang=fr` is not valid: expected one of en|qps");
    // English by default, and not written.
    assert!(!PageState::from_query("seed=3")
        .0
        .to_query(&Opens::default())
        .contains("lang="));
}

/// A translation may put a step's button phrases in another order, and its letters may be any
/// script's: the phrases are still found, and a term only as a whole word.
#[test]
fn phrases_are_found_in_any_order_and_terms_only_as_whole_words_in_any_script() {
    use idemlab_app::{self as app, Piece};
    use idemlab_course::lessons::{Pointer, Side};
    use idemlab_lab::view::Find;
    let pointer = |phrase| Pointer {
        phrase,
        side: Side::A,
        find: Find::Timeout,
    };
    let text = "the second thing, then the first thing";
    let pointers = [pointer("the first thing"), pointer("the second thing")];
    let found: Vec<usize> = (app::pieces(text, &pointers).iter())
        .filter_map(|piece| match piece {
            Piece::Pointer(index, _) => Some(*index),
            _ => None,
        })
        .collect();
    assert_eq!(found, [1, 0]);
    // "claim" inside a word, of any script, is no use of the term; after a comma and a space
    // or a quotation mark it is.
    let spans = |text: &str| {
        (idemlab_course::glossary::spans(text, false).iter())
            .map(|&(start, _, term)| (start, term.word))
            .collect::<Vec<_>>()
    };
    assert_eq!(spans("ȧclaim reclaimed"), []);
    assert_eq!(spans("Rückclaim, then “claim”"), [(20, "claim")]);
}
