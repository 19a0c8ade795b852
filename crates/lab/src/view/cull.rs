//! Culling: which marks a viewport shows, in O(log n + visible), and a per-pixel-column count
//! instead when there are more marks than pixels can tell apart.
//!
//! Marks are grouped by duration class (powers of two) and each group is sorted by start time
//! and knows its longest mark. A mark that starts more than that before the window cannot reach
//! into it, so two binary searches per group bound the candidates. Grouping keeps one long mark
//! (an outage, a transaction left open by a crash) from widening the search for all the short
//! ones, which a single global maximum duration would do.

use serde::Serialize;

use super::layout::Timeline;
use super::mark::{LaneIx, Mark, MarkKind};
use super::scale::Viewport;

/// Above this many marks per pixel column on average, `view` aggregates instead of listing.
pub const MARKS_PER_COLUMN_MAX: u32 = 2;

/// Duration classes: 0 for instants, then one per bit of a u64.
const CLASSES: usize = 65;

/// The culling index of a timeline, built once by `layout`.
#[derive(Clone, Debug, Default)]
pub(super) struct MarkIndex {
    groups: Vec<Group>,
}

/// Marks whose durations share a power of two, in start order. It holds their indices only
/// and reads their times from the marks: copies of the times took 16 bytes more per mark.
#[derive(Clone, Debug, Default)]
struct Group {
    /// The longest mark here: a mark starting before `t0 − this` ends before `t0`.
    duration_us_max: u64,
    marks: Vec<u32>,
}

impl MarkIndex {
    /// `marks` must be sorted by start time, as `layout` leaves them.
    pub(super) fn new(marks: &[Mark]) -> MarkIndex {
        let class_of = |mark: &Mark| (u64::BITS - mark.duration_us().leading_zeros()) as usize;
        // Counted first, so each group is allocated once at its size.
        let mut sizes = [0usize; CLASSES];
        marks.iter().for_each(|mark| sizes[class_of(mark)] += 1);
        let mut groups: Vec<Group> = (sizes.iter())
            .map(|&size| Group {
                duration_us_max: 0,
                marks: Vec::with_capacity(size),
            })
            .collect();
        for (ix, mark) in marks.iter().enumerate() {
            let group = &mut groups[class_of(mark)];
            debug_assert!(
                (group.marks.last()).is_none_or(|&m| marks[m as usize].t0_us <= mark.t0_us)
            );
            group.duration_us_max = group.duration_us_max.max(mark.duration_us());
            group
                .marks
                .push(u32::try_from(ix).expect("marks are bounded by events_max"));
        }
        groups.retain(|group| !group.marks.is_empty());
        MarkIndex { groups }
    }

    /// Appends the marks overlapping `t0_us..=t1_us`, in no particular order.
    fn overlapping(&self, marks: &[Mark], t0_us: u64, t1_us: u64, out: &mut Vec<u32>) {
        let mark = |ix: u32| &marks[ix as usize];
        for group in &self.groups {
            let from_us = t0_us.saturating_sub(group.duration_us_max);
            let lo = group.marks.partition_point(|&m| mark(m).t0_us < from_us);
            let hi = group.marks.partition_point(|&m| mark(m).t0_us <= t1_us);
            let ending = group.marks[lo..hi]
                .iter()
                .filter(|&&m| mark(m).t1_us >= t0_us);
            out.extend(ending);
        }
    }
}

/// What a viewport shows: marks one by one, or counts per pixel column when too many.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "mode")]
pub enum View {
    /// Indices into `Timeline::marks`, in ascending order (which is start-time order).
    Marks {
        marks: Vec<u32>,
    },
    Density(Density),
}

/// Per-pixel-column counts. Each mark counts once, in the column where it starts (or column 0
/// if it started before the window). Bands are few and wide, so they stay marks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Density {
    pub columns: u32,
    pub lanes: LaneIx,
    /// `counts[lane * columns + column]`: arrows (at their start), points and spans; not races.
    pub counts: Vec<u32>,
    /// Race regions starting in each column.
    pub races: Vec<u32>,
    /// Duplicate effects in each column.
    pub duplicates: Vec<u32>,
    /// Band marks in the window, drawn as they are.
    pub bands: Vec<u32>,
    /// How many marks the window holds in all.
    pub marks: u32,
}

impl Density {
    pub fn count(&self, lane: LaneIx, column: u32) -> u32 {
        self.counts[usize::from(lane) * self.columns as usize + column as usize]
    }

    /// The busiest cell, for scaling the shading.
    pub fn count_max(&self) -> u32 {
        self.counts.iter().copied().max().unwrap_or(0)
    }
}

impl Timeline {
    /// The marks overlapping the viewport (closed on both ends), in ascending index order.
    pub fn visible(&self, viewport: &Viewport) -> Vec<u32> {
        let mut out = Vec::new();
        self.index
            .overlapping(&self.marks, viewport.t0_us(), viewport.t1_us(), &mut out);
        out.sort_unstable();
        out
    }

    /// What to draw for this viewport: the visible marks, or their density when there are more
    /// than `MARKS_PER_COLUMN_MAX` per pixel column on average.
    pub fn view(&self, viewport: &Viewport) -> View {
        let marks = self.visible(viewport);
        if marks.len() as u64 <= u64::from(MARKS_PER_COLUMN_MAX) * u64::from(viewport.width_px()) {
            return View::Marks { marks };
        }
        View::Density(self.density(viewport, &marks))
    }

    fn density(&self, viewport: &Viewport, visible: &[u32]) -> Density {
        let columns = viewport.width_px();
        let lanes = LaneIx::try_from(self.lanes.len()).expect("lanes fit in u16");
        let mut density = Density {
            columns,
            lanes,
            counts: vec![0; usize::from(lanes) * columns as usize],
            races: vec![0; columns as usize],
            duplicates: vec![0; columns as usize],
            bands: Vec::new(),
            marks: visible.len() as u32,
        };
        for &ix in visible {
            let mark = &self.marks[ix as usize];
            let x_px = viewport.x_px(mark.t0_us.max(viewport.t0_us()));
            let column = (x_px.max(0.0) as u32).min(columns - 1) as usize;
            match mark.kind {
                MarkKind::Band { .. } => density.bands.push(ix),
                MarkKind::Race { .. } => density.races[column] += 1,
                _ => {
                    density.counts[usize::from(mark.lane) * columns as usize + column] += 1;
                    if mark.is_duplicate() {
                        density.duplicates[column] += 1;
                    }
                }
            }
        }
        density
    }
}

/// A benchmark's workload, with no clock in it: pans a window of `span_us` across the whole
/// timeline in `frames` steps, as a drag would, asking `view` at each. Returns the marks and
/// density cells it saw, so an optimiser cannot drop the work. Time it from outside.
pub fn pan_sweep(timeline: &Timeline, width_px: u32, span_us: u64, frames: u32) -> u64 {
    let step_us = timeline.end_us / u64::from(frames.max(1));
    let mut seen: u64 = 0;
    for frame in 0..frames {
        let t0_us = u64::from(frame) * step_us;
        let viewport = Viewport::new(t0_us, t0_us.saturating_add(span_us), width_px);
        seen += match timeline.view(&viewport) {
            View::Marks { marks } => marks.len() as u64,
            View::Density(density) => density.counts.iter().filter(|&&c| c > 0).count() as u64,
        };
    }
    seen
}
