//! `patchlab::explain` end to end: a corpus of error texts written in the
//! shapes real tools print (tests/explain/corpus.yaml), each with its
//! expected class, run with an accuracy printed; and every answer the
//! modelled server can give ([`patchlab::status::answers`]), rendered as
//! kubectl, client-go, a controller's log line and a `Status` JSON, read
//! back to the classes that produce it.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeSet;

use serde_json::Value;

use patchlab::apply::{self, Engine};
use patchlab::explain::{self, render, Request};
use patchlab::input::{self, Budget};
use patchlab::kube::Evanphx;
use patchlab::kube::KubeVersion;
use patchlab::status;
use patchlab::vocabulary::ErrorClass;

fn corpus(file: &str) -> Vec<Value> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/explain")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let (value, _) = input::parse(&text, &Budget::default()).unwrap();
    value["cases"].as_array().unwrap().clone()
}

fn ids(classes: &[ErrorClass]) -> BTreeSet<String> {
    classes.iter().map(|c| c.id().to_owned()).collect()
}

/// What a case expects: one class (decided) or a set (undecided; empty:
/// not recognised).
fn expectation(case: &Value) -> (Option<String>, BTreeSet<String>) {
    match &case["expect"] {
        Value::String(s) => (Some(s.clone()), BTreeSet::new()),
        Value::Array(list) => (
            None,
            list.iter()
                .map(|v| v.as_str().unwrap().to_owned())
                .collect(),
        ),
        other => panic!("{}: bad expect {other}", case["id"]),
    }
}

#[test]
fn corpus_is_classified_right() {
    let cases = corpus("corpus.yaml");
    assert!(cases.len() >= 60, "{} cases", cases.len());
    run_corpus("corpus", &cases);
}

/// Texts written after the classifier, to measure it on texts it was not
/// written against (the first run's accuracy is in docs/explain.md).
#[test]
fn holdout_is_classified_right() {
    let cases = corpus("holdout.yaml");
    assert!(cases.len() >= 20, "{} cases", cases.len());
    run_corpus("holdout", &cases);
}

fn run_corpus(name: &str, cases: &[Value]) {
    let mut right = 0;
    let mut shapes_right = 0;
    let mut failures = Vec::new();
    let mut per_shape: std::collections::BTreeMap<String, (usize, usize)> = Default::default();
    for case in cases {
        let id = case["id"].as_str().unwrap();
        let kube: Option<KubeVersion> = case["kube"].as_str().map(|v| v.parse().unwrap());
        let request = Request {
            text: case["text"].as_str().unwrap(),
            patch: case["patch"].as_str(),
            object: case["object"].as_str(),
            kube_version: kube.map(Into::into),
            content_type: case["content_type"].as_str(),
        };
        let e = explain::explain(&request).unwrap_or_else(|err| panic!("{id}: {err}"));
        let got_class = e.class.map(|c| c.id().to_owned());
        let got_set = ids(&e.candidates.iter().map(|c| c.class).collect::<Vec<_>>());
        let (want_class, want_set) = expectation(case);
        let ok = match &want_class {
            Some(c) => got_class.as_deref() == Some(c.as_str()),
            None => got_class.is_none() && got_set == want_set,
        };
        let shape = case["shape"].as_str().unwrap();
        let shape_ok = e.shape.as_str() == shape;
        let entry = per_shape.entry(shape.to_owned()).or_default();
        entry.1 += 1;
        if ok {
            right += 1;
            entry.0 += 1;
        } else {
            failures.push(format!(
                "{id}: expected {want_class:?} {want_set:?}, got {got_class:?} {got_set:?}"
            ));
        }
        if shape_ok {
            shapes_right += 1;
        } else {
            failures.push(format!(
                "{id}: read as {}, expected {shape}",
                e.shape.as_str()
            ));
        }
        assert_eq!(e.recognised, !e.candidates.is_empty(), "{id}");
    }
    let n = cases.len();
    println!(
        "explain {name}: {right}/{n} classified right ({:.1}%), {shapes_right}/{n} shapes read right",
        100.0 * right as f64 / n as f64
    );
    for (shape, (ok, total)) in &per_shape {
        println!("  {shape:>14}: {ok}/{total}");
    }
    for f in &failures {
        println!("  MISS {f}");
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Every answer of the modelled server, rendered as each tool shows it,
/// is read back to (exactly) the classes that produce it; ambiguous
/// answers list them all as candidates and decide nothing.
#[test]
fn every_status_answer_is_explained_back_to_its_classes() {
    let answers = status::answers();
    let mut checked = 0;
    for answer in &answers {
        let want: BTreeSet<String> = ids(answer.classes);
        let renderings = [
            ("kubectl", render::kubectl(&answer.status)),
            ("client-go", render::client_go(&answer.status)),
            ("controller-runtime", render::reconciler_log(&answer.status)),
            (
                "status-json",
                render::status_json(&answer.status).to_string(),
            ),
            (
                "status-json-pretty",
                serde_json::to_string_pretty(&render::status_json(&answer.status)).unwrap(),
            ),
        ];
        for (how, text) in renderings {
            let e = explain::explain(&Request::text(&text)).unwrap();
            let got = ids(&e.candidates.iter().map(|c| c.class).collect::<Vec<_>>());
            // A bare 422 from a JSON patch could also be a strategic merge
            // patch's: without the content type, that candidate stays.
            let mut want = want.clone();
            if answer.classes == ErrorClass::BARE_422 {
                want.insert(ErrorClass::SmpMergeKey.id().to_owned());
            }
            assert_eq!(got, want, "{} as {how}: {text}", answer.constructor);
            if want.len() == 1 {
                assert_eq!(
                    e.class.map(|c| c.id().to_owned()),
                    want.iter().next().cloned(),
                    "{} as {how}",
                    answer.constructor
                );
            } else {
                assert_eq!(e.class, None, "{} as {how}", answer.constructor);
                assert!(e.would_decide.is_some());
            }
            checked += 1;
        }
    }
    println!(
        "{} answers x 5 renderings explained back to their classes",
        answers.len()
    );
    assert_eq!(checked, answers.len() * 5);
}

/// Every failure the engine can give to a JSON patch (one case per
/// class of [`apply::Cause`]): the server's answer, as kubectl shows it,
/// with the patch and the object, is decided by the replay and names the
/// failing op, on each engine.
#[test]
fn a_bare_422_with_patch_and_object_names_the_failing_op() {
    let object = r#"{"metadata":{"name":"testvmi","labels":{"a":"1","b":"2"},"finalizers":["x"]},"status":{"conditions":[{"type":"Ready"}]}}"#;
    let cases = [
        (
            r#"[{"op":"add","path":"/metadata/labels/c","value":"3"},{"op":"test","path":"/metadata/labels","value":{"a":"1"}}]"#,
            ErrorClass::TestFailed,
            1usize,
        ),
        (
            r#"[{"op":"remove","path":"/metadata/annotations/x"}]"#,
            ErrorClass::MissingPath,
            0,
        ),
        (
            r#"[{"op":"replace","path":"/spec/a/b","value":1}]"#,
            ErrorClass::MissingPath,
            0,
        ),
        (
            r#"[{"op":"add","path":"/metadata/finalizers/5","value":"y"}]"#,
            ErrorClass::BadIndex,
            0,
        ),
        (
            r#"[{"op":"remove","path":"/status/conditions/x"}]"#,
            ErrorClass::BadIndex,
            0,
        ),
        (
            r#"[{"op":"test","path":"/metadata/name","value":"testvmi"},{"op":"frob","path":"/a"}]"#,
            ErrorClass::MalformedOp,
            1,
        ),
        (
            r#"[{"op":"add","path":"","value":{}}]"#,
            ErrorClass::MalformedOp,
            0,
        ),
    ];
    let text = render::kubectl(&status::Status::json_patch_failed());
    for release in ["1.28.0", "1.30", "1.36"] {
        let release: KubeVersion = release.parse().unwrap();
        for (patch, class, index) in cases {
            // The engine itself agrees on the class first.
            let mut doc: Value = serde_json::from_str(object).unwrap();
            let err =
                apply::apply_payload(&mut doc, patch, Engine::Kube(release.engine())).unwrap_err();
            assert_eq!(err.cause.class(), class, "{patch} on {release}: {err}");
            let e = explain::explain(&Request {
                patch: Some(patch),
                object: Some(object),
                kube_version: Some(release.into()),
                ..Request::text(&text)
            })
            .unwrap();
            assert_eq!(e.class, Some(class), "{patch} on {release}");
            let replay = e.replay.as_ref().unwrap();
            assert_eq!(replay.index, Some(index), "{patch}");
            assert!(
                e.decided_by.as_deref().unwrap().contains("replaying"),
                "{patch}"
            );
            assert!(e.summary.contains(&format!("Op {index}")), "{}", e.summary);
            assert!(e.check_link.as_deref().unwrap().starts_with("#/check?s=1."));
        }
    }
    // A failed test names what it expected and what was there.
    let e = explain::explain(&Request {
        patch: Some(cases[0].0),
        object: Some(object),
        ..Request::text(&text)
    })
    .unwrap();
    let replay = e.replay.unwrap();
    assert_eq!(replay.expected, Some(serde_json::json!({"a": "1"})));
    assert_eq!(
        replay.actual,
        Some(serde_json::json!({"a": "1", "b": "2", "c": "3"}))
    );
    assert!(
        e.summary
            .contains(r#"it expected {"a":"1"} and the object holds {"a":"1","b":"2","c":"3"}"#),
        "{}",
        e.summary
    );
    assert_eq!(release_engines(), 3);
}

fn release_engines() -> usize {
    let engines: BTreeSet<&str> = KubeVersion::choices()
        .iter()
        .map(|v| Evanphx::tag(v.engine()))
        .collect();
    engines.len()
}

/// The panic releases come from the replay, release by release.
#[test]
fn engine_panics_name_the_releases() {
    let text = render::kubectl(&status::Status::panicked(None));
    let object = r#"{"metadata":{"name":"testvmi","labels":{}}}"#;
    let e = explain::explain(&Request {
        patch: Some(r#"[{"op":"test","path":"/metadata/labels/a"}]"#),
        object: Some(object),
        kube_version: Some("1.30".parse().unwrap()),
        ..Request::text(&text)
    })
    .unwrap();
    assert_eq!(e.class, Some(ErrorClass::EnginePanic));
    let minors: Vec<u16> = e.panics_on.iter().map(|v| v.minor()).collect();
    assert!(minors.contains(&25) && minors.contains(&34), "{minors:?}");
    assert!(!minors.contains(&35) && !minors.contains(&36), "{minors:?}");
    assert!(e.summary.contains("1.25 to 1.34"), "{}", e.summary);
    assert!(
        e.fix.iter().any(|f| f.contains("1.35 and later")),
        "{:?}",
        e.fix
    );
    // On 1.36 the same patch is a 422, not a panic: the text (a panic)
    // came from an older release.
    let e = explain::explain(&Request {
        patch: Some(r#"[{"op":"test","path":"/metadata/labels/a"}]"#),
        object: Some(object),
        ..Request::text(&text)
    })
    .unwrap();
    assert_eq!(e.class, Some(ErrorClass::EnginePanic));
    assert!(
        e.replay.unwrap().applies,
        "v4.13.0 passes a test of null on a missing member"
    );
}

/// docs/explain.md has a row for every class.
#[test]
fn the_docs_name_every_class() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/explain.md");
    let doc = std::fs::read_to_string(path).unwrap();
    for class in ErrorClass::ALL {
        assert!(
            doc.contains(&format!("| `{}` |", class.id())),
            "docs/explain.md has no row for {class}"
        );
    }
}

/// Every signature is reachable: its example, as the program prints it,
/// is classified by that signature (no earlier one shadows it), to its
/// classes; and each names its source.
#[test]
fn every_signature_is_reachable_from_its_example() {
    use patchlab::explain::signatures::SIGNATURES;
    let mut failures = Vec::new();
    for sig in SIGNATURES {
        assert!(!sig.source.is_empty(), "{}: no source", sig.text);
        let e = explain::explain(&Request::text(sig.example)).unwrap();
        if e.matched != Some(sig.text) {
            failures.push(format!(
                "{:?}: its example matched {:?}",
                sig.text, e.matched
            ));
            continue;
        }
        let got: Vec<ErrorClass> = e.candidates.iter().map(|c| c.class).collect();
        if !sig.classes.iter().all(|c| got.contains(c)) && got.len() != 1 {
            failures.push(format!("{:?}: classes {got:?}", sig.text));
        }
    }
    println!(
        "{} signatures, each reached by its example",
        SIGNATURES.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}

/// docs/explain.md lists the table the classifier reads, as generated
/// (`explain::signatures::markdown`), between its markers.
#[test]
fn docs_list_every_signature_with_its_source() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/explain.md");
    let docs = std::fs::read_to_string(path).unwrap();
    let begin = "<!-- signatures: generated by explain::signatures::markdown -->\n";
    let end = "<!-- end of signatures -->";
    let start = docs.find(begin).expect("the begin marker") + begin.len();
    let stop = docs[start..].find(end).expect("the end marker") + start;
    let want = explain::signatures::markdown();
    assert!(
        docs[start..stop] == want,
        "docs/explain.md's signature table differs; it should read:\n{want}"
    );
}

/// A rewrite is offered only after it was linted and replayed on the
/// object given: lint's per-key fix of a whole-map test still tests the
/// key the object changed, so it fails there and is not offered.
#[test]
fn a_rewrite_that_would_fail_is_never_offered() {
    let text = render::kubectl(&status::Status::json_patch_failed());
    let patch = r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1","b":"2"}},{"op":"replace","path":"/metadata/labels","value":{"a":"2","b":"2"}}]"#;
    let fresh = r#"{"metadata":{"name":"x","labels":{"a":"1","b":"2","c":"3"}}}"#;
    let changed = r#"{"metadata":{"name":"x","labels":{"a":"9","b":"2"}}}"#;
    for (object, offered) in [(fresh, true), (changed, false)] {
        let e = explain::explain(&Request {
            patch: Some(patch),
            object: Some(object),
            ..Request::text(&text)
        })
        .unwrap();
        assert!(!e.offers.is_empty(), "{object}: no rewrite considered");
        for o in &e.offers {
            let mut doc: Value = serde_json::from_str(object).unwrap();
            let applies = if o.content_type == "application/merge-patch+json" {
                apply::apply_merge(&mut doc, &o.payload, Engine::Kube(e.release.engine())).is_ok()
            } else {
                apply::apply_payload(&mut doc, &o.payload, Engine::Kube(e.release.engine())).is_ok()
            };
            assert_eq!(o.replayed, Some(applies), "{object}: {o:?}");
            assert_eq!(o.offered(), applies, "{object}: {o:?}");
        }
        let any = e.offers.iter().any(|o| o.offered());
        assert_eq!(any, offered, "{object}: {:?}", e.offers);
        assert_eq!(e.rewrite.is_some(), offered);
        let text = explain::text(&e);
        assert_eq!(text.contains("send instead ("), offered, "{text}");
        if !offered {
            assert!(text.contains("not offered: lint "), "{text}");
            // The same patch fails again on the object: retry says no.
            assert_eq!(e.retry.unwrap().helps, explain::Helps::No);
        }
    }
}
