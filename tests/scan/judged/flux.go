// Extract of the judged site of fluxcd/helm-controller at 0f61a8607a
// (tests/scan/judged.yaml): Go written for the replay test in the shape of the site.
package judged

import (
	"context"

	"github.com/fluxcd/pkg/runtime/patch"
	ctrl "sigs.k8s.io/controller-runtime"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"

	v2 "github.com/fluxcd/helm-controller/api/v2"
)

// helmrelease_controller.go Reconcile: Flux's serial patcher made from the object,
// its Patch deferred; the finalizer added here, removed in the deletion path.
func (r *HelmReleaseReconciler) helmReleaseReconcile(ctx context.Context, req ctrl.Request) (result ctrl.Result, retErr error) {
	obj := &v2.HelmRelease{}
	if err := r.Get(ctx, req.NamespacedName, obj); err != nil {
		return ctrl.Result{}, client.IgnoreNotFound(err)
	}
	patcher := patch.NewSerialPatcher(obj, r.Client)
	defer func() {
		opts := []patch.Option{patch.WithFieldOwner(r.FieldManager)}
		if err := patcher.Patch(ctx, obj, opts...); err != nil {
			retErr = err
		}
	}()
	if !obj.DeletionTimestamp.IsZero() {
		return r.helmReleaseDelete(ctx, obj)
	}
	if !controllerutil.ContainsFinalizer(obj, v2.HelmReleaseFinalizer) {
		controllerutil.AddFinalizer(obj, v2.HelmReleaseFinalizer)
		return ctrl.Result{Requeue: true}, nil
	}
	return ctrl.Result{}, nil
}

func (r *HelmReleaseReconciler) helmReleaseDelete(ctx context.Context, obj *v2.HelmRelease) (ctrl.Result, error) {
	if err := r.uninstall(ctx, obj); err != nil {
		return ctrl.Result{}, err
	}
	controllerutil.RemoveFinalizer(obj, v2.HelmReleaseFinalizer)
	return ctrl.Result{}, nil
}
