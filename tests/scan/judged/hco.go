// Extract of the judged site of kubevirt/hyperconverged-cluster-operator at 03da3cff73
// (tests/scan/judged.yaml): Go written for the replay test in the shape of the site.
package judged

import (
	"encoding/json"

	"gomodules.xyz/jsonpatch/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// pkg/util/labels.go MergeLabelsJSONPatch (its caller, which sends the bytes on a
// Secret, is in another package): the op is `add` when the target had no
// labels, else `replace`, and its value is the whole merged map; no test.
func mergeLabelsJSONPatch(src, tgt *metav1.ObjectMeta) ([]byte, error) {
	if labelsContained(src, tgt) {
		return nil, nil
	}
	op := "replace"
	if tgt.Labels == nil {
		op = "add"
	}
	tgt = tgt.DeepCopy()
	copyLabels(src, tgt)
	ops := []jsonpatch.Operation{jsonpatch.NewOperation(op, "/metadata/labels", tgt.Labels)}
	return json.Marshal(ops)
}

