//! The key table as it stood at a point of a run, folded from the trace alone: which keys are
//! claimed but not yet committed, which are committed in progress, which hold a stored
//! response, and which have outlived `retention_ms`. The page's key-store panel shows it at the
//! cursor. It follows the simulator's rules (`sim::store`): a claim inside a transaction becomes
//! a row at its commit and vanishes at its rollback; without a transaction a claim or a stored
//! response is a row at once; an API crash empties a memory store and a ledger pod replacement
//! empties a pod store. `tests/keystore.rs` checks the fold against every lookup and claim the
//! simulator made: whatever the simulator found, the fold holds.

use idemlab_core::dense::KeyMap;
use idemlab_core::scenario::Store;
use idemlab_core::trace::{EventKind, Key, Trace};

/// A key's state in the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyState {
    /// Inserted by an open transaction: other requests cannot see it yet, and a second insert
    /// waits on the unique index.
    Claimed,
    /// Committed without a stored response: a repeat gets "in progress" (409).
    InProgress,
    /// Committed with the response a repeat gets back.
    Done { status: u16, number: Option<u32> },
    /// Past `retention_ms`; the next read of the key removes it and treats the request as new.
    Expired,
}

impl KeyState {
    pub fn name(self) -> &'static str {
        match self {
            KeyState::Claimed => crate::t!("claimed, not committed"),
            KeyState::InProgress => crate::t!("in progress"),
            KeyState::Done { .. } => crate::t!("done"),
            KeyState::Expired => crate::t!("expired"),
        }
    }
}

/// One row of the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyRow {
    pub key: Key,
    pub state: KeyState,
    /// When the row was written (committed, or claimed for an uncommitted one).
    pub created_us: u64,
    /// When it expires; `None` for an uncommitted claim.
    pub expires_us: Option<u64>,
    /// The order and attempt that wrote it, and its request (`Event::req`).
    pub order: u32,
    pub attempt: u16,
    pub req: u32,
}

/// A request's part of the fold.
#[derive(Clone, Copy, Debug, Default)]
struct Req {
    in_txn: bool,
    /// The uncommitted claim this request holds, if any.
    claim: Option<KeyRow>,
    /// The response stored in the open transaction.
    pending: Option<(u16, Option<u32>)>,
    /// The charge number or written value the handler got, for the stored response.
    number: Option<u32>,
}

impl Req {
    /// Ends the request's transaction at its commit: the row it leaves (its stored response, or
    /// its claim in progress), if any.
    fn commit(&mut self) -> Option<KeyState> {
        let state = match self.pending {
            Some((status, number)) => Some(KeyState::Done { status, number }),
            None if self.claim.is_some() => Some(KeyState::InProgress),
            None => None,
        };
        *self = Req::default();
        state
    }

    /// Ends the request's transaction at its rollback: its claim and pending response go, the
    /// number its handler got stays.
    fn rollback(&mut self) {
        *self = Req {
            number: self.number,
            ..Req::default()
        };
    }
}

/// Committed rows by key, and each request's state by its index (`Event::req` numbers requests
/// densely from 0, so a `Vec` holds them: one map type fewer in the page's wasm, where each
/// `BTreeMap` instance costs kilobytes).
#[derive(Debug, Default)]
struct Fold {
    rows: KeyMap<KeyRow>,
    reqs: Vec<Req>,
}

/// The key table after the first `count` events of `trace`, at the time of the last of them,
/// in key order: committed rows first, then uncommitted claims.
pub fn table_at(trace: &Trace, count: usize) -> Vec<KeyRow> {
    let events = &trace.events[..count.min(trace.events.len())];
    let retention_us = u64::from(trace.scenario.retention_ms) * 1_000;
    let mut fold = Fold::default();
    for event in events {
        fold.apply(event, trace.scenario.store, retention_us);
    }
    let now_us = events.last().map_or(0, |e| e.time_us);
    let mut table: Vec<KeyRow> = fold.rows.values().copied().collect();
    for row in &mut table {
        if row.expires_us.is_some_and(|end| now_us >= end) {
            row.state = KeyState::Expired;
        }
    }
    table.extend(fold.reqs.iter().filter_map(|r| r.claim));
    table
}

impl Fold {
    fn apply(&mut self, event: &idemlab_core::trace::Event, store: Store, retention_us: u64) {
        let now_us = event.time_us;
        match event.kind {
            EventKind::Crash if store == Store::Memory => self.rows.clear(),
            EventKind::Replace { wiped: true, .. } => self.rows.clear(),
            _ => {}
        }
        let (Some(req), Some(key)) = (event.req(), event.key) else {
            return;
        };
        let ix = req as usize;
        if self.reqs.len() <= ix {
            self.reqs.resize(ix + 1, Req::default());
        }
        let r = &mut self.reqs[ix];
        let row = |state, created_us| KeyRow {
            key,
            state,
            created_us,
            expires_us: Some(created_us.saturating_add(retention_us)),
            order: event.order().unwrap_or(0),
            attempt: event.attempt().unwrap_or(0),
            req,
        };
        match event.kind {
            EventKind::TxBegin { .. } => r.in_txn = true,
            EventKind::Charge { number, .. } | EventKind::LedgerRow { number, .. } => {
                r.number = Some(number)
            }
            EventKind::Write { value, .. } => r.number = Some(value),
            EventKind::KeyExpired | EventKind::KeyDeleted { .. } => {
                self.rows.remove(&key);
            }
            EventKind::Claim {
                result: idemlab_core::trace::ClaimResult::Ok,
            } => {
                if r.in_txn {
                    let mut claim = row(KeyState::Claimed, now_us);
                    claim.expires_us = None;
                    r.claim = Some(claim);
                } else {
                    self.rows.insert(key, row(KeyState::InProgress, now_us));
                }
            }
            EventKind::Store { status } => {
                let done = (status, r.number);
                if r.in_txn {
                    r.pending = Some(done);
                } else {
                    let (status, number) = done;
                    self.rows
                        .insert(key, row(KeyState::Done { status, number }, now_us));
                }
            }
            EventKind::Commit { .. } => {
                if let Some(state) = r.commit() {
                    self.rows.insert(key, row(state, now_us));
                }
            }
            EventKind::Rollback { .. } => r.rollback(),
            _ => {}
        }
    }
}
