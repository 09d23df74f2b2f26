// Shapes of cluster-api's patch code (kubernetes-sigs/cluster-api at ae7ff047db),
// written for these tests.
package cluster

import (
	"context"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	"sigs.k8s.io/cluster-api/util/patch"
)

// Shape: clusterctl move's package-level patches (cmd/clusterctl/client/cluster/mover.go).
var (
	removeFinalizersPatch           = client.RawPatch(types.MergePatchType, []byte("{\"metadata\":{\"finalizers\":[]}}"))
	addDeleteForMoveAnnotationPatch = client.RawPatch(types.JSONPatchType, []byte(fmt.Sprintf("[{\"op\": \"add\", \"path\":\"/metadata/annotations\", \"value\":{%q:\"\"}}]", DeleteForMoveAnnotation)))
)

func (o *objectMover) deleteSourceObject(ctx context.Context, cFrom client.Client, obj *Unstructured) error {
	// payload: [{"op":"add","path":"/metadata/annotations","value":{"<DeleteForMoveAnnotation>":""}}]
	if err := cFrom.Patch(ctx, obj, addDeleteForMoveAnnotationPatch); err != nil { // want: whole-collection-write
		return err
	}
	// payload: {"metadata":{"finalizers":[]}}
	if err := cFrom.Patch(ctx, obj, removeFinalizersPatch); err != nil { // want: merge-replaces-list
		return err
	}
	return cFrom.Delete(ctx, obj)
}

// Shape: resuming a KubeadmControlPlane (cmd/clusterctl/client/alpha/rollout_resumer.go):
// the annotation key escaped by hand.
func resumeKubeadmControlPlane(ctx context.Context, proxy Proxy, name, namespace string) error {
	pausedAnnotation := strings.ReplaceAll(PausedAnnotation, "/", "~1")
	patch := client.RawPatch(types.JSONPatchType, []byte(fmt.Sprintf("[{\"op\": \"remove\", \"path\": \"/metadata/annotations/%s\"}]", pausedAnnotation)))
	// payload: [{"op":"remove","path":"/metadata/annotations/<escape(PausedAnnotation)>"}]
	return patchKubeadmControlPlane(ctx, proxy, name, namespace, patch) // want: remove-without-test
}

// Shape: cordoning a Node before drain (internal/controllers/machine/drain/drain.go):
// MergeFrom a copy, a scalar changed.
func (d *Helper) CordonNode(ctx context.Context, node *Node) error {
	if node.Spec.Unschedulable {
		return nil
	}
	patch := client.MergeFrom(node.DeepCopy())
	node.Spec.Unschedulable = true
	return d.RemoteClient.Patch(ctx, node, patch)
}

// Shape: ensuring the Cluster owns an external object
// (internal/controllers/cluster/cluster_controller_phases.go): ownerReferences set after
// the base copy, sent with MergeFrom.
func ensureOwnerRef(ctx context.Context, c client.Client, obj *Unstructured, cluster *Cluster) error {
	original := obj.DeepCopy()
	if err := controllerutil.SetControllerReference(cluster, obj, c.Scheme()); err != nil {
		return err
	}
	labels := obj.GetLabels()
	labels[ClusterNameLabel] = cluster.Name
	obj.SetLabels(labels)
	return c.Patch(ctx, obj, client.MergeFrom(original)) // want: merge-from-replaces-list
}

// Shape: ClusterResourceSetBinding updates (internal/controllers/clusterresourceset):
// MergeFromWithOptimisticLock.
func (r *ClusterResourceSetReconciler) ensureBinding(ctx context.Context, binding *Binding) error {
	patch := client.MergeFromWithOptions(binding.DeepCopy(), client.MergeFromWithOptimisticLock{})
	controllerutil.AddFinalizer(binding, BindingFinalizer)
	return r.Client.Patch(ctx, binding, patch)
}

// Shape: a reconciler's patch helper (core/reconcilers/cluster/cluster_controller.go):
// the helper is made after the object is read and sent by a deferred wrapper; the
// finalizer is removed in reconcileDelete, reached through a scope struct, so no
// followed call hands the change back: the helper sends the whole finalizers list as
// a merge patch with no resourceVersion.
func (r *ClusterReconciler) Reconcile(ctx context.Context, req Request) (_ Result, reterr error) {
	cluster := &Cluster{}
	if err := r.Client.Get(ctx, req.NamespacedName, cluster); err != nil {
		return Result{}, err
	}
	patchHelper, err := patch.NewHelper(cluster, r.Client) // want: merge-from-replaces-list
	if err != nil {
		return Result{}, err
	}
	s := &clusterScope{cluster: cluster}
	defer func() {
		if err := patchCluster(ctx, patchHelper, cluster); err != nil {
			reterr = err
		}
	}()
	if !cluster.DeletionTimestamp.IsZero() {
		return r.reconcileDelete(ctx, s)
	}
	return Result{}, nil
}

func patchCluster(ctx context.Context, patchHelper *patch.Helper, cluster *Cluster) error {
	return patchHelper.Patch(ctx, cluster)
}

func (r *ClusterReconciler) reconcileDelete(ctx context.Context, s *clusterScope) (Result, error) {
	cluster := s.cluster
	controllerutil.RemoveFinalizer(cluster, ClusterFinalizer)
	return Result{}, nil
}
