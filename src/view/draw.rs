//! The drawing list: positioned shapes, each with the ink that colours it, grouped per mark.
//!
//! [`plot`](super::plot) makes one for a viewport; the page's canvas paints it (`web::timeline`)
//! and [`svg::write`](super::svg::write) serialises it, so the two cannot draw a mark
//! differently. Coordinates are CSS pixels from the drawing's top left. The geometry uses only
//! arithmetic and `sqrt`, never `sin` or `atan2`, whose last bit may differ between the native
//! and the wasm maths library: the CLI's `svg` must give the page's export byte for byte.

use super::palette::Ink;

/// A whole picture: its size and its groups, back to front.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Drawing {
    pub width_px: f64,
    pub height_px: f64,
    /// The plot's rectangle: groups with `clip` are cut to it.
    pub clip: Rect,
    pub groups: Vec<Group>,
}

/// Shapes that belong together: one mark, the lanes, the axis, the cursor.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Group {
    /// Class names, e.g. `mark point charge duplicate`; the SVG keeps them for styling and
    /// for readers of the file.
    pub class: String,
    /// Cut to the plot, so that a mark that started before the window stays out of the lane
    /// labels.
    pub clip: bool,
    /// Hover text and the trace events it stands for, for the SVG; `None` on the canvas.
    pub link: Option<Link>,
    pub shapes: Vec<Shape>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    pub title: String,
    pub events: Vec<u32>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub w: f64,
    pub h: f64,
}

/// One thing to draw, in one ink, with its opacity (0 to 1).
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub geometry: Geometry,
    pub ink: Ink,
    pub paint: Paint,
    pub alpha: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Geometry {
    Rect(Rect),
    Line {
        from: (f64, f64),
        to: (f64, f64),
    },
    Circle {
        at: (f64, f64),
        r: f64,
    },
    /// Straight segments: `Move` starts a subpath; `closed` joins each subpath's ends.
    Path {
        points: Vec<PathPoint>,
        closed: bool,
    },
    /// Text with its baseline at `at.1`.
    Text {
        at: (f64, f64),
        text: String,
        font: Font,
        anchor: Anchor,
    },
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathPoint {
    Move(f64, f64),
    Line(f64, f64),
}

/// Filled with the ink, or stroked with it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Paint {
    Fill,
    Stroke { width_px: f64, dashed: bool },
}

/// The dash of a dashed stroke: 5 px on, 4 off.
pub const DASH_PX: [f64; 2] = [5.0, 4.0];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Font {
    /// 12 px.
    Plain,
    /// 12 px, weight 600.
    Bold,
    /// 14 px, weight 600: the export's heading.
    Heading,
}

impl Font {
    /// The CSS font shorthand; the SVG's stylesheet says the same.
    pub fn css(self) -> &'static str {
        match self {
            Font::Plain => "12px system-ui, sans-serif",
            Font::Bold => "600 12px system-ui, sans-serif",
            Font::Heading => "600 14px system-ui, sans-serif",
        }
    }

    /// A rough average glyph width, as no font metrics exist natively: it only decides where
    /// labels go, and both sides must decide alike.
    pub fn width_px(self, text: &str) -> f64 {
        let per_char = match self {
            Font::Plain => 6.5,
            Font::Bold => 7.0,
            Font::Heading => 8.0,
        };
        per_char * text.chars().count() as f64
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
}

impl Shape {
    pub fn fill(geometry: Geometry, ink: Ink) -> Shape {
        Shape {
            geometry,
            ink,
            paint: Paint::Fill,
            alpha: 1.0,
        }
    }

    pub fn stroke(geometry: Geometry, ink: Ink, width_px: f64) -> Shape {
        Shape {
            geometry,
            ink,
            paint: Paint::Stroke {
                width_px,
                dashed: false,
            },
            alpha: 1.0,
        }
    }

    pub fn text(at: (f64, f64), text: &str, ink: Ink, font: Font) -> Shape {
        let geometry = Geometry::Text {
            at,
            text: text.to_string(),
            font,
            anchor: Anchor::Start,
        };
        Shape::fill(geometry, ink)
    }

    pub fn alpha(mut self, alpha: f64) -> Shape {
        self.alpha = alpha;
        self
    }

    pub fn dashed(mut self) -> Shape {
        if let Paint::Stroke { dashed, .. } = &mut self.paint {
            *dashed = true;
        }
        self
    }
}

impl Rect {
    pub fn new(x: f64, y: f64, w: f64, h: f64) -> Rect {
        Rect { x, y, w, h }
    }
}

pub fn line(from: (f64, f64), to: (f64, f64)) -> Geometry {
    Geometry::Line { from, to }
}

/// Labels placed greedily left to right: each takes the first of a few baselines that is free
/// at its x, and is left out when none is (the tooltip still says it). That keeps a busy lane
/// readable without a layout search.
#[derive(Default)]
pub struct Labels {
    rows: std::collections::BTreeMap<i64, f64>,
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
