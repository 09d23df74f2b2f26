//! Changes a function makes to objects (a finalizer added, owner
//! references set, containers edited): what a `MergeFrom` patch or a
//! patch helper sends, as JSON paths; and which object an expression
//! names, through the aliases the code makes (`cluster := s.cluster`, a
//! parameter for the caller's argument).

use std::collections::HashMap;

use tree_sitter::Node as TsNode;

use super::imports::Pkg;
use super::Func;
use crate::scan::go::{field, Pos};
use crate::scan::value::Val;

pub(super) const FINALIZERS: &str = "/metadata/finalizers";
pub(super) const OWNER_REFERENCES: &str = "/metadata/ownerReferences";
pub(super) const CONDITIONS: &str = "/status/conditions";
pub(super) const LABELS: &str = "/metadata/labels";
pub(super) const ANNOTATIONS: &str = "/metadata/annotations";

/// A change the function makes to an object.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The object changed (its root expression, through aliases).
    pub object: String,
    /// What changed, as a JSON pointer (`/metadata/finalizers`,
    /// `/spec/template/spec/containers`).
    pub path: String,
    /// Where.
    pub at: Pos,
    /// The call or assignment, as written (cut short).
    pub code: String,
    /// The object is the caller's (or this is the function the scan
    /// started from): the change outlives a followed call.
    pub outer: bool,
    /// The object's kind, when its declared type says.
    pub kind: Option<String>,
}

/// Fields of `ObjectMeta` (promoted: `obj.Labels` is `/metadata/labels`).
const META: [&str; 12] = [
    "Labels",
    "Annotations",
    "Finalizers",
    "OwnerReferences",
    "Name",
    "Namespace",
    "GenerateName",
    "ResourceVersion",
    "DeletionTimestamp",
    "ManagedFields",
    "UID",
    "Generation",
];

/// A Go field name as its JSON name (`OwnerReferences` is
/// `ownerReferences`, `DNSConfig` is `dnsConfig`, `UID` is `uid`).
pub(super) fn json_name(go: &str) -> String {
    let chars: Vec<char> = go.chars().collect();
    let upper = chars.iter().take_while(|c| c.is_ascii_uppercase()).count();
    let lower_to = match upper {
        0 => 0,
        n if n == chars.len() => n,
        1 => 1,
        n => n - 1,
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i < lower_to {
                c.to_ascii_lowercase()
            } else {
                *c
            }
        })
        .collect()
}

/// The JSON path a Go selector chain after the object writes:
/// `Spec.Template.Spec.Containers[0].Image` is
/// `/spec/template/spec/containers` (an element changed: the list is
/// what a merge patch sends).
pub(super) fn path_of_fields(fields: &str) -> String {
    let mut out = String::new();
    for (i, part) in fields.split('.').enumerate() {
        let (name, indexed) = match part.split_once('[') {
            Some((n, _)) => (n, true),
            None => (part, false),
        };
        let name = name.trim_end_matches("()");
        if name.is_empty() || name == "TypeMeta" {
            break;
        }
        if name == "ObjectMeta" {
            out.push_str("/metadata");
            continue;
        }
        if i == 0 && META.contains(&name) {
            out.push_str("/metadata");
        }
        out.push('/');
        out.push_str(&json_name(name));
        if indexed {
            break;
        }
    }
    out
}

/// The object an expression belongs to: `&obj.Status.Conditions` is
/// `obj`, `kvCopy.ObjectMeta.Finalizers` is `kvCopy`, `r.cluster` stays
/// `r.cluster`.
pub(super) fn root(expr: &str) -> String {
    split_object(expr).0
}

/// An expression split into its object and the fields after it.
fn split_object(expr: &str) -> (String, String) {
    let mut e = expr.trim();
    while let Some(rest) = e.strip_prefix(['&', '*']) {
        e = rest.trim();
    }
    let e = e.trim_start_matches('(').trim_end_matches(')');
    let parts: Vec<&str> = e.split('.').collect();
    let is_field = |p: &str| {
        let name = p.split('[').next().unwrap_or(p).trim_end_matches("()");
        name.starts_with(|c: char| c.is_ascii_uppercase()) || name.starts_with("Get")
    };
    let mut cut = parts.len();
    while cut > 1 && is_field(parts[cut - 1]) {
        cut -= 1;
    }
    (parts[..cut].join("."), parts[cut..].join("."))
}

/// The argument holding the object and the path a controllerutil, meta
/// or conditions helper changes.
pub(super) fn collection_helper(pkg: Pkg, name: &str) -> Option<(usize, &'static str)> {
    match (pkg, name) {
        (Pkg::Controllerutil, "AddFinalizer" | "RemoveFinalizer") => Some((0, FINALIZERS)),
        (
            Pkg::Controllerutil,
            "SetControllerReference"
            | "SetOwnerReference"
            | "RemoveOwnerReference"
            | "RemoveControllerReference",
        ) => Some((1, OWNER_REFERENCES)),
        (Pkg::Meta, "SetStatusCondition" | "RemoveStatusCondition") => Some((0, CONDITIONS)),
        (Pkg::Conditions, n) if n.starts_with("Mark") || n.starts_with("Set") || n == "Delete" => {
            Some((0, CONDITIONS))
        }
        _ => None,
    }
}

/// Methods that change a collection of their receiver.
pub(super) fn mutating_method(name: &str) -> Option<&'static str> {
    Some(match name {
        "SetFinalizers" | "AddFinalizer" | "RemoveFinalizer" => FINALIZERS,
        "SetOwnerReferences" => OWNER_REFERENCES,
        "SetLabels" => LABELS,
        "SetAnnotations" => ANNOTATIONS,
        "SetConditions" | "SetCondition" | "SetStatusCondition" => CONDITIONS,
        _ => return None,
    })
}

/// Functions (of packages the scanner does not follow) that change the
/// finalizers of their first argument, by name
/// (`controller.AddFinalizer(vmi, f)`).
pub(super) fn mutating_function(name: &str) -> Option<&'static str> {
    let verb = ["Add", "Remove", "Set", "Ensure"]
        .iter()
        .any(|v| name.starts_with(v));
    (verb && name.ends_with("Finalizer")).then_some(FINALIZERS)
}

/// The longest prefix of `expr` (at `.` boundaries, or its first name
/// before an index: `containers[i].Image`) that `map` holds, replaced.
fn replace_prefix<'m>(
    expr: &str,
    map: impl Fn(&str) -> Option<&'m (String, bool)>,
) -> Option<(String, bool)> {
    let parts: Vec<&str> = expr.split('.').collect();
    for k in (1..=parts.len()).rev() {
        let prefix = parts[..k].join(".");
        if let Some((to, outer)) = map(&prefix) {
            let mut out = to.clone();
            for p in &parts[k..] {
                out.push('.');
                out.push_str(p);
            }
            return Some((out, *outer));
        }
    }
    let head_len = expr
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|&i| expr[i..].starts_with('['))?;
    let (to, outer) = map(&expr[..head_len])?;
    Some((format!("{to}{}", &expr[head_len..]), *outer))
}

impl<'f> Func<'_, 'f, '_> {
    /// `expr` through the aliases: the expression the function the scan
    /// started from uses for the same object, and whether it is one (a
    /// local of a followed callee is not).
    pub(super) fn canonical(&self, expr: &str) -> (String, bool) {
        let mut cur = expr.trim().trim_start_matches(['&', '*']).to_owned();
        let top = self.follow.is_none();
        let mut outer = top;
        for _ in 0..4 {
            match replace_prefix(&cur, |p| self.aliases.get(p)) {
                Some((next, is_outer)) if next != cur => {
                    cur = next;
                    if is_outer {
                        outer = true;
                        break;
                    }
                }
                _ => break,
            }
        }
        if outer && !top {
            for _ in 0..4 {
                match replace_prefix(&cur, |p| self.outer.get(p)) {
                    Some((next, _)) if next != cur => cur = next,
                    _ => break,
                }
            }
        }
        (cur, outer)
    }

    /// The aliases a callee inherits: names of the function the scan
    /// started from.
    pub(super) fn outer_aliases(&self) -> HashMap<String, (String, bool)> {
        let mut out = self.outer.clone();
        for (name, (to, outer)) in &self.aliases {
            if *outer || self.follow.is_none() {
                out.insert(name.clone(), (to.clone(), true));
            }
        }
        out
    }

    /// `name` stands for `expr` of the caller (canonical there).
    pub(super) fn params_alias(&mut self, name: String, expr: String) {
        self.aliases.insert(name, (expr, true));
    }

    /// Notes that `name` stands for the expression `expr` (`x := s.obj`).
    pub(super) fn alias(&mut self, name: &str, expr: &str) {
        let (to, outer) = self.canonical(expr);
        if to != name {
            self.aliases.insert(name.to_owned(), (to, outer));
        }
    }

    /// Notes an assignment to a field of an object (`obj.Finalizers =
    /// ...`, `deploy.Spec.Template.Spec.Containers[0].Image = ...`); `m[k]
    /// = v` makes the map `m` no longer the literal it was.
    pub(super) fn note_change(&mut self, target: TsNode<'f>) {
        let text = self.text(target);
        if target.kind() == "index_expression" {
            if let Some(operand) = field(target, "operand") {
                let name = self.text(operand).to_owned();
                if let Some(val @ (Val::Object(_) | Val::List(_))) = self.env.get(&name) {
                    let shape = val.shape();
                    self.env.insert(name.clone(), Val::opaque(shape, name));
                }
            }
        }
        let (text, _) = self.canonical(text);
        if !text.contains('.') {
            return;
        }
        let (object, fields) = split_object(&text);
        let path = path_of_fields(&fields);
        if !path.is_empty() {
            self.change(&object, &path, target);
        }
    }

    /// Notes a change at `path` of `object`.
    pub(super) fn change(&mut self, object: &str, path: &str, at: TsNode<'f>) {
        let written = root(object);
        let kind = self
            .type_of(&written)
            .and_then(|t| self.kind_of_type(&t))
            .map(|t| t.kind);
        let (object, outer) = self.canonical(&written);
        let at_pos = self.pos(at);
        let code = self.short(at);
        self.changes.push(Change {
            object,
            path: path.to_owned(),
            at: at_pos,
            code,
            outer,
            kind,
        });
    }

    /// Notes that `object` is written whole or patched here (`Update`,
    /// `Create`, `Patch`): the changes made to it so far are sent.
    pub(super) fn written(&mut self, object: &str) {
        let (object, _) = self.canonical(&root(object));
        self.writes.push((object, self.changes.len()));
    }

    /// Changes not sent by this function: made to an object it neither
    /// writes nor patches afterwards (a patch helper of the caller's, or
    /// of a function that runs it, sends them).
    pub(super) fn dangling(&self) -> Vec<Change> {
        self.changes
            .iter()
            .enumerate()
            .filter(|(i, c)| {
                !self
                    .writes
                    .iter()
                    .any(|(object, seq)| *object == c.object && seq > i)
            })
            .map(|(_, c)| c.clone())
            .collect()
    }
}
