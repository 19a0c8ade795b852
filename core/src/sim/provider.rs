//! The payment service: outside the ledger's transaction. It charges on every call, unless the
//! call forwards a key it has seen within `retention_ms`, in which case it returns that charge.

use super::rng::{self, Stream};
use super::{Action, World};
use crate::dense::KeyMap;
use crate::scenario::Provider;
use crate::trace::{EventKind, Key, Node, Payload};

#[derive(Default)]
pub(super) struct PaymentService {
    charges_made: u32,
    /// Forwarded key → (charge number, time first seen).
    keys: KeyMap<(u32, u64)>,
}

impl World {
    pub(super) fn provider_receives(&mut self, msg: u32) {
        let req = self.msgs[msg as usize].req;
        self.emit_req(Node::Payment, req, EventKind::Deliver { msg });
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
        let keyed = matches!(m.payload, Payload::Charge { keyed: true });
        let key = self.reqs[m.req as usize].key.filter(|_| keyed);
        let known = key.is_some_and(|key| self.known_charge(key).is_some());
        if let (false, Some(status)) = (known, self.failure(m.req)) {
            self.emit_req(Node::Payment, m.req, EventKind::ChargeFailed { status });
            let payload = Payload::ChargeFailed { status };
            self.send(Node::Payment, Node::Api, m.req, payload);
            return;
        }
        let (number, replay) = self.charge(key);
        self.emit_req(Node::Payment, m.req, EventKind::Charge { number, replay });
        self.send(Node::Payment, Node::Api, m.req, Payload::Charged { number });
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
    pub(super) fn forwards_key(&self, req: u32) -> bool {
        self.s.provider == Provider::Keyed && self.reqs[req as usize].key.is_some()
    }
}
