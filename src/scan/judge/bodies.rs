//! Bodies judged: a merge or strategic merge body the code writes, the
//! merge patch a `MergeFrom` (or a patch helper) sends of what changed
//! since its base was copied, and a body Go's `fmt` spoils.

use std::collections::HashSet;

use serde_json::{json, Map, Value};

use super::show::show_val;
use super::standins::{stand_in_body, Standins};
use super::Found;
use crate::lint::kinds::Resource;
use crate::lint::{self, BodyKind, Input, Options, Origin, Rule};
use crate::pointer::Pointer;
use crate::scan::eval::{Change, Emit, Target};
use crate::scan::fix;
use crate::scan::go::Pos;
use crate::scan::value::{collection_at, PatchType, Shape, Val};
use crate::schema::table::Ty;

/// Paths a patch helper never sends in its merge patch: conditions go
/// one by one, with the resourceVersion pinned.
const HELPER_OWN: [&str; 3] = [
    "/status/conditions",
    "/status/v1beta2/conditions",
    "/status/deprecated/v1beta1/conditions",
];

/// Lint's report on a body sent to `target`.
fn lint_body(kind: BodyKind, json: &Value, target: Option<&Target>) -> Option<lint::Report> {
    let payload = serde_json::to_string(json).ok()?;
    let resource = target.map(|t| Resource {
        typed: t.kind.clone(),
        kind: Some(t.kind.clone()),
        group: None,
        served: t.served,
    });
    let input = Input {
        kind,
        payload,
        origin: Origin::Json,
        resource,
        hints: Vec::new(),
        wrapper: None,
    };
    let options = Options {
        kind: target.map(|t| t.kind.clone()),
        ..Options::default()
    };
    lint::lint_input(&input, &options).ok()
}

fn item_of(path: &str) -> &'static str {
    match path.rsplit('/').next() {
        Some("finalizers") => "finalizer",
        Some("conditions") => "condition",
        Some("ownerReferences") => "owner reference",
        Some("containers") => "container",
        _ => "list element",
    }
}

/// A body the code sends whole (a merge or strategic merge patch), with
/// its unknown values stood in for, through lint's rules for its type.
pub(super) fn body(
    emit: &Emit,
    ty: PatchType,
    body: &Val,
    found: &mut Vec<Found>,
    seen_at: &mut HashSet<(Rule, Pos)>,
) {
    let kind = match ty {
        PatchType::Merge => BodyKind::MergePatch,
        PatchType::Strategic => BodyKind::StrategicMergePatch,
        _ => return,
    };
    let mut standins = Standins::default();
    let json = stand_in_body(body, "", &mut standins);
    let Some(report) = lint_body(kind, &json, emit.target.as_ref()) else {
        return;
    };
    let shown = show_val(body);
    for finding in &report.findings {
        let believed = finding.severity >= lint::Severity::Warning
            && !(finding.rule == Rule::UnknownField && standins.placeholders);
        if !believed || !seen_at.insert((finding.rule, emit.at)) {
            continue;
        }
        let path = finding.path.clone().unwrap_or_default();
        let message = match finding.rule {
            Rule::MergeReplacesList => format!(
                "the merge body sets {path} to a whole list: a merge patch replaces the stored list whole, so an element another writer added or removed since your read (a {}) is silently lost",
                item_of(&path)
            ),
            _ => finding.message.clone(),
        };
        found.push(Found {
            rule: finding.rule,
            at: emit.at,
            function: emit.function.clone(),
            kind: emit.target.as_ref().map(|t| t.kind.clone()),
            message,
            ops: vec![shown.clone()],
            payload: shown.clone(),
            branches: false,
            fix: fix::for_merge_body(finding.rule, &path),
            fix_payload: None,
        });
    }
}

/// What the member at `path` of an object of `kind` holds: the kind's
/// schema, else the collections every kind has.
fn shape_at(kind: Option<&str>, path: &str) -> Option<Shape> {
    let schema = kind.and_then(crate::schema::resource);
    if let (Some(schema), Ok(pointer)) = (schema, Pointer::parse(path)) {
        if let Some(place) = schema.at(pointer) {
            return match place.node.ty() {
                Ty::List(_) => Some(Shape::List),
                Ty::Map(_) => Some(Shape::Map),
                _ => None,
            };
        }
    }
    collection_at(path)
}

/// The paths a `MergeFrom` sends, each once, in order.
fn changed_paths(changes: &[Change], helper: bool) -> Vec<&str> {
    let mut paths: Vec<&str> = Vec::new();
    for change in changes {
        let path = change.path.as_str();
        if (helper && HELPER_OWN.contains(&path)) || paths.contains(&path) {
            continue;
        }
        paths.push(path);
    }
    paths
}

/// The merge body a `MergeFrom` sends: each changed member with a
/// stand-in of its shape.
fn changed_body(paths: &[&str], kind: Option<&str>) -> Value {
    let mut root = Map::new();
    for path in paths {
        let leaf = match shape_at(kind, path) {
            Some(Shape::List) => json!(["element"]),
            Some(Shape::Map) => json!({"example.com/key": "value"}),
            _ => json!("value"),
        };
        let tokens: Vec<String> = match Pointer::parse(path) {
            Ok(p) => p.tokens().map(|t| t.decoded().into_owned()).collect(),
            Err(_) => continue,
        };
        insert(&mut root, &tokens, leaf);
    }
    Value::Object(root)
}

fn insert(map: &mut Map<String, Value>, tokens: &[String], leaf: Value) {
    let Some((first, rest)) = tokens.split_first() else {
        return;
    };
    if rest.is_empty() {
        map.entry(first.clone()).or_insert(leaf);
        return;
    }
    let child = map
        .entry(first.clone())
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(child) = child {
        insert(child, rest, leaf);
    }
}

/// What a `MergeFrom` (or a patch helper) is.
pub(super) struct MergeFrom<'m> {
    pub object: &'m str,
    pub base: &'m str,
    pub lock: bool,
    pub strategic: bool,
    pub helper: bool,
    pub changes: &'m [Change],
}

/// The merge body a `MergeFrom` sends, shown, and lint's word on it:
/// a changed shared list (no resourceVersion pinned) is
/// `merge-from-replaces-list`; a strategic merge patch to a custom
/// resource is refused.
pub(super) fn merge_from(
    emit: &Emit,
    m: &MergeFrom,
    found: &mut Vec<Found>,
    seen_at: &mut HashSet<(Rule, Pos)>,
) -> String {
    let kind = emit.target.as_ref().map(|t| t.kind.as_str());
    let paths = changed_paths(m.changes, m.helper);
    let shown = merge_from_text(m.object, m.lock, &paths);
    let body_kind = if m.strategic {
        BodyKind::StrategicMergePatch
    } else {
        BodyKind::MergePatch
    };
    let json = changed_body(&paths, kind);
    let Some(report) = lint_body(body_kind, &json, emit.target.as_ref()) else {
        return shown;
    };
    let lists: Vec<&str> = report
        .findings
        .iter()
        .filter(|f| f.rule == Rule::MergeReplacesList && !m.lock && !m.strategic)
        .filter_map(|f| f.path.as_deref())
        .collect();
    let refused = report
        .findings
        .iter()
        .find(|f| f.rule == Rule::SmpCustomResource);
    if !lists.is_empty() && seen_at.insert((Rule::MergeFromReplacesList, emit.at)) {
        found.push(lists_found(emit, m, &lists, shown.clone()));
    }
    if let Some(finding) = refused {
        if seen_at.insert((Rule::SmpCustomResource, emit.at)) {
            found.push(Found {
                rule: Rule::SmpCustomResource,
                at: emit.at,
                function: emit.function.clone(),
                kind: kind.map(str::to_owned),
                message: format!(
                    "`client.StrategicMergeFrom({})` to a custom resource: {}",
                    m.base, finding.message
                ),
                ops: paths.iter().map(|p| (*p).to_owned()).collect(),
                payload: shown.clone(),
                branches: false,
                fix: fix::merge_from(m.base),
                fix_payload: None,
            });
        }
    }
    shown
}

/// The merge body a `MergeFrom` patch sends, as text.
fn merge_from_text(object: &str, lock: bool, paths: &[&str]) -> String {
    let mut members: Vec<String> = paths
        .iter()
        .map(|p| format!("{p}: <{object}'s {}>", p.rsplit('/').next().unwrap_or("")))
        .collect();
    if lock {
        members.push("/metadata/resourceVersion: <as read>".to_owned());
    }
    members.push("<other fields changed since the base>".to_owned());
    format!("{{{}}}", members.join(", "))
}

fn lists_found(emit: &Emit, m: &MergeFrom, lists: &[&str], payload: String) -> Found {
    let names: Vec<&str> = lists
        .iter()
        .map(|p| p.rsplit('/').next().unwrap_or(""))
        .collect();
    let where_: Vec<String> = m
        .changes
        .iter()
        .filter(|c| lists.contains(&c.path.as_str()))
        .map(|c| format!("`{}` (line {})", c.code, c.at.line))
        .collect();
    let what = if m.helper {
        format!("the patch helper made from `{}`", m.base)
    } else {
        format!("`client.MergeFrom({})`", m.base)
    };
    Found {
        rule: Rule::MergeFromReplacesList,
        at: emit.at,
        function: emit.function.clone(),
        kind: emit.target.as_ref().map(|t| t.kind.clone()),
        message: format!(
            "{what} sends a merge patch with no optimistic lock: {}'s {} changed after the base was copied ({}), and a merge patch sends a changed list whole, so what another writer added to it since your read (a {}) is silently lost",
            m.object,
            names.join(" and "),
            where_.join(", "),
            item_of(lists[0])
        ),
        ops: lists.iter().map(|p| (*p).to_owned()).collect(),
        payload,
        branches: false,
        fix: if m.helper {
            fix::patch_helper(m.base)
        } else {
            fix::merge_from(m.base)
        },
        fix_payload: None,
    }
}

/// A body that formats Go slices with `%s` or `%v`.
pub(super) fn go_formatted(
    emit: &Emit,
    exprs: &[String],
    found: &mut Vec<Found>,
    seen_at: &mut HashSet<(Rule, Pos)>,
) {
    if !seen_at.insert((Rule::GoFormattedBody, emit.at)) {
        return;
    }
    let list = exprs.join("`, `");
    found.push(Found {
        rule: Rule::GoFormattedBody,
        at: emit.at,
        function: emit.function.clone(),
        kind: emit.target.as_ref().map(|t| t.kind.clone()),
        message: format!(
            "the body formats the Go slice `{list}` with `%s`/`%v`: Go prints a non-empty slice as `[a b]`, not as JSON, so the server refuses the patch (400 BadRequest) whenever it holds an element"
        ),
        ops: exprs.to_vec(),
        payload: String::new(),
        branches: false,
        fix: format!(
            "// write the slice as JSON:\nitems, err := json.Marshal({})\n// and format `items` with %s",
            exprs.first().map_or("list", String::as_str)
        ),
        fix_payload: None,
    });
}
