//! The queue and its consumer (`consumer=plain|inbox`): the at-least-once half of the topology.
//!
//! Each ledger row, once committed, goes out through the ledger's outbox as one event. The queue
//! delivers it and waits `visibility_ms` for an acknowledgement; without one it delivers again,
//! up to `deliveries_max` times, then parks the event in a dead-letter queue. An acknowledgement
//! can be lost (`ack_loss`), which from the queue's side is the same as a consumer that died
//! after its work and before its ack. So the consumer sees some events twice, and an inbox table
//! (the event id under a primary key, inserted before the mail) turns redeliveries into one
//! receipt. The consumer never crashes here, so the one gap an inbox cannot close (a mail sent,
//! then a crash before the inbox row commits) is not modelled.

use super::rng::{self, Stream};
use super::{Action, World};
use crate::scenario::{costs, Consumer};
use crate::trace::{DropCause, EventKind, Node, Payload};

/// One event the outbox published, as the queue tracks it.
#[derive(Clone, Copy, Debug)]
struct Queued {
    /// The request whose commit published it: its order and key label the event's marks.
    req: u32,
    number: u32,
    deliveries: u16,
    acked: bool,
    /// Whether the consumer's inbox table holds this event's id (`consumer=inbox` only).
    inboxed: bool,
}

#[derive(Debug, Default)]
pub(super) struct Queue {
    /// Indexed by event id.
    events: Vec<Queued>,
}

/// Which hop of an event a network draw is for.
#[derive(Clone, Copy)]
#[repr(u64)]
enum Hop {
    Publish = 0,
    Deliver = 1,
    Ack = 2,
}

impl World {
    /// A ledger row became durable: with a queue, its outbox row is published.
    pub(super) fn publish(&mut self, req: u32, number: u32) {
        if self.s.consumer == Consumer::Off {
            return;
        }
        let event = u32::try_from(self.queue_state.events.len()).expect("bounded by events_max");
        self.queue_state.events.push(Queued {
            req,
            number,
            deliveries: 0,
            acked: false,
            inboxed: false,
        });
        self.send(Node::Db, Node::Queue, req, Payload::Publish { event });
    }

    /// The latency and fate of a queue hop, or `None` for any other message.
    pub(super) fn queue_fate(&self, payload: Payload) -> Option<(u64, Option<DropCause>)> {
        let (event, delivery, hop) = match payload {
            Payload::Publish { event } => (event, 0, Hop::Publish),
            Payload::Delivery { event, delivery } => (event, delivery, Hop::Deliver),
            // Keyed by the delivery it acknowledges, so the acks of two deliveries in flight
            // at once are lost (or not) independently.
            Payload::Ack { event, delivery } => (event, delivery, Hop::Ack),
            _ => return None,
        };
        let mut draw = rng::for_decision(
            self.s.seed,
            Stream::Queue,
            u64::from(event),
            u64::from(delivery),
            hop as u64,
        );
        let latency = self.s.latency_ms;
        let latency_us = rng::between(
            &mut draw,
            u64::from(latency.lo) * 1_000,
            u64::from(latency.hi) * 1_000,
        );
        let lost = matches!(hop, Hop::Ack) && rng::chance(&mut draw, self.s.ack_loss);
        Some((latency_us, lost.then_some(DropCause::Loss)))
    }

    pub(super) fn queue_receives(&mut self, msg: u32) {
        let m = self.msgs[msg as usize];
        self.emit_req(Node::Queue, m.req, EventKind::Deliver { msg });
        match m.payload {
            Payload::Publish { event } => self.deliver(event),
            Payload::Ack { event, .. } => self.queue_state.events[event as usize].acked = true,
            _ => unreachable!("the queue only receives publishes and acks"),
        }
    }

    fn deliver(&mut self, event: u32) {
        let queued = &mut self.queue_state.events[event as usize];
        queued.deliveries += 1;
        let (req, delivery) = (queued.req, queued.deliveries);
        self.send(
            Node::Queue,
            Node::Consumer,
            req,
            Payload::Delivery { event, delivery },
        );
        let visibility_us = u64::from(self.s.visibility_ms) * 1_000;
        self.at(visibility_us, Action::Visibility { event, delivery });
    }

    /// The visibility timer of one delivery: still unacknowledged means deliver again.
    pub(super) fn visibility(&mut self, event: u32, delivery: u16) {
        let queued = self.queue_state.events[event as usize];
        if queued.acked || queued.deliveries != delivery {
            return;
        }
        if u32::from(delivery) >= self.s.deliveries_max {
            self.emit_req(Node::Queue, queued.req, EventKind::DeadLetter { event });
            return;
        }
        let next = delivery + 1;
        let redeliver = EventKind::Redeliver {
            event,
            delivery: next,
        };
        self.emit_req(Node::Queue, queued.req, redeliver);
        self.deliver(event);
    }

    pub(super) fn consumer_receives(&mut self, msg: u32) {
        let m = self.msgs[msg as usize];
        self.emit_req(Node::Consumer, m.req, EventKind::Deliver { msg });
        let Payload::Delivery { event, delivery } = m.payload else {
            unreachable!("the consumer only receives deliveries");
        };
        self.at(costs::DB_STATEMENT_US, Action::Consume { event, delivery });
    }

    /// Handles one delivery. With an inbox, the insert and the mail are one action, so no other
    /// delivery can slip between them; a real consumer can crash between the two, which this
    /// model does not do.
    pub(super) fn consume(&mut self, event: u32, delivery: u16) {
        let Queued { req, number, .. } = self.queue_state.events[event as usize];
        let fresh = match self.s.consumer {
            Consumer::Inbox => {
                let queued = &mut self.queue_state.events[event as usize];
                let seen = std::mem::replace(&mut queued.inboxed, true);
                let fresh = !seen;
                self.emit_req(Node::Consumer, req, EventKind::Inbox { event, fresh });
                fresh
            }
            Consumer::Plain | Consumer::Off => true,
        };
        if fresh {
            self.emit_req(Node::Consumer, req, EventKind::Receipt { event, number });
        }
        self.send(
            Node::Consumer,
            Node::Queue,
            req,
            Payload::Ack { event, delivery },
        );
    }
}
