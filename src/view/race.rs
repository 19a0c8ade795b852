//! Races: each check-then-insert race that `metrics::Races` finds, drawn as a shaded region.
//!
//! The detector is the metrics' own, so the page never shows a race the counter does not count,
//! or the other way round. This module only decides how far each region reaches and which
//! events it names.

use std::collections::BTreeMap;

use super::mark::{EventIx, LaneIx};
use crate::metrics::{Race, Races};
use crate::trace::{Event, EventKind, Trace};

/// One race's region before it becomes a mark.
pub(super) struct Region {
    pub t0_us: u64,
    pub t1_us: u64,
    pub lane: LaneIx,
    pub to_lane: LaneIx,
    /// The two reads, then every other event of the two requests in trace order.
    pub events: Vec<EventIx>,
}

/// One region per race, from `lane` (the API) down to `to_lane` (the database), in the order
/// of their first reads (a stable sort: races that share a first read keep the order they
/// were found in).
pub(super) fn races(trace: &Trace, lane: LaneIx, to_lane: LaneIx) -> Vec<Region> {
    let pairs = pairs(trace);
    if pairs.is_empty() {
        return Vec::new();
    }
    let by_req = events_by_req(trace, &pairs);
    let mut regions: Vec<Region> = (pairs.iter())
        .map(|pair| region(trace, &by_req, pair, lane, to_lane))
        .collect();
    regions.sort_by_key(|region| region.events[0]);
    regions
}

fn pairs(trace: &Trace) -> Vec<Race> {
    let mut races = Races::default();
    (trace.events.iter().enumerate())
        .filter_map(|(ix, event)| races.event(ix as EventIx, event))
        .collect()
}
/// Every event of every request that takes part in a race, in trace order.
fn events_by_req(trace: &Trace, pairs: &[Race]) -> BTreeMap<u32, Vec<EventIx>> {
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
    pair: &Race,
    lane: LaneIx,
    to_lane: LaneIx,
) -> Region {
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
    Region {
        t0_us,
        t1_us,
        lane,
        to_lane,
        events,
    }
}

/// A race's label, from its two "not found" reads.
pub(super) fn label(events: &[Event], first: EventIx, second: EventIx) -> String {
    let [a, b] = [first, second].map(|read| &events[read as usize]);
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
            a.req.unwrap_or(0),
            b.req.unwrap_or(0)
        ),
    }
}
