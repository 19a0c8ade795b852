//! The Sweep tab's panel as the page paints it: the summary line, the progress bar and the
//! duplicates histogram of the state's sweep, or an empty panel once a scenario change has
//! dropped it (its totals were another scenario's).

use idemlab_lab::decimal::Fixed;

use crate::{histogram, sweep_summary, State, SWEEP_SEEDS_MAX};

/// What the panel shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SweepFrame {
    pub summary: String,
    /// The progress bar's `value`, from 0 to 1.
    pub progress: String,
    /// The histogram's box is hidden until a sweep runs: empty, it stood over the contracts
    /// table as if it were that table's.
    pub histogram_shown: bool,
    pub bars: Vec<BarFrame>,
    /// The histogram's text alternative.
    pub label: String,
    /// The seeds box's bound.
    pub seeds_max: String,
}

/// One bar of the histogram.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BarFrame {
    /// How many duplicates, written in the bar.
    pub text: String,
    pub title: String,
    pub class: &'static str,
    /// The bar's CSS height, a percentage of the tallest.
    pub height: String,
}

pub fn view(state: &State) -> SweepFrame {
    let seeds_max = SWEEP_SEEDS_MAX.to_string();
    let Some(job) = &state.sweep else {
        return SweepFrame {
            progress: "0".into(),
            seeds_max,
            ..SweepFrame::default()
        };
    };
    let done = job.totals.runs as f64 / job.range.count as f64;
    let (bars, label) = histogram(&job.totals);
    let bars = (bars.into_iter()).map(|bar| BarFrame {
        text: bar.duplicates.to_string(),
        title: idemlab_lab::tf!("{} runs with {} duplicates", bar.runs, bar.duplicates),
        class: if bar.duplicates > 0 { "bar bad" } else { "bar" },
        height: format!("{}%", Fixed::<1>(bar.height_percent)),
    });
    SweepFrame {
        summary: sweep_summary(job, job.elapsed_s()),
        progress: Fixed::<3>(done).to_string(),
        histogram_shown: true,
        bars: bars.collect(),
        label,
        seeds_max,
    }
}
