//! Who writes what: for a kind and a path, the programs that change that
//! field on a live cluster, each with the source that shows it. "Shared"
//! is decided here, by writers, not by the field's shape: a whole-map
//! `test` of Node labels fails whenever kubelet, node-feature-discovery or
//! KubeVirt's virt-handler relabels the node, while a whole-map `test` of
//! a VMI's `status.activePods` is safe (one controller writes it).
//!
//! The table is data ([`ROWS`], [`WRITERS`]) so that the simulator (layer
//! 6) can read it too, and docs/lint.md prints it with its sources.
//!
//! ```
//! use patchlab::lint::writers::{sharing, Sharing};
//! use patchlab::pointer::Pointer;
//!
//! let labels = Pointer::parse("/metadata/labels").unwrap();
//! let node = sharing(Some("Node"), labels);
//! assert!(node.is_shared());
//! assert!(node.names().contains(&"node-feature-discovery"));
//!
//! let pods = Pointer::parse("/status/activePods").unwrap();
//! assert!(matches!(sharing(Some("VirtualMachineInstance"), pods), Sharing::Sole(_)));
//! assert!(matches!(sharing(Some("Deployment"), Pointer::parse("/spec/paused").unwrap()), Sharing::Unknown));
//! ```

use crate::pointer::Pointer;

/// A program that writes Kubernetes objects, with where its writes are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Writer {
    /// A short stable name (`kubelet`, `virt-handler`).
    pub name: &'static str,
    /// What it is, in a few words.
    pub what: &'static str,
    /// The code that writes (repository, file, function).
    pub source: &'static str,
    /// True when the name stands for any number of writers (other
    /// controllers, webhooks, users): a field it writes is shared even
    /// when it is the only name in the row.
    pub open: bool,
}

/// The shape of a field, as far as whole-field writes go.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A map whose keys are independent entries (labels, annotations).
    Map,
    /// A list (finalizers, conditions, ownerReferences).
    List,
    /// A struct several writers fill field by field (`status.migrationState`, `status`).
    Object,
}

impl Shape {
    /// `map`, `list` or `object`.
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Map => "map",
            Shape::List => "list",
            Shape::Object => "object",
        }
    }
}

/// One row: on objects of `kinds` (all kinds when empty), the field at
/// `path` is written by `writers`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Row {
    /// The kinds (`Node`, `VirtualMachineInstance`); empty: every kind.
    pub kinds: &'static [&'static str],
    /// The field, a JSON Pointer.
    pub path: &'static str,
    /// Its shape.
    pub shape: Shape,
    /// What one element or entry is called in messages (`finalizer`,
    /// `label`, `condition`).
    pub item: &'static str,
    /// The writers, by [`Writer::name`].
    pub writers: &'static [&'static str],
}

/// Every writer the table names. Each source was read in the project's
/// own repository (kubernetes/kubernetes, kubernetes-sigs/node-feature-discovery,
/// kubernetes/node-problem-detector, argoproj/argo-cd, kubevirt/kubevirt);
/// docs/lint.md prints them.
pub static WRITERS: [Writer; 19] = [
    Writer {
        name: "controllers-and-users",
        what: "any other controller, admission webhook or user (`kubectl label` and `kubectl annotate` send merge patches of one key; GitOps tools such as Argo CD, whose default resource tracking writes the annotation `argocd.argoproj.io/tracking-id` on every object it applies, the label `app.kubernetes.io/instance` when so configured)",
        open: true,
        source: "kubernetes `staging/src/k8s.io/kubectl/pkg/cmd/label/label.go` (`RunLabel`), `annotate/annotate.go`; argo-cd `util/argo/resource_tracking.go` (`SetAppInstance`), `common/common.go` (`AnnotationKeyAppInstance`)",
    },
    Writer {
        name: "condition-writers",
        what: "controllers that add condition types of their own: \"new types of conditions may be added in the future or by 3rd party controllers\", and the list is \"a map with a key of type\" (Kubernetes API conventions)",
        open: true,
        source: "kubernetes/community `contributors/devel/sig-architecture/api-conventions.md` (Typical status properties)",
    },
    Writer {
        name: "garbage-collector",
        what: "kube-controller-manager's garbage collector: removes owner references to deleted owners (a strategic merge patch `{\"$patch\":\"delete\",\"uid\":...}`, or for a custom resource a merge patch pinned by resourceVersion), and the `orphan` and `foregroundDeletion` finalizers",
        open: false,
        source: "kubernetes `pkg/controller/garbagecollector/garbagecollector.go` (`attemptToDeleteItem`), `patch.go` (`patch`, `deleteOwnerRefJSONMergePatch`), `operations.go` (`removeFinalizer`)",
    },
    Writer {
        name: "controller-ref-manager",
        what: "workload controllers adopting and releasing objects (ReplicaSet, StatefulSet, KubeVirt's VM and pool controllers)",
        open: false,
        source: "kubernetes `pkg/controller/controller_ref_manager.go` (`AdoptPod`, `ReleasePod`, `deleteOwnerRefStrategicMergePatch`); kubevirt `pkg/controller/controller_ref_manager.go`",
    },
    Writer {
        name: "protection-controllers",
        what: "kube-controller-manager's PVC and PV protection controllers: add and remove the finalizers `kubernetes.io/pvc-protection` and `kubernetes.io/pv-protection` (the admission plugin StorageObjectInUseProtection adds them at creation)",
        open: false,
        source: "kubernetes `pkg/controller/volume/pvcprotection/pvc_protection_controller.go` and `pkg/controller/volume/pvprotection/pv_protection_controller.go` (`addFinalizer`, `removeFinalizer`), `pkg/volume/util/finalizer.go`",
    },
    Writer {
        name: "kubelet",
        what: "the node agent: Node labels (`kubernetes.io/hostname`, `kubernetes.io/os`, `kubernetes.io/arch`, zone and instance type) and the annotation `volumes.kubernetes.io/controller-managed-attach-detach` at registration and re-registration; Node status and conditions, by strategic merge patch; Pod status and conditions, by strategic merge patch (the taints it registers with are set once, in the Node it creates)",
        open: false,
        source: "kubernetes `pkg/kubelet/kubelet_node_status.go` (`initialNode`; `tryRegisterWithAPIServer`: `updateDefaultLabels`, `reconcileCMADAnnotationWithExistingNode`; `tryUpdateNodeStatus`: `nodeutil.PatchNodeStatus`), `pkg/kubelet/nodestatus/setters.go`, `pkg/kubelet/status/status_manager.go` (`syncPod`: `statusutil.PatchPodStatus`)",
    },
    Writer {
        name: "kube-scheduler",
        what: "the scheduler: the Pod's `PodScheduled` condition and `status.nominatedNodeName`, by strategic merge patch",
        open: false,
        source: "kubernetes `pkg/scheduler/schedule_one.go` (`handleSchedulingFailure`, `updatePod`: `util.PatchPodStatus`)",
    },
    Writer {
        name: "node-lifecycle-controller",
        what: "kube-controller-manager's node lifecycle controller: Node conditions set to Unknown, `node.kubernetes.io/unreachable` and `not-ready` taints",
        open: false,
        source: "kubernetes `pkg/controller/nodelifecycle/node_lifecycle_controller.go`; taints through `pkg/controller/controller_utils.go` (`AddOrUpdateTaintOnNode`, `RemoveTaintOffNode`, `PatchNodeTaints`: a strategic merge patch pinned by resourceVersion)",
    },
    Writer {
        name: "taint-eviction",
        what: "kube-controller-manager's taint eviction controller: the Pod's `DisruptionTarget` condition (reason `DeletionByTaintManager`), by strategic merge patch",
        open: false,
        source: "kubernetes `pkg/controller/tainteviction/taint_eviction.go` (`addConditionAndDeletePod`: `utilpod.PatchPodStatus`)",
    },
    Writer {
        name: "pod-gc",
        what: "kube-controller-manager's pod garbage collector: the Pod's `DisruptionTarget` condition (reason `DeletionByPodGC`) before it deletes a Pod whose node is gone",
        open: false,
        source: "kubernetes `pkg/controller/podgc/gc_controller.go` (`markFailedAndDeletePodWithCondition`)",
    },
    Writer {
        name: "node-problem-detector",
        what: "node-problem-detector: Node conditions (`KernelDeadlock`, `ReadonlyFilesystem`), a strategic merge patch `{\"status\":{\"conditions\":[...]}}` of the status subresource on every sync",
        open: false,
        source: "kubernetes/node-problem-detector `pkg/exporters/k8sexporter/problemclient/problem_client.go` (`SetConditions`, `generatePatch`), `pkg/exporters/k8sexporter/condition/manager.go` (`sync`), `config/kernel-monitor.json`, `config/readonly-monitor.json`",
    },
    Writer {
        name: "node-feature-discovery",
        what: "node-feature-discovery's master: Node labels `feature.node.kubernetes.io/*` and annotations `nfd.node.kubernetes.io/*` (per-key JSON patches), extended resources in `status.capacity` and `allocatable`, taints `feature.node.kubernetes.io/*`",
        open: false,
        source: "kubernetes-sigs/node-feature-discovery `pkg/nfd-master/nfd-master.go` (`updateNodeObject`, `patchNode`, `patchNodeStatus`; `setTaints`: `controller.PatchNodeTaints`), `api/nfd/v1alpha1/annotations_labels.go`",
    },
    Writer {
        name: "virt-handler-heartbeat",
        what: "KubeVirt virt-handler's heartbeat: Node labels `kubevirt.io/schedulable`, `cpumanager`, annotation `kubevirt.io/heartbeat`, by strategic merge patch every one to two minutes",
        open: false,
        source: "kubevirt `pkg/virt-handler/heartbeat/heartbeat.go` (`do`, `labelNodeUnschedulable`)",
    },
    Writer {
        name: "virt-handler-node-labeller",
        what: "KubeVirt virt-handler's node labeller: Node labels `cpu-model.node.kubevirt.io/*`, `cpu-feature.node.kubevirt.io/*`",
        open: false,
        source: "kubevirt `pkg/virt-handler/node-labeller/node_labeller.go` (`patchNode`)",
    },
    Writer {
        name: "virt-controller-node",
        what: "KubeVirt virt-controller's node controller: Node label `kubevirt.io/schedulable=false` when virt-handler stops answering",
        open: false,
        source: "kubevirt `pkg/virt-controller/watch/node/node.go` (`markNodeAsUnresponsive`)",
    },
    Writer {
        name: "virt-controller-vmi",
        what: "KubeVirt virt-controller's VMI controller: VMI labels, finalizers, conditions, activePods, volumeStatus, interfaces",
        open: false,
        source: "kubevirt `pkg/virt-controller/watch/vmi/lifecycle.go` (`prepareVMIPatch`, `setActivePods`)",
    },
    Writer {
        name: "virt-controller-migration",
        what: "KubeVirt virt-controller's migration controller: VMI `status.migrationState`, migration labels",
        open: false,
        source: "kubevirt `pkg/virt-controller/watch/migration/migration.go`",
    },
    Writer {
        name: "virt-handler",
        what: "KubeVirt virt-handler (on the source and the target node): VMI status (migrationState, conditions, interfaces, volumeStatus, phase), label `kubevirt.io/nodeName`",
        open: false,
        source: "kubevirt `pkg/virt-handler/vm.go`, `migration-source.go`, `migration-target.go`",
    },
    Writer {
        name: "virt-api",
        what: "KubeVirt virt-api's subresources (start, stop, restart, addvolume): VM `status.stateChangeRequests` and `status.volumeRequests`",
        open: false,
        source: "kubevirt `pkg/virt-api/rest/lifecycle.go`, `pkg/virt-api/rest/volumes.go`",
    },
];

const VMI: &[&str] = &["VirtualMachineInstance"];

/// The table. Rows for every kind come first; a kind's own rows add
/// writers to them.
pub static ROWS: [Row; 21] = [
    Row {
        kinds: &[],
        path: "/metadata/labels",
        shape: Shape::Map,
        item: "label",
        writers: &["controllers-and-users"],
    },
    Row {
        kinds: &[],
        path: "/metadata/annotations",
        shape: Shape::Map,
        item: "annotation",
        writers: &["controllers-and-users"],
    },
    Row {
        kinds: &[],
        path: "/metadata/finalizers",
        shape: Shape::List,
        item: "finalizer",
        writers: &["controllers-and-users", "garbage-collector"],
    },
    Row {
        kinds: &[],
        path: "/metadata/ownerReferences",
        shape: Shape::List,
        item: "owner reference",
        writers: &["controller-ref-manager", "garbage-collector"],
    },
    Row {
        kinds: &[],
        path: "/status/conditions",
        shape: Shape::List,
        item: "condition",
        writers: &["condition-writers"],
    },
    Row {
        kinds: &["PersistentVolumeClaim", "PersistentVolume"],
        path: "/metadata/finalizers",
        shape: Shape::List,
        item: "finalizer",
        writers: &["protection-controllers"],
    },
    Row {
        kinds: &["Node"],
        path: "/metadata/labels",
        shape: Shape::Map,
        item: "label",
        writers: &[
            "kubelet",
            "node-feature-discovery",
            "virt-handler-heartbeat",
            "virt-handler-node-labeller",
            "virt-controller-node",
        ],
    },
    Row {
        kinds: &["Node"],
        path: "/metadata/annotations",
        shape: Shape::Map,
        item: "annotation",
        writers: &[
            "kubelet",
            "node-feature-discovery",
            "virt-handler-heartbeat",
        ],
    },
    Row {
        kinds: &["Node"],
        path: "/spec/taints",
        shape: Shape::List,
        item: "taint",
        writers: &[
            "node-lifecycle-controller",
            "node-feature-discovery",
            "controllers-and-users",
        ],
    },
    Row {
        kinds: &["Node"],
        path: "/status/conditions",
        shape: Shape::List,
        item: "condition",
        writers: &[
            "kubelet",
            "node-lifecycle-controller",
            "node-problem-detector",
        ],
    },
    Row {
        kinds: &["Node"],
        path: "/status",
        shape: Shape::Object,
        item: "status field",
        writers: &[
            "kubelet",
            "node-lifecycle-controller",
            "node-problem-detector",
            "node-feature-discovery",
        ],
    },
    Row {
        kinds: &["Pod"],
        path: "/status/conditions",
        shape: Shape::List,
        item: "condition",
        writers: &["kubelet", "kube-scheduler", "taint-eviction", "pod-gc"],
    },
    Row {
        kinds: &["Pod"],
        path: "/status",
        shape: Shape::Object,
        item: "status field",
        writers: &["kubelet", "kube-scheduler", "taint-eviction", "pod-gc"],
    },
    Row {
        kinds: VMI,
        path: "/metadata/labels",
        shape: Shape::Map,
        item: "label",
        writers: &[
            "virt-controller-vmi",
            "virt-controller-migration",
            "virt-handler",
        ],
    },
    Row {
        kinds: VMI,
        path: "/status/activePods",
        shape: Shape::Map,
        item: "pod",
        writers: &["virt-controller-vmi"],
    },
    Row {
        kinds: VMI,
        path: "/status/migrationState",
        shape: Shape::Object,
        item: "field",
        writers: &["virt-controller-migration", "virt-handler"],
    },
    Row {
        kinds: VMI,
        path: "/status/conditions",
        shape: Shape::List,
        item: "condition",
        writers: &["virt-controller-vmi", "virt-handler"],
    },
    Row {
        kinds: VMI,
        path: "/status/volumeStatus",
        shape: Shape::List,
        item: "volume status",
        writers: &["virt-controller-vmi", "virt-handler"],
    },
    Row {
        kinds: VMI,
        path: "/status/interfaces",
        shape: Shape::List,
        item: "interface",
        writers: &["virt-controller-vmi", "virt-handler"],
    },
    Row {
        kinds: VMI,
        path: "/status",
        shape: Shape::Object,
        item: "status field",
        writers: &[
            "virt-controller-vmi",
            "virt-controller-migration",
            "virt-handler",
        ],
    },
    Row {
        kinds: &["VirtualMachine"],
        path: "/status/stateChangeRequests",
        shape: Shape::List,
        item: "state change request",
        writers: &["virt-api", "virt-controller-vmi"],
    },
];

/// Who writes a field, as far as the table knows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sharing {
    /// Two writers or more: a whole-field `test` fails, and a whole-field
    /// write erases, whenever one of the others writes.
    Shared(Vec<&'static Writer>),
    /// One writer only: whole-field ops are safe.
    Sole(&'static Writer),
    /// The table has no row for this field.
    Unknown,
}

impl Sharing {
    /// True for [`Sharing::Shared`].
    pub fn is_shared(&self) -> bool {
        matches!(self, Sharing::Shared(_))
    }

    /// The writers' names.
    pub fn names(&self) -> Vec<&'static str> {
        match self {
            Sharing::Shared(writers) => writers.iter().map(|w| w.name).collect(),
            Sharing::Sole(writer) => vec![writer.name],
            Sharing::Unknown => Vec::new(),
        }
    }

    /// The writers for a message: `kubelet, node-feature-discovery and
    /// virt-handler-heartbeat`.
    pub fn list(&self) -> String {
        let names = self.names();
        match names.as_slice() {
            [] => "nobody the table knows".to_owned(),
            [one] => (*one).to_owned(),
            [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        }
    }
}

/// The writer named `name`.
pub fn writer(name: &str) -> Option<&'static Writer> {
    WRITERS.iter().find(|w| w.name == name)
}

/// The rows about the field at `path` on an object of `kind`: the
/// all-kinds rows, and the kind's own; with no kind known, every row of
/// that path (the union of what the kinds say).
pub fn rows<'k>(
    kind: Option<&'k str>,
    path: &'k Pointer,
) -> impl Iterator<Item = &'static Row> + 'k {
    ROWS.iter().filter(move |row| {
        row.path == path.as_str()
            && (row.kinds.is_empty() || kind.is_none_or(|k| row.kinds.contains(&k)))
    })
}

/// Who writes the field at `path` of an object of `kind`: the all-kinds
/// rows and the kind's own (rows of other kinds are left out; with no kind
/// known, every row of the path counts).
pub fn sharing(kind: Option<&str>, path: &Pointer) -> Sharing {
    let mut names: Vec<&'static str> = Vec::new();
    for row in rows(kind, path) {
        for name in row.writers {
            if !names.contains(name) {
                names.push(name);
            }
        }
    }
    let writers: Vec<&'static Writer> = names.iter().filter_map(|n| writer(n)).collect();
    match writers.as_slice() {
        [] => Sharing::Unknown,
        [one] if !one.open => Sharing::Sole(one),
        _ => Sharing::Shared(writers),
    }
}

/// The shape and item name the table gives the field at `path`.
pub fn shape(kind: Option<&str>, path: &Pointer) -> Option<(Shape, &'static str)> {
    rows(kind, path).next().map(|row| (row.shape, row.item))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_writer_named_exists_and_has_a_source() {
        for row in &ROWS {
            assert!(Pointer::parse(row.path).is_ok(), "{}", row.path);
            for name in row.writers {
                assert!(writer(name).is_some(), "{name} in {}", row.path);
            }
        }
        for writer in &WRITERS {
            assert!(!writer.source.is_empty() && !writer.what.is_empty());
            assert!(
                ROWS.iter().any(|r| r.writers.contains(&writer.name)),
                "{} writes nothing",
                writer.name
            );
        }
    }

    #[test]
    fn a_kind_names_its_own_writers() {
        let p = |s| Pointer::parse(s).unwrap();
        let vmi = Some("VirtualMachineInstance");
        assert_eq!(
            sharing(vmi, p("/status/activePods")),
            Sharing::Sole(writer("virt-controller-vmi").unwrap())
        );
        assert!(sharing(vmi, p("/status/migrationState")).is_shared());
        assert!(sharing(vmi, p("/metadata/finalizers")).is_shared());
        // A Deployment's labels: the generic row, any number of writers.
        let deployment = sharing(Some("Deployment"), p("/metadata/labels"));
        assert_eq!(deployment.names(), ["controllers-and-users"]);
        assert!(deployment.is_shared());
        // No kind: the union.
        assert!(sharing(None, p("/status/conditions")).is_shared());
        // Conditions: third-party controllers add types of their own, on
        // every kind (API conventions); a Deployment's spec is nobody's.
        assert_eq!(
            sharing(Some("Deployment"), p("/status/conditions")).names(),
            ["condition-writers"]
        );
        assert_eq!(
            sharing(Some("Deployment"), p("/spec/template/spec/tolerations")),
            Sharing::Unknown
        );
        // The protection controllers hold PVC and PV finalizers only.
        assert!(
            sharing(Some("PersistentVolumeClaim"), p("/metadata/finalizers"))
                .names()
                .contains(&"protection-controllers")
        );
        assert!(!sharing(Some("Pod"), p("/metadata/finalizers"))
            .names()
            .contains(&"protection-controllers"));
        // kubelet sets taints only in the Node it creates.
        assert!(!sharing(Some("Node"), p("/spec/taints"))
            .names()
            .contains(&"kubelet"));
        assert_eq!(
            sharing(Some("Node"), p("/metadata/labels")).list(),
            "controllers-and-users, kubelet, node-feature-discovery, virt-handler-heartbeat, virt-handler-node-labeller and virt-controller-node"
        );
    }
}
