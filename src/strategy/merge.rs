//! JSON merge patch (RFC 7386) as a diff: the body that turns an old
//! object into a new one, and what such a body overwrites unchecked.
//! Applying a merge patch is the server's business:
//! [`crate::apply::merge`].
//!
//! ```
//! use patchlab::apply::merge::apply;
//! use patchlab::strategy::merge;
//! use serde_json::json;
//!
//! let old = json!({"metadata": {"labels": {"a": "1", "b": "2"}, "finalizers": ["x"]}});
//! let new = json!({"metadata": {"labels": {"a": "1", "c": "3"}, "finalizers": ["x", "y"]}});
//! let body = merge::diff(&old, &new);
//! assert_eq!(body, json!({"metadata": {"labels": {"b": null, "c": "3"}, "finalizers": ["x", "y"]}}));
//! let mut doc = old.clone();
//! apply(&mut doc, &body);
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
        Value::Object(map) => {
            // Inserted one by one, not collected (see `crate::sort`).
            let mut out = Map::new();
            for (k, v) in map.iter().filter(|(_, v)| !v.is_null()) {
                out.insert(k.clone(), strip_nulls(v));
            }
            Value::Object(out)
        }
        other => other.clone(),
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
        let token = escape(key);
        // Past the limit a member is left out (a megabyte key above many
        // members would otherwise be copied once per member).
        if len + 1 + token.len() > crate::limits::MEMBER_PATH_BYTES {
            continue;
        }
        path.push('/');
        path.push_str(&token);
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
    use crate::apply::merge::apply;
    use serde_json::json;

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
