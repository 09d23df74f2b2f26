//! `patchlab explain`: exit codes, text and JSON output, stdin, the patch
//! and object options.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::Value;

fn patchlab(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_patchlab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut input = child.stdin.take().expect("stdin");
    let text = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(text.as_bytes());
    });
    let output = child.wait_with_output().expect("output");
    writer.join().expect("writer");
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
}

const BARE: &str =
    "The request is invalid: the server rejected our request due to an error in our request";

#[test]
fn a_bare_422_lists_candidates_and_what_would_decide() {
    let out = patchlab(&["explain", BARE], "");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("class: undecided, one of test-failed, missing-path, bad-index, malformed-op, smp-merge-key\nread as: kubectl, HTTP 422 Invalid\n"),
        "{text}"
    );
    assert!(
        text.contains("would decide: the patch that was sent"),
        "{text}"
    );
    assert!(text.contains("if test-failed: only after a re-read and a rebuilt request (RetryOnConflict does not retry it)"), "{text}");
    assert!(text.contains("https://github.com/kubernetes/apiserver/blob/release-1.36/pkg/endpoints/handlers/patch.go#L414"), "{text}");
}

#[test]
fn with_patch_and_object_it_names_the_op_and_the_fix() {
    let out = patchlab(
        &[
            "explain",
            "--patch",
            "tests/fixtures/whole-map-labels.json",
            "--object",
            "tests/fixtures/vmi.yaml",
            "--kube-version",
            "1.30",
            BARE,
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("class: test-failed (A test op failed)\n"),
        "{text}"
    );
    assert!(text.contains("decided by: replaying the patch on the object with the engine of Kubernetes 1.30 (evanphx/json-patch v4.12.0)"), "{text}");
    assert!(
        text.contains(r#"Op 0 (test "/metadata/labels") fails on Kubernetes 1.30"#),
        "{text}"
    );
    assert!(
        text.contains("lint whole-map-test: op 0 tests the whole map"),
        "{text}"
    );
    assert!(text.contains(r#"send instead (lint whole-map-test, application/json-patch+json; replayed on the object given: it applies): [{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#), "{text}");
    assert!(text.contains("open in Check: #/check?s=1."), "{text}");
}

#[test]
fn json_output_from_stdin() {
    let status = r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Apply failed with 1 conflict: conflict with \"virt-handler\" using kubevirt.io/v1: .metadata.labels.kubevirt.io/nodeName","reason":"Conflict","details":{"causes":[{"reason":"FieldManagerConflict","message":"conflict with \"virt-handler\" using kubevirt.io/v1","field":".metadata.labels.kubevirt.io/nodeName"}]},"code":409}"#;
    for args in [
        &["explain", "--format", "json"][..],
        &["explain", "--format", "json", "-"],
    ] {
        let out = patchlab(args, status);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let e: Value = serde_json::from_str(&stdout(&out)).unwrap();
        assert_eq!(e["class"], "ssa-conflict");
        assert_eq!(e["shape"], "status-json");
        assert_eq!(e["seen"]["code"], 409);
        assert_eq!(e["retry"]["retryOnConflict"], true);
        assert_eq!(e["retry"]["helps"], "no");
        assert_eq!(e["details"]["managers"][0]["name"], "virt-handler");
        assert_eq!(e["details"]["managers"][0]["operation"], "Update");
        assert_eq!(
            e["details"]["managers"][0]["fields"][0],
            ".metadata.labels.kubevirt.io/nodeName"
        );
        assert!(e["candidates"][0]["sources"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with("conflict.go"));
    }
}

#[test]
fn a_kubectl_line_without_type_is_a_strategic_merge_patch() {
    let dir = std::env::temp_dir().join(format!("patchlab-explain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let patch = dir.join("cmd.sh");
    std::fs::write(
        &patch,
        "kubectl patch vmi testvmi -p '{\"metadata\":{\"labels\":{\"a\":\"1\"}}}'",
    )
    .unwrap();
    let out = patchlab(
        &[
            "explain",
            "--patch",
            patch.to_str().unwrap(),
            "Error from server (UnsupportedMediaType): the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("class: smp-custom-resource"), "{text}");
    assert!(
        text.contains("retry: no (RetryOnConflict does not retry it)"),
        "{text}"
    );
    assert!(text.contains("customresource_handler.go"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn exit_1_when_not_recognised_2_when_unreadable() {
    let out = patchlab(&["explain", "the cluster is fine"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stdout(&out).starts_with("not recognised\n"),
        "{}",
        stdout(&out)
    );
    let out = patchlab(&["explain", "--format", "json", "-"], "hello");
    assert_eq!(out.status.code(), Some(1));
    let e: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(e["recognised"], false);

    // Exit 2 only when there is nothing to explain.
    let cases: [(&[&str], &str, &str); 2] = [
        (&["explain"], "   \n", "the error text is empty"),
        (
            &["explain", "--patch", "-", "-"],
            "",
            "only one of TEXT, --patch and --object",
        ),
    ];
    for (args, stdin, expected) in cases {
        let out = patchlab(args, stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(
            stderr(&out).contains(expected),
            "{args:?}: {}",
            stderr(&out)
        );
    }
    // An optional input that cannot be read is reported beside the
    // explanation, never instead of it.
    let beside: [(&[&str], &str, &str); 3] = [
        (
            &["explain", "--patch", "nope.json", BARE],
            "",
            "not read: patch: nope.json",
        ),
        (
            &["explain", "--content-type", "xml", BARE],
            "",
            "not read: content-type: content type \"xml\"",
        ),
        (
            &["explain", "--patch", "-", BARE],
            "[{\"op\":\"add\",\n \"path\": }]",
            "not read: patch: the server cannot decode this body as application/json-patch+json (line 2, column 10)",
        ),
    ];
    for (args, stdin, expected) in beside {
        let out = patchlab(args, stdin);
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        let text = stdout(&out);
        assert!(text.starts_with("class: undecided"), "{args:?}: {text}");
        assert!(text.contains(expected), "{args:?}: {text}");
    }
    // Any 1.x release: an old one is explained with the nearest modelled
    // engine, and the answer says what differs.
    for release in ["1.24", "1.8", "v1.16.3", "1.40"] {
        let out = patchlab(&["explain", "--kube-version", release, BARE], "");
        assert_eq!(out.status.code(), Some(0), "{release}: {}", stderr(&out));
        assert!(
            stdout(&out).contains("\nrelease: Kubernetes "),
            "{}",
            stdout(&out)
        );
    }
    let out = patchlab(&["explain", "--kube-version", "2.0", BARE], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("not a Kubernetes release"),
        "{}",
        stderr(&out)
    );
}
