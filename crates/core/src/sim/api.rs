//! The API: one process that handles each request by running a program of steps.
//!
//! `dedup=none` runs begin, effect, commit, respond; `naive` runs lookup, effect, commit (an
//! upsert with no constraint), respond, with no transaction; `atomic` runs the six steps in the
//! scenario's `order` inside one transaction. Each step is one action, one database statement
//! long, so a concurrent copy can interleave between any two of them.

use crate::dense::DenseMap;

use super::{Action, World};
use crate::scenario::{self, costs, Concurrent, Dedup, Lookup, Op, Replay, Scenario, Step};
use crate::trace::{EventKind, Node, Payload, Recovery, RollbackCause};

/// The API process. A crash bumps `gen`, which orphans every action of the old process.
#[derive(Debug)]
pub(super) struct Api {
    pub up: bool,
    pub gen: u32,
    pub crashed_once: bool,
    /// Requests with a live handler, keyed by arrival number so that iteration keeps arrival
    /// order and a finished handler leaves in O(1): a scanned list made a ledger replacement
    /// with many open transactions quadratic. Only a crash or a replacement walks it whole.
    pub active: DenseMap,
    /// Arrivals so far; the next handler's key in `active`.
    pub arrivals: u32,
}

impl Default for Api {
    fn default() -> Self {
        Api {
            up: true,
            gen: 0,
            crashed_once: false,
            active: DenseMap::new(),
            arrivals: 0,
        }
    }
}

/// Whether this handler holds the key, and how.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Claim {
    #[default]
    None,
    /// An uncommitted row in the open transaction: others block on it.
    Held,
    /// A committed in-progress (or completed) row: others see it.
    Committed,
}

/// The handler state of one request.
#[derive(Clone, Debug, Default)]
pub(super) struct Handler {
    pub gen: u32,
    pub live: bool,
    /// This handler's key in `Api::active`.
    pub arrival: u32,
    /// 0 records the attempt row; 1..=len run the program; past it the handler finishes.
    pub stage: u8,
    pub txn: Option<u32>,
    pub claim: Claim,
    /// The charge number or the written value, once the effect ran.
    pub number: Option<u32>,
    pub pending: Pending,
    pub responded: bool,
    /// Set while waiting on another transaction's claim, so the wait is drawn once.
    pub blocked: bool,
    /// The `serial` of the claim lock this request is queued behind, if any.
    pub queued_on: Option<u32>,
    /// The message to the payment service whose answer this handler waits for.
    pub awaiting: Option<u32>,
    /// It has asked the payment service for a charge under its key (`lookup=on`).
    pub looked_up: bool,
}

/// Writes made inside the open transaction, which a commit applies and a rollback discards.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Pending {
    pub write: Option<u32>,
    pub store: Option<(u16, Option<u32>)>,
    /// The charge whose ledger row waits for the commit, and with it its outbox event.
    pub outbox: Option<u32>,
}

/// What a step asks of the engine next.
pub(super) enum Flow {
    /// Go on to the next step after one statement.
    Advance,
    /// Wait: a reply from the payment service or the release of a claim resumes this handler.
    Wait,
    /// The handler has finished (answered from the key table, or failed).
    Done,
}

/// One step of the phased handler (`handler=phased`), each one statement or one remote call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Begin,
    Lookup,
    Claim,
    /// Commits the claim in progress: recovery point `started`.
    CommitClaim,
    /// The payment call, outside any transaction.
    Call,
    /// The ledger row (or the write), in the second transaction.
    Record,
    /// Stores the response and commits: recovery point `finished`.
    Complete,
    Respond,
}

/// Atomic phases: claim and commit, call, then record and complete in a second transaction.
const PHASED: [Phase; 9] = [
    Phase::Begin,
    Phase::Lookup,
    Phase::Claim,
    Phase::CommitClaim,
    Phase::Call,
    Phase::Begin,
    Phase::Record,
    Phase::Complete,
    Phase::Respond,
];

impl Phase {
    /// The step of the six whose name `crash=api@after-STEP` uses for this phase.
    fn step(self) -> Option<Step> {
        match self {
            Phase::Begin => Some(Step::Begin),
            Phase::Lookup => Some(Step::Lookup),
            Phase::Claim => Some(Step::Claim),
            Phase::CommitClaim | Phase::Complete => Some(Step::Commit),
            Phase::Call => Some(Step::Effect),
            Phase::Record => None,
            Phase::Respond => Some(Step::Respond),
        }
    }
}

/// The steps a handler runs for this scenario, and how many of them.
pub fn program(s: &Scenario) -> ([Step; 6], usize) {
    use Step::*;
    match s.dedup {
        Dedup::None => ([Begin, Effect, Commit, Respond, Respond, Respond], 4),
        Dedup::Naive => ([Lookup, Effect, Commit, Respond, Respond, Respond], 4),
        Dedup::Atomic => (s.order, 6),
    }
}

impl World {
    /// The `Retry-After` of a 409: the time left on the claim's lease, when it has one, or the
    /// worst fault-free round trip of one attempt, by when the copy at work should be done.
    fn retry_after_ms(&self, req: u32) -> std::num::NonZeroU32 {
        let lease_ms = self.reqs[req as usize]
            .key
            .and_then(|key| self.lease_left_ms(key));
        let ms = lease_ms.unwrap_or_else(|| self.s.worst_round_trip_ms());
        // At least 1 ms: a zero would tell the client to hammer the API at once. Non-zero by
        // type, so the response payload stays small (the event record, `tests/memory.rs`).
        std::num::NonZeroU32::new(u32::try_from(ms.max(1)).unwrap_or(u32::MAX)).expect("at least 1")
    }

    pub(super) fn api_receives(&mut self, msg: u32) {
        let m = self.msgs[msg as usize];
        if !self.api.up {
            let cause = crate::trace::DropCause::ApiDown;
            self.emit_req(Node::Api, m.req, EventKind::Drop { msg, cause });
            return;
        }
        match m.payload {
            Payload::Request { .. } => self.start_handler(msg, m.req),
            Payload::Charged { number } => self.charged(msg, m.req, number),
            Payload::ChargeFailed { status } => self.charge_failed(msg, m.req, status),
            Payload::Find => self.find_work(msg, m.req),
            Payload::ChargeFound { number } => self.charge_found(msg, m.req, number),
            _ => unreachable!("the API only receives requests and charge replies"),
        }
    }

    fn start_handler(&mut self, msg: u32, req: u32) {
        self.emit_req(Node::Api, req, EventKind::Deliver { msg });
        let gen = self.api.gen;
        let handler = &mut self.reqs[req as usize].handler;
        let arrival = self.api.arrivals;
        self.api.arrivals += 1;
        handler.gen = gen;
        handler.live = true;
        handler.arrival = arrival;
        self.api.active.insert(arrival, req);
        self.at(0, Action::Step { req, gen });
    }

    /// After a 412 the client asks whether its order is done: one read of the ledger's
    /// committed rows by business key, answered at once (no handler, no transaction).
    fn find_work(&mut self, msg: u32, req: u32) {
        self.emit_req(Node::Api, req, EventKind::Deliver { msg });
        let order = self.reqs[req as usize].order;
        let number = self.store.work.get(order);
        self.emit_req(Node::Db, req, EventKind::WorkLookup { number });
        self.send(
            Node::Api,
            Node::Client(self.reqs[req as usize].pod),
            req,
            Payload::Found { number },
        );
    }

    fn is_live(&self, req: u32, gen: u32) -> bool {
        let handler = &self.reqs[req as usize].handler;
        handler.live && handler.gen == gen && gen == self.api.gen
    }

    pub(super) fn handler_step(&mut self, req: u32, gen: u32) {
        if !self.is_live(req, gen) {
            return;
        }
        let stage = self.reqs[req as usize].handler.stage;
        if stage == 0 {
            self.record_attempt(req);
            return self.advance(req, None);
        }
        if self.phased() {
            return self.phased_step(req, stage);
        }
        let (steps, len) = program(&self.s);
        let Some(&step) = steps[..len].get(usize::from(stage - 1)) else {
            return self.finish(req, RollbackCause::NoCommit);
        };
        let flow = match step {
            Step::Begin => self.step_begin(req),
            Step::Lookup => self.step_lookup(req),
            Step::Claim => self.step_claim(req),
            Step::Effect => self.step_effect(req),
            Step::Commit => self.step_commit(req),
            Step::Respond => self.step_respond(req),
        };
        match flow {
            Flow::Advance => self.advance(req, Some(step)),
            Flow::Wait | Flow::Done => {}
        }
    }

    /// Whether handlers run in atomic phases: `handler=phased` with `dedup=atomic`.
    pub(super) fn phased(&self) -> bool {
        self.s.handler == scenario::Handler::Phased && self.s.dedup == Dedup::Atomic
    }

    fn phased_step(&mut self, req: u32, stage: u8) {
        let Some(&phase) = PHASED.get(usize::from(stage - 1)) else {
            return self.finish(req, RollbackCause::NoCommit);
        };
        let flow = match phase {
            Phase::Begin => self.step_begin(req),
            Phase::Lookup => self.step_lookup(req),
            Phase::Claim => self.step_claim(req),
            Phase::CommitClaim => self.commit_phase(req, Recovery::Started),
            Phase::Call => self.step_call(req),
            Phase::Record => self.step_record(req),
            Phase::Complete => self.step_complete(req),
            Phase::Respond => self.step_respond(req),
        };
        match flow {
            Flow::Advance => self.advance(req, phase.step()),
            Flow::Wait | Flow::Done => {}
        }
    }

    /// Commits a phase's transaction. A commit that moved the key row (the claim's insert, or
    /// the completed response) marks its recovery point; a taker's commit moves nothing.
    fn commit_phase(&mut self, req: u32, point: Recovery) -> Flow {
        let handler = &self.reqs[req as usize].handler;
        let moved = handler.claim == Claim::Held || handler.pending.store.is_some();
        if handler.txn.is_some() {
            self.commit(req);
        }
        if moved {
            self.emit_req(self.key_node(), req, EventKind::RecoveryPoint { point });
        }
        Flow::Advance
    }

    /// The phased handler's remote call: a charge goes to the provider; a set has none.
    fn step_call(&mut self, req: u32) -> Flow {
        match self.s.op {
            Op::Charge => self.step_effect(req),
            Op::Set => Flow::Advance,
        }
    }

    /// The phased handler's second transaction records what the call did.
    fn step_record(&mut self, req: u32) -> Flow {
        match (self.s.op, self.reqs[req as usize].handler.number) {
            (Op::Charge, Some(number)) => self.book(req, number),
            (Op::Charge, None) => unreachable!("a phased handler records after its charge"),
            (Op::Set, _) => self.write(req, self.reqs[req as usize].body),
        }
        Flow::Advance
    }

    fn step_complete(&mut self, req: u32) -> Flow {
        if let Some(key) = self.reqs[req as usize].key {
            let number = self.reqs[req as usize].handler.number;
            self.store_response(req, key, 200, number);
        }
        self.commit_phase(req, Recovery::Finished)
    }

    /// Moves to the next stage, or crashes here if the scenario says to crash after this step.
    fn advance(&mut self, req: u32, finished: Option<Step>) {
        self.reqs[req as usize].handler.stage += 1;
        if finished.is_some() && finished == self.crash_after() {
            return self.crash_api();
        }
        let gen = self.reqs[req as usize].handler.gen;
        self.at(costs::DB_STATEMENT_US, Action::Step { req, gen });
    }

    fn step_begin(&mut self, req: u32) -> Flow {
        if self.reqs[req as usize].handler.txn.is_none() {
            self.begin(req);
        }
        Flow::Advance
    }

    fn step_lookup(&mut self, req: u32) -> Flow {
        // `program` lists lookup and claim only when the scenario deduplicates.
        let Some(key) = self.reqs[req as usize].key else {
            return self.finish_with(req, 400, None, false);
        };
        let read = self.read_key(req, key);
        self.emit_req(
            self.key_node(),
            req,
            EventKind::Lookup {
                found: read.found(),
            },
        );
        self.answer_from(req, read)
    }

    /// Ends the handler with what the key table says, unless the key is absent.
    pub(super) fn answer_from(&mut self, req: u32, read: super::store::Read) -> Flow {
        use super::store::Read;
        match read {
            Read::Absent => Flow::Advance,
            Read::Completed { status, number } => self.finish_with(req, status, number, true),
            Read::InProgress => self.finish_with(req, 409, None, false),
            Read::LeaseExpired => {
                let key = self.reqs[req as usize].key.expect("a key was read");
                self.take_over(req, key)
            }
            Read::Mismatch => self.finish_with(req, 422, None, false),
            Read::Expired => self.finish_with(req, 412, None, false),
        }
    }

    fn step_claim(&mut self, req: u32) -> Flow {
        if self.reqs[req as usize].handler.claim != Claim::None {
            return Flow::Advance;
        }
        let Some(key) = self.reqs[req as usize].key else {
            return self.finish_with(req, 400, None, false);
        };
        self.claim(req, key)
    }

    fn step_effect(&mut self, req: u32) -> Flow {
        match self.s.op {
            Op::Charge if self.looks_up(req) => {
                self.reqs[req as usize].handler.looked_up = true;
                self.call_provider(req, Payload::FindCharge);
                Flow::Wait
            }
            Op::Charge => {
                let keyed = self.forwards_key(req);
                self.call_provider(req, Payload::Charge { keyed });
                Flow::Wait
            }
            Op::Set => {
                let value = self.reqs[req as usize].body;
                self.write(req, value);
                Flow::Advance
            }
        }
    }

    /// Whether this charge call is first a lookup by key (`lookup=on`, asked once per handler).
    fn looks_up(&self, req: u32) -> bool {
        let r = &self.reqs[req as usize];
        self.s.lookup == Lookup::On && r.key.is_some() && !r.handler.looked_up
    }

    /// Sends `payload` to the payment service and, when the hop can lose it, starts the wait
    /// after which the API gives the call up.
    fn call_provider(&mut self, req: u32, payload: Payload) {
        let msg = self.send(Node::Api, Node::Payment, req, payload);
        self.reqs[req as usize].handler.awaiting = Some(msg);
        if self.s.loss_provider > 0 {
            let wait_us = self.s.provider_wait_ms() * 1_000;
            self.at(wait_us, Action::CallTimeout { req, msg });
        }
    }

    /// No answer to `msg` in time: the API does not know whether it charged. It answers 504
    /// and stores nothing; an open transaction rolls back, a committed claim stays in progress.
    pub(super) fn call_timeout(&mut self, req: u32, msg: u32) {
        let handler = &self.reqs[req as usize].handler;
        if !self.is_live(req, handler.gen) || handler.awaiting != Some(msg) {
            return;
        }
        self.emit_req(Node::Api, req, EventKind::CallTimeout);
        self.finish_with(req, 504, None, false);
    }

    /// Whether a handler still waits for the payment service's reply `msg`: it is delivered, or
    /// dropped when no one waits any more.
    fn provider_reply_arrives(&mut self, msg: u32, req: u32) -> bool {
        let handler = &self.reqs[req as usize].handler;
        if !self.is_live(req, handler.gen) {
            let cause = crate::trace::DropCause::CallerGone;
            self.emit_req(Node::Api, req, EventKind::Drop { msg, cause });
            return false;
        }
        // A live handler makes one call at a time, so this is the answer to the one it waits on.
        debug_assert!(
            handler.awaiting.is_some(),
            "a live handler waits for its call"
        );
        self.reqs[req as usize].handler.awaiting = None;
        self.emit_req(Node::Api, req, EventKind::Deliver { msg });
        true
    }

    /// The answer to a lookup by key: a charge found is recorded as if the call had made it;
    /// none found, the handler calls.
    fn charge_found(&mut self, msg: u32, req: u32, number: Option<u32>) {
        if !self.provider_reply_arrives(msg, req) {
            return;
        }
        match number {
            Some(number) => self.record_charge(req, number),
            None => {
                self.step_effect(req);
            }
        }
    }

    /// The payment service answered: record the ledger row and carry on.
    fn charged(&mut self, msg: u32, req: u32, number: u32) {
        if !self.provider_reply_arrives(msg, req) {
            return;
        }
        self.record_charge(req, number);
    }

    fn record_charge(&mut self, req: u32, number: u32) {
        self.reqs[req as usize].handler.number = Some(number);
        // A phased handler books the charge in its second transaction, a step later.
        if !self.phased() {
            self.book(req, number);
        }
        self.advance(req, Some(Step::Effect));
    }

    /// The payment service charged nothing: keep the failure under the key for repeats, or
    /// delete the key so that a repeat runs again (`replay=`), then answer with it.
    fn charge_failed(&mut self, msg: u32, req: u32, status: u16) {
        if !self.provider_reply_arrives(msg, req) {
            return;
        }
        let keep = match self.s.replay {
            Replay::All => true,
            Replay::Final => status < 500,
            Replay::Success => false,
        };
        match self.reqs[req as usize].key {
            Some(key) if keep && self.dedup() != Dedup::None => self.keep_failure(req, key, status),
            Some(key) if !keep && self.dedup() != Dedup::None => self.forget_key(req, key, status),
            _ => {}
        }
        self.finish_with(req, status, None, false);
    }

    /// Stores the failure and commits it: in the open transaction, or (phased, whose call runs
    /// outside one) in a transaction of its own, at once.
    fn keep_failure(&mut self, req: u32, key: crate::trace::Key, status: u16) {
        let phased = self.phased();
        if phased {
            self.begin(req);
        }
        self.store_response(req, key, status, None);
        if phased {
            self.commit_phase(req, Recovery::Finished);
        } else if self.reqs[req as usize].handler.txn.is_some() {
            self.commit(req);
        }
    }

    /// Drops what this request holds of the key: its uncommitted claim rolls back, and a row it
    /// committed (phased, or an `order=` that claims outside the transaction) is deleted.
    fn forget_key(&mut self, req: u32, key: crate::trace::Key, status: u16) {
        if self.reqs[req as usize].handler.txn.is_some() {
            self.rollback(req, RollbackCause::NoCommit);
        }
        if self.delete_own_key(req, key) {
            self.emit_req(self.key_node(), req, EventKind::KeyDeleted { status });
        }
    }

    /// The ledger row for a charge: in the open transaction (its outbox event waits for the
    /// commit), or autocommitted and published at once.
    fn book(&mut self, req: u32, number: u32) {
        let txn = self.reqs[req as usize].handler.txn;
        let reconciled = false;
        let row = EventKind::LedgerRow {
            number,
            txn,
            reconciled,
        };
        self.emit_req(Node::Db, req, row);
        match txn {
            Some(_) => self.reqs[req as usize].handler.pending.outbox = Some(number),
            None => self.booked(req, number, true),
        }
    }

    fn step_commit(&mut self, req: u32) -> Flow {
        let key = self.reqs[req as usize].key;
        if let (Some(key), true) = (key, self.dedup() != Dedup::None) {
            let number = self.reqs[req as usize].handler.number;
            self.store_response(req, key, 200, number);
        }
        if self.reqs[req as usize].handler.txn.is_some() {
            self.commit(req);
        }
        Flow::Advance
    }

    fn step_respond(&mut self, req: u32) -> Flow {
        if !self.reqs[req as usize].handler.responded {
            let number = self.reqs[req as usize].handler.number;
            self.respond(req, 200, number, false);
        }
        Flow::Advance
    }

    /// Ends the handler early with an answer (a replay, 400, 409, 422 or 503).
    pub(super) fn finish_with(
        &mut self,
        req: u32,
        status: u16,
        number: Option<u32>,
        replay: bool,
    ) -> Flow {
        if !self.reqs[req as usize].handler.responded {
            self.respond(req, status, number, replay);
        }
        // Only a transaction that wrote nothing ends "read only": one that claimed, charged or
        // wrote before this answer (an `order=` that looks up late) has writes to undo.
        let handler = &self.reqs[req as usize].handler;
        let pending = handler.pending;
        let wrote = handler.claim == Claim::Held
            || pending.write.is_some()
            || pending.store.is_some()
            || pending.outbox.is_some();
        let cause = if wrote {
            RollbackCause::NoCommit
        } else {
            RollbackCause::ReadOnly
        };
        self.finish(req, cause);
        Flow::Done
    }

    /// Ends the handler; an open transaction is rolled back, as a closed session would.
    pub(super) fn finish(&mut self, req: u32, cause: RollbackCause) {
        if self.reqs[req as usize].handler.txn.is_some() {
            self.rollback(req, cause);
        }
        let handler = &mut self.reqs[req as usize].handler;
        handler.live = false;
        let arrival = handler.arrival;
        if self.api.active.get(arrival) == Some(req) {
            self.api.active.remove(arrival);
        }
    }

    fn respond(&mut self, req: u32, status: u16, number: Option<u32>, replay: bool) {
        self.reqs[req as usize].handler.responded = true;
        self.emit_req(Node::Api, req, EventKind::Reply { status, replay });
        let pod = self.reqs[req as usize].pod;
        let conflict = status == 409 && self.s.concurrent == Concurrent::Conflict;
        let payload = Payload::Response {
            status,
            number,
            replay,
            retry_after_ms: conflict.then(|| self.retry_after_ms(req)),
        };
        self.send(Node::Api, Node::Client(pod), req, payload);
    }
}
