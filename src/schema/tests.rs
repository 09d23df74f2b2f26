use super::*;
use crate::pointer::Pointer;

fn place<'t>(kind: Kind<'t>, path: &str) -> Place<'t> {
    kind.at(Pointer::parse(path).unwrap())
        .unwrap_or_else(|| panic!("{kind}: no schema at {path}"))
}

fn builtin_kind(api_version: &str, kind: &str) -> Kind<'static> {
    builtin()
        .kind(api_version, kind)
        .unwrap_or_else(|| panic!("{api_version} {kind} not tabled"))
}

#[test]
fn compiled_in_tables_parse_whole() {
    let mut table = Table::default();
    for (name, text) in BUILTIN_TABLES {
        table.extend(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    assert_eq!(table.kinds().len(), builtin().kinds().len());
    let kinds: Vec<&str> = table.kinds().iter().map(|k| &*k.kind).collect();
    for kind in [
        "Pod",
        "Node",
        "Service",
        "ConfigMap",
        "Secret",
        "Namespace",
        "PersistentVolumeClaim",
        "PersistentVolume",
        "Deployment",
        "StatefulSet",
        "DaemonSet",
        "ReplicaSet",
        "Job",
        "CronJob",
        "VirtualMachineInstance",
        "VirtualMachine",
    ] {
        assert!(kinds.contains(&kind), "{kind} missing");
    }
    // Each header names its source and version.
    assert!(table
        .sources()
        .iter()
        .any(|s| s.contains("kubernetes-validate") && s.contains("v1.36.0")));
    assert!(table
        .sources()
        .iter()
        .any(|s| s.contains("kubevirt/kubevirt")));
}

#[test]
fn pod_lists_merge_as_their_struct_tags_say() {
    let pod = builtin_kind("v1", "Pod");
    assert_eq!(
        place(pod, "/spec/containers").smp(),
        Smp::MergeByKey("name")
    );
    assert_eq!(
        place(pod, "/spec/containers/0/ports").smp(),
        Smp::MergeByKey("containerPort")
    );
    assert_eq!(
        place(pod, "/spec/containers/0/env").smp(),
        Smp::MergeByKey("name")
    );
    assert_eq!(place(pod, "/spec/tolerations").smp(), Smp::ReplaceList);
    assert_eq!(
        place(pod, "/spec/tolerations").list_type(),
        Some(&ListType::Atomic)
    );
    assert_eq!(place(pod, "/spec/volumes").smp(), Smp::MergeByKey("name"));
    assert_eq!(
        place(pod, "/spec/volumes")
            .field
            .unwrap()
            .patch_strategy
            .as_deref(),
        Some("merge,retainKeys")
    );
    assert_eq!(
        place(pod, "/status/conditions").smp(),
        Smp::MergeByKey("type")
    );
    assert_eq!(place(pod, "/spec/containers/1/image").smp(), Smp::Scalar);
    assert_eq!(
        place(pod, "/spec/nodeSelector").smp(),
        Smp::MergeObject { retain_keys: false }
    );
    assert!(pod.at(Pointer::parse("/spec/nope").unwrap()).is_none());
    assert!(pod
        .at(Pointer::parse("/spec/containers/x").unwrap())
        .is_none());
}

#[test]
fn object_meta_is_everywhere() {
    for (api_version, kind) in [
        ("v1", "Pod"),
        ("v1", "Secret"),
        ("apps/v1", "Deployment"),
        ("batch/v1", "CronJob"),
        ("kubevirt.io/v1", "VirtualMachineInstance"),
    ] {
        let k = builtin_kind(api_version, kind);
        let finalizers = place(k, "/metadata/finalizers");
        assert_eq!(finalizers.list_type(), Some(&ListType::Set), "{kind}");
        let owners = place(k, "/metadata/ownerReferences");
        assert_eq!(
            owners.list_type(),
            Some(&ListType::Map(vec!["uid".into()])),
            "{kind}"
        );
        if k.is_builtin() {
            assert_eq!(finalizers.smp(), Smp::MergeScalars, "{kind}");
            assert_eq!(owners.smp(), Smp::MergeByKey("uid"), "{kind}");
        } else {
            // A CRD's schema gives list types, never patch strategies.
            assert_eq!(finalizers.smp(), Smp::ReplaceList, "{kind}");
        }
        assert_eq!(
            place(k, "/metadata/labels").smp(),
            Smp::MergeObject { retain_keys: false }
        );
    }
    let deploy = builtin_kind("apps/v1", "Deployment");
    assert_eq!(
        place(deploy, "/spec/template/spec/containers").smp(),
        Smp::MergeByKey("name")
    );
    assert_eq!(
        place(deploy, "/spec/strategy").smp(),
        Smp::MergeObject { retain_keys: true }
    );
    assert_eq!(
        place(deploy, "/spec/selector").map_type(),
        Some(MapType::Atomic)
    );
}

#[test]
fn node_taints_are_replaced_and_addresses_merge_by_type() {
    let node = builtin_kind("v1", "Node");
    assert_eq!(place(node, "/spec/taints").smp(), Smp::ReplaceList);
    assert_eq!(
        place(node, "/spec/taints").list_type(),
        Some(&ListType::Atomic)
    );
    assert_eq!(place(node, "/spec/podCIDRs").smp(), Smp::MergeScalars);
    assert_eq!(
        place(node, "/status/addresses").smp(),
        Smp::MergeByKey("type")
    );
    assert_eq!(
        place(node, "/status/capacity/cpu").node.ty(),
        &Ty::Scalar(Scalar::Quantity)
    );
}

#[test]
fn kubevirt_fields_come_from_its_openapi_spec() {
    let vmi = builtin_kind("kubevirt.io/v1", "VirtualMachineInstance");
    assert!(!vmi.is_builtin());
    assert_eq!(
        place(vmi, "/spec/topologySpreadConstraints").list_type(),
        Some(&ListType::Map(vec![
            "topologyKey".into(),
            "whenUnsatisfiable".into()
        ]))
    );
    assert_eq!(
        place(vmi, "/spec/accessCredentials").list_type(),
        Some(&ListType::Atomic)
    );
    // No marker: SSA treats the list as atomic.
    assert_eq!(place(vmi, "/spec/domain/devices/disks").list_type(), None);
    assert_eq!(
        place(vmi, "/status/interfaces/0/ipAddress").node.ty(),
        &Ty::Scalar(Scalar::String)
    );
    assert!(matches!(
        place(vmi, "/status/activePods").node.ty(),
        Ty::Map(_)
    ));
    let vm = builtin_kind("kubevirt.io/v1", "VirtualMachine");
    assert!(vm
        .at(Pointer::parse("/spec/template/spec/domain").unwrap())
        .is_some());
}

#[test]
fn resource_names_as_kubectl_takes_them() {
    for (name, kind) in [
        ("pods", "Pod"),
        ("pod", "Pod"),
        ("po", "Pod"),
        ("Pod", "Pod"),
        ("no", "Node"),
        ("nodes", "Node"),
        ("cm", "ConfigMap"),
        ("svc", "Service"),
        ("pvc", "PersistentVolumeClaim"),
        ("pv", "PersistentVolume"),
        ("ns", "Namespace"),
        ("deploy", "Deployment"),
        ("deployments.apps", "Deployment"),
        ("deployment.v1.apps", "Deployment"),
        ("sts", "StatefulSet"),
        ("ds", "DaemonSet"),
        ("rs", "ReplicaSet"),
        ("jobs.batch", "Job"),
        ("cj", "CronJob"),
        ("vmi", "VirtualMachineInstance"),
        ("vmis", "VirtualMachineInstance"),
        (
            "virtualmachineinstances.kubevirt.io",
            "VirtualMachineInstance",
        ),
        ("vm", "VirtualMachine"),
        ("vm.kubevirt.io", "VirtualMachine"),
        ("vmim", "VirtualMachineInstanceMigration"),
        ("pods.v1", "Pod"),
    ] {
        assert_eq!(resource(name).map(|k| k.kind()), Some(kind), "{name}");
    }
    for unknown in [
        "widgets",
        "deploy.batch",
        "pods.apps",
        "",
        "vmi.example.com",
    ] {
        assert!(resource(unknown).is_none(), "{unknown}");
    }
}

#[test]
fn unknown_kinds_are_custom_resources_without_schema() {
    let widget = target("example.com/v1", "Widget");
    assert!(!widget.is_builtin());
    assert!(widget.schema().is_none());
    assert_eq!(widget.gvk(), "example.com/v1, Kind=Widget");
    // A built-in kind the tables do not describe is still built in.
    let sa = target("v1", "ServiceAccount");
    assert!(sa.is_builtin() && sa.schema().is_none());
    assert_eq!(sa.gvk(), "/v1, Kind=ServiceAccount");
    let ingress = target("networking.k8s.io/v1", "Ingress");
    assert!(ingress.is_builtin());
    let pod = target_of(&serde_json::json!({"apiVersion": "v1", "kind": "Pod"}));
    assert!(pod.is_builtin() && pod.schema().is_some());
    assert!(!target_of(&serde_json::json!({})).is_builtin());
}

#[test]
fn lookups_answer_as_go_struct_tags_do() {
    let pod = builtin_kind("v1", "Pod").root();
    let (spec, meta) = pod.lookup_struct("spec").unwrap();
    assert_eq!(meta, PatchMeta::default());
    let (container, meta) = spec.lookup_slice("containers").unwrap();
    assert_eq!(meta.strategies, "merge");
    assert_eq!(meta.merge_key, "name");
    assert_eq!(container.as_struct().unwrap().name.as_ref(), "Container");
    // Go matches a JSON key to a field case-insensitively when no field
    // has it exactly.
    assert!(spec.lookup_slice("Containers").is_ok());
    assert_eq!(
        spec.lookup_struct("containerz").unwrap_err().to_string(),
        r#"unable to find api field in struct PodSpec for the json field "containerz""#
    );
    assert_eq!(
        spec.lookup_slice("hostname").unwrap_err().to_string(),
        "expected slice or array type, but got: struct"
    );
    let (labels, _) = pod
        .lookup_struct("metadata")
        .unwrap()
        .0
        .lookup_struct("labels")
        .unwrap();
    assert_eq!(
        labels.lookup_struct("a").unwrap_err().to_string(),
        "merging an object in json but data type is not struct, instead is: map"
    );
    let (name, _) = container.lookup_struct("name").unwrap();
    assert_eq!(
        name.lookup_struct("x").unwrap_err().to_string(),
        "merging an object in json but data type is not struct, instead is: string"
    );
    assert_eq!(container.go_kind(), "struct");
}

#[test]
fn bad_table_texts_name_their_line() {
    let err = Table::parse("=A\nx Nope\n").unwrap_err();
    assert_eq!(
        err.to_string(),
        "schema table line 2: unknown type \"Nope\""
    );
    let err = Table::parse("x s\n").unwrap_err();
    assert_eq!(err.line, 1);
    let err = Table::parse(">A v1 as a - A\n").unwrap_err();
    assert!(err.message.contains("unknown type"), "{err}");
    let err = Table::parse("=A\n=A\n").unwrap_err();
    assert!(err.message.contains("twice"), "{err}");
    let err = Table::parse("=A\ny s\nx s\n").unwrap_err();
    assert!(err.message.contains("must be sorted"), "{err}");
    let err = Table::parse("=A\nx s l=list\n").unwrap_err();
    assert!(err.message.contains("unknown list type"), "{err}");
    // A failed extension leaves the table as it was.
    let mut table = Table::parse("=A\nx s\n").unwrap();
    assert!(table.extend("=B\ny C\n").is_err());
    assert!(table.struct_named("B").is_none());
    table.extend("=B\ny [A] p=merge k=x\n").unwrap();
    assert_eq!(
        table.struct_named("B").unwrap().fields[0].ty,
        Ty::List(Box::new(Ty::Struct(0)))
    );
}

#[test]
fn crds_give_list_types_and_no_strategies() {
    let table = crd::read(&serde_json::json!({
        "apiVersion": "apiextensions.k8s.io/v1",
        "kind": "CustomResourceDefinition",
        "metadata": {"name": "widgets.example.com"},
        "spec": {
            "group": "example.com",
            "names": {"kind": "Widget", "plural": "widgets"},
            "versions": [
                {"name": "v1", "schema": {"openAPIV3Schema": {
                    "type": "object",
                    "properties": {
                        "metadata": {"type": "object"},
                        "spec": {"type": "object", "x-kubernetes-map-type": "atomic", "properties": {
                            "tags": {"type": "array", "items": {"type": "string"},
                                     "x-kubernetes-list-type": "set",
                                     "x-kubernetes-patch-strategy": "merge"},
                            "port": {"x-kubernetes-int-or-string": true},
                            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
                            "blob": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}
                        }}
                    }
                }}},
                {"name": "v2", "schema": {"openAPIV3Schema": {"type": "object"}}}
            ]
        }
    }))
    .unwrap();
    let widget = table.kind("example.com/v1", "Widget").unwrap();
    assert!(!widget.is_builtin());
    assert_eq!(widget.singular(), "widget");
    let tags = place(widget, "/spec/tags");
    assert_eq!(tags.list_type(), Some(&ListType::Set));
    assert_eq!(tags.smp(), Smp::ReplaceList);
    assert_eq!(place(widget, "/spec").map_type(), Some(MapType::Atomic));
    assert_eq!(
        place(widget, "/spec/port").node.ty(),
        &Ty::Scalar(Scalar::IntOrString)
    );
    assert!(matches!(
        place(widget, "/spec/labels").node.ty(),
        Ty::Map(_)
    ));
    assert_eq!(
        place(widget, "/spec/blob").node.ty(),
        &Ty::Scalar(Scalar::Any)
    );
    assert!(table.kind("example.com/v2", "Widget").is_some());
    assert_eq!(
        table
            .resource("widgets.example.com")
            .map(|k| k.api_version()),
        Some("example.com/v1")
    );

    let err = crd::read(&serde_json::json!({"kind": "Pod"})).unwrap_err();
    assert_eq!(err.to_string(), "/kind: not a CustomResourceDefinition");
    let err = crd::read(&serde_json::json!({
        "kind": "CustomResourceDefinition",
        "spec": {"group": "g", "names": {"plural": "ws"}}
    }))
    .unwrap_err();
    assert_eq!(err.to_string(), "/spec/names/kind: missing or not a string");
    let err = crd::parse("kind: [").unwrap_err();
    assert!(err.to_string().starts_with("line "), "{err}");
}

#[test]
fn crd_schemas_have_a_depth_budget() {
    let mut schema = serde_json::json!({"type": "string"});
    for _ in 0..100 {
        schema = serde_json::json!({"type": "object", "properties": {"a": schema}});
    }
    let err = crd::read(&serde_json::json!({
        "kind": "CustomResourceDefinition",
        "spec": {"group": "g", "names": {"kind": "W", "plural": "ws"},
                 "versions": [{"name": "v1", "schema": {"openAPIV3Schema": schema}}]}
    }))
    .unwrap_err();
    assert!(err.message.contains("deeper than 64"), "{err}");
}
