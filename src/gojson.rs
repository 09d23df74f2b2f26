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
mod isprint;
mod quote;
mod scanner;
mod verb;

pub use decode::{check_json_patch, check_merge_patch, DecodeError};
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
                entries.sort_unstable_by(|a, b| a.0.cmp(b.0));
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

/// Appends a `float64` as Go's encoder writes it.
pub fn write_float(out: &mut String, f: f64) {
    let abs = f.abs();
    if abs != 0.0 && !(1e-6..1e21).contains(&abs) {
        // Rust writes `1e21` and `1.5e-7`; Go writes `1e+21` and `1.5e-7`.
        let s = format!("{f:e}");
        match s.find('e') {
            Some(e) if !s[e + 1..].starts_with('-') => {
                out.push_str(&s[..=e]);
                out.push('+');
                out.push_str(&s[e + 1..]);
            }
            _ => out.push_str(&s),
        }
    } else {
        // Both write the shortest digits that read back, without exponent.
        use std::fmt::Write;
        let _ = write!(out, "{f}");
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

/// How the API server writes a stored scalar: like [`to_string`], except
/// that an unsigned integer above `i64::MAX` was read as a `float64`.
pub fn stored_scalar(value: &Value) -> String {
    match value {
        Value::Number(n) if n.as_i64().is_none() && n.as_u64().is_some() => {
            let mut out = String::new();
            write_float(&mut out, n.as_f64().unwrap_or(f64::NAN));
            out
        }
        _ => to_string(value),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
    }
}
