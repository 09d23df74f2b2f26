//! The strategic preset: the strategic merge patch kubectl computes for
//! old -> new (`CreateTwoWayMergePatch`, [`crate::apply::strategic::diff`])
//! with the kind's schema, and what it risks. A strategic merge patch
//! tests nothing, so its conflict surface is empty (unless it pins
//! `metadata.resourceVersion`); what it overwrites depends on the schema:
//! a list with a merge key merges per element (another writer's elements
//! are kept), a list without one is replaced whole (they are lost),
//! `$retainKeys` clears what it does not name, a scalar is last-write-wins.
//!
//! A custom resource takes no strategic merge patch: the plan holds the
//! body a client would send (without a schema: maps merge, lists are
//! replaced), no conflict and no overwrite (nothing is ever written), and
//! a note with the server's 415; the round trip says so.

use serde_json::{Map, Value};

use super::{merge, DiffError, Options, Overwrite, Plan, Precondition};
use crate::apply::strategic::{self, Error, ErrorKind};
use crate::kube::KubeVersion;
use crate::pointer::escape;
use crate::schema::{self, Node, Target};
use crate::status::Status;

/// What a strategic merge patch to `old` -> `new` is sent to in the
/// release `kubernetes`: the new object's kind, else the old one's.
pub(crate) fn target(old: &Value, new: &Value, kubernetes: KubeVersion) -> Target<'static> {
    let has_kind = |v: &Value| v.get("kind").and_then(Value::as_str).is_some();
    schema::for_release(kubernetes).target_of(if has_kind(new) || !has_kind(old) {
        new
    } else {
        old
    })
}

/// Fills `plan` for the strategic preset.
pub(super) fn plan(
    plan: &mut Plan,
    old: &Value,
    new: &Value,
    options: &Options,
) -> Result<(), DiffError> {
    // Fields only the server writes are not patched (as in every preset).
    let strip = |v: &Value| {
        let mut v = v.clone();
        for path in options.policy.server_written() {
            path.delete(&mut v);
        }
        v
    };
    let pinned = old.pointer("/metadata/resourceVersion").cloned();
    let (old, new) = (strip(old), strip(new));
    let target = target(&old, &new, options.kubernetes);
    let nulls = merge::nulls_in(&new);
    if !nulls.is_empty() {
        plan.notes.push(format!(
            "a strategic merge patch cannot set a member to null (null deletes it): {} would be removed instead",
            nulls.join(", ")
        ));
    }
    // Every changed field goes out in the one body.
    for field in &mut plan.fields {
        field.strategy = super::Strategy::StrategicMerge;
    }
    let kind = match target.schema() {
        Some(kind) if kind.is_builtin() => kind,
        _ if target.is_builtin() => {
            return Err(DiffError::Strategic(Box::new(Error::new(
                ErrorKind::NoSchema {
                    gvk: target.gvk(),
                    release: Some(options.kubernetes),
                },
            ))))
        }
        _ => {
            // A custom resource: the body a client without the kind's Go
            // type would send; the server refuses it before reading it.
            plan.notes.push(format!(
                "{} is a custom resource: the server refuses every strategic merge patch to it before reading the body, and writes nothing (send a merge patch or a JSON patch): {}",
                target.gvk(),
                Status::unsupported_media_type(&strategic::CUSTOM_RESOURCE_PATCH_TYPES)
            ));
            plan.body = super::Body::StrategicMergePatch(merge::diff(&old, &new));
            return Ok(());
        }
    };
    let mut body = strategic::diff(&old, &new, kind.root())
        .map_err(|err| DiffError::Strategic(Box::new(err)))?;
    let has_changes = body.as_object().is_some_and(|m| !m.is_empty());
    if options.merge_resource_version && has_changes {
        if let Some(rv) = pinned {
            if let Some(Value::Object(metadata)) = body.as_object_mut().map(|m| {
                m.entry("metadata")
                    .or_insert_with(|| Value::Object(Map::new()))
            }) {
                metadata.insert("resourceVersion".to_owned(), rv);
            }
            plan.conflicts.push(Precondition {
                path: String::new(),
                reason: "the body pins metadata.resourceVersion: any write since your read gets 409 Conflict".to_owned(),
            });
        }
    }
    if let Value::Object(map) = &body {
        walk(
            map,
            Some(kind.root()),
            &mut String::new(),
            &mut plan.overwrites,
        );
    }
    plan.body = super::Body::StrategicMergePatch(body);
    Ok(())
}

/// What a strategic merge patch body overwrites without a check, with the
/// kind's schema: every scalar it sets and member it deletes (last write
/// wins), every list it replaces whole, keys `$retainKeys` clears, values
/// `$deleteFromPrimitiveList` removes, elements `$patch: delete` deletes;
/// not the elements of merged lists it leaves alone.
///
/// ```
/// use patchlab::schema;
/// use patchlab::strategy::strategic_overwrites;
/// use serde_json::json;
///
/// let pod = schema::resource("pod").unwrap().root();
/// let body = json!({"spec": {"containers": [{"name": "c", "image": "2"}], "tolerations": []}});
/// let paths: Vec<String> = strategic_overwrites(&body, pod).into_iter().map(|o| o.path).collect();
/// assert_eq!(paths, ["/spec/containers[name=\"c\"]/image", "/spec/tolerations"]);
/// ```
pub fn strategic_overwrites(body: &Value, root: Node<'_>) -> Vec<Overwrite> {
    let mut out = Vec::new();
    if let Value::Object(map) = body {
        walk(map, Some(root), &mut String::new(), &mut out);
    }
    out
}

/// The field's type and patch metadata for `key` under `node`: a struct's
/// field, or a map's value type.
fn child<'t>(node: Option<Node<'t>>, key: &str) -> (Option<Node<'t>>, &'t str, &'t str) {
    let Some(node) = node else {
        return (None, "", "");
    };
    if matches!(node.ty(), schema::Ty::Map(_)) {
        return (node.element(), "", "");
    }
    match node.lookup_struct(key) {
        Ok((child, meta)) => (Some(child), meta.strategies, meta.merge_key),
        Err(_) => (None, "", ""),
    }
}

fn push(out: &mut Vec<Overwrite>, path: &str, reason: String) {
    out.push(Overwrite {
        path: path.to_owned(),
        reason,
    });
}

/// Walks a patch map (depth bounded by the body's own nesting, which the
/// input budget caps).
fn walk(
    map: &Map<String, Value>,
    node: Option<Node<'_>>,
    path: &mut String,
    out: &mut Vec<Overwrite>,
) {
    let here = if path.is_empty() {
        "the object".to_owned()
    } else {
        path.clone()
    };
    for (key, value) in map {
        match key.as_str() {
            "$patch" => {
                match value.as_str() {
                    Some("replace") => push(out, path, format!("replaces {here} whole ($patch: replace): keys another writer added meanwhile are lost")),
                    Some("delete") => push(out, path, format!("deletes {here} ($patch: delete), whatever another writer put there")),
                    _ => {}
                }
                continue;
            }
            "$retainKeys" => {
                push(out, path, format!("clears every key of {here} that $retainKeys does not name: a key another writer added meanwhile is lost"));
                continue;
            }
            _ => {}
        }
        if key.starts_with("$setElementOrder/") {
            continue;
        }
        let len = path.len();
        if let Some(field) = key.strip_prefix("$deleteFromPrimitiveList/") {
            path.push('/');
            path.push_str(&escape(field));
            let values: Vec<String> = value
                .as_array()
                .map(|v| v.iter().map(crate::gojson::to_string).collect())
                .unwrap_or_default();
            push(
                out,
                path,
                format!(
                    "removes {} from {path}, even if another writer added it again since your read",
                    values.join(", ")
                ),
            );
            path.truncate(len);
            continue;
        }
        let (node_here, strategies, merge_key) = child(node, key);
        path.push('/');
        path.push_str(&escape(key));
        match value {
            Value::Null => push(
                out,
                path,
                format!("deletes {path}, whatever another writer put there"),
            ),
            Value::Object(inner) => {
                if strategies.split(',').any(|s| s == "replace") {
                    push(out, path, format!("replaces {path} whole (its patch strategy is replace): keys another writer added meanwhile are lost"));
                } else {
                    walk(inner, node_here, path, out);
                }
            }
            Value::Array(items) => list(items, node_here, strategies, merge_key, path, out),
            _ => push(
                out,
                path,
                format!("sets {path} without a check (last write wins)"),
            ),
        }
        path.truncate(len);
    }
}

/// A list in the patch: merged by key, unioned, or replaced whole.
fn list(
    items: &[Value],
    node: Option<Node<'_>>,
    strategies: &str,
    merge_key: &str,
    path: &mut String,
    out: &mut Vec<Overwrite>,
) {
    let merges = strategies.split(',').any(|s| s == "merge");
    let replaced = items
        .iter()
        .any(|item| item.get("$patch").and_then(Value::as_str) == Some("replace"));
    if !merges || replaced {
        let why = if replaced {
            "$patch: replace".to_owned()
        } else {
            "its schema gives it no merge strategy".to_owned()
        };
        push(out, path, format!("replaces the whole list {path} ({why}): elements another writer added or removed meanwhile are lost"));
        return;
    }
    if merge_key.is_empty() {
        // A set of scalars (finalizers): the values are added, nothing of
        // another writer's is lost.
        return;
    }
    let element = node.and_then(|n| n.element());
    for item in items {
        let Value::Object(fields) = item else {
            continue;
        };
        let name = fields
            .get(merge_key)
            .map(crate::gojson::to_string)
            .unwrap_or_else(|| "?".to_owned());
        let len = path.len();
        path.push_str(&format!("[{merge_key}={name}]"));
        if item.get("$patch").and_then(Value::as_str) == Some("delete") {
            push(out, path, format!("deletes the element of {} whose {merge_key} is {name}, with whatever another writer changed in it", &path[..len]));
        } else {
            let mut rest = fields.clone();
            rest.remove(merge_key);
            walk(&rest, element, path, out);
        }
        path.truncate(len);
    }
}

#[cfg(test)]
mod tests;
