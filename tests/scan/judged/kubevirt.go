// Extracts of the judged sites of kubevirt/kubevirt at d923fdb815 (tests/scan/judged.yaml):
// small Go written for the replay test in the shape of each site, not KubeVirt's code.
// Function names are the YAML's `extract` names.
package judged

import (
	"context"
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"kubevirt.io/kubevirt/pkg/apimachinery/patch"
)

// migration.go patchVMI: VMI labels tested whole.
func (c *Controller) migrationPatchVMI(oldVMI, newVMI *VirtualMachineInstance) error {
	ops := patch.New()
	if !equality.Semantic.DeepEqual(oldVMI.Labels, newVMI.Labels) {
		ops.AddOption(
			patch.WithTest("/metadata/labels", oldVMI.Labels),
			patch.WithReplace("/metadata/labels", newVMI.Labels),
		)
	}
	if ops.IsEmpty() {
		return nil
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.client.VirtualMachineInstance(oldVMI.Namespace).Patch(context.Background(), oldVMI.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// lifecycle.go prepareVMIPatch: volumeStatus added whole; labels added whole or
// tested whole; finalizers added whole.
func (c *Controller) prepareVMIPatch(oldVMI, newVMI *VirtualMachineInstance) *patch.PatchSet {
	ops := patch.New()
	if !equality.Semantic.DeepEqual(oldVMI.Status.VolumeStatus, newVMI.Status.VolumeStatus) {
		if oldVMI.Status.VolumeStatus == nil {
			ops.AddOption(patch.WithAdd("/status/volumeStatus", newVMI.Status.VolumeStatus))
		}
	}
	if !equality.Semantic.DeepEqual(oldVMI.Labels, newVMI.Labels) {
		if oldVMI.Labels == nil {
			ops.AddOption(patch.WithAdd("/metadata/labels", newVMI.Labels))
		} else {
			ops.AddOption(
				patch.WithTest("/metadata/labels", oldVMI.Labels),
				patch.WithReplace("/metadata/labels", newVMI.Labels),
			)
		}
	}
	if !equality.Semantic.DeepEqual(oldVMI.Finalizers, newVMI.Finalizers) {
		if len(oldVMI.Finalizers) == 0 {
			ops.AddOption(patch.WithAdd("/metadata/finalizers", newVMI.Finalizers))
		}
	}
	return ops
}

// node_labeller.go patchNode: Node labels tested whole.
func (n *NodeLabeller) nodeLabellerPatchNode(original, node *Node) error {
	if equality.Semantic.DeepEqual(original.Labels, node.Labels) {
		return nil
	}
	data, err := patch.New(
		patch.WithTest("/metadata/labels", original.Labels),
		patch.WithReplace("/metadata/labels", node.Labels),
	).GeneratePayload()
	if err != nil {
		return err
	}
	_, err = n.client.CoreV1().Nodes().Patch(context.Background(), node.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// vm.go patchVmGenerationAnnotationOnVmi: all VMI annotations tested to set one.
func (c *Controller) patchGenerationAnnotation(generation string, vmi *VirtualMachineInstance) error {
	before := vmi.Annotations
	after := map[string]string{}
	for k, v := range before {
		after[k] = v
	}
	after[generationAnnotation] = generation
	data, err := patch.New(
		patch.WithTest("/metadata/annotations", before),
		patch.WithReplace("/metadata/annotations", after),
	).GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.client.VirtualMachineInstance(vmi.Namespace).Patch(context.Background(), vmi.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// vm.go syncDynamicAnnotationsAndLabelsToVMI: a closure run for labels and twice for
// annotations; each adds the map whole when absent, else tests it whole.
func (c *Controller) syncDynamicToVMI(vm *VirtualMachine, vmi *VirtualMachineInstance) error {
	ops := patch.New()
	labels := copyMap(vmi.Labels)
	annotations := copyMap(vmi.Annotations)
	sync := func(want, have, orig map[string]string, field string) {
		if !copyKeys(want, have) {
			return
		}
		if orig == nil {
			ops.AddOption(patch.WithAdd("/metadata/"+field, have))
		} else {
			ops.AddOption(
				patch.WithTest("/metadata/"+field, orig),
				patch.WithReplace("/metadata/"+field, have),
			)
		}
	}
	sync(vm.Spec.Template.ObjectMeta.Labels, labels, vmi.Labels, "labels")
	sync(vm.Spec.Template.ObjectMeta.Annotations, annotations, vmi.Annotations, "annotations")
	sync(hookAnnotations(vm), annotations, vmi.Annotations, "annotations")
	if ops.IsEmpty() {
		return nil
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.client.VirtualMachineInstance(vmi.Namespace).Patch(context.Background(), vmi.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// vm.go addStartRequest: the whole stateChangeRequests list added.
func (c *Controller) addStartRequest(vm *VirtualMachine) error {
	requests := append(vm.Status.StateChangeRequests, StateChangeRequest{Action: StartRequest})
	ops := patch.New()
	ops.AddOption(patch.WithAdd("/status/stateChangeRequests", requests))
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.client.VirtualMachine(vm.Namespace).PatchStatus(context.Background(), vm.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// pool.go handleResourceUpdate: the revision label set by adding the labels whole or
// testing them whole.
func (c *PoolController) poolRevisionLabel(vmi *VirtualMachineInstance, revision string) error {
	labels := copyMap(vmi.Labels)
	labels[revisionLabel] = revision
	ops := patch.New()
	if vmi.Labels == nil {
		ops.AddOption(patch.WithAdd("/metadata/labels", labels))
	} else {
		ops.AddOption(
			patch.WithTest("/metadata/labels", vmi.Labels),
			patch.WithReplace("/metadata/labels", labels),
		)
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.client.VirtualMachineInstance(vmi.Namespace).Patch(context.Background(), vmi.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// lifecycle.go syncDynamicAnnotationsAndLabelsToPod: the launcher pod's labels.
func (c *Controller) syncDynamicToPod(vmi *VirtualMachineInstance, pod *Pod) error {
	labels := copyMap(pod.Labels)
	if !copyKeys(vmi.Labels, labels) {
		return nil
	}
	ops := patch.New()
	if pod.Labels == nil {
		ops.AddOption(patch.WithAdd("/metadata/labels", labels))
	} else {
		ops.AddOption(
			patch.WithTest("/metadata/labels", pod.Labels),
			patch.WithReplace("/metadata/labels", labels),
		)
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.client.CoreV1().Pods(pod.Namespace).Patch(context.Background(), pod.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// synchronization-controller.go patchVMI: as the migration controller's, labels
// added whole when absent.
func (s *SyncController) syncControllerPatchVMI(oldVMI, newVMI *VirtualMachineInstance) error {
	ops := patch.New()
	if !equality.Semantic.DeepEqual(oldVMI.Labels, newVMI.Labels) {
		if oldVMI.Labels == nil {
			ops.AddOption(patch.WithAdd("/metadata/labels", newVMI.Labels))
		} else {
			ops.AddOption(
				patch.WithTest("/metadata/labels", oldVMI.Labels),
				patch.WithReplace("/metadata/labels", newVMI.Labels),
			)
		}
	}
	if ops.IsEmpty() {
		return nil
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = s.client.VirtualMachineInstance(oldVMI.Namespace).Patch(context.Background(), oldVMI.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// synchronization-controller.go handleMigrationFinalizer: finalizers replaced whole.
func (s *SyncController) migrationFinalizer(migration *Migration, finalizers []string) error {
	data, err := patch.New(patch.WithReplace("/metadata/finalizers", finalizers)).GeneratePayload()
	if err != nil {
		return err
	}
	_, err = s.client.VirtualMachineInstanceMigration(migration.Namespace).Patch(context.Background(), migration.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// restore.go removeBackendLabelFromPVC: the PVC's labels tested whole to drop one.
func (t *restoreTarget) removeBackendLabel(pvc *PersistentVolumeClaim) error {
	labels := copyMap(pvc.Labels)
	delete(labels, backendLabel)
	data, err := patch.New(
		patch.WithTest("/metadata/labels", pvc.Labels),
		patch.WithReplace("/metadata/labels", labels),
	).GeneratePayload()
	if err != nil {
		return err
	}
	_, err = t.client.CoreV1().PersistentVolumeClaims(pvc.Namespace).Patch(context.Background(), pvc.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// restore.go updateRestorePVCWithBackendLabel: labels added whole when absent, else
// tested whole.
func (t *restoreTarget) restorePVCBackendLabel(pvc *PersistentVolumeClaim) error {
	labels := copyMap(pvc.Labels)
	labels[backendLabel] = "true"
	ops := patch.New()
	if pvc.Labels == nil {
		ops.AddOption(patch.WithAdd("/metadata/labels", labels))
	} else {
		ops.AddOption(
			patch.WithTest("/metadata/labels", pvc.Labels),
			patch.WithReplace("/metadata/labels", labels),
		)
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = t.client.CoreV1().PersistentVolumeClaims(pvc.Namespace).Patch(context.Background(), pvc.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// backend-storage.go labelLegacyPVC: labels added whole when empty.
func (b *BackendStorage) labelLegacyPVC(pvc *PersistentVolumeClaim, name string) error {
	ops := patch.New()
	if len(pvc.Labels) == 0 {
		ops.AddOption(patch.WithAdd("/metadata/labels", map[string]string{backendLabel: name}))
	} else {
		ops.AddOption(patch.WithAdd("/metadata/labels/"+patch.EscapeJSONPointer(backendLabel), name))
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = b.client.CoreV1().PersistentVolumeClaims(pvc.Namespace).Patch(context.Background(), pvc.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// memorydump.go patchMemoryDumpPVCAnnotation: annotations added whole when empty.
func memoryDumpAnnotation(client Client, pvc *PersistentVolumeClaim, value string) error {
	ops := patch.New()
	if len(pvc.Annotations) == 0 {
		ops.AddOption(patch.WithAdd("/metadata/annotations", map[string]string{dumpAnnotation: value}))
	} else {
		ops.AddOption(patch.WithReplace("/metadata/annotations/"+patch.EscapeJSONPointer(dumpAnnotation), value))
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = client.CoreV1().PersistentVolumeClaims(pvc.Namespace).Patch(context.Background(), pvc.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// migration.go setupVMIRuntimeUser: a helper returning a *PatchSet whose annotations
// are added whole when nil; the caller sends it.
func (c *Controller) setupRuntimeUser(vmi *VirtualMachineInstance) error {
	ops := c.runtimeUserOps(vmi)
	if ops.IsEmpty() {
		return nil
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.client.VirtualMachineInstance(vmi.Namespace).Patch(context.Background(), vmi.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

func (c *Controller) runtimeUserOps(vmi *VirtualMachineInstance) *patch.PatchSet {
	ops := patch.New()
	if vmi.Status.RuntimeUser != nonRootUID {
		ops.AddOption(patch.WithReplace("/status/runtimeUser", nonRootUID))
	}
	if vmi.Annotations == nil {
		ops.AddOption(patch.WithAdd("/metadata/annotations", map[string]string{nonRootAnnotation: "true"}))
	}
	return ops
}

// migration.go markMigrationAbortInVmiStatus: the whole status tested and replaced;
// the kind only from the client call.
func (c *Controller) markMigrationAbort(vmi *VirtualMachineInstance) error {
	changed := vmi.DeepCopy()
	changed.Status.MigrationState.AbortRequested = true
	if equality.Semantic.DeepEqual(vmi.Status, changed.Status) {
		return nil
	}
	data, err := patch.New(
		patch.WithTest("/status", vmi.Status),
		patch.WithReplace("/status", changed.Status),
	).GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.client.VirtualMachineInstance(vmi.Namespace).Patch(context.Background(), vmi.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// virt-operator kubevirt.go execute: finalizers replaced from a Sprintf body.
func (c *KubeVirtController) kubevirtFinalizers(kv *KubeVirt, finalizers []string) error {
	list, err := json.Marshal(finalizers)
	if err != nil {
		return err
	}
	body := fmt.Sprintf(`[{ "op": "replace", "path": "/metadata/finalizers", "value": %s }]`, string(list))
	_, err = c.client.KubeVirt(kv.Namespace).Patch(context.Background(), kv.Name, types.JSONPatchType, []byte(body), metav1.PatchOptions{})
	return err
}

// reconcile.go createLabelsAndAnnotationsPatch: three whole members added.
func labelsAndAnnotationsPatch(meta *ObjectMeta) []patch.PatchOption {
	return []patch.PatchOption{
		patch.WithAdd("/metadata/labels", meta.Labels),
		patch.WithAdd("/metadata/annotations", meta.Annotations),
		patch.WithAdd("/metadata/ownerReferences", meta.OwnerReferences),
	}
}

// delete.go crdHandleDeletion: a CRD's finalizers added whole, later removed whole.
func crdFinalizers(client Client, crd *CustomResourceDefinition) error {
	if len(crd.Finalizers) == 0 {
		data, err := patch.New(patch.WithAdd("/metadata/finalizers", []string{crdFinalizer})).GeneratePayload()
		if err != nil {
			return err
		}
		_, err = client.ExtensionsClient().ApiextensionsV1().CustomResourceDefinitions().Patch(context.Background(), crd.Name, types.JSONPatchType, data, metav1.PatchOptions{})
		return err
	}
	if len(crd.Finalizers) == 1 && crd.Finalizers[0] == crdFinalizer {
		data, err := patch.New(patch.WithRemove("/metadata/finalizers")).GeneratePayload()
		if err != nil {
			return err
		}
		_, err = client.ExtensionsClient().ApiextensionsV1().CustomResourceDefinitions().Patch(context.Background(), crd.Name, types.JSONPatchType, data, metav1.PatchOptions{})
		return err
	}
	return nil
}

// pod-eviction-admitter.go markVMI: annotations added whole when empty (the key inside
// escaped).
func (a *EvictionAdmitter) markVMIEvicted(vmi *VirtualMachineInstance, pod string) error {
	ops := patch.New(patch.WithAdd("/status/evacuationNodeName", vmi.Status.NodeName))
	if len(vmi.Annotations) == 0 {
		ops.AddOption(patch.WithAdd("/metadata/annotations", map[string]string{patch.EscapeJSONPointer(evictionAnnotation): pod}))
	} else {
		ops.AddOption(patch.WithReplace("/metadata/annotations/"+patch.EscapeJSONPointer(evictionAnnotation), pod))
	}
	data, err := ops.GeneratePayload()
	if err != nil {
		return err
	}
	_, err = a.client.VirtualMachineInstance(vmi.Namespace).Patch(context.Background(), vmi.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// imageupload.go updateExistingDataSource: the DataSource's labels replaced whole.
func (c *uploadCommand) updateDataSource(ds *DataSource, labels map[string]string) error {
	data, err := patch.New(patch.WithReplace("/metadata/labels", labels)).GeneratePayload()
	if err != nil {
		return err
	}
	_, err = c.cdi.CdiV1beta1().DataSources(ds.Namespace).Patch(context.Background(), ds.Name, types.JSONPatchType, data, metav1.PatchOptions{})
	return err
}

// controller_ref_manager.go: adoption and release through wrappers that send a merge
// patch.
type vmControl struct {
	client Client
}

func (v vmControl) PatchVirtualMachineInstance(namespace, name string, data []byte) error {
	_, err := v.client.VirtualMachineInstance(namespace).Patch(context.Background(), name, types.MergePatchType, data, metav1.PatchOptions{})
	return err
}

func (v vmControl) PatchVirtualMachine(namespace, name string, data []byte) error {
	_, err := v.client.VirtualMachine(namespace).Patch(context.Background(), name, types.MergePatchType, data, metav1.PatchOptions{})
	return err
}

func (v vmControl) PatchDataVolume(namespace, name string, data []byte) error {
	_, err := v.client.CdiClient().CdiV1beta1().DataVolumes(namespace).Patch(context.Background(), name, types.MergePatchType, data, metav1.PatchOptions{})
	return err
}

type refManager struct {
	control vmControl
	owner   *VirtualMachine
}

func (m *refManager) adoptVMI(vmi *VirtualMachineInstance) error {
	body := fmt.Sprintf(`{"metadata":{"ownerReferences":[{"apiVersion":"%s","kind":"%s","name":"%s","uid":"%s","controller":true}],"uid":"%s"}}`,
		m.owner.APIVersion, m.owner.Kind, m.owner.Name, m.owner.UID, vmi.UID)
	return m.control.PatchVirtualMachineInstance(vmi.Namespace, vmi.Name, []byte(body))
}

func (m *refManager) releaseVMI(vmi *VirtualMachineInstance) error {
	body := `{"metadata":{"ownerReferences":[]}}`
	return m.control.PatchVirtualMachineInstance(vmi.Namespace, vmi.Name, []byte(body))
}

func (m *refManager) adoptVM(vm *VirtualMachine) error {
	body := fmt.Sprintf(`{"metadata":{"ownerReferences":[{"apiVersion":"%s","kind":"%s","name":"%s","uid":"%s","controller":true}],"uid":"%s"}}`,
		m.owner.APIVersion, m.owner.Kind, m.owner.Name, m.owner.UID, vm.UID)
	return m.control.PatchVirtualMachine(vm.Namespace, vm.Name, []byte(body))
}

func (m *refManager) releaseVM(vm *VirtualMachine) error {
	var kept []string
	for _, f := range vm.Finalizers {
		if f != poolFinalizer {
			kept = append(kept, f)
		}
	}
	body := fmt.Sprintf(`{"metadata":{"ownerReferences":[],"finalizers":%s}}`, kept)
	return m.control.PatchVirtualMachine(vm.Namespace, vm.Name, []byte(body))
}

func (m *refManager) adoptDV(dv *DataVolume) error {
	body := fmt.Sprintf(`{"metadata":{"ownerReferences":[{"apiVersion":"%s","kind":"%s","name":"%s","uid":"%s","controller":true}],"uid":"%s"}}`,
		m.owner.APIVersion, m.owner.Kind, m.owner.Name, m.owner.UID, dv.UID)
	return m.control.PatchDataVolume(dv.Namespace, dv.Name, []byte(body))
}

func (m *refManager) releaseDV(dv *DataVolume) error {
	body := `{"metadata":{"ownerReferences":[]}}`
	return m.control.PatchDataVolume(dv.Namespace, dv.Name, []byte(body))
}
