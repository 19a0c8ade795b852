//! The trace: every event of one run, in (time, sequence) order, with a text form for reading
//! and a digest over its canonical encoding.
//!
//! The trace is the only thing the simulator hands out. Metrics fold over it and the timeline
//! lays it out, so an event that is not here cannot be counted or drawn.

use std::fmt::{self, Write as _};
use std::sync::Arc;

use serde::Serialize;

use crate::scenario::{codec, Scenario};

/// Microseconds since the start of the run.
pub type TimeUs = u64;

/// A lane on the timeline. Client lanes are pods: a rerun adds a lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "pod")]
pub enum Node {
    Client(u16),
    Api,
    Payment,
    Db,
    /// The at-least-once queue (`consumer=plain|inbox`).
    Queue,
    /// The queue's consumer, which mails a receipt per charge event.
    Consumer,
}

/// The idempotency key a request carries. Keys order and compare by value, so a `BTreeMap` of
/// them iterates the same way everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Key {
    /// case_id + work_id.
    Business {
        work: u32,
        /// The tenant the key is scoped to (`scope=tenant` with more than one tenant), from 1;
        /// 0 when it is not scoped, and then left out of the JSON and the text.
        #[serde(skip_serializing_if = "is_zero")]
        tenant: u16,
    },
    /// A UUID made once per process (pod), plus the work id.
    Process {
        #[serde(serialize_with = "hex_u32")]
        process: u32,
        work: u32,
        #[serde(skip_serializing_if = "is_zero")]
        tenant: u16,
    },
    /// A fresh UUID per attempt.
    Attempt {
        #[serde(serialize_with = "hex_u64")]
        uuid: u64,
    },
    /// The same key for everything (for everything of one tenant, when scoped).
    Constant {
        #[serde(skip_serializing_if = "is_zero")]
        tenant: u16,
    },
}

fn is_zero(tenant: &u16) -> bool {
    *tenant == 0
}

impl Key {
    /// The tenant this key is scoped to, 0 when unscoped.
    fn tenant(&self) -> u16 {
        match *self {
            Key::Business { tenant, .. }
            | Key::Process { tenant, .. }
            | Key::Constant { tenant } => tenant,
            Key::Attempt { .. } => 0,
        }
    }
}

impl Key {
    /// The key as one number that orders as the key does (variant first, then its fields, the
    /// tenant last), so that maps by key can share one `BTreeMap<u128, _>` (`dense::KeyMap`).
    /// 82 bits are used (the fields in 80: a process key's 64 and a tenant's 16); the 32 above
    /// them are free for a second field (the race detector's request number).
    pub fn packed(&self) -> u128 {
        let (variant, fields) = match *self {
            Key::Business { work, tenant } => (0u128, u128::from(work) << 16 | u128::from(tenant)),
            Key::Process {
                process,
                work,
                tenant,
            } => (
                1,
                u128::from(process) << 48 | u128::from(work) << 16 | u128::from(tenant),
            ),
            Key::Attempt { uuid } => (2, u128::from(uuid) << 16),
            Key::Constant { tenant } => (3, u128::from(tenant)),
        };
        variant << 80 | fields
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.tenant() > 0 {
            write!(f, "tenant-{}/", self.tenant())?;
        }
        match self {
            Key::Business { work, .. } => write!(f, "case-1/work-{work}"),
            Key::Process { process, work, .. } => write!(f, "proc-{process:08x}/work-{work}"),
            Key::Attempt { uuid } => write!(f, "uuid-{uuid:016x}"),
            Key::Constant { .. } => write!(f, "the-key"),
        }
    }
}

/// What a message carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind")]
pub enum Payload {
    /// Client to API: one attempt of an order, with the body's fingerprint.
    Request { body: u32 },
    /// API to client.
    Response {
        status: u16,
        number: Option<u32>,
        replay: bool,
        /// `Retry-After` on a 409 under `concurrent=conflict`, in ms (at least 1); absent
        /// otherwise, and then left out of the JSON so that older traces read the same. Non-zero
        /// by type: as a plain `Option<u32>` it made this payload, and so every event, 8 bytes
        /// larger (`tests/memory.rs`).
        #[serde(skip_serializing_if = "Option::is_none")]
        retry_after_ms: Option<std::num::NonZeroU32>,
    },
    /// API to payment service; `keyed` when the API forwarded the idempotency key.
    Charge { keyed: bool },
    /// Payment service to API.
    Charged { number: u32 },
    /// Payment service to API: nothing charged, `status` 500 (failed) or 402 (declined).
    ChargeFailed { status: u16 },
    /// API to payment service (`lookup=on`): is there a charge made under this key?
    FindCharge,
    /// Payment service to API: the charge made under the key, if any.
    ChargeFound { number: Option<u32> },
    /// Client to API, after a 412 (`expired=reject`): has this order (its business key) an
    /// effect in the ledger?
    Find,
    /// API to client: the order's effect in the ledger (a charge number or a written value),
    /// if it has one.
    Found { number: Option<u32> },
    /// The ledger's outbox relay to the queue: one event per committed ledger row.
    Publish { event: u32 },
    /// Queue to consumer; `delivery` counts from 1, and above 1 it is a redelivery.
    Delivery { event: u32, delivery: u16 },
    /// Consumer to queue: done with this delivery of the event.
    Ack { event: u32, delivery: u16 },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DropCause {
    /// Random loss on the client-API network.
    Loss,
    /// Inside the one-way partition window.
    Partition,
    /// The API was down when the request arrived.
    ApiDown,
    /// No handler waits for this reply any more: its process crashed, or its transaction was
    /// aborted when the ledger pod was replaced.
    CallerGone,
    /// The client had already timed out this attempt and stopped listening.
    Late,
    /// Dropped by hand: its id is in the scenario's `drop=` list.
    Chosen,
    /// The consumer was down (`consumer_crash`) when the delivery arrived.
    ConsumerDown,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Found {
    NotFound,
    /// A completed result: it is replayed.
    Completed,
    /// Another request holds a committed in-progress claim: 409.
    InProgress,
    /// Same key, different body: 422.
    Mismatch,
    /// The row has outlived `retention_ms` and `expired=reject` keeps it: 412.
    Expired,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ClaimResult {
    /// The unique insert went in.
    Ok,
    /// Another open transaction holds the key: this insert waits on the unique index.
    Blocked,
    /// The key is already committed: unique violation, this transaction aborts.
    Conflict,
    /// Another open transaction holds the key and `concurrent=conflict` does not wait for it:
    /// the handler answers 409 at once.
    InUse,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum RollbackCause {
    /// The API process crashed with the transaction open.
    Crash,
    /// The ledger pod was replaced under it.
    DbReplaced,
    /// The ledger's container restarted under it (`restart_db_ms`).
    DbRestarted,
    /// A unique violation aborted it.
    Conflict,
    /// The handler answered from a lookup and ended its transaction without writing.
    ReadOnly,
    /// The handler finished without a commit step after the transaction began.
    NoCommit,
}

/// Where a phased handler's key row says its work stands (Brandur Leach's recovery points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Recovery {
    /// The claim is committed in progress; the provider may or may not have been called.
    Started,
    /// The ledger row and the stored response are committed: the key is complete.
    Finished,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    Ok,
    Failed,
    Unknown,
}

impl Outcome {
    /// The variant's name as the run's text writes it (`order done: Failed`), without the
    /// derived `Debug`'s formatter, which the page would otherwise carry.
    pub fn word(self) -> &'static str {
        match self {
            Outcome::Ok => "Ok",
            Outcome::Failed => "Failed",
            Outcome::Unknown => "Unknown",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "type")]
pub enum EventKind {
    /// A client pod starts (at the beginning, or for an operator rerun).
    PodStart {
        #[serde(serialize_with = "hex_u32")]
        uid: u32,
        rerun: bool,
    },
    /// A client starts work on an order.
    OrderStart,
    /// The start of an arrow: a message leaves `node` for `to`.
    Send {
        msg: u32,
        to: Node,
        payload: Payload,
    },
    /// The end of an arrow: the message arrives at `node`.
    Deliver {
        msg: u32,
    },
    /// The message dies at `node`'s side of the arrow.
    Drop {
        msg: u32,
        cause: DropCause,
    },
    /// The client stopped waiting for this attempt.
    Timeout,
    /// The client will send the next attempt after `delay_us`.
    Retry {
        delay_us: u64,
    },
    /// The client is done with the order.
    OrderDone {
        outcome: Outcome,
        status: Option<u16>,
    },
    /// The API records the request in the attempts table, duplicates included.
    AttemptRow {
        row: u32,
    },
    TxBegin {
        txn: u32,
    },
    Lookup {
        found: Found,
    },
    Claim {
        result: ClaimResult,
    },
    /// A key row (completed or in progress) had outlived `retention_ms` and was removed.
    KeyExpired,
    /// A phased handler's commit moved its key row to a recovery point.
    RecoveryPoint {
        point: Recovery,
    },
    /// The in-progress claim's lease (`lease_ms`) had run out: this copy takes it over and
    /// goes on from the row's recovery point, whether or not its first owner still runs.
    Takeover {
        point: Recovery,
    },
    /// The payment service charges (or, with a known key, returns the first charge).
    Charge {
        number: u32,
        replay: bool,
    },
    /// The payment service charges nothing: it fails (500) or declines (402).
    ChargeFailed {
        status: u16,
    },
    /// The payment service looks a charge up by the key it was made under (`lookup=on`).
    ChargeLookup {
        number: Option<u32>,
    },
    /// The API gave up waiting for the payment service (`loss_provider`): it does not know
    /// whether the call charged.
    CallTimeout,
    /// The key row is deleted after a failure that `replay=` does not keep, so a repeat runs
    /// as new.
    KeyDeleted {
        status: u16,
    },
    /// The API reads the ledger's committed rows for an order by its business key (after a
    /// 412): the order's effect, if it has one.
    WorkLookup {
        number: Option<u32>,
    },
    /// The ledger row for a charge, in the open transaction if there is one; `reconciled` when
    /// the reconciliation job wrote it for a charge the ledger lacked (left out of the JSON
    /// when false, so that older traces read the same).
    LedgerRow {
        number: u32,
        txn: Option<u32>,
        #[serde(skip_serializing_if = "std::ops::Not::not")]
        reconciled: bool,
    },
    /// The reconciliation job refunds a charge made after its order's first.
    Refund {
        number: u32,
    },
    /// A `set` write, in the open transaction if there is one.
    Write {
        value: u32,
        txn: Option<u32>,
    },
    /// A write became durable (at commit, or at once without a transaction).
    Applied {
        value: u32,
    },
    /// The response is stored under the key.
    Store {
        status: u16,
    },
    Commit {
        txn: u32,
    },
    Rollback {
        txn: u32,
        cause: RollbackCause,
    },
    /// The API decides its answer to a request.
    Reply {
        status: u16,
        replay: bool,
    },
    Crash,
    Restart,
    /// The ledger pod is replaced; `wiped` when its pod-lifetime store went with it.
    Replace {
        #[serde(serialize_with = "hex_u32")]
        uid: u32,
        boot: u32,
        wiped: bool,
    },
    /// The ledger's container restarts (`restart_db_ms`): a new boot id, the same pod `uid`,
    /// and its emptyDir (a pod store) kept.
    DbRestart {
        #[serde(serialize_with = "hex_u32")]
        uid: u32,
        boot: u32,
    },
    /// The consumer inserts the event id into its inbox table; `fresh` unless it was there.
    Inbox {
        event: u32,
        fresh: bool,
    },
    /// The consumer's side effect: a receipt mailed for the charge behind `event`.
    Receipt {
        event: u32,
        number: u32,
    },
    /// A keyed mail provider already sent the receipt for `event` (its key): it answers with
    /// that first send and mails nothing.
    MailReplay {
        event: u32,
        number: u32,
    },
    /// The consumer dies right after mailing the receipt for `event`, before its commit and its
    /// ack; `inbox` when an uncommitted inbox row for the event rolls back with it.
    ConsumerCrash {
        event: u32,
        inbox: bool,
    },
    /// The consumer is back, `restart_ms` after its crash.
    ConsumerRestart,
    /// No acknowledgement within `visibility_ms`: the queue delivers the event again.
    Redeliver {
        event: u32,
        delivery: u16,
    },
    /// `relay=direct`: the API crashed between the commit of charge `number`'s ledger row and
    /// its publish, and nothing durable held the event: it is never published.
    EventLost {
        number: u32,
    },
    /// The queue accepted `event` and does not deliver it: it accepted an event with the same
    /// deduplication id (charge `number`) within `broker_dedup_ms`.
    BrokerDedup {
        event: u32,
        number: u32,
    },
    /// The event used up `deliveries_max` without an acknowledgement and was parked.
    DeadLetter {
        event: u32,
    },
    /// The run reached `events_max` and stopped here.
    CapReached,
}

/// Whose an event is: the order, attempt, client pod and request it concerns, and the key the
/// request carries. `order` and `attempt` are 1-based as the page shows them; `pod` is an index
/// into `Trace::pods`; `req` numbers the requests from 0.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ids {
    pub order: Option<u32>,
    pub attempt: Option<u16>,
    pub pod: Option<u16>,
    pub req: Option<u32>,
    pub key: Option<Key>,
}

pub use packed::Event;

/// The packed event record, in a module of its own so that nothing else in this file can read
/// its stored-plus-one fields by mistake.
mod packed {
    use std::num::{NonZeroU16, NonZeroU32};

    use serde::Serialize;

    use super::{EventKind, EventOut, Ids, Key, Node, TimeUs};

    /// One event: 64 bytes (`tests/memory.rs` pins it). A run keeps up to a million of them, and the page's wasm memory never
    /// shrinks, so the numbers are stored one above their value in `NonZero` fields, where "none"
    /// costs no space of its own (`Option<u32>` takes 8 bytes, `Option<NonZeroU32>` 4). Read them
    /// through `order()`, `attempt()`, `pod()` and `req()`.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
    #[serde(into = "EventOut")]
    pub struct Event {
        pub time_us: TimeUs,
        pub node: Node,
        order: Option<NonZeroU32>,
        req: Option<NonZeroU32>,
        attempt: Option<NonZeroU16>,
        pod: Option<NonZeroU16>,
        pub key: Option<Key>,
        pub kind: EventKind,
    }

    fn up32(n: Option<u32>) -> Option<NonZeroU32> {
        n.map(|n| NonZeroU32::new(n + 1).expect("numbers stay below u32::MAX"))
    }

    fn up16(n: Option<u16>) -> Option<NonZeroU16> {
        n.map(|n| NonZeroU16::new(n + 1).expect("numbers stay below u16::MAX"))
    }

    impl Event {
        pub fn new(time_us: TimeUs, node: Node, ids: Ids, kind: EventKind) -> Event {
            Event {
                time_us,
                node,
                order: up32(ids.order),
                req: up32(ids.req),
                attempt: up16(ids.attempt),
                pod: up16(ids.pod),
                key: ids.key,
                kind,
            }
        }

        pub fn order(&self) -> Option<u32> {
            self.order.map(|n| n.get() - 1)
        }

        pub fn attempt(&self) -> Option<u16> {
            self.attempt.map(|n| n.get() - 1)
        }

        pub fn pod(&self) -> Option<u16> {
            self.pod.map(|n| n.get() - 1)
        }

        pub fn req(&self) -> Option<u32> {
            self.req.map(|n| n.get() - 1)
        }

        pub fn ids(&self) -> Ids {
            Ids {
                order: self.order(),
                attempt: self.attempt(),
                pod: self.pod(),
                req: self.req(),
                key: self.key,
            }
        }
    }
}

/// An event's JSON form, the same fields in the same order as before the record was packed.
#[derive(Serialize)]
struct EventOut {
    time_us: TimeUs,
    node: Node,
    order: Option<u32>,
    attempt: Option<u16>,
    pod: Option<u16>,
    req: Option<u32>,
    key: Option<Key>,
    #[serde(flatten)]
    kind: EventKind,
}

impl From<Event> for EventOut {
    fn from(e: Event) -> EventOut {
        EventOut {
            time_us: e.time_us,
            node: e.node,
            order: e.order(),
            attempt: e.attempt(),
            pod: e.pod(),
            req: e.req(),
            key: e.key,
            kind: e.kind,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Pod {
    #[serde(serialize_with = "hex_u32")]
    pub uid: u32,
    pub client: u16,
    pub rerun: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Trace {
    /// The scenario that produced this trace; it is written out as its canonical query. It is
    /// kept as data, not text, because encoding it cost as much as simulating a small run, and
    /// a sweep never reads it.
    #[serde(serialize_with = "canonical_query")]
    pub scenario: Scenario,
    pub seed: u64,
    pub pods: Vec<Pod>,
    /// Shared, not copied: the timeline keeps a handle on the same events to write its labels
    /// and tooltips on demand (`view::Timeline`), so a run's events exist once in memory.
    #[serde(serialize_with = "events_json")]
    pub events: Arc<Vec<Event>>,
    /// True when the run stopped at `events_max` before the work was done.
    pub truncated: bool,
}

impl Trace {
    /// An empty trace of `scenario`; the simulator records its events apart and moves them in.
    pub fn new(scenario: &Scenario) -> Trace {
        Trace {
            scenario: scenario.clone(),
            seed: scenario.seed,
            pods: Vec::new(),
            events: Arc::new(Vec::new()),
            truncated: false,
        }
    }

    /// The trace's event buffer, emptied, for the next run to fill in place (`Stepper::reusing`),
    /// or `None` while a view still shares it. The page reruns into the same block: wasm
    /// memory never shrinks, and a fresh block beside the freed one is how reruns grew it.
    pub fn into_buffer(self) -> Option<Vec<Event>> {
        let mut events = Arc::try_unwrap(self.events).ok()?;
        events.clear();
        Some(events)
    }

    /// Gives back unused capacity above `spare_max` events (a trace the page keeps).
    pub fn trim(&mut self, spare_max: usize) {
        let events = Arc::get_mut(&mut self.events).expect("a trace being recorded is not shared");
        if events.capacity() - events.len() > spare_max {
            events.shrink_to_fit();
        }
    }

    /// The readable form: one line per event.
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}", self.query());
        for event in self.events.iter() {
            let _ = writeln!(out, "{}", EventLine(event, self));
        }
        if self.truncated {
            out.push_str("# truncated at events_max\n");
        }
        out
    }

    /// A 64-bit FNV-1a of the canonical encoding (`canonical`), as 16 hex digits: stable across
    /// targets, toolchains and renames, because it hashes fixed-width fields under hand-written
    /// tags rather than memory layout or text made for reading.
    pub fn digest(&self) -> String {
        let mut hasher = crate::canonical::Fnv1a::default();
        crate::canonical::write_trace(self, &mut hasher);
        format!("{:016x}", hasher.0)
    }

    /// The trace as JSON: the page's export and the CLI's `--trace` share this form, the
    /// pretty text of its `Serialize`, written by `crate::json` (`tests/json.rs`).
    pub fn json(&self) -> String {
        crate::json::trace(self)
    }

    /// The same text as `json`, a part at a time (`JsonParts`).
    pub fn json_parts(&self) -> JsonParts {
        let bare = Trace {
            events: Arc::new(Vec::new()),
            ..self.clone()
        };
        let text = bare.json();
        // The events' key cannot occur inside the scenario's string, where quotes are escaped.
        let key = "\"events\": [";
        let at = text.find(key).expect("a trace's JSON has its events") + key.len();
        debug_assert_eq!(&text[at..at + 1], "]", "an empty list is written []");
        JsonParts {
            head: Some(text[..at].to_string()),
            tail: Some(text[at + 1..].to_string()),
            events: Arc::clone(&self.events),
            next: 0,
        }
    }

    /// The canonical query of the scenario that produced this trace.
    pub fn query(&self) -> String {
        codec::encode(&self.scenario)
    }

    pub fn pod_uid(&self, pod: u16) -> u32 {
        self.pods.get(usize::from(pod)).map(|p| p.uid).unwrap_or(0)
    }
}

/// A trace's pretty JSON in parts, so that the page can write a million events a slice at a
/// time without holding its main thread; the parts joined are `Trace::json`'s text
/// (`tests/golden.rs`). It holds the events, not the trace, so it can outlive a borrow.
pub struct JsonParts {
    head: Option<String>,
    tail: Option<String>,
    events: Arc<Vec<Event>>,
    next: usize,
}

impl JsonParts {
    /// The next part: the head, then up to `events_max` events at a time, then the tail;
    /// `None` once everything is written.
    pub fn next_part(&mut self, events_max: usize) -> Option<String> {
        if let Some(head) = self.head.take() {
            return Some(head);
        }
        if self.next < self.events.len() {
            let end = self.events.len().min(self.next + events_max.max(1));
            let mut out = String::new();
            for (ix, event) in self.events[self.next..end].iter().enumerate() {
                // As the pretty printer writes an element two levels down.
                out.push_str(if self.next + ix == 0 {
                    "\n    "
                } else {
                    ",\n    "
                });
                crate::json::event(&mut out, 2, event);
            }
            self.next = end;
            return Some(out);
        }
        let tail = self.tail.take()?;
        Some(if self.events.is_empty() {
            format!("]{tail}")
        } else {
            format!("\n  ]{tail}")
        })
    }

    /// Events written so far, and in all.
    pub fn progress(&self) -> (usize, usize) {
        (self.next, self.events.len())
    }
}

fn events_json<S: serde::Serializer>(
    events: &Arc<Vec<Event>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.collect_seq(events.iter())
}

fn canonical_query<S: serde::Serializer>(
    scenario: &Scenario,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&codec::encode(scenario))
}

/// UIDs and UUIDs are shown as hex everywhere: in the text form, the JSON and the page.
fn hex_u32<S: serde::Serializer>(value: &u32, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&format_args!("{value:08x}"))
}

fn hex_u64<S: serde::Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.collect_str(&format_args!("{value:016x}"))
}

pub fn node_name(node: Node, trace: &Trace) -> String {
    match node {
        Node::Client(pod) => format!("pod-{:08x}", trace.pod_uid(pod)),
        Node::Api => "api".into(),
        Node::Payment => "payment".into(),
        Node::Db => "db".into(),
        Node::Queue => "queue".into(),
        Node::Consumer => "consumer".into(),
    }
}

struct EventLine<'a>(&'a Event, &'a Trace);

impl fmt::Display for EventLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let EventLine(event, trace) = self;
        let ms = event.time_us / 1_000;
        let frac = event.time_us % 1_000;
        write!(
            f,
            "{ms:>7}.{frac:03}ms {:<12}",
            node_name(event.node, trace)
        )?;
        if let Some(order) = event.order() {
            write!(f, " order={order}")?;
        }
        if let Some(attempt) = event.attempt() {
            write!(f, " attempt={attempt}")?;
        }
        if let Some(key) = event.key {
            write!(f, " key={key}")?;
        }
        write!(f, " ")?;
        describe(f, &event.kind, trace)
    }
}

/// A short human description of an event kind, used by the text form and the page's tooltips.
pub fn describe(f: &mut impl fmt::Write, kind: &EventKind, trace: &Trace) -> fmt::Result {
    use EventKind as K;
    // One function per family, by who acts; this match lists every kind, so that a new one
    // must be given a family.
    match kind {
        K::PodStart { .. }
        | K::OrderStart
        | K::Send { .. }
        | K::Deliver { .. }
        | K::Drop { .. }
        | K::Timeout
        | K::Retry { .. }
        | K::OrderDone { .. } => describe_client(f, kind, trace),
        K::AttemptRow { .. }
        | K::TxBegin { .. }
        | K::Lookup { .. }
        | K::Claim { .. }
        | K::KeyExpired
        | K::RecoveryPoint { .. }
        | K::Takeover { .. }
        | K::KeyDeleted { .. }
        | K::Store { .. }
        | K::Commit { .. }
        | K::Rollback { .. }
        | K::Reply { .. } => describe_api(f, kind),
        K::Charge { .. }
        | K::ChargeFailed { .. }
        | K::ChargeLookup { .. }
        | K::CallTimeout
        | K::WorkLookup { .. }
        | K::LedgerRow { .. }
        | K::Refund { .. }
        | K::Write { .. }
        | K::Applied { .. } => describe_effect(f, kind, trace),
        K::Crash | K::Restart | K::Replace { .. } | K::DbRestart { .. } => describe_pod(f, kind),
        K::Inbox { .. }
        | K::Receipt { .. }
        | K::MailReplay { .. }
        | K::ConsumerCrash { .. }
        | K::ConsumerRestart
        | K::Redeliver { .. }
        | K::DeadLetter { .. }
        | K::EventLost { .. }
        | K::BrokerDedup { .. } => describe_queue(f, kind),
        K::CapReached => write!(f, "event cap reached: the run stops here"),
    }
}

/// The client's events: its pods, its orders, their messages and retries.
fn describe_client(f: &mut impl fmt::Write, kind: &EventKind, trace: &Trace) -> fmt::Result {
    match kind {
        EventKind::PodStart { uid, rerun } => {
            let why = if *rerun {
                "rerun by operator"
            } else {
                "job start"
            };
            write!(f, "pod {uid:08x} starts ({why})")
        }
        EventKind::OrderStart => write!(f, "starts the order"),
        EventKind::Send { msg, to, payload } => {
            write!(f, "sends m{msg} to {}: ", node_name(*to, trace))?;
            describe_payload(f, payload)
        }
        EventKind::Deliver { msg } => write!(f, "receives m{msg}"),
        EventKind::Drop { msg, cause } => write!(f, "m{msg} dropped: {}", drop_cause(*cause)),
        EventKind::Timeout => write!(f, "times out"),
        EventKind::Retry { delay_us } => {
            // In ms like every other time the text shows; microseconds read as a typo.
            let (ms, frac_us) = (delay_us / 1_000, delay_us % 1_000);
            write!(f, "retries after {ms}.{frac_us:03} ms")
        }
        EventKind::OrderDone { outcome, status } => {
            write!(f, "order done: {}", outcome.word())?;
            match status {
                Some(status) => write!(f, " ({status})"),
                None => Ok(()),
            }
        }
        _ => unreachable!("describe_client() is called for the client's kinds"),
    }
}

/// The API's events: its key table, its transactions and its answers.
fn describe_api(f: &mut impl fmt::Write, kind: &EventKind) -> fmt::Result {
    match kind {
        EventKind::AttemptRow { row } => write!(f, "attempts row {row}"),
        EventKind::TxBegin { txn } => write!(f, "BEGIN tx{txn}"),
        EventKind::Lookup { found } => write!(f, "look up key: {}", found_text(*found)),
        EventKind::Claim { result } => write!(f, "insert key in progress: {}", claim_text(*result)),
        EventKind::KeyExpired => write!(f, "key expired (older than its retention), removed"),
        EventKind::RecoveryPoint { point } => {
            write!(f, "key at recovery point {}", recovery_text(*point))
        }
        EventKind::Takeover { point } => write!(
            f,
            "lease ran out: takes the claim over, resumes from recovery point {}",
            recovery_text(*point)
        ),
        EventKind::KeyDeleted { status } => {
            write!(
                f,
                "key deleted: replay= does not keep a {status}, so a repeat runs again"
            )
        }
        EventKind::Store { status } => write!(f, "store response {status} under the key"),
        EventKind::Commit { txn } => write!(f, "COMMIT tx{txn}"),
        EventKind::Rollback { txn, cause } => {
            write!(f, "ROLLBACK tx{txn} ({})", rollback_text(*cause))
        }
        EventKind::Reply { status, replay } => {
            write!(
                f,
                "answers {status}{}",
                if *replay { " (replayed)" } else { "" }
            )
        }
        _ => unreachable!("describe_api() is called for the API's kinds"),
    }
}

/// The work's effects: the payment service's charges and the ledger's rows and writes.
fn describe_effect(f: &mut impl fmt::Write, kind: &EventKind, trace: &Trace) -> fmt::Result {
    match kind {
        EventKind::Charge {
            number,
            replay: false,
        } => write!(f, "charge #{number}"),
        EventKind::Charge {
            number,
            replay: true,
        } => write!(f, "known key: returns charge #{number}"),
        EventKind::ChargeFailed { status } => {
            write!(f, "{}: nothing charged", failure_text(*status))
        }
        EventKind::ChargeLookup {
            number: Some(number),
        } => write!(f, "lookup by key: charge #{number} was made under it"),
        EventKind::ChargeLookup { number: None } => write!(f, "lookup by key: no charge under it"),
        EventKind::CallTimeout => write!(
            f,
            "no answer from the payment service in time: gives the call up, charged or not"
        ),
        EventKind::WorkLookup {
            number: Some(number),
        } => match trace.scenario.op {
            crate::scenario::Op::Charge => {
                write!(
                    f,
                    "ledger lookup by business key: charge #{number} recorded"
                )
            }
            crate::scenario::Op::Set => {
                write!(f, "ledger lookup by business key: value {number} applied")
            }
        },
        EventKind::WorkLookup { number: None } => {
            write!(f, "ledger lookup by business key: no effect found")
        }
        EventKind::LedgerRow {
            number,
            reconciled: true,
            ..
        } => write!(
            f,
            "reconciliation: ledger row for charge #{number}, which the ledger lacked"
        ),
        EventKind::LedgerRow { number, txn, .. } => {
            write!(f, "ledger row for charge #{number}{}", in_txn(*txn))
        }
        EventKind::Refund { number } => {
            write!(
                f,
                "reconciliation: refunds charge #{number}, a repeat of its order's first"
            )
        }
        EventKind::Write { value, txn } => write!(f, "write value {value}{}", in_txn(*txn)),
        EventKind::Applied { value } => write!(f, "value {value} applied"),
        _ => unreachable!("describe_effect() is called for effects"),
    }
}

/// The pods' faults: the API's crash and restart, the ledger's replacement and restart.
fn describe_pod(f: &mut impl fmt::Write, kind: &EventKind) -> fmt::Result {
    match kind {
        EventKind::Crash => write!(f, "CRASH"),
        EventKind::Restart => write!(f, "restarts"),
        EventKind::Replace { uid, boot, wiped } => write!(
            f,
            "ledger pod replaced: uid {uid:08x}, boot {boot}{}",
            if *wiped {
                ", pod-lifetime store lost"
            } else {
                ", durable store kept"
            }
        ),
        EventKind::DbRestart { uid, boot } => write!(
            f,
            "ledger container restarts: boot {boot}, same pod uid {uid:08x}, store kept"
        ),
        _ => unreachable!("describe_pod() is called for the pods' faults"),
    }
}

/// The queue's and the consumer's events: the inbox, the receipts, redeliveries and losses.
fn describe_queue(f: &mut impl fmt::Write, kind: &EventKind) -> fmt::Result {
    match kind {
        EventKind::Inbox { event, fresh: true } => write!(f, "inbox insert e{event}: new"),
        EventKind::Inbox {
            event,
            fresh: false,
        } => {
            write!(f, "inbox insert e{event}: already there, skip")
        }
        EventKind::Receipt { event, number } => {
            write!(f, "mails the receipt for charge #{number} (e{event})")
        }
        EventKind::MailReplay { event, number } => write!(
            f,
            "mail provider knows key e{event}: answers with the first receipt for charge #{number}, mails nothing"
        ),
        EventKind::ConsumerCrash { event, inbox } => {
            write!(f, "CRASH after mailing e{event}, before ")?;
            if *inbox {
                write!(f, "the commit: inbox row e{event} rolls back, no ack")
            } else {
                write!(f, "the ack")
            }
        }
        EventKind::ConsumerRestart => write!(f, "consumer restarts"),
        EventKind::Redeliver { event, delivery } => {
            write!(f, "no ack for e{event}: delivery {delivery}")
        }
        EventKind::DeadLetter { event } => write!(f, "e{event} moved to the dead-letter queue"),
        EventKind::EventLost { number } => write!(
            f,
            "the event for charge #{number} is lost: the API crashed after the commit, before publishing it"
        ),
        EventKind::BrokerDedup { event, number } => write!(
            f,
            "e{event}: deduplication id #{number} accepted within broker_dedup_ms, not delivered again"
        ),
        _ => unreachable!("describe_queue() is called for the queue's kinds"),
    }
}

fn describe_payload(f: &mut impl fmt::Write, payload: &Payload) -> fmt::Result {
    match payload {
        Payload::Request { body } => write!(f, "request (body {body})"),
        Payload::Response {
            status,
            number,
            replay,
            retry_after_ms,
        } => {
            write!(f, "response {status}")?;
            if let Some(number) = number {
                write!(f, " #{number}")?;
            }
            if *replay {
                write!(f, " (replayed)")?;
            }
            if let Some(ms) = retry_after_ms {
                write!(f, " (Retry-After {ms} ms)")?;
            }
            Ok(())
        }
        Payload::Charge { keyed: true } => write!(f, "charge (key forwarded)"),
        Payload::Charge { keyed: false } => write!(f, "charge (no key)"),
        Payload::Charged { number } => write!(f, "charged #{number}"),
        Payload::ChargeFailed { status } => write!(f, "{}", failure_text(*status)),
        Payload::FindCharge => write!(f, "look a charge up by the key"),
        Payload::ChargeFound {
            number: Some(number),
        } => write!(f, "found charge #{number}"),
        Payload::ChargeFound { number: None } => write!(f, "no charge under the key"),
        Payload::Find => write!(f, "look the order up by business key"),
        Payload::Found { number: Some(_) } => write!(f, "found: the order is done"),
        Payload::Found { number: None } => write!(f, "found: nothing done"),
        Payload::Publish { event } => write!(f, "publish e{event}"),
        Payload::Delivery { event, delivery } => {
            write!(f, "deliver e{event} (delivery {delivery})")
        }
        Payload::Ack { event, .. } => write!(f, "ack e{event}"),
    }
}

fn in_txn(txn: Option<u32>) -> String {
    match txn {
        Some(txn) => format!(" in tx{txn}"),
        None => " (autocommit)".into(),
    }
}

pub fn drop_cause(cause: DropCause) -> &'static str {
    match cause {
        DropCause::Loss => "lost on the network",
        DropCause::Partition => "partition",
        DropCause::ApiDown => "API is down",
        DropCause::CallerGone => "no handler is waiting for it any more",
        DropCause::Late => "client already timed out",
        DropCause::Chosen => "dropped by hand (drop=)",
        DropCause::ConsumerDown => "consumer is down",
    }
}

pub fn found_text(found: Found) -> &'static str {
    match found {
        Found::NotFound => "not found",
        Found::Completed => "found completed",
        Found::InProgress => "found in progress",
        Found::Mismatch => "found with a different body",
        Found::Expired => "found expired",
    }
}

pub fn claim_text(result: ClaimResult) -> &'static str {
    match result {
        ClaimResult::Ok => "ok",
        ClaimResult::Blocked => "blocked on the unique index",
        ClaimResult::Conflict => "unique violation",
        ClaimResult::InUse => "held by an open transaction: 409, no wait",
    }
}

/// The payment service's answer when it charges nothing.
pub fn failure_text(status: u16) -> &'static str {
    if status == 402 {
        "declined 402"
    } else {
        "failed 500"
    }
}

pub fn recovery_text(point: Recovery) -> &'static str {
    match point {
        Recovery::Started => "started",
        Recovery::Finished => "finished",
    }
}

pub fn rollback_text(cause: RollbackCause) -> &'static str {
    match cause {
        RollbackCause::Crash => "API crashed",
        RollbackCause::DbReplaced => "ledger pod replaced",
        RollbackCause::DbRestarted => "ledger container restarted",
        RollbackCause::Conflict => "unique violation",
        RollbackCause::ReadOnly => "read only, nothing to undo",
        RollbackCause::NoCommit => "ended without commit",
    }
}
