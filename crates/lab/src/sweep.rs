//! Sweeps: many seeds of one scenario folded into totals, and the closed form they can be
//! checked against. Used by the CLI's `sweep`, the page's sweep panel and the tests.

use serde::Serialize;

use crate::Metrics;
use idemlab_core::scenario::{Dedup, KeyStrategy, Lookup, Op, Provider, Scenario, PPM_ONE};

/// Totals over a sweep. Means are computed at the end, so adding runs stays exact.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Sweep {
    pub runs: u64,
    pub orders_total: u64,
    pub effects_total: u64,
    #[serde(skip)]
    pub effects_sq_total: u64,
    pub duplicates_total: u64,
    pub runs_with_duplicates: u64,
    pub lost_total: u64,
    pub unrecorded_total: u64,
    pub races_total: u64,
    pub events_total: u64,
    pub runs_truncated: u64,
    /// Duplicates in one run → how many runs had that many.
    pub duplicates_histogram: Histogram,
}

/// Runs by how many duplicates each had, in ascending order of duplicates; printed as a JSON
/// object (`{"0": 90, "2": 10}`). A sorted vector: a sweep sees a few dozen distinct counts,
/// and a `BTreeMap` instance costs kilobytes of the page's wasm.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Histogram(Vec<(u32, u64)>);

impl Histogram {
    /// Counts `runs` more runs with `duplicates` duplicates.
    pub fn add(&mut self, duplicates: u32, runs: u64) {
        match self.0.binary_search_by_key(&duplicates, |&(d, _)| d) {
            Ok(at) => self.0[at].1 += runs,
            Err(at) => self.0.insert(at, (duplicates, runs)),
        }
    }

    /// (duplicates, runs) pairs, fewest duplicates first.
    pub fn bars(&self) -> &[(u32, u64)] {
        &self.0
    }
}

impl Serialize for Histogram {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(d, runs)| (d, runs)))
    }
}

/// What a sweep prints: the totals plus the mean and standard error of effects per order.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    pub scenario: String,
    pub seeds: String,
    #[serde(flatten)]
    pub sweep: Sweep,
    pub effects_mean_per_order: f64,
    pub effects_stderr: f64,
    /// The closed-form expectation, when the scenario is one the formula describes and no run
    /// was truncated.
    pub effects_expected_per_order: Option<f64>,
}

impl Sweep {
    pub fn add(&mut self, m: &Metrics) {
        self.runs += 1;
        self.orders_total += u64::from(m.orders);
        self.effects_total += u64::from(m.effects);
        self.effects_sq_total += m.effects_sq_sum;
        self.duplicates_total += u64::from(m.duplicates);
        self.runs_with_duplicates += u64::from(m.duplicates > 0);
        self.lost_total += u64::from(m.lost);
        self.unrecorded_total += u64::from(m.unrecorded);
        self.races_total += u64::from(m.races);
        self.events_total += u64::from(m.events);
        self.runs_truncated += u64::from(m.truncated);
        self.duplicates_histogram.add(m.duplicates, 1);
    }

    /// Adds another sweep's totals: every field is an integer sum or count, so merging parts
    /// in any order gives the totals of one sweep over all their seeds.
    pub fn merge(&mut self, other: &Sweep) {
        self.runs += other.runs;
        self.orders_total += other.orders_total;
        self.effects_total += other.effects_total;
        self.effects_sq_total += other.effects_sq_total;
        self.duplicates_total += other.duplicates_total;
        self.runs_with_duplicates += other.runs_with_duplicates;
        self.lost_total += other.lost_total;
        self.unrecorded_total += other.unrecorded_total;
        self.races_total += other.races_total;
        self.events_total += other.events_total;
        self.runs_truncated += other.runs_truncated;
        for &(duplicates, runs) in other.duplicates_histogram.bars() {
            self.duplicates_histogram.add(duplicates, runs);
        }
    }

    /// Mean effects per order over every order of every run.
    pub fn effects_mean_per_order(&self) -> f64 {
        if self.orders_total == 0 {
            return 0.0;
        }
        self.effects_total as f64 / self.orders_total as f64
    }

    /// The standard error of that mean, treating orders as independent samples.
    pub fn effects_stderr(&self) -> f64 {
        let n = self.orders_total as f64;
        if n < 2.0 {
            return 0.0;
        }
        let mean = self.effects_mean_per_order();
        let variance = (self.effects_sq_total as f64 / n - mean * mean).max(0.0) * n / (n - 1.0);
        (variance / n).sqrt()
    }

    pub fn summary(&self, scenario: &Scenario, seeds: &str) -> Summary {
        Summary {
            scenario: idemlab_core::scenario::encode(scenario),
            seeds: seeds.to_string(),
            sweep: self.clone(),
            effects_mean_per_order: self.effects_mean_per_order(),
            effects_stderr: self.effects_stderr(),
            effects_expected_per_order: closed_form_of(scenario, self).ok(),
        }
    }
}

/// Sweeps stop at this many seeds so that a typo cannot start a week-long run.
pub const SEEDS_MAX: u64 = 100_000_000;

/// A range of seeds as the CLI writes it: `A..B` (B excluded) or `A..=B` (B included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeedRange {
    pub first: u64,
    /// At least 1 and at most `SEEDS_MAX`.
    pub count: u64,
}

impl SeedRange {
    /// Parses `A..B` or `A..=B`. An empty range is an error that says which ranges are allowed,
    /// and `A..=B` reaches the largest seed.
    pub fn parse(text: &str) -> Result<SeedRange, String> {
        let form = "write A..B (B excluded) or A..=B (B included) with whole numbers 0..=18446744073709551615";
        let (a, b, inclusive) = match text.split_once("..=") {
            Some((a, b)) => (a, b, true),
            None => match text.split_once("..") {
                Some((a, b)) => (a, b, false),
                None => return Err(format!("not a range: {form}")),
            },
        };
        let number = |part: &str| {
            (part.trim().parse::<u64>()).map_err(|_| format!("{part:?} is not a seed: {form}"))
        };
        let (first, last) = (number(a)?, number(b)?);
        let empty = if inclusive {
            last < first
        } else {
            last <= first
        };
        if empty {
            let rule = if inclusive { "B >= A" } else { "B > A" };
            return Err(format!(
                "the range is empty: {} needs {rule} (A..B excludes B, A..=B includes it)",
                if inclusive { "A..=B" } else { "A..B" }
            ));
        }
        // At most 2^64 seeds, which `u128` holds; the cap keeps the count in u64.
        let count = u128::from(last) - u128::from(first) + u128::from(inclusive);
        if count > u128::from(SEEDS_MAX) {
            return Err(format!("{count} seeds: a sweep runs at most {SEEDS_MAX}"));
        }
        let count = u64::try_from(count).expect("at most SEEDS_MAX");
        Ok(SeedRange { first, count })
    }

    /// The last seed of the range.
    pub fn last(&self) -> u64 {
        self.first + (self.count - 1)
    }
}

impl std::fmt::Display for SeedRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}..={}", self.first, self.last())
    }
}

/// Runs `count` seeds of `scenario` from `first` and folds them. Seeds end at `u64::MAX`: a
/// range that would pass it stops there, and `runs` says how many ran.
pub fn sweep(scenario: &Scenario, first: u64, count: u64) -> Sweep {
    let mut totals = Sweep::default();
    let mut s = scenario.clone();
    if count == 0 {
        return totals;
    }
    for seed in first..=first.saturating_add(count - 1) {
        s.seed = seed;
        let trace = idemlab_core::sim::run(&s);
        totals.add(&Metrics::of(&trace));
    }
    totals
}

/// Why the closed form does not describe a sweep: the first of its conditions that fails, in
/// the order `fit` checks them. The formula assumes that each attempt is lost on the way out
/// with q or on the way back with r, by chance alone; that every attempt that arrives charges
/// once; and that an answer ends the order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unfit {
    /// `dedup` is on: the API turns repeats away.
    Dedup,
    /// `op=set`: the formula counts charges.
    Set,
    /// `provider=keyed` with a key that repeats across attempts: the provider turns repeats away.
    KeyedProvider,
    /// `lookup=on` with a key: a retry can find the charge it made and make none.
    Lookup,
    /// `loss_provider`: a charge can be made and its answer lost, or a call lost.
    ProviderLoss,
    /// `provider_fail`: a call can charge nothing and answer 500.
    ProviderFail,
    /// `decline`: a call can charge nothing and end the order.
    Decline,
    /// `crash`: the API can charge and never answer.
    Crash,
    /// `restart_db_ms`: an open transaction aborts with 503 after its charge.
    RestartDb,
    /// `replace_db_ms`: the same, for a ledger pod's replacement.
    ReplaceDb,
    /// `rerun_ms`: the orders are sent again.
    Rerun,
    /// `partition`: answers are lost by time, not by chance.
    Partition,
    /// `drop`: messages chosen by hand are lost.
    Drop,
    /// `timeout_ms` at or below the worst round trip: a timeout can fire before the answer.
    Timeout,
    /// A run reached `events_max`: its last orders never finished.
    Truncated,
}

impl Unfit {
    /// The reason as one short clause, in the page's language.
    pub fn why(self) -> &'static str {
        match self {
            Unfit::Dedup => crate::t!("the API deduplicates"),
            Unfit::Set => crate::t!("it counts charges, not writes"),
            Unfit::KeyedProvider => crate::t!("the payment service deduplicates by key"),
            Unfit::Lookup => crate::t!("result lookup finds earlier charges"),
            Unfit::ProviderLoss => crate::t!("the payment service's hop loses messages"),
            Unfit::ProviderFail => crate::t!("the payment service fails some calls"),
            Unfit::Decline => crate::t!("the payment service declines some calls"),
            Unfit::Crash => crate::t!("the API crashes"),
            Unfit::RestartDb => crate::t!("the ledger restarts"),
            Unfit::ReplaceDb => crate::t!("the ledger pod is replaced"),
            Unfit::Rerun => crate::t!("the job is rerun"),
            Unfit::Partition => crate::t!("a partition drops answers"),
            Unfit::Drop => crate::t!("messages are dropped by hand"),
            Unfit::Timeout => crate::t!("the timeout can fire before an answer comes"),
            Unfit::Truncated => crate::t!("some runs reached the event cap"),
        }
    }
}

/// The first condition of the closed form that `s` breaks, if any. A run's truncation is not
/// known from its scenario: `closed_form_of` adds it.
pub fn unfit(s: &Scenario) -> Option<Unfit> {
    // A provider deduplicates only a key that a later attempt sends again: a key per attempt
    // never repeats.
    let repeating_key = !matches!(s.key, KeyStrategy::None | KeyStrategy::Attempt);
    let conditions = [
        (s.dedup != Dedup::None, Unfit::Dedup),
        (s.op != Op::Charge, Unfit::Set),
        (
            s.provider == Provider::Keyed && repeating_key,
            Unfit::KeyedProvider,
        ),
        (
            s.lookup == Lookup::On && s.key != KeyStrategy::None,
            Unfit::Lookup,
        ),
        (s.loss_provider > 0, Unfit::ProviderLoss),
        (s.provider_fail > 0, Unfit::ProviderFail),
        (s.decline > 0, Unfit::Decline),
        (s.crash.is_some(), Unfit::Crash),
        (s.restart_db_ms.is_some(), Unfit::RestartDb),
        (s.replace_db_ms.is_some(), Unfit::ReplaceDb),
        (s.rerun_ms.is_some(), Unfit::Rerun),
        (s.partition.is_some(), Unfit::Partition),
        (!s.drop.is_empty(), Unfit::Drop),
        (
            u64::from(s.timeout_ms) <= s.worst_round_trip_ms(),
            Unfit::Timeout,
        ),
    ];
    conditions
        .into_iter()
        .find_map(|(breaks, why)| breaks.then_some(why))
}

/// Expected effects per order for a client that retries until it hears back, when nothing but
/// loss can go wrong: (1−q)(1−(1−s)^(R+1))/s with s = (1−q)(1−r). `None` when the scenario has
/// anything the formula leaves out (`unfit`).
pub fn closed_form(s: &Scenario) -> Option<f64> {
    match unfit(s) {
        Some(_) => None,
        None => Some(formula(s)),
    }
}

/// The closed form for a sweep of `s`, or why it does not apply: a sweep with a truncated run
/// counts orders that never finished, so it is refused too.
pub fn closed_form_of(s: &Scenario, totals: &Sweep) -> Result<f64, Unfit> {
    if let Some(why) = unfit(s) {
        return Err(why);
    }
    if totals.runs_truncated > 0 {
        return Err(Unfit::Truncated);
    }
    Ok(formula(s))
}

/// The formula's value for `s`'s loss and retries, whether or not the rest of `s` fits it.
fn formula(s: &Scenario) -> f64 {
    let q = f64::from(s.loss_req) / f64::from(PPM_ONE);
    let r = f64::from(s.loss_resp) / f64::from(PPM_ONE);
    let success = (1.0 - q) * (1.0 - r);
    let tries = s.retries as i32 + 1;
    if success == 0.0 {
        // Every attempt is lost one way or the other; each reaches the server with 1−q.
        return (1.0 - q) * f64::from(tries);
    }
    (1.0 - q) * (1.0 - (1.0 - success).powi(tries)) / success
}
