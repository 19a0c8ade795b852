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

impl Drawing {
    /// Moves every shape down by `dy`: the export draws the page's plot under its heading.
    pub fn translate(&mut self, dy: f64) {
        self.clip.y += dy;
        self.height_px += dy;
        for shape in self
            .groups
            .iter_mut()
            .flat_map(|group| group.shapes.iter_mut())
        {
            shape.geometry.translate(dy);
        }
    }

    /// How many marks it draws: its groups of class `mark …` (`plot`'s `mark_class`).
    pub fn mark_count(&self) -> usize {
        let marks = self.groups.iter().filter(|g| g.class.starts_with("mark "));
        marks.count()
    }
}

impl Geometry {
    fn translate(&mut self, dy: f64) {
        match self {
            Geometry::Rect(rect) => rect.y += dy,
            Geometry::Line { from, to } => (from.1, to.1) = (from.1 + dy, to.1 + dy),
            Geometry::Circle { at, .. } | Geometry::Text { at, .. } => at.1 += dy,
            Geometry::Path { points, .. } => {
                for point in points {
                    match point {
                        PathPoint::Move(_, y) | PathPoint::Line(_, y) => *y += dy,
                    }
                }
            }
        }
    }
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

    /// The width a text takes in this font, from a fixed advance per character: no font
    /// metrics exist natively, and the page, the export and the label placement must decide
    /// alike. The advances are DejaVu Sans's at 12 px (what `system-ui` is on a plain Linux,
    /// and wider than Segoe UI, San Francisco, Roboto or Cantarell), rounded up to half a
    /// pixel, plus a margin of [`TEXT_MARGIN`]; any other character counts a full em. The
    /// canvas also paints every text with this width as its maximum, so a wider fallback font
    /// is squeezed rather than spilled over a neighbour.
    pub fn width_px(self, text: &str) -> f64 {
        let table = match self {
            Font::Plain => &PLAIN_HALF_PX,
            Font::Bold | Font::Heading => &BOLD_HALF_PX,
        };
        let half_px: u32 = (text.chars())
            .map(|c| match u32::from(c) {
                code @ 32..=126 => u32::from(table[(code - 32) as usize]),
                _ => 24,
            })
            .sum();
        let px = f64::from(half_px) / 2.0 * TEXT_MARGIN + 1.0;
        match self {
            Font::Heading => px * 14.0 / 12.0,
            _ => px,
        }
    }

    /// From the baseline, how far the text's box reaches up and down.
    pub fn extent_px(self) -> (f64, f64) {
        match self {
            Font::Heading => (12.0, 4.0),
            _ => (10.0, 3.0),
        }
    }
}

/// The advances' safety margin: 5 % over the measured widths, and a pixel.
pub const TEXT_MARGIN: f64 = 1.05;

/// Advances of the printable ASCII characters (from the space), in half pixels, as Chromium
/// measures DejaVu Sans at 12 px, regular and weight 600.
#[rustfmt::skip]
const PLAIN_HALF_PX: [u8; 95] = [
    8, 10, 12, 21, 16, 23, 19, 7, 10, 10, 12, 21, 8, 9, 8, 9, 16, 16, 16, 16, 16, 16, 16, 16,
    16, 16, 9, 9, 21, 21, 21, 13, 24, 17, 17, 17, 19, 16, 14, 19, 19, 8, 8, 16, 14, 21, 18, 19,
    15, 19, 17, 16, 15, 18, 17, 24, 17, 15, 17, 10, 9, 10, 21, 12, 12, 15, 16, 14, 16, 15, 9,
    16, 16, 7, 7, 14, 7, 24, 16, 15, 16, 16, 10, 13, 10, 16, 15, 20, 15, 15, 13, 16, 9, 16, 21,
];
#[rustfmt::skip]
const BOLD_HALF_PX: [u8; 95] = [
    9, 11, 13, 21, 17, 25, 21, 8, 11, 11, 13, 21, 10, 10, 10, 9, 17, 17, 17, 17, 17, 17, 17, 17,
    17, 17, 10, 10, 21, 21, 21, 14, 24, 19, 19, 18, 20, 17, 17, 20, 21, 9, 9, 19, 16, 24, 21, 21,
    18, 21, 19, 18, 17, 20, 19, 27, 19, 18, 18, 11, 9, 11, 21, 12, 12, 17, 18, 15, 18, 17, 11,
    18, 18, 9, 9, 16, 9, 26, 18, 17, 18, 18, 12, 15, 12, 18, 16, 23, 16, 16, 14, 18, 9, 18, 21,
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    /// The text ends at its point: a label left of its mark.
    End,
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

    /// True when the two overlap by more than a touch (a hundredth of a pixel, so that
    /// rounding cannot turn two boxes that share an edge into overlapping ones).
    pub fn intersects(&self, other: &Rect) -> bool {
        const TOUCH: f64 = 0.01;
        self.x + TOUCH < other.x + other.w
            && other.x + TOUCH < self.x + self.w
            && self.y + TOUCH < other.y + other.h
            && other.y + TOUCH < self.y + self.h
    }

    /// True when `other` lies wholly inside.
    pub fn contains(&self, other: &Rect) -> bool {
        other.x >= self.x
            && other.y >= self.y
            && other.x + other.w <= self.x + self.w
            && other.y + other.h <= self.y + self.h
    }
}

/// The box a text takes: its measured width ([`Font::width_px`]) from its anchor, and the
/// font's extent about the baseline. Label placement keeps these apart, and the canvas never
/// paints a text wider than this.
pub fn text_box(at: (f64, f64), text: &str, font: Font, anchor: Anchor) -> Rect {
    let width = font.width_px(text);
    let x = match anchor {
        Anchor::Start => at.0,
        Anchor::Middle => at.0 - width / 2.0,
        Anchor::End => at.0 - width,
    };
    let (up, down) = font.extent_px();
    Rect::new(x, at.1 - up, width, up + down)
}

impl Shape {
    /// The box of a filled text shape; `None` for any other shape, and for a stroked text:
    /// that is a label's halo, which lies under the label itself.
    pub fn text_box(&self) -> Option<Rect> {
        match (&self.geometry, self.paint) {
            (
                Geometry::Text {
                    at,
                    text,
                    font,
                    anchor,
                },
                Paint::Fill,
            ) => Some(text_box(*at, text, *font, *anchor)),
            _ => None,
        }
    }
}

pub fn line(from: (f64, f64), to: (f64, f64)) -> Geometry {
    Geometry::Line { from, to }
}

/// The boxes of the labels placed so far, bucketed by x so that a check looks only at its
/// neighbours: a frame places hundreds of labels, and each must miss every other.
pub struct Boxes {
    buckets: Vec<Vec<Rect>>,
    /// Where labels may go: inside this and nowhere else.
    room: Rect,
}

const BUCKET_PX: f64 = 64.0;

impl Boxes {
    pub fn new(room: Rect) -> Boxes {
        let count = (room.w / BUCKET_PX).ceil().max(0.0) as usize + 1;
        Boxes {
            buckets: vec![Vec::new(); count],
            room,
        }
    }

    fn span(&self, rect: &Rect) -> std::ops::RangeInclusive<usize> {
        let last = self.buckets.len() - 1;
        let bucket = |x: f64| (((x - self.room.x) / BUCKET_PX).max(0.0) as usize).min(last);
        bucket(rect.x)..=bucket(rect.x + rect.w)
    }

    /// True when `rect` is inside the room and misses every box placed.
    pub fn free(&self, rect: &Rect) -> bool {
        self.room.contains(rect) && self.clear_of(rect)
    }

    /// Whether `rect` misses every box claimed, wherever it lies (`free` also asks that it
    /// be inside the room).
    pub fn clear_of(&self, rect: &Rect) -> bool {
        self.buckets[self.span(rect)]
            .iter()
            .all(|bucket| bucket.iter().all(|other| !other.intersects(rect)))
    }

    /// The boxes claimed in the buckets `rect` spans once widened by `reach_px` each side:
    /// every box within `reach_px` of it, and some further (a box may be met twice).
    pub fn near(&self, rect: &Rect, reach_px: f64) -> impl Iterator<Item = &Rect> {
        let wide = Rect::new(rect.x - reach_px, rect.y, rect.w + 2.0 * reach_px, rect.h);
        self.buckets[self.span(&wide)].iter().flatten()
    }

    pub fn claim(&mut self, rect: Rect) {
        for ix in self.span(&rect) {
            self.buckets[ix].push(rect);
        }
    }
}
