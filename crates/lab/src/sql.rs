//! The SQL each database step of a run stands for, with what the simulator says it returns.
//!
//! The simulator's database is a model: a table of keys under a unique constraint, a ledger,
//! transactions that hold a claim's unique-index entry until they end. This module writes each
//! of its steps as the PostgreSQL statement a real handler would send, values written in, so
//! that `idemlab run --sql` can list them and `tests/pg/conformance.mjs` can replay a run's
//! interleaving on a real PostgreSQL 15 and compare what each statement returns.
//!
//! Times are the simulator's, in microseconds, written into the rows (`created_us`,
//! `locked_us`) rather than read from `now()`, so that a replay at any speed sees the same
//! expiry and leases.

use std::fmt::Write as _;

use idemlab_core::dense::DenseMap;
use idemlab_core::scenario::{Concurrent, Scenario};
use idemlab_core::trace::{ClaimResult, Event, EventKind, Found, Node, Payload, Recovery, Trace};

/// The tables the statements use. `state` is `in_progress` or `done`; `status` and `charge`
/// are the stored answer of a done key.
pub const SCHEMA: &str = "\
CREATE TABLE idempotency_keys (key text PRIMARY KEY, body bigint NOT NULL, state text NOT NULL, status integer, charge integer, created_us bigint NOT NULL, locked_us bigint NOT NULL, recovery_point text);
CREATE TABLE ledger (charge integer NOT NULL, order_id integer NOT NULL);
CREATE TABLE attempts (row_id integer PRIMARY KEY, order_id integer NOT NULL, attempt integer NOT NULL);
CREATE TABLE account (id integer PRIMARY KEY, value bigint NOT NULL);
INSERT INTO account VALUES (1, 0);";

/// What the simulator says a statement returns.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    /// It completes without error.
    Ok,
    /// A key lookup: what it finds; `status` is the stored answer a completed key replays.
    Found { found: Found, status: Option<u16> },
    /// It waits on the unique index behind another open transaction's claim.
    Blocks,
    /// The insert that blocked earlier returns now: `true` when it went in, `false` when the
    /// other transaction committed the key first (unique violation).
    Resumes { inserted: bool },
    /// Unique violation, SQLSTATE 23505: the key is committed already.
    UniqueViolation,
    /// Lock timeout, SQLSTATE 55P03: another transaction holds the key and this one does not
    /// wait (`concurrent=conflict`).
    LockNotAvailable,
}

impl Expect {
    /// The expectation as `--sql` prints it, and as the conformance test reads it.
    pub fn code(&self) -> String {
        match self {
            Expect::Ok => "ok".into(),
            Expect::Found { found, status } => {
                let found = match found {
                    Found::NotFound => "not-found",
                    Found::Completed => "completed",
                    Found::InProgress => "in-progress",
                    Found::Mismatch => "mismatch",
                    Found::Expired => "expired",
                };
                match status {
                    Some(status) => format!("found:{found}:{status}"),
                    None => format!("found:{found}"),
                }
            }
            Expect::Blocks => "blocks".into(),
            Expect::Resumes { inserted: true } => "resumes:ok".into(),
            Expect::Resumes { inserted: false } => "resumes:23505".into(),
            Expect::UniqueViolation => "23505".into(),
            Expect::LockNotAvailable => "55P03".into(),
        }
    }
}

impl Expect {
    /// What the statement returns, in words, for the page's event details.
    pub fn words(&self) -> String {
        match self {
            Expect::Ok => "completes".into(),
            Expect::Found { found, status } => match found {
                Found::NotFound => "finds no row".into(),
                Found::Completed => match status {
                    Some(status) => format!("finds the key done, its stored answer {status} replayed"),
                    None => "finds the key done".into(),
                },
                Found::InProgress => "finds the key in progress".into(),
                Found::Mismatch => "finds the key with another body".into(),
                Found::Expired => "finds the key past retention_ms: answered 412".into(),
            },
            Expect::Blocks => "waits on the unique index: another open transaction inserted the key".into(),
            Expect::Resumes { inserted: true } => {
                "the insert that waited goes in: the other transaction rolled back".into()
            }
            Expect::Resumes { inserted: false } => {
                "the insert that waited fails, unique_violation (23505): the other transaction committed the key".into()
            }
            Expect::UniqueViolation => "fails, unique_violation (23505): the key is committed already".into(),
            Expect::LockNotAvailable => {
                "fails at once, lock_not_available (55P03): another open transaction holds the key".into()
            }
        }
    }
}

/// One statement the database received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The trace event it stands for.
    pub event: u32,
    pub time_us: u64,
    pub req: u32,
    /// The transaction it runs in; `None` for autocommit.
    pub txn: Option<u32>,
    /// The statement, values written in. For `Expect::Resumes` it repeats the insert that
    /// blocked: no new statement is sent.
    pub sql: String,
    pub expect: Expect,
}

/// Per request, what its later statements need from earlier events.
#[derive(Default)]
struct Context {
    /// Request → body fingerprint, from the client's request.
    body: DenseMap,
    /// Request → open transaction.
    txn: DenseMap,
    /// Request → the charge number or written value it got.
    number: DenseMap,
    /// Request → the time its claim insert, waiting on the unique index, wrote into the row
    /// (its text is repeated when it returns); `NOT_BLOCKED` for none. Indexed by request, as
    /// a list searched per claim cost a second on a run with thousands waiting at once.
    blocked_us: Vec<u64>,
    /// Transaction → the time it commits, when it does: the model dates a row written in a
    /// transaction at its commit (`created_us`).
    commit_us: Vec<u64>,
    /// Request → the status of the first answer it replays.
    replayed: DenseMap,
    /// Set while writing a blocked insert's return: the time that insert wrote.
    resumed_us: Option<u64>,
}

/// Every statement of `trace` in the order the database received them. Keys kept in the API's
/// memory (`store=memory`) are not in the database, and their steps are not listed.
pub fn statements(trace: &Trace) -> Vec<Statement> {
    let mut out = Vec::new();
    scan(trace, None, &mut out);
    out
}

/// The statement of event `ix` alone, if it is a database step: the page's event details.
pub fn statement_at(trace: &Trace, ix: usize) -> Option<Statement> {
    statements_in(trace, ix, ix).pop()
}

/// The last `max` statements up to event `to` (included), oldest first: the Tables tab's list
/// at the cursor. Two passes over the trace up to `to`, writing only these statements' text.
pub fn last_statements(trace: &Trace, to: usize, max: usize) -> Vec<Statement> {
    let to = to.min(trace.events.len().saturating_sub(1));
    let Some(events) = trace.events.get(..=to) else {
        return Vec::new();
    };
    if max == 0 {
        return Vec::new();
    }
    // The max-th statement counting back from `to`, or the start when there are fewer.
    let from = (events.iter().enumerate().rev())
        .filter(|(_, event)| is_statement(event))
        .nth(max - 1)
        .map_or(0, |(ix, _)| ix);
    statements_in(trace, from, to)
}

/// Whether `event` is a database statement (what `expect` lists), without the run's context.
fn is_statement(event: &Event) -> bool {
    if event.node != Node::Db || event.req().is_none() {
        return false;
    }
    match event.kind {
        EventKind::AttemptRow { .. }
        | EventKind::TxBegin { .. }
        | EventKind::Commit { .. }
        | EventKind::Rollback { .. }
        | EventKind::LedgerRow { .. }
        | EventKind::WorkLookup { .. }
        | EventKind::Write { .. } => true,
        EventKind::KeyExpired
        | EventKind::Takeover { .. }
        | EventKind::RecoveryPoint { .. }
        | EventKind::KeyDeleted { .. }
        | EventKind::Store { .. }
        | EventKind::Lookup { .. }
        | EventKind::Claim { .. } => event.key.is_some(),
        _ => false,
    }
}

/// The statements of events `from..=to`.
fn statements_in(trace: &Trace, from: usize, to: usize) -> Vec<Statement> {
    let mut out = Vec::new();
    scan(trace, Some((from, to)), &mut out);
    out
}

/// Walks the trace, keeping the context every statement needs, and pushes the statements of
/// every database step (or of the events in `window` alone, stopping at its end).
fn scan(trace: &Trace, window: Option<(usize, usize)>, out: &mut Vec<Statement>) {
    let mut cx = Context::default();
    for event in trace.events.iter() {
        look_ahead(&mut cx, event);
    }
    for (ix, event) in trace.events.iter().enumerate() {
        let Some(req) = event.req() else {
            continue;
        };
        let write = window.is_none_or(|(from, to)| (from..=to).contains(&ix));
        if let Some((sql, expect)) = statement(&mut cx, &trace.scenario, event, req, write) {
            if write {
                out.push(Statement {
                    event: ix as u32,
                    time_us: event.time_us,
                    req,
                    // BEGIN belongs to the transaction it opens.
                    txn: match event.kind {
                        EventKind::TxBegin { txn } => Some(txn),
                        _ => cx.txn.get(req),
                    },
                    sql,
                    expect,
                });
            }
        }
        if window.is_some_and(|(_, to)| ix >= to) {
            return;
        }
        after(&mut cx, event, req);
    }
}

/// The first pass: what a statement needs from events after it.
fn look_ahead(cx: &mut Context, event: &Event) {
    match (event.kind, event.req()) {
        (EventKind::Commit { txn }, _) => {
            let at = txn as usize;
            if cx.commit_us.len() <= at {
                cx.commit_us.resize(at + 1, u64::MAX);
            }
            cx.commit_us[at] = event.time_us;
        }
        (
            EventKind::Reply {
                status,
                replay: true,
            },
            Some(req),
        ) if cx.replayed.get(req).is_none() => {
            cx.replayed.insert(req, u32::from(status));
        }
        (
            EventKind::Send {
                payload: Payload::Request { body },
                ..
            },
            Some(req),
        ) => {
            cx.body.insert(req, body);
        }
        _ => {}
    }
}

/// Bookkeeping after a statement: the transaction it opened or closed, the number it got.
fn after(cx: &mut Context, event: &Event, req: u32) {
    match event.kind {
        EventKind::TxBegin { txn } => {
            cx.txn.insert(req, txn);
        }
        EventKind::Commit { .. } | EventKind::Rollback { .. } => {
            cx.txn.remove(req);
        }
        EventKind::Charge { number, .. } | EventKind::LedgerRow { number, .. } => {
            cx.number.insert(req, number);
        }
        EventKind::Write { value, .. } => {
            cx.number.insert(req, value);
        }
        _ => {}
    }
}

/// The statement `event` stands for, if it is a database step: its text (when `write`; the
/// page asks for one event's, and the walk to it writes none) and what it returns.
fn statement(
    cx: &mut Context,
    scenario: &Scenario,
    event: &Event,
    req: u32,
    write: bool,
) -> Option<(String, Expect)> {
    let expect = expect(cx, event, req)?;
    let text = if write {
        text(cx, scenario, event, req)
    } else {
        String::new()
    };
    cx.resumed_us = None;
    Some((text, expect))
}

/// When a row written by `req` now is dated: at its transaction's commit, as the model dates
/// it, else now.
fn dated_us(cx: &Context, event: &Event, req: u32) -> u64 {
    (cx.txn.get(req))
        .and_then(|txn| cx.commit_us.get(txn as usize).copied())
        .filter(|&at| at != u64::MAX)
        .unwrap_or(event.time_us)
}

/// What the step returns in the run; `None` if it is not a statement. Keeps track of inserts
/// that wait on the unique index.
fn expect(cx: &mut Context, event: &Event, req: u32) -> Option<Expect> {
    if !is_statement(event) {
        return None;
    }
    let expect = match event.kind {
        EventKind::Lookup { found } => {
            let status = (found == Found::Completed)
                .then(|| cx.replayed.get(req))
                .flatten()
                .map(|s| s as u16);
            Expect::Found { found, status }
        }
        EventKind::Claim { result } => claim(cx, event, req, result),
        _ => Expect::Ok,
    };
    Some(expect)
}

const NOT_BLOCKED: u64 = u64::MAX;

/// A claim's insert: sent now, or (after it blocked) returning now.
fn claim(cx: &mut Context, event: &Event, req: u32, result: ClaimResult) -> Expect {
    let at = req as usize;
    let waiting = (cx.blocked_us.get(at).copied()).filter(|&dated| dated != NOT_BLOCKED);
    match (result, waiting) {
        (ClaimResult::Blocked, _) => {
            let dated = dated_us(cx, event, req);
            if cx.blocked_us.len() <= at {
                cx.blocked_us.resize(at + 1, NOT_BLOCKED);
            }
            cx.blocked_us[at] = dated;
            Expect::Blocks
        }
        (ClaimResult::Ok | ClaimResult::Conflict, Some(dated)) => {
            cx.blocked_us[at] = NOT_BLOCKED;
            // The text is the insert sent when it blocked.
            cx.resumed_us = Some(dated);
            Expect::Resumes {
                inserted: result == ClaimResult::Ok,
            }
        }
        (ClaimResult::Ok, None) => Expect::Ok,
        (ClaimResult::Conflict, None) => Expect::UniqueViolation,
        (ClaimResult::InUse, _) => Expect::LockNotAvailable,
    }
}

/// The statement's text, values written in.
fn text(cx: &Context, scenario: &Scenario, event: &Event, req: u32) -> String {
    let now_us = event.time_us;
    let Some(key) = event.key else {
        return plain_text(scenario, event);
    };
    let body = cx.body.get(req).unwrap_or(0);
    let dated_us = cx.resumed_us.unwrap_or_else(|| dated_us(cx, event, req));
    match event.kind {
        EventKind::Lookup { .. } => format!(
            "SELECT state, status, body = {body} AS same_body FROM idempotency_keys \
             WHERE key = '{key}'"
        ),
        EventKind::KeyExpired => format!(
            "DELETE FROM idempotency_keys WHERE key = '{key}' AND created_us + {} <= {now_us}",
            u64::from(scenario.retention_ms) * 1_000
        ),
        EventKind::Claim { .. } => format!(
            "INSERT INTO idempotency_keys (key, body, state, created_us, locked_us) \
             VALUES ('{key}', {body}, 'in_progress', {dated_us}, {dated_us})"
        ),
        EventKind::Takeover { .. } => format!(
            "UPDATE idempotency_keys SET locked_us = {now_us} WHERE key = '{key}' \
             AND state = 'in_progress' AND locked_us + {} <= {now_us}",
            u64::from(scenario.lease_ms.unwrap_or(0)) * 1_000
        ),
        EventKind::RecoveryPoint { point } => {
            let point = match point {
                Recovery::Started => "started",
                Recovery::Finished => "finished",
            };
            format!("UPDATE idempotency_keys SET recovery_point = '{point}' WHERE key = '{key}'")
        }
        EventKind::KeyDeleted { .. } => format!("DELETE FROM idempotency_keys WHERE key = '{key}'"),
        EventKind::Store { status } => {
            let charge = cx.number.get(req).map_or("NULL".into(), |n| n.to_string());
            // An upsert: the model's stored answer replaces any row of the key, its own claim
            // included.
            format!(
                "INSERT INTO idempotency_keys (key, body, state, status, charge, created_us, \
                 locked_us) VALUES ('{key}', {body}, 'done', {status}, {charge}, {dated_us}, \
                 {dated_us}) ON CONFLICT (key) DO UPDATE SET body = EXCLUDED.body, state = \
                 'done', status = EXCLUDED.status, charge = EXCLUDED.charge, created_us = \
                 EXCLUDED.created_us, locked_us = EXCLUDED.locked_us"
            )
        }
        _ => plain_text(scenario, event),
    }
}

/// The text of a step that does not touch the key table.
fn plain_text(scenario: &Scenario, event: &Event) -> String {
    let order = event.order().unwrap_or(0);
    match event.kind {
        EventKind::AttemptRow { row } => format!(
            "INSERT INTO attempts (row_id, order_id, attempt) VALUES ({row}, {order}, {})",
            event.attempt().unwrap_or(0)
        ),
        // A zero lock_timeout means "wait for ever" in PostgreSQL: 1 ms is the shortest.
        EventKind::TxBegin { .. } if scenario.concurrent == Concurrent::Conflict => {
            "BEGIN; SET LOCAL lock_timeout = '1ms'".into()
        }
        EventKind::TxBegin { .. } => "BEGIN".into(),
        EventKind::Commit { .. } => "COMMIT".into(),
        EventKind::Rollback { .. } => "ROLLBACK".into(),
        EventKind::LedgerRow { number, .. } => {
            format!("INSERT INTO ledger (charge, order_id) VALUES ({number}, {order})")
        }
        EventKind::Write { value, .. } => {
            format!("UPDATE account SET value = {value} WHERE id = 1")
        }
        // After a 412 (expired=reject): is the order done? A charge's row in the ledger, or
        // for op=set the value written (the model reads its own record of the order's write).
        EventKind::WorkLookup { .. } if scenario.op == idemlab_core::scenario::Op::Set => {
            "SELECT value FROM account WHERE id = 1".into()
        }
        EventKind::WorkLookup { .. } => {
            format!("SELECT charge FROM ledger WHERE order_id = {order} LIMIT 1")
        }
        _ => String::new(),
    }
}

/// Why a claim's `INSERT` can carry a time later than its own: a reader of the listing sees a
/// statement write the future, which real code cannot do, and deserves the reason beside it.
const DATING: &str =
    "\n-- Times in rows are the model's: a row written in a transaction carries its \
commit's time (a handler would write now(), the transaction's start), so a claim's INSERT can \
show a time later than its own.";

/// `--sql`'s listing: the schema, then one line per statement, tab-separated: time in ms,
/// request, transaction (`-` for autocommit), what it returns, the statement.
pub fn listing(trace: &Trace) -> String {
    let mut out = String::from("-- The tables:\n");
    out.push_str(SCHEMA);
    out.push_str(DATING);
    out.push_str("\n-- ms\trequest\ttxn\treturns\tstatement\n");
    for s in statements(trace) {
        let txn = s.txn.map_or("-".into(), |t| t.to_string());
        let _ = writeln!(
            out,
            "{}.{:03}\t{}\t{txn}\t{}\t{}",
            s.time_us / 1_000,
            s.time_us % 1_000,
            s.req,
            s.expect.code(),
            s.sql
        );
    }
    out
}
