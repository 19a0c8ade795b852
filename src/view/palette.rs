//! The timeline's colours: one table, light and dark, for the page and the SVG export alike.
//!
//! The drawing names an [`Ink`] for every shape; nothing else in the crate writes a colour.
//! [`css_block`] is the `--tl-*` block of `www/style.css` (the canvas reads those properties),
//! and [`svg_style`] is the stylesheet inside an exported file, so a mark has the same colour in
//! both. `tests/palette.rs` fails when the stylesheet's block differs from [`css_block`].

use std::fmt::Write as _;

use super::mark::Class;

/// A colour of the palette: a mark's class, or one of the few colours around the marks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Ink {
    /// Behind everything: the timeline's panel.
    Panel,
    /// Lane backgrounds, alternating.
    Lane,
    LaneAlt,
    Text,
    Muted,
    Grid,
    Cursor,
    /// The outline of a selected or highlighted mark.
    Selected,
    /// Per-pixel-column bars when marks outnumber pixels.
    Density,
    /// The ✕ of a dropped message and its cause.
    Drop,
    /// The race's caption, darker (lighter in the dark theme) than its shading.
    RaceText,
    Mark(Class),
}

impl Ink {
    /// The name after `--tl-`: a mark's class name, or the ink's own.
    pub fn name(self) -> &'static str {
        match self {
            Ink::Panel => "panel",
            Ink::Lane => "lane",
            Ink::LaneAlt => "lane-alt",
            Ink::Text => "text",
            Ink::Muted => "muted",
            Ink::Grid => "grid",
            Ink::Cursor => "cursor",
            Ink::Selected => "selected",
            Ink::Density => "density",
            Ink::Drop => "drop",
            Ink::RaceText => "race-text",
            Ink::Mark(class) => class.name(),
        }
    }
}

/// One colour in both themes, as `#rrggbb`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Swatch {
    pub ink: Ink,
    pub light: &'static str,
    pub dark: &'static str,
}

const fn swatch(ink: Ink, light: &'static str, dark: &'static str) -> Swatch {
    Swatch { ink, light, dark }
}

const fn mark(class: Class, light: &'static str, dark: &'static str) -> Swatch {
    swatch(Ink::Mark(class), light, dark)
}

/// Every ink, in the order the stylesheet lists them. Colours for a kind of harm (duplicates,
/// errors, outages) are the red family; successes green; requests blue; effects purple;
/// waiting and timing out orange and brown. Every dot, line and text colour keeps a contrast of
/// 3:1 or more against both lane backgrounds of its theme (WCAG's rule for graphics), which
/// `tests/palette.rs` checks; shaded regions and bars are exempt.
pub const PALETTE: [Swatch; 61] = [
    swatch(Ink::Panel, "#ffffff", "#1d2025"),
    swatch(Ink::Lane, "#f5f6f8", "#1d2025"),
    swatch(Ink::LaneAlt, "#eceef2", "#23272d"),
    swatch(Ink::Text, "#1d1f23", "#e7e9ec"),
    swatch(Ink::Muted, "#5d6470", "#a3aab5"),
    swatch(Ink::Grid, "#dde1e7", "#30353d"),
    swatch(Ink::Cursor, "#2458c6", "#7aa5ff"),
    swatch(Ink::Selected, "#f0a000", "#f0a000"),
    swatch(Ink::Density, "#5b6b86", "#8fa3c4"),
    swatch(Ink::Drop, "#c4262e", "#ff7b7f"),
    swatch(Ink::RaceText, "#7a4a00", "#ffd08a"),
    mark(Class::Request, "#2f6fdf", "#6f9eff"),
    mark(Class::Response, "#1a9160", "#4cc38a"),
    mark(Class::ChargeCall, "#6b5bd6", "#a99cf5"),
    mark(Class::ChargeReply, "#6b5bd6", "#a99cf5"),
    mark(Class::PodStart, "#5d6470", "#a3aab5"),
    mark(Class::OrderStart, "#5d6470", "#a3aab5"),
    mark(Class::Timeout, "#c47423", "#d9822b"),
    mark(Class::Retry, "#c47423", "#d9822b"),
    mark(Class::OrderOk, "#1a9160", "#4cc38a"),
    mark(Class::OrderFailed, "#c4262e", "#ff7b7f"),
    mark(Class::OrderUnknown, "#a78300", "#b08a00"),
    mark(Class::AttemptRow, "#7a8494", "#7a8494"),
    mark(Class::LookupMiss, "#af7f0a", "#e0b43a"),
    mark(Class::LookupHit, "#1a9160", "#4cc38a"),
    mark(Class::ClaimOk, "#1a9160", "#4cc38a"),
    mark(Class::ClaimBlocked, "#7d5a3c", "#c49a6c"),
    mark(Class::ClaimConflict, "#8a53c8", "#b68cf0"),
    mark(Class::KeyExpired, "#c4262e", "#ff7b7f"),
    mark(Class::Charge, "#8a53c8", "#b68cf0"),
    mark(Class::ChargeDuplicate, "#c4262e", "#ff7b7f"),
    mark(Class::ChargeReplay, "#1a9160", "#4cc38a"),
    mark(Class::LedgerRow, "#7a8494", "#7a8494"),
    mark(Class::Write, "#7a8494", "#7a8494"),
    mark(Class::Applied, "#8a53c8", "#b68cf0"),
    mark(Class::AppliedDuplicate, "#c4262e", "#ff7b7f"),
    mark(Class::Store, "#1a9160", "#4cc38a"),
    mark(Class::Commit, "#1a9160", "#4cc38a"),
    mark(Class::Rollback, "#7d5a5a", "#b08a8a"),
    mark(Class::ReplyOk, "#1a9160", "#4cc38a"),
    mark(Class::ReplyReplay, "#1a9160", "#4cc38a"),
    mark(Class::ReplyConflict, "#a78300", "#b08a00"),
    mark(Class::ReplyError, "#c4262e", "#ff7b7f"),
    mark(Class::Txn, "#9fb5dc", "#5a7bbd"),
    mark(Class::TxnRollback, "#b9aebf", "#8a7f94"),
    mark(Class::Blocked, "#a8825f", "#c49a6c"),
    mark(Class::ApiDown, "#c4262e", "#ff7b7f"),
    mark(Class::LedgerReplaced, "#c4262e", "#ff7b7f"),
    mark(Class::Rerun, "#2458c6", "#7aa5ff"),
    mark(Class::CapReached, "#5d6470", "#a3aab5"),
    mark(Class::Race, "#e08a00", "#ffb44a"),
    mark(Class::QueueEvent, "#b0569a", "#e08cc8"),
    mark(Class::QueueAck, "#1a9160", "#4cc38a"),
    mark(Class::InboxNew, "#1a9160", "#4cc38a"),
    mark(Class::InboxHit, "#2f6fdf", "#6f9eff"),
    mark(Class::Receipt, "#8a53c8", "#b68cf0"),
    mark(Class::ReceiptDuplicate, "#c4262e", "#ff7b7f"),
    mark(Class::Redeliver, "#c47423", "#f0a35a"),
    mark(Class::DeadLetter, "#c4262e", "#ff7b7f"),
    mark(Class::ConsumerCrash, "#c4262e", "#ff7b7f"),
    mark(Class::MailReplay, "#1a9160", "#4cc38a"),
];

/// The first and last lines of the block in `www/style.css`.
pub const CSS_BEGIN: &str = "/* BEGIN timeline palette: generated from src/view/palette.rs by \
                             `UPDATE_EXPECT=1 cargo test --test palette`; edit the table there. */";
pub const CSS_END: &str = "/* END timeline palette */";

/// The page's `--tl-*` properties for both themes, as `www/style.css` carries them.
pub fn css_block() -> String {
    let mut out = format!("{CSS_BEGIN}\n:root {{\n");
    for swatch in &PALETTE {
        let _ = writeln!(out, "  --tl-{}: {};", swatch.ink.name(), swatch.light);
    }
    out.push_str("}\n\n@media (prefers-color-scheme: dark) {\n  :root {\n");
    for swatch in &PALETTE {
        let _ = writeln!(out, "    --tl-{}: {};", swatch.ink.name(), swatch.dark);
    }
    let _ = writeln!(out, "  }}\n}}\n{CSS_END}");
    out
}

/// The stylesheet of an exported SVG: the same properties scoped to the drawing, and a fill
/// (`f-NAME`) and a stroke (`s-NAME`) class per ink, which the writer puts on every shape.
pub fn svg_style() -> String {
    let vars = |dark: bool| {
        let mut out = String::new();
        for swatch in &PALETTE {
            let colour = if dark { swatch.dark } else { swatch.light };
            let _ = write!(out, "--tl-{}:{colour};", swatch.ink.name());
        }
        out
    };
    let mut out = format!(
        "\n.idemlab{{{}}}\n@media (prefers-color-scheme: dark){{.idemlab{{{}}}}}\n",
        vars(false),
        vars(true)
    );
    out.push_str(
        ".idemlab text{font:12px system-ui,sans-serif}\n\
         .idemlab .bold{font-weight:600}\n\
         .idemlab .heading{font-size:14px;font-weight:600}\n",
    );
    for swatch in &PALETTE {
        let name = swatch.ink.name();
        let _ = writeln!(
            out,
            ".f-{name}{{fill:var(--tl-{name})}}.s-{name}{{fill:none;stroke:var(--tl-{name})}}"
        );
    }
    out
}

/// The colour of an ink in one theme.
pub fn colour(ink: Ink, dark: bool) -> &'static str {
    let swatch = PALETTE
        .iter()
        .find(|swatch| swatch.ink == ink)
        .expect("every ink is in the palette (tests/palette.rs checks it)");
    if dark {
        swatch.dark
    } else {
        swatch.light
    }
}
