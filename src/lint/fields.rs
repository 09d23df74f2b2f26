//! Paths and keys outside the kind's schema (`/metdata/labels/app`): the
//! server decodes the patched object into the kind's Go type, which drops
//! a member it does not know, so the write is lost without an error.

use serde_json::Value;

use super::fix::Pending;
use super::rules::message;
use super::{Finding, Rule};
use crate::patch::{OpKind, Operation};
use crate::pointer::Pointer;
use crate::schema::{self, Node, Ty};

/// The most findings one body gets from this rule: one typo is enough to
/// see, a body of a wrong kind would otherwise list every member.
pub const MAX_UNKNOWN_FIELDS: usize = 20;

/// Where a path leaves the schema: the pointer up to and including the
/// member the struct lacks, the member, and the struct's Go name.
#[derive(Debug, PartialEq)]
struct Outside {
    at: String,
    member: String,
    parent: String,
    parent_path: String,
    suggestion: Option<String>,
}

/// Where a path leads in the schema.
enum Walk<'t> {
    /// To this type.
    To(Node<'t>),
    /// Out of it: a struct lacks a member on the way.
    Outside(Outside),
    /// Below a free-form field or a scalar, or not a pointer: nothing to
    /// say (what lies below a scalar is another rule's business).
    Unknown,
}

/// Walks `path` (an escaped JSON Pointer) from `node`: array indices step
/// into elements, any key into a map's values.
fn walk<'t>(node: Node<'t>, path: &str) -> Walk<'t> {
    let Ok(pointer) = Pointer::parse(path) else {
        return Walk::Unknown;
    };
    let mut node = node;
    let mut at = String::new();
    for token in pointer.tokens() {
        let parent_path = at.clone();
        at.push('/');
        at.push_str(token.encoded());
        node = match node.ty() {
            Ty::Struct(_) => match node.field(&token.decoded()) {
                Some(field) => field,
                None => return Walk::Outside(outside(node, &token.decoded(), at, parent_path)),
            },
            Ty::List(_) | Ty::Map(_) => match node.element() {
                Some(element) => element,
                None => return Walk::Unknown,
            },
            Ty::Scalar(_) => return Walk::Unknown,
        };
    }
    Walk::To(node)
}

fn outside(node: Node<'_>, member: &str, at: String, parent_path: String) -> Outside {
    let fields = node.as_struct().map(|s| &s.fields[..]).unwrap_or_default();
    Outside {
        at,
        member: member.to_owned(),
        parent: node
            .as_struct()
            .map(|s| s.go_name().to_owned())
            .unwrap_or_default(),
        parent_path,
        suggestion: suggest(member, fields.iter().map(|f| &*f.name)),
    }
}

/// The unknown members of `value` (written at `at`, a pointer this walk
/// extends and restores), as typed by `node`, until [`MAX_UNKNOWN_FIELDS`]
/// are found. Keys starting with `$` are strategic merge patch
/// directives, not fields. One pass over the value, no allocation per
/// member.
fn outside_value(node: Node<'_>, value: &Value, at: &mut String, found: &mut Vec<Outside>) {
    if found.len() >= MAX_UNKNOWN_FIELDS {
        return;
    }
    let len = at.len();
    match (node.ty(), value) {
        (Ty::Struct(_), Value::Object(members)) => {
            for (key, member) in members.iter().filter(|(k, _)| !k.starts_with('$')) {
                if found.len() >= MAX_UNKNOWN_FIELDS {
                    return;
                }
                at.push('/');
                at.push_str(&crate::pointer::escape(key));
                match node.field(key) {
                    Some(field) => outside_value(field, member, at, found),
                    None => found.push(outside(node, key, at.clone(), at[..len].to_owned())),
                }
                at.truncate(len);
            }
        }
        (Ty::Map(_), Value::Object(members)) => {
            let Some(element) = node.element().filter(|e| !matches!(e.ty(), Ty::Scalar(_))) else {
                return;
            };
            for (key, member) in members.iter().filter(|(k, _)| !k.starts_with('$')) {
                at.push('/');
                at.push_str(&crate::pointer::escape(key));
                outside_value(element, member, at, found);
                at.truncate(len);
            }
        }
        (Ty::List(_), Value::Array(items)) => {
            let Some(element) = node.element().filter(|e| !matches!(e.ty(), Ty::Scalar(_))) else {
                return;
            };
            for (i, item) in items.iter().enumerate() {
                use std::fmt::Write as _;
                let _ = write!(at, "/{i}");
                outside_value(element, item, at, found);
                at.truncate(len);
            }
        }
        // A free-form field (`Scalar::Any`), a scalar, or a value of
        // another type than the schema's (the server refuses that with
        // 422 on its own).
        _ => {}
    }
}

/// A field name close to `member`: the same but for case, or one or two
/// edits away (a third of the name at most).
fn suggest<'a>(member: &str, fields: impl Iterator<Item = &'a str> + Clone) -> Option<String> {
    if let Some(same) = fields.clone().find(|f| f.eq_ignore_ascii_case(member)) {
        return Some(same.to_owned());
    }
    let chars = member.chars().count();
    let most = (chars / 3).clamp(1, 2);
    // The distance is at least the difference in length: a name that much
    // longer or shorter is not compared (Levenshtein takes the product of
    // the lengths, minutes for a megabyte key in a debug build).
    fields
        .filter(|f| f.chars().count().abs_diff(chars) <= most)
        .map(|f| (strsim::levenshtein(member, f), f))
        .filter(|(d, _)| *d <= most)
        .min_by_key(|(d, f)| (*d, *f))
        .map(|(_, f)| f.to_owned())
}

fn finding(kind: &schema::Kind<'_>, index: Option<usize>, found: &Outside) -> Pending {
    let within = match found.parent_path.is_empty() {
        true => message!(UnknownField "a-kind", kind),
        false => message!(UnknownField "within", parent = found.parent, at = found.parent_path),
    };
    let hint = (found.suggestion.as_ref()).map_or_else(
        || message!(UnknownField "no-hint"),
        |field| message!(UnknownField "hint", field),
    );
    let below = match index {
        Some(_) => message!(UnknownField "below"),
        None => String::new(),
    };
    let (member, kind) = (&found.member, kind.kind());
    let message = message!(UnknownField "member", member, within, hint, kind, below);
    let at = Some(found.at.as_str());
    Pending::new(Finding::new(Rule::UnknownField, index, at, message))
}

/// Findings on the ops of a JSON patch: each op's `path` (and `from`),
/// and the members of the value an `add` or `replace` writes.
pub(super) fn in_ops(ops: &[Operation], kind: Option<schema::Kind<'_>>) -> Vec<Pending> {
    let Some(kind) = kind else {
        return Vec::new();
    };
    let root = kind.root();
    let mut out = Vec::new();
    for (index, op) in ops.iter().enumerate() {
        if out.len() >= MAX_UNKNOWN_FIELDS {
            break;
        }
        let mut found = Vec::new();
        if let Some(Walk::Outside(from)) = op.from.as_deref().map(|from| walk(root, from)) {
            found.push(from);
        }
        match walk(root, &op.path) {
            Walk::Outside(path) => found.push(path),
            Walk::To(node)
                if found.is_empty() && matches!(op.op, OpKind::Add | OpKind::Replace) =>
            {
                if let Some(value) = &op.value {
                    outside_value(node, value, &mut op.path.clone(), &mut found);
                }
            }
            _ => {}
        }
        found.dedup();
        out.extend(found.iter().map(|f| finding(&kind, Some(index), f)));
    }
    out.truncate(MAX_UNKNOWN_FIELDS);
    out
}

/// Findings on the members of a merge or strategic merge patch body.
pub(super) fn in_body(body: &Value, kind: Option<schema::Kind<'_>>) -> Vec<Pending> {
    let Some(kind) = kind else {
        return Vec::new();
    };
    let mut found = Vec::new();
    outside_value(kind.root(), body, &mut String::new(), &mut found);
    found.iter().map(|f| finding(&kind, None, f)).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn pod() -> schema::Kind<'static> {
        schema::resource("Pod").unwrap()
    }

    #[test]
    fn a_typo_in_a_path_is_named_with_the_field_meant() {
        let op = Operation::add("/metdata/labels/app", json!("web"));
        let found = in_ops(&[op], Some(pod()));
        assert_eq!(found.len(), 1);
        let f = &found[0].finding;
        assert_eq!(f.rule, Rule::UnknownField);
        assert_eq!(f.path.as_deref(), Some("/metdata"));
        assert_eq!(f.index, Some(0));
        assert!(
            f.message.starts_with(
                "`metdata` is not a field of a Pod (v1): did you mean `metadata`? The server"
            ),
            "{}",
            f.message
        );
    }

    #[test]
    fn maps_lists_and_free_form_fields_take_any_key() {
        let ops = [
            Operation::add("/metadata/labels/any~1key", json!("x")),
            Operation::add("/metadata/annotations/x", json!("y")),
            Operation::replace("/spec/containers/0/image", json!("nginx")),
            Operation::add("/spec/containers/-", json!({"name": "c", "image": "i"})),
            Operation::remove("/status/conditions/1"),
        ];
        assert!(in_ops(&ops, Some(pod())).is_empty());
        // A custom resource without a table, or no kind at all: no claim.
        assert!(in_ops(&ops, None).is_empty());
    }

    #[test]
    fn members_of_a_written_value_and_of_bodies_are_read_too() {
        let op = Operation::add(
            "/spec/containers/-",
            json!({"name": "c", "imagePullPolicy": "Always", "imagee": "i"}),
        );
        let found = in_ops(&[op], Some(pod()));
        assert_eq!(
            found[0].finding.path.as_deref(),
            Some("/spec/containers/-/imagee")
        );
        assert!(found[0].finding.message.contains("`imagee` is not a field of Container (at `/spec/containers/-`): did you mean `image`?"), "{}", found[0].finding.message);
        let body = json!({
            "metadata": {"labels": {"app": "web"}, "$setElementOrder/finalizers": []},
            "spec": {"nodeselector": {"a": "b"}, "containers": [{"name": "c", "$patch": "delete"}]}
        });
        let found = in_body(&body, Some(pod()));
        let paths: Vec<_> = found
            .iter()
            .map(|p| p.finding.path.clone().unwrap())
            .collect();
        assert_eq!(paths, ["/spec/nodeselector"]);
        assert!(found[0]
            .finding
            .message
            .contains("did you mean `nodeSelector`?"));
    }

    #[test]
    fn a_body_of_another_kind_gets_a_bounded_list() {
        let body: serde_json::Map<String, Value> =
            (0..100).map(|i| (format!("field{i}"), json!(i))).collect();
        let found = in_body(&Value::Object(body), Some(pod()));
        assert_eq!(found.len(), MAX_UNKNOWN_FIELDS);
    }

    #[test]
    fn suggestions_are_close_names_only() {
        assert_eq!(
            suggest("Metadata", ["kind", "metadata"].into_iter()).as_deref(),
            Some("metadata")
        );
        assert_eq!(suggest("xyz", ["kind", "metadata"].into_iter()), None);
        // One edit away; two at most, and a third of the name.
        assert_eq!(
            suggest("metdata", ["kind", "metadata"].into_iter()).as_deref(),
            Some("metadata")
        );
        assert_eq!(suggest("kd", ["kind"].into_iter()), None);
        // Names two shorter or longer are still compared; a name of a
        // megabyte is compared with none (it is three edits from nothing).
        assert_eq!(
            suggest("metada", ["kind", "metadata"].into_iter()).as_deref(),
            Some("metadata")
        );
        assert_eq!(
            suggest("containerss", ["containers", "initContainers"].into_iter()).as_deref(),
            Some("containers")
        );
        let huge = "x".repeat(1 << 20);
        assert_eq!(suggest(&huge, ["kind", "metadata"].into_iter()), None);
    }
}
