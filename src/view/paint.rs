//! Painting marks into SVG elements: one `<g>` per mark with its tooltip and event indices, or
//! one-pixel bars when the viewport is in density mode.
//!
//! Labels are placed greedily left to right: each one takes the first of a few rows near its
//! mark that is free at its x, and is left out when none is (its tooltip still says it). That
//! keeps a busy database lane readable without any layout search.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::cull::Density;
use super::layout::{ms_text, Timeline};
use super::mark::{cause_label, ArrowEnd, LaneIx, Mark, MarkKind, Span};
use super::svg::{escape, Frame};

/// Text is measured roughly, as no font is at hand: an average glyph width at 11px.
pub(super) const CHAR_PX: f64 = 6.2;
/// How far outside the plot a clipped shape may reach, so strokes do not end at the very edge.
const BLEED_PX: f64 = 8.0;

/// Where labels already are: for each text baseline, the x where the last label on it ends.
/// Both the SVG export and the page's canvas place their labels with it.
#[derive(Default)]
pub struct Labels {
    rows: BTreeMap<i64, f64>,
}

impl Labels {
    /// The first of `ys` with room at `x` for `width`, claimed; `None` if all are taken.
    pub fn place(&mut self, x: f64, ys: &[f64], width: f64) -> Option<f64> {
        for &y in ys {
            let end = self.rows.entry(y.round() as i64).or_insert(f64::MIN);
            if *end + 4.0 <= x {
                *end = x + width;
                return Some(y);
            }
        }
        None
    }
}

pub(super) struct Painter<'a> {
    pub out: &'a mut String,
    pub frame: &'a Frame,
    pub timeline: &'a Timeline,
    /// `None` draws no labels at all.
    labels: Option<Labels>,
}

impl<'a> Painter<'a> {
    pub fn new(
        out: &'a mut String,
        frame: &'a Frame,
        timeline: &'a Timeline,
        labels: bool,
    ) -> Painter<'a> {
        let labels = labels.then(Labels::default);
        Painter {
            out,
            frame,
            timeline,
            labels,
        }
    }

    /// Draws marks back to front: regions, then spans, then arrows, then points on top.
    pub fn marks(&mut self, marks: &[u32]) {
        for depth in 0..4 {
            for &ix in marks {
                let mark = &self.timeline.marks[ix as usize];
                if layer(mark) == depth {
                    self.mark(mark);
                }
            }
        }
    }

    fn mark(&mut self, mark: &Mark) {
        self.open(mark);
        let frame = self.frame;
        match mark.kind {
            MarkKind::Arrow { to_lane, end, .. } => self.arrow(mark, to_lane, end),
            MarkKind::Point { .. } => self.point(mark),
            MarkKind::Span { span } => {
                // Transactions sit just under the lane's line, waits just above it; their
                // labels share the rows of the point labels so that they avoid each other.
                let y = frame.lane_y(mark.lane);
                match span {
                    Span::Txn { .. } => self.rect(mark, (y + 5.0, 8.0), y + 15.0),
                    Span::Blocked => self.rect(mark, (y - 13.0, 8.0), y - 7.0),
                }
            }
            MarkKind::Band { .. } => {
                let y = frame.lane_top(mark.lane);
                self.rect(mark, (y, frame.lane_h), y + 11.0);
            }
            MarkKind::Race { to_lane, .. } => {
                let y = frame.lane_top(mark.lane);
                let h = frame.lane_top(to_lane) + frame.lane_h - y;
                self.rect(mark, (y, h), y + 11.0);
            }
        }
        self.out.push_str("</g>\n");
    }

    fn open(&mut self, mark: &Mark) {
        let extra = match mark.kind {
            MarkKind::Arrow {
                end: ArrowEnd::Dropped { .. },
                ..
            } => " dropped",
            MarkKind::Arrow {
                end: ArrowEnd::InFlight,
                ..
            } => " in-flight",
            _ if mark.is_duplicate() => " duplicate",
            _ => "",
        };
        let events: Vec<String> = mark.events.iter().map(u32::to_string).collect();
        let _ = write!(
            self.out,
            "<g class=\"mark {} {}{extra}\" data-event=\"{}\" data-events=\"{}\"><title>{}</title>",
            shape_name(mark),
            mark.class().name(),
            mark.event(),
            events.join(" "),
            escape(&tooltip(self.timeline, mark))
        );
    }

    /// A label at `x` on the first free row of `ys`, if labels are on and one is free.
    fn label(&mut self, x: f64, ys: &[f64], text: &str, class: &str) {
        let Some(labels) = &mut self.labels else {
            return;
        };
        let width = CHAR_PX * text.chars().count() as f64;
        if let Some(y) = labels.place(x, ys, width) {
            let _ = write!(
                self.out,
                "<text{class} x=\"{x:.1}\" y=\"{y:.1}\">{}</text>",
                escape(text)
            );
        }
    }

    fn arrow(&mut self, mark: &Mark, to_lane: LaneIx, end: ArrowEnd) {
        let frame = self.frame;
        let (y0, y_to) = (frame.lane_y(mark.lane), frame.lane_y(to_lane));
        let y1 = match end {
            ArrowEnd::Dropped { midway: true, .. } => (y0 + y_to) / 2.0,
            _ => y_to,
        };
        let (x0, x1) = (frame.x(mark.t0_us), frame.x(mark.t1_us));
        let (lo, hi) = (
            frame.plot_x - BLEED_PX,
            frame.plot_x + frame.plot_w + BLEED_PX,
        );
        let Some((a, b)) = clip_segment((x0, y0), (x1, y1), lo, hi) else {
            return;
        };
        let _ = write!(
            self.out,
            "<line x1=\"{:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
            a.0, a.1, b.0, b.1
        );
        if (lo..=hi).contains(&x1) {
            match end {
                ArrowEnd::Delivered => self.head((x0, y0), (x1, y1)),
                ArrowEnd::Dropped { cause, .. } => self.cross((x1, y1), cause_label(cause)),
                ArrowEnd::InFlight => {}
            }
        }
        let (mx, my) = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        self.label(mx + 4.0, &[my - 3.0, my + 11.0], &mark.label, "");
    }

    /// A filled triangle at `to`, pointing along the line; drawn by hand because
    /// `context-stroke` markers are not supported everywhere an exported file may be opened.
    fn head(&mut self, from: (f64, f64), to: (f64, f64)) {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let len = (dx * dx + dy * dy).sqrt();
        if len < 1.0 {
            return;
        }
        let (ux, uy) = (dx / len, dy / len);
        let (bx, by) = (to.0 - 7.0 * ux, to.1 - 7.0 * uy);
        let _ = write!(
            self.out,
            "<path class=\"head\" d=\"M{:.1},{:.1}L{:.1},{:.1}L{:.1},{:.1}z\"/>",
            to.0,
            to.1,
            bx - 3.5 * uy,
            by + 3.5 * ux,
            bx + 3.5 * uy,
            by - 3.5 * ux
        );
    }

    /// The ✕ where a message died, with its cause next to it.
    fn cross(&mut self, at: (f64, f64), cause: &str) {
        let _ = write!(
            self.out,
            "<path class=\"cross\" d=\"M{:.1},{:.1}l8,8m0,-8l-8,8\"/>",
            at.0 - 4.0,
            at.1 - 4.0
        );
        let class = " class=\"cause\"";
        self.label(at.0 + 7.0, &[at.1 + 4.0, at.1 + 15.0], cause, class);
    }

    fn point(&mut self, mark: &Mark) {
        let (x, y) = (self.frame.x(mark.t0_us), self.frame.lane_y(mark.lane));
        let _ = write!(self.out, "<circle cx=\"{x:.1}\" cy=\"{y:.1}\" r=\"4\"/>");
        self.label(x + 5.0, &[y - 7.0, y + 15.0, y - 18.0], &mark.label, "");
    }

    /// A rectangle over the mark's time, `(top, height)` in `y_h`, labelled on `label_y`.
    fn rect(&mut self, mark: &Mark, y_h: (f64, f64), label_y: f64) {
        let frame = self.frame;
        let x0 = frame.x_clamped(mark.t0_us, BLEED_PX);
        // Instants (a replacement, a rerun) still need a visible width.
        let x1 = frame.x_clamped(mark.t1_us, BLEED_PX).max(x0 + 3.0);
        let _ = write!(
            self.out,
            "<rect x=\"{x0:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"/>",
            y_h.0,
            x1 - x0,
            y_h.1
        );
        let x = x0.max(frame.plot_x) + 3.0;
        self.label(x, &[label_y], &mark.label, "");
    }

    /// Density mode: bands as marks, then a bar per busy pixel column on each lane, and rows
    /// for races and duplicates under the last lane.
    pub fn density(&mut self, density: &Density) {
        self.labels = None;
        for &ix in &density.bands {
            self.mark(&self.timeline.marks[ix as usize]);
        }
        let frame = self.frame;
        let max = f64::from(density.count_max().max(1));
        for lane in 0..density.lanes {
            let name = &self.timeline.lanes[usize::from(lane)].label;
            let bars = Bars {
                class: "density",
                label: &format!("{name}: marks per pixel column"),
                y: frame.lane_y(lane),
                h_max: frame.lane_h * 0.8,
                max,
            };
            bars.draw(
                self.out,
                frame,
                (0..density.columns).map(|c| density.count(lane, c)),
            );
        }
        let y = frame.lane_y(density.lanes - 1);
        let rows = [
            ("density-race", "races", &density.races, y + 6.0),
            (
                "density-duplicate",
                "duplicate effects",
                &density.duplicates,
                y + 16.0,
            ),
        ];
        for (class, label, cells, y) in rows {
            let bars = Bars {
                class,
                label,
                y,
                h_max: 8.0,
                max: 1.0,
            };
            bars.draw(self.out, frame, cells.iter().copied());
        }
    }
}

/// Back to front: regions 0, spans 1, arrows 2, points 3.
fn layer(mark: &Mark) -> u8 {
    match mark.kind {
        MarkKind::Band { .. } | MarkKind::Race { .. } => 0,
        MarkKind::Span { .. } => 1,
        MarkKind::Arrow { .. } => 2,
        MarkKind::Point { .. } => 3,
    }
}

fn shape_name(mark: &Mark) -> &'static str {
    match mark.kind {
        MarkKind::Arrow { .. } => "arrow",
        MarkKind::Point { .. } => "point",
        MarkKind::Span { .. } => "span",
        MarkKind::Band { .. } => "band",
        MarkKind::Race { .. } => "region",
    }
}

/// What hovering a mark says: its label, its lanes, whose it is, when, and which events.
pub fn tooltip(timeline: &Timeline, mark: &Mark) -> String {
    let mut text = mark.label.clone();
    if let MarkKind::Arrow { to_lane, end, .. } = mark.kind {
        let from = &timeline.lanes[usize::from(mark.lane)].label;
        let to = &timeline.lanes[usize::from(to_lane)].label;
        let _ = write!(text, "\n{from} → {to}");
        if let ArrowEnd::Dropped { cause, .. } = end {
            let _ = write!(text, ", dropped: {}", crate::trace::drop_cause(cause));
        }
    }
    match (mark.order, mark.attempt) {
        (Some(order), Some(attempt)) => {
            let _ = write!(text, "\norder {order}, attempt {attempt}");
        }
        (Some(order), None) => {
            let _ = write!(text, "\norder {order}");
        }
        _ => {}
    }
    if mark.t0_us == mark.t1_us {
        let _ = write!(text, "\nat {}", ms_text(mark.t0_us));
    } else {
        let (t0, t1) = (ms_text(mark.t0_us), ms_text(mark.t1_us));
        let _ = write!(text, "\n{t0} → {t1} ({})", ms_text(mark.duration_us()));
    }
    let events: Vec<String> = mark.events.iter().map(|e| format!("#{e}")).collect();
    let _ = write!(text, "\nevents {}", events.join(", "));
    text
}

/// The part of the segment `a → b` whose x lies in `lo..=hi`, in the same direction, or `None`
/// if it lies wholly outside.
fn clip_segment(
    a: (f64, f64),
    b: (f64, f64),
    lo: f64,
    hi: f64,
) -> Option<((f64, f64), (f64, f64))> {
    let (left, right) = if a.0 <= b.0 { (a, b) } else { (b, a) };
    if right.0 < lo || left.0 > hi {
        return None;
    }
    let y_at = |x: f64| {
        if right.0 == left.0 {
            left.1
        } else {
            left.1 + (right.1 - left.1) * (x - left.0) / (right.0 - left.0)
        }
    };
    let (x0, x1) = (left.0.max(lo), right.0.min(hi));
    let (p, q) = ((x0, y_at(x0)), (x1, y_at(x1)));
    // Keep the direction of travel, so the head still goes at the end.
    if a.0 <= b.0 {
        Some((p, q))
    } else {
        Some((q, p))
    }
}

/// A row of one-pixel bars, one per non-empty column, centred on `y`, scaled by `count / max`.
struct Bars<'a> {
    class: &'a str,
    label: &'a str,
    y: f64,
    h_max: f64,
    max: f64,
}

impl Bars<'_> {
    fn draw(&self, out: &mut String, frame: &Frame, cells: impl Iterator<Item = u32>) {
        let _ = write!(
            out,
            "<g class=\"{}\"><title>{}</title>",
            self.class,
            escape(self.label)
        );
        for (column, count) in cells.enumerate().filter(|&(_, count)| count > 0) {
            let h = (self.h_max * (f64::from(count) / self.max).min(1.0)).max(1.0);
            let _ = write!(
                out,
                "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"1\" height=\"{h:.1}\" data-count=\"{count}\"/>",
                frame.plot_x + column as f64,
                self.y - h / 2.0
            );
        }
        out.push_str("</g>\n");
    }
}
