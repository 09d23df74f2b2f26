//! Writing a strategic merge patch: a port of `CreateTwoWayMergePatch`
//! (`diffMaps` and its helpers in k8s.io/apimachinery
//! `pkg/util/strategicpatch/patch.go`) with the options it passes
//! (`SetElementOrder`), so the body is the one kubectl would send for
//! old -> new: changed and added fields, `null` for removed ones, merged
//! lists as their changed elements plus `{"<key>": ..., "$patch":
//! "delete"}`, `$deleteFromPrimitiveList/<field>` and
//! `$setElementOrder/<field>`, and `$retainKeys` where the strategy says.

use serde_json::{Map, Value};

use super::merge::{
    self, bad_arg_type, no_merge_key, retain_keys_strategy, slice_element_type, Element, DELETE,
    DELETE_PREFIX, DIRECTIVE, MERGE, ORDER_PREFIX, REPLACE, RETAIN_KEYS,
};
use super::order::{dedupe_scalars, sort_le};
use super::{Error, ErrorKind, Object};
use crate::gojson::{deep_equal, same_type, sprint, Verb};
use crate::schema::{LookupError, Node, PatchMeta};

/// A field's schema, whether its strategy has `retainKeys`, its other
/// strategy, its merge key.
type FieldMeta<'t> = (Node<'t>, bool, &'t str, &'t str);

/// The strategic merge patch kubectl sends to turn `old` into `new`
/// (`CreateTwoWayMergePatch` with the kind's struct tags): `{}` when they
/// are equal.
///
/// # Errors
///
/// [`Error`] with Go's text: `old` or `new` is no JSON object, a merged
/// list's element lacks its merge key, ...
///
/// ```
/// use patchlab::apply::strategic;
/// use patchlab::schema;
/// use serde_json::json;
///
/// let pod = schema::resource("pod").unwrap().root();
/// let old = json!({"metadata": {"finalizers": ["a", "b"]}, "spec": {"containers": [{"name": "c", "image": "1"}]}});
/// let new = json!({"metadata": {"finalizers": ["b"]}, "spec": {"containers": [{"name": "c", "image": "2"}]}});
/// let patch = strategic::diff(&old, &new, pod).unwrap();
/// assert_eq!(patch, json!({
///     "metadata": {"$deleteFromPrimitiveList/finalizers": ["a"], "$setElementOrder/finalizers": ["b"]},
///     "spec": {"$setElementOrder/containers": [{"name": "c"}], "containers": [{"image": "2", "name": "c"}]}
/// }));
/// let mut doc = old.clone();
/// strategic::apply(&mut doc, &patch, pod, Default::default()).unwrap();
/// assert_eq!(doc, new);
/// ```
pub fn diff(old: &Value, new: &Value, root: Node<'_>) -> Result<Value, Error> {
    let (Value::Object(original), Value::Object(modified)) = (old, new) else {
        return Err(Error::new(ErrorKind::BadJsonDoc));
    };
    let mut differ = Differ {
        path: super::Trail::default(),
    };
    differ
        .diff_maps(original, modified, root, false)
        .map(Value::Object)
}

/// Three lists: the patch list, the parallel deletion list and the
/// order list (or, for scalars, the sorted original).
type Lists = (Vec<Value>, Vec<Value>, Vec<Value>);

struct Differ {
    path: super::Trail,
}

impl Differ {
    /// `diffMaps`.
    fn diff_maps(
        &mut self,
        original: &Object,
        modified: &Object,
        schema: Node<'_>,
        build_retain_keys: bool,
    ) -> Result<Object, Error> {
        if self.path.depth() > merge::MAX_DEPTH {
            return Err(self.path.fail(ErrorKind::Unsupported(format!(
                "nesting deeper than {}",
                merge::MAX_DEPTH
            ))));
        }
        let mut patch = Map::new();
        let mut retain = Vec::new();
        for (key, modified_value) in modified {
            if build_retain_keys && !modified_value.is_null() {
                retain.push(Value::String(key.clone()));
            }
            let Some(original_value) = original.get(key) else {
                patch.insert(key.clone(), modified_value.clone());
                continue;
            };
            if key == DIRECTIVE {
                // `handleDirectiveMarker`.
                let (Value::String(o), Value::String(m)) = (original_value, modified_value) else {
                    return Err(self.path.fail(ErrorKind::Other(format!(
                        "invalid value for special key: {DIRECTIVE}"
                    ))));
                };
                if o != m {
                    patch.insert(key.clone(), modified_value.clone());
                }
                continue;
            }
            if !same_type(original_value, modified_value) {
                patch.insert(key.clone(), modified_value.clone());
                continue;
            }
            self.path.push(key.as_str());
            let result = match (original_value, modified_value) {
                (Value::Object(o), Value::Object(m)) => {
                    self.map_diff(key, o, m, &mut patch, schema)
                }
                (Value::Array(o), Value::Array(m)) => {
                    self.slice_diff(key, o, m, &mut patch, schema)
                }
                _ => {
                    if !deep_equal(original_value, modified_value) {
                        patch.insert(key.clone(), modified_value.clone());
                    }
                    Ok(())
                }
            };
            self.path.pop();
            result?;
        }
        // `updatePatchIfMissing`.
        for key in original.keys() {
            if !modified.contains_key(key) {
                patch.insert(key.clone(), Value::Null);
            }
        }
        let additional = original
            .iter()
            .any(|(k, v)| !v.is_null() && !modified.contains_key(k));
        if !retain.is_empty() && (!patch.is_empty() || additional) {
            sort_le(&mut retain, |v| sprint(v, Verb::V));
            patch.insert(RETAIN_KEYS.to_owned(), Value::Array(retain));
        }
        Ok(patch)
    }

    /// A field's schema, retainKeys, strategy and merge key; `None` when
    /// its lookup fails but both sides are equal (Go skips it then).
    fn meta<'t>(
        &self,
        found: Result<(Node<'t>, PatchMeta<'t>), LookupError>,
        equal: bool,
    ) -> Result<Option<FieldMeta<'t>>, Error> {
        let (subschema, meta) = match found {
            Ok(found) => found,
            Err(_) if equal => return Ok(None),
            Err(e) => return Err(self.path.fail(ErrorKind::Lookup(e))),
        };
        let (retain_keys, strategy) =
            retain_keys_strategy(meta.strategies).map_err(|e| self.path.fail(e))?;
        Ok(Some((subschema, retain_keys, strategy, meta.merge_key)))
    }

    /// `handleMapDiff`.
    fn map_diff(
        &mut self,
        key: &str,
        original: &Object,
        modified: &Object,
        patch: &mut Object,
        schema: Node<'_>,
    ) -> Result<(), Error> {
        let Some((subschema, retain_keys, strategy, _)) =
            self.meta(schema.lookup_struct(key), maps_equal(original, modified))?
        else {
            return Ok(());
        };
        if strategy == REPLACE {
            patch.insert(key.to_owned(), Value::Object(modified.clone()));
            return Ok(());
        }
        let value = self.diff_maps(original, modified, subschema, retain_keys)?;
        if !value.is_empty() {
            patch.insert(key.to_owned(), Value::Object(value));
        }
        Ok(())
    }

    /// `handleSliceDiff`.
    fn slice_diff(
        &mut self,
        key: &str,
        original: &[Value],
        modified: &[Value],
        patch: &mut Object,
        schema: Node<'_>,
    ) -> Result<(), Error> {
        let Some((subschema, retain_keys, strategy, merge_key)) =
            self.meta(schema.lookup_slice(key), lists_equal(original, modified))?
        else {
            return Ok(());
        };
        if strategy != MERGE {
            if !lists_equal(original, modified) {
                patch.insert(key.to_owned(), Value::Array(modified.to_vec()));
            }
            return Ok(());
        }
        let (add, delete, order) =
            self.diff_lists(original, modified, subschema, merge_key, retain_keys)?;
        if !add.is_empty() {
            patch.insert(key.to_owned(), Value::Array(add));
        }
        if !delete.is_empty() {
            patch.insert(format!("{DELETE_PREFIX}/{key}"), Value::Array(delete));
        }
        if !order.is_empty() {
            patch.insert(format!("{ORDER_PREFIX}/{key}"), Value::Array(order));
        }
        Ok(())
    }

    /// `diffLists`: the patch list, the parallel deletion list and the
    /// `$setElementOrder` list.
    fn diff_lists(
        &mut self,
        original: &[Value],
        modified: &[Value],
        schema: Node<'_>,
        merge_key: &str,
        retain_keys: bool,
    ) -> Result<Lists, Error> {
        if original.is_empty() {
            return Ok((modified.to_vec(), Vec::new(), Vec::new()));
        }
        let element = slice_element_type(&[original, modified]).map_err(|e| self.path.wrap(e))?;
        if element == Element::Map {
            let (patch, deletions) =
                self.diff_lists_of_maps(original, modified, schema, merge_key, retain_keys)?;
            let mut patch = merge::normalize_slice_order(patch, modified, merge_key, true)
                .map_err(|e| self.path.wrap(e))?;
            let order_same = self.is_order_same(original, modified, merge_key)?;
            patch.extend(deletions);
            let order = if !patch.is_empty() || !order_same {
                modified
                    .iter()
                    .map(|v| {
                        let mut entry = Map::new();
                        entry.insert(
                            merge_key.to_owned(),
                            v.get(merge_key).cloned().unwrap_or(Value::Null),
                        );
                        Value::Object(entry)
                    })
                    .collect()
            } else {
                Vec::new()
            };
            Ok((patch, Vec::new(), order))
        } else {
            let (patch, deletions, sorted_original) =
                diff_lists_of_scalars(original, modified).map_err(|e| self.path.wrap(e))?;
            let patch = merge::normalize_slice_order(patch, modified, merge_key, false)
                .map_err(|e| self.path.wrap(e))?;
            // Go sorted `original` in place: the comparison sees it sorted.
            let order = if !deletions.is_empty() || !lists_equal(&sorted_original, modified) {
                modified.to_vec()
            } else {
                Vec::new()
            };
            Ok((patch, deletions, order))
        }
    }

    /// `isOrderSame`.
    fn is_order_same(
        &self,
        original: &[Value],
        modified: &[Value],
        merge_key: &str,
    ) -> Result<bool, Error> {
        if original.len() != modified.len() {
            return Ok(false);
        }
        for (o, m) in original.iter().zip(modified) {
            if !merge::merge_key_value_equal(o, m, merge_key).map_err(|e| self.path.wrap(e))? {
                return Ok(false);
            }
        }
        Ok(true)
    }

    /// `diffListsOfMaps`: both lists sorted by their merge key's `%v`,
    /// walked together.
    fn diff_lists_of_maps(
        &mut self,
        original: &[Value],
        modified: &[Value],
        schema: Node<'_>,
        merge_key: &str,
        retain_keys: bool,
    ) -> Result<(Vec<Value>, Vec<Value>), Error> {
        let (original, modified) = (
            sorted_by_key(original, merge_key),
            sorted_by_key(modified, merge_key),
        );
        let mut patch = Vec::with_capacity(modified.len());
        let mut deletions = Vec::new();
        let (mut i, mut j) = (0, 0);
        loop {
            let (oi, mi) = (i < original.len(), j < modified.len());
            if !oi && !mi {
                break;
            }
            let o = if oi {
                Some(self.keyed(original[i], merge_key)?)
            } else {
                None
            };
            let m = if mi {
                Some(self.keyed(modified[j], merge_key)?)
            } else {
                None
            };
            match (o, m) {
                (Some((o_map, _, o_text)), Some((m_map, m_key, m_text))) if o_text == m_text => {
                    self.path.push(m_text.clone());
                    let value = self.diff_maps(o_map, m_map, schema, retain_keys);
                    self.path.pop();
                    let mut value = value?;
                    if !value.is_empty() {
                        value.insert(merge_key.to_owned(), m_key.clone());
                        patch.push(Value::Object(value));
                    }
                    i += 1;
                    j += 1;
                }
                (None, Some(_)) => {
                    patch.push(modified[j].clone());
                    j += 1;
                }
                (Some((_, _, o_text)), Some((_, _, m_text))) if o_text > m_text => {
                    patch.push(modified[j].clone());
                    j += 1;
                }
                (Some((_, o_key, _)), _) => {
                    let mut directive = Map::new();
                    directive.insert(merge_key.to_owned(), o_key.clone());
                    directive.insert(DIRECTIVE.to_owned(), Value::String(DELETE.to_owned()));
                    deletions.push(Value::Object(directive));
                    i += 1;
                }
                (None, None) => break,
            }
        }
        Ok((patch, deletions))
    }

    /// `getMapAndMergeKeyValueByIndex`, with the key's `%v`.
    fn keyed<'v>(
        &self,
        item: &'v Value,
        merge_key: &str,
    ) -> Result<(&'v Object, &'v Value, String), Error> {
        let Value::Object(map) = item else {
            return Err(self
                .path
                .fail(bad_arg_type("map[string]interface {}", item)));
        };
        let key = map
            .get(merge_key)
            .ok_or_else(|| self.path.fail(no_merge_key(item, merge_key)))?;
        Ok((map, key, sprint(key, Verb::V)))
    }
}

/// `sortMergeListsByNameArray` of a list of maps: sorted by the `%v` of
/// their merge key (`<nil>` when absent).
fn sorted_by_key<'v>(list: &'v [Value], merge_key: &str) -> Vec<&'v Value> {
    let mut list: Vec<&Value> = list.iter().collect();
    sort_le(&mut list, |v| {
        sprint(v.get(merge_key).unwrap_or(&Value::Null), Verb::V)
    });
    list
}

/// `diffListsOfScalars`: additions and (deduplicated) deletions, from both
/// lists sorted by `%v`; also the sorted original (Go sorts it in place).
fn diff_lists_of_scalars(original: &[Value], modified: &[Value]) -> Result<Lists, Error> {
    let sort = |list: &[Value]| {
        let mut list = list.to_vec();
        sort_le(&mut list, |v| sprint(v, Verb::V));
        list
    };
    let (original, modified) = (sort(original), sort(modified));
    let mut add = Vec::new();
    let mut delete = Vec::new();
    let (mut i, mut j) = (0, 0);
    loop {
        let (oi, mi) = (i < original.len(), j < modified.len());
        if !oi && !mi {
            break;
        }
        let o = oi.then(|| sprint(&original[i], Verb::V));
        let m = mi.then(|| sprint(&modified[j], Verb::V));
        match (o, m) {
            (Some(o), Some(m)) if o == m => {
                i += 1;
                j += 1;
            }
            (None, _) => {
                add.push(modified[j].clone());
                j += 1;
            }
            (Some(o), Some(m)) if o > m => {
                add.push(modified[j].clone());
                j += 1;
            }
            _ => {
                delete.push(original[i].clone());
                i += 1;
            }
        }
    }
    Ok((add, dedupe_scalars(delete)?, original))
}

fn maps_equal(a: &Object, b: &Object) -> bool {
    a.len() == b.len()
        && a.iter()
            .all(|(k, v)| b.get(k).is_some_and(|w| deep_equal(v, w)))
}

fn lists_equal(a: &[Value], b: &[Value]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| deep_equal(x, y))
}
