//! The merge patch rules, and the walk they share with the strategic
//! merge patch rules.

use std::rc::Rc;

use serde_json::Value;

use super::checks::{shown, Analysis};
use super::fix::{Draft, Pending};
use super::lists::{self, ListSmp, ListTypes, Types};
use super::read::is_directive;
use super::writers::{self, Shape};
use super::{paths, BodyKind, Finding, Options, Outcome, Report, Rule};
use crate::apply;
use crate::limits::MEMBER_PATH_BYTES;
use crate::pointer::{escape, Pointer};
use crate::schema::Smp;
use crate::strategy::{self, merge, Overwrite, Precondition, Preset};

/// The members of a body, depth first, each with its pointer and its
/// parent's: objects are walked into (after being visited), lists and
/// scalars are leaves. Iterative: the input's depth budget bounds it, not
/// the stack. A member whose pointer would be longer than
/// [`MEMBER_PATH_BYTES`] is left out (with everything below it), so a
/// member costs at most that much.
pub(super) fn members(body: &Value, mut visit: impl FnMut(&str, &str, &str, &Value)) {
    let Value::Object(map) = body else { return };
    // Each open object: its members still to visit, and its pointer.
    let mut stack: Vec<(serde_json::map::Iter<'_>, String)> = vec![(map.iter(), String::new())];
    while let Some((members, parent)) = stack.last_mut() {
        let Some((key, child)) = members.next() else {
            stack.pop();
            continue;
        };
        let Some(path) = member_path(parent, key) else {
            continue;
        };
        visit(&path, parent, key, child);
        if let Value::Object(inner) = child {
            if !is_directive(key) {
                stack.push((inner.iter(), path));
            }
        }
    }
}

/// `parent/key` as a JSON pointer, `None` past [`MEMBER_PATH_BYTES`]
/// (checked before anything is copied).
pub(super) fn member_path(parent: &str, key: &str) -> Option<String> {
    if parent.len() + 1 + key.len() > MEMBER_PATH_BYTES {
        return None;
    }
    let escaped = escape(key);
    if parent.len() + 1 + escaped.len() > MEMBER_PATH_BYTES {
        return None;
    }
    let mut path = String::with_capacity(parent.len() + 1 + escaped.len());
    path.push_str(parent);
    path.push('/');
    path.push_str(&escaped);
    Some(path)
}

/// True when the body pins `metadata.resourceVersion`: the server then
/// refuses it (409) after any concurrent write, so nothing is lost
/// silently.
pub(super) fn pins_resource_version(body: &Value) -> bool {
    body.pointer("/metadata/resourceVersion")
        .is_some_and(|rv| !rv.is_null())
}

/// The rv-test finding and precondition of a body that pins it.
pub(super) fn resource_version(
    body: &Value,
    pending: &mut Vec<Pending>,
    conflicts: &mut Vec<Precondition>,
) {
    if !pins_resource_version(body) {
        return;
    }
    pending.push(Pending::new(Finding::new(
        Rule::RvTest,
        None,
        Some("/metadata/resourceVersion"),
        "the body pins metadata.resourceVersion: it is a precondition, so any write to the object since your read (by anyone, to any field) fails the patch with 409 Conflict instead of being overwritten".to_owned(),
    )));
    conflicts.push(Precondition {
        path: String::new(),
        reason: "the body pins metadata.resourceVersion: any write to the object since your read fails it (409)".to_owned(),
    });
}

/// A non-string value under a map of strings.
pub(super) fn non_string(
    options: &Options,
    kind: Option<&str>,
    path: &str,
    parent: &str,
    value: &Value,
) -> Option<Finding> {
    if value.is_string() || value.is_null() || value.is_object() && is_directive_object(value) {
        return None;
    }
    let parent = Pointer::parse(parent).ok()?;
    let declared_only = options.policy.declared_kind(parent) == Some(strategy::FieldKind::Map)
        && !matches!(
            parent.as_str(),
            "/metadata/labels" | "/metadata/annotations"
        );
    if declared_only || !paths::is_string_map(&options.policy, kind, parent) {
        return None;
    }
    let what = match value {
        Value::Number(_) => "a number",
        Value::Bool(_) => "a boolean",
        Value::Array(_) => "a list",
        _ => "an object",
    };
    Some(Finding::new(
        Rule::NonStringValue,
        None,
        Some(path),
        format!(
            "{} is {what} ({}): {} holds strings only (map[string]string), so for a built-in kind the server cannot decode the patched object (422 Invalid); write it as a string",
            shown(path),
            crate::gojson::to_string(value),
            shown(parent.as_str())
        ),
    ))
}

fn is_directive_object(value: &Value) -> bool {
    value
        .as_object()
        .is_some_and(|m| m.keys().any(|k| is_directive(k)))
}

/// The writers clause of a message: `; kubelet and ... also write it`.
pub(super) fn writers_of(
    kind: Option<&str>,
    path: &str,
) -> (Option<(Shape, &'static str)>, writers::Sharing) {
    match Pointer::parse(path) {
        Ok(pointer) => (
            writers::shape(kind, pointer),
            writers::sharing(kind, pointer),
        ),
        Err(_) => (None, writers::Sharing::Unknown),
    }
}

/// The merge patch rules: directives, non-strings, lists replaced whole,
/// nulls that delete, and the outcome on the current object.
pub(super) fn merge_patch(body: &Value, options: &Options, kind: Option<&str>) -> Analysis {
    let pinned = pins_resource_version(body);
    let schema_kind = lists::schema_of(options.object.as_ref(), kind);
    let (mut pending, lists_found) = member_findings(body, options, kind, schema_kind);
    let outcome = options
        .object
        .as_ref()
        .map(|object| merge_outcome(object, body, options));
    if let Some(outcome) = outcome.as_ref().filter(|o| !o.applies) {
        pending.push(Pending::new(Finding::new(
            Rule::FailsNow,
            None,
            outcome.path.as_deref(),
            format!(
                "on the current object: {}; the server answers 409 Conflict",
                outcome.cause.as_deref().unwrap_or("")
            ),
        )));
    }
    let mut conflicts = Vec::new();
    resource_version(body, &mut pending, &mut conflicts);
    let overwrites = if pinned {
        Vec::new()
    } else {
        merge::overwrites(body)
            .into_iter()
            .map(|(path, reason)| Overwrite { path, reason })
            .collect()
    };
    let types = merge_types(body, options, kind, schema_kind, &lists_found);
    Analysis {
        report: Report {
            kind: BodyKind::MergePatch,
            semantics: options.semantics,
            ops: Vec::new(),
            op_count: 0,
            findings: Vec::new(),
            outcome,
            conflicts,
            overwrites,
            types,
        },
        pending,
    }
}

/// The findings of each member of a merge patch (directives,
/// non-strings, lists replaced whole, nulls that delete), and each list
/// with how a strategic merge patch would treat it when that differs (by
/// key, as a set).
fn member_findings(
    body: &Value,
    options: &Options,
    kind: Option<&str>,
    schema_kind: Option<crate::schema::Kind<'static>>,
) -> (Vec<Pending>, Vec<(String, Option<Smp<'static>>)>) {
    let mut pending: Vec<Pending> = Vec::new();
    // What PR #18139's strategies would send instead, from the object:
    // one list of ops, shared by every finding it fixes.
    let rewrite = options
        .object
        .as_ref()
        .and_then(|object| per_key_rewrite(object, body, options));
    let fix = || rewrite.clone().map(Draft::Whole);
    let pinned = pins_resource_version(body);
    let mut lists_found: Vec<(String, Option<Smp<'static>>)> = Vec::new();
    members(body, |path, parent, key, value| {
        if is_directive(key) {
            pending.push(Pending::new(directive_in_merge(path, key)));
            return;
        }
        if let Some(finding) = non_string(options, kind, path, parent, value) {
            pending.push(Pending::new(finding));
        }
        if pinned {
            if value.is_array() {
                lists_found.push((
                    path.to_owned(),
                    keyed(schema_kind, kind, path).map(|(smp, _)| smp),
                ));
            }
            return;
        }
        let (shape, sharing) = writers_of(kind, path);
        let named_item;
        let item = match shape {
            Some((_, item)) => item,
            None => {
                named_item =
                    paths::item_name(kind, Pointer::parse(path).unwrap_or(Pointer::root()));
                named_item.as_str()
            }
        };
        let who = if sharing.is_shared() {
            format!("; {} write {}", sharing.list(), shown(path))
        } else {
            String::new()
        };
        let mut finding = match value {
            Value::Array(items) => {
                let keyed = keyed(schema_kind, kind, path);
                lists_found.push((path.to_owned(), keyed.as_ref().map(|(smp, _)| *smp)));
                if !sharing.is_shared() && keyed.is_none() {
                    // A list nobody else is known to write, and no schema
                    // that merges it: replacing it is what the writer
                    // means (a chart's custom resource spec list).
                    return;
                }
                list_replaced(options, path, items, item, keyed.as_ref(), &who)
            }
            Value::Null => {
                null_deletes(path, shape.map(|(s, _)| s), sharing.is_shared(), item, &who)
            }
            _ => return,
        };
        finding.writers = sharing.names();
        pending.push(Pending::new(finding).with(fix()));
    });
    (pending, lists_found)
}

/// The ops PR #18139's per-key strategy would send for the change the
/// merge patch makes to `object` (`None`: no change, or no diff).
fn per_key_rewrite(
    object: &Value,
    body: &Value,
    options: &Options,
) -> Option<Rc<Vec<crate::patch::Operation>>> {
    let mut new = object.clone();
    apply::merge::apply_as(&mut new, body, options.semantics);
    let plan = strategy::diff(
        object,
        &new,
        &strategy::Options {
            policy: {
                let mut policy = options.policy.clone();
                policy.preset = Preset::KubevirtPerKey;
                policy
            },
            explain: false,
            ..strategy::Options::preset(Preset::KubevirtPerKey)
        },
    )
    .ok()?;
    let ops = plan.patch_set().ops().to_vec();
    (!ops.is_empty()).then(|| Rc::new(ops))
}

/// The finding for a strategic-merge-patch directive in a merge patch: a
/// field of that name, dropped.
fn directive_in_merge(path: &str, key: &str) -> Finding {
    Finding::new(
        Rule::MergeHasDirective,
        None,
        Some(path),
        format!(
            "{} is a strategic-merge-patch directive, but this is a merge patch: the server reads {key:?} as a field of that name, drops it as unknown (a warning under the default field validation) and applies the rest; the directive does nothing",
            shown(path)
        ),
    )
}

/// The finding for a list the merge patch replaces whole: what it deletes
/// on the current object, and what a strategic merge patch would do
/// instead (`keyed`, from [`keyed`]).
fn list_replaced(
    options: &Options,
    path: &str,
    items: &[Value],
    item: &str,
    keyed: Option<&(Smp<'static>, String)>,
    who: &str,
) -> Finding {
    let merge_key = match keyed {
        Some((Smp::MergeByKey(k), _)) => Some(*k),
        _ => None,
    };
    let gone = match lists::not_listed(options.object.as_ref(), path, items, merge_key) {
        Some(names) if !names.is_empty() => format!(
            "; on the current object it deletes {}",
            lists::named(&names)
        ),
        _ => String::new(),
    };
    let field = lists::field_name(path);
    let items_word = lists::plural(item);
    let advice = match keyed {
        Some((Smp::MergeByKey(k), in_kind)) => format!(
            "; sent as a strategic merge patch (kubectl patch without --type{in_kind}), {field} would merge by {k} and the {items_word} you did not list would stay"
        ),
        Some((Smp::MergeScalars, in_kind)) => format!(
            "; sent as a strategic merge patch (kubectl patch without --type{in_kind}), {field} would merge as a set and the {items_word} you did not list would stay"
        ),
        Some((_, keys)) => format!(
            "; its schema keys it by {keys} (x-kubernetes-list-type: map), which a merge patch ignores (a custom resource takes no strategic merge patch: write the change as JSON patch ops)"
        ),
        None => String::new(),
    };
    Finding::new(
        Rule::MergeReplacesList,
        None,
        Some(path),
        format!(
            "{} is a list ({} {}): a merge patch replaces the stored list whole{}, so {} another writer added or removed since your read is silently lost{gone}{who}{advice}",
            shown(path),
            items.len(),
            if items.len() == 1 { "element" } else { "elements" },
            if merge_key.is_some() { ", keyed or not" } else { "" },
            paths::with_article(item)
        ),
    )
}

/// The finding for a null member: a shared list or map deleted whole, or
/// a member deleted.
fn null_deletes(path: &str, shape: Option<Shape>, shared: bool, item: &str, who: &str) -> Finding {
    match shape {
        Some(Shape::List) if shared => Finding::new(
            Rule::MergeReplacesList,
            None,
            Some(path),
            format!(
                "{} is null: a merge patch deletes the whole list, so every {item} another writer added is lost, exactly as with []{who}",
                shown(path)
            ),
        ),
        Some(shape @ Shape::Map) if shared => Finding::new(
            Rule::WholeCollectionWrite,
            None,
            Some(path),
            format!(
                "{} is null: a merge patch deletes the whole {}, every {item} included, whatever other writers put there{who}",
                shown(path),
                shape.as_str()
            ),
        ),
        _ => Finding::new(
            Rule::MergeNullDeletes,
            None,
            Some(path),
            format!(
                "{} is null: a merge patch deletes the member, whatever value another writer put there meanwhile",
                shown(path)
            ),
        ),
    }
}

/// What the merge patch does to the current object: 409 when it pins a
/// stale resourceVersion, otherwise applied (and whether it changes
/// anything).
fn merge_outcome(object: &Value, body: &Value, options: &Options) -> Outcome {
    let mut new = object.clone();
    apply::merge::apply_as(&mut new, body, options.semantics);
    let stale = body
        .pointer("/metadata/resourceVersion")
        .filter(|rv| object.pointer("/metadata/resourceVersion") != Some(*rv));
    match stale {
        Some(rv) => Outcome {
            applies: false,
            index: None,
            path: Some("/metadata/resourceVersion".to_owned()),
            cause: Some(format!(
                "the body pins metadata.resourceVersion {} but the object is at {}",
                crate::gojson::to_string(rv),
                object
                    .pointer("/metadata/resourceVersion")
                    .map(crate::gojson::to_string)
                    .unwrap_or_else(|| "none".to_owned())
            )),
            response: Some(crate::status::Status::stale(
                &crate::status::Resource::of(object),
                object
                    .pointer("/metadata/name")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            )),
            unchanged: true,
        },
        None => Outcome {
            applies: true,
            index: None,
            path: None,
            cause: None,
            response: None,
            unchanged: crate::gojson::stored_eq(&new, object),
        },
    }
}

/// How a strategic merge patch would merge the list at `path` when that
/// differs from a merge patch's whole replacement: by key or as a set for
/// a built-in kind (with `" (as in a Deployment)"` when the kind was
/// guessed from the path), keyed by its schema for a custom resource
/// (with its keys).
fn keyed(
    schema_kind: Option<crate::schema::Kind<'static>>,
    kind: Option<&str>,
    path: &str,
) -> Option<(Smp<'static>, String)> {
    match lists::smp_at(schema_kind, path) {
        ListSmp::Schema(smp @ (Smp::MergeByKey(_) | Smp::MergeScalars)) => {
            Some((smp, String::new()))
        }
        ListSmp::Custom { keyed: true } => {
            let keys = schema_kind
                .and_then(|k| k.at(Pointer::parse(path).ok()?))
                .and_then(|place| match place.list_type() {
                    Some(crate::schema::ListType::Map(keys)) => Some(keys.join(", ")),
                    _ => None,
                })
                .unwrap_or_default();
            Some((Smp::ReplaceList, keys))
        }
        ListSmp::Unknown if kind.is_none() => lists::keyed_in_some_kind(path)
            .map(|(smp, in_kind)| (smp, format!(", as for a {in_kind}"))),
        _ => None,
    }
}

/// What a strategic merge patch would do instead, list by list, when it
/// differs (a built-in kind whose lists merge by key or as a set).
fn merge_types(
    body: &Value,
    options: &Options,
    kind: Option<&str>,
    schema_kind: Option<crate::schema::Kind<'static>>,
    lists_found: &[(String, Option<Smp<'static>>)],
) -> Option<Types> {
    if lists_found.is_empty() {
        return None;
    }
    let custom = schema_kind.is_some_and(|k| !k.is_builtin())
        || kind.is_some_and(|k| super::kinds::served(k) == super::kinds::Served::Custom);
    let lists: Vec<ListTypes> = lists_found
        .iter()
        .take(lists::LISTS_SHOWN)
        .filter_map(|(path, smp)| {
            let items = body.pointer(path)?.as_array()?;
            let smp = match smp {
                _ if custom => ListSmp::Custom { keyed: false },
                Some(smp) => ListSmp::Schema(*smp),
                None => lists::smp_at(schema_kind, path),
            };
            Some(lists::list_types(
                smp,
                kind,
                options.object.as_ref(),
                path,
                items,
                false,
            ))
        })
        .collect();
    let differ: Vec<String> = lists_found
        .iter()
        .filter(|(_, smp)| matches!(smp, Some(Smp::MergeByKey(_) | Smp::MergeScalars)))
        .map(|(path, _)| path.clone())
        .collect();
    let summary = if custom {
        "a merge patch replaces every list whole, and a custom resource takes no strategic merge patch: change one element with JSON patch ops (--type=json)".to_owned()
    } else if differ.is_empty() {
        "a merge patch replaces every list whole; a strategic merge patch would replace these lists whole too (none has a merge key)".to_owned()
    } else {
        format!(
            "a merge patch replaces every list whole: as a strategic merge patch (kubectl patch without --type) {} would merge instead, keeping the elements you did not list",
            lists::named(&differ)
        )
    };
    Some(Types { summary, lists })
}
