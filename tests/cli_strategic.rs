//! `patchlab apply --type strategic|merge|json`: the patch types kubectl
//! sends, on the objects of tests/fixtures.
#![cfg(not(target_arch = "wasm32"))]

use std::io::Write;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

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

fn json_out(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON on stdout")
}

const NODE: &str = "tests/fixtures/node.yaml";

#[test]
fn strategic_merges_lists_by_key_where_merge_replaces_them() {
    // The kubernetes.io "patch containers" example, on a Deployment: the
    // strategic patch adds a container, the merge patch replaces the list.
    let patch = r#"{"spec":{"template":{"spec":{"containers":[{"name":"patch-demo-ctr-2","image":"redis"}]}}}}"#;
    let strategic = json_out(&patchlab(
        &[
            "apply",
            "--type",
            "strategic",
            "tests/fixtures/deployment.yaml",
            "-",
        ],
        patch,
    ));
    let names: Vec<&str> = strategic["spec"]["template"]["spec"]["containers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["patch-demo-ctr-2", "patch-demo-ctr"]);
    let merge = json_out(&patchlab(
        &[
            "apply",
            "--type",
            "merge",
            "tests/fixtures/deployment.yaml",
            "-",
        ],
        patch,
    ));
    assert_eq!(
        merge["spec"]["template"]["spec"]["containers"],
        json!([{"name": "patch-demo-ctr-2", "image": "redis"}])
    );
    // --merge is --type merge.
    let same = json_out(&patchlab(
        &["apply", "--merge", "tests/fixtures/deployment.yaml", "-"],
        patch,
    ));
    assert_eq!(same, merge);
}

#[test]
fn strategic_on_a_node_as_virt_handler_sends_it() {
    let out = patchlab(
        &["apply", "--type", "strategic", "--compact", NODE, "-"],
        r#"{"metadata":{"labels":{"kubevirt.io/schedulable":"false"}},"spec":{"unschedulable":true}}"#,
    );
    let node = json_out(&out);
    assert_eq!(
        node["metadata"]["labels"]["kubevirt.io/schedulable"],
        "false"
    );
    assert_eq!(
        node["metadata"]["labels"]["kubernetes.io/hostname"],
        "node01"
    );
    assert_eq!(node["spec"]["unschedulable"], true);
    // Taints have no merge key: the patch's list replaces the node's.
    let out = patchlab(
        &["apply", "--type", "strategic", NODE, "-"],
        r#"{"spec":{"taints":[{"key":"b","effect":"NoExecute"}]}}"#,
    );
    assert_eq!(
        json_out(&out)["spec"]["taints"],
        json!([{"key": "b", "effect": "NoExecute"}])
    );
}

#[test]
fn strategic_errors_carry_the_server_s_answer() {
    let out = patchlab(
        &[
            "apply",
            "--type",
            "strategic",
            "tests/fixtures/vmi.yaml",
            "-",
        ],
        r#"{"metadata":{"labels":{"a":"b"}}}"#,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "patchlab: kubevirt.io/v1, Kind=VirtualMachineInstance is a custom resource: the server takes no strategic merge patch for it (send a merge patch or a JSON patch)\n\
         the server would answer: HTTP 415 UnsupportedMediaType: the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml\n"
    );
    let out = patchlab(
        &[
            "apply",
            "--type",
            "strategic",
            "--kind",
            "deploy",
            "tests/fixtures/deployment.yaml",
            "-",
        ],
        r#"{"spec":{"template":{"spec":{"containers":[{"image":"redis"}]}}}}"#,
    );
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(
        err,
        "patchlab: at /spec/template/spec/containers: map: map[image:redis] does not contain declared merge key: name\n\
         the server would answer: HTTP 500: map: map[image:redis] does not contain declared merge key: name\n"
    );
    // The VMI read as a Pod (--kind): strategic merge patch allowed.
    let out = patchlab(
        &[
            "apply",
            "--type",
            "strategic",
            "--kind",
            "Pod",
            "--api-version",
            "v1",
            "tests/fixtures/vmi.yaml",
            "-",
        ],
        r#"{"metadata":{"finalizers":["x"]}}"#,
    );
    assert!(json_out(&out)["metadata"]["finalizers"]
        .as_array()
        .unwrap()
        .contains(&json!("x")));
    let out = patchlab(
        &[
            "apply",
            "--type",
            "strategic",
            "--semantics",
            "rfc",
            NODE,
            "-",
        ],
        "{}",
    );
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn batch_lines_take_the_type() {
    let line = json!({
        "doc": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "finalizers": ["a"]}},
        "patch": {"metadata": {"finalizers": ["b"], "$deleteFromPrimitiveList/finalizers": ["a"]}}
    });
    let vmi = json!({"doc": {"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance", "metadata": {"name": "v"}}, "patch": {}});
    let out = patchlab(
        &["apply", "--batch", "--type", "strategic"],
        &format!("{line}\n{vmi}\n"),
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["ok"]["metadata"]["finalizers"], json!(["b"]));
    assert_eq!(lines[1]["error"]["kind"], "unsupported-media-type");
    assert_eq!(lines[1]["error"]["status"], 415);
}
