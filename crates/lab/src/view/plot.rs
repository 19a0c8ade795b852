//! The plot: lanes, axis, marks and cursor of one viewport as a [`Drawing`], and the mark under
//! a pixel. The page's canvas and the SVG export both draw this, so where a mark goes, how big
//! it is, which labels fit and what colour it takes are decided here once.
//!
//! Marks go back to front: bands, races and spans, then arrows, then points with their labels.
//! Routine points are labelled only when zoomed in; what tells the story always is.

use std::fmt::Write as _;

use super::cull::{Density, View};
use super::draw::Shape;
use super::draw::{
    line, text_box, Anchor, Drawing, Font, Geometry, Group, Link, Paint, PathPoint, Rect,
};
use super::find::Find;
use super::labels::{self, Rank, Spot, Want};
use super::layout::{ms_text, Timeline};
use super::mark::{ArrowEnd, Band, Class, LaneIx, Mark, MarkKind, Span};
use super::palette::Ink;
use super::scale::Viewport;
use idemlab_core::trace::Node;

/// Lane labels sit in this gutter, left of the viewport's first pixel.
pub const GUTTER_PX: f64 = 128.0;
const AXIS_PX: f64 = 22.0;
const LANE_PX: f64 = 60.0;
const BOTTOM_PX: f64 = 8.0;
/// Marks after the fade time are drawn this opaque: the future, at the playback cursor.
const FADED: f64 = 0.18;
/// cos and sin of 0.4 rad, the half-angle of an arrow head, as constants (see `draw`).
const HEAD_COS: f64 = 0.921_060_994_002_885_1;
const HEAD_SIN: f64 = 0.389_418_342_308_650_5;

/// What to draw: one viewport of a timeline, and the page's own marks over it.
pub struct Scene<'a> {
    pub timeline: &'a Timeline,
    pub viewport: Viewport,
    /// What the viewport shows (`Timeline::view`), which the page caches per viewport.
    pub view: &'a View,
    pub overlay: Overlay,
    /// Hover text and event indices on every mark: the SVG's, not needed on a canvas.
    pub links: bool,
    /// Where the plot starts: 0 on the page, under the heading and legend in an export.
    pub top_px: f64,
}

/// The page's playback state drawn over the marks; the export has none of it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Overlay {
    /// The cursor line.
    pub cursor_us: Option<u64>,
    /// Marks that start after this are faded.
    pub fade_after_us: Option<u64>,
    /// Marks of this event are outlined (the selected row of the event table).
    pub selected_event: Option<u32>,
    /// Marks of this kind are outlined too (a lesson phrase the learner clicked).
    pub highlight: Option<Find>,
    /// Marks that end after this are not drawn at all, nor their labels, nor hit: a step that
    /// waits for its prediction shows only what has happened by its first event, so the
    /// answer cannot be read off the picture.
    pub cut_after_us: Option<u64>,
    /// Each lane's height when not the usual `LANE_PX`: a lesson's compare squeezes the lanes
    /// so that both runs fit one screen (`app::lane_px`).
    pub lane_px: Option<u32>,
    /// Only marks this finds are labelled: a lesson step about a run of many orders names what
    /// its text points at, where labelling every mark would bury it.
    pub labelled: Option<Find>,
}

impl Overlay {
    pub fn lane_px(&self) -> f64 {
        self.lane_px.map_or(LANE_PX, f64::from)
    }

    /// Whether a mark is drawn: all of it has happened by the cut.
    pub fn shows(&self, mark: &Mark) -> bool {
        self.cut_after_us.is_none_or(|cut| mark.t1_us <= cut)
    }
}

/// A lane's centre line, from the plot's top.
fn lane_centre_px(lane_px: f64, lane: LaneIx) -> f64 {
    AXIS_PX + lane_px * f64::from(lane) + lane_px / 2.0
}

/// Each lane's name as the gutter draws it (shortened to fit) and its centre line, in CSS px
/// from the plot's top: a phone's timeline scrolls its gutter away sideways, so the page keeps
/// these names over the scroller's left edge.
pub fn lane_names(timeline: &Timeline, overlay: &Overlay) -> Vec<(String, f64)> {
    let lane_px = overlay.lane_px();
    (timeline.lanes().iter().enumerate())
        .map(|(ix, lane)| {
            let name = shorten(&lane.label, Font::Plain, LANE_LABEL_PX);
            (name, lane_centre_px(lane_px, ix as LaneIx))
        })
        .collect()
}

/// The plot's height for a timeline with `lanes` lanes of `lane_px` each.
pub fn plot_height_px(lanes: usize, lane_px: f64) -> f64 {
    AXIS_PX + lane_px * lanes as f64 + BOTTOM_PX
}

/// Pixel positions of one viewport, with the plot's top at 0 (an export moves it down).
#[derive(Clone, Copy)]
struct Geo {
    viewport: Viewport,
    lane_px: f64,
}

impl Geo {
    fn x(&self, time_us: u64) -> f64 {
        GUTTER_PX + self.viewport.x_px(time_us)
    }

    fn lane_y(&self, lane: LaneIx) -> f64 {
        lane_centre_px(self.lane_px, lane)
    }

    fn width(&self) -> f64 {
        GUTTER_PX + f64::from(self.viewport.width_px())
    }

    /// Where an arrow's line ends: its lane, or half-way for a message lost in flight.
    fn arrow_end_y(&self, lane: LaneIx, to_lane: LaneIx, end: ArrowEnd) -> f64 {
        match end {
            ArrowEnd::Dropped { midway: true, .. } => {
                (self.lane_y(lane) + self.lane_y(to_lane)) / 2.0
            }
            _ => self.lane_y(to_lane),
        }
    }
}

/// Draws a scene: the panel, lanes and axis, the marks (or their density), their labels, and
/// the cursor.
pub fn plot(scene: &Scene) -> Drawing {
    let geo = Geo {
        viewport: scene.viewport,
        lane_px: scene.overlay.lane_px(),
    };
    let lanes = scene.timeline.lanes().len();
    let mut plotter = Plotter {
        scene,
        geo,
        wants: Vec::new(),
        alpha: 1.0,
        race_fill: Vec::new(),
        groups: Vec::with_capacity(64),
        glyphs: Vec::new(),
    };
    plotter.background(lanes);
    match scene.view {
        View::Marks { marks } => plotter.marks(marks),
        View::Density(density) => plotter.density(density),
    }
    let room = Rect::new(
        GUTTER_PX,
        AXIS_PX,
        f64::from(scene.viewport.width_px()),
        geo.lane_px * lanes as f64,
    );
    plotter.labels(room);
    if let Some(cursor_us) = scene.overlay.cursor_us {
        let x = geo.x(cursor_us);
        let bottom = plot_height_px(lanes, geo.lane_px);
        let shape = Shape::stroke(line((x, AXIS_PX), (x, bottom)), Ink::Cursor, 1.5);
        plotter.group("cursor", true, vec![shape]);
    }
    let mut drawing = Drawing {
        width_px: geo.width(),
        height_px: plot_height_px(lanes, geo.lane_px),
        clip: room,
        groups: plotter.groups,
    };
    if scene.top_px != 0.0 {
        drawing.translate(scene.top_px);
    }
    drawing
}

struct Plotter<'a, 's> {
    scene: &'s Scene<'a>,
    geo: Geo,
    /// Labels asking for a place, placed together once every mark is drawn.
    wants: Vec<Want>,
    /// The opacity of the mark being drawn, which its label takes.
    alpha: f64,
    /// How far right the race shading reaches, per span of lanes (top, bottom, x).
    race_fill: Vec<(f64, f64, f64)>,
    groups: Vec<Group>,
    /// The boxes of the dots, rings and crosses drawn, which labels keep off.
    glyphs: Vec<Rect>,
}

/// Label rows about a lane's centre line: above and below the dots first, then nearer the
/// lane's edges. Rows 13 px apart, the height of a label's box, so neighbours can stack.
const ROWS_NEAR: [f64; 2] = [-8.0, 17.0];
const ROWS_FAR: [f64; 2] = [-21.0, 30.0];
/// The lane's label, in the gutter, leaves this much room before the plot.
const LANE_LABEL_PX: f64 = GUTTER_PX - 6.0 - 6.0;
/// The width of the stroke under a label's text: 2 px of lane colour about each glyph.
const HALO_PX: f64 = 4.0;

impl Plotter<'_, '_> {
    fn group(&mut self, class: &str, clip: bool, shapes: Vec<Shape>) {
        self.groups.push(Group {
            class: class.to_string(),
            clip,
            link: None,
            shapes,
        });
    }

    /// Asks for a place for a label of the mark being drawn, whose glyph (if it is one) is
    /// centred `at`.
    fn want(
        &mut self,
        rank: Rank,
        mark: &Mark,
        texts: Vec<String>,
        spots: Vec<Spot>,
        at: Option<(f64, f64)>,
    ) {
        if self
            .scene
            .overlay
            .labelled
            .is_some_and(|find| !find.matches(mark))
        {
            return;
        }
        let alpha = self.alpha;
        let (ink, font) = match rank {
            Rank::Duplicate => (Ink::Mark(mark.class()), Font::Plain),
            Rank::Caption if matches!(mark.kind, MarkKind::Race { .. }) => {
                (Ink::RaceText, Font::Bold)
            }
            Rank::Cause => (Ink::Drop, Font::Plain),
            _ => (Ink::Text, Font::Plain),
        };
        let counted = !matches!(mark.kind, MarkKind::Race { .. });
        self.wants.push(Want {
            rank,
            lane: mark.lane,
            x: self.geo.x(mark.t0_us),
            texts,
            spots,
            ink,
            font,
            alpha,
            counted,
            mark: at,
        });
    }

    fn background(&mut self, lanes: usize) {
        let geo = self.geo;
        let (width, height) = (geo.width(), plot_height_px(lanes, geo.lane_px));
        let mut shapes = vec![Shape::fill(
            Geometry::Rect(Rect::new(0.0, 0.0, width, height)),
            Ink::Panel,
        )];
        let names = lane_names(self.scene.timeline, &self.scene.overlay);
        for (ix, (label, y)) in names.into_iter().enumerate() {
            let ink = if ix % 2 == 0 { Ink::Lane } else { Ink::LaneAlt };
            let band = Rect::new(0.0, y - geo.lane_px / 2.0, width, geo.lane_px);
            shapes.push(Shape::fill(Geometry::Rect(band), ink));
            shapes.push(Shape::text((6.0, y + 4.0), &label, Ink::Text, Font::Plain));
        }
        self.group("lanes", false, shapes);
        let mut shapes = Vec::new();
        // A tick's label is left out where it would cross the edge or its neighbour's.
        let mut label_end = 0.0;
        // A run with no events (a quiz question's run, held until its answer) has no time
        // span: ticks would print a made-up scale ("0 to 1.5 ms") that reads as the run's.
        let ticks = if self.scene.timeline.events() == 0 {
            Vec::new()
        } else {
            geo.viewport.ticks(90)
        };
        for tick in ticks {
            let x = GUTTER_PX + tick.x_px;
            let at = (x, 15.0);
            let rect = text_box(at, &tick.label, Font::Plain, Anchor::Middle);
            if rect.x >= label_end && rect.x + rect.w <= width {
                label_end = rect.x + rect.w + 4.0;
                let label = Geometry::Text {
                    at,
                    text: tick.label,
                    font: Font::Plain,
                    anchor: Anchor::Middle,
                };
                shapes.push(Shape::fill(label, Ink::Muted));
            }
            let grid = line((x, AXIS_PX), (x, height));
            shapes.push(Shape::stroke(grid, Ink::Grid, 1.0));
        }
        self.group("axis", false, shapes);
    }

    fn marks(&mut self, marks: &[u32]) {
        let timeline = self.scene.timeline;
        for layer in 0..3 {
            for &ix in marks {
                let mark = timeline.mark(ix);
                if layer_of(mark) == layer && self.scene.overlay.shows(mark) {
                    self.mark(mark);
                }
            }
        }
    }

    fn mark(&mut self, mark: &Mark) {
        let overlay = &self.scene.overlay;
        let faded = overlay.fade_after_us.is_some_and(|t| mark.t0_us > t);
        self.alpha = if faded { FADED } else { 1.0 };
        let mut shapes = Vec::new();
        let ink = Ink::Mark(mark.class());
        match mark.kind {
            MarkKind::Band { band } => self.band(&mut shapes, mark, band, ink),
            MarkKind::Race { to_lane, .. } => self.race(&mut shapes, mark, to_lane, ink),
            MarkKind::Span { span } => self.span(&mut shapes, mark, span, ink),
            MarkKind::Arrow { to_lane, end, .. } => {
                self.arrow(&mut shapes, mark, to_lane, end, ink)
            }
            MarkKind::Point { class, .. } => self.point(&mut shapes, mark, class, ink),
        }
        let overlay = &self.scene.overlay;
        if faded {
            for shape in &mut shapes {
                shape.alpha *= FADED;
            }
        }
        let timeline = self.scene.timeline;
        let selected = (overlay.selected_event).is_some_and(|e| timeline.has_event(mark, e));
        if selected || overlay.highlight.is_some_and(|find| find.matches(mark)) {
            shapes.push(self.outline(mark));
        }
        let link = self.scene.links.then(|| Link {
            title: tooltip(self.scene.timeline, mark),
            events: timeline.events_of(mark),
        });
        self.groups.push(Group {
            class: mark_class(mark),
            clip: true,
            link,
            shapes,
        });
    }

    /// An outage is hatched, so that it reads as "nothing works here" apart from its colour;
    /// replacements, reruns and the cap are instants, a thin bar.
    fn band(&mut self, shapes: &mut Vec<Shape>, mark: &Mark, band: Band, ink: Ink) {
        let geo = self.geo;
        let x0 = geo.x(mark.t0_us);
        let x1 = geo.x(mark.t1_us).max(x0 + 3.0);
        let y = geo.lane_y(mark.lane) - geo.lane_px / 2.0;
        let rect = Rect::new(x0, y, x1 - x0, geo.lane_px);
        if band == Band::ApiDown {
            shapes.push(Shape::fill(Geometry::Rect(rect), ink).alpha(0.12));
            // Hatch only what the plot shows: a zoomed-in outage can be millions of px wide.
            let (left, right) = (x0.max(GUTTER_PX - 8.0), x1.min(geo.width() + 8.0));
            if left < right {
                let shown = Rect::new(left, y, right - left, geo.lane_px);
                shapes.push(Shape::stroke(hatch(shown, x0 + y), ink, 1.2).alpha(0.7));
            }
        } else {
            // An instant: a solid bar in its ink, which is what the legend's test compares.
            shapes.push(Shape::fill(Geometry::Rect(rect), ink));
        }
        let texts: &[&str] = match band {
            Band::ApiDown => &["API down", "down"],
            Band::LedgerReplaced { wiped: true } => {
                &["ledger pod replaced: store lost", "store lost"]
            }
            Band::LedgerReplaced { wiped: false } => &["ledger pod replaced", "replaced"],
            Band::LedgerRestarted => &["ledger container restarted", "restarted"],
            Band::Rerun => &["rerun"],
            Band::CapReached => &["event cap", "cap"],
        };
        // A band that began before the window keeps its caption in view.
        let x = x0.max(GUTTER_PX) + 3.0;
        let spots = vec![
            spot(x, y + 12.0, Anchor::Start),
            spot(x0 - 3.0, y + 12.0, Anchor::End),
            spot(x, y + geo.lane_px - 4.0, Anchor::Start),
            spot(x0 - 3.0, y + geo.lane_px - 4.0, Anchor::End),
        ];
        let texts = texts.iter().map(|text| text.to_string()).collect();
        self.want(Rank::Caption, mark, texts, spots, None);
    }

    /// Shades only the payment service and database lanes, where the two "not found" reads
    /// and the two charges happen; the API lane above stays readable.
    fn race(&mut self, shapes: &mut Vec<Shape>, mark: &Mark, to_lane: LaneIx, ink: Ink) {
        let geo = self.geo;
        let top_lane = mark.lane.min(to_lane);
        let payment = self
            .scene
            .timeline
            .lane_of(Node::Payment)
            .unwrap_or(top_lane);
        let (lo, hi) = (payment.max(top_lane), mark.lane.max(to_lane));
        let x0 = geo.x(mark.t0_us);
        let x1 = geo.x(mark.t1_us).max(x0 + 2.0);
        let y0 = geo.lane_y(lo) - geo.lane_px / 2.0 + 1.0;
        let y1 = geo.lane_y(hi) + geo.lane_px / 2.0 - 1.0;
        // Overlapping races would stack their shading until the labels on it cannot be read:
        // each shades only what no race over the same lanes has shaded yet.
        let filled = match self
            .race_fill
            .iter_mut()
            .find(|fill| (fill.0, fill.1) == (y0, y1))
        {
            Some(fill) => &mut fill.2,
            None => {
                self.race_fill.push((y0, y1, f64::MIN));
                &mut self.race_fill.last_mut().expect("just pushed").2
            }
        };
        let from = x0.max(*filled);
        if from < x1 {
            let shade = Geometry::Rect(Rect::new(from, y0, x1 - from, y1 - y0));
            shapes.push(Shape::fill(shade, ink).alpha(0.16));
            *filled = x1;
        }
        let rect = Geometry::Rect(Rect::new(x0, y0, x1 - x0, y1 - y0));
        shapes.push(Shape::stroke(rect, ink, 1.5).dashed());
        // One caption per stretch of overlapping races: the first one placed speaks for all,
        // and the others are not counted as hidden.
        let x = x0.max(GUTTER_PX) + 4.0;
        let spots = vec![
            spot(x, y1 - 4.0, Anchor::Start),
            spot(x, y0 + 12.0, Anchor::Start),
        ];
        let texts = vec!["race: both read \"not found\"".into(), "race".into()];
        self.want(Rank::Caption, mark, texts, spots, None);
    }

    /// Transactions sit along the bottom of their lane, waits along its top.
    fn span(&mut self, shapes: &mut Vec<Shape>, mark: &Mark, span: Span, ink: Ink) {
        let geo = self.geo;
        let (x0, x1) = (geo.x(mark.t0_us), geo.x(mark.t1_us));
        let offset = match span {
            Span::Blocked => -geo.lane_px / 2.0 + 3.0,
            Span::Txn { .. } => geo.lane_px / 2.0 - 8.0,
        };
        let rect = Rect::new(x0, geo.lane_y(mark.lane) + offset, (x1 - x0).max(1.5), 5.0);
        shapes.push(Shape::fill(Geometry::Rect(rect), ink));
        // Labels keep off the bars: a label hides a rollback's short pink bar, and step 12
        // names "the pink bar".
        self.glyphs.push(rect);
    }

    fn arrow(&mut self, shapes: &mut Vec<Shape>, mark: &Mark, to: LaneIx, end: ArrowEnd, ink: Ink) {
        let geo = self.geo;
        let from = (geo.x(mark.t0_us), geo.lane_y(mark.lane));
        let tip = (geo.x(mark.t1_us), geo.arrow_end_y(mark.lane, to, end));
        shapes.push(Shape::stroke(line(from, tip), ink, 1.4));
        match end {
            ArrowEnd::Delivered => shapes.push(Shape::fill(head(from, tip), ink)),
            ArrowEnd::Dropped { cause, .. } => {
                let (x, y) = tip;
                shapes.push(Shape::stroke(cross(x, y, 5.0), Ink::Drop, 2.5));
                self.glyphs.push(Rect::new(x - 6.0, y - 6.0, 12.0, 12.0));
                let text = super::mark::cause_label(cause).to_string();
                let spots = vec![
                    spot(x + 8.0, y + 4.0, Anchor::Start),
                    spot(x - 8.0, y + 4.0, Anchor::End),
                    spot(x + 6.0, y - 9.0, Anchor::Start),
                    spot(x + 6.0, y + 17.0, Anchor::Start),
                ];
                self.want(Rank::Cause, mark, vec![text], spots, Some((x, y)));
            }
            ArrowEnd::InFlight => {}
        }
    }

    /// A dot; a duplicate effect is a dot inside a ring (a target), larger than any other
    /// point and unlike the dropped message's cross or the outage's hatching.
    fn point(&mut self, shapes: &mut Vec<Shape>, mark: &Mark, class: Class, ink: Ink) {
        let geo = self.geo;
        let (x, y) = (geo.x(mark.t0_us), geo.lane_y(mark.lane));
        let duplicate = mark.is_duplicate();
        let r = if duplicate { 9.0 } else { 3.5 };
        self.glyphs.push(Rect::new(x - r, y - r, 2.0 * r, 2.0 * r));
        if duplicate {
            let ring = Geometry::Circle { at: (x, y), r: 8.0 };
            shapes.push(Shape::fill(Geometry::Circle { at: (x, y), r: 4.5 }, ink));
            shapes.push(Shape::stroke(ring, ink, 2.0));
        } else {
            shapes.push(Shape::fill(Geometry::Circle { at: (x, y), r: 3.5 }, ink));
        }
        let label = self.scene.timeline.label(mark);
        if label.is_empty() {
            return;
        }
        let rank = if duplicate {
            Rank::Duplicate
        } else if important(class) {
            Rank::Step
        } else if self.roomy() {
            Rank::Routine
        } else {
            return;
        };
        // Timeouts and retries sit on the client's lane under the request arrows leaving it,
        // so their labels go below first; everything else above.
        let rows = if matches!(class, Class::Timeout | Class::Retry) {
            [ROWS_NEAR[1], ROWS_NEAR[0], ROWS_FAR[1], ROWS_FAR[0]]
        } else {
            [ROWS_NEAR[0], ROWS_NEAR[1], ROWS_FAR[0], ROWS_FAR[1]]
        };
        let dx = if duplicate { 10.0 } else { 6.0 };
        let spots = point_spots(x, y, dx, &rows);
        let short = label.split_once(": ").map(|(_, short)| short.to_string());
        let mut texts = vec![label];
        if let Some(short) = short {
            texts.push(short);
        }
        self.want(rank, mark, texts, spots, Some((x, y)));
    }

    /// Routine steps (attempt rows, ledger rows, commits, plain 200s) get a label only when the
    /// view is zoomed in enough to have room.
    fn roomy(&self) -> bool {
        self.geo.viewport.px_per_us() * 1_000.0 >= 14.0
    }

    /// A box 8 px round the mark. An arrow's box reaches its tip, so a dropped message's ✕
    /// (midway, or on the far lane) is inside it, not only the sender's end.
    fn outline(&self, mark: &Mark) -> Shape {
        let geo = self.geo;
        let (x, y) = (geo.x(mark.t0_us), geo.lane_y(mark.lane));
        let x_end = geo.x(mark.t1_us).max(x);
        let y_end = match mark.kind {
            MarkKind::Arrow { to_lane, end, .. } => geo.arrow_end_y(mark.lane, to_lane, end),
            _ => y,
        };
        let (top, bottom) = (y.min(y_end), y.max(y_end));
        Shape::stroke(
            Geometry::Rect(Rect::new(
                x - 8.0,
                top - 8.0,
                x_end - x + 16.0,
                bottom - top + 16.0,
            )),
            Ink::Selected,
            2.5,
        )
    }

    /// Places every label asked for, in the drawing's last group, and draws a "+N" where
    /// labels found no place (in an export its hover text lists them).
    fn labels(&mut self, room: Rect) {
        let wants = std::mem::take(&mut self.wants);
        let (placed, more) = labels::place(wants, room, &[], &self.glyphs);
        // Placement keeps labels off each other and off the dots, but an arrow or a bar drawn
        // after a label's own mark would cut through its text (in every busy step of Lesson
        // C). So labels are drawn last, over every mark, each on a halo of its lane's colour.
        let mut shapes = Vec::with_capacity(3 * placed.len());
        for label in placed {
            if let Some((from, to)) = label.leader {
                shapes.push(Shape::stroke(line(from, to), label.ink, 1.0).alpha(label.alpha));
            }
            let text = Geometry::Text {
                at: label.spot.at,
                text: label.text,
                font: label.font,
                anchor: label.spot.anchor,
            };
            let halo = Shape {
                geometry: text.clone(),
                ink: self.band_ink(label.spot.at.1),
                paint: Paint::Stroke {
                    width_px: HALO_PX,
                    dashed: false,
                },
                alpha: label.alpha,
            };
            shapes.push(halo);
            shapes.push(Shape::fill(text, label.ink).alpha(label.alpha));
        }
        self.group("labels", true, shapes);
        for more in more {
            // Hover text only: `data-event` stays one per mark.
            let link = self.scene.links.then(|| Link {
                title: crate::tf!(
                    "{} more here:\n{}",
                    more.hidden.len(),
                    more.hidden.join("\n")
                ),
                events: Vec::new(),
            });
            let text = Geometry::Text {
                at: more.spot.at,
                text: more.text,
                font: Font::Bold,
                anchor: more.spot.anchor,
            };
            self.groups.push(Group {
                class: "more".into(),
                clip: true,
                link,
                shapes: vec![Shape::fill(text, Ink::Muted)],
            });
        }
    }

    /// The background under a label whose baseline is at `baseline_y`: its lane's band.
    fn band_ink(&self, baseline_y: f64) -> Ink {
        // A label's box is centred about 4 px above its baseline.
        let lane = ((baseline_y - 4.0 - AXIS_PX) / self.geo.lane_px).floor();
        if lane < 0.0 || lane as usize >= self.scene.timeline.lanes().len() {
            Ink::Panel
        } else if (lane as u64).is_multiple_of(2) {
            Ink::Lane
        } else {
            Ink::LaneAlt
        }
    }

    /// Density mode: a bar per busy pixel column on each lane, shaded by its count; strips for
    /// duplicates and races along the top of the first lane; bands as marks.
    fn density(&mut self, density: &Density) {
        let peak = f64::from(density.count_max().max(1));
        let links = self.scene.links;
        // Columns after the cut are the future a waiting step keeps back.
        let columns = match self.scene.overlay.cut_after_us {
            Some(cut) => (self.geo.viewport.x_px(cut).max(0.0) as u32).min(density.columns),
            None => density.columns,
        };
        for lane in 0..density.lanes {
            let y = self.geo.lane_y(lane) - self.geo.lane_px / 2.0 + 4.0;
            let shapes = (0..columns)
                .filter_map(|column| {
                    let count = density.count(lane, column);
                    let bar = Rect::new(
                        GUTTER_PX + f64::from(column),
                        y,
                        1.0,
                        self.geo.lane_px - 8.0,
                    );
                    let alpha = 0.25 + 0.75 * f64::from(count) / peak;
                    (count > 0).then(|| Shape::fill(Geometry::Rect(bar), Ink::Density).alpha(alpha))
                })
                .collect();
            let name = &self.scene.timeline.lanes()[usize::from(lane)].label;
            let title = crate::tf!("{}: marks per pixel column", name);
            self.density_group(shapes, title, links);
        }
        let top = AXIS_PX;
        let strips = [
            (
                &density.duplicates,
                top,
                Class::ChargeDuplicate,
                crate::t!("duplicate effects"),
            ),
            (&density.races, top + 6.0, Class::Race, crate::t!("races")),
        ];
        for (cells, y, class, title) in strips {
            let shapes = (cells.iter().enumerate())
                .filter(|&(column, &count)| count > 0 && (column as u32) < columns)
                .map(|(column, _)| {
                    let cell = Rect::new(GUTTER_PX + column as f64, y, 1.0, 6.0);
                    Shape::fill(Geometry::Rect(cell), Ink::Mark(class))
                })
                .collect();
            self.density_group(shapes, title.to_string(), links);
        }
        for &ix in &density.bands {
            let mark = self.scene.timeline.mark(ix);
            if self.scene.overlay.shows(mark) {
                self.mark(mark);
            }
        }
    }

    fn density_group(&mut self, shapes: Vec<Shape>, title: String, links: bool) {
        self.groups.push(Group {
            class: "density".into(),
            clip: true,
            link: links.then_some(Link {
                title,
                events: Vec::new(),
            }),
            shapes,
        });
    }
}

/// Steps worth a label at any zoom: what goes wrong or is decided.
/// Timeouts, retries, charges, expiries, rollbacks, redeliveries, dead letters, misses, waits
/// and conflicts, replies other than a plain 200, orders that did not end ok and inbox hits
/// tell the story; the rest wait for room.
fn important(class: Class) -> bool {
    matches!(
        class,
        Class::Timeout
            | Class::Retry
            | Class::Charge
            | Class::ChargeDuplicate
            | Class::ChargeReplay
            | Class::KeyExpired
            | Class::Rollback
            | Class::Redeliver
            | Class::DeadLetter
            | Class::LookupMiss
            | Class::ClaimBlocked
            | Class::ClaimConflict
            | Class::ReplyReplay
            | Class::ReplyConflict
            | Class::ReplyError
            | Class::OrderFailed
            | Class::OrderUnknown
            | Class::InboxHit
    )
}

fn spot(x: f64, y: f64, anchor: Anchor) -> Spot {
    Spot { at: (x, y), anchor }
}

/// Right of the dot on each row in turn, then left of it, the near rows before the far ones.
fn point_spots(x: f64, y: f64, dx: f64, rows: &[f64; 4]) -> Vec<Spot> {
    // Every row to the mark's right first: a label that starts at its mark reads as its own,
    // where one that ends at it runs back over the marks before ("order 1: charge 2 of 3
    // (#2)", ending at charge #2, reads as the name of charge #1 beside it).
    let mut spots = Vec::with_capacity(8);
    for &(side, anchor) in &[(dx, Anchor::Start), (-dx, Anchor::End)] {
        for row in rows {
            spots.push(spot(x + side, y + row, anchor));
        }
    }
    spots
}

/// `text`, or as much of its start and end as fits in `width_px` around an ellipsis, so a
/// lane's name keeps what tells it apart: `pod 9494…(rerun)`.
pub fn shorten(text: &str, font: Font, width_px: f64) -> String {
    if font.width_px(text) <= width_px {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let (mut head, mut tail) = (0, 0);
    let build = |head: usize, tail: usize| -> String {
        let mut out: String = chars[..head].iter().collect();
        out.push('…');
        out.extend(&chars[chars.len() - tail..]);
        out
    };
    // Grow the head and the tail in turn, the tail only up to its last space-separated word.
    let tail_max = text
        .rfind(' ')
        .map_or(0, |ix| text[ix + 1..].chars().count());
    loop {
        let grow_tail = tail < tail_max && tail < head;
        let (h, t) = if grow_tail {
            (head, tail + 1)
        } else {
            (head + 1, tail)
        };
        if h + t >= chars.len() || font.width_px(&build(h, t)) > width_px {
            return build(head, tail);
        }
        (head, tail) = (h, t);
    }
}

/// A cross centred on (x, y), `r` from the centre to each corner along the axes.
pub(super) fn cross(x: f64, y: f64, r: f64) -> Geometry {
    Geometry::Path {
        points: vec![
            PathPoint::Move(x - r, y - r),
            PathPoint::Line(x + r, y + r),
            PathPoint::Move(x - r, y + r),
            PathPoint::Line(x + r, y - r),
        ],
        closed: false,
    }
}

/// Diagonal lines 8 px apart across `rect`, each cut to it: the lines x + y = `origin` + 8 i,
/// so a band's hatching moves with the band when the view pans, however much of it is cut
/// away. Each meets the rectangle where both coordinates are inside, found with additions.
pub(super) fn hatch(rect: Rect, origin: f64) -> Geometry {
    const STEP_PX: f64 = 8.0;
    let (x0, y0, x1, y1) = (rect.x, rect.y, rect.x + rect.w, rect.y + rect.h);
    let first = ((x0 + y0 - origin) / STEP_PX).floor() + 1.0;
    let last = ((x1 + y1 - origin) / STEP_PX).ceil() - 1.0;
    let count = (last - first + 1.0).clamp(0.0, 4_096.0) as u32;
    let mut points = Vec::with_capacity(2 * count as usize);
    for i in 0..count {
        let c = origin + (first + f64::from(i)) * STEP_PX;
        // From the lower left end to the upper right end of x + y = c within the rectangle.
        let (ax, ay) = if c - y1 >= x0 {
            (c - y1, y1)
        } else {
            (x0, c - x0)
        };
        let (bx, by) = if c - x1 >= y0 {
            (x1, c - x1)
        } else {
            (c - y0, y0)
        };
        points.push(PathPoint::Move(ax, ay));
        points.push(PathPoint::Line(bx, by));
    }
    Geometry::Path {
        points,
        closed: false,
    }
}

/// A filled triangle at `tip`, pointing along the line from `from`.
pub(super) fn head(from: (f64, f64), tip: (f64, f64)) -> Geometry {
    let (dx, dy) = (tip.0 - from.0, tip.1 - from.1);
    let len = (dx * dx + dy * dy).sqrt();
    let (ux, uy) = if len > 0.0 {
        (dx / len, dy / len)
    } else {
        (1.0, 0.0)
    };
    let size = 7.0;
    // The unit vector turned by ∓0.4 rad, then 7 px back from the tip.
    let a = (ux * HEAD_COS + uy * HEAD_SIN, uy * HEAD_COS - ux * HEAD_SIN);
    let b = (ux * HEAD_COS - uy * HEAD_SIN, uy * HEAD_COS + ux * HEAD_SIN);
    Geometry::Path {
        points: vec![
            PathPoint::Move(tip.0, tip.1),
            PathPoint::Line(tip.0 - size * a.0, tip.1 - size * a.1),
            PathPoint::Line(tip.0 - size * b.0, tip.1 - size * b.1),
        ],
        closed: true,
    }
}

/// Back to front: regions and spans 0, arrows 1, points 2.
fn layer_of(mark: &Mark) -> u8 {
    match mark.kind {
        MarkKind::Band { .. } | MarkKind::Race { .. } | MarkKind::Span { .. } => 0,
        MarkKind::Arrow { .. } => 1,
        MarkKind::Point { .. } => 2,
    }
}

/// `mark SHAPE CLASS` and `dropped`, `in-flight` or `duplicate` when it applies.
fn mark_class(mark: &Mark) -> String {
    let shape = match mark.kind {
        MarkKind::Arrow { .. } => "arrow",
        MarkKind::Point { .. } => "point",
        MarkKind::Span { .. } => "span",
        MarkKind::Band { .. } => "band",
        MarkKind::Race { .. } => "region",
    };
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
    format!("mark {shape} {}{extra}", mark.class().name())
}

/// The mark nearest to a point of the plot (top at 0), within 8 px, for hover and click.
/// Bands, races and spans are picked only when nothing sharper is near.
/// Marks the overlay does not show are not hit: their tooltips would tell what is kept back.
pub fn hit(
    timeline: &Timeline,
    view: &View,
    viewport: Viewport,
    overlay: &Overlay,
    (x, y): (f64, f64),
) -> Option<u32> {
    let View::Marks { marks } = view else {
        return None;
    };
    let geo = Geo {
        viewport,
        lane_px: overlay.lane_px(),
    };
    let mut best: Option<(f64, u32)> = None;
    for &ix in marks {
        if !overlay.shows(timeline.mark(ix)) {
            continue;
        }
        let distance = distance(&geo, timeline.mark(ix), x, y);
        if distance <= 8.0 && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, ix));
        }
    }
    best.map(|(_, ix)| ix)
}

fn distance(geo: &Geo, mark: &Mark, x: f64, y: f64) -> f64 {
    let (x0, y0) = (geo.x(mark.t0_us), geo.lane_y(mark.lane));
    match mark.kind {
        MarkKind::Arrow { to_lane, end, .. } => {
            let tip = (geo.x(mark.t1_us), geo.arrow_end_y(mark.lane, to_lane, end));
            segment_distance((x, y), (x0, y0), tip)
        }
        MarkKind::Point { .. } => ((x - x0) * (x - x0) + (y - y0) * (y - y0)).sqrt(),
        _ if x >= x0 && x <= geo.x(mark.t1_us) + 2.0 && (y - y0).abs() < geo.lane_px / 2.0 => 7.5,
        _ => f64::MAX,
    }
}

fn segment_distance(p: (f64, f64), a: (f64, f64), b: (f64, f64)) -> f64 {
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let length_sq = dx * dx + dy * dy;
    let t = if length_sq == 0.0 {
        0.0
    } else {
        (((p.0 - a.0) * dx + (p.1 - a.1) * dy) / length_sq).clamp(0.0, 1.0)
    };
    let (ex, ey) = (p.0 - a.0 - t * dx, p.1 - a.1 - t * dy);
    (ex * ex + ey * ey).sqrt()
}

/// What hovering a mark says: its label, its lanes, whose it is, when, and which events.
pub fn tooltip(timeline: &Timeline, mark: &Mark) -> String {
    let mut text = timeline.label(mark);
    if let MarkKind::Arrow { to_lane, end, .. } = mark.kind {
        let from = &timeline.lanes[usize::from(mark.lane)].label;
        let to = &timeline.lanes[usize::from(to_lane)].label;
        let _ = write!(text, "\n{from} → {to}");
        if let ArrowEnd::Dropped { cause, .. } = end {
            let cause = idemlab_core::trace::drop_cause(cause);
            text.push_str(&crate::tf!(", dropped: {}", cause));
        }
    }
    match (timeline.order(mark), timeline.attempt(mark)) {
        (Some(order), Some(attempt)) => {
            text.push_str(&crate::tf!("\norder {}, attempt {}", order, attempt));
        }
        (Some(order), None) => {
            text.push_str(&crate::tf!("\norder {}", order));
        }
        _ => {}
    }
    if mark.t0_us == mark.t1_us {
        text.push_str(&crate::tf!("\nat {}", ms_text(mark.t0_us)));
    } else {
        let (t0, t1) = (ms_text(mark.t0_us), ms_text(mark.t1_us));
        let _ = write!(text, "\n{t0} → {t1} ({})", ms_text(mark.duration_us()));
    }
    let events: Vec<String> = (timeline.events_of(mark).iter())
        .map(|e| format!("#{e}"))
        .collect();
    text.push_str(&crate::tf!("\nevents {}", events.join(", ")));
    text
}
