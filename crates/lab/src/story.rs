//! The run as text: for each order its tries, which copies raced (both read "not found"), which
//! charge is the duplicate, and which answer was lost and why. The page's "The run as text"
//! section and the timeline canvas's accessible description, so that a learner who cannot see
//! the canvas reads the race here. Every sentence is derived from the trace by the same rules
//! as the counters (`metrics::Races`, `walk_ledger`, `walk_receipts`); `tests/story.rs` checks
//! it against runs.

use std::fmt::Write as _;

use crate::metrics::{walk_ledger, walk_receipts, Metrics, Races};
use idemlab_core::dense::{BitSet, DenseMap};
use idemlab_core::scenario::Op;
use idemlab_core::trace::{
    drop_cause, DropCause, Event, EventKind, Key, Node, Outcome, Payload, Trace,
};

/// Orders the page tells at most: a big run's text stays a short read.
pub const ORDERS_SHOWN_MAX: usize = 12;

/// Runs longer than this are summed up, not told order by order: the fold takes about 20 ms
/// natively per 100,000 events, and the page tells a run in the task that finishes building
/// it (1M events took 0.2 s).
pub const EVENTS_TOLD_MAX: usize = 100_000;

/// What the section says while the run may not be read: a step waiting for its prediction, a
/// quiz question's hidden run, or a run still being computed.
pub const HELD: &str = "Shown once the run is built and any prediction is answered.";

/// The text of a run: a one-line summary, a paragraph per order shown (orders with something
/// to tell first), and what was left out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Story {
    pub summary: String,
    pub orders: Vec<String>,
    pub left_out: Option<String>,
}

/// One attempt of an order, by one client pod.
#[derive(Clone, Debug, Default)]
struct Try {
    pod: u16,
    attempt: u16,
    /// The idempotency key it carried.
    key: Option<Key>,
    /// What became of it, in the order it happened.
    steps: Vec<TryStep>,
}

#[derive(Clone, Copy, Debug)]
enum TryStep {
    RequestLost(DropCause),
    KeyExpired,
    /// The payment service answered with an earlier charge (a forwarded key it knew).
    ProviderReplay(u32),
    /// The API crashed while this try was at it, before it answered.
    Crashed,
    /// The API's answer: its status, and whether it was a stored one replayed.
    Reply(u16, bool),
    AnswerLost(DropCause),
    Received,
    TimedOut,
}

#[derive(Clone, Debug, Default)]
struct Tale {
    tries: Vec<Try>,
    /// Fresh charges: (charge number, index into `tries`).
    charges: Vec<(u32, usize)>,
    /// Races completed on this order: (first read's event, second read's event).
    races: Vec<(u32, u32)>,
    rebooked: Vec<u32>,
    outcome: Option<Outcome>,
    writes: u32,
    changes: u32,
    last_value: Option<u32>,
    receipts: u32,
    duplicate_receipts: u32,
    redeliveries: u32,
    consumer_crashes: u32,
}

impl Tale {
    fn try_ix(&mut self, pod: u16, attempt: u16) -> usize {
        if let Some(ix) = (self.tries.iter()).position(|t| (t.pod, t.attempt) == (pod, attempt)) {
            return ix;
        }
        self.tries.push(Try {
            pod,
            attempt,
            ..Try::default()
        });
        self.tries.len() - 1
    }

    /// A write of `value` became durable: a change when it differs from the last one.
    fn applied(&mut self, value: u32) {
        self.writes += 1;
        self.changes += u32::from(self.last_value.is_some_and(|last| last != value));
        self.last_value = Some(value);
    }

    /// The client is done with the order.
    fn done(&mut self, outcome: Outcome) {
        // Across executions (a rerun), the client's best news wins, as in `Metrics`.
        self.outcome = Some(match self.outcome {
            Some(prev) if rank(prev) >= rank(outcome) => prev,
            _ => outcome,
        });
    }

    /// Whether the order has anything a learner looks for: a race, a duplicate, a lost answer
    /// or a try that did not simply succeed.
    fn eventful(&self, booked: &BitSet) -> bool {
        let unrecorded = (self.charges.iter()).any(|&(n, _)| !booked.contains(n as usize));
        self.races.len() + self.rebooked.len() > 0
            || self.duplicate_receipts + self.redeliveries + self.consumer_crashes > 0
            || self.charges.len() > 1
            || self.changes > 0
            || unrecorded
            || self.outcome != Some(Outcome::Ok)
            || self.tries.len() > 1
    }
}

/// Tells `trace`'s story: `metrics` (the run's counts, `Metrics::of`) for the summary, and at
/// most `shown_max` orders, eventful ones first.
pub fn tell(trace: &Trace, metrics: &Metrics, shown_max: usize) -> Story {
    let charge = trace.scenario.op == Op::Charge;
    if trace.events.len() > EVENTS_TOLD_MAX {
        let n = trace.events.len();
        return Story {
            summary: summary(metrics, charge),
            orders: Vec::new(),
            left_out: Some(format!(
                "This run has {n} events, too many to tell order by order here; the Events table lists each one."
            )),
        };
    }
    let (tales, booked) = fold(trace);
    // Eventful orders first, each group in order: two passes rather than a sort, whose code
    // the page would carry for this one use.
    let told = |ix: &usize| !tales[*ix].tries.is_empty() || tales[*ix].outcome.is_some();
    let eventful = |ix: &usize| tales[*ix].eventful(&booked);
    let mut ranked: Vec<usize> = (0..tales.len()).filter(told).filter(eventful).collect();
    let eventful_count = ranked.len();
    ranked.extend((0..tales.len()).filter(told).filter(|ix| !eventful(ix)));
    let orders = (ranked.iter().take(shown_max))
        .map(|&ix| order_text(trace, ix as u32 + 1, &tales[ix], &booked, charge))
        .collect();
    let rest = ranked.len().saturating_sub(shown_max);
    let left_out = (rest > 0).then(|| {
        let eventful = eventful_count.saturating_sub(shown_max);
        format!("{rest} more orders are left out, {eventful} of them with a retry or a harm.")
    });
    Story {
        summary: summary(metrics, charge),
        orders,
        left_out,
    }
}

fn summary(m: &Metrics, charge: bool) -> String {
    let effects = if charge { "Charges" } else { "Writes" };
    let o = &m.outcomes;
    let mut out = format!(
        "Orders: {}. Attempts: {}. {effects}: {}. Duplicates: {}. Races (two copies both read \"not found\"): {}. Outcomes: {} ok, {} failed, {} unknown",
        m.orders, m.attempts, m.effects, m.duplicates, m.races, o.ok, o.failed, o.unknown
    );
    if m.outcomes.in_flight > 0 {
        let _ = write!(out, ", {} unfinished", m.outcomes.in_flight);
    }
    if m.receipts > 0 {
        let _ = write!(out, ". Receipts mailed: {}", m.receipts);
    }
    out.push('.');
    out
}

/// One pass over the trace: each order's tale, and the charge numbers the ledger booked.
fn fold(trace: &Trace) -> (Vec<Tale>, BitSet) {
    let mut fold = Fold::default();
    for (ix, event) in trace.events.iter().enumerate() {
        fold.race(ix as u32, event);
        fold.queue(event);
        if event.kind == EventKind::Crash {
            fold.crash();
            continue;
        }
        fold.attempt(event);
    }
    fold.finish(&trace.events)
}

/// The tales as the fold builds them, and what it keeps to give each event its order and try.
#[derive(Default)]
struct Fold {
    tales: Vec<Tale>,
    // Message numbers of requests, so that a drop at the API reads as a request lost.
    requests: BitSet,
    // Charge number → order, for the ledger and the receipts.
    charge_order: Vec<u32>,
    // Requests at the API that have not answered yet: request → index into `at_api`, which
    // holds (order, try index). A map, not a scanned list: with a slow provider and a short
    // timeout, tens of thousands of copies wait at once (the 1M-event benchmark run).
    busy: DenseMap,
    at_api: Vec<(u32, u32)>,
    // Queue event id → order.
    queue_order: Vec<u32>,
    races: Races,
}

impl Fold {
    /// Event `ix`, if it completes a race, adds the race to its order.
    fn race(&mut self, ix: u32, event: &Event) {
        if let Some(race) = self.races.event(ix, event) {
            if let Some(order) = event.order() {
                tale(&mut self.tales, order)
                    .races
                    .push((race.first.event, race.second.event));
            }
        }
    }

    /// The queue's side: an event's order is known from its publish or its charge.
    fn queue(&mut self, event: &Event) {
        match event.kind {
            EventKind::Send {
                payload: Payload::Publish { event: id },
                ..
            } => {
                if let Some(order) = event.order() {
                    put(&mut self.queue_order, id, order);
                }
            }
            EventKind::Receipt { event: id, number } => {
                let order = self.charge_order.get(number as usize).copied().unwrap_or(0);
                put(&mut self.queue_order, id, order);
            }
            EventKind::Redeliver { event: id, .. } | EventKind::ConsumerCrash { event: id, .. } => {
                let order = self.queue_order.get(id as usize).copied().unwrap_or(0);
                if order > 0 {
                    let tale = tale(&mut self.tales, order);
                    if matches!(event.kind, EventKind::Redeliver { .. }) {
                        tale.redeliveries += 1;
                    } else {
                        tale.consumer_crashes += 1;
                    }
                }
            }
            _ => {}
        }
    }

    /// An API crash: every try waiting at the API crashed with it.
    fn crash(&mut self) {
        for slot in self.busy.values() {
            let (order, t) = self.at_api[slot as usize];
            let this = &mut tale(&mut self.tales, order).tries[t as usize];
            this.steps.push(TryStep::Crashed);
        }
        self.busy = DenseMap::new();
    }

    /// An event of one try (its order, attempt and pod known): what became of the try, or of
    /// its order.
    fn attempt(&mut self, event: &Event) {
        let (Some(order), Some(attempt), Some(pod)) = (event.order(), event.attempt(), event.pod())
        else {
            return;
        };
        let tale = tale(&mut self.tales, order);
        let t = tale.try_ix(pod, attempt);
        let this = &mut tale.tries[t];
        match event.kind {
            EventKind::Send {
                msg,
                payload: Payload::Request { .. },
                ..
            } => {
                self.requests.insert(msg as usize);
                this.key = event.key;
            }
            EventKind::Deliver { .. } if matches!(event.node, Node::Client(_)) => {
                this.steps.push(TryStep::Received)
            }
            EventKind::Deliver { .. } if event.node == Node::Api => {
                if let Some(req) = event.req().filter(|&req| self.busy.get(req).is_none()) {
                    self.busy.insert(req, self.at_api.len() as u32);
                    self.at_api.push((order, t as u32));
                }
            }
            EventKind::Drop { cause, .. } if matches!(event.node, Node::Client(_)) => {
                this.steps.push(TryStep::AnswerLost(cause))
            }
            EventKind::Drop { msg, cause } if self.requests.contains(msg as usize) => {
                this.steps.push(TryStep::RequestLost(cause))
            }
            EventKind::Timeout => this.steps.push(TryStep::TimedOut),
            EventKind::Reply { status, replay } => {
                this.steps.push(TryStep::Reply(status, replay));
                if let Some(req) = event.req() {
                    self.busy.remove(req);
                }
            }
            EventKind::KeyExpired => this.steps.push(TryStep::KeyExpired),
            EventKind::Charge {
                number,
                replay: false,
            } => {
                tale.charges.push((number, t));
                put(&mut self.charge_order, number, order);
            }
            EventKind::Charge {
                number,
                replay: true,
            } => this.steps.push(TryStep::ProviderReplay(number)),
            EventKind::Applied { value } => tale.applied(value),
            EventKind::OrderDone { outcome, .. } => tale.done(outcome),
            _ => {}
        }
    }

    /// Once every event is folded: the charges the ledger booked again and the receipts, by
    /// order; and the charge numbers the ledger booked.
    fn finish(self, events: &[Event]) -> (Vec<Tale>, BitSet) {
        let Fold {
            mut tales,
            charge_order,
            ..
        } = self;
        let order_of = |number: u32| charge_order.get(number as usize).copied().unwrap_or(0);
        let booked = walk_ledger(events, |ix, number, already| {
            if already {
                let order = events[ix].order().unwrap_or_else(|| order_of(number));
                if order > 0 {
                    tale(&mut tales, order).rebooked.push(number);
                }
            }
        });
        walk_receipts(events, |ix, _, nth| {
            if let EventKind::Receipt { number, .. } = events[ix].kind {
                let order = order_of(number);
                if order > 0 {
                    let tale = tale(&mut tales, order);
                    tale.receipts += 1;
                    tale.duplicate_receipts += u32::from(nth > 1);
                }
            }
        });
        (tales, booked)
    }
}

fn put(map: &mut Vec<u32>, at: u32, value: u32) {
    let slot = at as usize;
    if map.len() <= slot {
        map.resize(slot + 1, 0);
    }
    map[slot] = value;
}

fn rank(outcome: Outcome) -> u8 {
    match outcome {
        Outcome::Ok => 2,
        Outcome::Failed => 1,
        Outcome::Unknown => 0,
    }
}

fn tale(tales: &mut Vec<Tale>, order: u32) -> &mut Tale {
    let ix = order.max(1) as usize - 1;
    if tales.len() <= ix {
        tales.resize_with(ix + 1, Tale::default);
    }
    &mut tales[ix]
}

/// "Order 2 (ok, 3 tries): …": the order's tries, races, charges and receipts.
fn order_text(trace: &Trace, order: u32, tale: &Tale, booked: &BitSet, charge: bool) -> String {
    let outcome = match tale.outcome {
        Some(Outcome::Ok) => "ok",
        Some(Outcome::Failed) => "failed",
        Some(Outcome::Unknown) => "unknown: the client gave up",
        None => "unfinished",
    };
    let tries = tale.tries.len();
    let mut out = format!(
        "Order {order} ({outcome}, {tries} {}",
        plural(tries, "try", "tries")
    );
    let first = tale.tries.first();
    let (first_pod, first_key) = (first.map_or(0, |t| t.pod), first.and_then(|t| t.key));
    if let Some(key) = first_key {
        let _ = write!(out, ", key {key}");
    }
    out.push_str(").");
    for t in &tale.tries {
        let rerun = if t.pod != first_pod {
            " (rerun pod)"
        } else {
            ""
        };
        let _ = write!(out, " Try {}{rerun}", t.attempt);
        match t.key {
            Some(key) if t.key != first_key => {
                let _ = write!(out, " with key {key}");
            }
            _ => {}
        }
        out.push(':');
        try_text(&mut out, t);
        out.push('.');
    }
    for &(first, second) in &tale.races {
        out.push_str(" Race: ");
        read_name(&mut out, trace, order, first);
        out.push_str(" and ");
        read_name(&mut out, trace, order, second);
        out.push_str(" both read \"not found\".");
    }
    if charge {
        charges_text(&mut out, tale, booked);
    } else if tale.writes > 0 {
        let _ = write!(
            out,
            " {} {}, {} changing the value (duplicates).",
            tale.writes,
            plural(tale.writes as usize, "write", "writes"),
            tale.changes
        );
    }
    if tale.redeliveries > 0 {
        let _ = write!(out, " Redeliveries of its event: {}.", tale.redeliveries);
    }
    if tale.consumer_crashes > 0 {
        out.push_str(" The consumer crashed after mailing its receipt, before its commit.");
    }
    if tale.receipts > 0 {
        let _ = write!(
            out,
            " Receipts mailed: {}, {} of them duplicates.",
            tale.receipts, tale.duplicate_receipts
        );
    }
    out
}

fn charges_text(out: &mut String, tale: &Tale, booked: &BitSet) {
    let Some(((first, _), rest)) = tale.charges.split_first() else {
        out.push_str(if tale.outcome == Some(Outcome::Ok) {
            " No charge, though the client was told ok: the work is lost."
        } else {
            " No charge."
        });
        return;
    };
    out.push_str(if rest.is_empty() {
        " One charge:"
    } else {
        " Charges:"
    });
    for (i, &(number, t)) in tale.charges.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(out, "{comma} #{number} (try {})", tale.tries[t].attempt);
    }
    out.push('.');
    if !rest.is_empty() {
        let many = plural(rest.len(), "charge", "charges");
        let _ = write!(out, " Duplicate {many}:");
        for (i, (number, _)) in rest.iter().enumerate() {
            let comma = if i > 0 { "," } else { "" };
            let _ = write!(out, "{comma} #{number}");
        }
        let _ = write!(out, ", after #{first}.");
    }
    for number in &tale.rebooked {
        let _ = write!(
            out,
            " Charge #{number} is booked twice in the ledger: a duplicate."
        );
    }
    for &(number, _) in tale
        .charges
        .iter()
        .filter(|(n, _)| !booked.contains(*n as usize))
    {
        let _ = write!(out, " Charge #{number} is not in the ledger.");
    }
}

/// "try 2 at 64.4 ms", or "order 3's try 1 at …" for another order's read (one key shared).
fn read_name(out: &mut String, trace: &Trace, order: u32, event: u32) {
    let e = &trace.events[event as usize];
    if let Some(other) = e.order().filter(|&other| other != order) {
        let _ = write!(out, "order {other}'s ");
    }
    let at = crate::decimal::ms_tenths(e.time_us);
    let _ = write!(out, "try {} at {at}", e.attempt().unwrap_or(0));
}

/// What became of one try, in the order it happened.
fn try_text(out: &mut String, t: &Try) {
    if t.steps.is_empty() {
        out.push_str(" no answer yet");
    }
    for (i, step) in t.steps.iter().enumerate() {
        out.push_str(if i > 0 { ", " } else { " " });
        let _ = match *step {
            TryStep::RequestLost(cause) => write!(out, "request lost ({})", drop_cause(cause)),
            TryStep::KeyExpired => write!(out, "its key had expired"),
            TryStep::ProviderReplay(n) => write!(out, "the payment service gave back charge #{n}"),
            TryStep::Crashed => write!(out, "the API crashed before answering"),
            TryStep::Reply(status, replay) => {
                let replayed = if replay { " (replayed)" } else { "" };
                write!(out, "API answered {status}{replayed}")
            }
            TryStep::AnswerLost(cause) => write!(out, "answer lost ({})", drop_cause(cause)),
            TryStep::Received => write!(out, "the client got it"),
            TryStep::TimedOut => write!(out, "timed out"),
        };
    }
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The event list's note on its virtual rows: rows `first` (0-based) to `end` (exclusive) of
/// `count` are in the page.
pub fn rows_note(first: u32, end: u32, count: u32) -> String {
    if first == 0 && end >= count {
        return crate::tf!("All {} rows are shown.", count);
    }
    crate::tf!(
        "Rows {} to {} of {} are in the page; scroll the list for more.",
        first + 1,
        end,
        count
    )
}
