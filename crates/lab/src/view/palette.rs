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

/// Every ink, in the order the stylesheet lists them. Classes that share a legend entry share
/// a colour (`view::legend`); the entries that share a shape are told apart by colour, for
/// colour-blind readers too: `tests/palette.rs` simulates protanopia, deuteranopia and
/// tritanopia (Machado et al. 2009) and requires a CIEDE2000 distance between them. The
/// colours were chosen by a search under those constraints from a start by meaning: harm is
/// red, success green, waiting and timing out orange, a charge purple, a lookup that finds
/// nothing blue. Every colour but the lanes' and the grid's keeps a contrast of 3:1 or more
/// against both lane backgrounds of its theme (WCAG 2.2's 1.4.11, non-text contrast), bars,
/// region borders and the selection outline included; the grid only echoes the tick labels.
pub const PALETTE: [Swatch; 61] = [
    swatch(Ink::Panel, "#ffffff", "#1d2025"),
    swatch(Ink::Lane, "#f5f6f8", "#1d2025"),
    swatch(Ink::LaneAlt, "#eceef2", "#23272d"),
    swatch(Ink::Text, "#1d1f23", "#e7e9ec"),
    swatch(Ink::Muted, "#5d6470", "#a3aab5"),
    swatch(Ink::Grid, "#85898f", "#6d7177"),
    swatch(Ink::Cursor, "#2458c6", "#7aa5ff"),
    swatch(Ink::Selected, "#b06a00", "#f0a000"),
    swatch(Ink::Density, "#5b6b86", "#8fa3c4"),
    swatch(Ink::Drop, "#f70a65", "#fe8a66"),
    swatch(Ink::RaceText, "#7a4a00", "#ffd08a"),
    mark(Class::Request, "#382dab", "#868ae9"),
    mark(Class::Response, "#388168", "#3ba58f"),
    mark(Class::ChargeCall, "#188de9", "#aafdeb"),
    mark(Class::ChargeReply, "#188de9", "#aafdeb"),
    mark(Class::PodStart, "#4c505f", "#beb9ca"),
    mark(Class::OrderStart, "#4c505f", "#beb9ca"),
    mark(Class::Timeout, "#e24108", "#ff9005"),
    mark(Class::Retry, "#e24108", "#ff9005"),
    mark(Class::OrderOk, "#388168", "#3ba58f"),
    mark(Class::OrderFailed, "#771529", "#e44a5f"),
    mark(Class::OrderUnknown, "#897e48", "#fbe656"),
    mark(Class::AttemptRow, "#4c505f", "#beb9ca"),
    mark(Class::LookupMiss, "#225bc0", "#59c2fd"),
    mark(Class::LookupHit, "#388168", "#3ba58f"),
    mark(Class::ClaimOk, "#388168", "#3ba58f"),
    mark(Class::ClaimBlocked, "#805337", "#c9af82"),
    mark(Class::ClaimConflict, "#897e48", "#fbe656"),
    mark(Class::KeyExpired, "#771529", "#e44a5f"),
    mark(Class::Charge, "#b3609f", "#bf74bb"),
    mark(Class::ChargeDuplicate, "#771529", "#e44a5f"),
    mark(Class::ChargeReplay, "#388168", "#3ba58f"),
    mark(Class::LedgerRow, "#4c505f", "#beb9ca"),
    mark(Class::Write, "#4c505f", "#beb9ca"),
    mark(Class::Applied, "#b3609f", "#bf74bb"),
    mark(Class::AppliedDuplicate, "#771529", "#e44a5f"),
    mark(Class::Store, "#388168", "#3ba58f"),
    mark(Class::Commit, "#388168", "#3ba58f"),
    mark(Class::Rollback, "#4c505f", "#beb9ca"),
    mark(Class::ReplyOk, "#388168", "#3ba58f"),
    mark(Class::ReplyReplay, "#388168", "#3ba58f"),
    mark(Class::ReplyConflict, "#897e48", "#fbe656"),
    mark(Class::ReplyError, "#771529", "#e44a5f"),
    mark(Class::Txn, "#5b80d0", "#92bce3"),
    mark(Class::TxnRollback, "#e0336e", "#f673a3"),
    mark(Class::Blocked, "#805337", "#c9af82"),
    mark(Class::ApiDown, "#734a8f", "#7094ac"),
    mark(Class::LedgerReplaced, "#d20fe5", "#b913f7"),
    mark(Class::Rerun, "#192167", "#7ca9ea"),
    mark(Class::CapReached, "#746363", "#c8b5ab"),
    mark(Class::Race, "#a15514", "#bd7619"),
    mark(Class::QueueEvent, "#935f95", "#d29dc3"),
    mark(Class::QueueAck, "#566400", "#e5ff57"),
    mark(Class::InboxNew, "#388168", "#3ba58f"),
    mark(Class::InboxHit, "#388168", "#3ba58f"),
    mark(Class::Receipt, "#b3609f", "#bf74bb"),
    mark(Class::ReceiptDuplicate, "#771529", "#e44a5f"),
    mark(Class::Redeliver, "#e24108", "#ff9005"),
    mark(Class::DeadLetter, "#771529", "#e44a5f"),
    mark(Class::ConsumerCrash, "#771529", "#e44a5f"),
    mark(Class::MailReplay, "#388168", "#3ba58f"),
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
    out.push_str("  }\n}\n\n");
    // The legend's swatches are inline SVGs with the export's classes (`view::legend::html`).
    for ink in super::legend::inks() {
        let name = ink.name();
        let _ = writeln!(
            out,
            ".key .f-{name} {{ fill: var(--tl-{name}); }} \
             .key .s-{name} {{ fill: none; stroke: var(--tl-{name}); }}"
        );
    }
    out.push_str(CSS_END);
    out.push('\n');
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
        ".idemlab text{font:12px system-ui,sans-serif;stroke-linejoin:round}\n\
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
