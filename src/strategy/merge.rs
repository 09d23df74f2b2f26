//! JSON merge patch (RFC 7386): objects merge per key, `null` deletes a
//! key, arrays and scalars are replaced whole.
//!
//! kube-apiserver does not run the RFC but evanphx/json-patch's
//! `MergePatch` (`merge.go`, the same in v5.6.0, v4.12.0 and v4.13.0):
//! where it stores a patch value as it is (the member was absent, `null`,
//! or not an object), it prunes `null` members of objects at any depth,
//! inside arrays too; the RFC keeps those. [`apply_as`] picks the rules.
//!
//! ```
//! use patchlab::strategy::merge;
//! use serde_json::json;
//!
//! let old = json!({"metadata": {"labels": {"a": "1", "b": "2"}, "finalizers": ["x"]}});
//! let new = json!({"metadata": {"labels": {"a": "1", "c": "3"}, "finalizers": ["x", "y"]}});
//! let body = merge::diff(&old, &new);
//! assert_eq!(body, json!({"metadata": {"labels": {"b": null, "c": "3"}, "finalizers": ["x", "y"]}}));
//! let mut doc = old.clone();
//! merge::apply(&mut doc, &body);
//! assert_eq!(doc, new);
//! ```

use serde_json::{Map, Value};

use crate::pointer::escape;

/// The merge patch that turns `old` into `new`. Members of `new` that
/// hold `null` cannot be expressed (null means delete): they come out as
/// deletions (see [`nulls_in`]).
pub fn diff(old: &Value, new: &Value) -> Value {
    match (old, new) {
        (Value::Object(old_map), Value::Object(new_map)) => {
            let mut body = Map::new();
            for key in old_map.keys() {
                if !new_map.contains_key(key) {
                    body.insert(key.clone(), Value::Null);
                }
            }
            for (key, new_value) in new_map {
                match old_map.get(key) {
                    Some(old_value) if old_value == new_value => {}
                    Some(old_value @ Value::Object(_)) if new_value.is_object() => {
                        body.insert(key.clone(), diff(old_value, new_value));
                    }
                    _ => {
                        body.insert(key.clone(), strip_nulls(new_value));
                    }
                }
            }
            Value::Object(body)
        }
        _ => strip_nulls(new),
    }
}

/// A value as a merge patch sets it: members holding `null` inside new
/// objects are dropped (they would mean "delete").
fn strip_nulls(value: &Value) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| (k.clone(), strip_nulls(v)))
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Applies a merge patch to `target` (RFC 7386 section 2).
pub fn apply(target: &mut Value, patch: &Value) {
    let Value::Object(patch_map) = patch else {
        *target = patch.clone();
        return;
    };
    if !target.is_object() {
        *target = Value::Object(Map::new());
    }
    if let Value::Object(target_map) = target {
        for (key, value) in patch_map {
            if value.is_null() {
                target_map.remove(key);
            } else {
                let slot = target_map.entry(key.clone()).or_insert(Value::Null);
                apply(slot, value);
            }
        }
    }
}

/// Applies a merge patch the way kube-apiserver does (evanphx's
/// `MergePatch` with `mergeMerge` false): `mergeDocs`, `merge` and
/// `pruneNulls` of `merge.go`.
///
/// ```
/// use patchlab::strategy::merge;
/// use serde_json::json;
///
/// // A patch value stored as it is loses the nulls of objects in arrays.
/// let mut doc = json!({});
/// merge::merge_patch(&mut doc, &json!({"a": [{"c": null, "d": 1}]}));
/// assert_eq!(doc, json!({"a": [{"d": 1}]}));
/// // RFC 7386 keeps them.
/// let mut rfc = json!({});
/// merge::apply(&mut rfc, &json!({"a": [{"c": null, "d": 1}]}));
/// assert_eq!(rfc, json!({"a": [{"c": null, "d": 1}]}));
/// ```
pub fn merge_patch(target: &mut Value, patch: &Value) {
    let Value::Object(patch_map) = patch else {
        // The handler refuses any body but an object before this runs.
        return;
    };
    if !target.is_object() {
        // Not a document: the result is the pruned patch.
        let mut value = patch.clone();
        prune_nulls(&mut value);
        *target = value;
        return;
    }
    if let Value::Object(doc) = target {
        merge_docs(doc, patch_map);
    }
}

/// `mergeDocs(doc, patch, false)`.
fn merge_docs(doc: &mut Map<String, Value>, patch: &Map<String, Value>) {
    for (key, value) in patch {
        if value.is_null() {
            doc.remove(key);
            continue;
        }
        match doc.get_mut(key) {
            Some(current) if !current.is_null() => merge_node(current, value),
            _ => {
                let mut value = value.clone();
                prune_nulls(&mut value);
                doc.insert(key.clone(), value);
            }
        }
    }
}

/// `merge(cur, patch, false)`: objects merge; a current value that is not
/// an object is replaced by the pruned patch; a patch that is not an
/// object replaces the current object as it is.
fn merge_node(current: &mut Value, patch: &Value) {
    match (current.as_object_mut(), patch) {
        (Some(doc), Value::Object(patch_map)) => merge_docs(doc, patch_map),
        (Some(_), _) => *current = patch.clone(),
        (None, _) => {
            let mut value = patch.clone();
            prune_nulls(&mut value);
            *current = value;
        }
    }
}

/// `pruneNulls`: drops `null` members of objects, recursing into objects
/// and arrays (array elements that are `null` stay).
fn prune_nulls(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            for child in map.values_mut() {
                prune_nulls(child);
            }
        }
        Value::Array(items) => {
            for item in items.iter_mut() {
                prune_nulls(item);
            }
        }
        _ => {}
    }
}

/// Applies a merge patch under `semantics`: [`merge_patch`] (kube) or
/// [`apply`] (RFC 7386).
pub fn apply_as(target: &mut Value, patch: &Value, semantics: crate::apply::Semantics) {
    match semantics {
        crate::apply::Semantics::Kube => merge_patch(target, patch),
        crate::apply::Semantics::Rfc => apply(target, patch),
    }
}

/// Pointers to members of `value` (objects only) that hold `null`: a merge
/// patch cannot set them.
pub fn nulls_in(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect_nulls(value, &mut String::new(), &mut out);
    out
}

fn collect_nulls(value: &Value, path: &mut String, out: &mut Vec<String>) {
    if let Value::Object(map) = value {
        for (key, child) in map {
            let len = path.len();
            path.push('/');
            path.push_str(&escape(key));
            if child.is_null() {
                out.push(path.clone());
            } else {
                collect_nulls(child, path, out);
            }
            path.truncate(len);
        }
    }
}

/// What a merge patch body overwrites without any check: each leaf it sets
/// or deletes (last writer wins), and lists replaced whole.
pub fn overwrites(body: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    walk_overwrites(body, &mut String::new(), &mut out);
    out
}

fn walk_overwrites(value: &Value, path: &mut String, out: &mut Vec<(String, String)>) {
    let Value::Object(map) = value else {
        return;
    };
    for (key, child) in map {
        let len = path.len();
        path.push('/');
        path.push_str(&escape(key));
        match child {
            Value::Object(_) => walk_overwrites(child, path, out),
            Value::Null => out.push((
                path.clone(),
                format!("deletes {path}, whatever another writer put there"),
            )),
            Value::Array(_) => out.push((
                path.clone(),
                format!("replaces the whole list {path}: elements another writer added or removed meanwhile are lost"),
            )),
            _ => out.push((
                path.clone(),
                format!("sets {path} without a check (last write wins)"),
            )),
        }
        path.truncate(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// RFC 7386 Appendix A, every example.
    #[test]
    fn rfc7386_appendix_a() {
        let cases = [
            (json!({"a":"b"}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"b"}), json!({"b":"c"}), json!({"a":"b","b":"c"})),
            (json!({"a":"b"}), json!({"a":null}), json!({})),
            (
                json!({"a":"b","b":"c"}),
                json!({"a":null}),
                json!({"b":"c"}),
            ),
            (json!({"a":["b"]}), json!({"a":"c"}), json!({"a":"c"})),
            (json!({"a":"c"}), json!({"a":["b"]}), json!({"a":["b"]})),
            (
                json!({"a":{"b":"c"}}),
                json!({"a":{"b":"d","c":null}}),
                json!({"a":{"b":"d"}}),
            ),
            (json!({"a":[{"b":"c"}]}), json!({"a":[1]}), json!({"a":[1]})),
            (json!(["a", "b"]), json!(["c", "d"]), json!(["c", "d"])),
            (json!({"a":"b"}), json!(["c"]), json!(["c"])),
            (json!({"a":"foo"}), json!(null), json!(null)),
            (json!({"a":"foo"}), json!("bar"), json!("bar")),
            (json!({"e":null}), json!({"a":1}), json!({"e":null,"a":1})),
            (json!([1, 2]), json!({"a":"b","c":null}), json!({"a":"b"})),
            (
                json!({}),
                json!({"a":{"bb":{"ccc":null}}}),
                json!({"a":{"bb":{}}}),
            ),
        ];
        for (target, patch, expected) in cases {
            let mut got = target.clone();
            apply(&mut got, &patch);
            assert_eq!(got, expected, "{target} + {patch}");
        }
    }

    /// evanphx's `MergePatch` against RFC 7386 where they differ, and
    /// agreeing elsewhere (cases checked against merge.go's code paths).
    #[test]
    fn kube_merge_prunes_nulls_in_stored_values() {
        let cases = [
            // Stored as is (absent, null or non-object current): pruned
            // at any depth, through arrays.
            (
                json!({}),
                json!({"a":[{"c":null}]}),
                json!({"a":[{}]}),
                json!({"a":[{"c":null}]}),
            ),
            (
                json!({"a":null}),
                json!({"a":[[{"b":null,"c":1}]]}),
                json!({"a":[[{"c":1}]]}),
                json!({"a":[[{"b":null,"c":1}]]}),
            ),
            (
                json!({"a":"s"}),
                json!({"a":{"l":[{"x":null}],"y":null}}),
                json!({"a":{"l":[{}]}}),
                json!({"a":{"l":[{"x":null}]}}),
            ),
            (
                json!({"a":[1]}),
                json!({"a":[null,{"z":null}]}),
                json!({"a":[null,{}]}),
                json!({"a":[null,{"z":null}]}),
            ),
            // The current value is an object and the patch an array: the
            // array replaces it as sent, nulls kept (both agree).
            (
                json!({"a":{"x":1}}),
                json!({"a":[{"c":null}]}),
                json!({"a":[{"c":null}]}),
                json!({"a":[{"c":null}]}),
            ),
            // Objects merge per key; null deletes (both agree).
            (
                json!({"a":{"b":1,"c":2}}),
                json!({"a":{"b":null,"d":{"e":null}}}),
                json!({"a":{"c":2,"d":{}}}),
                json!({"a":{"c":2,"d":{}}}),
            ),
        ];
        for (target, patch, kube, rfc) in cases {
            let mut got = target.clone();
            merge_patch(&mut got, &patch);
            assert_eq!(got, kube, "kube: {target} + {patch}");
            let mut got = target.clone();
            apply(&mut got, &patch);
            assert_eq!(got, rfc, "rfc: {target} + {patch}");
        }
    }

    #[test]
    fn diff_then_apply_round_trips_without_nulls() {
        let old = json!({"a": {"b": [1, 2], "c": "x"}, "d": 1, "gone": {"z": 1}});
        let new = json!({"a": {"b": [2], "c": "x", "e": {"f": true}}, "d": 2});
        let body = diff(&old, &new);
        assert_eq!(
            body,
            json!({"a": {"b": [2], "e": {"f": true}}, "d": 2, "gone": null})
        );
        let mut got = old.clone();
        apply(&mut got, &body);
        assert_eq!(got, new);
        assert!(nulls_in(&new).is_empty());
        assert_eq!(nulls_in(&json!({"a": {"b~/": null}})), ["/a/b~0~1"]);
    }

    #[test]
    fn overwrites_name_each_leaf() {
        let body = json!({"metadata": {"labels": {"a": "1", "b": null}, "finalizers": ["x"]}});
        let paths: Vec<String> = overwrites(&body).into_iter().map(|(p, _)| p).collect();
        assert_eq!(
            paths,
            [
                "/metadata/finalizers",
                "/metadata/labels/a",
                "/metadata/labels/b"
            ]
        );
    }
}
