//! Lint on the rest of the ecosystem (`tests/lint/ecosystem.yaml`):
//! patches from projects other than KubeVirt (Kubernetes' docs and
//! controllers, cert-manager, Argo, Flux, Velero, Rook, Calico, Knative,
//! Tekton, ...), each written after a real call site or documented
//! command with its source, and an expert's verdict (hazard or not) and
//! rules. Split once by a hash of the name before any tuning: the dev part
//! is tuned on and holds a floor; the test part was measured once at the
//! end (89.3%), then read for a post-mortem, and holds a floor too; batch 2
//! (`ecosystem-2.yaml`, collected afterwards by hands that did not run
//! lint) was measured once (78.8%), read, and holds its own floor. The
//! numbers of each measurement are in the README's lint section.
//!
//! Each case runs the CLI as a user would (`patchlab lint --format json`,
//! with its `--type`, `--kind`, `--object` and files beside it): lint
//! flags a case when it exits 1 or reports a warning or an error. A case
//! it cannot read (exit 2) counts as not flagged, and is counted apart.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;
use std::process::Command;

use serde_json::Value;

use patchlab::input::{self, Budget};

/// The dev part's floor: the share of cases where lint's verdict is the
/// expert's.
const DEV_FLOOR: f64 = 0.98;

fn cases(split: &str) -> Vec<Value> {
    corpus("ecosystem.yaml", split)
}

/// The cases of `tests/lint/<file>` in `split`.
fn corpus(file: &str, split: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/lint")
        .join(file);
    let text = std::fs::read_to_string(path).unwrap();
    let budget = Budget {
        max_bytes: 16 << 20,
        ..Budget::default()
    };
    let (value, _) = input::parse(&text, &budget).unwrap();
    let all = value.as_array().unwrap().clone();
    let least = if file == "ecosystem.yaml" { 150 } else { 80 };
    assert!(all.len() >= least, "{} cases", all.len());
    let projects: BTreeSet<&str> = all.iter().filter_map(|c| c["project"].as_str()).collect();
    assert!(projects.len() >= 15, "{projects:?}");
    all.into_iter()
        .filter(|c| c["split"].as_str() == Some(split))
        .collect()
}

/// What lint said of one case: flagged, refused (exit 2), the rules.
struct Said {
    flagged: bool,
    refused: Option<String>,
    rules: BTreeSet<String>,
}

fn lint(case: &Value) -> Said {
    let name = case["name"].as_str().unwrap();
    let dir = std::env::temp_dir().join(format!("patchlab-eco-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("patch.txt"), case["patch"].as_str().unwrap()).unwrap();
    for (file, text) in case["files"].as_object().into_iter().flatten() {
        let path = dir.join(file);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text.as_str().unwrap()).unwrap();
    }
    let mut command = Command::new(env!("CARGO_BIN_EXE_patchlab"));
    command.current_dir(&dir).args(["lint", "--format", "json"]);
    if let Some(t) = case["type"].as_str() {
        command.args(["--type", t]);
    }
    if let Some(k) = case["kind"].as_str() {
        command.args(["--kind", k]);
    }
    if let Some(c) = case["context"].as_str() {
        command.args(["--context", c]);
    }
    if let Some(object) = case["object"].as_str() {
        std::fs::write(dir.join("object.json"), object).unwrap();
        command.args(["--object", "object.json"]);
    }
    let out = command.arg("patch.txt").output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let code = out.status.code().unwrap_or(-1);
    assert!(matches!(code, 0..=2), "{name}: exit {code}");
    let report: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    let findings = report["findings"].as_array().cloned().unwrap_or_default();
    Said {
        flagged: code == 1
            || findings
                .iter()
                .any(|f| matches!(f["severity"].as_str(), Some("warning" | "error"))),
        refused: (code == 2).then(|| String::from_utf8_lossy(&out.stderr).into_owned()),
        rules: findings
            .iter()
            .filter_map(|f| f["rule"].as_str().map(str::to_owned))
            .collect(),
    }
}

/// Runs a part; prints the confusion table, refusals and rule agreement;
/// returns (agreement, refusals).
fn measure(split: &str) -> (f64, usize) {
    measure_cases(&format!("ecosystem/{split}"), &cases(split))
}

fn measure_cases(label: &str, cases: &[Value]) -> (f64, usize) {
    let (mut tp, mut fp, mut fn_, mut tn, mut refused, mut exact) = (0, 0, 0, 0, 0, 0);
    for case in cases {
        let name = case["name"].as_str().unwrap();
        let hazard = case["hazard"].as_bool().unwrap();
        let said = lint(case);
        match (hazard, said.flagged) {
            (true, true) => tp += 1,
            (false, true) => fp += 1,
            (true, false) => fn_ += 1,
            (false, false) => tn += 1,
        }
        let expected: BTreeSet<String> = case["rules"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .filter(|r| !r.starts_with("new:"))
            .map(str::to_owned)
            .collect();
        exact += usize::from(expected == said.rules);
        if let Some(err) = &said.refused {
            refused += 1;
            println!("  REFUSED {name}: {}", err.trim());
        } else if hazard != said.flagged {
            println!(
                "  {} {name}: expected {:?}, lint {:?}",
                if hazard { "MISSED" } else { "FALSE ALARM" },
                expected,
                said.rules
            );
        }
    }
    let n = cases.len();
    let agreement = (tp + tn) as f64 / n as f64;
    println!(
        "lint {label}: {n} cases, verdict agrees on {} ({:.1}%): {tp} hazards flagged, {fn_} missed, {fp} false alarms, {tn} clean; precision {:.3}, recall {:.3}; {refused} refused; rule sets exact on {exact}",
        tp + tn,
        100.0 * agreement,
        tp as f64 / (tp + fp).max(1) as f64,
        tp as f64 / (tp + fn_).max(1) as f64,
    );
    (agreement, refused)
}

#[test]
fn dev_part_agrees_with_the_expert() {
    let (agreement, refused) = measure("dev");
    assert!(
        agreement >= DEV_FLOOR,
        "dev agreement {agreement:.3} < {DEV_FLOOR}"
    );
    // Lint refuses no readable line: what fails as written is a finding.
    assert_eq!(refused, 0, "{refused} dev cases refused");
}

/// The test part was measured once (89.3%, 3 refused), then read for a
/// post-mortem: it now holds a floor like the dev part.
const TEST_FLOOR: f64 = 0.96;
/// Batch 2 was measured once (78.8%, 5 refused), then read for a
/// post-mortem: its floor.
const BATCH_2_FLOOR: f64 = 0.88;

#[test]
fn test_part_agrees_with_the_expert() {
    let (agreement, refused) = measure("test");
    assert!(
        agreement >= TEST_FLOOR,
        "test agreement {agreement:.3} < {TEST_FLOOR}"
    );
    assert_eq!(refused, 0, "{refused} test cases refused");
}

/// Batch 2 (`tests/lint/ecosystem-2.yaml`), collected after batch 1 was
/// tuned on, by hands that did not run lint.
#[test]
fn batch_2_agrees_with_the_expert() {
    let (agreement, refused) = measure_cases("ecosystem-2", &corpus("ecosystem-2.yaml", "test"));
    assert!(
        agreement >= BATCH_2_FLOOR,
        "batch 2 agreement {agreement:.3} < {BATCH_2_FLOOR}"
    );
    assert_eq!(refused, 0, "{refused} batch 2 cases refused");
}
