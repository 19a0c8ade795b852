//! Races: each check-then-insert race that `metrics::Races` finds, drawn as a shaded region.
//!
//! The detector is the metrics' own, so the page never shows a race the counter does not count,
//! or the other way round. This module only decides how far each region reaches and which
//! events it names.

use idemlab_core::dense::{sort_stable_by_key, DenseMap};

use super::mark::{EventIx, LaneIx};
use crate::metrics::{Race, Races};
use idemlab_core::trace::{Event, EventKind, Trace};

/// One race's region before it becomes a mark.
pub(super) struct Region {
    pub t0_us: u64,
    pub t1_us: u64,
    pub lane: LaneIx,
    pub to_lane: LaneIx,
    /// The two reads, then every other event of the two requests in trace order.
    pub events: Vec<EventIx>,
}

/// The race regions, one per race, from `lane` (the API) down to `to_lane` (the database), in
/// the order of their first reads (a stable sort: races that share a first read keep the order
/// they were found in). Found a slice at a time, so that the page can lay out a million
/// events without holding its main thread (`view::LayoutJob`). Three passes: find the racing
/// pairs over the events, list the events of every racing request over the events again, then
/// make a region per pair.
#[derive(Default)]
pub(super) struct RaceJob {
    races: Races,
    pairs: Vec<Race>,
    /// Every racing request's events: `by_req` maps the request to its list in `lists`.
    by_req: DenseMap,
    lists: Vec<Vec<EventIx>>,
    regions: Vec<Region>,
    stage: RaceStage,
    /// The next event (or pair) the current stage takes.
    next: usize,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum RaceStage {
    #[default]
    Pairs,
    ByReq,
    Regions,
    Done,
}

impl RaceJob {
    /// Takes up to `work` events or pairs and returns the work left over: more than zero means
    /// the search is done (`take` then gives the regions), and so does `done`.
    pub fn step(&mut self, trace: &Trace, lane: LaneIx, to_lane: LaneIx, work: usize) -> usize {
        let mut work = work;
        while work > 0 && self.stage != RaceStage::Done {
            let total = match self.stage {
                RaceStage::Pairs | RaceStage::ByReq => trace.events.len(),
                RaceStage::Regions | RaceStage::Done => self.pairs.len(),
            };
            let end = total.min(self.next.saturating_add(work));
            match self.stage {
                RaceStage::Pairs => self.find_pairs(trace, end),
                RaceStage::ByReq => self.list_events(trace, end),
                RaceStage::Regions => self.make_regions(trace, lane, to_lane, end),
                RaceStage::Done => {}
            }
            work -= end - self.next;
            self.next = end;
            if end == total {
                self.advance();
                // A stage change is work too, so that a search of nothing still ends.
                work = work.saturating_sub(1);
            }
        }
        if self.done() {
            work.max(1)
        } else {
            0
        }
    }

    pub fn done(&self) -> bool {
        self.stage == RaceStage::Done
    }

    pub fn take(self) -> Vec<Region> {
        debug_assert!(self.done(), "the search has ended");
        self.regions
    }

    fn advance(&mut self) {
        self.next = 0;
        self.stage = match self.stage {
            RaceStage::Pairs if self.pairs.is_empty() => RaceStage::Done,
            RaceStage::Pairs => {
                for pair in &self.pairs {
                    for req in [pair.first.req, pair.second.req] {
                        if self.by_req.get(req).is_none() {
                            self.by_req.insert(req, self.lists.len() as u32);
                            self.lists.push(Vec::new());
                        }
                    }
                }
                RaceStage::ByReq
            }
            RaceStage::ByReq => {
                self.regions.reserve_exact(self.pairs.len());
                RaceStage::Regions
            }
            RaceStage::Regions | RaceStage::Done => {
                sort_stable_by_key(&mut self.regions, |region| u128::from(region.events[0]));
                self.by_req = DenseMap::new();
                self.lists = Vec::new();
                self.pairs = Vec::new();
                RaceStage::Done
            }
        };
    }

    fn find_pairs(&mut self, trace: &Trace, end: usize) {
        for ix in self.next..end {
            if let Some(race) = self.races.event(ix as EventIx, &trace.events[ix]) {
                self.pairs.push(race);
            }
        }
    }

    /// Every event of every request that takes part in a race, in trace order.
    fn list_events(&mut self, trace: &Trace, end: usize) {
        for ix in self.next..end {
            let event = &trace.events[ix];
            if let Some(list) = event.req().and_then(|req| self.by_req.get(req)) {
                self.lists[list as usize].push(ix as EventIx);
            }
        }
    }

    fn make_regions(&mut self, trace: &Trace, lane: LaneIx, to_lane: LaneIx, end: usize) {
        for pair in &self.pairs[self.next..end] {
            let list = |req| &self.lists[self.by_req.get(req).expect("listed") as usize][..];
            let region = region(
                trace,
                [list(pair.first.req), list(pair.second.req)],
                pair,
                lane,
                to_lane,
            );
            self.regions.push(region);
        }
    }
}

/// The region runs from the first "not found" to the later of the two requests' effects and
/// stores: the stretch in which both believed they were first.
fn region(
    trace: &Trace,
    by_req: [&[EventIx]; 2],
    pair: &Race,
    lane: LaneIx,
    to_lane: LaneIx,
) -> Region {
    let (first, second) = (pair.first.event, pair.second.event);
    let first_event: &Event = &trace.events[first as usize];
    let t0_us = first_event.time_us;
    let mut t1_us = trace.events[second as usize].time_us;
    let mut events = vec![first, second];
    let both = by_req[0].iter().chain(by_req[1]);
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
    let attempt = |event: &Event| event.attempt().map_or(String::from("?"), |a| a.to_string());
    match (a.order(), b.order()) {
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
            a.req().unwrap_or(0),
            b.req().unwrap_or(0)
        ),
    }
}
