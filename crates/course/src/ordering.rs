//! The ordering exercise: judge an order of the six handler steps by running it through a fixed
//! sweep of faults, and say in one line what broke. Pure: the page's Lessons tab and
//! `tests/ordering.rs` call the same `judge`.
//!
//! "Safe" means: over every probe and seed, 0 duplicates, 0 lost orders, 0 charges missing from
//! the ledger, and every order ends ok. The payment service is `provider=plain`, so the handler's
//! order is the only defence (a keyed provider hides many mistakes). A crash between the charge
//! and the commit duplicates under every order, the correct one included: that is the boundary
//! Lesson B teaches, so no probe puts a crash there in the correct order (no `after-effect`, no
//! crash or ledger replacement at a fixed time, which can land mid-charge on some seed).
//!
//! The claim holds a lease (`BASE`'s `lease_ms`), as the production design's committed claim does
//! (Lesson C): an order that commits its claim before the transaction (a phased handler's shape)
//! is judged like any other, not failed for a claim this model would otherwise hold until expiry.

use idemlab_core::scenario::{codec, decode, encode, Scenario, Step};
use idemlab_lab::Metrics;

/// What every probe shares: three charge orders with the atomic handler, keys made from the
/// business ids, a durable store, and enough retries to outlast any one fault. The lease matters
/// only to a claim committed on its own: 300 ms outlasts the handler's work (so no live copy loses
/// its claim) and is well inside the retries (so a retry after a crash takes the claim over).
pub const BASE: &str = "dedup=atomic&provider=plain&store=durable&key=business&orders=3&retries=6&backoff_ms=30&timeout_ms=200&lease_ms=300";

/// `BASE`'s lease, as the verdict states it.
pub const LEASE_MS: u32 = 300;

/// One situation an order must survive: keys laid over `BASE`.
#[derive(Debug, PartialEq, Eq)]
pub struct Probe {
    /// Shown to the learner: "answers lost", "two copies at once". Data: translated where it is
    /// shown (`idemlab_lab::i18n::tr`).
    pub name: &'static str,
    pub keys: &'static str,
}

/// The sweep, simplest first, so the failure reported is the plainest one that shows the
/// mistake. Each catches some wrong orders (`tests/ordering.rs` checks that none is dead weight).
pub static PROBES: [Probe; 10] = [
    // A good day: catches orders broken with no fault at all (a commit before the transaction
    // begins leaves the charge's ledger row to be rolled back).
    Probe {
        name: "no fault",
        keys: "",
    },
    // Every answer in the first 300 ms is cut on the way back, so the client retries orders the
    // server finished: the retry must find the key before it charges.
    Probe {
        name: "answers lost",
        keys: "partition=0..300",
    },
    // The client gives up after 45 ms while the first copy is still charging, so two copies of
    // one key run at once: only a claim before the charge makes the second wait.
    Probe {
        name: "two copies at once",
        keys: "timeout_ms=45&backoff_ms=5&latency_ms=5..15",
    },
    // An operator reruns the job 20 ms in: a second pod sends the same orders (same business
    // keys) while the first is still at work.
    Probe {
        name: "a rerun while the first run works",
        keys: "rerun_ms=20",
    },
    // A crash after each step except the charge (see the module doc). Where the step sits in the
    // order decides what the crash interrupts: a claim committed outside the transaction waits
    // for its lease to run out, an answer sent before the commit is rolled back under the client.
    Probe {
        name: "a crash after begin",
        keys: "crash=api@after-begin",
    },
    Probe {
        name: "a crash after lookup",
        keys: "crash=api@after-lookup",
    },
    Probe {
        name: "a crash after claim",
        keys: "crash=api@after-claim",
    },
    Probe {
        name: "a crash after commit",
        keys: "crash=api@after-commit",
    },
    Probe {
        name: "a crash after respond",
        keys: "crash=api@after-respond",
    },
    // The same crash, then the job run again once any lease has run out: a key the crash left in
    // progress is taken over and its work done again, which the client's own retries never show
    // (it already had its answer).
    Probe {
        name: "a crash after respond, then a rerun",
        keys: "crash=api@after-respond&rerun_ms=600",
    },
];

/// What a "Safe" verdict checked and what it leaves out, said with every safe verdict: seeded runs
/// are evidence, not a proof, and the probes never crash between the charge and the commit (see
/// the module doc), so "safe" is about the ledger's boundary only, never the payment service's.
/// Translated where it is shown (`safe_text`).
pub const BOUNDARY: &str = "Evidence, not a proof, and for the ledger's boundary only: a crash \
between the charge and the commit still charges twice unless the payment service honours the key \
(Lesson B, step 6).";

/// The sentence a safe verdict shows: what every run held, and the boundary it was checked on;
/// for an order that commits its claim before the transaction, what that claim relied on.
pub fn safe_text(order: [Step; 6], runs: u32) -> String {
    let lease = if before(&order, Step::Claim, Step::Begin) {
        // A sentence of its own, after a space.
        let sentence = idemlab_lab::tf!(
            "Your claim commits before the transaction, as a phased handler's does: it held \
             because its {} ms lease let a retry after a crash take it over; without a \
             lease it stays in progress until the key expires.",
            LEASE_MS
        );
        format!(" {sentence}")
    } else {
        String::new()
    };
    let safe = idemlab_lab::tf!(
        "Safe in all {} runs ({} seeds × {} situations): no duplicate, lost order or charge \
         the ledger never recorded, and every order ended ok.",
        runs,
        SEEDS_PAGE,
        PROBES.len()
    );
    format!("{safe} {}{lease}", idemlab_lab::i18n::tr(BOUNDARY))
}

/// Seeds the page judges an order over. 10 probes × 200 seeds = 2,000 runs for a safe order (a
/// failing one stops at its first failure): measured at 4.4 ms natively (release) and 25 to
/// 35 ms in the page's wasm build (headless Chromium), well inside the 200 ms budget.
pub const SEEDS_PAGE: u64 = 200;

/// What an order did wrong in one run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub duplicates: u32,
    pub lost: u32,
    /// Charges with no committed ledger row.
    pub unrecorded: u32,
    /// Orders that never ended ok: the client gave up (often on 409s from a key left in progress).
    pub stuck: u32,
}

impl Counts {
    pub fn of(m: &Metrics) -> Counts {
        Counts {
            duplicates: m.duplicates,
            lost: m.lost,
            unrecorded: m.unrecorded,
            stuck: m.orders.saturating_sub(m.outcomes.ok),
        }
    }

    pub fn clean(&self) -> bool {
        *self == Counts::default()
    }
}

/// The first probe and seed where an order went wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub probe: &'static Probe,
    /// The run in the codec's canonical form, seed and order included: paste it anywhere.
    pub query: String,
    pub counts: Counts,
    /// One line: what the order did wrong and what it cost here.
    pub why: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Clean over every probe and seed; `runs` is how many runs that was.
    Safe {
        runs: u32,
    },
    Fails(Box<Failure>),
}

impl Verdict {
    pub fn is_safe(&self) -> bool {
        matches!(self, Verdict::Safe { .. })
    }
}

/// The probe's scenario with `order` and `seed`, built through the codec like any other query.
pub fn probe_scenario(probe: &Probe, order: [Step; 6], seed: u64) -> Scenario {
    let mut scenario = decode(BASE)
        .unwrap_or_else(|_| panic!("BASE is a valid query"))
        .scenario;
    for pair in probe.keys.split('&').filter(|pair| !pair.is_empty()) {
        let (key, value) = pair.split_once('=').expect("probe keys are key=value");
        codec::set_key(&mut scenario, key, value)
            .unwrap_or_else(|_| panic!("probe keys are valid"));
    }
    scenario.order = order;
    scenario.seed = seed;
    scenario
}

/// Runs `order` through every probe over seeds `0..seeds`, stopping at the first failure.
pub fn judge(order: [Step; 6], seeds: u64) -> Verdict {
    judge_with(&PROBES, order, seeds)
}

/// `judge` over another list of probes, so a test can show what each probe contributes.
pub fn judge_with(probes: &'static [Probe], order: [Step; 6], seeds: u64) -> Verdict {
    let mut runs = 0u32;
    for probe in probes {
        let mut scenario = probe_scenario(probe, order, 0);
        for seed in 0..seeds {
            scenario.seed = seed;
            let counts = Counts::of(&idemlab_lab::run(&scenario).1);
            runs += 1;
            if !counts.clean() {
                return Verdict::Fails(Box::new(Failure {
                    probe,
                    query: encode(&scenario),
                    why: explain(order, probe, &counts),
                    counts,
                }));
            }
        }
    }
    Verdict::Safe { runs }
}

/// A rule a safe order keeps, with the harm breaking it can do.
pub struct Rule {
    pub broken: fn(&[Step; 6]) -> bool,
    /// What the order did, as the first half of the explanation. Data: translated where
    /// `explain` reads it.
    pub cause: &'static str,
    /// Which counts this mistake can produce, so an explanation never blames it for another.
    pub explains: fn(&Counts) -> bool,
}

fn pos(order: &[Step; 6], step: Step) -> usize {
    order
        .iter()
        .position(|&s| s == step)
        .expect("an order holds each step once")
}

fn before(order: &[Step; 6], a: Step, b: Step) -> bool {
    pos(order, a) < pos(order, b)
}

/// The rules, in the order an explanation prefers them. An order is safe exactly when it breaks
/// none (checked against the simulator over all 720 orders in `tests/ordering.rs`); `explains`
/// keeps an explanation from blaming a rule for harm it cannot cause. A claim committed before
/// the transaction breaks none by itself: its lease lets a retry take it over (`BASE`).
pub static RULES: [Rule; 6] = [
    Rule {
        broken: |o| before(o, Step::Effect, Step::Claim),
        cause: "the charge ran before the key was claimed",
        explains: |c| c.duplicates > 0,
    },
    Rule {
        broken: |o| before(o, Step::Respond, Step::Effect),
        cause: "the answer went out before the charge ran",
        explains: |c| c.lost > 0,
    },
    Rule {
        broken: |o| before(o, Step::Commit, Step::Effect),
        cause: "the key was stored as done and committed before the charge",
        explains: |c| c.lost > 0 || c.duplicates > 0,
    },
    Rule {
        broken: |o| before(o, Step::Begin, Step::Effect) && before(o, Step::Commit, Step::Begin),
        cause: "the commit came before the transaction began, so nothing committed the ledger row",
        explains: |c| c.unrecorded > 0 || c.lost > 0,
    },
    Rule {
        broken: |o| before(o, Step::Respond, Step::Commit),
        cause: "the answer went out before the commit, and the crash rolled back what it promised or left its key in progress for a later copy to take over",
        explains: |c| c.unrecorded > 0 || c.lost > 0 || c.duplicates > 0,
    },
    Rule {
        broken: |o| {
            [Step::Lookup, Step::Begin]
                .into_iter()
                .any(|x| before(o, Step::Effect, x) && before(o, x, Step::Commit))
        },
        cause: "a step sat between the charge and the commit, so the crash after it fell between the charge and the commit, the gap no step order closes with a plain payment service (that step is harmless without the crash)",
        explains: |c| c.duplicates > 0 || c.unrecorded > 0,
    },
];

/// The rules `order` breaks, in `RULES` order.
pub fn broken_rules(order: [Step; 6]) -> impl Iterator<Item = &'static Rule> {
    RULES.iter().filter(move |rule| (rule.broken)(&order))
}

/// "the charge ran before the key was claimed: with two copies at once, 1 duplicate charge".
pub fn explain(order: [Step; 6], probe: &Probe, counts: &Counts) -> String {
    let cause = broken_rules(order)
        .find(|rule| (rule.explains)(counts))
        .or_else(|| broken_rules(order).next())
        .map_or(idemlab_lab::t!("this order broke"), |rule| {
            idemlab_lab::i18n::tr(rule.cause)
        });
    idemlab_lab::tf!(
        "{}: with {}, {}",
        cause,
        idemlab_lab::i18n::tr(probe.name),
        harm(counts)
    )
}

/// The counts in words, worst first.
pub fn harm(counts: &Counts) -> String {
    let mut parts = Vec::new();
    // `one` and `many` are translated templates whose hole is the count.
    let plural = |n: u32, one: &str, many: &str| {
        idemlab_lab::i18n::fill(if n == 1 { one } else { many }, &[&n])
    };
    if counts.duplicates > 0 {
        parts.push(plural(
            counts.duplicates,
            idemlab_lab::t!("{} duplicate charge"),
            idemlab_lab::t!("{} duplicate charges"),
        ));
    }
    if counts.lost > 0 {
        parts.push(plural(
            counts.lost,
            idemlab_lab::t!("{} order told it worked but never charged"),
            idemlab_lab::t!("{} orders told they worked but never charged"),
        ));
    }
    if counts.unrecorded > 0 {
        parts.push(plural(
            counts.unrecorded,
            idemlab_lab::t!("{} charge missing from the ledger"),
            idemlab_lab::t!("{} charges missing from the ledger"),
        ));
    }
    if counts.stuck > 0 {
        parts.push(plural(
            counts.stuck,
            idemlab_lab::t!("{} order that never got its answer"),
            idemlab_lab::t!("{} orders that never got their answer"),
        ));
    }
    parts.join(", ")
}

/// What each step does, for the exercise's list.
pub fn describe(step: Step) -> &'static str {
    match step {
        Step::Begin => idemlab_lab::t!("Begin a database transaction."),
        Step::Lookup => {
            idemlab_lab::t!("Look the key up; if it is done, send back the stored answer and stop.")
        }
        Step::Claim => idemlab_lab::t!(
            "Insert the key as \"in progress\" (unique: in a transaction, a second copy waits here until the first commits)."
        ),
        Step::Effect => idemlab_lab::t!(
            "Charge the card at the payment service (no rollback undoes it), then write the ledger row (in the transaction, if one is open)."
        ),
        Step::Commit => idemlab_lab::t!("Store the answer under the key and commit."),
        Step::Respond => idemlab_lab::t!("Send the answer to the client."),
    }
}

/// Every order of the six steps (720), in lexicographic order of `Step::ALL` positions.
pub fn all_orders() -> Vec<[Step; 6]> {
    let mut orders = Vec::with_capacity(720);
    let mut current = Step::ALL;
    permute(&mut current, 0, &mut orders);
    orders
}

/// Appends every order of `current[k..]` after the fixed `current[..k]`, in lexicographic
/// order when `current[k..]` starts sorted: each candidate for place `k` is rotated in front
/// of the rest, which stays sorted (no sort afterwards, which would cost the page's wasm a
/// sort instance of its own).
fn permute(current: &mut [Step; 6], k: usize, out: &mut Vec<[Step; 6]>) {
    if k == current.len() {
        out.push(*current);
        return;
    }
    for i in k..current.len() {
        current[k..=i].rotate_right(1);
        permute(current, k + 1, out);
        current[k..=i].rotate_left(1);
    }
}

/// "begin, lookup, claim, effect, commit, respond": the order in the exercise's (and the
/// codec's) step names, as the check offers it, so its options and its runs' headers agree.
pub fn order_words(order: [Step; 6]) -> String {
    order.map(Step::name).join(", ")
}

/// `begin,lookup,claim,...`: the order as the codec writes it.
pub fn order_text(order: [Step; 6]) -> String {
    order.map(Step::name).join(",")
}
