//! The merge patch rules (RFC 7386): lists replaced whole, nulls that
//! delete, strategic-merge-patch directives that mean nothing, and the
//! outcome on the current object. The plan is [`super::body`]'s.

use serde_json::Value;

use super::body::{self, plan, writers_of, Applied, Descend, Dialect, Found, List, Member};
use super::kinds::{self, Served};
use super::lists::{self, ListSmp, Types};
use super::rules::message;
use super::words::{one_or_many, shown};
use super::writers::{Shape, Sharing};
use super::{paths, Analysis, BodyKind, Finding, Options, Outcome, Rule};
use crate::apply;
use crate::pointer::Pointer;
use crate::schema::{self, Smp};
use crate::strategy::{merge, Overwrite};

/// The merge patch rules: directives, non-strings, lists replaced whole,
/// nulls that delete, and the outcome on the current object.
pub(super) fn merge_patch(body: &Value, options: &Options, kind: Option<&str>) -> Analysis {
    let merge = Merge {
        options,
        kind,
        schema: lists::schema_of(options, kind),
        pinned: body::pins_resource_version(body),
    };
    plan(merge, body, (), options)
}

/// A merge patch, as the plan reads it.
struct Merge<'o> {
    options: &'o Options,
    kind: Option<&'o str>,
    schema: Option<schema::Kind<'static>>,
    /// The body pins metadata.resourceVersion: no write is lost silently.
    pinned: bool,
}

impl<'b> Dialect<'b> for Merge<'_> {
    type Node = ();
    const KIND: BodyKind = BodyKind::MergePatch;

    fn kind_name(&self) -> Option<&str> {
        self.kind
    }

    /// A directive is a field of that name to a merge patch: dropped.
    fn directive(&mut self, member: &Member<'_, 'b, ()>, found: &mut Found<'b>) {
        let (path, key) = (member.path, member.key);
        let message = message!(MergeHasDirective "member", path = shown(path), key);
        found.push(Some(body::finding(Rule::MergeHasDirective, path, message)));
    }

    fn member(&mut self, member: &Member<'_, 'b, ()>, found: &mut Found<'b>) -> Descend<()> {
        let path = member.path;
        match member.value {
            Value::Object(_) => return Descend::Into(()),
            Value::Array(items) => {
                let smp = lists::smp_at(self.schema, path);
                let keyed = self.keyed(smp, path);
                let smp = keyed.as_ref().map_or(smp, |(smp, _)| ListSmp::Schema(*smp));
                found.lists.push(List {
                    path: path.to_owned(),
                    items,
                    smp,
                    replaced: false,
                });
                if !self.pinned {
                    found.fixable(self.list_replaced(path, items, keyed.as_ref()));
                }
            }
            Value::Null if !self.pinned => found.fixable(Some(self.null_deletes(path))),
            _ => {}
        }
        Descend::No
    }

    /// Applied: 409 when the body pins a stale resourceVersion, otherwise
    /// the object merged (and whether anything changed).
    fn apply(&self, body: &Value, object: &Value) -> Option<Applied> {
        let mut merged = object.clone();
        apply::merge::apply_as(&mut merged, body, self.options.semantics);
        let unchanged = crate::gojson::stored_eq(&merged, object);
        let outcome = body::stale(body, object, true).unwrap_or_else(|| body::applied(unchanged));
        Some(Applied {
            outcome,
            merged: Some(merged),
            reported: false,
        })
    }

    fn fails_now(outcome: &Outcome) -> Finding {
        let cause = outcome.cause.as_deref().unwrap_or("");
        let message = message!(FailsNow "merge", cause);
        Finding::new(Rule::FailsNow, None, outcome.path.as_deref(), message)
    }

    fn overwrites(&self, body: &Value, _lists: &[List<'b>]) -> Vec<Overwrite> {
        let overwrite = |(path, reason)| Overwrite { path, reason };
        merge::overwrites(body).into_iter().map(overwrite).collect()
    }

    /// What a strategic merge patch would do instead, list by list, when it
    /// differs (a built-in kind whose lists merge by key or as a set).
    fn types(&self, _body: &Value, found: &[List<'b>]) -> Option<Types> {
        if found.is_empty() {
            return None;
        }
        let custom = self.schema.is_some_and(|k| !k.is_builtin())
            || self
                .kind
                .is_some_and(|k| kinds::served(k) == Served::Custom);
        let (lists, differ) =
            body::list_types(found, self.kind, self.options.object.as_ref(), custom);
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
}

impl Merge<'_> {
    /// How a strategic merge patch would merge the list at `path` (`smp`:
    /// as the schema says) when that differs from a merge patch's whole
    /// replacement: by key or as a set for a built-in kind (with `", as
    /// for a Deployment"` when the kind was guessed from the path), keyed
    /// by its schema for a custom resource (with its keys).
    fn keyed(&self, smp: ListSmp<'static>, path: &str) -> Option<(Smp<'static>, String)> {
        match smp {
            ListSmp::Schema(smp @ (Smp::MergeByKey(_) | Smp::MergeScalars)) => {
                Some((smp, String::new()))
            }
            ListSmp::Custom { keyed: true } => {
                let keys = (self.schema)
                    .and_then(|k| k.at(Pointer::parse(path).ok()?))
                    .and_then(|place| match place.list_type() {
                        Some(schema::ListType::Map(keys)) => Some(keys.join(", ")),
                        _ => None,
                    });
                Some((Smp::ReplaceList, keys.unwrap_or_default()))
            }
            ListSmp::Unknown if self.kind.is_none() => lists::keyed_in_some_kind(path)
                .map(|(smp, kind)| (smp, message!(MergeReplacesList "in-kind", kind))),
            _ => None,
        }
    }

    /// The finding for a list the merge patch replaces whole: what it
    /// deletes on the current object, and what a strategic merge patch
    /// would do instead (`keyed`, from [`Merge::keyed`]). `None` for a
    /// list nobody else is known to write, and no schema that merges it:
    /// replacing it is what the writer means (a chart's custom resource
    /// spec list).
    fn list_replaced(
        &self,
        path: &str,
        items: &[Value],
        keyed: Option<&(Smp<'static>, String)>,
    ) -> Option<Finding> {
        let (_, sharing) = writers_of(self.kind, path);
        if !sharing.is_shared() && keyed.is_none() {
            return None;
        }
        let merge_key = match keyed {
            Some((Smp::MergeByKey(k), _)) => Some(*k),
            _ => None,
        };
        let object = self.options.object.as_ref();
        let gone = match lists::not_listed(object, path, items, merge_key) {
            Some(names) if !names.is_empty() => {
                message!(MergeReplacesList "gone", names = lists::named(&names))
            }
            _ => String::new(),
        };
        let (path_shown, list) = (shown(path), sharing.list());
        // A built-in kind's list the table has no writer for: say so
        // rather than nothing (the schema still merges it by key).
        let builtin = matches!(keyed, Some((Smp::MergeByKey(_) | Smp::MergeScalars, _)));
        let writers = if sharing.is_shared() {
            message!(MergeReplacesList "writers", writers = list, path = path_shown)
        } else if matches!(sharing, Sharing::Unknown) && builtin {
            message!(MergeReplacesList "no-writers", path = path_shown)
        } else {
            String::new()
        };
        let item = paths::item_at(self.kind, path);
        let (field, plural) = (lists::field_name(path), lists::plural(&item));
        let advice = match keyed {
            Some((Smp::MergeByKey(key), in_kind)) => {
                message!(MergeReplacesList "by-key", in_kind, field, key, items = plural)
            }
            Some((Smp::MergeScalars, in_kind)) => {
                message!(MergeReplacesList "as-set", in_kind, field, items = plural)
            }
            Some((_, keys)) => message!(MergeReplacesList "custom-keys", keys),
            None => String::new(),
        };
        let keyed = match merge_key {
            Some(_) => message!(MergeReplacesList "keyed"),
            None => String::new(),
        };
        let elements = one_or_many(items.len(), "element", "elements");
        let message = message!(MergeReplacesList "list", path = path_shown, count = items.len(),
            elements, keyed, item = paths::with_article(&item), gone, writers, advice);
        let mut finding = body::finding(Rule::MergeReplacesList, path, message);
        finding.writers = sharing.names();
        Some(finding)
    }

    /// The finding for a null member: a shared list or map deleted whole,
    /// or a member deleted.
    fn null_deletes(&self, path: &str) -> Finding {
        let (shape, sharing) = writers_of(self.kind, path);
        let (item, writers, path_shown) =
            (paths::item_at(self.kind, path), sharing.list(), shown(path));
        let (rule, message) = match shape.map(|(shape, _)| shape) {
            Some(Shape::List) if sharing.is_shared() => {
                let message = message!(MergeReplacesList "null", path = path_shown, item, writers);
                (Rule::MergeReplacesList, message)
            }
            Some(Shape::Map) if sharing.is_shared() => {
                let message = message!(WholeCollectionWrite "merge-null", path = path_shown,
                    shape = Shape::Map.as_str(), item, writers);
                (Rule::WholeCollectionWrite, message)
            }
            _ => (
                Rule::MergeNullDeletes,
                message!(MergeNullDeletes "member", path = path_shown),
            ),
        };
        let mut finding = body::finding(rule, path, message);
        finding.writers = sharing.names();
        finding
    }
}
