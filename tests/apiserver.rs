//! The fake kube-apiserver of `tests/support/apiserver.rs`, checked with
//! the real kubectl: what kubectl sends arrives byte for byte, with its
//! Content-Type, and every write is recorded. Skipped, with a NOTICE on
//! stderr, where no kubectl is installed.
#![cfg(not(target_arch = "wasm32"))]

#[path = "support/apiserver.rs"]
mod apiserver;

use apiserver::ApiServer;

#[test]
fn a_patch_arrives_as_the_exact_bytes_with_its_content_type() {
    let Some(server) = ApiServer::start() else {
        return;
    };
    let run = server.kubectl(&["patch", "cm", "x", "-p", r#"{"data":{"a":"b"}}"#], None);
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(run.stdout.trim(), "configmap/x patched", "{run:?}");
    assert_eq!(run.writes.len(), 1, "{run:?}");
    let write = &run.writes[0];
    assert_eq!(write.method, "PATCH");
    assert_eq!(write.path, "/api/v1/namespaces/default/configmaps/x");
    assert_eq!(write.content_type, "application/strategic-merge-patch+json");
    assert_eq!(write.body, br#"{"data":{"a":"b"}}"#);
    assert!(
        write.query.contains("fieldManager=kubectl-patch"),
        "{write:?}"
    );
}

#[test]
fn every_patch_type_and_kind_reaches_its_path() {
    let Some(server) = ApiServer::start() else {
        return;
    };
    let cases = [
        (
            [
                "patch",
                "deploy",
                "web",
                "--type=merge",
                "-p",
                "spec:\n  replicas: 3\n",
            ],
            "/apis/apps/v1/namespaces/default/deployments/web",
            "application/merge-patch+json",
            r#"{"spec":{"replicas":3}}"#,
        ),
        (
            [
                "patch",
                "vmi",
                "testvmi",
                "--type=json",
                "-p",
                r#"[{"op":"remove","path":"/metadata/labels/a"}]"#,
            ],
            "/apis/kubevirt.io/v1/namespaces/default/virtualmachineinstances/testvmi",
            "application/json-patch+json",
            r#"[{"op":"remove","path":"/metadata/labels/a"}]"#,
        ),
        (
            [
                "patch",
                "cj",
                "nightly",
                "--type=strategic",
                "-p",
                "{\"spec\": {\"suspend\": true}}",
            ],
            "/apis/batch/v1/namespaces/default/cronjobs/nightly",
            "application/strategic-merge-patch+json",
            "{\"spec\": {\"suspend\": true}}",
        ),
        (
            [
                "patch",
                "node",
                "n1",
                "--type=merge",
                "-p",
                "{\"spec\":{\"unschedulable\":true}}",
            ],
            "/api/v1/nodes/n1",
            "application/merge-patch+json",
            "{\"spec\":{\"unschedulable\":true}}",
        ),
    ];
    for (args, path, content_type, body) in cases {
        let run = server.kubectl(&args, None);
        assert_eq!(run.status, 0, "{args:?}: {run:?}");
        assert_eq!(run.writes.len(), 1, "{args:?}: {run:?}");
        let write = &run.writes[0];
        assert_eq!(
            (write.path.as_str(), write.content_type.as_str()),
            (path, content_type),
            "{args:?}"
        );
        assert_eq!(String::from_utf8_lossy(&write.body), body, "{args:?}");
    }
}

#[test]
fn label_annotate_apply_replace_and_create_are_recorded() {
    let Some(server) = ApiServer::start() else {
        return;
    };
    let run = server.kubectl(&["label", "cm", "x", "team=a"], None);
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(run.writes.len(), 1, "{run:?}");
    assert_eq!(run.writes[0].method, "PATCH");
    let body: serde_json::Value = serde_json::from_slice(&run.writes[0].body).unwrap();
    assert_eq!(body["metadata"]["labels"]["team"], "a", "{run:?}");

    let run = server.kubectl(&["annotate", "deploy", "web", "note=hi"], None);
    assert_eq!(run.status, 0, "{run:?}");
    let body: serde_json::Value = serde_json::from_slice(&run.writes[0].body).unwrap();
    assert_eq!(body["metadata"]["annotations"]["note"], "hi", "{run:?}");

    let object = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: absent-cm\ndata:\n  a: b\n";
    let run = server.kubectl(&["apply", "-f", "-"], Some(object));
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(run.writes.len(), 1, "{run:?}");
    assert!(
        run.writes[0].query.contains("fieldValidation=Strict"),
        "{run:?}"
    );
    assert_eq!(
        (run.writes[0].method.as_str(), run.writes[0].path.as_str()),
        ("POST", "/api/v1/namespaces/default/configmaps")
    );
    let body: serde_json::Value = serde_json::from_slice(&run.writes[0].body).unwrap();
    assert_eq!(body["data"]["a"], "b", "{run:?}");

    let object = b"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: yes\n";
    let run = server.kubectl(&["replace", "-f", "-"], Some(object));
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(
        (run.writes[0].method.as_str(), run.writes[0].path.as_str()),
        ("PUT", "/api/v1/namespaces/default/configmaps/x")
    );

    let run = server.kubectl(&["create", "-f", "-"], Some(object));
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(run.writes[0].method, "POST", "{run:?}");

    // An existing object: apply patches it, from kubectl's built-in types.
    let object =
        b"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n";
    let run = server.kubectl(&["apply", "-f", "-"], Some(object));
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(run.writes[0].method, "PATCH", "{run:?}");
    assert_eq!(
        run.writes[0].content_type,
        "application/strategic-merge-patch+json"
    );
}

#[test]
fn a_hung_run_is_killed_with_what_it_started() {
    let Some(mut server) = ApiServer::start() else {
        return;
    };
    let run = server.bash("exit 3");
    assert_eq!((run.status, run.timed_out), (3, false), "{run:?}");
    server.set_timeout(std::time::Duration::from_millis(500));
    let start = std::time::Instant::now();
    let run = server.bash("sleep 30 & sleep 30; echo never");
    assert_eq!((run.status, run.timed_out), (-1, true), "{run:?}");
    assert!(start.elapsed().as_secs() < 10, "{:?}", start.elapsed());
    assert!(!run.stdout.contains("never"), "{run:?}");
}

#[test]
fn bash_runs_kubectl_with_the_kubeconfig_and_refusals_write_nothing() {
    let Some(server) = ApiServer::start() else {
        return;
    };
    let run = server.bash("kubectl patch cm x --type=merge -p \"$(printf 'a: 1')\" && kubectl patch cm y --type=merge -p '{}'");
    assert_eq!(run.status, 0, "{run:?}");
    assert_eq!(run.writes.len(), 2, "{run:?}");
    assert_eq!(run.writes[0].body, br#"{"a":1}"#);
    let run = server.kubectl(
        &["patch", "cm", "x", "--type=merge", "-p", "a: \"\\/\""],
        None,
    );
    assert_eq!(run.status, 1, "{run:?}");
    assert!(
        run.stderr.contains("found unknown escape character"),
        "{run:?}"
    );
    assert!(run.writes.is_empty(), "{run:?}");
}

#[test]
fn servers_run_side_by_side() {
    let servers: Vec<_> = (0..3).filter_map(|_| ApiServer::start()).collect();
    let handles: Vec<_> = servers
        .iter()
        .enumerate()
        .map(|(i, server)| {
            let patch = format!("{{\"data\":{{\"n\":\"{i}\"}}}}");
            let run = server.kubectl(&["patch", "cm", "x", "-p", &patch], None);
            (patch, run)
        })
        .collect();
    for (patch, run) in handles {
        assert_eq!(run.writes.len(), 1, "{run:?}");
        assert_eq!(run.writes[0].body, patch.as_bytes());
    }
}
