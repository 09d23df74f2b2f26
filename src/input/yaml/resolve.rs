//! What a plain scalar means to yaml.v2 (`resolve.go`): YAML 1.1's
//! booleans (`y`, `yes`, `on`, `off`, `No`, ... in three casings), nulls,
//! integers in every base Go's `strconv.ParseInt(s, 0, 64)` reads (`010`
//! is 8, `0b11` 3, `0o17` 15, `0x1F` 31) after every `_` is dropped, then
//! `uint64`, then floats (`.inf`, `.nan`; a float out of range stays a
//! string). Timestamps are strings to a reader into `interface{}`.
//!
//! [`kind`] decides from the text alone, with no float parsed (the
//! editors colour numbers with it, and the emitter quotes with it);
//! [`value`] computes the number.

/// What a plain scalar resolves to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Null,
    Bool(bool),
    /// An `int` (`i64`).
    Int,
    /// A `uint64` above `i64::MAX`.
    Uint,
    /// A `float64`, finite or not (`.inf`, `.nan`).
    Float,
    /// A string (timestamps included).
    Str,
}

/// A resolved number or scalar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Scalar {
    Null,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64),
    Str,
}

/// yaml.v2's `resolveMap`: the words with a meaning of their own.
fn word(text: &str) -> Option<Scalar> {
    Some(match text {
        "y" | "Y" | "yes" | "Yes" | "YES" | "true" | "True" | "TRUE" | "on" | "On" | "ON" => {
            Scalar::Bool(true)
        }
        "n" | "N" | "no" | "No" | "NO" | "false" | "False" | "FALSE" | "off" | "Off" | "OFF" => {
            Scalar::Bool(false)
        }
        "" | "~" | "null" | "Null" | "NULL" => Scalar::Null,
        ".nan" | ".NaN" | ".NAN" => Scalar::Float(f64::NAN),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => Scalar::Float(f64::INFINITY),
        "-.inf" | "-.Inf" | "-.INF" => Scalar::Float(f64::NEG_INFINITY),
        _ => return None,
    })
}

/// yaml.v2's `resolveTable`: which first characters may start a
/// non-string (`S`ign, `D`igit, `M`ap word, `.`), `None` for any other.
fn hint(text: &str) -> Option<u8> {
    match text.as_bytes().first() {
        None => Some(b'N'),
        Some(b'+' | b'-') => Some(b'S'),
        Some(b'0'..=b'9') => Some(b'D'),
        Some(b'y' | b'Y' | b'n' | b'N' | b't' | b'T' | b'f' | b'F' | b'o' | b'O' | b'~') => {
            Some(b'M')
        }
        Some(b'.') => Some(b'.'),
        _ => None,
    }
}

/// What `text`, a plain untagged scalar, resolves to; `timestamps`: a
/// timestamp is tried first (an untagged or `!!timestamp` scalar), which
/// the caller only needs to tell a `!!timestamp` apart.
pub(crate) fn kind(text: &str) -> Kind {
    match resolve(text, false, |_| 0.0).0 {
        Scalar::Null => Kind::Null,
        Scalar::Bool(b) => Kind::Bool(b),
        Scalar::Int(_) => Kind::Int,
        Scalar::Uint(_) => Kind::Uint,
        Scalar::Float(_) => Kind::Float,
        Scalar::Str => Kind::Str,
    }
}

/// The value `text` resolves to, and whether it is a timestamp (a string
/// to a reader into `interface{}`).
pub(crate) fn value(text: &str, timestamps: bool) -> (Scalar, bool) {
    resolve(text, timestamps, |t| t.parse().unwrap_or(f64::NAN))
}

/// yaml.v2's `resolve` for an untagged (or `!!timestamp`) scalar; floats
/// are computed by `float` from text Rust reads (the range is checked
/// before).
fn resolve(text: &str, timestamps: bool, float: impl Fn(&str) -> f64) -> (Scalar, bool) {
    let Some(hint) = hint(text) else {
        return (Scalar::Str, false);
    };
    if let Some(scalar) = word(text) {
        return (scalar, false);
    }
    match hint {
        b'.' => match go_float(text) {
            Some(clean) => (Scalar::Float(float(&clean)), false),
            None => (Scalar::Str, false),
        },
        b'D' | b'S' => {
            if timestamps && is_timestamp(text) {
                return (Scalar::Str, true);
            }
            (number(&text.replace('_', ""), float), false)
        }
        _ => (Scalar::Str, false),
    }
}

/// The `D` and `S` branch of `resolve`, on the text without underscores.
fn number(plain: &str, float: impl Fn(&str) -> f64) -> Scalar {
    if let Some(i) = parse_int(plain) {
        return Scalar::Int(i);
    }
    if let Some(u) = parse_uint(plain) {
        return Scalar::Uint(u);
    }
    if yaml_style_float(plain) && !overflows(plain) {
        return Scalar::Float(float(plain.strip_prefix('+').unwrap_or(plain)));
    }
    if let Some(bits) = plain.strip_prefix("0b") {
        if let Some(i) = parse_radix(bits, 2).and_then(|u| i64::try_from(u).ok()) {
            return Scalar::Int(i);
        }
        if let Some(u) = parse_radix(bits, 2) {
            return Scalar::Uint(u);
        }
    } else if let Some(bits) = plain.strip_prefix("-0b") {
        if let Some(u) = parse_radix(bits, 2).filter(|u| *u <= 1 << 63) {
            return Scalar::Int(0i64.wrapping_sub_unsigned(u));
        }
    }
    Scalar::Str
}

/// `strconv.ParseUint(s, 0, 64)` without underscores: `0b`, `0o`, `0x`
/// prefixes (of at least one more character), a leading `0` for octal.
fn parse_uint(s: &str) -> Option<u64> {
    let b = s.as_bytes();
    if b.is_empty() {
        return None;
    }
    let (digits, base) = if b[0] == b'0' {
        match b.get(1).map(|c| c | 0x20) {
            Some(b'b') if b.len() >= 3 => (&s[2..], 2),
            Some(b'o') if b.len() >= 3 => (&s[2..], 8),
            Some(b'x') if b.len() >= 3 => (&s[2..], 16),
            _ => (&s[1..], 8),
        }
    } else {
        (s, 10)
    };
    parse_radix(digits, base)
}

/// Digits (letters for 10 and up, any case) in `base`, fitting a u64; an
/// empty string is 0, as Go reads the `0` of `0`.
fn parse_radix(digits: &str, base: u32) -> Option<u64> {
    let mut n: u64 = 0;
    for c in digits.chars() {
        let d = c.to_digit(36).filter(|d| *d < base)?;
        n = n.checked_mul(u64::from(base))?.checked_add(u64::from(d))?;
    }
    if digits.is_empty() && base != 8 {
        return None;
    }
    Some(n)
}

/// `strconv.ParseInt(s, 0, 64)`: an optional sign, then as
/// [`parse_uint`], within `i64`.
pub(crate) fn parse_int(s: &str) -> Option<i64> {
    let (negative, rest) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    let u = parse_uint(rest)?;
    if negative {
        (u <= 1 << 63).then(|| 0i64.wrapping_sub_unsigned(u))
    } else {
        i64::try_from(u).ok()
    }
}

/// yaml.v2's `yamlStyleFloat`:
/// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
fn yaml_style_float(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let digits = |s: &str| s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = if let Some(fraction) = s.strip_prefix('.') {
        let n = digits(fraction);
        if n == 0 {
            return false;
        }
        &fraction[n..]
    } else {
        let n = digits(s);
        if n == 0 {
            return false;
        }
        let rest = &s[n..];
        match rest.strip_prefix('.') {
            Some(fraction) => &fraction[digits(fraction)..],
            None => rest,
        }
    };
    match rest.strip_prefix(['e', 'E']) {
        None => rest.is_empty(),
        Some(exponent) => {
            let exponent = exponent.strip_prefix(['-', '+']).unwrap_or(exponent);
            !exponent.is_empty() && digits(exponent) == exponent.len()
        }
    }
}

/// `strconv.ParseFloat(s, 64)` for a text that starts with `.` (the only
/// one yaml.v2 hands it unchecked): Go's float syntax with `_` between
/// digits, in range. The text without underscores when it reads.
fn go_float(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut i = 0;
    let (mut dot, mut digits, mut underscores) = (false, false, false);
    while i < b.len() {
        match b[i] {
            b'_' => underscores = true,
            b'.' if !dot => dot = true,
            b'0'..=b'9' => digits = true,
            _ => break,
        }
        i += 1;
    }
    if !digits {
        return None;
    }
    if i < b.len() && (b[i] | 0x20) == b'e' {
        i += 1;
        if i < b.len() && matches!(b[i], b'+' | b'-') {
            i += 1;
        }
        if i >= b.len() || !b[i].is_ascii_digit() {
            return None;
        }
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
            underscores |= b[i] == b'_';
            i += 1;
        }
    }
    if i != b.len() || (underscores && !underscore_ok(s)) {
        return None;
    }
    let clean = s.replace('_', "");
    (!overflows(&clean)).then_some(clean)
}

/// Go's `underscoreOK` for a decimal text: each `_` between digits.
fn underscore_ok(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let mut saw = b'^';
    for &c in s.as_bytes() {
        if c.is_ascii_digit() {
            saw = b'0';
        } else if c == b'_' {
            if saw != b'0' {
                return false;
            }
            saw = b'_';
        } else {
            if saw == b'_' {
                return false;
            }
            saw = b'!';
        }
    }
    saw != b'_'
}

/// The smallest magnitude that rounds to infinity, 2^1024 - 2^970 (half
/// way between the largest float and 2^1024, which ties to even round
/// up): its digits, the point after all 309 of them.
const OVERFLOW: &str = "179769313486231580793728971405303415079934132710037826936173778980444968292764750946649017977587207096330286416692887910946555547851940402630657488671505820681908902000708383676273854845817711531764475730270069855571366959622842914819860834936475292719074168444365510704342711559699508093042880177904174497792";

/// Whether a decimal float text (digits, an optional `.`, an optional
/// exponent; a sign allowed) rounds to an infinity, which Go's
/// `ParseFloat` refuses as out of range. Decided on the digits.
pub(crate) fn overflows(s: &str) -> bool {
    let s = s.strip_prefix(['-', '+']).unwrap_or(s);
    let (mantissa, exponent) = match s.find(['e', 'E']) {
        Some(at) => (&s[..at], &s[at + 1..]),
        None => (s, ""),
    };
    let exponent: i64 = match exponent.strip_prefix('+').unwrap_or(exponent) {
        "" => 0,
        e => e.parse().unwrap_or(if e.starts_with('-') {
            i64::MIN / 2
        } else {
            i64::MAX / 2
        }),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let all: String = [whole, fraction].concat();
    let significant = all.trim_start_matches('0');
    let leading = all.len() - significant.len();
    let digits = significant.trim_end_matches('0');
    if digits.is_empty() {
        return false;
    }
    let point = whole.len() as i64 - leading as i64 + exponent;
    match point.cmp(&(OVERFLOW.len() as i64)) {
        std::cmp::Ordering::Less => false,
        std::cmp::Ordering::Greater => true,
        std::cmp::Ordering::Equal => digits >= OVERFLOW,
    }
}

/// Whether yaml.v2's `parseTimestamp` reads `s` (`2006-1-2T15:4:5.999999999Z07:00`,
/// the same with `t`, `2006-1-2 15:4:5.999999999`, `2006-1-2`).
pub(crate) fn is_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    if b.len() < 5 || !b[..4].iter().all(u8::is_ascii_digit) || b[4] != b'-' {
        return false;
    }
    let Some((month, rest)) = number_of(&s[5..]) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix('-') else {
        return false;
    };
    let Some((day, rest)) = number_of(rest) else {
        return false;
    };
    let year: u32 = s[..4].parse().unwrap_or(0);
    if !(1..=12).contains(&month) || day < 1 || day > days_in(month, year) {
        return false;
    }
    if rest.is_empty() {
        return true;
    }
    let (zoned, rest) = match rest.as_bytes()[0] {
        b'T' | b't' => (true, &rest[1..]),
        b' ' => (false, &rest[1..]),
        _ => return false,
    };
    clock_and_zone(rest, zoned)
}

/// `15:4:5.999999999`, then `Z07:00` when `zoned`.
fn clock_and_zone(s: &str, zoned: bool) -> bool {
    let mut rest = s;
    for (i, limit) in [24, 60, 60].into_iter().enumerate() {
        if i > 0 {
            let Some(r) = rest.strip_prefix(':') else {
                return false;
            };
            rest = r;
        }
        match number_of(rest) {
            Some((n, r)) if n < limit => rest = r,
            _ => return false,
        }
    }
    if let Some(fraction) = rest.strip_prefix(['.', ',']) {
        let n = fraction.len()
            - fraction
                .trim_start_matches(|c: char| c.is_ascii_digit())
                .len();
        if n > 0 {
            rest = &fraction[n..];
        }
    }
    if !zoned {
        return rest.is_empty();
    }
    if rest == "Z" {
        return true;
    }
    let z = rest.as_bytes();
    z.len() == 6
        && matches!(z[0], b'+' | b'-')
        && z[1..3].iter().all(u8::is_ascii_digit)
        && z[3] == b':'
        && z[4..6].iter().all(u8::is_ascii_digit)
        && rest[1..3].parse::<u32>().is_ok_and(|h| h <= 24)
        && rest[4..6].parse::<u32>().is_ok_and(|m| m <= 60)
}

/// Go's `getnum(s, false)`: one or two digits.
fn number_of(s: &str) -> Option<(u32, &str)> {
    let b = s.as_bytes();
    let first = char::from(*b.first()?).to_digit(10)?;
    match b.get(1).and_then(|c| char::from(*c).to_digit(10)) {
        Some(second) => Some((first * 10 + second, &s[2..])),
        None => Some((first, &s[1..])),
    }
}

fn days_in(month: u32, year: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}
