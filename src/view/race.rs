//! Races: each check-then-insert race that `metrics::Races` finds, drawn as a shaded region.
//!
//! The detector is the metrics' own, so the page never shows a race the counter does not count,
//! or the other way round. This module only decides how far each region reaches and which
//! events it names.

use std::collections::BTreeMap;

use super::mark::{EventIx, LaneIx, Mark, MarkKind};
use crate::metrics::{Race, Races};
use crate::trace::{Event, EventKind, Trace};

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

fn race_label(trace: &Trace, pair: &Race) -> String {
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
