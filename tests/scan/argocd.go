// Shapes of Argo CD's patch code (argoproj/argo-cd at 37ee0097cf, controller/appcontroller.go),
// written for these tests.
package controller

import (
	"context"
	"encoding/json"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

var rfc6901Encoder = strings.NewReplacer("/", "~1", "~", "~0")

// Shape: removeProjectFinalizer / updateFinalizers: a merge body holding the whole list.
func (ctrl *ApplicationController) removeProjectFinalizer(proj *AppProject) error {
	proj.RemoveFinalizer()
	var patch []byte
	patch, _ = json.Marshal(map[string]any{
		"metadata": map[string]any{
			"finalizers": proj.Finalizers,
		},
	})
	// payload: {"metadata":{"finalizers":<proj.Finalizers>}}
	_, err := ctrl.appclientset.ArgoprojV1alpha1().AppProjects(ctrl.namespace).Patch(context.Background(), proj.Name, types.MergePatchType, patch, metav1.PatchOptions{}) // want: merge-replaces-list
	return err
}

// Shape: setAppCondition: the status conditions as a whole list in a merge body.
func (ctrl *ApplicationController) setAppCondition(app *Application, condition ApplicationCondition) {
	app.Status.SetConditions([]ApplicationCondition{condition})
	patch, err := json.Marshal(map[string]any{
		"status": map[string]any{
			"conditions": app.Status.Conditions,
		},
	})
	if err == nil {
		_, err = ctrl.appclientset.ArgoprojV1alpha1().Applications(app.Namespace).Patch(context.Background(), app.Name, types.MergePatchType, patch, metav1.PatchOptions{}) // want: merge-replaces-list
	}
}

// Shape: setOperationState: op maps in a slice, a struct member replaced.
func (ctrl *ApplicationController) setOperationState(ctx context.Context, app *Application, state *OperationState) {
	patchOps := []map[string]any{
		{"op": "add", "path": "/status/operationState", "value": state},
	}
	if state.Phase.Completed() {
		patchOps = append(patchOps, map[string]any{"op": "add", "path": "/operation", "value": nil})
	}
	patchJSON, err := json.Marshal(patchOps)
	if err != nil {
		return
	}
	// payload: [{"op":"add","path":"/status/operationState","value":<state>},{"op":"add","path":"/operation","value":null}]
	_, _ = ctrl.PatchAppWithWriteBack(ctx, app.Name, app.Namespace, types.JSONPatchType, patchJSON, metav1.PatchOptions{})
}

// Shape: removeRefreshAnnotationCombo: a tested removal, then an untested one.
func (ctrl *ApplicationController) removeRefreshAnnotations(app *Application, annotation, timestampAnnotation string) error {
	annotations := app.GetAnnotations()
	jsonPatch := []map[string]any{}
	if refreshTS, ok := annotations[timestampAnnotation]; ok {
		timestampPath := "/metadata/annotations/" + rfc6901Encoder.Replace(timestampAnnotation)
		jsonPatch = append(jsonPatch, []map[string]any{
			{"op": "test", "path": timestampPath, "value": refreshTS},
			{"op": "remove", "path": timestampPath},
		}...)
	}
	if _, ok := annotations[annotation]; ok {
		annotationPath := "/metadata/annotations/" + rfc6901Encoder.Replace(annotation)
		jsonPatch = append(jsonPatch, map[string]any{ // want: remove-without-test
			"op":   "remove",
			"path": annotationPath,
		})
	}
	patch, err := json.Marshal(jsonPatch)
	if err != nil {
		return err
	}
	_, err = ctrl.PatchAppWithWriteBack(context.Background(), app.Name, app.Namespace, types.JSONPatchType, patch, metav1.PatchOptions{})
	return err
}
