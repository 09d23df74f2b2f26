//! Shell words and JSON text for the `kubectl` export: exact for every
//! code point, and holding no character a terminal acts on (such a
//! character is written in the syntax it sits in: a JSON `\u202e`, a
//! bash `$'\xe2\x80\xae'`).

use std::fmt::Write;

use crate::text::acts_on_terminal;

/// Quotes `s` for a POSIX shell: single quotes, with `'` written `'\''`.
///
/// ```
/// use patchlab::strategy::shell_quote;
/// assert_eq!(shell_quote("it's"), r#"'it'\''s'"#);
/// ```
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The shell word that gives the command `s` byte for byte: single
/// quotes, or, where `s` holds a character a terminal acts on, bash's
/// `$'...'` with that character's UTF-8 bytes as `\xHH` (bash, zsh, ksh
/// and POSIX.1-2024 `sh` read it; the bytes reach the command as they
/// are, whatever the locale).
///
/// ```
/// use patchlab::strategy::shell_arg;
/// assert_eq!(shell_arg(r#"{"a":"it's"}"#), r#"'{"a":"it'\''s"}'"#);
/// assert_eq!(shell_arg("a\u{202e}'\\"), r"$'a\xe2\x80\xae\'\\'");
/// ```
pub fn shell_arg(s: &str) -> String {
    if !s.chars().any(acts_on_terminal) {
        return shell_quote(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    out.push_str("$'");
    for c in s.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\'"),
            c if acts_on_terminal(c) => {
                for b in c.to_string().bytes() {
                    let _ = write!(out, "\\x{b:02x}");
                }
            }
            c => out.push(c),
        }
    }
    out.push('\'');
    out
}

/// A word left bare when it is safe, quoted otherwise.
pub(super) fn shell_word(s: &str) -> String {
    let safe = !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b':'));
    if safe {
        s.to_owned()
    } else {
        shell_arg(s)
    }
}

/// A here-document delimiter that does not occur in `text`.
pub(super) fn delimiter(text: &str) -> String {
    let mut delimiter = "PATCHLAB_EOF".to_owned();
    while text.lines().any(|line| line == delimiter) {
        delimiter.push('_');
    }
    delimiter
}

/// JSON text with every character of its strings for which `escape`
/// holds written as a `\uXXXX` escape (a surrogate pair above U+FFFF),
/// and, with `negative_zero`, each `-0` number token written `-0.0`.
/// JSON decodes it to the same value.
pub(super) fn rewrite_json(json: &str, escape: fn(char) -> bool, negative_zero: bool) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = json.char_indices();
    while let Some((i, c)) = chars.next() {
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            } else if escape(c) {
                for unit in c.encode_utf16(&mut [0; 2]) {
                    let _ = write!(out, "\\u{unit:04x}");
                }
                continue;
            }
        } else if c == '"' {
            in_string = true;
        } else if negative_zero && c == '-' && is_zero_token(&json[i + 1..]) {
            out.push_str("-0.0");
            chars.next();
            continue;
        }
        out.push(c);
    }
    out
}

/// True when `rest` (what follows a `-`) is the whole number token `0`
/// (not 0.5, 0e1).
fn is_zero_token(rest: &str) -> bool {
    rest.strip_prefix('0').is_some_and(|after| {
        !after.starts_with(|d: char| d.is_ascii_digit() || matches!(d, '.' | 'e' | 'E'))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_quoted_only_when_needed() {
        assert_eq!(
            shell_quote(r#"[{"value":"it's"}]"#),
            r#"'[{"value":"it'\''s"}]'"#
        );
        assert_eq!(shell_word("default"), "default");
        assert_eq!(shell_word("my ns"), "'my ns'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(shell_word("<name>"), "'<name>'");
        assert_eq!(shell_word("a\u{7f}b"), r"$'a\x7fb'");
        assert_eq!(shell_arg("tab\there\n"), r"$'tab\x09here\x0a'");
        assert_eq!(delimiter("a\nPATCHLAB_EOF\n"), "PATCHLAB_EOF_");
    }

    #[test]
    fn json_rewrites_touch_only_string_contents_and_zero_tokens() {
        let json = "{\"a\\\"\u{85}\":[-0,-0.5,-0e1,-01,\"-0\u{202e}\"],\"\u{1f600}\":-0}";
        assert_eq!(
            rewrite_json(json, acts_on_terminal, true),
            r#"{"a\"\u0085":[-0.0,-0.5,-0e1,-01,"-0\u202e"],"😀":-0.0}"#
        );
        assert_eq!(
            rewrite_json("[\"\u{1f600}\"]", |c| c > '\u{ffff}', false),
            r#"["\ud83d\ude00"]"#
        );
    }
}
