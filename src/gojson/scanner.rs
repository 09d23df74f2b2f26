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
    Literal(&'static [u8], u8),
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

    /// Moves to `state`, taking the byte.
    fn to(&mut self, state: State) -> bool {
        self.step = state;
        true
    }

    fn push(&mut self, c: u8, state: State, parse: Parse) -> bool {
        self.step = state;
        self.parse.push(parse);
        if self.parse.len() <= crate::limits::GO_NESTING {
            true
        } else {
            self.error(c, "exceeded max depth")
        }
    }

    fn pop(&mut self) -> bool {
        self.parse.pop();
        self.end_top = self.parse.is_empty();
        self.to(if self.end_top {
            State::EndTop
        } else {
            State::EndValue
        })
    }

    /// What the innermost object or array reads next.
    fn set_top(&mut self, parse: Parse) {
        if let Some(last) = self.parse.last_mut() {
            *last = parse;
        }
    }

    /// One byte; false on error. Each state is a method, as each is a
    /// function in Go.
    fn step(&mut self, c: u8) -> bool {
        match self.step {
            State::Error => false,
            State::BeginValueOrEmpty => self.begin_value_or_empty(c),
            State::BeginValue => self.begin_value(c),
            State::BeginStringOrEmpty => self.begin_string_or_empty(c),
            State::BeginString => self.begin_string(c),
            State::EndValue => self.end_value(c),
            State::EndTop => self.after_top(c),
            State::InString => self.in_string(c),
            State::InStringEsc => self.in_string_esc(c),
            State::InStringEscU(n) => self.in_string_esc_u(c, n),
            State::Neg => self.neg(c),
            State::One => self.one(c),
            State::Zero => self.zero(c),
            State::Dot => self.dot(c),
            State::Dot0 => self.dot0(c),
            State::E => self.e(c),
            State::ESign => self.e_sign(c),
            State::E0 => self.e0(c),
            State::Literal(word, at) => self.literal(c, word, at),
        }
    }

    fn begin_value_or_empty(&mut self, c: u8) -> bool {
        match c {
            _ if is_space(c) => true,
            b']' => self.end_value(c),
            _ => self.begin_value(c),
        }
    }

    fn begin_value(&mut self, c: u8) -> bool {
        match c {
            _ if is_space(c) => true,
            b'{' => self.push(c, State::BeginStringOrEmpty, Parse::ObjectKey),
            b'[' => self.push(c, State::BeginValueOrEmpty, Parse::ArrayValue),
            b'"' => self.to(State::InString),
            b'-' => self.to(State::Neg),
            b'0' => self.to(State::Zero),
            b't' => self.to(State::Literal(b"true", 1)),
            b'f' => self.to(State::Literal(b"false", 1)),
            b'n' => self.to(State::Literal(b"null", 1)),
            b'1'..=b'9' => self.to(State::One),
            _ => self.error(c, "looking for beginning of value"),
        }
    }

    fn begin_string_or_empty(&mut self, c: u8) -> bool {
        match c {
            _ if is_space(c) => true,
            b'}' => {
                self.set_top(Parse::ObjectValue);
                self.end_value(c)
            }
            _ => self.begin_string(c),
        }
    }

    fn begin_string(&mut self, c: u8) -> bool {
        match c {
            _ if is_space(c) => true,
            b'"' => self.to(State::InString),
            _ => self.error(c, "looking for beginning of object key string"),
        }
    }

    fn end_value(&mut self, c: u8) -> bool {
        let Some(&parse) = self.parse.last() else {
            self.step = State::EndTop;
            self.end_top = true;
            return self.step(c);
        };
        match (parse, c) {
            _ if is_space(c) => self.to(State::EndValue),
            (Parse::ObjectKey, b':') => {
                self.set_top(Parse::ObjectValue);
                self.to(State::BeginValue)
            }
            (Parse::ObjectKey, _) => self.error(c, "after object key"),
            (Parse::ObjectValue, b',') => {
                self.set_top(Parse::ObjectKey);
                self.to(State::BeginString)
            }
            (Parse::ObjectValue, b'}') | (Parse::ArrayValue, b']') => self.pop(),
            (Parse::ObjectValue, _) => self.error(c, "after object key:value pair"),
            (Parse::ArrayValue, b',') => self.to(State::BeginValue),
            (Parse::ArrayValue, _) => self.error(c, "after array element"),
        }
    }

    fn after_top(&mut self, c: u8) -> bool {
        if !is_space(c) {
            self.error(c, "after top-level value");
        }
        // Go returns scanEnd here; the error surfaces on the next byte or
        // at EOF.
        true
    }

    fn in_string(&mut self, c: u8) -> bool {
        match c {
            b'"' => self.to(State::EndValue),
            b'\\' => self.to(State::InStringEsc),
            0x00..=0x1f => self.error(c, "in string literal"),
            _ => true,
        }
    }

    fn in_string_esc(&mut self, c: u8) -> bool {
        match c {
            b'b' | b'f' | b'n' | b'r' | b't' | b'\\' | b'/' | b'"' => self.to(State::InString),
            b'u' => self.to(State::InStringEscU(0)),
            _ => self.error(c, "in string escape code"),
        }
    }

    fn in_string_esc_u(&mut self, c: u8, n: u8) -> bool {
        match n {
            _ if !c.is_ascii_hexdigit() => self.error(c, "in \\u hexadecimal character escape"),
            3 => self.to(State::InString),
            _ => self.to(State::InStringEscU(n + 1)),
        }
    }

    fn neg(&mut self, c: u8) -> bool {
        match c {
            b'0' => self.to(State::Zero),
            b'1'..=b'9' => self.to(State::One),
            _ => self.error(c, "in numeric literal"),
        }
    }

    fn one(&mut self, c: u8) -> bool {
        match c {
            b'0'..=b'9' => true,
            _ => self.zero(c),
        }
    }

    fn zero(&mut self, c: u8) -> bool {
        match c {
            b'.' => self.to(State::Dot),
            b'e' | b'E' => self.to(State::E),
            _ => self.end_value(c),
        }
    }

    fn dot(&mut self, c: u8) -> bool {
        match c {
            b'0'..=b'9' => self.to(State::Dot0),
            _ => self.error(c, "after decimal point in numeric literal"),
        }
    }

    fn dot0(&mut self, c: u8) -> bool {
        match c {
            b'0'..=b'9' => true,
            b'e' | b'E' => self.to(State::E),
            _ => self.end_value(c),
        }
    }

    fn e(&mut self, c: u8) -> bool {
        match c {
            b'+' | b'-' => self.to(State::ESign),
            _ => self.e_sign(c),
        }
    }

    fn e_sign(&mut self, c: u8) -> bool {
        match c {
            b'0'..=b'9' => self.to(State::E0),
            _ => self.error(c, "in exponent of numeric literal"),
        }
    }

    fn e0(&mut self, c: u8) -> bool {
        match c {
            b'0'..=b'9' => true,
            _ => self.end_value(c),
        }
    }

    /// Inside `true`, `false` or `null`, expecting `word[at]`.
    fn literal(&mut self, c: u8, word: &'static [u8], at: u8) -> bool {
        let next = at + 1;
        if c != word[usize::from(at)] {
            self.error(c, literal_context(word, at))
        } else if usize::from(next) == word.len() {
            self.to(State::EndValue)
        } else {
            self.to(State::Literal(word, next))
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
    const GO_MESSAGES: &[(&[u8], &str)] = &[
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

    #[test]
    fn go_messages() {
        for (input, message) in GO_MESSAGES {
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
