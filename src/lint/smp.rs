//! The strategic merge patch rules that need no schema: whether the
//! target serves strategic merge patches at all (a custom resource
//! answers 415), preconditions (`metadata.resourceVersion`), directives
//! the server cannot read, and directives or nulls that replace or delete
//! a whole collection other writers fill. How lists merge needs the
//! built-in types' patch strategies (`src/apply/strategic.rs` and
//! `src/schema.rs` know them); these rules do not guess them.

use serde_json::Value;

use super::checks::{shown, Analysis};
use super::fix::Pending;
use super::kinds::{self, Resource, Served};
use super::merge::{members, non_string, pins_resource_version, resource_version, writers_of};
use super::writers::Shape;
use super::{BodyKind, Finding, Options, Report, Rule};
use crate::strategy::Overwrite;

/// The 415 answer of a custom resource to a strategic merge patch
/// (kubernetes `staging/src/k8s.io/apiextensions-apiserver/pkg/apiserver/customresource_handler.go`:
/// `supportedTypes`; the handler's `negotiation.NewUnsupportedMediaTypeError`).
pub const CUSTOM_RESOURCE_415: &str = "415 Unsupported Media Type: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml";

pub(super) fn strategic(
    body: &Value,
    options: &Options,
    kind: Option<&str>,
    resource: Option<&Resource>,
) -> Analysis {
    let mut pending: Vec<Pending> = Vec::new();
    let served = match (resource.map(|r| r.served), kind) {
        (Some(served @ (Served::Builtin | Served::Custom)), _) => served,
        (_, Some(kind)) => kinds::served(kind),
        _ => Served::Unknown,
    };
    if served == Served::Custom {
        let what = match (resource, kind) {
            (Some(r), Some(k)) if r.typed.eq_ignore_ascii_case(k) => k.to_owned(),
            (Some(r), Some(k)) => format!("{} ({k})", r.typed),
            (Some(r), None) => r.typed.clone(),
            (None, Some(k)) => k.to_owned(),
            (None, None) => "the resource".to_owned(),
        };
        pending.push(Pending::new(Finding::new(
            Rule::SmpCustomResource,
            None,
            None,
            format!(
                "{what} is a custom resource, which does not take strategic merge patches (what kubectl sends without --type): the server answers {CUSTOM_RESOURCE_415}; send --type=merge (the same body, when it holds no lists and no directives) or --type=json"
            ),
        )));
    }
    let pinned = pins_resource_version(body);
    members(body, |path, parent, key, value| {
        if let Some(problem) = bad_directive(key, value) {
            pending.push(Pending::new(Finding::new(
                Rule::SmpBadDirective,
                None,
                Some(path),
                format!(
                    "{}: {problem}; the server fails the whole patch with that error (k8s.io/apimachinery/pkg/util/mergepatch/errors.go)",
                    shown(path)
                ),
            )));
            return;
        }
        if let Some(finding) = non_string(options, kind, path, parent, value) {
            pending.push(Pending::new(finding));
        }
        if pinned {
            return;
        }
        // What erases a whole collection: `$patch: replace` or `delete` in
        // it, a `{"$patch": "replace"}` element in a list, or a null.
        let (target, how) = match (key, value) {
            ("$patch", Value::String(p)) if p == "replace" || p == "delete" => (
                parent.to_owned(),
                format!(
                    "$patch: {p} {} it whole",
                    if p == "replace" {
                        "replaces"
                    } else {
                        "deletes"
                    }
                ),
            ),
            (_, Value::Array(items))
                if items
                    .iter()
                    .any(|i| i.get("$patch").and_then(Value::as_str) == Some("replace")) =>
            {
                (
                    path.to_owned(),
                    "a {\"$patch\": \"replace\"} element replaces it whole".to_owned(),
                )
            }
            (_, Value::Null) => (path.to_owned(), "null deletes it whole".to_owned()),
            _ => return,
        };
        let (shape, sharing) = writers_of(kind, &target);
        let Some((shape @ (Shape::Map | Shape::List), item)) = shape else {
            return;
        };
        if !sharing.is_shared() {
            return;
        }
        let word = shape.as_str();
        let mut finding = Finding::new(
            Rule::WholeCollectionWrite,
            None,
            Some(&target),
            format!(
                "{} is a {word} other writers fill, and {how}: every {item} another writer put there since your read is lost; {} write {}",
                shown(&target),
                sharing.list(),
                shown(&target)
            ),
        );
        finding.writers = sharing.names();
        pending.push(Pending::new(finding));
    });
    let mut conflicts = Vec::new();
    resource_version(body, &mut pending, &mut conflicts);
    let mut overwrites = Vec::new();
    if !pinned {
        members(body, |path, _, key, value| {
            if super::read::is_directive(key) || value.is_object() {
                return;
            }
            let reason = match value {
                Value::Null => format!("deletes {path}, whatever another writer put there"),
                Value::Array(_) => format!(
                    "writes the list {path}: merged element by element when its type has a patch strategy, replaced whole otherwise"
                ),
                _ => format!("sets {path} without a check (last write wins)"),
            };
            overwrites.push(Overwrite {
                path: path.to_owned(),
                reason,
            });
        });
    }
    Analysis {
        report: Report {
            kind: BodyKind::StrategicMergePatch,
            semantics: options.semantics,
            ops: Vec::new(),
            op_count: 0,
            findings: Vec::new(),
            outcome: None,
            conflicts,
            overwrites,
        },
        pending,
    }
}

/// What is wrong with a directive, in apimachinery's words.
fn bad_directive(key: &str, value: &Value) -> Option<String> {
    if key == "$patch" {
        return match value.as_str() {
            Some("replace" | "merge" | "delete") => None,
            Some(other) => Some(format!(
                "unknown patch type: {other} (the $patch directive takes replace, merge or delete)"
            )),
            None => Some(format!(
                "unknown patch type: {} (the $patch directive takes replace, merge or delete)",
                crate::gojson::to_string(value)
            )),
        };
    }
    let list = value.as_array();
    if key == "$retainKeys" {
        return (!list.is_some_and(|l| l.iter().all(Value::is_string))).then(|| {
            "invalid patch format of retainKeys ($retainKeys takes a list of field names)"
                .to_owned()
        });
    }
    if key.starts_with("$setElementOrder/") {
        return list
            .is_none()
            .then(|| "invalid patch format of setElementOrder list (it takes a list)".to_owned());
    }
    if key.starts_with("$deleteFromPrimitiveList/") {
        return list
            .is_none()
            .then(|| "invalid patch format of primitive list ($deleteFromPrimitiveList takes a list of values)".to_owned());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_checked_as_apimachinery_reads_them() {
        assert!(bad_directive("$patch", &"replace".into()).is_none());
        assert!(bad_directive("$patch", &"remove".into())
            .unwrap()
            .starts_with("unknown patch type: remove"));
        assert!(bad_directive("$retainKeys", &serde_json::json!(["a"])).is_none());
        assert!(bad_directive("$retainKeys", &"a".into()).is_some());
        assert!(bad_directive("$setElementOrder/finalizers", &serde_json::json!({})).is_some());
        assert!(bad_directive(
            "$deleteFromPrimitiveList/finalizers",
            &serde_json::json!(["x"])
        )
        .is_none());
        assert!(bad_directive("labels", &"x".into()).is_none());
    }
}
