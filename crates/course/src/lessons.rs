//! Guided lessons: each step sets a scenario (and, where it teaches a fix, configuration B),
//! says in two or three sentences what to look for, and states the counts the learner will
//! see. `tests/lessons.rs` runs every step and checks those counts, so the text and the model
//! cannot drift apart. Pure data; the page's Lessons tab shows it.

use idemlab_core::trace::DropCause;
use idemlab_lab::view::Find;

use idemlab_lab::Metric as M;
pub use idemlab_lab::Side;

/// A count the step's text promises, checked against the simulator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Claim {
    pub side: Side,
    pub metric: M,
    pub value: u32,
}

/// A phrase of a step's text that names marks on the timeline: the page makes it a button
/// that outlines them. `tests/lessons.rs` checks the phrase is in the text and names at least
/// one mark of its run.
#[derive(Clone, Copy, Debug)]
pub struct Pointer {
    pub phrase: &'static str,
    pub side: Side,
    pub find: Find,
}

const fn pa(phrase: &'static str, find: Find) -> Pointer {
    Pointer {
        phrase,
        side: Side::A,
        find,
    }
}

const fn pb(phrase: &'static str, find: Find) -> Pointer {
    Pointer {
        phrase,
        side: Side::B,
        find,
    }
}

pub struct Step {
    pub title: &'static str,
    /// What run A is, in plain words: its title while the step's own runs show ("A: keys in
    /// API memory"), where a link's keys would read as code.
    pub run_a: &'static str,
    /// What run B is, when the step compares (`compare`).
    pub run_b: Option<&'static str>,
    /// The scenario, in the codec's form.
    pub query: &'static str,
    /// Keys for configuration B, when the step compares a mistake with its fix.
    pub compare: Option<&'static str>,
    pub text: &'static str,
    pub claims: &'static [Claim],
    /// Phrases of `text` that point at marks, in the order they appear.
    pub pointers: &'static [Pointer],
    /// Whether the step shows the key-storage calculator.
    pub calculator: bool,
    /// Whether opening the step opens the key-store panel: the key table is its point.
    pub keystore: bool,
    /// Whether the step holds the classification exercise (`crate::classify`).
    pub classify: bool,
    /// The question the learner answers before the run plays; `text` is the reveal.
    pub predict: Predict,
    /// Glossary terms (`crate::glossary`) the step defines beside its text.
    pub terms: &'static [&'static str],
    /// What B's fix protects and what it leaves exposed, where B applies a fix.
    pub boundary: Option<Boundary>,
}

/// The stores a fix makes write once, and those it does not reach: "Protects: the ledger
/// database. Does not protect: the payment service, the mail server."
#[derive(Clone, Copy, Debug)]
pub struct Boundary {
    pub protects: &'static str,
    pub not: &'static str,
}

const fn guards(protects: &'static str, not: &'static str) -> Option<Boundary> {
    Some(Boundary { protects, not })
}

/// A question asked before a step's run plays, with the counters hidden until it is answered.
/// Its answer is never written down: `Predict::answer` runs the step's scenario (and its fix)
/// and reads the metric, so the question cannot disagree with the simulator.
#[derive(Clone, Copy, Debug)]
pub struct Predict {
    /// What the learner is told before the run: the situation, without its outcome.
    pub setup: &'static str,
    pub question: &'static str,
    pub ask: Ask,
    /// The marks that prove the answer, outlined when it is revealed.
    pub proof: Pointer,
}

/// What a prediction asks.
#[derive(Clone, Copy, Debug)]
pub enum Ask {
    /// How many of `metric` run `side` shows; the learner picks one of `choices`.
    Count {
        side: Side,
        metric: M,
        choices: &'static [u32],
    },
    /// Which of the two runs shows any of `metric`: A only, B only, both or neither.
    WhichHas { metric: M },
}

/// The four answers of `Ask::WhichHas`, in the order the page offers them.
pub const WHICH_CHOICES: [&str; 4] = ["only A", "only B", "both", "neither"];

impl Predict {
    /// The choices' texts, in order, in English: what a report to the course page names.
    pub fn choices(&self) -> Vec<String> {
        self.choices_in(|choice| choice)
    }

    /// The choices as the page shows them: "only A", "both"… in the page's language
    /// (`i18n::tr`); a count is a number in any.
    pub fn choices_shown(&self) -> Vec<String> {
        self.choices_in(idemlab_lab::i18n::tr)
    }

    fn choices_in(&self, words: fn(&'static str) -> &'static str) -> Vec<String> {
        match self.ask {
            Ask::Count { choices, .. } => choices.iter().map(u32::to_string).collect(),
            Ask::WhichHas { .. } => WHICH_CHOICES.iter().map(|c| words(c).to_string()).collect(),
        }
    }

    /// The index of the right choice, from the runs' metrics (`b` is the fix's, when the step
    /// has one), or `None` when the simulator's value is not among the choices: a defect that
    /// `tests/lessons.rs` catches for every step.
    pub fn answer(
        &self,
        a: &idemlab_lab::Metrics,
        b: Option<&idemlab_lab::Metrics>,
    ) -> Option<usize> {
        match self.ask {
            Ask::Count {
                side,
                metric: name,
                choices,
            } => {
                let runs = match side {
                    Side::A => a,
                    Side::B => b?,
                };
                let value = name.of(runs);
                choices.iter().position(|&c| c == value)
            }
            Ask::WhichHas { metric: name } => {
                let in_a = name.of(a) > 0;
                let in_b = name.of(b?) > 0;
                Some(match (in_a, in_b) {
                    (true, false) => 0,
                    (false, true) => 1,
                    (true, true) => 2,
                    (false, false) => 3,
                })
            }
        }
    }
}

pub struct Lesson {
    /// The `lesson=` value in a permalink.
    pub id: &'static str,
    pub title: &'static str,
    /// How long its shortest path and its check take a newcomer, in minutes: every word the
    /// page shows on the way, as `tests/e2e/pace.test.mjs` reads it in a browser. `pace`
    /// counts the lesson's own words alone, a lower bound (`tests/pace.rs`).
    pub minutes: u32,
    pub steps: &'static [Step],
}

const fn a(metric: M, value: u32) -> Claim {
    Claim {
        side: Side::A,
        metric,
        value,
    }
}

const fn b(metric: M, value: u32) -> Claim {
    Claim {
        side: Side::B,
        metric,
        value,
    }
}

// A static, not a const: a const would be copied into the binary at every place that uses it.
pub static LESSONS: [Lesson; 3] = [
    Lesson {
        id: "a",
        title: "The lost acknowledgement",
        minutes: 25,
        steps: &[
            Step {
                title: "A timeout cannot tell you what happened",
                run_a: "one answer lost, the key ignored",
                run_b: None,
                query: "seed=7&orders=1&partition=0..150",
                compare: None,
                text: "The one-way partition drops the first answer (✕ on the arrow to the client). A lost answer looks like a lost request, so after its timeout the client sends the order again and the payment service charges again: 2 charges, 1 duplicate. This is at-least-once delivery. The next steps use the idempotency key to make a repeat idempotent, for an exactly-once effect. Each fix covers a boundary: the stores it protects.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "One order. The client sends it to the API, which asks the payment service to charge and then answers. The client waits 200 ms for that answer; with none, it sends the order again after a short random wait. A one-way partition drops the API's answers (not its requests) for the first 150 ms. Each request carries an idempotency key, and this server ignores it.",
                    question: "How many charges will the payment service make for this one order?",
                    ask: Ask::Count { side: Side::A, metric: M::Effects, choices: &[1, 2, 3] },
                    proof: pa("the payment service charges again", Find::Duplicate),
                },
                terms: &["idempotent", "idempotency key", "at-least-once delivery", "exactly-once effect", "one-way partition", "boundary"],
                boundary: None,
                pointers: &[pa("✕ on the arrow to the client", Find::Drop(DropCause::Partition)), pa("its timeout", Find::Timeout), pa("the payment service charges again", Find::Duplicate)],
                claims: &[a(M::Orders, 1), a(M::Effects, 2), a(M::Duplicates, 1)],
            },
            Step {
                title: "Some operations are safe to repeat",
                run_a: "sets a field",
                run_b: Some("adds a charge"),
                query: "seed=7&preset=lost-ack&op=set",
                compare: Some("op=charge"),
                text: "Setting a field to a value (A) leaves the same state however often the same write repeats: 7 writes, 0 duplicates (true while nothing else writes that field; a late repeat could undo a newer value). Adding a charge (B) moves money on every repeat: 3 duplicates. Then sort three more operations under the step buttons.",
                calculator: false,
                keystore: false,
                classify: true,
                predict: Predict {
                    setup: "Answers are lost over 4 orders, by a partition and now and then by chance (✕ marked loss). Run A sends a write that sets a field to a value; run B sends one that adds a charge. Neither run deduplicates.",
                    question: "Which run ends with duplicate effects?",
                    ask: Ask::WhichHas { metric: M::Duplicates },
                    proof: pb("moves money on every repeat", Find::Duplicate),
                },
                terms: &["idempotent"],
                boundary: None,
                pointers: &[pa("7 writes", Find::Effect), pb("moves money on every repeat", Find::Duplicate)],
                claims: &[a(M::Effects, 7), a(M::Duplicates, 0), b(M::Duplicates, 3)],
            },
            Step {
                title: "A key lets the server answer a repeat",
                run_a: "the key ignored",
                run_b: Some("look the key up, then record it"),
                query: "seed=7&orders=1&partition=0..150",
                compare: Some("dedup=naive"),
                text: "B runs the handler's steps: look the key up; if it is new, charge, record the key with the answer, and respond; if it is found, send the stored answer back. So the retry gets \"200 (replayed)\": 1 charge, 0 duplicates. A still charges twice.",
                calculator: false,
                keystore: true,
                classify: false,
                predict: Predict {
                    setup: "The same lost answer. A ignores the key, as in step 1; in B the API remembers each key it has handled: it looks the key up before it charges, and records the key with its answer after.",
                    question: "Which run charges the order twice?",
                    ask: Ask::WhichHas { metric: M::Duplicates },
                    proof: pa("A still charges twice", Find::Duplicate),
                },
                terms: &["idempotency key", "ledger"],
                boundary: guards(
                    "the ledger database, while each retry comes after the key is recorded",
                    "two copies that both look before either records (step 4); the payment service, which ignores keys",
                ),
                pointers: &[pb("\"200 (replayed)\"", Find::Replay), pa("A still charges twice", Find::Duplicate)],
                claims: &[a(M::Duplicates, 1), b(M::Effects, 1), b(M::Duplicates, 0)],
            },
            Step {
                title: "The race: check, then insert, and the atomic claim",
                run_a: "look up, then record",
                run_b: Some("claim the key atomically"),
                query: "seed=3&preset=race",
                compare: Some("dedup=atomic"),
                text: "In A order 1's retry looks (64 ms) before its first attempt records the key (84 ms): both read \"not found\" (the shaded region) and both charge: 1 race, 1 duplicate. In B the retry's insert waits on the key, fails once the first commits (the pink bar: its transaction rolled back) and gets the stored answer back: 3 charges for 3 orders, 0 duplicates.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "3 orders. The client gives up after 45 ms, so each order is retried while its first attempt is still at work. A looks the key up before it charges and records it after. B claims the key atomically: after its lookup it inserts the key under a unique constraint, in the same transaction as the ledger row.",
                    question: "Which run charges an order twice?",
                    ask: Ask::WhichHas { metric: M::Duplicates },
                    proof: pa("both charge", Find::Duplicate),
                },
                terms: &["race window", "claim", "atomic", "ledger", "unique constraint", "transaction"],
                boundary: guards(
                    "the ledger database, even when two copies race",
                    "the payment service, if the API crashes between the charge and the commit",
                ),
                pointers: &[pa("both read \"not found\" (the shaded region)", Find::Race), pa("both charge", Find::Duplicate), pb("the retry's insert waits on the key", Find::Blocked), pb("gets the stored answer back", Find::Replay)],
                claims: &[a(M::Races, 1), a(M::Duplicates, 1), b(M::Duplicates, 0), b(M::Effects, 3)],
            },
            Step {
                title: "Where and how long to keep keys",
                run_a: "keys in API memory, kept 150 ms",
                run_b: Some("keys in the database, kept 24 hours"),
                query: "seed=1&orders=1&dedup=atomic&store=memory&crash=api@after-commit&restart_ms=60&partition=0..700&retention_ms=150&retries=4&backoff_ms=60",
                compare: Some("store=durable&retention_ms=86400000"),
                text: "In A the restart empties the API's memory: the ledger row stays, the key is gone, and the first retry charges again. Its answer is lost too, and the next retry finds the key over 150 ms old, expired: 3 charges, 2 duplicates. B keeps keys in the database for 24 hours (Stripe keeps its keys at least that long): every retry gets the first answer back, 1 charge, 0 duplicates. Size the store as keys a second × retention × bytes a key: 100 a second for 24 hours at 1 KB (mostly the stored answer) is about 8.6 GB.",
                calculator: false,
                keystore: true,
                classify: false,
                predict: Predict {
                    setup: "One order. A claims keys in the API's memory and keeps them 150 ms; B claims them in the database, in the ledger row's transaction, and keeps them 24 hours. The API crashes after its first commit, before it answers, and restarts. Answers are lost for the first 700 ms; the client retries at about 290 and 645 ms.",
                    question: "How many times is the order charged in run A?",
                    ask: Ask::Count { side: Side::A, metric: M::Effects, choices: &[1, 2, 3] },
                    proof: pa("the first retry charges again", Find::Duplicate),
                },
                terms: &["durable store", "retention"],
                boundary: guards(
                    "the ledger database, across an API restart and for retries within 24 hours",
                    "a retry after the keys expire, the payment service",
                ),
                pointers: &[pa("the restart empties the API's memory", Find::Crash), pa("the first retry charges again", Find::Duplicate), pa("the key over 150 ms old, expired", Find::KeyExpired), pb("every retry gets the first answer back", Find::Replay)],
                claims: &[a(M::Effects, 3), a(M::Duplicates, 2), b(M::Effects, 1), b(M::Duplicates, 0)],
            },
            Step {
                title: "A queue delivers again; an inbox absorbs it",
                run_a: "plain consumer",
                run_b: Some("consumer with an inbox"),
                query: "seed=3&orders=4&dedup=atomic&consumer=plain&ack_loss=0.25",
                compare: Some("consumer=inbox"),
                text: "A lost ack (✕ on the arrows back to the queue) looks like a failed delivery, so the queue delivers again: 3 redeliveries. A mails on every one: 7 receipts for 4 charges, 3 duplicates. In B the 3 redeliveries find the committed id and are only acked: 4 receipts, 0 duplicates.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "Each of 4 charges goes to a queue as an event. A consumer mails a receipt for each event, then acks it; each ack is lost with chance 0.25, and the queue delivers again an event whose ack does not come back within its visibility timeout. Consumer A mails on every delivery; B records the event's id in an inbox table and mails only for a new id.",
                    question: "Which consumer mails a receipt twice for one event?",
                    ask: Ask::WhichHas { metric: M::Duplicates },
                    proof: pa("mails on every one", Find::Duplicate),
                },
                terms: &["consumer", "ack", "visibility timeout", "inbox"],
                boundary: guards(
                    "the mail server, against a redelivered event",
                    "a mail sent just before a crash, before its inbox row commits (Lesson C)",
                ),
                pointers: &[pa("✕ on the arrows back to the queue", Find::Drop(DropCause::Loss)), pa("mails on every one", Find::Duplicate), pb("the 3 redeliveries find the committed id and are only acked", Find::InboxHit)],
                claims: &[a(M::Redeliveries, 3), a(M::Receipts, 7), a(M::Duplicates, 3), b(M::Receipts, 4), b(M::Duplicates, 0)],
            },
            Step {
                title: ORDERING_STEP_TITLE,
                run_a: "charge before claiming the key",
                run_b: None,
                query: "seed=3&preset=race&dedup=atomic&order=begin,lookup,effect,claim,commit,respond",
                compare: None,
                text: "This server charges before it claims the key, so both copies in the race charge: 1 duplicate. Then the loser's rollback (the pink bar) drops its ledger row: 1 charge the ledger never recorded.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "The race from step 4 again, with a unique claim in a transaction. This server runs its steps in this order: begin, look up the key, charge, claim the key, commit, respond.",
                    question: "How many duplicate charges will the 3 orders make?",
                    ask: Ask::Count { side: Side::A, metric: M::Duplicates, choices: &[0, 1, 2, 3] },
                    proof: pa("both copies in the race charge", Find::Duplicate),
                },
                terms: &[],
                boundary: None,
                pointers: &[
                    pa("both copies in the race charge", Find::Duplicate),
                    pa("the loser's rollback", Find::Rollback),
                ],
                claims: &[a(M::Duplicates, 1), a(M::Unrecorded, 1)],
            },
        ],
    },
    Lesson {
        id: "b",
        title: "Duplicates outside the pod",
        minutes: 25,
        steps: &[
            Step {
                title: "The run is not the work",
                run_a: "operator rerun, business keys",
                run_b: None,
                query: "seed=1&preset=pod-rerun&key=business",
                compare: None,
                text: "An operator reruns the job at 400 ms: a new pod with a new UID sends the same three orders (same case_id and work_id). The key is made from the work, so every repeat gets the first charge back: 6 requests, 6 attempt rows, 3 charges, 0 duplicates.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "A job sends 3 orders. At 400 ms an operator reruns it: a new pod sends the same 3 orders. Each key is made from the work (case_id and work_id), not from the pod.",
                    question: "How many charges will the 6 requests make?",
                    ask: Ask::Count { side: Side::A, metric: M::Effects, choices: &[3, 4, 6] },
                    proof: pa("every repeat gets the first charge back", Find::Replay),
                },
                terms: &["business key", "pod UID"],
                boundary: None,
                pointers: &[pa("An operator reruns the job at 400 ms", Find::Rerun), pa("every repeat gets the first charge back", Find::Replay)],
                claims: &[a(M::Attempts, 6), a(M::Received, 6), a(M::Effects, 3), a(M::Duplicates, 0)],
            },
            Step {
                title: "A key made from the pod misses the rerun",
                run_a: "keys made from the pod",
                run_b: Some("keys made from the business"),
                query: "seed=1&preset=pod-rerun",
                compare: Some("key=business"),
                text: "In A each pod makes its keys from its own UID, as a UUID generated at start-up would. The rerun's keys are new, so every order is charged again: 3 duplicates. The business key (B) recognises the same work from any pod: 0.",
                calculator: false,
                keystore: true,
                classify: false,
                predict: Predict {
                    setup: "The same rerun. In A each pod makes its keys from its own UID; in B the key is made from the work.",
                    question: "Which run charges the rerun's orders again?",
                    ask: Ask::WhichHas { metric: M::Duplicates },
                    proof: pa("every order is charged again", Find::Duplicate),
                },
                terms: &[],
                boundary: guards(
                    "the ledger database, across an operator's rerun",
                    "the payment service",
                ),
                pointers: &[pa("every order is charged again", Find::Duplicate)],
                claims: &[a(M::Duplicates, 3), b(M::Duplicates, 0)],
            },
            Step {
                title: "Two tables: attempts and charges",
                run_a: "operator rerun, business keys",
                run_b: None,
                query: "seed=1&preset=pod-rerun&key=business",
                compare: None,
                text: "Open the Tables tab and move the cursor. Every request gets a row in the attempts table, repeats included, so nothing observed is lost; the charges stay one per order. 6 attempt rows, 3 charges.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "The rerun with business keys again. The ledger keeps two tables: one row per request received (attempts) and one per charge.",
                    question: "How many rows will the attempts table hold at the end?",
                    ask: Ask::Count { side: Side::A, metric: M::Received, choices: &[3, 6, 9] },
                    proof: pa("Every request gets a row in the attempts table", Find::AttemptRow),
                },
                terms: &[],
                boundary: None,
                pointers: &[pa("Every request gets a row in the attempts table", Find::AttemptRow)],
                claims: &[a(M::Received, 6), a(M::Effects, 3)],
            },
            Step {
                title: "A key that is too coarse loses work",
                run_a: "one key for every order",
                run_b: None,
                query: "seed=1&orders=4&dedup=atomic&key=constant",
                compare: None,
                text: "One key for everything looks safe: 0 duplicates. But orders 2 to 4 get order 1's answer back and are never charged (their bodies match, so the API takes each for a repeat of order 1 rather than refusing it with 422), while their clients see success: 3 orders of lost work. Test that different orders are each charged, not only that repeats merge.",
                calculator: false,
                keystore: true,
                classify: false,
                predict: Predict {
                    setup: "4 different orders for the same amount, so with the same body, all sent under one constant key, with an atomic claim.",
                    question: "How many of the 4 orders will be charged?",
                    ask: Ask::Count { side: Side::A, metric: M::Effects, choices: &[0, 1, 4] },
                    proof: pa("orders 2 to 4 get order 1's answer back", Find::Replay),
                },
                terms: &[],
                boundary: None,
                pointers: &[pa("orders 2 to 4 get order 1's answer back", Find::Replay)],
                claims: &[a(M::Duplicates, 0), a(M::Lost, 3), a(M::Effects, 1)],
            },
            Step {
                title: "A ledger that lives and dies with its pod",
                run_a: "ledger inside the pod",
                run_b: Some("ledger in a durable database"),
                query: "seed=1&preset=ledger-replaced",
                compare: Some("store=durable"),
                text: "The ledger's database sits on its pod's own disk (an emptyDir). When that pod is replaced (the tall bar across the database lane at 350 ms; the Events tab shows the new pod's UID and boot id), the keys go with it, and a rerun afterwards charges every order again: 3 duplicates. A durable store (B) keeps them: 0.",
                calculator: false,
                keystore: true,
                classify: false,
                predict: Predict {
                    setup: "The ledger's database keeps its keys on its own pod's disk (an emptyDir). At 350 ms that pod is replaced, and at 400 ms an operator reruns the job. B keeps the keys in a durable store.",
                    question: "Which run charges the rerun's orders again?",
                    ask: Ask::WhichHas { metric: M::Duplicates },
                    proof: pa("charges every order again", Find::Duplicate),
                },
                terms: &["emptyDir", "boot id", "durable store"],
                boundary: guards(
                    "the ledger database, across the ledger pod's replacement",
                    "the payment service",
                ),
                pointers: &[pa("When that pod is replaced", Find::LedgerReplaced), pa("charges every order again", Find::Duplicate)],
                claims: &[a(M::Duplicates, 3), b(M::Duplicates, 0)],
            },
            Step {
                title: "The payment service is outside the transaction",
                run_a: "payment service ignores the key",
                run_b: Some("payment service honours the key"),
                query: "seed=1&preset=outside-boundary",
                compare: Some("provider=keyed"),
                text: "The API crashes after the charge and before its commit. The ledger rolls back; the payment service does not. The retry charges again: 1 duplicate, and 1 charge the ledger never recorded. Forwarding the key to a payment service that honours it (B) protects that boundary too: 0.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "3 orders, one after the other. The API crashes once, on the first order, after the payment service has charged and before the ledger's transaction commits; it restarts and the client retries. In B the API forwards the key to a payment service that honours it.",
                    question: "How many duplicate charges will A make?",
                    ask: Ask::Count { side: Side::A, metric: M::Duplicates, choices: &[0, 1, 3] },
                    proof: pa("The retry charges again", Find::Duplicate),
                },
                terms: &["boundary"],
                boundary: guards(
                    "the payment service, which honours the key",
                    "the mail server",
                ),
                pointers: &[pa("The API crashes after the charge and before its commit", Find::Crash), pa("The ledger rolls back", Find::Rollback), pa("The retry charges again", Find::Duplicate)],
                claims: &[a(M::Duplicates, 1), a(M::Unrecorded, 1), b(M::Duplicates, 0)],
            },
            Step {
                title: "Forbid is not deduplication",
                run_a: "a Job beside the CronJob, pod keys",
                run_b: Some("business keys"),
                query: "seed=1&preset=pod-rerun&rerun_ms=20",
                compare: Some("key=business"),
                text: "concurrencyPolicy: Forbid only keeps a CronJob from starting a scheduled run while one of its Jobs is active. This Job, started by hand, runs beside it (the lane \"client (rerun)\": the model calls any operator's start a rerun); with pod keys both pods charge every order: 3 duplicates; a failed pod's replacement gets through too. The business key (B) makes each order's second copy wait on the unique index and get the first charge back: 0, but not past retention (Lesson A), a lost store (step 5) or a crash between the charge and the commit (step 6).",

                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "The CronJob has concurrencyPolicy: Forbid. At 20 ms, while its scheduled Job is still running, an operator starts the same job by hand: a second pod sends the same 3 orders. Each pod makes its keys from its own UID (proc-…/work-… in the key table: the part after proc- is the pod's UID).",
                    question: "How many duplicate charges will the 3 orders get?",
                    ask: Ask::Count { side: Side::A, metric: M::Duplicates, choices: &[0, 3, 6] },
                    proof: pa("both pods charge every order", Find::Duplicate),
                },
                terms: &["CronJob", "concurrencyPolicy: Forbid"],
                boundary: guards(
                    "the ledger database, across a second Job",
                    "the payment service, a retry after the keys expire",
                ),
                pointers: &[pa("This Job, started by hand", Find::Rerun), pa("both pods charge every order", Find::Duplicate), pb("wait on the unique index", Find::Blocked)],
                claims: &[a(M::Duplicates, 3), b(M::Duplicates, 0)],
            },
            Step {
                title: "A retry must repeat the same request",
                run_a: "each retry rebuilds its body",
                run_b: Some("each retry resends the same body"),
                query: "seed=7&preset=lost-ack&orders=2&dedup=atomic&body_change=1",
                compare: Some("body_change=0"),
                text: "Both orders needed a retry, and the API refuses the retry with 422, as the IETF's draft standard for the Idempotency-Key header advises for a key reused with another body: both orders end as failed (2), yet each was charged once (2 charges, 0 duplicates). A 422 says the key was used for another request, not that nothing happened. Resending the same body (B) gets the stored answer: 2 ok.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "Answers are lost, and the API claims keys atomically (Lesson A step 4). It keeps each key with its request's body and answers a repeat whose body differs with 422, which the client takes as a final failure. Here each retry rebuilds its body (a fresh timestamp, say) under the same key.",
                    question: "How many of the 2 orders will the client be told failed?",
                    ask: Ask::Count { side: Side::A, metric: M::Failed, choices: &[0, 1, 2] },
                    proof: pa("both orders end as failed", Find::Failed),
                },
                terms: &["422"],
                boundary: guards(
                    "the ledger database, whose stored answer the retry now gets",
                    "the payment service, the mail server",
                ),
                pointers: &[pa("refuses the retry with 422", Find::Refused), pa("both orders end as failed", Find::Failed), pa("each was charged once", Find::Effect), pb("gets the stored answer", Find::Replay)],
                claims: &[a(M::Failed, 2), a(M::Effects, 2), a(M::Duplicates, 0), b(M::Ok, 2)],
            },
            Step {
                title: "A key is unique within its tenant",
                run_a: "keys unique across tenants",
                run_b: Some("keys unique per tenant"),
                query: "seed=1&orders=4&tenants=2&dedup=atomic&scope=global",
                compare: Some("scope=tenant"),
                text: "In A tenant 2's orders find tenant 1's keys and get tenant 1's answers back (the bodies match, so nothing tells them apart): 2 charges for 4 orders, and 2 orders of lost work, though every client saw success. Scoped to its tenant (B), each key is its own: 4 charges, 0 lost. The Agentic Commerce Protocol likewise scopes keys to the authenticated caller (and the endpoint).",
                calculator: false,
                keystore: true,
                classify: false,
                predict: Predict {
                    setup: "4 orders from 2 tenants (accounts), in turn, with an atomic claim. Each tenant numbers its own work from 1, so tenant 2's orders carry the same business keys as tenant 1's. A keeps each key unique across all tenants; B keeps it unique within its tenant.",
                    question: "How many orders will A lose: told success, and never charged?",
                    ask: Ask::Count { side: Side::A, metric: M::Lost, choices: &[0, 1, 2, 4] },
                    proof: pa("get tenant 1's answers back", Find::Replay),
                },
                terms: &["business key"],
                boundary: guards(
                    "the ledger database, with each tenant's work kept apart",
                    "the payment service, the mail server",
                ),
                pointers: &[pa("get tenant 1's answers back", Find::Replay)],
                claims: &[a(M::Effects, 2), a(M::Lost, 2), b(M::Effects, 4), b(M::Lost, 0)],
            },
            Step {
                title: "How many duplicates to expect",
                run_a: "1 answer in 5 lost, keys ignored",
                run_b: None,
                query: "seed=1&orders=50&loss_resp=0.2&retries=3&timeout_ms=500",
                compare: None,
                text: "Here r = 0.2, the chance that an answer is lost, and the client makes up to 4 attempts (3 retries): 50 orders make 60 charges, 10 of them duplicates. Open the Sweep tab, set the seeds to 10,000 and run them: the mean effects (charges) per order settles next to 1 + r + r² + r³ ≈ 1.25. Every attempt charges, and the client sends the next one only if every answer so far was lost: a 2nd with chance r, a 3rd with r², a 4th with r³.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "50 orders. Each answer is lost with chance r = 0.2, and the client makes up to 4 attempts per order (the first and 3 retries). It waits 500 ms for an answer, far longer than one takes, so it retries only when the answer was lost.",
                    question: "How many charges will these 50 orders make? Work out the expected number: this seed's run made the choice nearest to it.",
                    ask: Ask::Count { side: Side::A, metric: M::Effects, choices: &[50, 60, 80, 100] },
                    proof: pa("60 charges", Find::Effect),
                },
                terms: &["at-least-once delivery"],
                boundary: None,
                pointers: &[pa("60 charges", Find::Effect)],
                claims: &[a(M::Orders, 50), a(M::Effects, 60), a(M::Duplicates, 10)],
            },
        ],
    },
    Lesson {
        id: "c",
        title: "In production",
        minutes: 28,
        steps: &[
            Step {
                title: "The lock held across the payment call",
                run_a: "lock held across the payment call",
                run_b: Some("a concurrent copy answered 409"),
                query: "seed=3&preset=race&dedup=atomic&provider=keyed",
                compare: Some("concurrent=conflict"),
                text: "The default handler keeps its transaction and the key's lock open across the payment call: for the first order, 10 to 86 ms (the database lane's first long bar). Its retry waits on that lock, then gets the stored answer. Stripe and the IETF draft answer such a copy 409 at once instead (B; 409s answered: 1), ending its transaction. The lab's 409 carries a Retry-After, as the Agentic Commerce Protocol's does (Stripe and the draft need none): the client waits it out (128 ms, the model's worst fault-free round trip), then retries. 0 duplicates either way.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "The race of Lesson A step 4, with the claim in the ledger row's transaction and a payment service that honours the key. The handler calls the payment service while that transaction is open. In B a copy that finds its key claimed by a copy still at work is answered 409 Conflict with a Retry-After instead of waiting.",
                    question: "How many 409 answers will B send?",
                    ask: Ask::Count { side: Side::B, metric: M::Conflicts, choices: &[0, 1, 2, 3] },
                    proof: pb("409 at once", Find::Conflict),
                },
                terms: &["claim", "409", "Retry-After"],
                boundary: guards(
                    "the ledger database, in both runs",
                    "the payment service by itself (here it honours the key)",
                ),
                pointers: &[pa("waits on that lock", Find::Blocked), pb("409 at once", Find::Conflict)],
                claims: &[a(M::Duplicates, 0), b(M::Conflicts, 1), b(M::Duplicates, 0)],
            },
            Step {
                title: "Commit the claim first, with a lease",
                run_a: "claim committed, no lease",
                run_b: Some("claim with a 300 ms lease"),
                query: "seed=1&orders=3&dedup=atomic&handler=phased&provider=keyed&retries=6&backoff_ms=30&timeout_ms=200&crash=api@after-effect",
                compare: Some("lease_ms=300"),
                text: "The phased handler commits the claim in progress (recovery point started), calls the payment service with the key, records the charge, completes the key. The API crashes after charge #1, before recording it. With no lease (A) the claim holds until the key expires: every retry gets 409 (6 409s answered), order 1 never learns if it was charged (1 unknown); 1 charge the ledger never recorded. With a 300 ms lease (B) the third try takes the claim over, resuming from started; the payment service knows the key and returns charge #1: 1 takeover, 0 duplicates.",
                calculator: false,
                keystore: true,
                classify: false,
                predict: Predict {
                    setup: "3 orders. The API commits each claim as in progress before it calls the payment service, which honours the key. It crashes once, after the first charge and before recording it, and restarts. A's claims have no lease; in B a copy may take a claim over once it has been held 300 ms.",
                    question: "In which run does a client give up on an order without learning whether it was charged?",
                    ask: Ask::WhichHas { metric: M::Unknown },
                    proof: pa("every retry gets 409", Find::Conflict),
                },
                terms: &["recovery point", "lease"],
                boundary: guards(
                    "the ledger database and the payment service (which takes the key) after a crash mid-call",
                    "a service that takes no key",
                ),
                pointers: &[pa("The API crashes after charge #1", Find::Crash), pa("every retry gets 409", Find::Conflict), pb("returns charge #1", Find::Replay)],
                claims: &[a(M::Conflicts, 6), a(M::Unknown, 1), a(M::Unrecorded, 1), b(M::Takeovers, 1), b(M::Duplicates, 0)],
            },
            Step {
                title: "A lease shorter than the work",
                run_a: "a 20 ms lease",
                run_b: Some("a 400 ms lease"),
                query: "seed=1&orders=2&dedup=atomic&handler=phased&provider_ms=150..250&timeout_ms=100&retries=4&backoff_ms=20&lease_ms=20",
                compare: Some("lease_ms=400"),
                text: "The payment service takes 150 to 250 ms here and the lease is 20 ms (A). Each order's retry finds the lease run out while the first copy still waits for its charge, takes the claim over and charges again: 2 takeovers, 2 duplicates (nothing fences the first copy off; this model has no fencing token). A 400 ms lease (B) outlasts the work, so the retries get 409 instead: 0 takeovers, 0 duplicates. A lease is not the key's retention: it bounds one attempt's work.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "2 orders under the phased handler, with a payment service that ignores keys and takes 150 to 250 ms to charge. The client gives up after 100 ms and retries. In A a copy may take a claim over once it has been held 20 ms; in B, 400 ms.",
                    question: "How many duplicate charges will A make?",
                    ask: Ask::Count { side: Side::A, metric: M::Duplicates, choices: &[0, 1, 2, 4] },
                    proof: pa("charges again", Find::Duplicate),
                },
                terms: &["fencing token"],
                boundary: guards(
                    "the payment service, from a second copy taking the claim over while the first still waits",
                    "work that outlasts the lease",
                ),
                pointers: &[pa("charges again", Find::Duplicate), pb("the retries get 409", Find::Conflict)],
                claims: &[a(M::Takeovers, 2), a(M::Duplicates, 2), b(M::Takeovers, 0), b(M::Duplicates, 0)],
            },
            Step {
                title: "What a failure leaves under the key",
                run_a: "Stripe v1's replay",
                run_b: Some("OASIS's replay"),
                query: "seed=4&orders=3&dedup=atomic&provider=keyed&provider_fail=0.4&retries=3&backoff_ms=30&replay=all",
                compare: Some("replay=final"),
                text: "The payment service fails order 3 with a 500 and charges nothing. Stripe v1 (A) saved the result once execution began, so every retry gets the same 500 back: 3 failures replayed, and the client gives up not knowing (1 unknown). OASIS (B) replays a 2xx or 4xx but runs a 5xx again: the retry charges, and all 3 orders end ok. Powertools deletes the record when the handler raises an unhandled exception, so if the 500 surfaces that way (as the lab assumes) its retry runs again too.",
                calculator: false,
                keystore: true,
                classify: false,
                predict: Predict {
                    setup: "3 orders with keys, a unique claim and a payment service that honours them. It sometimes fails with 500 and charges nothing; the client retries a 500 up to 3 times. A stores every result under the key and replays it, 500s included; B replays a 2xx or 4xx but runs a 5xx again.",
                    question: "How many orders will A leave without a successful answer?",
                    ask: Ask::Count { side: Side::A, metric: M::Unknown, choices: &[0, 1, 2, 3] },
                    proof: pa("the same 500 back", Find::Replay),
                },
                terms: &[],
                boundary: guards(
                    "the stored answers: only a 2xx or 4xx is kept, so a 500 is tried again",
                    "a payment service that charges and still answers 500 (not modelled)",
                ),
                pointers: &[pa("the same 500 back", Find::Replay)],
                claims: &[a(M::ReplayedFailures, 3), a(M::Unknown, 1), b(M::ReplayedFailures, 0), b(M::Ok, 3)],
            },
            Step {
                title: "An expired key: run it as new, or refuse it",
                run_a: "an expired key runs as new",
                run_b: Some("an expired key is refused"),
                query: "seed=1&preset=key-expiry",
                compare: Some("expired=reject"),
                text: "Lesson A's keys kept 150 ms. Run as new (A), the late retries charge again: 2 duplicates. OASIS refuses a request past its window (5 minutes there) with 412 (B): 3 refused: key expired; when one reaches the client, it looks order 1 up by its business key, as the Ad Context Protocol asks, finds charge #1 and is done: 2 charges, 0 duplicates. That lookup reads the ledger only, so a charge the ledger never recorded would be made again.",
                calculator: true,
                keystore: true,
                classify: false,
                predict: Predict {
                    setup: "Keys kept 150 ms, as in Lesson A step 5; 2 orders, answers lost for the first 700 ms, up to 5 attempts. A treats a request whose key expired as new. B refuses it with 412; a client that gets a 412 looks the order up by its business key before it tries again.",
                    question: "How many duplicate charges will B make?",
                    ask: Ask::Count { side: Side::B, metric: M::Duplicates, choices: &[0, 1, 2] },
                    proof: pb("with 412", Find::Refused),
                },
                terms: &["412"],
                boundary: guards(
                    "the ledger database after the key's retention: a late retry is refused and looked up",
                    "a charge the ledger never recorded (the lookup reads the ledger only)",
                ),
                pointers: &[pa("the late retries charge again", Find::Duplicate), pb("with 412", Find::Refused)],
                claims: &[a(M::Duplicates, 2), b(M::RejectedExpired, 3), b(M::Effects, 2), b(M::Duplicates, 0)],
            },
            Step {
                title: "A lost answer from the payment service",
                run_a: "payment answers lost",
                run_b: Some("look the charge up before retrying"),
                query: "seed=7&orders=3&dedup=atomic&loss_provider=0.3&retries=5",
                compare: Some("lookup=on"),
                text: "Now the network between the API and the payment service loses messages. Charge #2 is made but its answer is lost: the API gives the call up (504) and rolls back, and the retry charges again: 1 duplicate, and charge #2 is 1 charge the ledger never recorded. With result lookup (B) the API first asks the payment service for a charge under the key: order 2's retry finds charge #2 and records it: 0 duplicates, 0 charges the ledger never recorded.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "3 orders with keys and a unique claim. The network between the API and the payment service loses a message now and then (in A, one answer to a charge). The API then gives the call up, answers 504 and rolls back, and the client retries. In B the API first asks the payment service whether it already charged under the key.",
                    question: "Which run charges an order twice?",
                    ask: Ask::WhichHas { metric: M::Duplicates },
                    proof: pa("the retry charges again", Find::Duplicate),
                },
                terms: &["result lookup"],
                boundary: guards(
                    "the payment service: a retry first asks it for a charge under the key",
                    "a service that cannot be asked",
                ),
                pointers: &[pa("its answer is lost", Find::Drop(DropCause::Loss)), pa("the retry charges again", Find::Duplicate)],
                claims: &[a(M::Duplicates, 1), a(M::Unrecorded, 1), b(M::Duplicates, 0), b(M::Unrecorded, 0)],
            },
            Step {
                title: "Reconciliation repairs after the fact",
                run_a: "payment answers lost",
                run_b: Some("reconciliation after 900 ms"),
                query: "seed=7&orders=3&dedup=atomic&loss_provider=0.3&retries=5",
                compare: Some("reconcile_ms=900"),
                text: "The same lost answer, without lookup. At 900 ms a reconciliation job (B) compares the payment service's charges with the ledger: it records charge #2, which the ledger lacked, and refunds charge #3, order 2's second: 1 reconciled charge, 1 refund, 0 charges the ledger never recorded. The duplicate still happened (1): the customer paid twice until the refund, and order 2's key still stores the answer naming charge #3. The model runs the job once, after the orders are done.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "The same run: a charge made, its answer lost, and the retry charged again. In B a reconciliation job runs at 900 ms: it records each charge the ledger lacks and refunds each charge after an order's first.",
                    question: "How many duplicate charges will B count?",
                    ask: Ask::Count { side: Side::B, metric: M::Duplicates, choices: &[0, 1, 2] },
                    proof: pb("The duplicate still happened", Find::Duplicate),
                },
                terms: &["reconciliation"],
                boundary: guards(
                    "the ledger and the customer's money, after the fact (a refund)",
                    "the customer, who pays twice until the refund",
                ),
                pointers: &[pb("The duplicate still happened", Find::Duplicate)],
                claims: &[a(M::Unrecorded, 1), b(M::Reconciled, 1), b(M::Refunds, 1), b(M::Unrecorded, 0), b(M::Duplicates, 1)],
            },
            Step {
                title: "An email cannot join the transaction",
                run_a: "inbox, plain mail",
                run_b: Some("inbox, mail keyed by event id"),
                query: "seed=3&orders=4&dedup=atomic&consumer=inbox&consumer_crash=after-mail",
                compare: Some("mail=keyed"),
                text: "As in Lesson A step 6 the inbox row commits after the mail, which cannot join that transaction. The consumer crashes after its first mail, before the commit: the row rolls back, no ack goes out, and the redelivery finds no row and mails again: 5 receipts for 4 charges, 1 duplicate. A mail provider that takes the event id as its key (B) answers the repeat with its first send: 4, 0. Without one, accept a rare duplicate email.",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "The inbox consumer of Lesson A step 6, and no ack is lost. It crashes once, right after mailing its first receipt and before it commits that event's inbox row; it restarts, and the queue redelivers what it never acked.",
                    question: "How many receipts will the inbox consumer (A) mail for the 4 charges?",
                    ask: Ask::Count { side: Side::A, metric: M::Receipts, choices: &[4, 5, 8] },
                    proof: pa("mails again", Find::Duplicate),
                },
                terms: &["boundary", "idempotency key"],
                boundary: guards(
                    "the mail server, which answers a repeated event id with its first send",
                    "any other service the consumer calls without a key",
                ),
                pointers: &[pa("The consumer crashes after its first mail", Find::Crash), pa("mails again", Find::Duplicate), pb("answers the repeat with its first send", Find::Replay)],
                claims: &[
                    a(M::Receipts, 5),
                    a(M::Duplicates, 1),
                    a(M::Redeliveries, 1),
                    b(M::Receipts, 4),
                    b(M::Duplicates, 0),
                ],
            },
            Step {
                title: "The relay between the ledger and the queue",
                run_a: "API publishes after the commit",
                run_b: Some("event written with the charge (outbox)"),
                query: "seed=1&orders=3&dedup=atomic&consumer=inbox&crash=api@after-commit&relay=direct",
                compare: Some("relay=outbox"),
                text: "Each booked charge goes to a queue as an event, and a consumer mails its receipt. In A the API publishes the event itself, one step after the commit, and crashes once in between: the charge is booked but its event is lost: 1 lost event, 2 receipts for 3 charges. With an outbox (B) the event is a row committed with the charge and leaves at the commit: 0 lost, 3 receipts. (The model's relay never fails; a real one can publish twice, which the consumer's inbox absorbs.)",
                calculator: false,
                keystore: false,
                classify: false,
                predict: Predict {
                    setup: "3 orders; each booked charge also goes to a queue as an event, and a consumer mails a receipt per event. In A the API publishes the event itself one step after the commit; in B the event is an outbox row committed with the charge. The API crashes once, right after its first commit.",
                    question: "How many receipts will A's consumer mail?",
                    ask: Ask::Count { side: Side::A, metric: M::Receipts, choices: &[2, 3, 4] },
                    proof: pa("crashes once in between", Find::Crash),
                },
                terms: &["outbox", "inbox"],
                boundary: guards(
                    "the queue: the event leaves with the charge's commit",
                    "the consumer's mail (its inbox and a keyed mail do, Lesson A)",
                ),
                pointers: &[pa("crashes once in between", Find::Crash)],
                claims: &[a(M::LostEvents, 1), a(M::Receipts, 2), b(M::Receipts, 3)],
            },
        ],
    },
];

/// The step that holds the ordering exercise (`crate::ordering`, `web::ordering`), found by
/// title so that inserting a step before it does not move the exercise.
pub const ORDERING_STEP_TITLE: &str = "The order of the steps matters";

impl Step {
    pub fn has_ordering_exercise(&self) -> bool {
        self.title == ORDERING_STEP_TITLE
    }
}

impl Lesson {
    pub fn by_id(id: &str) -> Option<&'static Lesson> {
        LESSONS.iter().find(|lesson| lesson.id == id)
    }
}

/// Bytes a key store holds in steady state: every new operation's entry (one per key; a retry
/// reuses its key and adds none) is kept for the whole retention window. Saturating at u64::MAX
/// (18 EB), so no number a learner types can overflow; u64 rather than u128 keeps 128-bit
/// arithmetic and formatting out of the page.
pub fn key_storage_bytes(operations_per_s: u64, retention_s: u64, entry_bytes: u64) -> u64 {
    operations_per_s
        .saturating_mul(retention_s)
        .saturating_mul(entry_bytes)
}

/// Bytes in decimal units, as storage is sold: `864 GB`, `1.5 TB`.
pub fn bytes_text(bytes: u64) -> String {
    const UNITS: [&str; 7] = ["B", "KB", "MB", "GB", "TB", "PB", "EB"];
    let mut unit = 0;
    let mut scaled = bytes.saturating_mul(10);
    while scaled >= 10_000 && unit + 1 < UNITS.len() {
        scaled /= 1_000;
        unit += 1;
    }
    let (whole, tenth) = (scaled / 10, scaled % 10);
    if tenth == 0 || whole >= 100 {
        format!("{whole} {}", UNITS[unit])
    } else {
        format!("{whole}.{tenth} {}", UNITS[unit])
    }
}

/// Lessons are static data, one per id: two are the same lesson when their ids are.
impl PartialEq for Lesson {
    fn eq(&self, other: &Lesson) -> bool {
        self.id == other.id
    }
}

impl Eq for Lesson {}

impl std::fmt::Debug for Lesson {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Lesson({})", self.id)
    }
}
