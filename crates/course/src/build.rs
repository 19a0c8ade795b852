//! The source lesson's finale as a task the page checks: from a sandbox holding only the
//! client, the learner adds the API, the payment service and the database, a short timeout
//! with a retry and a one-way partition that loses answers; runs it and sees an order charged
//! twice; then makes the dedup store atomic and durable and reruns the same seed, which
//! charges each order once.
//!
//! The model's topology is fixed: adding a part shows it, it does not change the simulation.
//! The task's text says so. Pure: `stages` reads scenarios and counts, never the page.

use idemlab_core::scenario::codec::{self, KeySpec};
use idemlab_core::scenario::{Dedup, KeyStrategy, Scenario, Store};
use idemlab_lab::{t, tf};

/// A part the learner adds to the sandbox; the client is there from the start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part {
    Api,
    Payment,
    Database,
}

impl Part {
    pub const ALL: [Part; 3] = [Part::Api, Part::Payment, Part::Database];

    /// Its name in `parts=`.
    pub fn name(self) -> &'static str {
        match self {
            Part::Api => "api",
            Part::Payment => "payment",
            Part::Database => "db",
        }
    }

    pub fn from_name(name: &str) -> Option<Part> {
        Part::ALL.into_iter().find(|part| part.name() == name)
    }

    /// What the page calls it: "the payment service".
    pub fn label(self) -> &'static str {
        match self {
            Part::Api => t!("the API"),
            Part::Payment => t!("the payment service"),
            Part::Database => t!("the database"),
        }
    }

    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The parts added so far, the client aside.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Parts(u8);

impl Parts {
    pub const ALL: Parts = Parts(0b111);

    pub fn has(self, part: Part) -> bool {
        self.0 & part.bit() != 0
    }

    pub fn with(self, part: Part) -> Parts {
        Parts(self.0 | part.bit())
    }

    pub fn missing(self) -> impl Iterator<Item = Part> {
        Part::ALL.into_iter().filter(move |&part| !self.has(part))
    }

    /// The names added, in `Part::ALL`'s order.
    pub fn names(self) -> String {
        let names: Vec<_> = Part::ALL
            .into_iter()
            .filter(|&p| self.has(p))
            .map(Part::name)
            .collect();
        names.join(",")
    }

    /// The value of `build=`: the client, then the parts added.
    pub fn value(self) -> String {
        match self.names().as_str() {
            "" => "client".to_string(),
            names => format!("client,{names}"),
        }
    }

    /// Reads `value`'s form: the client, then any of the parts, each once.
    pub fn parse(value: &str) -> Option<Parts> {
        let mut names = value.split(',');
        if names.next() != Some("client") {
            return None;
        }
        names.try_fold(Parts::default(), |parts, name| {
            let part = Part::from_name(name).filter(|&part| !parts.has(part))?;
            Some(parts.with(part))
        })
    }
}

/// The sandbox the task starts from: one client that does not retry and waits a second, with
/// no faults, so each stage is the learner's own change.
pub const START: &str = "seed=1&orders=3&store=memory&timeout_ms=1000&retries=0";
/// A "short" timeout: at most this, so a retry comes well within the run. It is still above
/// the slowest round trip at the default latencies (148 ms), so what makes it expire is a
/// lost answer, as in the source lesson, unless the learner goes lower.
pub const SHORT_TIMEOUT_MS: u32 = 300;

/// What the task asks a learner to do: open it, add three parts, and set five keys, each in the
/// Controls drawer (open it, set the key, close it).
pub const INTERACTIONS: u32 = 1 + 3 + 5 * 3;
/// Its time in minutes by `pace`'s measure, which the page states on the button that opens it
/// (`tests/build.rs` keeps both true).
pub const MINUTES: u32 = 7;

/// A run the task looks at: its scenario and how many charges were duplicates.
#[derive(Clone, Copy, Debug)]
pub struct Ran<'a> {
    pub scenario: &'a Scenario,
    pub duplicates: u32,
}

/// One line of the task's checklist.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stage {
    /// "Add the API, the payment service and the database."
    pub task: &'static str,
    /// What is still missing, in a sentence; `None` once the stage is done.
    pub missing: Option<String>,
}

/// Whether `first` may stand as the run before the fix: every part added, a short timeout, a
/// retry and a partition, no atomic durable store yet, and a duplicate to fix.
pub fn is_first(parts: Parts, run: Ran) -> bool {
    parts == Parts::ALL
        && faults_missing(run.scenario).is_none()
        && store_missing(run.scenario).is_some()
        && run.duplicates > 0
}

/// The checklist for the parts added, the run that showed duplicates (if any yet) and the run
/// on screen.
pub fn stages(parts: Parts, first: Option<Ran>, now: Ran) -> [Stage; 5] {
    let base = first.unwrap_or(now);
    let built = parts == Parts::ALL;
    let faulty = built && faults_missing(base.scenario).is_none();
    [
        Stage {
            task: t!("Add the API, the payment service and the database."),
            missing: parts_missing(parts),
        },
        Stage {
            task: t!("Give the client a short timeout and a retry, and add a one-way partition that loses the answers."),
            missing: faults_missing(base.scenario),
        },
        Stage {
            task: t!("The run charges an order twice (the page reruns on every change)."),
            missing: match (first, faulty) {
                (Some(_), _) => None,
                (None, false) => Some(t!("First the parts and faults above.").into()),
                (None, true) => Some(t!("No order was charged twice: widen the partition so it covers an answer, or allow more retries.").into()),
            },
        },
        Stage {
            task: t!("Make the dedup store atomic and durable."),
            missing: match first {
                None => Some(needs_first()),
                Some(_) => store_missing(now.scenario),
            },
        },
        Stage {
            task: t!("With the same seed, each order is charged once."),
            missing: match first {
                None => Some(needs_first()),
                Some(first) => rerun_missing(first, now),
            },
        },
    ]
}

/// What the last two stages miss until a run has shown a duplicate.
fn needs_first() -> String {
    t!("First a run with a duplicate charge.").into()
}

fn parts_missing(parts: Parts) -> Option<String> {
    let missing: Vec<_> = parts.missing().map(Part::label).collect();
    (!missing.is_empty()).then(|| tf!("Still to add: {}.", missing.join(", ")))
}

fn faults_missing(scenario: &Scenario) -> Option<String> {
    if scenario.timeout_ms > SHORT_TIMEOUT_MS {
        return Some(tf!(
            "Set timeout_ms to {} or less (it is {}).",
            SHORT_TIMEOUT_MS,
            scenario.timeout_ms
        ));
    }
    if scenario.retries == 0 {
        return Some(t!("Set retries to 1 or more.").into());
    }
    if scenario.partition.is_none() {
        return Some(t!("Set partition to a window, say 0..400: the API's answers to the client are lost in it.").into());
    }
    None
}

fn store_missing(scenario: &Scenario) -> Option<String> {
    if scenario.dedup != Dedup::Atomic {
        return Some(t!("Set dedup to atomic: the claim on the key and the charge's record in one transaction.").into());
    }
    if scenario.store != Store::Durable {
        return Some(t!("Set store to durable: a key in memory or on the ledger pod is gone after a restart.").into());
    }
    if scenario.key != KeyStrategy::Business {
        return Some(
            t!("Set key to business: a key that is the same on every retry of the order.").into(),
        );
    }
    None
}

/// The keys a fix may change: the store's three. Everything else must be the first run's.
const FIX_KEYS: [&str; 3] = ["dedup", "store", "key"];

fn rerun_missing(first: Ran, now: Ran) -> Option<String> {
    if store_missing(now.scenario).is_some() {
        return Some(t!("Once the store is fixed, the same seed runs again.").into());
    }
    if let Some(spec) = changed(first.scenario, now.scenario).find(|s| !FIX_KEYS.contains(&s.name))
    {
        return Some(tf!(
            "Put {} back to {}, as in the run with the duplicate: only the store may change.",
            spec.name,
            spec.value(first.scenario)
        ));
    }
    (now.duplicates > 0).then(|| tf!("This run still charged {} times too many.", now.duplicates))
}

/// The keys whose values differ between two scenarios, in the codec's order.
fn changed<'k>(a: &'k Scenario, b: &'k Scenario) -> impl Iterator<Item = &'static KeySpec> + 'k {
    codec::keys()
        .iter()
        .filter(move |spec| spec.value(a) != spec.value(b))
}

/// The `compare=` keys that turn `first` into `now`: the fix, for the result's link.
pub fn fix_keys(first: &Scenario, now: &Scenario) -> String {
    let pairs: Vec<_> = changed(first, now)
        .map(|spec| format!("{}={}", spec.name, spec.value(now)))
        .collect();
    pairs.join("&")
}
