//! The key-store panel's view model: the key table at the cursor (`keystore::table_at`) as rows
//! of text, at most `KEY_ROWS_MAX` of them, with the caption and the "+N more" note. The fold
//! reads every event up to the cursor, so the page asks for it only while the panel is open.

use idemlab_core::scenario::{Dedup, Expired, KeyStrategy, Op};
use idemlab_core::trace::Trace;
use idemlab_lab::keystore::{table_at, KeyRow, KeyState};
use idemlab_lab::view::ms_text;
use idemlab_lab::Side;

/// The most rows the panel lists: a 10,000-order run has 10,000 keys, and a learner reads a
/// handful. The rows written last are the ones kept, since they are where the cursor is.
pub const KEY_ROWS_MAX: usize = 50;

/// What the panel shows for one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyStoreView {
    /// "Key table at 312.5 ms: 3 keys".
    pub caption: String,
    pub rows: Vec<KeyRowText>,
    /// "+9,950 more, written earlier", when the table has more rows than it lists.
    pub more: Option<String>,
    /// Why the table is empty, when it is.
    pub empty: Option<&'static str>,
}

/// One row, as the table's cells say it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeyRowText {
    pub key: String,
    /// The row's `data-state`: `claimed`, `in-progress`, `done` or `expired`.
    pub state: &'static str,
    /// "in progress", "done", ...
    pub state_text: &'static str,
    /// What a repeat of the key gets: "200, charge #3", "none yet: a repeat gets 409".
    pub response: String,
    pub written: String,
    pub expires: String,
    /// The order and attempt that wrote it, for the row's tooltip.
    pub by: String,
}

/// The key table of `trace` after its first `count` events (all of them for `None`).
pub fn key_store(trace: &Trace, count: Option<usize>) -> KeyStoreView {
    key_store_at(trace, count, None)
}

/// `key_store`, captioned at `at_us` when given: the cursor's moment, which for the run not in
/// focus is later than its last event counted. Captioned at that event instead, B's table
/// would read as taken at another time than A's counters (88.99 against 90.77 ms, say).
fn key_store_at(trace: &Trace, count: Option<usize>, at_us: Option<u64>) -> KeyStoreView {
    let count = count.unwrap_or(trace.events.len()).min(trace.events.len());
    let last_us = count
        .checked_sub(1)
        .and_then(|last| trace.events.get(last))
        .map_or(0, |e| e.time_us);
    let at_us = at_us.unwrap_or(last_us);
    let table = table_at(trace, count);
    let caption = match table.len() {
        1 => idemlab_lab::tf!("Key table at {}: {} key", ms_text(at_us), 1),
        n => idemlab_lab::tf!("Key table at {}: {} keys", ms_text(at_us), n),
    };
    let shown = latest(&table, KEY_ROWS_MAX);
    let more = (table.len() > shown.len())
        .then(|| idemlab_lab::tf!("+{} more, written earlier", table.len() - shown.len()));
    let empty = table.is_empty().then(|| empty_reason(trace, count));
    let op = trace.scenario.op;
    KeyStoreView {
        caption,
        rows: (shown.into_iter())
            .map(|row| row_text(row, op, trace.scenario.expired))
            .collect(),
        more,
        empty,
    }
}

/// The panel for run `side` (`run`) in the page's state: its table at the cursor's moment in
/// the run in focus (`lead`), as `events_counted` folds the counters, so both runs' tables and
/// counters describe one moment; except while a check keeps its question's run hidden
/// (`run_hidden`), when the page holds the default scenario, whose empty table ("stores no keys
/// (dedup=none)") would contradict the question on screen.
pub fn key_store_for(state: &super::State, lead: &Trace, side: Side, run: &Trace) -> KeyStoreView {
    key_store_in(run, moment(state, lead, side, run))
}

/// What a run's key table depends on in the page's state: the events folded and the moment
/// captioned (`key_store_at`'s arguments), or none while a check hides its question's run.
pub(crate) type Moment = (Option<usize>, Option<u64>);

pub(crate) fn moment(
    state: &super::State,
    lead: &Trace,
    side: Side,
    run: &Trace,
) -> Option<Moment> {
    // The finale's unrun sandbox hides no answer: its empty table is the truth.
    if super::run_hidden(state) && !super::build::waiting(state) {
        return None;
    }
    let count = super::events_counted(state, lead, side, run);
    let at_us = state.page.cursor.map(|_| {
        lead.events
            .get(state.cursor() as usize)
            .map_or(0, |e| e.time_us)
    });
    Some((count, at_us))
}

/// `key_store_for` at a moment `moment` gave.
pub(crate) fn key_store_in(run: &Trace, moment: Option<Moment>) -> KeyStoreView {
    match moment {
        None => hidden(),
        Some((count, at_us)) => key_store_at(run, count, at_us),
    }
}

fn hidden() -> KeyStoreView {
    KeyStoreView {
        caption: idemlab_lab::t!("Key table").into(),
        rows: Vec::new(),
        more: None,
        empty: Some(idemlab_lab::i18n::tr(super::RUN_HIDDEN_NOTE)),
    }
}

/// The `max` rows written last, in the table's own order (committed rows by key, then claims).
/// One pass keeps a short list, latest first (ties: the table's order), and no sort: each sort
/// instance costs the page's wasm kilobytes. O(rows × max).
fn latest(table: &[KeyRow], max: usize) -> Vec<&KeyRow> {
    if table.len() <= max {
        return table.iter().collect();
    }
    let mut best: Vec<usize> = Vec::with_capacity(max + 1);
    for (i, row) in table.iter().enumerate() {
        let later = |&j: &usize| row.created_us > table[j].created_us;
        let at = best.iter().position(later).unwrap_or(best.len());
        if at < max {
            best.insert(at, i);
            best.truncate(max);
        }
    }
    let mut keep = vec![false; table.len()];
    for i in best {
        keep[i] = true;
    }
    (table.iter().zip(keep))
        .filter_map(|(row, kept)| kept.then_some(row))
        .collect()
}

fn empty_reason(trace: &Trace, count: usize) -> &'static str {
    if trace.scenario.dedup == Dedup::None {
        idemlab_lab::t!("This API stores no keys (dedup=none): every request runs.")
    } else if trace.scenario.key == KeyStrategy::None {
        idemlab_lab::t!("The client sends no key (key=none), so there is nothing to store.")
    } else if count == 0 {
        idemlab_lab::t!("No keys yet: the run has not started.")
    } else {
        idemlab_lab::t!("No keys stored at this moment.")
    }
}

/// The cells of one row; what an expired key gets depends on the `expired=` rule.
pub fn row_text(row: &KeyRow, op: Op, expired: Expired) -> KeyRowText {
    let (state, response) = match row.state {
        KeyState::Claimed => (
            "claimed",
            idemlab_lab::t!("none: not committed, so no other request sees it").into(),
        ),
        KeyState::InProgress => (
            "in-progress",
            idemlab_lab::t!("none yet: a repeat gets 409").into(),
        ),
        KeyState::Done { status, number } => ("done", response_text(status, number, op)),
        KeyState::Expired => (
            "expired",
            match expired {
                Expired::New => {
                    idemlab_lab::t!(
                        "none: the next read removes the key and runs the request as new"
                    )
                }
                // Not "runs as new": under a 412 rule the repeat is refused, not run.
                Expired::Reject => idemlab_lab::t!("none: a repeat gets 412 and the row stays"),
            }
            .into(),
        ),
    };
    KeyRowText {
        key: row.key.to_string(),
        state,
        state_text: row.state.name(),
        response,
        written: ms_text(row.created_us),
        // As a span after the write: a day's retention read "86400146.977 ms" as an instant.
        expires: row.expires_us.map_or_else(
            || "–".into(),
            |at_us| idemlab_lab::tf!("{} after", span_text(at_us.saturating_sub(row.created_us))),
        ),
        by: idemlab_lab::tf!("written by order {}, attempt {}", row.order, row.attempt),
    }
}

/// "200, charge #3" for a charge, "200, value 3" for a write; the status alone without one.
fn response_text(status: u16, number: Option<u32>, op: Op) -> String {
    match (number, op) {
        (Some(n), Op::Charge) => idemlab_lab::tf!("{}, charge #{}", status, n),
        (Some(n), Op::Set) => idemlab_lab::tf!("{}, value {}", status, n),
        (None, _) => status.to_string(),
    }
}

/// A retention span in the largest unit that writes it whole: "24 h", "5 min", "30 s", else
/// milliseconds as the timeline writes them.
pub(super) fn span_text(span_us: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(3_600_000_000, "h"), (60_000_000, "min"), (1_000_000, "s")];
    UNITS
        .iter()
        .find(|(unit_us, _)| span_us >= *unit_us && span_us.is_multiple_of(*unit_us))
        .map_or_else(
            || ms_text(span_us),
            |(unit_us, name)| format!("{} {name}", span_us / unit_us),
        )
}
