//! The `patchlab` binary, subcommand by subcommand, against fixtures.

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

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
}

#[test]
fn apply_yaml_doc_with_json_patch_prints_json() {
    let out = patchlab(
        &[
            "apply",
            "tests/fixtures/vmi.yaml",
            "tests/fixtures/finalizer-remove.json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        doc["metadata"]["finalizers"],
        json!(["foregroundDeleteVirtualMachine"])
    );
    assert_eq!(doc["status"]["phase"], "Running");
}

#[test]
fn apply_failure_names_op_path_cause_and_status() {
    let out = patchlab(
        &[
            "apply",
            "tests/fixtures/vmi.yaml",
            "tests/fixtures/whole-map-labels.json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stdout(&out).is_empty());
    let err = stderr(&out);
    assert!(err.contains(r#"op 0 (test "/metadata/labels"): test failed: expected {"kubevirt.io/nodeName":"node01"}"#), "{err}");
    assert!(
        err.contains(
            "HTTP 422 Invalid: the server rejected our request due to an error in our request"
        ),
        "{err}"
    );

    let out = patchlab(
        &[
            "apply",
            "--semantics",
            "rfc",
            "tests/fixtures/vmi.yaml",
            "tests/fixtures/whole-map-labels.json",
        ],
        "",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(!stderr(&out).contains("HTTP"), "no HTTP status in rfc mode");
}

#[test]
fn apply_patch_from_stdin_and_semantics_switch() {
    let patch = r#"[{"op":"replace","path":"/metadata/labels/tier","value":"db"}]"#;
    let out = patchlab(
        &["apply", "--compact", "tests/fixtures/vmi.yaml", "-"],
        patch,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(doc["metadata"]["labels"]["tier"], "db");
    assert_eq!(stdout(&out).lines().count(), 1, "compact is one line");

    let out = patchlab(
        &[
            "apply",
            "--semantics",
            "rfc",
            "tests/fixtures/vmi.yaml",
            "-",
        ],
        patch,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains(r#"target member "tier" does not exist"#),
        "{}",
        stderr(&out)
    );
}

#[test]
fn apply_bad_input_is_a_clear_error() {
    let out = patchlab(
        &["apply", "tests/fixtures/vmi.yaml", "-"],
        "[{\"op\": \"add\",\n \"path\": }]",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("<stdin>: line 2, column 10"),
        "{}",
        stderr(&out)
    );

    let out = patchlab(&["apply", "tests/fixtures/missing.json", "-"], "[]");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("tests/fixtures/missing.json"),
        "{}",
        stderr(&out)
    );

    let out = patchlab(&["apply", "--semantics", "json", "a", "b"], "");
    assert_eq!(out.status.code(), Some(2), "usage error");
    assert!(
        stderr(&out).contains("unknown semantics"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn apply_batch_follows_the_contract() {
    let lines = [
        r#"{"doc":{"a":1},"patch":[{"op":"replace","path":"/a","value":2}]}"#,
        r#"{"doc":{"a":1},"patch":[{"op":"test","path":"/a","value":1.0}]}"#,
        r#"{"doc":{"a":1},"patch":[{"op":"replace","path":"/b","value":2}]}"#,
        "not json",
        r#"{"patch":[]}"#,
        r#"{"doc":{"a":1},"patch":{"op":"remove"}}"#,
        r#"{"doc":{"a":{"b":1}},"patch":"[{\"op\":\"test\",\"path\":\"/a/b\",\"value\":1}]"}"#,
    ];
    let input = lines.join("\n") + "\n";
    let out = patchlab(&["apply", "--batch"], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let results: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(results.len(), lines.len(), "one line out per line in");
    assert_eq!(results[0], json!({"ok": {"a": 2}}));
    assert_eq!(
        results[1],
        json!({"error": {"index": 0, "op": "test", "path": "/a", "message": "test failed: expected 1.0, found 1", "status": 422}})
    );
    assert_eq!(results[2], json!({"ok": {"a": 1, "b": 2}}));
    assert_eq!(results[3]["error"]["index"], Value::Null);
    assert!(results[3]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("not a JSON object"));
    assert!(results[4]["error"]["message"]
        .as_str()
        .unwrap()
        .contains("lacks"));
    assert_eq!(results[5]["error"]["status"], 400);
    assert_eq!(results[6], json!({"ok": {"a": {"b": 1}}}));

    let out = patchlab(&["apply", "--batch", "--semantics", "rfc"], &input);
    let results: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(
        results[1],
        json!({"ok": {"a": 1}}),
        "1.0 equals 1 under the RFC"
    );
    assert!(
        results[2]["error"].get("status").is_none(),
        "no status in rfc mode"
    );
    assert_eq!(results[2]["error"]["index"], 0);
}

#[test]
fn apply_batch_handles_100k_lines() {
    let line = r#"{"doc":{"metadata":{"labels":{"a":"1"}}},"patch":[{"op":"test","path":"/metadata/labels/a","value":"1"},{"op":"add","path":"/metadata/labels/b","value":"2"}]}"#;
    let input = format!("{line}\n").repeat(100_000);
    let out = patchlab(&["apply", "--batch"], &input);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert_eq!(text.lines().count(), 100_000);
    assert!(text
        .lines()
        .all(|l| l == r#"{"ok":{"metadata":{"labels":{"a":"1","b":"2"}}}}"#));
}
