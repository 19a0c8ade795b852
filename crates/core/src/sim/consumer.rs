//! The queue and its consumer (`consumer=plain|inbox`): the at-least-once half of the topology.
//!
//! Each ledger row, once committed, goes out through the ledger's outbox as one event. The queue
//! delivers it and waits `visibility_ms` for an acknowledgement; without one it delivers again,
//! up to `deliveries_max` times, then parks the event in a dead-letter queue. An acknowledgement
//! can be lost (`ack_loss`), which from the queue's side is the same as a consumer that died
//! after its work and before its ack. So the consumer sees some events twice, and an inbox table
//! (the event id under a primary key, inserted in a transaction before the mail and committed
//! after it) turns redeliveries into one receipt. An email cannot be in that transaction:
//! `consumer_crash=after-mail` kills the consumer between its first mail and the commit, the
//! inbox row rolls back, and the redelivery mails again. Only a mail provider that takes the
//! event id as its idempotency key (`mail=keyed`) answers that repeat without a second email.

use super::rng::{self, Stream};
use super::{Action, Ctx, World};
use crate::scenario::{costs, Consumer, ConsumerCrash, Mail, Relay};
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
    /// When the mail provider first sent this event's receipt: with `mail=keyed` it remembers
    /// the event id as the key of that send.
    mailed_us: Option<u64>,
}

#[derive(Debug, Default)]
pub(super) struct Queue {
    /// Indexed by event id.
    events: Vec<Queued>,
    /// Between the consumer's crash and its restart: deliveries that arrive are lost.
    consumer_down: bool,
    /// The consumer's crashes so far (one at most), so that a delivery it received before a
    /// crash is not handled after it.
    consumer_gen: u16,
    /// Deduplication id (the charge number) → when the queue accepted it (`broker_dedup_ms`).
    accepted: std::collections::BTreeMap<u32, u64>,
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
    /// A ledger row became durable: with a queue, its outbox row is published, or with
    /// `relay=direct` the API publishes it a statement later (`by_api`: the row is the API's,
    /// not the reconciliation job's, which publishes its own).
    pub(super) fn publish(&mut self, req: u32, number: u32, by_api: bool) {
        if self.s.consumer == Consumer::Off {
            return;
        }
        if by_api && self.s.relay == Relay::Direct {
            let gen = self.api.gen;
            self.at(costs::DB_STATEMENT_US, Action::Relay { req, number, gen });
            return;
        }
        self.send_publish(Node::Db, req, number);
    }

    /// The API's own publish (`relay=direct`): lost if its process crashed since the commit.
    pub(super) fn relay_direct(&mut self, req: u32, number: u32, gen: u32) {
        if gen != self.api.gen {
            self.emit_req(Node::Api, req, EventKind::EventLost { number });
            return;
        }
        self.send_publish(Node::Api, req, number);
    }

    fn send_publish(&mut self, from: Node, req: u32, number: u32) {
        let event = u32::try_from(self.queue_state.events.len()).expect("bounded by events_max");
        self.queue_state.events.push(Queued {
            req,
            number,
            deliveries: 0,
            acked: false,
            inboxed: false,
            mailed_us: None,
        });
        self.send(from, Node::Queue, req, Payload::Publish { event });
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
            &self.seeds,
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
            Payload::Publish { event } if self.broker_knows(event) => {
                let number = self.queue_state.events[event as usize].number;
                self.emit_req(Node::Queue, m.req, EventKind::BrokerDedup { event, number });
            }
            Payload::Publish { event } => self.deliver(event),
            Payload::Ack { event, .. } => self.queue_state.events[event as usize].acked = true,
            _ => unreachable!("the queue only receives publishes and acks"),
        }
    }

    /// Whether the queue accepted an event with `event`'s deduplication id (its charge) within
    /// `broker_dedup_ms`; if not, it remembers this one's from now.
    fn broker_knows(&mut self, event: u32) -> bool {
        let Some(window_ms) = self.s.broker_dedup_ms else {
            return false;
        };
        let number = self.queue_state.events[event as usize].number;
        let window_us = u64::from(window_ms) * 1_000;
        let now_us = self.now_us;
        match self.queue_state.accepted.get(&number) {
            Some(&accepted_us) if now_us < accepted_us + window_us => true,
            _ => {
                self.queue_state.accepted.insert(number, now_us);
                false
            }
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
        if self.queue_state.consumer_down {
            let cause = DropCause::ConsumerDown;
            self.emit_req(Node::Consumer, m.req, EventKind::Drop { msg, cause });
            return;
        }
        self.emit_req(Node::Consumer, m.req, EventKind::Deliver { msg });
        let Payload::Delivery { event, delivery } = m.payload else {
            unreachable!("the consumer only receives deliveries");
        };
        let gen = self.queue_state.consumer_gen;
        let consume = Action::Consume {
            event,
            delivery,
            gen,
        };
        self.at(costs::DB_STATEMENT_US, consume);
    }

    /// Handles one delivery. With an inbox, the insert, the mail and the commit are one action,
    /// so no other delivery can slip between them; `consumer_crash=after-mail` is the one way
    /// to stop between the mail and the commit.
    pub(super) fn consume(&mut self, event: u32, delivery: u16, gen: u16) {
        if gen != self.queue_state.consumer_gen {
            return;
        }
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
        if fresh && self.mail(req, event, number) && self.consumer_crash_due() {
            self.crash_consumer(req, event);
            return;
        }
        self.send(
            Node::Consumer,
            Node::Queue,
            req,
            Payload::Ack { event, delivery },
        );
    }

    /// Sends the receipt through the mail provider. False when a keyed provider knew the event
    /// id and answered with its first send, so no email went out.
    fn mail(&mut self, req: u32, event: u32, number: u32) -> bool {
        let now_us = self.now_us;
        let retention_us = u64::from(self.s.retention_ms) * 1_000;
        let keyed = self.s.mail == Mail::Keyed;
        let queued = &mut self.queue_state.events[event as usize];
        if keyed
            && queued
                .mailed_us
                .is_some_and(|sent_us| now_us - sent_us < retention_us)
        {
            self.emit_req(Node::Consumer, req, EventKind::MailReplay { event, number });
            return false;
        }
        queued.mailed_us = Some(now_us);
        self.emit_req(Node::Consumer, req, EventKind::Receipt { event, number });
        true
    }

    fn consumer_crash_due(&self) -> bool {
        self.s.consumer_crash == ConsumerCrash::AfterMail && self.queue_state.consumer_gen == 0
    }

    /// The consumer dies after a mail and before its commit: the uncommitted inbox row rolls
    /// back, no ack goes out (so the queue redelivers), and it restarts `restart_ms` later.
    fn crash_consumer(&mut self, req: u32, event: u32) {
        let inbox = self.s.consumer == Consumer::Inbox;
        if inbox {
            self.queue_state.events[event as usize].inboxed = false;
        }
        self.queue_state.consumer_down = true;
        self.queue_state.consumer_gen += 1;
        self.emit_req(
            Node::Consumer,
            req,
            EventKind::ConsumerCrash { event, inbox },
        );
        if !self.trace.truncated {
            self.at(
                u64::from(self.s.restart_ms) * 1_000,
                Action::RestartConsumer,
            );
        }
    }

    pub(super) fn restart_consumer(&mut self) {
        self.queue_state.consumer_down = false;
        self.emit(Node::Consumer, Ctx::default(), EventKind::ConsumerRestart);
    }
}
