//! The time axis: which stretch of simulated time the page shows across how many pixels, with
//! zoom and pan, and tick marks at round steps (1, 2 or 5 × 10^k µs, labelled in ms).
//!
//! Time stays integer microseconds; only the mapping to pixels uses f64, which is fine here
//! because nothing drawn feeds back into the simulation.

use serde::Serialize;

use super::layout::ms_text;

/// The narrowest window one can zoom into: below this a pixel is a fraction of a microsecond,
/// and trace times are whole microseconds.
pub const SPAN_US_MIN: u64 = 10;
/// The widest window: about eleven days of simulated time, far beyond any run's extent.
pub const SPAN_US_MAX: u64 = 1_000_000_000_000;
/// Canvases wider than this are not a screen; it also bounds per-column buffers.
pub const WIDTH_PX_MAX: u32 = 16_384;
/// Ticks per axis at most, whatever the spacing asked for.
const TICKS_MAX: u32 = 1_000;

/// The window of time `t0_us..=t1_us` drawn across `width_px` pixels. The fields are private
/// so that every viewport went through `new`: at least 1 px wide and `SPAN_US_MIN` long.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Viewport {
    t0_us: u64,
    t1_us: u64,
    width_px: u32,
}

/// One labelled tick on the axis.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tick {
    pub time_us: u64,
    pub x_px: f64,
    pub label: String,
}

impl Viewport {
    /// A window of at least `SPAN_US_MIN` and at most `SPAN_US_MAX`, 1 to `WIDTH_PX_MAX` wide.
    pub fn new(t0_us: u64, t1_us: u64, width_px: u32) -> Viewport {
        // A start so late that the window would not fit (a hand-made `zoom=` in a URL) is
        // pulled back, so every time in the window is representable.
        let t0_us = t0_us.min(u64::MAX - SPAN_US_MAX);
        let span_us = t1_us.saturating_sub(t0_us).clamp(SPAN_US_MIN, SPAN_US_MAX);
        Viewport {
            t0_us,
            t1_us: t0_us.saturating_add(span_us),
            width_px: width_px.clamp(1, WIDTH_PX_MAX),
        }
    }

    /// The whole of `0..=end_us`.
    pub fn fit(end_us: u64, width_px: u32) -> Viewport {
        Viewport::new(0, end_us, width_px)
    }

    pub fn t0_us(&self) -> u64 {
        self.t0_us
    }

    pub fn t1_us(&self) -> u64 {
        self.t1_us
    }

    pub fn width_px(&self) -> u32 {
        self.width_px
    }

    pub fn span_us(&self) -> u64 {
        self.t1_us - self.t0_us
    }

    pub fn px_per_us(&self) -> f64 {
        f64::from(self.width_px) / self.span_us() as f64
    }

    /// The x of a time, 0 at `t0_us` and `width_px` at `t1_us`; outside the window it runs on.
    pub fn x_px(&self, time_us: u64) -> f64 {
        (time_us as f64 - self.t0_us as f64) * self.px_per_us()
    }

    /// The time under an x, clamped at 0.
    pub fn time_us_at(&self, x_px: f64) -> u64 {
        let time_us = self.t0_us as f64 + x_px / self.px_per_us();
        time_us.max(0.0).round() as u64
    }

    /// Zooms by `factor` (2.0 shows half as much time) keeping the time under `anchor_x_px` in
    /// place, as a mouse wheel does.
    pub fn zoom(&self, factor: f64, anchor_x_px: f64) -> Viewport {
        assert!(
            factor.is_finite() && factor > 0.0,
            "zoom factor must be positive"
        );
        let anchor_us = self.time_us_at(anchor_x_px);
        let span_us = (self.span_us() as f64 / factor).round() as u64;
        let span_us = span_us.clamp(SPAN_US_MIN, SPAN_US_MAX);
        let left_us = (anchor_x_px / f64::from(self.width_px) * span_us as f64).round() as u64;
        let t0_us = anchor_us.saturating_sub(left_us);
        Viewport::new(t0_us, t0_us.saturating_add(span_us), self.width_px)
    }

    /// Moves the window by `dx_px` pixels of time (positive shows later times). It stops at 0.
    pub fn pan(&self, dx_px: f64) -> Viewport {
        let dt_us = (dx_px.abs() / self.px_per_us()).round() as u64;
        let t0_us = if dx_px >= 0.0 {
            self.t0_us.saturating_add(dt_us)
        } else {
            self.t0_us.saturating_sub(dt_us)
        };
        Viewport::new(t0_us, t0_us.saturating_add(self.span_us()), self.width_px)
    }

    /// The same span kept inside `0..=end_us` where it fits, or the whole extent where not.
    pub fn clamp_to(&self, end_us: u64) -> Viewport {
        let span_us = self.span_us();
        if span_us >= end_us {
            return Viewport::fit(end_us, self.width_px);
        }
        let t0_us = self.t0_us.min(end_us - span_us);
        Viewport::new(t0_us, t0_us.saturating_add(span_us), self.width_px)
    }

    /// Ticks at a round step, at least `spacing_px_min` apart, within the window.
    pub fn ticks(&self, spacing_px_min: u32) -> Vec<Tick> {
        let step_us = tick_step_us(self.span_us(), self.width_px, spacing_px_min);
        let first_us = self.t0_us.div_ceil(step_us).saturating_mul(step_us);
        (0..TICKS_MAX)
            .map(|i| first_us.saturating_add(u64::from(i).saturating_mul(step_us)))
            .take_while(|&time_us| time_us <= self.t1_us)
            .map(|time_us| Tick {
                time_us,
                x_px: self.x_px(time_us),
                label: ms_text(time_us),
            })
            .collect()
    }
}

/// The smallest 1, 2 or 5 × 10^k µs that keeps ticks `spacing_px_min` apart and leaves at most
/// `TICKS_MAX` of them in the window.
pub fn tick_step_us(span_us: u64, width_px: u32, spacing_px_min: u32) -> u64 {
    let wanted = f64::from(spacing_px_min.max(1)) / f64::from(width_px.max(1)) * span_us as f64;
    let floor_us = span_us.div_ceil(u64::from(TICKS_MAX));
    let mut decade_us: u64 = 1;
    loop {
        for mult in [1, 2, 5] {
            let step_us = decade_us * mult;
            if step_us as f64 >= wanted && step_us >= floor_us {
                return step_us;
            }
        }
        // 10^19 overflows u64; spans are capped at SPAN_US_MAX, so this never gets near it.
        assert!(
            decade_us < 1_000_000_000_000_000,
            "tick step beyond any span"
        );
        decade_us *= 10;
    }
}

/// The time window the page shows, and the export draws: the `zoom=` window kept inside the
/// run, or else the whole run with room after its last event for about one label (160 px, and
/// at most a quarter of a narrow plot, so that a 360 px embed's run still fills three quarters
/// of it rather than one).
pub fn window(end_us: u64, zoom: Option<(u64, u64)>, width_px: u32) -> Viewport {
    let end_us = end_us.max(1_000);
    let room_px = u64::from((width_px / 4).min(160));
    let pad_us = end_us.saturating_mul(room_px) / (u64::from(width_px) - room_px).max(1);
    let whole = Viewport::fit(end_us.saturating_add(pad_us), width_px);
    match zoom {
        Some((t0_us, t1_us)) => Viewport::new(t0_us, t1_us, width_px).clamp_to(whole.t1_us()),
        None => whole,
    }
}
