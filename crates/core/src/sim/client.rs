//! Client pods: each works through its share of the orders one at a time, with a timeout per
//! attempt, doubling backoff with seeded jitter, and a key made by the scenario's strategy.

use super::rng::{self, Stream};
use super::{api, Action, Ctx, Request, World};
use crate::scenario::{backoff_base_ms, KeyStrategy, Op, Scope};
use crate::trace::{EventKind, Key, Node, Outcome, Payload, Pod};

/// The body the client sends: an amount in cents for a charge, a value for a set. Bodies carry
/// no order id, so only the key can tell two orders apart.
const BODY_CHARGE: u32 = 5_000;
const BODY_SET: u32 = 1;

/// One client pod's progress through its orders.
#[derive(Clone, Debug)]
pub(super) struct Exec {
    pub client: u16,
    /// How many of this client's orders are finished.
    pub done_count: u32,
    pub current: Option<Current>,
}

#[derive(Clone, Copy, Debug)]
pub(super) struct Current {
    pub order: u32,
    pub attempt: u16,
    pub req: u32,
    /// True while an attempt is out and its timer runs.
    pub waiting: bool,
    /// The key the client minted for this order after a 412 found nothing done: every later
    /// attempt of the order carries it instead of the strategy's key.
    pub minted: Option<Key>,
}

impl World {
    /// Starts one pod per client: at the beginning, or for an operator's rerun.
    pub(super) fn start_pods(&mut self, rerun: bool) {
        for client in 0..self.s.clients {
            let client = u16::try_from(client).expect("clients is bounded far below u16::MAX");
            self.start_pod(client, rerun);
        }
    }

    /// Starts a client pod; its lane and its exec share the index.
    pub(super) fn start_pod(&mut self, client: u16, rerun: bool) {
        let pod = u16::try_from(self.trace.pods.len()).expect("pods are bounded by clients * 2");
        let mut draw = rng::for_decision(&self.seeds, Stream::PodUid, u64::from(pod), 0, 0);
        let uid = rand::RngCore::next_u32(&mut draw);
        self.trace.pods.push(Pod { uid, client, rerun });
        self.execs.push(Exec {
            client,
            done_count: 0,
            current: None,
        });
        let ctx = Ctx {
            pod: Some(pod),
            ..Ctx::default()
        };
        self.emit(Node::Client(pod), ctx, EventKind::PodStart { uid, rerun });
        self.at(0, Action::NextOrder { exec: pod });
    }

    pub(super) fn next_order(&mut self, pod: u16) {
        let exec = &self.execs[usize::from(pod)];
        let order = u32::from(exec.client) + exec.done_count * self.s.clients;
        if order >= self.s.orders {
            return;
        }
        self.execs[usize::from(pod)].current = Some(Current {
            order,
            attempt: 0,
            req: u32::MAX,
            waiting: false,
            minted: None,
        });
        let ctx = Ctx {
            order: Some(order + 1),
            pod: Some(pod),
            ..Ctx::default()
        };
        self.emit(Node::Client(pod), ctx, EventKind::OrderStart);
        self.send_attempt(pod);
    }

    pub(super) fn send_attempt(&mut self, pod: u16) {
        let Some(mut current) = self.execs[usize::from(pod)].current else {
            return;
        };
        current.attempt += 1;
        let req = u32::try_from(self.reqs.len()).expect("requests are bounded by events_max");
        let key = (current.minted).or_else(|| self.key_for(pod, current.order, current.attempt));
        let body = self.body_for(current.attempt);
        self.reqs.push(Request {
            pod,
            order: current.order,
            attempt: current.attempt,
            key,
            body,
            handler: api::Handler::default(),
        });
        current.req = req;
        current.waiting = true;
        self.execs[usize::from(pod)].current = Some(current);
        self.send(Node::Client(pod), Node::Api, req, Payload::Request { body });
        self.at(
            u64::from(self.s.timeout_ms) * 1_000,
            Action::Timeout { exec: pod, req },
        );
    }

    /// The order's tenant (from 1) and its work id within that tenant: with one tenant, the
    /// order's own number.
    fn tenant_work(&self, order: u32) -> (u16, u32) {
        let tenants = self.s.tenants;
        let tenant = u16::try_from(order % tenants + 1).expect("tenants is bounded far below");
        (tenant, order / tenants + 1)
    }

    fn key_for(&self, pod: u16, order: u32, attempt: u16) -> Option<Key> {
        let (tenant, work) = self.tenant_work(order);
        // A key carries its tenant only when it is scoped to one of several.
        let scoped = self.s.tenants > 1 && self.s.scope == Scope::Tenant;
        let tenant = if scoped { tenant } else { 0 };
        match self.s.key {
            KeyStrategy::Business => Some(Key::Business { work, tenant }),
            KeyStrategy::Process => Some(Key::Process {
                process: self.trace.pod_uid(pod),
                work,
                tenant,
            }),
            KeyStrategy::Attempt => {
                let mut draw = rng::for_decision(
                    &self.seeds,
                    Stream::AttemptUuid,
                    u64::from(pod),
                    u64::from(order),
                    u64::from(attempt),
                );
                Some(Key::Attempt {
                    uuid: rand::RngCore::next_u64(&mut draw),
                })
            }
            KeyStrategy::Constant => Some(Key::Constant { tenant }),
            KeyStrategy::None => None,
        }
    }

    fn body_for(&self, attempt: u16) -> u32 {
        let base = match self.s.op {
            Op::Charge => BODY_CHARGE,
            Op::Set => BODY_SET,
        };
        if self.s.body_change {
            base + u32::from(attempt - 1)
        } else {
            base
        }
    }

    /// A response reached a client pod. Only the attempt it is waiting for counts.
    pub(super) fn client_receives(&mut self, msg: u32, pod: u16) {
        let m = self.msgs[msg as usize];
        let current = self.execs[usize::from(pod)].current;
        let listening = matches!(current, Some(c) if c.waiting && c.req == m.req);
        if !listening {
            self.emit_req(
                Node::Client(pod),
                m.req,
                EventKind::Drop {
                    msg,
                    cause: crate::trace::DropCause::Late,
                },
            );
            return;
        }
        self.emit_req(Node::Client(pod), m.req, EventKind::Deliver { msg });
        if let Payload::Found { number } = m.payload {
            return self.found(pod, number);
        }
        let Payload::Response {
            status,
            retry_after_ms,
            ..
        } = m.payload
        else {
            unreachable!("only responses travel to clients")
        };
        // A `Retry-After` replaces the client's own backoff for the next attempt.
        let delay_us = retry_after_ms.map(|ms| u64::from(ms.get()) * 1_000);
        match status {
            200 => self.order_done(pod, Outcome::Ok, Some(status)),
            400 | 402 | 422 => self.order_done(pod, Outcome::Failed, Some(status)),
            // The key expired and the API refuses it: ask whether the order is done before
            // minting a new key. The attempt's timer still runs and covers the lookup.
            412 => {
                self.send(Node::Client(pod), Node::Api, m.req, Payload::Find);
            }
            _ => self.retry_or_give_up(pod, Some(status), delay_us),
        }
    }

    /// The answer to a lookup by business key: the order is done, or the next retry goes out
    /// under a newly minted key (a fresh UUID, drawn for this order and attempt).
    fn found(&mut self, pod: u16, number: Option<u32>) {
        if number.is_some() {
            return self.order_done(pod, Outcome::Ok, None);
        }
        let Some(mut current) = self.execs[usize::from(pod)].current else {
            return;
        };
        let mut draw = rng::for_decision(
            &self.seeds,
            Stream::Remint,
            u64::from(pod),
            u64::from(current.order),
            u64::from(current.attempt),
        );
        current.minted = Some(Key::Attempt {
            uuid: rand::RngCore::next_u64(&mut draw),
        });
        self.execs[usize::from(pod)].current = Some(current);
        self.retry_or_give_up(pod, Some(412), None);
    }

    pub(super) fn attempt_timeout(&mut self, pod: u16, req: u32) {
        let current = self.execs[usize::from(pod)].current;
        if !matches!(current, Some(c) if c.waiting && c.req == req) {
            return;
        }
        self.emit_req(Node::Client(pod), req, EventKind::Timeout);
        self.retry_or_give_up(pod, None, None);
    }

    /// Retries after `delay_us` (a `Retry-After`) or, without one, after the backoff.
    fn retry_or_give_up(&mut self, pod: u16, status: Option<u16>, delay_us: Option<u64>) {
        let Some(mut current) = self.execs[usize::from(pod)].current else {
            return;
        };
        current.waiting = false;
        self.execs[usize::from(pod)].current = Some(current);
        if u32::from(current.attempt) > self.s.retries {
            self.order_done(pod, Outcome::Unknown, status);
            return;
        }
        let delay_us =
            delay_us.unwrap_or_else(|| self.backoff_us(pod, current.order, current.attempt));
        self.emit_req(
            Node::Client(pod),
            current.req,
            EventKind::Retry { delay_us },
        );
        self.at(delay_us, Action::SendAttempt { exec: pod });
    }

    /// Doubling backoff plus jitter of up to half of it, seeded by (pod, order, retry).
    fn backoff_us(&self, pod: u16, order: u32, retry: u16) -> u64 {
        let base_us = backoff_base_ms(self.s.backoff_ms, u32::from(retry)) * 1_000;
        let mut draw = rng::for_decision(
            &self.seeds,
            Stream::Jitter,
            u64::from(pod),
            u64::from(order),
            u64::from(retry),
        );
        base_us + rng::between(&mut draw, 0, base_us / 2)
    }

    fn order_done(&mut self, pod: u16, outcome: Outcome, status: Option<u16>) {
        let Some(current) = self.execs[usize::from(pod)].current.take() else {
            return;
        };
        self.emit_req(
            Node::Client(pod),
            current.req,
            EventKind::OrderDone { outcome, status },
        );
        self.execs[usize::from(pod)].done_count += 1;
        self.at(0, Action::NextOrder { exec: pod });
    }
}
