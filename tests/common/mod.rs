//! Helpers shared by the integration tests: decoding, sweeping, and the trace checker.
//!
//! The checker lives here, apart from the simulator it checks, so that a bug in the model
//! cannot also hide itself in the assertions.
#![allow(dead_code)] // each test binary uses a different subset

use std::collections::BTreeMap;

use idemlab::scenario::{decode, Scenario};
use idemlab::sweep::Sweep;
use idemlab::trace::{EventKind, Node, Payload, Trace};
use idemlab::Metrics;

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
    idemlab::run(&scenario(query))
}

pub fn sweep(query: &str, count: u64) -> Sweep {
    idemlab::sweep::sweep(&scenario(query), 0, count)
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
        let metrics = idemlab::run(&s).1;
        (!ok(&metrics)).then_some((seed, metrics))
    })
}

/// Checks what must hold of every trace, whatever the scenario. Returns the first violation.
pub fn check_trace(trace: &Trace) -> Result<(), String> {
    check_time_order(trace)?;
    check_messages(trace)?;
    check_effects_reached_server(trace)?;
    check_counts(trace)
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
    for event in &trace.events {
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
    for event in &trace.events {
        match event.kind {
            EventKind::AttemptRow { .. } => {
                reached.insert(event.req);
            }
            EventKind::Charge { .. } | EventKind::Applied { .. }
                if event.req.is_none() || !reached.contains(&event.req) =>
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
            m.duplicates <= m.effects + ledger_rows,
            "duplicates <= effects + ledger rows",
        ),
        (m.lost <= m.outcomes.ok, "lost <= ok"),
    ];
    match problems.iter().find(|(ok, _)| !ok) {
        Some((_, what)) => Err(format!("metrics disagree with the trace on {what}: {m:?}")),
        None => Ok(()),
    }
}
