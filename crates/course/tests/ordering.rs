//! The ordering exercise: every one of the 720 orders of the six handler steps is run through
//! the sweep (`idemlab_course::ordering::PROBES`), and the orders that come through clean must be
//! exactly the list below, each with the reason it is safe. CI judges each order over 300 seeds
//! per probe; `TEST_MODE=long` over 30,000.

#[path = "../../lab/tests/common/mod.rs"]
mod common;

use common::{long_mode, scenario};
use idemlab_core::scenario::Step;
use idemlab_course::ordering::{
    all_orders, broken_rules, judge, judge_with, order_text, Counts, Probe, Verdict, PROBES,
};

fn seeds() -> u64 {
    if long_mode() {
        30_000
    } else {
        300
    }
}

/// The orders that survive the whole sweep, and why each is as good as the textbook order.
const SAFE: [(&str, &str); 5] = [
    (
        "begin,lookup,claim,effect,commit,respond",
        "the textbook order: claim inside the transaction, charge, store the answer and commit, then answer",
    ),
    (
        "lookup,begin,claim,effect,commit,respond",
        "the lookup only reads committed keys, and the claim reads the table again under its unique \
         index (a conflict answers from the stored row), so reading before the transaction begins \
         decides nothing the claim would not",
    ),
    (
        "begin,claim,lookup,effect,commit,respond",
        "after a successful claim the lookup can only find the handler's own uncommitted claim, \
         which it cannot see: it reads \"not found\" and goes on, so it is a no-op here",
    ),
    (
        "begin,claim,effect,commit,lookup,respond",
        "after the commit the lookup finds the handler's own row, which counts as not found; a \
         crash after it is a crash after the commit, which the durable key already survives",
    ),
    (
        "begin,claim,effect,commit,respond,lookup",
        "the same no-op lookup, after the answer has gone: nothing is left that it could change",
    ),
];

/// The orders that commit the claim on its own before the transaction (a phased handler's
/// shape) and survive the sweep because the claim holds a lease (`ordering::BASE`): a crash
/// leaves it in progress until the lease runs out, then a retry or a rerun takes it over and
/// charges once, since no probe crashes between the charge and the commit. Each charges, stores
/// the answer with nothing between, then answers; a stray begin after the commit opens a
/// transaction with nothing in it.
const SAFE_WITH_LEASE: [&str; 15] = [
    "lookup,claim,begin,effect,commit,respond",
    "lookup,claim,effect,commit,begin,respond",
    "lookup,claim,effect,commit,respond,begin",
    "claim,begin,lookup,effect,commit,respond",
    "claim,begin,effect,commit,lookup,respond",
    "claim,begin,effect,commit,respond,lookup",
    "claim,lookup,begin,effect,commit,respond",
    "claim,lookup,effect,commit,begin,respond",
    "claim,lookup,effect,commit,respond,begin",
    "claim,effect,commit,begin,lookup,respond",
    "claim,effect,commit,begin,respond,lookup",
    "claim,effect,commit,lookup,begin,respond",
    "claim,effect,commit,lookup,respond,begin",
    "claim,effect,commit,respond,begin,lookup",
    "claim,effect,commit,respond,lookup,begin",
];

fn listed_safe() -> Vec<[Step; 6]> {
    let mut orders: Vec<[Step; 6]> = SAFE.iter().map(|(o, _)| parse(o)).collect();
    orders.extend(SAFE_WITH_LEASE.iter().map(|o| parse(o)));
    orders
}

fn parse(order: &str) -> [Step; 6] {
    scenario(&format!("order={order}")).order
}

fn safe_orders(probes: &'static [Probe], seeds: u64) -> Vec<[Step; 6]> {
    all_orders()
        .into_iter()
        .filter(|&order| judge_with(probes, order, seeds).is_safe())
        .collect()
}

fn texts(orders: &[[Step; 6]]) -> Vec<String> {
    orders.iter().map(|&o| order_text(o)).collect()
}

#[test]
fn only_the_listed_orders_survive_the_sweep_of_all_720() {
    let orders = all_orders();
    assert_eq!(orders.len(), 720);
    // Lexicographic and each once: the quiz draws from this list by position.
    assert!(orders.windows(2).all(|pair| pair[0] < pair[1]));
    let mut safe = safe_orders(&PROBES, seeds());
    safe.sort();
    let mut expected = listed_safe();
    expected.sort();
    assert_eq!(texts(&safe), texts(&expected));
    assert!(expected.contains(&Step::CORRECT));
    // The page judges over fewer seeds; it must reach the same verdicts.
    let mut on_page = safe_orders(&PROBES, idemlab_course::ordering::SEEDS_PAGE);
    on_page.sort();
    assert_eq!(
        texts(&on_page),
        texts(&expected),
        "at the page's seed count"
    );
}

#[test]
fn an_order_is_safe_exactly_when_it_breaks_none_of_the_rules() {
    // The rules are what the page explains with; they must say the same as the simulator.
    for order in all_orders() {
        let safe = listed_safe().contains(&order);
        let broken: Vec<&str> = broken_rules(order).map(|r| r.cause).collect();
        assert_eq!(broken.is_empty(), safe, "{}: {broken:?}", order_text(order));
    }
}

fn failure(order: &str) -> Box<idemlab_course::ordering::Failure> {
    match judge(parse(order), seeds()) {
        Verdict::Fails(failure) => failure,
        Verdict::Safe { runs } => panic!("{order} came through {runs} runs clean"),
    }
}

#[test]
fn an_effect_before_the_claim_lets_two_copies_both_charge() {
    let failure = failure("begin,lookup,effect,claim,commit,respond");
    assert!(failure.counts.duplicates > 0, "{failure:?}");
    assert!(
        failure
            .why
            .starts_with("the charge ran before the key was claimed"),
        "{}",
        failure.why
    );
    // Not only when answers are lost: two copies in flight at once also both charge.
    let overlapping = &PROBES[2..3];
    assert_eq!(overlapping[0].name, "two copies at once");
    let Verdict::Fails(race) = judge_with(
        overlapping,
        parse("begin,lookup,effect,claim,commit,respond"),
        seeds(),
    ) else {
        panic!("the overlapping copies did not catch an effect before the claim");
    };
    assert!(race.counts.duplicates > 0, "{race:?}");
}

#[test]
fn answering_before_the_commit_loses_the_answer_when_a_crash_comes() {
    let failure = failure("begin,lookup,claim,effect,respond,commit");
    assert_eq!(failure.probe.name, "a crash after respond");
    // The client was told it worked; the crash rolled back the ledger row and the key.
    assert!(failure.counts.unrecorded > 0, "{failure:?}");
    assert!(
        failure
            .why
            .starts_with("the answer went out before the commit"),
        "{}",
        failure.why
    );
    // Without a crash the same order is clean: the harm is the crash landing in the gap.
    let mut s = scenario(&failure.query);
    s.crash = None;
    assert!(Counts::of(&idemlab_lab::run(&s).1).clean());
}

#[test]
fn a_failure_names_a_run_that_reproduces_it() {
    for (order, _) in [
        ("effect,begin,lookup,claim,commit,respond", ()),
        ("begin,lookup,claim,effect,respond,commit", ()),
    ] {
        let failure = failure(order);
        let counts = Counts::of(&idemlab_lab::run(&scenario(&failure.query)).1);
        assert_eq!(counts, failure.counts, "{}", failure.query);
        assert!(failure.query.contains("order="), "{}", failure.query);
        assert!(failure.query.contains("seed="), "{}", failure.query);
    }
}

#[test]
fn the_test_can_fail_each_probe_is_needed_and_a_near_miss_is_caught() {
    // Drop the crashes after respond (the last two probes) and answering before the commit
    // looks safe: the equality above would then fail, so it is not vacuous.
    let without_last = safe_orders(&PROBES[..PROBES.len() - 2], seeds().min(100));
    assert!(without_last.contains(&parse("begin,lookup,claim,effect,respond,commit")));
    assert!(without_last.len() > listed_safe().len());
    // No probe is dead weight: each, alone, catches some wrong order.
    for (i, probe) in PROBES.iter().enumerate() {
        let alone = std::slice::from_ref(probe);
        let caught = all_orders()
            .into_iter()
            .filter(|&o| !judge_with(alone, o, 20).is_safe())
            .count();
        assert!(caught > 0, "probe {i} ({}) catches nothing", probe.name);
    }
}

#[test]
fn a_claim_committed_before_the_transaction_is_safe_only_with_its_lease() {
    // Without the lease (issue 11 E4: this model's claim then holds until the key expires) a
    // crash leaves it in progress and every retry is answered 409: the order never gets its
    // answer. The verdict says what the claim relied on.
    let probes: Vec<Probe> = PROBES
        .iter()
        .map(|p| Probe {
            name: p.name,
            keys: Box::leak(format!("lease_ms=none&{}", p.keys).into_boxed_str()),
        })
        .collect();
    let probes: &'static [Probe] = Box::leak(probes.into_boxed_slice());
    for order in SAFE_WITH_LEASE {
        let Verdict::Fails(failure) = judge_with(probes, parse(order), seeds().min(100)) else {
            panic!("{order} came through without a lease");
        };
        assert!(failure.counts.stuck > 0, "{order}: {failure:?}");
        let text = idemlab_course::ordering::safe_text(parse(order), 2_000);
        assert!(text.contains("300 ms lease"), "{text}");
    }
    let text = idemlab_course::ordering::safe_text(Step::CORRECT, 2_000);
    assert!(!text.contains("lease"), "{text}");
}

#[test]
fn a_safe_order_runs_every_probe_over_the_page_seeds() {
    // The page's "safe across N runs" counts these runs.
    let runs = match judge(Step::CORRECT, idemlab_course::ordering::SEEDS_PAGE) {
        Verdict::Safe { runs } => runs,
        Verdict::Fails(failure) => panic!("{failure:?}"),
    };
    assert_eq!(
        u64::from(runs),
        PROBES.len() as u64 * idemlab_course::ordering::SEEDS_PAGE
    );
}
