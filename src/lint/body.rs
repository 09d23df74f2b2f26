//! The plan a merge patch and a strategic merge patch share: walk the
//! body's members, check each (directives, values a map of strings cannot
//! hold, lists and nulls), apply the body to the current object, and fix
//! what can be fixed with the JSON patch of the same change. What the two
//! do differently is a [`Dialect`]: [`super::merge`] and [`super::smp`].

use serde_json::Value;

use super::fix::{self, Pending};
use super::lists::{self, ListSmp, ListTypes, Types, LISTS_SHOWN};
use super::read::is_directive;
use super::rules::message;
use super::words::{not_a_string, shown};
use super::writers::{self, Shape, Sharing};
use super::{paths, Analysis, BodyKind, Finding, Options, Outcome, Report, Rule};
use crate::gojson;
use crate::limits::MEMBER_PATH_BYTES;
use crate::pointer::{escape, Pointer};
use crate::schema::Smp;
use crate::status::{Resource, Status};
use crate::strategy::{Overwrite, Precondition};

/// What sets one kind of body apart: how it reads each member, and how
/// the server applies it.
pub(super) trait Dialect<'b> {
    /// What the walk carries into each object (a strategic merge patch:
    /// the object's type in the schema).
    type Node: Copy;
    /// The kind of body.
    const KIND: BodyKind;
    /// The object's kind, which decides who writes a field and which
    /// maps hold strings.
    fn kind_name(&self) -> Option<&str>;
    /// Checks a directive (`$patch`, `$retainKeys`, `$setElementOrder/x`,
    /// `$deleteFromPrimitiveList/x`): the walk goes no further into it.
    fn directive(&mut self, member: &Member<'_, 'b, Self::Node>, found: &mut Found<'b>);
    /// Checks any other member; says what the walk goes into.
    fn member(
        &mut self,
        member: &Member<'_, 'b, Self::Node>,
        found: &mut Found<'b>,
    ) -> Descend<Self::Node>;
    /// A finding about the whole body, once its members are checked.
    fn whole(&self, _body: &Value, _lists: &[List<'b>]) -> Option<Finding> {
        None
    }
    /// The body applied to `object` as the server applies it (`None`: no
    /// answer lint can vouch for).
    fn apply(&self, body: &Value, object: &Value) -> Option<Applied>;
    /// The finding for a body the server refuses on the current object.
    fn fails_now(outcome: &Outcome) -> Finding;
    /// What the body overwrites without a check.
    fn overwrites(&self, body: &Value, lists: &[List<'b>]) -> Vec<Overwrite>;
    /// What each patch type would do with the body's lists.
    fn types(&self, body: &Value, lists: &[List<'b>]) -> Option<Types>;
}

/// One member of a body, as the walk visits it.
#[derive(Clone, Copy)]
pub(super) struct Member<'m, 'b, N> {
    pub path: &'m str,
    /// The pointer of the object holding it.
    pub parent: &'m str,
    pub key: &'b str,
    pub value: &'b Value,
    /// What the walk carries for the object holding it.
    pub node: N,
}

/// What the walk goes into after a member.
pub(super) enum Descend<N> {
    No,
    /// The member, when it is an object.
    Into(N),
    /// The objects in the member, when it is a list.
    Elements(N),
}

/// One list of the body.
pub(super) struct List<'b> {
    pub path: String,
    pub items: &'b [Value],
    /// How a strategic merge patch merges it.
    pub smp: ListSmp<'static>,
    /// An element of it is `{"$patch": "replace"}`.
    pub replaced: bool,
}

/// What the checks of the members found.
#[derive(Default)]
pub(super) struct Found<'b> {
    pub pending: Vec<Pending>,
    /// The findings (indices in `pending`) the JSON patch of the same
    /// change fixes.
    pub wants_fix: Vec<usize>,
    pub lists: Vec<List<'b>>,
}

impl Found<'_> {
    pub fn push(&mut self, finding: Option<Finding>) {
        self.pending.extend(finding.map(Pending::new));
    }

    /// Records a finding the JSON patch of the same change fixes.
    pub fn fixable(&mut self, finding: Option<Finding>) {
        if let Some(finding) = finding {
            self.wants_fix.push(self.pending.len());
            self.pending.push(Pending::new(finding));
        }
    }
}

/// The body applied to the current object.
pub(super) struct Applied {
    pub outcome: Outcome,
    /// The object as the body leaves it, for the JSON patch of the same
    /// change.
    pub merged: Option<Value>,
    /// Another finding already says why it fails (415, 413).
    pub reported: bool,
}

/// The rules of a body read by `dialect`, `root` carried into its top.
pub(super) fn plan<'b, D: Dialect<'b>>(
    mut dialect: D,
    body: &'b Value,
    root: D::Node,
    options: &Options,
) -> Analysis {
    let mut found = Found::default();
    walk(body, root, |member| {
        if is_directive(member.key) {
            dialect.directive(member, &mut found);
            return Descend::No;
        }
        found.push(non_string(options, dialect.kind_name(), member));
        dialect.member(member, &mut found)
    });
    let (mut pending, wants_fix, lists) = (found.pending, found.wants_fix, found.lists);
    pending.extend(dialect.whole(body, &lists).map(Pending::new));
    let object = options.object.as_ref();
    let applied = object.and_then(|object| dialect.apply(body, object));
    if let Some(applied) = applied
        .as_ref()
        .filter(|a| !a.outcome.applies && !a.reported)
    {
        pending.push(Pending::new(D::fails_now(&applied.outcome)));
    }
    let pinned = pins_resource_version(body);
    let conflicts = pinned.then(|| pin(&mut pending)).into_iter().collect();
    let merged = applied.as_ref().and_then(|a| a.merged.as_ref());
    if let Some(fix) = object
        .zip(merged)
        .and_then(|(o, m)| fix::rewrite(o, m, &options.policy))
    {
        for &i in &wants_fix {
            pending[i].draft = Some(fix.clone());
        }
    }
    let report = Report {
        outcome: applied.map(|a| a.outcome),
        conflicts,
        overwrites: match pinned {
            true => Vec::new(),
            false => dialect.overwrites(body, &lists),
        },
        types: dialect.types(body, &lists),
        ..Report::new(D::KIND, options.semantics)
    };
    Analysis { report, pending }
}

/// The members of a body, depth first, each with its pointer and its
/// parent's: objects (and lists' objects) are walked into as `visit`
/// says, after being visited. Iterative: the input's depth budget bounds
/// it, not the stack. A member whose pointer would be longer than
/// [`MEMBER_PATH_BYTES`] is left out (with everything below it), so a
/// member costs at most that much.
pub(super) fn walk<'b, N: Copy>(
    body: &'b Value,
    root: N,
    mut visit: impl FnMut(&Member<'_, 'b, N>) -> Descend<N>,
) {
    let Value::Object(map) = body else { return };
    // Each open object: its members still to visit, its pointer, its node.
    let mut stack: Vec<(serde_json::map::Iter<'b>, String, N)> =
        vec![(map.iter(), String::new(), root)];
    while let Some((members, parent, node)) = stack.last_mut() {
        let Some((key, value)) = members.next() else {
            stack.pop();
            continue;
        };
        let Some(path) = member_path(parent, key) else {
            continue;
        };
        let (parent, node) = (parent.as_str(), *node);
        match (
            visit(&Member {
                path: &path,
                parent,
                key,
                value,
                node,
            }),
            value,
        ) {
            (Descend::Into(node), Value::Object(map)) => stack.push((map.iter(), path, node)),
            (Descend::Elements(node), Value::Array(items)) => {
                for (i, item) in items.iter().enumerate().rev() {
                    if let Value::Object(map) = item {
                        stack.push((map.iter(), format!("{path}/{i}"), node));
                    }
                }
            }
            _ => {}
        }
    }
}

/// `parent/key` as a JSON pointer, `None` past [`MEMBER_PATH_BYTES`]
/// (checked before anything is copied).
fn member_path(parent: &str, key: &str) -> Option<String> {
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

/// The finding of a body that pins its resourceVersion, and the
/// precondition it is.
fn pin(pending: &mut Vec<Pending>) -> Precondition {
    let path = Some("/metadata/resourceVersion");
    let finding = Finding::new(
        Rule::RvPinnedBody,
        None,
        path,
        message!(RvPinnedBody "body"),
    );
    pending.push(Pending::new(finding));
    Precondition {
        path: String::new(),
        reason: "the body pins metadata.resourceVersion: any write to the object since your read fails it (409)".to_owned(),
    }
}

/// The outcome of a body that pins a resourceVersion the object is not at
/// (`null_pins`: a null one counts): 409.
pub(super) fn stale(body: &Value, object: &Value, null_pins: bool) -> Option<Outcome> {
    let stored = object.pointer("/metadata/resourceVersion");
    let rv = body
        .pointer("/metadata/resourceVersion")
        .filter(|rv| (null_pins || !rv.is_null()) && stored != Some(*rv))?;
    let (rv, stored) = (
        gojson::to_string(rv),
        stored.map_or_else(|| "none".to_owned(), gojson::to_string),
    );
    let name = object.pointer("/metadata/name").and_then(Value::as_str);
    Some(Outcome {
        applies: false,
        index: None,
        path: Some("/metadata/resourceVersion".to_owned()),
        cause: Some(message!(FailsNow "stale", rv, stored)),
        response: Some(Status::stale(
            &Resource::of(object),
            name.unwrap_or_default(),
        )),
        unchanged: true,
    })
}

/// The outcome of a body that applies (`unchanged`: and changes nothing).
pub(super) fn applied(unchanged: bool) -> Outcome {
    Outcome {
        applies: true,
        index: None,
        path: None,
        cause: None,
        response: None,
        unchanged,
    }
}

/// A value a map of strings cannot hold.
fn non_string<N>(
    options: &Options,
    kind: Option<&str>,
    member: &Member<'_, '_, N>,
) -> Option<Finding> {
    let Member { path, value, .. } = *member;
    if value.is_string()
        || value.is_null()
        || value
            .as_object()
            .is_some_and(|m| m.keys().any(|k| is_directive(k)))
    {
        return None;
    }
    let map = Pointer::parse(member.parent).ok()?;
    if !paths::holds_strings(&options.policy, kind, map) {
        return None;
    }
    let message = message!(NonStringValue "member", path = shown(path), what = not_a_string(value),
        value = gojson::to_string(value), map = shown(map.as_str()));
    Some(finding(Rule::NonStringValue, path, message))
}

/// A finding of `rule` about the member at `path`.
pub(super) fn finding(rule: Rule, path: &str, message: String) -> Finding {
    Finding::new(rule, None, Some(path), message)
}

/// The shape the writers table gives the field at `path` (and what it
/// holds), and who writes it.
pub(super) fn writers_of(
    kind: Option<&str>,
    path: &str,
) -> (Option<(Shape, &'static str)>, Sharing) {
    match Pointer::parse(path) {
        Ok(pointer) => (
            writers::shape(kind, pointer),
            writers::sharing(kind, pointer),
        ),
        Err(_) => (None, Sharing::Unknown),
    }
}

/// The first lists' [`ListTypes`] (all read as replaced whole by a
/// custom resource when `custom`), and the paths of every list a merge
/// patch replaces whole where a strategic merge patch merges it.
pub(super) fn list_types(
    found: &[List<'_>],
    kind: Option<&str>,
    object: Option<&Value>,
    custom: bool,
) -> (Vec<ListTypes>, Vec<String>) {
    let shown = (found.iter().take(LISTS_SHOWN))
        .map(|l| {
            let smp = if custom {
                ListSmp::Custom { keyed: false }
            } else {
                l.smp
            };
            lists::list_types(smp, kind, object, &l.path, l.items, l.replaced)
        })
        .collect();
    let merges = |l: &&List<'_>| {
        l.replaced
            || matches!(
                l.smp,
                ListSmp::Schema(Smp::MergeByKey(_) | Smp::MergeScalars)
            )
    };
    let differ = found
        .iter()
        .filter(merges)
        .map(|l| l.path.clone())
        .collect();
    (shown, differ)
}
