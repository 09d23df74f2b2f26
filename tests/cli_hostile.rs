//! The `patchlab` binary against hostile or merely unlucky input (issue
//! #26): list options over budget are clap errors before any work,
//! repeats run once, control characters from user data never reach the
//! terminal raw (JSON and SARIF stay exact), and `apply --batch` answers a
//! last line that has no newline while its writer waits.
#![cfg(not(target_arch = "wasm32"))]

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Output, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

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

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).expect("UTF-8")
}

/// A scratch file under target/ with `contents`.
fn scratch(name: &str, contents: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("cli_hostile");
    std::fs::create_dir_all(&dir).expect("scratch dir");
    let path = dir.join(name);
    std::fs::write(&path, contents).expect("scratch file");
    path.to_string_lossy().into_owned()
}

#[test]
fn twenty_thousand_preset_flags_are_one_preset_read_once() {
    // The bound counts different presets (there are fewer presets than
    // it): a flag repeated 20,000 times is read, and runs, once.
    let mut args = vec!["migrate", "--vms", "10", "--format", "json"];
    args.extend(std::iter::repeat_n(["--preset", "naive"], 20_000).flatten());
    let started = Instant::now();
    let out = patchlab(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(result["presets"].as_array().unwrap().len(), 1);
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn repeated_presets_run_once() {
    let base = ["migrate", "--vms", "10", "--format", "json"];
    let mut args = base.to_vec();
    args.extend(std::iter::repeat_n(["--preset", "naive"], 10).flatten());
    args.extend(["--preset", "kubevirt-main", "--preset", "naive"]);
    let out = patchlab(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    let presets: Vec<&str> = result["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["preset"].as_str().unwrap())
        .collect();
    assert_eq!(presets, ["naive", "kubevirt-main"]);
}

#[test]
fn too_many_overrides_are_a_clap_error() {
    let old = scratch("old.json", r#"{"metadata":{"labels":{"a":"1"}}}"#);
    let new = scratch("new.json", r#"{"metadata":{"labels":{"a":"2"}}}"#);
    let sets: Vec<String> = (0..1_001)
        .map(|i| format!("/spec/f{i}=test-replace"))
        .collect();
    let mut args = vec!["diff", old.as_str(), new.as_str()];
    for set in &sets {
        args.extend(["--set", set.as_str()]);
    }
    let out = patchlab(&args, "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("1001 --set paths, more than the limit of 1000"),
        "{}",
        text(&out.stderr)
    );
    // A path set again counts once (the last --set of it holds).
    let mut again = args.clone();
    again.truncate(again.len() - 2);
    for _ in 0..10 {
        again.extend(["--set", sets[0].as_str()]);
    }
    let out = patchlab(&again, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    args.truncate(args.len() - 2);
    let out = patchlab(&args, "");
    assert!(out.status.success(), "{}", text(&out.stderr));
}

/// A key that would clear the screen and retitle the terminal.
const HOSTILE: &str = "a\u{1b}[2J\u{1b}]0;owned\u{7}\u{9b}31m";

#[test]
fn lint_text_escapes_control_characters_and_json_keeps_them_exact() {
    let key = serde_json::to_string(HOSTILE).unwrap();
    let patch = format!(
        r#"[{{"op":"remove","path":"/metadata/labels/{}"}}]"#,
        &key[1..key.len() - 1]
    );
    let out = patchlab(&["lint", "-"], &patch);
    let stdout = text(&out.stdout);
    assert!(stdout.contains("remove-without-test"), "{stdout}");
    assert!(
        !stdout.chars().any(|c| c.is_control() && c != '\n'),
        "{stdout:?}"
    );
    assert!(
        stdout.contains("/metadata/labels/a\\u{1b}[2J\\u{1b}]0;owned\\u{7}\\u{9b}31m"),
        "{stdout}"
    );

    for format in ["json", "sarif"] {
        let out = patchlab(&["lint", "--format", format, "-"], &patch);
        let report: Value = serde_json::from_slice(&out.stdout).unwrap();
        let all = report.to_string();
        assert!(
            all.contains(&key[1..key.len() - 1]),
            "{format} keeps the exact text: {all}"
        );
    }
}

#[test]
fn simulate_text_escapes_names_and_json_keeps_them() {
    let name = "race\u{1b}[31m\nforged line";
    let scenario = serde_json::json!({
        "name": name,
        "objects": [{"apiVersion": "v1", "kind": "Pod",
                     "metadata": {"name": "p", "resourceVersion": "1", "labels": {}}}],
        "writers": [{"name": "w\u{7}", "preset": "kubevirt-main",
                     "intents": [{"set-label": {"key": "k\u{1b}", "value": "v"}}]}],
        "schedule": [{"read": "w\u{7}"}, {"write": "w\u{7}"}]
    });
    let file = scratch("scenario.json", &scenario.to_string());
    let out = patchlab(&["simulate", &file], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.starts_with("scenario: race\\u{1b}[31m\\u{a}forged line\n"),
        "{stdout}"
    );
    assert!(
        !stdout.chars().any(|c| c.is_control() && c != '\n'),
        "{stdout:?}"
    );
    let out = patchlab(&["simulate", "--format", "json", &file], "");
    let replay: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(replay["scenario"], name);
}

#[test]
fn errors_on_stderr_escape_control_characters() {
    let doc = scratch("doc.json", r#"{"a":1}"#);
    let patch = scratch(
        "patch.json",
        &format!(
            r#"[{{"op":"test","path":"/{}","value":1}}]"#,
            serde_json::to_string(HOSTILE).unwrap().trim_matches('"')
        ),
    );
    let out = patchlab(&["apply", &doc, &patch], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.contains("\\u{1b}[2J"), "{stderr}");
    assert!(
        !stderr.contains('\u{1b}') && !stderr.contains('\u{7}'),
        "{stderr:?}"
    );
}

#[test]
fn explain_text_escapes_the_patch_it_quotes() {
    let key = serde_json::to_string(HOSTILE).unwrap();
    let patch = scratch(
        "explain-patch.json",
        &format!(
            r#"[{{"op":"test","path":"/metadata/labels/{}","value":"x"}}]"#,
            key.trim_matches('"')
        ),
    );
    let error =
        "The request is invalid: the server rejected our request due to an error in our request";
    let out = patchlab(
        &[
            "explain",
            "--patch",
            &patch,
            "--object",
            "tests/fixtures/vmi.yaml",
            error,
        ],
        "",
    );
    let stdout = text(&out.stdout);
    assert!(stdout.contains("\\u{1b}[2J"), "{stdout}");
    assert!(
        !stdout.chars().any(|c| c.is_control() && c != '\n'),
        "{stdout:?}"
    );
    // JSON keeps the text exact.
    let out = patchlab(
        &[
            "explain",
            "--format",
            "json",
            "--patch",
            &patch,
            "--object",
            "tests/fixtures/vmi.yaml",
            error,
        ],
        "",
    );
    assert!(text(&out.stdout).contains(&key[1..key.len() - 1]));
}

#[test]
fn a_dotted_set_path_that_names_no_field_is_refused() {
    let old = scratch("set-old.json", r#"{"metadata":{"labels":{"a":"1"}}}"#);
    let new = scratch("set-new.json", r#"{"metadata":{"labels":{"a":"2"}}}"#);
    for (set, why) in [
        ("~~~=per-key", "a name holds '~'"),
        ("a..b=blind", "it has an empty name"),
        ("spec.a/b=blind", "a name holds '/'"),
    ] {
        let out = patchlab(&["diff", &old, &new, "--set", set], "");
        assert_eq!(out.status.code(), Some(2), "{set}");
        let stderr = text(&out.stderr);
        assert!(stderr.contains(why), "{set}: {stderr}");
        assert!(stderr.contains("JSON Pointer"), "{set}: {stderr}");
    }
    // A JSON Pointer to such a key is fine.
    let out = patchlab(
        &["diff", &old, &new, "--set", "/metadata/labels/~0~1=per-key"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
}

#[test]
fn a_huge_failing_path_is_named_by_its_start_and_length() {
    let doc = scratch("huge-doc.json", r#"{"a":1}"#);
    let path = format!("/{}", "k".repeat(200_000));
    let patch = scratch(
        "huge-patch.json",
        &format!(r#"[{{"op":"test","path":"{path}","value":1}}]"#),
    );
    let out = patchlab(&["apply", &doc, &patch], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(stderr.len() < 4000, "{} bytes on stderr", stderr.len());
    assert!(stderr.contains("…(200001 characters)"), "{stderr}");
}

#[test]
fn texts_are_read_as_the_server_reads_them() {
    // A byte order mark is refused by every reader, with the server's words.
    let bom = scratch("bom.json", "\u{feff}{\"a\":1}");
    let plain = scratch("plain.json", r#"{"a":2}"#);
    for args in [
        vec!["diff", bom.as_str(), plain.as_str()],
        vec!["diff", plain.as_str(), bom.as_str()],
        vec!["apply", bom.as_str(), "-"],
    ] {
        let out = patchlab(&args, "[]");
        assert!(!out.status.success(), "{args:?}");
        assert!(
            text(&out.stderr).contains("byte order mark (EF BB BF)"),
            "{args:?}: {}",
            text(&out.stderr)
        );
    }
    // A lone surrogate escape is U+FFFD, as Go's decoder reads it, whether
    // the text is copied or read.
    let doc = scratch("surrogate.json", r#"{"a":"\ud800","b":{}}"#);
    let out = patchlab(
        &["apply", &doc, "-"],
        r#"[{"op":"add","path":"/b/x","value":"\udc00"}]"#,
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let result: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        result,
        serde_json::json!({"a": "\u{fffd}", "b": {"x": "\u{fffd}"}})
    );
}

#[test]
fn scan_threads_out_of_range_name_the_range() {
    for threads in ["0", "-1", "65", "many"] {
        let out = patchlab(&["scan", "--threads", threads, "."], "");
        assert_eq!(out.status.code(), Some(2), "--threads {threads}");
        assert!(
            text(&out.stderr).contains(&format!(
                "invalid value '{threads}' for '--threads <N>': must be a whole number from 1 to 64"
            )),
            "--threads {threads}: {}",
            text(&out.stderr)
        );
    }
}

#[test]
fn batch_answers_a_last_line_without_newline_while_the_writer_waits() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_patchlab"))
        .args(["apply", "--batch"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut stdin = child.stdin.take().expect("stdin");
    let stdout = child.stdout.take().expect("stdout");
    let (lines, answers) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if lines.send(line.expect("a line")).is_err() {
                break;
            }
        }
    });
    let wait = Duration::from_secs(10);
    // A line with its newline, answered at once (not at exit).
    stdin
        .write_all(
            b"{\"doc\":{\"a\":1},\"patch\":[{\"op\":\"add\",\"path\":\"/b\",\"value\":2}]}\n",
        )
        .unwrap();
    stdin.flush().unwrap();
    assert_eq!(
        answers.recv_timeout(wait).unwrap(),
        r#"{"ok":{"a":1,"b":2}}"#
    );
    // The last line, no newline, braces and quotes inside strings: answered
    // while stdin stays open.
    stdin
        .write_all(br#"{"doc":{"a":"}]"},"patch":[{"op":"add","path":"/c","value":"\"{["}]}"#)
        .unwrap();
    stdin.flush().unwrap();
    assert_eq!(
        answers.recv_timeout(wait).unwrap(),
        r#"{"ok":{"a":"}]","c":"\"{["}}"#
    );
    // Its newline, arriving later, ends that same line: no extra answer.
    stdin.write_all(b"\n\n").unwrap();
    stdin.flush().unwrap();
    assert_eq!(
        answers.recv_timeout(wait).unwrap(),
        r#"{"error":{"index":null,"op":null,"path":null,"kind":"bad-line","message":"empty line"}}"#
    );
    drop(stdin);
    assert!(child.wait().unwrap().success());
    reader.join().unwrap();
    assert!(answers.try_recv().is_err(), "one answer per line");
}

#[test]
fn a_replay_that_would_keep_gigabytes_is_refused_before_it_starts() {
    // A 1 MB object written 200 times: each step keeps the object it wrote.
    let annotations: serde_json::Map<String, Value> = (0..10_000)
        .map(|i| (format!("k{i}"), Value::String("v".repeat(90))))
        .collect();
    let schedule: Vec<Value> = (0..100)
        .flat_map(|_| {
            [
                serde_json::json!({"read": "w"}),
                serde_json::json!({"write": "w"}),
            ]
        })
        .collect();
    let scenario = serde_json::json!({
        "name": "big",
        "objects": [{"apiVersion": "v1", "kind": "Pod",
                     "metadata": {"name": "p", "resourceVersion": "1", "annotations": annotations}}],
        "writers": [{"name": "w", "preset": "kubevirt-main",
                     "intents": [{"set-label": {"key": "k", "value": "v"}}]}],
        "schedule": schedule,
    });
    let file = scratch("big-scenario.json", &scenario.to_string());
    let started = Instant::now();
    let out = patchlab(&["simulate", &file], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("bytes of objects the replay would keep")
            && stderr.contains("more than the limit of 33554432"),
        "{stderr}"
    );
    assert!(started.elapsed() < Duration::from_secs(10));
}
