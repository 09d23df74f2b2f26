//! Text for a terminal: control characters that user data carries (in
//! paths, scenario and writer names, values, messages) are written as
//! visible escapes, so that a hostile object cannot move the cursor,
//! retitle the window or hide lines. JSON and SARIF output stay exact
//! (JSON escapes what it must itself), and so do the exports (`diff
//! --format kubectl|go|rust`: each writes such characters in its own
//! syntax); this is for the text formats and the messages on stderr.

use std::borrow::Cow;

use patchlab::text::acts_on_terminal as acts;

fn escape(text: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !text.chars().any(|c| acts(c) && !keep(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if acts(c) && !keep(c) {
            out.push_str(&c.escape_unicode().to_string());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A whole text output: every control character but newline and tab
/// escaped (`\u{1b}`).
///
/// ```text
/// printable("a\u{1b}[2Jb\n") == "a\\u{1b}[2Jb\n"
/// ```
pub fn printable(text: &str) -> Cow<'_, str> {
    escape(text, |c| c == '\n' || c == '\t')
}

/// The longest quoted string or word a message on stderr shows whole.
pub const MESSAGE_WORD: usize = 200;

/// A message for stderr: printable, and every quoted string or word longer
/// than [`MESSAGE_WORD`] characters cut with its length (a path of 200 KB
/// is named by its start, not echoed whole; `patchlab::text::cut_long`).
pub fn message(text: &str) -> Cow<'_, str> {
    match patchlab::text::cut_long(text, MESSAGE_WORD) {
        Cow::Borrowed(text) => printable(text),
        Cow::Owned(text) => Cow::Owned(printable(&text).into_owned()),
    }
}

/// One field of user data shown on one line (a name): newlines and tabs
/// escaped too.
pub fn field(text: &str) -> Cow<'_, str> {
    escape(text, |_| false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_become_visible_and_the_rest_stays() {
        assert_eq!(printable("plain\ttext\n"), "plain\ttext\n");
        assert!(matches!(printable("plain"), Cow::Borrowed(_)));
        assert_eq!(
            printable("a\u{1b}]0;owned\u{7}b"),
            "a\\u{1b}]0;owned\\u{7}b"
        );
        assert_eq!(printable("\u{9b}31m\u{7f}"), "\\u{9b}31m\\u{7f}");
        assert_eq!(printable("x\r\ny"), "x\\u{d}\ny");
        assert_eq!(printable("abc\u{202e}fed"), "abc\\u{202e}fed");
        assert_eq!(printable("é ü 日本"), "é ü 日本");
        assert_eq!(field("two\nlines\tand tab"), "two\\u{a}lines\\u{9}and tab");
    }
}
