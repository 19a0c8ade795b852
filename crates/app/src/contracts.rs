//! The contracts table on the page: the run in focus's scenario under no contract and under each
//! contract, over the sweep form's seeds, built a few runs per slice by
//! `idemlab_lab::contracts::TableJob` (the code behind `idemlab contracts`); a row loads as run A
//! or B.

use super::{sweep_range, Effects, State};
use idemlab_core::scenario::{codec, Contract, Scenario};
use idemlab_lab::contracts::{Row, TableJob, COLUMNS};
use idemlab_lab::{Metric, Side};

/// What the contracts table's buttons do.
#[derive(Clone, Debug, PartialEq)]
pub enum Msg {
    /// The table over the seed count typed in the sweep form (as typed).
    Start(String),
    /// Load a row of the table as run A or B.
    Load { row: usize, side: Side },
}

pub(super) fn update(state: &mut State, msg: Msg) -> Effects {
    match msg {
        Msg::Start(requested) => start(state, &requested),
        Msg::Load { row, side } => load(state, row, side),
    }
}

/// The table's count columns: `idemlab contracts`'s, in its order, but `effects`, its last.
/// Each is a `Row::count` name and a counter's (`index.html` heads each with the counter's
/// label and help), so that a row's duplicates are explained on the row: `sqs-fifo`'s include
/// its duplicate receipts.
pub const CONTRACT_COLUMNS: [Metric; COLUMNS.len() - 1] = {
    let mut columns = [Metric::Orders; COLUMNS.len() - 1];
    let mut at = 0;
    while at < columns.len() {
        columns[at] = COLUMNS[at];
        at += 1;
    }
    columns
};

/// The table being built (or built): the query it runs, as `idemlab contracts` takes it, and
/// its seeds, `--seeds first..first+count`.
#[derive(Clone, Debug, PartialEq)]
pub struct ContractsJob {
    pub query: String,
    pub first: u64,
    pub count: u64,
    pub job: TableJob,
    /// Stop was pressed: the rows so far stay, and no more slices run.
    pub stopped: bool,
    /// The caption's sentences about what the rows run (`about`), said once at the start.
    pub about: String,
}

impl ContractsJob {
    /// Whether slices are still due: neither complete nor stopped.
    pub fn busy(&self) -> bool {
        !self.stopped && self.job.runs_done() < self.job.runs_total()
    }
}

/// What the table shows: its caption's note, the command that prints the same rows, whether
/// it is still computing, and one line per row begun (a row still summing shows its sums so
/// far).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractsView {
    pub note: String,
    pub command: String,
    pub busy: bool,
    pub rows: Vec<ContractRow>,
}

/// One contract's row as the table shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractRow {
    pub name: String,
    /// The keys the contract sets, folded under `keys_label` (empty for none): a practitioner
    /// asked which keys a row runs with.
    pub keys: String,
    pub keys_label: &'static str,
    pub counts: [u64; CONTRACT_COLUMNS.len()],
    /// Its buttons that load it as run A and as run B: (`data-side`, text, accessible name).
    pub loads: [(&'static str, &'static str, String); 2],
}

/// Starts the table for the run in focus, over the seeds typed in the sweep form.
pub(super) fn start(state: &mut State, requested: &str) -> Effects {
    let scenario = state.lead_scenario();
    let range = sweep_range(scenario.seed, requested);
    let query = codec::encode(&scenario);
    let seeds = idemlab_lab::sweep::SeedRange {
        first: range.first,
        count: range.count,
    };
    // The canonical query of a decoded scenario always decodes again.
    state.contracts = TableJob::new(&query, seeds).ok().map(|job| ContractsJob {
        about: about(&scenario, &query),
        query,
        first: range.first,
        count: range.count,
        job,
        stopped: false,
    });
    Effects {
        work: state.contracts.is_some(),
        render: true,
        ..Effects::default()
    }
}

/// Loads row `row`'s scenario (its first seed) as run A or B. Loading A keeps B what it was
/// while comparing; B becomes A with `compare_for`'s keys, in focus. The table stays.
pub(super) fn load(state: &mut State, row: usize, side: Side) -> Effects {
    let Some(scenario) = state.contracts.as_ref().and_then(|c| row_scenario(c, row)) else {
        return Effects::default();
    };
    let table = state.contracts.take();
    let effects = match side {
        Side::A => {
            let b = state.page.compare_scenario();
            state.set_scenario(scenario.clone());
            state.page.compare = b.map(|b| compare_for(&scenario, &b));
            Effects::scenario()
        }
        Side::B => {
            state.page.focus = Side::B;
            crate::scenario::compare_keys(state, &compare_for(&state.page.scenario, &scenario))
        }
    };
    state.contracts = table;
    effects
}

fn row_scenario(table: &ContractsJob, row: usize) -> Option<Scenario> {
    let query = &table.job.rows.get(row)?.scenario;
    codec::decode(query).ok().map(|d| d.scenario)
}

/// The compare keys that make `a` into `b`: each key whose value differs, as `key=value`.
pub fn differing(a: &Scenario, b: &Scenario) -> String {
    let pairs: Vec<String> = (codec::keys().iter())
        .filter(|spec| spec.value(a) != spec.value(b))
        .map(|spec| format!("{}={}", spec.name, spec.value(b)))
        .collect();
    pairs.join("&")
}

/// The compare keys that make `a` into `b`, naming `b`'s contract when `a` has another, so
/// that B's title and URL say it: `contract=NAME` (A's query under that contract, A's own keys
/// winning, as `PageState::compare_scenario` reads it), then each key that still differs.
pub fn compare_for(a: &Scenario, b: &Scenario) -> String {
    let Some(contract) = b.contract.filter(|c| a.contract != Some(*c)) else {
        return differing(a, b);
    };
    let under = codec::decode_under(&codec::encode(a), Some(contract));
    let base = under.map_or_else(|_| a.clone(), |d| d.scenario);
    let rest = differing(&base, b);
    let sep = if rest.is_empty() { "" } else { "&" };
    format!("contract={}{sep}{rest}", contract.name())
}

/// The key names of a query fragment (`dedup=atomic&replay=all` → `dedup`, `replay`).
fn key_names(keys: &str) -> impl Iterator<Item = &str> {
    keys.split('&').filter_map(|pair| pair.split('=').next())
}

/// The query's keys that override a contract's, each with the contracts it overrides: a key
/// a contract sets that is still in the canonical query under that contract (whose baseline
/// is the preset, then the contract) holds another value than the contract's.
pub fn overrides(query: &str) -> Vec<(String, Vec<&'static str>)> {
    let mut out: Vec<(String, Vec<&'static str>)> = Vec::new();
    for contract in Contract::ALL {
        let Ok(decoded) = codec::decode_under(query, Some(contract)) else {
            continue;
        };
        let sets: Vec<&str> = key_names(contract.keys()).collect();
        let encoded = codec::encode(&decoded.scenario);
        let kept = encoded
            .split('&')
            .filter(|pair| sets.contains(&pair.split('=').next().unwrap_or("")));
        for pair in kept {
            match out.iter_mut().find(|(p, _)| p == pair) {
                Some((_, names)) => names.push(contract.name()),
                None => out.push((pair.to_string(), vec![contract.name()])),
            }
        }
    }
    out
}

/// The keys the scenario's preset sets that a contract's row runs with another value, each
/// with the contracts that replace it: a link applies its preset, then its contract, then its
/// own keys, so a preset's value gives way to a contract's where the link did not set it.
pub fn preset_replaced(scenario: &Scenario, query: &str) -> Vec<(String, Vec<&'static str>)> {
    let Some(preset) = scenario.preset else {
        return Vec::new();
    };
    // The preset's own values, and the keys the link sets by hand (its canonical query lists
    // just those, past seed, preset and contract): a key set by hand wins over any contract.
    let Ok(alone) = codec::decode(&format!("preset={}", preset.name())) else {
        return Vec::new();
    };
    let encoded = codec::encode(scenario);
    let by_hand: Vec<&str> = key_names(&encoded).collect();
    let names = key_names;
    let mut out: Vec<(String, Vec<&'static str>)> = Vec::new();
    for contract in Contract::ALL {
        let Ok(decoded) = codec::decode_under(query, Some(contract)) else {
            continue;
        };
        let both = names(contract.keys())
            .filter(|name| names(preset.spec().keys).any(|p| p == *name))
            .filter(|name| !by_hand.contains(name));
        for spec in both.filter_map(|name| codec::keys().iter().find(|spec| spec.name == name)) {
            let presets = spec.value(&alone.scenario);
            if spec.value(&decoded.scenario) == presets {
                continue;
            }
            let pair = format!("{}={presets}", spec.name);
            match out.iter_mut().find(|(p, _)| *p == pair) {
                Some((_, names)) => names.push(contract.name()),
                None => out.push((pair, vec![contract.name()])),
            }
        }
    }
    out
}

/// What the rows run, in words: the scenario under each contract's keys with its own keys
/// winning (which of them overrode a contract's, and its own contract replaced), and that no
/// contract sets the provider or result lookup (`tests/contracts_page.rs` keeps that true).
pub fn about(scenario: &Scenario, query: &str) -> String {
    let said: Vec<String> = (overrides(query).iter())
        .map(|(pair, names)| idemlab_lab::tf!("{} overrode {}", pair, names.join(", ")))
        .collect();
    let mut won = if said.is_empty() {
        idemlab_lab::t!("none overrode a contract's here").to_string()
    } else {
        idemlab_lab::tf!("here {}", said.join("; "))
    };
    if let Some(own) = scenario.contract {
        won.push_str(&idemlab_lab::tf!(
            "; its own contract={} is replaced",
            own.name()
        ));
    }
    let replaced: Vec<String> = (preset_replaced(scenario, query).iter())
        .map(|(pair, names)| idemlab_lab::tf!("{} (by {})", pair, names.join(", ")))
        .collect();
    if let Some(preset) = scenario.preset.filter(|_| !replaced.is_empty()) {
        won.push_str(&idemlab_lab::tf!(
            "; a contract's keys replace preset {}'s: {}",
            preset.name(),
            replaced.join(", ")
        ));
    }
    let value = |name: &str| {
        let spec = codec::keys().iter().find(|spec| spec.name == name);
        spec.map_or_else(String::new, |spec| spec.value(scenario))
    };
    // The trailing space joins the next sentence (`contracts_view`'s note).
    let text = idemlab_lab::tf!(
        "Each row runs this scenario under that contract's keys (the (none) row under none), \
         its own keys winning ({}). No contract turns on result lookup or a keyed provider: every \
         row keeps provider={} and lookup={}. Loading a row as A keeps B the run it was, so \
         the Compare box is rewritten as B's keys over the new A.",
        won,
        value("provider"),
        value("lookup")
    );
    text + " "
}

/// The table as the page shows it, or `None` before any table was asked for.
pub fn contracts_view(state: &State) -> Option<ContractsView> {
    let table = state.contracts.as_ref()?;
    // Inclusive, so that a table reaching the largest seed is written as the CLI reads it.
    let last = table.first + (table.count - 1);
    let sums = match table.stopped {
        false => idemlab_lab::tf!(
            "Sums over seeds {}..={}, {} of {} runs; Duplicates include refunded charges \
             and duplicate receipts. The same rows:",
            table.first,
            last,
            table.job.runs_done(),
            table.job.runs_total()
        ),
        true => idemlab_lab::tf!(
            "Sums over seeds {}..={}, {} of {} runs (stopped); Duplicates include refunded \
             charges and duplicate receipts. The same rows:",
            table.first,
            last,
            table.job.runs_done(),
            table.job.runs_total()
        ),
    };
    let note = format!("{}{sums} ", table.about);
    let command = format!(
        "idemlab contracts '{}' --seeds {}..={last}",
        table.query, table.first
    );
    let rows = (table.job.rows.iter()).map(|row| {
        let name = name(row);
        let load = |side: Side| {
            let label = idemlab_lab::tf!("Load {} as run {}", name, side.letter());
            (side.name(), side.letter(), label)
        };
        ContractRow {
            keys: sets(row).replace('&', " "),
            keys_label: idemlab_lab::t!("keys"),
            counts: counts(row),
            loads: [load(Side::A), load(Side::B)],
            name,
        }
    });
    Some(ContractsView {
        note,
        command,
        busy: table.busy(),
        rows: rows.collect(),
    })
}

fn sets(row: &Row) -> &'static str {
    (row.contract.and_then(Contract::from_name)).map_or("", Contract::keys)
}

fn name(row: &Row) -> String {
    row.contract
        .unwrap_or(idemlab_lab::t!("(none)"))
        .to_string()
}

fn counts(row: &Row) -> [u64; CONTRACT_COLUMNS.len()] {
    CONTRACT_COLUMNS.map(|column| row.count(column).unwrap_or(0))
}
