use super::changes::root;
use super::imports::{classify, default_alias, Pkg};

#[test]
fn roots_and_aliases() {
    assert_eq!(root("&obj.Status.Conditions"), "obj");
    assert_eq!(root("kvCopy.ObjectMeta.Finalizers"), "kvCopy");
    assert_eq!(root("r.cluster"), "r.cluster");
    assert_eq!(default_alias("gomodules.xyz/jsonpatch/v2"), "jsonpatch");
    assert_eq!(default_alias("k8s.io/apimachinery/pkg/types"), "types");
    assert_eq!(
        classify("kubevirt.io/kubevirt/pkg/apimachinery/patch"),
        Pkg::KvPatch
    );
    assert_eq!(classify("gomodules.xyz/jsonpatch/v2"), Pkg::JsonPatchLib);
    assert_eq!(
        classify("sigs.k8s.io/cluster-api/util/conditions"),
        Pkg::Conditions
    );
}
