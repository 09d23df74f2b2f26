//! The strategic merge patch rules. The body is read against the kind's
//! schema ([`crate::schema`]: which lists merge by key, as a set, or are
//! replaced whole) and, with the current object, applied by the engine
//! kube-apiserver runs ([`crate::apply::strategic::apply_body`]): a custom
//! resource answers 415, a list element without its merge key 500, and
//! the rules say which writers' elements a whole-list replacement deletes.
//! Without a schema (a kind the tables do not know) only the rules that
//! need none run: preconditions, directives, whole collections replaced or
//! deleted.

use std::rc::Rc;

use serde_json::Value;

use super::checks::{shown, Analysis};
use super::fix::{Draft, Pending};
use super::kinds::{self, Resource, Served};
use super::lists::{self, ListSmp, ListTypes, Types};
use super::merge::{member_path, non_string, pins_resource_version, resource_version, writers_of};
use super::read::is_directive;
use super::writers::Shape;
use super::{paths, BodyKind, Finding, Options, Outcome, Report, Rule};
use crate::apply::strategic::{self, ErrorKind, CUSTOM_RESOURCE_PATCH_TYPES};
use crate::apply::Cause;
use crate::gojson::{sprint, Verb};
use crate::kube::KubeVersion;
use crate::pointer::Pointer;
use crate::schema::{self, Node, Place, Smp};
use crate::status::Status;
use crate::strategy::{self, Overwrite, Preset};

/// The release whose strategic merge patch engine lint runs. The CLI's
/// and the API's `--kube-version` arrive through [`Options`] once they
/// carry a cluster; until then the newest release.
fn release(_options: &Options) -> KubeVersion {
    KubeVersion::default()
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
    // The object says what it is: the schema tables decide built in or
    // custom (a kind they do not list is a custom resource).
    if let (Some(object), true) = (object, has("apiVersion") && has("kind")) {
        let found = schema::target_of(object);
        return Target {
            served: if found.is_builtin() {
                Served::Builtin
            } else {
                Served::Custom
            },
            schema: found.schema(),
            server: Some(found),
        };
    }
    let schema = resource
        .and_then(|r| schema::resource(&r.typed))
        .or_else(|| kind.and_then(schema::resource));
    let served = match (schema, resource.map(|r| r.served), kind) {
        (Some(found), _, _) => {
            if found.is_builtin() {
                Served::Builtin
            } else {
                Served::Custom
            }
        }
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

/// One list of the body, as the walk found it.
struct Found<'b> {
    path: String,
    items: &'b [Value],
    smp: ListSmp<'static>,
    replaced: bool,
}

/// One object of the body still to walk: its members, its pointer, and
/// its type in the schema.
struct Frame<'b> {
    members: serde_json::map::Iter<'b>,
    path: String,
    node: Option<Node<'static>>,
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
    let Value::Object(top) = body else {
        return empty(options, Vec::new());
    };
    let mut walk = Walk {
        options,
        target: &target,
        kind_name: target.schema.map(|k| k.kind()).or(kind),
        pinned: pins_resource_version(body),
        // Without a schema for the kind, metadata is still ObjectMeta.
        meta: schema::resource("Pod").map(|pod| pod.root()),
        pending: Vec::new(),
        wants_fix: Vec::new(),
        lists_found: Vec::new(),
    };
    walk.run(top, target.schema.map(|k| k.root()));
    let Walk {
        kind_name,
        pinned,
        mut pending,
        wants_fix,
        lists_found,
        ..
    } = walk;
    if target.served == Served::Custom {
        pending.push(Pending::new(custom_resource(
            kind,
            resource,
            body,
            &lists_found,
        )));
    }
    let mut conflicts = Vec::new();
    resource_version(body, &mut pending, &mut conflicts);
    let (outcome, merged, reported) = outcome(options, payload, body, &target);
    if let Some(outcome) = outcome.as_ref().filter(|o| !o.applies && !reported) {
        pending.push(Pending::new(fails_now(outcome)));
    }
    // The JSON patch of the same change, as PR #18139's strategies write
    // it: a fix for whole-collection writes, with the object.
    if let (Some(object), Some(merged)) = (options.object.as_ref(), merged.as_ref()) {
        if let Some(ops) = rewrite(object, merged, options) {
            let ops = Rc::new(ops);
            for &i in &wants_fix {
                if let Some(p) = pending.get_mut(i) {
                    p.draft = Some(Draft::Whole(Rc::clone(&ops)));
                }
            }
        }
    }
    let overwrites = if pinned {
        Vec::new()
    } else {
        overwrites(body, &lists_found, kind_name)
    };
    let types = types(&target, kind_name, options, &lists_found, body);
    Analysis {
        report: Report {
            kind: BodyKind::StrategicMergePatch,
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

/// The walk over the body's members: what it reads, and what it found.
struct Walk<'b, 'c> {
    options: &'c Options,
    target: &'c Target,
    kind_name: Option<&'c str>,
    /// The body pins metadata.resourceVersion: no write is lost silently.
    pinned: bool,
    /// ObjectMeta's type, for `metadata` without a schema for the kind.
    meta: Option<Node<'static>>,
    pending: Vec<Pending>,
    /// The findings (indices in `pending`) the JSON patch rewrite fixes.
    wants_fix: Vec<usize>,
    lists_found: Vec<Found<'b>>,
}

impl<'b> Walk<'b, '_> {
    /// Walks the members depth first, iteratively (the input's depth
    /// budget bounds it, not the stack), each with its type in the schema.
    fn run(&mut self, top: &'b serde_json::Map<String, Value>, root: Option<Node<'static>>) {
        let mut stack = vec![Frame {
            members: top.iter(),
            path: String::new(),
            node: root,
        }];
        while let Some(frame) = stack.last_mut() {
            let Some((key, value)) = frame.members.next() else {
                stack.pop();
                continue;
            };
            let parent_node = frame.node;
            let Some(path) = member_path(&frame.path, key) else {
                continue;
            };
            let parent = frame.path.as_str();
            if self.directive(parent, &path, key, value) {
                continue;
            }
            if let Some(finding) = non_string(self.options, self.kind_name, &path, parent, value) {
                self.pending.push(Pending::new(finding));
            }
            // The member's type: the struct's field, the map's values.
            let node = parent_node.or_else(|| {
                (parent.is_empty() && key == "metadata")
                    .then_some(self.meta)
                    .flatten()
            });
            let place = node.and_then(|node| member(node, key, parent_node.is_none()));
            match value {
                Value::Null if !self.pinned => {
                    self.fixable(whole_write(self.kind_name, &path, "null", self.options));
                }
                Value::Array(items) => self.list(path, items, place, &mut stack),
                Value::Object(map) => {
                    let child = place
                        .map(|p| p.node)
                        .filter(|n| matches!(n.ty(), schema::Ty::Struct(_) | schema::Ty::Map(_)));
                    stack.push(Frame {
                        members: map.iter(),
                        path,
                        node: child,
                    });
                }
                _ => {}
            }
        }
    }

    /// Checks a member that is a directive (a malformed one, a `$patch`
    /// that writes a whole collection); true when it is one.
    fn directive(&mut self, parent: &str, path: &str, key: &str, value: &Value) -> bool {
        if let Some(problem) = bad_directive(key, value) {
            self.pending.push(Pending::new(Finding::new(
                Rule::SmpBadDirective,
                None,
                Some(path),
                format!(
                    "{}: {problem}; the server fails the whole patch with that error (k8s.io/apimachinery/pkg/util/mergepatch/errors.go)",
                    shown(path)
                ),
            )));
            return true;
        }
        if !is_directive(key) {
            return false;
        }
        if key == "$patch" && !self.pinned {
            if let Some(how @ ("replace" | "delete")) = value.as_str() {
                self.fixable(whole_write(self.kind_name, parent, how, self.options));
            }
        }
        true
    }

    /// Checks a list member (an element replaced whole, elements without
    /// their merge key, a list replaced whole), walks into the elements of
    /// a keyed list, and records the list.
    fn list(
        &mut self,
        path: String,
        items: &'b [Value],
        place: Option<Place<'static>>,
        stack: &mut Vec<Frame<'b>>,
    ) {
        let smp = match (place, self.target.served) {
            (_, Served::Custom) => match lists::smp_at(self.target.schema, &path) {
                custom @ ListSmp::Custom { .. } => custom,
                _ => ListSmp::Custom { keyed: false },
            },
            (Some(place), _) => ListSmp::Schema(place.smp()),
            (None, _) => ListSmp::Unknown,
        };
        let replaced = items.iter().any(|i| directive_of(i) == Some("replace"));
        if replaced && !self.pinned {
            self.fixable(whole_write(self.kind_name, &path, "element", self.options));
        }
        match smp {
            ListSmp::Schema(Smp::MergeByKey(key)) => {
                if !replaced {
                    if let Some(finding) = missing_key(&path, items, key) {
                        self.pending.push(Pending::new(finding));
                    }
                }
                // Elements merge into stored ones: their own
                // lists merge (or fail) too.
                let element = place.and_then(|p| p.node.element());
                for (i, item) in items.iter().enumerate().rev() {
                    if let Value::Object(map) = item {
                        stack.push(Frame {
                            members: map.iter(),
                            path: format!("{path}/{i}"),
                            node: element,
                        });
                    }
                }
            }
            ListSmp::Schema(Smp::ReplaceList) if !self.pinned && !replaced => {
                self.fixable(replaces_list(self.kind_name, &path, items, self.options));
            }
            _ => {}
        }
        self.lists_found.push(Found {
            path,
            items,
            smp,
            replaced,
        });
    }

    /// Records a finding the JSON patch rewrite fixes.
    fn fixable(&mut self, finding: Option<Finding>) {
        if let Some(finding) = finding {
            self.wants_fix.push(self.pending.len());
            self.pending.push(Pending::new(finding));
        }
    }
}

/// The finding for a patch the server refuses on the current object.
fn fails_now(outcome: &Outcome) -> Finding {
    let cause = outcome.cause.as_deref().unwrap_or("");
    let answer = match &outcome.response {
        Some(r) if r.message.contains(cause) || cause.contains(&r.message) => {
            format!("it answers {r}")
        }
        Some(r) => format!("{cause}; it answers {r}"),
        None => cause.to_owned(),
    };
    Finding::new(
        Rule::FailsNow,
        None,
        outcome.path.as_deref(),
        format!(
            "on the current object the server refuses the patch{}: {answer}",
            outcome
                .path
                .as_deref()
                .map(|p| format!(" at {}", shown(p)))
                .unwrap_or_default()
        ),
    )
}

fn empty(options: &Options, pending: Vec<Pending>) -> Analysis {
    Analysis {
        report: Report {
            kind: BodyKind::StrategicMergePatch,
            semantics: options.semantics,
            ops: Vec::new(),
            op_count: 0,
            findings: Vec::new(),
            outcome: None,
            conflicts: Vec::new(),
            overwrites: Vec::new(),
            types: None,
        },
        pending,
    }
}

/// The place of member `key` of an object of type `node` (`meta_only`:
/// the node stands for ObjectMeta alone, so only `metadata` is looked up).
fn member(node: Node<'static>, key: &str, meta_only: bool) -> Option<Place<'static>> {
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

/// A whole collection replaced or deleted: `how` is `replace` (the
/// directive in it), `element` (a `{"$patch": "replace"}` element),
/// `delete` or `null`. Silent unless the writers table says others fill
/// it.
fn whole_write(kind: Option<&str>, path: &str, how: &str, options: &Options) -> Option<Finding> {
    let (shape, sharing) = writers_of(kind, path);
    let (shape @ (Shape::Map | Shape::List), item) = shape? else {
        return None;
    };
    if !sharing.is_shared() {
        return None;
    }
    let word = shape.as_str();
    let stored = options
        .object
        .as_ref()
        .and_then(|o| Pointer::parse(path).ok()?.resolve(o))
        .map(|v| match v {
            Value::Object(m) => m.keys().map(|k| crate::text::elide(k, 60)).collect(),
            Value::Array(a) => a.iter().map(|e| lists::element_name(e, None)).collect(),
            _ => Vec::new(),
        })
        .filter(|names: &Vec<String>| !names.is_empty())
        .map(|names| format!(" (stored now: {})", lists::named(&names)))
        .unwrap_or_default();
    let who = format!("{} write {}", sharing.list(), shown(path));
    let (rule, message) = match how {
        "replace" | "element" => (
            Rule::SmpPatchReplace,
            format!(
                "{} is a {word} other writers fill, and {} makes it exactly what the body lists: every {item} you did not list is deleted, whatever another writer put there{stored}; {who} (without the directive the {} merge, and yours are added)",
                shown(path),
                if how == "replace" {
                    "$patch: replace in it"
                } else {
                    "a {\"$patch\": \"replace\"} element"
                },
                lists::plural(item)
            ),
        ),
        "delete" => (
            Rule::WholeCollectionWrite,
            format!(
                "{} is a {word} other writers fill, and $patch: delete deletes it whole: every {item} goes, those other writers put there included{stored}; {who}",
                shown(path)
            ),
        ),
        _ => (
            Rule::WholeCollectionWrite,
            format!(
                "{} is a {word} other writers fill, and null deletes it whole: every {item} goes, those other writers put there included{stored}; {who}",
                shown(path)
            ),
        ),
    };
    let mut finding = Finding::new(rule, None, Some(path), message);
    finding.writers = sharing.names();
    Some(finding)
}

/// A list the schema replaces whole, where others add elements.
fn replaces_list(
    kind: Option<&str>,
    path: &str,
    items: &[Value],
    options: &Options,
) -> Option<Finding> {
    let (shape, sharing) = writers_of(kind, path);
    if !sharing.is_shared() {
        return None;
    }
    let item = shape
        .map(|(_, item)| item.to_owned())
        .unwrap_or_else(|| paths::item_name(kind, Pointer::parse(path).unwrap_or(Pointer::root())));
    let gone = match lists::not_listed(options.object.as_ref(), path, items, None) {
        Some(names) if !names.is_empty() => format!(
            "; on the current object it deletes {} (the {} you did not list)",
            lists::named(&names),
            lists::plural(&item)
        ),
        _ => String::new(),
    };
    let mut finding = Finding::new(
        Rule::SmpReplacesList,
        None,
        Some(path),
        format!(
            "{} has no merge key, so a strategic merge patch replaces it whole with what the body lists ({} {}): every {item} another writer added since your read is deleted without a check{gone}; {} write {}",
            shown(path),
            items.len(),
            if items.len() == 1 { item.clone() } else { lists::plural(&item) },
            sharing.list(),
            shown(path)
        ),
    );
    finding.writers = sharing.names();
    Some(finding)
}

/// The first element of a keyed list without its merge key.
fn missing_key(path: &str, items: &[Value], key: &str) -> Option<Finding> {
    let (i, item) = items
        .iter()
        .enumerate()
        .find(|(_, item)| item.is_object() && item.get(key).is_none())?;
    let error = strategic::Error {
        kind: ErrorKind::NoMergeKey {
            map: sprint(item, Verb::V),
            key: key.to_owned(),
        },
        path: path.to_owned(),
    };
    let status = error
        .status()
        .map(|s| s.to_string())
        .unwrap_or_else(|| "an error".to_owned());
    let others = items
        .iter()
        .filter(|item| item.is_object() && item.get(key).is_none())
        .count();
    Some(Finding::new(
        Rule::SmpMissingMergeKey,
        None,
        Some(&format!("{path}/{i}")),
        format!(
            "{} merges by {key}, but element {i}{} has no {key}: whenever the stored object has the list, the server fails the whole patch with {status}",
            shown(path),
            if others > 1 {
                format!(" (and {} more)", others - 1)
            } else {
                String::new()
            }
        ),
    ))
}

/// The 415 finding, with what each other type would do to the body's
/// lists.
fn custom_resource(
    kind: Option<&str>,
    resource: Option<&Resource>,
    body: &Value,
    lists_found: &[Found<'_>],
) -> Finding {
    let what = match (resource, kind) {
        (Some(r), Some(k)) if r.typed.eq_ignore_ascii_case(k) => k.to_owned(),
        (Some(r), Some(k)) => format!("{} ({k})", r.typed),
        (Some(r), None) => r.typed.clone(),
        (None, Some(k)) => k.to_owned(),
        (None, None) => "the resource".to_owned(),
    };
    let answer = Status::unsupported_media_type(&CUSTOM_RESOURCE_PATCH_TYPES);
    let directives = super::read::has_directive(body);
    let advice = if lists_found.is_empty() && !directives {
        "send it with --type=merge: this body holds no lists and no directives, so a merge patch does exactly the same".to_owned()
    } else {
        let paths: Vec<String> = lists_found.iter().map(|l| l.path.clone()).collect();
        let mut parts = Vec::new();
        if !paths.is_empty() {
            parts.push(format!(
                "with --type=merge the same body would replace {} whole, deleting every element you did not list",
                lists::named(&paths)
            ));
        }
        if directives {
            parts.push(
                "its directives ($patch, $retainKeys, $setElementOrder, $deleteFromPrimitiveList) mean nothing in a merge patch".to_owned(),
            );
        }
        format!(
            "{}: write those changes as ops with --type=json (add at /-, test then remove at an index), the rest with --type=merge",
            parts.join("; ")
        )
    };
    Finding::new(
        Rule::SmpCustomResource,
        None,
        None,
        format!(
            "{what} is a custom resource, which does not take strategic merge patches (what kubectl sends without --type): the server answers {answer}; {advice}"
        ),
    )
}

/// Applied to the object by the PATCH handler's path: the outcome, the
/// merged object when it applies, and whether another finding already
/// says why it fails (415, 413).
fn outcome(
    options: &Options,
    payload: &str,
    body: &Value,
    target: &Target,
) -> (Option<Outcome>, Option<Value>, bool) {
    let (Some(object), Some(server)) = (options.object.as_ref(), target.server.as_ref()) else {
        return (None, None, false);
    };
    let stale = body
        .pointer("/metadata/resourceVersion")
        .filter(|rv| !rv.is_null() && object.pointer("/metadata/resourceVersion") != Some(*rv));
    let mut doc = object.clone();
    match strategic::apply_body(&mut doc, payload, server, release(options)) {
        Ok(_) => match stale {
            Some(rv) => (
                Some(Outcome {
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
                    response: Some(Status::stale(
                        &crate::status::Resource::of(object),
                        object
                            .pointer("/metadata/name")
                            .and_then(Value::as_str)
                            .unwrap_or_default(),
                    )),
                    unchanged: true,
                }),
                None,
                false,
            ),
            None => (
                Some(Outcome {
                    applies: true,
                    index: None,
                    path: None,
                    cause: None,
                    response: None,
                    unchanged: &doc == object,
                }),
                Some(doc),
                false,
            ),
        },
        Err(err) => {
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
            let response = err.response();
            if response.is_none() {
                // No answer patchlab can vouch for (no schema here).
                return (None, None, false);
            }
            let outcome = Outcome {
                applies: false,
                index: None,
                path,
                cause: Some(err.cause.to_string()),
                response,
                unchanged: true,
            };
            (Some(outcome), None, reported)
        }
    }
}

/// The JSON patch PR #18139's strategies send for the same change.
fn rewrite(
    object: &Value,
    merged: &Value,
    options: &Options,
) -> Option<Vec<crate::patch::Operation>> {
    let plan = strategy::diff(
        object,
        merged,
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
    (!ops.is_empty()).then_some(ops)
}

/// What the body overwrites, with each list's real semantics.
fn overwrites(body: &Value, lists_found: &[Found<'_>], kind: Option<&str>) -> Vec<Overwrite> {
    let by_path: std::collections::HashMap<&str, &Found<'_>> =
        lists_found.iter().map(|l| (l.path.as_str(), l)).collect();
    let mut out = Vec::new();
    super::merge::members(body, |path, _, key, value| {
        if is_directive(key) || value.is_object() {
            return;
        }
        let reason = match value {
            Value::Null => format!("deletes {path}, whatever another writer put there"),
            Value::Array(_) => {
                let Some(found) = by_path.get(path) else {
                    return;
                };
                list_reason(found, kind)
            }
            _ => format!("sets {path} without a check (last write wins)"),
        };
        out.push(Overwrite {
            path: path.to_owned(),
            reason,
        });
    });
    out
}

fn list_reason(found: &Found<'_>, kind: Option<&str>) -> String {
    let field = lists::field_name(&found.path);
    let item = paths::item_name(kind, Pointer::parse(&found.path).unwrap_or(Pointer::root()));
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

/// What each patch type would do with this body.
fn types(
    target: &Target,
    kind: Option<&str>,
    options: &Options,
    lists_found: &[Found<'_>],
    body: &Value,
) -> Option<Types> {
    let directives = super::read::has_directive(body);
    let lists: Vec<ListTypes> = lists_found
        .iter()
        .take(lists::LISTS_SHOWN)
        .map(|l| {
            lists::list_types(
                l.smp,
                kind,
                options.object.as_ref(),
                &l.path,
                l.items,
                l.replaced,
            )
        })
        .collect();
    let differ: Vec<String> = lists_found
        .iter()
        .filter(|l| {
            l.replaced
                || matches!(
                    l.smp,
                    ListSmp::Schema(Smp::MergeByKey(_) | Smp::MergeScalars)
                )
        })
        .map(|l| l.path.clone())
        .collect();
    let summary = match target.served {
        Served::Custom if lists_found.is_empty() && !directives => {
            "a custom resource refuses strategic merge patches (415): the body holds no lists and no directives, so --type=merge sends the same change".to_owned()
        }
        Served::Custom => {
            "a custom resource refuses strategic merge patches (415): send a merge patch (--type=merge) for maps and scalars, and JSON patch ops (--type=json) for each list".to_owned()
        }
        _ if lists_found.is_empty() && !directives => {
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

/// What is wrong with a directive, in apimachinery's words.
fn bad_directive(key: &str, value: &Value) -> Option<String> {
    if key == "$patch" {
        return match value.as_str() {
            Some("replace" | "merge" | "delete") => None,
            Some(other) => Some(format!(
                "unknown patch type: {other} (the $patch directive takes replace, merge or delete)"
            )),
            None => Some(format!(
                "unknown patch type: {} (the $patch directive takes replace, merge or delete)",
                crate::gojson::to_string(value)
            )),
        };
    }
    let list = value.as_array();
    if key == "$retainKeys" {
        return (!list.is_some_and(|l| l.iter().all(Value::is_string))).then(|| {
            "invalid patch format of retainKeys ($retainKeys takes a list of field names)"
                .to_owned()
        });
    }
    if key.starts_with("$setElementOrder/") {
        return list
            .is_none()
            .then(|| "invalid patch format of setElementOrder list (it takes a list)".to_owned());
    }
    if key.starts_with("$deleteFromPrimitiveList/") {
        return list
            .is_none()
            .then(|| "invalid patch format of primitive list ($deleteFromPrimitiveList takes a list of values)".to_owned());
    }
    None
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
