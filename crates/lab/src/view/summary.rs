//! A text form of a timeline, one line per mark: what the snapshot tests pin and what a person
//! reads to check a layout without a browser.

use std::fmt::Write as _;

use super::layout::Timeline;
use super::mark::{cause_label, ArrowEnd, MarkKind};

impl Timeline {
    /// Lanes, extent and counts, then each mark: start, end, lanes, class, label, events.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let lanes: Vec<&str> = self.lanes.iter().map(|lane| lane.label.as_str()).collect();
        let _ = writeln!(out, "lanes: {}", lanes.join(" | "));
        let _ = writeln!(
            out,
            "end {} µs, {} events, {} marks, {} races, {} duplicates{}",
            self.end_us,
            self.events,
            self.marks.len(),
            self.races(),
            self.duplicates(),
            if self.truncated { ", truncated" } else { "" }
        );
        for mark in &self.marks {
            let lanes = match mark.kind {
                MarkKind::Arrow { to_lane, .. } | MarkKind::Race { to_lane, .. } => {
                    format!("{}>{}", mark.lane, to_lane)
                }
                _ => mark.lane.to_string(),
            };
            let end = match mark.kind {
                MarkKind::Arrow {
                    end: ArrowEnd::Dropped { cause, .. },
                    ..
                } => format!(" ✕ {}", cause_label(cause)),
                MarkKind::Arrow {
                    end: ArrowEnd::InFlight,
                    ..
                } => " in-flight".into(),
                _ if mark.is_duplicate() => " duplicate".into(),
                _ => String::new(),
            };
            let events: Vec<String> = (self.events_of(mark).iter()).map(u32::to_string).collect();
            let _ = writeln!(
                out,
                "{:>8} {:>8} {lanes:<4} {}{end} \"{}\" [{}]",
                mark.t0_us,
                mark.t1_us,
                mark.class().name(),
                self.label(mark),
                events.join(",")
            );
        }
        out
    }
}
