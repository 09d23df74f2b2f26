//! Kinds by the names kubectl accepts for them (`cm`, `deploy`, `vmi`,
//! `virtualmachineinstances.kubevirt.io`, `deployment/web`), and whether a
//! kind is built into kube-apiserver or served from a custom resource
//! definition (a strategic merge patch to a custom resource is answered
//! 415).
//!
//! Seam: [`is_builtin`] and [`resource`] ask the schema tables first
//! ([`crate::schema::builtin`]: the kinds whose definitions are compiled
//! in, with their plural, singular and short names), then the small table
//! below (kube-apiserver's other resources, KubeVirt's and CDI's custom
//! resources). Nothing else in lint depends on how the answer is found.
//!
//! ```
//! use patchlab::lint::kinds::{resource, Served};
//!
//! let cm = resource("cm").unwrap();
//! assert_eq!((cm.kind.as_deref(), cm.served), (Some("ConfigMap"), Served::Builtin));
//! let vmi = resource("vmi/testvmi").unwrap();
//! assert_eq!((vmi.kind.as_deref(), vmi.served), (Some("VirtualMachineInstance"), Served::Custom));
//! let crd = resource("gateways.gateway.networking.k8s.io").unwrap();
//! assert_eq!((crd.kind, crd.served), (None, Served::Custom));
//! assert_eq!(resource("deploy.apps").unwrap().kind.as_deref(), Some("Deployment"));
//! ```

/// Who serves a resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Served {
    /// kube-apiserver's own types: every patch type works.
    Builtin,
    /// A custom resource: JSON patch, merge patch and apply only (415 for
    /// a strategic merge patch).
    Custom,
    /// Not known.
    Unknown,
}

impl Served {
    /// Built in when `builtin`, else custom.
    pub fn by(builtin: bool) -> Served {
        if builtin {
            Served::Builtin
        } else {
            Served::Custom
        }
    }
}

/// A resource as a command names it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// The resource type as typed (`vmi`, `deployment.apps`).
    pub typed: String,
    /// The kind, when the name is known (`VirtualMachineInstance`).
    pub kind: Option<String>,
    /// The API group, when known or written (`kubevirt.io`; empty for the
    /// core group).
    pub group: Option<String>,
    /// Built-in or custom.
    pub served: Served,
}

/// One known kind: its names as kubectl accepts them.
struct Known {
    kind: &'static str,
    group: &'static str,
    plural: &'static str,
    short: &'static [&'static str],
    builtin: bool,
}

const fn builtin(
    kind: &'static str,
    group: &'static str,
    plural: &'static str,
    short: &'static [&'static str],
) -> Known {
    Known {
        kind,
        group,
        plural,
        short,
        builtin: true,
    }
}

const fn custom(
    kind: &'static str,
    group: &'static str,
    plural: &'static str,
    short: &'static [&'static str],
) -> Known {
    Known {
        builtin: false,
        ..builtin(kind, group, plural, short)
    }
}

/// kube-apiserver's resources as of Kubernetes 1.32 (`kubectl
/// api-resources` on a 1.32 cluster; short names from kubernetes
/// `pkg/registry/*/*/storage/storage.go`, `ShortNames()`), and KubeVirt's
/// and CDI's custom resources (kubevirt
/// `pkg/virt-operator/resource/generate/components/crds.go`, `ShortNames`).
/// A resource name outside the built-in ones is served by a custom
/// resource definition.
#[rustfmt::skip]
static KNOWN: [Known; 71] = [
    builtin("Pod", "", "pods", &["po"]),
    builtin("Service", "", "services", &["svc"]),
    builtin("ConfigMap", "", "configmaps", &["cm"]),
    builtin("Secret", "", "secrets", &[]),
    builtin("Node", "", "nodes", &["no"]),
    builtin("Namespace", "", "namespaces", &["ns"]),
    builtin("PersistentVolume", "", "persistentvolumes", &["pv"]),
    builtin("PersistentVolumeClaim", "", "persistentvolumeclaims", &["pvc"]),
    builtin("ServiceAccount", "", "serviceaccounts", &["sa"]),
    builtin("Endpoints", "", "endpoints", &["ep"]),
    builtin("Event", "", "events", &["ev"]),
    builtin("LimitRange", "", "limitranges", &["limits"]),
    builtin("ResourceQuota", "", "resourcequotas", &["quota"]),
    builtin("ReplicationController", "", "replicationcontrollers", &["rc"]),
    builtin("PodTemplate", "", "podtemplates", &[]),
    builtin("Deployment", "apps", "deployments", &["deploy"]),
    builtin("StatefulSet", "apps", "statefulsets", &["sts"]),
    builtin("DaemonSet", "apps", "daemonsets", &["ds"]),
    builtin("ReplicaSet", "apps", "replicasets", &["rs"]),
    builtin("ControllerRevision", "apps", "controllerrevisions", &[]),
    builtin("Job", "batch", "jobs", &[]),
    builtin("CronJob", "batch", "cronjobs", &["cj"]),
    builtin("HorizontalPodAutoscaler", "autoscaling", "horizontalpodautoscalers", &["hpa"]),
    builtin("PodDisruptionBudget", "policy", "poddisruptionbudgets", &["pdb"]),
    builtin("Ingress", "networking.k8s.io", "ingresses", &["ing"]),
    builtin("NetworkPolicy", "networking.k8s.io", "networkpolicies", &["netpol"]),
    builtin("IngressClass", "networking.k8s.io", "ingressclasses", &[]),
    builtin("Role", "rbac.authorization.k8s.io", "roles", &[]),
    builtin("RoleBinding", "rbac.authorization.k8s.io", "rolebindings", &[]),
    builtin("ClusterRole", "rbac.authorization.k8s.io", "clusterroles", &[]),
    builtin("ClusterRoleBinding", "rbac.authorization.k8s.io", "clusterrolebindings", &[]),
    builtin("StorageClass", "storage.k8s.io", "storageclasses", &["sc"]),
    builtin("VolumeAttachment", "storage.k8s.io", "volumeattachments", &[]),
    builtin("CustomResourceDefinition", "apiextensions.k8s.io", "customresourcedefinitions", &["crd", "crds"]),
    builtin("MutatingWebhookConfiguration", "admissionregistration.k8s.io", "mutatingwebhookconfigurations", &[]),
    builtin("ValidatingWebhookConfiguration", "admissionregistration.k8s.io", "validatingwebhookconfigurations", &[]),
    builtin("Lease", "coordination.k8s.io", "leases", &[]),
    builtin("EndpointSlice", "discovery.k8s.io", "endpointslices", &[]),
    builtin("PriorityClass", "scheduling.k8s.io", "priorityclasses", &["pc"]),
    builtin("CertificateSigningRequest", "certificates.k8s.io", "certificatesigningrequests", &["csr"]),
    builtin("APIService", "apiregistration.k8s.io", "apiservices", &[]),
    builtin("ComponentStatus", "", "componentstatuses", &["cs"]),
    builtin("Binding", "", "bindings", &[]),
    builtin("ValidatingAdmissionPolicy", "admissionregistration.k8s.io", "validatingadmissionpolicies", &[]),
    builtin("ValidatingAdmissionPolicyBinding", "admissionregistration.k8s.io", "validatingadmissionpolicybindings", &[]),
    builtin("TokenReview", "authentication.k8s.io", "tokenreviews", &[]),
    builtin("SelfSubjectReview", "authentication.k8s.io", "selfsubjectreviews", &[]),
    builtin("SubjectAccessReview", "authorization.k8s.io", "subjectaccessreviews", &[]),
    builtin("SelfSubjectAccessReview", "authorization.k8s.io", "selfsubjectaccessreviews", &[]),
    builtin("SelfSubjectRulesReview", "authorization.k8s.io", "selfsubjectrulesreviews", &[]),
    builtin("LocalSubjectAccessReview", "authorization.k8s.io", "localsubjectaccessreviews", &[]),
    builtin("FlowSchema", "flowcontrol.apiserver.k8s.io", "flowschemas", &[]),
    builtin("PriorityLevelConfiguration", "flowcontrol.apiserver.k8s.io", "prioritylevelconfigurations", &[]),
    builtin("RuntimeClass", "node.k8s.io", "runtimeclasses", &[]),
    builtin("CSIDriver", "storage.k8s.io", "csidrivers", &[]),
    builtin("CSINode", "storage.k8s.io", "csinodes", &[]),
    builtin("CSIStorageCapacity", "storage.k8s.io", "csistoragecapacities", &[]),
    builtin("Scale", "autoscaling", "scales", &[]),
    builtin("Eviction", "policy", "evictions", &[]),
    builtin("IPAddress", "networking.k8s.io", "ipaddresses", &["ip"]),
    builtin("ServiceCIDR", "networking.k8s.io", "servicecidrs", &[]),
    builtin("VolumeAttributesClass", "storage.k8s.io", "volumeattributesclasses", &["vac"]),
    builtin("ResourceClaim", "resource.k8s.io", "resourceclaims", &[]),
    custom("VirtualMachineInstance", "kubevirt.io", "virtualmachineinstances", &["vmi", "vmis"]),
    custom("VirtualMachine", "kubevirt.io", "virtualmachines", &["vm", "vms"]),
    custom("VirtualMachineInstanceMigration", "kubevirt.io", "virtualmachineinstancemigrations", &["vmim", "vmims"]),
    custom("VirtualMachineInstanceReplicaSet", "kubevirt.io", "virtualmachineinstancereplicasets", &["vmirs", "vmirss"]),
    custom("VirtualMachinePool", "pool.kubevirt.io", "virtualmachinepools", &["vmpool", "vmpools"]),
    custom("KubeVirt", "kubevirt.io", "kubevirts", &["kv", "kvs"]),
    custom("DataVolume", "cdi.kubevirt.io", "datavolumes", &["dv", "dvs"]),
    custom("VirtualMachineSnapshot", "snapshot.kubevirt.io", "virtualmachinesnapshots", &["vmsnapshot", "vmsnapshots"]),
];

/// Resources served from Go types by aggregated API servers, not custom
/// resource definitions: every patch type works there, a strategic merge
/// patch included (no 415). OpenShift's openshift-apiserver
/// (openshift/openshift-apiserver `pkg/*/apiserver/registry`) and
/// Gardener's gardener-apiserver (gardener/gardener
/// `pkg/apiserver/registry/core`). Their schemas are not in the tables.
#[rustfmt::skip]
static AGGREGATED: [(&str, &str, &str, &[&str]); 13] = [
    ("DeploymentConfig", "apps.openshift.io", "deploymentconfigs", &["dc"]),
    ("Route", "route.openshift.io", "routes", &[]),
    ("BuildConfig", "build.openshift.io", "buildconfigs", &["bc"]),
    ("Build", "build.openshift.io", "builds", &[]),
    ("ImageStream", "image.openshift.io", "imagestreams", &["is"]),
    ("ImageStreamTag", "image.openshift.io", "imagestreamtags", &["istag"]),
    ("Template", "template.openshift.io", "templates", &[]),
    ("Shoot", "core.gardener.cloud", "shoots", &[]),
    ("Seed", "core.gardener.cloud", "seeds", &[]),
    ("CloudProfile", "core.gardener.cloud", "cloudprofiles", &[]),
    ("SecretBinding", "core.gardener.cloud", "secretbindings", &[]),
    ("BackupBucket", "core.gardener.cloud", "backupbuckets", &[]),
    ("BackupEntry", "core.gardener.cloud", "backupentries", &[]),
];

/// The aggregated resource `name` (kind, plural or short name, with or
/// without its group) names.
fn aggregated(
    name: &str,
    group: Option<&str>,
) -> Option<&'static (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
)> {
    AGGREGATED.iter().find(|(kind, g, plural, short)| {
        let names = kind.eq_ignore_ascii_case(name)
            || *plural == name
            || plural.strip_suffix('s') == Some(name)
            || short.contains(&name);
        names
            && group
                .is_none_or(|x| x == *g || x.split_once('.').is_some_and(|(_, rest)| rest == *g))
    })
}

/// Seam for the schema module: is `kind` one of kube-apiserver's built-in
/// kinds? `None` when the table does not know the kind.
pub fn is_builtin(kind: &str) -> Option<bool> {
    if let Some(tabled) = crate::schema::builtin().resource(kind) {
        if tabled.kind().eq_ignore_ascii_case(kind) {
            return Some(tabled.is_builtin());
        }
    }
    KNOWN
        .iter()
        .find(|k| k.kind.eq_ignore_ascii_case(kind))
        .map(|k| k.builtin)
}

/// Who serves objects of `kind` (from the object's `kind` field).
pub fn served(kind: &str) -> Served {
    match is_builtin(kind) {
        Some(true) => Served::Builtin,
        Some(false) => Served::Custom,
        None => Served::Unknown,
    }
}

/// The canonical spelling of a known kind (`virtualmachineinstance` ->
/// `VirtualMachineInstance`).
pub fn canonical_kind(kind: &str) -> Option<&'static str> {
    if let Some(tabled) = crate::schema::builtin().resource(kind) {
        if tabled.kind().eq_ignore_ascii_case(kind) {
            return Some(tabled.kind());
        }
    }
    KNOWN
        .iter()
        .find(|k| k.kind.eq_ignore_ascii_case(kind))
        .map(|k| k.kind)
}

/// Reads the resource argument of a kubectl command: `TYPE`, `TYPE/NAME`,
/// `TYPE.GROUP` or `TYPE.VERSION.GROUP`, where TYPE is a kind, a plural,
/// a singular or a short name (case-insensitive, as kubectl's REST mapper
/// reads it). `None` for an empty type.
pub fn resource(arg: &str) -> Option<Resource> {
    let typed = arg.split_once('/').map_or(arg, |(t, _)| t);
    if typed.is_empty() {
        return None;
    }
    if let Some(tabled) = crate::schema::builtin().resource(typed) {
        return Some(Resource {
            typed: typed.to_owned(),
            kind: Some(tabled.kind().to_owned()),
            group: Some(tabled.group().to_owned()),
            served: Served::by(tabled.is_builtin()),
        });
    }
    let lower = typed.to_ascii_lowercase();
    let (name, group) = match lower.split_once('.') {
        Some((name, group)) => (name.to_owned(), Some(group.to_owned())),
        None => (lower.clone(), None),
    };
    let found = KNOWN.iter().find(|k| {
        let names = k.kind.eq_ignore_ascii_case(&name)
            || k.plural == name
            || k.plural.strip_suffix('s') == Some(name.as_str())
            || k.short.contains(&name.as_str());
        // A group written after the name must be the kind's (a version may
        // come first: `deployments.v1.apps`).
        let group_ok = group.as_deref().is_none_or(|g| {
            g == k.group || g.split_once('.').is_some_and(|(_, rest)| rest == k.group)
        });
        names && group_ok
    });
    if found.is_none() {
        if let Some((kind, g, ..)) = aggregated(&name, group.as_deref()) {
            return Some(Resource {
                typed: typed.to_owned(),
                kind: Some((*kind).to_owned()),
                group: Some((*g).to_owned()),
                served: Served::Unknown,
            });
        }
    }
    Some(match found {
        Some(k) => Resource {
            typed: typed.to_owned(),
            kind: Some(k.kind.to_owned()),
            group: Some(k.group.to_owned()),
            served: Served::by(k.builtin),
        },
        None => Resource {
            typed: typed.to_owned(),
            kind: None,
            served: match &group {
                // `x.example.com`: a group kube-apiserver does not serve
                // itself (its own are the core group, `apps`, `batch`, ...
                // and `*.k8s.io`).
                Some(g) if !is_builtin_group(g) => Served::Custom,
                Some(_) => Served::Unknown,
                // A bare name none of the built-in resources has (`gateway`,
                // `certificate`): a custom resource.
                None if name.bytes().all(|b| b.is_ascii_lowercase()) => Served::Custom,
                None => Served::Unknown,
            },
            group,
        },
    })
}

/// The API groups kube-apiserver serves itself.
fn is_builtin_group(group: &str) -> bool {
    let group = group.split_once('.').map_or(group, |(first, rest)| {
        // `v1.apps`: a version before the group.
        if first.starts_with('v') && first[1..].starts_with(|c: char| c.is_ascii_digit()) {
            rest
        } else {
            group
        }
    });
    matches!(
        group,
        "apps" | "batch" | "autoscaling" | "policy" | "extensions"
    ) || group.ends_with(".k8s.io") && !group.starts_with("gateway.networking.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_kubectl_accepts() {
        for (arg, kind) in [
            ("pods", "Pod"),
            ("po/web-0", "Pod"),
            ("Pod", "Pod"),
            ("configmap", "ConfigMap"),
            ("deploy", "Deployment"),
            ("deployments.apps", "Deployment"),
            ("deployments.v1.apps", "Deployment"),
            ("no", "Node"),
            ("virtualmachineinstance", "VirtualMachineInstance"),
            (
                "virtualmachineinstances.kubevirt.io",
                "VirtualMachineInstance",
            ),
            ("vms", "VirtualMachine"),
            ("dv", "DataVolume"),
        ] {
            assert_eq!(resource(arg).unwrap().kind.as_deref(), Some(kind), "{arg}");
        }
        // A known name in the wrong group is not that kind.
        assert_eq!(resource("deployments.example.com").unwrap().kind, None);
        assert_eq!(
            resource("deployments.example.com").unwrap().served,
            Served::Custom
        );
        assert_eq!(resource("widgets").unwrap().served, Served::Custom);
        assert_eq!(resource("gateway/kong").unwrap().served, Served::Custom);
        assert_eq!(
            resource("widgets.example.com/a").unwrap().group.as_deref(),
            Some("example.com")
        );
        assert_eq!(
            resource("ingresses.networking.k8s.io").unwrap().served,
            Served::Builtin
        );
        assert_eq!(
            resource("gateways.gateway.networking.k8s.io")
                .unwrap()
                .served,
            Served::Custom
        );
        assert!(resource("").is_none());
        assert_eq!(is_builtin("configmap"), Some(true));
        assert_eq!(is_builtin("VirtualMachineInstance"), Some(false));
        assert_eq!(is_builtin("Widget"), None);
    }
}
