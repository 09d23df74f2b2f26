//! Fixes as Go code: what to write instead, in the style the code already
//! uses (KubeVirt's builder, op literals, JSON text).

use super::value::{collection_at, HoleKind, OpT, Piece, Shape, Via};
use crate::lint::Rule;

fn uses_builder(op: &OpT) -> bool {
    matches!(op.via, Via::Builder { .. } | Via::Helper)
}

fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// The Go expression of an op's value (`<as read>` when unknown).
fn value_expr(op: &OpT) -> String {
    if !op.value_expr.is_empty() {
        return op.value_expr.clone();
    }
    match op.value.as_ref().and_then(|v| v.known_json()) {
        Some(v) => crate::gojson::to_string(&v),
        None => "old /* as read */".to_owned(),
    }
}

/// The path as a Go expression.
fn path_expr(op: &OpT, escape: &str) -> String {
    let mut parts = Vec::new();
    for piece in &op.path.pieces {
        match piece {
            Piece::Lit(s) => parts.push(quoted(s)),
            Piece::Hole(h) if h.kind == HoleKind::Text => {
                parts.push(format!("{escape}({})", h.expr))
            }
            Piece::Hole(h) if h.kind == HoleKind::Index => {
                parts.push(format!("strconv.Itoa({})", h.expr))
            }
            Piece::Hole(h) => parts.push(h.expr.clone()),
        }
    }
    parts.join(" + ")
}

/// The rewrite for a finding on `op` (`partner`: the write its `test`
/// guards).
pub fn for_op(rule: Rule, op: &OpT, partner: Option<&OpT>) -> String {
    let path = op.path.display();
    let builder = uses_builder(op);
    match rule {
        Rule::WholeMapTest => whole_map_test(op, partner, &path, builder),
        Rule::WholeListTest => {
            if builder {
                format!(
                    "// per element (safe to keep as is: a retry after a re-read works):\npatch.WithTest(fmt.Sprintf(\"{path}/%d\", i), old[i]),\npatch.WithRemove(fmt.Sprintf(\"{path}/%d\", i)),"
                )
            } else {
                format!(
                    "// per element (safe to keep as is: a retry after a re-read works):\nops = append(ops,\n\top{{Op: \"test\", Path: fmt.Sprintf(\"{path}/%d\", i), Value: old[i]}},\n\top{{Op: \"remove\", Path: fmt.Sprintf(\"{path}/%d\", i)}})"
                )
            }
        }
        Rule::WholeCollectionWrite => whole_collection_write(op, &path, builder),
        Rule::UnescapedSlash => unescaped_slash(op, &path, builder),
        Rule::IndexWithoutTest => {
            if builder {
                format!(
                    "// test the element you mean before writing it by index:\npatch.WithTest({p}, old[i] /* as read */),",
                    p = path_expr(op, "")
                )
            } else {
                format!(
                    "// test the element you mean before writing it by index:\nop{{Op: \"test\", Path: {}, Value: old[i] /* as read */}},",
                    path_expr(op, "")
                )
            }
        }
        Rule::AddWithoutTest | Rule::RemoveWithoutTest => {
            if builder {
                format!(
                    "// when another writer may own the key too, test its value as read first (nil: absent):\npatch.WithTest({}, old[key]),",
                    path_expr(op, "")
                )
            } else {
                format!(
                    "// when another writer may own the key too, test its value as read first (nil: absent):\nop{{Op: \"test\", Path: {}, Value: old[key]}},",
                    path_expr(op, "")
                )
            }
        }
        other => other.info().fix.to_owned(),
    }
}

/// One op per changed key instead of a test and a replace of the whole
/// map: `patch.GeneratePerKeyMapPatches` with the builder, a loop
/// otherwise.
fn whole_map_test(op: &OpT, partner: Option<&OpT>, path: &str, builder: bool) -> String {
    let old = value_expr(op);
    let new = partner.map(value_expr).unwrap_or_else(|| "new".to_owned());
    if builder {
        let call = format!(
            "patch.GeneratePerKeyMapPatches({}, {old}, {new})...",
            quoted(path)
        );
        let line = match &op.via {
            Via::Builder { recv: Some(recv) } => format!("{recv}.AddOption({call})"),
            _ => format!("patch.New({call})"),
        };
        format!(
            "// instead of WithTest + WithReplace of the whole map: one op per changed key\n// (PR #18139's helper for pkg/apimachinery/patch: add a new key with no test,\n// test + replace a changed key, remove a dropped key)\n{line}"
        )
    } else {
        format!(
            "// one op per changed key instead of test + replace of the whole map:\nesc := strings.NewReplacer(\"~\", \"~0\", \"/\", \"~1\")\nfor _, k := range sortedKeys(old, new) {{\n\tp := {} + \"/\" + esc.Replace(k)\n\tov, had := old[k]\n\tnv, has := new[k]\n\tswitch {{\n\tcase !had:\n\t\tops = append(ops, op{{Op: \"add\", Path: p, Value: nv}})\n\tcase !has:\n\t\tops = append(ops, op{{Op: \"remove\", Path: p}})\n\tcase ov != nv:\n\t\tops = append(ops, op{{Op: \"test\", Path: p, Value: ov}}, op{{Op: \"replace\", Path: p, Value: nv}})\n\t}}\n}}",
            quoted(path)
        )
    }
}

/// A whole map written per key, or a whole list or value guarded by a
/// test of it as read.
fn whole_collection_write(op: &OpT, path: &str, builder: bool) -> String {
    let new = value_expr(op);
    let list = collection_at(path) == Some(Shape::List);
    match (builder, list) {
        (true, false) => format!(
            "// per key, from the map as read (old) to the one wanted; an absent or\n// empty old map is tested (null or {{}}) before the add:\npatch.GeneratePerKeyMapPatches({}, old /* as read */, {new})...",
            quoted(path)
        ),
        (true, true) => format!(
            "// guard the write with the list as read (KubeVirt's getPatchFinalizerOps):\npatch.WithTest({p}, old /* as read; nil when absent */),\npatch.WithReplace({p}, {new}),",
            p = quoted(path)
        ),
        (false, _) => format!(
            "// guard the write with the value as read (a failed test is a 422: re-read, retry):\n[]map[string]any{{\n\t{{\"op\": \"test\", \"path\": {p}, \"value\": old /* as read; nil when absent */}},\n\t{{\"op\": \"{}\", \"path\": {p}, \"value\": {new}}},\n}}",
            op.kind.map_or("replace", |k| k.as_str()),
            p = quoted(path)
        ),
    }
}

/// The key escaped (`/` as ~1, `~` as ~0): by the code's escaper when the
/// path is built, written out when it is a literal.
fn unescaped_slash(op: &OpT, path: &str, builder: bool) -> String {
    let escape = if builder {
        "patch.EscapeJSONPointer"
    } else {
        "strings.NewReplacer(\"~\", \"~0\", \"/\", \"~1\").Replace"
    };
    if op.path.has_holes() {
        format!(
            "// escape the key (`/` as ~1, `~` as ~0):\npath := {}",
            path_expr(op, escape)
        )
    } else {
        format!(
            "// escape the key (`/` as ~1, `~` as ~0): {}",
            quoted(&crate::pointer::escape(
                path.trim_start_matches('/')
                    .split_once('/')
                    .map_or("", |(_, k)| k)
            ))
        )
    }
}

/// A JSON patch with a `test` inside `RetryOnConflict`.
pub fn retry_on_invalid() -> String {
    "// a failed test is 422 Invalid: re-read the object and rebuild the patch from it\n// (or return the error and let the work queue requeue the key)\nerr := retry.OnError(retry.DefaultRetry, apierrors.IsInvalid, func() error {\n\tcurrent, err := c.Get(ctx, name, metav1.GetOptions{})\n\tif err != nil {\n\t\treturn err\n\t}\n\tpayload, err := buildPatch(current) // tests hold the values just read\n\tif err != nil {\n\t\treturn err\n\t}\n\t_, err = c.Patch(ctx, name, types.JSONPatchType, payload, metav1.PatchOptions{})\n\treturn err\n})".to_owned()
}

/// A `MergeFrom` sending a list whole.
pub fn merge_from(base: &str) -> String {
    let base = if base.is_empty() { "base" } else { base };
    format!(
        "// pin the resourceVersion: a concurrent write is then a 409 you retry from a fresh read\npatch := client.MergeFromWithOptions({base}, client.MergeFromWithOptimisticLock{{}})\n// inside retry.RetryOnConflict: re-Get the object, redo the change, Patch again\n// (for built-in kinds, client.StrategicMergeFrom({base}) merges finalizers as a set instead)"
    )
}

/// A patch helper sending a changed list.
pub fn patch_helper(base: &str) -> String {
    let base = if base.is_empty() { "obj" } else { base };
    format!(
        "// the helper's merge patch carries no resourceVersion: change shared lists apart,\n// from a fresh read, with the resourceVersion pinned (a 409 you retry)\noriginal := {base}.DeepCopy()\ncontrollerutil.RemoveFinalizer({base}, finalizer)\nerr := c.Patch(ctx, {base}, client.MergeFromWithOptions(original, client.MergeFromWithOptimisticLock{{}}))"
    )
}

/// A merge body holding a list.
pub fn for_merge_body(rule: Rule, path: &str) -> String {
    match rule {
        Rule::MergeReplacesList => format!(
            "// a JSON patch that tests the list as read (422 when it changed: re-read, retry):\npayload, err := json.Marshal([]map[string]any{{\n\t{{\"op\": \"test\", \"path\": {p}, \"value\": old /* as read */}},\n\t{{\"op\": \"replace\", \"path\": {p}, \"value\": updated}},\n}})\n// sent with types.JSONPatchType; or keep the merge body and add\n// \"metadata\": {{\"resourceVersion\": <as read>}} (409 on a concurrent write)",
            p = quoted(path)
        ),
        other => other.info().fix.to_owned(),
    }
}
