// Shape of kube-rs's finalizer removal (kube-rs/kube, kube-runtime/src/finalizer.rs:
// the finalizer removed by index behind a test of that element), written in Go for
// these tests, with and without the test.
package finalizer

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

type jsonOp struct {
	Op    string      `json:"op"`
	Path  string      `json:"path"`
	Value interface{} `json:"value,omitempty"`
}

func removeFinalizer(ctx context.Context, client Client, obj *Object, i int, name string) error {
	ops := []jsonOp{
		{Op: "test", Path: fmt.Sprintf("/metadata/finalizers/%d", i), Value: name},
		{Op: "remove", Path: fmt.Sprintf("/metadata/finalizers/%d", i)},
	}
	return send(ctx, client, obj, ops)
}

func removeFinalizerBlind(ctx context.Context, client Client, obj *Object, i int) error {
	body := fmt.Sprintf(`[{"op":"remove","path":"/metadata/finalizers/%d"}]`, i)
	// payload: [{"op":"remove","path":"/metadata/finalizers/<i>"}]
	_, err := client.Patch(ctx, obj.Name, types.JSONPatchType, []byte(body), metav1.PatchOptions{}) // want: index-without-test
	return err
}

// Adding the first finalizer: kube-rs tests that there is none, then adds the list.
func addFirstFinalizer(ctx context.Context, client Client, obj *Object, name string) error {
	body := fmt.Sprintf(`[{"op":"test","path":"/metadata/finalizers","value":null},{"op":"add","path":"/metadata/finalizers","value":[%q]}]`, name)
	_, err := client.Patch(ctx, obj.Name, types.JSONPatchType, []byte(body), metav1.PatchOptions{}) // want: engine-dependent
	return err
}
