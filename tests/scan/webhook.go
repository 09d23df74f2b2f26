// Shape of the mutating-webhook tutorial's label patch (morvencao/kube-mutating-webhook-tutorial,
// webhook.go: patchOperation structs, updateLabels), written for these tests; and a
// controller sending the same ops as a JSON patch.
package main

import (
	"context"
	"encoding/json"
	"fmt"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"gomodules.xyz/jsonpatch/v2"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"
)

type patchOperation struct {
	Op    string      `json:"op"`
	Path  string      `json:"path"`
	Value interface{} `json:"value,omitempty"`
}

func updateLabels(target map[string]string, added map[string]string) (patch []patchOperation) {
	for key, value := range added {
		if target == nil || target[key] == "" {
			target = map[string]string{}
			patch = append(patch, patchOperation{ // want: unescaped-slash
				Op:    "add",
				Path:  "/metadata/labels/" + key,
				Value: value,
			})
		}
	}
	return patch
}

// In a webhook the patch applies to the object being admitted: adding the whole map is
// safe there; the unescaped key is not.
func mutate(ar *admissionv1.AdmissionReview, pod *Pod) *admissionv1.AdmissionResponse {
	var ops []patchOperation
	if pod.Labels == nil {
		ops = append(ops, patchOperation{Op: "add", Path: "/metadata/labels", Value: requiredLabels})
	} else {
		for key, value := range requiredLabels {
			ops = append(ops, patchOperation{Op: "add", Path: "/metadata/labels/" + key, Value: value}) // want: unescaped-slash
		}
	}
	patchBytes, _ := json.Marshal(ops)
	return &admissionv1.AdmissionResponse{Allowed: true, Patch: patchBytes}
}

// The same ops sent by a controller: now another writer can come between.
func labelPod(ctx context.Context, client PodClient, pod *Pod) error {
	var ops []patchOperation
	if pod.Labels == nil {
		ops = append(ops, patchOperation{Op: "add", Path: "/metadata/labels", Value: requiredLabels}) // want: whole-collection-write
	}
	patchBytes, err := json.Marshal(ops)
	if err != nil {
		return err
	}
	_, err = client.Patch(ctx, pod.Name, types.JSONPatchType, patchBytes, metav1.PatchOptions{})
	return err
}

// Shape of a controller-runtime mutating webhook (HCO's pkg/webhooks/mutator: ops per
// list element built by a helper, then `admission.Patched`): applied to the object
// being admitted, so an index with no `test` is safe there.
func templatePatches(templates []Template, pathTemplate string) []jsonpatch.JsonPatchOperation {
	var patches []jsonpatch.JsonPatchOperation
	for index, t := range templates {
		if t.Annotations == nil {
			patches = append(patches, jsonpatch.JsonPatchOperation{
				Operation: "add",
				Path:      fmt.Sprintf(pathTemplate+"/metadata/annotations", index),
				Value:     map[string]string{immediateBind: "true"},
			})
		}
	}
	return patches
}

func (m *Mutator) mutate(req admission.Request, obj *Config) admission.Response {
	patches := templatePatches(obj.Spec.Templates, "/spec/templates/%d")
	for i, node := range obj.Spec.Nodes {
		if len(node.Types) == 0 {
			patches = append(patches, jsonpatch.JsonPatchOperation{
				Operation: "add",
				Path:      fmt.Sprintf("/spec/nodes/%d/types", i),
				Value:     node.OldTypes,
			})
		}
	}
	return respond(sortPatches(patches))
}

func respond(patches []jsonpatch.JsonPatchOperation) admission.Response {
	if len(patches) > 0 {
		return admission.Patched("mutated", patches...)
	}
	return admission.Allowed("")
}
