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
    /// One value (a number, a string): `spec.replicas`, a `caBundle`.
    /// Whole-collection rules leave it alone; the row says who else sets it.
    Scalar,
}

impl Shape {
    /// `map`, `list` or `object`.
    pub fn as_str(self) -> &'static str {
        match self {
            Shape::Map => "map",
            Shape::List => "list",
            Shape::Object => "object",
            Shape::Scalar => "value",
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
/// kubernetes/node-problem-detector, argoproj/argo-cd, kubevirt/kubevirt,
/// openshift/openshift-controller-manager, cert-manager/cert-manager), at the
/// commit named where the row came after KubeVirt's; docs/lint.md prints them.
pub static WRITERS: [Writer; 27] = [
    Writer {
        name: "controllers-and-users",
        what: "any other controller, admission webhook or user (`kubectl label` and `kubectl annotate` send merge patches of one key; GitOps tools such as Argo CD, whose default resource tracking writes the annotation `argocd.argoproj.io/tracking-id` on every object it applies, the label `app.kubernetes.io/instance` when so configured; Flux's kustomize-controller, which labels every object it applies `kustomize.toolkit.fluxcd.io/name` and `/namespace` and re-applies its manifests every interval to correct drift; Kyverno, whose mutate rules (at admission, and on existing objects from its background controller) record the annotation `policies.kyverno.io/last-applied-patches`; users and setup scripts adding a ServiceAccount's pull secret with `kubectl patch serviceaccount`, or a subject to a RoleBinding with `kubectl set subject`, which sends the whole list it read)",
        open: true,
        source: "kubernetes `staging/src/k8s.io/kubectl/pkg/cmd/label/label.go` (`RunLabel`), `annotate/annotate.go`; argo-cd `util/argo/resource_tracking.go` (`SetAppInstance`), `common/common.go` (`AnnotationKeyAppInstance`); fluxcd/kustomize-controller `docs/spec/v1/kustomizations.md` (drift correction, the labels to list reconciled objects) @8ccbdc90f6280c1ac438836b3954c1e03e939c3a; kyverno `pkg/utils/annotations.go` (`PolicyAnnotation`, `GenerateAnnotationPatches`) @4cea1f70663867c302574de0dd2975649e41478c; kubernetes `staging/src/k8s.io/kubectl/pkg/cmd/set/set_subject.go` (`SubjectOptions.Run`)",
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
    Writer {
        name: "kubeadm",
        what: "kubeadm (`init`, `join --control-plane`, `upgrade apply`): the control-plane Node's labels `node-role.kubernetes.io/control-plane` and `node.kubernetes.io/exclude-from-external-load-balancers` and its `node-role.kubernetes.io/control-plane:NoSchedule` taint (merged into the taints already there, sent by a two-way strategic merge patch); the add-ons it installs and re-applies on every upgrade by a whole-object update: CoreDNS's Deployment (tolerations `CriticalAddonsOnly` and the control-plane taint) and kube-proxy's DaemonSet (tolerations `CriticalAddonsOnly` and `operator: Exists`)",
        open: false,
        source: "kubernetes `cmd/kubeadm/app/phases/markcontrolplane/markcontrolplane.go` (`MarkControlPlane`, `markControlPlaneNode`: `apiclient.PatchNode`), `cmd/kubeadm/app/util/apiclient/idempotency.go` (`PatchNodeOnce`: `strategicpatch.CreateTwoWayMergePatch`) @01ea75e36ddb1380243172be777b0feac2e1830e; `cmd/kubeadm/app/phases/addons/dns/dns.go` (`createCoreDNSAddon`: `apiclient.CreateOrUpdateDeployment`), `dns/manifests.go` (`CoreDNSDeployment`) @008b3652959ca58af8be3fb5b6ecfe9ae7638282; `cmd/kubeadm/app/phases/addons/proxy/proxy.go` (`apiclient.CreateOrUpdateDaemonSet`), `proxy/manifests.go` (`KubeProxyDaemonSet19`) @0e998fac8c71a46806f6fb81d415851775096a69",
    },
    Writer {
        name: "addon-manager",
        what: "the cluster add-on manager (kube-addon-manager): every minute or so re-applies the manifests in `/etc/kubernetes/addons` labelled `addonmanager.kubernetes.io/mode=Reconcile` with `kubectl apply --prune`, so a field its manifest sets comes back (\"Addon will be reconfigured to the state given by the supplied fields in the template file periodically\"); CoreDNS's Deployment is one, with the toleration `CriticalAddonsOnly`",
        open: false,
        source: "kubernetes `cluster/addons/addon-manager/kube-addons.sh` (`reconcile_addons`), `cluster/addons/addon-manager/README.md`; `cluster/addons/dns/coredns/coredns.yaml.base` @008b3652959ca58af8be3fb5b6ecfe9ae7638282",
    },
    Writer {
        name: "horizontal-pod-autoscaler",
        what: "kube-controller-manager's horizontal pod autoscaler: the target's `spec.replicas`, through the scale subresource (an update of the Scale read at the start of the sync), whenever the metrics call for another size",
        open: false,
        source: "kubernetes `pkg/controller/podautoscaler/horizontal.go` (`reconcileAutoscaler`: `scale.Spec.Replicas = desiredReplicas`, `scaleNamespacer.Scales(...).Update`) @00067268967ec95a40035bd666374a1caf48dd1a",
    },
    Writer {
        name: "openshift-dockercfg",
        what: "OpenShift's service account pull secrets controller (openshift-controller-manager): appends the generated `<sa>-dockercfg-*` Secret to every ServiceAccount's `imagePullSecrets` and `secrets`, by an update of the ServiceAccount it read (retried on conflict)",
        open: false,
        source: "openshift/openshift-controller-manager `pkg/serviceaccounts/controllers/create_dockercfg_secrets.go` (`DockercfgController.syncServiceAccount`) @071b34b64ea82e87014bccb2ed14f6c2cf4ac9fe",
    },
    Writer {
        name: "cert-manager-cainjector",
        what: "cert-manager's CA injector: the `caBundle` of objects annotated `cert-manager.io/inject-ca-from` (and the other inject annotations): every webhook's `clientConfig.caBundle` in Mutating and ValidatingWebhookConfigurations, an APIService's `spec.caBundle`, a CustomResourceDefinition's `spec.conversion.webhook.clientConfig.caBundle`; replaced, or with the CAInjectorMerging feature merged with the bundle already there",
        open: false,
        source: "cert-manager `pkg/controller/cainjector/injectables.go` (`SetCA` and `AsApplyObject` of `mutatingWebhookTarget`, `validatingWebhookTarget`, `apiServiceTarget`, `crdConversionTarget`) @00072869851d748101a6e7eb15712638ed198f34",
    },
    Writer {
        name: "istiod-webhook-patcher",
        what: "Istio's istiod: the `caBundle` of every webhook named for it in the MutatingWebhookConfigurations labelled with its revision (`istio.io/rev`), written whenever its CA changes or the configuration is updated, by an update of the configuration as its informer holds it (retried by its work queue)",
        open: false,
        source: "istio/istio `pkg/webhooks/webhookpatch.go` (`WebhookCertPatcher.patchMutatingWebhookConfig`, `startCaBundleWatcher`) @01f7ea6378d95911ee43d3abef4cbe7a95bebc1e",
    },
    Writer {
        name: "argo-rollouts",
        what: "Argo Rollouts' controller: the selector key `rollouts-pod-template-hash` of the active and preview Services of a blue-green or canary Rollout (and the annotation `argo-rollouts.argoproj.io/managed-by-rollouts`), by a merge patch of that key whenever it switches traffic",
        open: false,
        source: "argoproj/argo-rollouts `rollout/service.go` (`switchServiceSelector`, `generatePatch`) @5b40f081f459c0c1265aa3070cc44cca94830db8",
    },
    Writer {
        name: "vpa-recommender",
        what: "the Vertical Pod Autoscaler's recommender: a VerticalPodAutoscaler's whole `status` (recommendation and conditions), a JSON patch `add /status` to the status subresource whenever the recommendation changes",
        open: false,
        source: "kubernetes/autoscaler `vertical-pod-autoscaler/pkg/utils/vpa/api.go` (`UpdateVpaStatusIfNeeded`, `patchVpaStatus`) @0039d1c4facb7ede6df82550ac865c60f1539e6e",
    },
];

const VMI: &[&str] = &["VirtualMachineInstance"];

/// The table. Rows for every kind come first; a kind's own rows add
/// writers to them.
pub static ROWS: [Row; 32] = [
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
            "kubeadm",
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
            "kubeadm",
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
    Row {
        kinds: &["ServiceAccount"],
        path: "/imagePullSecrets",
        shape: Shape::List,
        item: "pull secret",
        writers: &["openshift-dockercfg", "controllers-and-users"],
    },
    Row {
        kinds: &["ServiceAccount"],
        path: "/secrets",
        shape: Shape::List,
        item: "secret",
        writers: &["openshift-dockercfg", "controllers-and-users"],
    },
    Row {
        kinds: &["Deployment", "DaemonSet"],
        path: "/spec/template/spec/tolerations",
        shape: Shape::List,
        item: "toleration",
        writers: &["kubeadm", "addon-manager"],
    },
    Row {
        kinds: &[
            "Deployment",
            "StatefulSet",
            "ReplicaSet",
            "ReplicationController",
        ],
        path: "/spec/replicas",
        shape: Shape::Scalar,
        item: "replica count",
        writers: &["horizontal-pod-autoscaler"],
    },
    Row {
        kinds: &["MutatingWebhookConfiguration"],
        path: "/webhooks",
        shape: Shape::List,
        item: "webhook",
        writers: &["cert-manager-cainjector", "istiod-webhook-patcher"],
    },
    Row {
        kinds: &["ValidatingWebhookConfiguration"],
        path: "/webhooks",
        shape: Shape::List,
        item: "webhook",
        writers: &["cert-manager-cainjector", "controllers-and-users"],
    },
    Row {
        kinds: &["Service"],
        path: "/spec/selector",
        shape: Shape::Map,
        item: "selector key",
        writers: &["argo-rollouts", "controllers-and-users"],
    },
    Row {
        kinds: &["RoleBinding", "ClusterRoleBinding"],
        path: "/subjects",
        shape: Shape::List,
        item: "subject",
        writers: &["controllers-and-users"],
    },
    Row {
        kinds: &["VerticalPodAutoscaler"],
        path: "/status",
        shape: Shape::Object,
        item: "status field",
        writers: &["vpa-recommender"],
    },
    Row {
        kinds: &["APIService"],
        path: "/spec/caBundle",
        shape: Shape::Scalar,
        item: "CA bundle",
        writers: &["cert-manager-cainjector"],
    },
    Row {
        kinds: &["CustomResourceDefinition"],
        path: "/spec/conversion/webhook/clientConfig/caBundle",
        shape: Shape::Scalar,
        item: "CA bundle",
        writers: &["cert-manager-cainjector"],
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

    /// True when a whole-field finding should say "no other writer known":
    /// the table has no row for the field and the object is of a built-in
    /// kind (whose writers the table means to know; a custom resource's
    /// are its operator's business).
    pub fn none_known(&self, kind: Option<&str>) -> bool {
        matches!(self, Sharing::Unknown)
            && kind.is_some_and(|k| super::kinds::served(k) == super::kinds::Served::Builtin)
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
        // every kind (API conventions); a Deployment's paused flag is nobody's.
        assert_eq!(
            sharing(Some("Deployment"), p("/status/conditions")).names(),
            ["condition-writers"]
        );
        assert_eq!(
            sharing(Some("Deployment"), p("/spec/template/spec/nodeSelector")),
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
            "controllers-and-users, kubelet, kubeadm, node-feature-discovery, virt-handler-heartbeat, virt-handler-node-labeller and virt-controller-node"
        );
    }

    #[test]
    fn the_ecosystem_writes_beside_the_user() {
        let p = |s| Pointer::parse(s).unwrap();
        // OpenShift appends its dockercfg pull secret to every ServiceAccount.
        let sa = sharing(Some("ServiceAccount"), p("/imagePullSecrets"));
        assert!(sa.is_shared());
        assert!(sa.names().contains(&"openshift-dockercfg"));
        assert_eq!(
            shape(Some("ServiceAccount"), p("/imagePullSecrets")),
            Some((Shape::List, "pull secret"))
        );
        // A Pod template's pull secrets are nobody else's.
        assert_eq!(
            sharing(Some("DaemonSet"), p("/spec/template/spec/imagePullSecrets")),
            Sharing::Unknown
        );
        // kubeadm and the add-on manager re-apply CoreDNS's tolerations.
        let tolerations = sharing(Some("Deployment"), p("/spec/template/spec/tolerations"));
        assert_eq!(tolerations.names(), ["kubeadm", "addon-manager"]);
        assert!(tolerations.is_shared());
        // kubeadm labels and taints the control-plane Node.
        assert!(sharing(Some("Node"), p("/spec/taints"))
            .names()
            .contains(&"kubeadm"));
        // Scalars: the HPA sets replicas, cert-manager a caBundle.
        let replicas = sharing(Some("Deployment"), p("/spec/replicas"));
        assert_eq!(replicas.names(), ["horizontal-pod-autoscaler"]);
        assert_eq!(
            shape(Some("Deployment"), p("/spec/replicas")).map(|s| s.0),
            Some(Shape::Scalar)
        );
        assert!(!paths_is_collection(Some("Deployment"), "/spec/replicas"));
        assert_eq!(
            sharing(Some("APIService"), p("/spec/caBundle")).names(),
            ["cert-manager-cainjector"]
        );
        // "no other writer known": built-in kinds only.
        assert!(
            sharing(Some("Deployment"), p("/spec/template/spec/volumes"))
                .none_known(Some("Deployment"))
        );
        assert!(!Sharing::Unknown.none_known(Some("VirtualMachineInstance")));
        assert!(!Sharing::Unknown.none_known(None));
    }

    /// True when the table calls the field a map or a list.
    fn paths_is_collection(kind: Option<&str>, path: &str) -> bool {
        let pointer = Pointer::parse(path).unwrap();
        shape(kind, pointer).is_some_and(|(s, _)| matches!(s, Shape::Map | Shape::List))
    }
}
