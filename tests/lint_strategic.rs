//! Lint of strategic merge patches on the engine and the schema: what
//! each patch type would do with each list (no advice deletes an element
//! the user did not touch), the server's answers (415 decided by the
//! schema tables, 500 for a missing merge key, 409 for a stale
//! resourceVersion), and `merge-replaces-list` read against the schema.
#![cfg(not(target_arch = "wasm32"))]

use serde_json::{json, Value};

use patchlab::lint::{self, BodyKind, Options, Report, Rule};

fn lint_with(text: &str, object: Option<Value>) -> Report {
    lint::lint(
        text,
        &Options {
            object,
            ..Options::default()
        },
    )
    .unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn rules(report: &Report) -> Vec<Rule> {
    report.findings.iter().map(|f| f.rule).collect()
}

fn patch_demo() -> Value {
    json!({"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "patch-demo"},
        "spec": {"replicas": 2, "template": {"spec": {"containers": [{"name": "patch-demo-ctr", "image": "nginx"}]}}}})
}

/// The kubernetes.io "patch containers" example: `kubectl patch
/// deployment patch-demo --patch-file patch-file.yaml` adds a container.
/// Nothing advises a type that would delete patch-demo-ctr; the report
/// says a merge patch would.
#[test]
fn the_patch_containers_example_gets_no_advice_that_deletes_a_container() {
    let files = |name: &str| -> Result<String, String> {
        assert_eq!(name, "patch-file.yaml");
        Ok("spec:\n  template:\n    spec:\n      containers:\n      - name: patch-demo-ctr-2\n        image: redis\n".to_owned())
    };
    let input = lint::read_with(
        "kubectl patch deployment patch-demo --patch-file patch-file.yaml",
        &lint::budget(),
        Some(&files),
    )
    .unwrap();
    assert_eq!(input.kind, BodyKind::StrategicMergePatch);
    for object in [None, Some(patch_demo())] {
        let with_object = object.is_some();
        let report = lint::lint_input(
            &input,
            &Options {
                object,
                ..Options::default()
            },
        )
        .unwrap();
        assert!(report.findings.is_empty(), "{:#?}", report.findings);
        let types = report.types.as_ref().unwrap();
        assert!(
            types.summary.starts_with("keep it a strategic merge patch: as a merge patch (--type=merge) /spec/template/spec/containers would be replaced whole"),
            "{}",
            types.summary
        );
        let list = &types.lists[0];
        assert_eq!(list.path, "/spec/template/spec/containers");
        assert!(
            list.strategic.starts_with("merged by name"),
            "{}",
            list.strategic
        );
        assert!(list.merge.starts_with("replaced whole"), "{}", list.merge);
        let overwrite = &report.overwrites[0];
        assert_eq!(
            overwrite.reason,
            "containers merge by name: a container another writer added stays; the fields you set in yours overwrite theirs (last write wins)"
        );
        if with_object {
            let outcome = report.outcome.as_ref().unwrap();
            assert!(outcome.applies && !outcome.unchanged);
            assert!(list
                .strategic
                .ends_with("every other container stays (patch-demo-ctr)"));
            assert!(list.merge.ends_with("(stored now: patch-demo-ctr)"));
        }
    }
    // The same body sent with --type merge: the finding says what a
    // strategic merge patch would keep.
    let merge = lint_with(
        r#"kubectl patch deployment patch-demo --type merge -p '{"spec":{"template":{"spec":{"containers":[{"name":"patch-demo-ctr-2","image":"redis"}]}}}}'"#,
        Some(patch_demo()),
    );
    assert_eq!(rules(&merge), [Rule::MergeReplacesList]);
    let message = &merge.findings[0].message;
    assert!(
        message.contains("on the current object it deletes patch-demo-ctr"),
        "{message}"
    );
    assert!(
        message.ends_with("sent as a strategic merge patch (kubectl patch without --type), containers would merge by name and the containers you did not list would stay"),
        "{message}"
    );
}

/// `kubectl patch node n -p '{"spec":{"unschedulable":true}}'`: findings,
/// not a refusal; the advice says a merge patch would do the same.
#[test]
fn a_node_made_unschedulable_is_read_and_clean() {
    let report = lint_with(
        r#"kubectl patch node n -p '{"spec":{"unschedulable":true}}'"#,
        None,
    );
    assert_eq!(report.kind, BodyKind::StrategicMergePatch);
    assert!(report.findings.is_empty(), "{:#?}", report.findings);
    assert_eq!(
        report.types.as_ref().unwrap().summary,
        "no lists and no directives in the body: as a merge patch (--type=merge) it would do exactly the same"
    );
    assert_eq!(report.overwrites[0].path, "/spec/unschedulable");
}

/// Built in or custom: the object's apiVersion and kind, read against the
/// schema tables (a kind they do not list is a custom resource); the
/// outcome is the server's 415.
#[test]
fn the_schema_tables_decide_what_answers_415() {
    let mut input = lint::read(r#"{"metadata":{"labels":{"team":"a"}}}"#, &lint::budget()).unwrap();
    assert_eq!(input.kind, BodyKind::MergePatch);
    input.set_kind(BodyKind::StrategicMergePatch).unwrap();
    let run = |object: Value| {
        lint::lint_input(
            &input,
            &Options {
                object: Some(object),
                ..Options::default()
            },
        )
        .unwrap()
    };
    let widget =
        run(json!({"apiVersion": "example.com/v1", "kind": "Widget", "metadata": {"name": "w"}}));
    assert_eq!(rules(&widget), [Rule::SmpCustomResource]);
    let outcome = widget.outcome.as_ref().unwrap();
    assert_eq!(outcome.response.as_ref().unwrap().code, 415);
    assert!(widget.findings[0]
        .message
        .ends_with("send it with --type=merge: this body holds no lists and no directives, so a merge patch does exactly the same"));
    // Every built-in kind has its schema (Ingress): no 415, the merge.
    let ingress = run(
        json!({"apiVersion": "networking.k8s.io/v1", "kind": "Ingress", "metadata": {"name": "i"}}),
    );
    assert!(ingress.findings.is_empty(), "{:#?}", ingress.findings);
    assert!(ingress.outcome.as_ref().unwrap().applies);
    // A group version the release does not serve is no custom resource:
    // the server's routing answers 404.
    let old = run(
        json!({"apiVersion": "extensions/v1beta1", "kind": "Ingress", "metadata": {"name": "i"}}),
    );
    assert!(!rules(&old).contains(&Rule::SmpCustomResource));
    let response = old.outcome.as_ref().unwrap().response.as_ref().unwrap();
    assert_eq!(response.code, 404);
    let node = run(json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n"}}));
    assert!(node.findings.is_empty());
    assert!(node.outcome.as_ref().unwrap().applies);
    // A list in the body: the advice says what a merge patch does to it.
    let vm = lint_with(
        r#"kubectl patch vm testvm -p '{"spec":{"template":{"spec":{"volumes":[{"name":"cloudinitdisk"}]}}}}'"#,
        None,
    );
    assert_eq!(rules(&vm), [Rule::SmpCustomResource]);
    assert!(
        vm.findings[0].message.contains("with --type=merge the same body would replace /spec/template/spec/volumes whole, deleting every element you did not list"),
        "{}",
        vm.findings[0].message
    );
}

/// A keyed list's element without its key: the server's own text, and its
/// 500 on the object.
#[test]
fn a_missing_merge_key_is_the_servers_500() {
    let line = r#"kubectl patch deployment patch-demo -p '{"spec":{"template":{"spec":{"containers":[{"image":"redis"}]}}}}'"#;
    let report = lint_with(line, None);
    assert_eq!(rules(&report), [Rule::SmpMissingMergeKey]);
    let finding = &report.findings[0];
    assert_eq!(
        finding.path.as_deref(),
        Some("/spec/template/spec/containers/0")
    );
    assert!(
        finding.message.ends_with("the server fails the whole patch with HTTP 500: map: map[image:redis] does not contain declared merge key: name"),
        "{}",
        finding.message
    );
    let report = lint_with(line, Some(patch_demo()));
    assert_eq!(rules(&report), [Rule::SmpMissingMergeKey, Rule::FailsNow]);
    let response = report.outcome.as_ref().unwrap().response.as_ref().unwrap();
    assert_eq!(response.code, 500);
    assert_eq!(
        response.message,
        "map: map[image:redis] does not contain declared merge key: name"
    );
}

/// A list without a merge key under a strategic merge patch: replaced
/// whole; with the object, the elements that go are named, the fix is a
/// JSON patch with a test, and a pinned resourceVersion is a precondition.
#[test]
fn a_nodes_taints_are_replaced_whole() {
    let node = json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "node01", "resourceVersion": "7"},
        "spec": {"taints": [{"key": "feature.node.kubernetes.io/gpu", "value": "true", "effect": "NoSchedule"}]}});
    let report = lint_with(
        r#"kubectl patch node node01 -p '{"spec":{"taints":[{"key":"dedicated","value":"gpu","effect":"NoSchedule"}]}}'"#,
        Some(node.clone()),
    );
    assert_eq!(rules(&report), [Rule::SmpReplacesList]);
    let finding = &report.findings[0];
    assert!(
        finding
            .message
            .contains("it deletes feature.node.kubernetes.io/gpu"),
        "{}",
        finding.message
    );
    assert_eq!(
        finding.writers,
        [
            "node-lifecycle-controller",
            "kubeadm",
            "node-feature-discovery",
            "controllers-and-users"
        ]
    );
    let fix = finding.fix.as_ref().unwrap().payload();
    assert!(
        fix.starts_with(r#"[{"op":"test","path":"/spec/taints""#),
        "{fix}"
    );
    let pinned = lint_with(
        r#"kubectl patch node node01 -p '{"metadata":{"resourceVersion":"7"},"spec":{"taints":[]}}'"#,
        Some(node.clone()),
    );
    assert_eq!(rules(&pinned), [Rule::RvPinnedBody]);
    let stale = lint_with(
        r#"kubectl patch node node01 -p '{"metadata":{"resourceVersion":"6"},"spec":{"taints":[]}}'"#,
        Some(node),
    );
    assert_eq!(rules(&stale), [Rule::FailsNow, Rule::RvPinnedBody]);
    assert_eq!(stale.outcome.unwrap().response.unwrap().code, 409);
}

/// A merge patch replaces even keyed lists: the rule fires where the list
/// has writers or merges by key under a strategic merge patch, not on a
/// list nobody else writes.
#[test]
fn merge_replaces_list_reads_the_schema() {
    let chart = lint::lint(
        r#"{"spec":{"dnsNames":["web.example.com"]}}"#,
        &Options {
            kind: Some("Certificate".into()),
            ..Options::default()
        },
    )
    .unwrap();
    assert!(chart.findings.is_empty(), "{:#?}", chart.findings);
    // No kind: the path is a Deployment's (or a StatefulSet's, ...).
    let unkinded = lint::lint(
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}"#,
        &Options::default(),
    )
    .unwrap();
    assert_eq!(rules(&unkinded), [Rule::MergeReplacesList]);
    assert!(
        unkinded.findings[0]
            .message
            .contains("(kubectl patch without --type, as for a "),
        "{}",
        unkinded.findings[0].message
    );
    // Conditions of any kind: third-party controllers add their own.
    let conditions = lint::lint(
        r#"{"status":{"conditions":[{"type":"Ready","status":"True"}]}}"#,
        &Options {
            kind: Some("Memcached".into()),
            ..Options::default()
        },
    )
    .unwrap();
    assert_eq!(rules(&conditions), [Rule::MergeReplacesList]);
    assert_eq!(conditions.findings[0].writers, ["condition-writers"]);
}

/// `$patch: replace` of shared labels, and the body's type set by hand.
#[test]
fn patch_replace_and_set_kind() {
    let report = lint_with(
        r#"kubectl patch node node01 -p '{"metadata":{"labels":{"$patch":"replace","role":"gpu"}}}'"#,
        None,
    );
    assert_eq!(rules(&report), [Rule::SmpPatchReplace]);
    assert!(report.findings[0]
        .writers
        .contains(&"node-feature-discovery"));
    let mut list = lint::read(r#"[{"op":"add","path":"/a","value":1}]"#, &lint::budget()).unwrap();
    assert!(list.set_kind(BodyKind::StrategicMergePatch).is_err());
    let mut line = lint::read("kubectl patch node n -p '{}'", &lint::budget()).unwrap();
    assert!(line.set_kind(BodyKind::MergePatch).is_err());
    assert!(line.set_kind(BodyKind::StrategicMergePatch).is_ok());
    // A byte order mark: the strategic merge patch handler's text has no
    // "error decoding patch:" prefix.
    let mut bom = lint::read("\u{feff}{\"metadata\":{}}", &lint::budget()).unwrap();
    bom.set_kind(BodyKind::StrategicMergePatch).unwrap();
    assert!(bom.hints[0]
        .message
        .ends_with("the server answers 400 invalid character 'ï' looking for beginning of value"));
}
