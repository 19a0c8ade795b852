//! The lab's words, each with a short definition in a learner's terms. The page underlines the
//! first use of a term in a lesson step and opens its definition on click; a step that
//! introduces a term lists it (`lessons::Step::terms`) and shows the definition beside its
//! text. `tests/glossary.rs` checks that every term a step lists exists and that every
//! definition stays short. Pure data.

/// One defined term.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Term {
    /// The term as the lessons write it: lower case but for a name's own capitals ("emptyDir").
    pub word: &'static str,
    /// Other spellings that name the same term in running text, lower case.
    pub aliases: &'static [&'static str],
    pub definition: &'static str,
}

/// The longest definition, in bytes: a definition is a tooltip, not a paragraph.
pub const DEFINITION_BYTES_MAX: usize = 320;

const fn term(
    word: &'static str,
    aliases: &'static [&'static str],
    definition: &'static str,
) -> Term {
    Term {
        word,
        aliases,
        definition,
    }
}

pub static TERMS: [Term; 36] = [
    term(
        "idempotent",
        &["idempotency"],
        "An operation is idempotent when doing it twice leaves the same state as doing it once. Setting a field to 5 is; adding $5 is not.",
    ),
    term(
        "idempotency key",
        &["idempotency keys", "key"],
        "A name the client gives one operation before its first try and sends again, unchanged, on every retry, for example in an Idempotency-Key request header. The server remembers the keys it has handled, so a repeat gets the first answer back instead of acting again.",
    ),
    term(
        "at-least-once delivery",
        &["at least once"],
        "A sender that retries until it hears back delivers every message at least once, and sometimes more than once: when only the answer was lost, the retry is a copy of something that already happened.",
    ),
    term(
        "exactly-once effect",
        &["exactly-once effects", "exactly once"],
        "No network can promise to deliver a message exactly once. What a system can promise is that the effect happens once: copies still arrive, and the server makes each repeat change nothing. The later steps show what that takes.",
    ),
    term(
        "atomic",
        &["atomically"],
        "Done as one step that nothing can come between. Here: looking for a key and recording it are one database write, so two copies cannot both find the key absent.",
    ),
    term(
        "ledger",
        &["ledger row", "ledger rows"],
        "The API's own record of the charges it made: one row per charge, in its database. A second row for one order books that order twice.",
    ),
    term(
        "pod",
        &["pods"],
        "The unit Kubernetes runs a program in: its containers, with their own memory and local disk. A pod that fails is replaced by a new one, which starts without what the old one kept.",
    ),
    term(
        "lost order",
        &["lost orders", "lost work"],
        "An order whose client was told it succeeded but that has no effect of its own: for example, it got another order's stored answer back, so it was never charged.",
    ),
    term(
        "consumer",
        &["consumers"],
        "A program that takes messages off a queue and acts on each one; here it mails a receipt for each charge.",
    ),
    term(
        "race window",
        &["the race", "race"],
        "The time between reading that a key is absent and recording it. A second copy that reads inside that window also finds nothing and acts too.",
    ),
    term(
        "unique constraint",
        &["unique index"],
        "A database rule that a column holds each value at most once. A second insert of the same key waits for the first transaction, then fails if that one committed, so only one copy can claim a key.",
    ),
    term(
        "transaction",
        &["transactions"],
        "A group of database writes that commit together or not at all. Only writes to that database can be inside it: a call to a payment service or a mail server cannot.",
    ),
    term(
        "durable store",
        &["durable"],
        "Storage that outlives the process that wrote it, such as a database on a persistent volume. Keys kept in a process's memory, or on its machine's own disk, are lost with it. On its own it gives no high availability, no disaster recovery and no keys kept for ever.",
    ),
    term(
        "retention",
        &["retention_ms"],
        "How long the server keeps a key after storing it. A retry that arrives after the key expired looks like new work, so retention must outlast the client's whole retry window.",
    ),
    term(
        "outbox",
        &["outbox row"],
        "A table written in the same transaction as the business change. A relay publishes its rows to a queue after the commit, so every committed change sends its event and a rolled-back one sends none (possibly more than once, which is why consumers deduplicate).",
    ),
    term(
        "ack",
        &["acks", "acknowledgement"],
        "A consumer's message to the queue that it has handled a delivery. Until the queue hears it, it assumes the delivery failed and, after the visibility timeout, delivers the message again.",
    ),
    term(
        "inbox",
        &["inbox table"],
        "A consumer's table of the event ids it has handled: it inserts the id, acts only if the id is new, then commits. A redelivered event finds the committed id and is only acknowledged. It stops redeliveries from acting twice, not a crash between the action and the commit.",
    ),
    term(
        "business key",
        &["business keys", "case id", "work id", "case_id", "work_id"],
        "A key made from the work itself (here a case_id and a work_id) rather than from who sends it, so a rerun by a new process produces the same key.",
    ),
    term(
        "boundary",
        &["boundaries"],
        "The part of the system a fix covers: the stores whose writes it makes happen once. A fix in the API's database covers that database only; the payment service and the mail server lie outside it and need protection of their own.",
    ),
    term(
        "one-way partition",
        &["partition"],
        "A network fault that cuts traffic in one direction only. Here the API's answers to the client are dropped while its requests still arrive, so the server acts and the client never hears back.",
    ),
    term(
        "422",
        &[],
        "The HTTP status Unprocessable Content. The IETF draft for the Idempotency-Key header advises it when a key comes again with a different request body: the key was used for another request. It says nothing about whether that first request took effect.",
    ),
    term(
        "pod UID",
        &["uid"],
        "The unique id Kubernetes gives each pod. A replacement pod or a rerun is a new pod with a new UID, so a key made from it names the pod, not the work.",
    ),
    term(
        "boot id",
        &[],
        "An id a process or machine draws each time it starts. Compared with the one recorded beside the data, a new boot id (or pod UID) shows that the store may have started over and lost what it kept locally.",
    ),
    term(
        "emptyDir",
        &[],
        "A Kubernetes volume on the pod's node: it survives a container's restart and is deleted when the pod leaves the node, so a pod that is replaced starts with it empty.",
    ),
    term(
        "CronJob",
        &["cronjobs"],
        "A Kubernetes object that creates a Job on a schedule; the Job runs the work in a pod and replaces a failed pod with a new one (a new UID). A schedule runs about once: it can make two Jobs, or none.",
    ),
    term(
        "concurrencyPolicy: Forbid",
        &[],
        "A CronJob setting: skip a scheduled run while a Job this CronJob created is still active. A Job started by hand, a failed pod's replacement or a later rerun still run, so it does not deduplicate.",
    ),
    term(
        "visibility timeout",
        &["visibility_ms"],
        "How long a queue waits for an ack before it makes a delivered message visible again and redelivers it; the lab's key for it is visibility_ms.",
    ),
    term(
        "409",
        &[],
        "The HTTP status Conflict. Stripe and the IETF draft answer it to a copy that arrives while the first is still in progress, instead of making it wait; the draft calls it the one error a client may retry unchanged.",
    ),
    term(
        "Retry-After",
        &[],
        "An HTTP header saying how long the client should wait before it tries again. The Agentic Commerce Protocol sends it with its 409; here the client takes it as its next delay.",
    ),
    term(
        "lease",
        &["lease_ms"],
        "How long a claim committed as in progress holds before another copy may take it over. It must outlast the work: a copy that takes over a claim whose owner is still at work does the work again.",
    ),
    term(
        "claim",
        &["claims"],
        "The row an API writes under an idempotency key before it does the work, saying the key is taken. A repeat that finds it does not start the work again while the claim holds.",
    ),
    term(
        "fencing token",
        &[],
        "A number that grows each time a claim changes hands, checked by whatever does the work, so a copy whose claim was taken over can no longer act. This lab's claims carry none.",
    ),
    term(
        "recovery point",
        &[],
        "A mark on the key's row saying how far its work got (started, finished), so that a copy that takes the claim over knows where to resume.",
    ),
    term(
        "412",
        &[],
        "The HTTP status Precondition Failed. OASIS Repeatable Requests answers it when a request's Repeatability-First-Sent is older than its 5-minute window. After an expired key, the Ad Context Protocol (AdCP) asks the client to look the work up by its business key before it uses a new key; the lab's client does.",
    ),
    term(
        "result lookup",
        &[],
        "Asking the payment service whether it already charged under this key before calling it again, so a charge whose answer was lost is found and recorded, not made twice.",
    ),
    term(
        "reconciliation",
        &[],
        "A later job that compares the payment service's charges with the ledger: it records each charge the ledger lacks and refunds each extra one. It repairs harm after the fact; it does not prevent it.",
    ),
];

/// The term a word or phrase names, by its word or an alias, ignoring case.
pub fn lookup(phrase: &str) -> Option<&'static Term> {
    // ASCII only: every term is ASCII, and the Unicode case tables would add kilobytes to the page.
    let phrase = phrase.trim();
    // A step names its terms in English; the page's text names them in its language.
    TERMS.iter().find(|t| {
        let mut names = std::iter::once(t.word).chain(t.aliases.iter().copied());
        names.any(|name| {
            name.eq_ignore_ascii_case(phrase)
                || idemlab_lab::i18n::tr(name).eq_ignore_ascii_case(phrase)
        })
    })
}

/// Where terms first appear in `text`, as byte ranges in text order, at most one per term and
/// never overlapping; the longest match wins at each position ("idempotency key" over
/// "idempotency"). Matches are whole words, ignoring ASCII case. Aliases that are common words
/// ("key", "race", "durable") are matched only when `loose` is true, so running text is not
/// underlined at every "key".
pub fn spans(text: &str, loose: bool) -> Vec<(usize, usize, &'static Term)> {
    let lower = text.to_ascii_lowercase();
    let mut found: Vec<(usize, usize, &'static Term)> = Vec::new();
    for term in &TERMS {
        let names = std::iter::once(term.word).chain(term.aliases.iter().copied());
        for english in names.filter(|name| loose || !is_common(name)) {
            // The text is in the page's language, or still in English where a translation
            // leaves it: a term is looked for in both (once when they are the same).
            let translated = idemlab_lab::i18n::tr(english);
            let forms = [Some(english), (translated != english).then_some(translated)];
            for name in forms.into_iter().flatten() {
                insert_matches(&mut found, &lower, &name.to_ascii_lowercase(), term);
            }
        }
    }
    let mut kept: Vec<(usize, usize, &'static Term)> = Vec::new();
    for span in found {
        let free = kept.last().is_none_or(|last| last.1 <= span.0);
        let new_term = !kept.iter().any(|k| std::ptr::eq(k.2, span.2));
        if free && new_term {
            kept.push(span);
        }
    }
    kept
}

/// Adds each whole-word match of `name` in `lower` to `found`, kept in (start, longest first)
/// order by insertion: a text has a handful of matches, and a sort of this type would add a
/// sort routine to the page.
fn insert_matches(
    found: &mut Vec<(usize, usize, &'static Term)>,
    lower: &str,
    name: &str,
    term: &'static Term,
) {
    let starts: Vec<usize> = word_starts(lower, name).collect();
    for start in starts {
        let key = (start, usize::MAX - (start + name.len()));
        let at = found.partition_point(|&(s, e, _)| (s, usize::MAX - e) <= key);
        found.insert(at, (start, start + name.len(), term));
    }
}

/// Aliases that are everyday words: underlined only on request.
fn is_common(name: &str) -> bool {
    matches!(name, "key" | "race" | "the race" | "durable" | "acks")
}

/// The byte offsets where `word` stands in `text` as a whole word: no letter, digit, `_` or
/// `-` right before or after it. Letters are any script's (a translation's ü, é or Cyrillic
/// are letters, so "ack" is not found inside "Rückgabe"); punctuation such as "—" or "“" is
/// not a letter.
pub fn word_starts<'t>(text: &'t str, word: &'t str) -> impl Iterator<Item = usize> + 't {
    let is_word = |c: char| c.is_alphabetic() || c.is_ascii_digit() || c == '_' || c == '-';
    text.match_indices(word).map(|(i, _)| i).filter(move |&i| {
        let before = text[..i].chars().next_back().is_none_or(|c| !is_word(c));
        let after = text[i + word.len()..]
            .chars()
            .next()
            .is_none_or(|c| !is_word(c));
        before && after
    })
}
