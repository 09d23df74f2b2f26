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
fn too_many_preset_flags_are_a_clap_error_before_any_work() {
    let mut args = vec!["migrate", "--vms", "10"];
    args.extend(std::iter::repeat_n(["--preset", "naive"], 20_000).flatten());
    let started = Instant::now();
    let out = patchlab(&args, "");
    assert_eq!(out.status.code(), Some(2), "{}", text(&out.stderr));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("20000 --preset flags, more than the limit of 64"),
        "{stderr}"
    );
    assert!(
        stderr.contains("Usage: patchlab"),
        "clap's own error: {stderr}"
    );
    assert!(out.stdout.is_empty());
    assert!(started.elapsed() < Duration::from_secs(10));
}

#[test]
fn repeated_presets_run_once_and_65_flags_are_too_many() {
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

    let mut args = base.to_vec();
    args.extend(std::iter::repeat_n(["--preset", "naive"], 65).flatten());
    let out = patchlab(&args, "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("65 --preset flags"),
        "{}",
        text(&out.stderr)
    );
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
        text(&out.stderr).contains("1001 --set overrides, more than the limit of 1000"),
        "{}",
        text(&out.stderr)
    );
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
