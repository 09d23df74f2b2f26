//! A small block-style YAML emitter: each string plain when yaml.v2 reads
//! it back as the same string, a literal block for multi-line text,
//! double-quoted (with escapes yaml.v2 reads) otherwise.

use serde_json::{Map, Value};

use super::reader::allowed;
use super::resolve::{self, Kind};

/// Writes a JSON value as block-style YAML that reads back to the same
/// value as kubectl reads YAML.
pub(crate) fn emit(value: &Value) -> String {
    let mut out = String::new();
    match value {
        Value::Object(map) if !map.is_empty() => emit_map(&mut out, map, 0),
        Value::Array(items) if !items.is_empty() => emit_seq(&mut out, items, 0),
        scalar => {
            emit_scalar(&mut out, scalar, 0);
            out.push('\n');
        }
    }
    out
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

/// YAML limits an implicit key to 1024 characters; longer keys are
/// written explicitly (`? key` then `: value`).
const IMPLICIT_KEY_MAX: usize = 1000;

fn key_text(key: &str, level: usize) -> String {
    let mut text = String::new();
    emit_string(&mut text, key, level, true);
    text
}

fn emit_map(out: &mut String, map: &Map<String, Value>, level: usize) {
    for (key, value) in map {
        indent(out, level);
        emit_entry(out, key, value, level);
    }
}

/// `key: value` at the current position (already indented to `level`).
fn emit_entry(out: &mut String, key: &str, value: &Value, level: usize) {
    let text = key_text(key, level);
    if text.chars().count() > IMPLICIT_KEY_MAX {
        out.push_str("? ");
        out.push_str(&text);
        out.push('\n');
        indent(out, level);
    } else {
        out.push_str(&text);
    }
    out.push(':');
    emit_child(out, value, level);
}

fn emit_seq(out: &mut String, items: &[Value], level: usize) {
    for item in items {
        indent(out, level);
        out.push('-');
        match item {
            Value::Object(map) if !map.is_empty() => {
                // The first entry shares the dash's line.
                out.push(' ');
                let mut first = true;
                for (key, value) in map {
                    if !first {
                        indent(out, level + 1);
                    }
                    first = false;
                    emit_entry(out, key, value, level + 1);
                }
            }
            other => emit_child(out, other, level),
        }
    }
}

/// After `key:` or `-`: a nested block on the next lines, or ` scalar`.
fn emit_child(out: &mut String, value: &Value, level: usize) {
    match value {
        Value::Object(map) if !map.is_empty() => {
            out.push('\n');
            emit_map(out, map, level + 1);
        }
        Value::Array(items) if !items.is_empty() => {
            out.push('\n');
            emit_seq(out, items, level + 1);
        }
        scalar => {
            out.push(' ');
            emit_scalar(out, scalar, level + 1);
            out.push('\n');
        }
    }
}

fn emit_scalar(out: &mut String, value: &Value, level: usize) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => out.push_str(&n.to_string()),
        Value::String(s) => emit_string(out, s, level, false),
        Value::Array(_) => out.push_str("[]"),
        Value::Object(_) => out.push_str("{}"),
    }
}

/// A string plain when that reads back as the same string, as a literal
/// block for multi-line text, double-quoted otherwise.
fn emit_string(out: &mut String, s: &str, level: usize, key: bool) {
    if plain_safe(s) {
        out.push_str(s);
        return;
    }
    let literal_safe = s.chars().all(|c| {
        c == '\n'
            || (allowed(c)
                && !c.is_control()
                && !matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}'))
    });
    let blank_start = s.starts_with([' ', '\t', '\n']);
    if !key && s.contains('\n') && literal_safe && !blank_start && !s.ends_with("\n\n") {
        out.push_str(if s.ends_with('\n') { "|" } else { "|-" });
        // At least one level, so no content line sits at column 0, where
        // `---` or `...` would end the document.
        let level = level.max(1);
        for line in s.strip_suffix('\n').unwrap_or(s).split('\n') {
            out.push('\n');
            if !line.is_empty() {
                indent(out, level);
                out.push_str(line);
            }
        }
        return;
    }
    push_double_quoted(out, s);
}

/// `"..."` with the escapes yaml.v2 reads: `\"`, `\\`, `\n`, `\t`,
/// `\r`, and `\uXXXX` for every character its reader refuses raw or
/// takes for a line break (NEL, LS, PS) and for a byte order mark.
fn push_double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if !allowed(c) || matches!(c, '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{feff}') => {
                out.push_str(&format!("\\u{:04X}", u32::from(c)));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    // Leading/trailing blanks (any Unicode blank, though yaml.v2 trims
    // only spaces and tabs), a trailing ':', and document markers.
    if s.starts_with(char::is_whitespace)
        || s.ends_with(char::is_whitespace)
        || s.ends_with(':')
        || s.starts_with("---")
        || s.starts_with("...")
    {
        return false;
    }
    if "-?:,[]{}#&*!|>'\"%@`".contains(first) {
        return false;
    }
    if s.contains(": ") || s.contains(" #") || s.contains(['\n', '\t', '\r']) {
        return false;
    }
    if s.chars().any(|c| {
        !allowed(c)
            || c.is_control()
            || matches!(c, '\u{feff}' | '\u{85}' | '\u{2028}' | '\u{2029}')
    }) {
        return false;
    }
    // It must read back as a string (not null, a boolean or a number),
    // and not be the merge key.
    s != "<<" && resolve::kind(s) == Kind::Str
}
