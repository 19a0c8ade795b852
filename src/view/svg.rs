//! SVG export: a standalone, well-formed drawing of one viewport of a timeline.
//!
//! Used for "export SVG" and for drawing small traces. Styling is by class; the embedded
//! `<style>` gives light colours and a `prefers-color-scheme: dark` variant, so the file looks
//! right wherever it is opened. All text goes through `escape`. Marks carry `data-event` (the
//! trace event that starts them) and `data-events` (all of them) for the page's table.

use std::fmt::Write as _;

use super::cull::View;
use super::layout::{ms_text, Timeline};
use super::mark::LaneIx;
use super::paint::{Painter, CHAR_PX};
use super::scale::Viewport;

/// How the drawing is laid out around the viewport's width.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SvgOptions {
    /// The document's `<title>` and heading, e.g. the scenario query.
    pub title: String,
    pub lane_height_px: u32,
    /// Room at the left for the lane labels.
    pub label_width_px: u32,
    pub legend: bool,
    /// Print labels next to marks; where two would overlap, one is left to its tooltip.
    pub labels: bool,
}

impl Default for SvgOptions {
    fn default() -> Self {
        SvgOptions {
            title: "idemlab race timeline".into(),
            lane_height_px: 56,
            label_width_px: 150,
            legend: true,
            labels: true,
        }
    }
}

const PAD_PX: f64 = 12.0;
const TITLE_PX: f64 = 28.0;
const LEGEND_ROW_PX: f64 = 18.0;
const AXIS_PX: f64 = 22.0;

/// The class colours for light and dark themes, as custom properties so that the page's own
/// stylesheet can reuse the names. `--c` is a mark's own colour, set by its class.
pub const STYLE: &str = "
.idemlab{--c:var(--span);--bg:#ffffff;--fg:#1f2328;--muted:#59636e;--grid:#d1d9e0;--req:#0969da;--resp:#1a7f37;--call:#8250df;--reply:#9a6700;--bad:#cf222e;--warn:#bc4c00;--race:#d4a72c;--span:#6e7781}
@media (prefers-color-scheme: dark){.idemlab{--bg:#0d1117;--fg:#e6edf3;--muted:#9198a1;--grid:#3d444d;--req:#4493f8;--resp:#3fb950;--call:#ab7df8;--reply:#d29922;--bad:#f85149;--warn:#db6d28;--race:#e3b341;--span:#9198a1}}
.idemlab .bg{fill:var(--bg)}
.idemlab text{fill:var(--muted);font:11px system-ui,sans-serif}
.idemlab .heading{fill:var(--fg);font-size:14px;font-weight:600}
.idemlab .lane-label{fill:var(--fg);font-size:12px}
.idemlab .lane-line,.idemlab .tick line{stroke:var(--grid);stroke-width:1}
.idemlab .request{--c:var(--req)}
.idemlab .response,.idemlab .order-ok,.idemlab .reply-ok,.idemlab .commit,.idemlab .claim-ok{--c:var(--resp)}
.idemlab .charge-call,.idemlab .charge,.idemlab .applied,.idemlab .ledger-row,.idemlab .write{--c:var(--call)}
.idemlab .charge-reply{--c:var(--reply)}
.idemlab .queue-event,.idemlab .receipt{--c:var(--call)}
.idemlab .queue-ack,.idemlab .inbox-new{--c:var(--resp)}
.idemlab .inbox-hit{--c:var(--req)}
.idemlab .redeliver{--c:var(--warn)}
.idemlab .receipt-duplicate,.idemlab .dead-letter{--c:var(--bad)}
.idemlab .lookup-miss,.idemlab .lookup-hit,.idemlab .store{--c:var(--req)}
.idemlab .timeout,.idemlab .order-unknown,.idemlab .reply-conflict,.idemlab .claim-blocked,.idemlab .blocked{--c:var(--warn)}
.idemlab .order-failed,.idemlab .reply-error,.idemlab .claim-conflict,.idemlab .rollback,.idemlab .key-expired,.idemlab .charge-duplicate,.idemlab .applied-duplicate,.idemlab .txn-rollback,.idemlab .api-down{--c:var(--bad)}
.idemlab .ledger-replaced,.idemlab .rerun,.idemlab .cap-reached{--c:var(--warn)}
.idemlab .race{--c:var(--race)}
.idemlab .arrow line{stroke:var(--c);stroke-width:1.5}
.idemlab .arrow .head{fill:var(--c)}
.idemlab .arrow text{fill:var(--c)}
.idemlab .dropped line{stroke-dasharray:5 3}
.idemlab .in-flight line{stroke-dasharray:1 3}
.idemlab .cross{stroke:var(--bad);stroke-width:2}
.idemlab .cause{fill:var(--bad)}
.idemlab .point circle{fill:var(--c)}
.idemlab .duplicate circle{stroke:var(--fg);stroke-width:1.5}
.idemlab .duplicate text{fill:var(--bad);font-weight:600}
.idemlab .charge-replay circle,.idemlab .reply-replay circle{fill:var(--bg);stroke:var(--resp);stroke-width:1.5}
.idemlab .span rect{fill:var(--c);opacity:.4}
.idemlab .band rect{fill:var(--c);opacity:.18}
.idemlab .ledger-replaced rect,.idemlab .rerun rect,.idemlab .cap-reached rect{opacity:.6}
.idemlab .region rect{fill:var(--c);fill-opacity:.22;stroke:var(--c);stroke-dasharray:4 2}
.idemlab .density rect{fill:var(--fg)}
.idemlab .density-race rect{fill:var(--race)}
.idemlab .density-duplicate rect{fill:var(--bad)}
.idemlab .legend text{fill:var(--fg)}
";

/// Where things go on the page, in pixels.
pub(super) struct Frame {
    pub viewport: Viewport,
    pub plot_x: f64,
    pub plot_w: f64,
    pub legend_y: f64,
    pub axis_y: f64,
    pub lanes_y: f64,
    pub lane_h: f64,
    pub width: f64,
    pub height: f64,
}

impl Frame {
    fn new(timeline: &Timeline, viewport: &Viewport, options: &SvgOptions) -> Frame {
        let plot_x = f64::from(options.label_width_px);
        let plot_w = f64::from(viewport.width_px());
        let width = plot_x + plot_w + PAD_PX;
        let legend_rows = if options.legend {
            legend_rows(width - 2.0 * PAD_PX)
        } else {
            0
        };
        let legend_y = TITLE_PX;
        let axis_y = legend_y + f64::from(legend_rows) * LEGEND_ROW_PX + AXIS_PX;
        let lanes_y = axis_y + 6.0;
        let lane_h = f64::from(options.lane_height_px.max(8));
        // Density mode draws its race and duplicate rows just under the last lane's line.
        let height = lanes_y + lane_h * timeline.lanes.len() as f64 + PAD_PX;
        Frame {
            viewport: *viewport,
            plot_x,
            plot_w,
            legend_y,
            axis_y,
            lanes_y,
            lane_h,
            width,
            height,
        }
    }

    pub fn lane_y(&self, lane: LaneIx) -> f64 {
        self.lanes_y + self.lane_h * (f64::from(lane) + 0.5)
    }

    pub fn lane_top(&self, lane: LaneIx) -> f64 {
        self.lanes_y + self.lane_h * f64::from(lane)
    }

    pub fn x(&self, time_us: u64) -> f64 {
        self.plot_x + self.viewport.x_px(time_us)
    }

    /// An x kept within `bleed_px` of the plot, for shapes that run past the window.
    pub fn x_clamped(&self, time_us: u64, bleed_px: f64) -> f64 {
        let x = self.x(time_us);
        x.clamp(self.plot_x - bleed_px, self.plot_x + self.plot_w + bleed_px)
    }
}

/// Draws one viewport of a timeline as a standalone SVG document.
pub fn svg(timeline: &Timeline, viewport: &Viewport, options: &SvgOptions) -> String {
    let frame = Frame::new(timeline, viewport, options);
    let mut out = String::with_capacity(16 * 1024);
    let _ = write!(
        out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"idemlab\" width=\"{w:.0}\" \
         height=\"{h:.0}\" viewBox=\"0 0 {w:.0} {h:.0}\" role=\"img\">\n<title>{}</title>\n\
         <style>{STYLE}</style>\n<rect class=\"bg\" width=\"{w:.0}\" height=\"{h:.0}\"/>\n",
        escape(&options.title),
        w = frame.width,
        h = frame.height,
    );
    heading(&mut out, timeline, viewport, options);
    if options.legend {
        legend(&mut out, &frame);
    }
    axis(&mut out, &frame, timeline.lanes.len());
    lane_labels(&mut out, &frame, timeline);
    let _ = writeln!(
        out,
        "<clipPath id=\"idemlab-plot\"><rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" \
         height=\"{:.1}\"/></clipPath>\n<g clip-path=\"url(#idemlab-plot)\">",
        frame.plot_x,
        frame.lanes_y,
        frame.plot_w,
        frame.lane_h * timeline.lanes.len() as f64
    );
    let mut painter = Painter::new(&mut out, &frame, timeline, options.labels);
    match timeline.view(viewport) {
        View::Marks { marks } => painter.marks(&marks),
        View::Density(density) => painter.density(&density),
    }
    out.push_str("</g>\n</svg>\n");
    out
}

fn heading(out: &mut String, timeline: &Timeline, viewport: &Viewport, options: &SvgOptions) {
    let mut text = format!(
        "{} · {} to {}",
        options.title,
        ms_text(viewport.t0_us()),
        ms_text(viewport.t1_us())
    );
    if timeline.truncated {
        text.push_str(" · truncated at events_max");
    }
    let _ = writeln!(
        out,
        "<text class=\"heading\" x=\"{PAD_PX}\" y=\"19\">{}</text>",
        escape(&text)
    );
}

/// The legend: one swatch per kind of thing worth telling apart.
const LEGEND: [(&str, &str, &str); 12] = [
    ("arrow request", "line", "request"),
    ("arrow response", "line", "response"),
    ("arrow charge-call", "line", "charge call"),
    ("arrow charge-reply", "line", "charge reply"),
    ("arrow request dropped", "line", "dropped ✕"),
    ("point charge", "circle", "charge"),
    ("point charge-duplicate", "circle", "duplicate charge"),
    ("point charge-replay", "circle", "replayed"),
    ("span txn", "rect", "transaction"),
    ("span blocked", "rect", "blocked wait"),
    ("band api-down", "rect", "API down"),
    ("region race", "rect", "race"),
];

fn legend_item_px(label: &str) -> f64 {
    24.0 + CHAR_PX * label.chars().count() as f64 + 12.0
}

fn legend_rows(room_px: f64) -> u32 {
    let mut rows = 1;
    let mut x = 0.0;
    for (_, _, label) in LEGEND {
        let w = legend_item_px(label);
        if x > 0.0 && x + w > room_px {
            rows += 1;
            x = 0.0;
        }
        x += w;
    }
    rows
}

fn legend(out: &mut String, frame: &Frame) {
    out.push_str("<g class=\"legend\">\n");
    let room_px = frame.width - 2.0 * PAD_PX;
    let (mut x, mut y) = (0.0, frame.legend_y);
    for (class, shape, label) in LEGEND {
        let w = legend_item_px(label);
        if x > 0.0 && x + w > room_px {
            x = 0.0;
            y += LEGEND_ROW_PX;
        }
        let (sx, sy) = (PAD_PX + x, y + 4.0);
        let swatch = match shape {
            "line" => format!(
                "<line x1=\"{sx:.1}\" y1=\"{:.1}\" x2=\"{:.1}\" y2=\"{:.1}\"/>",
                sy + 5.0,
                sx + 18.0,
                sy + 5.0
            ),
            "circle" => format!(
                "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4\"/>",
                sx + 9.0,
                sy + 5.0
            ),
            _ => format!("<rect x=\"{sx:.1}\" y=\"{sy:.1}\" width=\"18\" height=\"10\"/>"),
        };
        let _ = writeln!(
            out,
            "<g class=\"{class}\">{swatch}<text x=\"{:.1}\" y=\"{:.1}\">{}</text></g>",
            sx + 24.0,
            sy + 9.0,
            escape(label)
        );
        x += w;
    }
    out.push_str("</g>\n");
}

fn axis(out: &mut String, frame: &Frame, lanes: usize) {
    out.push_str("<g class=\"axis\">\n");
    let bottom = frame.lanes_y + frame.lane_h * lanes as f64;
    for tick in frame.viewport.ticks(80) {
        let x = frame.plot_x + tick.x_px;
        let _ = writeln!(
            out,
            "<g class=\"tick\"><line x1=\"{x:.1}\" y1=\"{:.1}\" x2=\"{x:.1}\" y2=\"{bottom:.1}\"/><text x=\"{x:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text></g>",
            frame.axis_y - 2.0,
            frame.axis_y - 6.0,
            escape(&tick.label)
        );
    }
    out.push_str("</g>\n");
}

fn lane_labels(out: &mut String, frame: &Frame, timeline: &Timeline) {
    out.push_str("<g class=\"lanes\">\n");
    for (ix, lane) in timeline.lanes.iter().enumerate() {
        let ix = ix as LaneIx;
        let y = frame.lane_y(ix);
        let class = if lane.rerun { "lane rerun" } else { "lane" };
        let _ = writeln!(
            out,
            "<g class=\"{class}\"><line class=\"lane-line\" x1=\"{:.1}\" y1=\"{y:.1}\" x2=\"{:.1}\" y2=\"{y:.1}\"/><text class=\"lane-label\" x=\"{PAD_PX}\" y=\"{:.1}\">{}</text></g>",
            frame.plot_x,
            frame.plot_x + frame.plot_w,
            y + 4.0,
            escape(&lane.label)
        );
    }
    out.push_str("</g>\n");
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
