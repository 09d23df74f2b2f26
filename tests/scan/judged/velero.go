// Extracts of the judged sites of vmware-tanzu/velero at d30d389b56
// (tests/scan/judged.yaml): Go written for the replay test in the shape of the sites.
package judged

import (
	"context"
	"encoding/json"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// pkg/cmd/cli/plugin/add.go: inside the command's Run literal, the Deployment is
// marshalled before and after an init container and a volume are appended, and the
// merge patch of the two is sent.
func pluginAdd(client KubeClient) *cobra.Command {
	return &cobra.Command{
		Use: "add IMAGE",
		Run: func(c *cobra.Command, args []string) {
			deploy, err := client.AppsV1().Deployments(namespace).Get(context.TODO(), "velero", metav1.GetOptions{})
			check(err)
			before, err := json.Marshal(deploy)
			check(err)
			deploy.Spec.Template.Spec.Volumes = append(deploy.Spec.Template.Spec.Volumes, pluginVolume())
			deploy.Spec.Template.Spec.InitContainers = append(deploy.Spec.Template.Spec.InitContainers, pluginContainer(args[0]))
			after, err := json.Marshal(deploy)
			check(err)
			body, err := jsonpatch.CreateMergePatch(before, after)
			check(err)
			_, err = client.AppsV1().Deployments(deploy.Namespace).Patch(context.TODO(), deploy.Name, types.MergePatchType, body, metav1.PatchOptions{})
			check(err)
		},
	}
}

// pkg/cmd/cli/plugin/remove.go: the same, an init container removed.
func pluginRemove(client KubeClient) *cobra.Command {
	return &cobra.Command{
		Use: "remove NAME",
		Run: func(c *cobra.Command, args []string) {
			deploy, err := client.AppsV1().Deployments(namespace).Get(context.TODO(), "velero", metav1.GetOptions{})
			check(err)
			before, err := json.Marshal(deploy)
			check(err)
			deploy.Spec.Template.Spec.InitContainers = withoutContainer(deploy.Spec.Template.Spec.InitContainers, args[0])
			after, err := json.Marshal(deploy)
			check(err)
			body, err := jsonpatch.CreateMergePatch(before, after)
			check(err)
			_, err = client.AppsV1().Deployments(deploy.Namespace).Patch(context.TODO(), deploy.Name, types.MergePatchType, body, metav1.PatchOptions{})
			check(err)
		},
	}
}
