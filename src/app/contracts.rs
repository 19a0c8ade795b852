//! The contracts table on the page (issue 12, section 2): the run in focus's scenario under no
//! contract and under each contract, over the sweep form's seeds, built a few runs per slice
//! by `crate::contracts::TableJob` (the code behind `idemlab contracts`); a row loads as run A
//! or B.

use super::{compare_keys, sweep_range, Effects, State};
use crate::contracts::{Row, TableJob};
use crate::lessons::Side;
use crate::scenario::{codec, Scenario};

/// The table's count columns, in the page's order: `Row::count` names.
pub const CONTRACT_COLUMNS: [&str; 7] = [
    "duplicates",
    "lost",
    "conflicts",
    "replayed_failures",
    "rejected_expired",
    "unrecorded",
    "refunds",
];

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
}

impl ContractsJob {
    /// Whether slices are still due: neither complete nor stopped.
    pub fn busy(&self) -> bool {
        !self.stopped && self.job.runs_done() < self.job.runs_total()
    }
}

/// What the table shows: its caption's note, whether it is still computing, and one line per
/// row begun (a row still summing shows its sums so far).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ContractsView {
    pub note: String,
    pub busy: bool,
    pub rows: Vec<(String, [u64; 7])>,
}

/// Starts the table for the run in focus, over the seeds typed in the sweep form.
pub(super) fn start(state: &mut State, requested: &str) -> Effects {
    let scenario = state.lead_scenario();
    let range = sweep_range(scenario.seed, requested);
    let query = codec::encode(&scenario);
    let seeds = crate::sweep::SeedRange {
        first: range.first,
        count: range.count,
    };
    // The canonical query of a decoded scenario always decodes again.
    state.contracts = TableJob::new(&query, seeds).ok().map(|job| ContractsJob {
        query,
        first: range.first,
        count: range.count,
        job,
        stopped: false,
    });
    Effects {
        contracts_slice: state.contracts.is_some(),
        render: true,
        ..Effects::default()
    }
}

/// Loads row `row`'s scenario (its first seed) as run A or B. Loading A keeps B what it was
/// while comparing; B becomes A with every key that differs, in focus. The table stays.
pub(super) fn load(state: &mut State, row: usize, side: Side) -> Effects {
    let Some(scenario) = state.contracts.as_ref().and_then(|c| row_scenario(c, row)) else {
        return Effects::default();
    };
    let table = state.contracts.take();
    let effects = match side {
        Side::A => {
            let b = state.page.compare_scenario();
            state.set_scenario(scenario.clone());
            state.page.compare = b.map(|b| differing(&scenario, &b));
            Effects::scenario()
        }
        Side::B => {
            state.page.focus = Side::B;
            compare_keys(state, &differing(&state.page.scenario, &scenario))
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

/// The table as the page shows it, or `None` before any table was asked for.
pub fn contracts_view(state: &State) -> Option<ContractsView> {
    let table = state.contracts.as_ref()?;
    // Inclusive, so that a table reaching the largest seed is written as the CLI reads it.
    let last = table.first + (table.count - 1);
    let note = format!(
        ": `{}`, seeds {}..={last}, {} of {} runs{}",
        table.query,
        table.first,
        table.job.runs_done(),
        table.job.runs_total(),
        if table.stopped { " (stopped)" } else { "" }
    );
    let rows = table.job.rows.iter().map(|row| (name(row), counts(row)));
    Some(ContractsView {
        note,
        busy: table.busy(),
        rows: rows.collect(),
    })
}

fn name(row: &Row) -> String {
    row.contract.unwrap_or("(none)").to_string()
}

fn counts(row: &Row) -> [u64; 7] {
    CONTRACT_COLUMNS.map(|column| row.count(column).unwrap_or(0))
}
