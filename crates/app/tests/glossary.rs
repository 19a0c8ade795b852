//! The glossary and the predictions: every term a step lists is defined, definitions stay
//! short, each step's prediction has exactly one right choice and that choice is what the
//! simulator says, and the text shown before the answer does not give the answer away. On the
//! page: a step's text underlines each term where it first appears, and a definition's popup
//! stays inside the viewport.
// Native tests: Unicode case mapping costs the page nothing here (clippy.toml forbids it in
// the library, where it would link 18 KB of tables into the wasm).
#![allow(clippy::disallowed_methods)]

use idemlab_app as app;
use idemlab_app::page::PageState;
use idemlab_course::classify::OPERATIONS;
use idemlab_course::glossary::{lookup, spans, Term, DEFINITION_BYTES_MAX, TERMS};
use idemlab_course::lessons::{Ask, Side, Step, LESSONS};

#[test]
fn every_term_a_step_lists_is_defined_and_every_definition_is_short() {
    for lesson in &LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            for word in step.terms {
                assert!(
                    lookup(word).is_some(),
                    "lesson {} step {} lists {word:?}, which the glossary lacks",
                    lesson.id,
                    index + 1
                );
            }
        }
    }
    for term in &TERMS {
        assert!(
            term.definition.len() <= DEFINITION_BYTES_MAX,
            "{:?} is {} bytes",
            term.word,
            term.definition.len()
        );
        assert_eq!(lookup(&term.word.to_uppercase()), Some(term));
    }
}

#[test]
fn step_one_defines_the_four_words_the_lab_is_about() {
    let first = &LESSONS[0].steps[0];
    for word in [
        "idempotent",
        "idempotency key",
        "at-least-once delivery",
        "exactly-once effect",
    ] {
        assert!(first.terms.contains(&word), "step 1 must define {word}");
    }
    let key = lookup("idempotency key").unwrap();
    assert!(
        key.definition.contains("Idempotency-Key"),
        "the key is shown as its header"
    );
}

#[test]
fn spans_find_whole_words_longest_first_without_overlap() {
    let text = "An idempotency key makes a retry idempotent; the key is kept.";
    let found = spans(text, false);
    let words: Vec<&str> = found.iter().map(|&(s, e, _)| &text[s..e]).collect();
    assert_eq!(words, ["idempotency key", "idempotent"]);
    // "keys" inside "monkeys" is no word; "key" alone is common and needs `loose`.
    assert!(spans("monkeys", true).is_empty());
    assert_eq!(spans("the key", true).len(), 1);
    assert!(spans("the key", false).is_empty());
    // A term with its own capitals is found as the text writes it.
    let text = "concurrencyPolicy: Forbid, an emptyDir, a new UID";
    let found: Vec<&str> = spans(text, false).iter().map(|t| t.2.word).collect();
    assert_eq!(found, ["concurrencyPolicy: Forbid", "emptyDir", "pod UID"]);
}

#[test]
fn step_text_pieces_keep_the_text_put_pointers_in_place_and_underline_first_uses() {
    use app::Piece;
    for lesson in &LESSONS {
        for step in lesson.steps {
            let pieces = app::pieces(step.text, step.pointers);
            let joined: String = (pieces.iter())
                .map(|p| match p {
                    Piece::Plain(w) | Piece::Pointer(_, w) | Piece::Term(w, _) => *w,
                })
                .collect();
            assert_eq!(joined, step.text, "{}", step.title);
            let pointers = pieces.iter().filter(|p| matches!(p, Piece::Pointer(..)));
            assert_eq!(pointers.count(), step.pointers.len(), "{}", step.title);
            let mut terms: Vec<&str> = (pieces.iter())
                .filter_map(|p| match p {
                    Piece::Term(_, term) => Some(term.word),
                    _ => None,
                })
                .collect();
            let count = terms.len();
            terms.dedup();
            assert_eq!(terms.len(), count, "one underline per term: {}", step.title);
        }
    }
    let text = "Retries make at-least-once delivery; an Idempotency key makes it idempotent.";
    let words: Vec<String> = (app::pieces(text, &[]).iter())
        .filter_map(|p| match p {
            Piece::Term(w, t) => Some(format!("{w}={}", t.word)),
            _ => None,
        })
        .collect();
    assert_eq!(
        words,
        [
            "at-least-once delivery=at-least-once delivery",
            "Idempotency key=idempotency key",
            "idempotent=idempotent"
        ]
    );
}

#[test]
fn step_1_of_each_lesson_defines_its_terms_from_the_glossary() {
    let terms = app::step_terms(&LESSONS[0].steps[0]);
    let words: Vec<&str> = terms.iter().map(|t| t.word).collect();
    assert_eq!(
        words,
        [
            "idempotent",
            "idempotency key",
            "at-least-once delivery",
            "exactly-once effect",
            "one-way partition",
            "boundary"
        ]
    );
    for lesson in &LESSONS {
        for step in lesson.steps {
            assert_eq!(
                app::step_terms(step).len(),
                step.terms.len(),
                "{}",
                step.title
            );
        }
    }
    // Step 1's text uses its six words, so each is underlined where it first appears.
    let step = &LESSONS[0].steps[0];
    let underlined: Vec<&str> = (app::pieces(step.text, step.pointers).iter())
        .filter_map(|p| match p {
            app::Piece::Term(_, term) => Some(term.word),
            _ => None,
        })
        .collect();
    assert_eq!(
        underlined,
        [
            "one-way partition",
            "at-least-once delivery",
            "idempotency key",
            "idempotent",
            "exactly-once effect",
            "boundary"
        ]
    );
}

#[test]
fn a_term_definition_flips_and_shifts_to_stay_inside_the_viewport() {
    // A definition placed only under its term is cut off at the viewport's edges.
    let view = (1366.0, 768.0);
    assert_eq!(
        app::popup_at((100.0, 200.0, 220.0), (300.0, 80.0), view),
        (100.0, 224.0),
        "under the term"
    );
    let (left, top) = app::popup_at((1300.0, 720.0, 740.0), (300.0, 80.0), view);
    assert_eq!(
        (left, top),
        (1062.0, 636.0),
        "above the term, shifted in from the right edge"
    );
    let phone = app::popup_at((-20.0, 10.0, 30.0), (300.0, 900.0), (390.0, 844.0));
    assert_eq!(
        phone,
        (4.0, 34.0),
        "no room above: it stays under, and never starts off-screen"
    );
}

fn runs(
    step: &idemlab_course::lessons::Step,
) -> (idemlab_lab::Metrics, Option<idemlab_lab::Metrics>) {
    let mut query = step.query.to_string();
    if let Some(compare) = step.compare {
        query.push_str("&compare=");
        query.push_str(&idemlab_core::scenario::codec::percent_encode(compare));
    }
    let (page, _, errors) = PageState::from_query(&query);
    assert!(errors.is_empty(), "{query}: {errors:?}");
    let a = idemlab_lab::run(&page.scenario).1;
    let b = page.compare_scenario().map(|s| idemlab_lab::run(&s).1);
    (a, b)
}

#[test]
fn every_prediction_has_one_right_choice_and_the_simulator_picks_it() {
    for lesson in &LESSONS {
        for (index, step) in lesson.steps.iter().enumerate() {
            let place = format!("lesson {} step {}", lesson.id, index + 1);
            let (a, b) = runs(step);
            let predict = &step.predict;
            let answer = predict
                .answer(&a, b.as_ref())
                .unwrap_or_else(|| panic!("{place}: the simulator's value is not a choice"));
            let choices = predict.choices();
            assert!(answer < choices.len(), "{place}");
            // Distinct choices, so exactly one is right.
            let mut sorted = choices.clone();
            sorted.sort();
            sorted.dedup();
            assert_eq!(sorted.len(), choices.len(), "{place}: repeated choices");
            if let Ask::Count { side: Side::B, .. } | Ask::WhichHas { .. } = predict.ask {
                assert!(b.is_some(), "{place}: asks about B without a fix");
            }
            // The reveal points at marks of the run it names: checked like the step's pointers.
            assert!(
                step.text.contains(predict.proof.phrase),
                "{place}: the proof phrase is not in the reveal"
            );
            // The setup and the question do not state the answer of a count.
            if let Ask::Count { choices, .. } = predict.ask {
                let said = format!("{} {}", predict.setup, predict.question);
                let right = choices[answer].to_string();
                let words: Vec<&str> = said
                    .split(|c: char| !c.is_ascii_digit())
                    .filter(|w| !w.is_empty())
                    .collect();
                let gives_away = words.contains(&right.as_str())
                    && !matches!(right.as_str(), "2" | "3" | "4" | "6" | "50");
                assert!(!gives_away, "{place}: the setup says the answer {right}");
            }
        }
    }
}

#[test]
fn the_answers_are_not_all_the_same_choice() {
    // A learner who always picks the first choice must not pass.
    let mut firsts = 0;
    let mut total = 0;
    for lesson in &LESSONS {
        for step in lesson.steps {
            let (a, b) = runs(step);
            total += 1;
            if step.predict.answer(&a, b.as_ref()) == Some(0) {
                firsts += 1;
            }
        }
    }
    assert!(
        firsts * 2 < total,
        "{firsts} of {total} answers are the first choice"
    );
}

/// Words a newcomer meets that mean something particular here: each must be a glossary term,
/// so that the page defines it where a step uses it.
const JARGON: [&str; 23] = [
    "atomic",
    "lost work",
    "boundary",
    "ledger",
    "pod",
    "lease",
    "409",
    "412",
    "422",
    "consumer",
    "claim",
    "outbox",
    "inbox",
    "retention",
    "case id",
    "work id",
    "reconciliation",
    "transaction",
    "unique constraint",
    "ack",
    "partition",
    "visibility timeout",
    "durable store",
];

/// A text on the lessons' path: where it stands (step, counted across lessons, then its place
/// in the step), and whether the page underlines its terms (the set-up and the text do; the
/// title, the question and the boundary line do not).
struct Read {
    at: (usize, usize),
    text: &'static str,
    underlined: bool,
}

/// Every text a learner reads on the lessons' path, in order: lesson by lesson, step by step,
/// the title, the set-up, the question, the reveal, the boundary.
fn path() -> Vec<Read> {
    let mut out = Vec::new();
    let steps = LESSONS.iter().flat_map(|lesson| lesson.steps.iter());
    for (at, step) in steps.enumerate() {
        let boundary = step.boundary.map(|b| [b.protects, b.not]);
        let texts = [
            step.title,
            step.predict.setup,
            step.predict.question,
            step.text,
        ]
        .into_iter()
        .zip([false, true, false, true])
        .chain(boundary.into_iter().flatten().map(|text| (text, false)))
        .chain(classification(step).map(|text| (text, false)));
        for (place, (text, underlined)) in texts.enumerate() {
            let at = (at, place);
            out.push(Read {
                at,
                text,
                underlined,
            });
        }
    }
    out
}

/// The classification's operations and their one-line reasons, on the step that asks for it;
/// the folded "In depth" reasons are off the path.
fn classification(step: &Step) -> impl Iterator<Item = &'static str> {
    let asked = if step.classify { &OPERATIONS[..] } else { &[] };
    asked.iter().flat_map(|op| [op.text, op.why])
}

/// Where a learner first sees `term` defined: the first step that lists it (its definition
/// shows beside the step from the start), or its first underlined use.
fn first_met(term: &'static Term) -> Option<(usize, usize)> {
    let steps = LESSONS.iter().flat_map(|lesson| lesson.steps.iter());
    let listed = (steps.enumerate())
        .find(|(_, step)| {
            step.terms
                .iter()
                .any(|w| lookup(w).is_some_and(|t| std::ptr::eq(t, term)))
        })
        .map(|(at, _)| (at, 0));
    let used = path().into_iter().find_map(|read| {
        let found = spans(read.text, false)
            .into_iter()
            .any(|(_, _, t)| std::ptr::eq(t, term));
        (read.underlined && found).then_some(read.at)
    });
    listed.into_iter().chain(used).min()
}

/// Whether `word` stands in `text` as a whole word, by the glossary's own rule.
fn mentions(text: &str, word: &str) -> bool {
    let (text, word) = (text.to_ascii_lowercase(), word.to_ascii_lowercase());
    let found = idemlab_course::glossary::word_starts(&text, &word)
        .next()
        .is_some();
    found
}

/// A word of the trade is defined where it is used (underlined), or was before.
#[test]
fn every_word_of_the_trade_is_defined_at_or_before_its_first_use() {
    let mut wrong: Vec<String> = (JARGON.iter())
        .filter(|word| lookup(word).is_none())
        .map(|word| format!("{word:?} is not in the glossary"))
        .collect();
    for read in path() {
        for word in JARGON.iter().filter(|word| mentions(read.text, word)) {
            let Some(term) = lookup(word) else { continue };
            let here = read.underlined
                && (spans(read.text, false).iter()).any(|(_, _, t)| std::ptr::eq(*t, term));
            let before = first_met(term).is_some_and(|met| met <= read.at);
            if !(here || before) {
                wrong.push(format!(
                    "{:?} says {word:?} undefined: {}",
                    read.at, read.text
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// A definition may use another term only if a learner met that term first (or on the same
/// step): definitions never lean on words still to come.
#[test]
fn a_definition_uses_only_terms_met_before_it() {
    let mut wrong = Vec::new();
    for term in &TERMS {
        let Some(met) = first_met(term) else {
            continue;
        };
        for (_, _, used) in spans(term.definition, false) {
            let used_met = first_met(used).unwrap_or((usize::MAX, 0));
            if !std::ptr::eq(used, term) && used_met.0 > met.0 {
                wrong.push(format!(
                    "{:?} (met at {met:?}) is defined with {:?} (met at {used_met:?})",
                    term.word, used.word
                ));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
