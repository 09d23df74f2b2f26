//! The kind of the object a patch is sent to, from the code: the client
//! call (`CoreV1().Nodes().Patch`, KubeVirt's
//! `VirtualMachineInstance(ns).Patch`, a dynamic client's `Resource(gvr)`),
//! or the declared type of the object controller-runtime is handed
//! (`Patch(ctx, node, ...)` with `node *corev1.Node`).

use tree_sitter::Node as TsNode;

use super::Func;
use crate::lint::kinds::{self, Served};
use crate::scan::go::field;
use crate::scan::value::Val;

/// The object a patch is sent to, as far as the code says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// Its kind (`Node`, `VirtualMachineInstance`, `Cluster`).
    pub kind: String,
    /// Built in or a custom resource.
    pub served: Served,
}

/// Type names that say nothing of the kind.
const GENERIC: [&str; 9] = [
    "Object",
    "Unstructured",
    "PartialObjectMetadata",
    "RawExtension",
    "Interface",
    "ObjectMeta",
    "any",
    "interface{}",
    "T",
];

/// Client accessors of kube-apiserver's own API groups (`CoreV1()`).
const BUILTIN_GROUPS: [&str; 19] = [
    "Core",
    "Apps",
    "Batch",
    "Autoscaling",
    "Policy",
    "Networking",
    "Rbac",
    "Storage",
    "Apiextensions",
    "Admissionregistration",
    "Coordination",
    "Discovery",
    "Scheduling",
    "Certificates",
    "Node",
    "Flowcontrol",
    "Resource",
    "Events",
    "Apiregistration",
];

/// `CoreV1` is a group accessor of the core group: `Some(true)` for
/// kube-apiserver's groups, `Some(false)` for others (`KubevirtV1`,
/// `CdiV1beta1`), `None` when `name` is no group accessor.
fn group_accessor(name: &str) -> Option<bool> {
    let at = name.rfind('V')?;
    let (group, version) = name.split_at(at);
    let digits =
        version[1..].trim_end_matches(|c: char| c.is_ascii_alphabetic() || c.is_ascii_digit());
    let looks = !group.is_empty()
        && digits.is_empty()
        && version[1..].starts_with(|c: char| c.is_ascii_digit())
        && group.starts_with(|c: char| c.is_ascii_uppercase());
    looks.then(|| BUILTIN_GROUPS.contains(&group))
}

/// The kind a resource name means (`nodes`, `VirtualMachineInstance`,
/// `virtualmachineinstances.kubevirt.io`), when it is a known one.
fn known(name: &str) -> Option<Target> {
    let found = kinds::resource(name)?;
    let kind = found.kind?;
    Some(Target {
        kind,
        served: found.served,
    })
}

/// `VirtualMachineBackupTrackers` as a kind: `VirtualMachineBackupTracker`.
fn singular(plural: &str) -> String {
    if let Some(stem) = plural.strip_suffix("ies") {
        return format!("{stem}y");
    }
    for suffix in ["sses", "xes", "ches", "shes"] {
        if plural.ends_with(suffix) {
            return plural[..plural.len() - 2].to_owned();
        }
    }
    plural.strip_suffix('s').unwrap_or(plural).to_owned()
}

impl<'f> Func<'_, 'f, '_> {
    /// The declared Go type of `expr` (a variable, a field of a struct of
    /// the package, a copy of either).
    pub(super) fn type_of(&self, expr: &str) -> Option<String> {
        let e = expr.trim().trim_start_matches(['&', '*']);
        if let Some(t) = self.types.get(e) {
            return Some(t.clone());
        }
        if let Some(base) = e.strip_suffix(".DeepCopy()") {
            return self.type_of(base);
        }
        let (base, name) = e.rsplit_once('.')?;
        let base_ty = self.type_of(base)?;
        let base_ty = base_ty.trim_start_matches('*');
        let scope = &self.world.scopes[self.world.units[self.unit].scope];
        scope.fields.get(base_ty)?.get(name).cloned()
    }

    /// The kind a Go type names (`*virtv1.VirtualMachineInstance`), when
    /// it is an API object's type.
    pub(super) fn kind_of_type(&self, ty: &str) -> Option<Target> {
        let t = ty.trim().trim_start_matches(['*', '[', ']', '*']);
        let (pkg, name) = match t.rsplit_once('.') {
            Some((p, n)) => (Some(p), n),
            None => (None, t),
        };
        if GENERIC.contains(&name) || !name.starts_with(|c: char| c.is_ascii_uppercase()) {
            return None;
        }
        let path = pkg.and_then(|p| self.world.units[self.unit].paths.get(p));
        if let Some(target) = known(name) {
            return Some(target);
        }
        let path = path?;
        let served = if path.starts_with("k8s.io/api/") {
            Served::Builtin
        } else if path.starts_with("k8s.io/") || !path.contains("/api") {
            return None;
        } else {
            Served::Custom
        };
        Some(Target {
            kind: name.to_owned(),
            served,
        })
    }

    /// The kind of the object `obj` (controller-runtime's `Patch(ctx,
    /// obj, ...)`), by its declared type.
    pub(super) fn object_target(&self, obj: TsNode<'f>) -> Option<Target> {
        let (canonical, _) = self.canonical(self.text(obj));
        let ty = self
            .type_of(self.text(obj))
            .or_else(|| self.type_of(&canonical))?;
        self.kind_of_type(&ty)
    }

    /// The kind a client-go style call chain before `.Patch` names
    /// (`c.clientset.CoreV1().Nodes()`, `virtClient.VirtualMachineInstance(ns)`,
    /// `dyn.Resource(gvr).Namespace(ns)`, `n.nodeClient`).
    pub(super) fn client_target(&mut self, operand: TsNode<'f>) -> Option<Target> {
        let mut node = operand;
        let mut group: Option<bool> = None;
        let mut names: Vec<(String, Option<TsNode<'f>>)> = Vec::new();
        for _ in 0..8 {
            let (name, next, args) = match node.kind() {
                "call_expression" => {
                    let function = field(node, "function")?;
                    let args = field(node, "arguments");
                    match function.kind() {
                        "selector_expression" => (
                            field(function, "field").map(|f| self.text(f)),
                            field(function, "operand"),
                            args,
                        ),
                        _ => (Some(self.text(function)), None, args),
                    }
                }
                "selector_expression" => (
                    field(node, "field").map(|f| self.text(f)),
                    field(node, "operand"),
                    None,
                ),
                "identifier" => (Some(self.text(node)), None, None),
                _ => (None, None, None),
            };
            if let Some(name) = name {
                if let Some(builtin) = group_accessor(name) {
                    group = Some(builtin);
                } else {
                    names.push((name.to_owned(), args));
                }
            }
            match next {
                Some(n) => node = n,
                None => break,
            }
        }
        self.target_of_names(&names, group)
    }

    fn target_of_names(
        &mut self,
        names: &[(String, Option<TsNode<'f>>)],
        group: Option<bool>,
    ) -> Option<Target> {
        for (name, args) in names {
            if name == "Resource" {
                let arg = args.and_then(|a| super::super::go::children(a).into_iter().next())?;
                return gvr_target(&self.expr(arg));
            }
            if matches!(name.as_str(), "Namespace" | "Status" | "SubResource") {
                continue;
            }
            if args.is_some() {
                if let Some(target) = known(name) {
                    return Some(target);
                }
            }
            let stem = name
                .strip_suffix("Client")
                .or_else(|| name.strip_suffix("client"))
                .or_else(|| name.strip_suffix("Interface"));
            if let Some(target) = stem.filter(|s| s.len() >= 3).and_then(known) {
                return Some(target);
            }
            if args.is_some() && name.starts_with(|c: char| c.is_ascii_uppercase()) {
                return group.map(|builtin| Target {
                    kind: singular(name),
                    served: if builtin {
                        Served::Builtin
                    } else {
                        Served::Custom
                    },
                });
            }
        }
        None
    }
}

/// The kind a `schema.GroupVersionResource` names.
fn gvr_target(gvr: &Val) -> Option<Target> {
    let Val::Object(members) = gvr else {
        return None;
    };
    let get = |k: &str| {
        members
            .iter()
            .find(|(name, _)| name == k)
            .and_then(|(_, v)| v.literal())
    };
    let resource = get("Resource")?;
    let group = get("Group").unwrap_or_default();
    let name = if group.is_empty() {
        resource.clone()
    } else {
        format!("{resource}.{group}")
    };
    known(&name).or_else(|| {
        (!group.is_empty()).then(|| Target {
            kind: singular(&resource),
            served: kinds::resource(&name).map_or(Served::Unknown, |r| r.served),
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_accessors_and_plurals() {
        assert_eq!(group_accessor("CoreV1"), Some(true));
        assert_eq!(group_accessor("AppsV1"), Some(true));
        assert_eq!(group_accessor("CdiV1beta1"), Some(false));
        assert_eq!(group_accessor("KubevirtV1"), Some(false));
        assert_eq!(group_accessor("VirtualMachineInstance"), None);
        assert_eq!(group_accessor("Nodes"), None);
        assert_eq!(
            singular("VirtualMachineBackupTrackers"),
            "VirtualMachineBackupTracker"
        );
        assert_eq!(singular("Policies"), "Policy");
        assert_eq!(singular("Ingresses"), "Ingress");
        assert_eq!(known("Nodes").map(|t| t.kind).as_deref(), Some("Node"));
        assert_eq!(
            known("VirtualMachineInstance").map(|t| t.served),
            Some(Served::Custom)
        );
    }
}
