//! Exports of a plan: a `kubectl` command line, Go code using KubeVirt's
//! builder, and Rust code using this crate's builder.

use std::fmt::Write;

use serde_json::Value;

use super::{Body, Plan};
use crate::patch::OpKind;
use crate::pointer::Pointer;

/// Quotes `s` for a POSIX shell: single quotes, with `'` written `'\''`.
///
/// ```
/// use patchlab::strategy::shell_quote;
/// assert_eq!(shell_quote("it's"), r#"'it'\''s'"#);
/// ```
pub fn shell_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The resource, name and namespace arguments for `object`.
fn target(object: &Value) -> String {
    let kind = object
        .get("kind")
        .and_then(Value::as_str)
        .map(str::to_lowercase)
        .unwrap_or_else(|| "<kind>".to_owned());
    let metadata = object.get("metadata");
    let name = metadata
        .and_then(|m| m.get("name"))
        .and_then(Value::as_str)
        .unwrap_or("<name>");
    let mut out = format!("{} {}", shell_word(&kind), shell_word(name));
    if let Some(namespace) = metadata
        .and_then(|m| m.get("namespace"))
        .and_then(Value::as_str)
    {
        let _ = write!(out, " -n {}", shell_word(namespace));
    }
    out
}

/// A word left bare when it is safe, quoted otherwise.
fn shell_word(s: &str) -> String {
    let safe = !s.is_empty()
        && s.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b':' | b'<' | b'>')
        })
        && !s.contains(['<', '>']);
    if safe {
        s.to_owned()
    } else {
        shell_quote(s)
    }
}

/// A here-document delimiter that does not occur in `text`.
fn delimiter(text: &str) -> String {
    let mut delimiter = "PATCHLAB_EOF".to_owned();
    while text.lines().any(|line| line == delimiter) {
        delimiter.push('_');
    }
    delimiter
}

/// The `kubectl` command that sends the plan for `object` (usually the
/// new object: it names the kind, name and namespace).
pub fn kubectl(plan: &Plan, object: &Value) -> String {
    let target = target(object);
    match &plan.body {
        Body::JsonPatch(_) => format!(
            "kubectl patch {target} --type=json -p {}",
            shell_quote(&plan.body_text())
        ),
        Body::MergePatch(_) => format!(
            "kubectl patch {target} --type=merge -p {}",
            shell_quote(&plan.body_text())
        ),
        Body::Apply { field_manager, .. } => {
            let yaml = plan.body_text();
            let end = delimiter(&yaml);
            format!(
                "kubectl apply --server-side --field-manager={} -f - <<'{end}'\n{}{end}",
                shell_word(field_manager),
                ensure_newline(&yaml)
            )
        }
        Body::Update(body) => {
            let json = crate::input::to_json_pretty(body);
            let end = delimiter(&json);
            format!(
                "kubectl replace -f - <<'{end}'\n{}{end}",
                ensure_newline(&json)
            )
        }
    }
}

fn ensure_newline(text: &str) -> String {
    if text.ends_with('\n') {
        text.to_owned()
    } else {
        format!("{text}\n")
    }
}

/// Go code building the patch with KubeVirt's `pkg/apimachinery/patch`.
/// `None` when the plan is not a JSON patch.
pub fn go_code(plan: &Plan) -> Option<String> {
    let ops = plan.ops()?;
    let mut out = String::from("patchBytes, err := patch.New(\n");
    for planned in ops {
        let op = &planned.op;
        let path = go_path(&op.path);
        let option = match op.op {
            OpKind::Test => "WithTest",
            OpKind::Add => "WithAdd",
            OpKind::Replace => "WithReplace",
            OpKind::Remove => "WithRemove",
            // KubeVirt's builder has no move or copy; strategies never emit them.
            OpKind::Move | OpKind::Copy => return None,
        };
        match &op.value {
            Some(value) if op.op != OpKind::Remove => {
                let literal = go_literal(value, 1);
                let _ = writeln!(out, "\tpatch.{option}({path}, {literal}),");
            }
            _ => {
                let _ = writeln!(out, "\tpatch.{option}({path}),");
            }
        }
    }
    out.push_str(").GeneratePayload()\nif err != nil {\n\treturn err\n}\n");
    Some(out)
}

/// A Go expression for a pointer: literal segments, and
/// `patch.EscapeJSONPointer("key")` for keys holding `/` or `~`.
fn go_path(path: &str) -> String {
    let Ok(pointer) = Pointer::parse(path) else {
        return go_string(path);
    };
    let mut parts: Vec<String> = Vec::new();
    let mut literal = String::new();
    for token in pointer.tokens() {
        literal.push('/');
        let key = token.decoded();
        if key.contains(['/', '~']) {
            parts.push(go_string(&literal));
            literal.clear();
            parts.push(format!("patch.EscapeJSONPointer({})", go_string(&key)));
        } else {
            literal.push_str(&key);
        }
    }
    if !literal.is_empty() || parts.is_empty() {
        parts.push(go_string(&literal));
    }
    parts.join(" + ")
}

/// A Go interpreted string literal, as `strconv.Quote` writes it.
fn go_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                let _ = write!(out, "\\x{:02x}", c as u32);
            }
            '\u{2028}' | '\u{2029}' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A Go literal for a JSON value, typed the way KubeVirt's structs are:
/// `map[string]string` and `[]string` when every element is a string.
fn go_literal(value: &Value, depth: usize) -> String {
    match value {
        Value::Null => "nil".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => {
            let mut out = String::new();
            crate::gojson::write_number(&mut out, n);
            out
        }
        Value::String(s) => go_string(s),
        Value::Array(items) => {
            let strings = items.iter().all(Value::is_string);
            let ty = if strings { "[]string" } else { "[]interface{}" };
            if items.is_empty() {
                return format!("{ty}{{}}");
            }
            let parts: Vec<String> = items.iter().map(|v| go_literal(v, depth + 1)).collect();
            wrap(ty, &parts, depth)
        }
        Value::Object(map) => {
            let strings = map.values().all(Value::is_string);
            let ty = if strings {
                "map[string]string"
            } else {
                "map[string]interface{}"
            };
            if map.is_empty() {
                return format!("{ty}{{}}");
            }
            let parts: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{}: {}", go_string(k), go_literal(v, depth + 1)))
                .collect();
            wrap(ty, &parts, depth)
        }
    }
}

/// `ty{a, b}` on one line when short, else one element per line.
fn wrap(ty: &str, parts: &[String], depth: usize) -> String {
    let one_line = format!("{ty}{{{}}}", parts.join(", "));
    if one_line.len() + depth * 4 <= 100 && !one_line.contains('\n') {
        return one_line;
    }
    let indent = "\t".repeat(depth + 1);
    let mut out = format!("{ty}{{\n");
    for part in parts {
        let _ = writeln!(out, "{indent}{part},");
    }
    out.push_str(&"\t".repeat(depth));
    out.push('}');
    out
}

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
        let value = op
            .value
            .as_ref()
            .map(|v| format!("json!({})", serde_json::to_string(v).unwrap_or_default()));
        let line = match (op.op, value) {
            (OpKind::Remove, _) => format!("    .remove({path})"),
            (OpKind::Move, _) => format!(
                "    .move_from({}, {path})",
                rust_string(op.from.as_deref().unwrap_or_default())
            ),
            (OpKind::Copy, _) => format!(
                "    .copy_from({}, {path})",
                rust_string(op.from.as_deref().unwrap_or_default())
            ),
            (kind, value) => format!(
                "    .{}({path}, {})",
                kind.as_str(),
                value.unwrap_or_else(|| "json!(null)".to_owned())
            ),
        };
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("    .payload()?;\n");
    Some(out)
}

/// A Rust string literal.
fn rust_string(s: &str) -> String {
    format!("{s:?}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn go_paths_use_escape_json_pointer_for_awkward_keys() {
        assert_eq!(go_path("/metadata/labels"), r#""/metadata/labels""#);
        assert_eq!(
            go_path("/metadata/labels/kubevirt.io~1nodeName"),
            r#""/metadata/labels/" + patch.EscapeJSONPointer("kubevirt.io/nodeName")"#
        );
        assert_eq!(
            go_path("/a/x~0y/b/c~1d"),
            r#""/a/" + patch.EscapeJSONPointer("x~y") + "/b/" + patch.EscapeJSONPointer("c/d")"#
        );
    }

    #[test]
    fn go_literals_are_typed_like_kubevirt_structs() {
        assert_eq!(
            go_literal(&json!({"b": "2", "a": "1"}), 1),
            r#"map[string]string{"a": "1", "b": "2"}"#
        );
        assert_eq!(go_literal(&json!(["x", "y"]), 1), r#"[]string{"x", "y"}"#);
        assert_eq!(go_literal(&json!([]), 1), "[]string{}");
        assert_eq!(go_literal(&json!({}), 1), "map[string]string{}");
        assert_eq!(go_literal(&json!(null), 1), "nil");
        assert_eq!(
            go_literal(&json!({"n": 1.5, "ok": true, "l": [1, "a"]}), 1),
            r#"map[string]interface{}{"l": []interface{}{1, "a"}, "n": 1.5, "ok": true}"#
        );
        assert_eq!(go_string("a\"b\\c\n\u{1}é"), r#""a\"b\\c\n\x01é""#);
    }

    #[test]
    fn shell_quoting_survives_quotes() {
        assert_eq!(
            shell_quote(r#"[{"value":"it's"}]"#),
            r#"'[{"value":"it'\''s"}]'"#
        );
        assert_eq!(shell_word("default"), "default");
        assert_eq!(shell_word("my ns"), "'my ns'");
        assert_eq!(shell_word(""), "''");
        assert_eq!(delimiter("a\nPATCHLAB_EOF\n"), "PATCHLAB_EOF_");
    }
}
