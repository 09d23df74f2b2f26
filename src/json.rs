//! A one-pass reader and a writer of [`serde_json::Value`] for hot loops
//! (the CLI's batch apply reads and writes a document per line), giving
//! serde_json's answers byte for byte without its visitor machinery.
//!
//! The [`Reader`] reads only what it reads exactly as serde_json does:
//! plain strings, short integers, literals, arrays and objects nested at
//! most [`Reader::DEPTH`] deep. A string with an escape or any other
//! number is handed to serde_json itself. Anything else (a syntax error, a
//! number out of range) makes it give up with `None`, and the caller then
//! takes serde_json's own route, which gives the error, or the same value.
//!
//! [`write_value`] writes what `serde_json::to_writer` writes (compact,
//! members in the map's order, the same escapes and number spellings).
//!
//! ```
//! use patchlab::json::{write_value, Reader};
//! use serde_json::{json, Value};
//!
//! let text = r#" {"b": [1, -2, 2.5, "t\u00e9"], "a": {"c": null}} "#;
//! let mut reader = Reader::new(text);
//! let value = reader.value().unwrap();
//! assert!(reader.end());
//! assert_eq!(value, serde_json::from_str::<Value>(text).unwrap());
//!
//! let mut out = Vec::new();
//! write_value(&mut out, &value);
//! assert_eq!(out, serde_json::to_vec(&value).unwrap());
//!
//! // A syntax error, or a number serde_json refuses: the reader gives up.
//! assert!(Reader::new(r#"{"a":1,}"#).value().is_none());
//! assert!(Reader::new("1e400").value().is_none());
//! ```

use std::borrow::Cow;

use serde_json::{Map, Number, Value};

mod spelling;

pub use spelling::Spellings;

/// JSON text with every lone surrogate escape (`\ud800` not followed by
/// the escape of its pair, or `\udc00` alone) written `\ufffd`, as Go's
/// decoder reads it: kube-apiserver's `encoding/json` `unquoteBytes`
/// falls back to U+FFFD for an invalid surrogate
/// (<https://github.com/golang/go/blob/master/src/encoding/json/decode.go>,
/// "Invalid surrogate; fall back to replacement rune"), where serde_json
/// refuses the text. The text keeps its length, so every offset, line and
/// column stays; borrowed when there is nothing to rewrite. Every reader of
/// JSON text in the crate reads it through this (src/input.rs,
/// `apply::text`, the merge patch, the faces), so the JS API, the CLI and
/// the playground read one text one way.
///
/// ```
/// use patchlab::json::go_strings;
/// assert_eq!(go_strings(r#"["\ud800", "\ud83d\ude00", "\\ud800", "\udc00\ud800x"]"#),
///            r#"["\ufffd", "\ud83d\ude00", "\\ud800", "\ufffd\ufffdx"]"#);
/// assert!(matches!(go_strings("{}"), std::borrow::Cow::Borrowed(_)));
/// ```
pub fn go_strings(text: &str) -> Cow<'_, str> {
    let bytes = text.as_bytes();
    let Some(mut at) = memchr::memchr(b'\\', bytes) else {
        return Cow::Borrowed(text);
    };
    let mut out: Option<Vec<u8>> = None;
    while at < bytes.len() {
        if bytes[at] != b'\\' {
            at = memchr::memchr(b'\\', &bytes[at..]).map_or(bytes.len(), |i| at + i);
            continue;
        }
        let Some(unit) = escaped_unit(bytes, at) else {
            // Another escape (or a broken one: the reader reports it).
            at += 2;
            continue;
        };
        let paired = (0xD800..0xDC00).contains(&unit)
            && escaped_unit(bytes, at + 6).is_some_and(|low| (0xDC00..0xE000).contains(&low));
        if paired {
            at += 12;
            continue;
        }
        if (0xD800..0xE000).contains(&unit) {
            out.get_or_insert_with(|| bytes.to_vec())[at + 2..at + 6].copy_from_slice(b"fffd");
        }
        at += 6;
    }
    match out {
        // Only ASCII hex digits were replaced by ASCII: still UTF-8.
        Some(out) => String::from_utf8(out).map_or(Cow::Borrowed(text), Cow::Owned),
        None => Cow::Borrowed(text),
    }
}

/// The code unit of the `\uXXXX` escape at `at`, if one is there.
fn escaped_unit(bytes: &[u8], at: usize) -> Option<u16> {
    let escape = bytes.get(at..at + 6)?;
    if escape[0] != b'\\' || escape[1] != b'u' {
        return None;
    }
    let hex = std::str::from_utf8(&escape[2..]).ok()?;
    u16::from_str_radix(hex, 16).ok()
}

/// Why a text that starts with a byte order mark is refused, in every
/// reader (JSON and YAML, every function of the CLI and the JS API, the
/// playground): kube-apiserver's decoder refuses it with the words quoted,
/// so a text is read as the server would read it, never more leniently.
pub const BOM_MESSAGE: &str = "the text starts with a UTF-8 byte order mark (EF BB BF), which kube-apiserver's JSON decoder refuses (invalid character 'ï' looking for beginning of value): remove it";

/// A position in JSON text, read forward.
pub struct Reader<'a> {
    text: &'a str,
    at: usize,
    /// The members of the objects being read, innermost last: a map is
    /// built from its members at once when its object closes (a member at
    /// a time, each insert searches the map and shifts its node).
    members: Vec<(String, Value)>,
}

/// A word with every byte set to `b`.
const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// The bytes of `word` that are `"`, `\` or a control character (the
/// bytes that end a plain run of a JSON string, read or written), each
/// flagged by its high bit. The lowest flag is exact (a borrow only runs
/// upward from a flagged byte), so it locates the first such byte.
#[inline(always)]
fn special_bytes(word: u64) -> u64 {
    // Constants, so that the release profile's opt-level "z" computes
    // them at compile time, not per call.
    const ONES: u64 = splat(1);
    const HIGH: u64 = splat(0x80);
    const QUOTE: u64 = splat(b'"');
    const BACKSLASH: u64 = splat(b'\\');
    const SPACE: u64 = splat(0x20);
    let quote = word ^ QUOTE;
    let backslash = word ^ BACKSLASH;
    let zero_quote = quote.wrapping_sub(ONES) & !quote;
    let zero_backslash = backslash.wrapping_sub(ONES) & !backslash;
    let below_space = word.wrapping_sub(SPACE);
    (zero_quote | zero_backslash | below_space) & !word & HIGH
}

/// The index of the first `"`, `\` or control byte of `bytes` at or after
/// `from` (`bytes.len()` when none).
#[inline(always)]
fn plain_run(bytes: &[u8], mut from: usize) -> usize {
    while let Some(chunk) = bytes.get(from..from + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let flags = special_bytes(u64::from_le_bytes(word));
        if flags != 0 {
            return from + (flags.trailing_zeros() / 8) as usize;
        }
        from += 8;
    }
    while let Some(&b) = bytes.get(from) {
        if b == b'"' || b == b'\\' || b < 0x20 {
            return from;
        }
        from += 1;
    }
    from
}

impl<'a> Reader<'a> {
    /// How deep the reader nests arrays and objects before it gives up:
    /// well inside serde_json's recursion limit of 128, so any value it
    /// reads, serde_json reads alike wherever it sits in a line.
    pub const DEPTH: usize = 100;

    /// A reader at the start of `text`.
    pub fn new(text: &'a str) -> Reader<'a> {
        Reader::at(text, 0)
    }

    /// A reader at byte `at` of `text`.
    pub fn at(text: &'a str, at: usize) -> Reader<'a> {
        Reader::with_scratch(text, at, Vec::new())
    }

    /// A reader at byte `at` of `text` that keeps the members of the
    /// objects it reads in `scratch` while it reads them (see
    /// [`Reader::into_scratch`]): a loop over many texts allocates it once.
    pub fn with_scratch(text: &'a str, at: usize, scratch: Vec<(String, Value)>) -> Reader<'a> {
        Reader {
            text,
            at,
            members: scratch,
        }
    }

    /// The reader's scratch space, emptied, for the next reader.
    pub fn into_scratch(mut self) -> Vec<(String, Value)> {
        self.members.clear();
        self.members
    }

    /// The byte offset read up to.
    pub fn offset(&self) -> usize {
        self.at
    }

    /// The whole text.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Skips JSON whitespace (space, tab, newline, carriage return).
    #[inline(always)]
    pub fn skip_ws(&mut self) {
        let bytes = self.text.as_bytes();
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// Skips whitespace and returns the next byte without consuming it.
    #[inline(always)]
    pub fn peek(&mut self) -> Option<u8> {
        self.skip_ws();
        self.text.as_bytes().get(self.at).copied()
    }

    /// Skips whitespace and consumes `b` if it comes next.
    #[inline(always)]
    pub fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    /// True when only whitespace is left.
    pub fn end(&mut self) -> bool {
        self.peek().is_none()
    }

    /// Reads a string (after whitespace): borrowed when it has no escape,
    /// else as serde_json unescapes it.
    pub fn string(&mut self) -> Option<Cow<'a, str>> {
        if !self.eat(b'"') {
            return None;
        }
        let bytes = self.text.as_bytes();
        let start = self.at;
        let end = plain_run(bytes, start);
        match bytes.get(end) {
            Some(b'"') => {
                self.at = end + 1;
                Some(Cow::Borrowed(self.text.get(start..end)?))
            }
            Some(b'\\') => {
                // Find the closing quote, skipping escaped characters, and
                // let serde_json unescape the token.
                let mut at = end;
                loop {
                    match *bytes.get(at)? {
                        b'\\' => at += 2,
                        b'"' => break,
                        b if b < 0x20 => return None,
                        _ => at = plain_run(bytes, at + 1),
                    }
                }
                self.at = at + 1;
                let token = self.text.get(start - 1..at + 1)?;
                serde_json::from_str::<String>(token).ok().map(Cow::Owned)
            }
            // A control character, or the text ends inside the string.
            _ => None,
        }
    }

    /// Reads one value (after whitespace).
    pub fn value(&mut self) -> Option<Value> {
        self.nested(Reader::DEPTH)
    }

    fn nested(&mut self, depth: usize) -> Option<Value> {
        let bytes = self.text.as_bytes();
        match self.peek()? {
            b'"' => self.string().map(|s| Value::String(s.into_owned())),
            b'{' => {
                let depth = depth.checked_sub(1)?;
                self.at += 1;
                if self.eat(b'}') {
                    return Some(Value::Object(Map::new()));
                }
                let base = self.members.len();
                loop {
                    let key = self.string()?.into_owned();
                    if !self.eat(b':') {
                        return None;
                    }
                    let value = self.nested(depth)?;
                    self.members.push((key, value));
                    match self.peek()? {
                        b',' => self.at += 1,
                        b'}' => {
                            self.at += 1;
                            return Some(Value::Object(self.map(base)));
                        }
                        _ => return None,
                    }
                }
            }
            b'[' => {
                let depth = depth.checked_sub(1)?;
                self.at += 1;
                let mut items = Vec::new();
                if self.eat(b']') {
                    return Some(Value::Array(items));
                }
                loop {
                    items.push(self.nested(depth)?);
                    match self.peek()? {
                        b',' => self.at += 1,
                        b']' => {
                            self.at += 1;
                            return Some(Value::Array(items));
                        }
                        _ => return None,
                    }
                }
            }
            b't' => self.literal(b"true", Value::Bool(true)),
            b'f' => self.literal(b"false", Value::Bool(false)),
            b'n' => self.literal(b"null", Value::Null),
            _ => {
                let start = self.at;
                let mut end = start;
                while let Some(b'0'..=b'9' | b'-' | b'+' | b'.' | b'e' | b'E') = bytes.get(end) {
                    end += 1;
                }
                self.at = end;
                let token = self.text.get(start..end)?;
                Some(Value::Number(number(token)?))
            }
        }
    }

    /// The map of the members from `base` on, built as inserting them one
    /// by one builds it (the last of repeated keys kept): `Map`'s
    /// `FromIterator` sorts them stably and builds the tree in one go,
    /// which for keys already in order (what serde_json writes) costs a
    /// comparison a key instead of a search and a shift per insert.
    fn map(&mut self, base: usize) -> Map<String, Value> {
        if self.members.len() == base + 1 {
            // One member (a label, a selector): no sort, no buffer.
            let mut map = Map::new();
            if let Some((key, value)) = self.members.pop() {
                map.insert(key, value);
            }
            return map;
        }
        self.members.drain(base..).collect()
    }

    fn literal(&mut self, word: &[u8], value: Value) -> Option<Value> {
        let end = self.at + word.len();
        if self.text.as_bytes().get(self.at..end)? == word {
            self.at = end;
            Some(value)
        } else {
            None
        }
    }
}

/// A number token as serde_json reads it: short integers here, anything
/// else by serde_json itself (floats, `-0`, long integers, errors).
fn number(token: &str) -> Option<Number> {
    let (negative, digits) = match token.strip_prefix('-') {
        Some(digits) => (true, digits),
        None => (false, token),
    };
    let plain = (1..=18).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && (!digits.starts_with('0') || digits == "0" && !negative);
    if !plain {
        return match serde_json::from_str::<Value>(token).ok()? {
            Value::Number(n) => Some(n),
            _ => None,
        };
    }
    let n = digits
        .bytes()
        .fold(0u64, |n, b| n * 10 + u64::from(b - b'0'));
    Some(if negative {
        // At most 18 digits: fits an i64.
        Number::from(-(n as i64))
    } else {
        Number::from(n)
    })
}

/// Appends `value` as `serde_json::to_writer` writes it.
pub fn write_value(out: &mut Vec<u8>, value: &Value) {
    match value {
        Value::Null => out.extend_from_slice(b"null"),
        Value::Bool(true) => out.extend_from_slice(b"true"),
        Value::Bool(false) => out.extend_from_slice(b"false"),
        Value::Number(n) => write_number(out, n),
        Value::String(s) => write_str(out, s),
        Value::Array(items) => {
            let mut open = b"[".as_slice();
            for item in items {
                out.extend_from_slice(open);
                open = b",";
                write_value(out, item);
            }
            out.extend_from_slice(if items.is_empty() { b"[]" } else { b"]" });
        }
        Value::Object(map) => {
            // `{"key":` or `,"key":` as one quoted run each.
            let mut open = b"{\"".as_slice();
            for (key, item) in map {
                write_quoted(out, open, key, b"\":");
                open = b",\"";
                write_value(out, item);
            }
            out.extend_from_slice(if map.is_empty() { b"{}" } else { b"}" });
        }
    }
}

/// Appends a number as serde_json writes it.
fn write_number(out: &mut Vec<u8>, n: &Number) {
    if let Some(u) = n.as_u64() {
        out.extend_from_slice(itoa::Buffer::new().format(u).as_bytes());
    } else if let Some(i) = n.as_i64() {
        out.extend_from_slice(itoa::Buffer::new().format(i).as_bytes());
    } else if let Ok(text) = serde_json::to_string(n) {
        // A float: serde_json's own spelling. Writing to memory cannot fail.
        out.extend_from_slice(text.as_bytes());
    }
}

/// Appends a string as serde_json writes it: `"` and `\` escaped, control
/// characters as `\b`, `\t`, `\n`, `\f`, `\r` or `\u00xx`, the rest as is.
pub fn write_str(out: &mut Vec<u8>, s: &str) {
    write_quoted(out, b"\"", s, b"\"");
}

/// Appends `open`, `s` escaped as [`write_str`] does (without its quotes),
/// then `close`.
fn write_quoted(out: &mut Vec<u8>, open: &[u8], s: &str, close: &[u8]) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    out.extend_from_slice(open);
    let mut start = 0;
    loop {
        let at = plain_run(bytes, start);
        out.extend_from_slice(&bytes[start..at]);
        let Some(&b) = bytes.get(at) else { break };
        match b {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            b'\x08' => out.extend_from_slice(b"\\b"),
            b'\t' => out.extend_from_slice(b"\\t"),
            b'\n' => out.extend_from_slice(b"\\n"),
            b'\x0c' => out.extend_from_slice(b"\\f"),
            b'\r' => out.extend_from_slice(b"\\r"),
            _ => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 0xf)],
            ]),
        }
        start = at + 1;
    }
    out.extend_from_slice(close);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn serde(text: &str) -> Option<Value> {
        serde_json::from_str(text).ok()
    }

    /// Every text the reader reads, serde_json reads alike; where it gives
    /// up, serde_json may still read it (the caller falls back).
    #[test]
    fn reads_as_serde_json_or_gives_up() {
        let same = [
            "null",
            "true",
            " false ",
            "0",
            "-1",
            "123456789012345678",
            "-123456789012345678",
            "1234567890123456789",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            "-0",
            "0.0",
            "-0.0",
            "1.5e3",
            "1E-2",
            "2.2250738585072011e-308",
            "0.30000000000000004",
            r#""""#,
            r#""plain""#,
            r#""tab\tquote\"slash\/\\ \u00e9 \ud83d\ude00 \u0000""#,
            "\"caf\u{e9} \u{1f600}\"",
            "[]",
            " [ 1 , [ ] , { } ] ",
            r#"{"b":1,"a":2,"b":3}"#,
            r#"{"k\u0041y":{"x":[true,null]}}"#,
            "\t{\n\"a\"\r:\n1}\n",
        ];
        for text in same {
            let mut reader = Reader::new(text);
            let value = reader.value();
            assert!(reader.end(), "{text}");
            assert_eq!(value, serde(text), "{text}");
            assert!(value.is_some(), "{text}");
        }
        let refused = [
            "",
            "nul",
            "tru",
            "01",
            "-01",
            "1.",
            "-",
            "+1",
            "1e400",
            "[1,]",
            "{\"a\":1,}",
            "{\"a\" 1}",
            "{1:2}",
            "[1 2]",
            "\"open",
            "\"ctrl\u{1}\"",
            r#""\ud800""#,
            r#""\x""#,
            "[",
            "{",
        ];
        for text in refused {
            let mut reader = Reader::new(text);
            let read = reader.value().filter(|_| reader.end());
            assert_eq!(read, None, "{text}");
            assert_eq!(serde(text), None, "{text}");
        }
    }

    #[test]
    fn gives_up_past_its_depth_where_serde_json_still_reads() {
        let deep = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
        assert_eq!(
            Reader::new(&deep(Reader::DEPTH)).value(),
            serde(&deep(Reader::DEPTH))
        );
        assert_eq!(Reader::new(&deep(Reader::DEPTH + 1)).value(), None);
        assert!(serde(&deep(Reader::DEPTH + 1)).is_some());
    }

    #[test]
    fn writes_as_serde_json() {
        let values = [
            json!(null),
            json!([
                true,
                false,
                0,
                -7,
                u64::MAX,
                i64::MIN,
                1.5,
                -0.0,
                1e300,
                0.1
            ]),
            json!({"z": {"y": []}, "a": "q\"b\\s/\u{7f}\u{1}\u{1f}\u{8}\u{c}\n\r\t", "é": "\u{1f600}"}),
            json!("a long plain string that spans several words of eight bytes"),
            json!("12345678\"12345678\\"),
        ];
        for value in values {
            let mut out = Vec::new();
            write_value(&mut out, &value);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(&value).unwrap()
            );
        }
    }

    #[test]
    fn special_bytes_are_found_in_every_lane() {
        for lane in 0..8 {
            for special in [b'"', b'\\', 0, 0x1f] {
                let mut bytes = [b'a'; 8];
                bytes[lane] = special;
                assert_eq!(plain_run(&bytes, 0), lane, "{special}");
                // Special bytes after the first do not hide it.
                bytes[7] = special;
                assert_eq!(plain_run(&bytes, 0), lane, "{special}");
                let mut long = vec![b'x'; 11];
                long.extend_from_slice(&bytes);
                assert_eq!(plain_run(&long, 3), 11 + lane, "{special}");
            }
            for plain in [
                b' ', 0x7f, 0x80, 0xff, b'!', b'#', b'[', b']', 0x20, 0xa2, 0xdc,
            ] {
                let mut bytes = [b'a'; 8];
                bytes[lane] = plain;
                assert_eq!(
                    special_bytes(u64::from_le_bytes(bytes)),
                    0,
                    "{lane} {plain}"
                );
                assert_eq!(plain_run(&bytes, 0), 8);
            }
        }
    }
}
