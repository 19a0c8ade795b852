//! The legend: one entry per kind of mark a reader must tell apart, each with the shape and
//! ink the plot draws it in and the mark classes it stands for.
//!
//! The export draws it above the plot ([`svg`](super::svg)), and the page's legend in
//! `www/index.html` is generated from it ([`html`]; `UPDATE_EXPECT=1 cargo test --test palette`
//! rewrites it), so the key on the page, the key in a file and the marks cannot disagree.
//! `tests/palette.rs` checks that every [`Class`] is in exactly one entry, in the entry's
//! colour, and that the entries of one shape stay apart for colour-blind readers too.

use super::draw::{line, Anchor, Font, Geometry, Rect, Shape};
use super::mark::Class;
use super::palette::Ink;
use super::plot::{cross, hatch, head};

/// The shape a legend entry shows: the one the plot draws its classes with.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Key {
    /// A message: a line with a head.
    Arrow,
    /// A dropped message's cross.
    Cross,
    /// A point.
    Dot,
    /// A duplicate effect: a dot in a ring.
    Target,
    /// A transaction or a wait: a thin bar along the lane.
    Bar,
    /// A shaded region with a dashed edge: a race.
    Region,
    /// A hatched band: the API down.
    Hatch,
    /// An instant across a lane: a replacement, a rerun, the cap.
    Instant,
    /// Labels with no room, counted.
    More,
    /// What the numbers in labels and details mean: no mark, words only.
    Ids,
}

/// One line of the key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Entry {
    pub key: Key,
    pub ink: Ink,
    pub label: &'static str,
    /// The mark classes drawn this way, in this ink.
    pub classes: &'static [Class],
}

const fn entry(key: Key, ink: Ink, label: &'static str, classes: &'static [Class]) -> Entry {
    Entry {
        key,
        ink,
        label,
        classes,
    }
}

use Class as C;

/// The key, in the order it reads: messages, points, then stretches and regions.
pub const LEGEND: [Entry; 24] = [
    entry(Key::Arrow, Ink::Mark(C::Request), "request", &[C::Request]),
    entry(
        Key::Arrow,
        Ink::Mark(C::Response),
        "response",
        &[C::Response],
    ),
    entry(
        Key::Arrow,
        Ink::Mark(C::ChargeCall),
        "call to the payment service, and its answer",
        &[C::ChargeCall, C::ChargeReply],
    ),
    entry(
        Key::Arrow,
        Ink::Mark(C::QueueEvent),
        "queue: an event to the consumer",
        &[C::QueueEvent],
    ),
    entry(
        Key::Arrow,
        Ink::Mark(C::QueueAck),
        "queue: the consumer's ack",
        &[C::QueueAck],
    ),
    entry(
        Key::Cross,
        Ink::Drop,
        "dropped (late: the client had timed out)",
        &[],
    ),
    entry(
        Key::Dot,
        Ink::Mark(C::Charge),
        "charge, or a booked effect",
        &[C::Charge, C::Applied, C::Receipt],
    ),
    entry(
        Key::Target,
        Ink::Mark(C::ChargeDuplicate),
        "duplicate: an effect repeated",
        &[C::ChargeDuplicate, C::AppliedDuplicate, C::ReceiptDuplicate],
    ),
    entry(
        Key::Dot,
        Ink::Mark(C::ReplyOk),
        "done: success, commit, key stored, replay",
        &[
            C::OrderOk,
            C::LookupHit,
            C::ClaimOk,
            C::ChargeReplay,
            C::Store,
            C::Commit,
            C::ReplyOk,
            C::ReplyReplay,
            C::MailReplay,
            C::InboxNew,
            C::InboxHit,
        ],
    ),
    entry(
        Key::Dot,
        Ink::Mark(C::Timeout),
        "timeout, retry, redelivery",
        &[C::Timeout, C::Retry, C::Redeliver],
    ),
    entry(
        Key::Dot,
        Ink::Mark(C::LookupMiss),
        "lookup: not found",
        &[C::LookupMiss],
    ),
    entry(
        Key::Dot,
        Ink::Mark(C::ClaimBlocked),
        "blocked on the unique index (the wait: a bar on top)",
        &[C::ClaimBlocked, C::Blocked],
    ),
    entry(
        Key::Dot,
        Ink::Mark(C::ReplyConflict),
        "conflict (409), or no answer for the client",
        &[C::ReplyConflict, C::ClaimConflict, C::OrderUnknown],
    ),
    entry(
        Key::Dot,
        Ink::Mark(C::ReplyError),
        "error answer (400, 422, 503), failed order, key expired, dead letter, consumer crash",
        &[
            C::ReplyError,
            C::OrderFailed,
            C::KeyExpired,
            C::DeadLetter,
            C::ConsumerCrash,
        ],
    ),
    entry(
        Key::Dot,
        Ink::Mark(C::AttemptRow),
        "start or routine step (its label says which)",
        &[
            C::PodStart,
            C::OrderStart,
            C::AttemptRow,
            C::LedgerRow,
            C::Write,
            C::Rollback,
        ],
    ),
    entry(
        Key::Bar,
        Ink::Mark(C::Txn),
        "transaction (\"read only\": it wrote nothing)",
        &[C::Txn],
    ),
    entry(
        Key::Bar,
        Ink::Mark(C::TxnRollback),
        "transaction rolled back",
        &[C::TxnRollback],
    ),
    entry(
        Key::Region,
        Ink::Mark(C::Race),
        "race: both copies read \"not found\"",
        &[C::Race],
    ),
    entry(Key::Hatch, Ink::Mark(C::ApiDown), "API down", &[C::ApiDown]),
    entry(
        Key::Instant,
        Ink::Mark(C::LedgerReplaced),
        "ledger pod replaced",
        &[C::LedgerReplaced],
    ),
    entry(
        Key::Instant,
        Ink::Mark(C::Rerun),
        "operator rerun",
        &[C::Rerun],
    ),
    entry(
        Key::Instant,
        Ink::Mark(C::CapReached),
        "event cap: the run stopped",
        &[C::CapReached],
    ),
    entry(
        Key::More,
        Ink::Muted,
        "labels with no room: hover or tap their marks",
        &[],
    ),
    entry(
        Key::Ids,
        Ink::Muted,
        "#3 = charge 3; m5 = message 5; e2 = queue event 2, counting from e0",
        &[],
    ),
];

/// A swatch's size.
pub const SWATCH_PX: (f64, f64) = (20.0, 12.0);

/// An entry's swatch, drawn with the plot's own shapes into the box at (x, y).
pub fn swatch(key: Key, ink: Ink, x: f64, y: f64) -> Vec<Shape> {
    let (w, h) = SWATCH_PX;
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let rect = Rect::new(x, y, w, h);
    match key {
        Key::Arrow => {
            let (from, tip) = ((x + 1.0, cy), (x + w - 1.0, cy));
            vec![
                Shape::stroke(line(from, tip), ink, 1.4),
                Shape::fill(head(from, tip), ink),
            ]
        }
        Key::Cross => vec![Shape::stroke(cross(cx, cy, 4.5), ink, 2.5)],
        Key::Dot => vec![Shape::fill(circle(cx, cy, 3.5), ink)],
        Key::Target => vec![
            Shape::fill(circle(cx, cy, 2.5), ink),
            Shape::stroke(circle(cx, cy, 5.0), ink, 1.5),
        ],
        Key::Bar => vec![Shape::fill(
            Geometry::Rect(Rect::new(x, cy - 2.5, w, 5.0)),
            ink,
        )],
        Key::Region => vec![
            Shape::fill(Geometry::Rect(rect), ink).alpha(0.16),
            Shape::stroke(Geometry::Rect(rect), ink, 1.5).dashed(),
        ],
        Key::Hatch => vec![
            Shape::fill(Geometry::Rect(rect), ink).alpha(0.12),
            Shape::stroke(hatch(rect, x + y), ink, 1.2).alpha(0.7),
        ],
        Key::Instant => vec![Shape::fill(
            Geometry::Rect(Rect::new(cx - 1.5, y, 3.0, h)),
            ink,
        )],
        Key::More | Key::Ids => {
            let text = Geometry::Text {
                at: (cx, y + h - 2.0),
                text: if key == Key::More { "+N" } else { "#3" }.into(),
                font: Font::Bold,
                anchor: Anchor::Middle,
            };
            vec![Shape::fill(text, ink)]
        }
    }
}

fn circle(x: f64, y: f64, r: f64) -> Geometry {
    Geometry::Circle { at: (x, y), r }
}

/// The first and last lines of the legend in `www/index.html`.
pub const HTML_BEGIN: &str = "<!-- BEGIN legend: generated from src/view/legend.rs by \
                              `UPDATE_EXPECT=1 cargo test --test palette` -->";
pub const HTML_END: &str = "<!-- END legend -->";

/// The page's legend items: each swatch an inline SVG with the export's `f-`/`s-` classes,
/// which the palette block of `www/style.css` colours.
pub fn html(indent: &str) -> String {
    let (w, h) = SWATCH_PX;
    let mut out = format!("{HTML_BEGIN}\n");
    for entry in &LEGEND {
        let mut shapes = String::new();
        for shape in swatch(entry.key, entry.ink, 0.0, 0.0) {
            super::svg::write_shape(&mut shapes, &shape);
        }
        out.push_str(&format!(
            "{indent}<li><svg class=\"key\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" \
             aria-hidden=\"true\">{shapes}</svg><span>{}</span></li>\n",
            super::svg::escape(entry.label)
        ));
    }
    out.push_str(indent);
    out.push_str(HTML_END);
    out
}

/// Every ink the legend uses, once.
pub fn inks() -> Vec<Ink> {
    let mut inks: Vec<Ink> = LEGEND.iter().map(|entry| entry.ink).collect();
    inks.sort_unstable();
    inks.dedup();
    inks
}

/// The mark classes a timeline draws, as a set (bit `class as u32`): worked out once per run,
/// so that the page's key can show only the kinds of mark its runs have.
pub fn classes_of(timeline: &super::Timeline) -> u64 {
    const _: () = assert!((Class::MailReplay as u32) < 64, "the set is a u64");
    (timeline.marks().iter()).fold(0, |set, mark| set | 1 << (mark.class() as u32))
}

/// Which entries of `LEGEND` a key over runs drawing `classes` shows: those with a mark in
/// them, and the two that explain labels, which any run may need.
pub fn shown(classes: u64) -> [bool; LEGEND.len()] {
    LEGEND.map(|entry| {
        entry.classes.is_empty()
            || (entry.classes.iter()).any(|class| classes & 1 << (*class as u32) != 0)
    })
}
