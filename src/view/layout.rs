//! Layout: one pass over the trace that turns events into lanes and marks.
//!
//! Effects are counted in a first pass so that a charge can say "2 of 3" when it is drawn; the
//! main pass opens arrows, transactions, blocked waits and outages at their first event and
//! closes them at their last; races are found in their own fold (`race.rs`). Nothing here
//! allocates per pixel or per viewport: that is `cull.rs`.

use std::collections::BTreeMap;

use super::cull::MarkIndex;
use super::mark::{
    ArrowEnd, ArrowPayload, Band, Effect, EventIx, Lane, LaneIx, Mark, MarkKind, Span, Tally,
    TxnEnd,
};
use super::race;
use crate::trace::{
    claim_text, found_text, rollback_text, ClaimResult, DropCause, Event, EventKind, Node, Outcome,
    Payload, Trace,
};

/// Lanes are u16, so a trace with more pods than this cannot be laid out. The codec allows far
/// fewer (16 clients, each rerun once).
const PODS_MAX: usize = LaneIx::MAX as usize - 3;

/// The laid-out trace: lanes, the time extent and the marks, sorted by start time. Read-only
/// from outside, because the culling index must keep matching the marks.
#[derive(Clone, Debug)]
pub struct Timeline {
    pub(super) lanes: Vec<Lane>,
    pub(super) end_us: u64,
    pub(super) marks: Vec<Mark>,
    pub(super) events: u32,
    pub(super) truncated: bool,
    pub(super) index: MarkIndex,
}

impl Timeline {
    /// Client pods in pod order, then the API, the payment service and the database.
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// Sorted by `(t0_us, first event)`; a mark's index is stable for a given trace.
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    pub fn mark(&self, ix: u32) -> &Mark {
        &self.marks[ix as usize]
    }

    /// The time of the last event; the extent is `0..=end_us`, at least 1 µs wide.
    pub fn end_us(&self) -> u64 {
        self.end_us
    }

    /// How many events the trace had.
    pub fn events(&self) -> u32 {
        self.events
    }

    /// True when the run stopped at `events_max`.
    pub fn truncated(&self) -> bool {
        self.truncated
    }

    /// The lane a node is drawn on, if the trace has it.
    pub fn lane_of(&self, node: Node) -> Option<LaneIx> {
        let ix = self.lanes.iter().position(|lane| lane.node == node)?;
        LaneIx::try_from(ix).ok()
    }

    /// How many marks are flagged as duplicate effects; equals `Metrics::duplicates`.
    pub fn duplicates(&self) -> u32 {
        self.marks.iter().filter(|mark| mark.is_duplicate()).count() as u32
    }

    /// How many race regions there are; equals `Metrics::races`.
    pub fn races(&self) -> u32 {
        (self.marks.iter())
            .filter(|mark| matches!(mark.kind, MarkKind::Race { .. }))
            .count() as u32
    }
}

/// Lays out a trace. Pure and deterministic: the same trace gives the same timeline.
pub fn layout(trace: &Trace) -> Timeline {
    assert!(trace.pods.len() <= PODS_MAX, "too many pods for u16 lanes");
    let lanes = lanes(trace);
    let end_us = trace.events.last().map_or(0, |e| e.time_us).max(1);
    let api = lane_of(trace, Node::Api);
    let races = race::races(trace, api, lane_of(trace, Node::Db));
    // Sized once, for at most one mark per event plus the races, and trimmed at the end: the
    // page's wasm memory never shrinks, so a vector that doubled (or was copied to grow)
    // would keep up to twice the marks' memory for the rest of the page's life.
    let capacity = trace.events.len() + races.len();
    let mut builder = Builder::new(trace, effect_totals(trace), capacity);
    for (ix, event) in trace.events.iter().enumerate() {
        let ix = EventIx::try_from(ix).expect("events are bounded by events_max");
        builder.event(ix, event);
    }
    let mut marks = builder.finish(end_us);
    marks.extend(races);
    marks.shrink_to_fit();
    sort_marks(&mut marks);
    let index = MarkIndex::new(&marks);
    Timeline {
        lanes,
        end_us,
        marks,
        events: u32::try_from(trace.events.len()).expect("events are bounded by events_max"),
        truncated: trace.truncated,
        index,
    }
}

/// Sorts by `(t0_us, first event)`, ties in their present order (so trace order), as a stable
/// sort would; but a stable sort of a million marks borrows half their size again as scratch,
/// and here only a key per mark is sorted and the marks are then moved into place.
fn sort_marks(marks: &mut [Mark]) {
    let mut keys: Vec<(u64, EventIx, u32)> = (marks.iter().enumerate())
        .map(|(ix, mark)| (mark.t0_us, mark.events[0], ix as u32))
        .collect();
    keys.sort_unstable();
    // `from[i]`: where the mark that belongs at `i` is now. Each cycle of the permutation is
    // walked once with swaps; a visited slot points at itself.
    let mut from: Vec<u32> = keys.into_iter().map(|(_, _, ix)| ix).collect();
    for start in 0..from.len() {
        let mut at = start;
        loop {
            let next = from[at] as usize;
            from[at] = at as u32;
            if next == start {
                break;
            }
            marks.swap(at, next);
            at = next;
        }
    }
}

fn lanes(trace: &Trace) -> Vec<Lane> {
    let mut lanes: Vec<Lane> = (trace.pods.iter().enumerate())
        .map(|(pod, p)| Lane {
            node: Node::Client(pod as u16),
            label: format!("pod {:08x}{}", p.uid, if p.rerun { " (rerun)" } else { "" }),
            rerun: p.rerun,
        })
        .collect();
    let queued = trace.scenario.consumer != crate::scenario::Consumer::Off;
    let servers = [
        (Node::Api, "API"),
        (Node::Payment, "payment service"),
        (Node::Db, "database"),
    ];
    let queue = [
        (Node::Queue, "queue"),
        (Node::Consumer, "consumer (receipts)"),
    ];
    let shown = servers.iter().chain(queue.iter().filter(|_| queued));
    lanes.extend(shown.map(|&(node, label)| Lane {
        node,
        label: label.into(),
        rerun: false,
    }));
    lanes
}

/// Client lanes come first in pod order, then the API, the payment service and the database,
/// and last the queue and its consumer when the run has them.
pub(super) fn lane_of(trace: &Trace, node: Node) -> LaneIx {
    let pods = trace.pods.len() as LaneIx;
    match node {
        Node::Client(pod) => pod,
        Node::Api => pods,
        Node::Payment => pods + 1,
        Node::Db => pods + 2,
        Node::Queue => pods + 3,
        Node::Consumer => pods + 4,
    }
}

/// The first pass: how many effects each order has in all, indexed by order − 1.
fn effect_totals(trace: &Trace) -> Vec<u32> {
    let mut totals = Vec::new();
    for event in &trace.events {
        let is_effect = matches!(
            event.kind,
            EventKind::Charge { replay: false, .. } | EventKind::Applied { .. }
        );
        if let (true, Some(order)) = (is_effect, event.order) {
            let ix = order as usize - 1;
            if totals.len() <= ix {
                totals.resize(ix + 1, 0);
            }
            totals[ix] += 1;
        }
    }
    totals
}

/// One order's effects seen so far in the main pass.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    count: u32,
    last_value: Option<u32>,
}

/// The main pass's state: marks made so far and the ones still open.
struct Builder<'t> {
    trace: &'t Trace,
    marks: Vec<Mark>,
    totals: Vec<u32>,
    seen: Vec<Seen>,
    /// msg → index of its arrow in `marks`; messages are numbered densely from 0.
    arrows: Vec<Option<usize>>,
    txns: BTreeMap<u32, usize>,
    /// Ledger rows that book an already booked charge (the same rule as `Metrics`).
    rebooked: std::collections::BTreeSet<usize>,
    /// Receipts (event indices) that repeat one their queue event already had.
    repeated_receipts: std::collections::BTreeSet<usize>,
    /// req → index of its open blocked span.
    blocked: BTreeMap<u32, usize>,
    api_down: Option<usize>,
}

impl<'t> Builder<'t> {
    fn new(trace: &'t Trace, totals: Vec<u32>, marks: usize) -> Builder<'t> {
        Builder {
            trace,
            marks: Vec::with_capacity(marks),
            seen: vec![Seen::default(); totals.len()],
            totals,
            arrows: Vec::new(),
            txns: BTreeMap::new(),
            rebooked: crate::metrics::rebooked_rows(trace),
            repeated_receipts: repeated_receipts(trace),
            blocked: BTreeMap::new(),
            api_down: None,
        }
    }

    fn push(&mut self, ix: EventIx, event: &Event, kind: MarkKind, label: String) -> usize {
        self.marks.push(Mark {
            t0_us: event.time_us,
            t1_us: event.time_us,
            lane: lane_of(self.trace, event.node),
            kind,
            label,
            events: vec![ix],
            order: event.order,
            attempt: event.attempt,
        });
        self.marks.len() - 1
    }

    fn point(&mut self, ix: EventIx, event: &Event, tally: Tally, label: String) {
        let kind = MarkKind::Point {
            event: event.kind,
            tally,
        };
        self.push(ix, event, kind, label);
    }

    /// Ends an open mark at `event`, adding the event to it.
    fn close(&mut self, mark: usize, ix: EventIx, event: &Event) {
        let mark = &mut self.marks[mark];
        debug_assert!(
            event.time_us >= mark.t0_us,
            "marks never end before they start"
        );
        mark.t1_us = event.time_us;
        mark.events.push(ix);
    }

    fn event(&mut self, ix: EventIx, event: &Event) {
        match event.kind {
            EventKind::Send { msg, to, payload } => self.send(ix, event, msg, to, payload),
            EventKind::Deliver { msg } => self.arrive(ix, event, msg, ArrowEnd::Delivered),
            EventKind::Drop { msg, cause } => {
                let midway = matches!(cause, DropCause::Loss | DropCause::Partition);
                self.arrive(ix, event, msg, ArrowEnd::Dropped { cause, midway })
            }
            EventKind::TxBegin { txn } => self.begin(ix, event, txn),
            EventKind::Commit { .. } | EventKind::Rollback { .. } => self.end_txn(ix, event),
            EventKind::Claim { .. } => self.claim(ix, event),
            EventKind::Charge { .. } | EventKind::Applied { .. } => self.effect(ix, event),
            EventKind::Crash | EventKind::Restart => self.outage(ix, event),
            EventKind::PodStart { .. } | EventKind::Replace { .. } | EventKind::CapReached => {
                self.band(ix, event)
            }
            _ => self.simple_point(ix, event),
        }
    }

    fn send(&mut self, ix: EventIx, event: &Event, msg: u32, to: Node, payload: Payload) {
        let (payload, label) = arrow_label(event, payload);
        let kind = MarkKind::Arrow {
            to_lane: lane_of(self.trace, to),
            msg,
            payload,
            end: ArrowEnd::InFlight,
        };
        let mark = self.push(ix, event, kind, label);
        let slot = msg as usize;
        if self.arrows.len() <= slot {
            self.arrows.resize(slot + 1, None);
        }
        assert!(self.arrows[slot].is_none(), "each message is sent once");
        self.arrows[slot] = Some(mark);
    }

    fn arrive(&mut self, ix: EventIx, event: &Event, msg: u32, how: ArrowEnd) {
        let Some(mark) = self.arrows.get_mut(msg as usize).and_then(Option::take) else {
            panic!("event {ix}: message m{msg} ends without a send, or ends twice");
        };
        self.close(mark, ix, event);
        if let MarkKind::Arrow { end, .. } = &mut self.marks[mark].kind {
            *end = how;
        }
    }

    fn begin(&mut self, ix: EventIx, event: &Event, txn: u32) {
        let span = Span::Txn {
            txn,
            end: TxnEnd::Open,
        };
        let mark = self.push(ix, event, MarkKind::Span { span }, format!("tx{txn}"));
        self.txns.insert(txn, mark);
    }

    fn end_txn(&mut self, ix: EventIx, event: &Event) {
        let (txn, end, label) = match event.kind {
            EventKind::Commit { txn } => (txn, TxnEnd::Commit, "COMMIT"),
            EventKind::Rollback { txn, cause } => (txn, TxnEnd::Rollback { cause }, "ROLLBACK"),
            _ => unreachable!("only commit and rollback end a transaction"),
        };
        let mut text = format!("{label} tx{txn}");
        if let TxnEnd::Rollback { cause } = end {
            text = format!("{text} ({})", rollback_text(cause));
            self.unblock(ix, event);
        }
        self.point(ix, event, Tally::Plain, text);
        if let Some(mark) = self.txns.remove(&txn) {
            self.close(mark, ix, event);
            self.marks[mark].kind = MarkKind::Span {
                span: Span::Txn { txn, end },
            };
        }
    }

    fn claim(&mut self, ix: EventIx, event: &Event) {
        let EventKind::Claim { result } = event.kind else {
            unreachable!("claim() is called for claims")
        };
        let label = format!("insert key: {}", claim_text(result));
        self.point(ix, event, Tally::Plain, label);
        let Some(req) = event.req else { return };
        if result == ClaimResult::Blocked {
            let kind = MarkKind::Span {
                span: Span::Blocked,
            };
            let mark = self.push(ix, event, kind, "blocked on the unique index".into());
            self.blocked.insert(req, mark);
        } else {
            self.unblock(ix, event);
        }
    }

    /// The claim a request waited on is resolved (or its handler ended): its wait ends here.
    fn unblock(&mut self, ix: EventIx, event: &Event) {
        if let Some(mark) = event.req.and_then(|req| self.blocked.remove(&req)) {
            self.close(mark, ix, event);
        }
    }

    fn effect(&mut self, ix: EventIx, event: &Event) {
        let (tally, label) = match event.kind {
            EventKind::Charge {
                number,
                replay: true,
            } => (
                Tally::Plain,
                format!("returns charge #{number} (key known)"),
            ),
            EventKind::Charge { number, .. } => self.charge(event, number),
            EventKind::Applied { value } => self.applied(event, value),
            _ => unreachable!("effect() is called for charges and applied writes"),
        };
        self.point(ix, event, tally, label);
    }

    /// Counts one more effect of the event's order: its place, and the previous value written.
    fn count_effect(&mut self, event: &Event, value: Option<u32>) -> (u32, Effect, Option<u32>) {
        let order = event.order.expect("effects belong to an order");
        let ix = order as usize - 1;
        let seen = &mut self.seen[ix];
        seen.count += 1;
        let previous = seen.last_value;
        if value.is_some() {
            seen.last_value = value;
        }
        let effect = Effect {
            nth: seen.count,
            total: self.totals[ix],
            duplicate: false,
        };
        (order, effect, previous)
    }

    fn charge(&mut self, event: &Event, number: u32) -> (Tally, String) {
        let (order, mut effect, _) = self.count_effect(event, None);
        // Every charge after the first moves money again (metrics.rs counts effects − 1).
        effect.duplicate = effect.nth >= 2;
        let label = if effect.total >= 2 {
            format!(
                "order {order}: charge {} of {} (#{number})",
                effect.nth, effect.total
            )
        } else {
            format!("charge #{number}")
        };
        (Tally::Effect(effect), label)
    }

    fn applied(&mut self, event: &Event, value: u32) -> (Tally, String) {
        let (order, mut effect, previous) = self.count_effect(event, Some(value));
        // A repeated set is harmless unless it changed the value (metrics.rs counts changes).
        effect.duplicate = previous.is_some_and(|last| last != value);
        let label = if effect.total >= 2 {
            format!(
                "order {order}: write {} of {} (value {value})",
                effect.nth, effect.total
            )
        } else {
            format!("value {value} applied")
        };
        (Tally::Effect(effect), label)
    }

    fn outage(&mut self, ix: EventIx, event: &Event) {
        if event.kind == EventKind::Restart {
            if let Some(mark) = self.api_down.take() {
                self.close(mark, ix, event);
            }
            return;
        }
        // A crash ends every handler, so every wait on a claim ends with it.
        let waits: Vec<usize> = std::mem::take(&mut self.blocked).into_values().collect();
        for mark in waits {
            self.close(mark, ix, event);
        }
        let kind = MarkKind::Band {
            band: Band::ApiDown,
        };
        let mark = self.push(ix, event, kind, "API down".into());
        self.api_down = Some(mark);
    }

    fn band(&mut self, ix: EventIx, event: &Event) {
        let (kind, label) = match event.kind {
            EventKind::PodStart { uid, rerun: false } => (
                MarkKind::Point {
                    event: event.kind,
                    tally: Tally::Plain,
                },
                format!("pod {uid:08x} starts"),
            ),
            EventKind::PodStart { uid, rerun: true } => (
                MarkKind::Band { band: Band::Rerun },
                format!("rerun: pod {uid:08x} starts"),
            ),
            EventKind::Replace { wiped, .. } => (
                MarkKind::Band {
                    band: Band::LedgerReplaced { wiped },
                },
                if wiped {
                    "ledger replaced: store lost".into()
                } else {
                    "ledger replaced: store kept".into()
                },
            ),
            EventKind::CapReached => (
                MarkKind::Band {
                    band: Band::CapReached,
                },
                "event cap reached".into(),
            ),
            _ => unreachable!("band() is called for pod starts, replacements and the cap"),
        };
        self.push(ix, event, kind, label);
    }

    fn simple_point(&mut self, ix: EventIx, event: &Event) {
        let plain = |label: String| (Tally::Plain, label);
        let (tally, label) = match event.kind {
            EventKind::OrderStart => plain(order_text(event, "starts")),
            EventKind::Timeout => plain("timeout".into()),
            EventKind::Retry { delay_us } => plain(retry(event, delay_us)),
            EventKind::OrderDone { outcome, status } => plain(order_done(event, outcome, status)),
            EventKind::AttemptRow { row } => plain(format!("attempt row {row}")),
            EventKind::Lookup { found } => {
                self.unblock(ix, event);
                plain(format!("lookup: {}", found_text(found)))
            }
            EventKind::KeyExpired => plain("key expired".into()),
            EventKind::LedgerRow { number, .. } if self.rebooked.contains(&(ix as usize)) => (
                Tally::Repeat,
                format!(
                    "order {}: charge #{number} booked again",
                    event.order.unwrap_or(0)
                ),
            ),
            EventKind::LedgerRow { number, .. } => plain(format!("ledger row #{number}")),
            EventKind::Write { value, .. } => plain(format!("write {value}")),
            EventKind::Store { status } => {
                self.unblock(ix, event);
                plain(format!("store {status}"))
            }
            EventKind::Reply { status, replay } => {
                self.unblock(ix, event);
                plain(reply(status, replay))
            }
            EventKind::Inbox { event: id, fresh } => plain(inbox(id, fresh)),
            EventKind::Receipt { event: id, number } => {
                receipt(id, number, self.repeated_receipts.contains(&(ix as usize)))
            }
            EventKind::Redeliver {
                event: id,
                delivery,
            } => plain(format!("no ack: e{id} again (delivery {delivery})")),
            EventKind::DeadLetter { event: id } => plain(format!("e{id} to the dead-letter queue")),
            _ => unreachable!("event() routes every other kind elsewhere"),
        };
        self.point(ix, event, tally, label);
    }

    /// Closes what is still open at the end of the trace and hands the marks over.
    fn finish(mut self, end_us: u64) -> Vec<Mark> {
        let open = (self.arrows.iter().flatten())
            .chain(self.txns.values())
            .chain(self.blocked.values())
            .chain(self.api_down.iter());
        for &mark in open {
            self.marks[mark].t1_us = end_us.max(self.marks[mark].t0_us);
        }
        self.marks
    }
}

/// The receipts that the metrics count as duplicates, by event index.
fn repeated_receipts(trace: &Trace) -> std::collections::BTreeSet<usize> {
    let mut repeated = std::collections::BTreeSet::new();
    crate::metrics::walk_receipts(&trace.events, |ix, _, nth| {
        if nth > 1 {
            repeated.insert(ix);
        }
    });
    repeated
}

/// A receipt, marked as a duplicate when its event already had one.
fn receipt(event: u32, number: u32, duplicate: bool) -> (Tally, String) {
    if duplicate {
        (Tally::Repeat, format!("receipt #{number} again (e{event})"))
    } else {
        (Tally::Plain, format!("receipt #{number}"))
    }
}

fn arrow_label(event: &Event, payload: Payload) -> (ArrowPayload, String) {
    match payload {
        Payload::Request { .. } => {
            let attempt = event.attempt.unwrap_or(0);
            (ArrowPayload::Request, format!("attempt {attempt}"))
        }
        Payload::Response {
            status,
            number,
            replay,
        } => {
            let mut label = status.to_string();
            if let Some(number) = number {
                label.push_str(&format!(" #{number}"));
            }
            if replay {
                label.push_str(" (replayed)");
            }
            (ArrowPayload::Response, label)
        }
        Payload::Charge { keyed: true } => (ArrowPayload::Charge, "charge (key forwarded)".into()),
        Payload::Charge { keyed: false } => (ArrowPayload::Charge, "charge (no key)".into()),
        Payload::Charged { number } => (ArrowPayload::Charged, format!("charged #{number}")),
        Payload::Publish { event } => (ArrowPayload::Event, format!("publish e{event}")),
        Payload::Delivery { event, delivery: 1 } => {
            (ArrowPayload::Event, format!("deliver e{event}"))
        }
        Payload::Delivery { event, delivery } => (
            ArrowPayload::Event,
            format!("deliver e{event} (#{delivery})"),
        ),
        Payload::Ack { event, .. } => (ArrowPayload::Ack, format!("ack e{event}")),
    }
}

fn order_text(event: &Event, what: &str) -> String {
    match event.order {
        Some(order) => format!("order {order} {what}"),
        None => format!("order {what}"),
    }
}

fn retry(event: &Event, delay_us: u64) -> String {
    // The event belongs to the attempt that failed; the retry is the next one.
    let attempt = event.attempt.unwrap_or(0).saturating_add(1);
    format!("attempt {attempt} in {}", ms_text(delay_us))
}

fn order_done(event: &Event, outcome: Outcome, status: Option<u16>) -> String {
    let word = match outcome {
        Outcome::Ok => "ok",
        Outcome::Failed => "failed",
        Outcome::Unknown => "unknown",
    };
    let mut label = order_text(event, &format!("done: {word}"));
    if let Some(status) = status {
        label.push_str(&format!(" ({status})"));
    }
    label
}

fn inbox(event: u32, fresh: bool) -> String {
    if fresh {
        format!("inbox: e{event} new")
    } else {
        format!("inbox: e{event} seen, skip")
    }
}

fn reply(status: u16, replay: bool) -> String {
    match (status, replay) {
        (_, true) => format!("{status} (replayed)"),
        (409, _) => "409 in progress".into(),
        (422, _) => "422 body mismatch".into(),
        (400, _) => "400 no key".into(),
        (503, _) => "503 unavailable".into(),
        _ => status.to_string(),
    }
}

/// Microseconds as milliseconds with as many decimals as needed, e.g. `5.582 ms`, `40 ms`.
pub fn ms_text(time_us: u64) -> String {
    let (ms, frac_us) = (time_us / 1_000, time_us % 1_000);
    if frac_us == 0 {
        format!("{ms} ms")
    } else {
        let frac = format!("{frac_us:03}");
        format!("{ms}.{} ms", frac.trim_end_matches('0'))
    }
}
