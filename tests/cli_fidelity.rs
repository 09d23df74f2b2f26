//! The CLI against each answer of the modelled kube-apiserver, per release:
//! every status and message as the server (or kubectl) shows it.
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

fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 stdout")
}

fn stderr(output: &Output) -> String {
    String::from_utf8(output.stderr.clone()).expect("UTF-8 stderr")
}

const VMI: &str = "tests/fixtures/vmi.yaml";

/// `apply VMI -` with `patch` on stdin: the server's answer line.
fn answer(extra: &[&str], patch: &str) -> String {
    let mut args = vec!["apply"];
    args.extend_from_slice(extra);
    args.extend_from_slice(&[VMI, "-"]);
    let out = patchlab(&args, patch);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    err.lines()
        .find_map(|l| l.strip_prefix("the server would answer: "))
        .unwrap_or_else(|| panic!("no answer in {err}"))
        .to_owned()
}

#[test]
fn every_status_of_a_json_patch() {
    let cases: &[(&str, &str)] = &[
        (
            r#"{"op":"add","path":"/a","value":1}"#,
            "HTTP 400 BadRequest: error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
        ),
        (
            r#"[{"op":1,"path":"/a"}]"#,
            "HTTP 400 BadRequest: error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string",
        ),
        (
            r#"[{"op":"add","path":"/a","from":["x"]}]"#,
            "HTTP 400 BadRequest: error decoding patch: json: cannot unmarshal array into Go struct field jsonPatchOp.from of type string",
        ),
        (
            r#"[{"op":"remove","path":"/metadata/labels/absent"}]"#,
            "HTTP 422 Invalid: the server rejected our request due to an error in our request",
        ),
        (
            "[null]",
            "HTTP 422 Invalid: the server rejected our request due to an error in our request",
        ),
        (
            r#"[{"op":"replace","path":"/metadata/name","value":"other"}]"#,
            "HTTP 400 BadRequest: the name of the object (other) does not match the name on the URL (testvmi)",
        ),
        (
            r#"[{"op":"replace","path":"/metadata/namespace","value":"prod"}]"#,
            "HTTP 400 BadRequest: the namespace of the provided object does not match the namespace sent on the request",
        ),
    ];
    for (patch, expected) in cases {
        assert_eq!(answer(&[], patch), *expected, "{patch}");
    }
    let many: Vec<String> = (0..10_001)
        .map(|i| format!(r#"{{"op":"add","path":"/metadata/labels/k{i}","value":"v"}}"#))
        .collect();
    assert_eq!(
        answer(&[], &format!("[{}]", many.join(","))),
        "HTTP 413 RequestEntityTooLarge: Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
    );
    let big = format!(
        r#"[{{"op":"add","path":"/metadata/labels/a","value":"{}"}}]"#,
        "x".repeat(3 * 1024 * 1024)
    );
    assert_eq!(
        answer(&[], &big),
        "HTTP 413 RequestEntityTooLarge: Request entity too large: limit is 3145728"
    );
}

#[test]
fn syntax_errors_give_the_location_and_the_servers_words() {
    let out = patchlab(
        &["apply", VMI, "-"],
        "[{\"op\":\"add\",\n \"path\":\"/a\",}]",
    );
    let err = stderr(&out);
    // The patch file is read as YAML when it is not JSON; this one is
    // neither, so it is refused before anything is sent.
    assert_eq!(out.status.code(), Some(1));
    assert!(err.contains("<stdin>"), "{err}");
    // A patch given as a JSON string in a batch line is sent as is.
    let line = r#"{"doc":{"a":1},"patch":"[{\"op\":\"add\",}]"}"#;
    let out = patchlab(&["apply", "--batch"], &format!("{line}\n"));
    let result: Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert_eq!(result["error"]["status"], 400);
    assert_eq!(
        result["error"]["response"],
        "error decoding patch: invalid character '}' looking for beginning of object key string"
    );
}

#[test]
fn engine_panics_by_release() {
    let patch = r#"[{"op":"test","path":"/metadata/absent"}]"#;
    // v4.12.0 (1.25 to 1.34) dereferences nil: the panic filter answers
    // 500 and kubectl shows client-go's wording.
    for version in ["1.25", "1.28", "1.30", "1.34"] {
        assert_eq!(
            answer(&["--kube-version", version], patch),
            r#"HTTP 500 InternalError: an error on the server ("This request caused apiserver to panic. Look in the logs for details.") has prevented the request from succeeding"#,
            "{version}"
        );
    }
    // v4.13.0 (1.35 and later, the default) passes it.
    for extra in [&["--kube-version", "1.35"][..], &[][..]] {
        let mut args = vec!["apply", "--compact"];
        args.extend_from_slice(extra);
        args.extend_from_slice(&[VMI, "-"]);
        let out = patchlab(&args, patch);
        assert!(out.status.success(), "{extra:?}: {}", stderr(&out));
    }
}

#[test]
fn whole_document_ops_by_release() {
    let test_root = r#"[{"op":"test","path":"","value":{"a":1}}]"#;
    let run = |args: &[&str], patch: &str| {
        let mut argv = vec!["apply", "--compact"];
        argv.extend_from_slice(args);
        argv.extend_from_slice(&["tests/fixtures/a1.json", "-"]);
        patchlab(&argv, patch)
    };
    // 1.28.0 and 1.28.1 ran the root of v5.6.0: no whole-document ops.
    let out = run(&["--kube-version", "1.28.0"], test_root);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("cannot target the whole document"),
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("HTTP 422 Invalid"),
        "{}",
        stderr(&out)
    );
    assert!(run(&["--kube-version", "1.28.2"], test_root)
        .status
        .success());
    assert!(run(&["--engine", "evanphx-v4.12.0"], test_root)
        .status
        .success());
    // replace "" with a scalar: ignored by v4.12.0, refused by v4.13.0.
    let scalar = r#"[{"op":"replace","path":"","value":"x"}]"#;
    let out = run(&["--kube-version", "1.30"], scalar);
    assert_eq!(stdout(&out), "{\"a\":1}\n", "{}", stderr(&out));
    let out = run(&[], scalar);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("%!w(<nil>)"), "{}", stderr(&out));
    // --engine overrides the release's own engine.
    let out = run(
        &["--kube-version", "1.36", "--engine", "evanphx-v4.12.0"],
        scalar,
    );
    assert!(out.status.success(), "{}", stderr(&out));
}

#[test]
fn bad_versions_and_engines_list_the_accepted_values() {
    let subcommands: [&[&str]; 5] = [
        &["apply", VMI, VMI],
        &["diff", VMI, VMI],
        &["simulate", "www/scenarios/migration-race.yaml"],
        &["migrate", "--vms", "1"],
        &["explore", "www/scenarios/migration-race.yaml"],
    ];
    for args in subcommands {
        let mut bad = args.to_vec();
        bad.extend_from_slice(&["--kube-version", "1.99"]);
        let out = patchlab(&bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(
            stderr(&out).contains(
                "unknown Kubernetes version \"1.99\": use 1.25 to 1.36 (as 1.X, or 1.X.Y for a patch release"
            ),
            "{bad:?}: {}",
            stderr(&out)
        );
        let mut bad = args.to_vec();
        bad.extend_from_slice(&["--engine", "evanphx-v6"]);
        let out = patchlab(&bad, "");
        assert_eq!(out.status.code(), Some(2), "{bad:?}");
        assert!(
            stderr(&out).contains(
                "unknown engine \"evanphx-v6\": use evanphx-v5.6.0, evanphx-v4.12.0 or evanphx-v4.13.0"
            ),
            "{bad:?}: {}",
            stderr(&out)
        );
    }
}

#[test]
fn merge_patches_as_the_server_runs_them() {
    let body = r#"{"metadata":{"labels":{"kubevirt.io/nodeName":null,"x":"1"}},"status":{"conditions":[{"type":"Ready","reason":null}]}}"#;
    let out = patchlab(&["apply", "--merge", "--compact", VMI, "-"], body);
    assert!(out.status.success(), "{}", stderr(&out));
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        doc["metadata"]["labels"],
        json!({"kubevirt.io/migrationTargetNodeName": "node02", "x": "1"})
    );
    // evanphx prunes the nulls of objects in a list it stores as it is.
    assert_eq!(doc["status"]["conditions"], json!([{"type": "Ready"}]));
    // RFC 7386 keeps them.
    let out = patchlab(
        &[
            "apply",
            "--merge",
            "--semantics",
            "rfc",
            "--compact",
            VMI,
            "-",
        ],
        body,
    );
    let doc: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        doc["status"]["conditions"],
        json!([{"type": "Ready", "reason": null}])
    );
    let cases = [
        (
            "[1]",
            "HTTP 400 BadRequest: error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}",
        ),
        ("null", "HTTP 400 BadRequest: Invalid JSON Patch"),
        (
            r#"{"metadata":{"name":"x"}}"#,
            "HTTP 400 BadRequest: the name of the object (x) does not match the name on the URL (testvmi)",
        ),
    ];
    for (body, expected) in cases {
        assert_eq!(answer(&["--merge"], body), expected, "{body}");
    }
}

#[test]
fn warnings_are_printed_like_kubectl() {
    let out = patchlab(
        &["apply", "--compact", VMI, "-"],
        r#"[{"op":"add","path":"/metadata/labels/a","value":"1","vaule":"typo"}]"#,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stderr(&out),
        "Warning: json patch unknown field \"[0].vaule\"\n"
    );
}

#[test]
fn batch_merge_lines_and_warnings() {
    let lines = [
        r#"{"doc":{"a":{"b":1}},"merge":{"a":{"b":null,"c":[{"d":null}]}}}"#,
        r#"{"doc":{"a":1},"merge":"[1]"}"#,
        r#"{"doc":{"a":1},"patch":[],"merge":{}}"#,
        r#"{"doc":{"a":1},"patch":"[{\"op\":\"add\",\"path\":\"/b\",\"value\":2,\"x\":0}]"}"#,
    ];
    let out = patchlab(&["apply", "--batch"], &(lines.join("\n") + "\n"));
    let results: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(results[0], json!({"ok": {"a": {"c": [{}]}}}));
    assert_eq!(results[1]["error"]["status"], 400);
    assert_eq!(results[2]["error"]["kind"], "bad-line");
    assert_eq!(
        results[3],
        json!({"ok": {"a": 1, "b": 2}, "warnings": ["json patch unknown field \"[0].x\""]})
    );
    let out = patchlab(
        &["apply", "--batch", "--semantics", "rfc"],
        &(lines[0].to_owned() + "\n"),
    );
    assert_eq!(stdout(&out), "{\"ok\":{\"a\":{\"c\":[{\"d\":null}]}}}\n");
}

#[test]
fn simulate_names_the_release_and_hidden_causes() {
    let out = patchlab(
        &[
            "simulate",
            "www/scenarios/migration-race.yaml",
            "--preset",
            "kubevirt-main",
            "--kube-version",
            "1.30",
        ],
        "",
    );
    let text = stdout(&out);
    assert!(
        text.contains("kube-apiserver: Kubernetes 1.30 with evanphx-v4.12.0"),
        "{text}"
    );
    assert!(
        text.contains("hidden cause (patchlab's explanation; the server discards it)"),
        "{text}"
    );
    let out = patchlab(
        &[
            "simulate",
            "www/scenarios/ssa-conflict.yaml",
            "--format",
            "json",
        ],
        "",
    );
    let replay: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(
        replay["cluster"],
        json!({"version": "1.36", "engine": "evanphx-v4.13.0"})
    );
    assert_eq!(
        replay["steps"][3]["response"]["message"],
        r#"Apply failed with 1 conflict: conflict with "virt-handler" using kubevirt.io/v1: .metadata.labels.kubevirt.io/nodeName"#
    );
}

#[test]
fn diff_round_trip_runs_on_the_chosen_engine() {
    let out = patchlab(
        &[
            "diff",
            "tests/fixtures/vmi.yaml",
            "tests/fixtures/vmi-migrating.yaml",
            "--format",
            "explain",
            "--kube-version",
            "1.28.0",
        ],
        "",
    );
    assert!(
        stdout(&out).contains("round trip on evanphx-v5.6.0: old + patch = new"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn migrate_and_explore_take_the_release() {
    let out = patchlab(
        &[
            "migrate",
            "--vms",
            "5",
            "--preset",
            "ssa",
            "--kube-version",
            "1.28.1",
            "--format",
            "json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let out = patchlab(
        &[
            "explore",
            "www/scenarios/migration-race.yaml",
            "--engine",
            "evanphx-v5.6.0",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
}
