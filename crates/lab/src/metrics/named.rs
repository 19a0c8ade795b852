//! Every count by name: the one table the lessons, the counters, the contracts table, the CLI
//! and the page's `data-metric` attributes read, so a misspelt metric cannot compile.

use super::Metrics;

/// A count of `Metrics`, named as in the CLI's JSON.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    Orders,
    Attempts,
    Received,
    Effects,
    Duplicates,
    Lost,
    Races,
    Unrecorded,
    Ok,
    Failed,
    Unknown,
    InFlight,
    Receipts,
    DuplicateReceipts,
    Redeliveries,
    DeadLetters,
    Conflicts,
    Takeovers,
    ReplayedFailures,
    RejectedExpired,
    Lookups,
    Reconciled,
    Refunds,
    LostEvents,
}

/// One row of the table: the metric, its name, whether a count above zero is harm (the page
/// marks it), and how to read it off `Metrics`.
struct Row {
    metric: Metric,
    name: &'static str,
    harm: bool,
    get: fn(&Metrics) -> u32,
}

const fn row(metric: Metric, name: &'static str, harm: bool, get: fn(&Metrics) -> u32) -> Row {
    Row {
        metric,
        name,
        harm,
        get,
    }
}

/// In `Metric`'s order, which is the order of `Metric::ALL`.
const ROWS: [Row; 24] = [
    row(Metric::Orders, "orders", false, |m| m.orders),
    row(Metric::Attempts, "attempts", false, |m| m.attempts),
    row(Metric::Received, "received", false, |m| m.received),
    row(Metric::Effects, "effects", false, |m| m.effects),
    row(Metric::Duplicates, "duplicates", true, |m| m.duplicates),
    row(Metric::Lost, "lost", true, |m| m.lost),
    row(Metric::Races, "races", false, |m| m.races),
    row(Metric::Unrecorded, "unrecorded", false, |m| m.unrecorded),
    row(Metric::Ok, "ok", false, |m| m.outcomes.ok),
    row(Metric::Failed, "failed", false, |m| m.outcomes.failed),
    row(Metric::Unknown, "unknown", false, |m| m.outcomes.unknown),
    row(Metric::InFlight, "in_flight", false, |m| {
        m.outcomes.in_flight
    }),
    row(Metric::Receipts, "receipts", false, |m| m.receipts),
    row(
        Metric::DuplicateReceipts,
        "duplicate_receipts",
        false,
        |m| m.duplicate_receipts,
    ),
    row(Metric::Redeliveries, "redeliveries", false, |m| {
        m.redeliveries
    }),
    row(Metric::DeadLetters, "dead_letters", false, |m| {
        m.dead_letters
    }),
    row(Metric::Conflicts, "conflicts", false, |m| m.conflicts),
    row(Metric::Takeovers, "takeovers", false, |m| m.takeovers),
    row(Metric::ReplayedFailures, "replayed_failures", false, |m| {
        m.replayed_failures
    }),
    row(Metric::RejectedExpired, "rejected_expired", false, |m| {
        m.rejected_expired
    }),
    row(Metric::Lookups, "lookups", false, |m| m.lookups),
    row(Metric::Reconciled, "reconciled", false, |m| m.reconciled),
    row(Metric::Refunds, "refunds", false, |m| m.refunds),
    row(Metric::LostEvents, "lost_events", true, |m| m.lost_events),
];

impl Metric {
    pub const ALL: [Metric; 24] = {
        let mut all = [Metric::Orders; 24];
        let mut i = 0;
        while i < ROWS.len() {
            all[i] = ROWS[i].metric;
            i += 1;
        }
        all
    };

    fn row(self) -> &'static Row {
        &ROWS[self as usize]
    }

    /// The name in the CLI's JSON, a link's `check=` and `ask=`, and the page's `data-metric`.
    pub fn name(self) -> &'static str {
        self.row().name
    }

    pub fn from_name(name: &str) -> Option<Metric> {
        ROWS.iter()
            .find(|row| row.name == name)
            .map(|row| row.metric)
    }

    /// Whether a count above zero is harm the page marks: a repeated effect, lost work, a
    /// lost event.
    pub fn harm(self) -> bool {
        self.row().harm
    }

    /// The count in `m`.
    pub fn of(self, m: &Metrics) -> u32 {
        (self.row().get)(m)
    }

    /// The counter card's label, in the words the lessons use; `set` names an `op=set` run's
    /// effects as writes.
    pub fn label(self, set: bool) -> &'static str {
        match self {
            Metric::Orders => crate::t!("Orders"),
            Metric::Attempts => crate::t!("Requests"),
            Metric::Received => crate::t!("Attempt rows"),
            Metric::Effects if set => crate::t!("Writes"),
            Metric::Effects => crate::t!("Charges"),
            Metric::Duplicates => crate::t!("Duplicates"),
            Metric::Lost => crate::t!("Lost work"),
            Metric::Races => crate::t!("Races"),
            Metric::Unrecorded => crate::t!("Charges the ledger never recorded"),
            Metric::Ok => crate::t!("OK"),
            Metric::Failed => crate::t!("Failed"),
            Metric::Unknown => crate::t!("Unknown"),
            Metric::InFlight => crate::t!("In flight"),
            Metric::Receipts => crate::t!("Receipts"),
            Metric::DuplicateReceipts => crate::t!("Duplicate receipts"),
            Metric::Redeliveries => crate::t!("Redeliveries"),
            Metric::DeadLetters => crate::t!("Dead letters"),
            Metric::Conflicts => crate::t!("409s answered"),
            Metric::Takeovers => crate::t!("Takeovers"),
            Metric::ReplayedFailures => crate::t!("Failures replayed"),
            Metric::RejectedExpired => crate::t!("Refused: key expired"),
            Metric::Lookups => crate::t!("Charge lookups"),
            Metric::Reconciled => crate::t!("Reconciled charges"),
            Metric::Refunds => crate::t!("Refunds"),
            Metric::LostEvents => crate::t!("Lost events"),
        }
    }
}

/// The name, as in the CLI's JSON.
impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_row_stands_at_its_metrics_place_and_each_name_reads_back() {
        for (index, metric) in Metric::ALL.into_iter().enumerate() {
            assert_eq!(metric as usize, index, "{metric:?}");
            assert_eq!(Metric::from_name(metric.name()), Some(metric));
        }
        assert_eq!(Metric::from_name("duplicate"), None);
    }

    #[test]
    fn each_getter_reads_its_own_field() {
        let m = Metrics {
            duplicates: 3,
            lost_events: 5,
            ..Metrics::default()
        };
        assert_eq!(Metric::Duplicates.of(&m), 3);
        assert_eq!(Metric::LostEvents.of(&m), 5);
        assert_eq!(Metric::Lost.of(&m), 0);
    }
}
