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

use crate::dense::DenseMap;
use crate::scenario::{Concurrent, Scenario};
use crate::trace::{ClaimResult, Event, EventKind, Found, Key, Node, Payload, Recovery, Trace};

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
    /// Requests whose claim insert waits on the unique index, with that insert.
    blocked: Vec<(u32, String)>,
    /// Transaction → the time it commits, when it does: the model dates a row written in a
    /// transaction at its commit (`created_us`).
    commit_us: Vec<u64>,
    /// Request → the status of the first answer it replays.
    replayed: DenseMap,
}

/// Every statement of `trace` in the order the database received them. Keys kept in the API's
/// memory (`store=memory`) are not in the database, and their steps are not listed.
pub fn statements(trace: &Trace) -> Vec<Statement> {
    let mut cx = Context::default();
    for event in trace.events.iter() {
        look_ahead(&mut cx, event);
    }
    let mut out = Vec::new();
    for (ix, event) in trace.events.iter().enumerate() {
        let Some(req) = event.req() else {
            continue;
        };
        if let Some((sql, expect)) = statement(&mut cx, &trace.scenario, event, req) {
            out.push(Statement {
                event: ix as u32,
                time_us: event.time_us,
                req,
                txn: cx.txn.get(req),
                sql,
                expect,
            });
        }
        after(&mut cx, event, req);
    }
    out
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

/// The statement `event` stands for, if it is a database step.
fn statement(
    cx: &mut Context,
    scenario: &Scenario,
    event: &Event,
    req: u32,
) -> Option<(String, Expect)> {
    if event.node != Node::Db {
        return None;
    }
    let ok = |sql: String| Some((sql, Expect::Ok));
    let now_us = event.time_us;
    match event.kind {
        EventKind::AttemptRow { row } => ok(format!(
            "INSERT INTO attempts (row_id, order_id, attempt) VALUES ({row}, {}, {})",
            event.order().unwrap_or(0),
            event.attempt().unwrap_or(0)
        )),
        EventKind::TxBegin { .. } if scenario.concurrent == Concurrent::Conflict => {
            // A zero lock_timeout means "wait forever" in PostgreSQL: 1 ms is the shortest.
            ok("BEGIN; SET LOCAL lock_timeout = '1ms'".into())
        }
        EventKind::TxBegin { .. } => ok("BEGIN".into()),
        EventKind::Commit { .. } => ok("COMMIT".into()),
        EventKind::Rollback { .. } => ok("ROLLBACK".into()),
        EventKind::LedgerRow { number, .. } => ok(format!(
            "INSERT INTO ledger (charge, order_id) VALUES ({number}, {})",
            event.order().unwrap_or(0)
        )),
        EventKind::Write { value, .. } => {
            ok(format!("UPDATE account SET value = {value} WHERE id = 1"))
        }
        _ => key_statement(cx, scenario, event, req, event.key?, now_us),
    }
}

/// The statements on the key table.
fn key_statement(
    cx: &mut Context,
    scenario: &Scenario,
    event: &Event,
    req: u32,
    key: Key,
    now_us: u64,
) -> Option<(String, Expect)> {
    let body = cx.body.get(req).unwrap_or(0);
    // A row written in a transaction is dated at its commit, as the model dates it.
    let dated_us = (cx.txn.get(req))
        .and_then(|txn| cx.commit_us.get(txn as usize).copied())
        .filter(|&at| at != u64::MAX)
        .unwrap_or(now_us);
    let insert = format!(
        "INSERT INTO idempotency_keys (key, body, state, created_us, locked_us) \
         VALUES ('{key}', {body}, 'in_progress', {dated_us}, {dated_us})"
    );
    let statement = match event.kind {
        EventKind::Lookup { found } => {
            let status = (found == Found::Completed)
                .then(|| cx.replayed.get(req))
                .flatten()
                .map(|s| s as u16);
            let sql = format!(
                "SELECT state, status, body = {body} AS same_body FROM idempotency_keys \
                 WHERE key = '{key}'"
            );
            (sql, Expect::Found { found, status })
        }
        EventKind::KeyExpired => (
            format!(
                "DELETE FROM idempotency_keys WHERE key = '{key}' AND created_us + {} <= {now_us}",
                u64::from(scenario.retention_ms) * 1_000
            ),
            Expect::Ok,
        ),
        EventKind::Claim { result } => claim(cx, req, insert, result),
        EventKind::Takeover { .. } => (
            format!(
                "UPDATE idempotency_keys SET locked_us = {now_us} WHERE key = '{key}' \
                 AND state = 'in_progress' AND locked_us + {} <= {now_us}",
                u64::from(scenario.lease_ms.unwrap_or(0)) * 1_000
            ),
            Expect::Ok,
        ),
        EventKind::RecoveryPoint { point } => {
            let point = match point {
                Recovery::Started => "started",
                Recovery::Finished => "finished",
            };
            let sql = format!(
                "UPDATE idempotency_keys SET recovery_point = '{point}' WHERE key = '{key}'"
            );
            (sql, Expect::Ok)
        }
        EventKind::KeyDeleted { .. } => (
            format!("DELETE FROM idempotency_keys WHERE key = '{key}'"),
            Expect::Ok,
        ),
        EventKind::Store { status } => {
            let charge = cx.number.get(req).map_or("NULL".into(), |n| n.to_string());
            // An upsert: the model's stored answer replaces any row of the key, its own claim
            // included.
            let mut sql = format!(
                "INSERT INTO idempotency_keys (key, body, state, status, charge, created_us, \
                 locked_us) VALUES ('{key}', {body}, 'done', {status}, {charge}, {dated_us}, \
                 {dated_us}) ON CONFLICT (key) DO UPDATE SET "
            );
            let _ = write!(
                sql,
                "body = EXCLUDED.body, state = 'done', status = EXCLUDED.status, charge = \
                 EXCLUDED.charge, created_us = EXCLUDED.created_us, locked_us = EXCLUDED.locked_us"
            );
            (sql, Expect::Ok)
        }
        _ => return None,
    };
    Some(statement)
}

/// The claim's insert: sent now, or (after it blocked) returning now.
fn claim(cx: &mut Context, req: u32, insert: String, result: ClaimResult) -> (String, Expect) {
    let waiting = cx.blocked.iter().position(|&(r, _)| r == req);
    match (result, waiting) {
        (ClaimResult::Blocked, _) => {
            cx.blocked.push((req, insert.clone()));
            (insert, Expect::Blocks)
        }
        (ClaimResult::Ok | ClaimResult::Conflict, Some(at)) => {
            let (_, sent) = cx.blocked.swap_remove(at);
            let inserted = result == ClaimResult::Ok;
            (sent, Expect::Resumes { inserted })
        }
        (ClaimResult::Ok, None) => (insert, Expect::Ok),
        (ClaimResult::Conflict, None) => (insert, Expect::UniqueViolation),
        (ClaimResult::InUse, _) => (insert, Expect::LockNotAvailable),
    }
}

/// `--sql`'s listing: the schema, then one line per statement, tab-separated: time in ms,
/// request, transaction (`-` for autocommit), what it returns, the statement.
pub fn listing(trace: &Trace) -> String {
    let mut out = String::from("-- The tables:\n");
    out.push_str(SCHEMA);
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
