//! Paints a `view::Drawing` on a canvas and answers "what is under this pixel". Where every
//! shape goes and which ink it takes is `view::plot`'s decision, the same one the SVG export
//! draws; this module only turns shapes into canvas calls, with the inks' colours read from the
//! `--tl-*` properties that `www/style.css` carries for both themes.

use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, Element, HtmlCanvasElement};

use super::dom;
use idemlab_lab::view::{Drawing, Geometry, Group, Overlay, Paint, PathPoint, Scene, Shape};
use idemlab_lab::view::{Font, Ink, Timeline, View, Viewport, DASH_PX};

/// Lane labels sit in this gutter, left of time zero.
pub const GUTTER_PX: f64 = idemlab_lab::view::GUTTER_PX;

/// Colours by ink name, read from the `--tl-NAME` custom properties of the timeline element.
struct Palette {
    style: web_sys::CssStyleDeclaration,
    /// A few dozen inks at most: a list searched in order costs less wasm than a map.
    cache: Vec<(&'static str, String)>,
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
            cache: Vec::new(),
        }
    }

    fn get(&mut self, name: &'static str) -> &str {
        let at = match self.cache.iter().position(|(known, _)| *known == name) {
            Some(at) => at,
            None => {
                let value = (self.style)
                    .get_property_value(&format!("--tl-{name}"))
                    .unwrap_or_default();
                let value = value.trim();
                let value = if value.is_empty() { "#888" } else { value };
                self.cache.push((name, value.to_string()));
                self.cache.len() - 1
            }
        };
        &self.cache[at].1
    }
}

/// Everything one paint needs: the canvas, the shared time axis and the cursor.
pub struct Frame<'a> {
    pub canvas: &'a HtmlCanvasElement,
    pub timeline: &'a Timeline,
    pub viewport: Viewport,
    /// What the viewport shows, computed once per viewport (see `Run::view`), not per frame.
    pub view: &'a View,
    /// The cursor, fading and outlines, as `app::overlay` decides them for this side.
    pub overlay: Overlay,
}

pub fn canvas_height_px(timeline: &Timeline, overlay: &Overlay) -> f64 {
    idemlab_lab::view::plot_height_px(timeline.lanes().len(), overlay.lane_px())
}

impl Frame<'_> {
    /// Sizes the canvas for the device's pixel ratio, then paints the plot's drawing list.
    /// Returns how many marks it drew (the page's `data-drawn`, which the e2e checks read).
    pub fn paint(&self) -> usize {
        let ctx = self.context();
        let scene = Scene {
            timeline: self.timeline,
            viewport: self.viewport,
            view: self.view,
            overlay: self.overlay,
            links: false,
            top_px: 0.0,
        };
        let drawing = idemlab_lab::view::plot(&scene);
        let mut painter = Painter {
            ctx: &ctx,
            palette: Palette::new(self.canvas.unchecked_ref()),
            font: Some(Font::Plain),
            dashed: None,
            fill: None,
            stroke: None,
            alpha: None,
        };
        painter.drawing(&drawing);
        drawing.mark_count()
    }

    fn context(&self) -> CanvasRenderingContext2d {
        let ratio = dom::window().device_pixel_ratio().max(1.0);
        let width_css = GUTTER_PX + f64::from(self.viewport.width_px());
        let height_css = canvas_height_px(self.timeline, &self.overlay);
        let canvas = self.canvas;
        let (width_px, height_px) = ((width_css * ratio) as u32, (height_css * ratio) as u32);
        // Resizing a canvas reallocates it: do it only when the size changed, not every frame.
        if canvas.width() != width_px || canvas.height() != height_px {
            canvas.set_width(width_px);
            canvas.set_height(height_px);
            let style = canvas.unchecked_ref::<web_sys::HtmlElement>().style();
            let px = |v: f64| format!("{}px", idemlab_lab::decimal::Fixed::<2>(v));
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
        ctx.set_font(Font::Plain.css());
        ctx.set_text_baseline("alphabetic");
        // Round, as the export's stylesheet has it: a label's halo has no spikes at sharp glyphs.
        ctx.set_line_join("round");
        ctx
    }

    /// The mark nearest to a point in CSS pixels, within a few pixels, for hover and click.
    pub fn hit(&self, x_css: f64, y_css: f64) -> Option<usize> {
        let (timeline, view, viewport) = (self.timeline, self.view, self.viewport);
        let ix = idemlab_lab::view::hit(timeline, view, viewport, &self.overlay, (x_css, y_css))?;
        Some(ix as usize)
    }
}

/// Turns shapes into canvas calls. Shapes come grouped by mark; a group marked `clip` is cut
/// to the plot, so a mark that began before the window stays out of the lane labels.
struct Painter<'a> {
    ctx: &'a CanvasRenderingContext2d,
    palette: Palette,
    /// The font and dash set on the context, `None` when unknown (after a `restore`): setting
    /// them per shape costs a call into JavaScript each, and a dash an array too.
    font: Option<Font>,
    dashed: Option<bool>,
    /// Likewise the fill and stroke inks and the alpha last set.
    fill: Option<Ink>,
    stroke: Option<Ink>,
    alpha: Option<f64>,
}

impl Painter<'_> {
    fn drawing(&mut self, drawing: &Drawing) {
        let mut clipped = false;
        for group in &drawing.groups {
            if group.clip != clipped {
                self.clip(group, drawing, clipped);
                clipped = group.clip;
            }
            for shape in &group.shapes {
                self.shape(shape);
            }
        }
        if clipped {
            self.ctx.restore();
        }
        self.ctx.set_global_alpha(1.0);
    }

    fn clip(&mut self, group: &Group, drawing: &Drawing, clipped: bool) {
        let ctx = self.ctx;
        if clipped {
            ctx.restore();
            // `restore` brings back the state saved with the clip, whatever was set since.
            (self.font, self.dashed) = (None, None);
            (self.fill, self.stroke, self.alpha) = (None, None, None);
        }
        if group.clip {
            ctx.save();
            let r = drawing.clip;
            ctx.begin_path();
            ctx.rect(r.x, r.y, r.w, r.h);
            ctx.clip();
        }
    }

    fn shape(&mut self, shape: &Shape) {
        self.set_ink(shape);
        let ctx = self.ctx;
        match &shape.geometry {
            Geometry::Rect(r) => match shape.paint {
                Paint::Fill => ctx.fill_rect(r.x, r.y, r.w, r.h),
                Paint::Stroke { .. } => ctx.stroke_rect(r.x, r.y, r.w, r.h),
            },
            Geometry::Line { from, to } => {
                ctx.begin_path();
                ctx.move_to(from.0, from.1);
                ctx.line_to(to.0, to.1);
                ctx.stroke();
            }
            Geometry::Circle { at, r } => {
                ctx.begin_path();
                ctx.arc(at.0, at.1, *r, 0.0, std::f64::consts::TAU).ok();
                self.finish(shape.paint);
            }
            Geometry::Path { points, closed } => {
                ctx.begin_path();
                for point in points {
                    match *point {
                        PathPoint::Move(x, y) => ctx.move_to(x, y),
                        PathPoint::Line(x, y) => ctx.line_to(x, y),
                    }
                }
                if *closed {
                    ctx.close_path();
                }
                self.finish(shape.paint);
            }
            Geometry::Text {
                at,
                text,
                font,
                anchor,
            } => self.text(shape.paint, *at, text, *font, *anchor),
        }
    }

    /// Sets the context's alpha, colour, width and dash for `shape`, each only when it changed:
    /// a context write costs more than the comparison.
    fn set_ink(&mut self, shape: &Shape) {
        let ctx = self.ctx;
        if self.alpha != Some(shape.alpha) {
            ctx.set_global_alpha(shape.alpha);
            self.alpha = Some(shape.alpha);
        }
        match shape.paint {
            Paint::Fill if self.fill != Some(shape.ink) => {
                ctx.set_fill_style_str(self.palette.get(shape.ink.name()));
                self.fill = Some(shape.ink);
            }
            Paint::Fill => {}
            Paint::Stroke { width_px, dashed } => {
                if self.stroke != Some(shape.ink) {
                    ctx.set_stroke_style_str(self.palette.get(shape.ink.name()));
                    self.stroke = Some(shape.ink);
                }
                ctx.set_line_width(width_px);
                if self.dashed != Some(dashed) {
                    let dash = if dashed {
                        js_sys::Array::of2(&DASH_PX[0].into(), &DASH_PX[1].into())
                    } else {
                        js_sys::Array::new()
                    };
                    ctx.set_line_dash(&dash).ok();
                    self.dashed = Some(dashed);
                }
            }
        }
    }

    fn text(
        &mut self,
        paint: Paint,
        at: (f64, f64),
        text: &str,
        font: idemlab_lab::view::Font,
        anchor: idemlab_lab::view::Anchor,
    ) {
        let ctx = self.ctx;
        if self.font != Some(font) {
            ctx.set_font(font.css());
            self.font = Some(font);
        }
        ctx.set_text_align(match anchor {
            idemlab_lab::view::Anchor::Start => "left",
            idemlab_lab::view::Anchor::Middle => "center",
            idemlab_lab::view::Anchor::End => "right",
        });
        // The width label placement measured is a maximum: a font wider than the measure's is
        // squeezed into it rather than run over a neighbouring label.
        let width_px = font.width_px(text);
        match paint {
            Paint::Fill => ctx.fill_text_with_max_width(text, at.0, at.1, width_px),
            Paint::Stroke { .. } => ctx.stroke_text_with_max_width(text, at.0, at.1, width_px),
        }
        .ok();
    }

    fn finish(&self, paint: Paint) {
        match paint {
            Paint::Fill => self.ctx.fill(),
            Paint::Stroke { .. } => self.ctx.stroke(),
        }
    }
}
