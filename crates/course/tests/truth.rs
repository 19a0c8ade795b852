//! What the lab must never say. Every sentence a learner reads (lesson steps, quiz texts, the
//! ordering exercise's rules and verdict, the glossary, the key help, the presets, README) is
//! collected here
//! and checked against statements that a review found false, each with the reason it is false.
//! A new text that repeats one of them fails this test.
// Native tests: Unicode case mapping costs the page nothing here (clippy.toml forbids it in
// the library, where it would link 18 KB of tables into the wasm).
#![allow(clippy::disallowed_methods)]

use idemlab_core::scenario::{codec, presets::PRESETS, Step};
use idemlab_course::lessons::LESSONS;
use idemlab_course::ordering::{self, RULES};
use idemlab_course::quiz::{self, Form};

/// A false (or misleading) phrase, lower-cased, and why it is false.
const FALSE: [(&str, &str); 21] = [
    (
        "and charge in one transaction",
        "a payment call cannot be inside a database transaction; only the ledger row can",
    ),
    (
        "in one transaction with the charge",
        "a payment call cannot be inside a database transaction; only the ledger row can",
    ),
    (
        "claim with the effect",
        "the claim commits with the ledger row, not with the remote charge",
    ),
    (
        "same transaction as the receipt",
        "a mailed receipt cannot be part of a transaction",
    ),
    (
        "catches every path",
        "expiry, a lost pod store and a crash after the charge still duplicate",
    ),
    (
        "\"in progress\" for good",
        "a claim stuck for ever is this model's missing lease, not a law",
    ),
    (
        "each lost answer costs one more charge",
        "a lost answer on the last attempt sends no retry",
    ),
    (
        "however often it runs",
        "a delayed repeat of a set can overwrite a later value",
    ),
    (
        "not modelled, would still mail twice",
        "the model crashes the consumer between the mail and the commit (consumer_crash=after-mail)",
    ),
    (
        "record the charge in one transaction",
        "the charge is made at the payment service, outside the transaction; only the ledger row is in it",
    ),
    (
        "this proves",
        "a few thousand seeded runs are evidence, not a proof",
    ),
    (
        "from here on each order carries",
        "orders carry a key from the first step",
    ),
    (
        "provider hops are not lossy",
        "loss_provider loses messages between the API and the payment service",
    ),
    (
        "key's 400 is not modelled",
        "key=none under dedup answers 400 (key=none&contract=ietf-draft)",
    ),
    (
        "five safe orders",
        "the check always offers the textbook order as its safe choice",
    ),
    (
        "one of the wrong ones",
        "a key minted once before the first try and stored with the work is right too",
    ),
    (
        "after it was first seen",
        "the API's store counts retention from when it stored the key's row",
    ),
    (
        "a crash before commit",
        "the duplicate needs a crash between the charge and the commit",
    ),
    (
        "keys a day",
        "Stripe documents at least 24 hours; say 24 hours",
    ),
    (
        "(a day)",
        "Stripe documents at least 24 hours; say 24 hours",
    ),
    (
        "makes the consumer's effect happen once",
        "a crash between the mail and the inbox commit mails twice (Lesson A step 11)",
    ),
];

/// Every text a learner can read, with where it comes from.
fn texts() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for lesson in &LESSONS {
        for (i, step) in lesson.steps.iter().enumerate() {
            let place = format!("lesson {} step {}", lesson.id, i + 1);
            out.push((place.clone(), step.title.to_string()));
            out.push((place, step.text.to_string()));
        }
        for quiz_seed in 0..60 {
            for (i, q) in quiz::generate(lesson, quiz_seed)
                .questions
                .iter()
                .enumerate()
            {
                let place = format!("quiz {} seed {quiz_seed} question {}", lesson.id, i + 1);
                out.push((place.clone(), q.prompt.clone()));
                out.push((place.clone(), q.explanation.clone()));
                if let Form::Choices(choices) = &q.form {
                    for choice in choices {
                        out.push((place.clone(), choice.label.clone()));
                    }
                }
            }
        }
    }
    for rule in &RULES {
        out.push(("ordering rule".into(), rule.cause.to_string()));
    }
    for step in Step::ALL {
        out.push(("ordering step".into(), ordering::describe(step).to_string()));
    }
    out.push((
        "ordering verdict".into(),
        ordering::safe_text(Step::CORRECT, 1800),
    ));
    let claim_first =
        idemlab_core::scenario::decode("order=claim,begin,lookup,effect,commit,respond")
            .expect("a valid order")
            .scenario
            .order;
    out.push((
        "ordering verdict, claim first".into(),
        ordering::safe_text(claim_first, 1800),
    ));
    for term in &idemlab_course::glossary::TERMS {
        out.push((
            format!("glossary {}", term.word),
            term.definition.to_string(),
        ));
    }
    for key in codec::keys() {
        out.push((format!("help for {}", key.name), key.help.to_string()));
    }
    for preset in &PRESETS {
        out.push((
            format!("preset {}", preset.name),
            preset.summary.to_string(),
        ));
    }
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md is readable");
    out.push((
        "README.md".into(),
        readme.split_whitespace().collect::<Vec<_>>().join(" "),
    ));
    out
}

#[test]
fn no_text_repeats_a_statement_found_false() {
    let texts = texts();
    assert!(texts.len() > 200, "only {} texts collected", texts.len());
    let mut found = Vec::new();
    for (place, text) in &texts {
        let lower = text.to_lowercase();
        for (phrase, why) in FALSE {
            if lower.contains(phrase) {
                found.push(format!("{place}: \"{phrase}\" ({why})"));
            }
        }
    }
    assert!(found.is_empty(), "false statements:\n{}", found.join("\n"));
}

#[test]
fn a_safe_verdict_names_the_boundary_it_proved_and_the_one_it_did_not() {
    let text = ordering::safe_text(Step::CORRECT, 1800);
    assert!(text.contains("ledger's boundary"), "{text}");
    assert!(
        text.contains("crash between the charge and the commit"),
        "{text}"
    );
}

#[test]
fn the_unprobed_gap_really_duplicates_under_the_textbook_order() {
    // The verdict's caveat is a claim too: a crash right after the charge, under the textbook
    // order and a plain provider, charges twice on some seed.
    let mut scenario = ordering::probe_scenario(&ordering::PROBES[0], Step::ALL, 0);
    codec::set_key(&mut scenario, "crash", "api@after-effect").expect("a valid crash");
    let duplicated = (0..50).any(|seed| {
        scenario.seed = seed;
        idemlab_lab::run(&scenario).1.duplicates > 0
    });
    assert!(
        duplicated,
        "no seed of 0..50 duplicated after a crash after the charge"
    );
}

/// Queries that end orders every way the model can: lost answers, a race, crashes, a phased
/// claim with no lease, failures and declines, a changed body, no key, expired keys, the
/// ledger's restart and lost messages to the payment service.
const OUTCOME_QUERIES: [&str; 10] = [
    "orders=3&loss_resp=0.5&retries=1",
    "preset=race&dedup=atomic&concurrent=conflict&retries=1",
    "orders=3&dedup=atomic&handler=phased&provider=keyed&retries=3&crash=api@after-effect",
    "orders=4&dedup=atomic&provider_fail=0.5&decline=0.2&retries=1",
    "orders=2&dedup=atomic&body_change=1&loss_resp=0.5",
    "orders=2&dedup=atomic&key=none",
    "preset=key-expiry&expired=reject",
    "orders=2&restart_db_ms=30&retries=0",
    "orders=3&dedup=atomic&loss_provider=0.4&retries=1",
    "orders=3&loss_req=0.6&retries=0",
];

#[test]
fn readme_outcome_line_names_every_status_an_order_ends_on() {
    // README, the model in brief: "An order ends ok (200, or after a 412 its lookup finds the
    // effect), failed (400, 402 or 422, never retried) or unknown (its retries ran out)" after
    // a timeout or one of the answers a client retries, 409, 412, 500, 503, 504.
    use idemlab_core::trace::{EventKind, Outcome};
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md is readable");
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    for line in [
        "An order ends **ok** (200, or after a 412 its lookup finds the effect), **failed** (400, 402 or 422, never retried)",
        "After a timeout, or an answer it retries (409, 412, 500, 503, 504)",
    ] {
        assert!(readme.contains(line), "README no longer says: {line}");
    }
    let mut seen = std::collections::BTreeSet::new();
    for query in OUTCOME_QUERIES {
        for seed in 0..40 {
            let q = format!("{query}&seed={seed}");
            let scenario = idemlab_core::scenario::decode(&q)
                .expect("a valid query")
                .scenario;
            let (trace, _) = idemlab_lab::run(&scenario);
            for event in trace.events.iter() {
                let EventKind::OrderDone { outcome, status } = event.kind else {
                    continue;
                };
                let said = match outcome {
                    Outcome::Ok => matches!(status, Some(200) | None),
                    Outcome::Failed => matches!(status, Some(400 | 402 | 422)),
                    Outcome::Unknown => {
                        matches!(status, None | Some(409 | 412 | 500 | 503 | 504))
                    }
                };
                assert!(said, "{q}: an order ends {outcome:?} on {status:?}");
                seen.insert((outcome as u8, status));
            }
        }
    }
    // The queries reach most of the line, so it is not true only because nothing ran.
    assert!(seen.len() >= 10, "{seen:?}");
}

#[test]
fn retention_counts_from_when_the_key_is_stored_not_from_when_it_was_first_seen() {
    // The glossary and the key help say a key is kept from when it is stored. Here the first
    // attempt's key arrives at 5 ms and is stored at its commit (about 74 ms), and a retry
    // looks it up at about 117 ms: kept 50 ms it is still there, kept 40 ms it has expired.
    use idemlab_core::trace::{EventKind, Found};
    let base = "orders=1&dedup=atomic&provider_ms=50..60&timeout_ms=45&retries=3&backoff_ms=5\
        &latency_ms=5..5&partition=0..90";
    for (retention_ms, kept) in [(50u64, true), (40, false)] {
        let query = format!("{base}&retention_ms={retention_ms}");
        let scenario = idemlab_core::scenario::decode(&query)
            .expect("valid")
            .scenario;
        let (trace, _) = idemlab_lab::run(&scenario);
        let time_ms = |pick: &dyn Fn(&EventKind) -> bool| {
            (trace.events.iter().find(|e| pick(&e.kind))).map(|e| e.time_us as f64 / 1_000.0)
        };
        let seen = time_ms(&|k| matches!(k, EventKind::AttemptRow { .. })).expect("it arrives");
        let stored = time_ms(&|k| matches!(k, EventKind::Commit { .. })).expect("it commits");
        // The first read of the key after its commit (the blocked copy reads it at the commit).
        let read = (trace.events.iter())
            .filter(|e| e.time_us as f64 / 1_000.0 > stored + 1.0)
            .find(|e| matches!(e.kind, EventKind::Lookup { .. } | EventKind::KeyExpired))
            .expect("a retry looks its key up");
        let at = read.time_us as f64 / 1_000.0;
        let retention = retention_ms as f64;
        assert!(
            at - seen >= retention,
            "{query}: the retry is {} ms after first seen",
            at - seen
        );
        assert_eq!(
            at - stored < retention,
            kept,
            "{query}: {} ms after stored",
            at - stored
        );
        let found_kept = read.kind
            == EventKind::Lookup {
                found: Found::Completed,
            };
        assert_eq!(found_kept, kept, "{query}: {:?} at {at} ms", read.kind);
    }
}

#[test]
fn every_place_that_defines_a_durable_store_says_what_it_does_not_give() {
    // The source: this setup solves no high availability, disaster recovery or permanent
    // retention. The model has no fault that loses store=durable, so the words must say that
    // this is all "durable" means.
    let term = idemlab_course::glossary::TERMS
        .iter()
        .find(|t| t.word == "durable store")
        .expect("the glossary defines it");
    let store = codec::keys()
        .iter()
        .find(|k| k.name == "store")
        .expect("the store key");
    let readme = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md"))
        .expect("README.md is readable");
    let readme = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let model = readme
        .split("## The model, in brief")
        .nth(1)
        .and_then(|rest| rest.split("### What the counts mean").next())
        .expect("README has the model section");
    for (place, text) in [
        ("glossary", term.definition),
        ("store help", store.help),
        ("README's model", model),
    ] {
        for words in ["high availability", "disaster recovery"] {
            assert!(
                text.contains(words),
                "{place} does not say \"no {words}\": {text}"
            );
        }
    }
}
