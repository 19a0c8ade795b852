//! Layout: one pass over the trace that turns events into lanes and marks.
//!
//! Effects are counted in a first pass so that a charge can say "2 of 3" when it is drawn; the
//! main pass opens arrows, transactions, blocked waits and outages at their first event and
//! closes them at their last; races are found in their own fold (`race.rs`) and go in at their
//! first read, so the marks come out sorted. Nothing here allocates per mark or per pixel: a
//! mark is 32 bytes in one vector sized once, and its words are written when asked
//! ([`Timeline::label`]) from the trace's events, which the timeline shares rather than copies.

use idemlab_core::dense::{BitSet, DenseMap};
use std::sync::Arc;

use super::cull::MarkIndex;
use super::mark::{
    point_class, ArrowEnd, ArrowPayload, Band, Class, EventIx, Lane, LaneIx, Mark, MarkKind, Span,
    TxnEnd, NO_END,
};
use super::race;
use idemlab_core::trace::{
    claim_text, failure_text, found_text, recovery_text, rollback_text, ClaimResult, DropCause,
    Event, EventKind, Node, Outcome, Payload, RollbackCause, Trace,
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
    /// The trace's own events, shared: labels, orders and attempts are read from here.
    pub(super) source: Arc<Vec<Event>>,
    /// The events of race `k` are `race_events[race_starts[k]..race_starts[k + 1]]`.
    pub(super) race_events: Vec<EventIx>,
    pub(super) race_starts: Vec<u32>,
}

impl Timeline {
    /// Client pods in pod order, then the API, the payment service and the database.
    pub fn lanes(&self) -> &[Lane] {
        &self.lanes
    }

    /// The name of `node`'s lane, as the timeline prints it (`client 2 (rerun)`, `API`): the
    /// Events tab's "lane" column says the same, not `pod-9cab2010` beside a timeline that
    /// says "client".
    pub fn lane_label(&self, node: Node) -> Option<&str> {
        let lane = self.lanes.iter().find(|lane| lane.node == node)?;
        Some(lane.label.as_str())
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
        self.race_starts.len().saturating_sub(1) as u32
    }

    /// The trace events a mark stands for, the one that starts it first: an arrow's send and
    /// its delivery or drop, a span's or an outage's first and last event, a race's two reads
    /// and then every other event of its two requests in trace order.
    pub fn events_of(&self, mark: &Mark) -> Vec<EventIx> {
        match mark.kind {
            MarkKind::Race { .. } => self.race(mark).to_vec(),
            _ if mark.end == NO_END => vec![mark.first],
            _ => vec![mark.first, mark.end],
        }
    }

    /// True when `event` is one of the mark's events.
    pub fn has_event(&self, mark: &Mark, event: EventIx) -> bool {
        match mark.kind {
            MarkKind::Race { .. } => self.race(mark).contains(&event),
            _ => mark.first == event || (mark.end != NO_END && mark.end == event),
        }
    }

    fn race(&self, mark: &Mark) -> &[EventIx] {
        let k = mark.end as usize;
        let (from, to) = (self.race_starts[k], self.race_starts[k + 1]);
        &self.race_events[from as usize..to as usize]
    }

    /// What the event list says first about an event the timeline marks as a harm, so that
    /// the table names in text what the canvas shows by shape and colour: a
    /// duplicate effect, or one of a race's two "not found" reads.
    pub fn row_note(&self, event: EventIx) -> Option<&'static str> {
        let t = self.source.get(event as usize)?.time_us;
        let from = self.marks.partition_point(|mark| mark.t0_us < t);
        let same_time = self.marks[from..].iter().take_while(|mark| mark.t0_us == t);
        let duplicate = same_time
            .filter(|mark| mark.first == event && mark.is_duplicate())
            .map(|mark| match mark.class() {
                Class::AppliedDuplicate => "duplicate write",
                Class::ReceiptDuplicate => "duplicate receipt",
                _ => "duplicate charge",
            })
            .next();
        let raced = || {
            (self.race_starts.windows(2)).any(|k| {
                let reads = &self.race_events[k[0] as usize..k[1] as usize];
                reads.iter().take(2).any(|&read| read == event)
            })
        };
        duplicate.or_else(|| raced().then_some("raced: both copies read \"not found\""))
    }

    /// The order (1-based) the mark belongs to, for tooltips and filters.
    pub fn order(&self, mark: &Mark) -> Option<u32> {
        self.source[mark.first as usize].order()
    }

    /// The attempt the mark belongs to; a race has two, so none.
    pub fn attempt(&self, mark: &Mark) -> Option<u16> {
        match mark.kind {
            MarkKind::Race { .. } => None,
            _ => self.source[mark.first as usize].attempt(),
        }
    }

    /// The two requests of a race, first reader first.
    pub fn race_reqs(&self, mark: &Mark) -> Option<[u32; 2]> {
        let MarkKind::Race { .. } = mark.kind else {
            return None;
        };
        let reads = self.race(mark);
        let req = |ix: EventIx| self.source[ix as usize].req().unwrap_or(0);
        Some([req(reads[0]), req(reads[1])])
    }

    /// What the page prints beside the mark and first in its tooltip, e.g. `attempt 2`,
    /// `order 3: charge 2 of 2 (#4)`: written from the mark's events each time it is asked.
    pub fn label(&self, mark: &Mark) -> String {
        let event = &self.source[mark.first as usize];
        match mark.kind {
            MarkKind::Arrow { .. } => match event.kind {
                EventKind::Send { payload, .. } => arrow_label(event, payload),
                _ => unreachable!("an arrow starts at a send"),
            },
            MarkKind::Span {
                span: Span::Txn { .. },
            } => match event.kind {
                EventKind::TxBegin { txn } => format!("tx{txn}"),
                _ => unreachable!("a transaction starts at its BEGIN"),
            },
            MarkKind::Span {
                span: Span::Blocked,
            } => "blocked on the unique index".into(),
            MarkKind::Band { band } => band_label(event, band),
            MarkKind::Race { .. } => {
                let reads = self.race(mark);
                race::label(&self.source, reads[0], reads[1])
            }
            MarkKind::Point { class, nth, total } => point_label(event, class, nth, total),
        }
    }
}

/// Lays out a trace. Pure and deterministic: the same trace gives the same timeline.
pub fn layout(trace: &Trace) -> Timeline {
    let mut job = LayoutJob::new(trace);
    while !job.step(trace, usize::MAX) {}
    job.finish(trace)
}

/// A layout a slice at a time: `layout` is this job run to its end in one go, and the page
/// runs it in slices of a few milliseconds, so that no link can hold its main thread. The
/// work is counted in events (and race pairs) visited, not in time: the core has no
/// clock, and the caller decides how many units fit in a slice.
pub struct LayoutJob {
    stage: LayoutStage,
    /// The next event the counting or building pass takes.
    next: usize,
}

enum LayoutStage {
    /// Finding the races, which must be known before their marks go in.
    Races(race::RaceJob),
    /// Counting the marks, so the marks' vector is sized once, exactly: the page's wasm memory
    /// never shrinks, so a vector that doubled (or was trimmed by a copy) would keep up to
    /// twice the marks' memory for good.
    Count {
        races: Vec<race::Region>,
        totals: Vec<u32>,
        marks: usize,
    },
    Build(Box<Building>),
}

/// The main pass under way: the builder and the races still to place.
struct Building {
    builder: Builder,
    races: std::iter::Peekable<std::vec::IntoIter<race::Region>>,
    race_events: Vec<EventIx>,
    race_starts: Vec<u32>,
    capacity: usize,
}

impl LayoutJob {
    pub fn new(trace: &Trace) -> LayoutJob {
        assert!(trace.pods.len() <= PODS_MAX, "too many pods for u16 lanes");
        LayoutJob {
            stage: LayoutStage::Races(race::RaceJob::default()),
            next: 0,
        }
    }

    /// Does about `work` units of the layout of `trace` (the trace `new` was given) and says
    /// whether the job is done, when `finish` gives the timeline.
    pub fn step(&mut self, trace: &Trace, work: usize) -> bool {
        let mut work = work.max(1);
        loop {
            match &mut self.stage {
                LayoutStage::Races(job) => {
                    let (api, db) = (lane_of(trace, Node::Api), lane_of(trace, Node::Db));
                    work = job.step(trace, api, db, work);
                    if work == 0 {
                        return false;
                    }
                    let LayoutStage::Races(job) = std::mem::replace(
                        &mut self.stage,
                        LayoutStage::Count {
                            races: Vec::new(),
                            totals: Vec::new(),
                            marks: 0,
                        },
                    ) else {
                        unreachable!("the stage is Races")
                    };
                    if let LayoutStage::Count { races, .. } = &mut self.stage {
                        *races = job.take();
                    }
                }
                LayoutStage::Count { totals, marks, .. } => {
                    let end = trace.events.len().min(self.next.saturating_add(work));
                    count_marks(&trace.events[self.next..end], totals, marks);
                    work -= end - self.next;
                    self.next = end;
                    if end < trace.events.len() || work == 0 {
                        return false;
                    }
                    self.start_building(trace);
                    work = work.saturating_sub(1);
                }
                LayoutStage::Build(building) => {
                    let end = trace.events.len().min(self.next.saturating_add(work));
                    building.build(trace, self.next..end);
                    self.next = end;
                    return end == trace.events.len();
                }
            }
        }
    }

    /// Moves from counting to building: the builder's two whole-trace folds (rows booked
    /// twice, receipts repeated) run here, in one go each.
    fn start_building(&mut self, trace: &Trace) {
        let counted = std::mem::replace(&mut self.stage, LayoutStage::Races(Default::default()));
        let LayoutStage::Count {
            races,
            totals,
            marks,
        } = counted
        else {
            unreachable!("building starts after counting")
        };
        let capacity = marks + races.len();
        self.stage = LayoutStage::Build(Box::new(Building {
            builder: Builder::new(trace, totals, capacity),
            races: races.into_iter().peekable(),
            race_events: Vec::new(),
            race_starts: vec![0],
            capacity,
        }));
        self.next = 0;
    }

    /// The timeline, once `step` has said the job is done.
    pub fn finish(self, trace: &Trace) -> Timeline {
        let LayoutStage::Build(building) = self.stage else {
            panic!("finish comes after step has said the layout is done")
        };
        assert_eq!(self.next, trace.events.len(), "the layout is done");
        let Building {
            builder,
            mut races,
            race_events,
            race_starts,
            capacity,
        } = *building;
        debug_assert!(
            races.next().is_none(),
            "every race starts at one of the trace's events"
        );
        let end_us = trace.events.last().map_or(0, |e| e.time_us).max(1);
        let marks = builder.finish(end_us);
        debug_assert_eq!(marks.len(), capacity, "the first pass counts every mark");
        debug_assert!(
            marks
                .windows(2)
                .all(|w| (w[0].t0_us, w[0].first) <= (w[1].t0_us, w[1].first)),
            "marks are made in (start, first event) order"
        );
        let index = MarkIndex::new(&marks);
        Timeline {
            lanes: lanes(trace),
            end_us,
            marks,
            events: u32::try_from(trace.events.len()).expect("events are bounded by events_max"),
            truncated: trace.truncated,
            index,
            source: Arc::clone(&trace.events),
            race_events,
            race_starts,
        }
    }
}

impl Building {
    fn build(&mut self, trace: &Trace, range: std::ops::Range<usize>) {
        for ix in range {
            let event = &trace.events[ix];
            let ix = EventIx::try_from(ix).expect("events are bounded by events_max");
            self.builder.event(ix, event);
            // A race goes in right after the marks of its first read: the same time, and every
            // mark of a later event after it, so the marks stay sorted by (start, first event).
            while let Some(region) = self.races.next_if(|region| region.events[0] == ix) {
                let k = EventIx::try_from(self.race_starts.len() - 1).expect("races are bounded");
                self.builder.marks.push(Mark {
                    t0_us: region.t0_us,
                    t1_us: region.t1_us,
                    first: ix,
                    end: k,
                    lane: region.lane,
                    kind: MarkKind::Race {
                        to_lane: region.to_lane,
                    },
                });
                self.race_events.extend_from_slice(&region.events);
                let start = u32::try_from(self.race_events.len()).expect("bounded by events_max");
                self.race_starts.push(start);
            }
        }
    }
}

fn lanes(trace: &Trace) -> Vec<Lane> {
    // The lessons call the sender "the client"; its pod's UID is on its start mark and in a
    // `key=process` key, where it matters.
    let several = trace.scenario.clients > 1;
    let mut lanes: Vec<Lane> = (trace.pods.iter().enumerate())
        .map(|(pod, p)| {
            let number = if several {
                format!(" {}", p.client + 1)
            } else {
                String::new()
            };
            let rerun = if p.rerun { " (rerun)" } else { "" };
            Lane {
                node: Node::Client(pod as u16),
                label: format!("client{number}{rerun}"),
                rerun: p.rerun,
            }
        })
        .collect();
    let queued = trace.scenario.consumer != idemlab_core::scenario::Consumer::Off;
    let servers = [
        (Node::Api, "API"),
        (Node::Payment, "payment service"),
        (Node::Db, "database"),
    ];
    let queue = [(Node::Queue, "queue"), (Node::Consumer, "consumer")];
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
    lane_at(trace.pods.len() as LaneIx, node)
}

fn lane_at(pods: LaneIx, node: Node) -> LaneIx {
    match node {
        Node::Client(pod) => pod,
        Node::Api => pods,
        Node::Payment => pods + 1,
        Node::Db => pods + 2,
        Node::Queue => pods + 3,
        Node::Consumer => pods + 4,
    }
}

/// The first pass, over one slice of the events: how many effects each order has in all,
/// indexed by order − 1, and how many marks the events make (races aside): one each, none for
/// an arrow's or an outage's end, two for a claim that blocks.
fn count_marks(events: &[Event], totals: &mut Vec<u32>, marks: &mut usize) {
    for event in events {
        *marks += match event.kind {
            EventKind::Deliver { .. } | EventKind::Drop { .. } | EventKind::Restart => 0,
            EventKind::Claim {
                result: ClaimResult::Blocked,
            } if event.req().is_some() => 2,
            _ => 1,
        };
        let is_effect = matches!(
            event.kind,
            EventKind::Charge { replay: false, .. } | EventKind::Applied { .. }
        );
        if let (true, Some(order)) = (is_effect, event.order()) {
            let ix = order as usize - 1;
            if totals.len() <= ix {
                totals.resize(ix + 1, 0);
            }
            totals[ix] += 1;
        }
    }
}

/// One order's effects seen so far in the main pass.
#[derive(Clone, Copy, Debug, Default)]
struct Seen {
    count: u32,
    last_value: Option<u32>,
}

/// `Builder::arrows` of a message with no open arrow.
const NO_MARK: u32 = u32::MAX;

/// The main pass's state: marks made so far and the ones still open.
struct Builder {
    /// How many client lanes come first (`lane_of`).
    pods: LaneIx,
    marks: Vec<Mark>,
    totals: Vec<u32>,
    seen: Vec<Seen>,
    /// msg → index of its open arrow in `marks`, or `NO_MARK`; messages are numbered densely
    /// from 0.
    arrows: Vec<u32>,
    txns: DenseMap,
    /// Ledger rows that book an already booked charge (the same rule as `Metrics`).
    rebooked: BitSet,
    /// Receipts (event indices) that repeat one their queue event already had.
    repeated_receipts: BitSet,
    /// req → index of its open blocked span.
    blocked: DenseMap,
    api_down: Option<u32>,
}

impl Builder {
    fn new(trace: &Trace, totals: Vec<u32>, marks: usize) -> Builder {
        Builder {
            pods: trace.pods.len() as LaneIx,
            marks: Vec::with_capacity(marks),
            seen: vec![Seen::default(); totals.len()],
            totals,
            arrows: Vec::new(),
            txns: DenseMap::new(),
            rebooked: crate::metrics::rebooked_rows(trace),
            repeated_receipts: repeated_receipts(trace),
            blocked: DenseMap::new(),
            api_down: None,
        }
    }

    fn push(&mut self, ix: EventIx, event: &Event, kind: MarkKind) -> u32 {
        self.marks.push(Mark {
            t0_us: event.time_us,
            t1_us: event.time_us,
            first: ix,
            end: NO_END,
            lane: lane_at(self.pods, event.node),
            kind,
        });
        u32::try_from(self.marks.len() - 1).expect("marks are bounded by events_max")
    }

    fn point(&mut self, ix: EventIx, event: &Event, duplicate: bool) {
        self.effect_point(ix, event, duplicate, 0, 0);
    }

    fn effect_point(&mut self, ix: EventIx, event: &Event, duplicate: bool, nth: u32, total: u32) {
        let place = |n: u32| u16::try_from(n).expect("an order has a few dozen effects at most");
        let kind = MarkKind::Point {
            class: point_class(event.kind, duplicate),
            nth: place(nth),
            total: place(total),
        };
        self.push(ix, event, kind);
    }

    /// Ends an open mark at `event`.
    fn close(&mut self, mark: u32, ix: EventIx, event: &Event) {
        let mark = &mut self.marks[mark as usize];
        debug_assert!(
            event.time_us >= mark.t0_us,
            "marks never end before they start"
        );
        debug_assert_eq!(mark.end, NO_END, "a mark ends once");
        mark.t1_us = event.time_us;
        mark.end = ix;
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
            EventKind::PodStart { .. }
            | EventKind::Replace { .. }
            | EventKind::DbRestart { .. }
            | EventKind::CapReached => self.band(ix, event),
            _ => self.simple_point(ix, event),
        }
    }

    fn send(&mut self, ix: EventIx, event: &Event, msg: u32, to: Node, payload: Payload) {
        let kind = MarkKind::Arrow {
            to_lane: lane_at(self.pods, to),
            payload: arrow_payload(payload),
            end: ArrowEnd::InFlight,
        };
        let mark = self.push(ix, event, kind);
        let slot = msg as usize;
        if self.arrows.len() <= slot {
            self.arrows.resize(slot + 1, NO_MARK);
        }
        assert!(self.arrows[slot] == NO_MARK, "each message is sent once");
        self.arrows[slot] = mark;
    }

    fn arrive(&mut self, ix: EventIx, event: &Event, msg: u32, how: ArrowEnd) {
        let open = self
            .arrows
            .get_mut(msg as usize)
            .map(|slot| std::mem::replace(slot, NO_MARK));
        let Some(mark) = open.filter(|&mark| mark != NO_MARK) else {
            panic!("event {ix}: message m{msg} ends without a send, or ends twice");
        };
        self.close(mark, ix, event);
        if let MarkKind::Arrow { end, .. } = &mut self.marks[mark as usize].kind {
            *end = how;
        }
    }

    fn begin(&mut self, ix: EventIx, event: &Event, txn: u32) {
        let span = Span::Txn { end: TxnEnd::Open };
        let mark = self.push(ix, event, MarkKind::Span { span });
        self.txns.insert(txn, mark);
    }

    fn end_txn(&mut self, ix: EventIx, event: &Event) {
        let (txn, end) = match event.kind {
            EventKind::Commit { txn } => (txn, TxnEnd::Commit),
            EventKind::Rollback { txn, cause } => (txn, TxnEnd::Rollback { cause }),
            _ => unreachable!("only commit and rollback end a transaction"),
        };
        if let TxnEnd::Rollback { .. } = end {
            self.unblock(ix, event);
        }
        self.point(ix, event, false);
        if let Some(mark) = self.txns.remove(txn) {
            self.close(mark, ix, event);
            self.marks[mark as usize].kind = MarkKind::Span {
                span: Span::Txn { end },
            };
        }
    }

    fn claim(&mut self, ix: EventIx, event: &Event) {
        let EventKind::Claim { result } = event.kind else {
            unreachable!("claim() is called for claims")
        };
        self.point(ix, event, false);
        let Some(req) = event.req() else { return };
        if result == ClaimResult::Blocked {
            let kind = MarkKind::Span {
                span: Span::Blocked,
            };
            let mark = self.push(ix, event, kind);
            self.blocked.insert(req, mark);
        } else {
            self.unblock(ix, event);
        }
    }

    /// The claim a request waited on is resolved (or its handler ended): its wait ends here.
    fn unblock(&mut self, ix: EventIx, event: &Event) {
        if let Some(mark) = event.req().and_then(|req| self.blocked.remove(req)) {
            self.close(mark, ix, event);
        }
    }

    fn effect(&mut self, ix: EventIx, event: &Event) {
        match event.kind {
            EventKind::Charge { replay: true, .. } => self.point(ix, event, false),
            EventKind::Charge { .. } => {
                let (nth, total, _) = self.count_effect(event, None);
                // Every charge after the first moves money again (metrics.rs counts effects − 1).
                self.effect_point(ix, event, nth >= 2, nth, total);
            }
            EventKind::Applied { value } => {
                let (nth, total, previous) = self.count_effect(event, Some(value));
                // A repeated set is harmless unless it changed the value (metrics.rs counts
                // changes).
                let duplicate = previous.is_some_and(|last| last != value);
                self.effect_point(ix, event, duplicate, nth, total);
            }
            _ => unreachable!("effect() is called for charges and applied writes"),
        }
    }

    /// Counts one more effect of the event's order: its place, its order's total, and the
    /// previous value written.
    fn count_effect(&mut self, event: &Event, value: Option<u32>) -> (u32, u32, Option<u32>) {
        let order = event.order().expect("effects belong to an order");
        let ix = order as usize - 1;
        let seen = &mut self.seen[ix];
        seen.count += 1;
        let previous = seen.last_value;
        if value.is_some() {
            seen.last_value = value;
        }
        (seen.count, self.totals[ix], previous)
    }

    fn outage(&mut self, ix: EventIx, event: &Event) {
        if event.kind == EventKind::Restart {
            if let Some(mark) = self.api_down.take() {
                self.close(mark, ix, event);
            }
            return;
        }
        // A crash ends every handler, so every wait on a claim ends with it.
        let waits = std::mem::take(&mut self.blocked);
        for mark in waits.values() {
            self.close(mark, ix, event);
        }
        let kind = MarkKind::Band {
            band: Band::ApiDown,
        };
        let mark = self.push(ix, event, kind);
        self.api_down = Some(mark);
    }

    fn band(&mut self, ix: EventIx, event: &Event) {
        let band = match event.kind {
            EventKind::PodStart { rerun: false, .. } => return self.point(ix, event, false),
            EventKind::PodStart { rerun: true, .. } => Band::Rerun,
            EventKind::Replace { wiped, .. } => Band::LedgerReplaced { wiped },
            EventKind::DbRestart { .. } => Band::LedgerRestarted,
            EventKind::CapReached => Band::CapReached,
            _ => unreachable!("band() is called for pod starts, replacements and the cap"),
        };
        self.push(ix, event, MarkKind::Band { band });
    }

    fn simple_point(&mut self, ix: EventIx, event: &Event) {
        let duplicate = match event.kind {
            EventKind::Lookup { .. } | EventKind::Store { .. } | EventKind::Reply { .. } => {
                self.unblock(ix, event);
                false
            }
            EventKind::LedgerRow { .. } => self.rebooked.contains(ix as usize),
            EventKind::Receipt { .. } => self.repeated_receipts.contains(ix as usize),
            _ => false,
        };
        self.point(ix, event, duplicate);
    }

    /// Closes what is still open at the end of the trace and hands the marks over. An open
    /// mark keeps `NO_END`: no event ended it.
    fn finish(mut self, end_us: u64) -> Vec<Mark> {
        let open = (self.arrows.iter().copied().filter(|&mark| mark != NO_MARK))
            .chain(self.txns.values())
            .chain(self.blocked.values())
            .chain(self.api_down);
        let open: Vec<u32> = open.collect();
        for mark in open {
            let mark = &mut self.marks[mark as usize];
            mark.t1_us = end_us.max(mark.t0_us);
        }
        self.marks
    }
}

/// The receipts that the metrics count as duplicates, by event index.
fn repeated_receipts(trace: &Trace) -> BitSet {
    let mut repeated = BitSet::new();
    crate::metrics::walk_receipts(&trace.events, |ix, _, nth| {
        if nth > 1 {
            repeated.insert(ix);
        }
    });
    repeated
}

fn arrow_payload(payload: Payload) -> ArrowPayload {
    match payload {
        Payload::Request { .. } | Payload::Find => ArrowPayload::Request,
        Payload::Response { .. } | Payload::Found { .. } => ArrowPayload::Response,
        Payload::Charge { .. } | Payload::FindCharge => ArrowPayload::Charge,
        Payload::Charged { .. } | Payload::ChargeFailed { .. } | Payload::ChargeFound { .. } => {
            ArrowPayload::Charged
        }
        Payload::Publish { .. } | Payload::Delivery { .. } => ArrowPayload::Event,
        Payload::Ack { .. } => ArrowPayload::Ack,
    }
}

fn arrow_label(event: &Event, payload: Payload) -> String {
    match payload {
        Payload::Request { .. } => format!("attempt {}", event.attempt().unwrap_or(0)),
        Payload::Response {
            status,
            number,
            replay,
            ..
        } => {
            let mut label = status.to_string();
            if let Some(number) = number {
                label.push_str(&format!(" #{number}"));
            }
            if replay {
                label.push_str(" (replayed)");
            }
            label
        }
        Payload::Charge { keyed: true } => "charge (key forwarded)".into(),
        Payload::Charge { keyed: false } => "charge (no key)".into(),
        Payload::Charged { number } => format!("charged #{number}"),
        Payload::ChargeFailed { status } => failure_text(status).into(),
        Payload::FindCharge => "charge under this key?".into(),
        Payload::ChargeFound {
            number: Some(number),
        } => format!("found #{number}"),
        Payload::ChargeFound { number: None } => "no charge".into(),
        Payload::Find => format!("look up order {}", event.order().unwrap_or(0)),
        Payload::Found { number: Some(_) } => "order done".into(),
        Payload::Found { number: None } => "nothing done".into(),
        Payload::Publish { event } => format!("publish e{event}"),
        Payload::Delivery { event, delivery: 1 } => format!("deliver e{event}"),
        // "#" is for charge numbers; a delivery's count is spelled out.
        Payload::Delivery { event, delivery } => format!("deliver e{event} (delivery {delivery})"),
        Payload::Ack { event, .. } => format!("ack e{event}"),
    }
}

fn band_label(event: &Event, band: Band) -> String {
    match (band, event.kind) {
        (Band::ApiDown, _) => "API down".into(),
        (Band::Rerun, EventKind::PodStart { uid, .. }) => format!("rerun: pod {uid:08x} starts"),
        (Band::LedgerReplaced { wiped: true }, _) => "ledger replaced: store lost".into(),
        (Band::LedgerReplaced { wiped: false }, _) => "ledger replaced: store kept".into(),
        (Band::LedgerRestarted, EventKind::DbRestart { boot, .. }) => {
            format!("ledger restarted: boot {boot}, same pod")
        }
        (Band::LedgerRestarted, _) => unreachable!("a restart band starts at its restart"),
        (Band::CapReached, _) => "event cap reached".into(),
        (Band::Rerun, _) => unreachable!("a rerun band starts at its pod's start"),
    }
}

/// An effect's label: a charge, a write or a ledger row, with its place among its order's.
fn effect_label(event: &Event, class: Class, nth: u16, total: u16) -> String {
    let order = event.order().unwrap_or(0);
    match event.kind {
        EventKind::Charge {
            number,
            replay: true,
        } => format!("returns charge #{number} (key known)"),
        EventKind::Charge { number, .. } if total >= 2 => {
            format!("order {order}: charge {nth} of {total} (#{number})")
        }
        EventKind::Charge { number, .. } => format!("charge #{number}"),
        EventKind::Applied { value } if total >= 2 => {
            format!("order {order}: write {nth} of {total} (value {value})")
        }
        EventKind::Applied { value } => format!("value {value} applied"),
        EventKind::LedgerRow {
            number,
            reconciled: true,
            ..
        } if class != Class::ChargeDuplicate => format!("reconciled: ledger row #{number}"),
        EventKind::LedgerRow { number, .. } if class == Class::ChargeDuplicate => {
            format!("order {order}: charge #{number} booked again")
        }
        EventKind::LedgerRow { number, .. } => format!("ledger row #{number}"),
        _ => unreachable!("effect_label() is called for charges, writes and ledger rows"),
    }
}

/// The label of a queue's or consumer's point.
fn queue_label(kind: EventKind, class: Class) -> String {
    match kind {
        EventKind::Inbox { event: id, fresh } => inbox(id, fresh),
        EventKind::Receipt { event: id, .. } if class == Class::ReceiptDuplicate => {
            format!("receipt for e{id} again")
        }
        // Named by its queue event, as every other consumer label is: "receipt #2 (e1)" set a
        // charge number beside an event id one lower. The details still name the charge.
        EventKind::Receipt { event: id, .. } => format!("receipt for e{id}"),
        EventKind::Redeliver {
            event: id,
            delivery,
        } => format!("no ack: e{id} again (delivery {delivery})"),
        EventKind::DeadLetter { event: id } => format!("e{id} to the dead-letter queue"),
        EventKind::EventLost { number } => format!("event for #{number} lost"),
        EventKind::BrokerDedup { event: id, .. } => format!("e{id} deduplicated: not delivered"),
        EventKind::MailReplay { event: id, .. } => format!("mail key e{id} known: not sent"),
        EventKind::ConsumerCrash { event: id, .. } => format!("consumer crash after mailing e{id}"),
        EventKind::ConsumerRestart => "consumer restarts".into(),
        _ => unreachable!("queue_label() is called for the queue's and the consumer's kinds"),
    }
}

/// A point's label: its event, and for an effect its place among its order's.
fn point_label(event: &Event, class: Class, nth: u16, total: u16) -> String {
    let order = event.order().unwrap_or(0);
    match event.kind {
        EventKind::PodStart { uid, .. } => format!("pod {uid:08x} starts"),
        EventKind::Commit { txn } => format!("COMMIT tx{txn}"),
        // A read-only end undoes nothing; "ROLLBACK" on every replay read like a failure.
        EventKind::Rollback {
            txn,
            cause: RollbackCause::ReadOnly,
        } => format!("tx{txn} done (read only)"),
        EventKind::Rollback { txn, cause } => {
            format!("ROLLBACK tx{txn} ({})", rollback_text(cause))
        }
        EventKind::Claim { result } => format!("insert key: {}", claim_text(result)),
        EventKind::Charge { .. } | EventKind::Applied { .. } | EventKind::LedgerRow { .. } => {
            effect_label(event, class, nth, total)
        }
        EventKind::OrderStart => order_text(event, "starts"),
        EventKind::Timeout => "timeout".into(),
        EventKind::Retry { delay_us } => retry(delay_us),
        EventKind::OrderDone { outcome, status } => order_done(event, outcome, status),
        EventKind::AttemptRow { row } => format!("attempt row {row}"),
        EventKind::Lookup { found } => format!("lookup: {}", found_text(found)),
        EventKind::KeyExpired => "key expired".into(),
        EventKind::RecoveryPoint { point } => format!("recovery point {}", recovery_text(point)),
        EventKind::Takeover { .. } => "lease out: takeover".into(),
        EventKind::ChargeFailed { status } => failure_text(status).into(),
        EventKind::KeyDeleted { .. } => "key deleted".into(),
        EventKind::ChargeLookup {
            number: Some(number),
        } => format!("lookup: charge #{number}"),
        EventKind::ChargeLookup { number: None } => "lookup: no charge".into(),
        EventKind::CallTimeout => "no answer: charged?".into(),
        EventKind::WorkLookup { number: Some(_) } => format!("order {order}: done in the ledger"),
        EventKind::WorkLookup { number: None } => format!("order {order}: not in the ledger"),
        EventKind::Refund { number } => format!("refund #{number}"),
        EventKind::Write { value, .. } => format!("write {value}"),
        EventKind::Store { status } => format!("store {status}"),
        EventKind::Reply { status, replay } => reply(status, replay),
        EventKind::Inbox { .. }
        | EventKind::Receipt { .. }
        | EventKind::Redeliver { .. }
        | EventKind::DeadLetter { .. }
        | EventKind::EventLost { .. }
        | EventKind::BrokerDedup { .. }
        | EventKind::MailReplay { .. }
        | EventKind::ConsumerCrash { .. }
        | EventKind::ConsumerRestart => queue_label(event.kind, class),
        EventKind::Send { .. }
        | EventKind::Deliver { .. }
        | EventKind::Drop { .. }
        | EventKind::TxBegin { .. }
        | EventKind::Crash
        | EventKind::Restart
        | EventKind::Replace { .. }
        | EventKind::DbRestart { .. }
        | EventKind::CapReached => {
            unreachable!("arrows, transactions, outages, replacements and the cap are not points")
        }
    }
}

fn order_text(event: &Event, what: &str) -> String {
    match event.order() {
        Some(order) => format!("order {order} {what}"),
        None => format!("order {what}"),
    }
}

fn retry(delay_us: u64) -> String {
    // Said as what happens, not "attempt 2 in 58 ms", which a learner cannot picture: the
    // client waits out its backoff, then sends the order again.
    format!("retry after {}", ms_text(delay_us))
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
        (412, _) => "412 key expired".into(),
        (504, _) => "504 provider timeout".into(),
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
