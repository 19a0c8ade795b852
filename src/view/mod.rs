//! The timeline view: a pure function from a trace to lanes and marks, and from those to SVG.
//!
//! Pipeline: [`layout`] turns a `Trace` into a [`Timeline`] once per run; the page keeps it
//! behind a handle and, per frame, asks [`Timeline::view`] what a [`Viewport`] shows: mark
//! indices, or per-pixel-column counts when marks outnumber pixels. [`svg::svg`] draws one
//! viewport as a standalone file.
//!
//! Architecture invariants:
//! - No IO, no clock, no DOM, no wasm-bindgen here: everything is testable natively and the
//!   same trace always gives the same timeline.
//! - No colours: marks carry a [`Class`] whose name the CSS (or [`svg::STYLE`]) colours.
//! - Every mark names the trace events it comes from, so the drawing and the event table can
//!   point at each other.
//! - Duplicates and races are defined in `metrics.rs`; the view mirrors those folds, so
//!   `Timeline::duplicates()` and `Timeline::races()` equal the metrics' counts.

mod cull;
mod find;
mod layout;
mod mark;
mod paint;
mod race;
mod scale;
mod summary;
mod svg;

pub use cull::{pan_sweep, Density, View, MARKS_PER_COLUMN_MAX};
pub use find::Find;
pub use layout::{layout, ms_text, Timeline};
pub use mark::{
    cause_label, ArrowEnd, ArrowPayload, Band, Class, Effect, EventIx, Lane, LaneIx, Mark,
    MarkKind, Point, Span, TxnEnd,
};
pub use paint::{tooltip, Labels};
pub use scale::{tick_step_us, Tick, Viewport, SPAN_US_MAX, SPAN_US_MIN, WIDTH_PX_MAX};
pub use svg::{escape, svg, SvgOptions, STYLE};
