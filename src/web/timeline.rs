//! Paints a `view::Timeline` on a canvas and answers "what is under this pixel". The layout,
//! the culling and the labels come from `crate::view`; this module only turns them into
//! strokes, with colours read from the stylesheet so both themes stay in CSS.

use std::collections::BTreeMap;

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

use super::dom;
use crate::trace::Node;
use crate::view::Timeline;
use crate::view::Viewport;
use crate::view::{ArrowEnd, Band, LaneIx, Mark, MarkKind, Point, Span};
use crate::view::{Labels, View};

/// Lane labels sit in this gutter, left of time zero.
pub const GUTTER_PX: f64 = 128.0;
const AXIS_PX: f64 = 22.0;
const LANE_PX: f64 = 60.0;

/// Colours by class name, read from the `--tl-NAME` custom properties of the timeline element.
struct Palette {
    style: web_sys::CssStyleDeclaration,
    cache: BTreeMap<&'static str, String>,
}

impl Palette {
    fn new(element: &Element) -> Palette {
        let style = dom::window()
            .get_computed_style(element)
            .ok()
            .flatten()
            .expect("an attached element has a computed style");
        Palette {
            style,
            cache: BTreeMap::new(),
        }
    }

    fn get(&mut self, name: &'static str) -> String {
        let style = &self.style;
        self.cache
            .entry(name)
            .or_insert_with(|| {
                let value = style
                    .get_property_value(&format!("--tl-{name}"))
                    .unwrap_or_default();
                let value = value.trim();
                if value.is_empty() {
                    "#888".to_string()
                } else {
                    value.to_string()
                }
            })
            .clone()
    }
}

/// Everything one paint needs: the canvas, the shared time axis and the cursor.
pub struct Frame<'a> {
    pub canvas: &'a HtmlCanvasElement,
    pub timeline: &'a Timeline,
    pub viewport: Viewport,
    /// What the viewport shows, computed once per viewport (see `Run::view`), not per frame.
    pub view: &'a View,
    /// Where the cursor line is drawn: the time of the cursor event of A.
    pub cursor_us: u64,
    /// Marks that start after this are drawn faded: the cursor's time, except for B with the
    /// cursor at the end of A, where B's own later events have happened too.
    pub fade_after_us: u64,
    /// Marks of this event are outlined (the selected row of the event table).
    pub selected_event: Option<u32>,
    /// Marks of this kind are outlined too (a lesson sentence the learner clicked).
    pub highlight: Option<crate::view::Find>,
}

pub fn canvas_height_px(timeline: &Timeline) -> f64 {
    AXIS_PX + LANE_PX * timeline.lanes().len() as f64 + 8.0
}

fn lane_y(lane: LaneIx) -> f64 {
    AXIS_PX + LANE_PX * f64::from(lane) + LANE_PX / 2.0
}

impl Frame<'_> {
    fn x(&self, time_us: u64) -> f64 {
        GUTTER_PX + self.viewport.x_px(time_us)
    }

    /// Sizes the canvas for the device's pixel ratio, then draws lanes, axis, marks and cursor.
    pub fn paint(&self) {
        let ctx = self.context();
        let mut palette = Palette::new(self.canvas.unchecked_ref());
        self.paint_lanes(&ctx, &mut palette);
        self.paint_axis(&ctx, &mut palette);
        match self.view {
            View::Marks { marks } => self.paint_marks(&ctx, &mut palette, marks),
            View::Density(density) => self.paint_density(&ctx, &mut palette, density),
        }
        self.paint_cursor(&ctx, &mut palette);
    }

    fn context(&self) -> CanvasRenderingContext2d {
        let ratio = dom::window().device_pixel_ratio().max(1.0);
        let width_css = GUTTER_PX + f64::from(self.viewport.width_px());
        let height_css = canvas_height_px(self.timeline);
        let canvas = self.canvas;
        let (width_px, height_px) = ((width_css * ratio) as u32, (height_css * ratio) as u32);
        // Resizing a canvas reallocates it: do it only when the size changed, not every frame.
        if canvas.width() != width_px || canvas.height() != height_px {
            canvas.set_width(width_px);
            canvas.set_height(height_px);
            let style = canvas.unchecked_ref::<web_sys::HtmlElement>().style();
            let px = |v: f64| format!("{}px", crate::decimal::Fixed::<2>(v));
            style.set_property("width", &px(width_css)).ok();
            style.set_property("height", &px(height_css)).ok();
        }
        let ctx = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .expect("canvas 2d is available")
            .unchecked_into::<CanvasRenderingContext2d>();
        ctx.set_transform(ratio, 0.0, 0.0, ratio, 0.0, 0.0).ok();
        ctx.set_global_alpha(1.0);
        ctx.clear_rect(0.0, 0.0, width_css, height_css);
        ctx.set_font("12px system-ui, sans-serif");
        ctx.set_text_baseline("middle");
        ctx
    }

    fn paint_lanes(&self, ctx: &CanvasRenderingContext2d, palette: &mut Palette) {
        let width = GUTTER_PX + f64::from(self.viewport.width_px());
        for (ix, lane) in self.timeline.lanes().iter().enumerate() {
            let y = lane_y(ix as LaneIx);
            ctx.set_fill_style_str(&palette.get(if ix % 2 == 0 { "lane" } else { "lane-alt" }));
            ctx.fill_rect(0.0, y - LANE_PX / 2.0, width, LANE_PX);
            ctx.set_fill_style_str(&palette.get("text"));
            ctx.set_text_align("left");
            ctx.fill_text(&lane.label, 6.0, y).ok();
        }
    }

    fn paint_axis(&self, ctx: &CanvasRenderingContext2d, palette: &mut Palette) {
        ctx.set_fill_style_str(&palette.get("muted"));
        ctx.set_stroke_style_str(&palette.get("grid"));
        ctx.set_line_width(1.0);
        ctx.set_text_align("center");
        let bottom = canvas_height_px(self.timeline);
        for tick in self.viewport.ticks(90) {
            let x = GUTTER_PX + tick.x_px;
            ctx.fill_text(&tick.label, x, AXIS_PX / 2.0).ok();
            line(ctx, x, AXIS_PX, x, bottom);
        }
    }

    fn faded(&self, mark: &Mark) -> bool {
        mark.t0_us > self.fade_after_us
    }

    fn paint_marks(&self, ctx: &CanvasRenderingContext2d, palette: &mut Palette, marks: &[u32]) {
        // Backgrounds first (bands, races, spans), then arrows, then points and their labels.
        let layers: [fn(&MarkKind) -> bool; 3] = [
            |k| {
                matches!(
                    k,
                    MarkKind::Band { .. } | MarkKind::Race { .. } | MarkKind::Span { .. }
                )
            },
            |k| matches!(k, MarkKind::Arrow { .. }),
            |k| matches!(k, MarkKind::Point { .. }),
        ];
        let mut labels = Labels::default();
        for layer in layers {
            for &ix in marks {
                let mark = self.timeline.mark(ix);
                if !layer(&mark.kind) {
                    continue;
                }
                ctx.set_global_alpha(if self.faded(mark) { 0.18 } else { 1.0 });
                let colour = palette.get(mark.class().name());
                self.paint_mark(ctx, palette, mark, &colour, &mut labels);
                let selected = self
                    .selected_event
                    .is_some_and(|e| mark.events.contains(&e));
                if selected || self.highlight.is_some_and(|find| find.matches(mark)) {
                    self.outline(ctx, palette, mark);
                }
            }
        }
        ctx.set_global_alpha(1.0);
    }

    fn paint_mark(
        &self,
        ctx: &CanvasRenderingContext2d,
        palette: &mut Palette,
        mark: &Mark,
        colour: &str,
        labels: &mut Labels,
    ) {
        ctx.set_fill_style_str(colour);
        ctx.set_stroke_style_str(colour);
        match mark.kind {
            MarkKind::Band { band } => self.paint_band(ctx, palette, mark, band),
            MarkKind::Race { to_lane, .. } => self.paint_race(ctx, palette, mark, to_lane, labels),
            MarkKind::Span { span } => self.paint_span(ctx, mark, span),
            MarkKind::Arrow { to_lane, end, .. } => {
                self.paint_arrow(ctx, palette, mark, to_lane, end)
            }
            MarkKind::Point { point } => self.paint_point(ctx, palette, mark, point, labels),
        }
    }

    fn paint_band(
        &self,
        ctx: &CanvasRenderingContext2d,
        palette: &mut Palette,
        mark: &Mark,
        band: Band,
    ) {
        let (x0, x1) = (
            self.x(mark.t0_us),
            self.x(mark.t1_us).max(self.x(mark.t0_us) + 3.0),
        );
        let y = lane_y(mark.lane) - LANE_PX / 2.0;
        let alpha = ctx.global_alpha();
        ctx.set_global_alpha(alpha * 0.35);
        ctx.fill_rect(x0, y, x1 - x0, LANE_PX);
        ctx.set_global_alpha(alpha);
        ctx.set_fill_style_str(&palette.get("text"));
        ctx.set_text_align("left");
        let text = match band {
            Band::ApiDown => "API down",
            Band::LedgerReplaced { wiped: true } => "ledger pod replaced: store lost",
            Band::LedgerReplaced { wiped: false } => "ledger pod replaced",
            Band::Rerun => "rerun",
            Band::CapReached => "event cap",
        };
        ctx.fill_text(text, x0 + 3.0, y + 8.0).ok();
    }

    fn paint_race(
        &self,
        ctx: &CanvasRenderingContext2d,
        palette: &mut Palette,
        mark: &Mark,
        to_lane: LaneIx,
        labels: &mut Labels,
    ) {
        // Shade only the payment service and database lanes, where the two "not found" reads
        // and the two charges happen; the API lane above stays readable.
        let payment = self
            .timeline
            .lane_of(Node::Payment)
            .unwrap_or(mark.lane.min(to_lane));
        let (lo, hi) = (payment.max(mark.lane.min(to_lane)), mark.lane.max(to_lane));
        let (x0, x1) = (
            self.x(mark.t0_us),
            self.x(mark.t1_us).max(self.x(mark.t0_us) + 2.0),
        );
        let (y0, y1) = (
            lane_y(lo) - LANE_PX / 2.0 + 1.0,
            lane_y(hi) + LANE_PX / 2.0 - 1.0,
        );
        let alpha = ctx.global_alpha();
        ctx.set_global_alpha(alpha * 0.16);
        ctx.fill_rect(x0, y0, x1 - x0, y1 - y0);
        ctx.set_global_alpha(alpha);
        ctx.set_line_width(1.5);
        dashed(ctx, true);
        ctx.stroke_rect(x0, y0, x1 - x0, y1 - y0);
        dashed(ctx, false);
        // One caption per stretch of overlapping races: the first one speaks for all.
        ctx.set_font("600 12px system-ui, sans-serif");
        let caption = "race: both read \"not found\"";
        let width = ctx.measure_text(caption).map(|m| m.width()).unwrap_or(0.0);
        if labels.place(x0 + 4.0, &[y1 - 8.0], width).is_some() {
            ctx.set_fill_style_str(&palette.get("race-text"));
            ctx.set_text_align("left");
            ctx.fill_text(caption, x0 + 4.0, y1 - 8.0).ok();
        }
        ctx.set_font("12px system-ui, sans-serif");
    }

    fn paint_span(&self, ctx: &CanvasRenderingContext2d, mark: &Mark, span: Span) {
        let (x0, x1) = (self.x(mark.t0_us), self.x(mark.t1_us));
        let y = lane_y(mark.lane);
        let offset = if matches!(span, Span::Blocked) {
            -LANE_PX / 2.0 + 3.0
        } else {
            LANE_PX / 2.0 - 8.0
        };
        ctx.fill_rect(x0, y + offset, (x1 - x0).max(1.5), 5.0);
    }

    fn paint_arrow(
        &self,
        ctx: &CanvasRenderingContext2d,
        palette: &mut Palette,
        mark: &Mark,
        to_lane: LaneIx,
        end: ArrowEnd,
    ) {
        let (x0, y0) = (self.x(mark.t0_us), lane_y(mark.lane));
        let (x1, y1) = (self.x(mark.t1_us), arrow_end_y(mark.lane, to_lane, end));
        ctx.set_line_width(1.4);
        line(ctx, x0, y0, x1, y1);
        match end {
            ArrowEnd::Delivered => arrow_head(ctx, x0, y0, x1, y1),
            ArrowEnd::Dropped { cause, .. } => {
                ctx.set_stroke_style_str(&palette.get("drop"));
                ctx.set_line_width(2.0);
                cross(ctx, x1, y1, 5.0);
                ctx.set_fill_style_str(&palette.get("drop"));
                ctx.set_text_align("left");
                ctx.fill_text(crate::view::cause_label(cause), x1 + 7.0, y1)
                    .ok();
            }
            ArrowEnd::InFlight => {}
        }
    }

    fn paint_point(
        &self,
        ctx: &CanvasRenderingContext2d,
        palette: &mut Palette,
        mark: &Mark,
        point: Point,
        labels: &mut Labels,
    ) {
        let (x, y) = (self.x(mark.t0_us), lane_y(mark.lane));
        let duplicate = mark.is_duplicate();
        let radius = if duplicate { 6.0 } else { 3.5 };
        ctx.begin_path();
        ctx.arc(x, y, radius, 0.0, std::f64::consts::TAU).ok();
        ctx.fill();
        if duplicate {
            ctx.set_line_width(2.0);
            ctx.set_stroke_style_str(&palette.get("text"));
            ctx.stroke();
        }
        if mark.label.is_empty() || !(duplicate || self.worth_a_label(point)) {
            return;
        }
        // Two label rows per lane, above and below the dots (`Labels` keys them by baseline).
        // A label goes in its preferred row,
        // else the other; if both are taken it is left to the tooltip. A duplicate, which must
        // always say what it is, falls back to its short form ("charge 2 of 2 (#4)").
        let below = matches!(point, Point::Timeout | Point::Retry { .. });
        let short = mark
            .label
            .split_once(": ")
            .map_or(mark.label.as_str(), |(_, rest)| rest);
        let texts: &[&str] = if duplicate {
            &[&mark.label, short]
        } else {
            &[&mark.label]
        };
        for text in texts {
            let width = ctx.measure_text(text).map(|m| m.width()).unwrap_or(0.0);
            let rows = if below {
                [y + 13.0, y - 12.0]
            } else {
                [y - 12.0, y + 13.0]
            };
            if let Some(label_y) = labels.place(x + 5.0, &rows, width) {
                let colour = if duplicate {
                    "charge-duplicate"
                } else {
                    "text"
                };
                ctx.set_fill_style_str(&palette.get(colour));
                ctx.set_text_align("left");
                ctx.fill_text(text, x + 5.0, label_y).ok();
                return;
            }
        }
    }

    /// Routine steps (attempt rows, ledger rows, commits, plain 200s) get a label only when the
    /// view is zoomed in enough to have room; what tells the story is always labelled.
    fn worth_a_label(&self, point: Point) -> bool {
        let roomy = self.viewport.px_per_us() * 1_000.0 >= 14.0;
        roomy
            || match point {
                Point::Timeout | Point::Retry { .. } | Point::Charge { .. } | Point::KeyExpired => {
                    true
                }
                Point::Lookup { found } => found == crate::trace::Found::NotFound,
                Point::Claim { result } => result != crate::trace::ClaimResult::Ok,
                Point::Reply { status, replay } => replay || status != 200,
                Point::OrderDone { outcome, .. } => outcome != crate::trace::Outcome::Ok,
                Point::Rollback { .. } | Point::Redeliver { .. } | Point::DeadLetter { .. } => true,
                Point::Inbox { fresh, .. } => !fresh,
                _ => false,
            }
    }

    fn outline(&self, ctx: &CanvasRenderingContext2d, palette: &mut Palette, mark: &Mark) {
        ctx.set_global_alpha(1.0);
        ctx.set_stroke_style_str(&palette.get("selected"));
        ctx.set_line_width(2.5);
        let (x, y) = (self.x(mark.t0_us), lane_y(mark.lane));
        ctx.stroke_rect(
            x - 8.0,
            y - 8.0,
            (self.x(mark.t1_us) - x).max(0.0) + 16.0,
            16.0,
        );
    }

    fn paint_density(
        &self,
        ctx: &CanvasRenderingContext2d,
        palette: &mut Palette,
        density: &crate::view::Density,
    ) {
        let peak = f64::from(density.count_max().max(1));
        ctx.set_fill_style_str(&palette.get("density"));
        for lane in 0..density.lanes {
            let y = lane_y(lane) - LANE_PX / 2.0 + 4.0;
            for column in 0..density.columns {
                let count = density.count(lane, column);
                if count > 0 {
                    ctx.set_global_alpha(0.25 + 0.75 * f64::from(count) / peak);
                    ctx.fill_rect(GUTTER_PX + f64::from(column), y, 1.0, LANE_PX - 8.0);
                }
            }
        }
        ctx.set_global_alpha(1.0);
        for (column, count) in density.duplicates.iter().enumerate() {
            if *count > 0 {
                ctx.set_fill_style_str(&palette.get("charge-duplicate"));
                ctx.fill_rect(GUTTER_PX + column as f64, AXIS_PX, 1.0, 6.0);
            }
        }
        let mut unused = Labels::default();
        for &ix in &density.bands {
            let mark = self.timeline.mark(ix);
            let colour = palette.get(mark.class().name());
            self.paint_mark(ctx, palette, mark, &colour, &mut unused);
        }
    }

    fn paint_cursor(&self, ctx: &CanvasRenderingContext2d, palette: &mut Palette) {
        let x = self.x(self.cursor_us);
        ctx.set_stroke_style_str(&palette.get("cursor"));
        ctx.set_line_width(1.5);
        line(ctx, x, AXIS_PX, x, canvas_height_px(self.timeline));
    }

    /// The mark nearest to a point in CSS pixels, within a few pixels, for hover and click.
    pub fn hit(&self, x_css: f64, y_css: f64) -> Option<usize> {
        let View::Marks { marks } = self.view else {
            return None;
        };
        let mut best: Option<(f64, usize)> = None;
        for &ix in marks {
            let mark = self.timeline.mark(ix);
            let distance = self.distance(mark, x_css, y_css);
            if distance <= 8.0 && best.is_none_or(|(d, _)| distance < d) {
                best = Some((distance, ix as usize));
            }
        }
        best.map(|(_, ix)| ix)
    }

    fn distance(&self, mark: &Mark, x: f64, y: f64) -> f64 {
        let (x0, y0) = (self.x(mark.t0_us), lane_y(mark.lane));
        match mark.kind {
            MarkKind::Arrow { to_lane, end, .. } => segment_distance(
                x,
                y,
                x0,
                y0,
                self.x(mark.t1_us),
                arrow_end_y(mark.lane, to_lane, end),
            ),
            MarkKind::Point { .. } => ((x - x0).powi(2) + (y - y0).powi(2)).sqrt(),
            // Backgrounds are picked only when nothing sharper is near.
            _ if x >= x0 && x <= self.x(mark.t1_us) + 2.0 && (y - y0).abs() < LANE_PX / 2.0 => 7.5,
            _ => f64::MAX,
        }
    }
}

fn line(ctx: &CanvasRenderingContext2d, x0: f64, y0: f64, x1: f64, y1: f64) {
    ctx.begin_path();
    ctx.move_to(x0, y0);
    ctx.line_to(x1, y1);
    ctx.stroke();
}

/// Where an arrow's line ends: on the destination lane, or half-way for a message lost in flight.
fn arrow_end_y(lane: LaneIx, to_lane: LaneIx, end: ArrowEnd) -> f64 {
    match end {
        ArrowEnd::Dropped { midway: true, .. } => (lane_y(lane) + lane_y(to_lane)) / 2.0,
        _ => lane_y(to_lane),
    }
}

fn dashed(ctx: &CanvasRenderingContext2d, on: bool) {
    let pattern = if on {
        js_sys::Array::of2(&5.0.into(), &4.0.into())
    } else {
        js_sys::Array::new()
    };
    ctx.set_line_dash(&pattern).ok();
}

fn arrow_head(ctx: &CanvasRenderingContext2d, x0: f64, y0: f64, x1: f64, y1: f64) {
    let angle = (y1 - y0).atan2(x1 - x0);
    let size = 7.0;
    ctx.begin_path();
    ctx.move_to(x1, y1);
    ctx.line_to(
        x1 - size * (angle - 0.4).cos(),
        y1 - size * (angle - 0.4).sin(),
    );
    ctx.line_to(
        x1 - size * (angle + 0.4).cos(),
        y1 - size * (angle + 0.4).sin(),
    );
    ctx.close_path();
    ctx.fill();
}

fn cross(ctx: &CanvasRenderingContext2d, x: f64, y: f64, size: f64) {
    line(ctx, x - size, y - size, x + size, y + size);
    line(ctx, x - size, y + size, x + size, y - size);
}

fn segment_distance(px: f64, py: f64, x0: f64, y0: f64, x1: f64, y1: f64) -> f64 {
    let (dx, dy) = (x1 - x0, y1 - y0);
    let length_sq = dx * dx + dy * dy;
    let t = if length_sq == 0.0 {
        0.0
    } else {
        (((px - x0) * dx + (py - y0) * dy) / length_sq).clamp(0.0, 1.0)
    };
    ((px - x0 - t * dx).powi(2) + (py - y0 - t * dy).powi(2)).sqrt()
}
