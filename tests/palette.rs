//! The palette: one table of colours for the page and the SVG export. The stylesheet's `--tl-*`
//! block is generated from it (`UPDATE_EXPECT=1 cargo test --test palette` rewrites the block in
//! `www/style.css`), every mark class has a colour in both themes, the export carries the same
//! colours, and what is drawn as a dot, a line or text stays readable on its lanes.

use idemlab::view::palette::{self, css_block, Ink, CSS_END, PALETTE};

/// How the block's first line starts, whatever the rest of it says.
const BEGIN: &str = "/* BEGIN timeline palette";
use idemlab::view::{self, Class, Timeline, Viewport};

const STYLE_CSS: &str = "www/style.css";

#[test]
fn the_stylesheet_carries_the_generated_palette() {
    let path = format!("{}/{STYLE_CSS}", env!("CARGO_MANIFEST_DIR"));
    let css = std::fs::read_to_string(&path).expect("www/style.css is readable");
    let block = css_block();
    let (begin, end) = match (css.find(BEGIN), css.find(CSS_END)) {
        (Some(begin), Some(end)) if begin < end => (begin, end + CSS_END.len() + 1),
        _ => panic!("{STYLE_CSS} has no palette block between the markers"),
    };
    let current = &css[begin..end.min(css.len())];
    if current == block {
        return;
    }
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        let updated = format!("{}{block}{}", &css[..begin], &css[end.min(css.len())..]);
        std::fs::write(&path, updated).expect("www/style.css is writable");
        return;
    }
    panic!(
        "{STYLE_CSS}'s palette block differs from src/view/palette.rs; \
         run `UPDATE_EXPECT=1 cargo test --test palette`\n--- now:\n{current}\n--- generated:\n{block}"
    );
}

#[test]
fn the_stylesheet_sets_no_timeline_colour_outside_the_block() {
    let css = include_str!("../www/style.css");
    let (begin, end) = (css.find(BEGIN).unwrap(), css.find(CSS_END).unwrap());
    let outside = format!("{}{}", &css[..begin], &css[end..]);
    let stray: Vec<&str> = (outside.lines())
        .filter(|line| line.trim_start().starts_with("--tl-"))
        .collect();
    assert!(
        stray.is_empty(),
        "set outside the generated block: {stray:?}"
    );
}

#[test]
fn every_class_and_ink_has_one_colour_in_each_theme() {
    let mut names: Vec<&str> = PALETTE.iter().map(|swatch| swatch.ink.name()).collect();
    for class in Class::ALL {
        assert!(
            PALETTE.iter().any(|swatch| swatch.ink == Ink::Mark(class)),
            "{} has no colour",
            class.name()
        );
    }
    for swatch in &PALETTE {
        for colour in [swatch.light, swatch.dark] {
            let hex = colour.strip_prefix('#').unwrap_or("");
            assert!(
                hex.len() == 6 && hex.chars().all(|c| c.is_ascii_hexdigit()),
                "{}: {colour} is not #rrggbb",
                swatch.ink.name()
            );
        }
    }
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "an ink is listed twice");
}

/// Relative luminance and contrast ratio, as WCAG 2 defines them.
fn luminance(colour: &str) -> f64 {
    let channel = |i: usize| {
        let c = f64::from(u8::from_str_radix(&colour[1 + 2 * i..3 + 2 * i], 16).unwrap()) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2)
}

fn contrast(a: &str, b: &str) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// Classes drawn as shaded regions or thin bars under the marks, not as dots or lines.
const REGIONS: [Class; 8] = [
    Class::Txn,
    Class::TxnRollback,
    Class::Blocked,
    Class::ApiDown,
    Class::LedgerReplaced,
    Class::Rerun,
    Class::CapReached,
    Class::Race,
];

#[test]
fn dots_lines_and_text_keep_three_to_one_against_their_lanes() {
    let foreground = (Class::ALL.iter())
        .filter(|class| !REGIONS.contains(class))
        .map(|&class| Ink::Mark(class))
        .chain([Ink::Text, Ink::Muted, Ink::Drop, Ink::Cursor, Ink::RaceText]);
    let mut low = Vec::new();
    for ink in foreground {
        for dark in [false, true] {
            for lane in [Ink::Lane, Ink::LaneAlt] {
                let (fg, bg) = (palette::colour(ink, dark), palette::colour(lane, dark));
                let ratio = contrast(fg, bg);
                if ratio < 3.0 {
                    let theme = if dark { "dark" } else { "light" };
                    low.push(format!("{} {fg} on {bg} ({theme}): {ratio:.2}", ink.name()));
                }
            }
        }
    }
    assert!(low.is_empty(), "below 3:1:\n{}", low.join("\n"));
}

fn timeline(query: &str) -> Timeline {
    let scenario = idemlab::scenario::decode(query).unwrap().scenario;
    view::layout(&idemlab::sim::run(&scenario))
}

#[test]
fn the_export_has_the_page_colours_for_every_class_in_both_themes() {
    let timeline = timeline("seed=4&preset=race");
    let svg = view::export(&timeline, "seed=4&preset=race", None);
    let (light, rest) = svg
        .split_once("@media (prefers-color-scheme: dark)")
        .unwrap();
    for swatch in &PALETTE {
        let name = swatch.ink.name();
        assert!(
            light.contains(&format!("--tl-{name}:{};", swatch.light)),
            "{name}"
        );
        assert!(
            rest.contains(&format!("--tl-{name}:{};", swatch.dark)),
            "{name}"
        );
        assert!(
            svg.contains(&format!(".f-{name}{{fill:var(--tl-{name})}}")),
            "{name}"
        );
    }
}

#[test]
fn every_shape_of_the_export_is_coloured_by_a_palette_ink() {
    let timeline = timeline("seed=4&preset=race");
    let viewport = Viewport::fit(timeline.end_us(), 800);
    let drawing = view::svg::drawing(&timeline, &viewport, &view::SvgOptions::default());
    let mut inks: Vec<Ink> = (drawing.groups.iter())
        .flat_map(|group| group.shapes.iter().map(|shape| shape.ink))
        .collect();
    inks.sort_unstable();
    inks.dedup();
    for ink in &inks {
        assert!(PALETTE.iter().any(|swatch| swatch.ink == *ink), "{ink:?}");
    }
    // The race and its duplicate are there, in their own colours.
    assert!(inks.contains(&Ink::Mark(Class::Race)), "{inks:?}");
    assert!(
        inks.contains(&Ink::Mark(Class::ChargeDuplicate)),
        "{inks:?}"
    );
}
