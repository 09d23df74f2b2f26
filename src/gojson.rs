//! Go's JSON and string formatting, exactly: `encoding/json`'s encoder
//! (this file), its syntax check ([`check_valid`]), kube-apiserver's strict
//! decode of patch bodies ([`check_json_patch`], [`check_merge_patch`]) and
//! `strconv.Quote` ([`quote`]).
//!
//! ## The encoder
//!
//! The API server compares `test` scalars byte for byte, and it stores
//! objects as Go encodes them, so the bytes matter:
//!
//! - object keys sorted by bytes;
//! - `<`, `>`, `&` written as `\u003c`, `\u003e`, `\u0026`, and U+2028,
//!   U+2029 as `\u2028`, `\u2029` (HTML-safe escaping);
//! - other control characters as `\b`, `\f`, `\n`, `\r`, `\t` or
//!   `\u00XX` (lowercase hex);
//! - integers in decimal; floats in the shortest form that reads back,
//!   plain decimal from 1e-6 up to 1e21 and exponent form (`1e+21`,
//!   `1e-7`) outside, so `1.0` is written `1`.
//!
//! ```
//! use serde_json::json;
//! let v = json!({"b": "<b>&", "a": [1.0, 2.5, 1e21]});
//! assert_eq!(
//!     patchlab::gojson::to_string(&v),
//!     r#"{"a":[1,2.5,1e+21],"b":"\u003cb\u003e\u0026"}"#
//! );
//! ```

use serde_json::{Number, Value};

mod decode;
mod digits;
mod isprint;
mod quote;
mod scanner;
mod verb;

pub use decode::{check_json_patch, check_merge_patch, DecodeError};
pub use digits::Shortest;
pub use isprint::is_print;
pub use quote::{prints_as_is, quote};
pub use scanner::{check_valid, SyntaxError};
pub use verb::{
    deep_equal, format_g, go_eq, go_number, same_type, sprint, type_name, type_name_s, GoNumber,
    ScalarKey, Verb,
};

/// Go's encoding of `value`.
pub fn to_string(value: &Value) -> String {
    let mut out = String::new();
    write_value(&mut out, value);
    out
}

/// Appends Go's encoding of `value` to `out`.
pub fn write_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(true) => out.push_str("true"),
        Value::Bool(false) => out.push_str("false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            // serde_json's map is a BTreeMap, already in byte order; sort only
            // if a build enables its `preserve_order` feature.
            if map.keys().is_sorted() {
                write_members(out, map.iter());
            } else {
                let mut entries: Vec<_> = map.iter().collect();
                crate::sort::sort_by(&mut entries, |a, b| a.0.cmp(b.0));
                write_members(out, entries.into_iter());
            }
            out.push('}');
        }
    }
}

fn write_members<'a>(out: &mut String, members: impl Iterator<Item = (&'a String, &'a Value)>) {
    for (i, (key, item)) in members.enumerate() {
        if i > 0 {
            out.push(',');
        }
        write_str(out, key);
        out.push(':');
        write_value(out, item);
    }
}

/// Appends a number as Go writes an `int64` (integers) or a `float64`.
pub fn write_number(out: &mut String, n: &Number) {
    if let Some(i) = n.as_i64() {
        out.push_str(itoa::Buffer::new().format(i));
    } else if let Some(u) = n.as_u64() {
        out.push_str(itoa::Buffer::new().format(u));
    } else if let Some(f) = n.as_f64() {
        write_float(out, f);
    }
}

/// Appends a `float64` as Go's encoder writes it: the shortest digits that
/// read back, plain decimal from 1e-6 up to 1e21 (`0.000001`,
/// `100000000000000000000`), exponent form outside (`1e+21`, `1.5e-7`).
pub fn write_float(out: &mut String, f: f64) {
    // Go's encoder refuses NaN and the infinities (a JSON value never
    // holds them); they are written as Rust writes them.
    if f.is_nan() {
        out.push_str("NaN");
        return;
    }
    if f.is_sign_negative() {
        out.push('-');
    }
    let Some(shortest) = Shortest::of(f) else {
        out.push_str(if f == 0.0 { "0" } else { "inf" });
        return;
    };
    let abs = f.abs();
    if (1e-6..1e21).contains(&abs) {
        shortest.write_plain(out);
    } else {
        shortest.write_mantissa(out);
        shortest.write_exponent(out, 1);
    }
}

/// Appends a quoted string with Go's HTML-safe escaping.
pub fn write_str(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    // Fast path: nothing to escape (0xE2 starts U+2028 and U+2029).
    if !s
        .bytes()
        .any(|b| b < 0x20 || matches!(b, b'"' | b'\\' | b'<' | b'>' | b'&' | 0xE2))
    {
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut start = 0;
    for (i, c) in s.char_indices() {
        let escaped: Option<&str> = match c {
            '"' => Some("\\\""),
            '\\' => Some("\\\\"),
            '\n' => Some("\\n"),
            '\r' => Some("\\r"),
            '\t' => Some("\\t"),
            '\u{8}' => Some("\\b"),
            '\u{c}' => Some("\\f"),
            _ => None,
        };
        let needs_hex = matches!(
            c,
            '\0'..='\u{1f}' | '<' | '>' | '&' | '\u{2028}' | '\u{2029}'
        );
        if escaped.is_none() && !needs_hex {
            continue;
        }
        out.push_str(&s[start..i]);
        start = i + c.len_utf8();
        if let Some(esc) = escaped {
            out.push_str(esc);
        } else {
            let code = c as u32;
            out.push_str("\\u");
            for shift in [12, 8, 4, 0] {
                out.push(HEX[((code >> shift) & 0xf) as usize] as char);
            }
        }
    }
    out.push_str(&s[start..]);
    out.push('"');
}

/// How the API server writes a stored scalar: like [`to_string`] of the
/// number as stored ([`stored_number`]): an unsigned integer above
/// `i64::MAX` was read as a `float64`, `-0` as the integer 0.
pub fn stored_scalar(value: &Value) -> String {
    match value {
        Value::Number(n) => {
            let mut out = String::new();
            write_number(&mut out, &stored_number(n));
            out
        }
        _ => to_string(value),
    }
}

/// A number as the API server holds it once stored: Kubernetes decodes a
/// JSON number as an `int64` when its text is an integer that fits, else
/// as a `float64` (sigs.k8s.io/json `UnmarshalCaseSensitivePreserveInts`,
/// `convertNumber`), and writes a `float64` as Go's encoder does; the
/// next read decodes that text again. So `1.0` is stored as `1` (an
/// integer once read back), `-0` and `-0.0` as `0`, `1e-6` as
/// `0.000001`, and `18446744073709551615` as the float written
/// `18446744073709552000`. Reading the stored text again changes nothing.
///
/// ```
/// use patchlab::gojson::{stored_number, to_string};
/// use serde_json::{json, Number, Value};
///
/// let stored = |v: Value| to_string(&Value::Number(stored_number(v.as_number().unwrap())));
/// assert_eq!(stored(json!(1.0)), "1");
/// assert!(stored_number(&Number::from_f64(1.0).unwrap()).is_i64());
/// assert_eq!(stored(json!(-0.0)), "0");
/// assert_eq!(stored(json!(u64::MAX)), "18446744073709552000");
/// assert_eq!(stored(json!(1e-6)), "0.000001");
/// ```
pub fn stored_number(n: &Number) -> Number {
    match go_number(n) {
        GoNumber::Int(i) => Number::from(i),
        GoNumber::Float(f) => {
            let mut text = String::new();
            write_float(&mut text, f);
            // `ParseInt` first: a float written without fraction or
            // exponent reads back as an int64 when it fits.
            match text.parse::<i64>() {
                Ok(i) => Number::from(i),
                Err(_) => Number::from_f64(f).unwrap_or_else(|| n.clone()),
            }
        }
    }
}

/// True when [`stored_number`] changes nothing in `value` (no number to
/// rewrite), so a caller can skip a copy.
pub fn is_stored(value: &Value) -> bool {
    match value {
        Value::Number(n) => stored_number(n) == *n,
        Value::Array(items) => items.iter().all(is_stored),
        Value::Object(map) => map.values().all(is_stored),
        _ => true,
    }
}

/// Rewrites every number of `value` as the API server stores it (see
/// [`stored_number`]). Iterative: nesting does not grow the stack.
pub fn store_numbers(value: &mut Value) {
    let mut stack = vec![value];
    while let Some(value) = stack.pop() {
        match value {
            Value::Number(n) => *n = stored_number(n),
            Value::Array(items) => stack.extend(items.iter_mut()),
            Value::Object(map) => stack.extend(map.values_mut()),
            _ => {}
        }
    }
}

/// `value` as the API server stores it: borrowed when nothing changes.
pub fn stored(value: &Value) -> std::borrow::Cow<'_, Value> {
    if is_stored(value) {
        std::borrow::Cow::Borrowed(value)
    } else {
        let mut owned = value.clone();
        store_numbers(&mut owned);
        std::borrow::Cow::Owned(owned)
    }
}

/// True when two values are one once the server stored them: `1` and
/// `1.0` are, `1` and `"1"` are not.
///
/// ```
/// use patchlab::gojson::stored_eq;
/// use serde_json::json;
/// assert!(stored_eq(&json!({"a": [1, -0]}), &json!({"a": [1.0, 0]})));
/// assert!(!stored_eq(&json!(1), &json!(1.5)));
/// ```
pub fn stored_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => stored_number(x) == stored_number(y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| stored_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, a)| y.get(k).is_some_and(|b| stored_eq(a, b)))
        }
        _ => a == b,
    }
}

/// A serde_json formatter that writes floats as Go's encoder does (`1e+21`,
/// `0.000001`, `18446744073709552000`) and the rest as the inner formatter
/// does: with [`store_numbers`] first, a document prints its numbers as
/// the API server writes them, its strings as serde_json does.
///
/// ```
/// use patchlab::gojson::{store_numbers, GoNumbers};
/// use serde::Serialize;
/// use serde_json::json;
///
/// let mut doc = json!({"a": 1.0, "b": 1e-6, "c": u64::MAX, "d": -0.0, "e": "<"});
/// store_numbers(&mut doc);
/// let mut out = Vec::new();
/// let mut ser = serde_json::Serializer::with_formatter(&mut out, GoNumbers(serde_json::ser::CompactFormatter));
/// doc.serialize(&mut ser).unwrap();
/// assert_eq!(String::from_utf8(out).unwrap(), r#"{"a":1,"b":0.000001,"c":18446744073709552000,"d":0,"e":"<"}"#);
/// ```
#[derive(Clone, Debug)]
pub struct GoNumbers<F>(pub F);

macro_rules! delegate {
    ($($name:ident($($arg:ident: $ty:ty),*);)*) => {
        $(
            fn $name<W: ?Sized + std::io::Write>(&mut self, writer: &mut W $(, $arg: $ty)*) -> std::io::Result<()> {
                self.0.$name(writer $(, $arg)*)
            }
        )*
    };
}

impl<F: serde_json::ser::Formatter> serde_json::ser::Formatter for GoNumbers<F> {
    fn write_f64<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        value: f64,
    ) -> std::io::Result<()> {
        let mut out = String::new();
        write_float(&mut out, value);
        writer.write_all(out.as_bytes())
    }

    fn write_f32<W: ?Sized + std::io::Write>(
        &mut self,
        writer: &mut W,
        value: f32,
    ) -> std::io::Result<()> {
        self.write_f64(writer, f64::from(value))
    }

    delegate! {
        begin_array(); end_array();
        begin_array_value(first: bool); end_array_value();
        begin_object(); end_object();
        begin_object_key(first: bool); end_object_key();
        begin_object_value(); end_object_value();
    }
}

/// `value` as JSON text with its numbers as the API server writes them
/// ([`store_numbers`], [`GoNumbers`]); strings and layout as serde_json
/// writes them (two-space indentation when `pretty`).
pub fn to_string_stored(value: &Value, pretty: bool) -> String {
    use serde::Serialize;
    let value = stored(value);
    let mut out = Vec::new();
    let written = if pretty {
        let mut ser = serde_json::Serializer::with_formatter(
            &mut out,
            GoNumbers(serde_json::ser::PrettyFormatter::new()),
        );
        value.serialize(&mut ser)
    } else {
        let mut ser = serde_json::Serializer::with_formatter(
            &mut out,
            GoNumbers(serde_json::ser::CompactFormatter),
        );
        value.serialize(&mut ser)
    };
    // Writing into a Vec cannot fail, and the output is UTF-8.
    match written {
        Ok(()) => String::from_utf8(out).unwrap_or_default(),
        Err(_) => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The encoder's float text as it was written with core's formatting
    /// (`{}` and `{:e}`): the oracle of [`write_float`] on Shortest.
    fn float_by_core(f: f64) -> String {
        let abs = f.abs();
        if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
            let s = format!("{f:e}");
            match s.find('e') {
                Some(e) if !s[e + 1..].starts_with('-') => format!("{}+{}", &s[..=e], &s[e + 1..]),
                _ => s,
            }
        } else {
            format!("{f}")
        }
    }

    #[test]
    fn floats_are_written_as_before_at_the_edges() {
        for f in [
            0.0,
            -0.0,
            1.0,
            -1.0,
            1.5,
            1e-6,
            9.99e-7,
            1e21,
            9.999e20,
            1e20,
            -1e21,
            1e-7,
            5e-324,
            f64::MAX,
            f64::MIN_POSITIVE,
            0.1 + 0.2,
            123_456_789.0,
            1e300,
            -2.5e-300,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
        ] {
            let mut out = String::new();
            write_float(&mut out, f);
            assert_eq!(out, float_by_core(f), "{f:e}");
        }
    }

    // proptest is a native dev-dependency.
    #[cfg(not(target_arch = "wasm32"))]
    mod properties {
        use super::*;

        proptest::proptest! {
            #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]

            /// Any float: written as core's formatting wrote it, but on a tie
            /// (the last digit then the even one, as Go writes it: see
            /// `tests/kubectl_numbers.rs`), and read back as the same float.
            #[test]
            fn floats_are_written_as_core_formatting_wrote_them_but_ties(bits in proptest::prelude::any::<u64>()) {
                let f = f64::from_bits(bits);
                let mut out = String::new();
                write_float(&mut out, f);
                let core = float_by_core(f);
                if out != core {
                    let (a, b) = (out.as_bytes(), core.as_bytes());
                    let at = a.iter().zip(b).position(|(x, y)| x != y).unwrap_or(0);
                    proptest::prop_assert_eq!(a.len(), b.len(), "{} against {}", out, core);
                    proptest::prop_assert!(a[at].is_ascii_digit() && a[at] % 2 == 0 && a[at].abs_diff(b[at]) == 1, "{} against {}", out, core);
                    proptest::prop_assert_eq!(&a[at + 1..], &b[at + 1..]);
                }
                if f.is_finite() {
                    proptest::prop_assert_eq!(out.parse::<f64>().map(f64::to_bits), Ok(f.to_bits()));
                }
            }
        }
    }

    #[test]
    fn strings_are_html_escaped_like_go() {
        let cases = [
            ("plain", r#""plain""#),
            ("<b>&amp;", r#""\u003cb\u003e\u0026amp;""#),
            ("quote\" back\\", r#""quote\" back\\""#),
            ("\n\r\t\u{8}\u{c}", r#""\n\r\t\b\f""#),
            ("\u{1}\u{1f}", r#""\u0001\u001f""#),
            ("\u{2028}\u{2029}", r#""\u2028\u2029""#),
            ("ünïcödé ✓ \u{7f}", "\"ünïcödé ✓ \u{7f}\""),
            ("/slash", r#""/slash""#),
        ];
        for (s, go) in cases {
            let mut out = String::new();
            write_str(&mut out, s);
            assert_eq!(out, go, "{s:?}");
        }
    }

    #[test]
    fn numbers_like_go_int64_and_float64() {
        let cases = [
            (json!(0), "0"),
            (json!(-7), "-7"),
            (json!(u64::MAX), "18446744073709551615"),
            (json!(1.0), "1"),
            (json!(-0.0), "-0"),
            (json!(2.5), "2.5"),
            (json!(0.1), "0.1"),
            (json!(1e20), "100000000000000000000"),
            (json!(1e21), "1e+21"),
            (json!(1.5e300), "1.5e+300"),
            (json!(0.000001), "0.000001"),
            (json!(1e-7), "1e-7"),
            (json!(1.25e-10), "1.25e-10"),
            (json!(123456789.125), "123456789.125"),
        ];
        for (v, go) in cases {
            assert_eq!(to_string(&v), go, "{v}");
        }
    }

    #[test]
    fn objects_sort_keys_by_bytes() {
        let v = json!({"b": 1, "a": {"z": null, "Z": [], "é": {}, "a~b": true}});
        assert_eq!(
            to_string(&v),
            r#"{"a":{"Z":[],"a~b":true,"z":null,"é":{}},"b":1}"#
        );
    }

    #[test]
    fn stored_big_unsigned_reads_back_as_float() {
        assert_eq!(stored_scalar(&json!(u64::MAX)), "18446744073709552000");
        assert_eq!(stored_scalar(&json!(5)), "5");
        assert_eq!(stored_scalar(&json!("<")), r#""\u003c""#);
        // Go reads `-0` as int64 0, and stores the float -0 as `-0`, which
        // reads back as 0.
        assert_eq!(stored_scalar(&json!(-0.0)), "0");
    }

    #[test]
    fn numbers_as_stored_are_a_fixed_point() {
        let cases = [
            (json!(0), "0", true),
            (json!(-0.0), "0", true),
            (json!(1.0), "1", true),
            (json!(-7.0), "-7", true),
            (json!(1.5), "1.5", false),
            (json!(1e-6), "0.000001", false),
            (json!(1e-7), "1e-7", false),
            (json!(1e20), "100000000000000000000", false),
            (json!(1e21), "1e+21", false),
            (json!(9.223372036854776e18), "9223372036854776000", false),
            (json!(i64::MAX), "9223372036854775807", true),
            (json!(i64::MIN), "-9223372036854775808", true),
            (json!(u64::MAX), "18446744073709552000", false),
        ];
        for (value, text, int) in cases {
            let n = value.as_number().unwrap();
            let once = stored_number(n);
            assert_eq!(to_string(&Value::Number(once.clone())), text, "{value}");
            assert_eq!(once.is_i64(), int, "{value}");
            assert_eq!(stored_number(&once), once, "{value} is a fixed point");
            // Reading the stored text again gives the same number.
            let reread: Value = serde_json::from_str(text).unwrap();
            assert_eq!(stored_number(reread.as_number().unwrap()), once, "{text}");
        }
        let mut doc = json!({"a": [1.0, {"b": -0.0}], "c": "1.0", "d": 2});
        assert!(!is_stored(&doc));
        store_numbers(&mut doc);
        assert!(is_stored(&doc));
        assert_eq!(to_string(&doc), r#"{"a":[1,{"b":0}],"c":"1.0","d":2}"#);
        assert!(stored_eq(&json!([1, "x"]), &json!([1.0, "x"])));
        assert!(!stored_eq(&json!({"a": 1}), &json!({"a": 1, "b": 1})));
        assert!(!stored_eq(&json!("1"), &json!(1)));
    }

    #[test]
    fn documents_print_numbers_as_the_server_writes_them() {
        let doc = json!({"n": [1.0, 1e-6, u64::MAX, -0.0, 1e21, 2.5], "s": "<b>"});
        assert_eq!(
            to_string_stored(&doc, false),
            r#"{"n":[1,0.000001,18446744073709552000,0,1e+21,2.5],"s":"<b>"}"#
        );
        assert_eq!(
            to_string_stored(&json!({"a": [1.0]}), true),
            "{\n  \"a\": [\n    1\n  ]\n}"
        );
    }
}
