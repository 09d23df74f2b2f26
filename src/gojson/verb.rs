//! Go's view of a decoded JSON value (`interface{}` holding `string`,
//! `int64`, `float64`, `bool`, `nil`, `map[string]interface{}` or
//! `[]interface{}`): its dynamic type, `==`, and `fmt`'s `%v` and `%s`.
//!
//! Kubernetes decodes JSON numbers with k8s.io/apimachinery `pkg/util/json`
//! (sigs.k8s.io/json's `UnmarshalCaseSensitivePreserveInts`): a number
//! that reads as an `int64` is one, any other (`1.0`, `1e3`, above
//! `int64`) is a `float64`. Values of different dynamic types are never
//! `==`: `int64(1) != float64(1)`. Strategic merge patch compares merge
//! keys and list elements so, and prints them with `%v` in its errors.
//!
//! ```
//! use patchlab::gojson::{sprint, Verb};
//! use serde_json::json;
//!
//! assert_eq!(sprint(&json!({"name": "a", "ports": [80, 1.5, null]}), Verb::V),
//!            "map[name:a ports:[80 1.5 <nil>]]");
//! assert_eq!(sprint(&json!(1e6), Verb::V), "1e+06");
//! assert_eq!(sprint(&json!(3), Verb::S), "%!s(int64=3)");
//! ```

use std::fmt::Write;

use serde_json::{Number, Value};

/// A `fmt` verb.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verb {
    /// `%v`.
    V,
    /// `%s`: strings as they are; other scalars as `%!s(int64=1)`.
    S,
}

/// A JSON number as Go holds it after decoding.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum GoNumber {
    /// An `int64`.
    Int(i64),
    /// A `float64`.
    Float(f64),
}

/// How Kubernetes decodes a JSON number: an `int64` when the literal is an
/// integer that fits, a `float64` otherwise. serde_json reads `-0` as the
/// float -0.0; Go's `int64` decoding reads it as 0, taken here.
pub fn go_number(n: &Number) -> GoNumber {
    if let Some(i) = n.as_i64() {
        return GoNumber::Int(i);
    }
    let f = n.as_f64().unwrap_or(f64::NAN);
    if f == 0.0 && f.is_sign_negative() {
        GoNumber::Int(0)
    } else {
        GoNumber::Float(f)
    }
}

/// The name `reflect.TypeOf(v).String()` gives the value's dynamic type;
/// `None` for `nil` (a nil `reflect.Type`).
pub fn type_name(value: &Value) -> Option<&'static str> {
    Some(match value {
        Value::Null => return None,
        Value::Bool(_) => "bool",
        Value::String(_) => "string",
        Value::Number(n) => match go_number(n) {
            GoNumber::Int(_) => "int64",
            GoNumber::Float(_) => "float64",
        },
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    })
}

/// `reflect.TypeOf(v)` printed with `%s`: the type's name, or `%!s(<nil>)`.
pub fn type_name_s(value: &Value) -> &'static str {
    type_name(value).unwrap_or("%!s(<nil>)")
}

/// Whether two values have the same dynamic type (`reflect.TypeOf(a) ==
/// reflect.TypeOf(b)`; two nils do).
pub fn same_type(a: &Value, b: &Value) -> bool {
    type_name(a) == type_name(b)
}

/// Go's `==` on two `interface{}` values holding scalars; `None` when Go
/// panics (both hold maps, or both slices: uncomparable types).
pub fn go_eq(a: &Value, b: &Value) -> Option<bool> {
    Some(match (a, b) {
        (Value::Object(_), Value::Object(_)) | (Value::Array(_), Value::Array(_)) => return None,
        (Value::Null, Value::Null) => true,
        (Value::Bool(x), Value::Bool(y)) => x == y,
        (Value::String(x), Value::String(y)) => x == y,
        (Value::Number(x), Value::Number(y)) => match (go_number(x), go_number(y)) {
            (GoNumber::Int(x), GoNumber::Int(y)) => x == y,
            (GoNumber::Float(x), GoNumber::Float(y)) => x == y,
            _ => false,
        },
        _ => false,
    })
}

/// `reflect.DeepEqual` of two decoded values: maps by key set and values,
/// slices in order, scalars by [`go_eq`] (`int64(1)` and `float64(1)`
/// differ).
pub fn deep_equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| deep_equal(v, w)))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(v, w)| deep_equal(v, w))
        }
        _ => go_eq(a, b) == Some(true),
    }
}

/// A scalar as a hashable key with Go's `==` (so `int64(1)` and
/// `float64(1)` are two keys, `+0.0` and `-0.0` one); `None` for maps and
/// slices (Go panics hashing them: "hash of unhashable type").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ScalarKey<'a> {
    /// `nil`.
    Null,
    /// A `bool`.
    Bool(bool),
    /// An `int64`.
    Int(i64),
    /// A `float64`, by its bits (zero normalized).
    Float(u64),
    /// A `string`.
    Str(&'a str),
}

impl<'a> ScalarKey<'a> {
    /// The key of a scalar; `None` for a map or slice.
    pub fn of(value: &'a Value) -> Option<ScalarKey<'a>> {
        Some(match value {
            Value::Null => ScalarKey::Null,
            Value::Bool(b) => ScalarKey::Bool(*b),
            Value::String(s) => ScalarKey::Str(s),
            Value::Number(n) => match go_number(n) {
                GoNumber::Int(i) => ScalarKey::Int(i),
                GoNumber::Float(f) => ScalarKey::Float(if f == 0.0 { 0 } else { f.to_bits() }),
            },
            Value::Array(_) | Value::Object(_) => return None,
        })
    }
}

/// `fmt.Sprintf("%v", v)` (or `%s`) of a decoded JSON value.
pub fn sprint(value: &Value, verb: Verb) -> String {
    let mut out = String::new();
    write(&mut out, value, verb);
    out
}

/// Appends `%v` (or `%s`) of `value` to `out`: maps as `map[k:v k:v]`
/// with sorted keys, slices as `[a b]`, `nil` as `<nil>`, strings bare,
/// floats as `%g` with the shortest digits (`1e+06`, `0.0001`, `1e-05`).
pub fn write(out: &mut String, value: &Value, verb: Verb) {
    match value {
        Value::Null => out.push_str(match verb {
            Verb::V => "<nil>",
            Verb::S => "%!s(<nil>)",
        }),
        Value::String(s) => out.push_str(s),
        Value::Bool(b) => scalar(out, verb, "bool", if *b { "true" } else { "false" }),
        Value::Number(n) => match go_number(n) {
            GoNumber::Int(i) => scalar(out, verb, "int64", itoa::Buffer::new().format(i)),
            GoNumber::Float(f) => scalar(out, verb, "float64", &format_g(f)),
        },
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                write(out, item, verb);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("map[");
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(' ');
                }
                out.push_str(key);
                out.push(':');
                write(out, item, verb);
            }
            out.push(']');
        }
    }
}

fn scalar(out: &mut String, verb: Verb, type_name: &str, text: &str) {
    match verb {
        Verb::V => out.push_str(text),
        Verb::S => {
            let _ = write!(out, "%!s({type_name}={text})");
        }
    }
}

/// `strconv.FormatFloat(f, 'g', -1, 64)`: the shortest digits that read
/// back, in exponent form when the exponent is below -4 or at least 6
/// (Go decides with precision 6 in shortest mode); the exponent has a sign
/// and at least two digits.
pub fn format_g(f: f64) -> String {
    if f.is_nan() {
        return "NaN".to_owned();
    }
    if f.is_infinite() {
        return if f > 0.0 { "+Inf" } else { "-Inf" }.to_owned();
    }
    if f == 0.0 {
        return if f.is_sign_negative() { "-0" } else { "0" }.to_owned();
    }
    let Some(shortest) = super::Shortest::of(f) else {
        return String::new();
    };
    let mut out = String::new();
    if f < 0.0 {
        out.push('-');
    }
    if (-4..6).contains(&shortest.exponent()) {
        shortest.write_plain(&mut out);
    } else {
        shortest.write_mantissa(&mut out);
        shortest.write_exponent(&mut out, 2);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn floats_print_as_go_percent_v() {
        // Expected values: Go's fmt.Sprint(float64(x)).
        let cases = [
            (1e6, "1e+06"),
            (123456.0, "123456"),
            (1234567.0, "1.234567e+06"),
            (0.0001, "0.0001"),
            (0.00001, "1e-05"),
            (1.5e-7, "1.5e-07"),
            (1e21, "1e+21"),
            (12.5, "12.5"),
            (-2.25, "-2.25"),
            (0.1, "0.1"),
            (1e100, "1e+100"),
            (99999.5, "99999.5"),
        ];
        for (f, go) in cases {
            assert_eq!(format_g(f), go, "{f}");
        }
    }

    #[test]
    fn values_print_as_go_percent_v_and_s() {
        let v = json!({"b": [1, "x", true, null], "a": {"k": 2.5}});
        assert_eq!(sprint(&v, Verb::V), "map[a:map[k:2.5] b:[1 x true <nil>]]");
        assert_eq!(
            sprint(&v, Verb::S),
            "map[a:map[k:%!s(float64=2.5)] b:[%!s(int64=1) x %!s(bool=true) %!s(<nil>)]]"
        );
        assert_eq!(sprint(&json!(1.0), Verb::V), "1");
        assert_eq!(sprint(&json!([]), Verb::V), "[]");
        assert_eq!(sprint(&json!({}), Verb::V), "map[]");
    }

    #[test]
    fn equality_and_types_are_go_s() {
        assert_eq!(go_eq(&json!(1), &json!(1.0)), Some(false));
        assert_eq!(go_eq(&json!(1.5), &json!(1.5)), Some(true));
        assert_eq!(go_eq(&json!("a"), &json!({})), Some(false));
        assert_eq!(go_eq(&json!({}), &json!({})), None);
        assert!(deep_equal(&json!({"a": [1, {}]}), &json!({"a": [1, {}]})));
        assert!(!deep_equal(&json!([1]), &json!([1.0])));
        assert_eq!(type_name(&json!(1)), Some("int64"));
        assert_eq!(type_name(&json!(1e3)), Some("float64"));
        assert_eq!(type_name(&json!(u64::MAX)), Some("float64"));
        assert_eq!(type_name_s(&json!(null)), "%!s(<nil>)");
        // serde_json reads `-0` as -0.0; Go's decoder as int64 0.
        let minus_zero: Value = serde_json::from_str("-0").unwrap();
        assert_eq!(ScalarKey::of(&minus_zero), ScalarKey::of(&json!(0)));
        assert_ne!(ScalarKey::of(&json!(1)), ScalarKey::of(&json!(1.0)));
    }
}
