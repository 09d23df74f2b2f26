//! `patchlab::lint` end to end: the Check examples find exactly what they
//! promise, every payload `diff` produces can be linted, and PR #18139's
//! per-key patches for single-key changes carry nothing at warning or above.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use proptest::prelude::*;
use serde_json::{json, Map, Value};

use patchlab::input::{self, Budget};
use patchlab::lint::{self, Options, Severity};
use patchlab::strategy::{self, Body, Preset};

fn yaml(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    input::parse(&text, &Budget::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .0
}

fn files(dir: &str, ext: &str) -> Vec<std::path::PathBuf> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == ext))
        .collect();
    files.sort();
    files
}

/// Each example of www/check: lint finds exactly the promised findings.
#[test]
fn check_examples_find_exactly_what_they_promise() {
    let examples = files("www/check", "yaml");
    assert!(examples.len() >= 5, "{examples:?}");
    let mut seen = BTreeSet::new();
    for path in examples {
        let example = yaml(&path);
        let name = path.display().to_string();
        assert!(
            example["title"].is_string() && example["description"].is_string(),
            "{name}"
        );
        let object = example["object"]
            .as_str()
            .map(|text| lint::read_object(text, &lint::budget()).unwrap());
        let semantics = example["semantics"]
            .as_str()
            .unwrap_or("kube")
            .parse()
            .unwrap();
        let options = Options {
            semantics,
            object,
            ..Options::default()
        };
        let report = lint::lint(example["patch"].as_str().unwrap(), &options)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let found: BTreeSet<(String, Option<u64>, Option<String>)> = report
            .findings
            .iter()
            .map(|f| {
                (
                    f.rule.to_string(),
                    f.index.map(|i| i as u64),
                    f.path.clone(),
                )
            })
            .collect();
        let expected: BTreeSet<(String, Option<u64>, Option<String>)> = example["expect"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| {
                (
                    e["rule"].as_str().unwrap().to_owned(),
                    e["index"].as_u64(),
                    e["path"].as_str().map(str::to_owned),
                )
            })
            .collect();
        assert_eq!(found, expected, "{name}: {:#?}", report.findings);
        seen.extend(found.into_iter().map(|(rule, _, _)| rule));
    }
    for rule in [
        "whole-map-test",
        "unescaped-slash",
        "test-never-matches",
        "index-without-test",
        "merge-replaces-list",
    ] {
        assert!(seen.contains(rule), "no example shows {rule}");
    }
}

/// Every payload `patchlab diff` produces for the playground's examples,
/// under every preset, as the body and as a kubectl command line: lint
/// reads it, finds no error, and (for JSON patches) the patch applies to
/// the old object.
#[test]
fn lint_reads_every_payload_diff_produces() {
    let mut count = 0;
    for path in files("www/examples", "yaml") {
        let example = yaml(&path);
        let old = input::parse(example["old"].as_str().unwrap(), &Budget::default())
            .unwrap()
            .0;
        let new = input::parse(example["new"].as_str().unwrap(), &Budget::default())
            .unwrap()
            .0;
        for preset in Preset::ALL {
            let plan = strategy::diff(&old, &new, &strategy::Options::preset(preset)).unwrap();
            if plan.is_empty() {
                continue;
            }
            let options = Options {
                object: Some(old.clone()),
                ..Options::default()
            };
            let what = format!("{} {preset}", path.display());
            let report =
                lint::lint(&plan.body_text(), &options).unwrap_or_else(|e| panic!("{what}: {e}"));
            let errors: Vec<_> = report
                .findings
                .iter()
                .filter(|f| f.severity == Severity::Error)
                .collect();
            if matches!(plan.body, Body::JsonPatch(_)) {
                assert!(errors.is_empty(), "{what}: {errors:#?}");
                assert!(report.outcome.as_ref().unwrap().applies, "{what}");
            }
            let command = strategy::kubectl(&plan, &new);
            match plan.body {
                Body::JsonPatch(_) | Body::MergePatch(_) => {
                    let again = lint::lint(&command, &options)
                        .unwrap_or_else(|e| panic!("{what}: {command}: {e}"));
                    assert_eq!(again.kind, report.kind, "{what}");
                    assert_eq!(again.op_count, report.op_count, "{what}");
                }
                _ => {
                    let err = lint::lint(&command, &options).unwrap_err();
                    assert!(
                        err.to_string()
                            .contains("lint reads `kubectl patch` commands"),
                        "{what}: {err}"
                    );
                }
            }
            count += 1;
        }
    }
    assert!(count >= 30, "{count} payloads");
}

fn key() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z]{1,6}",
        "[a-z]{1,4}\\.io/[a-zA-Z]{1,6}",
        "[a-z]{1,3}~[a-z/]{1,3}",
        Just("<b>&".to_owned()),
    ]
}

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z0-9]{0,6}",
        Just("<é>".to_owned()),
        Just("a\"b\\c".to_owned())
    ]
}

fn map() -> impl Strategy<Value = Option<Map<String, Value>>> {
    proptest::option::of(
        proptest::collection::btree_map(key(), text(), 0..4)
            .prop_map(|m| m.into_iter().map(|(k, v)| (k, Value::String(v))).collect()),
    )
}

/// A VMI with some labels, annotations, activePods, finalizers and status.
fn vmi() -> impl Strategy<Value = Value> {
    (
        map(),
        map(),
        map(),
        proptest::option::of(proptest::collection::vec("[a-z]{1,5}(/[a-z]{1,5})?", 0..3)),
        proptest::option::of(prop_oneof![Just("Running"), Just("Scheduled")]),
    )
        .prop_map(|(labels, annotations, pods, finalizers, phase)| {
            let mut metadata = Map::new();
            metadata.insert("name".into(), json!("testvmi"));
            metadata.insert("resourceVersion".into(), json!("7"));
            if let Some(m) = labels {
                metadata.insert("labels".into(), Value::Object(m));
            }
            if let Some(m) = annotations {
                metadata.insert("annotations".into(), Value::Object(m));
            }
            if let Some(f) = finalizers {
                let mut f: Vec<String> = f;
                f.dedup();
                metadata.insert("finalizers".into(), json!(f));
            }
            let mut status = Map::new();
            if let Some(m) = pods {
                status.insert("activePods".into(), Value::Object(m));
            }
            if let Some(p) = phase {
                status.insert("phase".into(), json!(p));
            }
            json!({"apiVersion": "kubevirt.io/v1", "kind": "VirtualMachineInstance", "metadata": metadata, "status": status})
        })
}

/// One change: add, modify or remove one key of one map, add or remove one
/// finalizer, or change the phase.
#[derive(Clone, Debug)]
enum Change {
    Key {
        map: usize,
        key: String,
        value: Option<String>,
    },
    Finalizer(String),
    Phase(String),
}

fn change() -> impl Strategy<Value = Change> {
    prop_oneof![
        4 => (0..3usize, key(), proptest::option::of(text())).prop_map(|(map, key, value)| Change::Key { map, key, value }),
        1 => "[a-z]{1,5}".prop_map(Change::Finalizer),
        1 => "[A-Z][a-z]{2,6}".prop_map(Change::Phase),
    ]
}

fn changed(old: &Value, change: &Change) -> Value {
    let mut new = old.clone();
    match change {
        Change::Key { map, key, value } => {
            let (parent, member) = [
                ("metadata", "labels"),
                ("metadata", "annotations"),
                ("status", "activePods"),
            ][*map];
            let slot = new[parent]
                .as_object_mut()
                .unwrap()
                .entry(member)
                .or_insert_with(|| json!({}));
            let entries = slot.as_object_mut().unwrap();
            match value {
                Some(v) => {
                    entries.insert(key.clone(), json!(v));
                }
                None => {
                    entries.remove(key);
                }
            }
        }
        Change::Finalizer(name) => {
            let list = new["metadata"]
                .as_object_mut()
                .unwrap()
                .entry("finalizers")
                .or_insert_with(|| json!([]));
            let items = list.as_array_mut().unwrap();
            match items.iter().position(|f| f == name) {
                Some(at) => {
                    items.remove(at);
                }
                None => items.push(json!(name)),
            }
        }
        Change::Phase(phase) => {
            new["status"]["phase"] = json!(phase);
        }
    }
    new
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// PR #18139's per-key patches for a single-key change: nothing at
    /// warning or above, with or without the current object (and they
    /// apply to it).
    #[test]
    fn pr18139_single_key_patches_are_clean(old in vmi(), change in change(), with_object in any::<bool>()) {
        let new = changed(&old, &change);
        let plan = strategy::diff(&old, &new, &strategy::Options::preset(Preset::KubevirtPerKey)).unwrap();
        prop_assume!(!plan.is_empty());
        let options = Options {
            object: with_object.then(|| old.clone()),
            ..Options::default()
        };
        let report = lint::lint(&plan.body_text(), &options).unwrap();
        let loud: Vec<_> = report.findings.iter().filter(|f| f.severity >= Severity::Warning).collect();
        prop_assert!(loud.is_empty(), "{}: {:#?}", plan.body_text(), loud);
        if let Some(outcome) = &report.outcome {
            prop_assert!(outcome.applies, "{}", plan.body_text());
        }
    }
}
