//! Walks old and new objects field by field and emits each field's ops by
//! its strategy.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap, HashSet};

use serde_json::{Map, Value};

use super::{
    merge, policy, surface, Body, Change, DiffError, Field, Options, Plan, PlannedOp, Precondition,
};
use crate::patch::{OpKind, Operation};
use crate::pointer::{escape, Pointer, PointerBuf};
use policy::{FieldKind, Strategy};

/// The most notes a plan lists (an object with thousands of fields that
/// each deserve one would otherwise print them all).
const MAX_NOTES: usize = crate::limits::PLAN_NOTES;

/// A value's canonical text (keys sorted, as serde_json's map keeps them;
/// `1` and `1.0` stay apart, as `Value`'s equality keeps them): equal
/// values have equal texts, so lists compare as sets in linear time.
fn canonical(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// How many times each element occurs.
fn counts(items: &[Value]) -> HashMap<String, usize> {
    let mut out = HashMap::with_capacity(items.len());
    for item in items {
        *out.entry(canonical(item)).or_insert(0) += 1;
    }
    out
}

/// The plan for `old` -> `new` (both objects) under `options`.
pub(super) fn plan(old: &Value, new: &Value, options: &Options) -> Result<Plan, DiffError> {
    let preset = options.policy.preset;
    let whole = preset.whole_object();
    let mut walker = Walker {
        options,
        path: PointerBuf::new(),
        ops: Vec::new(),
        fields: Vec::new(),
        notes: Vec::new(),
        noted: HashSet::new(),
        notes_left_out: 0,
        force_blind: whole.is_some(),
    };
    walker.object(old, new);
    let Walker {
        ops,
        fields,
        mut notes,
        notes_left_out,
        ..
    } = walker;
    if notes_left_out > 0 {
        notes.push(format!(
            "and {notes_left_out} more notes like these (the first {MAX_NOTES} are listed)"
        ));
    }
    let mut plan = Plan {
        preset,
        body: Body::JsonPatch(Vec::new()),
        fields,
        conflicts: Vec::new(),
        overwrites: Vec::new(),
        notes,
        kubernetes: options.kubernetes,
    };
    if ops
        .iter()
        .any(|p| p.op.op == OpKind::Test && p.op.value.as_ref().is_some_and(holds_null_element))
    {
        plan.notes.push(
            "a test value holds an array with a null element: kube-apiserver's JSON patch engine panics comparing it (HTTP 500)".to_owned(),
        );
    }
    match whole {
        None => {
            if options.explain {
                let (conflicts, overwrites) = surface(&ops);
                plan.conflicts = conflicts;
                plan.overwrites = overwrites;
            }
            plan.body = Body::JsonPatch(ops);
        }
        Some(Strategy::RvTest) => rv_test(&mut plan, old, ops),
        Some(Strategy::Update) => update(&mut plan, old, new),
        Some(Strategy::MergePatch) => merge_patch(&mut plan, old, new, options),
        Some(Strategy::StrategicMerge) => super::strategic::plan(&mut plan, old, new, options)?,
        Some(_) => apply_config(&mut plan, old, new, options),
    }
    Ok(plan)
}

/// True when `value` holds an array with a `null` element, at any depth.
fn holds_null_element(value: &Value) -> bool {
    match value {
        Value::Array(items) => items.iter().any(|v| v.is_null() || holds_null_element(v)),
        Value::Object(map) => map.values().any(holds_null_element),
        _ => false,
    }
}

fn resource_version(object: &Value) -> Option<&Value> {
    object.get("metadata")?.get("resourceVersion")
}

fn rv_test(plan: &mut Plan, old: &Value, ops: Vec<PlannedOp>) {
    if ops.is_empty() {
        plan.body = Body::JsonPatch(ops);
        return;
    }
    let rv = resource_version(old).cloned().unwrap_or(Value::Null);
    if rv.is_null() {
        plan.notes.push(
            "the old object has no metadata.resourceVersion: the leading test checks that it is still absent".to_owned(),
        );
    }
    let mut all = vec![PlannedOp {
        op: Operation::test("/metadata/resourceVersion", rv),
        reason: Cow::Borrowed(
            "optimistic lock: the patch applies only if nobody wrote the object since your read",
        ),
        field: PointerBuf::new(),
        strategy: Strategy::RvTest,
    }];
    all.extend(ops.into_iter().map(|mut planned| {
        if !planned.reason.is_empty() {
            planned.reason = Cow::Owned(format!(
                "{}; guarded by the resourceVersion test",
                planned.reason
            ));
        }
        planned.strategy = Strategy::RvTest;
        planned
    }));
    let (conflicts, overwrites) = surface(&all);
    plan.conflicts = conflicts;
    plan.overwrites = overwrites;
    plan.body = Body::JsonPatch(all);
}

fn update(plan: &mut Plan, old: &Value, new: &Value) {
    let mut body = new.clone();
    match resource_version(old) {
        Some(rv) => {
            if let Some(metadata) = body.get_mut("metadata").and_then(Value::as_object_mut) {
                metadata.insert("resourceVersion".to_owned(), rv.clone());
            }
        }
        None => plan.notes.push(
            "the old object has no metadata.resourceVersion: the server refuses an Update of a custom resource without one (422)".to_owned(),
        ),
    }
    plan.conflicts.push(Precondition {
        path: String::new(),
        reason: "any write to the object since your read changes resourceVersion: the Update gets 409 Conflict".to_owned(),
    });
    plan.body = Body::Update(body);
}

fn merge_patch(plan: &mut Plan, old: &Value, new: &Value, options: &Options) {
    let mut body = merge::diff(old, new);
    let nulls = merge::nulls_in(new);
    if !nulls.is_empty() {
        plan.notes.push(format!(
            "a merge patch cannot set a member to null (null deletes it): {} would be removed instead",
            nulls.join(", ")
        ));
    }
    let has_changes = body.as_object().is_some_and(|m| !m.is_empty());
    if options.merge_resource_version && has_changes {
        if let Some(rv) = resource_version(old) {
            let metadata = body.as_object_mut().map(|m| {
                m.entry("metadata")
                    .or_insert_with(|| Value::Object(Map::new()))
            });
            if let Some(Value::Object(metadata)) = metadata {
                metadata.insert("resourceVersion".to_owned(), rv.clone());
            }
            plan.conflicts.push(Precondition {
                path: String::new(),
                reason: "the body pins metadata.resourceVersion: any write since your read gets 409 Conflict".to_owned(),
            });
        }
    }
    for (path, reason) in merge::overwrites(&body) {
        plan.overwrites.push(super::Overwrite { path, reason });
    }
    plan.body = Body::MergePatch(body);
}

fn apply_config(plan: &mut Plan, old: &Value, new: &Value, options: &Options) {
    let mut config = Map::new();
    for key in ["apiVersion", "kind"] {
        if let Some(value) = new.get(key) {
            config.insert(key.to_owned(), value.clone());
        }
    }
    let mut identity = Map::new();
    for key in ["name", "namespace"] {
        if let Some(value) = new.get("metadata").and_then(|m| m.get(key)) {
            identity.insert(key.to_owned(), value.clone());
        }
    }
    config.insert("metadata".to_owned(), Value::Object(identity));
    let mut config = Value::Object(config);
    let mut released = Vec::new();
    for field in &plan.fields {
        let (before, after) = (field.path.resolve(old), field.path.resolve(new));
        let mut applied = |at: &Pointer, value: Value| {
            // The config is built from objects only: the fields' parents
            // are objects, so assigning cannot fail.
            let _ = at.assign(&mut config, value);
            let path = at.to_string();
            plan.conflicts.push(Precondition {
                reason: format!(
                    "409 Conflict (FieldManagerConflict) if another field manager owns {path} with another value, unless you force"
                ),
                path,
            });
        };
        match (field.kind, before, after) {
            // Maps are owned per key: only the keys this writer sets.
            (FieldKind::Map, before, Some(Value::Object(map))) => {
                let empty = Map::new();
                let old_map = before.and_then(Value::as_object).unwrap_or(&empty);
                for (key, value) in map {
                    if old_map.get(key) != Some(value) {
                        applied(&field.path.join(key), value.clone());
                    }
                }
                for key in old_map.keys().filter(|k| !map.contains_key(*k)) {
                    released.push(field.path.join(key).to_string());
                }
            }
            // Set-like lists are owned per element: only the elements it adds.
            (FieldKind::SetList, before, Some(Value::Array(items))) => {
                let empty = Vec::new();
                let old_items = before.and_then(Value::as_array).unwrap_or(&empty);
                let (old_set, new_set) = (counts(old_items), counts(items));
                let added: Vec<Value> = items
                    .iter()
                    .filter(|v| !old_set.contains_key(&canonical(v)))
                    .cloned()
                    .collect();
                if !added.is_empty() {
                    applied(&field.path, Value::Array(added));
                }
                for item in old_items
                    .iter()
                    .filter(|v| !new_set.contains_key(&canonical(v)))
                {
                    released.push(format!("{}[{}]", field.path, item));
                }
            }
            (_, _, Some(value)) if !value.is_null() => {
                applied(&field.path, value.clone());
            }
            _ => released.push(field.path.to_string()),
        }
    }
    if !released.is_empty() {
        plan.notes.push(format!(
            "omitting a field this manager applied before releases it (and deletes it when no other manager owns it): {}",
            released.join(", ")
        ));
    }
    plan.body = Body::Apply {
        config,
        field_manager: options.field_manager.clone(),
    };
}

struct Walker<'a> {
    options: &'a Options,
    path: PointerBuf,
    ops: Vec<PlannedOp>,
    fields: Vec<Field>,
    notes: Vec<String>,
    /// The notes so far, to keep each once in constant time.
    noted: HashSet<String>,
    /// Notes past [`MAX_NOTES`], counted.
    notes_left_out: usize,
    /// Whole-object strategies still list the changed fields; their ops are
    /// blind (rv-test guards them with one test).
    force_blind: bool,
}

/// The keys of two objects in sorted order, each with its value on either
/// side. serde_json's map is a BTreeMap, so this is a merge of two sorted
/// walks; a build that enables `preserve_order` gets a sorted key set.
fn union<'a>(
    old: &'a Map<String, Value>,
    new: &'a Map<String, Value>,
) -> Vec<(&'a String, Option<&'a Value>, Option<&'a Value>)> {
    if !(old.keys().is_sorted() && new.keys().is_sorted()) {
        // Inserted one by one: `collect` into a B-tree sorts a buffer
        // first, one more copy of the sort in the binary (`crate::sort`).
        let mut keys: BTreeSet<&String> = BTreeSet::new();
        keys.extend(old.keys().chain(new.keys()));
        return keys
            .into_iter()
            .map(|k| (k, old.get(k.as_str()), new.get(k.as_str())))
            .collect();
    }
    let mut out = Vec::with_capacity(old.len().max(new.len()));
    let (mut a, mut b) = (old.iter().peekable(), new.iter().peekable());
    loop {
        let order = match (a.peek(), b.peek()) {
            (Some((ka, _)), Some((kb, _))) => ka.cmp(kb),
            (Some(_), None) => std::cmp::Ordering::Less,
            (None, Some(_)) => std::cmp::Ordering::Greater,
            (None, None) => return out,
        };
        match order {
            std::cmp::Ordering::Less => {
                if let Some((k, v)) = a.next() {
                    out.push((k, Some(v), None));
                }
            }
            std::cmp::Ordering::Greater => {
                if let Some((k, v)) = b.next() {
                    out.push((k, None, Some(v)));
                }
            }
            std::cmp::Ordering::Equal => {
                if let (Some((k, va)), Some((_, vb))) = (a.next(), b.next()) {
                    out.push((k, Some(va), Some(vb)));
                }
            }
        }
    }
}

fn present(value: Option<&Value>) -> Option<&Value> {
    value.filter(|v| !v.is_null())
}

fn or_null(value: Option<&Value>) -> Value {
    value.cloned().unwrap_or(Value::Null)
}

/// Go's zero value, as JSON: absent, null, "", 0, false.
fn is_zero(value: Option<&Value>) -> bool {
    match value {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty(),
        Some(Value::Bool(b)) => !b,
        Some(Value::Number(n)) => n.as_f64() == Some(0.0),
        _ => false,
    }
}

impl Walker<'_> {
    fn here(&self) -> String {
        if self.path.is_root() {
            "the object".to_owned()
        } else {
            self.path.to_string()
        }
    }

    fn emit(&mut self, op: Operation, strategy: Strategy, reason: impl Into<Cow<'static, str>>) {
        let reason = if self.options.explain {
            reason.into()
        } else {
            Cow::Borrowed("")
        };
        self.ops.push(PlannedOp {
            op,
            reason,
            field: self.path.clone(),
            strategy,
        });
    }

    fn note(&mut self, note: String) {
        if !self.options.explain {
            return;
        }
        if self.notes.len() >= MAX_NOTES {
            self.notes_left_out += 1;
            return;
        }
        if self.noted.insert(note.clone()) {
            self.notes.push(note);
        }
    }

    /// Recurses into two objects, key by key in sorted order.
    fn object(&mut self, old: &Value, new: &Value) {
        let empty = Map::new();
        let old_map = old.as_object().unwrap_or(&empty);
        let new_map = new.as_object().unwrap_or(&empty);
        for (key, o, n) in union(old_map, new_map) {
            if o == n {
                continue;
            }
            self.path.push_back(key);
            self.field(o, n);
            self.path.pop_back();
        }
    }

    /// One field that differs.
    fn field(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let policy = &self.options.policy;
        let kind = policy.kind_at(&self.path, old, new);
        if kind == FieldKind::Ignored {
            let here = self.here();
            self.note(format!(
                "{here} is written by the server only: its change is not patched"
            ));
            return;
        }
        if kind == FieldKind::Object {
            if let (Some(o @ Value::Object(_)), Some(n @ Value::Object(_))) = (old, new) {
                self.object(o, n);
                return;
            }
        }
        let unit_kind = if kind == FieldKind::Object {
            FieldKind::Struct
        } else {
            kind
        };
        let mut strategy = policy.strategy_at(&self.path, unit_kind);
        if strategy.is_whole_object() {
            let here = self.here();
            self.note(format!(
                "{strategy} applies to the whole object, not to {here}: its ops are blind"
            ));
            strategy = Strategy::Blind;
        }
        if self.force_blind {
            strategy = Strategy::Blind;
        }
        let change = match (present(old), present(new)) {
            (None, _) => Change::Added,
            (_, None) if new.is_none() => Change::Removed,
            _ => Change::Modified,
        };
        self.fields.push(Field {
            path: self.path.clone(),
            kind: unit_kind,
            strategy,
            change,
        });
        self.unit(strategy, old, new);
    }

    fn unit(&mut self, strategy: Strategy, old: Option<&Value>, new: Option<&Value>) {
        match strategy {
            Strategy::WholeMap => self.whole_map(old, new),
            Strategy::PerKey => self.per_key(old, new),
            Strategy::AddOnly => self.add_only(old, new),
            Strategy::WholeSlice => self.whole_slice(old, new),
            Strategy::TestAdd => self.test_add(old, new),
            Strategy::Element => self.element(old, new),
            Strategy::TestReplace => self.test_replace(old, new),
            Strategy::AddIfAbsent => self.add_if_absent(old, new),
            Strategy::GuardedAdd => self.guarded_add(old, new),
            Strategy::PerField => self.per_field(old, new),
            _ => self.blind(old, new),
        }
    }

    /// Both values must be maps (or absent/null) for a map strategy.
    fn maps<'v>(
        &mut self,
        strategy: Strategy,
        old: Option<&'v Value>,
        new: Option<&'v Value>,
    ) -> bool {
        let ok = |v: Option<&Value>| matches!(v, None | Some(Value::Null | Value::Object(_)));
        if ok(old) && ok(new) {
            return true;
        }
        let here = self.here();
        self.note(format!(
            "{strategy} needs a map at {here}, which holds something else: test + replace instead"
        ));
        false
    }

    /// Both values must be lists (or absent/null) for a list strategy.
    fn lists(&mut self, strategy: Strategy, old: Option<&Value>, new: Option<&Value>) -> bool {
        let ok = |v: Option<&Value>| matches!(v, None | Some(Value::Null | Value::Array(_)));
        if ok(old) && ok(new) {
            return true;
        }
        let here = self.here();
        self.note(format!(
            "{strategy} needs a list at {here}, which holds something else: test + replace instead"
        ));
        false
    }

    /// Test the old value and remove the field (the new object lacks it).
    fn test_remove(&mut self, strategy: Strategy, old: Option<&Value>, what: &str) {
        let path = self.path.to_string();
        self.emit(
            Operation::test(path.clone(), or_null(old)),
            strategy,
            format!("the new object has no {what}: test the old one first"),
        );
        self.emit(
            Operation::remove(path),
            strategy,
            format!("then remove the {what}"),
        );
    }

    fn whole_map(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::WholeMap;
        if !self.maps(s, old, new) {
            return self.test_replace(old, new);
        }
        let path = self.path.to_string();
        match (old, new) {
            (_, None) => self.test_remove(s, old, "map"),
            (None, Some(new)) => self.emit(
                Operation::add(path, new.clone()),
                s,
                "the map is absent: add it whole (no test: a writer creating it at the same time is overwritten)",
            ),
            (Some(old), Some(new)) => {
                self.emit(
                    Operation::test(path.clone(), old.clone()),
                    s,
                    "test the whole map: a concurrent change to any key, even one this patch leaves alone, fails the patch",
                );
                self.emit(
                    Operation::replace(path, new.clone()),
                    s,
                    "replace the whole map with the new one",
                );
            }
        }
    }

    /// PR #18139's `GeneratePerKeyMapPatches`, op for op.
    fn per_key(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::PerKey;
        if !self.maps(s, old, new) {
            return self.test_replace(old, new);
        }
        let empty = Map::new();
        let old_map = old.and_then(Value::as_object).unwrap_or(&empty);
        let new_map = new.and_then(Value::as_object).unwrap_or(&empty);
        let path = self.path.to_string();
        if old_map.is_empty() {
            if present(new).is_none() {
                let here = self.here();
                self.note(format!(
                    "per-key never removes the map member itself: {here} stays as it is ({}) where the new object has none",
                    crate::gojson::to_string(&or_null(old))
                ));
                return;
            }
            let was = or_null(old);
            let shape = if was.is_null() { "absent" } else { "empty" };
            self.emit(
                Operation::test(path.clone(), was),
                s,
                format!("the map was {shape}: test that it still is, so a writer who created it meanwhile is not overwritten"),
            );
            self.emit(
                Operation::add(path, or_null(new)),
                s,
                "then add the whole map",
            );
            return;
        }
        let dropped_map = present(new).is_none();
        for (key, old_value) in old_map {
            let key_path = format!("{path}/{}", escape(key));
            match new_map.get(key) {
                None => {
                    let mut reason = "removed key: remove without test (fails if another writer already removed it)".to_owned();
                    if dropped_map {
                        reason.push_str(
                            "; KubeVirt never removes the map member itself, so it stays as {}",
                        );
                    }
                    self.emit(Operation::remove(key_path), s, reason);
                }
                Some(new_value) if new_value != old_value => {
                    self.emit(
                        Operation::test(key_path.clone(), old_value.clone()),
                        s,
                        "changed key: test its old value, so a concurrent change of this key fails instead of being overwritten",
                    );
                    self.emit(
                        Operation::replace(key_path, new_value.clone()),
                        s,
                        "then replace it",
                    );
                }
                Some(_) => {}
            }
        }
        for (key, value) in new_map {
            if !old_map.contains_key(key) {
                self.emit(
                    Operation::add(format!("{path}/{}", escape(key)), value.clone()),
                    s,
                    "new key: add without test; it cannot conflict with other writers' keys",
                );
            }
        }
        if dropped_map {
            let here = self.here();
            self.note(format!(
                "per-key never removes the map member itself: {here} stays as {{}} where the new object has none (KubeVirt's behaviour; the one exception to the round trip)"
            ));
        }
    }

    /// `SyncPodAnnotations`: add each differing key, never test or remove.
    fn add_only(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::AddOnly;
        if !self.maps(s, old, new) {
            return self.test_replace(old, new);
        }
        let path = self.path.to_string();
        let Some(new_value) = present(new) else {
            let here = self.here();
            self.note(format!("add-only never removes: {here} is left as it is"));
            return;
        };
        let Some(Value::Object(old_map)) = present(old) else {
            self.emit(
                Operation::add(path, new_value.clone()),
                s,
                "the map is absent: add it whole (no test)",
            );
            return;
        };
        let empty = Map::new();
        let new_map = new_value.as_object().unwrap_or(&empty);
        for (key, value) in new_map {
            if old_map.get(key) != Some(value) {
                self.emit(
                    Operation::add(format!("{path}/{}", escape(key)), value.clone()),
                    s,
                    "differing key: add without test; overwrites whatever another writer set for this key",
                );
            }
        }
        let kept: Vec<&str> = old_map
            .keys()
            .filter(|k| !new_map.contains_key(*k))
            .map(String::as_str)
            .collect();
        if !kept.is_empty() {
            let here = self.here();
            self.note(format!(
                "add-only never removes keys: {} stay in {here}",
                kept.join(", ")
            ));
        }
    }

    fn whole_slice(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::WholeSlice;
        if !self.lists(s, old, new) {
            return self.test_replace(old, new);
        }
        let Some(new) = new else {
            return self.test_remove(s, old, "list");
        };
        let path = self.path.to_string();
        let reason = if present(old).is_none() {
            "the list is absent: test null (kube-apiserver passes a null test on a missing member), then replace"
        } else {
            "test the whole list: JSON Patch cannot address list elements by a stable key"
        };
        self.emit(Operation::test(path.clone(), or_null(old)), s, reason);
        let reason = if present(old).is_none() {
            "replace of a missing member adds it on kube-apiserver (strict RFC 6902 would fail)"
        } else {
            "then replace the whole list"
        };
        self.emit(Operation::replace(path, new.clone()), s, reason);
    }

    fn test_add(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::TestAdd;
        let Some(new) = new else {
            return self.test_remove(s, old, "list");
        };
        let path = self.path.to_string();
        self.emit(
            Operation::test(path.clone(), or_null(old)),
            s,
            "guarded upsert: test the old value (null when absent)",
        );
        self.emit(
            Operation::add(path, new.clone()),
            s,
            "then add the new one (add creates or overwrites the member)",
        );
    }

    /// kube-runtime's finalizer style, per element.
    fn element(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::Element;
        if !self.lists(s, old, new) {
            return self.test_replace(old, new);
        }
        let empty = Vec::new();
        let old_items = old.and_then(Value::as_array).unwrap_or(&empty);
        let Some(new_items) = present(new).and_then(Value::as_array) else {
            let here = self.here();
            self.note(format!(
                "element ops cannot remove or null the list {here} itself: the whole list instead"
            ));
            return self.whole_slice(old, new);
        };
        let old_counts = counts(old_items);
        let new_counts = counts(new_items);
        let unique =
            |items: &[Value], counted: &HashMap<String, usize>| counted.len() == items.len();
        let in_new = |v: &Value| new_counts.contains_key(&canonical(v));
        let in_old = |v: &Value| old_counts.contains_key(&canonical(v));
        let kept: Vec<&Value> = old_items.iter().filter(|v| in_new(v)).collect();
        let added: Vec<&Value> = new_items.iter().filter(|v| !in_old(v)).collect();
        let expressible = unique(old_items, &old_counts)
            && unique(new_items, &new_counts)
            && kept
                .iter()
                .copied()
                .chain(added.iter().copied())
                .eq(new_items.iter());
        if !expressible {
            let here = self.here();
            self.note(format!(
                "element ops can only remove elements and append new ones; {here} is reordered or holds duplicates: test + replace of the whole list instead"
            ));
            return self.whole_slice(old, new);
        }
        let path = self.path.to_string();
        if present(old).is_none() {
            self.emit(
                Operation::test(path.clone(), Value::Null),
                s,
                "the list is absent: test that it still is",
            );
            self.emit(
                Operation::add(path, Value::Array(new_items.clone())),
                s,
                "then add it with the new elements",
            );
            return;
        }
        for (index, item) in old_items.iter().enumerate().rev() {
            if in_new(item) {
                continue;
            }
            let at = format!("{path}/{index}");
            self.emit(
                Operation::test(at.clone(), item.clone()),
                s,
                "test the element at its index, so another writer's element is never removed by mistake",
            );
            self.emit(
                Operation::remove(at),
                s,
                "then remove it (indices are handled from the end)",
            );
        }
        if !added.is_empty() {
            let current: Vec<Value> = kept.iter().map(|v| (*v).clone()).collect();
            self.emit(
                Operation::test(path.clone(), Value::Array(current)),
                s,
                "test the list, so an element another writer added meanwhile is not duplicated",
            );
            for item in added {
                self.emit(
                    Operation::add(format!("{path}/-"), item.clone()),
                    s,
                    "append the new element at '-'",
                );
            }
        }
    }

    fn test_replace(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::TestReplace;
        let Some(new) = new else {
            return self.test_remove(s, old, "field");
        };
        let path = self.path.to_string();
        self.emit(
            Operation::test(path.clone(), or_null(old)),
            s,
            "test the old value: a concurrent change fails the patch instead of being overwritten",
        );
        let reason = if old.is_none() {
            "then replace it (kube-apiserver adds a missing member on replace)"
        } else {
            "then replace it"
        };
        self.emit(Operation::replace(path, new.clone()), s, reason);
    }

    fn add_if_absent(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::AddIfAbsent;
        let Some(new) = new else {
            return self.test_remove(s, old, "field");
        };
        let path = self.path.to_string();
        match present(old) {
            None => self.emit(
                Operation::add(path, new.clone()),
                s,
                "the old value is absent or null: add without test (a first write; another writer's first write would be overwritten)",
            ),
            Some(old) => {
                self.emit(
                    Operation::test(path.clone(), old.clone()),
                    s,
                    "test the old value: a concurrent change fails the patch instead of being overwritten",
                );
                self.emit(Operation::replace(path, new.clone()), s, "then replace it");
            }
        }
    }

    fn guarded_add(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::GuardedAdd;
        let Some(new) = new else {
            return self.test_remove(s, old, "field");
        };
        let path = self.path.to_string();
        match present(old) {
            None => {
                self.emit(
                    Operation::test(path.clone(), Value::Null),
                    s,
                    "the old value is absent: test null (passes on a missing member on kube-apiserver), so a concurrent first write fails this one",
                );
                self.emit(Operation::add(path, new.clone()), s, "then add it");
            }
            Some(old) => {
                self.emit(
                    Operation::test(path.clone(), old.clone()),
                    s,
                    "test the old value: a concurrent change fails the patch instead of being overwritten",
                );
                self.emit(Operation::replace(path, new.clone()), s, "then replace it");
            }
        }
    }

    /// The synchronization controller's migrationState sync: per field,
    /// skip equal, add over a zero value, else test + replace.
    fn per_field(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::PerField;
        let (Some(Value::Object(old_map)), Some(Value::Object(new_map))) =
            (present(old), present(new))
        else {
            // No struct on one side: the struct is written as one unit.
            return self.add_if_absent(old, new);
        };
        let base = self.path.to_string();
        for (key, o, n) in union(old_map, new_map) {
            if o == n {
                continue;
            }
            let path = format!("{base}/{}", escape(key));
            match n {
                None => {
                    self.emit(
                        Operation::test(path.clone(), or_null(o)),
                        s,
                        "field dropped: test its old value",
                    );
                    self.emit(Operation::remove(path), s, "then remove it");
                }
                Some(n) if is_zero(o) => self.emit(
                    Operation::add(path, n.clone()),
                    s,
                    "the field held its zero value: add without test",
                ),
                Some(n) => {
                    self.emit(
                        Operation::test(path.clone(), or_null(o)),
                        s,
                        "test the field's old value",
                    );
                    self.emit(Operation::replace(path, n.clone()), s, "then replace it");
                }
            }
        }
    }

    fn blind(&mut self, old: Option<&Value>, new: Option<&Value>) {
        let s = Strategy::Blind;
        let path = self.path.to_string();
        match (old, new) {
            (_, None) => self.emit(
                Operation::remove(path),
                s,
                "remove without test: erases whatever is there now",
            ),
            (None, Some(new)) => self.emit(
                Operation::add(path, new.clone()),
                s,
                "add without test: overwrites whatever another writer put here",
            ),
            (Some(_), Some(new)) => self.emit(
                Operation::replace(path, new.clone()),
                s,
                "replace without test: overwrites any concurrent change here (last write wins)",
            ),
        }
    }
}
