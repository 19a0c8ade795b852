//! The simulator: one deterministic run of client → API → payment service → database.
//!
//! `run` is the whole run: a scenario in, a trace out. `Stepper` is the same run in slices of a
//! bounded number of actions, so the page can compute a heavy run across frames, show its
//! progress and drop it to cancel; its trace equals `run`'s. Inside, a `World` pops actions
//! from a queue ordered by (time, sequence) and every handler appends events to the trace at
//! the current time, so the trace is sorted by construction. There is no IO, no clock and no
//! shared random stream: see `rng` for how the seed reaches each decision.

mod api;
mod client;
mod consumer;
mod faults;
mod network;
mod provider;
mod queue;
mod rng;
mod store;

use crate::scenario::{Crash, Dedup, Scenario, Step, Store};
use crate::trace::{Event, EventKind, Ids, Key, Node, Payload, Trace};
/// The context an event is about, copied into the trace.
type Ctx = Ids;

use queue::Queue;

pub use api::program;
/// The generator behind every decision, public so the CLI's benchmark can time a bare event
/// loop drawing from the very same type.
pub use rng::Draw;

/// Runs one scenario to the end (or to `events_max`) and returns its trace.
pub fn run(scenario: &Scenario) -> Trace {
    Stepper::new(scenario).finish()
}

/// One run that can stop after any number of actions and go on later, with nothing lost: the
/// trace it ends with is the one `run` returns for the same scenario. Dropping it cancels.
pub struct Stepper {
    world: World,
}

/// How far a `Stepper` has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// The run has ended: its queue is empty, or it reached its event cap.
    pub done: bool,
    /// Events recorded so far.
    pub events: u32,
    /// Actions taken from the queue so far: the run's work, counted without a clock.
    pub actions: u64,
    /// Simulated time reached.
    pub time_us: u64,
}

impl Stepper {
    pub fn new(scenario: &Scenario) -> Stepper {
        Stepper::reusing(scenario, Vec::new())
    }

    /// A run that records its events into `buffer`, a finished trace's (`Trace::into_buffer`).
    pub fn reusing(scenario: &Scenario, buffer: Vec<Event>) -> Stepper {
        let mut world = World::new(scenario.clone(), buffer);
        world.start();
        Stepper { world }
    }

    /// The unfinished trace's event buffer, emptied (`Trace::into_buffer`): for the next run
    /// when this one is abandoned.
    pub fn into_buffer(self) -> Option<Vec<Event>> {
        let mut events = self.world.events;
        events.clear();
        Some(events)
    }

    /// Takes up to `actions_max` actions (at least one, unless the run has ended).
    pub fn step(&mut self, actions_max: u32) -> Progress {
        self.world.run_loop(u64::from(actions_max.max(1)));
        self.progress()
    }

    pub fn progress(&self) -> Progress {
        let w = &self.world;
        Progress {
            done: w.done,
            events: u32::try_from(w.events.len()).expect("events are bounded by events_max"),
            actions: w.actions_done,
            time_us: w.now_us,
        }
    }

    /// Runs whatever is left and returns the trace.
    pub fn finish(mut self) -> Trace {
        self.world.run_loop(u64::MAX);
        let World {
            mut trace, events, ..
        } = self.world;
        trace.events = std::sync::Arc::new(events);
        trace
    }
}

/// What the queue holds. Small and `Copy`: everything else lives in the world's tables.
#[derive(Clone, Copy, Debug)]
enum Action {
    /// A client pod takes its next order.
    NextOrder {
        exec: u16,
    },
    /// A client pod sends the next attempt of its current order.
    SendAttempt {
        exec: u16,
    },
    /// The timer of one attempt fires.
    Timeout {
        exec: u16,
        req: u32,
    },
    /// A message reaches its destination.
    Arrive {
        msg: u32,
    },
    /// A message dies in flight (loss or partition).
    Lose {
        msg: u32,
        cause: crate::trace::DropCause,
    },
    /// A handler runs its next step.
    Step {
        req: u32,
        gen: u32,
    },
    /// The payment service finishes a call.
    ProviderDone {
        msg: u32,
    },
    /// The API's wait for the payment service's answer to `msg` ends (`loss_provider`).
    CallTimeout {
        req: u32,
        msg: u32,
    },
    CrashApi,
    RestartApi,
    ReplaceDb,
    RestartDb,
    Rerun,
    Reconcile,
    /// The queue's wait for the acknowledgement of one delivery ends.
    Visibility {
        event: u32,
        delivery: u16,
    },
    /// The consumer handles a delivery of `event`, if it has not crashed since it received it
    /// (`gen` counts its crashes).
    Consume {
        event: u32,
        delivery: u16,
        gen: u16,
    },
    RestartConsumer,
    /// `relay=direct`: the API publishes charge `number`'s event, if its process (`gen`) still
    /// runs.
    Relay {
        req: u32,
        number: u32,
        gen: u32,
    },
}

/// One message on the wire; `req` ties it to the attempt it belongs to.
#[derive(Clone, Copy, Debug)]
struct Message {
    to: Node,
    req: u32,
    payload: Payload,
}

/// One attempt as sent by a client, and the API's handler state for it once it arrives.
#[derive(Clone, Debug)]
struct Request {
    pod: u16,
    order: u32,
    attempt: u16,
    key: Option<Key>,
    body: u32,
    handler: api::Handler,
}

/// A rough upper estimate of a run's events without faults: about 24 per attempt.
fn expected_events(s: &Scenario) -> usize {
    let attempts = u64::from(s.orders) * 2;
    (attempts * 24).min(u64::from(s.events_max)) as usize
}

struct World {
    s: Scenario,
    now_us: u64,
    queue: Queue,
    /// The trace's scenario, pods and cut-off; its events are recorded in `events` and moved in
    /// when the run ends.
    trace: Trace,
    /// A plain vector, not the trace's shared one: checking that a shared vector is unshared
    /// before each push took a locked instruction, an eighth of the simulator's time.
    events: Vec<Event>,
    /// The seed's share of every decision's generator (`rng::for_decision`).
    seeds: rng::Seeds,
    msgs: Vec<Message>,
    reqs: Vec<Request>,
    execs: Vec<client::Exec>,
    api: api::Api,
    store: store::Store,
    provider: provider::PaymentService,
    queue_state: consumer::Queue,
    /// Actions processed; bounded so that even a bug cannot make a run spin forever.
    actions_done: u64,
    /// Set once the queue is empty or the cap is reached: nothing more will happen.
    done: bool,
}

impl World {
    fn new(s: Scenario, mut buffer: Vec<Event>) -> World {
        let events = expected_events(&s);
        buffer.clear();
        buffer.reserve_exact(events);
        World {
            now_us: 0,
            queue: Queue::default(),
            trace: Trace::new(&s),
            events: buffer,
            seeds: rng::Seeds::new(s.seed),
            // Sized from the workload up front: growing them was a tenth of a run's time in wasm.
            msgs: Vec::with_capacity(events / 4),
            reqs: Vec::with_capacity(events / 16),
            s,
            execs: Vec::new(),
            api: api::Api::default(),
            store: store::Store::new(),
            provider: provider::PaymentService::default(),
            queue_state: consumer::Queue::default(),
            actions_done: 0,
            done: false,
        }
    }

    fn start(&mut self) {
        self.start_pods(false);
        faults::schedule(self);
    }

    /// Takes up to `slice` more actions, stopping early when the run ends.
    fn run_loop(&mut self, slice: u64) {
        // Each action emits a handful of events at most, so this bound is never the one that
        // stops a correct run; it is there so an incorrect one cannot hang the page.
        let actions_max = u64::from(self.s.events_max) * 8 + 1_000;
        let mut taken = 0u64;
        while !self.done && taken < slice {
            let Some((time_us, action)) = self.queue.pop() else {
                self.done = true;
                break;
            };
            debug_assert!(time_us >= self.now_us, "time never runs backwards");
            self.now_us = time_us;
            self.actions_done += 1;
            taken += 1;
            if self.actions_done > actions_max {
                self.cap_reached();
            } else {
                self.dispatch(action);
            }
            // Past the cap nothing more can be recorded: stop here rather than at the next pop.
            self.done = self.trace.truncated || self.queue.is_empty();
        }
    }

    fn dispatch(&mut self, action: Action) {
        match action {
            Action::NextOrder { exec } => self.next_order(exec),
            Action::SendAttempt { exec } => self.send_attempt(exec),
            Action::Timeout { exec, req } => self.attempt_timeout(exec, req),
            Action::Arrive { msg } => self.arrive(msg),
            Action::Lose { msg, cause } => self.lose(msg, cause),
            Action::Step { req, gen } => self.handler_step(req, gen),
            Action::ProviderDone { msg } => self.provider_done(msg),
            Action::CallTimeout { req, msg } => self.call_timeout(req, msg),
            Action::CrashApi => self.crash_api(),
            Action::RestartApi => self.restart_api(),
            Action::ReplaceDb => self.replace_db(),
            Action::RestartDb => self.restart_db(),
            Action::Rerun => self.rerun(),
            Action::Reconcile => self.reconcile(),
            Action::Visibility { event, delivery } => self.visibility(event, delivery),
            Action::Consume {
                event,
                delivery,
                gen,
            } => self.consume(event, delivery, gen),
            Action::RestartConsumer => self.restart_consumer(),
            Action::Relay { req, number, gen } => self.relay_direct(req, number, gen),
        }
    }

    fn at(&mut self, delay_us: u64, action: Action) {
        self.queue
            .push(self.now_us.saturating_add(delay_us), action);
    }

    /// The generator for one decision about request `req`'s attempt, identified by its pod,
    /// order and attempt: a retry draws afresh, a replay of the same attempt draws the same.
    fn attempt_draw(&self, stream: rng::Stream, req: u32) -> rng::Draw {
        let r = &self.reqs[req as usize];
        let (pod, order, attempt) = (u64::from(r.pod), u64::from(r.order), u64::from(r.attempt));
        rng::for_decision(&self.seeds, stream, pod, order, attempt)
    }

    fn ctx(&self, req: u32) -> Ctx {
        let r = &self.reqs[req as usize];
        Ctx {
            order: Some(r.order + 1),
            attempt: Some(r.attempt),
            pod: Some(r.pod),
            req: Some(req),
            key: r.key,
        }
    }

    // Inlined into its sixty callers, an event's kind and ids are written straight into the
    // trace; passed by reference, they were stored in the caller's frame and read back here in
    // other widths, which stalled each event. The binary came out smaller, not larger.
    #[inline(always)]
    fn emit(&mut self, node: Node, ctx: Ctx, kind: EventKind) {
        if self.trace.truncated {
            return;
        }
        if self.events.len() + 1 >= self.s.events_max as usize {
            self.cap_reached();
            return;
        }
        let event = Event::new(self.now_us, node, ctx, kind);
        self.record(event);
    }

    /// Appends an event, never letting the buffer grow past `events_max` events plus the
    /// `cap-reached` one. Growing copies the events, and for a moment both copies are live:
    /// the buffer doubles while small, and once it is a quarter of the cap or more it goes
    /// straight to the cap, so a run never holds more than 1.5 times its largest trace. The
    /// page's wasm memory never shrinks back, so that moment is its peak while it simulates.
    fn record(&mut self, event: Event) {
        let events = &mut self.events;
        if events.len() == events.capacity() {
            let cap = self.s.events_max as usize + 1;
            let room = cap.saturating_sub(events.len());
            let grow = if events.len() * 4 >= cap {
                room
            } else {
                events.len().max(64).min(room)
            };
            events.reserve_exact(grow.max(1));
        }
        events.push(event);
    }

    fn emit_req(&mut self, node: Node, req: u32, kind: EventKind) {
        let ctx = self.ctx(req);
        self.emit(node, ctx, kind);
    }

    fn cap_reached(&mut self) {
        if self.trace.truncated {
            return;
        }
        self.trace.truncated = true;
        let event = Event::new(
            self.now_us,
            Node::Api,
            Ctx::default(),
            EventKind::CapReached,
        );
        self.record(event);
    }

    /// The lane on which key-table statements are drawn: memory keys live in the API process.
    fn key_node(&self) -> Node {
        match self.s.store {
            Store::Memory => Node::Api,
            Store::Pod | Store::Durable => Node::Db,
        }
    }

    fn dedup(&self) -> Dedup {
        self.s.dedup
    }

    fn crash_after(&self) -> Option<Step> {
        match self.s.crash {
            Some(Crash::AfterStep(step)) if !self.api.crashed_once => Some(step),
            _ => None,
        }
    }
}
