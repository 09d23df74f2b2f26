//! Golden tests: the strategies against KubeVirt's own cases, op for op.

use super::*;
use crate::apply::{apply, Semantics};
use serde_json::json;

fn labels(map: Value) -> Value {
    json!({"metadata": {"labels": map}})
}

fn ops_of(plan: &Plan) -> Vec<String> {
    plan.ops()
        .unwrap_or_default()
        .iter()
        .map(|p| p.op.to_json())
        .collect()
}

fn with(preset: Preset, overrides: &[(&str, Strategy)]) -> Options {
    let mut options = Options::preset(preset);
    for (path, strategy) in overrides {
        options
            .policy
            .set_strategy(PointerBuf::parse(*path).unwrap(), *strategy);
    }
    options
}

fn plan(old: &Value, new: &Value, options: &Options) -> Plan {
    let plan = diff(old, new, options).unwrap();
    // Every JSON patch a strategy emits must turn old into new on the
    // server (the per-key exception aside, which the callers check).
    if let Some(ops) = plan.ops() {
        let ops: Vec<Operation> = ops.iter().map(|p| p.op.clone()).collect();
        let mut doc = old.clone();
        apply(&mut doc, &ops, Semantics::Kube).unwrap_or_else(|e| panic!("{e}"));
    }
    plan
}

/// KubeVirt's `patch_test.go` cases for `GeneratePerKeyMapPatches`.
#[test]
fn per_key_matches_generate_per_key_map_patches() {
    let options = Options::preset(Preset::KubevirtPerKey);
    type Case = (
        &'static str,
        Option<Value>,
        Option<Value>,
        Vec<&'static str>,
    );
    let cases: Vec<Case> = vec![
        (
            "nil old map: test nil, add the whole map",
            None,
            Some(json!({"key1": "val1", "key2": "val2"})),
            vec![
                r#"{"op":"test","path":"/metadata/labels","value":null}"#,
                r#"{"op":"add","path":"/metadata/labels","value":{"key1":"val1","key2":"val2"}}"#,
            ],
        ),
        (
            "empty old map: test {}, add the whole map",
            Some(json!({})),
            Some(json!({"key1": "val1"})),
            vec![
                r#"{"op":"test","path":"/metadata/labels","value":{}}"#,
                r#"{"op":"add","path":"/metadata/labels","value":{"key1":"val1"}}"#,
            ],
        ),
        (
            "nil new map: per-key removes",
            Some(json!({"key1": "val1"})),
            None,
            vec![r#"{"op":"remove","path":"/metadata/labels/key1"}"#],
        ),
        (
            "new key: add",
            Some(json!({"key1": "val1"})),
            Some(json!({"key1": "val1", "key2": "val2"})),
            vec![r#"{"op":"add","path":"/metadata/labels/key2","value":"val2"}"#],
        ),
        (
            "deleted key: remove",
            Some(json!({"key1": "val1", "key2": "val2"})),
            Some(json!({"key1": "val1"})),
            vec![r#"{"op":"remove","path":"/metadata/labels/key2"}"#],
        ),
        (
            "modified key: test + replace",
            Some(json!({"key1": "oldval"})),
            Some(json!({"key1": "newval"})),
            vec![
                r#"{"op":"test","path":"/metadata/labels/key1","value":"oldval"}"#,
                r#"{"op":"replace","path":"/metadata/labels/key1","value":"newval"}"#,
            ],
        ),
        (
            "escaped key",
            Some(json!({"existing": "val"})),
            Some(json!({"existing": "val", "kubevirt.io/nodeName": "node1"})),
            vec![r#"{"op":"add","path":"/metadata/labels/kubevirt.io~1nodeName","value":"node1"}"#],
        ),
        (
            "mixed, in sorted key order: old keys first, then new keys",
            Some(json!({"keep": "same", "modify": "old", "remove": "gone"})),
            Some(json!({"keep": "same", "modify": "new", "added": "fresh"})),
            vec![
                r#"{"op":"test","path":"/metadata/labels/modify","value":"old"}"#,
                r#"{"op":"replace","path":"/metadata/labels/modify","value":"new"}"#,
                r#"{"op":"remove","path":"/metadata/labels/remove"}"#,
                r#"{"op":"add","path":"/metadata/labels/added","value":"fresh"}"#,
            ],
        ),
    ];
    for (what, old, new, expected) in cases {
        let wrap = |m: Option<Value>| match m {
            Some(m) => labels(m),
            None => json!({"metadata": {}}),
        };
        let (old, new) = (wrap(old), wrap(new));
        let got = plan(&old, &new, &options);
        assert_eq!(ops_of(&got), expected, "{what}");
        assert!(got
            .ops()
            .unwrap()
            .iter()
            .all(|p| p.strategy == Strategy::PerKey));
    }
    // Equal maps: no ops.
    let same = labels(json!({"key1": "val1"}));
    assert!(diff(&same, &same, &options).unwrap().is_empty());
}

#[test]
fn per_key_never_removes_the_map_member_and_says_so() {
    let old = labels(json!({"a": "1"}));
    let new = json!({"metadata": {}});
    let got = plan(&old, &new, &Options::default());
    let mut doc = old.clone();
    let ops: Vec<Operation> = got.ops().unwrap().iter().map(|p| p.op.clone()).collect();
    apply(&mut doc, &ops, Semantics::Kube).unwrap();
    assert_eq!(doc, labels(json!({})), "KubeVirt leaves {{}}");
    assert!(got.ops().unwrap()[0]
        .reason
        .contains("never removes the map member"));
    assert!(got
        .notes
        .iter()
        .any(|n| n.contains("exception to the round trip")));
}

/// The seed's race: the migration controller adds the target node label.
#[test]
fn seed_race_head_tests_the_whole_map_pr18139_adds_one_key() {
    let old = json!({
        "metadata": {"name": "testvmi", "labels": {"kubevirt.io/nodeName": "node01"}},
        "status": {"activePods": {"pod-a": "node01"}}
    });
    let new = json!({
        "metadata": {"name": "testvmi", "labels": {"kubevirt.io/nodeName": "node01", "kubevirt.io/migrationTargetNodeName": "node02"}},
        "status": {"activePods": {"pod-a": "node01", "pod-b": "node02"}}
    });
    let head = plan(&old, &new, &Options::preset(Preset::KubevirtMain));
    assert_eq!(
        ops_of(&head),
        [
            r#"{"op":"test","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01"}}"#,
            r#"{"op":"replace","path":"/metadata/labels","value":{"kubevirt.io/migrationTargetNodeName":"node02","kubevirt.io/nodeName":"node01"}}"#,
            r#"{"op":"test","path":"/status/activePods","value":{"pod-a":"node01"}}"#,
            r#"{"op":"replace","path":"/status/activePods","value":{"pod-a":"node01","pod-b":"node02"}}"#,
        ]
    );
    let conflicts: Vec<&str> = head.conflicts.iter().map(|c| c.path.as_str()).collect();
    assert_eq!(conflicts, ["/metadata/labels", "/status/activePods"]);
    assert!(head.overwrites.is_empty());

    let fixed = plan(&old, &new, &Options::preset(Preset::KubevirtPerKey));
    assert_eq!(
        ops_of(&fixed),
        [
            r#"{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}"#,
            r#"{"op":"add","path":"/status/activePods/pod-b","value":"node02"}"#,
        ]
    );
    assert!(fixed.conflicts.is_empty());
    assert_eq!(fixed.overwrites.len(), 2, "a new key is last-writer-wins");
    assert!(fixed.ops().unwrap()[0]
        .reason
        .starts_with("new key: add without test"));
}

#[test]
fn finalizers_whole_slice_like_get_patch_finalizer_ops() {
    let options = Options::default();
    // Removing the last finalizer sends [], not null.
    let old = json!({"metadata": {"finalizers": ["kubevirt.io/virtualMachineControllerFinalize"]}});
    let new = json!({"metadata": {"finalizers": []}});
    assert_eq!(
        ops_of(&plan(&old, &new, &options)),
        [
            r#"{"op":"test","path":"/metadata/finalizers","value":["kubevirt.io/virtualMachineControllerFinalize"]}"#,
            r#"{"op":"replace","path":"/metadata/finalizers","value":[]}"#,
        ]
    );
    // Adding the first finalizer: test null + replace (works by v4 quirks).
    let old = json!({"metadata": {}});
    let new = json!({"metadata": {"finalizers": ["f"]}});
    let got = plan(&old, &new, &options);
    assert_eq!(
        ops_of(&got),
        [
            r#"{"op":"test","path":"/metadata/finalizers","value":null}"#,
            r#"{"op":"replace","path":"/metadata/finalizers","value":["f"]}"#,
        ]
    );
    let ops: Vec<Operation> = got.ops().unwrap().iter().map(|p| p.op.clone()).collect();
    assert!(
        apply(&mut old.clone(), &ops, Semantics::Rfc).is_err(),
        "strict RFC refuses it"
    );
}

#[test]
fn migration_state_first_write_guarded_or_not() {
    let old = json!({"status": {"phase": "Running"}});
    let new = json!({"status": {"phase": "Running", "migrationState": {"targetNode": "node02"}}});
    // KubeVirt today (migration.go patchVMI): test(nil) + add.
    assert_eq!(
        ops_of(&plan(&old, &new, &Options::preset(Preset::KubevirtMain))),
        [
            r#"{"op":"test","path":"/status/migrationState","value":null}"#,
            r#"{"op":"add","path":"/status/migrationState","value":{"targetNode":"node02"}}"#,
        ]
    );
    // KubeVirt up to v1.5 (before commit 7c7626eb27): a plain add.
    let unguarded = with(
        Preset::KubevirtMain,
        &[("/status/migrationState", Strategy::AddIfAbsent)],
    );
    assert_eq!(
        ops_of(&plan(&old, &new, &unguarded)),
        [r#"{"op":"add","path":"/status/migrationState","value":{"targetNode":"node02"}}"#]
    );
    let newer = json!({"status": {"phase": "Running", "migrationState": {"targetNode": "node02", "completed": true}}});
    for options in [Options::preset(Preset::KubevirtMain), unguarded] {
        assert_eq!(
            ops_of(&plan(&new, &newer, &options)),
            [
                r#"{"op":"test","path":"/status/migrationState","value":{"targetNode":"node02"}}"#,
                r#"{"op":"replace","path":"/status/migrationState","value":{"completed":true,"targetNode":"node02"}}"#,
            ]
        );
    }
    // The synchronization controller: a plain add when there is no state,
    // then field by field.
    let per_field = with(
        Preset::KubevirtMain,
        &[("/status/migrationState", Strategy::PerField)],
    );
    assert_eq!(
        ops_of(&plan(&old, &new, &per_field)),
        [r#"{"op":"add","path":"/status/migrationState","value":{"targetNode":"node02"}}"#]
    );
    let newest = json!({"status": {"phase": "Running", "migrationState": {"targetNode": "node03", "completed": true}}});
    assert_eq!(
        ops_of(&plan(&new, &newest, &per_field)),
        [
            r#"{"op":"add","path":"/status/migrationState/completed","value":true}"#,
            r#"{"op":"test","path":"/status/migrationState/targetNode","value":"node02"}"#,
            r#"{"op":"replace","path":"/status/migrationState/targetNode","value":"node03"}"#,
        ]
    );
}

#[test]
fn interfaces_guarded_upsert_test_add() {
    let old = json!({"status": {"interfaces": [{"name": "default", "ipAddress": "10.0.0.1"}]}});
    let new = json!({"status": {"interfaces": [{"name": "default", "ipAddress": "10.0.0.2"}]}});
    // Both KubeVirt presets (vmi/lifecycle.go prepareVMIPatch); an
    // override of the list's kind strategy still wins.
    for preset in [Preset::KubevirtMain, Preset::KubevirtPerKey] {
        assert_eq!(
            ops_of(&plan(&old, &new, &Options::preset(preset))),
            [
                r#"{"op":"test","path":"/status/interfaces","value":[{"ipAddress":"10.0.0.1","name":"default"}]}"#,
                r#"{"op":"add","path":"/status/interfaces","value":[{"ipAddress":"10.0.0.2","name":"default"}]}"#,
            ],
            "{preset}"
        );
    }
    let options = with(
        Preset::KubevirtPerKey,
        &[("/status/interfaces", Strategy::WholeSlice)],
    );
    assert_eq!(
        ops_of(&plan(&old, &new, &options))[1],
        r#"{"op":"replace","path":"/status/interfaces","value":[{"ipAddress":"10.0.0.2","name":"default"}]}"#
    );
}

#[test]
fn add_only_is_sync_pod_annotations() {
    let options = with(
        Preset::KubevirtPerKey,
        &[("/metadata/annotations", Strategy::AddOnly)],
    );
    let old = json!({"metadata": {"annotations": {"a": "1", "b": "2", "gone": "x"}}});
    let new = json!({"metadata": {"annotations": {"a": "1", "b": "3", "c/d": "4"}}});
    let got = plan(&old, &new, &options);
    assert_eq!(
        ops_of(&got),
        [
            r#"{"op":"add","path":"/metadata/annotations/b","value":"3"}"#,
            r#"{"op":"add","path":"/metadata/annotations/c~1d","value":"4"}"#,
        ]
    );
    assert!(got
        .notes
        .iter()
        .any(|n| n.contains("never removes keys: gone")));
    assert_eq!(got.overwrites.len(), 2);
    assert!(got.conflicts.is_empty());
}

#[test]
fn element_strategy_is_kube_runtime_finalizers() {
    let options = with(
        Preset::KubevirtPerKey,
        &[("/metadata/finalizers", Strategy::Element)],
    );
    let old = json!({"metadata": {"finalizers": ["a", "b", "c"]}});
    let new = json!({"metadata": {"finalizers": ["a", "c", "d"]}});
    assert_eq!(
        ops_of(&plan(&old, &new, &options)),
        [
            r#"{"op":"test","path":"/metadata/finalizers/1","value":"b"}"#,
            r#"{"op":"remove","path":"/metadata/finalizers/1"}"#,
            r#"{"op":"test","path":"/metadata/finalizers","value":["a","c"]}"#,
            r#"{"op":"add","path":"/metadata/finalizers/-","value":"d"}"#,
        ]
    );
    let absent = json!({"metadata": {}});
    let first = json!({"metadata": {"finalizers": ["x"]}});
    assert_eq!(
        ops_of(&plan(&absent, &first, &options)),
        [
            r#"{"op":"test","path":"/metadata/finalizers","value":null}"#,
            r#"{"op":"add","path":"/metadata/finalizers","value":["x"]}"#,
        ]
    );
    // A reorder cannot be expressed per element: whole-slice instead.
    let reordered = json!({"metadata": {"finalizers": ["c", "a", "b"]}});
    let got = plan(&old, &reordered, &options);
    assert_eq!(got.ops().unwrap()[0].strategy, Strategy::WholeSlice);
    assert!(got.notes.iter().any(|n| n.contains("reordered")));
}

#[test]
fn naive_is_blind_and_overwrites() {
    let old = json!({"metadata": {"labels": {"a": "1"}}, "status": {"phase": "Pending"}});
    let new = json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "status": {"phase": "Running"}});
    let got = plan(&old, &new, &Options::preset(Preset::Naive));
    assert_eq!(
        ops_of(&got),
        [
            r#"{"op":"replace","path":"/metadata/labels","value":{"a":"1","b":"2"}}"#,
            r#"{"op":"replace","path":"/status/phase","value":"Running"}"#,
        ]
    );
    assert!(got.conflicts.is_empty());
    assert_eq!(got.overwrites.len(), 2);
}

#[test]
fn optimistic_guards_blind_ops_with_the_resource_version() {
    let old = json!({"metadata": {"resourceVersion": "41", "labels": {"a": "1"}}});
    let new = json!({"metadata": {"resourceVersion": "41", "labels": {"a": "2"}}});
    let got = plan(&old, &new, &Options::preset(Preset::Optimistic));
    assert_eq!(
        ops_of(&got),
        [
            r#"{"op":"test","path":"/metadata/resourceVersion","value":"41"}"#,
            r#"{"op":"replace","path":"/metadata/labels","value":{"a":"2"}}"#,
        ]
    );
    assert_eq!(got.conflicts.len(), 1);
    assert_eq!(got.conflicts[0].path, "", "the whole object");
    assert!(got.overwrites.is_empty());
}

#[test]
fn update_carries_the_old_resource_version() {
    let old = json!({"metadata": {"name": "x", "resourceVersion": "7"}, "spec": {"a": 1}});
    let new = json!({"metadata": {"name": "x", "resourceVersion": "9"}, "spec": {"a": 2}});
    let got = diff(&old, &new, &Options::preset(Preset::Update)).unwrap();
    assert_eq!(
        got.body,
        Body::Update(json!({"metadata": {"name": "x", "resourceVersion": "7"}, "spec": {"a": 2}}))
    );
    assert_eq!(got.fields.len(), 1, "resourceVersion is not a field change");
    assert!(got.conflicts[0].reason.contains("409"));
}

#[test]
fn merge_patch_body_and_precondition() {
    let old =
        json!({"metadata": {"resourceVersion": "5", "labels": {"a": "1"}, "finalizers": ["x"]}});
    let new = json!({"metadata": {"resourceVersion": "5", "labels": {"b": "2"}, "finalizers": ["x", "y"]}});
    let mut options = Options::preset(Preset::Merge);
    let got = diff(&old, &new, &options).unwrap();
    assert_eq!(
        got.body,
        Body::MergePatch(
            json!({"metadata": {"labels": {"a": null, "b": "2"}, "finalizers": ["x", "y"]}})
        )
    );
    assert!(got.conflicts.is_empty());
    assert!(got
        .overwrites
        .iter()
        .any(|o| o.path == "/metadata/finalizers" && o.reason.contains("whole list")));
    options.merge_resource_version = true;
    let pinned = diff(&old, &new, &options).unwrap();
    match &pinned.body {
        Body::MergePatch(body) => assert_eq!(body["metadata"]["resourceVersion"], "5"),
        other => panic!("{other:?}"),
    }
    assert_eq!(pinned.conflicts.len(), 1);
    assert_eq!(pinned.body.content_type(), "application/merge-patch+json");
}

#[test]
fn apply_configuration_holds_only_managed_fields() {
    let old = json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
        "metadata": {"name": "vmi", "namespace": "default", "labels": {"a": "1", "x": "keep"}},
        "spec": {"big": "unchanged"}});
    let new = json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
        "metadata": {"name": "vmi", "namespace": "default", "labels": {"a": "1", "x": "keep", "b": "2"}},
        "spec": {"big": "unchanged"}});
    let got = diff(&old, &new, &Options::preset(Preset::Ssa)).unwrap();
    match &got.body {
        Body::Apply {
            config,
            field_manager,
        } => {
            assert_eq!(field_manager, "patchlab");
            assert_eq!(
                config,
                &json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance",
                    "metadata": {"name": "vmi", "namespace": "default", "labels": {"b": "2"}}}),
                "labels are owned per key: only the key this writer sets"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(got.body_text().contains("kind: VirtualMachineInstance"));
}

#[test]
fn server_managed_fields_are_ignored() {
    let old = json!({"metadata": {"resourceVersion": "1", "generation": 1, "labels": {"a": "1"}}});
    let new = json!({"metadata": {"resourceVersion": "2", "generation": 2, "labels": {"a": "1"}}});
    let got = diff(&old, &new, &Options::default()).unwrap();
    assert!(got.is_empty());
    assert_eq!(got.notes.len(), 2);
}

#[test]
fn overrides_change_one_field_only() {
    let old = json!({"metadata": {"labels": {"a": "1"}, "annotations": {"n": "1"}}});
    let new = json!({"metadata": {"labels": {"a": "2"}, "annotations": {"n": "2"}}});
    let options = with(
        Preset::KubevirtPerKey,
        &[("/metadata/annotations", Strategy::WholeMap)],
    );
    let got = plan(&old, &new, &options);
    let fields: Vec<(String, Strategy)> = got
        .fields
        .iter()
        .map(|f| (f.path.to_string(), f.strategy))
        .collect();
    assert_eq!(
        fields,
        [
            ("/metadata/annotations".to_owned(), Strategy::WholeMap),
            ("/metadata/labels".to_owned(), Strategy::PerKey),
        ]
    );
}

#[test]
fn strategy_kind_mismatch_falls_back_with_a_note() {
    let old = json!({"metadata": {"labels": "oops"}});
    let new = json!({"metadata": {"labels": {"a": "1"}}});
    let got = plan(&old, &new, &Options::default());
    assert_eq!(
        ops_of(&got),
        [
            r#"{"op":"test","path":"/metadata/labels","value":"oops"}"#,
            r#"{"op":"replace","path":"/metadata/labels","value":{"a":"1"}}"#,
        ]
    );
    assert!(got.notes[0].contains("needs a map"));
}

#[test]
fn objects_are_required() {
    let err = diff(&json!([1]), &json!({}), &Options::default()).unwrap_err();
    assert!(err.to_string().contains("old object must be a JSON object"));
}

#[test]
fn exports() {
    let old = json!({"kind": "VirtualMachineInstance", "metadata": {"name": "testvmi", "namespace": "default",
        "labels": {"kubevirt.io/nodeName": "node01"}}});
    let new = json!({"kind": "VirtualMachineInstance", "metadata": {"name": "testvmi", "namespace": "default",
        "labels": {"kubevirt.io/nodeName": "node01", "app": "it's"}}});
    let head = diff(&old, &new, &Options::preset(Preset::KubevirtMain)).unwrap();
    assert_eq!(
        kubectl(&head, &new),
        r#"kubectl patch virtualmachineinstance testvmi -n default --type=json -p '[{"op":"test","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01"}},{"op":"replace","path":"/metadata/labels","value":{"app":"it'\''s","kubevirt.io/nodeName":"node01"}}]'"#
    );
    assert_eq!(
        go_code(&head).unwrap(),
        r#"package patches

import (
	"kubevirt.io/kubevirt/pkg/apimachinery/patch"
)

// patchPayload returns the JSON patch to send with types.JSONPatchType, as in
// virtClient.VirtualMachineInstance(namespace).Patch(ctx, name, types.JSONPatchType, patchBytes, metav1.PatchOptions{}).
func patchPayload() ([]byte, error) {
	patchBytes, err := patch.New(
		patch.WithTest("/metadata/labels", map[string]string{"kubevirt.io/nodeName": "node01"}),
		patch.WithReplace("/metadata/labels", map[string]string{"app": "it's", "kubevirt.io/nodeName": "node01"}),
	).GeneratePayload()
	if err != nil {
		return nil, err
	}
	return patchBytes, nil
}
"#
    );
    let fixed = diff(&old, &new, &Options::default()).unwrap();
    assert_eq!(
        rust_code(&fixed).unwrap(),
        "use patchlab::patch::PatchSet;\nuse serde_json::json;\n\nlet payload = PatchSet::new()\n    .add(\"/metadata/labels/app\", json!(\"it's\"))\n    .payload()?;\n"
    );
    let key = json!({"metadata": {"labels": {"kubevirt.io/nodeName": "node02"}}});
    let moved = diff(
        &json!({"metadata": {"labels": {}}}),
        &key,
        &Options::preset(Preset::Naive),
    )
    .unwrap();
    assert!(go_code(&moved)
        .unwrap()
        .contains("patch.WithReplace(\"/metadata/labels\""));
}
