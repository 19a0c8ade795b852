//! Metrics: folds over the trace, and nothing else. The page's counters and the CLI's JSON are
//! both this struct, so they cannot disagree.

mod named;
pub use named::Metric;

use std::collections::BTreeMap;

use idemlab_core::dense::BitSet;

use serde::Serialize;

use idemlab_core::trace::{ClaimResult, Event, EventKind, Found, Key, Outcome, Payload, Trace};

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Outcomes {
    pub ok: u32,
    pub failed: u32,
    /// The client gave up without an answer (retries exhausted).
    pub unknown: u32,
    /// Started and not finished yet: only before the end of a run (the page's cursor) or when
    /// the run was truncated.
    pub in_flight: u32,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Metrics {
    /// Orders a client started.
    pub orders: u32,
    /// Requests the clients sent (every attempt, including retries and reruns).
    pub attempts: u32,
    /// Attempt rows the API recorded: requests that reached it.
    pub received: u32,
    /// Side effects: charges the payment service made, or writes that became durable.
    pub effects: u32,
    /// For a charge order, each charge after the first plus each ledger row that books an
    /// already booked charge again; for `set`, only writes that changed the value. With a
    /// queue, also each receipt after the first for one event (`duplicate_receipts`).
    pub duplicates: u32,
    /// Orders a client saw succeed that have no effect of their own (merged, or never applied).
    pub lost: u32,
    /// Lookups that read "not found" while another copy of the same key was between its own
    /// "not found" and its claim or record: the check-then-insert race.
    pub races: u32,
    /// Charges with no committed ledger row: money moved that the ledger does not show.
    pub unrecorded: u32,
    /// Receipts the queue's consumer mailed (`consumer=plain|inbox`), redeliveries included.
    pub receipts: u32,
    /// Receipts after the first for the same queue event: the consumer's own duplicates.
    pub duplicate_receipts: u32,
    /// Times the queue delivered an event again because no acknowledgement came back.
    pub redeliveries: u32,
    /// Events the queue gave up on after `deliveries_max` deliveries.
    pub dead_letters: u32,
    /// 409s the API answered: a copy that found its key in progress (`concurrent=conflict`
    /// answers every such copy so; `wait` only one that finds a committed claim).
    pub conflicts: u32,
    /// In-progress claims a copy took over after their lease (`lease_ms`) ran out.
    pub takeovers: u32,
    /// Repeats answered with a stored failure (a replayed 500 or 402) rather than run again.
    pub replayed_failures: u32,
    /// Requests refused 412 because their key row had expired (`expired=reject`).
    pub rejected_expired: u32,
    /// Times the API asked the payment service for a charge by its key (`lookup=on`).
    pub lookups: u32,
    /// Ledger rows the reconciliation job (`reconcile_ms`) wrote for charges the ledger lacked.
    pub reconciled: u32,
    /// Charges the reconciliation job refunded: each after its order's first. `duplicates`
    /// still counts them, since each was charged.
    pub refunds: u32,
    /// Committed ledger rows whose event was never published: `relay=direct` and an API crash
    /// between the commit and the publish.
    pub lost_events: u32,
    pub outcomes: Outcomes,
    pub events: u32,
    pub truncated: bool,
    /// Σ over orders of effects², for the standard error of effects per order in a sweep.
    #[serde(skip)]
    pub effects_sq_sum: u64,
}

/// Metrics at any prefix of one trace without refolding it from the start: the fold's state is
/// kept every `interval` events, so `at` folds fewer than that many. The page asks for the
/// counts at its cursor on every frame of a scrub, on traces of 1,000,000 events.
///
/// A checkpoint holds no race windows: the races are counted once, as the sorted event numbers
/// that complete one, and `at` counts those below the prefix. The windows were most of a
/// checkpoint (thousands open at once with one key for every order), and 64 copies of them
/// held 400 MB after one heavy run.
pub struct MetricsIndex {
    checkpoints: Vec<Fold>,
    interval: usize,
    /// Event numbers that complete a race, ascending.
    races: Vec<u32>,
}

/// The shortest interval between checkpoints. Longer traces space them out so that there are
/// at most `CHECKPOINTS_MAX` of them: each holds per-order state (20 bytes an order) and the
/// ledger's bit sets, so 64 of them over 10,000 orders take about 13 MB.
pub const CHECKPOINT_EVENTS: usize = 4_096;
pub const CHECKPOINTS_MAX: usize = 64;

impl MetricsIndex {
    pub fn new(trace: &Trace) -> MetricsIndex {
        let mut job = IndexJob::new(trace);
        while !job.step(trace, usize::MAX) {}
        job.finish()
    }

    /// The same as `Metrics::of_prefix(trace, count)` for the trace this index was built from.
    pub fn at(&self, trace: &Trace, count: usize) -> Metrics {
        let count = count.min(trace.events.len());
        let base = count / self.interval;
        let mut fold = self.checkpoints[base].clone();
        for event in &trace.events[base * self.interval..count] {
            fold.event(event);
        }
        let mut metrics = fold.finish();
        metrics.races = self.races.partition_point(|&ix| (ix as usize) < count) as u32;
        metrics.events = count as u32;
        metrics.truncated = trace.truncated && count == trace.events.len();
        metrics
    }
}

/// `MetricsIndex::new` a slice at a time, for the page's resumable run (`job::RunJob`).
pub struct IndexJob {
    fold: Fold,
    races: Vec<u32>,
    checkpoints: Vec<Fold>,
    interval: usize,
}

impl IndexJob {
    pub fn new(trace: &Trace) -> IndexJob {
        let interval = CHECKPOINT_EVENTS.max(trace.events.len().div_ceil(CHECKPOINTS_MAX));
        let fold = Fold::default();
        let mut checkpoints = Vec::with_capacity(trace.events.len().div_ceil(interval) + 1);
        checkpoints.push(fold.without_races());
        IndexJob {
            fold,
            races: Vec::new(),
            checkpoints,
            interval,
        }
    }

    /// Folds up to `work` more events of `trace` (the one `new` was given) and says whether
    /// every event is folded, when `finish` gives the index.
    pub fn step(&mut self, trace: &Trace, work: usize) -> bool {
        let next = self.fold.seen as usize;
        let end = trace.events.len().min(next.saturating_add(work.max(1)));
        for event in &trace.events[next..end] {
            if self.fold.event(event) {
                self.races.push(self.fold.seen - 1);
            }
            let seen = self.fold.seen as usize;
            // A checkpoint after every whole interval, and one after the last event.
            if seen.is_multiple_of(self.interval) || seen == trace.events.len() {
                self.checkpoints.push(self.fold.without_races());
            }
        }
        end == trace.events.len()
    }

    pub fn finish(mut self) -> MetricsIndex {
        self.races.shrink_to_fit();
        MetricsIndex {
            checkpoints: self.checkpoints,
            interval: self.interval,
            races: self.races,
        }
    }
}

/// Walks the consumer's receipts in order: `on_receipt(event index, queue event id, nth)`,
/// where `nth` counts the receipts of that queue event so far, from 1. The timeline, the
/// Tables tab and the quiz share this rule with `Metrics`: every receipt after the first is a
/// duplicate.
pub fn walk_receipts(events: &[Event], mut on_receipt: impl FnMut(usize, u32, u32)) {
    let mut per_event: Vec<u32> = Vec::new();
    for (ix, event) in events.iter().enumerate() {
        if let EventKind::Receipt { event: id, .. } = event.kind {
            let slot = id as usize;
            if per_event.len() <= slot {
                per_event.resize(slot + 1, 0);
            }
            per_event[slot] += 1;
            on_receipt(ix, id, per_event[slot]);
        }
    }
}

/// The ledger rows (event indices) that, once committed, booked a charge number that was
/// already booked: the timeline marks them as duplicates by the same rule as `Metrics`.
pub fn rebooked_rows(trace: &Trace) -> BitSet {
    let mut rebooked = BitSet::new();
    walk_ledger(&trace.events, |ix, _, already| {
        if already {
            rebooked.insert(ix);
        }
    });
    rebooked
}

/// Walks the ledger as the events make it durable: `on_row(event index, charge number,
/// already booked)` is called for each ledger row when it commits (at once without a
/// transaction); rolled-back rows never are, and a wiped pod ledger forgets what it had.
/// Returns the charge numbers booked at the end of `events`.
pub fn walk_ledger(events: &[Event], mut on_row: impl FnMut(usize, u32, bool)) -> BitSet {
    let mut booked = BitSet::new();
    // Transaction number → its uncommitted rows (event index, charge number). Transaction
    // numbers are dense, so a vector indexed by them; a commit or rollback empties its slot.
    let mut pending: Vec<Vec<(usize, u32)>> = Vec::new();
    let mut book = |ix: usize, number: u32, booked: &mut BitSet| {
        let already = !booked.insert(number as usize);
        on_row(ix, number, already);
    };
    for (ix, event) in events.iter().enumerate() {
        match event.kind {
            EventKind::LedgerRow {
                number, txn: None, ..
            } => book(ix, number, &mut booked),
            EventKind::LedgerRow {
                number,
                txn: Some(txn),
                ..
            } => {
                let txn = txn as usize;
                if pending.len() <= txn {
                    pending.resize_with(txn + 1, Vec::new);
                }
                pending[txn].push((ix, number));
            }
            EventKind::Commit { txn } => {
                let rows = pending.get_mut(txn as usize).map(std::mem::take);
                for (row, number) in rows.unwrap_or_default() {
                    book(row, number, &mut booked);
                }
            }
            EventKind::Rollback { txn, .. } => {
                if let Some(rows) = pending.get_mut(txn as usize) {
                    *rows = Vec::new();
                }
            }
            EventKind::Replace { wiped: true, .. } => booked.clear(),
            _ => {}
        }
    }
    booked
}

/// What one order accumulated over the run: 20 bytes, since the index keeps one per order in
/// each of its checkpoints.
#[derive(Clone, Debug, Default)]
struct OrderFold {
    effects: u32,
    /// Ledger rows that booked a charge already booked: with a keyed provider a repeat can
    /// charge once and still be recorded twice.
    rebooked: u32,
    changes: u32,
    /// The last value written, when `written`.
    last_value: u32,
    written: bool,
    started: bool,
    outcome: Option<Outcome>,
}

impl Metrics {
    pub fn of(trace: &Trace) -> Metrics {
        Metrics::of_prefix(trace, trace.events.len())
    }

    /// The counts as they stand after the first `count` events: what the page shows at its
    /// playback cursor.
    pub fn of_prefix(trace: &Trace, count: usize) -> Metrics {
        let events = &trace.events[..count.min(trace.events.len())];
        let mut fold = Fold::default();
        for event in events {
            fold.event(event);
        }
        let mut metrics = fold.finish();
        metrics.events = events.len() as u32;
        metrics.truncated = trace.truncated && events.len() == trace.events.len();
        metrics
    }
}

#[derive(Clone, Default)]
struct Fold {
    metrics: Metrics,
    orders: Vec<OrderFold>,
    /// The check-then-insert race, the same detector the timeline shades races with. A
    /// checkpoint of `MetricsIndex` leaves it out (`races_off`), since the index counts races
    /// on its own.
    races: Races,
    races_off: bool,
    /// Events folded so far: the index of the next one.
    seen: u32,
    /// The uncommitted ledger rows as (transaction, charge number, order), in trace order.
    /// Only open transactions have rows here, at most one per live handler, so a commit scans
    /// them (hundreds at worst); a checkpoint copies them flat.
    ledger_pending: Vec<(u32, u32, Option<u32>)>,
    /// Charge numbers with a committed ledger row, to spot a second booking of the same charge.
    booked: BitSet,
    /// Charge numbers the payment service made (each new charge has its own number).
    charged: BitSet,
    /// Queue events that have had a receipt.
    receipted: BitSet,
}

impl Fold {
    fn order(&mut self, order: Option<u32>) -> &mut OrderFold {
        let index = order.expect("order events carry their order") as usize - 1;
        if self.orders.len() <= index {
            self.orders.resize(index + 1, OrderFold::default());
        }
        &mut self.orders[index]
    }

    /// A copy to resume from, without the race windows.
    fn without_races(&self) -> Fold {
        Fold {
            metrics: self.metrics.clone(),
            orders: self.orders.clone(),
            races: Races::default(),
            races_off: true,
            seen: self.seen,
            ledger_pending: self.ledger_pending.clone(),
            booked: self.booked.clone(),
            charged: self.charged.clone(),
            receipted: self.receipted.clone(),
        }
    }

    /// Folds one event; true when it completes a race.
    fn event(&mut self, event: &idemlab_core::trace::Event) -> bool {
        let race = !self.races_off && self.races.event(self.seen, event).is_some();
        if race {
            self.metrics.races += 1;
        }
        self.seen += 1;
        let m = &mut self.metrics;
        match event.kind {
            EventKind::OrderStart => self.order(event.order()).started = true,
            EventKind::Send {
                payload: Payload::Request { .. },
                ..
            } => m.attempts += 1,
            EventKind::AttemptRow { .. } => m.received += 1,
            EventKind::Charge {
                number,
                replay: false,
            } => {
                self.charged.insert(number as usize);
                self.order(event.order()).effects += 1;
            }
            EventKind::Applied { value } => self.applied(event.order(), value),
            EventKind::OrderDone { outcome, .. } => {
                let order = self.order(event.order());
                order.outcome = Some(best(order.outcome, outcome));
            }
            EventKind::LedgerRow {
                number,
                txn: None,
                reconciled,
            } => {
                m.reconciled += u32::from(reconciled);
                self.ledger_row(number, event.order())
            }
            EventKind::LedgerRow {
                number,
                txn: Some(txn),
                ..
            } => self.ledger_pending.push((txn, number, event.order())),
            EventKind::Refund { .. } => m.refunds += 1,
            EventKind::EventLost { .. } => m.lost_events += 1,
            EventKind::Commit { txn } => self.commit(txn),
            EventKind::Rollback { txn, .. } => self.ledger_pending.retain(|&(of, ..)| of != txn),
            EventKind::Receipt { event: id, .. } => self.receipt(id),
            EventKind::Redeliver { .. } => m.redeliveries += 1,
            EventKind::Reply { status: 409, .. } => m.conflicts += 1,
            EventKind::Takeover { .. } => m.takeovers += 1,
            EventKind::Reply { status: 412, .. } => m.rejected_expired += 1,
            EventKind::Send {
                payload: Payload::FindCharge,
                ..
            } => m.lookups += 1,
            EventKind::Reply {
                status,
                replay: true,
            } if status != 200 => m.replayed_failures += 1,
            EventKind::DeadLetter { .. } => m.dead_letters += 1,
            // A pod-lifetime ledger is gone with its pod: what it recorded is recorded no more.
            EventKind::Replace { wiped: true, .. } => self.booked.clear(),
            _ => {}
        }
        race
    }

    /// Transaction `txn` committed: the ledger rows it wrote become durable.
    fn commit(&mut self, txn: u32) {
        let rows = std::mem::take(&mut self.ledger_pending);
        for &(of, number, order) in &rows {
            if of == txn {
                self.ledger_row(number, order);
            }
        }
        self.ledger_pending = rows;
        self.ledger_pending.retain(|&(of, ..)| of != txn);
    }

    /// A ledger row became durable; booking a charge that is already booked is a duplicate.
    fn ledger_row(&mut self, number: u32, order: Option<u32>) {
        if !self.booked.insert(number as usize) {
            self.order(order).rebooked += 1;
        }
    }

    fn receipt(&mut self, event: u32) {
        self.metrics.receipts += 1;
        if !self.receipted.insert(event as usize) {
            self.metrics.duplicate_receipts += 1;
        }
    }

    fn applied(&mut self, order: Option<u32>, value: u32) {
        let order = self.order(order);
        order.effects += 1;
        if order.written && order.last_value != value {
            order.changes += 1;
        }
        order.last_value = value;
        order.written = true;
    }

    fn finish(self) -> Metrics {
        let mut m = self.metrics;
        for order in self.orders.iter().filter(|order| order.started) {
            m.orders += 1;
            m.effects += order.effects;
            m.effects_sq_sum += u64::from(order.effects) * u64::from(order.effects);
            // A charge repeats harm every time: each extra charge, and each extra booking of the
            // same charge in the ledger. A set does harm only when it changed the value.
            m.duplicates += if order.written {
                order.changes
            } else {
                order.effects.saturating_sub(1) + order.rebooked
            };
            match order.outcome {
                Some(Outcome::Ok) => m.outcomes.ok += 1,
                Some(Outcome::Failed) => m.outcomes.failed += 1,
                Some(Outcome::Unknown) => m.outcomes.unknown += 1,
                None => m.outcomes.in_flight += 1,
            }
            if order.outcome == Some(Outcome::Ok) && order.effects == 0 {
                m.lost += 1;
            }
        }
        m.duplicates += m.duplicate_receipts;
        m.unrecorded = self.charged.count_without(&self.booked);
        m
    }
}

/// Across executions of one order (a rerun runs it again), the client's best news wins.
fn best(previous: Option<Outcome>, next: Outcome) -> Outcome {
    let rank = |outcome: Outcome| match outcome {
        Outcome::Ok => 2,
        Outcome::Failed => 1,
        Outcome::Unknown => 0,
    };
    match previous {
        Some(previous) if rank(previous) >= rank(next) => previous,
        _ => next,
    }
}

/// A "not found" read: which request, at which event of the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Read {
    pub req: u32,
    pub event: u32,
}

/// One check-then-insert race: a read of `key` that found nothing while an earlier read of
/// another request (`first`) had its window open.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Race {
    pub first: Read,
    pub second: Read,
    pub key: Key,
}

/// The race detector, fed the trace in order. A request's window opens at its "not found"
/// lookup and closes at its claim (ok or conflict), its store or its reply; a crash closes them
/// all. A "not found" read while another request of the same key has an open window is one
/// race. `Metrics::races` counts what it finds and the timeline shades each one, so the page
/// never shows a race the counter does not count.
#[derive(Clone, Debug, Default)]
pub struct Races {
    /// Open windows by (key, request) → the read's event number, and the same reads by (key,
    /// event number) → request, oldest first. Two flat ordered maps rather than a scanned list
    /// per key: with one key for every order thousands of copies can be open at once, and a
    /// scan per lookup makes the fold quadratic, enough to freeze the page; flat rather
    /// than a map per key, so that the common case (a window or two per key) allocates little.
    /// Both keyed by `Key::packed` shifted up 32 bits with the request or event number below
    /// it (`pair`), so that they are the same `BTreeMap` instance as `dense::KeyMap`'s index:
    /// each instance is kilobytes of the page's wasm.
    by_req: BTreeMap<u128, u32>,
    by_event: BTreeMap<u128, u32>,
}

/// `(key, n)` as one number that orders as the pair does.
fn pair(key: Key, n: u32) -> u128 {
    key.packed() << 32 | u128::from(n)
}

impl Races {
    /// Takes event number `ix`; returns the race it completes, if any.
    pub fn event(&mut self, ix: u32, event: &Event) -> Option<Race> {
        let (Some(key), Some(req)) = (event.key, event.req()) else {
            if event.kind == EventKind::Crash {
                self.by_req.clear();
                self.by_event.clear();
            }
            return None;
        };
        match event.kind {
            EventKind::Lookup {
                found: Found::NotFound,
            } => {
                let second = Read { req, event: ix };
                // The oldest read of another request: at most one entry (this request's own)
                // is passed over.
                let first = self
                    .by_event
                    .range(pair(key, 0)..=pair(key, u32::MAX))
                    .find(|&(_, &other)| other != req)
                    .map(|(&packed, &req)| Read {
                        req,
                        event: packed as u32,
                    });
                if let std::collections::btree_map::Entry::Vacant(slot) =
                    self.by_req.entry(pair(key, req))
                {
                    slot.insert(ix);
                    self.by_event.insert(pair(key, ix), req);
                }
                first.map(|first| Race { first, second, key })
            }
            EventKind::Claim {
                result: ClaimResult::Ok | ClaimResult::Conflict | ClaimResult::InUse,
            }
            | EventKind::Store { .. }
            | EventKind::Reply { .. } => {
                if let Some(read_ix) = self.by_req.remove(&pair(key, req)) {
                    self.by_event.remove(&pair(key, read_ix));
                }
                None
            }
            _ => None,
        }
    }
}
