//! Go's `encoding/json` syntax check (`checkValid`), byte for byte: the
//! first error it reports and its exact text.
//!
//! kube-apiserver decodes a patch body with sigs.k8s.io/json, a fork of
//! Go's `encoding/json` whose scanner (`internal/golang/encoding/json/
//! scanner.go`) this follows state for state. A body that fails here is
//! answered `400 BadRequest: error decoding patch: <message>`.

use std::fmt;

/// A JSON syntax error as Go reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyntaxError {
    /// Go's message, e.g. `invalid character '}' after object key`.
    pub message: String,
    /// Bytes read when the error was found (Go's `SyntaxError.Offset`).
    pub offset: usize,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for SyntaxError {}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Parse {
    ObjectKey,
    ObjectValue,
    ArrayValue,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    BeginValue,
    BeginValueOrEmpty,
    BeginStringOrEmpty,
    BeginString,
    EndValue,
    EndTop,
    InString,
    InStringEsc,
    InStringEscU(u8),
    Neg,
    One,
    Zero,
    Dot,
    Dot0,
    E,
    ESign,
    E0,
    Literal(&'static [u8], u8, &'static str),
    Error,
}

struct Scanner {
    step: State,
    parse: Vec<Parse>,
    end_top: bool,
    err: Option<SyntaxError>,
    bytes: usize,
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

/// Go's `quoteChar`: the byte as a rune (Latin-1), quoted by
/// `strconv.Quote`, in single quotes.
fn quote_char(c: u8) -> String {
    match c {
        b'\'' => r"'\''".to_owned(),
        b'"' => "'\"'".to_owned(),
        _ => {
            let quoted = super::quote::quote(&char::from(c).to_string());
            format!("'{}'", &quoted[1..quoted.len() - 1])
        }
    }
}

impl Scanner {
    fn new() -> Scanner {
        Scanner {
            step: State::BeginValue,
            parse: Vec::new(),
            end_top: false,
            err: None,
            bytes: 0,
        }
    }

    fn error(&mut self, c: u8, context: &str) -> bool {
        self.step = State::Error;
        self.err = Some(SyntaxError {
            message: format!("invalid character {} {context}", quote_char(c)),
            offset: self.bytes,
        });
        false
    }

    fn push(&mut self, c: u8, state: Parse) -> bool {
        self.parse.push(state);
        if self.parse.len() <= crate::limits::GO_NESTING {
            true
        } else {
            self.error(c, "exceeded max depth")
        }
    }

    fn pop(&mut self) {
        self.parse.pop();
        if self.parse.is_empty() {
            self.step = State::EndTop;
            self.end_top = true;
        } else {
            self.step = State::EndValue;
        }
    }

    /// One byte; false on error.
    fn step(&mut self, c: u8) -> bool {
        // A state machine: Go's encoding/json scanner, one byte per step.
        let hex = |c: u8| c.is_ascii_hexdigit();
        match self.step {
            State::Error => false,
            State::BeginValueOrEmpty => {
                if is_space(c) {
                    return true;
                }
                if c == b']' {
                    return self.end_value(c);
                }
                self.begin_value(c)
            }
            State::BeginValue => self.begin_value(c),
            State::BeginStringOrEmpty => {
                if is_space(c) {
                    return true;
                }
                if c == b'}' {
                    if let Some(last) = self.parse.last_mut() {
                        *last = Parse::ObjectValue;
                    }
                    return self.end_value(c);
                }
                self.begin_string(c)
            }
            State::BeginString => self.begin_string(c),
            State::EndValue => self.end_value(c),
            State::EndTop => {
                if !is_space(c) {
                    self.error(c, "after top-level value");
                }
                // Go returns scanEnd here; the error surfaces on the next
                // byte or at EOF.
                true
            }
            State::InString => {
                if c == b'"' {
                    self.step = State::EndValue;
                    true
                } else if c == b'\\' {
                    self.step = State::InStringEsc;
                    true
                } else if c < 0x20 {
                    self.error(c, "in string literal")
                } else {
                    true
                }
            }
            State::InStringEsc => match c {
                b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => {
                    self.step = State::InString;
                    true
                }
                b'u' => {
                    self.step = State::InStringEscU(0);
                    true
                }
                _ => self.error(c, "in string escape code"),
            },
            State::InStringEscU(n) => {
                if !hex(c) {
                    return self.error(c, "in \\u hexadecimal character escape");
                }
                self.step = if n == 3 {
                    State::InString
                } else {
                    State::InStringEscU(n + 1)
                };
                true
            }
            State::Neg => match c {
                b'0' => {
                    self.step = State::Zero;
                    true
                }
                b'1'..=b'9' => {
                    self.step = State::One;
                    true
                }
                _ => self.error(c, "in numeric literal"),
            },
            State::One => {
                if c.is_ascii_digit() {
                    return true;
                }
                self.zero(c)
            }
            State::Zero => self.zero(c),
            State::Dot => {
                if c.is_ascii_digit() {
                    self.step = State::Dot0;
                    true
                } else {
                    self.error(c, "after decimal point in numeric literal")
                }
            }
            State::Dot0 => {
                if c.is_ascii_digit() {
                    true
                } else if c == b'e' || c == b'E' {
                    self.step = State::E;
                    true
                } else {
                    self.end_value(c)
                }
            }
            State::E => {
                if c == b'+' || c == b'-' {
                    self.step = State::ESign;
                    return true;
                }
                self.e_sign(c)
            }
            State::ESign => self.e_sign(c),
            State::E0 => {
                if c.is_ascii_digit() {
                    true
                } else {
                    self.end_value(c)
                }
            }
            State::Literal(word, at, context) => {
                if c == word[at as usize] {
                    self.step = if at as usize + 1 == word.len() {
                        State::EndValue
                    } else {
                        State::Literal(word, at + 1, literal_context(word, at + 1))
                    };
                    true
                } else {
                    self.error(c, context)
                }
            }
        }
    }

    fn zero(&mut self, c: u8) -> bool {
        if c == b'.' {
            self.step = State::Dot;
            true
        } else if c == b'e' || c == b'E' {
            self.step = State::E;
            true
        } else {
            self.end_value(c)
        }
    }

    fn e_sign(&mut self, c: u8) -> bool {
        if c.is_ascii_digit() {
            self.step = State::E0;
            true
        } else {
            self.error(c, "in exponent of numeric literal")
        }
    }

    fn begin_value(&mut self, c: u8) -> bool {
        if is_space(c) {
            return true;
        }
        match c {
            b'{' => {
                self.step = State::BeginStringOrEmpty;
                self.push(c, Parse::ObjectKey)
            }
            b'[' => {
                self.step = State::BeginValueOrEmpty;
                self.push(c, Parse::ArrayValue)
            }
            b'"' => {
                self.step = State::InString;
                true
            }
            b'-' => {
                self.step = State::Neg;
                true
            }
            b'0' => {
                self.step = State::Zero;
                true
            }
            b't' => {
                self.step = State::Literal(b"true", 1, literal_context(b"true", 1));
                true
            }
            b'f' => {
                self.step = State::Literal(b"false", 1, literal_context(b"false", 1));
                true
            }
            b'n' => {
                self.step = State::Literal(b"null", 1, literal_context(b"null", 1));
                true
            }
            b'1'..=b'9' => {
                self.step = State::One;
                true
            }
            _ => self.error(c, "looking for beginning of value"),
        }
    }

    fn begin_string(&mut self, c: u8) -> bool {
        if is_space(c) {
            return true;
        }
        if c == b'"' {
            self.step = State::InString;
            return true;
        }
        self.error(c, "looking for beginning of object key string")
    }

    fn end_value(&mut self, c: u8) -> bool {
        let Some(&state) = self.parse.last() else {
            self.step = State::EndTop;
            self.end_top = true;
            return self.step(c);
        };
        if is_space(c) {
            self.step = State::EndValue;
            return true;
        }
        match state {
            Parse::ObjectKey => {
                if c == b':' {
                    if let Some(last) = self.parse.last_mut() {
                        *last = Parse::ObjectValue;
                    }
                    self.step = State::BeginValue;
                    return true;
                }
                self.error(c, "after object key")
            }
            Parse::ObjectValue => {
                if c == b',' {
                    if let Some(last) = self.parse.last_mut() {
                        *last = Parse::ObjectKey;
                    }
                    self.step = State::BeginString;
                    return true;
                }
                if c == b'}' {
                    self.pop();
                    return true;
                }
                self.error(c, "after object key:value pair")
            }
            Parse::ArrayValue => {
                if c == b',' {
                    self.step = State::BeginValue;
                    return true;
                }
                if c == b']' {
                    self.pop();
                    return true;
                }
                self.error(c, "after array element")
            }
        }
    }

    fn eof(&mut self) -> Result<(), SyntaxError> {
        if let Some(err) = self.err.take() {
            return Err(err);
        }
        if self.end_top {
            return Ok(());
        }
        self.step(b' ');
        if self.end_top {
            return Ok(());
        }
        Err(self.err.take().unwrap_or(SyntaxError {
            message: "unexpected end of JSON input".to_owned(),
            offset: self.bytes,
        }))
    }
}

/// `in literal true (expecting 'r')` for the byte expected at `at`.
fn literal_context(word: &'static [u8], at: u8) -> &'static str {
    match (word, at) {
        (b"true", 1) => "in literal true (expecting 'r')",
        (b"true", 2) => "in literal true (expecting 'u')",
        (b"true", _) => "in literal true (expecting 'e')",
        (b"false", 1) => "in literal false (expecting 'a')",
        (b"false", 2) => "in literal false (expecting 'l')",
        (b"false", 3) => "in literal false (expecting 's')",
        (b"false", _) => "in literal false (expecting 'e')",
        (_, 1) => "in literal null (expecting 'u')",
        (_, _) => "in literal null (expecting 'l')",
    }
}

/// Go's `checkValid`: `Ok` when `data` is one JSON value (with
/// surrounding whitespace), otherwise the first error Go reports.
///
/// ```
/// use patchlab::gojson::check_valid;
/// assert!(check_valid(br#"[{"op":"add"}]"#).is_ok());
/// assert_eq!(check_valid(b"[").unwrap_err().message, "unexpected end of JSON input");
/// assert_eq!(
///     check_valid(br#"{"a" 1}"#).unwrap_err().message,
///     "invalid character '1' after object key"
/// );
/// ```
pub fn check_valid(data: &[u8]) -> Result<(), SyntaxError> {
    let mut scan = Scanner::new();
    for &c in data {
        scan.bytes += 1;
        if !scan.step(c) {
            break;
        }
    }
    scan.eof()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Messages as Go 1.22's `json.Valid`/`json.Unmarshal` print them.
    #[test]
    fn go_messages() {
        let cases: &[(&[u8], &str)] = &[
            (b"", "unexpected end of JSON input"),
            (b"   ", "unexpected end of JSON input"),
            (b"[1,", "unexpected end of JSON input"),
            (b"x", "invalid character 'x' looking for beginning of value"),
            (
                b"[1,]",
                "invalid character ']' looking for beginning of value",
            ),
            (
                b"{,}",
                "invalid character ',' looking for beginning of object key string",
            ),
            (b"{\"a\",}", "invalid character ',' after object key"),
            (
                b"{\"a\":1 \"b\"}",
                "invalid character '\"' after object key:value pair",
            ),
            (b"[1 2]", "invalid character '2' after array element"),
            (b"[1] x", "invalid character 'x' after top-level value"),
            (b"[1]x", "invalid character 'x' after top-level value"),
            (b"\"a\nb\"", "invalid character '\\n' in string literal"),
            (b"\"\\x\"", "invalid character 'x' in string escape code"),
            (
                b"\"\\u12g4\"",
                "invalid character 'g' in \\u hexadecimal character escape",
            ),
            (b"-x", "invalid character 'x' in numeric literal"),
            (
                b"1.x",
                "invalid character 'x' after decimal point in numeric literal",
            ),
            (
                b"1ex",
                "invalid character 'x' in exponent of numeric literal",
            ),
            // At the end Go feeds one space, so a cut literal or number
            // reports that space.
            (
                b"tru",
                "invalid character ' ' in literal true (expecting 'e')",
            ),
            (b"-", "invalid character ' ' in numeric literal"),
            (b"\"abc", "unexpected end of JSON input"),
            (
                b"trux",
                "invalid character 'x' in literal true (expecting 'e')",
            ),
            (
                b"fAlse",
                "invalid character 'A' in literal false (expecting 'a')",
            ),
            (
                b"nul",
                "invalid character ' ' in literal null (expecting 'l')",
            ),
            (
                b"nu1l",
                "invalid character '1' in literal null (expecting 'l')",
            ),
            (
                b"'a'",
                "invalid character '\\'' looking for beginning of value",
            ),
            (
                b"[\"a\" \"b\"]",
                "invalid character '\"' after array element",
            ),
            (
                b"\x01",
                "invalid character '\\x01' looking for beginning of value",
            ),
            (
                b"\xc3\xa9",
                "invalid character '\u{c3}' looking for beginning of value",
            ),
            (
                b"\x85",
                "invalid character '\\u0085' looking for beginning of value",
            ),
            (
                b"\xad",
                "invalid character '\\u00ad' looking for beginning of value",
            ),
            (b"01", "invalid character '1' after top-level value"),
        ];
        for (input, message) in cases {
            let err = check_valid(input).unwrap_err();
            assert_eq!(
                &err.message,
                message,
                "{:?}",
                String::from_utf8_lossy(input)
            );
        }
        for ok in [
            &b"null"[..],
            b" [ ] ",
            b"{}",
            b"-0.5e+7",
            b"\"\\u00e9\\n\"",
            b"[[],{\"a\":[true,false]}]",
        ] {
            assert!(check_valid(ok).is_ok(), "{:?}", String::from_utf8_lossy(ok));
        }
    }

    #[test]
    fn nesting_beyond_go_limit() {
        let deep = "[".repeat(crate::limits::GO_NESTING + 1);
        let err = check_valid(deep.as_bytes()).unwrap_err();
        assert_eq!(err.message, "invalid character '[' exceeded max depth");
        let ok = format!(
            "{}{}",
            "[".repeat(crate::limits::GO_NESTING),
            "]".repeat(crate::limits::GO_NESTING)
        );
        assert!(check_valid(ok.as_bytes()).is_ok());
    }
}
