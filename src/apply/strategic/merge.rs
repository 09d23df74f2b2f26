//! Applying a strategic merge patch: a port of `mergeMap` and its helpers
//! in k8s.io/apimachinery `pkg/util/strategicpatch/patch.go`, with the
//! options `StrategicMergeMapPatch` passes (`MergeParallelList` and
//! `IgnoreUnmatchedNulls` both true), function by function and in Go's
//! order of checks, so that the result and the first error are Go's.
//!
//! Two things are not Go's: the patch's keys are visited in sorted order
//! (Go's map order is random; see docs/fidelity.md for the one case where
//! that shows), and lookups in lists go through hash maps of first
//! positions, so a merge is near linear where Go's is quadratic.

use serde_json::{Map, Value};

use super::order::{self, Key, Positions};
use super::{Error, ErrorKind, Release};
use crate::gojson::{sprint, type_name_s, Verb};
use crate::schema::Node;

pub(crate) const DIRECTIVE: &str = "$patch";
pub(crate) const DELETE: &str = "delete";
pub(crate) const REPLACE: &str = "replace";
pub(crate) const MERGE: &str = "merge";
pub(crate) const RETAIN_KEYS: &str = "$retainKeys";
pub(crate) const DELETE_PREFIX: &str = "$deleteFromPrimitiveList";
pub(crate) const ORDER_PREFIX: &str = "$setElementOrder";

/// The deepest nesting merged or diffed (serde_json reads no deeper).
pub(crate) const MAX_DEPTH: usize = crate::limits::DEPTH;

/// `[]interface {}` as `reflect.TypeOf` names it.
const SLICE_TYPE: &str = "[]interface {}";
const MAP_TYPE: &str = "map[string]interface {}";

/// One merge: the release's rules, where the original's lists come
/// from, and where in the document it is.
pub(crate) struct Merger {
    pub(crate) release: Release,
    pub(crate) origin: Origin,
    /// The JSON pointer of the value being merged (for errors).
    pub(crate) path: super::Trail,
}

impl Merger {
    /// `mergeMap`.
    pub(crate) fn merge_map(
        &mut self,
        mut original: Map<String, Value>,
        mut patch: Map<String, Value>,
        schema: Node<'_>,
    ) -> Result<Map<String, Value>, Error> {
        if self.path.depth() > MAX_DEPTH {
            return Err(self.path.fail(ErrorKind::Unsupported(format!(
                "nesting deeper than {MAX_DEPTH}"
            ))));
        }
        if let Some(directive) = patch.get(DIRECTIVE) {
            return self.directive_in_map(directive.clone(), patch);
        }
        self.apply_retain_keys(&mut original, &mut patch)?;
        self.merge_patch_into_original(&mut original, &mut patch, schema)?;
        // The capacity of a list `deleteFromSlice` made (before its field
        // is merged, in this order of keys): the length it had.
        let mut capacities: std::collections::HashMap<String, usize> = Default::default();

        for (k, patch_v) in patch {
            let (key, is_delete_list) = self.field_of(k)?;
            if patch_v.is_null() {
                original.remove(&key);
                continue;
            }
            let Some(original_v) = original.remove(&key) else {
                if !is_delete_list {
                    self.take_patch_value(&mut original, key, patch_v);
                }
                continue;
            };
            if !crate::gojson::same_type(&original_v, &patch_v) {
                if is_delete_list {
                    original.insert(key, original_v);
                } else {
                    self.take_patch_value(&mut original, key, patch_v);
                }
                continue;
            }
            let merged = match (original_v, patch_v) {
                (Value::Object(original_map), Value::Object(patch_map)) => {
                    Value::Object(self.merge_field_map(&key, original_map, patch_map, schema)?)
                }
                (Value::Array(original_list), Value::Array(patch_list)) => {
                    let capacity = capacities
                        .remove(&key)
                        .unwrap_or_else(|| self.origin.capacity(original_list.len()));
                    if is_delete_list {
                        capacities.insert(key.clone(), original_list.len());
                    }
                    let original_list = Slice::new(original_list, capacity);
                    let field = (key.as_str(), is_delete_list);
                    Value::Array(self.merge_field_list(field, original_list, patch_list, schema)?)
                }
                // Two scalars of one type: the patch's.
                (_, scalar) => scalar,
            };
            original.insert(key, merged);
        }
        Ok(original)
    }

    /// The field a patch key merges into: the key, or the list a
    /// `$deleteFromPrimitiveList/<list>` deletes from (`preprocessDeletionListForMerging`).
    fn field_of(&self, key: String) -> Result<(String, bool), Error> {
        if !key.starts_with(DELETE_PREFIX) {
            return Ok((key, false));
        }
        let original_key = self.extract_key(&key, DELETE_PREFIX)?;
        Ok((
            if original_key.is_empty() {
                key
            } else {
                original_key
            },
            true,
        ))
    }

    /// `mergeMapHandler` for the field `key`: merged, or the patch's map
    /// where the field's strategy is `replace`.
    fn merge_field_map(
        &mut self,
        key: &str,
        original: Map<String, Value>,
        patch: Map<String, Value>,
        schema: Node<'_>,
    ) -> Result<Map<String, Value>, Error> {
        let (subschema, meta) = schema
            .lookup_struct(key)
            .map_err(|e| self.path.fail(ErrorKind::Lookup(e)))?;
        let (_, strategy) = self.retain_keys_strategy(meta.strategies)?;
        self.path.push(key);
        let merged = if strategy != REPLACE {
            self.merge_map(original, patch, subschema)
        } else {
            Ok(patch)
        };
        self.path.pop();
        merged
    }

    /// `mergeSliceHandler` for the field `key` (a `$deleteFromPrimitiveList`
    /// of it when `is_delete_list`).
    fn merge_field_list(
        &mut self,
        (key, is_delete_list): (&str, bool),
        original: Slice,
        patch: Vec<Value>,
        schema: Node<'_>,
    ) -> Result<Vec<Value>, Error> {
        let (subschema, meta) = schema
            .lookup_slice(key)
            .map_err(|e| self.path.fail(ErrorKind::Lookup(e)))?;
        let (_, strategy) = self.retain_keys_strategy(meta.strategies)?;
        self.path.push(key);
        let merged = self.merge_slice_handler(
            original,
            patch,
            subschema,
            strategy,
            meta.merge_key,
            is_delete_list,
        );
        self.path.pop();
        merged
    }

    /// A patch value taken as it is (the field is absent, or of another
    /// type): nulls inside it discarded, then directives removed (1.28
    /// and later; a value that is itself a directive is dropped).
    fn take_patch_value(&self, original: &mut Map<String, Value>, key: String, mut value: Value) {
        discard_null_values(&mut value);
        if self.release.removes_directives() {
            match remove_directives(value) {
                Some(v) => {
                    original.insert(key, v);
                }
                None => {
                    original.remove(&key);
                }
            }
        } else {
            original.insert(key, value);
        }
    }

    /// `handleDirectiveInMergeMap`.
    fn directive_in_map(
        &self,
        directive: Value,
        mut patch: Map<String, Value>,
    ) -> Result<Map<String, Value>, Error> {
        match directive.as_str() {
            Some(REPLACE) => {
                patch.remove(DIRECTIVE);
                Ok(patch)
            }
            Some(DELETE) => Ok(Map::new()),
            _ => Err(self.path.fail(bad_patch_type(&directive, &patch))),
        }
    }

    /// `extractKey`: the field after `<prefix>/`.
    fn extract_key(&self, key: &str, prefix: &str) -> Result<String, Error> {
        match key.split_once('/') {
            Some((head, rest)) if head == prefix => Ok(rest.to_owned()),
            _ => Err(self.path.fail(if prefix == DELETE_PREFIX {
                ErrorKind::BadPatchFormatForPrimitiveList
            } else {
                ErrorKind::BadPatchFormatForSetElementOrderList
            })),
        }
    }

    /// `extractRetainKeysPatchStrategy` of a `patchStrategy` tag.
    fn retain_keys_strategy<'s>(&self, strategies: &'s str) -> Result<(bool, &'s str), Error> {
        retain_keys_strategy(strategies).map_err(|e| self.path.fail(e))
    }

    /// `applyRetainKeysDirective` (merging, not combining patches).
    fn apply_retain_keys(
        &self,
        original: &mut Map<String, Value>,
        patch: &mut Map<String, Value>,
    ) -> Result<(), Error> {
        let Some(retain) = patch.remove(RETAIN_KEYS) else {
            return Ok(());
        };
        let Value::Array(list) = retain else {
            return Err(self.path.fail(ErrorKind::BadPatchFormatForRetainKeys));
        };
        let mut keep = std::collections::HashSet::with_capacity(list.len());
        for item in &list {
            // Go's map[interface{}]struct{}: a map or slice cannot be hashed.
            Key::of(item).map_err(|_| {
                self.path
                    .fail(ErrorKind::Panic("runtime error: hash of unhashable type"))
            })?;
            if let Value::String(s) = item {
                keep.insert(s.as_str());
            }
        }
        for (k, v) in patch.iter() {
            if v.is_null() || k.starts_with(DELETE_PREFIX) || k.starts_with(ORDER_PREFIX) {
                continue;
            }
            if !keep.contains(k.as_str()) {
                return Err(self.path.fail(ErrorKind::BadPatchFormatForRetainKeys));
            }
        }
        original.retain(|k, _| keep.contains(k.as_str()));
        Ok(())
    }

    /// `mergePatchIntoOriginal`: each `$setElementOrder/<field>` with its
    /// field, merged and ordered.
    fn merge_patch_into_original(
        &mut self,
        original: &mut Map<String, Value>,
        patch: &mut Map<String, Value>,
        schema: Node<'_>,
    ) -> Result<(), Error> {
        let keys: Vec<String> = patch
            .keys()
            .filter(|k| k.starts_with(ORDER_PREFIX))
            .cloned()
            .collect();
        for key in keys {
            let Some(order_value) = patch.remove(&key) else {
                continue;
            };
            let Value::Array(order) = order_value else {
                return Err(self.path.fail(bad_arg_type(SLICE_TYPE, &order_value)));
            };
            let original_key = self.extract_key(&key, ORDER_PREFIX)?;
            let original_list = match original.get(&original_key) {
                None => None,
                Some(Value::Array(list)) => Some(list.clone()),
                Some(other) => return Err(self.path.fail(bad_arg_type(SLICE_TYPE, other))),
            };
            let patch_list = match patch.get(&original_key) {
                None => None,
                Some(Value::Array(list)) => Some(list.clone()),
                Some(other) => return Err(self.path.fail(bad_arg_type(SLICE_TYPE, other))),
            };
            let (subschema, meta) = schema
                .lookup_slice(&original_key)
                .map_err(|e| self.path.fail(ErrorKind::Lookup(e)))?;
            let (_, strategy) = self.retain_keys_strategy(meta.strategies)?;
            let merge_key = meta.merge_key;
            self.path.push(original_key.clone());
            let result = self.ordered_list(
                original_list,
                patch_list,
                order,
                subschema,
                strategy,
                merge_key,
            );
            self.path.pop();
            if let Some(list) = result? {
                original.insert(original_key.clone(), Value::Array(list));
                patch.remove(&original_key);
            }
        }
        Ok(())
    }

    /// The body of `mergePatchIntoOriginal`'s loop for one list; `None`
    /// when neither side has the list.
    fn ordered_list(
        &mut self,
        original_list: Option<Vec<Value>>,
        patch_list: Option<Vec<Value>>,
        order: Vec<Value>,
        subschema: Node<'_>,
        strategy: &str,
        merge_key: &str,
    ) -> Result<Option<Vec<Value>>, Error> {
        let empty = Vec::new();
        self.validate_patch_with_order(patch_list.as_ref().unwrap_or(&empty), &order, merge_key)?;
        // Go finds the element type after merging; its error comes after
        // the merge's.
        let element = slice_element_type(&[
            original_list.as_deref().unwrap_or(&empty),
            patch_list.as_deref().unwrap_or(&empty),
        ]);
        let mut original_view = None;
        let merged = match (&original_list, patch_list) {
            (Some(list), None) => list.clone(),
            (None, Some(list)) => {
                if self.release.removes_directives() {
                    match remove_directives(Value::Array(list)) {
                        Some(Value::Array(list)) => list,
                        _ => Vec::new(),
                    }
                } else {
                    list
                }
            }
            (Some(list), Some(patch)) => {
                if strategy == MERGE {
                    let mut view = list.clone();
                    let capacity = self.origin.capacity(list.len());
                    let merged = self.merge_slice_viewed(
                        Slice::new(list.clone(), capacity),
                        patch,
                        subschema,
                        merge_key,
                        false,
                        Some(&mut view),
                    )?;
                    original_view = Some(view);
                    merged
                } else {
                    patch
                }
            }
            (None, None) => return Ok(None),
        };
        let (patch_items, server_only) = if merge_key.is_empty() {
            self.partition_primitives(merged, &order)?
        } else {
            self.partition_maps(merged, &order, merge_key)?
        };
        let maps = element.map_err(|e| self.path.wrap(e))? == Element::Map;
        let server_order = original_view.or(original_list).unwrap_or_default();
        self.normalize_element_order(
            patch_items,
            server_only,
            &order,
            &server_order,
            merge_key,
            maps,
        )
        .map(Some)
    }

    /// `validatePatchWithSetOrderList`: the patch's elements appear in the
    /// `$setElementOrder` list, in the same relative order.
    fn validate_patch_with_order(
        &self,
        patch: &[Value],
        order: &[Value],
        merge_key: &str,
    ) -> Result<(), Error> {
        if order.is_empty() || patch.is_empty() {
            return Ok(());
        }
        let non_delete: Vec<&Value> = if merge_key.is_empty() {
            patch.iter().collect()
        } else {
            let mut kept = Vec::new();
            for item in patch {
                let Value::Object(map) = item else {
                    return Err(self.path.fail(bad_arg_type(MAP_TYPE, item)));
                };
                if map.get(DIRECTIVE).and_then(Value::as_str) != Some(DELETE) {
                    kept.push(item);
                }
            }
            kept
        };
        let (mut pi, mut oi) = (0, 0);
        while pi < non_delete.len() && oi < order.len() {
            if non_delete[pi]
                .as_object()
                .is_some_and(|m| m.contains_key(DIRECTIVE))
            {
                pi += 1;
                continue;
            }
            if merge_key_value_equal(non_delete[pi], &order[oi], merge_key)
                .map_err(|e| self.path.wrap(e))?
            {
                pi += 1;
            }
            oi += 1;
        }
        if pi < non_delete.len() && oi >= order.len() {
            let list = Value::Array(patch.to_vec());
            let order = Value::Array(order.to_vec());
            return Err(self.path.fail(ErrorKind::Other(format!(
                "The order in patch list:\n{}\n doesn't match {ORDER_PREFIX} list:\n{}\n",
                sprint(&list, Verb::V),
                sprint(&order, Verb::V)
            ))));
        }
        Ok(())
    }

    /// `mergeSliceHandler`: merge when the strategy says so (or, from
    /// 1.28, for a `$deleteFromPrimitiveList`), else take the patch's list.
    fn merge_slice_handler(
        &mut self,
        original: Slice,
        patch: Vec<Value>,
        schema: Node<'_>,
        strategy: &str,
        merge_key: &str,
        is_delete_list: bool,
    ) -> Result<Vec<Value>, Error> {
        if strategy == MERGE || (is_delete_list && self.release.removes_directives()) {
            self.merge_slice(original, patch, schema, merge_key, is_delete_list)
        } else {
            Ok(patch)
        }
    }

    /// `mergeSlice`.
    fn merge_slice(
        &mut self,
        original: Slice,
        patch: Vec<Value>,
        schema: Node<'_>,
        merge_key: &str,
        is_delete_list: bool,
    ) -> Result<Vec<Value>, Error> {
        self.merge_slice_viewed(original, patch, schema, merge_key, is_delete_list, None)
    }

    /// `mergeSlice`; with `view`, also what the caller's slice of the
    /// original shows afterwards. Go merges a list of maps in the
    /// original's backing array: each `$patch: delete` shifts the
    /// elements after it left (the last one stays behind, stale), and
    /// appended patch elements fill the slots freed. A caller holding the
    /// original slice (`mergePatchIntoOriginal`) orders by that changed
    /// view. Scalars are merged by `append(original, patch...)`, in the
    /// original's backing array when the patch fits its spare capacity,
    /// and `deduplicateScalars` then rewrites that array: the original
    /// slice, which orders the result, reads the rewritten elements.
    fn merge_slice_viewed(
        &mut self,
        original: Slice,
        patch: Vec<Value>,
        schema: Node<'_>,
        merge_key: &str,
        is_delete_list: bool,
        view: Option<&mut Vec<Value>>,
    ) -> Result<Vec<Value>, Error> {
        let Slice {
            items: original,
            capacity,
        } = original;
        if original.is_empty() && patch.is_empty() {
            return Ok(original);
        }
        let element = slice_element_type(&[&original, &patch]).map_err(|e| self.path.wrap(e))?;
        let (merged, patch, server_order) = if element != Element::Map {
            if is_delete_list {
                return delete_from_slice(original, &patch).map_err(|e| self.path.wrap(e));
            }
            let (merged, server_order) =
                merge_scalars(original, &patch, capacity).map_err(|e| self.path.wrap(e))?;
            if let Some(view) = view {
                view.clone_from(&server_order);
            }
            (merged, patch, server_order)
        } else {
            if merge_key.is_empty() {
                return Err(self.path.fail(ErrorKind::Other(format!(
                    "cannot merge lists without merge key for {}",
                    schema.go_kind()
                ))));
            }
            let before = view.is_some().then(|| original.clone());
            let special = self.merge_with_special_elements(original, patch, merge_key)?;
            let kept = special.original.len();
            let merged = self.merge_without_special_elements(
                special.original.clone(),
                &special.patch,
                merge_key,
                schema,
            )?;
            if let (Some(view), Some(before)) = (view, before) {
                let appended = if special.replaced {
                    &[][..]
                } else {
                    &merged[kept..]
                };
                *view = backing_view(before, &special.removals, appended);
            }
            (merged, special.patch, special.original)
        };
        let (patch_items, server_only) = if merge_key.is_empty() {
            self.partition_primitives(merged, &patch)?
        } else {
            self.partition_maps(merged, &patch, merge_key)?
        };
        self.normalize_element_order(
            patch_items,
            server_only,
            &patch,
            &server_order,
            merge_key,
            element == Element::Map,
        )
    }

    /// `mergeSliceWithSpecialElements`: `$patch: delete` elements delete
    /// the original's elements with their key, `$patch: replace` makes the
    /// patch's other elements the list.
    fn merge_with_special_elements(
        &self,
        original: Vec<Value>,
        patch: Vec<Value>,
        merge_key: &str,
    ) -> Result<Special, Error> {
        let mut plain = Vec::with_capacity(patch.len());
        let mut replace = false;
        // The keys to delete, in the order the directives come.
        let mut delete: Vec<Key> = Vec::new();
        let mut delete_uncomparable: Vec<&'static str> = Vec::new();
        for item in patch {
            let directive = match &item {
                Value::Object(map) => {
                    map.get(DIRECTIVE)
                        .map(|directive| match directive.as_str() {
                            Some(DELETE) => match map.get(merge_key) {
                                Some(value) => {
                                    match Key::of(value) {
                                        Ok(key) => delete.push(key),
                                        Err(_) => delete_uncomparable.push(if value.is_array() {
                                            SLICE_TYPE
                                        } else {
                                            MAP_TYPE
                                        }),
                                    }
                                    Ok(())
                                }
                                None => Err(no_merge_key(&item, merge_key)),
                            },
                            Some(REPLACE) => {
                                replace = true;
                                Ok(())
                            }
                            Some(MERGE) => Err(ErrorKind::Other(
                                "merging lists cannot yet be specified in the patch".to_owned(),
                            )),
                            _ => Err(bad_patch_type(directive, map)),
                        })
                }
                // Every element is a map (the element type was checked).
                _ => None,
            };
            match directive {
                None => plain.push(item),
                Some(Ok(())) => {}
                Some(Err(kind)) => return Err(self.path.fail(kind)),
            }
        }
        let removals =
            self.deleted_positions(&original, merge_key, &delete, &delete_uncomparable)?;
        if replace {
            return Ok(Special {
                original: plain,
                patch: Vec::new(),
                removals,
                replaced: true,
            });
        }
        let original = if removals.is_empty() {
            original
        } else {
            let mut gone = vec![false; original.len()];
            for &i in &removals {
                gone[i] = true;
            }
            original
                .into_iter()
                .zip(gone)
                .filter_map(|(item, gone)| (!gone).then_some(item))
                .collect()
        };
        Ok(Special {
            original,
            patch: plain,
            removals,
            replaced: false,
        })
    }

    /// The positions in `original` of the elements the `$patch: delete`
    /// directives delete: Go deletes every element with the first
    /// directive's key, left to right, then the next directive's. An
    /// uncomparable key (a list or map) fails when a directive has one of
    /// that type.
    fn deleted_positions(
        &self,
        original: &[Value],
        merge_key: &str,
        delete: &[Key],
        delete_uncomparable: &[&'static str],
    ) -> Result<Vec<usize>, Error> {
        let mut removals = Vec::new();
        if !delete.is_empty() || !delete_uncomparable.is_empty() {
            let mut at: std::collections::HashMap<Key, Vec<usize>> =
                std::collections::HashMap::new();
            for (i, item) in original.iter().enumerate() {
                if let Some(value) = item.get(merge_key) {
                    match Key::of(value) {
                        Ok(key) => at.entry(key).or_default().push(i),
                        Err(err) => {
                            let kind = if value.is_array() {
                                SLICE_TYPE
                            } else {
                                MAP_TYPE
                            };
                            if delete_uncomparable.contains(&kind) {
                                return Err(self.path.wrap(err));
                            }
                        }
                    }
                }
            }
            for key in delete {
                if let Some(positions) = at.remove(key) {
                    removals.extend(positions);
                }
            }
        }
        Ok(removals)
    }

    /// `mergeSliceWithoutSpecialElements`: each patch element merged into
    /// the first original element with its key, or appended.
    fn merge_without_special_elements(
        &mut self,
        mut original: Vec<Value>,
        patch: &[Value],
        merge_key: &str,
        schema: Node<'_>,
    ) -> Result<Vec<Value>, Error> {
        let (mut first, mut uncomparable) = first_keys(&original, merge_key);
        for item in patch {
            let Some(value) = item.get(merge_key) else {
                return Err(self.path.fail(no_merge_key(item, merge_key)));
            };
            let key = match Key::of(value) {
                Ok(key) => key,
                Err(err) => {
                    if uncomparable[usize::from(value.is_array())] {
                        return Err(self.path.wrap(err));
                    }
                    uncomparable[usize::from(value.is_array())] = true;
                    original.push(item.clone());
                    continue;
                }
            };
            match first.get(&key) {
                Some(&at) => {
                    // Both are maps: every element is one (the element
                    // type was checked).
                    if let (Value::Object(o), Value::Object(p)) =
                        (original[at].take(), item.clone())
                    {
                        self.path.push(at.to_string());
                        let merged = self.merge_map(o, p, schema);
                        self.path.pop();
                        original[at] = Value::Object(merged?);
                    }
                }
                None => {
                    first.insert(key, original.len());
                    original.push(item.clone());
                }
            }
        }
        Ok(original)
    }

    /// `partitionPrimitivesByPresentInList`.
    fn partition_primitives(
        &self,
        merged: Vec<Value>,
        by: &[Value],
    ) -> Result<(Vec<Value>, Vec<Value>), Error> {
        let hash_panic = || {
            self.path
                .fail(ErrorKind::Panic("runtime error: hash of unhashable type"))
        };
        let mut present = std::collections::HashSet::with_capacity(by.len());
        for item in by {
            present.insert(Key::of(item).map_err(|_| hash_panic())?);
        }
        let mut in_patch = Vec::new();
        let mut server_only = Vec::new();
        for item in merged {
            if present.contains(&Key::of(&item).map_err(|_| hash_panic())?) {
                in_patch.push(item);
            } else {
                server_only.push(item);
            }
        }
        Ok((in_patch, server_only))
    }

    /// `partitionMapsByPresentInList`.
    fn partition_maps(
        &self,
        merged: Vec<Value>,
        by: &[Value],
        merge_key: &str,
    ) -> Result<(Vec<Value>, Vec<Value>), Error> {
        // Go scans `by` for each element and fails at the first element
        // that is no map, unless it found the key before it.
        let first_non_map = by.iter().position(|v| !v.is_object());
        let scanned = &by[..first_non_map.unwrap_or(by.len())];
        let (first, uncomparable) = first_keys(scanned, merge_key);
        let mut in_patch = Vec::new();
        let mut server_only = Vec::new();
        for item in merged {
            if !item.is_object() {
                return Err(self.path.fail(bad_arg_type(MAP_TYPE, &item)));
            }
            let Some(value) = item.get(merge_key) else {
                return Err(self.path.fail(no_merge_key(&item, merge_key)));
            };
            let found = match Key::of(value) {
                Ok(key) => first.get(&key).copied(),
                Err(err) => {
                    if uncomparable[usize::from(value.is_array())] {
                        return Err(self.path.wrap(err));
                    }
                    None
                }
            };
            if found.is_none() {
                if let Some(at) = first_non_map {
                    return Err(self
                        .path
                        .fail(ErrorKind::Other(format!("value for key {at} is not a map"))));
                }
                server_only.push(item);
            } else {
                in_patch.push(item);
            }
        }
        Ok((in_patch, server_only))
    }

    /// `normalizeElementOrder`: the patch's elements in the patch's
    /// order, the others in the original's, then interleaved.
    fn normalize_element_order(
        &self,
        patch: Vec<Value>,
        server_only: Vec<Value>,
        patch_order: &[Value],
        server_order: &[Value],
        merge_key: &str,
        maps: bool,
    ) -> Result<Vec<Value>, Error> {
        let patch = self.normalize_slice_order(patch, patch_order, merge_key, maps)?;
        let server_only = self.normalize_slice_order(server_only, server_order, merge_key, maps)?;
        merge_sorted(server_only, patch, server_order, merge_key, maps)
            .map_err(|e| self.path.wrap(e))
    }

    /// `normalizeSliceOrder` (see [`normalize_slice_order`]).
    fn normalize_slice_order(
        &self,
        to_sort: Vec<Value>,
        order: &[Value],
        merge_key: &str,
        maps: bool,
    ) -> Result<Vec<Value>, Error> {
        normalize_slice_order(to_sort, order, merge_key, maps).map_err(|e| self.path.wrap(e))
    }
}

/// `normalizeSliceOrder`: sorted by position in `order` (Go's stable
/// sort, with its comparator), `$patch: delete` elements last.
pub(crate) fn normalize_slice_order(
    to_sort: Vec<Value>,
    order: &[Value],
    merge_key: &str,
    maps: bool,
) -> Result<Vec<Value>, Error> {
    let (to_sort, to_delete) = if maps {
        for list in [&to_sort[..], order] {
            for item in list {
                if !item.is_object() {
                    return Err(Error::new(bad_arg_type(MAP_TYPE, item)));
                }
                if item.get(merge_key).is_none() {
                    return Err(Error::new(no_merge_key(item, merge_key)));
                }
            }
        }
        to_sort
            .into_iter()
            .partition(|v| v.get(DIRECTIVE).and_then(Value::as_str) != Some(DELETE))
    } else {
        (to_sort, Vec::new())
    };
    let positions = Positions::new(order, merge_key, maps)?;
    let mut keyed = Vec::with_capacity(to_sort.len());
    for item in to_sort {
        let at = positions.index(&item, merge_key, maps)?;
        keyed.push((at, item));
    }
    order::stable(&mut keyed, |a, b| match (a.0, b.0) {
        (Some(i), Some(j)) => i < j,
        _ => true,
    });
    let mut out: Vec<Value> = keyed.into_iter().map(|(_, v)| v).collect();
    out.extend(to_delete);
    Ok(out)
}

/// Where the original object's lists come from, which decides when
/// Go's `append(original, patch...)` in `mergeSlice` writes into the
/// original's backing array (a list's spare capacity).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Origin {
    /// kube-apiserver: the object is the watch cache's deep copy, whose
    /// slices have no spare capacity (`DeepCopyInto` makes them of their
    /// length, and `ToUnstructured` keeps a slice's capacity).
    #[default]
    Server,
    /// kubectl (`patch --local`, and the client side of `apply`): the
    /// object decoded from JSON, each list grown by `append` one element
    /// at a time (Go 1.23's growth and size classes).
    Decoded,
}

impl Origin {
    /// The capacity of an original list of `len` elements.
    pub(crate) fn capacity(self, len: usize) -> usize {
        match self {
            Origin::Server => len,
            Origin::Decoded => order::appended_capacity(len),
        }
    }
}

/// A list of the original with the capacity of its Go slice.
pub(crate) struct Slice {
    items: Vec<Value>,
    capacity: usize,
}

impl Slice {
    pub(crate) fn new(items: Vec<Value>, capacity: usize) -> Slice {
        Slice { items, capacity }
    }
}

/// `both := append(original, patch...); merged = deduplicateScalars(both)`:
/// the merged scalars, and what the original slice then reads (its own
/// elements, or, where the patch fit its spare capacity, the first
/// elements of the array `deduplicateScalars` rewrote).
fn merge_scalars(
    original: Vec<Value>,
    patch: &[Value],
    capacity: usize,
) -> Result<(Vec<Value>, Vec<Value>), Error> {
    let n = original.len();
    let shared = n + patch.len() <= capacity;
    let mut both = original.clone();
    both.extend(patch.iter().cloned());
    let (mut backing, len) = order::dedupe_in_place(both)?;
    let server_order = if shared {
        backing[..n].to_vec()
    } else {
        original
    };
    backing.truncate(len);
    Ok((backing, server_order))
}

/// What `mergeSliceWithSpecialElements` leaves: the original (or, with
/// `$patch: replace`, the patch's plain elements), the patch's plain
/// elements, and the original's elements deleted, in Go's order.
struct Special {
    original: Vec<Value>,
    patch: Vec<Value>,
    removals: Vec<usize>,
    replaced: bool,
}

/// What a slice of the original (its first `before.len()` elements) shows
/// after Go removed `removals` one by one in its backing array (each
/// removal shifts the rest left and leaves the last element behind) and
/// appended `appended` into the freed slots.
fn backing_view(before: Vec<Value>, removals: &[usize], appended: &[Value]) -> Vec<Value> {
    let n = before.len();
    if removals.is_empty() {
        return before;
    }
    let mut gone = vec![false; n];
    let mut stale: Vec<Option<usize>> = vec![None; n];
    let mut last = n;
    for (t, &r) in removals.iter().enumerate() {
        // Before this removal the list ends with the last element not
        // removed yet; it stays behind at the position the list shrinks
        // from.
        while last > 0 && gone[last - 1] {
            last -= 1;
        }
        if last > 0 {
            stale[n - 1 - t] = Some(last - 1);
        }
        gone[r] = true;
    }
    let kept: Vec<usize> = (0..n).filter(|&i| !gone[i]).collect();
    let mut view = Vec::with_capacity(n);
    for &i in &kept {
        view.push(before[i].clone());
    }
    let mut appended = appended.iter();
    for slot in stale.iter().skip(kept.len()) {
        match appended.next() {
            Some(item) => view.push(item.clone()),
            None => view.push(slot.map_or(Value::Null, |i| before[i].clone())),
        }
    }
    view
}

/// `mergeSortedSlice`: takes from `left` (the server's elements) while
/// its head comes before `right`'s head in the original list, else from
/// `right` (the patch's).
fn merge_sorted(
    left: Vec<Value>,
    right: Vec<Value>,
    server_order: &[Value],
    merge_key: &str,
    maps: bool,
) -> Result<Vec<Value>, Error> {
    if left.is_empty() || right.is_empty() {
        let mut out = left;
        out.extend(right);
        return Ok(out);
    }
    let positions = Positions::new(server_order, merge_key, maps)?;
    let place = |list: &[Value]| -> Result<Vec<Option<usize>>, Error> {
        list.iter()
            .map(|v| positions.index(v, merge_key, maps))
            .collect()
    };
    let (lp, rp) = (place(&left)?, place(&right)?);
    let mut out = Vec::with_capacity(left.len() + right.len());
    let mut left = left.into_iter().zip(lp).peekable();
    let mut right = right.into_iter().zip(rp).peekable();
    loop {
        let take_left = match (left.peek(), right.peek()) {
            (None, None) => break,
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (Some((_, l)), Some((_, r))) => matches!((l, r), (Some(l), Some(r)) if l < r),
        };
        let next = if take_left { left.next() } else { right.next() };
        if let Some((v, _)) = next {
            out.push(v);
        }
    }
    Ok(out)
}

/// What `sliceElementType` finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Element {
    Map,
    Scalar,
}

/// `sliceElementType`: every element of the lists has one Go type, not a
/// slice.
pub(crate) fn slice_element_type(lists: &[&[Value]]) -> Result<Element, Error> {
    let mut previous: Option<&Value> = None;
    for list in lists {
        for item in *list {
            match previous {
                None => {
                    match item {
                        // Go calls Kind() on a nil reflect.Type.
                        Value::Null => {
                            return Err(Error::new(ErrorKind::Panic(
                                "runtime error: invalid memory address or nil pointer dereference",
                            )))
                        }
                        Value::Array(_) => return Err(Error::new(ErrorKind::NoListOfLists)),
                        _ => {}
                    }
                    previous = Some(item);
                }
                Some(prev) => {
                    if !crate::gojson::same_type(prev, item) {
                        let all: Vec<Value> =
                            lists.iter().map(|l| Value::Array(l.to_vec())).collect();
                        return Err(Error::new(ErrorKind::Other(format!(
                            "list element types are not identical: {}",
                            sprint(&Value::Array(all), Verb::V)
                        ))));
                    }
                }
            }
        }
    }
    match previous {
        None => Err(Error::new(ErrorKind::Other(
            "no elements in any of the given slices".to_owned(),
        ))),
        Some(Value::Object(_)) => Ok(Element::Map),
        Some(_) => Ok(Element::Scalar),
    }
}

/// The first position of each merge key value in a list of maps, and
/// whether a map (`[0]`) or a list (`[1]`) is among the values (Go panics
/// comparing two of those).
fn first_keys(
    list: &[Value],
    merge_key: &str,
) -> (std::collections::HashMap<Key, usize>, [bool; 2]) {
    let mut first = std::collections::HashMap::with_capacity(list.len());
    let mut uncomparable = [false; 2];
    for (i, item) in list.iter().enumerate() {
        if let Some(value) = item.get(merge_key) {
            match Key::of(value) {
                Ok(key) => {
                    first.entry(key).or_insert(i);
                }
                Err(_) => uncomparable[usize::from(value.is_array())] = true,
            }
        }
    }
    (first, uncomparable)
}

/// `mergeKeyValueEqual`: two maps' merge key values `==` (the elements
/// themselves when there is no merge key).
pub(crate) fn merge_key_value_equal(
    left: &Value,
    right: &Value,
    merge_key: &str,
) -> Result<bool, Error> {
    if merge_key.is_empty() {
        return crate::gojson::go_eq(left, right).ok_or_else(|| order::uncomparable(left));
    }
    let Value::Object(l) = left else {
        return Err(Error::new(bad_arg_type(MAP_TYPE, left)));
    };
    let Value::Object(r) = right else {
        return Err(Error::new(bad_arg_type(MAP_TYPE, right)));
    };
    let lk = l
        .get(merge_key)
        .ok_or_else(|| Error::new(no_merge_key(left, merge_key)))?;
    let rk = r
        .get(merge_key)
        .ok_or_else(|| Error::new(no_merge_key(right, merge_key)))?;
    crate::gojson::go_eq(lk, rk).ok_or_else(|| order::uncomparable(lk))
}

/// `extractRetainKeysPatchStrategy`: whether the `patchStrategy` tag
/// holds `retainKeys`, and its other strategy.
pub(crate) fn retain_keys_strategy(strategies: &str) -> Result<(bool, &str), ErrorKind> {
    let parts: Vec<&str> = strategies.split(',').collect();
    match parts[..] {
        ["retainKeys"] => Ok((true, "")),
        [one] => Ok((false, one)),
        ["retainKeys", other] | [other, "retainKeys"] => Ok((true, other)),
        _ => Err(ErrorKind::Other(format!(
            "unexpected patch strategy: [{}]",
            parts.join(" ")
        ))),
    }
}

/// `deleteFromSlice`: the elements not in `to_delete`, in order.
fn delete_from_slice(current: Vec<Value>, to_delete: &[Value]) -> Result<Vec<Value>, Error> {
    let unhashable = || Error::new(ErrorKind::Panic("runtime error: hash of unhashable type"));
    let mut gone = std::collections::HashSet::with_capacity(to_delete.len());
    for item in to_delete {
        gone.insert(Key::of(item).map_err(|_| unhashable())?);
    }
    let mut out = Vec::with_capacity(current.len());
    for item in current {
        if !gone.contains(&Key::of(&item).map_err(|_| unhashable())?) {
            out.push(item);
        }
    }
    Ok(out)
}

/// `discardNullValuesFromPatch`: null members of maps (at any depth,
/// also in maps inside lists) removed.
pub(crate) fn discard_null_values(value: &mut Value) {
    match value {
        Value::Object(map) => {
            map.retain(|_, v| !v.is_null());
            for v in map.values_mut() {
                discard_null_values(v);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(discard_null_values),
        _ => {}
    }
}

/// `removeDirectives`: maps holding `$patch` removed (at any depth);
/// `None` when the value itself is one.
pub(crate) fn remove_directives(value: Value) -> Option<Value> {
    match value {
        Value::Object(map) => {
            if map.contains_key(DIRECTIVE) {
                return None;
            }
            let mut out = Map::new();
            for (k, v) in map {
                if let Some(v) = remove_directives(v) {
                    out.insert(k, v);
                }
            }
            Some(Value::Object(out))
        }
        Value::Array(items) => Some(Value::Array(
            items.into_iter().filter_map(remove_directives).collect(),
        )),
        other => Some(other),
    }
}

/// `mergepatch.ErrNoMergeKey`.
pub(crate) fn no_merge_key(map: &Value, key: &str) -> ErrorKind {
    ErrorKind::NoMergeKey {
        map: sprint(map, Verb::V),
        key: key.to_owned(),
    }
}

/// `mergepatch.ErrBadArgType(expected, actual)`.
pub(crate) fn bad_arg_type(expected: &'static str, actual: &Value) -> ErrorKind {
    ErrorKind::Other(format!(
        "expected a {expected}, but received a {}",
        type_name_s(actual)
    ))
}

/// `mergepatch.ErrBadPatchType(t, m)`: `unknown patch type: %s in map: %v`.
fn bad_patch_type(directive: &Value, map: &Map<String, Value>) -> ErrorKind {
    ErrorKind::Other(format!(
        "unknown patch type: {} in map: {}",
        sprint(directive, Verb::S),
        sprint(&Value::Object(map.clone()), Verb::V)
    ))
}
