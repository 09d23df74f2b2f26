//! The `patchlab` binary, subcommand by subcommand, against fixtures.
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
        json!({"error": {"index": 0, "op": "test", "path": "/a", "kind": "test-failed",
                         "message": "test failed: the bytes differ: sent 1.0, the server stores 1 (one value, but the server compares scalars as bytes, the stored side in Go's encoding)", "expected": 1.0, "actual": 1,
                         "engine": "evanphx-v4.13.0", "status": 422, "reason": "Invalid",
                         "response": "the server rejected our request due to an error in our request"}})
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
    assert_eq!(
        results[5]["error"]["response"],
        "error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp"
    );
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

/// Lines the batch reads in one pass and lines it must read the plain way
/// (an array line, repeated members, escaped names, a null document, a
/// document too deep or with a number out of range): the same answers.
#[test]
fn apply_batch_reads_unusual_lines_as_before() {
    let deep = format!("{}1{}", "[".repeat(127), "]".repeat(127));
    let lines = [
        r#"[{"a":1},[{"op":"add","path":"/b","value":2}]]"#.to_owned(),
        r#"{"doc":{"a":1},"doc":{"a":2},"patch":[]}"#.to_owned(),
        r#"{"patch":[{"op":"add","path":"/b","value":2}],"x":[1,{"y":null}],"d\u006fc":{"a":1}}"#
            .to_owned(),
        r#"{"doc":null,"patch":[]}"#.to_owned(),
        format!(r#"{{"doc":{{"d":{deep}}},"patch":[]}}"#),
        r#"{"doc":{"a":1e400},"patch":[]}"#.to_owned(),
    ];
    let out = patchlab(&["apply", "--batch"], &(lines.join("\n") + "\n"));
    assert!(out.status.success(), "{}", stderr(&out));
    let results: Vec<Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let message = |i: usize| {
        results[i]["error"]["message"]
            .as_str()
            .unwrap_or("")
            .to_owned()
    };
    assert_eq!(results[0], json!({"ok": {"a": 1, "b": 2}}));
    assert_eq!(
        message(1),
        "line is not a JSON object: duplicate field `doc` at line 1 column 20"
    );
    assert_eq!(results[2], json!({"ok": {"a": 1, "b": 2}}));
    assert_eq!(message(3), "line lacks \"doc\", or \"patch\" or \"merge\"");
    assert_eq!(
        message(4),
        "doc: recursion limit exceeded at line 1 column 132"
    );
    assert_eq!(message(5), "doc: number out of range at line 1 column 10");
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

#[test]
fn diff_seed_race_head_and_pr18139_payloads() {
    let head = patchlab(
        &[
            "diff",
            "tests/fixtures/vmi-race-old.json",
            "tests/fixtures/vmi-race-new.json",
            "--preset",
            "kubevirt-main",
        ],
        "",
    );
    assert!(head.status.success(), "{}", stderr(&head));
    assert_eq!(
        stdout(&head),
        "[{\"op\":\"test\",\"path\":\"/metadata/labels\",\"value\":{\"kubevirt.io/nodeName\":\"node01\"}},{\"op\":\"replace\",\"path\":\"/metadata/labels\",\"value\":{\"kubevirt.io/migrationTargetNodeName\":\"node02\",\"kubevirt.io/nodeName\":\"node01\"}}]\n"
    );
    let fixed = patchlab(
        &[
            "diff",
            "tests/fixtures/vmi-race-old.json",
            "tests/fixtures/vmi-race-new.json",
            "--preset",
            "kubevirt-per-key",
        ],
        "",
    );
    assert_eq!(
        stdout(&fixed),
        "[{\"op\":\"add\",\"path\":\"/metadata/labels/kubevirt.io~1migrationTargetNodeName\",\"value\":\"node02\"}]\n"
    );
    // The default preset is kubevirt-per-key.
    let default = patchlab(
        &[
            "diff",
            "tests/fixtures/vmi-race-old.json",
            "tests/fixtures/vmi-race-new.json",
        ],
        "",
    );
    assert_eq!(stdout(&default), stdout(&fixed));
}

#[test]
fn diff_formats() {
    let args = |format: &'static str| {
        vec![
            "diff",
            "tests/fixtures/vmi.yaml",
            "tests/fixtures/vmi-migrating.yaml",
            "--format",
            format,
        ]
    };
    let out = patchlab(&args("kubectl"), "");
    assert!(
        stdout(&out).starts_with(
            "kubectl patch virtualmachineinstance testvmi -n default --type=json -p '[{"
        ),
        "{}",
        stdout(&out)
    );
    let out = patchlab(&args("go"), "");
    assert!(stdout(&out).contains("patch.WithAdd(\"/metadata/labels/\"+patch.EscapeJSONPointer(\"kubevirt.io/outdatedLauncherImage\"), \"\")"), "{}", stdout(&out));
    let out = patchlab(&args("rust"), "");
    assert!(
        stdout(&out)
            .contains(".add(\"/metadata/labels/kubevirt.io~1outdatedLauncherImage\", json!(\"\"))"),
        "{}",
        stdout(&out)
    );
    let out = patchlab(&args("explain"), "");
    let text = stdout(&out);
    assert!(text.contains("why: new key: add without test"), "{text}");
    assert!(text.contains("conflict surface"), "{text}");
    assert!(
        text.contains("/status/interfaces: a concurrent change"),
        "{text}"
    );
    // Applying the JSON output to the old object gives the new one.
    let payload = stdout(&patchlab(&args("json"), ""));
    let applied = patchlab(
        &["apply", "--compact", "tests/fixtures/vmi.yaml", "-"],
        &payload,
    );
    assert!(applied.status.success(), "{}", stderr(&applied));
    let expected = stdout(&patchlab(
        &[
            "apply",
            "--compact",
            "tests/fixtures/vmi-migrating.yaml",
            "-",
        ],
        "[]",
    ));
    assert_eq!(stdout(&applied), expected);
}

#[test]
fn diff_overrides_presets_and_no_changes() {
    let out = patchlab(
        &[
            "diff",
            "tests/fixtures/vmi-race-old.json",
            "tests/fixtures/vmi-race-new.json",
            "--set",
            "metadata.labels=whole-map",
        ],
        "",
    );
    assert!(
        stdout(&out).starts_with("[{\"op\":\"test\",\"path\":\"/metadata/labels\""),
        "{}",
        stdout(&out)
    );
    let out = patchlab(
        &[
            "diff",
            "tests/fixtures/vmi-race-old.json",
            "tests/fixtures/vmi-race-new.json",
            "--preset",
            "merge",
        ],
        "",
    );
    assert_eq!(
        stdout(&out),
        "{\"metadata\":{\"labels\":{\"kubevirt.io/migrationTargetNodeName\":\"node02\"}}}\n"
    );
    let out = patchlab(
        &[
            "diff",
            "tests/fixtures/vmi-race-old.json",
            "tests/fixtures/vmi-race-new.json",
            "--preset",
            "ssa",
            "--format",
            "kubectl",
        ],
        "",
    );
    assert!(
        stdout(&out).starts_with(
            "kubectl apply --server-side --field-manager=patchlab -f - <<'PATCHLAB_EOF'\n"
        ),
        "{}",
        stdout(&out)
    );
    let out = patchlab(
        &["diff", "tests/fixtures/vmi.yaml", "tests/fixtures/vmi.yaml"],
        "",
    );
    assert!(out.status.success());
    assert!(stdout(&out).is_empty());
    assert!(stderr(&out).contains("no changes"));
    let out = patchlab(
        &[
            "diff",
            "tests/fixtures/vmi.yaml",
            "-",
            "--set",
            "/x=nonsense",
        ],
        "{}",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("unknown strategy"),
        "{}",
        stderr(&out)
    );
    let out = patchlab(&["diff", "tests/fixtures/vmi.yaml", "-"], "[1, 2]");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("new object must be a JSON object"),
        "{}",
        stderr(&out)
    );
    let out = patchlab(
        &[
            "diff",
            "tests/fixtures/vmi.yaml",
            "-",
            "--format",
            "go",
            "--preset",
            "merge",
        ],
        "{\"a\": 1}",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("Go export is for JSON patches"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn simulate_prints_steps_and_outcomes() {
    let out = patchlab(
        &[
            "simulate",
            "www/scenarios/migration-race.yaml",
            "--preset",
            "kubevirt-main",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("3. virt-controller sends a JSON patch (6 ops): 422 Invalid at op 0 (test /metadata/labels): a true conflict: the request, forced onto the object as it stood, would have undone virt-handler's changes (label kubevirt.io/nodeName = node02, remove label kubevirt.io/outdatedLauncherImage), so the failure kept them"), "{text}");
    assert!(text.contains("; judged on its intent, a needless failure: what it meant, done afresh on the object as it stood, undoes no change another writer made since its read"), "{text}");
    assert!(
        text.contains(
            "response: 422 Invalid: the server rejected our request due to an error in our request"
        ),
        "{text}"
    );
    assert!(text.contains("every intent holds: yes"), "{text}");
    assert!(
        text.contains(
            "false: Judged on the request: a write failed (422 or 409), and its request as sent, forced onto the object as it stood"
        ),
        "the legend defines the columns: {text}"
    );
    let json = patchlab(
        &[
            "simulate",
            "www/scenarios/migration-race.yaml",
            "--preset",
            "naive",
            "--format",
            "json",
        ],
        "",
    );
    let replay: Value = serde_json::from_str(&stdout(&json)).unwrap();
    assert_eq!(replay["outcomes"]["intents_hold"], false);
    assert_eq!(replay["outcomes"]["writers"][1]["lost_updates"], 2);
    assert_eq!(
        replay["outcomes"]["writers"][1]["end"]["state"],
        "succeeded"
    );
    assert_eq!(
        replay["outcomes"]["lost_updates"].as_array().unwrap().len(),
        2
    );
    assert_eq!(replay["steps"][3]["response"]["code"], 200);
    let bad = patchlab(&["simulate", "-"], "name: x\n");
    assert_eq!(bad.status.code(), Some(1));
    assert!(
        stderr(&bad).contains("missing field `objects`"),
        "{}",
        stderr(&bad)
    );
}

/// The JSON contract other tools depend on, and determinism.
#[test]
fn migrate_json_contract_and_determinism() {
    let args = ["migrate", "--vms", "300", "--seed", "1", "--format", "json"];
    let first = stdout(&patchlab(&args, ""));
    let second = stdout(&patchlab(&args, ""));
    assert_eq!(first, second, "two runs print identical numbers");
    let result: Value = serde_json::from_str(&first).unwrap();
    assert_eq!(result["vms"], 300);
    assert_eq!(result["seed"], 1);
    let presets = result["presets"].as_array().unwrap();
    let names: Vec<&str> = presets
        .iter()
        .map(|p| p["preset"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "kubevirt-main",
            "kubevirt-per-key",
            "naive",
            "optimistic",
            "merge",
            "ssa",
            "update"
        ]
    );
    let fields = [
        "writes",
        "ok",
        "invalid",
        "conflict",
        "false_conflicts",
        "needless_failures_on_maps",
        "true_conflicts",
        "lost_updates",
        "retries",
        "gave_up",
    ];
    for p in presets {
        assert!(p["vmis_intent_not_held"].is_u64(), "{p}");
        let writers = p["writers"].as_array().unwrap();
        let names: Vec<&str> = writers
            .iter()
            .map(|w| w["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["virt-controller", "migration-controller", "virt-handler"]
        );
        for field in fields {
            // The total is the sum of the writers' counts.
            let sum: u64 = writers.iter().map(|w| w[field].as_u64().unwrap()).sum();
            assert_eq!(p["total"][field].as_u64(), Some(sum), "{field} in {p}");
        }
    }
    let by = |name: &str| presets.iter().find(|p| p["preset"] == name).unwrap();
    assert_eq!(
        by("kubevirt-per-key")["total"]["needless_failures_on_maps"],
        0
    );
    assert!(
        by("kubevirt-main")["total"]["needless_failures_on_maps"]
            .as_u64()
            .unwrap()
            > 50
    );
    // virt-handler always sends Update: whatever the preset, it gets 409s
    // and never a 422.
    for p in presets {
        let handler = &p["writers"][2];
        assert_eq!(handler["preset"], "update", "{p}");
        assert_eq!(handler["invalid"], 0, "{p}");
    }
    let one = patchlab(
        &[
            "migrate", "--vms", "10", "--preset", "naive", "--preset", "merge", "--format", "json",
        ],
        "",
    );
    let one: Value = serde_json::from_str(&stdout(&one)).unwrap();
    assert_eq!(one["presets"].as_array().unwrap().len(), 2);
    // A flag out of its range is a usage error that names the range,
    // whatever the wrong value looks like.
    for vms in ["0", "-1", "1.5", "ten", "100001", "99999999999999999999999"] {
        let bad = patchlab(&["migrate", "--vms", vms], "");
        assert_eq!(bad.status.code(), Some(2), "--vms {vms}");
        let err = stderr(&bad);
        assert!(
            err.contains(&format!(
                "invalid value '{vms}' for '--vms <VMS>': must be a whole number from 1 to 100000"
            )),
            "--vms {vms}: {err}"
        );
        assert!(bad.stdout.is_empty());
    }
    for (flag, value, range) in [
        ("--churn", "9", "from 0 to 8"),
        ("--retries", "-1", "from 0 to 8"),
        ("--seed", "-1", "from 0 to 18446744073709551615"),
    ] {
        let bad = patchlab(&["migrate", flag, value], "");
        assert_eq!(bad.status.code(), Some(2), "{flag} {value}");
        assert!(
            stderr(&bad).contains(&format!("must be a whole number {range}")),
            "{flag} {value}: {}",
            stderr(&bad)
        );
    }
}

#[test]
fn explore_counts_interleavings() {
    let out = patchlab(
        &[
            "explore",
            "www/scenarios/migration-race.yaml",
            "--format",
            "json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let result: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(result["interleavings"].as_array().unwrap().len(), 20);
    assert_eq!(result["presets"].as_array().unwrap().len(), 7);
    let text = stdout(&patchlab(
        &["explore", "www/scenarios/migration-race.yaml"],
        "",
    ));
    assert!(text.contains("20 interleavings"), "{text}");
    // Whose it is, named: under per-key only virt-handler's Update fails.
    assert!(
        text.contains("kubevirt-per-key (every writer uses it, except: virt-handler keeps its own preset (update)):\n  a 422 or 409                    6 of 20 (virt-handler 6)"),
        "{text}"
    );
    // The old preset names are still read; the new ones are shown.
    let old = stdout(&patchlab(
        &[
            "simulate",
            "www/scenarios/migration-race.yaml",
            "--preset",
            "kubevirt-main",
        ],
        "",
    ));
    assert!(
        old.contains("preset: kubevirt-main (fixed writers keep their own)"),
        "{old}"
    );
}

/// A writer whose failed write nothing retries is counted as never
/// retried, apart from intents that do not hold for other reasons, and
/// the explorer says it has no retry scheduled.
#[test]
fn explore_counts_never_retried_apart() {
    let scenario = std::fs::read_to_string("www/scenarios/finalizer-race.yaml").unwrap();
    let without = scenario.replace("  - retry: backup-controller\n", "");
    assert_ne!(scenario, without);
    let text = stdout(&patchlab(&["explore", "-"], &without));
    assert!(
        text.contains("no retry is scheduled for backup-controller: in every order, its failed write stays failed"),
        "{text}"
    );
    assert!(
        text.contains("kubevirt-main (every writer uses it):\n  a 422 or 409                    6 of 10 (virt-controller 2, backup-controller 4); first: interleaving 4 at step 5\n  a false conflict                0 of 10\n  a needless failure (intent)     6 of 10 (virt-controller 2, backup-controller 4); first: interleaving 4 at step 5\n  a lost update                   0 of 10\n  a write never retried           4 of 10 (backup-controller 4); first: interleaving 4 at step 5\n  intent not held, other reason   0 of 10\n"),
        "{text}"
    );
    let json: Value = serde_json::from_str(&stdout(&patchlab(
        &["explore", "-", "--format", "json"],
        &without,
    )))
    .unwrap();
    assert_eq!(
        json["without_retry"],
        serde_json::json!(["backup-controller"])
    );
    let main = &json["presets"][0];
    assert_eq!(main["never_retried"]["count"], 4);
    let story = &main["stories"][3];
    assert_eq!(story["happenings"][0]["what"], "failed");
    assert_eq!(story["writers"][1]["not_held"]["reason"], "not-retried");
    // simulate says why, in the same words.
    let text = stdout(&patchlab(
        &["simulate", "-", "--preset", "naive"],
        &scenario,
    ));
    assert!(
        text.contains("backup-controller's intent does not hold: virt-controller's write erased its change (add finalizer backup.example.com/protect) without having read it: a lost update"),
        "{text}"
    );
}

#[test]
fn lint_text_names_rule_op_path_and_fix_and_exits_1_on_warnings() {
    let payload = r#"[{"op":"test","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01"}},{"op":"replace","path":"/metadata/labels","value":{"kubevirt.io/migrationTargetNodeName":"node02","kubevirt.io/nodeName":"node01"}}]"#;
    let out = patchlab(&["lint", "-"], payload);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(
        text.starts_with("warning[whole-map-test]: op 0 tests the whole map /metadata/labels"),
        "{text}"
    );
    assert!(
        text.contains("  --> <stdin>:1:2 (op 0 /metadata/labels)"),
        "{text}"
    );
    assert!(text.contains(r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#), "{text}");
    assert!(text.trim_end().ends_with("1 warning"), "{text}");
    assert!(
        stderr(&out).is_empty(),
        "findings are not errors: {}",
        stderr(&out)
    );
}

#[test]
fn lint_exits_0_on_notes_only_and_reads_kubectl_commands() {
    let command = r#"kubectl patch vmi testvmi --type=json -p '[{"op":"add","path":"/metadata/labels/kubevirt.io~1nodeName","value":"node02"}]'"#;
    let out = patchlab(
        &["lint", "-", "--object", "tests/fixtures/vmi.yaml"],
        command,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}{}",
        stdout(&out),
        stderr(&out)
    );
    let text = stdout(&out);
    assert!(
        text.starts_with("kubectl patch vmi testvmi: application/json-patch+json"),
        "{text}"
    );
    assert!(text.contains("note[add-without-test]"), "{text}");
    assert!(
        text.contains("applies to the current object (kube semantics)"),
        "{text}"
    );
    let out = patchlab(&["lint", "-"], r#"[{"op":"test","path":"/a","value":1}]"#);
    assert_eq!(out.status.code(), Some(0));
    assert!(stdout(&out).contains("no findings"), "{}", stdout(&out));
}

#[test]
fn lint_json_has_the_documented_fields() {
    let out = patchlab(
        &[
            "lint",
            "-",
            "--format",
            "json",
            "--object",
            "tests/fixtures/vmi.yaml",
            "--semantics",
            "rfc",
        ],
        r#"[{"op":"remove","path":"/metadata/finalizers/1"},{"op":"replace","path":"/status/reason","value":"x"}]"#,
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let findings = report["findings"].as_array().unwrap();
    let rules: Vec<&str> = findings
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert_eq!(
        rules,
        ["index-without-test", "fails-now", "engine-dependent"],
        "{report:#}"
    );
    for finding in findings {
        for key in ["rule", "severity", "index", "path", "message", "fix"] {
            assert!(finding.get(key).is_some(), "{key} in {finding}");
        }
    }
    let index = &findings[0];
    assert_eq!(index["index"], 0);
    assert_eq!(index["path"], "/metadata/finalizers/1");
    assert_eq!(
        index["fix"][0],
        json!({"op": "test", "path": "/metadata/finalizers/1", "value": "foregroundDeleteVirtualMachine"})
    );
    assert_eq!(report["semantics"], "rfc");
    assert_eq!(report["outcome"]["applies"], false);
    assert_eq!(report["outcome"]["index"], 1);
    assert_eq!(
        report["outcome"]["response"],
        Value::Null,
        "RFC mode has no server response"
    );
}

#[test]
fn lint_sarif_is_2_1_0_with_rules_and_regions() {
    let dir = std::env::temp_dir().join(format!("patchlab-lint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("patch.json");
    std::fs::write(
        &file,
        "[\n  {\"op\":\"test\",\"path\":\"/spec/replicas\",\"value\":1.0}\n]\n",
    )
    .unwrap();
    let out = patchlab(&["lint", file.to_str().unwrap(), "--format", "sarif"], "");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let log: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(log["version"], "2.1.0");
    let run = &log["runs"][0];
    assert_eq!(run["tool"]["driver"]["name"], "patchlab");
    let result = &run["results"][0];
    assert_eq!(result["ruleId"], "test-never-matches");
    assert_eq!(result["level"], "error");
    let location = &result["locations"][0]["physicalLocation"];
    assert_eq!(location["artifactLocation"]["uri"], file.to_str().unwrap());
    assert_eq!(
        location["region"],
        json!({"startLine": 2, "startColumn": 3})
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Text that reads but fails as written (the server cannot decode it,
/// kubectl or the shell refuses it): exit 1 with the finding that says
/// what and where, not a refusal.
#[test]
fn lint_text_that_fails_as_written_exits_1_with_its_finding() {
    let cases = [
        (
            "[{\"op\":\"add\",\n \"path\": }]",
            "undecodable-body",
            "(line 2, column 10): it answers 400 BadRequest: error decoding patch: invalid character '}' looking for beginning of value",
        ),
        (
            "kubectl patch vmi x --type=yaml -p '{}'",
            "command-fails",
            "--type must be one of [json merge strategic], not \"yaml\"",
        ),
        (
            "kubectl patch vmi x --type=merge -p '{\"a\": 1}",
            "command-fails",
            "a single quote (') opened here is never closed",
        ),
    ];
    for (stdin, rule, message) in cases {
        let out = patchlab(&["lint", "-", "--format", "json"], stdin);
        assert_eq!(out.status.code(), Some(1), "{stdin}: {}", stderr(&out));
        let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
        let finding = &report["findings"][0];
        assert_eq!(finding["rule"], rule, "{stdin}");
        assert_eq!(finding["severity"], "error", "{stdin}");
        assert!(
            finding["message"].as_str().unwrap().contains(message),
            "{stdin}: {finding}"
        );
        // The text output says nothing was sent instead of listing a
        // conflict surface.
        let out = patchlab(&["lint", "-"], stdin);
        assert!(
            !stdout(&out).contains("conflict surface"),
            "{}",
            stdout(&out)
        );
    }
    // A patch file that cannot be opened: a note with kubectl's words, and
    // only the command is judged (exit 0).
    let out = patchlab(
        &["lint", "-"],
        "kubectl patch vmi x --type=json --patch-file no/such/patch.json",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("note[body-unknown]: the patch is the file --patch-file no/such/patch.json names (kubectl: unable to read patch file: open no/such/patch.json"),
        "{}",
        stdout(&out)
    );
    // A body set elsewhere in the script: a note, and only the command is
    // judged (exit 0).
    let out = patchlab(
        &["lint", "-"],
        "kubectl patch cm x --type=merge -p \"$PATCH\"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("note[body-unknown]: the patch is $PATCH"),
        "{}",
        stdout(&out)
    );
}

#[test]
fn lint_unreadable_input_exits_2_with_where() {
    let cases = [
        (
            vec!["lint", "-"],
            "[1, 2]",
            "patchlab: <stdin>: patch: op 0: is not a JSON object",
        ),
        (
            vec!["lint", "no/such/file.json"],
            "",
            "patchlab: no/such/file.json:",
        ),
        (
            vec![
                "lint",
                "-",
                "--object",
                "tests/fixtures/finalizer-remove.json",
            ],
            "[]",
            "object: expected a Kubernetes object (a JSON object), found an array",
        ),
    ];
    for (args, stdin, message) in cases {
        let out = patchlab(&args, stdin);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(message), "{args:?}: {}", stderr(&out));
        assert!(stdout(&out).is_empty());
    }
}

/// `kubectl patch` lines as runbooks write them: `--patch-file` opened
/// relative to the current directory, the shell around named, and a
/// strategic merge patch to a custom resource found out (415).
#[test]
fn lint_reads_patch_files_shell_and_strategic_merge_patches() {
    let out = patchlab(
        &["lint", "-"],
        "for n in $(kubectl get vmi -o name); do kubectl patch $n --type=json --patch-file tests/fixtures/whole-map-labels.json; done",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.contains("inside shell: a for block"), "{text}");
    assert!(text.contains("warning[whole-map-test]"), "{text}");
    let out = patchlab(
        &["lint", "-", "--format", "json"],
        "kubectl patch vmi testvmi -p '{\"metadata\":{\"labels\":{\"a\":\"b\"}}}'",
    );
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["kind"], "strategic-merge-patch");
    assert_eq!(report["findings"][0]["rule"], "smp-custom-resource");
    assert!(report["findings"][0]["message"]
        .as_str()
        .unwrap()
        .contains("the server answers HTTP 415 UnsupportedMediaType: the body of the request was in an unknown format"));
    // A body sent as a strategic merge patch (--type), against a Deployment:
    // the engine's outcome, and what each type would do with the list.
    let out = patchlab(
        &[
            "lint",
            "-",
            "--type",
            "strategic",
            "--kind",
            "Deployment",
            "--format",
            "json",
        ],
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"web-2","image":"redis"}]}}}}"#,
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
    assert_eq!(report["kind"], "strategic-merge-patch");
    assert_eq!(
        report["types"]["lists"][0]["strategic"],
        "merged by name: the containers you list are added or updated field by field, every other container stays"
    );
    // A list cannot be sent as one.
    let out = patchlab(&["lint", "-", "--type", "strategic"], "[]");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--type: "), "{}", stderr(&out));
}

/// `patchlab diff` output piped into `patchlab lint`: the payload and the
/// kubectl command line of every JSON patch preset.
#[test]
fn lint_reads_what_diff_writes() {
    for preset in [
        "kubevirt-main",
        "kubevirt-per-key",
        "naive",
        "optimistic",
        "merge",
    ] {
        for format in ["json", "kubectl"] {
            let diff = patchlab(
                &[
                    "diff",
                    "tests/fixtures/vmi-race-old.json",
                    "tests/fixtures/vmi-race-new.json",
                    "--preset",
                    preset,
                    "--format",
                    format,
                ],
                "",
            );
            assert!(diff.status.success(), "{}", stderr(&diff));
            let out = patchlab(
                &[
                    "lint",
                    "-",
                    "--object",
                    "tests/fixtures/vmi-race-old.json",
                    "--format",
                    "json",
                ],
                &stdout(&diff),
            );
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "{preset} {format}: {}",
                stderr(&out)
            );
            let report: Value = serde_json::from_str(&stdout(&out)).unwrap();
            assert_eq!(
                report["outcome"]["applies"], true,
                "{preset} {format}: {report:#}"
            );
            let has_whole_map = report["findings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|f| f["rule"] == "whole-map-test");
            assert_eq!(
                has_whole_map,
                preset == "kubevirt-main",
                "{preset} {format}: {report:#}"
            );
        }
    }
}

#[test]
fn migrate_churn_and_retry_budget_flags() {
    let out = patchlab(
        &[
            "migrate",
            "--vms",
            "30",
            "--seed",
            "2",
            "--churn",
            "2",
            "--retries",
            "0",
            "--preset",
            "kubevirt-main",
            "--format",
            "json",
        ],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let result: Value = serde_json::from_str(&stdout(&out)).unwrap();
    let writers = result["presets"][0]["writers"].as_array().unwrap();
    let names: Vec<&str> = writers
        .iter()
        .map(|w| w["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "virt-controller",
            "migration-controller",
            "virt-handler",
            "churn-1",
            "churn-2"
        ]
    );
    assert_eq!(
        result["presets"][0]["total"]["retries"], 0,
        "no retry budget"
    );
    // The defaults are today's numbers.
    let default = patchlab(
        &["migrate", "--vms", "50", "--seed", "3", "--format", "json"],
        "",
    );
    let explicit = patchlab(
        &[
            "migrate",
            "--vms",
            "50",
            "--seed",
            "3",
            "--churn",
            "0",
            "--retries",
            "2",
            "--format",
            "json",
        ],
        "",
    );
    assert_eq!(stdout(&default), stdout(&explicit));
    let golden: Value =
        serde_json::from_str(include_str!("golden/migrate-50-seed-3.json")).unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&stdout(&default)).unwrap(),
        golden
    );
    let bad = patchlab(&["migrate", "--churn", "9"], "");
    assert!(!bad.status.success());
    assert!(stderr(&bad).contains("churn"), "{}", stderr(&bad));
}

// ------------------------------------------- apply --type strategic|merge|json

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

/// `--kube-version` picks the release's schemas: a field it does not have
/// is unknown there (kubectl 1.32 refuses it in the same words), a group
/// version it does not serve answers the routing's 404.
#[test]
fn strategic_reads_the_schemas_of_the_release() {
    let pod = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"a","restartPolicyRules":[{"action":"Restart"}]}]}}"#;
    let body = r#"{"spec":{"containers":[{"name":"a","restartPolicyRules":[{"action":"Restart","exitCodes":{"operator":"In","values":[42]}}]}]}}"#;
    let file = std::env::temp_dir().join(format!("patchlab-cli-pod-{}.json", std::process::id()));
    std::fs::write(&file, pod).unwrap();
    let file = file.to_str().unwrap();
    let run = |version: &str| {
        patchlab(
            &[
                "apply",
                "--type",
                "strategic",
                "--kube-version",
                version,
                file,
                "-",
            ],
            body,
        )
    };
    let out = run("1.36");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let out = run("1.32");
    assert_eq!(
        stderr(&out),
        "patchlab: at /spec/containers/0: unable to find api field in struct Container for the json field \"restartPolicyRules\"\n\
         the server would answer: HTTP 500: unable to find api field in struct Container for the json field \"restartPolicyRules\"\n"
    );
    let old = r#"{"apiVersion":"batch/v1beta1","kind":"CronJob","metadata":{"name":"c"}}"#;
    std::fs::write(file, old).unwrap();
    let out = run("1.32");
    assert_eq!(
        stderr(&out),
        "patchlab: the server could not find the requested resource (patch cronjobs.batch c)\n\
         the server would answer: HTTP 404 NotFound: the server could not find the requested resource (patch cronjobs.batch c)\n"
    );
    let _ = std::fs::remove_file(file);
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

#[test]
fn lint_takes_the_release_and_reads_merge_bodies_as_the_server() {
    // A test without a value on a missing member: 1.25 to 1.34's engine
    // panics (500), 1.35 and later pass it.
    let patch = r#"[{"op":"test","path":"/metadata/absent"}]"#;
    let json = |args: &[&str], stdin: &str| -> serde_json::Value {
        let mut all = vec![
            "lint",
            "-",
            "--object",
            "tests/fixtures/vmi.yaml",
            "--format",
            "json",
        ];
        all.extend_from_slice(args);
        let out = patchlab(&all, stdin);
        serde_json::from_str(&stdout(&out)).unwrap_or_else(|e| panic!("{e}: {}", stderr(&out)))
    };
    assert_eq!(json(&[], patch)["outcome"]["applies"], true);
    let old = json(&["--kube-version", "1.30"], patch);
    assert_eq!(old["outcome"]["applies"], false);
    assert_eq!(old["outcome"]["response"]["code"], 500, "{old}");
    let engine = json(&["--engine", "evanphx-v4.12.0"], patch);
    assert_eq!(engine["outcome"]["response"]["code"], 500);
    // A merge body's nulls inside a list are pruned as the server prunes
    // them: the result is the object as it is (RFC 7386 keeps the null).
    let body = r#"{"status":{"interfaces":[{"name":"default","mac":null}]}}"#;
    let object = r#"{"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstance","metadata":{"name":"x"},"status":{"interfaces":[{"name":"default"}]}}"#;
    let dir = std::env::temp_dir().join(format!("patchlab-lint-merge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("vmi.json");
    std::fs::write(&file, object).unwrap();
    let run = |semantics: &str| -> serde_json::Value {
        let out = patchlab(
            &[
                "lint",
                "-",
                "--object",
                file.to_str().unwrap(),
                "--format",
                "json",
                "--semantics",
                semantics,
            ],
            body,
        );
        serde_json::from_str(&stdout(&out)).unwrap()
    };
    assert_eq!(run("kube")["outcome"]["unchanged"], true);
    assert_eq!(run("rfc")["outcome"]["unchanged"], false);
    let _ = std::fs::remove_dir_all(&dir);
    let out = patchlab(&["lint", "-", "--kube-version", "1.2"], patch);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}

#[test]
fn apply_prints_numbers_as_the_server_writes_them() {
    let doc = r#"{"n":[-0,1.0,1e-6,18446744073709551616,1e21,1.5],"s":"<b>"}"#;
    let dir = std::env::temp_dir().join(format!("patchlab-numbers-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("doc.json");
    std::fs::write(&file, doc).unwrap();
    let path = file.to_str().unwrap();
    let out = patchlab(&["apply", "--compact", path, "-"], "[]");
    assert_eq!(
        stdout(&out).trim_end(),
        r#"{"n":[0,1,0.000001,18446744073709552000,1e+21,1.5],"s":"<b>"}"#
    );
    let out = patchlab(
        &["apply", "--compact", "--literal-numbers", path, "-"],
        "[]",
    );
    assert_eq!(
        stdout(&out).trim_end(),
        r#"{"n":[-0,1.0,1e-6,18446744073709551616,1e21,1.5],"s":"<b>"}"#
    );
    // As read, in the document and in the patch, under --semantics rfc too.
    let patch = r#"[{"op":"add","path":"/big","value":12345678901234567890123},{"op":"add","path":"/f","value":2.50E+1}]"#;
    for flag in ["--literal-numbers", "--semantics=rfc"] {
        let out = patchlab(&["apply", "--compact", flag, path, "-"], patch);
        assert_eq!(
            stdout(&out).trim_end(),
            r#"{"big":12345678901234567890123,"f":2.50E+1,"n":[-0,1.0,1e-6,18446744073709551616,1e21,1.5],"s":"<b>"}"#,
            "{flag}"
        );
    }
    let out = patchlab(
        &["apply", "--batch", "--literal-numbers"],
        "{\"doc\":{\"a\":1.50},\"patch\":[{\"op\":\"add\",\"path\":\"/b\",\"value\":99999999999999999999999}]}\n",
    );
    assert_eq!(
        stdout(&out),
        "{\"ok\":{\"a\":1.50,\"b\":99999999999999999999999}}\n"
    );
    // Two texts of one f64: printed as serde_json writes it, with a note.
    let out = patchlab(
        &["apply", "--compact", "--literal-numbers", path, "-"],
        r#"[{"op":"add","path":"/x","value":1.50}]"#,
    );
    assert!(stdout(&out).contains(r#""x":1.5"#), "{}", stdout(&out));
    assert!(
        stderr(&out).contains("two texts read as the number 1.5"),
        "{}",
        stderr(&out)
    );
    let out = patchlab(
        &["apply", "--batch"],
        &format!("{{\"doc\":{doc},\"patch\":[]}}\n"),
    );
    assert_eq!(
        stdout(&out),
        "{\"ok\":{\"n\":[0,1,0.000001,18446744073709552000,1e+21,1.5],\"s\":\"<b>\"}}\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn migrate_shows_a_strategic_writer_refused_with_415_not_conflicts() {
    let out = patchlab(
        &[
            "migrate",
            "--vms",
            "4",
            "--preset",
            "strategic",
            "--format",
            "json",
        ],
        "",
    );
    let result: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    let total = &result["presets"][0]["total"];
    assert_eq!(result["presets"][0]["preset"], "strategic");
    // Every controller write is refused (415), none as a conflict.
    assert!(total["other_errors"].as_u64().unwrap() >= 8, "{total}");
    for key in [
        "invalid",
        "false_conflicts",
        "true_conflicts",
        "lost_updates",
    ] {
        assert_eq!(total[key], 0, "{key}: {total}");
    }
    let text = stdout(&patchlab(
        &["migrate", "--vms", "4", "--preset", "strategic"],
        "",
    ));
    assert!(text.contains("   other "), "{text}");
    assert!(
        text.contains("415 (a strategic merge patch to a custom resource)"),
        "{text}"
    );
    // Without such failures the table keeps its columns.
    let text = stdout(&patchlab(
        &["migrate", "--vms", "4", "--preset", "merge"],
        "",
    ));
    assert!(!text.contains("   other "), "{text}");
}

mod audit;

/// Every verdict `patchlab simulate` prints satisfies its definition: each
/// step's line is the replay's own, which the audit judges again from the
/// recorded objects and requests, under each writer's preset and every
/// preset, for every shipped scenario; the outcomes rows count them.
#[test]
fn simulate_prints_only_verdicts_that_match_their_definitions() {
    use patchlab::sim::timeline::{replay, Scenario};
    for entry in std::fs::read_dir("www/scenarios").unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("yaml") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let scenario = Scenario::parse(&text).unwrap();
        for preset in std::iter::once(None).chain(patchlab::strategy::Preset::ALL.map(Some)) {
            let replayed = replay(&scenario, preset).unwrap();
            audit::check(&scenario, &replayed)
                .unwrap_or_else(|e| panic!("{} {preset:?}: {e}", path.display()));
            let mut args = vec!["simulate", path.to_str().unwrap()];
            let name = preset.map(|p| p.as_str());
            if let Some(name) = name {
                args.extend(["--preset", name]);
            }
            let out = stdout(&patchlab(&args, ""));
            for step in &replayed.steps {
                let line = format!("{:>2}. {}", step.index, step.summary);
                assert!(out.contains(&line), "{}: {line}\n{out}", path.display());
            }
        }
    }
}
