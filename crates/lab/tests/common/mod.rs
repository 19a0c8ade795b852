//! Helpers shared by the integration tests: decoding, sweeping, and the trace checker.
//!
//! The checker lives here, apart from the simulator it checks, so that a bug in the model
//! cannot also hide itself in the assertions.
#![allow(dead_code)] // each test binary uses a different subset

use std::collections::BTreeMap;

use idemlab_core::scenario::{decode, Consumer, Mail, Scenario};
use idemlab_core::trace::{EventKind, Node, Payload, Trace};
use idemlab_lab::sweep::Sweep;
use idemlab_lab::Metrics;

/// True when the suite runs in its long form (`TEST_MODE=long`), outside CI.
pub fn long_mode() -> bool {
    std::env::var("TEST_MODE").is_ok_and(|mode| mode == "long")
}

/// Seeds for sweeps that must hold "over N seeds": the CI size, or ten times it in long mode.
pub fn seeds(ci_count: u64) -> u64 {
    if long_mode() {
        ci_count * 10
    } else {
        ci_count
    }
}

/// Joins query fragments, a later fragment's key replacing an earlier one's, so a test can lay
/// a fault and a setting over a base without tripping the codec's repeated-key error.
pub fn overlay(parts: &[&str]) -> String {
    let mut pairs: Vec<(&str, &str)> = Vec::new();
    for pair in parts
        .iter()
        .flat_map(|part| part.split('&'))
        .filter(|p| !p.is_empty())
    {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        match pairs.iter_mut().find(|(k, _)| *k == key) {
            Some(existing) => existing.1 = value,
            None => pairs.push((key, value)),
        }
    }
    let joined: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}={v}")).collect();
    joined.join("&")
}

pub fn scenario(query: &str) -> Scenario {
    match decode(query) {
        Ok(decoded) => decoded.scenario,
        Err(errors) => panic!("test query {query:?} does not decode: {errors:?}"),
    }
}

pub fn run(query: &str) -> (Trace, Metrics) {
    idemlab_lab::run(&scenario(query))
}

pub fn sweep(query: &str, count: u64) -> Sweep {
    idemlab_lab::sweep::sweep(&scenario(query), 0, count)
}

/// Replies that replay a stored answer with `status`.
pub fn replayed(trace: &Trace, status: u16) -> usize {
    let replay = EventKind::Reply {
        status,
        replay: true,
    };
    trace.events.iter().filter(|e| e.kind == replay).count()
}

/// Provider calls for an order that had already been answered 500 by the provider.
pub fn calls_after_a_500(trace: &Trace) -> usize {
    let mut failed = std::collections::BTreeSet::new();
    let mut again = 0;
    for e in trace.events.iter() {
        match e.kind {
            EventKind::ChargeFailed { status: 500 } => {
                failed.insert(e.order());
            }
            EventKind::Send {
                payload: Payload::Charge { .. },
                ..
            } if failed.contains(&e.order()) => again += 1,
            _ => {}
        }
    }
    again
}

/// Runs seeds 0..count and returns the first seed whose metrics fail `ok`, with them.
pub fn first_failing(
    query: &str,
    count: u64,
    ok: impl Fn(&Metrics) -> bool,
) -> Option<(u64, Metrics)> {
    let mut s = scenario(query);
    (0..count).find_map(|seed| {
        s.seed = seed;
        let metrics = idemlab_lab::run(&s).1;
        (!ok(&metrics)).then_some((seed, metrics))
    })
}

/// Checks what must hold of every trace, whatever the scenario. Returns the first violation.
pub fn check_trace(trace: &Trace) -> Result<(), String> {
    check_time_order(trace)?;
    check_messages(trace)?;
    check_effects_reached_server(trace)?;
    check_queue(trace)?;
    check_counts(trace)
}

/// The queue publishes one event per durable ledger row, delivers each at most
/// `deliveries_max` times, mails receipts only for delivered events, and with an inbox mails
/// two for one event only when the consumer crashed between the first mail and its commit. A
/// keyed mail provider mails an event again only after `retention_ms`. At the end every event
/// is acknowledged or dead-lettered.
fn check_queue(trace: &Trace) -> Result<(), String> {
    let s = &trace.scenario;
    let q = queue_counts(trace)?;
    // With relay=direct an event can be lost between the commit and its publish.
    let lost = (trace.events.iter())
        .filter(|e| matches!(e.kind, EventKind::EventLost { .. }))
        .count() as u32;
    let durable_rows = durable_ledger_rows(trace);
    let expected = if s.consumer == Consumer::Off {
        0
    } else {
        durable_rows - lost
    };
    if q.published != expected && !trace.truncated {
        let published = q.published;
        return Err(format!(
            "{published} events published for {expected} durable ledger rows"
        ));
    }
    if let Some((id, n)) = q.deliveries.iter().find(|(_, &n)| n > s.deliveries_max) {
        return Err(format!("e{id} delivered {n} times, over deliveries_max"));
    }
    let allowed = |id: &u32| if q.crashed.contains(id) { 2 } else { 1 };
    if s.consumer == Consumer::Inbox && q.receipts.iter().any(|(id, &n)| n > allowed(id)) {
        return Err("an inbox consumer mailed two receipts for one event without a crash".into());
    }
    if !trace.truncated && q.settled.len() != q.deliveries.len() {
        return Err(format!(
            "{} events delivered, {} settled",
            q.deliveries.len(),
            q.settled.len()
        ));
    }
    Ok(())
}

/// What the queue and the consumer did in a run, by queue event id.
#[derive(Default)]
struct QueueCounts {
    deliveries: BTreeMap<u32, u32>,
    receipts: BTreeMap<u32, u32>,
    /// Events acknowledged or dead-lettered.
    settled: std::collections::BTreeSet<u32>,
    published: u32,
    /// Events the consumer crashed after mailing.
    crashed: std::collections::BTreeSet<u32>,
}

/// Counts what the queue did, checking each mail (`check_mail`) and that no receipt comes
/// before its event's first delivery on the way.
fn queue_counts(trace: &Trace) -> Result<QueueCounts, String> {
    let mut q = QueueCounts::default();
    let mut acks: BTreeMap<u32, u32> = BTreeMap::new();
    let mut mailed_us: BTreeMap<u32, u64> = BTreeMap::new();
    for event in trace.events.iter() {
        check_mail(trace, event, &mut mailed_us)?;
        match event.kind {
            EventKind::ConsumerCrash { event: id, .. } => {
                q.crashed.insert(id);
            }
            EventKind::Send {
                payload: Payload::Publish { .. },
                ..
            } => q.published += 1,
            EventKind::Send {
                payload: Payload::Delivery { event: id, .. },
                ..
            } => {
                *q.deliveries.entry(id).or_default() += 1;
            }
            EventKind::Receipt { event: id, .. } if !q.deliveries.contains_key(&id) => {
                return Err(format!("receipt for e{id} before any delivery"));
            }
            EventKind::Receipt { event: id, .. } => *q.receipts.entry(id).or_default() += 1,
            EventKind::Send {
                msg,
                payload: Payload::Ack { event: id, .. },
                ..
            } => {
                acks.insert(msg, id);
            }
            EventKind::Deliver { msg } => {
                if let Some(id) = acks.remove(&msg) {
                    q.settled.insert(id);
                }
            }
            EventKind::DeadLetter { event: id } => {
                q.settled.insert(id);
            }
            _ => {}
        }
    }
    Ok(q)
}

/// A keyed mail provider mails an event's receipt again only once its key has expired, and
/// answers with the first send only when it has one within `retention_ms`; a plain one never
/// answers with a first send.
fn check_mail(
    trace: &Trace,
    event: &idemlab_core::trace::Event,
    mailed_us: &mut BTreeMap<u32, u64>,
) -> Result<(), String> {
    let s = &trace.scenario;
    let retention_us = u64::from(s.retention_ms) * 1_000;
    let known = |id: u32, mailed_us: &BTreeMap<u32, u64>| {
        mailed_us
            .get(&id)
            .is_some_and(|&sent_us| event.time_us - sent_us < retention_us)
    };
    match event.kind {
        EventKind::Receipt { event: id, .. } if s.mail == Mail::Keyed && known(id, mailed_us) => {
            Err(format!(
                "a keyed mail provider mailed e{id} again within retention_ms"
            ))
        }
        EventKind::Receipt { event: id, .. } => {
            mailed_us.insert(id, event.time_us);
            Ok(())
        }
        EventKind::MailReplay { event: id, .. }
            if s.mail != Mail::Keyed || !known(id, mailed_us) =>
        {
            Err(format!("e{id}'s mail replayed without a kept first send"))
        }
        _ => Ok(()),
    }
}

fn receipted_events(trace: &Trace) -> u32 {
    let ids: std::collections::BTreeSet<u32> = (trace.events.iter())
        .filter_map(|e| match e.kind {
            EventKind::Receipt { event, .. } => Some(event),
            _ => None,
        })
        .collect();
    ids.len() as u32
}

/// Ledger rows that became durable, counting those a wiped pod ledger forgot afterwards.
fn durable_ledger_rows(trace: &Trace) -> u32 {
    let mut rows = 0;
    idemlab_lab::metrics::walk_ledger(&trace.events, |_, _, _| rows += 1);
    rows
}

fn check_time_order(trace: &Trace) -> Result<(), String> {
    for pair in trace.events.windows(2) {
        if pair[1].time_us < pair[0].time_us {
            return Err(format!("time runs backwards at {:?}", pair[1]));
        }
    }
    Ok(())
}

/// Every message is sent once and then delivered or dropped once, never before it was sent.
fn check_messages(trace: &Trace) -> Result<(), String> {
    let mut open: BTreeMap<u32, u64> = BTreeMap::new();
    for event in trace.events.iter() {
        match event.kind {
            EventKind::Send { msg, .. } if open.insert(msg, event.time_us).is_some() => {
                return Err(format!("message m{msg} sent twice"));
            }
            EventKind::Deliver { msg } | EventKind::Drop { msg, .. } => match open.remove(&msg) {
                Some(sent_us) if sent_us <= event.time_us => {}
                _ => return Err(format!("message m{msg} ends without an earlier send")),
            },
            _ => {}
        }
    }
    if !trace.truncated && !open.is_empty() {
        return Err(format!(
            "messages never arrived nor dropped: {:?}",
            open.keys()
        ));
    }
    Ok(())
}

/// Every effect belongs to an attempt that reached the API.
fn check_effects_reached_server(trace: &Trace) -> Result<(), String> {
    let mut reached = std::collections::BTreeSet::new();
    for event in trace.events.iter() {
        match event.kind {
            EventKind::AttemptRow { .. } => {
                reached.insert(event.req());
            }
            EventKind::Charge { .. } | EventKind::Applied { .. }
                if event.req().is_none() || !reached.contains(&event.req()) =>
            {
                return Err(format!(
                    "effect without an attempt that reached the server: {event:?}"
                ));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The metrics agree with a plain count over the trace.
fn check_counts(trace: &Trace) -> Result<(), String> {
    let m = Metrics::of(trace);
    let count = |pred: &dyn Fn(&EventKind) -> bool| {
        trace.events.iter().filter(|e| pred(&e.kind)).count() as u32
    };
    let effects = count(&|k| {
        matches!(
            k,
            EventKind::Charge { replay: false, .. } | EventKind::Applied { .. }
        )
    });
    let sent = count(&|k| {
        matches!(
            k,
            EventKind::Send {
                payload: Payload::Request { .. },
                to: Node::Api,
                ..
            }
        )
    });
    let received = count(&|k| matches!(k, EventKind::AttemptRow { .. }));
    let starts = count(&|k| matches!(k, EventKind::OrderStart));
    let ledger_rows = count(&|k| matches!(k, EventKind::LedgerRow { .. }));
    let receipts = count(&|k| matches!(k, EventKind::Receipt { .. }));
    let outcomes = m.outcomes.ok + m.outcomes.failed + m.outcomes.unknown + m.outcomes.in_flight;
    let problems = [
        (m.effects == effects, "effects"),
        (m.attempts == sent, "attempts"),
        (m.received == received, "received"),
        (m.events as usize == trace.events.len(), "events"),
        (outcomes == m.orders, "outcomes add up to orders"),
        (
            m.outcomes.in_flight == 0 || trace.truncated,
            "no order left in flight at the end",
        ),
        (m.orders <= starts, "orders"),
        (
            m.duplicates <= m.effects + ledger_rows + m.receipts,
            "duplicates <= effects + ledger rows + receipts",
        ),
        (m.receipts == receipts, "receipts"),
        (
            m.duplicate_receipts == receipts - receipted_events(trace),
            "duplicate receipts = receipts - events with a receipt",
        ),
        (
            m.redeliveries == count(&|k| matches!(k, EventKind::Redeliver { .. })),
            "redeliveries",
        ),
        (m.lost <= m.outcomes.ok, "lost <= ok"),
    ];
    match problems.iter().find(|(ok, _)| !ok) {
        Some((_, what)) => Err(format!("metrics disagree with the trace on {what}: {m:?}")),
        None => Ok(()),
    }
}

/// The page's drawing of one viewport: no cursor, fading or outlines.
pub fn page_plot(
    timeline: &idemlab_lab::view::Timeline,
    viewport: idemlab_lab::view::Viewport,
) -> idemlab_lab::view::Drawing {
    let shown = timeline.view(&viewport);
    let scene = idemlab_lab::view::Scene {
        timeline,
        viewport,
        view: &shown,
        overlay: idemlab_lab::view::Overlay::default(),
        links: false,
        top_px: 0.0,
    };
    idemlab_lab::view::plot(&scene)
}
