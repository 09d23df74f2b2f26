//! Cases whose expected results are kubectl 1.32's (`kubectl patch --local
//! --type=strategic`, run by hand once; tests/kubectl_smp.rs compares
//! thousands more with the real binary where it is installed).

use serde_json::{json, Value};

use super::*;
use crate::schema;

fn kind(name: &str) -> schema::Kind<'static> {
    schema::resource(name).unwrap()
}

fn run(resource: &str, doc: Value, patch: Value) -> Result<Value, String> {
    let mut doc = doc;
    apply(&mut doc, &patch, kind(resource).root(), Release::V1_28)
        .map(|()| doc)
        .map_err(|e| e.to_string())
}

fn deployment() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "d"}, "spec": {
        "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}},
        "template": {"spec": {
            "containers": [{"name": "a", "image": "x"}],
            "volumes": [{"name": "v", "secret": {"secretName": "s"}}]
        }}
    }})
}

#[test]
fn keyed_lists_merge_by_their_key() {
    // kubernetes.io "Update a Deployment using a strategic merge patch":
    // the patch's container is added, the existing one stays.
    let out = run(
        "deploy",
        deployment(),
        json!({"spec": {"template": {"spec": {"containers": [{"name": "b", "image": "y"}]}}}}),
    )
    .unwrap();
    assert_eq!(
        out["spec"]["template"]["spec"]["containers"],
        json!([{"name": "b", "image": "y"}, {"name": "a", "image": "x"}])
    );
    // A new element is appended as written: its nulls and directives stay.
    let out = run(
        "deploy",
        deployment(),
        json!({"spec": {"template": {"spec": {"containers": [
            {"name": "b", "image": "y", "env": [{"name": "E", "$patch": "delete"}], "ports": null, "args": [null]}
        ]}}}}),
    )
    .unwrap();
    assert_eq!(
        out["spec"]["template"]["spec"]["containers"][0],
        json!({"args": [null], "env": [{"$patch": "delete", "name": "E"}], "image": "y", "name": "b", "ports": null})
    );
}

#[test]
fn directives_on_maps_and_lists() {
    let strategy = |patch: Value| {
        run("deploy", deployment(), json!({"spec": {"strategy": patch}}))
            .map(|d| d["spec"]["strategy"].clone())
    };
    // kubectl apply switching to Recreate: $retainKeys clears rollingUpdate.
    assert_eq!(
        strategy(json!({"$retainKeys": ["type"], "type": "Recreate"})).unwrap(),
        json!({"type": "Recreate"})
    );
    assert_eq!(
        strategy(json!({"$patch": "replace", "type": "Recreate"})).unwrap(),
        json!({"type": "Recreate"})
    );
    assert_eq!(strategy(json!({"$patch": "delete"})).unwrap(), json!({}));
    assert_eq!(
        strategy(json!({"$retainKeys": "type"})).unwrap_err(),
        "invalid patch format of retainKeys"
    );
    assert_eq!(
        strategy(json!({"$retainKeys": ["type"], "rollingUpdate": {}})).unwrap_err(),
        "invalid patch format of retainKeys"
    );
    let volumes = run(
        "deploy",
        deployment(),
        json!({"spec": {"template": {"spec": {"volumes": [
            {"name": "v", "$retainKeys": ["name", "configMap"], "configMap": {"name": "c"}}
        ]}}}}),
    )
    .unwrap();
    assert_eq!(
        volumes["spec"]["template"]["spec"]["volumes"],
        json!([{"name": "v", "configMap": {"name": "c"}}])
    );
    let containers = |list: Value| {
        run(
            "deploy",
            deployment(),
            json!({"spec": {"template": {"spec": {"containers": list}}}}),
        )
        .map(|d| d["spec"]["template"]["spec"]["containers"].clone())
    };
    assert_eq!(
        containers(json!([{"name": "a", "$patch": "delete"}])).unwrap(),
        json!([])
    );
    assert_eq!(
        containers(json!([{"$patch": "replace"}, {"name": "z", "image": "q"}])).unwrap(),
        json!([{"name": "z", "image": "q"}])
    );
    assert_eq!(
        containers(json!([{"name": "a", "$patch": "merge"}])).unwrap_err(),
        "merging lists cannot yet be specified in the patch"
    );
    assert_eq!(
        containers(json!([{"name": "a", "$patch": "x"}])).unwrap_err(),
        "unknown patch type: x in map: map[$patch:x name:a]"
    );
    assert_eq!(
        containers(json!([[1]])).unwrap_err(),
        "list element types are not identical: [[map[image:x name:a]] [[1]]]"
    );
    assert_eq!(
        containers(json!([{"image": "z"}])).unwrap_err(),
        "map: map[image:z] does not contain declared merge key: name"
    );
}

#[test]
fn scalar_lists_merge_as_sets_or_are_replaced() {
    let pod = json!({"metadata": {"finalizers": ["a", "b"]}, "spec": {
        "tolerations": [{"key": "k1", "operator": "Exists"}],
        "containers": [{"name": "c", "args": ["-v"]}]
    }});
    let out = run(
        "pod",
        pod.clone(),
        json!({"metadata": {"finalizers": ["c"], "$deleteFromPrimitiveList/finalizers": ["a"]}}),
    )
    .unwrap();
    // New values go first (mergeSortedSlice takes a patch element the
    // original lacks before any server element).
    assert_eq!(out["metadata"]["finalizers"], json!(["c", "b"]));
    let out = run(
        "pod",
        pod.clone(),
        json!({"metadata": {"finalizers": ["c"], "$setElementOrder/finalizers": ["c", "b", "a"]}}),
    )
    .unwrap();
    assert_eq!(out["metadata"]["finalizers"], json!(["c", "b", "a"]));
    assert_eq!(
        run(
            "pod",
            pod.clone(),
            json!({"metadata": {"finalizers": ["x"], "$setElementOrder/finalizers": ["a"]}})
        )
        .unwrap_err(),
        "The order in patch list:\n[x]\n doesn't match $setElementOrder list:\n[a]\n"
    );
    // Tolerations and args have no strategy: the patch's list replaces.
    let out = run(
        "pod",
        pod.clone(),
        json!({"spec": {"tolerations": [{"key": "k2"}], "containers": [{"name": "c", "args": ["-q"]}]}}),
    )
    .unwrap();
    assert_eq!(out["spec"]["tolerations"], json!([{"key": "k2"}]));
    assert_eq!(out["spec"]["containers"][0]["args"], json!(["-q"]));
    // A node's taints too: a concurrent taint is lost.
    let node = json!({"spec": {"taints": [{"key": "a", "effect": "NoSchedule"}]}});
    let out = run(
        "no",
        node,
        json!({"spec": {"taints": [{"key": "b", "effect": "NoSchedule"}]}}),
    )
    .unwrap();
    assert_eq!(
        out["spec"]["taints"],
        json!([{"key": "b", "effect": "NoSchedule"}])
    );
}

#[test]
fn nulls_delete_and_unknown_fields_are_looked_up_only_when_merged() {
    let pod = json!({"metadata": {"name": "p", "labels": {"a": "1", "b": "2"}, "extra": {"a": 1}}});
    let out = run(
        "pod",
        pod.clone(),
        json!({"metadata": {"labels": {"a": null, "c": "3"}, "annotations": {"x": null, "y": "1"}}}),
    )
    .unwrap();
    assert_eq!(out["metadata"]["labels"], json!({"b": "2", "c": "3"}));
    // A new map's nulls are dropped.
    assert_eq!(out["metadata"]["annotations"], json!({"y": "1"}));
    assert_eq!(
        run("pod", pod.clone(), json!({"metadata": {"extra": {"b": 1}}})).unwrap_err(),
        r#"unable to find api field in struct ObjectMeta for the json field "extra""#
    );
    // Go matches a field case-insensitively, but merges under the key sent.
    let out = run(
        "pod",
        json!({"spec": {"containers": [{"name": "a"}]}}),
        json!({"spec": {"Containers": [{"name": "a", "image": "z"}]}}),
    )
    .unwrap();
    assert_eq!(
        out["spec"]["Containers"],
        json!([{"name": "a", "image": "z"}])
    );
}

#[test]
fn set_element_order_sees_the_original_as_go_changed_it() {
    // Go deletes in the original's backing array and appends into the
    // freed slots; `mergePatchIntoOriginal` then orders by that array.
    let doc =
        json!({"spec": {"containers": [{"name": "init"}, {"name": "sidecar"}, {"name": "app"}]}});
    let patch = json!({"spec": {"$setElementOrder/containers": [], "containers": [
        {"name": "sidecar", "$patch": "delete"}, {"name": "init", "image": "i"},
        {"name": "app", "$patch": "delete"}, {"name": "proxy"}
    ]}});
    let out = run("pod", doc, patch).unwrap();
    assert_eq!(
        out["spec"]["containers"],
        json!([{"name": "init", "image": "i"}, {"name": "proxy"}])
    );
}

#[test]
fn releases_before_1_28_keep_directives_and_replace_by_delete_lists() {
    let doc = json!({"spec": {"containers": [{"name": "a", "args": ["x", "y"]}]}});
    let patch = json!({"spec": {"volumes": [{"name": "v", "$patch": "delete"}], "containers": [
        {"name": "a", "$deleteFromPrimitiveList/args": ["x"]}
    ]}});
    let mut old = doc.clone();
    apply(&mut old, &patch, kind("pod").root(), Release::V1_25).unwrap();
    assert_eq!(
        old["spec"]["volumes"],
        json!([{"name": "v", "$patch": "delete"}])
    );
    assert_eq!(old["spec"]["containers"][0]["args"], json!(["x"]));
    let mut new = doc;
    apply(&mut new, &patch, kind("pod").root(), Release::V1_28).unwrap();
    assert_eq!(new["spec"]["volumes"], json!([]));
    assert_eq!(new["spec"]["containers"][0]["args"], json!(["y"]));
    assert_eq!(
        Release::from("1.27".parse::<KubeVersion>().unwrap()),
        Release::V1_25
    );
    assert_eq!(Release::from(KubeVersion::NEWEST), Release::V1_28);
}

#[test]
fn the_server_answers_as_kube_apiserver() {
    let version = KubeVersion::NEWEST;
    let vmi = json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance", "metadata": {"name": "x"}});
    let err = apply_body(&mut vmi.clone(), "{}", &schema::target_of(&vmi), version).unwrap_err();
    assert_eq!(err.cause.kind(), "unsupported-media-type");
    assert_eq!(
        err.cause.class(),
        crate::vocabulary::ErrorClass::SmpCustomResource
    );
    assert_eq!(err.response().unwrap().to_string(), "HTTP 415 UnsupportedMediaType: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml");

    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "ns"},
                     "spec": {"containers": [{"name": "a"}]}});
    let target = schema::target_of(&pod);
    let answer = |body: &str| {
        let mut doc = pod.clone();
        match apply_body(&mut doc, body, &target, version) {
            Ok(warnings) => Ok((doc, warnings)),
            Err(err) => {
                assert_eq!(doc, pod, "unchanged on error");
                Err(err.response().map(|s| s.to_string()).unwrap_or_default())
            }
        }
    };
    assert_eq!(
        answer(r#"{"spec":{"containers":[{"image":"z"}]}}"#).unwrap_err(),
        "HTTP 500: map: map[image:z] does not contain declared merge key: name"
    );
    let err = apply_body(
        &mut pod.clone(),
        r#"{"spec":{"containers":[{"image":"z"}]}}"#,
        &target,
        version,
    )
    .unwrap_err();
    assert_eq!(
        err.cause.class(),
        crate::vocabulary::ErrorClass::SmpMergeKey
    );
    assert_eq!(
        answer("[1]").unwrap_err(),
        "HTTP 400 BadRequest: json: cannot unmarshal array into Go value of type map[string]interface {}"
    );
    assert_eq!(
        answer(r#"{"metadata":{"$deleteFromPrimitiveListX/finalizers":["a"]}}"#).unwrap_err(),
        "HTTP 400 BadRequest: invalid patch format of primitive list"
    );
    assert_eq!(
        answer(r#"{"spec":{"containers":[[1]]}}"#).unwrap_err(),
        "HTTP 500: list element types are not identical: [[map[name:a]] [[1]]]"
    );
    assert_eq!(
        answer(r#"{"metadata":{"name":"q"}}"#).unwrap_err(),
        "HTTP 400 BadRequest: the name of the object (q) does not match the name on the URL (p)"
    );
    let (doc, _) = answer("null").unwrap();
    assert_eq!(doc, pod);
    let (doc, warnings) = answer(r#"{"metadata":{"labels":{"a":"1","a":"2"}}}"#).unwrap();
    assert_eq!(doc["metadata"]["labels"], json!({"a": "2"}));
    assert_eq!(warnings, [r#"duplicate field "metadata.labels.a""#]);
    let big = format!("{{\"a\":\"{}\"}}", "x".repeat(MAX_BODY_BYTES));
    assert!(answer(&big).unwrap_err().starts_with("HTTP 413"));

    // Every built-in kind merges by its schema.
    let sa = json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": "s"},
                    "secrets": [{"name": "a"}]});
    let mut doc = sa.clone();
    apply_body(
        &mut doc,
        r#"{"secrets":[{"name":"b"}]}"#,
        &schema::target_of(&sa),
        version,
    )
    .unwrap();
    // A patch element the original lacks goes first (Go's merge order).
    assert_eq!(doc["secrets"], json!([{"name": "b"}, {"name": "a"}]));
}

#[test]
fn the_routing_answers_what_the_release_does_not_serve() {
    let answer = |object: Value, version: &str| {
        let version: KubeVersion = version.parse().unwrap();
        let target = schema::for_release(version).target_of(&object);
        let err = apply_body(&mut object.clone(), "{}", &target, version).unwrap_err();
        (err.cause.kind(), err.response().unwrap())
    };
    // A group version no handler serves: the delegation chain's last
    // handler, `http.NotFound`, as client-go reports a plain-text body.
    let old = json!({"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": "web"}});
    let (kind, status) = answer(old, "1.32");
    assert_eq!(kind, "not-found");
    assert_eq!(status.to_string(), "HTTP 404 NotFound: the server could not find the requested resource (patch deployments.extensions web)");
    assert_eq!(status.causes[0].message, "404 page not found");
    let hpa = json!({"apiVersion": "autoscaling/v2beta2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "h"}});
    assert_eq!(answer(hpa.clone(), "1.26").1.code, 404);
    let mut doc = hpa.clone();
    let v125: KubeVersion = "1.25".parse().unwrap();
    apply_body(
        &mut doc,
        "{}",
        &schema::for_release(v125).target_of(&hpa),
        v125,
    )
    .unwrap();
    // A served group version's routes are go-restful's: 404 for a kind it
    // does not have or a create-only resource, 405 for a route without
    // PATCH; a Status, no causes.
    for object in [
        json!({"apiVersion": "apps/v1", "kind": "CronJob", "metadata": {"name": "c"}}),
        json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "metadata": {"name": "t"}}),
    ] {
        let (kind, status) = answer(object, "1.36");
        assert_eq!(kind, "not-found");
        assert_eq!(
            status.to_string(),
            "HTTP 404 NotFound: the server could not find the requested resource"
        );
        assert!(status.causes.is_empty());
    }
    let cs = json!({"apiVersion": "v1", "kind": "ComponentStatus", "metadata": {"name": "etcd-0"}});
    let (kind, status) = answer(cs, "1.36");
    assert_eq!(kind, "method-not-allowed");
    assert_eq!(status.to_string(), "HTTP 405 MethodNotAllowed: the server does not allow this method on the requested resource");
}

#[test]
fn a_field_the_release_does_not_have_is_unknown_there() {
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"},
                     "spec": {"schedulingGroup": {"podGroupName": "a"}}});
    let body = r#"{"spec":{"schedulingGroup":{"podGroupName":"b"}}}"#;
    let run = |version: &str| {
        let version: KubeVersion = version.parse().unwrap();
        let target = schema::for_release(version).target_of(&pod);
        let mut doc = pod.clone();
        apply_body(&mut doc, body, &target, version).map(|_| doc)
    };
    assert_eq!(
        run("1.36").unwrap()["spec"]["schedulingGroup"]["podGroupName"],
        "b"
    );
    let err = run("1.32").unwrap_err();
    assert_eq!(err.to_string(), "at /spec: unable to find api field in struct PodSpec for the json field \"schedulingGroup\"");
    assert_eq!(err.response().unwrap().code, 500);
}

#[test]
fn kubectl_local_refuses_kinds_it_does_not_know() {
    let local = |object: Value| {
        let target = schema::for_release("1.32".parse().unwrap()).target_of(&object);
        apply_local(&mut object.clone(), &json!({}), &target).map_err(|e| e.to_string())
    };
    for (api_version, kind) in [
        ("kubevirt.io/v1", "VirtualMachine"),
        // client-go's scheme has neither apiextensions nor apiregistration.
        ("apiextensions.k8s.io/v1", "CustomResourceDefinition"),
        ("apiregistration.k8s.io/v1", "APIService"),
        ("apps/v1beta3", "Deployment"),
    ] {
        assert_eq!(
            local(json!({"apiVersion": api_version, "kind": kind})).unwrap_err(),
            format!("strategic merge patch is not supported for {api_version}, Kind={kind} locally, try --type merge"),
        );
    }
    // kubectl still has the Go types of group versions 1.32 no longer
    // serves; patchlab has no schema for them.
    assert_eq!(
        local(json!({"apiVersion": "extensions/v1beta1", "kind": "Deployment"})).unwrap_err(),
        "patchlab has no schema for extensions/v1beta1, Kind=Deployment: Kubernetes 1.32 does not serve it (kubectl's compiled-in Go types still patch it locally)"
    );
    assert!(local(json!({"apiVersion": "v1", "kind": "ServiceAccount"})).is_ok());
}

#[test]
fn errors_say_where() {
    let err = apply(
        &mut json!({"spec": {"template": {"spec": {"containers": [{"name": "a"}]}}}}),
        &json!({"spec": {"template": {"spec": {"containers": [{"image": "x"}]}}}}),
        kind("deploy").root(),
        Release::V1_28,
    )
    .unwrap_err();
    assert_eq!(err.path, "/spec/template/spec/containers");
    assert_eq!(err.kind_name(), "missing-merge-key");
}

#[test]
fn diffs_are_what_kubectl_sends() {
    let pod = kind("pod").root();
    let old = json!({"metadata": {"labels": {"a": "1"}, "finalizers": ["b", "a"]},
                     "spec": {"containers": [{"name": "x", "image": "1"}, {"name": "y", "image": "1"}],
                              "volumes": [{"name": "v", "secret": {"secretName": "s"}}]}});
    // Unchanged, but the finalizers are not sorted: Go sorts the original
    // in place while diffing and sends an order.
    assert_eq!(
        diff(&old, &old, pod).unwrap(),
        json!({"metadata": {"$setElementOrder/finalizers": ["b", "a"]}})
    );
    let new = json!({"metadata": {"labels": {"b": "2"}, "finalizers": ["b", "a"]},
                     "spec": {"containers": [{"name": "y", "image": "2"}],
                              "volumes": [{"name": "v", "configMap": {"name": "c"}}]}});
    let patch = diff(&old, &new, pod).unwrap();
    assert_eq!(
        patch,
        json!({
            "metadata": {"labels": {"a": null, "b": "2"}, "$setElementOrder/finalizers": ["b", "a"]},
            "spec": {
                "$setElementOrder/containers": [{"name": "y"}],
                "containers": [{"image": "2", "name": "y"}, {"$patch": "delete", "name": "x"}],
                "$setElementOrder/volumes": [{"name": "v"}],
                "volumes": [{"$retainKeys": ["configMap", "name"], "configMap": {"name": "c"}, "name": "v", "secret": null}]
            }
        })
    );
    let mut doc = old.clone();
    apply(&mut doc, &patch, pod, Release::V1_28).unwrap();
    assert_eq!(doc, new);
    assert_eq!(
        diff(&json!([]), &old, pod).unwrap_err().to_string(),
        "invalid JSON document"
    );
}

#[test]
fn nesting_has_a_budget() {
    let mut deep = json!("x");
    let mut patch = json!("y");
    for _ in 0..200 {
        deep = json!({"a": deep});
        patch = json!({"a": patch});
    }
    let doc = json!({"metadata": {"annotations": deep.clone()}});
    // Annotations are a map of strings: the lookup under it fails first.
    let err = run(
        "pod",
        doc,
        json!({"metadata": {"annotations": patch.clone()}}),
    )
    .unwrap_err();
    assert!(err.contains("not struct"), "{err}");
    let schema = crate::schema::Table::parse("=A\na A\n>A v1 as a - A\n").unwrap();
    let root = schema.kind("v1", "A").unwrap().root();
    let err = apply(&mut deep.clone(), &patch, root, Release::V1_28).unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::Unsupported("nesting deeper than 128".into())
    );
    let err = diff(&deep, &patch, root).unwrap_err();
    assert_eq!(
        err.kind,
        ErrorKind::Unsupported("nesting deeper than 128".into())
    );
}
