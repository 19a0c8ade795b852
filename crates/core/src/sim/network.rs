//! The network: every hop has a seeded latency; client-API hops can be lost, responses can be cut
//! by the one-way partition, and API-provider hops are lost with `loss_provider` (queue hops are
//! `consumer::queue_fate`'s). Each message's fate is decided when it is sent.

use super::rng::{self, Stream};
use super::{Action, Message, World};
use crate::trace::{DropCause, EventKind, Node, Payload};

impl World {
    /// Sends a message: records the start of its arrow and schedules its arrival or its loss.
    pub(super) fn send(&mut self, from: Node, to: Node, req: u32, payload: Payload) -> u32 {
        let msg = u32::try_from(self.msgs.len()).expect("messages are bounded by events_max");
        self.msgs.push(Message { to, req, payload });
        self.emit_req(from, req, EventKind::Send { msg, to, payload });
        let (latency_us, mut lost) = match self.queue_fate(payload) {
            Some(fate) => fate,
            None => self.fate(from, to, req, payload),
        };
        // A hand-picked drop overrides the dice but keeps the drawn latency, so the cross sits
        // where the arrow would have been half-way.
        if self.s.drop.binary_search(&msg).is_ok() {
            lost = Some(DropCause::Chosen);
        }
        match lost {
            // Lost in flight: the cross is drawn half-way along the arrow.
            Some(cause) => self.at(latency_us / 2, Action::Lose { msg, cause }),
            None => self.at(latency_us, Action::Arrive { msg }),
        }
        msg
    }

    fn fate(&self, from: Node, to: Node, req: u32, payload: Payload) -> (u64, Option<DropCause>) {
        let stream = match (from, to, payload) {
            // A lookup after a 412 shares its attempt's identity: its own streams keep the
            // attempt's draws, and so every other run, as they were.
            (_, _, Payload::Find) => Stream::Find,
            (_, _, Payload::Found { .. }) => Stream::Found,
            (_, _, Payload::FindCharge) => Stream::ChargeLookup,
            (_, _, Payload::ChargeFound { .. }) => Stream::ChargeLookupReply,
            (Node::Client(_), _, _) => Stream::Request,
            (_, Node::Client(_), _) => Stream::Response,
            (Node::Api, _, _) => Stream::ProviderCall,
            _ => Stream::ProviderReply,
        };
        let mut draw = self.attempt_draw(stream, req);
        let latency = self.s.latency_ms;
        let latency_us = rng::between(
            &mut draw,
            u64::from(latency.lo) * 1_000,
            u64::from(latency.hi) * 1_000,
        );
        let lost = match stream {
            Stream::Request | Stream::Find => {
                rng::chance(&mut draw, self.s.loss_req).then_some(DropCause::Loss)
            }
            Stream::Response | Stream::Found => self.response_fate(&mut draw),
            // Drawn after the latency, and only when it can happen, so that a run without it
            // keeps every latency it had.
            _ => rng::chance(&mut draw, self.s.loss_provider).then_some(DropCause::Loss),
        };
        (latency_us, lost)
    }

    fn response_fate(&self, draw: &mut rng::Draw) -> Option<DropCause> {
        // Draw the loss first so that adding a partition leaves other responses' fates alone.
        let lost = rng::chance(draw, self.s.loss_resp);
        let now_ms = self.now_us / 1_000;
        let partitioned = self
            .s
            .partition
            .is_some_and(|p| (u64::from(p.lo)..=u64::from(p.hi)).contains(&now_ms));
        if partitioned {
            Some(DropCause::Partition)
        } else {
            lost.then_some(DropCause::Loss)
        }
    }

    pub(super) fn arrive(&mut self, msg: u32) {
        match self.msgs[msg as usize].to {
            Node::Api => self.api_receives(msg),
            Node::Payment => self.provider_receives(msg),
            Node::Client(pod) => self.client_receives(msg, pod),
            Node::Queue => self.queue_receives(msg),
            Node::Consumer => self.consumer_receives(msg),
            Node::Db => unreachable!("nothing is sent to the database over the network"),
        }
    }

    pub(super) fn lose(&mut self, msg: u32, cause: DropCause) {
        let m = self.msgs[msg as usize];
        self.emit_req(m.to, m.req, EventKind::Drop { msg, cause });
    }
}
