//! YAML 1.2 to and from JSON values: saphyr-parser's events folded into a
//! `serde_json::Value` with the core schema and hard budgets, and a small
//! block-style emitter: the event parser and this file, not a full serde
//! YAML stack, in the playground's wasm.

use std::collections::HashMap;
use std::rc::Rc;

use saphyr_parser::{Event, Parser, ScalarStyle, Span, StrInput, Tag};
use serde_json::{Map, Number, Value};

use super::{Budget, InputError};

fn error_at(span: &Span, message: impl Into<String>) -> InputError {
    InputError {
        message: message.into(),
        line: Some(span.start.line()),
        column: Some(span.start.col() + 1),
    }
}

/// A collection being built.
enum Frame {
    Seq(Vec<Value>, usize),
    /// Entries, the key waiting for its value, the anchor id.
    Map(Map<String, Value>, Option<String>, usize),
}

/// Starts a collection, within the nesting budget.
fn open(
    stack: &mut Vec<Frame>,
    frame: Frame,
    span: &Span,
    budget: &Budget,
) -> Result<(), InputError> {
    stack.push(frame);
    if stack.len() > budget.max_depth {
        return Err(error_at(
            span,
            format!(
                "nesting is deeper than the limit of {} levels",
                budget.max_depth
            ),
        ));
    }
    Ok(())
}

/// Parses one YAML document into a JSON value.
pub(super) fn parse(text: &str, budget: &Budget) -> Result<Value, InputError> {
    let mut folder = Folder::new(*budget);
    for item in Parser::new_from_str(text) {
        let (event, span) = item.map_err(|err| scan_error(&err, budget))?;
        folder.feed(event, &span)?;
    }
    folder.finish()
}

type StrParser<'a> = Parser<'a, StrInput<'a>>;

self_cell::self_cell!(
    /// A parser over a text it owns, so a parse can stop and resume.
    struct OwnedParser {
        owner: Rc<str>,
        #[not_covariant]
        dependent: StrParser,
    }
);

/// A YAML parse done in pieces.
pub(super) struct Job {
    parser: OwnedParser,
    folder: Option<Folder>,
}

impl Job {
    pub(super) fn new(text: Rc<str>, budget: Budget) -> Job {
        Job {
            parser: OwnedParser::new(text, |text| Parser::new_from_str(text)),
            folder: Some(Folder::new(budget)),
        }
    }

    /// Parses about `chars` more characters; the value (or the error)
    /// once the text is done. Called again after that, it answers `None`.
    pub(super) fn step(&mut self, chars: usize) -> Option<Result<Value, InputError>> {
        let folder = self.folder.as_mut()?;
        let done = self.parser.with_dependent_mut(|_, parser| {
            let mut start = None;
            for item in parser.by_ref() {
                let (event, span) = match item {
                    Ok(item) => item,
                    Err(err) => return Some(Err(scan_error(&err, &folder.budget))),
                };
                let at = span.end.index();
                if let Err(err) = folder.feed(event, &span) {
                    return Some(Err(err));
                }
                if at >= *start.get_or_insert(at) + chars {
                    return None;
                }
            }
            Some(Ok(()))
        })?;
        let folder = self.folder.take()?;
        Some(done.and_then(|()| folder.finish()))
    }
}

fn scan_error(err: &saphyr_parser::ScanError, budget: &Budget) -> InputError {
    InputError {
        message: match err.info() {
            // The scanner's own guard on flow nesting.
            "recursion limit exceeded" => format!(
                "nesting is deeper than the limit of {} levels",
                budget.max_depth
            ),
            info => info.to_owned(),
        },
        line: Some(err.marker().line()),
        column: Some(err.marker().col() + 1),
    }
}

/// Folds parser events into a value, within the budget.
struct Folder {
    budget: Budget,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Value>,
    result: Option<Value>,
    documents: usize,
    nodes: usize,
}

impl Folder {
    fn new(budget: Budget) -> Folder {
        Folder {
            budget,
            stack: Vec::new(),
            anchors: HashMap::new(),
            result: None,
            documents: 0,
            nodes: 0,
        }
    }

    fn finish(self) -> Result<Value, InputError> {
        self.result.ok_or_else(|| InputError {
            message: "input is empty".to_owned(),
            line: None,
            column: None,
        })
    }

    fn feed(&mut self, event: Event<'_>, span: &Span) -> Result<(), InputError> {
        let budget = &self.budget;
        let stack = &mut self.stack;
        let anchors = &mut self.anchors;
        let span = *span;
        let value = match event {
            Event::StreamStart | Event::StreamEnd | Event::DocumentEnd | Event::Nothing => {
                return Ok(())
            }
            Event::DocumentStart(_) => {
                self.documents += 1;
                if self.documents > 1 {
                    return Err(error_at(
                        &span,
                        "expected one YAML document, found another (---)",
                    ));
                }
                return Ok(());
            }
            Event::SequenceStart(anchor, tag) => {
                check_tag(&span, tag.as_deref(), "seq")?;
                return open(stack, Frame::Seq(Vec::new(), anchor), &span, budget);
            }
            Event::MappingStart(anchor, tag) => {
                check_tag(&span, tag.as_deref(), "map")?;
                return open(stack, Frame::Map(Map::new(), None, anchor), &span, budget);
            }
            Event::SequenceEnd => match stack.pop() {
                Some(Frame::Seq(items, anchor)) => remember(anchors, anchor, Value::Array(items)),
                _ => return Err(error_at(&span, "unbalanced sequence end")),
            },
            Event::MappingEnd => match stack.pop() {
                Some(Frame::Map(map, None, anchor)) => {
                    remember(anchors, anchor, Value::Object(map))
                }
                _ => return Err(error_at(&span, "unbalanced mapping end")),
            },
            Event::Scalar(text, style, anchor, tag) => {
                let value = scalar(&span, &text, style, tag.as_deref())?;
                remember(anchors, anchor, value)
            }
            Event::Alias(id) => match anchors.get(&id) {
                Some(value) => {
                    self.nodes += count_nodes(value);
                    if self.nodes > crate::limits::YAML_NODES {
                        return Err(error_at(&span, "aliases expand to too many nodes"));
                    }
                    value.clone()
                }
                None => return Err(error_at(&span, "alias to an unknown anchor")),
            },
        };
        self.nodes += 1;
        if self.nodes > crate::limits::YAML_NODES {
            return Err(error_at(
                &span,
                format!("more than {} nodes", crate::limits::YAML_NODES),
            ));
        }
        match stack.last_mut() {
            None => self.result = Some(value),
            Some(Frame::Seq(items, _)) => items.push(value),
            Some(Frame::Map(map, pending, _)) => match pending.take() {
                None => {
                    let key = match value {
                        Value::String(s) => s,
                        Value::Null => "null".to_owned(),
                        Value::Bool(b) => b.to_string(),
                        Value::Number(n) => n.to_string(),
                        _ => return Err(error_at(&span, "a mapping key must be a scalar")),
                    };
                    if map.contains_key(&key) {
                        return Err(error_at(&span, format!("duplicate key {key:?}")));
                    }
                    *pending = Some(key);
                }
                Some(key) => {
                    map.insert(key, value);
                }
            },
        }
        Ok(())
    }
}

fn remember(anchors: &mut HashMap<usize, Value>, anchor: usize, value: Value) -> Value {
    if anchor > 0 {
        anchors.insert(anchor, value.clone());
    }
    value
}

fn count_nodes(value: &Value) -> usize {
    let mut count = 0;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        count += 1;
        match v {
            Value::Array(items) => stack.extend(items),
            Value::Object(map) => stack.extend(map.values()),
            _ => {}
        }
    }
    count
}

fn core_tag(tag: Option<&Tag>) -> Option<&str> {
    tag.filter(|t| t.is_yaml_core_schema())
        .map(|t| t.suffix.as_str())
}

fn check_tag(span: &Span, tag: Option<&Tag>, expected: &str) -> Result<(), InputError> {
    match tag {
        None => Ok(()),
        Some(t) if core_tag(Some(t)) == Some(expected) => Ok(()),
        Some(t) => Err(error_at(
            span,
            format!("tag {}{} is not supported here", t.handle, t.suffix),
        )),
    }
}

/// Resolves a scalar under the YAML 1.2 core schema.
fn scalar(
    span: &Span,
    text: &str,
    style: ScalarStyle,
    tag: Option<&Tag>,
) -> Result<Value, InputError> {
    if let Some(t) = tag {
        return match core_tag(Some(t)) {
            Some("str") => Ok(Value::String(text.to_owned())),
            Some("null") => Ok(Value::Null),
            Some("bool") => parse_bool(text)
                .map(Value::Bool)
                .ok_or_else(|| error_at(span, format!("{text:?} is not a boolean"))),
            Some("int") => {
                parse_int(text).ok_or_else(|| error_at(span, format!("{text:?} is not an integer")))
            }
            Some("float") => parse_number(span, text)?
                .ok_or_else(|| error_at(span, format!("{text:?} is not a number"))),
            _ => Err(error_at(
                span,
                format!("tag {}{} is not supported", t.handle, t.suffix),
            )),
        };
    }
    if style != ScalarStyle::Plain {
        return Ok(Value::String(text.to_owned()));
    }
    if matches!(text, "" | "~" | "null" | "Null" | "NULL") {
        return Ok(Value::Null);
    }
    if let Some(b) = parse_bool(text) {
        return Ok(Value::Bool(b));
    }
    if let Some(n) = parse_int(text) {
        return Ok(n);
    }
    if let Some(n) = parse_number(span, text)? {
        return Ok(n);
    }
    Ok(Value::String(text.to_owned()))
}

fn parse_bool(text: &str) -> Option<bool> {
    match text {
        "true" | "True" | "TRUE" => Some(true),
        "false" | "False" | "FALSE" => Some(false),
        _ => None,
    }
}

/// How an integer scalar is written: octal (`0o`) or hex (`0x`) digits
/// that fit a u64 (their value), or decimal digits after an optional sign.
enum IntForm {
    Radix(u64),
    Decimal,
}

fn int_form(text: &str) -> Option<IntForm> {
    for (prefix, radix) in [("0o", 8), ("0x", 16)] {
        if let Some(digits) = text.strip_prefix(prefix) {
            if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
                return None;
            }
            return u64::from_str_radix(digits, radix).ok().map(IntForm::Radix);
        }
    }
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())).then_some(IntForm::Decimal)
}

fn parse_int(text: &str) -> Option<Value> {
    match int_form(text)? {
        IntForm::Radix(value) => Some(Value::from(value)),
        IntForm::Decimal => match text.parse::<i64>() {
            Ok(i) => Some(Value::from(i)),
            Err(_) => match text.strip_prefix('+').unwrap_or(text).parse::<u64>() {
                Ok(u) => Some(Value::from(u)),
                Err(_) => text
                    .parse::<f64>()
                    .ok()
                    .and_then(Number::from_f64)
                    .map(Value::Number),
            },
        },
    }
}

/// `.inf` or `.nan` in the core schema's spellings: numbers JSON cannot hold.
fn non_finite(text: &str) -> bool {
    let unsigned = text.strip_prefix(['-', '+']).unwrap_or(text);
    matches!(unsigned, ".inf" | ".Inf" | ".INF") || matches!(text, ".nan" | ".NaN" | ".NAN")
}

/// Whether `unsigned` (a scalar without its sign) is written as a
/// core-schema float: digits with at most one `.` (on at least one side of
/// it), then perhaps `e`/`E`, a sign and digits.
fn float_syntax(unsigned: &str) -> bool {
    let bytes = unsigned.as_bytes();
    let mantissa_end = bytes
        .iter()
        .position(|b| *b == b'e' || *b == b'E')
        .unwrap_or(bytes.len());
    let (mantissa, exponent) = unsigned.split_at(mantissa_end);
    let mantissa_ok = {
        let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
        let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        digits(int)
            && digits(frac)
            && (!int.is_empty() || !frac.is_empty())
            && (mantissa.contains('.') || !int.is_empty())
    };
    let exponent_ok = exponent.is_empty() || {
        let e = &exponent[1..];
        let e = e.strip_prefix(['-', '+']).unwrap_or(e);
        !e.is_empty() && e.bytes().all(|b| b.is_ascii_digit())
    };
    mantissa_ok && exponent_ok
}

/// Whether a plain scalar is a number to [`scalar`]: an integer in decimal,
/// octal (`0o`) or hex (`0x`) that fits, a float, or `.inf`/`.nan`, which
/// it refuses as numbers JSON cannot hold. Decided from the text alone,
/// with no float parsed (the editors colour with it; the page module
/// carries no float parser).
pub fn is_number(text: &str) -> bool {
    int_form(text).is_some()
        || float_syntax(text.strip_prefix(['-', '+']).unwrap_or(text))
        || non_finite(text)
}

/// A core-schema float; non-finite values are refused (JSON has none).
fn parse_number(span: &Span, text: &str) -> Result<Option<Value>, InputError> {
    if non_finite(text) {
        return Err(error_at(
            span,
            format!("{text} is not a finite number, which JSON cannot hold"),
        ));
    }
    if !float_syntax(text.strip_prefix(['-', '+']).unwrap_or(text)) {
        return Ok(None);
    }
    // Rust's parser does not take a leading '+' on "+.5"-style text.
    let normalized = text.strip_prefix('+').unwrap_or(text);
    let normalized = if normalized.starts_with('.') || normalized.starts_with("-.") {
        normalized.replacen('.', "0.", 1)
    } else {
        normalized.to_owned()
    };
    match normalized.parse::<f64>() {
        Ok(f) if f.is_finite() => Ok(Number::from_f64(f).map(Value::Number)),
        _ => Err(error_at(
            span,
            format!("{text} is out of range for a number"),
        )),
    }
}

/// Writes a JSON value as block-style YAML that reads back to the same
/// value under the core schema.
pub(super) fn emit(value: &Value) -> String {
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
    let printable = s
        .chars()
        .all(|c| c == '\n' || (!c.is_control() && c != '\u{feff}'));
    if !key && s.contains('\n') && printable && !s.starts_with([' ', '\n']) && !s.ends_with("\n\n")
    {
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
    // JSON string escapes are valid YAML double-quoted escapes.
    out.push_str(&serde_json::to_string(s).unwrap_or_else(|_| "\"\"".to_owned()));
}

fn plain_safe(s: &str) -> bool {
    let Some(first) = s.chars().next() else {
        return false;
    };
    // Leading/trailing blanks (any Unicode blank: the parser trims some,
    // such as U+00A0), a trailing ':', and document markers.
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
        c.is_control() || c == '\u{feff}' || c == '\u{85}' || c == '\u{2028}' || c == '\u{2029}'
    }) {
        return false;
    }
    // It must not read back as null, a boolean or a number.
    let span = Span::default();
    !(matches!(s, "~" | "null" | "Null" | "NULL")
        || parse_bool(s).is_some()
        || parse_int(s).is_some()
        || !matches!(parse_number(&span, s), Ok(None))
        || matches!(
            s.strip_prefix(['-', '+']).unwrap_or(s),
            ".inf" | ".Inf" | ".INF" | ".nan" | ".NaN" | ".NAN"
        ))
}
