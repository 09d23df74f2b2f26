//! kube-apiserver's strict decode of a patch body, before any engine runs:
//! sigs.k8s.io/json's `UnmarshalStrict` into the handler's own types.
//!
//! Since field validation defaults to `Warn` (Kubernetes 1.25 and later),
//! the PATCH handler (`staging/src/k8s.io/apiserver/pkg/endpoints/handlers/
//! patch.go`, `applyJSPatch`) first decodes a JSON patch into
//! `[]jsonPatchOp` (`op`, `path`, `from` strings, `value` anything) and a
//! merge patch into `map[string]interface{}`. A syntax or type error is
//! answered `400 BadRequest: error decoding patch: <error>`; unknown and
//! duplicate fields are only warnings (sent back in `Warning` headers when
//! the request succeeds). This module reproduces the first error Go
//! reports, with its exact text, and the warnings in Go's order.

use std::collections::HashSet;
use std::fmt;

use super::scanner::{check_valid, SyntaxError};

/// Why Go's decoder refused a body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DecodeError {
    /// Not JSON: Go's scanner message.
    Syntax(SyntaxError),
    /// JSON of the wrong shape, e.g. `json: cannot unmarshal object into
    /// Go value of type []handlers.jsonPatchOp`.
    Type(String),
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeError::Syntax(err) => f.write_str(&err.message),
            DecodeError::Type(message) => f.write_str(message),
        }
    }
}

impl std::error::Error for DecodeError {}

/// Go's name of the handler's JSON patch type.
const PATCH_TYPE: &str = "[]handlers.jsonPatchOp";
const OP_TYPE: &str = "handlers.jsonPatchOp";
const MERGE_TYPE: &str = "map[string]interface {}";
/// sigs.k8s.io/json keeps at most this many strict errors.
const MAX_STRICT: usize = 100;

/// Checks a JSON patch body as the handler's strict decode does.
///
/// # Errors
///
/// [`DecodeError`] with the text Go gives; the server answers 400
/// `error decoding patch: <text>`.
///
/// Returns the warnings the server sends back (`json patch unknown field
/// "[0].xyz"`, `json patch duplicate field "[0].op"`).
///
/// ```
/// use patchlab::gojson::check_json_patch;
/// assert_eq!(
///     check_json_patch(r#"{"op":"add"}"#).unwrap_err().to_string(),
///     "json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"
/// );
/// assert_eq!(
///     check_json_patch(r#"[{"op":1}]"#).unwrap_err().to_string(),
///     "json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string"
/// );
/// assert_eq!(
///     check_json_patch(r#"[{"op":"add","path":"/a","value":1,"xyz":2}]"#).unwrap(),
///     [r#"json patch unknown field "[0].xyz""#]
/// );
/// // A null element decodes (to an empty op): the engine refuses it later (422).
/// assert!(check_json_patch("[null]").is_ok());
/// ```
pub fn check_json_patch(text: &str) -> Result<Vec<String>, DecodeError> {
    check_valid(text.as_bytes()).map_err(DecodeError::Syntax)?;
    let mut walker = Walker::new(text);
    walker.patch();
    walker.finish("json patch ")
}

/// Checks a merge patch body as the handler's strict decode does (into
/// `map[string]interface{}`).
///
/// # Errors
///
/// [`DecodeError`] for a syntax error or a body that is not an object (or
/// `null`).
///
/// ```
/// use patchlab::gojson::check_merge_patch;
/// assert_eq!(
///     check_merge_patch("[1]").unwrap_err().to_string(),
///     "json: cannot unmarshal array into Go value of type map[string]interface {}"
/// );
/// assert_eq!(
///     check_merge_patch(r#"{"a":{"b":1,"b":2}}"#).unwrap(),
///     [r#"duplicate field "a.b""#]
/// );
/// ```
pub fn check_merge_patch(text: &str) -> Result<Vec<String>, DecodeError> {
    check_valid(text.as_bytes()).map_err(DecodeError::Syntax)?;
    let mut walker = Walker::new(text);
    walker.skip_ws();
    match walker.peek() {
        b'{' => walker.any(None),
        b'n' => walker.skip_value(),
        other => walker.type_error(kind_of(other), MERGE_TYPE, None),
    }
    walker.finish("")
}

/// What Go calls a JSON value in a type error.
fn kind_of(first: u8) -> &'static str {
    match first {
        b'{' => "object",
        b'[' => "array",
        b'"' => "string",
        b't' | b'f' => "bool",
        b'n' => "null",
        _ => "number",
    }
}

/// A walk over text already known to be valid JSON.
struct Walker<'a> {
    text: &'a [u8],
    at: usize,
    /// The first type error (Go keeps the first and returns it).
    error: Option<String>,
    strict: Vec<String>,
    seen: HashSet<String>,
    /// sigs.k8s.io/json's `strictFieldStack`, joined.
    stack: String,
}

/// One open container of an `interface{}` value.
enum Frame {
    Object {
        keys: HashSet<String>,
        stack_len: usize,
    },
    Array {
        next: usize,
        stack_len: usize,
    },
}

impl<'a> Walker<'a> {
    fn new(text: &'a str) -> Walker<'a> {
        Walker {
            text: text.as_bytes(),
            at: 0,
            error: None,
            strict: Vec::new(),
            seen: HashSet::new(),
            stack: String::new(),
        }
    }

    fn finish(self, prefix: &str) -> Result<Vec<String>, DecodeError> {
        match self.error {
            Some(message) => Err(DecodeError::Type(message)),
            None => Ok(self
                .strict
                .into_iter()
                .map(|e| format!("{prefix}{e}"))
                .collect()),
        }
    }

    fn peek(&self) -> u8 {
        self.text.get(self.at).copied().unwrap_or(b' ')
    }

    fn skip_ws(&mut self) {
        while matches!(self.peek(), b' ' | b'\t' | b'\n' | b'\r') && self.at < self.text.len() {
            self.at += 1;
        }
    }

    /// Consumes `byte` (after whitespace) if it is next.
    fn eat(&mut self, byte: u8) -> bool {
        self.skip_ws();
        if self.at < self.text.len() && self.peek() == byte {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn type_error(&mut self, value: &str, ty: &str, field: Option<&str>) {
        if self.error.is_none() {
            self.error = Some(match field {
                Some(field) => format!(
                    "json: cannot unmarshal {value} into Go struct field {field} of type {ty}"
                ),
                None => format!("json: cannot unmarshal {value} into Go value of type {ty}"),
            });
        }
        self.skip_value();
    }

    fn strict_error(&mut self, kind: &str, field: &str) {
        if self.strict.len() >= MAX_STRICT {
            return;
        }
        let path = if self.stack.is_empty() {
            field.to_owned()
        } else {
            format!("{}.{field}", self.stack)
        };
        let message = format!("{kind} {}", super::quote::quote(&path));
        if self.seen.insert(message.clone()) {
            self.strict.push(message);
        }
    }

    fn push_key(&mut self, key: &str) {
        if !self.stack.is_empty() {
            self.stack.push('.');
        }
        self.stack.push_str(key);
    }

    fn push_index(&mut self, index: usize) {
        self.stack.push('[');
        self.stack.push_str(itoa::Buffer::new().format(index));
        self.stack.push(']');
    }

    /// Reads a string token and returns it decoded as Go decodes it
    /// (invalid surrogates become U+FFFD).
    fn string(&mut self) -> String {
        self.skip_ws();
        let start = self.at;
        self.at += 1;
        while self.at < self.text.len() {
            match self.text[self.at] {
                b'\\' => self.at += 2,
                b'"' => {
                    self.at += 1;
                    break;
                }
                _ => self.at += 1,
            }
        }
        let raw = std::str::from_utf8(&self.text[start + 1..self.at - 1]).unwrap_or_default();
        unquote(raw)
    }

    /// Skips one value (after whitespace), without recursion.
    fn skip_value(&mut self) {
        self.skip_ws();
        let mut depth = 0usize;
        loop {
            match self.peek() {
                b'"' => {
                    self.string();
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.at += 1;
                }
                b'}' | b']' => {
                    depth = depth.saturating_sub(1);
                    self.at += 1;
                }
                b',' | b':' if depth > 0 => self.at += 1,
                b' ' | b'\t' | b'\n' | b'\r' if depth > 0 => self.at += 1,
                _ => {
                    // A literal: up to the next delimiter.
                    while self.at < self.text.len()
                        && !matches!(
                            self.peek(),
                            b',' | b'}' | b']' | b':' | b' ' | b'\t' | b'\n' | b'\r'
                        )
                    {
                        self.at += 1;
                    }
                }
            }
            if depth == 0 || self.at >= self.text.len() {
                return;
            }
        }
    }

    /// `[]jsonPatchOp`.
    fn patch(&mut self) {
        self.skip_ws();
        match self.peek() {
            b'[' => {}
            b'n' => return self.skip_value(),
            other => return self.type_error(kind_of(other), PATCH_TYPE, None),
        }
        self.at += 1;
        if self.eat(b']') {
            return;
        }
        let mut index = 0;
        loop {
            self.stack.clear();
            self.push_index(index);
            self.skip_ws();
            match self.peek() {
                b'{' => self.op(),
                b'n' => self.skip_value(),
                other => self.type_error(kind_of(other), OP_TYPE, None),
            }
            if self.error.is_some() {
                return;
            }
            index += 1;
            if !self.eat(b',') {
                return;
            }
        }
    }

    /// One `jsonPatchOp` object.
    fn op(&mut self) {
        self.at += 1;
        let mut seen = [false; 4];
        if self.eat(b'}') {
            return;
        }
        let base = self.stack.clone();
        loop {
            let key = self.string();
            self.eat(b':');
            self.skip_ws();
            let field = ["op", "path", "from", "value"]
                .iter()
                .position(|f| *f == key);
            match field {
                Some(i) => {
                    if seen[i] {
                        self.strict_error("duplicate field", &key);
                    }
                    seen[i] = true;
                    self.push_key(&key);
                    if i < 3 {
                        match self.peek() {
                            b'"' | b'n' => self.skip_value(),
                            other => {
                                let field = format!("jsonPatchOp.{key}");
                                self.type_error(kind_of(other), "string", Some(&field));
                            }
                        }
                    } else {
                        self.any(Some("jsonPatchOp.value"));
                    }
                    self.stack.clone_from(&base);
                }
                None => {
                    self.strict_error("unknown field", &key);
                    self.skip_value();
                }
            }
            if self.error.is_some() || !self.eat(b',') {
                self.eat(b'}');
                return;
            }
        }
    }

    /// An `interface{}` value: duplicate keys are strict errors, numbers
    /// must fit a float64. `field` names the struct field for type errors.
    fn any(&mut self, field: Option<&str>) {
        let mut frames: Vec<Frame> = Vec::new();
        loop {
            // A value starts here.
            self.skip_ws();
            match self.peek() {
                b'{' => {
                    self.at += 1;
                    frames.push(Frame::Object {
                        keys: HashSet::new(),
                        stack_len: self.stack.len(),
                    });
                    if self.eat(b'}') {
                        frames.pop();
                    } else {
                        self.object_key(&mut frames);
                        continue;
                    }
                }
                b'[' => {
                    self.at += 1;
                    frames.push(Frame::Array {
                        next: 0,
                        stack_len: self.stack.len(),
                    });
                    if self.eat(b']') {
                        frames.pop();
                    } else {
                        self.array_element(&mut frames);
                        continue;
                    }
                }
                b'"' => {
                    self.string();
                }
                b't' | b'f' | b'n' => self.skip_value(),
                _ => {
                    let start = self.at;
                    self.skip_value();
                    let literal = std::str::from_utf8(&self.text[start..self.at]).unwrap_or("");
                    if !fits_float64(literal) {
                        let value = format!("number {literal}");
                        if self.error.is_none() {
                            self.error = Some(match field {
                                Some(field) => format!(
                                    "json: cannot unmarshal {value} into Go struct field {field} of type float64"
                                ),
                                None => format!(
                                    "json: cannot unmarshal {value} into Go value of type float64"
                                ),
                            });
                        }
                    }
                }
            }
            // The value ended: close containers that end here.
            loop {
                let Some(frame) = frames.last_mut() else {
                    return;
                };
                match frame {
                    Frame::Object { stack_len, .. } => {
                        let len = *stack_len;
                        self.stack.truncate(len);
                        if self.eat(b',') {
                            self.object_key(&mut frames);
                            break;
                        }
                        self.eat(b'}');
                        frames.pop();
                    }
                    Frame::Array { stack_len, .. } => {
                        let len = *stack_len;
                        self.stack.truncate(len);
                        if self.eat(b',') {
                            self.array_element(&mut frames);
                            break;
                        }
                        self.eat(b']');
                        frames.pop();
                    }
                }
            }
        }
    }

    /// Reads a key of the innermost object frame and positions before its value.
    fn object_key(&mut self, frames: &mut [Frame]) {
        let key = self.string();
        self.eat(b':');
        if let Some(Frame::Object { keys, .. }) = frames.last_mut() {
            let duplicate = !keys.insert(key.clone());
            if duplicate {
                self.strict_error("duplicate field", &key);
            }
        }
        self.push_key(&key);
    }

    fn array_element(&mut self, frames: &mut [Frame]) {
        if let Some(Frame::Array { next, .. }) = frames.last_mut() {
            let index = *next;
            *next += 1;
            self.push_index(index);
        }
    }
}

/// Whether Go's `convertNumber` (with `PreserveInts`) accepts the literal:
/// an int64, or a float64 within range.
fn fits_float64(literal: &str) -> bool {
    if !literal.contains('.') && literal.parse::<i64>().is_ok() {
        return true;
    }
    literal.parse::<f64>().is_ok_and(f64::is_finite)
}

/// Decodes the inside of a JSON string as Go does: escapes resolved,
/// surrogate pairs joined, a lone surrogate replaced by U+FFFD.
pub(crate) fn unquote(raw: &str) -> String {
    if !raw.contains('\\') {
        return raw.to_owned();
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    let hex4 = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>| -> Option<u32> {
        let mut value = 0;
        for _ in 0..4 {
            value = value * 16 + chars.next()?.to_digit(16)?;
        }
        Some(value)
    };
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('b') => out.push('\u{8}'),
            Some('f') => out.push('\u{c}'),
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('u') => {
                let Some(first) = hex4(&mut chars) else {
                    out.push('\u{fffd}');
                    continue;
                };
                if (0xd800..0xdc00).contains(&first) {
                    let mut ahead = chars.clone();
                    if ahead.next() == Some('\\') && ahead.next() == Some('u') {
                        if let Some(second) = hex4(&mut ahead) {
                            if (0xdc00..0xe000).contains(&second) {
                                chars = ahead;
                                let code = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
                                out.push(char::from_u32(code).unwrap_or('\u{fffd}'));
                                continue;
                            }
                        }
                    }
                    out.push('\u{fffd}');
                } else {
                    out.push(char::from_u32(first).unwrap_or('\u{fffd}'));
                }
            }
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_patch_shapes() {
        let errors = [
            ("", "unexpected end of JSON input"),
            ("[{", "unexpected end of JSON input"),
            (r#""x""#, "json: cannot unmarshal string into Go value of type []handlers.jsonPatchOp"),
            ("1", "json: cannot unmarshal number into Go value of type []handlers.jsonPatchOp"),
            ("true", "json: cannot unmarshal bool into Go value of type []handlers.jsonPatchOp"),
            (r#"[{"op":"add"},1]"#, "json: cannot unmarshal number into Go value of type handlers.jsonPatchOp"),
            ("[[]]", "json: cannot unmarshal array into Go value of type handlers.jsonPatchOp"),
            (r#"[{"path":{}}]"#, "json: cannot unmarshal object into Go struct field jsonPatchOp.path of type string"),
            (r#"[{"from":[1]}]"#, "json: cannot unmarshal array into Go struct field jsonPatchOp.from of type string"),
            (r#"[{"op":true}]"#, "json: cannot unmarshal bool into Go struct field jsonPatchOp.op of type string"),
            (r#"[{"op":"add","value":[1,{"a":1e400}]}]"#, "json: cannot unmarshal number 1e400 into Go struct field jsonPatchOp.value of type float64"),
            // The first error in document order wins.
            (r#"[{"op":1,"path":2}]"#, "json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string"),
        ];
        for (text, message) in errors {
            assert_eq!(
                check_json_patch(text).unwrap_err().to_string(),
                message,
                "{text}"
            );
        }
        for ok in [
            "null",
            "[]",
            "[null]",
            r#"[{"op":null,"path":null}]"#,
            r#"[{"value":12345678901234567890}]"#,
        ] {
            assert_eq!(check_json_patch(ok), Ok(Vec::new()), "{ok}");
        }
    }

    #[test]
    fn strict_warnings_in_go_order() {
        let warnings = check_json_patch(
            r#"[{"op":"add","Op":"x","path":"/a","value":{"k":1,"k":2,"l":[{"m":1,"m":1}]},"op":"remove"},
                {"extra":1,"extra":2}]"#,
        )
        .unwrap();
        assert_eq!(
            warnings,
            [
                r#"json patch unknown field "[0].Op""#,
                r#"json patch duplicate field "[0].value.k""#,
                r#"json patch duplicate field "[0].value.l[0].m""#,
                r#"json patch duplicate field "[0].op""#,
                r#"json patch unknown field "[1].extra""#,
            ]
        );
    }

    #[test]
    fn merge_patch_shapes() {
        assert_eq!(check_merge_patch("null"), Ok(Vec::new()));
        assert_eq!(
            check_merge_patch(r#""x""#).unwrap_err().to_string(),
            "json: cannot unmarshal string into Go value of type map[string]interface {}"
        );
        assert_eq!(
            check_merge_patch(r#"{"a":1e999}"#).unwrap_err().to_string(),
            "json: cannot unmarshal number 1e999 into Go value of type float64"
        );
        assert_eq!(
            check_merge_patch(r#"{"a":1,"a":2,"b":{"c":[{"d":1,"d":2}]}}"#).unwrap(),
            [r#"duplicate field "a""#, r#"duplicate field "b.c[0].d""#]
        );
    }

    #[test]
    fn strings_decode_like_go() {
        assert_eq!(unquote(r"a\u00e9\ud83d\ude00\ud800x\/"), "aé😀\u{fffd}x/");
        assert_eq!(unquote("plain"), "plain");
    }
}
