// Shapes of KubeVirt's patch code (kubevirt/kubevirt, pkg/ at d923fdb815), written
// for these tests.
package watch

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/util/retry"

	"kubevirt.io/kubevirt/pkg/apimachinery/patch"
)

const finalizersPath = "/metadata/finalizers"

// Shape: the migration controller's patchVMI
// (pkg/virt-controller/watch/migration/migration.go): PR #18139's site.
func (c *MigrationController) patchVMI(origVMI, newVMI *VMI) error {
	patchSet := patch.New()
	if !equality.Semantic.DeepEqual(origVMI.Status.MigrationState, newVMI.Status.MigrationState) {
		if origVMI.Status.MigrationState == nil {
			// The condition says it is nil here: a test of null, kube-apiserver's reading.
			patchSet.AddOption(
				patch.WithTest("/status/migrationState", origVMI.Status.MigrationState), // want: engine-dependent
				patch.WithAdd("/status/migrationState", newVMI.Status.MigrationState))
		} else {
			// virt-handler writes migrationState too: the whole struct tested.
			patchSet.AddOption(
				patch.WithTest("/status/migrationState", origVMI.Status.MigrationState), // want: whole-object-test
				patch.WithReplace("/status/migrationState", newVMI.Status.MigrationState),
			)
		}
	}
	if !equality.Semantic.DeepEqual(origVMI.Labels, newVMI.Labels) {
		patchSet.AddOption(
			patch.WithTest("/metadata/labels", origVMI.Labels), // want: whole-map-test
			patch.WithReplace("/metadata/labels", newVMI.Labels),
		)
	}
	if patchSet.IsEmpty() {
		return nil
	}
	patchBytes, err := patchSet.GeneratePayload()
	if err != nil {
		return err
	}
	// payload: [{"op":"test","path":"/status/migrationState","value":null},{"op":"add","path":"/status/migrationState","value":<newVMI.Status.MigrationState>},{"op":"test","path":"/status/migrationState","value":<origVMI.Status.MigrationState>},{"op":"replace","path":"/status/migrationState","value":<newVMI.Status.MigrationState>},{"op":"test","path":"/metadata/labels","value":<origVMI.Labels>},{"op":"replace","path":"/metadata/labels","value":<newVMI.Labels>}]
	_, err = c.clientset.VirtualMachineInstance(origVMI.Namespace).Patch(context.Background(), origVMI.Name, types.JSONPatchType, patchBytes, metav1.PatchOptions{})
	return err
}

// Shape: the same function after PR #18139 (its GeneratePerKeyMapPatches helper):
// per-key ops, whose only notes are the per-key trade-offs.
func (c *MigrationController) patchVMIPerKey(origVMI, newVMI *VMI) error {
	patchSet := patch.New()
	if !equality.Semantic.DeepEqual(origVMI.Labels, newVMI.Labels) {
		patchSet.AddOption(patch.GeneratePerKeyMapPatches("/metadata/labels", origVMI.Labels, newVMI.Labels)...) // want: engine-dependent remove-without-test add-without-test
	}
	patchBytes, err := patchSet.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.clientset.VirtualMachineInstance(origVMI.Namespace).Patch(context.Background(), origVMI.Name, types.JSONPatchType, patchBytes, metav1.PatchOptions{})
	return err
}

// Shape: the node labeller's patchNode (pkg/virt-handler/node-labeller/node_labeller.go):
// Node labels are written by kubelet and node-feature-discovery too.
func (n *NodeLabeller) patchNode(originalNode, node *Node) error {
	if equality.Semantic.DeepEqual(originalNode.Labels, node.Labels) {
		return nil
	}
	patchBytes, err := patch.New(
		patch.WithTest("/metadata/labels", originalNode.Labels), // want: whole-map-test
		patch.WithReplace("/metadata/labels", node.Labels),
	).GeneratePayload()
	if err != nil {
		return err
	}
	// payload: [{"op":"test","path":"/metadata/labels","value":<originalNode.Labels>},{"op":"replace","path":"/metadata/labels","value":<node.Labels>}]
	_, err = n.nodeClient.Patch(context.Background(), node.Name, types.JSONPatchType, patchBytes, metav1.PatchOptions{})
	return err
}

// Shape: the VM controller's getPatchFinalizerOps (pkg/virt-controller/watch/vm/vm.go):
// whole-list test + replace, safe to retry.
func (c *VMController) getPatchFinalizerOps(oldFinalizers, newFinalizers []string) ([]byte, error) {
	// payload: [{"op":"test","path":"/metadata/finalizers","value":<oldFinalizers>},{"op":"replace","path":"/metadata/finalizers","value":<newFinalizers>}]
	return patch.New(
		patch.WithTest(finalizersPath, oldFinalizers), // want: whole-list-test
		patch.WithReplace(finalizersPath, newFinalizers)).
		GeneratePayload()
}

// Shape: the VMI controller's prepareVMIPatch (pkg/virt-controller/watch/vmi/lifecycle.go):
// ops added in branches; the labels are added whole when the VMI had none.
func prepareVMIPatch(oldVMI, newVMI *VMI) *patch.PatchSet {
	patchSet := patch.New()
	if newVMI.Status.Phase != oldVMI.Status.Phase {
		patchSet.AddOption(
			patch.WithTest("/status/phase", oldVMI.Status.Phase),
			patch.WithReplace("/status/phase", newVMI.Status.Phase),
		)
	}
	if !equality.Semantic.DeepEqual(oldVMI.Labels, newVMI.Labels) {
		if oldVMI.Labels == nil {
			patchSet.AddOption(patch.WithAdd("/metadata/labels", newVMI.Labels)) // want: whole-collection-write
		} else {
			patchSet.AddOption(
				patch.WithTest("/metadata/labels", oldVMI.Labels), // want: whole-map-test
				patch.WithReplace("/metadata/labels", newVMI.Labels),
			)
		}
	}
	// payload: [{"op":"test","path":"/status/phase","value":<oldVMI.Status.Phase>},{"op":"replace","path":"/status/phase","value":<newVMI.Status.Phase>},{"op":"add","path":"/metadata/labels","value":<newVMI.Labels>},{"op":"test","path":"/metadata/labels","value":<oldVMI.Labels>},{"op":"replace","path":"/metadata/labels","value":<newVMI.Labels>}]
	return patchSet
}

// Shape: virt-operator's finalizer patch (pkg/virt-operator/kubevirt.go, execute):
// the whole list replaced from a Sprintf body, with no test.
func (c *KubeVirtController) syncFinalizers(kv, kvCopy *KubeVirt) error {
	if equality.Semantic.DeepEqual(kv.Finalizers, kvCopy.Finalizers) {
		return nil
	}
	finalizersJson, err := json.Marshal(kvCopy.Finalizers)
	if err != nil {
		return err
	}
	body := fmt.Sprintf(`[{"op": "replace", "path": "/metadata/finalizers", "value": %s}]`, string(finalizersJson))
	// payload: [{"op":"replace","path":"/metadata/finalizers","value":<kvCopy.Finalizers>}]
	_, err = c.virtClient.KubeVirt(kvCopy.Namespace).Patch(context.Background(), kvCopy.Name, types.JSONPatchType, []byte(body), metav1.PatchOptions{}) // want: whole-collection-write
	return err
}

// Shape: virt-operator's createLabelsAndAnnotationsPatch
// (pkg/virt-operator/resource/apply/reconcile.go): whole maps and lists added with no guard.
func createLabelsAndAnnotationsPatch(objectMeta *ObjectMeta) []patch.PatchOption {
	// payload: [{"op":"add","path":"/metadata/labels","value":<objectMeta.Labels>},{"op":"add","path":"/metadata/annotations","value":<objectMeta.Annotations>},{"op":"add","path":"/metadata/ownerReferences","value":<objectMeta.OwnerReferences>}]
	return []patch.PatchOption{patch.WithAdd("/metadata/labels", objectMeta.Labels), // want: whole-collection-write
		patch.WithAdd("/metadata/annotations", objectMeta.Annotations),         // want: whole-collection-write
		patch.WithAdd("/metadata/ownerReferences", objectMeta.OwnerReferences)} // want: whole-collection-write
}

// Shape: the descheduler annotations (pkg/virt-controller/watch/descheduler/descheduler.go):
// one escaped key, tested before its removal.
func MarkEvictionCompleted(ctx context.Context, client PodClient, pod *Pod, value string) error {
	patchBytes, err := patch.New(
		patch.WithTest(fmt.Sprintf("/metadata/annotations/%s", patch.EscapeJSONPointer(EvictionInProgressAnnotation)), value),
		patch.WithRemove(fmt.Sprintf("/metadata/annotations/%s", patch.EscapeJSONPointer(EvictionInProgressAnnotation))),
	).GeneratePayload()
	if err != nil {
		return err
	}
	// payload: [{"op":"test","path":"/metadata/annotations/<escape(EvictionInProgressAnnotation)>","value":<value>},{"op":"remove","path":"/metadata/annotations/<escape(EvictionInProgressAnnotation)>"}]
	_, err = client.Patch(ctx, pod.Name, types.JSONPatchType, patchBytes, metav1.PatchOptions{})
	return err
}

// Shape: the VM controller's syncDynamicAnnotationsAndLabelsToVMI
// (pkg/virt-controller/watch/vm/vm.go): a closure called once per map.
func (c *VMController) syncDynamic(vm *VM, vmi *VMI) error {
	patchSet := patch.New()
	newLabels := copyMap(vmi.Labels)
	syncMap := func(vmMap, vmiMap, vmiOrigMap map[string]string, subPath string) {
		if !syncKeys(vmMap, vmiMap) {
			return
		}
		if vmiOrigMap == nil {
			patchSet.AddOption(patch.WithAdd("/metadata/"+subPath, vmiMap)) // want: whole-collection-write
		} else {
			patchSet.AddOption(
				patch.WithTest("/metadata/"+subPath, vmiOrigMap), // want: whole-map-test
				patch.WithReplace("/metadata/"+subPath, vmiMap),
			)
		}
	}
	syncMap(vm.Spec.Template.ObjectMeta.Labels, newLabels, vmi.ObjectMeta.Labels, "labels")
	if patchSet.IsEmpty() {
		return nil
	}
	payload, err := patchSet.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.clientset.VirtualMachineInstance(vmi.Namespace).Patch(context.Background(), vmi.Name, types.JSONPatchType, payload, metav1.PatchOptions{})
	return err
}

// Shape: KubeVirt's retry loop around a write (pkg/virtctl/credentials/removekey/removekey.go),
// here with a JSON patch that tests the phase instead of its Update.
func (c *Controller) finishVMI(ctx context.Context, vmi *VMI) error {
	return retry.RetryOnConflict(retry.DefaultRetry, func() error { // want: test-retried-on-conflict
		payload, err := patch.New(
			patch.WithTest("/status/phase", vmi.Status.Phase),
			patch.WithReplace("/status/phase", Succeeded),
		).GeneratePayload()
		if err != nil {
			return err
		}
		_, err = c.clientset.VirtualMachineInstance(vmi.Namespace).Patch(ctx, vmi.Name, types.JSONPatchType, payload, metav1.PatchOptions{})
		return err
	})
}

// Shape: the VMI mutating webhook (pkg/virt-api/webhooks/mutating-webhook/mutators/vmi-mutator.go):
// a webhook's patch applies to the object being admitted, no concurrent writer.
func (m *VMIsMutator) Mutate(ar *AdmissionReview) *AdmissionResponse {
	newVMI := decode(ar)
	patchBytes, err := patch.New(
		patch.WithReplace("/spec", newVMI.Spec),
		patch.WithAdd("/metadata/labels", newVMI.Labels),
	).GeneratePayload()
	if err != nil {
		return toAdmissionResponseError(err)
	}
	jsonPatchType := PatchTypeJSONPatch
	return &AdmissionResponse{
		Allowed:   true,
		Patch:     patchBytes,
		PatchType: &jsonPatchType,
	}
}
