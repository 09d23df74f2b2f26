//! How payloads, ops and values are shown: JSON where known, the Go
//! expression in `<...>` where not.

use std::collections::HashSet;

use super::standins::{union, Item};
use crate::scan::value::{all_ops, Node, OpT, Val};

/// How an op's value is shown: JSON when known, else `<expression>`.
pub fn show_value(op: &OpT) -> Option<String> {
    let val = op.value.as_ref()?;
    Some(match val.known_json() {
        Some(v) => crate::gojson::to_string(&v),
        None => show_unknown(val, &op.value_expr),
    })
}

pub(super) fn show_unknown(val: &Val, expr: &str) -> String {
    match val {
        Val::Opaque { expr: inner, .. }
            if inner != expr
                && !expr.is_empty()
                && expr.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') =>
        {
            format!("<{expr} = {inner}>")
        }
        Val::Str(t) => format!("\"{}\"", t.display()),
        Val::Object(members) => {
            let inner: Vec<String> = members
                .iter()
                .map(|(k, v)| format!("\"{k}\":{}", show_val(v)))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
        _ if !expr.is_empty() => format!("<{expr}>"),
        Val::Opaque { expr, .. } | Val::Unknown(expr) => format!("<{expr}>"),
        _ => "<?>".to_owned(),
    }
}

pub(super) fn show_val(val: &Val) -> String {
    match val.known_json() {
        Some(v) => crate::gojson::to_string(&v),
        None => match val {
            Val::Opaque { expr, .. } | Val::Unknown(expr) => format!("<{expr}>"),
            Val::Str(t) => format!("\"{}\"", t.display()),
            Val::List(items) => format!(
                "[{}]",
                items.iter().map(show_val).collect::<Vec<_>>().join(",")
            ),
            other => show_unknown(other, ""),
        },
    }
}

/// `test /metadata/labels`.
pub fn show_op(op: &OpT) -> String {
    let kind = op.kind.map_or("<op>", |k| k.as_str());
    format!("{kind} {}", op.path.display())
}

/// One op as JSON-like text with placeholders.
pub(super) fn show_op_json(op: &OpT) -> String {
    let kind = op.kind.map_or("<op>", |k| k.as_str());
    let path = serde_json::to_string(&op.path.display()).unwrap_or_default();
    match show_value(op) {
        Some(v) => format!(r#"{{"op":"{kind}","path":{path},"value":{v}}}"#),
        None => format!(r#"{{"op":"{kind}","path":{path}}}"#),
    }
}

pub(super) fn show_nodes(nodes: &[Node]) -> String {
    let mut parts = Vec::new();
    for op_or_opaque in union(nodes) {
        match op_or_opaque {
            Item::Op(op) => parts.push(show_op_json(op)),
            Item::Opaque => parts.push("<ops from elsewhere>".to_owned()),
        }
    }
    format!("[{}]", parts.join(","))
}

pub(super) fn conditional_ids(nodes: &[Node]) -> HashSet<u32> {
    let mut out = HashSet::new();
    for node in nodes {
        if let Node::Choice(arms) = node {
            for arm in arms {
                out.extend(all_ops(arm).iter().map(|op| op.id));
            }
        }
    }
    out
}
