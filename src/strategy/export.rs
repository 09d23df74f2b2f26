//! Exports of a plan: a `kubectl` command line, Go code using KubeVirt's
//! builder, and Rust code using this crate's builder.

use std::fmt::Write;

use serde_json::Value;

use super::{Body, Plan};
use crate::patch::OpKind;
use crate::pointer::Pointer;
use crate::text::acts_on_terminal;

mod rust;
mod shell;

pub use rust::rust_code;
use shell::{delimiter, rewrite_json, shell_word};
pub use shell::{shell_arg, shell_quote};

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

/// The `kubectl` command that sends the plan for `object` (usually the
/// new object: it names the kind, name and namespace), exact for every
/// code point: bash gives kubectl, and kubectl gives the server, the bytes
/// `--format json` shows (a here-document, which kubectl decodes and
/// encodes itself, the same value). No character a terminal acts on is
/// written raw: a JSON string holds it as an escape, a shell word as
/// `$'...'` bytes (see [`shell_arg`]).
pub fn kubectl(plan: &Plan, object: &Value) -> String {
    let target = target(object);
    match &plan.body {
        Body::JsonPatch(_) => format!(
            "kubectl patch {target} --type=json -p {}",
            shell_arg(&kubectl_safe(&plan.body_text()))
        ),
        // A body starting with `{` is sent as written (`yaml.ToJSON`).
        Body::MergePatch(_) => format!(
            "kubectl patch {target} --type=merge -p {}",
            shell_arg(&plan.body_text())
        ),
        Body::StrategicMergePatch(_) => format!(
            "kubectl patch {target} --type=strategic -p {}",
            shell_arg(&plan.body_text())
        ),
        Body::Apply {
            field_manager,
            config,
        } => heredoc(
            &format!(
                "kubectl apply --server-side --field-manager={} -f -",
                shell_word(field_manager)
            ),
            &apply_text(config, &plan.body_text()),
        ),
        Body::Update(body) => heredoc("kubectl replace -f -", &json_for_terminal(body)),
    }
}

/// `command <<'END'`, then `text` and the delimiter on lines of their own.
fn heredoc(command: &str, text: &str) -> String {
    let end = delimiter(text);
    format!("{command} <<'{end}'\n{}{end}", ensure_newline(text))
}

/// The apply configuration as the here-document gives it to kubectl: its
/// YAML, or, where that holds a character a terminal acts on, one YAML
/// (yaml.v2, which kubectl reads it with) refuses, or a line break of
/// YAML's own (U+2028, U+2029: folded in a quoted scalar), the same
/// object as JSON with that character escaped (JSON is YAML to kubectl).
fn apply_text(config: &Value, yaml: &str) -> String {
    if yaml.chars().any(|c| {
        c != '\n'
            && (acts_on_terminal(c) || yaml_refuses(c) || matches!(c, '\u{2028}' | '\u{2029}'))
    }) {
        json_for_terminal(config)
    } else {
        yaml.to_owned()
    }
}

/// Pretty JSON with the characters a terminal acts on (and those YAML
/// refuses) as escapes.
fn json_for_terminal(value: &Value) -> String {
    rewrite_json(&crate::input::to_json_pretty(value), escaped, false)
}

/// The payload as `kubectl patch -p` must be given it so that the server
/// receives it byte for byte. kubectl (`k8s.io/apimachinery/pkg/util/yaml.
/// ToJSON`) passes a `-p` that starts with `{` as it is, but sends anything
/// else through sigs.k8s.io/yaml (yaml.v2, then Go's JSON encoder). yaml.v2
/// refuses raw U+007F to U+009F but U+0085, and U+FFFE, U+FFFF ("control
/// characters are not allowed"), folds U+0085 (a YAML line break) to a
/// space, and reads `-0` as the integer 0. So those characters (and
/// U+FEFF), and those a terminal acts on (the bidirectional formatting
/// characters), are written as `\uXXXX` escapes, which YAML decodes back
/// and Go's encoder writes raw again, and `-0` as `-0.0` (a float that Go
/// encodes as `-0`); the rest already is what Go's encoder writes.
///
/// ```
/// use patchlab::strategy::kubectl_safe;
/// assert_eq!(
///     kubectl_safe("[{\"op\":\"add\",\"path\":\"/a\",\"value\":[\"\u{85}\u{9f}\u{202e}\",-0,10]}]"),
///     r#"[{"op":"add","path":"/a","value":["\u0085\u009f\u202e",-0.0,10]}]"#
/// );
/// ```
pub fn kubectl_safe(payload: &str) -> String {
    if payload.trim_start().starts_with('{') {
        return payload.to_owned();
    }
    rewrite_json(payload, escaped, true)
}

/// What an export writes as an escape: what YAML does not give back, and
/// what a terminal acts on.
fn escaped(c: char) -> bool {
    yaml_refuses(c) || acts_on_terminal(c)
}

/// What sigs.k8s.io/yaml's decoder does not give back as it is: the C1
/// controls with DEL (refused, U+0085 folded), and U+FEFF, U+FFFE, U+FFFF.
fn yaml_refuses(c: char) -> bool {
    matches!(
        c,
        '\u{7f}'..='\u{9f}' | '\u{feff}' | '\u{fffe}' | '\u{ffff}'
    )
}

fn ensure_newline(text: &str) -> String {
    if text.ends_with('\n') {
        text.to_owned()
    } else {
        format!("{text}\n")
    }
}

/// Go code building the patch with KubeVirt's `pkg/apimachinery/patch`: a
/// complete file (package, imports, a function returning the payload) that
/// compiles as printed and whose `GeneratePayload` sends the bytes
/// `--format json` shows. `None` when the plan is not a JSON patch.
pub fn go_code(plan: &Plan) -> Option<String> {
    let ops = plan.ops()?;
    let mut calls = String::new();
    let mut needs_math = false;
    for planned in ops {
        let op = &planned.op;
        // gofmt writes `a + b` with blanks only at expression depth 1: the
        // one argument of `WithRemove` inside a `patch.New` of one op.
        let spaced = ops.len() == 1 && op.op == OpKind::Remove;
        let path = go_path(&op.path, spaced);
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
                needs_math |= has_negative_zero(value);
                let literal = go_literal(value, 2);
                let _ = writeln!(calls, "\t\tpatch.{option}({path}, {literal}),");
            }
            _ => {
                let _ = writeln!(calls, "\t\tpatch.{option}({path}),");
            }
        }
    }
    let mut out = String::from("package patches\n\nimport (\n");
    if needs_math {
        out.push_str("\t\"math\"\n\n");
    }
    out.push_str("\t\"kubevirt.io/kubevirt/pkg/apimachinery/patch\"\n)\n\n");
    out.push_str(
        "// patchPayload returns the JSON patch to send with types.JSONPatchType, as in\n\
         // virtClient.VirtualMachineInstance(namespace).Patch(ctx, name, types.JSONPatchType, patchBytes, metav1.PatchOptions{}).\n\
         func patchPayload() ([]byte, error) {\n\tpatchBytes, err := patch.New(",
    );
    if !calls.is_empty() {
        // No ops: `patch.New()` (whose GeneratePayload answers "list of
        // patches is empty"), on one line as gofmt writes it.
        out.push('\n');
        out.push_str(&calls);
        out.push('\t');
    }
    out.push_str(").GeneratePayload()\n\tif err != nil {\n\t\treturn nil, err\n\t}\n\treturn patchBytes, nil\n}\n");
    Some(out)
}

/// True when a negative zero is in `value` (it needs `math.Copysign`).
fn has_negative_zero(value: &Value) -> bool {
    match value {
        Value::Number(n) => {
            n.as_f64().is_some_and(|f| f == 0.0 && f.is_sign_negative()) && n.is_f64()
        }
        Value::Array(items) => items.iter().any(has_negative_zero),
        Value::Object(map) => map.values().any(has_negative_zero),
        _ => false,
    }
}

/// A Go expression for a pointer: literal segments, and
/// `patch.EscapeJSONPointer("key")` for keys holding `/` or `~`, joined
/// by `+` with blanks around it when `spaced` (as gofmt writes a binary
/// expression at depth 1; deeper, as an argument among several, without).
fn go_path(path: &str, spaced: bool) -> String {
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
    parts.join(if spaced { " + " } else { "+" })
}

/// A Go interpreted string literal, as `strconv.Quote` writes it: every
/// rune Go does not print as it is (controls, U+FEFF, U+200B, U+00AD, ...)
/// becomes an escape, so the source shows it and the compiler accepts it.
fn go_string(s: &str) -> String {
    crate::gojson::quote(s)
}

/// A Go literal for a JSON value, typed the way KubeVirt's structs are:
/// `map[string]string` and `[]string` when every element is a string.
fn go_literal(value: &Value, depth: usize) -> String {
    match value {
        Value::Null => "nil".to_owned(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => go_number(n),
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
            let pairs: Vec<(String, String)> = map
                .iter()
                .map(|(k, v)| (go_string(k), go_literal(v, depth + 1)))
                .collect();
            let parts: Vec<String> = pairs.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            let one_line = wrap(ty, &parts, depth);
            if one_line.contains('\n') {
                wrap(ty, &aligned(&pairs), depth)
            } else {
                one_line
            }
        }
    }
}

/// A Go expression for a number that compiles in an `interface{}` and that
/// `encoding/json` writes as [`crate::gojson`] does: untyped constants
/// where Go's defaults fit (`int` for integers within int64, `float64` for
/// other floats), `uint64(...)` above int64, `float64(...)` for integral
/// floats (an untyped integer constant would become an `int` and
/// overflow, or lose nothing but type), and `math.Copysign(0, -1)` for
/// negative zero (the constant `-0.0` is zero).
fn go_number(n: &serde_json::Number) -> String {
    let mut digits = String::new();
    crate::gojson::write_number(&mut digits, n);
    if n.is_i64() {
        return digits;
    }
    if n.is_u64() {
        return format!("uint64({digits})");
    }
    let f = n.as_f64().unwrap_or(0.0);
    if f == 0.0 && f.is_sign_negative() {
        return "math.Copysign(0, -1)".to_owned();
    }
    if f.fract() == 0.0 && !digits.contains(['.', 'e', 'E']) {
        return format!("float64({digits})");
    }
    digits
}

/// The `key: value` lines of a composite literal written one pair per
/// line, aligned as gofmt aligns them (go/printer `exprList`, Go 1.19):
/// the values of consecutive one-line pairs start in one column, one
/// blank past the longest `key:` of their section (text/tabwriter, padding
/// 1). A section ends before and after a pair that spans lines, and where
/// a key's size (in bytes) differs from the geometric mean of the keys
/// before it in its section by a ratio of 2.5 or more, unless both it and
/// the previous key are at most 40 bytes.
fn aligned(pairs: &[(String, String)]) -> Vec<String> {
    // Each pair's key size for the heuristic: 0 when the pair spans lines.
    let sizes: Vec<usize> = pairs
        .iter()
        .map(|(k, v)| if v.contains('\n') { 0 } else { k.len() })
        .collect();
    let mut section = vec![0usize; pairs.len()];
    let (mut lnsum, mut count, mut current) = (0.0f64, 0usize, 0usize);
    for (i, &size) in sizes.iter().enumerate() {
        let prev = if i == 0 { 0 } else { sizes[i - 1] };
        let mut formfeed = true;
        if prev > 0 && size > 0 {
            if count == 0 || prev <= 40 && size <= 40 {
                formfeed = false;
            } else {
                let geomean = (lnsum / count as f64).exp();
                let ratio = size as f64 / geomean;
                formfeed = 2.5 * ratio <= 1.0 || 2.5 <= ratio;
            }
        }
        if formfeed && i > 0 {
            // A new section: the printer's linebreak reports two breaks,
            // and the geometric mean starts over.
            current += 1;
            lnsum = 0.0;
            count = 0;
        }
        section[i] = current;
        if size > 0 {
            lnsum += (size as f64).ln();
            count += 1;
        }
    }
    // The width of each section's `key:` cell, in runes (tabwriter's unit).
    let mut widths = vec![0usize; current + 1];
    for (i, (key, _)) in pairs.iter().enumerate() {
        if sizes[i] > 0 {
            let width = key.chars().count() + 1;
            widths[section[i]] = widths[section[i]].max(width);
        }
    }
    pairs
        .iter()
        .enumerate()
        .map(|(i, (key, value))| {
            if sizes[i] == 0 || pairs.len() == 1 {
                return format!("{key}: {value}");
            }
            let pad = widths[section[i]] - (key.chars().count() + 1) + 1;
            format!("{key}:{}{value}", " ".repeat(pad))
        })
        .collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn go_paths_use_escape_json_pointer_for_awkward_keys() {
        assert_eq!(go_path("/metadata/labels", false), r#""/metadata/labels""#);
        assert_eq!(
            go_path("/metadata/labels/kubevirt.io~1nodeName", true),
            r#""/metadata/labels/" + patch.EscapeJSONPointer("kubevirt.io/nodeName")"#
        );
        assert_eq!(
            go_path("/a/x~0y/b/c~1d", false),
            r#""/a/"+patch.EscapeJSONPointer("x~y")+"/b/"+patch.EscapeJSONPointer("c/d")"#
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
        assert_eq!(
            go_string("\u{feff}x\u{200b}\u{ad}"),
            r#""\ufeffx\u200b\u00ad""#
        );
        assert_eq!(
            go_literal(&json!(u64::MAX), 1),
            "uint64(18446744073709551615)"
        );
        assert_eq!(go_literal(&json!(1.0), 1), "float64(1)");
        assert_eq!(
            go_literal(&json!(1e20), 1),
            "float64(100000000000000000000)"
        );
        assert_eq!(go_literal(&json!(1e21), 1), "1e+21");
        assert_eq!(go_literal(&json!(-0.0), 1), "math.Copysign(0, -1)");
        assert_eq!(go_literal(&json!(-7), 1), "-7");
        assert_eq!(go_literal(&json!(2.5), 1), "2.5");
    }
}
