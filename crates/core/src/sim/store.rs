//! The database side: the idempotency-key table with its unique index, transactions, the
//! attempts table and the ledger.
//!
//! Concurrency follows Postgres: an uncommitted claim is invisible to other readers, and a
//! second insert of the same key blocks on the unique index until the holder ends. If the holder
//! commits, the waiter gets a unique violation; if it rolls back, the waiter goes ahead.

use super::api::Claim;
use super::{Action, World};
use crate::dense::{BitSet, DenseMap, KeyMap};
use crate::scenario::{Concurrent, Expired};
use crate::trace::{ClaimResult, EventKind, Found, Key, Node, RollbackCause};

/// A committed row of the key table.
#[derive(Clone, Copy, Debug)]
pub(super) struct KeyRow {
    /// `None` while in progress; the stored (status, number) once completed.
    pub done: Option<(u16, Option<u32>)>,
    /// The body fingerprint the key was first used with.
    pub body: u32,
    pub created_us: u64,
    /// When its owner claimed it or last took it over: an in-progress row's lease runs from here.
    pub locked_us: u64,
    /// The request that wrote it, so a handler does not trip over its own claim.
    pub owner: u32,
}

/// An uncommitted claim and the requests queued behind it on the unique index.
#[derive(Clone, Debug)]
struct Lock {
    holder: u32,
    /// In the order they queued, which is the order they are woken in.
    waiters: Vec<u32>,
    /// This lock's number, unique in the run. A queued request records it
    /// (`Handler::queued_on`), which makes "already queued here?" O(1): with one key for
    /// everything, every request of a run can queue behind one claim.
    serial: u32,
}

pub(super) struct Store {
    keys: KeyMap<KeyRow>,
    locks: KeyMap<Lock>,
    /// Locks taken so far: the next one's `Lock::serial`.
    locks_made: u32,
    txn_next: u32,
    attempt_rows: u32,
    pub db_uid: u32,
    pub db_boot: u32,
    /// Order → its first durable effect (charge number or written value), kept only with
    /// `expired=reject`, whose client looks an order up by its business key.
    pub work: DenseMap,
    /// Charge numbers with a durable ledger row, kept only for the reconciliation job.
    pub booked: BitSet,
}

impl Store {
    pub fn new() -> Store {
        Store {
            keys: KeyMap::new(),
            locks: KeyMap::new(),
            locks_made: 0,
            txn_next: 1,
            attempt_rows: 0,
            db_uid: 0,
            db_boot: 1,
            work: DenseMap::new(),
            booked: BitSet::new(),
        }
    }

    /// Forgets every key (memory lost with the API, or a pod store lost with the ledger pod).
    pub fn wipe_keys(&mut self) {
        self.keys.clear();
    }

    /// The whole pod-lifetime database is gone: keys, attempts and ledger.
    pub fn wipe_all(&mut self) {
        self.keys.clear();
        self.attempt_rows = 0;
        self.work = DenseMap::new();
        self.booked.clear();
    }

    /// Every open transaction has ended at once (crash or replacement): no claim survives.
    pub fn drop_locks(&mut self) {
        self.locks.clear();
    }
}

/// What a read of the key table found.
#[derive(Clone, Copy, Debug)]
pub(super) enum Read {
    Absent,
    Completed {
        status: u16,
        number: Option<u32>,
    },
    InProgress,
    /// In progress, and its lease (`lease_ms`) has run out: the reader may take it over.
    LeaseExpired,
    Mismatch,
    /// Older than `retention_ms`, and `expired=reject` keeps it: 412.
    Expired,
}

impl Read {
    pub fn found(self) -> Found {
        match self {
            Read::Absent => Found::NotFound,
            Read::Completed { .. } => Found::Completed,
            Read::InProgress | Read::LeaseExpired => Found::InProgress,
            Read::Mismatch => Found::Mismatch,
            Read::Expired => Found::Expired,
        }
    }
}

impl World {
    pub(super) fn record_attempt(&mut self, req: u32) {
        self.store.attempt_rows += 1;
        let row = self.store.attempt_rows;
        self.emit_req(Node::Db, req, EventKind::AttemptRow { row });
    }

    pub(super) fn begin(&mut self, req: u32) {
        let txn = self.store.txn_next;
        self.store.txn_next += 1;
        self.reqs[req as usize].handler.txn = Some(txn);
        self.emit_req(Node::Db, req, EventKind::TxBegin { txn });
    }

    /// Reads the committed row for `key` as `req` sees it. An expired row is removed first.
    pub(super) fn read_key(&mut self, req: u32, key: Key) -> Read {
        let Some(row) = self.store.keys.get(&key).copied() else {
            return Read::Absent;
        };
        let retention_us = u64::from(self.s.retention_ms) * 1_000;
        if self.now_us >= row.created_us.saturating_add(retention_us) {
            if self.s.expired == Expired::Reject {
                return Read::Expired;
            }
            self.store.keys.remove(&key);
            self.emit_req(self.key_node(), req, EventKind::KeyExpired);
            return Read::Absent;
        }
        if row.owner == req {
            return Read::Absent;
        }
        if row.body != self.reqs[req as usize].body {
            return Read::Mismatch;
        }
        match row.done {
            Some((status, number)) => Read::Completed { status, number },
            None if self.lease_left_us(&row) == Some(0) => Read::LeaseExpired,
            None => Read::InProgress,
        }
    }

    /// What is left of an in-progress row's lease; `None` without a lease.
    fn lease_left_us(&self, row: &KeyRow) -> Option<u64> {
        let lease_us = u64::from(self.s.lease_ms?) * 1_000;
        Some(
            row.locked_us
                .saturating_add(lease_us)
                .saturating_sub(self.now_us),
        )
    }

    /// The lease left on `key`'s committed in-progress claim, if it has one.
    pub(super) fn lease_left_ms(&self, key: Key) -> Option<u64> {
        let row = self.store.keys.get(&key).filter(|row| row.done.is_none())?;
        self.lease_left_us(row).map(|us| us.div_ceil(1_000))
    }

    /// Deletes `key`'s committed row if this request owns it; true when it did.
    pub(super) fn delete_own_key(&mut self, req: u32, key: Key) -> bool {
        let owned = self
            .store
            .keys
            .get(&key)
            .is_some_and(|row| row.owner == req);
        if owned {
            self.store.keys.remove(&key);
            self.reqs[req as usize].handler.claim = Claim::None;
        }
        owned
    }

    /// Takes over a claim whose lease ran out, in one conditional update applied at once (the
    /// model does not hold it for the reader's transaction): the row is this request's now, its
    /// lease starts again, and the handler goes on as its owner. No token fences off the first
    /// owner, which may still be at work.
    pub(super) fn take_over(&mut self, req: u32, key: Key) -> super::api::Flow {
        let now_us = self.now_us;
        let row = (self.store.keys.get_mut(&key)).expect("a lease ran out on a row that exists");
        debug_assert!(row.done.is_none(), "only an in-progress claim has a lease");
        row.owner = req;
        row.locked_us = now_us;
        self.reqs[req as usize].handler.claim = Claim::Committed;
        let point = crate::trace::Recovery::Started;
        self.emit_req(self.key_node(), req, EventKind::Takeover { point });
        super::api::Flow::Advance
    }

    /// Inserts the key as in progress under the unique constraint.
    pub(super) fn claim(&mut self, req: u32, key: Key) -> super::api::Flow {
        let wait = self.s.concurrent == Concurrent::Wait;
        if let Some(lock) = self.store.locks.get_mut(&key) {
            if lock.holder != req && !wait {
                return self.in_use(req);
            }
            if lock.holder != req {
                let handler = &mut self.reqs[req as usize].handler;
                if handler.queued_on != Some(lock.serial) {
                    handler.queued_on = Some(lock.serial);
                    lock.waiters.push(req);
                }
                return self.block(req);
            }
        }
        self.reqs[req as usize].handler.blocked = false;
        let read = self.read_key(req, key);
        match read {
            Read::Absent => {}
            Read::LeaseExpired => return self.take_over(req, key),
            _ => return self.claim_conflict(req, read),
        }
        let handler = &mut self.reqs[req as usize].handler;
        if handler.txn.is_some() {
            handler.claim = Claim::Held;
            let serial = self.store.locks_made;
            self.store.locks_made += 1;
            self.store.locks.insert(
                key,
                Lock {
                    holder: req,
                    waiters: Vec::new(),
                    serial,
                },
            );
        } else {
            handler.claim = Claim::Committed;
            let body = self.reqs[req as usize].body;
            let row = KeyRow {
                done: None,
                body,
                created_us: self.now_us,
                locked_us: self.now_us,
                owner: req,
            };
            self.store.keys.insert(key, row);
        }
        self.emit_req(
            self.key_node(),
            req,
            EventKind::Claim {
                result: ClaimResult::Ok,
            },
        );
        super::api::Flow::Advance
    }

    /// `concurrent=conflict`: the key is held by an open transaction, and this copy is answered
    /// 409 rather than queued behind it (as a `NOWAIT` or a zero `lock_timeout` would).
    fn in_use(&mut self, req: u32) -> super::api::Flow {
        let result = ClaimResult::InUse;
        self.emit_req(self.key_node(), req, EventKind::Claim { result });
        self.finish_with(req, 409, None, false)
    }

    fn block(&mut self, req: u32) -> super::api::Flow {
        if !self.reqs[req as usize].handler.blocked {
            self.reqs[req as usize].handler.blocked = true;
            self.emit_req(
                self.key_node(),
                req,
                EventKind::Claim {
                    result: ClaimResult::Blocked,
                },
            );
        }
        super::api::Flow::Wait
    }

    /// A unique violation: the transaction aborts, and the handler answers from a fresh read.
    fn claim_conflict(&mut self, req: u32, read: Read) -> super::api::Flow {
        let node = self.key_node();
        self.emit_req(
            node,
            req,
            EventKind::Claim {
                result: ClaimResult::Conflict,
            },
        );
        if self.reqs[req as usize].handler.txn.is_some() {
            self.rollback(req, RollbackCause::Conflict);
        }
        self.emit_req(
            node,
            req,
            EventKind::Lookup {
                found: read.found(),
            },
        );
        self.answer_from(req, read)
    }

    /// An order's effect became durable: the ledger's business-key index keeps its first one
    /// (only `expired=reject`'s lookup reads it).
    pub(super) fn durable_effect(&mut self, req: u32, number: u32) {
        let order = self.reqs[req as usize].order;
        if self.s.expired == Expired::Reject && self.store.work.get(order).is_none() {
            self.store.work.insert(order, number);
        }
    }

    /// A charge's ledger row became durable: the ledger's indexes learn it, and its event goes
    /// out (`by_api`: the API wrote the row, not the reconciliation job).
    pub(super) fn booked(&mut self, req: u32, number: u32, by_api: bool) {
        self.durable_effect(req, number);
        if self.s.reconcile_ms.is_some() {
            self.store.booked.insert(number as usize);
        }
        self.publish(req, number, by_api);
    }

    /// A `set` write: pending in the transaction, or applied at once without one.
    pub(super) fn write(&mut self, req: u32, value: u32) {
        let handler = &mut self.reqs[req as usize].handler;
        handler.number = Some(value);
        let txn = handler.txn;
        if txn.is_some() {
            handler.pending.write = Some(value);
        }
        self.emit_req(Node::Db, req, EventKind::Write { value, txn });
        if txn.is_none() {
            self.emit_req(Node::Db, req, EventKind::Applied { value });
            self.durable_effect(req, value);
        }
    }

    /// Stores the response under the key: at commit inside a transaction, at once without.
    pub(super) fn store_response(&mut self, req: u32, key: Key, status: u16, number: Option<u32>) {
        self.emit_req(self.key_node(), req, EventKind::Store { status });
        if self.reqs[req as usize].handler.txn.is_some() {
            self.reqs[req as usize].handler.pending.store = Some((status, number));
            return;
        }
        // Without a transaction this is an upsert with no constraint: a later copy overwrites.
        self.put_key_row(req, key, Some((status, number)));
    }

    /// Writes `req`'s committed key row now (replacing any row of the key) with its stored
    /// answer, if it has one yet, and marks the claim committed.
    fn put_key_row(&mut self, req: u32, key: Key, done: Option<(u16, Option<u32>)>) {
        let row = KeyRow {
            done,
            body: self.reqs[req as usize].body,
            created_us: self.now_us,
            locked_us: self.now_us,
            owner: req,
        };
        self.store.keys.insert(key, row);
        self.reqs[req as usize].handler.claim = Claim::Committed;
    }

    pub(super) fn commit(&mut self, req: u32) {
        let handler = &mut self.reqs[req as usize].handler;
        let txn = handler
            .txn
            .take()
            .expect("commit needs an open transaction");
        let pending = std::mem::take(&mut handler.pending);
        let held = handler.claim == Claim::Held;
        self.emit_req(Node::Db, req, EventKind::Commit { txn });
        if let Some(value) = pending.write {
            self.emit_req(Node::Db, req, EventKind::Applied { value });
            self.durable_effect(req, value);
        }
        if let Some(number) = pending.outbox {
            self.booked(req, number, true);
        }
        let key = self.reqs[req as usize].key;
        if let (Some(key), true) = (key, held || pending.store.is_some()) {
            self.put_key_row(req, key, pending.store);
        }
        if held {
            self.release(req);
        }
    }

    pub(super) fn rollback(&mut self, req: u32, cause: RollbackCause) {
        let handler = &mut self.reqs[req as usize].handler;
        let txn = handler
            .txn
            .take()
            .expect("rollback needs an open transaction");
        handler.pending = Default::default();
        let held = handler.claim == Claim::Held;
        if held {
            handler.claim = Claim::None;
        }
        self.emit_req(Node::Db, req, EventKind::Rollback { txn, cause });
        if held {
            self.release(req);
        }
    }

    /// The holder of a claim ended: wake everyone queued behind it to try their insert again.
    fn release(&mut self, req: u32) {
        let Some(key) = self.reqs[req as usize].key else {
            return;
        };
        let Some(lock) = self.store.locks.remove(&key) else {
            return;
        };
        debug_assert_eq!(lock.holder, req, "only the holder releases a claim");
        if self.trace.truncated {
            return;
        }
        for waiter in lock.waiters {
            let gen = self.reqs[waiter as usize].handler.gen;
            self.at(0, Action::Step { req: waiter, gen });
        }
    }
}
