//! The strategic merge patch rules. The body is read against the kind's
//! schema ([`crate::schema`]: which lists merge by key, as a set, or are
//! replaced whole) and, with the current object, applied by the engine
//! kube-apiserver runs ([`crate::apply::strategic::apply_body`]): a custom
//! resource answers 415, a list element without its merge key 500, and
//! the rules say which writers' elements a whole-list replacement deletes.
//! Without a schema (a kind the tables do not know) only the rules that
//! need none run: preconditions, directives, whole collections replaced or
//! deleted.

use std::collections::HashMap;

use serde_json::Value;

use super::body::{self, plan, writers_of, Applied, Descend, Dialect, Found, List, Member};
use super::kinds::{self, Resource, Served};
use super::lists::{self, ListSmp, Types};
use super::read::{has_directive, is_directive};
use super::rules::message;
use super::words::shown;
use super::writers::Shape;
use super::{paths, Analysis, BodyKind, Finding, Options, Outcome, Report, Rule};
use crate::apply::strategic::{self, ErrorKind, CUSTOM_RESOURCE_PATCH_TYPES};
use crate::apply::{ApplyError, Cause};
use crate::gojson::{sprint, Verb};
use crate::kube::KubeVersion;
use crate::pointer::Pointer;
use crate::schema::{self, Node, Place, Smp};
use crate::status::Status;
use crate::strategy::Overwrite;

/// The release whose schemas and strategic merge patch engine lint runs
/// (the CLI's and the API's `--kube-version`).
fn release(options: &Options) -> KubeVersion {
    options.cluster.version
}

/// What the body is sent to.
struct Target {
    /// Built in (every patch type) or custom (415).
    served: Served,
    /// The kind's schema, when tabled.
    schema: Option<schema::Kind<'static>>,
    /// What the server's PATCH handler is modelled with: only with an
    /// object, and a kind whose answer is known.
    server: Option<schema::Target<'static>>,
}

fn target(options: &Options, kind: Option<&str>, resource: Option<&Resource>) -> Target {
    let object = options.object.as_ref();
    let has = |key: &str| {
        object
            .and_then(|o| o.get(key))
            .and_then(Value::as_str)
            .is_some_and(|s| !s.is_empty())
    };
    // The object says what it is: the release's schema tables decide built
    // in or custom (a kind of a group they do not list is a custom
    // resource).
    let table = schema::for_release(release(options));
    if let (Some(object), true) = (object, has("apiVersion") && has("kind")) {
        let found = table.target_of(object);
        return Target {
            served: Served::by(found.is_builtin()),
            schema: found.schema(),
            server: Some(found),
        };
    }
    let schema = resource
        .and_then(|r| table.resource(&r.typed))
        .or_else(|| kind.and_then(|kind| table.resource(kind)));
    let served = match (schema, resource.map(|r| r.served), kind) {
        (Some(found), _, _) => Served::by(found.is_builtin()),
        (None, Some(served @ (Served::Builtin | Served::Custom)), _) => served,
        (None, _, Some(kind)) => kinds::served(kind),
        _ => Served::Unknown,
    };
    Target {
        served,
        schema,
        server: object.and(schema).map(schema::Target::Tabled),
    }
}

/// The strategic merge patch rules: directives, whole collections
/// written, keyed elements without their key, lists replaced whole, and
/// the outcome on the current object.
pub(super) fn strategic(
    body: &Value,
    payload: &str,
    options: &Options,
    kind: Option<&str>,
    resource: Option<&Resource>,
) -> Analysis {
    let target = target(options, kind, resource);
    if !body.is_object() {
        let report = Report::new(BodyKind::StrategicMergePatch, options.semantics);
        let pending = Vec::new();
        return Analysis { report, pending };
    }
    let root = target.schema.map(|k| k.root());
    let strategic = Strategic {
        body,
        options,
        kind,
        resource,
        payload,
        kind_name: target.schema.map(|k| k.kind()).or(kind),
        pinned: body::pins_resource_version(body),
        // Without a schema for the kind, metadata is still ObjectMeta.
        meta: schema::for_release(release(options))
            .resource("Pod")
            .map(|pod| pod.root()),
        target,
    };
    plan(strategic, body, root, options)
}

/// A strategic merge patch, as the plan reads it.
struct Strategic<'o> {
    body: &'o Value,
    options: &'o Options,
    /// The kind lint was given (the 415 finding names it).
    kind: Option<&'o str>,
    resource: Option<&'o Resource>,
    payload: &'o str,
    target: Target,
    /// The kind whose fields are looked up: the schema's, else `kind`.
    kind_name: Option<&'o str>,
    /// The body pins metadata.resourceVersion: no write is lost silently.
    pinned: bool,
    /// ObjectMeta's type, for `metadata` without a schema for the kind.
    meta: Option<Node<'static>>,
}

impl<'b> Dialect<'b> for Strategic<'_> {
    type Node = Option<Node<'static>>;
    const KIND: BodyKind = BodyKind::StrategicMergePatch;

    fn kind_name(&self) -> Option<&str> {
        self.kind_name
    }

    /// A directive the server cannot read fails the patch; `$patch:
    /// replace` or `delete` writes a whole collection.
    fn directive(&mut self, member: &Member<'_, 'b, Self::Node>, found: &mut Found<'b>) {
        let (path, key, value) = (member.path, member.key, member.value);
        if let Some(problem) = bad_directive(key, value) {
            let message = message!(SmpBadDirective "member", path = shown(path), problem);
            return found.push(Some(body::finding(Rule::SmpBadDirective, path, message)));
        }
        found.push(nondeterministic(self.body, member));
        let patch = value.as_str().filter(|_| key == "$patch" && !self.pinned);
        if let Some(how @ ("replace" | "delete")) = patch {
            found.fixable(self.whole_write(member.parent, how));
        }
    }

    /// Checks a member by its type in the schema: a null or a list that
    /// writes a whole collection, a list's elements without their merge
    /// key; walks into objects, and into the elements of a keyed list.
    fn member(
        &mut self,
        member: &Member<'_, 'b, Self::Node>,
        found: &mut Found<'b>,
    ) -> Descend<Self::Node> {
        let (path, key, parent) = (member.path, member.key, member.node);
        // The member's type: the struct's field, the map's values.
        let metadata = member.parent.is_empty() && key == "metadata";
        let node = parent.or(if metadata { self.meta } else { None });
        let place = node.and_then(|node| place_of(node, key, parent.is_none()));
        match member.value {
            Value::Null if !self.pinned => found.fixable(self.whole_write(path, "null")),
            Value::Array(items) => return self.list(path, items, place, found),
            Value::Object(_) => {
                let child = place.map(|p| p.node);
                let object =
                    |n: &Node<'_>| matches!(n.ty(), schema::Ty::Struct(_) | schema::Ty::Map(_));
                return Descend::Into(child.filter(object));
            }
            _ => {}
        }
        Descend::No
    }

    fn whole(&self, body: &Value, found: &[List<'b>]) -> Option<Finding> {
        (self.target.served == Served::Custom).then(|| self.custom_resource(body, found))
    }

    /// Applied by the PATCH handler's path: the outcome, and the merged
    /// object when it applies.
    fn apply(&self, body: &Value, object: &Value) -> Option<Applied> {
        let server = self.target.server.as_ref()?;
        let mut doc = object.clone();
        if let Err(err) =
            strategic::apply_body(&mut doc, self.payload, server, release(self.options))
        {
            return refused(&err);
        }
        let (outcome, merged) = match body::stale(body, object, false) {
            Some(stale) => (stale, None),
            None => (body::applied(&doc == object), Some(doc)),
        };
        Some(Applied {
            outcome,
            merged,
            reported: false,
        })
    }

    fn fails_now(outcome: &Outcome) -> Finding {
        let cause = outcome.cause.as_deref().unwrap_or("");
        let answer = match &outcome.response {
            Some(response)
                if response.message.contains(cause) || cause.contains(&response.message) =>
            {
                message!(FailsNow "it-answers", response)
            }
            Some(response) => message!(FailsNow "cause-answers", cause, response),
            None => cause.to_owned(),
        };
        let path = outcome.path.as_deref();
        let at = match path {
            Some(path) => message!(FailsNow "at", path = shown(path)),
            None => String::new(),
        };
        let message = message!(FailsNow "strategic", at, answer);
        Finding::new(Rule::FailsNow, None, path, message)
    }

    /// What the body overwrites, with each list's real semantics.
    fn overwrites(&self, body: &Value, found: &[List<'b>]) -> Vec<Overwrite> {
        let by_path: HashMap<&str, &List<'_>> =
            found.iter().map(|l| (l.path.as_str(), l)).collect();
        let mut out = Vec::new();
        body::walk(
            body,
            (),
            |&Member {
                 path, key, value, ..
             }| {
                if is_directive(key) {
                    return Descend::No;
                }
                let reason = match value {
                    Value::Object(_) => return Descend::Into(()),
                    Value::Null => format!("deletes {path}, whatever another writer put there"),
                    Value::Array(_) => match by_path.get(path) {
                        Some(list) => list_reason(list, self.kind_name),
                        None => return Descend::No,
                    },
                    _ => format!("sets {path} without a check (last write wins)"),
                };
                out.push(Overwrite {
                    path: path.to_owned(),
                    reason,
                });
                Descend::No
            },
        );
        out
    }

    /// What each patch type would do with this body.
    fn types(&self, body: &Value, found: &[List<'b>]) -> Option<Types> {
        let directives = has_directive(body);
        let object = self.options.object.as_ref();
        let (lists, differ) = body::list_types(found, self.kind_name, object, false);
        let summary = match self.target.served {
            Served::Custom if found.is_empty() && !directives => {
                "a custom resource refuses strategic merge patches (415): the body holds no lists and no directives, so --type=merge sends the same change".to_owned()
            }
            Served::Custom => {
                "a custom resource refuses strategic merge patches (415): send a merge patch (--type=merge) for maps and scalars, and JSON patch ops (--type=json) for each list".to_owned()
            }
            _ if found.is_empty() && !directives => {
                "no lists and no directives in the body: as a merge patch (--type=merge) it would do exactly the same".to_owned()
            }
            Served::Builtin if !differ.is_empty() => format!(
                "keep it a strategic merge patch: as a merge patch (--type=merge) {} would be replaced whole, deleting every element you did not list",
                lists::named(&differ)
            ),
            Served::Builtin if directives => {
                "keep it a strategic merge patch: its directives mean nothing in a merge patch".to_owned()
            }
            Served::Builtin => {
                "every list of the body is replaced whole in a strategic merge patch too (none has a merge key): a merge patch (--type=merge) would do the same".to_owned()
            }
            _ => "lint has no schema for this kind: it cannot tell which lists merge by key".to_owned(),
        };
        Some(Types { summary, lists })
    }
}

impl<'b> Strategic<'_> {
    /// Checks a list (an element replaced whole, elements without their
    /// merge key, a list replaced whole), and records it; the walk goes
    /// into the elements of a keyed list (they merge into stored ones, so
    /// their own lists merge, or fail, too).
    fn list(
        &self,
        path: &str,
        items: &'b [Value],
        place: Option<Place<'static>>,
        found: &mut Found<'b>,
    ) -> Descend<Option<Node<'static>>> {
        let smp = match (place, self.target.served) {
            (_, Served::Custom) => match lists::smp_at(self.target.schema, path) {
                custom @ ListSmp::Custom { .. } => custom,
                _ => ListSmp::Custom { keyed: false },
            },
            (Some(place), _) => ListSmp::Schema(place.smp()),
            (None, _) => ListSmp::Unknown,
        };
        let replaced = items.iter().any(|i| directive_of(i) == Some("replace"));
        if replaced && !self.pinned {
            found.fixable(self.whole_write(path, "element"));
        }
        let mut descend = Descend::No;
        match smp {
            ListSmp::Schema(Smp::MergeByKey(key)) => {
                if !replaced {
                    found.push(missing_key(path, items, key));
                }
                descend = Descend::Elements(place.and_then(|p| p.node.element()));
            }
            ListSmp::Schema(Smp::ReplaceList) if !self.pinned && !replaced => {
                found.fixable(self.replaces_list(path, items));
            }
            _ => {}
        }
        found.lists.push(List {
            path: path.to_owned(),
            items,
            smp,
            replaced,
        });
        descend
    }

    /// A whole collection replaced or deleted: `how` is `replace` (the
    /// directive in it), `element` (a `{"$patch": "replace"}` element),
    /// `delete` or `null`. Silent unless the writers table says others fill
    /// it.
    fn whole_write(&self, path: &str, how: &str) -> Option<Finding> {
        let (shape, sharing) = writers_of(self.kind_name, path);
        let (shape @ (Shape::Map | Shape::List), item) = shape? else {
            return None;
        };
        if !sharing.is_shared() {
            return None;
        }
        let (path_shown, shape, writers) = (shown(path), shape.as_str(), sharing.list());
        let stored = self.stored(path);
        let (rule, message) = match how {
            "replace" | "element" => {
                let how = match how {
                    "replace" => message!(SmpPatchReplace "directive"),
                    _ => message!(SmpPatchReplace "element"),
                };
                let stored = match stored {
                    Some(names) => message!(SmpPatchReplace "stored", names),
                    None => String::new(),
                };
                let message = message!(SmpPatchReplace "list", path = path_shown, shape, how, item,
                    stored, writers, items = lists::plural(item));
                (Rule::SmpPatchReplace, message)
            }
            _ => {
                let stored = match stored {
                    Some(names) => message!(WholeCollectionWrite "stored", names),
                    None => String::new(),
                };
                let message = match how {
                    "delete" => message!(WholeCollectionWrite "delete", path = path_shown, shape,
                        item, stored, writers),
                    _ => message!(WholeCollectionWrite "null", path = path_shown, shape, item,
                        stored, writers),
                };
                (Rule::WholeCollectionWrite, message)
            }
        };
        let mut finding = body::finding(rule, path, message);
        finding.writers = sharing.names();
        Some(finding)
    }

    /// The keys or elements stored at `path` now, named (`None`: none, or
    /// no object).
    fn stored(&self, path: &str) -> Option<String> {
        let object = self.options.object.as_ref()?;
        let names: Vec<String> = match Pointer::parse(path).ok()?.resolve(object)? {
            Value::Object(m) => m.keys().map(|k| crate::text::elide(k, 60)).collect(),
            Value::Array(a) => a.iter().map(|e| lists::element_name(e, None)).collect(),
            _ => Vec::new(),
        };
        (!names.is_empty()).then(|| lists::named(&names))
    }

    /// A list the schema replaces whole, where others add elements.
    fn replaces_list(&self, path: &str, items: &[Value]) -> Option<Finding> {
        let (_, sharing) = writers_of(self.kind_name, path);
        if !sharing.is_shared() {
            return None;
        }
        let item = paths::item_at(self.kind_name, path);
        let object = self.options.object.as_ref();
        let gone = match lists::not_listed(object, path, items, None) {
            Some(names) if !names.is_empty() => message!(SmpReplacesList "gone",
                names = lists::named(&names), items = lists::plural(&item)),
            _ => String::new(),
        };
        let count = items.len();
        let items = if count == 1 {
            item.clone()
        } else {
            lists::plural(&item)
        };
        let message = message!(SmpReplacesList "list", path = shown(path), count, items, item, gone,
            writers = sharing.list());
        let mut finding = body::finding(Rule::SmpReplacesList, path, message);
        finding.writers = sharing.names();
        Some(finding)
    }

    /// The 415 finding, with what each other type would do to the body's
    /// lists.
    fn custom_resource(&self, body: &Value, found: &[List<'_>]) -> Finding {
        let what = match (self.resource, self.kind) {
            (Some(r), Some(k)) if r.typed.eq_ignore_ascii_case(k) => k.to_owned(),
            (Some(r), Some(kind)) => message!(SmpCustomResource "typed", typed = r.typed, kind),
            (Some(r), None) => r.typed.clone(),
            (None, Some(k)) => k.to_owned(),
            (None, None) => message!(SmpCustomResource "unnamed"),
        };
        let answer = Status::unsupported_media_type(&CUSTOM_RESOURCE_PATCH_TYPES);
        let directives = has_directive(body);
        let advice = match found.is_empty() && !directives {
            true => message!(SmpCustomResource "same-as-merge"),
            false => split_advice(found, directives),
        };
        let message = message!(SmpCustomResource "body", what, answer, advice);
        Finding::new(Rule::SmpCustomResource, None, None, message)
    }
}

/// What a custom resource takes instead of a body with lists or
/// directives.
fn split_advice(found: &[List<'_>], directives: bool) -> String {
    let mut parts = Vec::new();
    if !found.is_empty() {
        let paths: Vec<String> = found.iter().map(|l| l.path.clone()).collect();
        parts.push(message!(SmpCustomResource "lists", lists = lists::named(&paths)));
    }
    if directives {
        parts.push(message!(SmpCustomResource "directives"));
    }
    message!(SmpCustomResource "split", parts = parts.join("; "))
}

/// A body the server refuses: the outcome when lint knows the answer,
/// and whether another finding already says why (415, 413).
fn refused(err: &ApplyError) -> Option<Applied> {
    let (path, reported) = match &err.cause {
        Cause::Strategic(e) => (
            (!e.path.is_empty()).then(|| e.path.clone()),
            matches!(
                e.kind,
                ErrorKind::UnsupportedMediaType { .. }
                    | ErrorKind::BodyTooLarge { .. }
                    | ErrorKind::NoSchema { .. }
            ),
        ),
        _ => (None, false),
    };
    // No answer patchlab can vouch for (no schema here).
    let response = Some(err.response()?);
    let outcome = Outcome {
        applies: false,
        index: None,
        path,
        cause: Some(err.cause.to_string()),
        response,
        unchanged: true,
    };
    Some(Applied {
        outcome,
        merged: None,
        reported,
    })
}

/// The place of member `key` of an object of type `node` (`meta_only`:
/// the node stands for ObjectMeta alone, so only `metadata` is looked up).
fn place_of(node: Node<'static>, key: &str, meta_only: bool) -> Option<Place<'static>> {
    if meta_only {
        let (child, _) = node.lookup_struct(key).ok()?;
        return Some(Place {
            node: child,
            field: node.as_struct().and_then(|s| s.field(key)),
        });
    }
    match node.ty() {
        schema::Ty::Struct(_) => {
            let (child, _) = node.lookup_struct(key).ok()?;
            Some(Place {
                node: child,
                field: node.as_struct().and_then(|s| s.field(key)),
            })
        }
        schema::Ty::Map(_) => Some(Place {
            node: node.element()?,
            field: None,
        }),
        _ => None,
    }
}

/// The `$patch` directive of a list element, if any.
fn directive_of(item: &Value) -> Option<&str> {
    item.get("$patch").and_then(Value::as_str)
}

/// The first element of a keyed list without its merge key.
fn missing_key(path: &str, items: &[Value], key: &str) -> Option<Finding> {
    let lacks = |item: &&Value| item.is_object() && item.get(key).is_none();
    let (i, item) = items.iter().enumerate().find(|(_, item)| lacks(item))?;
    let kind = ErrorKind::NoMergeKey {
        map: sprint(item, Verb::V),
        key: key.to_owned(),
    };
    let error = strategic::Error {
        kind,
        path: path.to_owned(),
    };
    let status = match error.status() {
        Some(status) => status.to_string(),
        None => message!(SmpMissingMergeKey "no-status"),
    };
    let others = items.iter().filter(lacks).count();
    let more = match others > 1 {
        true => message!(SmpMissingMergeKey "more", count = others - 1),
        false => String::new(),
    };
    let message = message!(SmpMissingMergeKey "element", path = shown(path), key, i, more, status);
    Some(body::finding(
        Rule::SmpMissingMergeKey,
        &format!("{path}/{i}"),
        message,
    ))
}

/// Why the server overwrites what others wrote in the list `found`.
fn list_reason(found: &List<'_>, kind: Option<&str>) -> String {
    let field = lists::field_name(&found.path);
    let item = paths::item_at(kind, &found.path);
    if found.replaced {
        return format!(
            "$patch: replace: {field} becomes exactly these elements; every {item} another writer added is deleted"
        );
    }
    match found.smp {
        ListSmp::Schema(Smp::MergeByKey(key)) => format!(
            "{field} merge by {key}: {} another writer added stays; the fields you set in yours overwrite theirs (last write wins)",
            paths::with_article(&item)
        ),
        ListSmp::Schema(Smp::MergeScalars) => format!(
            "{field} merge as a set: values another writer added stay; yours are added"
        ),
        ListSmp::Schema(_) => format!(
            "{field} has no merge key: the list is replaced whole, so {} another writer added since your read is deleted",
            paths::with_article(&item)
        ),
        ListSmp::Custom { .. } => format!(
            "{field}: refused with the rest of the body (415: a custom resource)"
        ),
        ListSmp::Unknown => format!(
            "writes the list {}: merged element by element when its type has a patch strategy, replaced whole otherwise",
            found.path
        ),
    }
}

/// A `$deleteFromPrimitiveList/<list>` beside `<list>` and no
/// `$setElementOrder/<list>`: `mergeMap` visits the two keys in Go's
/// random map order, so the merge and the deletion run in either order.
fn nondeterministic<N>(body: &Value, member: &Member<'_, '_, N>) -> Option<Finding> {
    let field = member.key.strip_prefix("$deleteFromPrimitiveList/")?;
    let parent = body.pointer(member.parent)?.as_object()?;
    let Value::Array(added) = parent.get(field)? else {
        return None;
    };
    let order = format!("$setElementOrder/{field}");
    if parent.contains_key(&order) {
        return None;
    }
    let deleted = member.value.as_array()?;
    let path = format!("{}/{}", member.parent, crate::pointer::escape(field));
    let mut both: Vec<String> = Vec::new();
    for text in added
        .iter()
        .filter(|v| deleted.contains(v))
        .map(crate::gojson::to_string)
    {
        if !both.contains(&text) {
            both.push(text);
        }
    }
    let (path_shown, delete) = (shown(&path), shown(member.path));
    let message = match both.len() {
        0 => message!(SmpNondeterministic "order", path = path_shown, delete, order),
        n => message!(SmpNondeterministic "both", path = path_shown, delete, order,
            values = both.join(", "),
            verb = if n == 1 { "is" } else { "are" },
            them = if n == 1 { "it" } else { "them" }),
    };
    Some(body::finding(Rule::SmpNondeterministic, &path, message))
}

/// What is wrong with a directive, in apimachinery's words.
fn bad_directive(key: &str, value: &Value) -> Option<String> {
    let list = value.as_array();
    match key {
        "$patch" => match value.as_str() {
            Some("replace" | "merge" | "delete") => None,
            Some(other) => Some(message!(SmpBadDirective "patch", value = other)),
            None => {
                let value = crate::gojson::to_string(value);
                Some(message!(SmpBadDirective "patch", value))
            }
        },
        "$retainKeys" => (!list.is_some_and(|l| l.iter().all(Value::is_string)))
            .then(|| message!(SmpBadDirective "retain-keys")),
        _ if key.starts_with("$setElementOrder/") => list
            .is_none()
            .then(|| message!(SmpBadDirective "set-element-order")),
        _ if key.starts_with("$deleteFromPrimitiveList/") => list
            .is_none()
            .then(|| message!(SmpBadDirective "primitive-list")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_checked_as_apimachinery_reads_them() {
        assert!(bad_directive("$patch", &"replace".into()).is_none());
        assert!(bad_directive("$patch", &"remove".into())
            .unwrap()
            .starts_with("unknown patch type: remove"));
        assert!(bad_directive("$retainKeys", &serde_json::json!(["a"])).is_none());
        assert!(bad_directive("$retainKeys", &"a".into()).is_some());
        assert!(bad_directive("$setElementOrder/finalizers", &serde_json::json!({})).is_some());
        assert!(bad_directive(
            "$deleteFromPrimitiveList/finalizers",
            &serde_json::json!(["x"])
        )
        .is_none());
        assert!(bad_directive("labels", &"x".into()).is_none());
    }
}
