//! The shortest decimal digits that read back as a float, and where its
//! point goes: what Go's `strconv.FormatFloat(f, fmt, -1, 64)` builds its
//! text from, and what Rust's `{}` and `{:e}` write. One algorithm
//! (Schubfach, the `zmij` crate serde_json writes floats with) in place of
//! a second one (core's Grisu and Dragon4) that `{}` of an `f64` links into
//! every wasm module that formats a float.
//!
//! The two differ on ties: when the float lies exactly halfway between the
//! two shortest candidates, Go (and Schubfach) take the even last digit,
//! core the one above: `1120264304013018.25` is written `…018.2` by Go and
//! here, `…018.3` by Rust's `{}` (checked against kubectl in
//! `tests/kubectl_numbers.rs`).

/// A finite, nonzero float as `0.d1d2d3… × 10^point`, without its sign:
/// `digits` has no leading or trailing zeros. `1.5` is `("15", 1)`,
/// `0.001` is `("1", -2)`, `1e21` is `("1", 22)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Shortest {
    /// The significant digits, `1`-`9` first and last.
    pub digits: String,
    /// How many places the point sits after the first digit's left.
    pub point: i32,
}

impl Shortest {
    /// The shortest digits of `f`'s magnitude; `None` for zero, NaN and
    /// the infinities (they have no digits).
    #[must_use]
    pub fn of(f: f64) -> Option<Shortest> {
        if f == 0.0 || !f.is_finite() {
            return None;
        }
        let mut buffer = zmij::Buffer::new();
        Shortest::parse(buffer.format_finite(f.abs()))
    }

    /// The shortest digits that read back as the same `f32` (what
    /// `strconv.FormatFloat(f, 'g', -1, 32)` writes); `None` for zero, NaN
    /// and the infinities.
    #[must_use]
    pub fn of_f32(f: f32) -> Option<Shortest> {
        if f == 0.0 || !f.is_finite() {
            return None;
        }
        let mut buffer = zmij::Buffer::new();
        Shortest::parse(buffer.format_finite(f.abs()))
    }

    fn parse(text: &str) -> Option<Shortest> {
        // zmij writes `12.34`, `0.001234`, `1230000.0` or `1.234e-7`,
        // `1e+21`: mantissa digits around a point, then an exponent.
        let (mantissa, exponent) = match text.split_once('e') {
            Some((m, e)) => (m, e.parse::<i32>().ok()?),
            None => (text, 0),
        };
        let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let all = format!("{whole}{fraction}");
        let leading = all.len() - all.trim_start_matches('0').len();
        let digits = all.trim_matches('0').to_owned();
        if digits.is_empty() {
            return None;
        }
        let point = i32::try_from(whole.len()).ok()? - i32::try_from(leading).ok()? + exponent;
        Some(Shortest { digits, point })
    }

    /// The exponent of the first digit: `d.ddd × 10^exponent`.
    #[must_use]
    pub fn exponent(&self) -> i32 {
        self.point - 1
    }

    /// Plain decimal, as Rust's `{}` writes a float: `1.5`, `0.001`,
    /// `100000000000000000000`.
    pub fn write_plain(&self, out: &mut String) {
        let digits = self.digits.as_str();
        if self.point <= 0 {
            out.push_str("0.");
            push_zeros(out, self.point.unsigned_abs());
            out.push_str(digits);
        } else if let Ok(point) = usize::try_from(self.point) {
            if digits.len() <= point {
                out.push_str(digits);
                push_zeros(out, u32::try_from(point - digits.len()).unwrap_or(0));
            } else {
                out.push_str(&digits[..point]);
                out.push('.');
                out.push_str(&digits[point..]);
            }
        }
    }

    /// The mantissa of the exponent form, `d` or `d.ddd`.
    pub fn write_mantissa(&self, out: &mut String) {
        out.push_str(&self.digits[..1]);
        if self.digits.len() > 1 {
            out.push('.');
            out.push_str(&self.digits[1..]);
        }
    }
}

impl Shortest {
    /// The exponent of the exponent form as Go writes it: `e`, its sign,
    /// and at least `min_digits` digits (`e+21`, `e-07` with 2).
    pub fn write_exponent(&self, out: &mut String, min_digits: usize) {
        let exponent = self.exponent();
        out.push('e');
        out.push(if exponent < 0 { '-' } else { '+' });
        let mut buffer = itoa::Buffer::new();
        let digits = buffer.format(exponent.unsigned_abs());
        for _ in digits.len()..min_digits {
            out.push('0');
        }
        out.push_str(digits);
    }
}

fn push_zeros(out: &mut String, n: u32) {
    for _ in 0..n {
        out.push('0');
    }
}

// proptest is a native dev-dependency.
#[cfg(all(test, not(target_arch = "wasm32")))]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// What core's formatting (Grisu, Dragon4) writes, read back into the
    /// same shape: the oracle.
    fn by_core(f: f64) -> Shortest {
        let text = format!("{:e}", f.abs());
        let (mantissa, exponent) = text.split_once('e').unwrap();
        let exponent: i32 = exponent.parse().unwrap();
        let digits: String = mantissa.chars().filter(char::is_ascii_digit).collect();
        let digits = digits.trim_end_matches('0').to_owned();
        Shortest {
            digits,
            point: exponent + 1,
        }
    }

    fn plain(s: &Shortest) -> String {
        let mut out = String::new();
        s.write_plain(&mut out);
        out
    }

    #[test]
    fn digits_and_point_of_known_floats() {
        for (f, digits, point, text) in [
            (1.5, "15", 1, "1.5"),
            (0.001, "1", -2, "0.001"),
            (1e21, "1", 22, "1000000000000000000000"),
            (123.0, "123", 3, "123"),
            (1e-7, "1", -6, "0.0000001"),
            (0.1 + 0.2, "30000000000000004", 0, "0.30000000000000004"),
            (f64::MAX, "17976931348623157", 309, ""),
            (5e-324, "5", -323, ""),
            (-2.5, "25", 1, "2.5"),
        ] {
            let s = Shortest::of(f).unwrap();
            assert_eq!((s.digits.as_str(), s.point), (digits, point), "{f:e}");
            if !text.is_empty() {
                assert_eq!(plain(&s), text);
                assert_eq!(plain(&s), format!("{}", f.abs()));
            }
        }
        assert_eq!(Shortest::of(0.0), None);
        assert_eq!(Shortest::of(f64::NAN), None);
        assert_eq!(Shortest::of(f64::INFINITY), None);
    }

    /// `ours` is `core`'s shortest digits, or on a tie the even neighbour
    /// of its last digit: the same length, the same point, the last digit
    /// one apart, ours even, and both read back as `f`.
    fn same_or_even_tie(f: f64, ours: &Shortest, core: &Shortest) -> Result<(), String> {
        if ours == core {
            return Ok(());
        }
        let (a, b) = (ours.digits.as_bytes(), core.digits.as_bytes());
        let tie = ours.point == core.point
            && a.len() == b.len()
            && a[..a.len() - 1] == b[..b.len() - 1]
            && a[a.len() - 1].abs_diff(b[b.len() - 1]) == 1
            && a[a.len() - 1] % 2 == 0;
        let reads_back =
            |s: &Shortest| format!("0.{}e{}", s.digits, s.point).parse::<f64>() == Ok(f.abs());
        if tie && reads_back(ours) && reads_back(core) {
            Ok(())
        } else {
            Err(format!("{f:e}: {ours:?} against {core:?}"))
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(20_000))]

        /// Any finite float: core's shortest digits and point (its even
        /// neighbour on a tie), and `{}`'s plain text where they agree.
        #[test]
        fn the_same_digits_as_core_but_ties(bits in any::<u64>()) {
            let f = f64::from_bits(bits);
            prop_assume!(f.is_finite() && f != 0.0);
            let s = Shortest::of(f).unwrap();
            let core = by_core(f);
            prop_assert_eq!(same_or_even_tie(f, &s, &core), Ok(()));
            if s == core && (1e-30..1e30).contains(&f.abs()) {
                prop_assert_eq!(plain(&s), format!("{}", f.abs()));
            }
        }

        /// Floats with few digits, where shortest forms are short.
        #[test]
        fn the_same_digits_as_core_on_short_decimals(m in 1u64..100_000, e in -330i32..310) {
            let f: f64 = format!("{m}e{e}").parse().unwrap();
            prop_assume!(f.is_finite() && f != 0.0);
            prop_assert_eq!(same_or_even_tie(f, &Shortest::of(f).unwrap(), &by_core(f)), Ok(()));
        }
    }

    #[test]
    fn a_tie_takes_the_even_digit_as_go_does() {
        // 1120264304013018.25 exactly: `…018.2` and `…018.3` both read
        // back; Go writes `…018.2` (kubectl 1.32), Rust's `{}` `…018.3`.
        let f: f64 = "1120264304013018.25".parse().unwrap();
        assert_eq!(plain(&Shortest::of(f).unwrap()), "1120264304013018.2");
        assert_eq!(format!("{f}"), "1120264304013018.3");
    }
}
