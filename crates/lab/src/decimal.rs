//! Decimal text for the page's few fractional numbers, written with integer arithmetic.
//!
//! core's float formatter (`{:.1}` or `{}` on an `f64`) weighs about 20 KB in the page's wasm,
//! and the lab's numbers are integers underneath (microseconds, counts), so the fractions it
//! shows (pixels, milliseconds, means) go through `Fixed` instead. It prints what `{:.N}`
//! prints, exact ties included, for every value the page can hold (below 2^53 / 10^N).

use std::fmt;

/// `value` rounded to `DECIMALS` places (at most 9), as `format!("{value:.DECIMALS$}")` would.
#[derive(Clone, Copy, Debug)]
pub struct Fixed<const DECIMALS: u32>(pub f64);

impl<const DECIMALS: u32> fmt::Display for Fixed<DECIMALS> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.0;
        if !value.is_finite() {
            return f.write_str(if value.is_nan() {
                "NaN"
            } else if value > 0.0 {
                "inf"
            } else {
                "-inf"
            });
        }
        let scale = 10u64.pow(DECIMALS.min(9));
        // Saturates above 2^64: far beyond anything the page measures or draws.
        let scaled = round_scaled(value.abs(), scale as f64) as u64;
        if value.is_sign_negative() {
            f.write_str("-")?;
        }
        write!(f, "{}", scaled / scale)?;
        if DECIMALS > 0 {
            let width = DECIMALS.min(9) as usize;
            write!(f, ".{:0width$}", scaled % scale)?;
        }
        Ok(())
    }
}

/// `value` as `{}` writes an `f64` with at most three decimals (`1.4`, `8`, `0.75`): `Fixed<3>`
/// without its trailing zeros. For the drawing's stroke widths and radii, which are such
/// constants; a value with more decimals is rounded to three.
#[derive(Clone, Copy, Debug)]
pub struct Short(pub f64);

impl fmt::Display for Short {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = Fixed::<3>(self.0).to_string();
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(if text == "-0" { "0" } else { text })
    }
}

/// `value × scale` rounded to the nearest integer, ties to even, judged on the exact product:
/// the rounded product can land on a tie (0.15 × 10 = 1.5) that the exact one misses
/// (0.1499…), so a tie is settled by the product's rounding error (Dekker's two-product).
fn round_scaled(value: f64, scale: f64) -> f64 {
    let product = value * scale;
    let floor = product.floor();
    if product - floor != 0.5 {
        return product.round_ties_even();
    }
    match product_error(value, scale, product) {
        error if error > 0.0 => floor + 1.0,
        error if error < 0.0 => floor,
        _ => product.round_ties_even(),
    }
}

/// The exact `a × b − product` for `product = a × b` rounded, without a fused multiply-add
/// (wasm has none, and a software one would cost more bytes than this).
fn product_error(a: f64, b: f64, product: f64) -> f64 {
    let (a_hi, a_lo) = split(a);
    let (b_hi, b_lo) = split(b);
    ((a_hi * b_hi - product) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo
}

/// Veltkamp's split of a double into two halves of 26 significant bits each.
fn split(value: f64) -> (f64, f64) {
    let c = 134_217_729.0 * value; // 2^27 + 1
    let hi = c - (c - value);
    (hi, value - hi)
}

/// Microseconds to a tenth of a millisecond, truncated: `245.3 ms`. The story and the check
/// name times this way, coarser than the cursor's exact `ms_text`.
pub fn ms_tenths(time_us: u64) -> String {
    format!("{}.{} ms", time_us / 1_000, time_us % 1_000 / 100)
}

#[cfg(test)]
mod tests {
    use super::Fixed;

    fn check(value: f64) {
        assert_eq!(
            Fixed::<0>(value).to_string(),
            format!("{value:.0}"),
            "{value:e}"
        );
        assert_eq!(
            Fixed::<1>(value).to_string(),
            format!("{value:.1}"),
            "{value:e}"
        );
        assert_eq!(
            Fixed::<2>(value).to_string(),
            format!("{value:.2}"),
            "{value:e}"
        );
        assert_eq!(
            Fixed::<4>(value).to_string(),
            format!("{value:.4}"),
            "{value:e}"
        );
    }

    #[test]
    fn prints_what_the_float_formatter_prints_on_ties_and_near_ties() {
        for value in [
            0.0,
            -0.0,
            0.05,
            0.15,
            0.25,
            0.35,
            0.45,
            0.5,
            1.5,
            2.5,
            -2.5,
            -0.04,
            0.125,
            0.375,
            1e-9,
            99.95,
            99.995,
            1234.5678,
            8_191.75,
            -8_191.25,
            1e12 + 0.5,
        ] {
            check(value);
        }
    }

    #[test]
    fn prints_what_the_float_formatter_prints_on_many_values() {
        // A fixed walk through magnitudes, fractions and signs (no RNG needed to be thorough).
        let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let mantissa = (x >> 11) as f64 / (1u64 << 53) as f64;
            let exponent = (x % 14) as i32 - 4;
            let value = mantissa * 10f64.powi(exponent);
            check(if x & 1 == 0 { value } else { -value });
            // Quarter and eighth fractions, the exact ties a pixel grid makes.
            check((x % 100_000) as f64 / 8.0);
        }
    }

    #[test]
    fn short_prints_what_display_prints_for_three_decimals() {
        use super::Short;
        for thousandths in -20_000i32..20_000 {
            let value = f64::from(thousandths) / 1_000.0;
            assert_eq!(Short(value).to_string(), format!("{value}"), "{value:e}");
        }
    }

    #[test]
    fn names_what_is_not_a_number() {
        assert_eq!(Fixed::<1>(f64::NAN).to_string(), "NaN");
        assert_eq!(Fixed::<1>(f64::INFINITY).to_string(), "inf");
        assert_eq!(Fixed::<1>(f64::NEG_INFINITY).to_string(), "-inf");
    }
}
