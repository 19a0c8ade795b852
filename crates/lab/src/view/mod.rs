//! The timeline view: a pure function from a trace to lanes and marks, and from those to one
//! drawing list that the page's canvas and the SVG export both draw.
//!
//! Pipeline: [`layout`] turns a `Trace` into a [`Timeline`] once per run; the page keeps it
//! behind a handle and, per frame, asks [`Timeline::view`] what a [`Viewport`] shows: mark
//! indices, or per-pixel-column counts when marks outnumber pixels. [`plot`] turns that into a
//! [`Drawing`] of positioned shapes, each with an [`Ink`]; the canvas paints it and
//! [`svg::write`] serialises it. [`export`] is the page's "SVG" download and `idemlab svg`.
//!
//! Architecture invariants:
//! - No IO, no clock, no DOM, no wasm-bindgen here: everything is testable natively and the
//!   same trace always gives the same timeline and the same drawing.
//! - Colours live in one table, [`palette::PALETTE`]: the page's `--tl-*` properties are
//!   generated from it and so is the SVG's stylesheet. The drawing names inks, never colours.
//! - Every mark names the trace events it comes from, so the drawing and the event table can
//!   point at each other.
//! - Duplicates and races are the metrics' own: the layout flags the duplicates `metrics.rs`
//!   counts, and races come from its detector, `metrics::Races`.

mod cull;
mod draw;
mod find;
mod labels;
mod layout;
pub mod legend;
mod mark;
pub mod palette;
mod plot;
mod race;
mod scale;
mod summary;
pub mod svg;

pub use cull::{pan_sweep, Density, View, MARKS_PER_COLUMN_MAX};
pub use draw::{
    text_box, Anchor, Drawing, Font, Geometry, Group, Link, Paint, PathPoint, Rect, Shape, DASH_PX,
    TEXT_MARGIN,
};
pub use find::Find;
pub use labels::{CLEAR_PX as LABEL_CLEAR_PX, NEAR_PX as LABEL_NEAR_PX};
pub use layout::{layout, ms_text, LayoutJob, Timeline};
pub use mark::{
    cause_label, ArrowEnd, ArrowPayload, Band, Class, EventIx, Lane, LaneIx, Mark, MarkKind, Span,
    TxnEnd, NO_END,
};
pub use palette::Ink;
pub use plot::{
    hit, lane_names, plot, plot_height_px, shorten, tooltip, Overlay, Scene, GUTTER_PX,
};
pub use scale::{tick_step_us, window, Tick, Viewport, SPAN_US_MAX, SPAN_US_MIN, WIDTH_PX_MAX};
pub use svg::{escape, export, svg, SvgOptions, EXPORT_WIDTH_PX};
