//! Races: the check-then-insert window of metrics.rs, drawn as shaded regions.
//!
//! The fold mirrors `Metrics::races` on purpose, so the page never shows a race the counter
//! does not count, or the other way round: a request's window opens at its "not found" lookup
//! and closes at its claim (ok or conflict), its store or its reply; a crash closes them all. A
//! "not found" read while another request of the same key has an open window is one race.

use std::collections::BTreeMap;

use super::mark::{EventIx, LaneIx, Mark, MarkKind};
use crate::trace::{ClaimResult, Event, EventKind, Found, Key, Trace};

/// A "not found" read: which request, and where in the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Read {
    req: u32,
    event: EventIx,
}

/// The earlier read whose window was still open, the later read, and their key.
#[derive(Clone, Copy, Debug)]
struct Pair {
    first: Read,
    second: Read,
    key: Key,
}

/// One region per race, from `lane` (the API) down to `to_lane` (the database).
pub(super) fn races(trace: &Trace, lane: LaneIx, to_lane: LaneIx) -> Vec<Mark> {
    let pairs = pairs(trace);
    if pairs.is_empty() {
        return Vec::new();
    }
    let by_req = events_by_req(trace, &pairs);
    (pairs.iter())
        .map(|pair| region(trace, &by_req, pair, lane, to_lane))
        .collect()
}

fn pairs(trace: &Trace) -> Vec<Pair> {
    let mut windows: BTreeMap<Key, Vec<Read>> = BTreeMap::new();
    let mut pairs = Vec::new();
    for (ix, event) in trace.events.iter().enumerate() {
        let (Some(key), Some(req)) = (event.key, event.req) else {
            if event.kind == EventKind::Crash {
                windows.clear();
            }
            continue;
        };
        match event.kind {
            EventKind::Lookup {
                found: Found::NotFound,
            } => {
                let open = windows.entry(key).or_default();
                if let Some(&first) = open.iter().find(|read| read.req != req) {
                    let second = Read {
                        req,
                        event: ix as EventIx,
                    };
                    pairs.push(Pair { first, second, key });
                }
                if !open.iter().any(|read| read.req == req) {
                    open.push(Read {
                        req,
                        event: ix as EventIx,
                    });
                }
            }
            EventKind::Claim {
                result: ClaimResult::Ok | ClaimResult::Conflict,
            }
            | EventKind::Store { .. }
            | EventKind::Reply { .. } => {
                if let Some(open) = windows.get_mut(&key) {
                    open.retain(|read| read.req != req);
                }
            }
            _ => {}
        }
    }
    pairs
}

/// Every event of every request that takes part in a race, in trace order.
fn events_by_req(trace: &Trace, pairs: &[Pair]) -> BTreeMap<u32, Vec<EventIx>> {
    let mut by_req: BTreeMap<u32, Vec<EventIx>> = BTreeMap::new();
    for pair in pairs {
        by_req.entry(pair.first.req).or_default();
        by_req.entry(pair.second.req).or_default();
    }
    for (ix, event) in trace.events.iter().enumerate() {
        if let Some(list) = event.req.and_then(|req| by_req.get_mut(&req)) {
            list.push(ix as EventIx);
        }
    }
    by_req
}

/// The region runs from the first "not found" to the later of the two requests' effects and
/// stores: the stretch in which both believed they were first.
fn region(
    trace: &Trace,
    by_req: &BTreeMap<u32, Vec<EventIx>>,
    pair: &Pair,
    lane: LaneIx,
    to_lane: LaneIx,
) -> Mark {
    let (first, second) = (pair.first.event, pair.second.event);
    let first_event: &Event = &trace.events[first as usize];
    let t0_us = first_event.time_us;
    let mut t1_us = trace.events[second as usize].time_us;
    let mut events = vec![first, second];
    let both = by_req[&pair.first.req]
        .iter()
        .chain(&by_req[&pair.second.req]);
    for &ix in both {
        let event = &trace.events[ix as usize];
        let consequence = matches!(
            event.kind,
            EventKind::Charge { .. } | EventKind::Applied { .. } | EventKind::Store { .. }
        );
        if consequence && event.time_us >= t0_us {
            t1_us = t1_us.max(event.time_us);
        }
        if ix != first && ix != second {
            events.push(ix);
        }
    }
    events[2..].sort_unstable();
    Mark {
        t0_us,
        t1_us,
        lane,
        kind: MarkKind::Race {
            to_lane,
            reqs: [pair.first.req, pair.second.req],
            key: pair.key,
        },
        label: race_label(trace, pair),
        events,
        order: first_event.order,
        attempt: None,
    }
}

fn race_label(trace: &Trace, pair: &Pair) -> String {
    let [a, b] = [pair.first, pair.second].map(|read| &trace.events[read.event as usize]);
    let attempt = |event: &Event| event.attempt.map_or(String::from("?"), |a| a.to_string());
    match (a.order, b.order) {
        (Some(x), Some(y)) if x == y => format!(
            "race: order {x}, attempts {} and {} both read not found",
            attempt(a),
            attempt(b)
        ),
        (Some(x), Some(y)) => format!(
            "race: order {x} attempt {} and order {y} attempt {} both read not found",
            attempt(a),
            attempt(b)
        ),
        _ => format!(
            "race: requests {} and {} both read not found",
            pair.first.req, pair.second.req
        ),
    }
}
