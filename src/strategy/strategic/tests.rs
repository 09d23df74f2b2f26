//! Tests of the strategic preset: plans, overwrites and round trips.

use super::*;
use crate::strategy::{diff, round_trip, Body, Options, Preset, RoundTrip};
use serde_json::json;

fn node(labels: Value, taints: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n", "resourceVersion": "5", "labels": labels},
           "spec": {"taints": taints}})
}

#[test]
fn the_strategic_preset_sends_what_kubectl_sends_and_risks_what_the_schema_says() {
    let old = node(
        json!({"a": "1", "kubevirt.io/schedulable": "true"}),
        json!([{"key": "k", "effect": "NoSchedule"}]),
    );
    let new = node(
        json!({"a": "1", "kubevirt.io/schedulable": "false"}),
        json!([]),
    );
    let options = Options::preset(Preset::Strategic);
    let plan = diff(&old, &new, &options).unwrap();
    assert_eq!(
        plan.body,
        Body::StrategicMergePatch(
            json!({"metadata": {"labels": {"kubevirt.io/schedulable": "false"}}, "spec": {"taints": []}})
        )
    );
    assert_eq!(
        plan.body.content_type(),
        "application/strategic-merge-patch+json"
    );
    assert!(plan.conflicts.is_empty(), "an SMP tests nothing");
    let paths: Vec<&str> = plan.overwrites.iter().map(|o| o.path.as_str()).collect();
    assert_eq!(
        paths,
        ["/metadata/labels/kubevirt.io~1schedulable", "/spec/taints"]
    );
    assert!(
        plan.overwrites[1]
            .reason
            .contains("replaces the whole list"),
        "{:?}",
        plan.overwrites
    );
    assert_eq!(
        round_trip(&old, &new, &plan, &options.policy),
        RoundTrip::Exact
    );
    // Pinning the resourceVersion makes it a 409 precondition.
    let mut pinned = options.clone();
    pinned.merge_resource_version = true;
    let plan = diff(&old, &new, &pinned).unwrap();
    assert_eq!(plan.conflicts.len(), 1);
    assert_eq!(
        plan.body_text(),
        r#"{"metadata":{"labels":{"kubevirt.io/schedulable":"false"},"resourceVersion":"5"},"spec":{"taints":[]}}"#
    );
}

#[test]
fn keyed_lists_merge_per_element_and_sets_lose_nothing() {
    let pod = |containers: Value, finalizers: Value| {
        json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "finalizers": finalizers},
               "spec": {"containers": containers}})
    };
    let old = pod(
        json!([{"name": "a", "image": "a:1"}, {"name": "b", "image": "b:1"}]),
        json!(["x"]),
    );
    let new = pod(json!([{"name": "a", "image": "a:2"}]), json!(["x", "y"]));
    let options = Options::preset(Preset::Strategic);
    let plan = diff(&old, &new, &options).unwrap();
    let overwrites: Vec<(&str, &str)> = plan
        .overwrites
        .iter()
        .map(|o| (o.path.as_str(), o.reason.as_str()))
        .collect();
    assert_eq!(overwrites.len(), 2, "{overwrites:?}");
    assert_eq!(overwrites[0].0, "/spec/containers[name=\"a\"]/image");
    assert_eq!(overwrites[1].0, "/spec/containers[name=\"b\"]");
    assert!(
        overwrites[1].1.starts_with("deletes the element"),
        "{}",
        overwrites[1].1
    );
    assert_eq!(
        round_trip(&old, &new, &plan, &options.policy),
        RoundTrip::Exact
    );
    let body = strategic_overwrites(
        &json!({"metadata": {"$deleteFromPrimitiveList/finalizers": ["x"], "labels": {"$patch": "replace", "a": "1"}},
                "spec": {"volumes": [{"name": "v", "$retainKeys": ["name"], "emptyDir": {}}]}}),
        schema::resource("pod").unwrap().root(),
    );
    let paths: Vec<&str> = body.iter().map(|o| o.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "/metadata/finalizers",
            "/metadata/labels",
            "/metadata/labels/a",
            "/spec/volumes[name=\"v\"]"
        ]
    );
}

#[test]
fn a_custom_resource_is_refused_not_conflicted() {
    let vmi = |label: &str| json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance", "metadata": {"name": "v", "labels": {"a": label}}});
    let options = Options::preset(Preset::Strategic);
    let plan = diff(&vmi("1"), &vmi("2"), &options).unwrap();
    assert_eq!(plan.body_text(), r#"{"metadata":{"labels":{"a":"2"}}}"#);
    assert!(plan.conflicts.is_empty() && plan.overwrites.is_empty());
    assert!(
        plan.notes[0].contains("HTTP 415 UnsupportedMediaType"),
        "{:?}",
        plan.notes
    );
    let RoundTrip::Refused(err) = round_trip(&vmi("1"), &vmi("2"), &plan, &options.policy) else {
        panic!("a custom resource refuses it");
    };
    assert_eq!(err.response().unwrap().code, 415);
}

#[test]
fn no_schema_or_no_merge_key_is_an_error_not_a_guess() {
    let old = |s: &str| json!({"apiVersion": "extensions/v1beta1", "kind": "Deployment", "metadata": {"name": s}});
    let err = diff(&old("a"), &old("b"), &Options::preset(Preset::Strategic)).unwrap_err();
    assert_eq!(err.to_string(), "no strategic merge patch: patchlab has no schema for extensions/v1beta1, Kind=Deployment: Kubernetes 1.36 does not serve it (kubectl's compiled-in Go types still patch it locally)");
    // Every built-in kind the release serves has its schema.
    let sa =
        |s: &str| json!({"apiVersion": "v1", "kind": "ServiceAccount", "metadata": {"name": s}});
    assert!(diff(&sa("a"), &sa("b"), &Options::preset(Preset::Strategic)).is_ok());
    let pod = |image: &str| json!({"apiVersion": "v1", "kind": "Pod", "spec": {"containers": [{"image": image}]}});
    let err = diff(&pod("a"), &pod("b"), &Options::preset(Preset::Strategic)).unwrap_err();
    assert_eq!(err.to_string(), "no strategic merge patch: at /spec/containers: map: map[image:a] does not contain declared merge key: name");
}
