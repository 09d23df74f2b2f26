//! Every server rule, one test each.

use super::*;
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

fn patch(payload: &str) -> Request {
    Request::JsonPatch {
        key: KEY.to_owned(),
        payload: payload.to_owned(),
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
    assert_eq!(r.message, "virtualmachineinstance \"nope\" not found");
    let r = s.handle(&patch("[]"), "x");
    assert_eq!(r.code, 200);
    let r = s.handle(
        &Request::JsonPatch {
            key: "Pod/x".into(),
            payload: "[]".into(),
        },
        "x",
    );
    assert_eq!(r.code, 404);
}

#[test]
fn update_needs_the_current_resource_version() {
    let mut s = server();
    let mut object = vmi();
    object["status"]["phase"] = json!("Succeeded");
    let r = s.handle(
        &Request::Update {
            key: KEY.into(),
            object: object.clone(),
        },
        "virt-handler",
    );
    assert_eq!(
        (r.code, r.resource_version.as_deref(), r.changed),
        (200, Some("1042"), true)
    );
    // The same body again: stale now.
    let r = s.handle(
        &Request::Update {
            key: KEY.into(),
            object: object.clone(),
        },
        "virt-handler",
    );
    assert_eq!(r.code, 409);
    assert_eq!(
        r.message,
        "Operation cannot be fulfilled on virtualmachineinstances.kubevirt.io \"testvmi\": the object has been modified; please apply your changes to the latest version and try again"
    );
    // Without a resourceVersion: a custom resource refuses it.
    object["metadata"]
        .as_object_mut()
        .unwrap()
        .remove("resourceVersion");
    let r = s.handle(
        &Request::Update {
            key: KEY.into(),
            object,
        },
        "virt-handler",
    );
    assert_eq!(r.code, 422);
    assert!(r
        .message
        .contains("metadata.resourceVersion: Invalid value: 0x0: must be specified for an update"));
    // Writing what is stored: 200, no new resourceVersion.
    let current = s.get(KEY).unwrap().clone();
    let r = s.handle(
        &Request::Update {
            key: KEY.into(),
            object: current,
        },
        "virt-handler",
    );
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

    assert_eq!(s.handle(&patch("{\"op\":1}"), "c").code, 400);
    assert_eq!(s.handle(&patch("not json"), "c").code, 400);
    let many: Vec<String> = (0..10_001)
        .map(|i| format!(r#"{{"op":"add","path":"/x{i}","value":1}}"#))
        .collect();
    let r = s.handle(&patch(&format!("[{}]", many.join(","))), "c");
    assert_eq!((r.code, r.reason.as_str()), (413, "RequestEntityTooLarge"));
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
    // Renaming the object is invalid.
    let r = s.handle(
        &patch(r#"[{"op":"replace","path":"/metadata/name","value":"other"}]"#),
        "c",
    );
    assert_eq!(r.code, 422);
}

#[test]
fn merge_patch_precondition_and_whole_lists() {
    let mut s = server();
    let body = json!({"metadata": {"resourceVersion": "999", "labels": {"a": "1"}}});
    let r = s.handle(
        &Request::MergePatch {
            key: KEY.into(),
            body,
        },
        "c",
    );
    assert_eq!(r.code, 409);
    let body =
        json!({"metadata": {"finalizers": ["f2"], "labels": {"kubevirt.io/nodeName": null}}});
    let r = s.handle(
        &Request::MergePatch {
            key: KEY.into(),
            body,
        },
        "c",
    );
    assert_eq!(r.code, 200);
    let stored = s.get(KEY).unwrap();
    assert_eq!(
        stored["metadata"]["finalizers"],
        json!(["f2"]),
        "lists are replaced whole"
    );
    assert_eq!(stored["metadata"]["labels"], json!({}));
}

#[test]
fn server_side_apply_owns_conflicts_forces_shares_and_releases() {
    let mut s = server();
    // virt-handler's Update takes ownership of the label it changes.
    let mut object = vmi();
    object["metadata"]["labels"]["kubevirt.io/nodeName"] = json!("node02");
    assert_eq!(
        s.handle(
            &Request::Update {
                key: KEY.into(),
                object
            },
            "virt-handler"
        )
        .code,
        200
    );
    assert!(s.stored(KEY).unwrap().managers["virt-handler"]
        .contains(".metadata.labels.kubevirt.io/nodeName"));

    let config = |labels: Value| {
        json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
        "metadata": {"name": "testvmi", "labels": labels}})
    };
    let apply = |s: &mut Server, labels: Value, force: bool| {
        s.handle(
            &Request::Apply {
                key: KEY.into(),
                config: config(labels),
                manager: "controller".into(),
                force,
            },
            "controller",
        )
    };
    // A different value for a field another manager owns: 409.
    let r = apply(
        &mut s,
        json!({"kubevirt.io/nodeName": "node03", "app": "web"}),
        false,
    );
    assert_eq!((r.code, r.reason.as_str()), (409, "Conflict"));
    assert_eq!(r.conflicts, [".metadata.labels.kubevirt.io/nodeName"]);
    assert!(
        r.message.contains("conflict with \"virt-handler\""),
        "{}",
        r.message
    );
    assert!(
        s.get(KEY).unwrap()["metadata"]["labels"]
            .get("app")
            .is_none(),
        "nothing applied"
    );
    // The same value: shared ownership, no conflict.
    let r = apply(
        &mut s,
        json!({"kubevirt.io/nodeName": "node02", "app": "web"}),
        false,
    );
    assert_eq!(r.code, 200);
    let managers = &s.stored(KEY).unwrap().managers;
    assert!(managers["virt-handler"].contains(".metadata.labels.kubevirt.io/nodeName"));
    assert!(managers["controller"].contains(".metadata.labels.kubevirt.io/nodeName"));
    // Force: the field moves to the applier.
    let r = apply(
        &mut s,
        json!({"kubevirt.io/nodeName": "node03", "app": "web"}),
        true,
    );
    assert_eq!(r.code, 200);
    let stored = s.stored(KEY).unwrap();
    assert_eq!(
        stored.object["metadata"]["labels"]["kubevirt.io/nodeName"],
        "node03"
    );
    assert!(!stored
        .managers
        .get("virt-handler")
        .is_some_and(|f| f.contains(".metadata.labels.kubevirt.io/nodeName")));
    // Omitting a field this manager applied releases it; nobody else owns
    // "app", so it is deleted.
    let r = apply(&mut s, json!({"kubevirt.io/nodeName": "node03"}), false);
    assert_eq!(r.code, 200);
    assert!(s.get(KEY).unwrap()["metadata"]["labels"]
        .get("app")
        .is_none());
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
}
