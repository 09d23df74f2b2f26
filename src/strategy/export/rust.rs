//! The Rust export: this crate's builder with `serde_json::json!` values,
//! written as Rust source that compiles as printed and builds the very
//! values of the plan (so its payload is the bytes `--format json` shows).

use std::fmt::Write;

use serde_json::{Number, Value};

use crate::gojson::is_print;
use crate::patch::OpKind;
use crate::strategy::Plan;

/// Rust code building the patch with this crate's builder. `None` when the
/// plan is not a JSON patch.
pub fn rust_code(plan: &Plan) -> Option<String> {
    let ops = plan.ops()?;
    let mut out = String::from(
        "use patchlab::patch::PatchSet;\nuse serde_json::json;\n\nlet payload = PatchSet::new()\n",
    );
    for planned in ops {
        let op = &planned.op;
        let path = rust_string(&op.path);
        let from = || rust_string(op.from.as_deref().unwrap_or_default());
        let _ = match op.op {
            OpKind::Remove => writeln!(out, "    .remove({path})"),
            OpKind::Move => writeln!(out, "    .move_from({}, {path})", from()),
            OpKind::Copy => writeln!(out, "    .copy_from({}, {path})", from()),
            kind => {
                let mut value = String::from("json!(");
                rust_value(&mut value, op.value.as_ref().unwrap_or(&Value::Null));
                writeln!(out, "    .{}({path}, {value}))", kind.as_str())
            }
        };
    }
    out.push_str("    .payload()?;\n");
    Some(out)
}

/// A Rust string literal: `"`, `\` and every character Go's `strconv`
/// would not print as it is (controls, DEL, C1, format characters such
/// as the bidirectional ones, unassigned ones) escaped, the latter as
/// `\u{...}`, so the source shows them and decodes to the same string.
///
/// ```text
/// rust_string("a\"\u{202e}\n") == r#""a\"\u{202e}\n""#
/// ```
pub(super) fn rust_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if c == ' ' || is_print(c) => out.push(c),
            c => {
                let _ = write!(out, "\\u{{{:x}}}", c as u32);
            }
        }
    }
    out.push('"');
    out
}

/// The tokens of `json!` for a value, its numbers typed so that the macro
/// builds the same [`Number`]: an integer that is no `i32` carries its
/// suffix (`i64`, `u64`; an unsuffixed literal would be an `i32` and not
/// compile), a float is written as serde_json writes it (always with a
/// `.` or an exponent, so a float literal).
fn rust_value(out: &mut String, value: &Value) {
    match value {
        Value::Null => out.push_str("null"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Number(n) => rust_number(out, n),
        Value::String(s) => out.push_str(&rust_string(s)),
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                rust_value(out, item);
            }
            out.push(']');
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, item)) in map.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&rust_string(key));
                out.push_str(": ");
                rust_value(out, item);
            }
            out.push('}');
        }
    }
}

fn rust_number(out: &mut String, n: &Number) {
    if let Some(i) = n.as_i64() {
        let _ = write!(out, "{i}");
        if i32::try_from(i).is_err() {
            out.push_str("i64");
        }
    } else if let Some(u) = n.as_u64() {
        let _ = write!(out, "{u}u64");
    } else {
        let _ = write!(out, "{n}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn value(v: &Value) -> String {
        let mut out = String::new();
        rust_value(&mut out, v);
        out
    }

    #[test]
    fn strings_escape_what_a_terminal_acts_on_in_rust_syntax() {
        assert_eq!(rust_string("a\"b\\c"), r#""a\"b\\c""#);
        assert_eq!(
            rust_string("\u{0}\u{1}\u{8}\u{c}\u{7f}\u{85}\u{202e}\u{2028}\u{feff}é"),
            r#""\u{0}\u{1}\u{8}\u{c}\u{7f}\u{85}\u{202e}\u{2028}\u{feff}é""#
        );
    }

    #[test]
    fn numbers_are_typed_as_json_holds_them() {
        assert_eq!(
            value(&json!([1, -1, 2147483648i64, -2147483649i64, i64::MIN])),
            "[1, -1, 2147483648i64, -2147483649i64, -9223372036854775808i64]"
        );
        assert_eq!(value(&json!(u64::MAX)), "18446744073709551615u64");
        assert_eq!(
            value(&json!([1.0, -0.0, 1e21, 5e-324, 0.1])),
            "[1.0, -0.0, 1e+21, 5e-324, 0.1]"
        );
        assert_eq!(
            value(&json!({"b": null, "a": [true, {}]})),
            r#"{"a": [true, {}], "b": null}"#
        );
    }
}
