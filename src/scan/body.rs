//! JSON bodies written as Go text (`fmt.Sprintf`, concatenation, string
//! literals): read with their holes, as ops or as a merge body.

use serde_json::Value;

use super::go::Pos;
use super::value::{Hole, HoleKind, OpT, Piece, Shape, Text, Val, Via};
use crate::patch::OpKind;

const OPEN: char = '\u{E000}';
const CLOSE: char = '\u{E001}';

/// The JSON of `text`, each hole replaced by a marker (inside a JSON
/// string, or as a string of its own where a value stands; a Go slice as
/// `fmt` prints it, as a list holding one), and the holes by marker
/// number. `None` when it is not JSON even so.
fn to_json(text: &Text) -> Option<(Value, Vec<Hole>)> {
    let mut json = String::new();
    let mut holes = Vec::new();
    let mut in_string = false;
    let mut escaped = false;
    for piece in &text.pieces {
        match piece {
            Piece::Lit(s) => {
                for c in s.chars() {
                    if in_string {
                        if escaped {
                            escaped = false;
                        } else if c == '\\' {
                            escaped = true;
                        } else if c == '"' {
                            in_string = false;
                        }
                    } else if c == '"' {
                        in_string = true;
                    }
                    json.push(c);
                }
            }
            Piece::Hole(hole) => {
                let marker = format!("{OPEN}{}{CLOSE}", holes.len());
                holes.push(hole.clone());
                if in_string {
                    json.push_str(&marker);
                } else if hole.kind == HoleKind::GoList {
                    json.push_str("[\"");
                    json.push_str(&marker);
                    json.push_str("\"]");
                } else {
                    json.push('"');
                    json.push_str(&marker);
                    json.push('"');
                }
            }
        }
    }
    if json.len() > super::MAX_FILE_BYTES {
        return None;
    }
    // serde_json stops at 128 levels of nesting with an error.
    let value: Value = serde_json::from_str(&json).ok()?;
    Some((value, holes))
}

/// A JSON string holding markers, as text with holes.
fn text_of(s: &str, holes: &[Hole]) -> Text {
    let mut out = Text::default();
    let mut rest = s;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(&rest[..start]);
        let after = &rest[start + OPEN.len_utf8()..];
        let Some(end) = after.find(CLOSE) else {
            out.push_str(&rest[start..]);
            return out;
        };
        match after[..end]
            .parse::<usize>()
            .ok()
            .and_then(|i| holes.get(i))
        {
            Some(hole) => out.pieces.push(Piece::Hole(hole.clone())),
            None => out.push_str(&rest[start..start + OPEN.len_utf8() + end + CLOSE.len_utf8()]),
        }
        rest = &after[end + CLOSE.len_utf8()..];
    }
    out.push_str(rest);
    out
}

/// A JSON value with markers, as a scanner value.
fn val_of(value: &Value, holes: &[Hole]) -> Val {
    match value {
        Value::Null => Val::Nil,
        Value::Bool(_) | Value::Number(_) => Val::Const(value.clone()),
        Value::String(s) => {
            let text = text_of(s, holes);
            if let [Piece::Hole(hole)] = text.pieces.as_slice() {
                let shape = match hole.kind {
                    HoleKind::Json(shape) => shape,
                    HoleKind::Index => return Val::Unknown(hole.expr.clone()),
                    _ => Shape::of_expr(&hole.expr),
                };
                if shape != Shape::Unknown || matches!(hole.kind, HoleKind::Json(_)) {
                    return Val::opaque(shape, hole.expr.clone());
                }
            }
            Val::Str(text)
        }
        Value::Array(items) => Val::List(items.iter().map(|v| val_of(v, holes)).collect()),
        Value::Object(members) => Val::Object(
            members
                .iter()
                .map(|(k, v)| (text_of(k, holes).display(), val_of(v, holes)))
                .collect(),
        ),
    }
}

/// What a body holds.
pub enum Body {
    /// A JSON array of ops.
    Ops(Vec<OpT>),
    /// A JSON object (a merge or strategic merge body).
    Object(Val),
    /// Not JSON, even with its holes filled.
    Unreadable,
}

/// The Go slices a body formats with `%s` or `%v` where JSON values stand
/// (`[a b]` is not JSON: the server refuses the body).
pub fn go_lists(text: &Text) -> Vec<String> {
    let mut in_string = false;
    let mut escaped = false;
    let mut out = Vec::new();
    for piece in &text.pieces {
        match piece {
            Piece::Lit(s) => {
                for c in s.chars() {
                    if in_string {
                        if escaped {
                            escaped = false;
                        } else if c == '\\' {
                            escaped = true;
                        } else if c == '"' {
                            in_string = false;
                        }
                    } else if c == '"' {
                        in_string = true;
                    }
                }
            }
            Piece::Hole(hole) if hole.kind == HoleKind::GoList && !in_string => {
                out.push(hole.expr.clone());
            }
            Piece::Hole(_) => {}
        }
    }
    out
}

/// Reads `text` as a JSON body; ops get ids from `next_id` and the
/// position `at`.
pub fn read(text: &Text, at: Pos, next_id: &mut dyn FnMut() -> u32) -> Body {
    let Some((value, holes)) = to_json(text) else {
        return Body::Unreadable;
    };
    match &value {
        Value::Array(items) => {
            let mut ops = Vec::with_capacity(items.len());
            for item in items {
                let Value::Object(members) = item else {
                    return Body::Unreadable;
                };
                let kind = members
                    .get("op")
                    .and_then(Value::as_str)
                    .and_then(OpKind::parse);
                let path = members
                    .get("path")
                    .and_then(Value::as_str)
                    .map(|p| text_of(p, &holes))
                    .unwrap_or_default();
                let value = members.get("value").map(|v| val_of(v, &holes));
                let value_expr = match &value {
                    Some(Val::Opaque { expr, .. }) | Some(Val::Unknown(expr)) => expr.clone(),
                    Some(v) => v
                        .known_json()
                        .map(|j| crate::gojson::to_string(&j))
                        .unwrap_or_default(),
                    None => String::new(),
                };
                ops.push(OpT {
                    id: next_id(),
                    kind,
                    path,
                    value: match kind {
                        Some(OpKind::Remove) => None,
                        _ => value.or(Some(Val::Nil)),
                    },
                    value_expr,
                    at,
                    via: Via::Body,
                });
            }
            Body::Ops(ops)
        }
        Value::Object(_) => Body::Object(val_of(&value, &holes)),
        _ => Body::Unreadable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counter() -> impl FnMut() -> u32 {
        let mut n = 0;
        move || {
            n += 1;
            n
        }
    }

    #[test]
    fn a_sprintf_body_reads_as_ops_with_holes() {
        // virt-operator's finalizer patch shape: the value is the JSON of a list.
        let mut text = Text::lit(r#"[{"op": "replace", "path": "/metadata/finalizers", "value": "#);
        text.append(&Text::hole(
            "string(finalizersJson)",
            HoleKind::Json(Shape::List),
        ));
        text.push_str("}]");
        let Body::Ops(ops) = read(&text, Pos::default(), &mut counter()) else {
            panic!("ops")
        };
        assert_eq!(ops.len(), 1);
        assert_eq!(ops[0].kind, Some(OpKind::Replace));
        assert_eq!(
            ops[0].path.literal().as_deref(),
            Some("/metadata/finalizers")
        );
        assert_eq!(
            ops[0].value,
            Some(Val::Opaque {
                expr: "string(finalizersJson)".into(),
                shape: Shape::List
            })
        );
    }

    #[test]
    fn holes_inside_strings_stay_in_the_path() {
        let mut text = Text::lit(r#"[{"op":"add","path":"/metadata/annotations/"#);
        text.append(&Text::hole(
            "EscapeJsonPointer(AnnStorageClass)",
            HoleKind::Escaped,
        ));
        text.push_str(r#"","value":""#);
        text.append(&Text::hole("desiredStorageClass", HoleKind::Text));
        text.push_str(r#"" }]"#);
        let Body::Ops(ops) = read(&text, Pos::default(), &mut counter()) else {
            panic!("ops")
        };
        assert_eq!(
            ops[0].path.display(),
            "/metadata/annotations/<escape(EscapeJsonPointer(AnnStorageClass))>"
        );
        assert!(matches!(&ops[0].value, Some(Val::Str(t)) if t.has_holes()));
    }

    #[test]
    fn a_quoted_key_and_a_merge_body() {
        let mut text = Text::lit(r#"{"metadata":{"annotations":{"#);
        text.append(&Text::hole("clusterv1.PausedAnnotation", HoleKind::Quoted));
        text.push_str(r#": "true"}}}"#);
        let Body::Object(Val::Object(members)) = read(&text, Pos::default(), &mut counter()) else {
            panic!("object")
        };
        assert_eq!(members[0].0, "metadata");
        assert!(matches!(
            read(&Text::lit("[1"), Pos::default(), &mut counter()),
            Body::Unreadable
        ));
    }
}
