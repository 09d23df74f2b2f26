//! Changes a function makes to the collections of an object that other
//! writers also fill (finalizers, conditions, owner references, labels,
//! annotations): what a `MergeFrom` patch sends whole.

use tree_sitter::Node as TsNode;

use super::imports::Pkg;
use super::Func;
use crate::scan::go::{field, Pos};
use crate::scan::value::Val;

/// A collection of an object that other writers also fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Coll {
    /// `metadata.finalizers`.
    Finalizers,
    /// `status.conditions`.
    Conditions,
    /// `metadata.ownerReferences`.
    OwnerReferences,
    /// `metadata.labels`.
    Labels,
    /// `metadata.annotations`.
    Annotations,
}

impl Coll {
    /// The member's JSON path.
    pub fn path(self) -> &'static str {
        match self {
            Coll::Finalizers => "/metadata/finalizers",
            Coll::Conditions => "/status/conditions",
            Coll::OwnerReferences => "/metadata/ownerReferences",
            Coll::Labels => "/metadata/labels",
            Coll::Annotations => "/metadata/annotations",
        }
    }

    /// True for lists (a merge patch replaces them whole).
    pub fn is_list(self) -> bool {
        matches!(
            self,
            Coll::Finalizers | Coll::Conditions | Coll::OwnerReferences
        )
    }

    fn of_field(name: &str) -> Option<Coll> {
        Some(match name {
            "Finalizers" | "SetFinalizers" => Coll::Finalizers,
            "Conditions" | "SetConditions" => Coll::Conditions,
            "OwnerReferences" | "SetOwnerReferences" => Coll::OwnerReferences,
            "Labels" | "SetLabels" => Coll::Labels,
            "Annotations" | "SetAnnotations" => Coll::Annotations,
            _ => return None,
        })
    }
}

/// A change the function makes to an object's collection.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    /// The object changed (its root expression).
    pub object: String,
    /// Which collection.
    pub coll: Coll,
    /// Where.
    pub at: Pos,
    /// The call or assignment, as written (cut short).
    pub code: String,
}

/// The object an expression belongs to: `&obj.Status.Conditions` is
/// `obj`, `kvCopy.ObjectMeta.Finalizers` is `kvCopy`.
pub(super) fn root(expr: &str) -> String {
    let mut e = expr.trim();
    while let Some(rest) = e.strip_prefix(['&', '*']) {
        e = rest.trim();
    }
    let e = e.trim_start_matches('(').trim_end_matches(')');
    let mut parts: Vec<&str> = e.split('.').collect();
    const FIELDS: [&str; 12] = [
        "ObjectMeta",
        "Status",
        "Spec",
        "Finalizers",
        "OwnerReferences",
        "Labels",
        "Annotations",
        "Conditions",
        "GetFinalizers()",
        "GetLabels()",
        "GetAnnotations()",
        "GetOwnerReferences()",
    ];
    while parts.len() > 1 && parts.last().is_some_and(|p| FIELDS.contains(p)) {
        parts.pop();
    }
    parts.join(".")
}

/// The argument holding the object and the collection a controllerutil,
/// meta or conditions helper changes.
pub(super) fn collection_helper(pkg: Pkg, name: &str) -> Option<(usize, Coll)> {
    match (pkg, name) {
        (Pkg::Controllerutil, "AddFinalizer" | "RemoveFinalizer") => Some((0, Coll::Finalizers)),
        (
            Pkg::Controllerutil,
            "SetControllerReference"
            | "SetOwnerReference"
            | "RemoveOwnerReference"
            | "RemoveControllerReference",
        ) => Some((1, Coll::OwnerReferences)),
        (Pkg::Meta, "SetStatusCondition" | "RemoveStatusCondition") => Some((0, Coll::Conditions)),
        (Pkg::Conditions, n) if n.starts_with("Mark") || n.starts_with("Set") || n == "Delete" => {
            Some((0, Coll::Conditions))
        }
        _ => None,
    }
}

/// Methods that change a collection of their receiver.
pub(super) fn mutating_method(name: &str) -> Option<Coll> {
    match name {
        "SetFinalizers" | "AddFinalizer" | "RemoveFinalizer" | "SetOwnerReferences"
        | "SetLabels" | "SetAnnotations" => Coll::of_field(name).or(Some(Coll::Finalizers)),
        "SetConditions" | "SetCondition" | "SetStatusCondition" => Some(Coll::Conditions),
        _ => None,
    }
}

/// Functions (of packages the scanner does not know) that change a
/// collection of their first argument, by name (`controller.AddFinalizer(vmi, f)`).
pub(super) fn mutating_function(name: &str) -> Option<Coll> {
    let verb = ["Add", "Remove", "Set", "Ensure"]
        .iter()
        .any(|v| name.starts_with(v));
    (verb && name.ends_with("Finalizer")).then_some(Coll::Finalizers)
}

impl<'f> Func<'_, 'f, '_> {
    /// Notes an assignment to an object's collection (`obj.Finalizers =
    /// ...`); `m[k] = v` makes the map `m` no longer the literal it was.
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
        let last = text.rsplit('.').next().unwrap_or("");
        let last = last.split('[').next().unwrap_or(last);
        if !text.contains('.') {
            return;
        }
        if let Some(coll) = Coll::of_field(last) {
            self.change(text, coll, target);
        }
    }

    /// Notes a call that changes `object`'s collection.
    pub(super) fn change(&mut self, object: &str, coll: Coll, call: TsNode<'f>) {
        let at = self.pos(call);
        let code = self.short(call);
        self.changes.push(Change {
            object: root(object),
            coll,
            at,
            code,
        });
    }
}
