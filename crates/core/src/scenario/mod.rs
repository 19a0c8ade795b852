//! The scenario: every knob of one run, as plain data with documented bounds.
//!
//! A `Scenario` is what the URL query, the CLI argument and the presets all describe; `codec`
//! turns it into text and back, and `presets` names useful starting points. Nothing here runs.

pub mod codec;
pub mod contracts;
pub mod presets;

use serde::Serialize;

pub use codec::{decode, decode_lenient, encode, CodecError, Decoded, Problem};
pub use contracts::Contract;
pub use presets::Preset;

/// Probabilities are integer parts per million so that a run is bit-identical on every target.
pub type Ppm = u32;
pub const PPM_ONE: Ppm = 1_000_000;

/// What the client asks the server to do, which decides whether a repeat is harmful.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Op {
    /// Charge a card through the payment service: every repeat moves money again.
    Charge,
    /// Set a field to a value: a repeat with the same body leaves the same state.
    Set,
}

/// How the client derives the idempotency key it sends.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum KeyStrategy {
    /// case_id + work_id: fixed before the first try and the same after any crash or rerun.
    Business,
    /// A fresh UUID per attempt: every retry looks like new work.
    Attempt,
    /// A UUID made when the process (pod) starts: retries match, a rerun in a new pod does not.
    Process,
    /// One key for everything: different orders are merged into one.
    Constant,
    /// No key header at all.
    None,
}

/// How the API decides whether it has seen a request before.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Dedup {
    /// Every request applies its effect.
    None,
    /// Look the key up, apply the effect, then record the key: separate steps, no constraint.
    Naive,
    /// A unique claim on the key and the effect in one transaction (the handler steps in `order`).
    Atomic,
}

/// Where the idempotency records live, which decides what survives a crash or a replacement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Store {
    /// The API process's memory: gone when the API crashes.
    Memory,
    /// The ledger pod's own storage (an emptyDir): gone, with the ledger, when that pod is replaced.
    Pod,
    /// A durable database: survives API crashes and ledger pod replacement.
    Durable,
}

/// Whether the payment service honours a forwarded idempotency key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Provider {
    /// Every call creates a new charge.
    Plain,
    /// A call with a key it has seen (within `retention_ms`) returns the first charge.
    Keyed,
}

/// Whether charges feed an at-least-once queue, and how its consumer handles a redelivery.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Consumer {
    /// No queue: the run ends at the ledger.
    Off,
    /// Each committed ledger row publishes an event; the consumer sends a receipt for every
    /// delivery, redeliveries included.
    Plain,
    /// As `plain`, but the consumer inserts the event id into its inbox table (primary key) and
    /// mails only when it is new, so a redelivery finds the row and only acks.
    Inbox,
}

/// Whether the consumer crashes once, after it has mailed a receipt and before it commits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ConsumerCrash {
    None,
    /// Right after the first receipt it mails: its inbox insert (uncommitted) rolls back, no
    /// ack goes out, and it restarts `restart_ms` later.
    AfterMail,
}

/// Whether the mail provider honours the event id the consumer sends as its idempotency key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Mail {
    /// Every send is a new email.
    Plain,
    /// A send with a key it has seen (within `retention_ms`) answers with the first send and
    /// mails nothing.
    Keyed,
}

/// Which stored outcomes a repeat of a key gets back once the provider has failed or declined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Replay {
    /// Every outcome is stored and replayed, 500s included (Stripe API v1).
    All,
    /// 2xx and 4xx are stored and replayed; after a 5xx the key is deleted and a repeat runs
    /// again (OASIS Repeatable Requests).
    Final,
    /// Only successes are stored; any failure deletes the key (AWS Lambda Powertools).
    Success,
}

/// How an atomic handler spreads its work over transactions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Handler {
    /// The claim, the effect and the stored response in one transaction (the steps in `order`):
    /// the claim's lock is held across the payment call.
    Txn,
    /// Atomic phases: the claim commits first, in progress (recovery point `started`); the
    /// payment call runs outside any transaction; the ledger row and the completed key commit
    /// in a second transaction (recovery point `finished`).
    Phased,
}

/// What a copy gets when it finds its key claimed by another copy still at work.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Concurrent {
    /// Its insert waits on the unique index until the holder ends (Postgres's default); a
    /// committed in-progress claim is answered 409 without `Retry-After`.
    Wait,
    /// It is answered 409 at once, with a `Retry-After` its client takes as its next delay
    /// (the IETF draft, Stripe, the Agentic Commerce Protocol).
    Conflict,
}

/// What a request whose key row has outlived `retention_ms` gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Expired {
    /// The row is removed and the request runs as new work (a pruned Stripe key).
    New,
    /// 412, and the row stays (OASIS past its window; the Ad Context Protocol's (AdCP) `IDEMPOTENCY_EXPIRED`): the client
    /// looks the order up by its business key and retries under a newly minted key only if the
    /// ledger has no effect for it.
    Reject,
}

/// Whether the API asks the payment service for a charge by its key before it calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Lookup {
    Off,
    /// Result lookup: before each charge call that carries a key, the API asks the provider
    /// for a charge made under it and records that one instead of calling.
    On,
}

/// Where an idempotency key is unique, when the orders belong to several tenants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Per tenant: the API scopes every key with the caller's tenant.
    Tenant,
    /// Across tenants: two tenants' equal keys are one key.
    Global,
}

/// How a committed ledger row's event reaches the queue.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Relay {
    /// The event is an outbox row in the ledger row's own transaction, and the relay publishes
    /// it once that commits: nothing can fall between.
    Outbox,
    /// The API publishes the event itself after the commit, with nothing durable between: a
    /// crash there loses the event.
    Direct,
}

/// One of the six steps of handling a keyed request. `order` lists them in the order the server
/// runs them; the correct order is `Step::CORRECT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Step {
    /// Begin a database transaction.
    Begin,
    /// Look the key up; a completed result is replayed and the handler stops.
    Lookup,
    /// Insert the key as in progress under a unique constraint.
    Claim,
    /// Apply the business effect (the charge and its ledger row, or the field write).
    Effect,
    /// Store the response under the key and commit.
    Commit,
    /// Send the response to the client.
    Respond,
}

impl Step {
    pub const ALL: [Step; 6] = [
        Step::Begin,
        Step::Lookup,
        Step::Claim,
        Step::Effect,
        Step::Commit,
        Step::Respond,
    ];
    pub const CORRECT: [Step; 6] = Step::ALL;

    pub fn name(self) -> &'static str {
        match self {
            Step::Begin => "begin",
            Step::Lookup => "lookup",
            Step::Claim => "claim",
            Step::Effect => "effect",
            Step::Commit => "commit",
            Step::Respond => "respond",
        }
    }
}

/// An inclusive range of milliseconds, `lo..hi` in the codec.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct RangeMs {
    pub lo: u32,
    pub hi: u32,
}

/// When the API process crashes. It crashes once per run and restarts `restart_ms` later.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Crash {
    /// At a fixed time, `api@250`.
    AtMs(u32),
    /// The first time any handler finishes this step, `api@after-effect`.
    AfterStep(Step),
}

/// Every knob of one run. `Scenario::default()` is the baseline the codec omits.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Scenario {
    pub seed: u64,
    /// The preset this scenario started from, kept so the canonical form stays short and readable.
    pub preset: Option<Preset>,
    /// The contract applied over the preset, kept for the same reason.
    pub contract: Option<Contract>,
    pub orders: u32,
    pub clients: u32,
    /// How many tenants the orders belong to, in turn; each numbers its work from 1.
    pub tenants: u32,
    /// Whether keys are unique per tenant or across tenants.
    pub scope: Scope,
    pub op: Op,
    pub key: KeyStrategy,
    pub dedup: Dedup,
    pub store: Store,
    pub timeout_ms: u32,
    pub retries: u32,
    pub backoff_ms: u32,
    pub latency_ms: RangeMs,
    /// How long the payment service works on one call, drawn uniformly from lo..hi.
    pub provider_ms: RangeMs,
    pub loss_req: Ppm,
    pub loss_resp: Ppm,
    /// A window in which every response from the API to a client is dropped.
    pub partition: Option<RangeMs>,
    pub crash: Option<Crash>,
    pub restart_ms: u32,
    pub replace_db_ms: Option<u32>,
    /// When the ledger's container restarts: a new boot id, the same pod UID and emptyDir.
    pub restart_db_ms: Option<u32>,
    pub rerun_ms: Option<u32>,
    pub provider: Provider,
    pub retention_ms: u32,
    pub body_change: bool,
    /// The order in which an atomic handler runs its six steps.
    pub order: [Step; 6],
    /// What a concurrent copy of a claimed key gets: a wait on the lock, or 409.
    pub concurrent: Concurrent,
    /// How an atomic handler spreads its work over transactions.
    pub handler: Handler,
    /// How long a committed in-progress claim holds before another copy may take it over;
    /// `None` holds it until `retention_ms`.
    pub lease_ms: Option<u32>,
    /// Chance that the payment service answers 500 without charging.
    pub provider_fail: Ppm,
    /// Chance that the payment service declines (402, final) without charging.
    pub decline: Ppm,
    /// Which stored outcomes a repeat gets back.
    pub replay: Replay,
    /// What a request whose key row has expired gets: a run as new work, or 412.
    pub expired: Expired,
    /// Chance that the API → payment service hop loses a message, each way: a lost call charges
    /// nothing, a lost answer leaves the API not knowing that it charged.
    pub loss_provider: Ppm,
    /// Whether the API looks a charge up by its key before calling the payment service.
    pub lookup: Lookup,
    /// When a reconciliation job compares the provider's charges with the ledger, records each
    /// charge the ledger lacks and refunds each charge after an order's first.
    pub reconcile_ms: Option<u32>,
    pub consumer: Consumer,
    /// Chance that the consumer's acknowledgement never reaches the queue, which then
    /// redelivers the event once `visibility_ms` has passed.
    pub ack_loss: Ppm,
    /// How long the queue waits for an acknowledgement before it delivers the event again.
    pub visibility_ms: u32,
    /// Deliveries of one event before the queue gives up and parks it in a dead-letter queue.
    pub deliveries_max: u32,
    /// A consumer crash between a mail and the commit of its inbox row.
    pub consumer_crash: ConsumerCrash,
    /// The mail provider the consumer sends receipts through.
    pub mail: Mail,
    /// How a committed ledger row's event reaches the queue.
    pub relay: Relay,
    /// The queue's deduplication window on an event's deduplication id (the charge it
    /// carries); `None` keeps none.
    pub broker_dedup_ms: Option<u32>,
    /// Messages to drop by hand, by id (`m5` in the trace: the sixth message sent in this run),
    /// ascending, at most `bounds::DROPS_MAX`. The page adds one when a learner clicks an arrow.
    pub drop: Vec<u32>,
    pub events_max: u32,
}

impl Default for Scenario {
    fn default() -> Self {
        Scenario {
            seed: 1,
            preset: None,
            contract: None,
            orders: 4,
            clients: 1,
            tenants: 1,
            scope: Scope::Tenant,
            op: Op::Charge,
            key: KeyStrategy::Business,
            dedup: Dedup::None,
            store: Store::Durable,
            timeout_ms: 200,
            retries: 3,
            backoff_ms: 20,
            latency_ms: RangeMs { lo: 5, hi: 20 },
            provider_ms: RangeMs { lo: 20, hi: 60 },
            loss_req: 0,
            loss_resp: 0,
            partition: None,
            crash: None,
            restart_ms: 50,
            replace_db_ms: None,
            restart_db_ms: None,
            rerun_ms: None,
            provider: Provider::Plain,
            retention_ms: 86_400_000,
            body_change: false,
            order: Step::CORRECT,
            concurrent: Concurrent::Wait,
            handler: Handler::Txn,
            lease_ms: None,
            provider_fail: 0,
            decline: 0,
            replay: Replay::All,
            expired: Expired::New,
            loss_provider: 0,
            lookup: Lookup::Off,
            reconcile_ms: None,
            consumer: Consumer::Off,
            ack_loss: 0,
            visibility_ms: 100,
            deliveries_max: 5,
            consumer_crash: ConsumerCrash::None,
            mail: Mail::Plain,
            relay: Relay::Outbox,
            broker_dedup_ms: None,
            drop: Vec::new(),
            events_max: 250_000,
        }
    }
}

/// The bounds of every numeric key. The codec enforces them; the simulator relies on them to
/// keep every run finite and free of overflow.
pub mod bounds {
    pub const ORDERS: (u32, u32) = (1, 10_000);
    pub const CLIENTS: (u32, u32) = (1, 16);
    pub const TENANTS: (u32, u32) = (1, 100);
    pub const TIMEOUT_MS: (u32, u32) = (1, 600_000);
    pub const RETRIES: (u32, u32) = (0, 20);
    pub const BACKOFF_MS: (u32, u32) = (0, 600_000);
    pub const LATENCY_MS: (u32, u32) = (0, 10_000);
    pub const PROVIDER_MS: (u32, u32) = (0, 60_000);
    pub const WINDOW_MS: (u32, u32) = (0, 3_600_000);
    pub const RESTART_MS: (u32, u32) = (0, 600_000);
    pub const FAULT_MS: (u32, u32) = (0, 3_600_000);
    pub const RETENTION_MS: (u32, u32) = (1, 604_800_000);
    pub const EVENTS_MAX: (u32, u32) = (100, 1_000_000);
    pub const VISIBILITY_MS: (u32, u32) = (1, 600_000);
    pub const DELIVERIES_MAX: (u32, u32) = (1, 20);
    pub const LEASE_MS: (u32, u32) = (1, 3_600_000);
    /// Up to seven days, Azure Service Bus's longest duplicate-detection window.
    pub const BROKER_DEDUP_MS: (u32, u32) = (1, 604_800_000);
    /// Messages a `drop=` list may name.
    pub const DROPS_MAX: usize = 16;
    /// The largest message id a `drop=` list may name: a run sends fewer messages than events.
    pub const MESSAGE_ID_MAX: u32 = EVENTS_MAX.1;
    /// Backoff doubles per retry, but never beyond this factor, so long retry chains stay finite.
    pub const BACKOFF_FACTOR_MAX: u64 = 1 << 10;
}

/// Fixed costs of the model that are not scenario keys, in microseconds.
pub mod costs {
    /// One database statement (begin, lookup, insert, commit).
    pub const DB_STATEMENT_US: u64 = 1_000;
}

impl Scenario {
    /// The longest a client can spend between its first send of an order and its last retry,
    /// counting the largest jitter. A key kept shorter than this can expire while the client
    /// still retries.
    pub fn retry_horizon_ms(&self) -> u64 {
        let mut total_ms = 0u64;
        for retry in 1..=self.retries {
            let base_ms = backoff_base_ms(self.backoff_ms, retry);
            total_ms += u64::from(self.timeout_ms) + base_ms + base_ms / 2;
        }
        total_ms
    }

    /// How long the API waits for the payment service before it gives the call up: the longest
    /// a reply can take (both hops and the work), and a millisecond, so only a lost message
    /// times out.
    pub fn provider_wait_ms(&self) -> u64 {
        2 * u64::from(self.latency_ms.hi) + u64::from(self.provider_ms.hi) + 1
    }

    /// The worst round trip of one attempt without faults: both client hops, both provider hops,
    /// the statements of the handler and the provider's work.
    pub fn worst_round_trip_ms(&self) -> u64 {
        let hops_ms = 4 * u64::from(self.latency_ms.hi) + u64::from(self.provider_ms.hi);
        hops_ms + (8 * costs::DB_STATEMENT_US).div_ceil(1_000)
    }
}

/// The un-jittered backoff before retry number `retry` (1-based): doubling, capped.
pub fn backoff_base_ms(backoff_ms: u32, retry: u32) -> u64 {
    let factor = (1u64 << retry.saturating_sub(1).min(10)).min(bounds::BACKOFF_FACTOR_MAX);
    u64::from(backoff_ms) * factor
}
