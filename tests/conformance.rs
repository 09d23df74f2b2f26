//! The public JSON Patch conformance suite (json-patch-tests), read from
//! `../shared/conformance/json-patch-tests` (or `$PATCHLAB_CONFORMANCE_DIR`),
//! run in RFC mode. Every non-disabled case must pass; failing cases must
//! leave the document unchanged.
#![cfg(not(target_arch = "wasm32"))]

use std::path::PathBuf;

use patchlab::apply::{apply_payload, Semantics};
use serde_json::Value;

fn suite_dir() -> PathBuf {
    match std::env::var_os("PATCHLAB_CONFORMANCE_DIR") {
        Some(dir) => PathBuf::from(dir),
        None => {
            PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/conformance/json-patch-tests")
        }
    }
}

fn run_file(name: &str) -> (usize, Vec<String>) {
    let path = suite_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the conformance suite is missing: {} ({e}). Set PATCHLAB_CONFORMANCE_DIR to a \
             json-patch-tests checkout; `make test` skips this test (and says so) when \
             ../shared is absent.",
            path.display()
        )
    });
    let cases: Vec<Value> = serde_json::from_str(&text).expect("suite file is JSON");
    let mut ran = 0;
    let mut failures = Vec::new();
    for (i, case) in cases.iter().enumerate() {
        if case.get("disabled").and_then(Value::as_bool) == Some(true) {
            continue;
        }
        let (Some(doc), Some(patch)) = (case.get("doc"), case.get("patch")) else {
            continue;
        };
        ran += 1;
        let label = format!(
            "{name}#{i} {}",
            case.get("comment").and_then(Value::as_str).unwrap_or("")
        );
        let mut got = doc.clone();
        let result = apply_payload(&mut got, &patch.to_string(), Semantics::Rfc);
        match (case.get("expected"), case.get("error"), result) {
            (Some(expected), _, Ok(())) if &got == expected => {}
            (Some(expected), _, Ok(())) => {
                failures.push(format!("{label}: got {got}, expected {expected}"))
            }
            (None, Some(_), Err(_)) if &got == doc => {}
            (None, Some(_), Err(err)) => {
                failures.push(format!("{label}: document changed on error {err}"))
            }
            (None, None, Ok(())) => {}
            (_, Some(message), Ok(())) => {
                failures.push(format!("{label}: expected an error ({message}), got {got}"))
            }
            (_, _, Err(err)) => failures.push(format!("{label}: unexpected error {err}")),
        }
    }
    (ran, failures)
}

#[test]
fn conformance_suite_passes_in_rfc_mode() {
    let mut total = 0;
    let mut failures = Vec::new();
    for file in ["tests.json", "spec_tests.json"] {
        let (ran, mut failed) = run_file(file);
        println!("{file}: {ran} cases, {} failed", failed.len());
        total += ran;
        failures.append(&mut failed);
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(total >= 100, "expected the whole suite, ran {total} cases");
}
