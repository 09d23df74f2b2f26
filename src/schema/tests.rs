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
    // Every built-in kind is tabled.
    let sa = target("v1", "ServiceAccount");
    assert!(sa.is_builtin() && sa.schema().is_some());
    assert_eq!(sa.gvk(), "/v1, Kind=ServiceAccount");
    let ingress = target("networking.k8s.io/v1", "Ingress");
    assert!(ingress.is_builtin() && ingress.schema().is_some());
    let pod = target_of(&serde_json::json!({"apiVersion": "v1", "kind": "Pod"}));
    assert!(pod.is_builtin() && pod.schema().is_some());
    assert!(!target_of(&serde_json::json!({})).is_builtin());
    // A built-in group's version the release does not serve is no custom
    // resource: the server's routing answers 404.
    let Target::Unserved(old) = target("extensions/v1beta1", "Deployment") else {
        panic!("extensions/v1beta1 is built in");
    };
    assert!(old.known && !old.version_served);
    assert_eq!(old.release, Some(KubeVersion::NEWEST));
    let Target::Unserved(other) = target("apps/v1", "CronJob") else {
        panic!("apps is built in");
    };
    assert!(!other.known && other.version_served);
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
    // The preferred version, as discovery sorts a CRD's versions.
    assert_eq!(
        table
            .resource("widgets.example.com")
            .map(|k| k.api_version()),
        Some("example.com/v2")
    );
    assert_eq!(
        table
            .resource("widgets.v1.example.com")
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

fn release(text: &str) -> KubeVersion {
    text.parse().unwrap()
}

#[test]
fn every_release_has_a_section_and_every_section_applies() {
    for (name, text) in BUILTIN_TABLES {
        let listed: Vec<&str> = release::sections(text).collect();
        if !name.starts_with("kubernetes-") {
            assert!(listed.is_empty(), "{name}");
            continue;
        }
        let expected: Vec<String> = (KubeVersion::OLDEST_MINOR..KubeVersion::NEWEST_MINOR)
            .rev()
            .map(|minor| minor.to_string())
            .collect();
        assert_eq!(listed, expected, "{name}: one section per older release");
    }
    // Each section applies cleanly to the table of the release after it
    // (`for_release` would leave a bad one out).
    let mut table = Table::default();
    for (name, text) in BUILTIN_TABLES {
        table.extend(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    for minor in (KubeVersion::OLDEST_MINOR..KubeVersion::NEWEST_MINOR).rev() {
        for (name, text) in BUILTIN_TABLES {
            table
                .apply_release(text, minor)
                .unwrap_or_else(|e| panic!("{name} 1.{minor}: {e}"));
        }
        let built = for_release(KubeVersion::new(minor, None).unwrap());
        assert_eq!(table.kinds(), built.kinds(), "1.{minor}");
    }
}

/// The struct types reachable from a table's built-in kinds.
fn reachable(table: &Table) -> Vec<u32> {
    fn visit(table: &Table, ty: &Ty, seen: &mut Vec<u32>) {
        match ty {
            Ty::Struct(index) if !seen.contains(index) => {
                seen.push(*index);
                for field in &table.struct_at(*index).unwrap().fields {
                    visit(table, &field.ty, seen);
                }
            }
            Ty::List(inner) | Ty::Map(inner) => visit(table, inner, seen),
            _ => {}
        }
    }
    let mut seen = Vec::new();
    for kind in table.kinds().iter().filter(|k| !k.custom) {
        assert!(matches!(kind.root, Ty::Struct(_)), "{}", kind.kind);
        visit(table, &kind.root, &mut seen);
    }
    seen
}

#[test]
fn every_release_table_is_whole_and_sorted() {
    for minor in KubeVersion::OLDEST_MINOR..=KubeVersion::NEWEST_MINOR {
        let table = for_release(KubeVersion::new(minor, None).unwrap());
        assert_eq!(table.release().map(|v| v.minor()), Some(minor));
        for index in reachable(table) {
            let s = table.struct_at(index).unwrap();
            // Reached by name: not a type a section removed.
            assert_eq!(
                table.by_name.get(&s.name),
                Some(&index),
                "1.{minor} {}",
                s.name
            );
            assert!(
                s.fields.windows(2).all(|w| w[0].name < w[1].name),
                "1.{minor} {}: fields unsorted",
                s.name
            );
            assert!(!s.opaque || s.fields.is_empty(), "1.{minor} {}", s.name);
        }
        // Each (apiVersion, kind) once; no kind both served and listed
        // as unserved.
        let mut seen = std::collections::HashSet::new();
        for kind in table.kinds() {
            assert!(
                seen.insert((&kind.api_version, &kind.kind)),
                "1.{minor} {kind:?}"
            );
            assert!(
                !table.lists_builtin(&kind.api_version, &kind.kind),
                "1.{minor} {kind:?}"
            );
        }
    }
}

#[test]
fn the_tables_agree_with_the_committed_kubectl_schemes() {
    // scripts/kubectl-schemes.txt is the generator's input for kubectl's
    // scheme: a tabled kind it lists is `local`, a kind it lists at a
    // group version the release does not serve is a `!` entry.
    let schemes = include_str!("../../scripts/kubectl-schemes.txt");
    for minor in KubeVersion::OLDEST_MINOR..=KubeVersion::NEWEST_MINOR {
        let table = for_release(KubeVersion::new(minor, None).unwrap());
        let mut known = std::collections::HashSet::new();
        for line in schemes.lines().filter(|l| !l.starts_with('#')) {
            let mut parts = line.split_ascii_whitespace();
            if parts.next() != Some(&minor.to_string()) {
                continue;
            }
            let api_version = parts.next().unwrap();
            known.extend(parts.map(|kind| (api_version, kind)));
        }
        for kind in table.kinds().iter().filter(|k| !k.custom) {
            let listed = known.contains(&(&*kind.api_version, &*kind.kind));
            assert_eq!(
                kind.local, listed,
                "1.{minor} {} {}",
                kind.api_version, kind.kind
            );
        }
        for (api_version, kind) in &table.builtin {
            assert!(
                known.contains(&(&**api_version, &**kind)),
                "1.{minor} {api_version} {kind}"
            );
        }
    }
}

#[test]
fn each_release_has_its_own_fields() {
    // The fields the issue names: 1.32's kubectl refuses them.
    let has = |v: &str, kind: &str, path: &str| {
        let table = for_release(release(v));
        let kind = table.resource(kind).unwrap();
        kind.at(Pointer::parse(path).unwrap()).is_some()
    };
    for (kind, path, since) in [
        ("Node", "/status/declaredFeatures", "1.35"),
        ("Pod", "/spec/containers/0/restartPolicyRules", "1.34"),
        ("Pod", "/spec/schedulingGroup", "1.36"),
        ("Pod", "/spec/resources", "1.32"),
        ("Pod", "/status/observedGeneration", "1.33"),
        ("Service", "/spec/trafficDistribution", "1.30"),
    ] {
        let since = release(since);
        for minor in KubeVersion::OLDEST_MINOR..=KubeVersion::NEWEST_MINOR {
            let v = KubeVersion::new(minor, None).unwrap();
            assert_eq!(
                has(&v.to_string(), kind, path),
                v >= since,
                "{kind} {path} in {v}"
            );
        }
    }
    // A lookup error names the Go struct of the release.
    let pod = for_release(release("1.32")).resource("Pod").unwrap().root();
    let (spec, _) = pod.lookup_struct("spec").unwrap();
    assert_eq!(
        spec.lookup_struct("schedulingGroup")
            .unwrap_err()
            .to_string(),
        "unable to find api field in struct PodSpec for the json field \"schedulingGroup\""
    );
    // Unchanged types are shared between releases.
    let meta = |v: &str| {
        let table = for_release(release(v));
        let index = table.by_name["OwnerReference"];
        std::sync::Arc::as_ptr(&table.structs[index as usize])
    };
    assert_eq!(meta("1.36"), meta("1.25"));
}

#[test]
fn group_versions_are_served_by_release() {
    let served = |v: &str, api_version: &str, kind: &str| {
        matches!(
            for_release(release(v)).target(api_version, kind),
            Target::Tabled(_)
        )
    };
    assert!(served(
        "1.25",
        "autoscaling/v2beta2",
        "HorizontalPodAutoscaler"
    ));
    assert!(!served(
        "1.26",
        "autoscaling/v2beta2",
        "HorizontalPodAutoscaler"
    ));
    assert!(served(
        "1.25",
        "flowcontrol.apiserver.k8s.io/v1beta1",
        "FlowSchema"
    ));
    assert!(!served(
        "1.29",
        "flowcontrol.apiserver.k8s.io/v1beta2",
        "FlowSchema"
    ));
    assert!(served(
        "1.29",
        "flowcontrol.apiserver.k8s.io/v1",
        "FlowSchema"
    ));
    assert!(!served(
        "1.28",
        "flowcontrol.apiserver.k8s.io/v1",
        "FlowSchema"
    ));
    for v in ["1.25", "1.32", "1.36"] {
        for (api_version, kind) in [
            ("apps/v1beta2", "Deployment"),
            ("extensions/v1beta1", "Deployment"),
            ("batch/v1beta1", "CronJob"),
            ("policy/v1beta1", "PodDisruptionBudget"),
        ] {
            let target = for_release(release(v)).target(api_version, kind);
            let Target::Unserved(unserved) = target else {
                panic!("{v} {api_version} {kind}: {target:?}");
            };
            assert!(
                unserved.known && !unserved.version_served,
                "{v} {api_version}"
            );
        }
        assert!(served(v, "autoscaling/v1", "HorizontalPodAutoscaler"));
        assert!(served(v, "autoscaling/v2", "HorizontalPodAutoscaler"));
        assert!(served(v, "policy/v1", "PodDisruptionBudget"));
    }
    // Every kind of the issue, served in every release.
    for minor in KubeVersion::OLDEST_MINOR..=KubeVersion::NEWEST_MINOR {
        let table = for_release(KubeVersion::new(minor, None).unwrap());
        for name in [
            "sa",
            "ep",
            "endpointslices",
            "ing",
            "netpol",
            "clusterroles",
            "rolebindings",
            "hpa",
            "pdb",
            "quota",
            "limits",
            "rc",
            "leases",
            "controllerrevisions",
        ] {
            let kind = table
                .resource(name)
                .unwrap_or_else(|| panic!("1.{minor} {name}"));
            assert!(kind.is_builtin() && kind.local(), "1.{minor} {name}");
        }
        assert!(
            table.kinds().iter().filter(|k| !k.custom).count() >= 65,
            "1.{minor}"
        );
    }
    assert_eq!(resource("hpa").unwrap().api_version(), "autoscaling/v2");
    assert!(!resource("crd").unwrap().local());
}

#[test]
fn a_bad_section_leaves_the_table_unchanged() {
    let text = "=A\na s\nb s\n>A v1 as a - A\n%1.30\n=A\n-b\n+c i32\n%1.29\n=A\n-zz\n";
    let mut table = Table::parse(text).unwrap();
    table.apply_release(text, 30).unwrap();
    let names: Vec<&str> = table
        .struct_named("A")
        .unwrap()
        .fields
        .iter()
        .map(|f| &*f.name)
        .collect();
    assert_eq!(names, ["a", "c"]);
    let err = table.apply_release(text, 29).unwrap_err();
    assert_eq!(
        err.to_string(),
        "schema table line 11: type A: no field zz to remove"
    );
    assert_eq!(table.struct_named("A").unwrap().fields.len(), 2);
}
