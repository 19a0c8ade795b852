//! Sweeps: many seeds of one scenario folded into totals, and the closed form they can be
//! checked against. Used by the CLI's `sweep`, the page's sweep panel and the tests.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::scenario::{Dedup, KeyStrategy, Op, Provider, Scenario, PPM_ONE};
use crate::Metrics;

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
    pub duplicates_histogram: BTreeMap<u32, u64>,
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
    /// The closed-form expectation, when the scenario is one the formula describes.
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
        *self.duplicates_histogram.entry(m.duplicates).or_default() += 1;
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
            scenario: crate::scenario::encode(scenario),
            seeds: seeds.to_string(),
            sweep: self.clone(),
            effects_mean_per_order: self.effects_mean_per_order(),
            effects_stderr: self.effects_stderr(),
            effects_expected_per_order: closed_form(scenario),
        }
    }
}

/// Runs seeds `first..first + count` of `scenario` and folds them.
pub fn sweep(scenario: &Scenario, first: u64, count: u64) -> Sweep {
    let mut totals = Sweep::default();
    let mut s = scenario.clone();
    for seed in first..first.saturating_add(count) {
        s.seed = seed;
        let trace = crate::sim::run(&s);
        totals.add(&Metrics::of(&trace));
    }
    totals
}

/// Expected effects per order for a client that retries until it hears back, when nothing but
/// loss can go wrong: (1−q)(1−(1−s)^(R+1))/s with s = (1−q)(1−r). `None` when the scenario has
/// anything the formula leaves out (dedup, crashes, partitions, reruns, a timeout that can fire
/// before the response arrives, or a keyed provider that would deduplicate).
pub fn closed_form(s: &Scenario) -> Option<f64> {
    let keyed_provider = s.provider == Provider::Keyed && s.key != KeyStrategy::None;
    let plain = s.dedup == Dedup::None
        && s.op == Op::Charge
        && !keyed_provider
        && s.crash.is_none()
        && s.partition.is_none()
        && s.rerun_ms.is_none()
        && s.replace_db_ms.is_none()
        && u64::from(s.timeout_ms) > s.worst_round_trip_ms();
    if !plain {
        return None;
    }
    let q = f64::from(s.loss_req) / f64::from(PPM_ONE);
    let r = f64::from(s.loss_resp) / f64::from(PPM_ONE);
    let success = (1.0 - q) * (1.0 - r);
    let tries = s.retries as i32 + 1;
    if success == 0.0 {
        // Every attempt is lost one way or the other; each reaches the server with 1−q.
        return Some((1.0 - q) * f64::from(tries));
    }
    Some((1.0 - q) * (1.0 - (1.0 - success).powi(tries)) / success)
}
