//! Syntax colouring for the editors: a small tokenizer for JSON and YAML
//! that splits text into spans by kind. It never fails: text it does not
//! understand is plain.

use std::ops::Range;

use crate::input::Format;

/// What a span of text is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Anything else.
    Plain,
    /// An object key.
    Key,
    /// A string value.
    String,
    /// A number.
    Number,
    /// `true`, `false`, `null`, `~`.
    Literal,
    /// Brackets, braces, commas, colons, dashes.
    Punct,
    /// A YAML comment.
    Comment,
}

impl Kind {
    /// The CSS class of the kind.
    pub fn class(self) -> &'static str {
        match self {
            Kind::Plain => "",
            Kind::Key => "tk-key",
            Kind::String => "tk-str",
            Kind::Number => "tk-num",
            Kind::Literal => "tk-lit",
            Kind::Punct => "tk-punct",
            Kind::Comment => "tk-comment",
        }
    }
}

/// The text is longer than this: no colouring (it would cost more than it
/// helps).
pub const MAX_HIGHLIGHT: usize = 100_000;

/// Splits `text` into consecutive spans covering all of it.
pub fn highlight(text: &str, format: Format) -> Vec<(Kind, Range<usize>)> {
    if text.len() > MAX_HIGHLIGHT {
        return vec![(Kind::Plain, 0..text.len())];
    }
    let mut spans = match format {
        Format::Json => json(text),
        Format::Yaml => yaml(text),
    };
    // Merge neighbours of the same kind, and fill gaps with plain text.
    let mut out: Vec<(Kind, Range<usize>)> = Vec::with_capacity(spans.len());
    let mut at = 0;
    crate::sort::sort_by_key(&mut spans, |(_, r)| r.start);
    for (kind, range) in spans {
        if range.start < at || range.start >= range.end {
            continue;
        }
        if range.start > at {
            push(&mut out, Kind::Plain, at..range.start);
        }
        at = range.end;
        push(&mut out, kind, range);
    }
    if at < text.len() {
        push(&mut out, Kind::Plain, at..text.len());
    }
    out
}

fn push(out: &mut Vec<(Kind, Range<usize>)>, kind: Kind, range: Range<usize>) {
    match out.last_mut() {
        Some((last, r)) if *last == kind && r.end == range.start => r.end = range.end,
        _ => out.push((kind, range)),
    }
}

/// The end of a quoted string starting at `start` (on the quote).
fn string_end(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' if quote == b'"' => i += 2,
            b'\'' if quote == b'\'' && bytes.get(i + 1) == Some(&b'\'') => i += 2,
            b if b == quote => return i + 1,
            b'\n' => return i,
            _ => i += 1,
        }
    }
    bytes.len()
}

fn json(text: &str) -> Vec<(Kind, Range<usize>)> {
    let bytes = text.as_bytes();
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i, b'"');
                let mut j = end;
                while j < bytes.len() && matches!(bytes[j], b' ' | b'\t' | b'\r' | b'\n') {
                    j += 1;
                }
                let kind = if bytes.get(j) == Some(&b':') {
                    Kind::Key
                } else {
                    Kind::String
                };
                spans.push((kind, i..end));
                i = end;
            }
            b'{' | b'}' | b'[' | b']' | b',' | b':' => {
                spans.push((Kind::Punct, i..i + 1));
                i += 1;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                spans.push((Kind::Number, start..i));
            }
            b't' | b'f' | b'n' => {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                    i += 1;
                }
                if matches!(&text[start..i], "true" | "false" | "null") {
                    spans.push((Kind::Literal, start..i));
                }
            }
            _ => i += 1,
        }
    }
    spans
}

fn yaml(text: &str) -> Vec<(Kind, Range<usize>)> {
    let mut spans = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        yaml_line(line, offset, &mut spans);
        offset += line.len();
    }
    spans
}

fn yaml_line(line: &str, base: usize, spans: &mut Vec<(Kind, Range<usize>)>) {
    let bytes = line.as_bytes();
    let mut i = 0;
    while i < bytes.len() && bytes[i] == b' ' {
        i += 1;
    }
    // Sequence dashes.
    while i < bytes.len()
        && bytes[i] == b'-'
        && matches!(bytes.get(i + 1), Some(b' ' | b'\n') | None)
    {
        spans.push((Kind::Punct, base + i..base + i + 1));
        i += 1;
        while i < bytes.len() && bytes[i] == b' ' {
            i += 1;
        }
    }
    if bytes.get(i) == Some(&b'#') {
        spans.push((
            Kind::Comment,
            base + i..base + line.trim_end_matches('\n').len(),
        ));
        return;
    }
    // A key: up to ": " or a trailing ':' outside quotes.
    let key_end = find_key_end(bytes, i);
    let mut value_start = i;
    if let Some(end) = key_end {
        spans.push((Kind::Key, base + i..base + end));
        spans.push((Kind::Punct, base + end..base + end + 1));
        value_start = end + 1;
    }
    yaml_value(line, value_start, base, spans);
}

fn find_key_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start;
    if matches!(bytes.get(i), Some(b'"' | b'\'')) {
        let end = string_end(bytes, i, bytes[i]);
        return (bytes.get(end) == Some(&b':')).then_some(end);
    }
    while i < bytes.len() {
        match bytes[i] {
            b':' if matches!(bytes.get(i + 1), Some(b' ' | b'\n' | b'\r') | None) => {
                return (i > start).then_some(i);
            }
            b'#' if i > start && bytes[i - 1] == b' ' => return None,
            b'{' | b'[' | b'"' | b'\'' if i == start => return None,
            _ => i += 1,
        }
    }
    None
}

fn yaml_value(line: &str, start: usize, base: usize, spans: &mut Vec<(Kind, Range<usize>)>) {
    let bytes = line.as_bytes();
    let mut i = start;
    while i < bytes.len() {
        match bytes[i] {
            b' ' | b'\t' | b'\r' | b'\n' => i += 1,
            b'#' if i == 0 || bytes[i - 1] == b' ' => {
                spans.push((
                    Kind::Comment,
                    base + i..base + line.trim_end_matches('\n').len(),
                ));
                return;
            }
            b'"' | b'\'' => {
                let end = string_end(bytes, i, bytes[i]);
                spans.push((Kind::String, base + i..base + end));
                i = end;
            }
            b'{' | b'}' | b'[' | b']' | b',' | b'|' | b'>' => {
                spans.push((Kind::Punct, base + i..base + i + 1));
                i += 1;
            }
            _ => {
                let end = (i..bytes.len())
                    .find(|&j| {
                        matches!(bytes[j], b',' | b']' | b'}' | b'\n' | b'\r')
                            || (bytes[j] == b'#' && j > 0 && bytes[j - 1] == b' ')
                    })
                    .unwrap_or(bytes.len());
                let word = line[i..end].trim_end();
                let kind = if crate::input::is_yaml_literal(word) {
                    Kind::Literal
                } else if crate::input::is_yaml_number(word) {
                    Kind::Number
                } else {
                    Kind::String
                };
                spans.push((kind, base + i..base + i + word.len()));
                i = end.max(i + 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str, format: Format) -> Vec<(Kind, &str)> {
        highlight(text, format)
            .into_iter()
            .filter(|(k, _)| *k != Kind::Plain)
            .map(|(k, r)| (k, &text[r]))
            .collect()
    }

    #[test]
    fn json_keys_strings_numbers_literals() {
        let text = r#"{"a": "x\"y", "n": -1.5e3, "ok": true, "z": null}"#;
        assert_eq!(
            kinds(text, Format::Json),
            [
                (Kind::Punct, "{"),
                (Kind::Key, "\"a\""),
                (Kind::Punct, ":"),
                (Kind::String, "\"x\\\"y\""),
                (Kind::Punct, ","),
                (Kind::Key, "\"n\""),
                (Kind::Punct, ":"),
                (Kind::Number, "-1.5e3"),
                (Kind::Punct, ","),
                (Kind::Key, "\"ok\""),
                (Kind::Punct, ":"),
                (Kind::Literal, "true"),
                (Kind::Punct, ","),
                (Kind::Key, "\"z\""),
                (Kind::Punct, ":"),
                (Kind::Literal, "null"),
                (Kind::Punct, "}"),
            ]
        );
    }

    #[test]
    fn yaml_keys_values_lists_and_comments() {
        let text = "metadata:\n  labels:\n    kubevirt.io/nodeName: node01 # where\n  finalizers:\n    - 'a: b'\n    - 3\n  on: true\n";
        assert_eq!(
            kinds(text, Format::Yaml),
            [
                (Kind::Key, "metadata"),
                (Kind::Punct, ":"),
                (Kind::Key, "labels"),
                (Kind::Punct, ":"),
                (Kind::Key, "kubevirt.io/nodeName"),
                (Kind::Punct, ":"),
                (Kind::String, "node01"),
                (Kind::Comment, "# where"),
                (Kind::Key, "finalizers"),
                (Kind::Punct, ":"),
                (Kind::Punct, "-"),
                (Kind::String, "'a: b'"),
                (Kind::Punct, "-"),
                (Kind::Number, "3"),
                (Kind::Key, "on"),
                (Kind::Punct, ":"),
                (Kind::Literal, "true"),
            ]
        );
    }

    #[test]
    fn yaml_numbers_are_coloured_as_the_reader_reads_them() {
        // Hex, octal (`0o17`, `010`), binary and `_`-separated digits are
        // numbers to YAML 1.1; `inf` and `NaN` (which Rust's float parser
        // takes) are strings; `.inf` is a number the reader refuses, and is
        // coloured as one; `yes` and `off` are booleans.
        let text = "a: 0x1F\nb: 0o17\nc: inf\nd: NaN\ne: .inf\nf: -1.5e3\ng: 1_000\nh: 010\ni: yes\nj: off\n";
        let values: Vec<_> = kinds(text, Format::Yaml)
            .into_iter()
            .filter(|(k, _)| matches!(k, Kind::Number | Kind::String | Kind::Literal))
            .collect();
        assert_eq!(
            values,
            [
                (Kind::Number, "0x1F"),
                (Kind::Number, "0o17"),
                (Kind::String, "inf"),
                (Kind::String, "NaN"),
                (Kind::Number, ".inf"),
                (Kind::Number, "-1.5e3"),
                (Kind::Number, "1_000"),
                (Kind::Number, "010"),
                (Kind::Literal, "yes"),
                (Kind::Literal, "off"),
            ]
        );
    }

    #[test]
    fn spans_cover_the_text_exactly_whatever_it_is() {
        for text in [
            "",
            "{",
            "\"unterminated",
            "a: 'b\n c: [1, {d: e}]\n- - x\n",
            "ünï: \"✓\"\n",
            "::::",
            "\"a\" : 1",
        ] {
            for format in [Format::Json, Format::Yaml] {
                let spans = highlight(text, format);
                let mut at = 0;
                for (_, range) in &spans {
                    assert_eq!(range.start, at, "{text:?}");
                    assert!(text.is_char_boundary(range.start) && text.is_char_boundary(range.end));
                    at = range.end;
                }
                assert_eq!(at, text.len(), "{text:?}");
            }
        }
    }
}
