// Shapes of CDI's patch code (kubevirt/containerized-data-importer at c07cdb6fbd,
// pkg/controller/...), written for these tests.
package controller

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	"sigs.k8s.io/controller-runtime/pkg/client"

	openapicommon "kubevirt.io/containerized-data-importer/pkg/apiserver/openapi"
)

// Shape: DataImportCron's storage class annotation
// (pkg/controller/dataimportcron-controller.go): a Sprintf JSON patch, key escaped,
// sent with client.RawPatch.
func (r *DataImportCronReconciler) updateStorageClass(ctx context.Context, cron *DataImportCron, desired string) error {
	annPatch := fmt.Sprintf(`[{"op":"add","path":"/metadata/annotations/%s","value":"%s" }]`, openapicommon.EscapeJsonPointer(AnnStorageClass), desired)
	// payload: [{"op":"add","path":"/metadata/annotations/<escape(AnnStorageClass)>","value":"<desired>"}]
	return r.client.Patch(ctx, cron, client.RawPatch(types.JSONPatchType, []byte(annPatch))) // want: add-without-test
}

// Shape: UpdatePVCBoundConditionFromEvents (pkg/controller/common/util.go): MergeFrom a
// copy, then annotation keys set: a merge patch merges maps key by key.
func UpdatePVCBoundCondition(pvc *PVC, c client.Client, message string) error {
	currentPvcCopy := pvc.DeepCopy()
	anno := pvc.GetAnnotations()
	anno[AnnBoundCondition] = "false"
	anno[AnnBoundConditionMessage] = message
	patch := client.MergeFrom(currentPvcCopy)
	return c.Patch(context.TODO(), pvc, patch)
}

// Shape: the DataVolume status update (pkg/controller/datavolume/controller-base.go,
// emitEvent and updateConditions): conditions replaced after the base was taken, sent
// with MergeFrom.
func (r *ReconcilerBase) updateStatus(dataVolume *DataVolume, reason string) error {
	dataVolumeCopy := dataVolume.DeepCopy()
	dataVolumeCopy.Status.Conditions = updateReadyCondition(dataVolumeCopy.Status.Conditions, reason)
	patch := client.MergeFrom(dataVolume) // want: merge-from-replaces-list
	return r.client.Status().Patch(context.TODO(), dataVolumeCopy, patch)
}

// Shape: the same, with the optimistic lock.
func (r *ReconcilerBase) updateStatusLocked(dataVolume *DataVolume, reason string) error {
	dataVolumeCopy := dataVolume.DeepCopy()
	dataVolumeCopy.Status.Conditions = updateReadyCondition(dataVolumeCopy.Status.Conditions, reason)
	patch := client.MergeFromWithOptions(dataVolume, client.MergeFromWithOptimisticLock{})
	return r.client.Status().Patch(context.TODO(), dataVolumeCopy, patch)
}
