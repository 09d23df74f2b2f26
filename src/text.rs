//! How values are named and shortened in messages, written once: a JSON
//! value's kind in words, and text cut to a length with an ellipsis.
//!
//! ```
//! use patchlab::text::{elide, elide_value, kind};
//! use serde_json::json;
//!
//! assert_eq!(kind(&json!({"a": 1})), "an object");
//! assert_eq!(elide("abcdef", 4), "abc…");
//! assert_eq!(elide_value(&json!({"a": "x".repeat(50)}), 12), "{\"a\":\"xxxxx…");
//! assert_eq!(elide_value(&json!([1, 2]), 5), "[1,2]");
//! ```

use std::borrow::Cow;

use serde_json::Value;

/// `null`, `a boolean`, `a number`, `a string`, `an array` or `an object`.
pub fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Go's `strings.ToLower` of a kind's name (or an HTTP verb), exact for
/// every kind an API server can hold: a custom resource's kind must be a
/// DNS-1035 label once lowercased (`ValidateCustomResourceDefinitionNames`,
/// k8s.io/apiextensions-apiserver `pkg/apis/apiextensions/validation`), so
/// ASCII letters, digits and `-`, or the one other letter Go lowercases into
/// ASCII, the Kelvin sign `K` (U+212A, to `k`); built-in kinds are ASCII.
/// Other letters, in a kind no server admits, are kept as they are (Go
/// would lowercase them): the Unicode case tables this would take weigh
/// 24 KB in every wasm module that names a resource.
///
/// ```
/// use patchlab::text::kind_lower;
/// assert_eq!(kind_lower("VirtualMachineInstance"), "virtualmachineinstance");
/// assert_eq!(kind_lower("\u{212A}ind"), "kind");
/// ```
pub fn kind_lower(name: &str) -> String {
    name.chars()
        .map(|c| {
            if c == '\u{212A}' {
                'k'
            } else {
                c.to_ascii_lowercase()
            }
        })
        .collect()
}

/// True for a character a terminal acts on instead of showing: C0 and C1
/// controls and DEL, and the bidirectional formatting characters that
/// reorder what is shown (Unicode's "Trojan Source" set). Text for a
/// terminal escapes them; an export writes them in its own syntax.
///
/// ```
/// use patchlab::text::acts_on_terminal;
/// assert!(acts_on_terminal('\u{1b}') && acts_on_terminal('\u{9b}') && acts_on_terminal('\u{202e}'));
/// assert!(!acts_on_terminal('é') && !acts_on_terminal('\u{2028}'));
/// ```
pub fn acts_on_terminal(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

/// Text cut to at most `max` characters (the last one an ellipsis, `…`)
/// when longer.
pub fn elide(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        None => text.to_owned(),
        Some(_) => {
            let end = text
                .char_indices()
                .nth(max.saturating_sub(1))
                .map_or(text.len(), |(at, _)| at);
            format!("{}…", &text[..end])
        }
    }
}

/// Text whole when it has at most `max` characters; else its first
/// `max` characters, an ellipsis and how long it was, so a message that
/// quotes a huge value stays short and still says what it held:
///
/// ```
/// use patchlab::text::cut;
/// assert_eq!(cut("abc", 3), "abc");
/// assert_eq!(cut(&"/a".repeat(50_000), 6), "/a/a/a…(100000 characters)");
/// ```
pub fn cut(text: &str, max: usize) -> Cow<'_, str> {
    match text.char_indices().nth(max) {
        None => Cow::Borrowed(text),
        Some((end, _)) => Cow::Owned(format!(
            "{}…({} characters)",
            &text[..end],
            text.chars().count()
        )),
    }
}

/// A message with every quoted string (`"..."`, as `{:?}` writes it) and
/// every word longer than `max` characters cut by [`cut`]: a failing path
/// of 200 KB is named by its start and its length, not echoed whole.
///
/// ```
/// use patchlab::text::cut_long;
/// let path = format!("/{}", "k".repeat(10_000));
/// let message = format!("op 0 (test {path:?}): test failed");
/// assert_eq!(
///     cut_long(&message, 16),
///     format!("op 0 (test \"/{}…(10001 characters)\"): test failed", "k".repeat(15))
/// );
/// assert_eq!(cut_long("short words stay", 5), "short words stay");
/// ```
pub fn cut_long(message: &str, max: usize) -> Cow<'_, str> {
    if message.len() <= max {
        return Cow::Borrowed(message);
    }
    let mut out = String::with_capacity(message.len().min(4 * max + 256));
    let mut rest = message;
    let mut changed = false;
    while let Some(c) = rest.chars().next() {
        let end = if c == '"' {
            quoted_end(rest)
        } else if c.is_whitespace() {
            c.len_utf8()
        } else {
            rest.find(|c: char| c.is_whitespace() || c == '"')
                .unwrap_or(rest.len())
        };
        let (span, after) = rest.split_at(end);
        let inner = if c == '"' && span.len() >= 2 && span.ends_with('"') {
            &span[1..span.len() - 1]
        } else {
            span
        };
        match cut(inner, max) {
            Cow::Owned(short) => {
                changed = true;
                if inner.len() == span.len() {
                    out.push_str(&short);
                } else {
                    out.push('"');
                    out.push_str(&short);
                    out.push('"');
                }
            }
            Cow::Borrowed(_) => out.push_str(span),
        }
        rest = after;
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(message)
    }
}

/// The length of the quoted string `text` starts with (through its
/// closing quote; all of it when unclosed), `\"` skipped.
fn quoted_end(text: &str) -> usize {
    let bytes = text.as_bytes();
    let mut at = 1;
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    text.len()
}

/// A value as compact JSON, cut to at most `max` characters with an
/// ellipsis when longer: for showing values in one line.
pub fn elide_value(value: &Value, max: usize) -> String {
    elide(&serde_json::to_string(value).unwrap_or_default(), max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elide_counts_characters_not_bytes() {
        assert_eq!(elide("ééééé", 5), "ééééé");
        assert_eq!(elide("éééééé", 5), "éééé…");
        assert_eq!(elide("", 0), "");
        assert_eq!(elide("ab", 0), "…");
    }
}
