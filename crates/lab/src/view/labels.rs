//! Label placement: every label of a viewport gets a place where its box misses every other
//! label's, or a shorter form that fits, or it is counted in a "+N" beside its neighbours.
//!
//! Labels are placed most important first (duplicates, then captions, then causes, then
//! steps), each left to right, each trying its spots in order: a greedy pass, with no layout
//! search, so a frame stays cheap and the same viewport always gets the same labels. Boxes
//! come from [`text_box`], the fixed advance measure that the canvas and the SVG share, so the
//! placement holds in both. Placement works in plot coordinates (top at 0) and the plot is
//! moved down afterwards, so the export places exactly what the page places.

use super::draw::{text_box, Anchor, Boxes, Font, Rect};
use super::mark::LaneIx;
use super::palette::Ink;
use idemlab_core::dense::{f64_order, sort_stable_by_key};

/// How much a label matters; lower goes first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// A duplicate effect must always say what it is.
    Duplicate,
    /// Races and outages: what a region is.
    Caption,
    /// Why a message was dropped.
    Cause,
    /// A step worth a label at any zoom: a timeout, a charge, a conflict.
    Step,
    /// A routine step, labelled only when zoomed in.
    Routine,
}

/// Where a label may go: its anchor point (baseline) and which way it runs from there.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spot {
    pub at: (f64, f64),
    pub anchor: Anchor,
}

/// One label asking for a place.
#[derive(Clone, Debug)]
pub struct Want {
    pub rank: Rank,
    pub lane: LaneIx,
    /// The mark's x, which orders labels and groups those left over.
    pub x: f64,
    /// The label and its shorter forms, longest first.
    pub texts: Vec<String>,
    pub spots: Vec<Spot>,
    pub ink: Ink,
    pub font: Font,
    /// The mark's opacity (faded after the playback cursor).
    pub alpha: f64,
    /// A label left over is counted in a "+N"; `false` for one that repeats a neighbour's
    /// (a second race caption over the same stretch).
    pub counted: bool,
    /// The centre of the glyph the label names (a dot, a ring, a cross); `None` for a
    /// region's caption, which sits on its region.
    pub mark: Option<(f64, f64)>,
}

/// A label with its place.
#[derive(Clone, Debug, PartialEq)]
pub struct Placed {
    pub text: String,
    pub spot: Spot,
    pub ink: Ink,
    pub font: Font,
    pub alpha: f64,
    /// A line from the label's box to its own glyph, where the box is far from that glyph
    /// or another glyph is as near: without it the label reads as that glyph's name.
    pub leader: Option<((f64, f64), (f64, f64))>,
}

/// A "+N": how many labels near it found no place, which they were and where it goes.
#[derive(Clone, Debug, PartialEq)]
pub struct More {
    pub text: String,
    pub spot: Spot,
    pub hidden: Vec<String>,
}

/// Labels left over within this many pixels of the first of them share one "+N".
const CLUSTER_PX: f64 = 80.0;

/// Places `wants` inside `room`, where `fixed` boxes are already taken, keeping off `marks`
/// (the glyphs of dots, rings and crosses): a label over a mark hides the mark it sits on,
/// and busy runs are full of them. Only a duplicate's label, which must always say what it
/// is, may cover a mark when no spot misses them all.
pub fn place(
    mut wants: Vec<Want>,
    room: Rect,
    fixed: &[Rect],
    marks: &[Rect],
) -> (Vec<Placed>, Vec<More>) {
    let mut boxes = Boxes::new(room);
    for rect in fixed {
        boxes.claim(*rect);
    }
    let mut glyphs = Boxes::new(room);
    for rect in marks {
        glyphs.claim(*rect);
    }
    sort_stable_by_key(&mut wants, |w| {
        u128::from(w.rank as u8) << 64 | u128::from(f64_order(w.x))
    });
    let mut placed = Vec::with_capacity(wants.len());
    let mut left: Vec<Want> = Vec::new();
    for want in wants {
        // A spot that needs no leader first, then one that does.
        let plain = |rect: &Rect| {
            want.mark
                .is_none_or(|at| leader(rect, at, &glyphs).is_none())
        };
        let found = find(&boxes, &want, |rect| glyphs.clear_of(rect) && plain(rect));
        let found = found.or_else(|| find(&boxes, &want, |rect| glyphs.clear_of(rect)));
        let found = found.or_else(|| {
            (want.rank == Rank::Duplicate)
                .then(|| find(&boxes, &want, |_| true))
                .flatten()
        });
        match found {
            Some((text, spot, rect)) => {
                boxes.claim(rect);
                placed.push(Placed {
                    text: text.to_string(),
                    spot,
                    ink: want.ink,
                    font: want.font,
                    alpha: want.alpha,
                    leader: want.mark.and_then(|at| leader(&rect, at, &glyphs)),
                });
            }
            None if want.counted => left.push(want),
            None => {}
        }
    }
    let mut more = Vec::new();
    // Lane by lane, each left to right; the sort is stable, so equal places keep their rank.
    sort_stable_by_key(&mut left, |w| {
        u128::from(w.lane) << 64 | u128::from(f64_order(w.x))
    });
    for wants in left.chunk_by(|a, b| a.lane == b.lane) {
        aggregate(&mut boxes, &glyphs, wants, &mut more);
    }
    (placed, more)
}

/// A label whose box is further than this from its own glyph reads as nobody's.
pub const NEAR_PX: f64 = 16.0;
/// A label reads as its own glyph's only when every other glyph is this much further away.
pub const CLEAR_PX: f64 = 3.0;

/// The leader from `label` to the glyph centred at `mark`, when `label` needs one: its own
/// glyph is more than `NEAR_PX` away, or another of `glyphs` is less than `CLEAR_PX` further.
fn leader(label: &Rect, mark: (f64, f64), glyphs: &Boxes) -> Option<((f64, f64), (f64, f64))> {
    let is_own =
        |g: &Rect| (centre(g).0 - mark.0).abs() < 0.01 && (centre(g).1 - mark.1).abs() < 0.01;
    let (mut own, mut rival) = (point_gap(label, mark), f64::INFINITY);
    for glyph in glyphs.near(label, NEAR_PX + CLEAR_PX) {
        let gap = gap(label, glyph);
        if is_own(glyph) {
            own = own.min(gap);
        } else {
            rival = rival.min(gap);
        }
    }
    (own > NEAR_PX || rival < own + CLEAR_PX).then(|| (nearest_point(label, mark), mark))
}

fn centre(r: &Rect) -> (f64, f64) {
    (r.x + r.w / 2.0, r.y + r.h / 2.0)
}

/// The point of `r` nearest `p`. Not `f64::clamp`: its assertion's message formats floats,
/// which would link the float formatter into the page.
fn nearest_point(r: &Rect, p: (f64, f64)) -> (f64, f64) {
    (p.0.max(r.x).min(r.x + r.w), p.1.max(r.y).min(r.y + r.h))
}

fn point_gap(r: &Rect, p: (f64, f64)) -> f64 {
    let q = nearest_point(r, p);
    (q.0 - p.0).hypot(q.1 - p.1)
}

/// The distance from a label's box to a glyph, taken as the round thing it is drawn as.
fn gap(label: &Rect, glyph: &Rect) -> f64 {
    (point_gap(label, centre(glyph)) - glyph.w / 2.0).max(0.0)
}

/// The first form and spot of `want` whose box is free and passes `also`.
fn find<'w>(
    boxes: &Boxes,
    want: &'w Want,
    also: impl Fn(&Rect) -> bool,
) -> Option<(&'w str, Spot, Rect)> {
    for text in &want.texts {
        for &spot in &want.spots {
            let rect = text_box(spot.at, text, want.font, spot.anchor);
            if boxes.free(&rect) && also(&rect) {
                return Some((text, spot, rect));
            }
        }
    }
    None
}

/// One "+N" per cluster of one lane's leftover labels, at the first spot with room; a cluster
/// with no room passes its count on to the next one.
fn aggregate(boxes: &mut Boxes, glyphs: &Boxes, wants: &[Want], more: &mut Vec<More>) {
    let mut hidden = Vec::new();
    let mut start = 0;
    while start < wants.len() {
        let x0 = wants[start].x;
        let end = (start..wants.len())
            .find(|&ix| wants[ix].x - x0 > CLUSTER_PX)
            .unwrap_or(wants.len());
        for want in &wants[start..end] {
            hidden.push(want.texts[0].clone());
        }
        let text = format!("+{}", hidden.len());
        let free = (wants[start..end].iter())
            .flat_map(|want| want.spots.iter())
            .map(|&spot| (spot, text_box(spot.at, &text, Font::Bold, spot.anchor)))
            .find(|(_, rect)| boxes.free(rect) && glyphs.clear_of(rect));
        if let Some((spot, rect)) = free {
            boxes.claim(rect);
            more.push(More {
                text,
                spot,
                hidden: std::mem::take(&mut hidden),
            });
        }
        start = end;
    }
}
