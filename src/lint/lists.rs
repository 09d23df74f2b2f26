//! What each patch type does with each list of a body, from the kind's
//! schema ([`crate::schema`]): a strategic merge patch merges a list by
//! its merge key (`containers` by `name`), as a set (`finalizers`) or
//! replaces it whole (`tolerations`, a Node's `taints`); a merge patch
//! replaces every list whole. Lint says it per list ([`Types`]) wherever it
//! could advise another patch type, so that no advice deletes elements the
//! user did not touch.

use serde::Serialize;
use serde_json::Value;

use super::{paths, Options};
use crate::pointer::Pointer;
use crate::schema::{self, ListType, Smp};

/// What one list of the body becomes under each patch type.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ListTypes {
    /// The list's member in the body (a JSON pointer into the body).
    pub path: String,
    /// As a strategic merge patch (`kubectl patch` without `--type`).
    pub strategic: String,
    /// As a merge patch (`--type=merge`).
    pub merge: String,
}

/// What the other patch types would do with a merge or strategic merge
/// body: one line for the body, then each list.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Types {
    /// The advice for the whole body.
    pub summary: String,
    /// Each list of the body (the first [`LISTS_SHOWN`]).
    pub lists: Vec<ListTypes>,
}

/// Lists a [`Types`] describes one by one.
pub const LISTS_SHOWN: usize = 20;

/// How a strategic merge patch treats a list, as far as lint knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ListSmp<'t> {
    /// The schema's answer for a built-in kind.
    Schema(Smp<'t>),
    /// The kind is a custom resource: the server refuses the patch (415);
    /// `keys` when its schema keys the list (`x-kubernetes-list-type: map`).
    Custom {
        /// `x-kubernetes-list-map-keys`, when the list is a map.
        keyed: bool,
    },
    /// No schema here for the kind.
    Unknown,
}

/// The tabled kind lint reads a body against, in the release the options
/// model: the object's (`apiVersion` and `kind`), else the kind named.
pub(super) fn schema_of(options: &Options, kind: Option<&str>) -> Option<schema::Kind<'static>> {
    let table = schema::for_release(options.cluster.version);
    if let Some(object) = &options.object {
        if let schema::Target::Tabled(found) = table.target_of(object) {
            return Some(found);
        }
    }
    table.resource(kind?)
}

/// What a strategic merge patch does with the list at `path` (a pointer
/// into the body; list indices step into elements) of an object of `kind`.
pub(super) fn smp_at<'t>(kind: Option<schema::Kind<'t>>, path: &str) -> ListSmp<'t> {
    let Some(kind) = kind else {
        return ListSmp::Unknown;
    };
    let Some(place) = Pointer::parse(path).ok().and_then(|p| kind.at(p)) else {
        return ListSmp::Unknown;
    };
    if !kind.is_builtin() {
        return ListSmp::Custom {
            keyed: matches!(place.list_type(), Some(ListType::Map(_))),
        };
    }
    ListSmp::Schema(place.smp())
}

/// With no kind known: the first built-in kind of the tables whose schema
/// merges the list at `path` by key or as a set (`spec/template/spec/
/// containers` in a Deployment), with the kind's name.
pub(super) fn keyed_in_some_kind(path: &str) -> Option<(Smp<'static>, &'static str)> {
    let pointer = Pointer::parse(path).ok()?;
    let table = schema::builtin();
    table
        .kinds()
        .iter()
        .filter(|info| !info.custom)
        .filter_map(|info| table.kind(&info.api_version, &info.kind))
        .find_map(|kind| {
            let smp = kind.at(pointer)?.smp();
            matches!(smp, Smp::MergeByKey(_) | Smp::MergeScalars).then(|| (smp, kind.kind()))
        })
}

/// The field's name: the pointer's last token.
pub(super) fn field_name(path: &str) -> String {
    Pointer::parse(path)
        .ok()
        .and_then(Pointer::last)
        .map(|t| t.decoded().into_owned())
        .unwrap_or_default()
}

/// The plural of an item name for messages (`container` -> `containers`).
pub(super) fn plural(item: &str) -> String {
    if item.ends_with('s') || item.ends_with("sh") || item.ends_with("ch") {
        format!("{item}es")
    } else if let Some(stem) = item.strip_suffix('y') {
        format!("{stem}ies")
    } else {
        format!("{item}s")
    }
}

/// How an element is named in a message: its merge key's value, else a
/// common identifying field (`name`, `key`, `type`, `uid`), else its JSON
/// (elided).
pub(super) fn element_name(element: &Value, merge_key: Option<&str>) -> String {
    let field = merge_key
        .into_iter()
        .chain(["name", "key", "type", "uid", "mountPath", "containerPort"])
        .find_map(|k| element.get(k));
    match field {
        Some(Value::String(s)) => crate::text::elide(s, 60),
        Some(other) => crate::text::elide(&crate::gojson::to_string(other), 60),
        None => match element {
            Value::String(s) => crate::text::elide(s, 60),
            other => crate::text::elide(&crate::gojson::to_string(other), 60),
        },
    }
}

/// `a, b and 3 more`.
pub(super) fn named(names: &[String]) -> String {
    const SHOWN: usize = 5;
    let shown = &names[..names.len().min(SHOWN)];
    let more = names.len() - shown.len();
    let mut out = match shown {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] if more == 0 => format!("{} and {last}", rest.join(", ")),
        all => all.join(", "),
    };
    if more > 0 {
        out.push_str(&format!(" and {more} more"));
    }
    out
}

/// The stored elements a list of the body does not name: by merge key
/// for a keyed list, by value otherwise. `None` when the object has no
/// list there (or the path steps into list elements, whose places in the
/// object lint does not know).
pub(super) fn not_listed(
    object: Option<&Value>,
    path: &str,
    items: &[Value],
    merge_key: Option<&str>,
) -> Option<Vec<String>> {
    let pointer = Pointer::parse(path).ok()?;
    let mut at = object?;
    for token in pointer.tokens() {
        // A list on the way: the body's index is not the object's.
        if at.is_array() {
            return None;
        }
        at = at.get(token.decoded().as_ref())?;
    }
    let stored = at.as_array()?;
    let gone = match merge_key {
        Some(key) => {
            let listed: std::collections::HashSet<String> = items
                .iter()
                .filter_map(|i| i.get(key))
                .map(crate::gojson::to_string)
                .collect();
            stored
                .iter()
                .filter(|s| {
                    s.get(key)
                        .is_none_or(|v| !listed.contains(&crate::gojson::to_string(v)))
                })
                .map(|s| element_name(s, Some(key)))
                .collect()
        }
        None => {
            let listed: std::collections::HashSet<String> =
                items.iter().map(crate::gojson::to_string).collect();
            stored
                .iter()
                .filter(|s| !listed.contains(&crate::gojson::to_string(s)))
                .map(|s| element_name(s, None))
                .collect()
        }
    };
    Some(gone)
}

/// What the two body types do with one list of the body.
pub(super) fn list_types(
    smp: ListSmp<'_>,
    kind_name: Option<&str>,
    object: Option<&Value>,
    path: &str,
    items: &[Value],
    replaced_by_directive: bool,
) -> ListTypes {
    let item = paths::item_at(kind_name, path);
    let key = match smp {
        ListSmp::Schema(Smp::MergeByKey(k)) => Some(k),
        _ => None,
    };
    let gone = |key: Option<&str>| -> String {
        match not_listed(object, path, items, key) {
            Some(names) if names.is_empty() => {
                format!(" (none stored now: every stored {item} is in the body)")
            }
            Some(names) => format!(" (stored now: {})", named(&names)),
            None => String::new(),
        }
    };
    let field = field_name(path);
    let strategic = match smp {
        _ if replaced_by_directive => format!(
            "replaced whole ($patch: replace): every {item} you did not list is deleted{}",
            gone(key)
        ),
        ListSmp::Schema(Smp::MergeByKey(k)) => format!(
            "merged by {k}: the {} you list are added or updated field by field, every other {item} stays{}",
            plural(&item),
            (not_listed(object, path, items, Some(k)).filter(|names| !names.is_empty()))
                .map_or_else(String::new, |names| format!(" ({})", named(&names)))
        ),
        ListSmp::Schema(Smp::MergeScalars) => format!(
            "merged as a set: your values are added, the stored ones stay (remove one with $deleteFromPrimitiveList/{field})"
        ),
        ListSmp::Schema(_) => format!(
            "replaced whole ({field} has no merge key): every {item} you did not list is deleted{}",
            gone(None)
        ),
        ListSmp::Custom { .. } => {
            "refused: a custom resource takes no strategic merge patch (415)".to_owned()
        }
        ListSmp::Unknown => format!(
            "merged by key when its Go type declares a merge key, replaced whole otherwise (lint has no schema for {})",
            kind_name.unwrap_or("this kind")
        ),
    };
    let merge = format!(
        "replaced whole: every {item} you did not list is deleted{}",
        gone(key)
    );
    ListTypes {
        path: path.to_owned(),
        strategic,
        merge,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_schema_says_how_each_list_merges() {
        let deployment = schema::resource("Deployment");
        let node = schema::resource("Node");
        assert_eq!(
            smp_at(deployment, "/spec/template/spec/containers"),
            ListSmp::Schema(Smp::MergeByKey("name"))
        );
        assert_eq!(
            smp_at(node, "/spec/taints"),
            ListSmp::Schema(Smp::ReplaceList)
        );
        assert_eq!(
            smp_at(node, "/metadata/finalizers"),
            ListSmp::Schema(Smp::MergeScalars)
        );
        // Elements step through indices.
        assert_eq!(
            smp_at(deployment, "/spec/template/spec/containers/0/env"),
            ListSmp::Schema(Smp::MergeByKey("name"))
        );
        assert!(matches!(
            smp_at(schema::resource("vmi"), "/status/conditions"),
            ListSmp::Custom { .. }
        ));
        assert_eq!(smp_at(None, "/spec/x"), ListSmp::Unknown);
        let (smp, kind) = keyed_in_some_kind("/spec/template/spec/containers").unwrap();
        assert_eq!(smp, Smp::MergeByKey("name"));
        assert!(!kind.is_empty());
        assert!(keyed_in_some_kind("/spec/dnsNames").is_none());
    }

    #[test]
    fn each_type_is_said_with_what_it_deletes() {
        let object = json!({"kind": "Deployment", "apiVersion": "apps/v1", "spec": {"template": {"spec": {"containers": [
            {"name": "patch-demo-ctr", "image": "nginx"}
        ]}}}});
        let items = [json!({"name": "patch-demo-ctr-2", "image": "redis"})];
        let types = list_types(
            smp_at(
                schema::resource("Deployment"),
                "/spec/template/spec/containers",
            ),
            Some("Deployment"),
            Some(&object),
            "/spec/template/spec/containers",
            &items,
            false,
        );
        assert_eq!(
            types.strategic,
            "merged by name: the containers you list are added or updated field by field, every other container stays (patch-demo-ctr)"
        );
        assert_eq!(
            types.merge,
            "replaced whole: every container you did not list is deleted (stored now: patch-demo-ctr)"
        );
        assert_eq!(plural("taint"), "taints");
        assert_eq!(plural("policy"), "policies");
        assert_eq!(plural("address"), "addresses");
        assert_eq!(
            named(&(0..7).map(|i| i.to_string()).collect::<Vec<_>>()),
            "0, 1, 2, 3, 4 and 2 more"
        );
    }
}
