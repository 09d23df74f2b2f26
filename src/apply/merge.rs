//! JSON merge patch (RFC 7386) applied: objects merge per key, `null`
//! deletes a key, arrays and scalars are replaced whole.
//!
//! kube-apiserver does not run the RFC but evanphx/json-patch's
//! `MergePatch` (`merge.go`, the same in v5.6.0, v4.12.0 and v4.13.0):
//! where it stores a patch value as it is (the member was absent, `null`,
//! or not an object), it prunes `null` members of objects at any depth,
//! inside arrays too; the RFC keeps those. [`apply_as`] picks the rules.
//! The handler's checks around it (body limit, decode, identity) are in
//! [`super::apply_merge`]; the merge *diff* (old + new -> body) is
//! [`crate::strategy::merge`].
//!
//! ```
//! use patchlab::apply::merge;
//! use serde_json::json;
//!
//! let mut doc = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
//! merge::apply(&mut doc, &json!({"metadata": {"labels": {"b": null, "c": "3"}}}));
//! assert_eq!(doc, json!({"metadata": {"labels": {"a": "1", "c": "3"}}}));
//! ```

use serde_json::{Map, Value};

use super::Semantics;

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
/// use patchlab::apply::merge;
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
pub fn apply_as(target: &mut Value, patch: &Value, semantics: Semantics) {
    match semantics {
        Semantics::Kube => merge_patch(target, patch),
        Semantics::Rfc => apply(target, patch),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

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
}
