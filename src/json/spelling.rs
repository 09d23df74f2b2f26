//! Numbers printed as they were read. serde_json holds a number as an
//! `i64`, a `u64` or an `f64`, so the text of any other (an integer beyond
//! `u64`, `1.50`, `1e2`, `-0`) is gone once read: it prints as the nearest
//! `f64` does (`1.2345678901234568e+22`, `1.5`, `100.0`, `-0.0`). Where a
//! number must print as read (`apply --literal-numbers`, `--semantics
//! rfc`), [`Spellings`] records each such text of the JSON read, by the
//! `f64` it reads as, and writes the value back with those texts.
//!
//! Values only move in a patch (no op computes a number), so every number
//! of the result is one that was read: each prints as read, unless two
//! texts of one input read as the same `f64` (`1.5` and `1.50`, two integers
//! 1 apart beyond 2^53): those print as serde_json does, and
//! [`Spellings::ambiguous`] says so.
//!
//! ```
//! use patchlab::json::Spellings;
//! use serde_json::Value;
//!
//! let text = r#"{"big": 12345678901234567890123, "f": 1.50, "e": 1E2, "z": -0, "n": 7}"#;
//! let value: Value = serde_json::from_str(text).unwrap();
//! let mut spellings = Spellings::default();
//! spellings.read(text);
//! assert_eq!(
//!     spellings.to_string(&value, false),
//!     r#"{"big":12345678901234567890123,"e":1E2,"f":1.50,"n":7,"z":-0}"#
//! );
//! ```

use std::collections::HashMap;
use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};
use serde_json::Value;

/// The texts of the numbers read that serde_json does not print back.
#[derive(Debug, Default)]
pub struct Spellings {
    /// By the bits of the `f64` each reads as; `None` where two texts
    /// read as one.
    texts: HashMap<u64, Option<String>>,
}

impl Spellings {
    /// Records the texts of the numbers of JSON `text` that serde_json
    /// holds as `f64` (the others print as read already). Text that is no
    /// JSON records what its number tokens read as (nothing, where none
    /// reads).
    pub fn read(&mut self, text: &str) {
        for token in number_tokens(text) {
            let Ok(Value::Number(n)) = serde_json::from_str::<Value>(token) else {
                continue;
            };
            let Some(f) = n.as_f64().filter(|_| n.is_f64()) else {
                continue;
            };
            let entry = self
                .texts
                .entry(f.to_bits())
                .or_insert_with(|| Some(token.to_owned()));
            if entry.as_deref() != Some(token) {
                *entry = None;
            }
        }
    }

    /// The numbers that two different texts read as (printed as serde_json
    /// prints them).
    pub fn ambiguous(&self) -> impl Iterator<Item = f64> + '_ {
        self.texts
            .iter()
            .filter(|(_, text)| text.is_none())
            .map(|(bits, _)| f64::from_bits(*bits))
    }

    /// `value` as serde_json writes it (compact, or pretty with two-space
    /// indents), each number recorded printed as read.
    pub fn to_string(&self, value: &Value, pretty: bool) -> String {
        let mut out = Vec::with_capacity(128);
        let written = if pretty {
            let formatter = AsRead(self, PrettyFormatter::new());
            value.serialize(&mut serde_json::Serializer::with_formatter(
                &mut out, formatter,
            ))
        } else {
            let formatter = AsRead(self, CompactFormatter);
            value.serialize(&mut serde_json::Serializer::with_formatter(
                &mut out, formatter,
            ))
        };
        debug_assert!(written.is_ok());
        String::from_utf8(out).unwrap_or_default()
    }

    fn text(&self, value: f64) -> Option<&str> {
        self.texts.get(&value.to_bits())?.as_deref()
    }
}

/// The number tokens of JSON text (outside strings).
fn number_tokens(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let (mut at, mut in_string, mut escaped) = (0, false, false);
    std::iter::from_fn(move || {
        while at < bytes.len() {
            let b = bytes[at];
            if in_string {
                match (escaped, b) {
                    (true, _) => escaped = false,
                    (false, b'\\') => escaped = true,
                    (false, b'"') => in_string = false,
                    _ => {}
                }
                at += 1;
            } else if b == b'"' {
                in_string = true;
                at += 1;
            } else if b == b'-' || b.is_ascii_digit() {
                let start = at;
                while at < bytes.len()
                    && matches!(bytes[at], b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E')
                {
                    at += 1;
                }
                return text.get(start..at);
            } else {
                at += 1;
            }
        }
        None
    })
}

/// A formatter that writes each recorded `f64` as its text, and the rest
/// as `F` does.
struct AsRead<'s, F>(&'s Spellings, F);

impl<F: Formatter> Formatter for AsRead<'_, F> {
    fn write_f64<W: ?Sized + io::Write>(&mut self, writer: &mut W, value: f64) -> io::Result<()> {
        match self.0.text(value) {
            Some(text) => writer.write_all(text.as_bytes()),
            None => self.1.write_f64(writer, value),
        }
    }
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.1.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.1.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.1.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.1.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.1.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.1.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.1.begin_object_key(w, first)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.1.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.1.end_object_value(w)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn tokens_are_numbers_outside_strings() {
        let tokens: Vec<&str> = number_tokens(r#"{"a-1": [1, -2.5e+3, "3\"4"], "b": 0}"#).collect();
        assert_eq!(tokens, ["1", "-2.5e+3", "0"]);
    }

    #[test]
    fn two_texts_of_one_value_print_as_serde_json_does() {
        let mut spellings = Spellings::default();
        spellings.read("[1.5, 1.50, 18446744073709551616, 1e400]");
        let value = json!([1.5, 18446744073709551616.0]);
        assert_eq!(
            spellings.to_string(&value, false),
            "[1.5,18446744073709551616]"
        );
        spellings.read("1.500");
        assert_eq!(spellings.ambiguous().collect::<Vec<_>>(), [1.5]);
        assert_eq!(
            spellings.to_string(&json!({"a": [1.5]}), true),
            "{\n  \"a\": [\n    1.5\n  ]\n}"
        );
    }
}
