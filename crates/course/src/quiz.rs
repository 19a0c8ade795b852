//! The mastery check: four questions per lesson, each posed on a fresh variant of one of the
//! lesson's situations and answered by running the simulator, never by a table of answers.
//!
//! `generate(lesson, quiz_seed)` draws every parameter from the quiz seed, so an instructor's
//! `quiz=SEED` gives a whole class the same questions. A drawn variant is kept only if it is
//! well-posed (a number question has a duplicate to point at; a "which change" question has
//! exactly one choice that ends with 0 duplicates and 0 lost); otherwise the next draw is tried,
//! at most `DRAWS_MAX` times, then a fixed fallback draw that `tests/quiz.rs` checks. Pure: no
//! IO, no clock; the page keeps the learner's progress (`progress`) in its own storage.

pub mod progress;

use rand::{Rng, RngCore, SeedableRng};
use rand_pcg::Pcg32;

use crate::lessons::Lesson;
use idemlab_core::scenario::{codec, decode, encode, Scenario};
use idemlab_core::trace::{DropCause, Event, EventKind, Outcome, Payload, Trace};
use idemlab_lab::decimal::ms_tenths;
use idemlab_lab::Metrics;

/// Questions in one check.
pub const QUESTIONS: usize = 4;
/// Right answers that master a check of `total` questions: all of them. One rule, said one way
/// everywhere ("all 4 right"): an 80% bar said beside it reads as if 3 of 4 might do.
pub fn right_needed(total: u32) -> u32 {
    total
}

/// Parameter draws per question before its fallback. Each draw costs at most four runs of a
/// few hundred events, so a whole check stays within a few milliseconds even at the limit.
pub const DRAWS_MAX: u32 = 24;
/// The largest number a number question accepts as an answer.
pub const NUMBER_MAX: u32 = 999;

/// What a question asks. Each lesson's check has one question of each of its four kinds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// Lesson A: lost answers, no dedup: how many charges does order K get?
    ChargesForOrder,
    /// Lesson A: the check-then-insert race: which dedup setting ends it?
    DedupForRace,
    /// Lesson A: a crash after the commit with keys in memory: which change stops the repeat?
    StoreForCrash,
    /// Lesson A: keys kept shorter than the client retries: how many duplicates?
    DuplicatesAfterExpiry,
    /// Lesson A: an at-least-once queue and a consumer without an inbox: how many receipts?
    ReceiptsWithoutInbox,
    /// Lesson A: three orders of the handler's six steps: which one is safe here?
    SafeOrder,
    /// Both lessons: an atomic, durable claim and a crash between the charge and the commit:
    /// how many times is order K charged? (Which boundary the claim protects.)
    ChargesAfterCrash,
    /// Lesson B: an operator rerun: which key strategy recognises the same work?
    KeyForRerun,
    /// Lesson B: one key for every order: how many orders are lost?
    LostWithOneKey,
    /// Lesson B: an API crash and a ledger pod replacement: where must keys live?
    StoreForBothFaults,
    /// Lesson B: a crash between the charge and the commit: which change stops the repeat?
    ProviderAfterCrash,
    /// Lesson C: a 500 from the payment service under Stripe's or OASIS's rule: how many calls
    /// does order K make?
    CallsAfter500,
    /// Lesson C: a phased claim, a slow payment service and one crash: which lease?
    LeaseLength,
    /// Lesson C: a lost answer from the payment service: which change stops the repeat?
    FixForLostAnswer,
    /// Lesson C: lost answers from the payment service and a later reconciliation job: how many
    /// duplicates does the run count?
    DuplicatesAfterReconcile,
}

/// Lesson A's situations, in the lesson's order; a check asks about `QUESTIONS` of them.
pub const LESSON_A_KINDS: [Kind; 7] = [
    Kind::ChargesForOrder,
    Kind::DedupForRace,
    Kind::StoreForCrash,
    Kind::DuplicatesAfterExpiry,
    Kind::ReceiptsWithoutInbox,
    Kind::SafeOrder,
    Kind::ChargesAfterCrash,
];
pub const LESSON_B_KINDS: [Kind; 5] = [
    Kind::KeyForRerun,
    Kind::LostWithOneKey,
    Kind::StoreForBothFaults,
    Kind::ChargesAfterCrash,
    Kind::ProviderAfterCrash,
];
pub const LESSON_C_KINDS: [Kind; 4] = [
    Kind::LeaseLength,
    Kind::CallsAfter500,
    Kind::FixForLostAnswer,
    Kind::DuplicatesAfterReconcile,
];

/// What a kind tests. Every check asks at least one of each, so it cannot be passed by
/// reading numbers off the screen alone: a prediction on a fresh variant, a concept (which
/// boundary a claim protects, a step order), and a diagnosis (which change prevents this).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Category {
    Prediction,
    Concept,
    Diagnosis,
}

impl Kind {
    pub const ALL: [Kind; 15] = [
        Kind::ChargesForOrder,
        Kind::DedupForRace,
        Kind::StoreForCrash,
        Kind::DuplicatesAfterExpiry,
        Kind::ReceiptsWithoutInbox,
        Kind::SafeOrder,
        Kind::ChargesAfterCrash,
        Kind::KeyForRerun,
        Kind::LostWithOneKey,
        Kind::StoreForBothFaults,
        Kind::ProviderAfterCrash,
        Kind::CallsAfter500,
        Kind::LeaseLength,
        Kind::FixForLostAnswer,
        Kind::DuplicatesAfterReconcile,
    ];

    pub fn category(self) -> Category {
        match self {
            Kind::ChargesForOrder
            | Kind::DuplicatesAfterExpiry
            | Kind::ReceiptsWithoutInbox
            | Kind::LostWithOneKey
            | Kind::CallsAfter500
            | Kind::DuplicatesAfterReconcile => Category::Prediction,
            Kind::SafeOrder | Kind::ChargesAfterCrash | Kind::LeaseLength => Category::Concept,
            Kind::DedupForRace
            | Kind::StoreForCrash
            | Kind::KeyForRerun
            | Kind::StoreForBothFaults
            | Kind::ProviderAfterCrash
            | Kind::FixForLostAnswer => Category::Diagnosis,
        }
    }

    /// The name the page puts in `data-kind`, and results to a course page (`idemlab:quiz`).
    pub fn name(self) -> &'static str {
        match self {
            Kind::ChargesForOrder => "charges-for-order",
            Kind::DedupForRace => "dedup-for-race",
            Kind::StoreForCrash => "store-for-crash",
            Kind::DuplicatesAfterExpiry => "duplicates-after-expiry",
            Kind::ReceiptsWithoutInbox => "receipts-without-inbox",
            Kind::SafeOrder => "safe-order",
            Kind::ChargesAfterCrash => "charges-after-crash",
            Kind::KeyForRerun => "key-for-rerun",
            Kind::LostWithOneKey => "lost-with-one-key",
            Kind::StoreForBothFaults => "store-for-both-faults",
            Kind::ProviderAfterCrash => "provider-after-crash",
            Kind::CallsAfter500 => "calls-after-500",
            Kind::LeaseLength => "lease-length",
            Kind::FixForLostAnswer => "fix-for-lost-answer",
            Kind::DuplicatesAfterReconcile => "duplicates-after-reconcile",
        }
    }
}

/// The seed of the draw used for a kind when `DRAWS_MAX` draws from the quiz seed were all
/// ill-posed; `tests/quiz.rs` checks that it poses every kind.
pub const FALLBACK_SEED: u64 = 0;

/// The kinds of a lesson's check, in the order they are asked: one of each `Category` and one
/// more, drawn from the quiz seed and kept in the lesson's order, so different seeds ask about
/// different parts of a lesson with more situations than questions.
pub fn kinds(lesson: &Lesson, quiz_seed: u64) -> [Kind; QUESTIONS] {
    let pool: &[Kind] = match lesson.id {
        "a" => &LESSON_A_KINDS,
        "b" => &LESSON_B_KINDS,
        "c" => &LESSON_C_KINDS,
        other => panic!("lesson {other} has no mastery check; add its kinds in quiz.rs"),
    };
    let mut order: Vec<usize> = (0..pool.len()).collect();
    shuffle(
        &mut order,
        &mut Pcg32::seed_from_u64(quiz_seed ^ KINDS_STREAM),
    );
    // The first of each category in the shuffled order, then the next unpicked one.
    let mut picks: Vec<usize> = Vec::with_capacity(QUESTIONS);
    for category in [Category::Prediction, Category::Concept, Category::Diagnosis] {
        let first = order.iter().find(|&&i| pool[i].category() == category);
        picks.push(*first.expect("every pool has every category"));
    }
    let more = order.iter().find(|i| !picks.contains(i));
    picks.push(*more.expect("every pool holds at least QUESTIONS kinds"));
    // In the lesson's order: the pool's, filtered (a sort here would cost the page's wasm a
    // sort instance of its own).
    let kinds: Vec<Kind> = (0..pool.len())
        .filter(|i| picks.contains(i))
        .map(|i| pool[i])
        .collect();
    kinds
        .try_into()
        .unwrap_or_else(|_| panic!("four picks, one per category and one more"))
}

/// Keeps the draw of kinds apart from the draws of each question's parameters.
const KINDS_STREAM: u64 = 0x6b69_6e64_7321; // "kinds!"

/// How a question is answered.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Form {
    /// A whole number, 0..=NUMBER_MAX.
    Number,
    /// One of these; the answer is an index.
    Choices(Vec<Choice>),
}

/// One choice of a "which change" question: keys applied over the question's scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Choice {
    /// In the codec's syntax, as the page's `compare=` takes it: `dedup=atomic`.
    pub keys: String,
    /// What the change means, in words: what the page shows (`Choice::words`).
    pub label: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub kind: Kind,
    /// The scenario the question is about, in canonical form.
    pub query: String,
    pub prompt: String,
    pub form: Form,
    /// The right answer: the number, or the index of the right choice.
    pub answer: u32,
    /// Why, naming the events that prove it.
    pub explanation: String,
    /// The event of the question's run (A) that proves the answer: the page's cursor goes here.
    pub proof_event: u32,
    pub proof_time_us: u64,
    /// Configuration B to show beside A once answered: the right choice, if any.
    pub proof_compare: Option<String>,
    /// The order a per-order question asks about.
    pub order: Option<u32>,
}

impl Question {
    pub fn is_right(&self, answer: u32) -> bool {
        answer == self.answer
    }

    /// The right answer as the learner would give it: the number, or the choice's keys.
    pub fn answer_text(&self) -> String {
        answer_text(&self.form, self.answer)
    }
}

/// A given answer as text: the number, or the chosen choice in words (`?` for an index out of
/// range).
pub fn answer_text(form: &Form, answer: u32) -> String {
    match form {
        Form::Number => answer.to_string(),
        Form::Choices(choices) => choices
            .get(answer as usize)
            .map_or_else(|| "?".into(), |c| c.words().into()),
    }
}

impl Choice {
    /// The choice as the learner reads it: its label, in words ("dedup=atomic" is a setting,
    /// not an answer); the keys only when a choice has no label.
    pub fn words(&self) -> &str {
        if self.label.is_empty() {
            &self.keys
        } else {
            &self.label
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quiz {
    /// The lesson's `lesson=` id.
    pub lesson: &'static str,
    pub seed: u64,
    pub questions: Vec<Question>,
}

/// A graded check. `mastered` needs every question answered and `right_needed` right.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Score {
    pub right: u32,
    pub answered: u32,
    pub total: u32,
    pub percent: u32,
    pub mastered: bool,
}

/// The check for `lesson` drawn from `quiz_seed`: the same seed gives the same questions.
pub fn generate(lesson: &'static Lesson, quiz_seed: u64) -> Quiz {
    let questions = kinds(lesson, quiz_seed)
        .iter()
        .map(|&kind| question(kind, quiz_seed))
        .collect();
    Quiz {
        lesson: lesson.id,
        seed: quiz_seed,
        questions,
    }
}

/// Grades `answers` (one per question, `None` when not answered yet) against `quiz`.
pub fn grade(quiz: &Quiz, answers: &[Option<u32>]) -> Score {
    let total = quiz.questions.len() as u32;
    let given = quiz
        .questions
        .iter()
        .zip(answers)
        .filter_map(|(q, a)| Some((q, (*a)?)));
    let (mut right, mut answered) = (0, 0);
    for (question, answer) in given {
        answered += 1;
        right += u32::from(question.is_right(answer));
    }
    let percent = (right * 100).checked_div(total).unwrap_or(0);
    Score {
        right,
        answered,
        total,
        percent,
        mastered: total > 0 && answered == total && right >= right_needed(total),
    }
}

/// The question of `kind` for this quiz seed: the first well-posed draw, else the fallback.
pub fn question(kind: Kind, quiz_seed: u64) -> Question {
    let base = Pcg32::seed_from_u64(quiz_seed).next_u64();
    for draw in 0..DRAWS_MAX {
        let identity = (kind as u64) << 32 | u64::from(draw);
        if let Some(question) = pose(kind, &mut Pcg32::seed_from_u64(base ^ identity)) {
            return question;
        }
    }
    let mut dice = Pcg32::seed_from_u64(FALLBACK_SEED);
    pose(kind, &mut dice).expect("every fallback draw is well-posed (tests/quiz.rs)")
}

/// One draw of `kind`'s parameters, posed as a question if it is well-posed.
pub fn pose(kind: Kind, dice: &mut Pcg32) -> Option<Question> {
    match kind {
        Kind::ChargesForOrder => charges_for_order(dice),
        Kind::DedupForRace => dedup_for_race(dice),
        Kind::StoreForCrash => store_for_crash(dice),
        Kind::DuplicatesAfterExpiry => duplicates_after_expiry(dice),
        Kind::ReceiptsWithoutInbox => receipts_without_inbox(dice),
        Kind::SafeOrder => safe_order(dice),
        Kind::ChargesAfterCrash => charges_after_crash(dice),
        Kind::KeyForRerun => key_for_rerun(dice),
        Kind::LostWithOneKey => lost_with_one_key(dice),
        Kind::StoreForBothFaults => store_for_both_faults(dice),
        Kind::ProviderAfterCrash => provider_after_crash(dice),
        Kind::CallsAfter500 => calls_after_500(dice),
        Kind::LeaseLength => lease_length(dice),
        Kind::FixForLostAnswer => fix_for_lost_answer(dice),
        Kind::DuplicatesAfterReconcile => duplicates_after_reconcile(dice),
    }
}

/// The criterion every "which change" question states: the run ends with neither harm.
pub fn is_safe(metrics: &Metrics) -> bool {
    metrics.duplicates == 0 && metrics.lost == 0
}

/// The scenario with `keys` (codec syntax, `&`-separated) set over it, as `compare=` does.
pub fn with_keys(scenario: &Scenario, keys: &str) -> Scenario {
    let mut changed = scenario.clone();
    for pair in keys.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        codec::set_key(&mut changed, key, value)
            .unwrap_or_else(|_| panic!("the quiz's own keys are valid"));
    }
    changed
}

/// A run of one of the quiz's own queries, which are in bounds by construction.
fn run(query: &str) -> (Scenario, Trace, Metrics) {
    let scenario = decode(query)
        .unwrap_or_else(|_| panic!("the quiz's own queries decode"))
        .scenario;
    let (trace, metrics) = idemlab_lab::run(&scenario);
    (scenario, trace, metrics)
}

/// A scenario seed for a drawn variant.
fn scenario_seed(dice: &mut Pcg32) -> u64 {
    dice.random_range(1..=999_999)
}

/// Fresh (not replayed) charges in `trace`: (event index, order), in order of time.
fn charges(trace: &Trace) -> impl Iterator<Item = (usize, u32)> + '_ {
    (trace.events.iter().enumerate())
        .filter(|(_, event)| matches!(event.kind, EventKind::Charge { replay: false, .. }))
        .map(|(ix, event)| (ix, event.order().unwrap_or(0)))
}

/// The first charge that repeats an order's charge: (event index, order, which charge of it).
fn first_repeat_charge(trace: &Trace) -> Option<(usize, u32, u32)> {
    let mut seen: Vec<u32> = Vec::new();
    for (ix, order) in charges(trace) {
        let count = seen.iter().filter(|&&o| o == order).count() as u32 + 1;
        if count >= 2 {
            return Some((ix, order, count));
        }
        seen.push(order);
    }
    None
}

/// Messages the network lost at random (`loss_resp`, `ack_loss`) whose payload and sending
/// event pass `keep`: how many.
fn lost_on_network(trace: &Trace, keep: impl Fn(&Payload, &Event) -> bool) -> u32 {
    let sent = |msg: u32| {
        trace.events.iter().find(|e| {
            matches!(e.kind, EventKind::Send { msg: m, payload, .. } if m == msg && keep(&payload, e))
        })
    };
    (trace.events.iter())
        .filter(|e| {
            matches!(e.kind, EventKind::Drop { msg, cause: DropCause::Loss } if sent(msg).is_some())
        })
        .count() as u32
}

fn number_question(kind: Kind, query: String, prompt: String, answer: u32) -> Question {
    Question {
        kind,
        query,
        prompt,
        form: Form::Number,
        answer,
        explanation: String::new(),
        proof_event: 0,
        proof_time_us: 0,
        proof_compare: None,
        order: None,
    }
}

fn charges_for_order(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=4u32);
    let loss_tenths = dice.random_range(3..=5u32);
    let retries = dice.random_range(2..=4u32);
    // Above the worst round trip (148 ms at these latencies), so only lost answers time out.
    let timeout_ms = dice.random_range(15..=30u32) * 10;
    let backoff_ms = dice.random_range(2..=6u32) * 10;
    let query = format!("seed={seed}&orders={orders}&loss_resp=0.{loss_tenths}&retries={retries}&timeout_ms={timeout_ms}&backoff_ms={backoff_ms}");
    let (scenario, trace, _) = run(&query);
    // The lost count is drawn first, 0 to 3, so the answer is not always the same: a learner
    // who learnt "one lost answer, two charges" meets none lost, and more lost than retries.
    let wanted = dice.random_range(0..=3u32);
    // The prompt states how many of the order's answers are lost (read from the run), so the
    // count follows from reasoning, not luck: each lost answer but one on the last attempt
    // costs a retry, and every retry charges again. A draw where something else decides the
    // count (a late answer, a lost request) is not posed.
    let lost_of = |order: u32| {
        lost_on_network(&trace, |payload, event| {
            matches!(payload, Payload::Response { .. }) && event.order() == Some(order)
        })
    };
    // The drawn count if an order has it, else the next count one has (so a run with none of
    // that count still poses a question).
    let (order, lost) = (0..4).map(|step| (wanted + step) % 4).find_map(|lost| {
        (1..=orders)
            .find(|&o| lost_of(o) == lost)
            .map(|o| (o, lost))
    })?;
    let own: Vec<usize> = charges(&trace)
        .filter(|&(_, o)| o == order)
        .map(|(ix, _)| ix)
        .collect();
    let &last = own.last()?;
    if own.len() as u32 != lost.min(retries) + 1 {
        return None;
    }
    let times: Vec<String> = own
        .iter()
        .map(|&ix| ms_tenths(trace.events[ix].time_us))
        .collect();
    let explanation = charges_explanation(order, &times);
    let lost_text = match lost {
        1 => idemlab_lab::tf!("{} answer to order {} is lost", lost, order),
        _ => idemlab_lab::tf!("{} answers to order {} are lost", lost, order),
    };
    let prompt = idemlab_lab::tf!(
        "The API does not check keys. The client waits {0} ms for an answer (only a lost answer takes that long), then retries, up to {1} times. In this run {2} on the way back. How many times does the payment service charge order {3}?",
        timeout_ms,
        retries,
        lost_text,
        order,
    );
    let mut question = number_question(
        Kind::ChargesForOrder,
        encode(&scenario),
        prompt,
        own.len() as u32,
    );
    question.order = Some(order);
    Some(prove(question, &trace, last, explanation))
}

/// Why order `order` was charged at `times`, one time each: the lost answers' retries.
fn charges_explanation(order: u32, times: &[String]) -> String {
    let count = times.len();
    let times = match times.split_last() {
        Some((last, [])) => last.clone(),
        Some((last, rest)) => idemlab_lab::tf!("{} and {}", rest.join(", "), last),
        None => String::new(),
    };
    match count {
        1 => idemlab_lab::tf!(
            "Order {0} is charged 1 time, at {1} (the cursor). No answer to it was lost, so the client never timed out and never sent it again.",
            order,
            times,
        ),
        _ => idemlab_lab::tf!(
            "Order {0} is charged {1} times, at {2}; the last is at the cursor, labelled \"order {0}: charge {1} of {1}\". Each lost answer (a ✕ on an arrow to the client) cost one more charge, unless it was the answer to the last attempt or the client had no retries left: it saw only a timeout, could not tell a lost request from a lost answer, and sent the order again.",
            order,
            count,
            times,
        ),
    }
}

fn prove(mut question: Question, trace: &Trace, event: usize, explanation: String) -> Question {
    question.proof_event = event as u32;
    question.proof_time_us = trace.events[event].time_us;
    question.explanation = explanation;
    question
}

fn duplicates_after_expiry(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(1..=3u32);
    let partition_ms = dice.random_range(5..=9u32) * 100;
    let retention_ms = dice.random_range(10..=25u32) * 10;
    let backoff_ms = dice.random_range(4..=8u32) * 10;
    let query = format!("seed={seed}&orders={orders}&dedup=atomic&partition=0..{partition_ms}&retention_ms={retention_ms}&retries=4&backoff_ms={backoff_ms}");
    let (scenario, trace, metrics) = run(&query);
    let (ix, order, nth) = first_repeat_charge(&trace)?;
    let fixed = idemlab_lab::run(&with_keys(&scenario, "retention_ms=86400000")).1;
    if metrics.duplicates == 0 || !is_safe(&fixed) {
        return None;
    }
    let expired = trace.events[..ix]
        .iter()
        .rev()
        .find(|e| e.kind == EventKind::KeyExpired && e.order() == Some(order));
    // An optional clause of the explanation, ending where the sentence goes on.
    let expired = expired.map_or_else(String::new, |e| {
        idemlab_lab::tf!(
            "the retry found its key expired at {} (key-expired, on the database lane), and ",
            ms_tenths(e.time_us)
        )
    });
    let prompt = idemlab_lab::tf!(
        "{} sent to an API with a unique claim that keeps each key for {} ms from when it is stored. Every answer is lost on the way back for the first {} ms. The client waits {} ms for an answer, then retries, up to 4 times; a request reaches the API {}–{} ms after it leaves. In this run {}. How many duplicates does this run count?",
        plural(orders, idemlab_lab::t!("{} order is"), idemlab_lab::t!("{} orders are")),
        retention_ms,
        partition_ms,
        scenario.timeout_ms,
        scenario.latency_ms.lo,
        scenario.latency_ms.hi,
        expiry_timings(&trace, orders),
    );
    // "The first" only when there are more; both fill the same numbered holes.
    let template = match metrics.duplicates {
        1 => idemlab_lab::t!("1 duplicate: order {1} was charged a {2} time at {3} (the cursor): {4}a retry after that looked like new work. Keeping keys longer than the client retries (Stripe keeps them at least 24 hours) gives 0."),
        _ => idemlab_lab::t!("{0} duplicates. The first: order {1} was charged a {2} time at {3} (the cursor): {4}a retry after that looked like new work. Keeping keys longer than the client retries (Stripe keeps them at least 24 hours) gives 0."),
    };
    let at = ms_tenths(trace.events[ix].time_us);
    let nth = ordinal(nth);
    let args: [&dyn std::fmt::Display; 5] = [&metrics.duplicates, &order, &nth, &at, &expired];
    let explanation = idemlab_lab::i18n::fill(template, &args);
    let question = number_question(
        Kind::DuplicatesAfterExpiry,
        encode(&scenario),
        prompt,
        metrics.duplicates,
    );
    Some(prove(question, &trace, ix, explanation))
}

/// When each order's key is first stored and when its retries leave: what the expiry question
/// needs to be reasoned rather than guessed (without them the jitter alone seems to decide it).
fn expiry_timings(trace: &Trace, orders: u32) -> String {
    let parts: Vec<String> = (1..=orders)
        .map(|order| {
            let of_order = |e: &&idemlab_core::trace::Event| e.order() == Some(order);
            let stored = (trace.events.iter().filter(of_order))
                .find(|e| matches!(e.kind, EventKind::Commit { .. }))
                .map_or_else(
                    || idemlab_lab::t!("never stored").into(),
                    |e| idemlab_lab::tf!("stored at {}", ms_tenths(e.time_us)),
                );
            let retries: Vec<String> = (trace.events.iter().filter(of_order))
                .filter(|e| {
                    e.attempt().is_some_and(|a| a > 1)
                        && matches!(
                            e.kind,
                            EventKind::Send {
                                payload: idemlab_core::trace::Payload::Request { .. },
                                ..
                            }
                        )
                })
                .map(|e| ms_tenths(e.time_us))
                .collect();
            let retries = if retries.is_empty() {
                idemlab_lab::t!("no retry").into()
            } else {
                idemlab_lab::tf!("retries leaving at {}", retries.join(", "))
            };
            idemlab_lab::tf!("order {}'s key is {}, with {}", order, stored, retries)
        })
        .collect();
    parts.join("; ")
}

fn lost_with_one_key(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=6u32);
    let clients = dice.random_range(1..=3u32).min(orders);
    let query = format!("seed={seed}&orders={orders}&clients={clients}&dedup=atomic&key=constant");
    let (scenario, trace, metrics) = run(&query);
    let charged: Vec<u32> = charges(&trace).map(|(_, order)| order).collect();
    let first_lost = trace.events.iter().position(|e| {
        matches!(
            e.kind,
            EventKind::OrderDone {
                outcome: Outcome::Ok,
                ..
            }
        ) && e.order().is_some_and(|o| !charged.contains(&o))
    })?;
    if metrics.lost == 0 {
        return None;
    }
    let event = &trace.events[first_lost];
    // `key=constant` is the setting's own name, left as it is in every language.
    let prompt = idemlab_lab::tf!(
        "Every order is sent with the same key (key=constant) to an API with atomic dedup. How many of the {} orders are lost: their client saw success, yet they were never charged?",
        orders
    );
    let explanation = idemlab_lab::tf!(
        "{} lost. Order {} finished ok at {} (the cursor) with the answer stored for another order under the shared key: a replay, with no charge of its own. The run shows 0 duplicates and {} for {} orders: a key too coarse merges different work.",
        plural(metrics.lost, idemlab_lab::t!("{} order is"), idemlab_lab::t!("{} orders are")),
        event.order().unwrap_or(0),
        ms_tenths(event.time_us),
        plural(metrics.effects, idemlab_lab::t!("{} charge"), idemlab_lab::t!("{} charges")),
        orders,
    );
    let question = number_question(
        Kind::LostWithOneKey,
        encode(&scenario),
        prompt,
        metrics.lost,
    );
    Some(prove(question, &trace, first_lost, explanation))
}

/// The parts of a "which change" question that each kind draws.
struct Which {
    kind: Kind,
    query: String,
    prompt: String,
    /// (keys, label), in the order drawn; `pose_which` shuffles them.
    choices: Vec<(String, String)>,
    /// Why the right change works, in a sentence.
    why: &'static str,
    /// Whether a safe choice must also answer every order (Lesson C's lease: no lease leaves a
    /// crashed order's claim in progress, with 0 duplicates and 0 lost, yet unanswered).
    finish: bool,
}

/// Poses a "which change" question if the drawn run is harmed, exactly one choice is safe, and
/// that choice also finishes every order.
fn pose_which(which: Which, dice: &mut Pcg32) -> Option<Question> {
    let (scenario, trace, metrics) = run(&which.query);
    let (ix, order, nth) = first_repeat_charge(&trace)?;
    let mut choices = which.choices;
    shuffle(&mut choices, dice);
    let results: Vec<Metrics> = choices
        .iter()
        .map(|(keys, _)| idemlab_lab::run(&with_keys(&scenario, keys)).1)
        .collect();
    let finish = which.finish;
    let good = |m: &Metrics| is_safe(m) && (!finish || m.outcomes.ok == m.orders);
    let mut safe = results.iter().enumerate().filter(|(_, m)| good(m));
    let (answer, right) = safe.next()?;
    if safe.next().is_some() || is_safe(&metrics) || right.outcomes.ok != right.orders {
        return None;
    }
    // The right choice named once, first: the feedback does not repeat it, or a question's
    // feedback runs below a 768 px screen.
    let mut explanation = idemlab_lab::tf!(
        "The answer is \"{}\" (run B{}). In run A, order {} is charged a {} time at {} (the cursor). {} The others:",
        choices[answer].1,
        if finish { idemlab_lab::t!(": every order answered") } else { "" },
        order,
        ordinal(nth),
        ms_tenths(trace.events[ix].time_us),
        which.why,
    );
    // One clause per wrong choice, each after a space and before a ';'.
    for ((_, label), m) in choices.iter().zip(&results).filter(|(_, m)| !good(m)) {
        let (d, l) = (m.duplicates, m.lost);
        explanation.push(' ');
        explanation.push_str(&idemlab_lab::tf!(
            "\"{}\": {}, {} lost",
            label,
            plural(
                d,
                idemlab_lab::t!("{} duplicate"),
                idemlab_lab::t!("{} duplicates")
            ),
            l
        ));
        let unanswered = m.orders.saturating_sub(m.outcomes.ok);
        if finish && unanswered > 0 {
            explanation.push_str(&idemlab_lab::tf!(", {} never answered ok", unanswered));
        }
        explanation.push(';');
    }
    explanation.pop();
    explanation.push('.');
    let question = Question {
        kind: which.kind,
        query: encode(&scenario),
        prompt: which.prompt,
        form: Form::Choices(
            (choices.iter())
                .map(|(keys, label)| Choice {
                    keys: keys.clone(),
                    label: label.clone(),
                })
                .collect(),
        ),
        answer: answer as u32,
        explanation: String::new(),
        proof_event: 0,
        proof_time_us: 0,
        proof_compare: Some(choices[answer].0.clone()),
        order: None,
    };
    Some(prove(question, &trace, ix, explanation))
}

/// `1 duplicate`, `3 duplicates`: `one` and `many` are translated templates whose hole is the
/// count, so a language can put the number where its grammar wants it.
fn plural(n: u32, one: &str, many: &str) -> String {
    idemlab_lab::i18n::fill(if n == 1 { one } else { many }, &[&n])
}

fn ordinal(n: u32) -> String {
    match n {
        2 => idemlab_lab::t!("second").into(),
        3 => idemlab_lab::t!("third").into(),
        4 => idemlab_lab::t!("fourth").into(),
        _ => idemlab_lab::tf!("{}th", n),
    }
}

/// Fisher–Yates with the question's own dice, so the right choice is not always first. Drawn
/// as u32, so that wasm32 and 64-bit targets shuffle alike.
fn shuffle<T>(items: &mut [T], dice: &mut Pcg32) {
    for i in (1..items.len() as u32).rev() {
        items.swap(i as usize, dice.random_range(0..=i) as usize);
    }
}

// Every "which change" prompt ends "Before any run is shown: which …?", written out in each
// template so a translator sees whole sentences. The choices' runs stay closed until the answer
// is locked (`app::quiz`), so the learner reasons before seeing them.

fn dedup_for_race(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=5u32);
    let timeout_ms = dice.random_range(35..=55u32);
    let backoff_ms = dice.random_range(2..=10u32);
    let (lo, hi) = (dice.random_range(3..=6u32), dice.random_range(12..=18u32));
    let query = format!("seed={seed}&orders={orders}&dedup=naive&timeout_ms={timeout_ms}&retries=3&backoff_ms={backoff_ms}&latency_ms={lo}..{hi}");
    let which = Which {
        kind: Kind::DedupForRace,
        query,
        prompt: idemlab_lab::tf!("The client gives up after {} ms while the first attempt may still be charging, and retries. Before any run is shown: which way of handling the key ends this run with 0 duplicates and 0 lost orders?", timeout_ms),
        choices: vec![
            ("dedup=none".into(), idemlab_lab::t!("charge every request as it arrives; its key is never read").into()),
            ("dedup=naive".into(), idemlab_lab::t!("look the key up; if it is absent, charge, then write the key").into()),
            ("dedup=atomic".into(), idemlab_lab::t!("insert the key (unique) in the ledger's transaction, then charge").into()),
        ],
        why: idemlab_lab::t!("With check-then-insert both copies read \"not found\" before either recorded the key; an atomic claim makes the second wait, then replay the first answer."),
        finish: false,
    };
    pose_which(which, dice)
}

fn store_for_crash(dice: &mut Pcg32) -> Option<Question> {
    let crash = CrashWhich {
        kind: Kind::StoreForCrash,
        keys: "dedup=atomic&store=memory&crash=api@after-commit",
        restart_tens: 3..=12,
        situation: idemlab_lab::t!("The API keeps its keys in memory and crashes right after a commit, before it answers."),
        fix: ("store=durable", idemlab_lab::t!("keep the key table in a durable database")),
        why: idemlab_lab::t!("The crash wiped the keys in the API's memory, so the retry looked new; keys in a durable store survive it, and the retry gets the first answer back."),
    };
    crash.pose(dice)
}

/// A "which one change" question about a crash, where the wrong changes are the client's usual
/// reflexes: wait twice as long, or retry more.
struct CrashWhich {
    kind: Kind,
    /// The situation's keys, before the drawn ones.
    keys: &'static str,
    /// The API's downtime is drawn from this range, in tens of milliseconds.
    restart_tens: std::ops::RangeInclusive<u32>,
    situation: &'static str,
    /// The right change: (keys, label).
    fix: (&'static str, &'static str),
    why: &'static str,
}

impl CrashWhich {
    fn pose(self, dice: &mut Pcg32) -> Option<Question> {
        let seed = scenario_seed(dice);
        let orders = dice.random_range(2..=4u32);
        let restart_ms = dice.random_range(self.restart_tens) * 10;
        let backoff_ms = dice.random_range(3..=8u32) * 10;
        let timeout_ms = dice.random_range(15..=30u32) * 10;
        let keys = self.keys;
        let query = format!("seed={seed}&orders={orders}&{keys}&restart_ms={restart_ms}&backoff_ms={backoff_ms}&timeout_ms={timeout_ms}");
        let (fix, label) = self.fix;
        let which = Which {
            kind: self.kind,
            query,
            prompt: idemlab_lab::tf!("{} Before any run is shown: which one change ends this run with 0 duplicates and 0 lost orders?", self.situation),
            choices: vec![
                (fix.into(), label.into()),
                (format!("timeout_ms={}", timeout_ms * 2), idemlab_lab::t!("have the client wait twice as long for an answer").into()),
                ("retries=6".into(), idemlab_lab::t!("have the client retry up to 6 times, not 3").into()),
            ],
            why: self.why,
            finish: false,
        };
        pose_which(which, dice)
    }
}

fn key_for_rerun(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=4u32);
    let clients = dice.random_range(1..=2u32);
    let rerun_ms = dice.random_range(3..=7u32) * 100;
    let query = format!("seed={seed}&orders={orders}&clients={clients}&dedup=atomic&key=process&rerun_ms={rerun_ms}");
    let which = Which {
        kind: Kind::KeyForRerun,
        query,
        prompt: idemlab_lab::tf!("An operator reruns the job at {} ms: a new pod with a new UID sends the same orders again. Before any run is shown: which key strategy ends this run with 0 duplicates and 0 lost orders?", rerun_ms),
        choices: vec![
            ("key=business".into(), idemlab_lab::t!("the business key: case_id + work_id").into()),
            ("key=process".into(), idemlab_lab::t!("a UUID made when the pod starts, plus the work id").into()),
            ("key=attempt".into(), idemlab_lab::t!("a fresh UUID for every attempt").into()),
        ],
        why: idemlab_lab::t!("The rerun's pod has a new UID, so keys made from the pod look new to the API. Only a key made from the work itself is the same from any pod."),
        finish: false,
    };
    pose_which(which, dice)
}

fn store_for_both_faults(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=3u32);
    let restart_ms = dice.random_range(3..=8u32) * 10;
    let replace_ms = dice.random_range(25..=40u32) * 10;
    let rerun_ms = replace_ms + dice.random_range(5..=20u32) * 10;
    let query = format!("seed={seed}&orders={orders}&dedup=atomic&store=pod&crash=api@after-commit&restart_ms={restart_ms}&replace_db_ms={replace_ms}&rerun_ms={rerun_ms}&backoff_ms=40");
    let which = Which {
        kind: Kind::StoreForBothFaults,
        query,
        prompt: idemlab_lab::tf!("The API crashes after a commit, the ledger pod is replaced at {} ms, and the job is rerun at {} ms. Before any run is shown: where must the keys live for 0 duplicates and 0 lost orders?", replace_ms, rerun_ms),
        choices: vec![
            ("store=memory".into(), idemlab_lab::t!("in the API process's memory").into()),
            ("store=pod".into(), idemlab_lab::t!("on the ledger pod's own disk (an emptyDir)").into()),
            ("store=durable".into(), idemlab_lab::t!("in a durable database").into()),
        ],
        why: idemlab_lab::t!("Memory dies with the API's crash, and the ledger pod's disk dies with the pod's replacement; only a durable store survives both."),
        finish: false,
    };
    pose_which(which, dice)
}

fn provider_after_crash(dice: &mut Pcg32) -> Option<Question> {
    let crash = CrashWhich {
        kind: Kind::ProviderAfterCrash,
        keys: "dedup=atomic&crash=api@after-effect",
        restart_tens: 3..=10,
        situation: idemlab_lab::t!("The API crashes after the payment service charged and before the ledger committed; keys are atomic and durable."),
        fix: ("provider=keyed", idemlab_lab::t!("pass the key along so the payment service dedupes by it")),
        why: idemlab_lab::t!("The ledger rolled back with the crash but the payment service did not, so the API's key never recorded that charge. A payment service that honours the forwarded key returns the first charge instead of making a second."),
    };
    crash.pose(dice)
}

fn receipts_without_inbox(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=5u32);
    let loss_tenths = dice.random_range(2..=5u32);
    let visibility_ms = dice.random_range(6..=15u32) * 10;
    let query = format!("seed={seed}&orders={orders}&dedup=atomic&consumer=plain&ack_loss=0.{loss_tenths}&visibility_ms={visibility_ms}");
    let (scenario, trace, metrics) = run(&query);
    let (ix, event) = first_repeat_receipt(&trace)?;
    // The prompt states the charges and the lost acks (both read from the run), so the count
    // follows from reasoning: one receipt per charge, and one more per lost ack. A draw where
    // something else decides it (a redelivery overtaking a slow ack, a dead letter) is not posed.
    let acks_lost = lost_on_network(&trace, |payload, _| matches!(payload, Payload::Ack { .. }));
    let well_posed = metrics.effects == orders
        && metrics.dead_letters == 0
        && metrics.receipts == metrics.effects + acks_lost;
    if !well_posed {
        return None;
    }
    let prompt = idemlab_lab::tf!(
        "{} orders are charged once each, and each charge goes to a queue as an event. The queue delivers an event again if no acknowledgement comes back within {} ms. The consumer mails a receipt for every delivery it gets. In this run {} on the way back to the queue. How many receipts does the consumer mail?",
        orders,
        visibility_ms,
        plural(
            acks_lost,
            idemlab_lab::t!("{} acknowledgement is lost"),
            idemlab_lab::t!("{} acknowledgements are lost")
        ),
    );
    // `e{event}` is the queue event's id as the Events tab writes it.
    let explanation = idemlab_lab::tf!(
        "{0}: one per charge ({1}), and one more for each lost ack ({2}). The first repeat is at {3} (the cursor): the ack for e{4} was lost, so the queue delivered e{4} again. With an inbox table it would mail {1}.",
        plural(metrics.receipts, idemlab_lab::t!("{} receipt"), idemlab_lab::t!("{} receipts")),
        metrics.effects,
        acks_lost,
        ms_tenths(trace.events[ix].time_us),
        event,
    );
    let question = number_question(
        Kind::ReceiptsWithoutInbox,
        encode(&scenario),
        prompt,
        metrics.receipts,
    );
    Some(prove(question, &trace, ix, explanation))
}

/// The first receipt for a queue event that already had one: (event index, event id).
fn first_repeat_receipt(trace: &Trace) -> Option<(usize, u32)> {
    let mut first = None;
    idemlab_lab::metrics::walk_receipts(&trace.events, |ix, id, nth| {
        if nth > 1 && first.is_none() {
            first = Some((ix, id));
        }
    });
    first
}

/// Situations in which a handler that runs its steps out of order charges twice, as
/// (what the learner is told, keys over the ordering exercise's base). Data: the text is
/// translated where the prompt reads it (`idemlab_lab::i18n::tr`).
pub const ORDER_SITUATIONS: [(&str, &str); 3] = [
    (
        "answers are cut on the way back for the first 300 ms",
        "partition=0..300",
    ),
    (
        "the client gives up after 45 ms and retries while the first attempt may still be charging",
        "timeout_ms=45&backoff_ms=5&latency_ms=5..15",
    ),
    ("an operator reruns the job 20 ms in", "rerun_ms=20"),
];

/// How far a wrong order may stand from the textbook one, in swaps of neighbours.
const NEAR_SWAPS_MAX: usize = 2;

/// The swaps of neighbouring steps that turn `order` into the textbook order (its inversions).
fn swaps_from_textbook(order: &[idemlab_core::scenario::Step; 6]) -> usize {
    let rank = |step| {
        idemlab_core::scenario::Step::ALL
            .iter()
            .position(|&s| s == step)
    };
    let ranks: Vec<_> = order.iter().map(|&s| rank(s)).collect();
    let pairs = (0..6).flat_map(|i| (i + 1..6).map(move |j| (i, j)));
    pairs.filter(|&(i, j)| ranks[i] > ranks[j]).count()
}

fn safe_order(dice: &mut Pcg32) -> Option<Question> {
    use crate::ordering::{self, broken_rules, order_text};
    use idemlab_core::scenario::Step;
    let seed = scenario_seed(dice);
    let (situation, keys) = ORDER_SITUATIONS[dice.random_range(0..3u32) as usize];
    let situation = idemlab_lab::i18n::tr(situation);
    let orders = ordering::all_orders();
    let pick = |dice: &mut Pcg32, ok: &dyn Fn(&[Step; 6]) -> bool| {
        let candidates: Vec<&[Step; 6]> = orders.iter().filter(|o| ok(o)).collect();
        *candidates[dice.random_range(0..candidates.len() as u32) as usize]
    };
    let pos = |o: &[Step; 6], step| o.iter().position(|&s| s == step);
    // Laid over the base as the exercise does: the situation may override a base key.
    let base = decode(ordering::BASE)
        .unwrap_or_else(|_| panic!("the exercise's base decodes"))
        .scenario;
    let situation_run = |order: [Step; 6]| {
        let overlay = format!("{keys}&seed={seed}&order={}", order_text(order));
        with_keys(&base, &overlay)
    };
    let harmed = |order: [Step; 6]| !is_safe(&idemlab_lab::run(&situation_run(order)).1);
    // Wrong orders are near misses, a swap or two from the right one, where the situation has
    // one that does harm: a far order ("commit, effect, …") is rejected at sight, without
    // knowing why a step goes where it does.
    let near = |o: &[Step; 6]| swaps_from_textbook(o) <= NEAR_SWAPS_MAX;
    // The run shown charges before it claims, the mistake that duplicates in these situations;
    // the other wrong order is one that also does harm here, so exactly one choice is safe.
    // Every order that `ok` allows in a seeded order, near misses first, the first that does
    // harm (a situation with one harmful near miss takes its other wrong order from further).
    // A stable sort keeps the seeded order within each group.
    let first_harmful = |dice: &mut Pcg32, ok: &dyn Fn(&[Step; 6]) -> bool| {
        let mut candidates: Vec<[Step; 6]> = orders.iter().filter(|o| ok(o)).copied().collect();
        shuffle(&mut candidates, dice);
        candidates.sort_by_key(|o| !near(o));
        candidates.into_iter().find(|&o| harmed(o))
    };
    let shown = first_harmful(dice, &|o| pos(o, Step::Effect) < pos(o, Step::Claim))?;
    // The right choice is the order Lesson A's ordering step teaches (begin, lookup, claim,
    // effect, commit, respond): other orders the model also finds safe (a lookup after the
    // commit, say) read as a different lesson. Picked through `pick` all the same, so the draws
    // after it stay the same.
    let safe = pick(dice, &|o| *o == Step::ALL);
    let other = first_harmful(dice, &|o| broken_rules(*o).next().is_some() && *o != shown)?;
    let query = encode(&situation_run(shown));
    // The order in words; a label describing what an order does would give the answer away.
    let choice = |order: [Step; 6]| {
        (
            format!("order={}", order_text(order)),
            ordering::order_words(order),
        )
    };
    let which = Which {
        kind: Kind::SafeOrder,
        query,
        prompt: idemlab_lab::tf!("The API runs the six steps of a keyed request in some order, with a unique claim (a claim committed on its own holds the key for {} ms, its lease), durable keys and a payment service that ignores keys; {}. Before any run is shown: which order ends this run with 0 duplicates and 0 lost orders?", ordering::LEASE_MS, situation),
        choices: vec![choice(safe), choice(shown), choice(other)],
        why: idemlab_lab::t!("After begin, the lookup gives a retry of finished work its stored answer; the claim comes before the charge, and the answer only after the commit (Lesson A's ordering exercise). These runs never crash between the charge and the commit, where only a keyed payment service would help."),
        finish: false,
    };
    pose_which(which, dice)
}

fn charges_after_crash(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(1..=3u32);
    let restart_ms = dice.random_range(3..=10u32) * 10;
    let backoff_ms = dice.random_range(3..=8u32) * 10;
    let query = format!("seed={seed}&orders={orders}&dedup=atomic&store=durable&crash=api@after-effect&restart_ms={restart_ms}&backoff_ms={backoff_ms}");
    let (scenario, trace, _) = run(&query);
    let (_, order, _) = first_repeat_charge(&trace)?;
    let own: Vec<usize> = charges(&trace)
        .filter(|&(_, o)| o == order)
        .map(|(ix, _)| ix)
        .collect();
    let &last = own.last()?;
    let prompt = idemlab_lab::tf!(
        "The API claims each key under a unique constraint, in the same transaction as the ledger row, and keeps keys in a durable store. It crashes after the payment service has charged order {0} and before that transaction commits; the client retries. How many times does the payment service charge order {0}?",
        order
    );
    let explanation = idemlab_lab::tf!(
        "{}; the last at {} (the cursor). The crash rolled back the ledger row and the key's claim, but not the payment service's charge, which is outside the transaction: the retry found no key and charged again. The claim protects the ledger's boundary, not the payment service.",
        plural(own.len() as u32, idemlab_lab::t!("{} time"), idemlab_lab::t!("{} times")),
        ms_tenths(trace.events[last].time_us),
    );
    let mut question = number_question(
        Kind::ChargesAfterCrash,
        encode(&scenario),
        prompt,
        own.len() as u32,
    );
    question.order = Some(order);
    Some(prove(question, &trace, last, explanation))
}

/// The charge calls the API sent for `order`: (event index), in order of time.
fn calls_of(trace: &Trace, order: u32) -> Vec<usize> {
    (trace.events.iter().enumerate())
        .filter(|(_, e)| {
            e.order() == Some(order)
                && matches!(
                    e.kind,
                    EventKind::Send {
                        payload: Payload::Charge { .. },
                        ..
                    }
                )
        })
        .map(|(ix, _)| ix)
        .collect()
}

fn calls_after_500(dice: &mut Pcg32) -> Option<Question> {
    let stripe = dice.random_range(0..2u32) == 0;
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=3u32);
    let fail_tenths = dice.random_range(3..=6u32);
    let retries = dice.random_range(2..=4u32);
    let base = format!("seed={seed}&orders={orders}&dedup=atomic&provider=keyed&provider_fail=0.{fail_tenths}&retries={retries}&backoff_ms=30");
    let query = format!("{base}&replay={}", if stripe { "all" } else { "final" });
    let (scenario, trace, _) = run(&query);
    let order = (1..=orders).find(|&o| failed_first(&trace, o))?;
    let (fails, charged) = provider_answers(&base, order);
    let calls = calls_of(&trace, order);
    let expected = if stripe {
        1
    } else {
        fails + u32::from(charged)
    };
    // Well-posed only when nothing but the 500s decides the count (no timeout, no lost message).
    let timeouts = trace.events.iter().any(|e| e.kind == EventKind::Timeout);
    if calls.len() as u32 != expected || timeouts || fails == 0 || (!charged && fails <= retries) {
        return None;
    }
    let prompt = calls_after_500_prompt(order, fails, charged, retries, stripe);
    let &last = calls.last()?;
    let explanation =
        calls_after_500_explanation(&trace, last, calls.len(), order, charged, stripe);
    let mut question = number_question(
        Kind::CallsAfter500,
        encode(&scenario),
        prompt,
        calls.len() as u32,
    );
    question.order = Some(order);
    Some(prove(question, &trace, last, explanation))
}

/// Whether order `o`'s first attempt got a 500 from the payment service.
fn failed_first(trace: &Trace, o: u32) -> bool {
    trace.events.iter().any(|e| {
        e.order() == Some(o)
            && e.attempt() == Some(1)
            && matches!(e.kind, EventKind::ChargeFailed { status: 500 })
    })
}

/// How the payment service answers `order`'s calls in the run of `base` (a query without
/// `replay=`): how many 500s, and whether a call charged.
fn provider_answers(base: &str, order: u32) -> (u32, bool) {
    // Read from the run that calls it every time (OASIS's rule): its failures are drawn per
    // attempt, so they are the same here.
    let (_, every, _) = run(&format!("{base}&replay=final"));
    let of_order = |e: &&Event| e.order() == Some(order);
    let fails = (every.events.iter().filter(of_order))
        .filter(|e| matches!(e.kind, EventKind::ChargeFailed { status: 500 }))
        .count() as u32;
    let charged = (every.events.iter().filter(of_order))
        .any(|e| matches!(e.kind, EventKind::Charge { replay: false, .. }));
    (fails, charged)
}

/// `calls_after_500`'s prompt: how the payment service answers `order`, the client's retries,
/// and the API's rule for a stored 500 (Stripe's when `stripe`, else OASIS's).
fn calls_after_500_prompt(
    order: u32,
    fails: u32,
    charged: bool,
    retries: u32,
    stripe: bool,
) -> String {
    let answers = if charged && fails == 1 {
        idemlab_lab::t!("fails its first call with 500 and charges on the second").into()
    } else if charged {
        idemlab_lab::tf!(
            "fails its first {} calls with 500 and charges on the next",
            fails
        )
    } else {
        idemlab_lab::t!("fails every call with 500").into()
    };
    let rule = if stripe {
        idemlab_lab::t!("stores each result under the key once the call is made and replays it to a repeat, 500s included")
    } else {
        idemlab_lab::t!("replays a stored 2xx or 4xx to a repeat but runs the request again after a 5xx, storing nothing")
    };
    idemlab_lab::tf!(
        "The API claims each key atomically and forwards it to a payment service that honours it. A 500 from the payment service charges nothing. In this run, whenever it is called for order {0}, it {1}. The client retries a 500 up to {2} times. The API {3}. How many charge calls does the payment service get for order {0}?",
        order,
        answers,
        retries,
        rule,
    )
}

/// `calls_after_500`'s explanation: how many `calls` there were, where the last (event
/// `last`) is, and why it is the last.
fn calls_after_500_explanation(
    trace: &Trace,
    last: usize,
    calls: usize,
    order: u32,
    charged: bool,
    stripe: bool,
) -> String {
    if stripe {
        idemlab_lab::tf!(
            "1: the call at {} (the cursor) failed, the API stored its 500 under the key, and every retry got that 500 back without a call (Stripe v1's rule): order {} ends without a charge{}.",
            ms_tenths(trace.events[last].time_us),
            order,
            if charged {
                idemlab_lab::t!(", though the payment service would have charged a later call")
            } else {
                ""
            },
        )
    } else {
        idemlab_lab::tf!(
            "{}: a 5xx is not stored, so each retry ran again (OASIS's rule), until {}; the last call is at {} (the cursor).",
            calls,
            if charged {
                idemlab_lab::t!("a call charged")
            } else {
                idemlab_lab::t!("the retries ran out")
            },
            ms_tenths(trace.events[last].time_us),
        )
    }
}

fn lease_length(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=3u32);
    let short_ms = dice.random_range(2..=6u32) * 10;
    let long_ms = dice.random_range(4..=6u32) * 100;
    let query = format!("seed={seed}&orders={orders}&dedup=atomic&handler=phased&provider_ms=150..250&timeout_ms=100&retries=6&backoff_ms=30&crash=api@after-commit&lease_ms={short_ms}");
    let which = Which {
        kind: Kind::LeaseLength,
        query,
        prompt: idemlab_lab::tf!("The API commits each claim as in progress, then calls a payment service that ignores keys and takes 150 to 250 ms to charge. The client gives up after 100 ms and retries up to 6 times, after a backoff of 30 ms, doubling each time, plus a random extra of up to half the delay. The API crashes once, right after committing a claim. A claim may be taken over once its lease has run out; in this run each claim's lease is {} ms. Before any run is shown: which lease ends this run with 0 duplicates, 0 lost and every order answered ok?", short_ms),
        choices: vec![
            (format!("lease_ms={long_ms}"), idemlab_lab::tf!("a lease of {} ms", long_ms)),
            ("lease_ms=none".into(), idemlab_lab::t!("no lease: the claim holds until the key expires").into()),
            (format!("lease_ms={}", short_ms / 2), idemlab_lab::tf!("a lease of {} ms", short_ms / 2)),
        ],
        why: idemlab_lab::t!("A lease must outlast one copy's work, or a retry takes the claim from a copy still waiting on the payment service and charges again; and it must run out within the client's retries, or a crashed copy's claim answers 409 until the key expires."),
        finish: true,
    };
    pose_which(which, dice)
}

fn fix_for_lost_answer(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=4u32);
    let loss_tenths = dice.random_range(2..=4u32);
    let query =
        format!("seed={seed}&orders={orders}&dedup=atomic&loss_provider=0.{loss_tenths}&retries=5");
    let which = Which {
        kind: Kind::FixForLostAnswer,
        query,
        prompt: idemlab_lab::t!("The API claims keys atomically; the network between it and the payment service (which does not deduplicate by key, but records each charge's key so that it can be searched) loses some messages. When no answer comes, the API gives the call up, answers 504 and rolls back, and the client retries. Before any run is shown: which one change ends this run with 0 duplicates and 0 lost orders?").into(),
        choices: vec![
            ("lookup=on".into(), idemlab_lab::t!("look the charge up by key before calling").into()),
            ("reconcile_ms=3600000".into(), idemlab_lab::t!("a job an hour later that refunds each extra charge").into()),
            ("retries=8".into(), idemlab_lab::t!("have the client retry up to 8 times, not 5").into()),
        ],
        why: idemlab_lab::t!("The charge was made and only its answer was lost, so the retry charged again. Asking the payment service for a charge under the key before calling finds the first charge and records it. A refund repairs the duplicate after it happened; it does not prevent it."),
        finish: false,
    };
    pose_which(which, dice)
}

fn duplicates_after_reconcile(dice: &mut Pcg32) -> Option<Question> {
    let seed = scenario_seed(dice);
    let orders = dice.random_range(2..=4u32);
    let loss_tenths = dice.random_range(2..=4u32);
    let query = format!("seed={seed}&orders={orders}&dedup=atomic&loss_provider=0.{loss_tenths}&retries=5&reconcile_ms=3600000");
    let (scenario, trace, metrics) = run(&query);
    let (ix, _, _) = first_repeat_charge(&trace)?;
    // The prompt states the lost answers and requests (read from the run), so the count follows
    // from reasoning: each lost answer to a charge sends a retry that charges again.
    let answers_lost = lost_on_network(&trace, |payload, _| {
        matches!(payload, Payload::Charged { .. })
    });
    let calls_lost = lost_on_network(&trace, |payload, _| {
        matches!(payload, Payload::Charge { .. })
    });
    let well_posed = metrics.duplicates == answers_lost
        && metrics.refunds == metrics.duplicates
        && metrics.outcomes.ok == orders;
    if !well_posed {
        return None;
    }
    let prompt = idemlab_lab::tf!(
        "{} orders, with keys claimed atomically; the payment service ignores keys. When no answer comes from it, the API gives the call up, answers 504 and rolls back, and the client retries. In this run {} on the way back from the payment service (after the charge was made) and {} on the way to it. An hour later a reconciliation job records each charge the ledger lacks and refunds each charge after an order's first. How many duplicates does the run count?",
        orders,
        plural(answers_lost, idemlab_lab::t!("{} answer is lost"), idemlab_lab::t!("{} answers are lost")),
        plural(calls_lost, idemlab_lab::t!("{} call is lost"), idemlab_lab::t!("{} calls are lost")),
    );
    let explanation = idemlab_lab::tf!(
        "{}: each lost answer left a charge the API never heard of, and the retry charged again; the first repeat is at {} (the cursor). The job refunds {} later, but a duplicate counts what happened: the card was charged twice until then.",
        plural(metrics.duplicates, idemlab_lab::t!("{} duplicate"), idemlab_lab::t!("{} duplicates")),
        ms_tenths(trace.events[ix].time_us),
        plural(metrics.refunds, idemlab_lab::t!("{} charge"), idemlab_lab::t!("{} charges")),
    );
    let question = number_question(
        Kind::DuplicatesAfterReconcile,
        encode(&scenario),
        prompt,
        metrics.duplicates,
    );
    Some(prove(question, &trace, ix, explanation))
}
