//! SVG: a [`Drawing`] written as a standalone file, and the export that the page's "SVG"
//! button and `idemlab svg` both write.
//!
//! The writer knows nothing about timelines: it turns each shape into one element whose class
//! names its ink (`f-NAME` fills, `s-NAME` strokes), and embeds [`palette::svg_style`], so the
//! file has the page's colours in both themes wherever it is opened. All text goes through
//! [`escape`]. Mark groups carry `data-event` (the trace event that starts them), `data-events`
//! (all of them) and a `<title>` with the page's hover text.

use std::fmt::Write as _;

use crate::decimal::{Fixed, Short};

use super::draw::{Anchor, Drawing, Font, Geometry, Group, Paint, PathPoint, Rect, Shape};
use super::layout::{ms_text, Timeline};
use super::legend::{swatch, LEGEND, SWATCH_PX};
use super::palette::{self, Ink};
use super::plot::{plot, Overlay, Scene, GUTTER_PX};
use super::scale::{window, Viewport};

/// The export's plot width. Fixed, unlike the page's (its column's width), so that the page and
/// the CLI draw the same file for the same URL.
pub const EXPORT_WIDTH_PX: u32 = 1_000;

/// What surrounds the plot in a standalone file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// The document's `<title>` and heading, e.g. the scenario query.
    pub title: String,
    /// The key to the colours, under the heading.
    pub legend: bool,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            title: crate::t!("idemlab race timeline").into(),
            legend: true,
        }
    }
}

const PAD_PX: f64 = 12.0;
const LEGEND_TOP_PX: f64 = 28.0;
const LEGEND_ROW_PX: f64 = 18.0;

/// The page's export and `idemlab svg`: run A's timeline, [`EXPORT_WIDTH_PX`] wide, over the
/// `zoom=` window kept inside the run, or else the whole run; no cursor, fading or outlines.
pub fn export(timeline: &Timeline, title: &str, zoom: Option<(u64, u64)>) -> String {
    let viewport = window(timeline.end_us(), zoom, EXPORT_WIDTH_PX);
    let options = SvgOptions {
        title: title.to_string(),
        legend: true,
    };
    svg(timeline, &viewport, &options)
}

/// Draws one viewport of a timeline as a standalone SVG document.
pub fn svg(timeline: &Timeline, viewport: &Viewport, options: &SvgOptions) -> String {
    write(&drawing(timeline, viewport, options), &options.title)
}

/// The heading, the legend and the plot, as one drawing.
pub fn drawing(timeline: &Timeline, viewport: &Viewport, options: &SvgOptions) -> Drawing {
    let width = GUTTER_PX + f64::from(viewport.width_px());
    let mut groups = vec![heading(timeline, viewport, &options.title)];
    let mut top = LEGEND_TOP_PX;
    if options.legend {
        let (legend, rows) = legend(width - 2.0 * PAD_PX);
        groups.push(legend);
        top += f64::from(rows) * LEGEND_ROW_PX;
    }
    let view = timeline.view(viewport);
    let scene = Scene {
        timeline,
        viewport: *viewport,
        view: &view,
        overlay: Overlay::default(),
        links: true,
        top_px: top + 4.0,
    };
    let mut drawing = plot(&scene);
    // The whole file gets the panel's colour, so the heading reads in either theme.
    let page = Rect::new(0.0, 0.0, drawing.width_px, drawing.height_px);
    let background = Shape::fill(Geometry::Rect(page), Ink::Panel);
    groups.insert(0, plain_group("background", vec![background]));
    groups.append(&mut drawing.groups);
    drawing.groups = groups;
    drawing
}

fn heading(timeline: &Timeline, viewport: &Viewport, title: &str) -> Group {
    let (t0, t1) = (ms_text(viewport.t0_us()), ms_text(viewport.t1_us()));
    let mut text = crate::tf!("{} · {} to {}", title, t0, t1);
    if timeline.truncated() {
        text.push_str(crate::t!(" · truncated at events_max"));
    }
    let shapes = vec![Shape::text((PAD_PX, 19.0), &text, Ink::Text, Font::Heading)];
    plain_group("heading", shapes)
}

fn plain_group(class: &str, shapes: Vec<Shape>) -> Group {
    Group {
        class: class.into(),
        clip: false,
        link: None,
        shapes,
    }
}

/// The legend's swatches and words, wrapped to `room_px`, and how many rows it took.
fn legend(room_px: f64) -> (Group, u32) {
    let (mut x, mut y, mut rows) = (0.0, LEGEND_TOP_PX, 1);
    let mut shapes = Vec::new();
    let (swatch_w, _) = SWATCH_PX;
    for entry in &LEGEND {
        // The label in the language in force (the page's own legend is translated in its markup).
        let label = crate::i18n::tr(entry.label);
        let w = swatch_w + 6.0 + Font::Plain.width_px(label) + 14.0;
        if x > 0.0 && x + w > room_px {
            (x, y, rows) = (0.0, y + LEGEND_ROW_PX, rows + 1);
        }
        shapes.extend(swatch(entry.key, entry.ink, PAD_PX + x, y + 1.0));
        let at = (PAD_PX + x + swatch_w + 6.0, y + 11.0);
        shapes.push(Shape::text(at, label, Ink::Muted, Font::Plain));
        x += w;
    }
    (plain_group("legend", shapes), rows)
}

/// Writes a drawing as a standalone SVG document titled `title`.
pub fn write(drawing: &Drawing, title: &str) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let (w, h, clip) = (
        Fixed::<0>(drawing.width_px),
        Fixed::<0>(drawing.height_px),
        drawing.clip,
    );
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"idemlab\" width=\"{w}\" \
         height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\">\n<title>{}</title>\n\
         <style>{}</style>\n<defs><clipPath id=\"idemlab-plot\"><rect x=\"{}\" y=\"{}\" \
         width=\"{}\" height=\"{}\"/></clipPath></defs>\n",
        escape(title),
        palette::svg_style(),
        d1(clip.x),
        d1(clip.y),
        d1(clip.w),
        d1(clip.h)
    );
    for group in &drawing.groups {
        write_group(&mut out, group);
    }
    out.push_str("</svg>\n");
    out
}

fn write_group(out: &mut String, group: &Group) {
    let _ = write!(out, "<g class=\"{}\"", escape(&group.class));
    if group.clip {
        out.push_str(" clip-path=\"url(#idemlab-plot)\"");
    }
    if let Some(link) = &group.link {
        if let Some(first) = link.events.first() {
            let events: Vec<String> = link.events.iter().map(u32::to_string).collect();
            let _ = write!(
                out,
                " data-event=\"{first}\" data-events=\"{}\"",
                events.join(" ")
            );
        }
        let _ = write!(out, "><title>{}</title>", escape(&link.title));
    } else {
        out.push('>');
    }
    for shape in &group.shapes {
        write_shape(out, shape);
    }
    out.push_str("</g>\n");
}

pub(super) fn write_shape(out: &mut String, shape: &Shape) {
    let paint = paint_attributes(shape);
    let _ = match &shape.geometry {
        Geometry::Rect(r) => write!(
            out,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"{paint}/>",
            d1(r.x),
            d1(r.y),
            d1(r.w),
            d1(r.h)
        ),
        Geometry::Line { from, to } => write!(
            out,
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\"{paint}/>",
            d1(from.0),
            d1(from.1),
            d1(to.0),
            d1(to.1)
        ),
        Geometry::Circle { at, r } => write!(
            out,
            "<circle cx=\"{}\" cy=\"{}\" r=\"{}\"{paint}/>",
            d1(at.0),
            d1(at.1),
            Short(*r)
        ),
        Geometry::Path { points, closed } => {
            write!(out, "<path d=\"{}\"{paint}/>", path_data(points, *closed))
        }
        Geometry::Text {
            at, text, anchor, ..
        } => {
            let anchor = match anchor {
                Anchor::Start => "",
                Anchor::Middle => " text-anchor=\"middle\"",
                Anchor::End => " text-anchor=\"end\"",
            };
            // A stroked text is a label's halo: the label itself is the next shape.
            let hidden = match shape.paint {
                Paint::Stroke { .. } => " aria-hidden=\"true\"",
                Paint::Fill => "",
            };
            write!(
                out,
                "<text x=\"{}\" y=\"{}\"{paint}{anchor}{hidden}>{}</text>",
                d1(at.0),
                d1(at.1),
                escape(text)
            )
        }
    };
}

/// A shape's class (its ink, and its font for a text), stroke and opacity attributes.
fn paint_attributes(shape: &Shape) -> String {
    let name = shape.ink.name();
    let mut paint = match shape.paint {
        Paint::Fill => format!(" class=\"f-{name}"),
        Paint::Stroke { .. } => format!(" class=\"s-{name}"),
    };
    if let Geometry::Text { font, .. } = &shape.geometry {
        paint.push_str(match font {
            Font::Plain => "",
            Font::Bold => " bold",
            Font::Heading => " heading",
        });
    }
    paint.push('"');
    if let Paint::Stroke { width_px, dashed } = shape.paint {
        let _ = write!(paint, " stroke-width=\"{}\"", Short(width_px));
        if dashed {
            paint.push_str(" stroke-dasharray=\"5 4\"");
        }
    }
    if shape.alpha != 1.0 {
        let _ = write!(paint, " opacity=\"{}\"", Fixed::<2>(shape.alpha));
    }
    paint
}

/// A path's `d` attribute: its moves and lines, and a close when `closed`.
fn path_data(points: &[PathPoint], closed: bool) -> String {
    let mut d = String::new();
    for point in points {
        let _ = match point {
            PathPoint::Move(x, y) => write!(d, "M{},{}", d1(*x), d1(*y)),
            PathPoint::Line(x, y) => write!(d, "L{},{}", d1(*x), d1(*y)),
        };
    }
    if closed {
        d.push('Z');
    }
    d
}

/// A coordinate to a tenth of a pixel, as `{:.1}` would write it.
fn d1(value: f64) -> Fixed<1> {
    Fixed(value)
}

/// Escapes the five characters XML gives meaning to, for text and attribute values alike.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            _ => out.push(c),
        }
    }
    out
}
