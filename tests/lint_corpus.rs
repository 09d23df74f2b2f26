//! The lint corpus (`tests/corpus/*.yaml`): patches shaped after real call
//! sites of KubeVirt, CDI, cluster-api, controller-runtime users, kube-rs,
//! Argo CD, Helm and kubectl's documentation, each with the findings an
//! expert expects. Prints precision and recall per rule and for "hazard or
//! clean"; fails when hazard recall or precision, or rule precision or
//! recall, drops below 0.9, or when a patch cannot be read.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use patchlab::input::{self, Budget};
use patchlab::lint::{self, Options};

struct Case {
    file: String,
    name: String,
    kind: Option<String>,
    /// How the body is sent (`strategic`: what a controller's
    /// `Patch(types.StrategicMergePatchType, ...)` sends).
    patch_type: Option<String>,
    object: Option<Value>,
    patch: String,
    files: BTreeMap<String, String>,
    hazard: bool,
    rules: BTreeSet<String>,
}

fn cases() -> Vec<Case> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "yaml"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path).unwrap();
        let (value, _) = input::parse(&text, &Budget::default())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        for case in value.as_array().unwrap() {
            let name = case["name"].as_str().unwrap().to_owned();
            let object = case["object"]
                .as_str()
                .map(|text| lint::read_object(text, &lint::budget()).unwrap());
            let files = case["files"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap().to_owned()))
                        .collect()
                })
                .unwrap_or_default();
            out.push(Case {
                file: file.clone(),
                kind: case["kind"].as_str().map(str::to_owned),
                patch_type: case["type"].as_str().map(str::to_owned),
                object,
                patch: case["patch"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{file} {name}: no patch"))
                    .to_owned(),
                files,
                hazard: case["hazard"]
                    .as_bool()
                    .unwrap_or_else(|| panic!("{file} {name}: hazard: true or false")),
                rules: case["rules"]
                    .as_array()
                    .unwrap_or_else(|| panic!("{file} {name}: rules"))
                    .iter()
                    .map(|r| r.as_str().unwrap().to_owned())
                    .collect(),
                name,
            });
        }
    }
    out
}

#[derive(Default)]
struct Tally {
    tp: usize,
    fp: usize,
    fn_: usize,
}

impl Tally {
    fn precision(&self) -> f64 {
        if self.tp + self.fp == 0 {
            1.0
        } else {
            self.tp as f64 / (self.tp + self.fp) as f64
        }
    }
    fn recall(&self) -> f64 {
        if self.tp + self.fn_ == 0 {
            1.0
        } else {
            self.tp as f64 / (self.tp + self.fn_) as f64
        }
    }
}

#[test]
fn corpus_precision_and_recall() {
    let cases = cases();
    assert!(cases.len() >= 80, "{} cases", cases.len());
    let sources: BTreeSet<&str> = cases.iter().map(|c| c.file.as_str()).collect();
    assert!(sources.len() >= 3, "{sources:?}");
    for rule in cases.iter().flat_map(|c| &c.rules) {
        assert!(rule.parse::<lint::Rule>().is_ok(), "unknown rule {rule}");
    }
    let mut per_rule: BTreeMap<String, Tally> = BTreeMap::new();
    let mut hazards = Tally::default();
    let mut all_rules = Tally::default();
    let mut misses = Vec::new();
    let mut unreadable = Vec::new();
    for case in &cases {
        let files = |name: &str| {
            case.files
                .get(name)
                .cloned()
                .ok_or_else(|| format!("open {name}: no such file or directory"))
        };
        let mut input = match lint::read_with(&case.patch, &lint::budget(), Some(&files)) {
            Ok(input) => input,
            Err(err) => {
                unreadable.push(format!("{} {}: {err}", case.file, case.name));
                continue;
            }
        };
        if let Some(patch_type) = &case.patch_type {
            let kind = match patch_type.as_str() {
                "json" => lint::BodyKind::JsonPatch,
                "merge" => lint::BodyKind::MergePatch,
                "strategic" => lint::BodyKind::StrategicMergePatch,
                other => panic!("{} {}: type {other}", case.file, case.name),
            };
            if let Err(err) = input.set_kind(kind) {
                unreadable.push(format!("{} {}: {err}", case.file, case.name));
                continue;
            }
        }
        let options = Options {
            object: case.object.clone(),
            kind: case.kind.clone(),
            ..Options::default()
        };
        let report = match lint::lint_input(&input, &options) {
            Ok(report) => report,
            Err(err) => {
                unreadable.push(format!("{} {}: {err}", case.file, case.name));
                continue;
            }
        };
        let found: BTreeSet<String> = report.findings.iter().map(|f| f.rule.to_string()).collect();
        for rule in found.union(&case.rules) {
            let tally = per_rule.entry(rule.clone()).or_default();
            match (found.contains(rule), case.rules.contains(rule)) {
                (true, true) => {
                    tally.tp += 1;
                    all_rules.tp += 1;
                }
                (true, false) => {
                    tally.fp += 1;
                    all_rules.fp += 1;
                }
                (false, true) => {
                    tally.fn_ += 1;
                    all_rules.fn_ += 1;
                }
                (false, false) => {}
            }
        }
        let flagged = report.has_warnings();
        match (flagged, case.hazard) {
            (true, true) => hazards.tp += 1,
            (true, false) => hazards.fp += 1,
            (false, true) => hazards.fn_ += 1,
            (false, false) => {}
        }
        if found != case.rules || flagged != case.hazard {
            misses.push(format!(
                "{} {}: expected {:?} (hazard {}), found {:?} (exit {}): {:#?}",
                case.file,
                case.name,
                case.rules,
                case.hazard,
                found,
                if flagged { 1 } else { 0 },
                report
                    .findings
                    .iter()
                    .map(|f| &f.message)
                    .collect::<Vec<_>>()
            ));
        }
    }
    println!("lint corpus: {} cases from {:?}", cases.len(), sources);
    println!(
        "{:<24} {:>4} {:>4} {:>4} {:>9} {:>7}",
        "rule", "tp", "fp", "fn", "precision", "recall"
    );
    for (rule, t) in &per_rule {
        println!(
            "{rule:<24} {:>4} {:>4} {:>4} {:>9.2} {:>7.2}",
            t.tp,
            t.fp,
            t.fn_,
            t.precision(),
            t.recall()
        );
    }
    println!(
        "{:<24} {:>4} {:>4} {:>4} {:>9.2} {:>7.2}",
        "(all rules)",
        all_rules.tp,
        all_rules.fp,
        all_rules.fn_,
        all_rules.precision(),
        all_rules.recall()
    );
    let total_hazards = cases.iter().filter(|c| c.hazard).count();
    println!(
        "hazards: {} of {} flagged (exit 1), {} clean patches flagged of {}; precision {:.2}, recall {:.2}",
        hazards.tp,
        total_hazards,
        hazards.fp,
        cases.len() - total_hazards,
        hazards.precision(),
        hazards.recall()
    );
    for miss in &misses {
        println!("MISMATCH {miss}");
    }
    assert!(unreadable.is_empty(), "refused: {unreadable:#?}");
    assert!(
        hazards.recall() >= 0.9,
        "hazard recall {:.2}",
        hazards.recall()
    );
    assert!(
        hazards.precision() >= 0.9,
        "hazard precision {:.2}",
        hazards.precision()
    );
    assert!(
        all_rules.precision() >= 0.9,
        "rule precision {:.2}",
        all_rules.precision()
    );
    assert!(
        all_rules.recall() >= 0.9,
        "rule recall {:.2}",
        all_rules.recall()
    );
}
