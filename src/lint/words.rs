//! How messages write the values they name: paths cut short, values
//! elided, lists of ops, what a value is.

use std::borrow::Cow;

use serde_json::Value;

use crate::gojson;

/// A path for a message: cut in the middle past 200 characters (a
/// finding names its path whole in [`super::Finding::path`]).
pub(super) fn shown(path: &str) -> Cow<'_, str> {
    if path.len() <= 200 {
        return Cow::Borrowed(path);
    }
    let mut head = 100;
    while !path.is_char_boundary(head) {
        head -= 1;
    }
    let mut tail = path.len() - 80;
    while !path.is_char_boundary(tail) {
        tail += 1;
    }
    Cow::Owned(format!("{}...{}", &path[..head], &path[tail..]))
}

/// A value for a message, cut short.
pub(super) fn short(value: &Value) -> String {
    crate::text::elide(&gojson::to_string(value), 60)
}

/// `op 3, 4, 5 and 997 more`.
pub(super) fn list_ops(ops: &[usize]) -> String {
    let shown: Vec<String> = ops.iter().take(5).map(usize::to_string).collect();
    let s = if ops.len() == 1 { "" } else { "s" };
    let mut out = format!("op{s} {}", shown.join(", "));
    if ops.len() > 5 {
        out.push_str(&format!(" and {} more", ops.len() - 5));
    }
    out
}

/// The on-a-kind phrase: ` on a Node`, or nothing.
pub(super) fn on_kind(kind: Option<&str>) -> String {
    kind.map(|k| format!(" on a {k}")).unwrap_or_default()
}

/// What a value that should be a string is instead: `a number`, ...
pub(super) fn not_a_string(value: &Value) -> &'static str {
    match value {
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
        _ => "not a string",
    }
}

/// `one` or `many` by `count`.
pub(super) fn one_or_many<'w>(count: usize, one: &'w str, many: &'w str) -> &'w str {
    if count == 1 {
        one
    } else {
        many
    }
}
