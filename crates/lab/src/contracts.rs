//! Contracts side by side: one query's fault scenario run under no contract and under every
//! contract, over a range of seeds, with the counts that tell the contracts apart added up per
//! contract. `idemlab contracts` prints it; the page can show the same table from this code.

use serde::Serialize;

use crate::sweep::SeedRange;
use crate::Metric;
use idemlab_core::scenario::{codec, CodecError, Contract, Scenario};

/// One contract's totals over the seeds. Each count is the sum of `idemlab run`'s count of the
/// same name over the seeds of `scenario`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Row {
    /// The contract's name, or `None` for the query with no contract at all.
    pub contract: Option<&'static str>,
    /// The canonical query of the first seed's run: `sweep` it to see more.
    pub scenario: String,
    pub runs: u64,
    pub orders: u64,
    pub effects: u64,
    pub duplicates: u64,
    pub lost: u64,
    pub conflicts: u64,
    pub takeovers: u64,
    pub replayed_failures: u64,
    pub rejected_expired: u64,
    pub unrecorded: u64,
    pub refunds: u64,
    pub duplicate_receipts: u64,
    pub lost_events: u64,
}

/// The count columns, in the order the table prints them.
pub const COLUMNS: [Metric; 11] = [
    Metric::Duplicates,
    Metric::Lost,
    Metric::Conflicts,
    Metric::Takeovers,
    Metric::ReplayedFailures,
    Metric::RejectedExpired,
    Metric::Unrecorded,
    Metric::Refunds,
    Metric::DuplicateReceipts,
    Metric::LostEvents,
    Metric::Effects,
];

impl Row {
    /// A count by its column.
    pub fn count(&self, column: Metric) -> Option<u64> {
        Some(match column {
            Metric::Duplicates => self.duplicates,
            Metric::Lost => self.lost,
            Metric::Conflicts => self.conflicts,
            Metric::Takeovers => self.takeovers,
            Metric::ReplayedFailures => self.replayed_failures,
            Metric::RejectedExpired => self.rejected_expired,
            Metric::Unrecorded => self.unrecorded,
            Metric::Refunds => self.refunds,
            Metric::DuplicateReceipts => self.duplicate_receipts,
            Metric::LostEvents => self.lost_events,
            Metric::Effects => self.effects,
            _ => return None,
        })
    }

    fn add(&mut self, m: &crate::Metrics) {
        self.runs += 1;
        self.orders += u64::from(m.orders);
        self.effects += u64::from(m.effects);
        self.duplicates += u64::from(m.duplicates);
        self.lost += u64::from(m.lost);
        self.conflicts += u64::from(m.conflicts);
        self.takeovers += u64::from(m.takeovers);
        self.replayed_failures += u64::from(m.replayed_failures);
        self.rejected_expired += u64::from(m.rejected_expired);
        self.unrecorded += u64::from(m.unrecorded);
        self.refunds += u64::from(m.refunds);
        self.duplicate_receipts += u64::from(m.duplicate_receipts);
        self.lost_events += u64::from(m.lost_events);
    }
}

/// The scenarios the table runs: the query without any contract, then under each contract in
/// `Contract::ALL` order. The query's own `contract=` is replaced; its preset applies first and
/// its explicit keys last, as everywhere.
pub fn scenarios(query: &str) -> Result<Vec<(Option<Contract>, Scenario)>, Vec<CodecError>> {
    std::iter::once(None)
        .chain(Contract::ALL.map(Some))
        .map(|contract| codec::decode_under(query, contract).map(|d| (contract, d.scenario)))
        .collect()
}

/// Runs every scenario of `scenarios(query)` over `seeds` and adds up each one's counts.
pub fn table(query: &str, seeds: SeedRange) -> Result<Vec<Row>, Vec<CodecError>> {
    let mut job = TableJob::new(query, seeds)?;
    while !job.step(u64::MAX) {}
    Ok(job.rows)
}

/// The same table a few runs at a time, so the page can build it in slices between frames:
/// `step` until it returns true (or run each `next` run yourself and `add` its counts), then
/// read `rows`. Any slicing gives the rows of `table`.
#[derive(Clone, Debug, PartialEq)]
pub struct TableJob {
    scenarios: Vec<(Option<Contract>, Scenario)>,
    seeds: SeedRange,
    /// The finished rows, then the one in progress.
    pub rows: Vec<Row>,
    /// Runs done of the row in progress.
    done: u64,
}

impl TableJob {
    pub fn new(query: &str, seeds: SeedRange) -> Result<TableJob, Vec<CodecError>> {
        Ok(TableJob {
            scenarios: scenarios(query)?,
            seeds,
            rows: Vec::new(),
            done: 0,
        })
    }

    /// Runs done so far, over every row.
    pub fn runs_done(&self) -> u64 {
        self.rows.iter().map(|row| row.runs).sum()
    }

    /// Runs the whole table takes: every scenario over every seed.
    pub fn runs_total(&self) -> u64 {
        self.scenarios.len() as u64 * self.seeds.count
    }

    /// Runs at most `runs` more runs; true once every row is complete.
    pub fn step(&mut self, runs: u64) -> bool {
        for _ in 0..runs {
            let Some(scenario) = self.next() else {
                return true;
            };
            self.add(&crate::run(&scenario).1);
        }
        self.next().is_none()
    }

    /// The next run the table needs, its seed set; `None` once every row is complete. The
    /// page runs it in slices of its own (`sim::Stepper`) and hands its counts to `add`.
    pub fn next(&self) -> Option<Scenario> {
        // The row in progress, or (between rows) the next one.
        let at = self.rows.len() - usize::from(self.done > 0);
        let (_, scenario) = self.scenarios.get(at)?;
        let mut scenario = scenario.clone();
        scenario.seed = self.seeds.first + self.done;
        Some(scenario)
    }

    /// Adds the counts of the run `next` named.
    pub fn add(&mut self, metrics: &crate::Metrics) {
        let at = self.rows.len() - usize::from(self.done > 0);
        if self.done == 0 {
            let (contract, scenario) = &self.scenarios[at];
            let mut first = scenario.clone();
            first.seed = self.seeds.first;
            self.rows.push(Row {
                contract: contract.map(Contract::name),
                scenario: codec::encode(&first),
                ..Row::default()
            });
        }
        let row = self
            .rows
            .last_mut()
            .expect("the row in progress was pushed");
        row.add(metrics);
        self.done += 1;
        if self.done == self.seeds.count {
            self.done = 0;
        }
    }
}

/// The table in Markdown: one line per contract, the counts in `COLUMNS` order.
pub fn markdown(rows: &[Row]) -> String {
    let names: Vec<&str> = COLUMNS.iter().map(|c| c.name()).collect();
    let mut out = format!("| contract | {} |\n|---|", names.join(" | "));
    out.push_str(&"---:|".repeat(COLUMNS.len()));
    out.push('\n');
    for row in rows {
        let name = row
            .contract
            .map_or("(none)".to_string(), |n| format!("`{n}`"));
        let counts: Vec<String> = COLUMNS
            .iter()
            .map(|&c| row.count(c).unwrap_or(0).to_string())
            .collect();
        out.push_str(&format!("| {name} | {} |\n", counts.join(" | ")));
    }
    out
}
