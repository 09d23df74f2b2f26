//! Every server rule, one test each; messages as kube-apiserver writes them.

use super::*;
use crate::kube::KubeVersion;
use serde_json::json;

const KEY: &str = "VirtualMachineInstance/testvmi";

fn vmi() -> Value {
    json!({
        "apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
        "metadata": {"name": "testvmi", "resourceVersion": "1041",
                      "labels": {"kubevirt.io/nodeName": "node01"}, "finalizers": ["f1"]},
        "status": {"phase": "Running"}
    })
}

fn server() -> Server {
    Server::new([vmi()])
}

/// A server whose object was created by `virt-controller`: its fields are
/// tracked from the start.
fn owned_server() -> Server {
    let mut s = Server::new([]);
    s.create(vmi(), Some("virt-controller"));
    s
}

fn patch(payload: &str) -> Request {
    Request::JsonPatch {
        key: KEY.to_owned(),
        payload: payload.to_owned(),
    }
}

fn update(object: Value) -> Request {
    Request::Update {
        key: KEY.into(),
        object,
    }
}

fn apply_labels(labels: Value, manager: &str, force: bool) -> Request {
    Request::Apply {
        key: KEY.into(),
        config: json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
                       "metadata": {"name": "testvmi", "labels": labels}}),
        manager: manager.into(),
        force,
    }
}

#[test]
fn get_and_not_found() {
    let mut s = server();
    assert_eq!(
        s.handle(&Request::Get { key: KEY.into() }, "x")
            .resource_version
            .as_deref(),
        Some("1041")
    );
    let r = s.handle(
        &Request::Get {
            key: "VirtualMachineInstance/nope".into(),
        },
        "x",
    );
    assert_eq!((r.code, r.reason.as_str()), (404, "NotFound"));
    assert_eq!(
        r.message,
        r#"virtualmachineinstances.kubevirt.io "nope" not found"#
    );
    let r = s.handle(&patch("[]"), "x");
    assert_eq!(r.code, 200);
    let r = s.handle(
        &Request::JsonPatch {
            key: "Pod/x".into(),
            payload: "[]".into(),
        },
        "x",
    );
    assert_eq!((r.code, r.message.as_str()), (404, r#"pods "x" not found"#));
}

#[test]
fn update_needs_the_current_resource_version() {
    let mut s = server();
    let mut object = vmi();
    object["status"]["phase"] = json!("Succeeded");
    let r = s.handle(&update(object.clone()), "virt-handler");
    assert_eq!(
        (r.code, r.resource_version.as_deref(), r.changed),
        (200, Some("1042"), true)
    );
    // The same body again: stale now.
    let r = s.handle(&update(object.clone()), "virt-handler");
    assert_eq!(r.code, 409);
    assert_eq!(
        r.message,
        "Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io \"testvmi\": the object has been modified; please apply your changes to the latest version and try again"
    );
    // Without a resourceVersion: a custom resource refuses it, in the
    // words of the release (the bad value printed with %#v up to 1.33).
    object["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("resourceVersion");
    let r = s.handle(&update(object.clone()), "virt-handler");
    assert_eq!(r.code, 422);
    assert_eq!(
        r.message,
        r#"virtualmachineinstances.kubevirt.io "testvmi" is invalid: metadata.resourceVersion: Invalid value: 0: must be specified for an update"#
    );
    let mut old =
        Server::new([vmi()]).with_cluster(Cluster::new("1.30".parse::<KubeVersion>().unwrap()));
    let r = old.handle(&update(object.clone()), "virt-handler");
    assert_eq!(
        r.message,
        r#"virtualmachineinstances.kubevirt.io "testvmi" is invalid: metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"#
    );
    // A body naming another object.
    let mut other = s.get(KEY).unwrap().clone();
    other["metadata"]["name"] = json!("other");
    let r = s.handle(&update(other), "virt-handler");
    assert_eq!(
        (r.code, r.message.as_str()),
        (
            400,
            "the name of the object (other) does not match the name on the URL (testvmi)"
        )
    );
    // Writing what is stored: 200, no new resourceVersion.
    let current = s.get(KEY).unwrap().clone();
    let r = s.handle(&update(current), "virt-handler");
    assert_eq!(
        (r.code, r.resource_version.as_deref(), r.changed),
        (200, Some("1042"), false)
    );
}

#[test]
fn json_patch_failures_look_alike_on_the_wire() {
    let mut s = server();
    let r = s.handle(&patch(r#"[{"op":"test","path":"/metadata/labels","value":{}},{"op":"add","path":"/metadata/labels/a","value":"1"}]"#), "c");
    assert_eq!((r.code, r.reason.as_str()), (422, "Invalid"));
    assert_eq!(
        r.message,
        "the server rejected our request due to an error in our request"
    );
    let cause = r.cause.unwrap();
    assert_eq!(cause.index, Some(0));
    assert_eq!(cause.path.as_deref(), Some("/metadata/labels"));
    assert_eq!(cause.kind, "test-failed");
    assert_eq!(cause.expected, Some(json!({})));
    assert_eq!(
        cause.actual,
        Some(json!({"kubevirt.io/nodeName": "node01"}))
    );
    assert_eq!(
        s.get(KEY).unwrap()["metadata"]["resourceVersion"],
        "1041",
        "nothing written"
    );

    let r = s.handle(&patch("{\"op\":1}"), "c");
    assert_eq!(
        (r.code, r.message.as_str()),
        (400, "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp")
    );
    let r = s.handle(&patch("not json"), "c");
    assert_eq!(
        (r.code, r.message.as_str()),
        (
            400,
            "error decoding patch: invalid character 'o' in literal null (expecting 'u')"
        )
    );
    // `[null]` decodes; the engine refuses the empty op: 422.
    assert_eq!(s.handle(&patch("[null]"), "c").code, 422);
    let many: Vec<String> = (0..10_001)
        .map(|i| format!(r#"{{"op":"add","path":"/x{i}","value":1}}"#))
        .collect();
    let r = s.handle(&patch(&format!("[{}]", many.join(","))), "c");
    assert_eq!((r.code, r.reason.as_str()), (413, "RequestEntityTooLarge"));
    assert_eq!(
        r.message,
        "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
    );
    let big = format!(
        r#"[{{"op":"add","path":"/metadata/labels/a","value":"{}"}}]"#,
        "x".repeat(3 * 1024 * 1024)
    );
    let r = s.handle(&patch(&big), "c");
    assert_eq!(
        (r.code, r.message.as_str()),
        (413, "Request entity too large: limit is 3145728")
    );
}

#[test]
fn engine_panics_are_500_on_old_releases_and_422_on_new() {
    let panics = r#"[{"op":"test","path":"/metadata/annotations"}]"#;
    let mut old = Server::new([vmi()]).with_cluster(Cluster::new("1.30".parse().unwrap()));
    let r = old.handle(&patch(panics), "c");
    assert_eq!((r.code, r.reason.as_str()), (500, "InternalError"));
    assert_eq!(
        r.message,
        r#"an error on the server ("This request caused apiserver to panic. Look in the logs for details.") has prevented the request from succeeding (patch virtualmachineinstances.kubevirt.io testvmi)"#
    );
    assert_eq!(r.cause.unwrap().kind, "engine-panic");
    // v4.13.0 (1.35 and later): a test without a value passes on a
    // missing member.
    let mut new = server();
    assert_eq!(new.handle(&patch(panics), "c").code, 200);
}

#[test]
fn accepted_bodies_carry_the_servers_warnings() {
    let mut s = server();
    let r = s.handle(
        &patch(r#"[{"op":"add","path":"/metadata/labels/a","value":"1","vaule":"x"}]"#),
        "c",
    );
    assert_eq!(r.code, 200);
    assert_eq!(r.warnings, [r#"json patch unknown field "[0].vaule""#]);
}

#[test]
fn json_patch_success_equal_result_and_stale_resource_version() {
    let mut s = server();
    let r = s.handle(
        &patch(r#"[{"op":"add","path":"/metadata/labels/a","value":"1"}]"#),
        "c",
    );
    assert_eq!(
        (r.code, r.resource_version.as_deref(), r.changed),
        (200, Some("1042"), true)
    );
    // The same patch again changes nothing: no new resourceVersion.
    let r = s.handle(
        &patch(r#"[{"op":"add","path":"/metadata/labels/a","value":"1"}]"#),
        "c",
    );
    assert_eq!(
        (r.code, r.resource_version.as_deref(), r.changed),
        (200, Some("1042"), false)
    );
    // A patch that sets a stale resourceVersion: 409.
    let r = s.handle(&patch(r#"[{"op":"replace","path":"/metadata/resourceVersion","value":"1041"},{"op":"add","path":"/metadata/labels/b","value":"2"}]"#), "c");
    assert_eq!(r.code, 409);
    // Testing the current one works (optimistic locking by test).
    let r = s.handle(&patch(r#"[{"op":"test","path":"/metadata/resourceVersion","value":"1042"},{"op":"add","path":"/metadata/labels/b","value":"2"}]"#), "c");
    assert_eq!(r.code, 200);
    // Renaming the object: the handler's name check, 400.
    let r = s.handle(
        &patch(r#"[{"op":"replace","path":"/metadata/name","value":"other"}]"#),
        "c",
    );
    assert_eq!(
        (r.code, r.reason.as_str(), r.message.as_str()),
        (
            400,
            "BadRequest",
            "the name of the object (other) does not match the name on the URL (testvmi)"
        )
    );
}

#[test]
fn merge_patch_bodies_precondition_and_whole_lists() {
    let mut s = server();
    let merge = |body: Value| Request::MergePatch {
        key: KEY.into(),
        body,
    };
    let r = s.handle(
        &merge(json!({"metadata": {"resourceVersion": "999", "labels": {"a": "1"}}})),
        "c",
    );
    assert_eq!(r.code, 409);
    let r = s.handle(&merge(json!(["x"])), "c");
    assert_eq!(
        (r.code, r.message.as_str()),
        (400, "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}")
    );
    let r = s.handle(&merge(Value::Null), "c");
    assert_eq!((r.code, r.message.as_str()), (400, "Invalid JSON Patch"));
    let r = s.handle(&merge(json!({"metadata": {"name": "x"}})), "c");
    assert_eq!(r.code, 400);
    let body = json!({"metadata": {"finalizers": ["f2"], "labels": {"kubevirt.io/nodeName": null}},
                      "status": {"conditions": [{"type": "Ready", "reason": null}]}});
    let r = s.handle(&merge(body), "c");
    assert_eq!(r.code, 200);
    let stored = s.get(KEY).unwrap();
    assert_eq!(
        stored["metadata"]["finalizers"],
        json!(["f2"]),
        "lists are replaced whole"
    );
    assert_eq!(stored["metadata"]["labels"], json!({}));
    // evanphx prunes nulls of objects in a list it stores as it is.
    assert_eq!(stored["status"]["conditions"], json!([{"type": "Ready"}]));
}

#[test]
fn server_side_apply_owns_conflicts_forces_shares_and_releases() {
    let mut s = owned_server();
    // virt-handler's Update takes ownership of the label it changes.
    let mut object = vmi();
    object["metadata"]["labels"]["kubevirt.io/nodeName"] = json!("node02");
    assert_eq!(s.handle(&update(object), "virt-handler").code, 200);
    assert!(s
        .stored(KEY)
        .unwrap()
        .owned_by("virt-handler")
        .contains(".metadata.labels.kubevirt.io/nodeName"));

    // A different value for a field another manager owns: 409, in
    // structured-merge-diff's words (an updater is named with its version).
    let r = s.handle(
        &apply_labels(
            json!({"kubevirt.io/nodeName": "node03", "app": "web"}),
            "controller",
            false,
        ),
        "controller",
    );
    assert_eq!((r.code, r.reason.as_str()), (409, "Conflict"));
    assert_eq!(r.conflicts, [".metadata.labels.kubevirt.io/nodeName"]);
    assert_eq!(
        r.message,
        r#"Apply failed with 1 conflict: conflict with "virt-handler" using kubevirt.io/v1: .metadata.labels.kubevirt.io/nodeName"#
    );
    assert!(
        s.get(KEY).unwrap()["metadata"]["labels"]
            .get("app")
            .is_none(),
        "nothing applied"
    );
    // The same value: shared ownership, no conflict.
    let r = s.handle(
        &apply_labels(
            json!({"kubevirt.io/nodeName": "node02", "app": "web"}),
            "controller",
            false,
        ),
        "controller",
    );
    assert_eq!(r.code, 200);
    let stored = s.stored(KEY).unwrap();
    assert!(stored
        .owned_by("virt-handler")
        .contains(".metadata.labels.kubevirt.io/nodeName"));
    assert!(stored
        .owned_by("controller")
        .contains(".metadata.labels.kubevirt.io/nodeName"));
    // Force: the field moves to the applier.
    let r = s.handle(
        &apply_labels(
            json!({"kubevirt.io/nodeName": "node03", "app": "web"}),
            "controller",
            true,
        ),
        "controller",
    );
    assert_eq!(r.code, 200);
    let stored = s.stored(KEY).unwrap();
    assert_eq!(
        stored.object["metadata"]["labels"]["kubevirt.io/nodeName"],
        "node03"
    );
    assert!(!stored
        .owned_by("virt-handler")
        .contains(".metadata.labels.kubevirt.io/nodeName"));
    // Omitting a field this manager applied releases it; nobody else owns
    // "app", so it is deleted.
    let r = s.handle(
        &apply_labels(
            json!({"kubevirt.io/nodeName": "node03"}),
            "controller",
            false,
        ),
        "controller",
    );
    assert_eq!(r.code, 200);
    assert!(s.get(KEY).unwrap()["metadata"]["labels"]
        .get("app")
        .is_none());
}

#[test]
fn conflicts_group_per_manager_and_name_before_first_apply() {
    // No managed fields: the first apply gives every existing field to
    // before-first-apply, which the conflict names.
    let mut s = server();
    let r = s.handle(
        &apply_labels(json!({"kubevirt.io/nodeName": "node09"}), "a", false),
        "a",
    );
    assert_eq!(
        r.message,
        r#"Apply failed with 1 conflict: conflict with "before-first-apply" using kubevirt.io/v1: .metadata.labels.kubevirt.io/nodeName"#
    );
    // Several conflicts with several managers: one line each, grouped.
    let mut s = owned_server();
    let mut object = vmi();
    object["metadata"]["labels"] = json!({"kubevirt.io/nodeName": "node02", "x": "1", "y": "1"});
    assert_eq!(s.handle(&update(object), "virt-handler").code, 200);
    assert_eq!(
        s.handle(
            &apply_labels(json!({"z": "1"}), "an-applier", false),
            "an-applier"
        )
        .code,
        200
    );
    let r = s.handle(
        &apply_labels(
            json!({"kubevirt.io/nodeName": "n", "x": "2", "z": "2"}),
            "b",
            false,
        ),
        "b",
    );
    assert_eq!(r.code, 409);
    assert_eq!(
        r.message,
        "Apply failed with 3 conflicts: conflicts with \"an-applier\":\n- .metadata.labels.z\nconflicts with \"virt-handler\" using kubevirt.io/v1:\n- .metadata.labels.kubevirt.io/nodeName\n- .metadata.labels.x"
    );
}

#[test]
fn release_removes_parents_it_empties_and_emptied_maps_are_not_owned() {
    let mut s = owned_server();
    let config = |labels: Option<Value>, state: Option<Value>| {
        let mut config = json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
                                "metadata": {"name": "testvmi"}});
        if let Some(labels) = labels {
            config["metadata"]["labels"] = labels;
        }
        if let Some(state) = state {
            config["status"] = json!({"migrationState": state});
        }
        Request::Apply {
            key: KEY.into(),
            config,
            manager: "m".into(),
            force: true,
        }
    };
    let r = s.handle(
        &config(
            Some(json!({"only": "me"})),
            Some(json!({"targetNode": "n2"})),
        ),
        "m",
    );
    assert_eq!(r.code, 200);
    // Force took nodeName? No: the config does not name it.
    let r = s.handle(&config(None, None), "m");
    assert_eq!(r.code, 200);
    let object = s.get(KEY).unwrap();
    assert_eq!(
        object["metadata"]["labels"],
        json!({"kubevirt.io/nodeName": "node01"})
    );
    assert!(
        object["status"].get("migrationState").is_none(),
        "no empty migrationState left behind: {object}"
    );
    // An Update that empties the labels owns no labels map.
    let mut emptied = object.clone();
    emptied["metadata"]["labels"] = json!({});
    assert_eq!(s.handle(&update(emptied), "virt-handler").code, 200);
    assert!(s.stored(KEY).unwrap().owned_by("virt-handler").is_empty());
}

#[test]
fn leaf_fields_follow_field_kinds() {
    let fields: Vec<String> = leaf_fields(&Policy::default(), &vmi())
        .into_keys()
        .collect();
    assert_eq!(
        fields,
        [
            ".metadata.finalizers[=\"f1\"]",
            ".metadata.labels.kubevirt.io/nodeName",
            ".status.phase"
        ]
    );
    assert!(leaf_fields(&Policy::default(), &json!({"metadata": {"labels": {}}})).is_empty());
}

#[test]
fn strategic_merge_patches_merge_on_built_in_kinds_and_get_415_on_custom_resources() {
    // A custom resource: 415 before the body is read, with the server's text.
    let mut s = server();
    let smp = |key: &str, body: Value| Request::StrategicMergePatch {
        key: key.to_owned(),
        body,
    };
    let r = s.handle(
        &smp(KEY, json!({"metadata": {"labels": {"a": "b"}}})),
        "virt-handler",
    );
    assert_eq!((r.code, r.reason.as_str()), (415, "UnsupportedMediaType"));
    assert_eq!(
        r.message,
        "the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml"
    );
    assert_eq!(r.cause.as_ref().unwrap().kind, "unsupported-media-type");
    assert_eq!(s.get(KEY).unwrap()["metadata"]["resourceVersion"], "1041");

    // A Node: labels merge per key, taints (no merge key) are replaced, a
    // keyed list merges by its key.
    let node = json!({"apiVersion": "v1", "kind": "Node",
                      "metadata": {"name": "n1", "resourceVersion": "7", "labels": {"a": "1", "kubevirt.io/schedulable": "false"}},
                      "spec": {"taints": [{"key": "t", "effect": "NoSchedule"}]},
                      "status": {"conditions": [{"type": "Ready", "status": "True"}, {"type": "MemoryPressure", "status": "False"}]}});
    let mut s = Server::new([node]);
    let key = "Node/n1";
    let r = s.handle(
        &smp(
            key,
            json!({"metadata": {"labels": {"kubevirt.io/schedulable": "true"}},
                   "spec": {"taints": []},
                   "status": {"conditions": [{"type": "Ready", "status": "False"}]}}),
        ),
        "virt-handler",
    );
    assert!(r.is_success() && r.changed, "{r:?}");
    let stored = s.get(key).unwrap();
    assert_eq!(
        stored["metadata"]["labels"],
        json!({"a": "1", "kubevirt.io/schedulable": "true"})
    );
    assert_eq!(stored["spec"]["taints"], json!([]));
    assert_eq!(
        stored["status"]["conditions"],
        json!([{"type": "Ready", "status": "False"}, {"type": "MemoryPressure", "status": "False"}])
    );
    // The engine's errors are the server's: a missing merge key is a 500.
    let r = s.handle(
        &smp(key, json!({"status": {"conditions": [{"status": "x"}]}})),
        "virt-handler",
    );
    assert_eq!(r.code, 500);
    assert_eq!(
        r.message,
        "map: map[status:x] does not contain declared merge key: type"
    );
    // A pinned stale resourceVersion is a 409.
    let r = s.handle(
        &smp(
            key,
            json!({"metadata": {"resourceVersion": "7", "labels": {"b": "2"}}}),
        ),
        "virt-handler",
    );
    assert_eq!(r.code, 409, "{r:?}");
}
