//! The payment service: outside the ledger's transaction. It charges on every call, unless the
//! call forwards a key it has seen within `retention_ms`, in which case it returns that charge.

use super::rng::{self, Stream};
use super::{Action, World};
use crate::dense::{BitSet, KeyMap};
use crate::scenario::{Lookup, Provider};
use crate::trace::{EventKind, Key, Node, Payload};

#[derive(Default)]
pub(super) struct PaymentService {
    charges_made: u32,
    /// Forwarded key → (charge number, time first seen).
    keys: KeyMap<(u32, u64)>,
    /// Key → the first charge made under it, kept only with `lookup=on`, whose API sends its
    /// key with every charge as a tag it can search by; a charge is a lasting record, so tags
    /// do not expire.
    tags: KeyMap<u32>,
    /// The request behind each charge (charge n at n - 1), kept only for reconciliation: a
    /// charge names its order, as a real one carries the order's reference.
    charge_reqs: Vec<u32>,
}

impl World {
    pub(super) fn provider_receives(&mut self, msg: u32) {
        let req = self.msgs[msg as usize].req;
        self.emit_req(Node::Payment, req, EventKind::Deliver { msg });
        if matches!(self.msgs[msg as usize].payload, Payload::FindCharge) {
            return self.find_charge(req);
        }
        let mut draw = self.attempt_draw(Stream::ProviderWork, req);
        let range = self.s.provider_ms;
        let work_us = rng::between(
            &mut draw,
            u64::from(range.lo) * 1_000,
            u64::from(range.hi) * 1_000,
        );
        self.at(work_us, Action::ProviderDone { msg });
    }

    pub(super) fn provider_done(&mut self, msg: u32) {
        let m = self.msgs[msg as usize];
        // Only a keyed provider deduplicates on a forwarded key; a plain one keeps it as a tag.
        let keyed = matches!(m.payload, Payload::Charge { keyed: true })
            && self.s.provider == Provider::Keyed;
        let key = self.reqs[m.req as usize].key.filter(|_| keyed);
        let known = key.is_some_and(|key| self.known_charge(key).is_some());
        if let (false, Some(status)) = (known, self.failure(m.req)) {
            self.emit_req(Node::Payment, m.req, EventKind::ChargeFailed { status });
            let payload = Payload::ChargeFailed { status };
            self.send(Node::Payment, Node::Api, m.req, payload);
            return;
        }
        let (number, replay) = self.charge(key);
        if !replay && self.s.reconcile_ms.is_some() {
            self.provider.charge_reqs.push(m.req);
        }
        if let (Lookup::On, Some(tag)) = (self.s.lookup, self.reqs[m.req as usize].key) {
            if self.provider.tags.get(&tag).is_none() {
                self.provider.tags.insert(tag, number);
            }
        }
        self.emit_req(Node::Payment, m.req, EventKind::Charge { number, replay });
        self.send(Node::Payment, Node::Api, m.req, Payload::Charged { number });
    }

    /// The reconciliation job: each charge the ledger lacks gets its row (autocommitted, with
    /// its outbox event), and each charge after its order's first is refunded.
    pub(super) fn reconcile(&mut self) {
        let mut orders = BitSet::new();
        let reqs = std::mem::take(&mut self.provider.charge_reqs);
        for (ix, &req) in reqs.iter().enumerate() {
            if self.trace.truncated {
                break;
            }
            let number = u32::try_from(ix + 1).expect("charges are bounded by events_max");
            if !self.store.booked.contains(number as usize) {
                let row = EventKind::LedgerRow {
                    number,
                    txn: None,
                    reconciled: true,
                };
                self.emit_req(Node::Db, req, row);
                self.booked(req, number, false);
            }
            let order = self.reqs[req as usize].order;
            if !orders.insert(order as usize) {
                self.emit_req(Node::Payment, req, EventKind::Refund { number });
            }
        }
        self.provider.charge_reqs = reqs;
    }

    /// A lookup by key, answered at once: searching its own records is not the work a charge
    /// is (a simplification: no work time).
    fn find_charge(&mut self, req: u32) {
        let key = self.reqs[req as usize]
            .key
            .expect("only a keyed request looks up");
        let number = self.provider.tags.get(&key).copied();
        self.emit_req(Node::Payment, req, EventKind::ChargeLookup { number });
        self.send(
            Node::Payment,
            Node::Api,
            req,
            Payload::ChargeFound { number },
        );
    }

    /// Whether this call fails (500) or is declined (402), drawn per attempt; nothing is drawn
    /// when neither can happen, so other runs are untouched.
    fn failure(&self, req: u32) -> Option<u16> {
        let (fail, decline) = (self.s.provider_fail, self.s.decline);
        if fail == 0 && decline == 0 {
            return None;
        }
        let mut draw = self.attempt_draw(Stream::ProviderOutcome, req);
        let fails = rng::chance(&mut draw, fail);
        let declines = rng::chance(&mut draw, decline);
        (fails.then_some(500)).or(declines.then_some(402))
    }

    /// The charge a forwarded key already made, while the provider still remembers it.
    fn known_charge(&self, key: Key) -> Option<u32> {
        let retention_us = u64::from(self.s.retention_ms) * 1_000;
        match self.provider.keys.get(&key) {
            Some(&(number, seen_us)) if self.now_us < seen_us + retention_us => Some(number),
            _ => None,
        }
    }

    fn charge(&mut self, key: Option<Key>) -> (u32, bool) {
        let now_us = self.now_us;
        if let Some(number) = key.and_then(|key| self.known_charge(key)) {
            return (number, true);
        }
        self.provider.charges_made += 1;
        let number = self.provider.charges_made;
        if let Some(key) = key {
            self.provider.keys.insert(key, (number, now_us));
        }
        (number, false)
    }

    /// Whether the API forwards the request's key to the payment service.
    /// With `lookup=on` it sends it to a plain provider too, as a tag to look the charge up by.
    pub(super) fn forwards_key(&self, req: u32) -> bool {
        let sends = self.s.provider == Provider::Keyed || self.s.lookup == Lookup::On;
        sends && self.reqs[req as usize].key.is_some()
    }
}
