//! Numbers, against the real kubectl: how a document's number literals
//! are held (a literal `-0` is Go's integer 0; `1.0` is stored as `1`,
//! `18446744073709551616` as the float written `18446744073709552000`),
//! which `test` values match them (the server compares scalars as bytes,
//! the stored side as Go writes it), and how `patchlab apply` prints them
//! (as the server writes them: `0.000001`, `1`, `1e+21`).
//!
//! `kubectl patch --local -f LIST --type=T -p BODY -o json` runs kubectl's
//! own JSON patch, merge patch and strategic merge patch code; one process
//! runs a `List` of objects (one per document literal) against one patch,
//! and `patchlab apply --batch` runs the same cases in one process. The
//! CLI is what is compared: the document as written (its literals are
//! never parsed by serde_json before patchlab reads it), the output as
//! printed, number by number.
//!
//! What kubectl cannot show: a `-p` that is not a JSON object goes
//! through YAML (`yaml.ToJSON`), so a JSON patch's `test` values reach the
//! engine as Go re-encodes them; the test values here are written so that
//! the re-encoding leaves them as they are (checked). Skipped, with a
//! NOTICE on stderr, where no kubectl is installed.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

/// Number literals a document may hold, as written.
const LITERALS: [&str; 26] = [
    "0",
    "-0",
    "-0.0",
    "1",
    "1.0",
    "1.50",
    "-7.00",
    "1e-6",
    "1e-7",
    "0.000001",
    "1e21",
    "1E+21",
    "1e20",
    "100000000000000000000",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "0.1",
    "123456789.125",
    "5e-324",
    "1.7976931348623157e308",
    "2.5E+3",
    "-1.5e-10",
];

/// `test` values as kubectl sends them: Go's own encoding of what YAML
/// reads (so kubectl's re-encoding leaves them byte for byte).
const SENT: [&str; 17] = [
    "0",
    "1",
    "1.5",
    "-7",
    "0.000001",
    "1e-7",
    "1e+21",
    "100000000000000000000",
    "18446744073709552000",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854776000",
    "0.1",
    "2500",
    "5e-324",
    "-1.5e-10",
];

fn kubectl() -> Option<PathBuf> {
    let fixed = PathBuf::from("/usr/bin/kubectl");
    if fixed.exists() {
        return Some(fixed);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|p| p.join("kubectl"))
            .find(|p| p.exists())
    })
}

fn notice(test: &str) {
    eprintln!(
        "\n*** NOTICE: no kubectl at /usr/bin/kubectl or on PATH: {test} is SKIPPED (install kubectl 1.32 to run the differential tests) ***\n"
    );
}

/// A Pod as JSON text with `literal` at `/n/v` (an extra field JSON and
/// merge patches do not mind) and at `spec.terminationGracePeriodSeconds`
/// (a field the strategic merge patch knows).
fn doc_text(name: &str, literal: &str) -> String {
    format!(
        r#"{{"apiVersion":"v1","kind":"Pod","metadata":{{"name":"{name}"}},"n":{{"v":{literal}}},"spec":{{"terminationGracePeriodSeconds":{literal},"containers":[{{"name":"c","image":"i"}}]}}}}"#
    )
}

/// Runs kubectl on a `List` of the documents; returns each printed object
/// (by name) as its text, and stderr.
fn run_kubectl(
    kubectl: &Path,
    dir: &Path,
    tag: &str,
    docs: &[String],
    patch_type: &str,
    patch: &str,
) -> (HashMap<String, String>, String) {
    let file = dir.join(format!("{tag}.json"));
    let list = format!(
        r#"{{"apiVersion":"v1","kind":"List","items":[{}]}}"#,
        docs.join(",")
    );
    std::fs::write(&file, list).unwrap();
    let out = Command::new(kubectl)
        .args(["patch", "--local", "-f"])
        .arg(&file)
        .args([&format!("--type={patch_type}"), "-p", patch, "-o", "json"])
        .env("KUBECONFIG", "/dev/null")
        .output()
        .expect("kubectl runs");
    let _ = std::fs::remove_file(&file);
    let stdout = String::from_utf8(out.stdout).unwrap();
    let mut objects = HashMap::new();
    let mut stream = serde_json::Deserializer::from_str(&stdout).into_iter::<Value>();
    let mut start = 0;
    while let Some(value) = stream.next() {
        let value = value.unwrap_or_else(|e| panic!("kubectl printed no JSON: {e}\n{stdout}"));
        let end = stream.byte_offset();
        let name = value["metadata"]["name"].as_str().unwrap().to_owned();
        objects.insert(name, stdout[start..end].to_owned());
        start = end;
    }
    (objects, String::from_utf8(out.stderr).unwrap())
}

/// Runs `patchlab apply --batch` on (document text, patch text) lines;
/// returns each line's output as printed.
fn run_patchlab(args: &[&str], lines: &[(String, String)]) -> Vec<String> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_patchlab"))
        .args(["apply", "--batch"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = String::new();
    for (doc, patch) in lines {
        input.push_str(&format!("{{\"doc\":{doc},\"patch\":{patch}}}\n"));
    }
    let mut stdin = child.stdin.take().unwrap();
    std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_owned)
        .collect()
}

/// The number tokens of JSON text, in order (outside strings).
fn numbers(text: &str) -> Vec<&str> {
    let bytes = text.as_bytes();
    let (mut out, mut i, mut in_string) = (Vec::new(), 0, false);
    while i < bytes.len() {
        let b = bytes[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
            i += 1;
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'-' | b'0'..=b'9' => {
                let start = i;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    i += 1;
                }
                out.push(&text[start..i]);
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

fn scratch_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("patchlab-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// One patch over every document literal: kubectl and patchlab must
/// agree on which documents it applies to, and print the same numbers.
/// Returns the cases compared and the disagreements (described).
fn compare(
    kubectl: &Path,
    dir: &Path,
    tag: &str,
    patch_type: &str,
    patch: &str,
    documented: &dyn Fn(&str) -> bool,
    documented_count: &mut usize,
) -> (usize, Vec<String>) {
    let names: Vec<String> = (0..LITERALS.len()).map(|i| format!("{tag}-{i}")).collect();
    let docs: Vec<String> = names
        .iter()
        .zip(LITERALS)
        .map(|(name, literal)| doc_text(name, literal))
        .collect();
    let (theirs, stderr) = run_kubectl(kubectl, dir, tag, &docs, patch_type, patch);
    let lines: Vec<(String, String)> = docs.iter().map(|d| (d.clone(), patch.to_owned())).collect();
    let ours = run_patchlab(
        &[&format!("--type={patch_type}"), "--kube-version", "1.32"],
        &lines,
    );
    let mut failures = Vec::new();
    for ((name, literal), line) in names.iter().zip(LITERALS).zip(&ours) {
        if documented(literal) {
            continue;
        }
        // `{"ok": DOC}` as printed, or `{"error": ...}`.
        let mine = line.starts_with(r#"{"ok":"#).then_some(line.as_str());
        match (mine, theirs.get(name)) {
            (None, None) => {}
            (Some(mine), Some(kube)) => {
                // kubectl decodes once and holds a float -0 as `-0`; the
                // server decodes what it stored, `-0`, as the integer 0
                // (docs/fidelity.md, section 9).
                let negative_zero = literal == "-0.0" || patch.contains("-0.0");
                let theirs: Vec<&str> = numbers(kube)
                    .into_iter()
                    .map(|n| if negative_zero && n == "-0" { "0" } else { n })
                    .collect();
                if negative_zero && theirs != numbers(kube) {
                    *documented_count += 1;
                }
                if numbers(mine) != theirs {
                    failures.push(format!(
                        "{patch_type} {patch} on {literal}: numbers differ\n  patchlab: {:?}\n  kubectl:  {:?}",
                        numbers(mine),
                        numbers(kube)
                    ));
                }
            }
            (mine, kube) => failures.push(format!(
                "{patch_type} {patch} on {literal}: patchlab {}, kubectl {}\n  patchlab: {line}\n  kubectl stderr: {}",
                if mine.is_some() { "applies" } else { "fails" },
                if kube.is_some() { "applies" } else { "fails" },
                stderr.trim_end()
            )),
        }
    }
    (LITERALS.len(), failures)
}

/// `test` ops: which of kubectl's test values match which document
/// literal. A document `-0.0` is the one documented difference: kubectl
/// decodes the file once and holds the float -0 (written `-0`); a server
/// has stored the object, and reads its `-0` back as the integer 0, which
/// patchlab models.
#[test]
fn test_values_match_document_numbers_as_kubectl_holds_them() {
    let Some(kubectl) = kubectl() else {
        return notice("test_values_match_document_numbers_as_kubectl_holds_them");
    };
    let dir = scratch_dir("numbers-test");
    let (mut cases, mut failures, mut passes, mut documented) = (0, Vec::new(), 0, 0);
    for (i, sent) in SENT.iter().enumerate() {
        // YAML leaves the value as it is: Go's encoding of what yaml.v2
        // reads (an int64, a uint64 or a float64).
        let parsed: Value = serde_json::from_str(sent).unwrap();
        assert_eq!(
            patchlab::gojson::to_string(&parsed),
            *sent,
            "{sent} is sent as it is by kubectl"
        );
        let patch = format!(r#"[{{"op":"test","path":"/n/v","value":{sent}}}]"#);
        let (n, f) = compare(
            &kubectl,
            &dir,
            &format!("t{i}"),
            "json",
            &patch,
            &|l| l == "-0.0",
            &mut documented,
        );
        cases += n;
        failures.extend(f);
        passes += LITERALS
            .iter()
            .filter(|l| {
                let doc: Value = serde_json::from_str(l).unwrap();
                patchlab::gojson::stored_scalar(&doc) == *sent
            })
            .count();
    }
    // The documented difference, checked: kubectl fails `test 0` on a
    // document `-0.0`; patchlab (the server) passes it.
    let doc = doc_text("neg", "-0.0");
    let (theirs, _) = run_kubectl(
        &kubectl,
        &dir,
        "neg",
        std::slice::from_ref(&doc),
        "json",
        r#"[{"op":"test","path":"/n/v","value":0}]"#,
    );
    assert!(theirs.is_empty(), "kubectl holds -0.0 as -0");
    let ours = run_patchlab(
        &[],
        &[(doc, r#"[{"op":"test","path":"/n/v","value":0}]"#.to_owned())],
    );
    assert!(ours[0].starts_with(r#"{"ok":"#), "{}", ours[0]);
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "test values vs document literals: {cases} cases ({passes} pass), {} disagreements",
        failures.len()
    );
    assert!(passes >= 20, "too few matching cases: {passes}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Results printed: numbers as the server writes them, after JSON
/// patches (`add` of kubectl-sent values), merge patches and strategic
/// merge patches (bodies starting with `{` are sent as written, so any
/// literal can be tried).
#[test]
fn results_print_numbers_as_kubectl_does() {
    let Some(kubectl) = kubectl() else {
        return notice("results_print_numbers_as_kubectl_does");
    };
    let dir = scratch_dir("numbers-print");
    let mut patches: Vec<(&str, String)> = Vec::new();
    for sent in SENT {
        patches.push((
            "json",
            format!(r#"[{{"op":"add","path":"/n/w","value":[{sent},{{"x":{sent}}}]}}]"#),
        ));
    }
    for literal in LITERALS {
        patches.push((
            "merge",
            format!(r#"{{"n":{{"m":{literal},"l":[{literal},{{"x":{literal},"y":null}}]}}}}"#),
        ));
        patches.push((
            "strategic",
            format!(r#"{{"spec":{{"activeDeadlineSeconds":{literal}}}}}"#),
        ));
    }
    patches.push(("json", "[]".to_owned()));
    let (mut cases, mut failures, mut documented) = (0, Vec::new(), 0);
    for (i, (patch_type, patch)) in patches.iter().enumerate() {
        let (n, f) = compare(
            &kubectl,
            &dir,
            &format!("p{i}"),
            patch_type,
            patch,
            &|_| false,
            &mut documented,
        );
        cases += n;
        failures.extend(f);
    }
    let _ = std::fs::remove_dir_all(&dir);
    eprintln!(
        "printed numbers: {cases} cases over {} patches, {} disagreements, {documented} with kubectl's -0 (documented)",
        patches.len(),
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Floats as Go writes them, against kubectl, on values where writing
/// the shortest digits has a choice: 17-digit floats whose shortest
/// candidates tie (`1120264304013018.25` is written `…018.2` by Go and by
/// patchlab, rounding half to even; Rust's `{}` writes `…018.3`), plus
/// random floats across the whole range. One document holds them all in
/// an array; the merge patch leaves it as it is, and kubectl re-encodes it.
#[test]
fn floats_print_with_go_s_shortest_digits() {
    let Some(kubectl) = kubectl() else {
        notice("floats_print_with_go_s_shortest_digits");
        return;
    };
    let mut literals = Vec::new();
    // Ties: n + 0.25 and n + 0.75 between 2^49 and 2^50, where a float
    // holds quarters and 17 digits are needed.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        x
    };
    for i in 0..300u64 {
        let n = (1u64 << 49) + next() % (1u64 << 49);
        literals.push(format!("{n}.{}", if i % 2 == 0 { "25" } else { "75" }));
    }
    for _ in 0..1_500 {
        let f = f64::from_bits(next());
        if f.is_finite() {
            // Written with every digit, so the literal is the float.
            literals.push(format!("{f:e}"));
        }
    }
    let doc = format!(
        r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"floats"}},"n":[{}]}}"#,
        literals.join(",")
    );
    let dir = scratch_dir("floats");
    let (objects, stderr) = run_kubectl(&kubectl, &dir, "floats", &[doc], "merge", r#"{"x":null}"#);
    let printed = objects
        .get("floats")
        .unwrap_or_else(|| panic!("kubectl: {stderr}"));
    let value: Value = serde_json::from_str(printed).unwrap();
    let go: Vec<&str> = numbers(printed).into_iter().collect();
    let go = &go[go.len() - literals.len()..];
    let mut ties_differing_from_rust = 0;
    for (literal, go) in literals.iter().zip(go) {
        let f: f64 = literal.parse().unwrap();
        let mut ours = String::new();
        patchlab::gojson::write_float(&mut ours, f);
        assert_eq!(&ours, go, "the float {literal}");
        if format!("{f}") != *go && (1e-6..1e21).contains(&f.abs()) {
            ties_differing_from_rust += 1;
        }
    }
    assert_eq!(value["n"].as_array().map(Vec::len), Some(literals.len()));
    // The ties are real: Rust's own `{}` rounds some of them the other way.
    assert!(ties_differing_from_rust > 10, "{ties_differing_from_rust}");
}
