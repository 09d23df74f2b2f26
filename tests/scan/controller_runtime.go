// Shapes of controller-runtime users' patch code: the kubebuilder book's finalizer and
// status-condition pattern (kubebuilder docs/book, "Using Finalizers" and the
// memcached-operator tutorial's Reconcile), Gardener's finalizer helpers
// (pkg/controllerutils/finalizers.go), written for these tests.
package controllers

import (
	"context"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
)

const cleanupFinalizer = "cache.example.com/finalizer"

// A finalizer added after the base copy: the merge body carries the whole list.
func (r *MemcachedReconciler) ensureFinalizer(ctx context.Context, memcached *Memcached) error {
	if controllerutil.ContainsFinalizer(memcached, cleanupFinalizer) {
		return nil
	}
	base := memcached.DeepCopy()
	controllerutil.AddFinalizer(memcached, cleanupFinalizer)
	return r.Patch(ctx, memcached, client.MergeFrom(base)) // want: merge-from-replaces-list
}

// A status condition set after the base copy, sent to the status subresource.
func (r *MemcachedReconciler) setAvailable(ctx context.Context, memcached *Memcached) error {
	patch := client.MergeFrom(memcached.DeepCopy()) // want: merge-from-replaces-list
	apimeta.SetStatusCondition(&memcached.Status.Conditions, metav1.Condition{Type: "Available", Status: metav1.ConditionTrue, Reason: "Reconciling"})
	return r.Status().Patch(ctx, memcached, patch)
}

// Gardener's shape: the same finalizer change with the resourceVersion pinned.
func AddFinalizers(ctx context.Context, writer client.Writer, obj client.Object, finalizer string) error {
	before := obj.DeepCopyObject()
	controllerutil.AddFinalizer(obj, finalizer)
	return writer.Patch(ctx, obj, client.MergeFromWithOptions(before, client.MergeFromWithOptimisticLock{}))
}

// The base taken after the finalizer change: only the spec change is sent.
func (r *MemcachedReconciler) scale(ctx context.Context, memcached *Memcached, size int32) error {
	controllerutil.AddFinalizer(memcached, cleanupFinalizer)
	base := memcached.DeepCopy()
	memcached.Spec.Size = size
	return r.Patch(ctx, memcached, client.MergeFrom(base))
}

// A Pod (a built-in kind): a strategic merge patch unions finalizers.
func (r *PodReconciler) protect(ctx context.Context, pod *Pod) error {
	base := pod.DeepCopy()
	controllerutil.AddFinalizer(pod, cleanupFinalizer)
	return r.Patch(ctx, pod, client.StrategicMergeFrom(base))
}

// Server-side apply: the answer for shared ownership.
func (r *MemcachedReconciler) apply(ctx context.Context, deploy *Deployment) error {
	return r.Patch(ctx, deploy, client.Apply, client.ForceOwnership, client.FieldOwner("memcached"))
}

// A raw JSON patch with a test, retried on 409 only.
func (r *MemcachedReconciler) markReady(ctx context.Context, memcached *Memcached) error {
	return retry.RetryOnConflict(retry.DefaultBackoff, func() error { // want: test-retried-on-conflict
		body := []byte(`[{"op":"test","path":"/status/phase","value":"Pending"},{"op":"replace","path":"/status/phase","value":"Ready"}]`)
		// payload: [{"op":"test","path":"/status/phase","value":"Pending"},{"op":"replace","path":"/status/phase","value":"Ready"}]
		return r.Status().Patch(ctx, memcached, client.RawPatch(types.JSONPatchType, body))
	})
}
