//! Equality for `test` ops: by value under RFC 6902, and as the API
//! server's engine compares (structure, then scalars byte for byte).

use std::borrow::Cow;
use std::collections::HashMap;

use serde_json::{Number, Value};

use crate::gojson;

/// One resolved step of a path: an object member or an array element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seg {
    /// An object member (decoded key).
    Key(String),
    /// An array element (resolved index).
    Index(usize),
}

/// A `null` an op of the running patch put in, which evanphx holds
/// differently from a `null` read from the document (a nil node).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mark {
    /// An `add` or `replace` with `"value": null`: a node without bytes.
    /// Walking through it dereferences nil before v4.13.0; it equals only a
    /// top-level test of `null`.
    RawNull,
    /// A `copy` of such a node: a node holding the bytes `null`, which
    /// decodes into a nil map (an empty object that cannot be written).
    NullText,
}

/// RFC 6902 equality: numbers by value (`1` equals `1.0`), objects by key
/// set and values in any order, arrays in order.
pub fn rfc_eq(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => number_eq(x, y),
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(a, b)| rfc_eq(a, b))
        }
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(key, a)| y.get(key).is_some_and(|b| rfc_eq(a, b)))
        }
        _ => a == b,
    }
}

fn number_eq(x: &Number, y: &Number) -> bool {
    if let (Some(a), Some(b)) = (x.as_i64(), y.as_i64()) {
        return a == b;
    }
    if let (Some(a), Some(b)) = (x.as_u64(), y.as_u64()) {
        return a == b;
    }
    if x.is_f64() || y.is_f64() {
        return x.as_f64() == y.as_f64();
    }
    // One is negative (i64 only), the other above i64::MAX (u64 only).
    false
}

/// What the API server's comparison does with a pair of values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KubeCmp {
    /// The test passes.
    Equal,
    /// The test fails (422).
    NotEqual,
    /// The Go engine dereferences a nil node (a `null` array element) and
    /// panics: the server answers 500.
    Panic,
}

/// Compares a stored value with the bytes of a `test` value as the
/// evanphx/json-patch v4 engine does: objects by key set (a member holding
/// `null` differs from an absent one), arrays in order and by length first,
/// scalars as bytes, the stored side written as Go writes it.
///
/// `raw` must be valid JSON text (it was parsed before).
pub fn kube_compare(stored: &Value, raw: &str) -> KubeCmp {
    let raw = raw.trim_matches(is_ws);
    match stored {
        Value::Object(map) => {
            if !raw.starts_with('{') {
                return KubeCmp::NotEqual;
            }
            let members = object_members(raw);
            if members.len() != map.len() {
                return KubeCmp::NotEqual;
            }
            for (key, value) in map {
                let Some(other) = members.get(key.as_str()) else {
                    return KubeCmp::NotEqual;
                };
                let other_null = *other == "null";
                if value.is_null() != other_null {
                    return KubeCmp::NotEqual;
                }
                if other_null {
                    continue;
                }
                match kube_compare(value, other) {
                    KubeCmp::Equal => {}
                    verdict => return verdict,
                }
            }
            KubeCmp::Equal
        }
        Value::Array(items) => {
            if !raw.starts_with('[') {
                return KubeCmp::NotEqual;
            }
            let elements = array_elements(raw);
            if elements.len() != items.len() {
                return KubeCmp::NotEqual;
            }
            for (value, other) in items.iter().zip(elements) {
                if value.is_null() || other == "null" {
                    return KubeCmp::Panic;
                }
                match kube_compare(value, other) {
                    KubeCmp::Equal => {}
                    verdict => return verdict,
                }
            }
            KubeCmp::Equal
        }
        scalar => {
            if gojson::stored_scalar(scalar) == raw {
                KubeCmp::Equal
            } else {
                KubeCmp::NotEqual
            }
        }
    }
}

/// [`kube_compare`] of a subtree that holds nulls the running patch put in
/// (`marks`, relative to `stored`): a marked member equals no test value
/// (`RawNull`) or only `{}` (`NullText`); a marked array element panics
/// only against a test `null`.
pub(crate) fn compare_marked(stored: &Value, raw: &str, marks: &[(Vec<Seg>, Mark)]) -> KubeCmp {
    let mut path = Vec::new();
    marked(stored, raw, marks, &mut path)
}

fn mark_of(marks: &[(Vec<Seg>, Mark)], path: &[Seg]) -> Option<Mark> {
    marks
        .iter()
        .find(|(at, _)| at.as_slice() == path)
        .map(|(_, mark)| *mark)
}

/// A marked null compared with the bytes `other` (not `null`).
fn marked_equal(mark: Mark, other: &str) -> KubeCmp {
    match mark {
        Mark::RawNull => KubeCmp::NotEqual,
        Mark::NullText => kube_compare(&Value::Object(serde_json::Map::new()), other),
    }
}

fn marked(stored: &Value, raw: &str, marks: &[(Vec<Seg>, Mark)], path: &mut Vec<Seg>) -> KubeCmp {
    let raw = raw.trim_matches(is_ws);
    match stored {
        Value::Object(map) => {
            if !raw.starts_with('{') {
                return KubeCmp::NotEqual;
            }
            let members = object_members(raw);
            if members.len() != map.len() {
                return KubeCmp::NotEqual;
            }
            for (key, value) in map {
                let Some(other) = members.get(key.as_str()) else {
                    return KubeCmp::NotEqual;
                };
                let other_null = *other == "null";
                path.push(Seg::Key(key.clone()));
                let verdict = match (value.is_null(), mark_of(marks, path)) {
                    // A node against nil, or a raw node against anything.
                    (true, Some(_)) if other_null => KubeCmp::NotEqual,
                    (true, Some(mark)) => marked_equal(mark, other),
                    (true, None) if other_null => KubeCmp::Equal,
                    (null, _) if null || other_null => KubeCmp::NotEqual,
                    _ => marked(value, other, marks, path),
                };
                path.pop();
                if verdict != KubeCmp::Equal {
                    return verdict;
                }
            }
            KubeCmp::Equal
        }
        Value::Array(items) => {
            if !raw.starts_with('[') {
                return KubeCmp::NotEqual;
            }
            let elements = array_elements(raw);
            if elements.len() != items.len() {
                return KubeCmp::NotEqual;
            }
            for (i, (value, other)) in items.iter().zip(elements).enumerate() {
                path.push(Seg::Index(i));
                let verdict = match (value.is_null(), mark_of(marks, path)) {
                    _ if other == "null" => KubeCmp::Panic,
                    (true, Some(mark)) => marked_equal(mark, other),
                    (true, None) => KubeCmp::Panic,
                    _ => marked(value, other, marks, path),
                };
                path.pop();
                if verdict != KubeCmp::Equal {
                    return verdict;
                }
            }
            KubeCmp::Equal
        }
        scalar => kube_compare(scalar, raw),
    }
}

/// Where a failed `test` whose value equals the stored one differs in
/// bytes only: the first scalar (in the stored object's key order) whose
/// bytes as sent are not the bytes the server stores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ByteDifference {
    /// The scalar's pointer below the op's path (`""`: the value itself).
    pub at: String,
    /// Its bytes as the client sent them.
    pub sent: String,
    /// Its bytes as the server stores them (Go's encoding).
    pub stored: String,
}

/// The first scalar where the bytes of a `test` value (`raw`, valid JSON)
/// differ from a stored value of the same shape; `None` when the shapes
/// differ before any scalar does or nothing differs. Iterative.
pub(crate) fn byte_difference(stored: &Value, raw: &str) -> Option<ByteDifference> {
    let mut stack: Vec<(&Value, &str, String)> = vec![(stored, raw, String::new())];
    while let Some((value, raw, at)) = stack.pop() {
        let raw = raw.trim_matches(is_ws);
        match value {
            Value::Object(map) => {
                let members = object_members(raw);
                // Reversed onto the stack: visited in key order.
                for (key, value) in map.iter().rev() {
                    let other = members.get(key.as_str())?;
                    stack.push((
                        value,
                        other,
                        format!("{at}/{}", crate::pointer::escape(key)),
                    ));
                }
            }
            Value::Array(items) => {
                let elements = array_elements(raw);
                if elements.len() != items.len() {
                    return None;
                }
                for (i, (value, other)) in items.iter().zip(elements).enumerate().rev() {
                    stack.push((value, other, format!("{at}/{i}")));
                }
            }
            scalar => {
                let bytes = gojson::stored_scalar(scalar);
                if bytes != raw {
                    return Some(ByteDifference {
                        at,
                        sent: raw.to_owned(),
                        stored: bytes,
                    });
                }
            }
        }
    }
    None
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r')
}

/// A cursor over JSON text that is already known to be valid.
struct Cursor<'a> {
    text: &'a str,
    at: usize,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Self {
        Cursor { text, at: 0 }
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// Skips the string starting at the cursor (on its opening quote).
    fn skip_string(&mut self) {
        let bytes = self.text.as_bytes();
        self.at += 1;
        while self.at < bytes.len() {
            match bytes[self.at] {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    return;
                }
                _ => self.at += 1,
            }
        }
    }

    /// Returns the text of the value at the cursor and moves past it.
    /// Nesting is tracked with a counter, not recursion.
    fn value(&mut self) -> &'a str {
        self.skip_ws();
        let start = self.at;
        let bytes = self.text.as_bytes();
        let mut depth = 0usize;
        while self.at < bytes.len() {
            match bytes[self.at] {
                b'"' => {
                    self.skip_string();
                    if depth == 0 {
                        break;
                    }
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.at += 1;
                }
                b'}' | b']' => {
                    if depth == 0 {
                        break;
                    }
                    depth -= 1;
                    self.at += 1;
                    if depth == 0 {
                        break;
                    }
                }
                b',' | b':' if depth == 0 => break,
                b' ' | b'\t' | b'\n' | b'\r' if depth == 0 => break,
                _ => self.at += 1,
            }
        }
        &self.text[start..self.at]
    }

    /// Skips whitespace and one expected byte, if present.
    fn eat(&mut self, byte: u8) -> bool {
        self.skip_ws();
        if self.peek() == Some(byte) {
            self.at += 1;
            true
        } else {
            false
        }
    }
}

fn array_elements(raw: &str) -> Vec<&str> {
    let mut cursor = Cursor::new(raw);
    let mut out = Vec::new();
    cursor.eat(b'[');
    if cursor.eat(b']') {
        return out;
    }
    loop {
        out.push(cursor.value());
        if !cursor.eat(b',') {
            break;
        }
    }
    out
}

/// Members of an object; a repeated key keeps its last value, as Go's
/// decoder does.
fn object_members(raw: &str) -> HashMap<Cow<'_, str>, &str> {
    let mut cursor = Cursor::new(raw);
    let mut out = HashMap::new();
    cursor.eat(b'{');
    if cursor.eat(b'}') {
        return out;
    }
    loop {
        let key = cursor.value();
        cursor.eat(b':');
        let value = cursor.value();
        out.insert(decode_key(key), value);
        if !cursor.eat(b',') {
            break;
        }
    }
    out
}

fn decode_key(quoted: &str) -> Cow<'_, str> {
    let inner = quoted
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(quoted);
    if inner.contains('\\') {
        Cow::Owned(serde_json::from_str::<String>(quoted).unwrap_or_else(|_| inner.to_owned()))
    } else {
        Cow::Borrowed(inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn byte_differences_name_the_scalar_and_both_texts() {
        let stored = json!({"a": {"b": "<b>", "c": 1}, "d": [1, 2]});
        let diff = byte_difference(&stored, r#"{"d":[1,2.0],"a":{"c":1.0,"b":"<b>"}}"#).unwrap();
        assert_eq!(
            (diff.at.as_str(), diff.sent.as_str(), diff.stored.as_str()),
            ("/a/b", r#""<b>""#, r#""\u003cb\u003e""#)
        );
        let diff = byte_difference(&json!(u64::MAX), " 18446744073709551615 ").unwrap();
        assert_eq!(
            (diff.at.as_str(), diff.sent.as_str(), diff.stored.as_str()),
            ("", "18446744073709551615", "18446744073709552000")
        );
        assert_eq!(
            byte_difference(&json!({"a/b": [1]}), r#"{"a/b":[1.5]}"#)
                .unwrap()
                .at,
            "/a~1b/0"
        );
        assert_eq!(byte_difference(&json!([1]), "[1]"), None);
        assert_eq!(byte_difference(&json!([1]), "[1,2]"), None);
    }

    #[test]
    fn rfc_numbers_compare_by_value() {
        assert!(rfc_eq(&json!(1), &json!(1.0)));
        assert!(rfc_eq(&json!({"a": [1, 2.0]}), &json!({"a": [1.0, 2]})));
        assert!(!rfc_eq(&json!(1), &json!("1")));
        assert!(!rfc_eq(&json!(-1), &json!(u64::MAX)));
        assert!(rfc_eq(&json!({"a": 1, "b": 2}), &json!({"b": 2, "a": 1})));
        assert!(!rfc_eq(&json!({"a": null}), &json!({})));
        assert!(!rfc_eq(&json!([1, 2]), &json!([2, 1])));
    }

    #[test]
    fn kube_scalars_compare_as_bytes() {
        let cases = [
            (json!(1), "1", KubeCmp::Equal),
            (json!(1), "1.0", KubeCmp::NotEqual),
            (json!(1.0), "1", KubeCmp::Equal),
            (json!(100), "1e2", KubeCmp::NotEqual),
            (json!("<b>"), r#""\u003cb\u003e""#, KubeCmp::Equal),
            (json!("<b>"), r#""<b>""#, KubeCmp::NotEqual),
            (json!("é"), r#""\u00e9""#, KubeCmp::NotEqual),
            (json!("a"), r#"  "a"  "#, KubeCmp::Equal),
            (json!(true), "true", KubeCmp::Equal),
            (json!("x"), r#"["x"]"#, KubeCmp::NotEqual),
        ];
        for (stored, raw, verdict) in cases {
            assert_eq!(kube_compare(&stored, raw), verdict, "{stored} vs {raw}");
        }
    }

    #[test]
    fn kube_structures() {
        let stored = json!({"b": [1, {"c": "d"}], "a": null});
        assert_eq!(
            kube_compare(&stored, r#"{ "a" : null , "b" : [ 1 , { "c" : "d" } ] }"#),
            KubeCmp::Equal
        );
        assert_eq!(
            kube_compare(&stored, r#"{"b":[1,{"c":"d"}]}"#),
            KubeCmp::NotEqual
        );
        assert_eq!(
            kube_compare(&stored, r#"{"a":null,"b":[1,{"c":"d"}],"x":1}"#),
            KubeCmp::NotEqual
        );
        assert_eq!(
            kube_compare(&stored, r#"{"a":null,"b":[1,{"c":"e"}]}"#),
            KubeCmp::NotEqual
        );
        // A repeated key keeps its last value, so the count matches.
        assert_eq!(
            kube_compare(&json!({"k": 2}), r#"{"k":1,"k":2}"#),
            KubeCmp::Equal
        );
        assert_eq!(
            kube_compare(&json!({"a/b": "x"}), r#"{"a\/b":"x"}"#),
            KubeCmp::Equal
        );
        assert_eq!(kube_compare(&json!([]), "[]"), KubeCmp::Equal);
        assert_eq!(kube_compare(&json!({}), "{ }"), KubeCmp::Equal);
    }

    #[test]
    fn kube_null_array_elements_panic_the_go_engine() {
        assert_eq!(kube_compare(&json!([null]), "[null]"), KubeCmp::Panic);
        assert_eq!(kube_compare(&json!(["a"]), "[null]"), KubeCmp::Panic);
        // A mismatch found first, or a length mismatch, returns before.
        assert_eq!(
            kube_compare(&json!(["a", null]), r#"["b",null]"#),
            KubeCmp::NotEqual
        );
        assert_eq!(
            kube_compare(&json!([null]), "[null,null]"),
            KubeCmp::NotEqual
        );
    }

    #[test]
    fn cursor_handles_strings_with_brackets_and_escapes() {
        let elements = array_elements(r#"["a,]", "\"}", {"x": ["]"]}, 12.5e3, -1]"#);
        assert_eq!(
            elements,
            [r#""a,]""#, r#""\"}""#, r#"{"x": ["]"]}"#, "12.5e3", "-1"]
        );
    }
}
