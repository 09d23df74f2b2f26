//! Go's `strconv.Quote`: a Go interpreted string literal that prints
//! every rune `strconv.IsPrint` accepts as it is and escapes the rest.

use std::fmt::Write;

use super::isprint::is_print;

/// `strconv.Quote(s)`, byte for byte.
///
/// ```
/// use patchlab::gojson::quote;
/// assert_eq!(quote("kubevirt.io/nodeName"), r#""kubevirt.io/nodeName""#);
/// assert_eq!(quote("a\"b\\c\n"), r#""a\"b\\c\n""#);
/// // Invisible runes are escaped: a byte-order mark, a zero-width space,
/// // a soft hyphen, a DEL and a C1 control.
/// assert_eq!(quote("\u{feff}\u{200b}\u{ad}\u{7f}\u{85}"), r#""\ufeff\u200b\u00ad\x7f\u0085""#);
/// assert_eq!(quote("é ✓ 😀"), "\"é ✓ 😀\"");
/// ```
pub fn quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        push_escaped(&mut out, c);
    }
    out.push('"');
    out
}

/// True when `strconv.Quote` writes `c` as it is (and `c` is not `"` or `\`).
pub fn prints_as_is(c: char) -> bool {
    c != '"' && c != '\\' && is_print(c)
}

fn push_escaped(out: &mut String, c: char) {
    if c == '"' || c == '\\' {
        out.push('\\');
        out.push(c);
        return;
    }
    if is_print(c) {
        out.push(c);
        return;
    }
    match c {
        '\u{7}' => out.push_str(r"\a"),
        '\u{8}' => out.push_str(r"\b"),
        '\u{c}' => out.push_str(r"\f"),
        '\n' => out.push_str(r"\n"),
        '\r' => out.push_str(r"\r"),
        '\t' => out.push_str(r"\t"),
        '\u{b}' => out.push_str(r"\v"),
        c if (c as u32) < 0x20 || c == '\u{7f}' => {
            let _ = write!(out, "\\x{:02x}", c as u32);
        }
        c if (c as u32) < 0x10000 => {
            let _ = write!(out, "\\u{:04x}", c as u32);
        }
        c => {
            let _ = write!(out, "\\U{:08x}", c as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_go_strconv_quote() {
        // Outputs of Go 1.22's strconv.Quote.
        let cases = [
            ("", r#""""#),
            ("\u{0}\u{1}\u{7}\u{b}\u{1f}", r#""\x00\x01\a\v\x1f""#),
            ("\u{a0}", r#""\u00a0""#),
            ("\u{2028}\u{2029}", r#""\u2028\u2029""#),
            ("\u{e000}", r#""\ue000""#),
            ("\u{10ffff}", r#""\U0010ffff""#),
            ("\u{1f600}", "\"\u{1f600}\""),
            ("\u{e0001}", r#""\U000e0001""#),
            ("\u{30000}", "\"\u{30000}\""),
            ("'", "\"'\""),
            ("\u{61c}", r#""\u061c""#),
            ("\u{3000}", r#""\u3000""#),
        ];
        for (input, go) in cases {
            assert_eq!(quote(input), go, "{input:?}");
        }
    }
}
