//! The page's words in another language.
//!
//! The English text is the key, as in gettext. Every user-facing string of the page passes
//! through one of three doors:
//! - `t!("…")`: a fixed string, `&'static str` in and out;
//! - `tf!("… {} …", a, b)`: a template whose `{}` holes are filled in order (a translation may
//!   write `{0}`, `{1}`, … to put them in another order; `{{` and `}}` are braces);
//! - `tr(s)`: a string from the lessons' data (titles, texts, phrases, the glossary, the
//!   classification exercise, the ordering rules), translated where it is shown.
//!
//! The one table is `lang/en.txt`: every such string, gathered from the source, the data and
//! `www/index.html` by `tests/i18n.rs`, which fails when the table and the code disagree. A
//! language is a copy of it with a translation under each string (`lang/README.md`), compiled in
//! through `LANGS`. `lang=` picks the language when the page loads; it is read once, like the
//! page's other load-only keys.
//!
//! `qps` is a pseudo-language for translators and tests: every string that passes through the
//! table comes out with its Latin letters swapped for look-alikes ("Ŝŧḗƥ 2"), so a string still
//! in plain letters is one the table misses. Not translated, by design: the simulation's trace
//! vocabulary (event descriptions, timeline labels, the run as text, SQL), the scenario codec's
//! keys and values, and numbers.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::fmt::{Display, Write as _};

/// The languages a link can ask for: `en`, the pseudo-language, and every table in `LANGS`.
pub const BUILT_IN: [&str; 2] = ["en", "qps"];

/// Tables compiled into the page: (name, the table's text in `lang/README.md`'s format). To add
/// a language, add its file, a line here and one to the array's length.
pub const LANGS: [(&str, &str); 0] = [
    // ("de", include_str!("../lang/de.txt")),
];

/// Whether any table ships. While none does, `tr` and `set_lang` skip the table's map, so the
/// page carries no lookup it cannot use (a `const`, folded away by the compiler).
const TABLES: bool = !LANGS.is_empty();

/// The language in force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    English,
    Pseudo,
    /// An index into `LANGS`.
    Table(usize),
}

impl Lang {
    /// The language a `lang=` value names, or `None` for a name with no table.
    pub fn from_name(name: &str) -> Option<Lang> {
        match name {
            "en" => Some(Lang::English),
            "qps" => Some(Lang::Pseudo),
            _ => (LANGS.iter().position(|(n, _)| *n == name)).map(Lang::Table),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Lang::English => "en",
            Lang::Pseudo => "qps",
            Lang::Table(index) => LANGS[index].0,
        }
    }

    /// Every name `lang=` accepts, for its error message and the key table.
    pub fn names() -> Vec<&'static str> {
        let tables = LANGS.iter().map(|(name, _)| *name);
        BUILT_IN.iter().copied().chain(tables).collect()
    }
}

thread_local! {
    static LANG: Cell<Lang> = const { Cell::new(Lang::English) };
    /// The language's strings by their English, parsed once when it is chosen.
    static TABLE: RefCell<BTreeMap<&'static str, &'static str>> = const { RefCell::new(BTreeMap::new()) };
    /// Pseudo-language strings made so far: each is made once and kept, so `tr` can hand back
    /// a `&'static str` (bounded by the number of distinct strings, about two thousand).
    static MADE: RefCell<BTreeMap<&'static str, &'static str>> = const { RefCell::new(BTreeMap::new()) };
}

/// Puts `lang` in force for every string looked up from now on.
pub fn set_lang(lang: Lang) {
    LANG.with(|cell| cell.set(lang));
    if !TABLES {
        return;
    }
    TABLE.with(|table| {
        let mut table = table.borrow_mut();
        table.clear();
        if let Lang::Table(index) = lang {
            for (en, translated) in parse(LANGS[index].1).into_iter().flatten() {
                table.insert(leak(en), leak(translated));
            }
        }
    });
}

pub fn lang() -> Lang {
    LANG.with(Cell::get)
}

/// A string in the language in force: its translation, else the English.
pub fn tr(en: &'static str) -> &'static str {
    match lang() {
        Lang::English => en,
        Lang::Table(_) if !TABLES => en,
        Lang::Table(_) => TABLE.with(|table| table.borrow().get(en).copied().unwrap_or(en)),
        Lang::Pseudo => MADE.with(|made| {
            if let Some(done) = made.borrow().get(en) {
                return *done;
            }
            let done = leak(pseudo(en));
            made.borrow_mut().insert(en, done);
            done
        }),
    }
}

/// A string read from the page's own markup (`www/index.html`) in the language in force, or
/// `None` when it stays as it is (English, or a string the table does not have).
pub fn tr_markup(en: &str) -> Option<String> {
    match lang() {
        Lang::English => None,
        Lang::Table(_) if !TABLES => None,
        Lang::Table(_) => TABLE.with(|table| table.borrow().get(en).map(|s| s.to_string())),
        Lang::Pseudo => Some(pseudo(en)),
    }
}

/// Elements of the page's markup whose text is not translated: code, key names and scripts.
/// An element with `translate="no"` (HTML's own attribute) is skipped too.
pub const MARKUP_SKIPPED: [&str; 5] = ["script", "style", "code", "kbd", "samp"];
/// Attributes of the page's markup that a person reads (or hears).
/// (`data-caption` is a docked timeline's caption, which the stylesheet shows.)
pub const MARKUP_ATTRIBUTES: [&str; 5] =
    ["title", "aria-label", "placeholder", "alt", "data-caption"];

/// A markup string as the table keeps it: runs of whitespace as one space, none at the ends.
pub fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Whether a markup string has words to translate: at least one letter ("–", "→", "0" or
/// "+" have none), and not scenario syntax alone ("dedup=atomic, retries=0", a placeholder:
/// every word of it a key and its value).
pub fn worth_translating(text: &str) -> bool {
    let code = text.split_whitespace().all(|word| word.contains('='));
    text.chars().any(char::is_alphabetic) && !code
}

/// Fills a template's holes: `{}` takes the next argument, `{N}` the Nth; `{{` and `}}` are
/// braces. A hole with no argument is left as written, so a faulty translation shows its
/// fault rather than panicking.
pub fn fill(template: &str, args: &[&dyn Display]) -> String {
    let mut out = String::with_capacity(template.len() + 16 * args.len());
    let mut next = 0;
    let mut rest = template;
    while let Some(open) = rest.find(['{', '}']) {
        out.push_str(&rest[..open]);
        let tail = &rest[open..];
        if tail.starts_with("{{") || tail.starts_with("}}") {
            out.push_str(&tail[..1]);
            rest = &tail[2..];
            continue;
        }
        let hole = tail
            .find('}')
            .filter(|_| tail.starts_with('{'))
            .map(|close| (&tail[1..close], close));
        match hole {
            Some((index, close)) if index.is_empty() || index.parse::<usize>().is_ok() => {
                let at = if index.is_empty() {
                    next += 1;
                    next - 1
                } else {
                    index.parse::<usize>().unwrap_or(usize::MAX)
                };
                match args.get(at) {
                    Some(arg) => {
                        let _ = write!(out, "{arg}");
                    }
                    None => out.push_str(&tail[..=close]),
                }
                rest = &tail[close + 1..];
            }
            _ => {
                out.push_str(&tail[..1]);
                rest = &tail[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// A fixed user-facing string, in the language in force (`crate::i18n`).
#[macro_export]
macro_rules! t {
    ($en:literal) => {
        $crate::i18n::tr($en)
    };
}

/// A user-facing template with `{}` holes, filled in order, in the language in force
/// (`crate::i18n::fill`). Format an argument first when it needs a width or a precision.
#[macro_export]
macro_rules! tf {
    ($en:literal $(, $arg:expr)* $(,)?) => {
        $crate::i18n::fill(
            $crate::i18n::tr($en),
            &[$(&$arg as &dyn ::std::fmt::Display),*],
        )
    };
}

/// The longest table a page will parse, in bytes: a table is about the size of `lang/en.txt`
/// (under 200 KB) with its translations.
pub const TABLE_BYTES_MAX: usize = 1 << 20;

/// A table's (English, translation) pairs, in `lang/README.md`'s format: blocks of an `en:`
/// line and a translation line (`xx:`, any name), separated by blank lines; `#` starts a
/// comment line; `\n` in a line is a line break and `\\` a backslash. A block whose translation
/// is empty (or only spaces) is left out (the English shows). An error names the line and
/// what it expected.
pub fn parse(text: &str) -> Result<Vec<(String, String)>, String> {
    // A byte-order mark, as some editors write at a file's start, is no part of line 1.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.len() > TABLE_BYTES_MAX {
        return Err(format!(
            "the table is {} bytes: allowed at most {TABLE_BYTES_MAX}",
            text.len()
        ));
    }
    let mut pairs = Vec::new();
    let mut english: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        if line.starts_with('#') || line.trim().is_empty() {
            if let Some((at, _)) = english.take() {
                return Err(format!(
                    "line {at}: an `en:` line with no translation after it"
                ));
            }
            continue;
        }
        let Some((name, value)) = line.split_once(": ").or_else(|| {
            let name = line.strip_suffix(':')?;
            Some((name, ""))
        }) else {
            return Err(format!(
                "line {number}: expected `en: …` or a translation `xx: …`, found {line:?}"
            ));
        };
        match (english.take(), name) {
            (None, "en") => english = Some((number, unescape(value))),
            (None, _) => {
                return Err(format!(
                    "line {number}: a translation with no `en:` line before it"
                ))
            }
            (Some((at, _)), "en") => {
                return Err(format!(
                    "line {at}: an `en:` line with no translation after it"
                ))
            }
            (Some((_, en)), _) if value.trim().is_empty() => drop(en),
            (Some((_, en)), _) => pairs.push((en, unescape(value))),
        }
    }
    if let Some((at, _)) = english {
        return Err(format!(
            "line {at}: an `en:` line with no translation after it"
        ));
    }
    Ok(pairs)
}

/// A string as a table line writes it: line breaks as `\n`, backslashes doubled.
pub fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n")
}

fn unescape(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match (c, c == '\\') {
            (_, true) => match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => out.push('\\'),
            },
            (c, false) => out.push(c),
        }
    }
    out
}

/// The pseudo-language: each Latin letter swapped for a look-alike, leaving holes (`{…}`),
/// markup (`<tag …>`, `&name;`) and everything else as they are. A letter-for-letter swap keeps
/// a phrase inside its sentence, as a lesson's pointers and terms need.
pub fn pseudo(en: &str) -> String {
    const UPPER: [char; 26] = [
        'Ȧ', 'Ɓ', 'Ƈ', 'Ḓ', 'Ḗ', 'Ƒ', 'Ɠ', 'Ħ', 'Ī', 'Ĵ', 'Ķ', 'Ŀ', 'Ḿ', 'Ƞ', 'Ǿ', 'Ƥ', 'Ɋ', 'Ř',
        'Ş', 'Ŧ', 'Ŭ', 'Ṽ', 'Ẇ', 'Ẋ', 'Ẏ', 'Ẑ',
    ];
    const LOWER: [char; 26] = [
        'ȧ', 'ƀ', 'ƈ', 'ḓ', 'ḗ', 'ƒ', 'ɠ', 'ħ', 'ī', 'ĵ', 'ķ', 'ŀ', 'ḿ', 'ƞ', 'ǿ', 'ƥ', 'ɋ', 'ř',
        'ş', 'ŧ', 'ŭ', 'ṽ', 'ẇ', 'ẋ', 'ẏ', 'ẑ',
    ];
    let mut out = String::with_capacity(en.len() * 2);
    let mut rest = en;
    while let Some(c) = rest.chars().next() {
        let kept = kept_len(rest);
        if kept > 0 {
            out.push_str(&rest[..kept]);
            rest = &rest[kept..];
            continue;
        }
        out.push(match c {
            'A'..='Z' => UPPER[c as usize - 'A' as usize],
            'a'..='z' => LOWER[c as usize - 'a' as usize],
            _ => c,
        });
        rest = &rest[c.len_utf8()..];
    }
    out
}

/// How many bytes at the start of `text` the pseudo-language keeps as they are: a hole
/// (`{}`, `{0}`), a tag (`<b>`, `</b>`) or an entity (`&amp;`); else 0.
fn kept_len(text: &str) -> usize {
    let closed_by = |open: char, close: char, inner: fn(char) -> bool| {
        let body = text.strip_prefix(open)?;
        let end = body.find(close)?;
        (end <= 24 && body[..end].chars().all(inner)).then_some(end + 2)
    };
    let hole = |c: char| c.is_ascii_digit();
    let tag = |c: char| c.is_ascii_alphanumeric() || " /=\"-_".contains(c);
    let entity = |c: char| c.is_ascii_alphanumeric() || c == '#';
    // `<` is one byte, so the slice after it starts on a character.
    let tag_start = text.starts_with('<')
        && text[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/');
    closed_by('{', '}', hole)
        .or_else(|| tag_start.then(|| closed_by('<', '>', tag)).flatten())
        .or_else(|| closed_by('&', ';', entity).filter(|len| *len > 2))
        .unwrap_or(0)
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}
