//! Table tests: every kube-apiserver quirk, as each of the three evanphx
//! releases Kubernetes has shipped answers it, next to what strict RFC
//! 6902 does with the same input (`quirks.yaml`); plus the RFC 6902
//! Appendix A examples (`rfc6902_appendix_a.yaml`): data, and one runner.

use super::run::go_atoi;
use super::*;
use crate::kube::Evanphx;
use crate::limits::{COPY_LIMIT, MAX_BODY_BYTES, MAX_OPS};
use crate::patch::{OpKind, PayloadError};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::BTreeMap;

/// What an engine does with a case: the resulting document, or an error
/// whose text contains `error` (and, in kube mode, the HTTP status).
#[derive(Clone, Debug, Deserialize, Serialize)]
#[serde(untagged)]
enum Outcome {
    Doc { expected: Value },
    Fails { error: String, status: Option<u16> },
}

/// One row of a table: what each engine does with a patch on a document;
/// `kube` is what every evanphx release does unless `except` says
/// otherwise for a release. An engine without an outcome is not run.
#[derive(Debug, Deserialize, Serialize)]
struct Case {
    comment: String,
    doc: Value,
    patch: String,
    kube: Option<Outcome>,
    #[serde(default)]
    except: BTreeMap<Evanphx, Outcome>,
    rfc: Option<Outcome>,
}

impl Case {
    fn expected(&self, release: Evanphx) -> Option<&Outcome> {
        self.except.get(&release).or(self.kube.as_ref())
    }

    fn run(&self) {
        let kube = Evanphx::ALL.map(|r| (Engine::Kube(r), self.expected(r)));
        for (engine, expected) in kube.into_iter().chain([(Engine::Rfc, self.rfc.as_ref())]) {
            if let Some(expected) = expected {
                self.check(engine, expected);
            }
        }
    }

    fn check(&self, engine: Engine, expected: &Outcome) {
        let (what, doc) = (&self.comment, &self.doc);
        let mut got = doc.clone();
        let result = apply_payload(&mut got, &self.patch, engine);
        match (expected, result) {
            (Outcome::Doc { expected }, Ok(())) => assert_eq!(&got, expected, "{what} [{engine}]"),
            (Outcome::Fails { error, status }, Err(err)) => {
                assert_eq!(&got, doc, "{what} [{engine}]: document changed on error");
                let text = err.to_string();
                assert!(
                    text.contains(error.as_str()),
                    "{what} [{engine}]: error {text:?} lacks {error:?}"
                );
                match (engine, err.response()) {
                    (Engine::Kube(_), Some(response)) => {
                        assert_eq!(Some(response.code), *status, "{what} [{engine}]: status");
                        if response.code == 422 {
                            assert_eq!(response.message, GENERIC_422);
                        }
                    }
                    (Engine::Rfc, None) => {}
                    (_, response) => panic!("{what} [{engine}]: response {response:?}"),
                }
            }
            (expected, result) => {
                panic!("{what} [{engine}]: expected {expected:?}, got {result:?} with {got}")
            }
        }
    }
}

/// The rows of a table written in YAML.
fn table(yaml: &str) -> Vec<Case> {
    let (rows, _) = crate::input::parse(yaml, &crate::input::Budget::default()).unwrap();
    serde_json::from_value(rows).unwrap()
}

/// Every kube-apiserver quirk, as each release answers it, and strict RFC
/// 6902 next to it.
fn quirks() -> Vec<Case> {
    table(include_str!("quirks.yaml"))
}

#[test]
fn every_quirk_on_every_engine() {
    for quirk in quirks() {
        quirk.run();
    }
}

#[test]
fn the_table_tells_the_releases_apart() {
    // Each pair of releases differs on some row: the table would catch a
    // release modelled as another.
    let table = quirks();
    for (i, a) in Evanphx::ALL.iter().enumerate() {
        for b in &Evanphx::ALL[i + 1..] {
            let differs = table
                .iter()
                .any(|q| format!("{:?}", q.expected(*a)) != format!("{:?}", q.expected(*b)));
            assert!(differs, "{a} and {b} look alike");
        }
    }
}

/// RFC 6902 Appendix A, every example, in RFC mode (and A.16 in kube mode).
#[test]
fn rfc6902_appendix_a() {
    for example in table(include_str!("rfc6902_appendix_a.yaml")) {
        example.run();
    }
}

#[test]
fn body_limit_is_413_before_anything_is_decoded() {
    let payload = format!("[{}", " ".repeat(MAX_BODY_BYTES));
    let err = apply_payload(&mut json!({}), &payload, Semantics::Kube).unwrap_err();
    let status = err.response().unwrap();
    assert_eq!(
        (status.code, status.message.as_str()),
        (413, "Request entity too large: limit is 3145728")
    );
    // RFC mode has no body limit: the syntax error surfaces.
    let err = apply_payload(&mut json!({}), &payload, Semantics::Rfc).unwrap_err();
    assert!(
        matches!(err.cause, Cause::Payload(PayloadError::Syntax { .. })),
        "{err}"
    );
}

#[test]
fn decode_reports_the_servers_warnings() {
    let decoded = decode(
        r#"[{"op":"add","path":"/a","value":1,"xyz":2,"path":"/b"}]"#,
        Semantics::Kube,
    )
    .unwrap();
    assert_eq!(decoded.ops[0].path, "/b", "the last repeated member wins");
    assert_eq!(
        decoded.warnings,
        [
            r#"json patch unknown field "[0].xyz""#,
            r#"json patch duplicate field "[0].path""#
        ]
    );
    assert!(decode("[]", Semantics::Rfc).unwrap().warnings.is_empty());
}

#[test]
fn error_reports_have_one_shape() {
    let mut doc = json!({"a": 1});
    let err = apply_payload(
        &mut doc,
        r#"[{"op":"test","path":"/a","value":1.0}]"#,
        Evanphx::V4_12_0,
    )
    .unwrap_err();
    assert_eq!(
        serde_json::to_value(&err).unwrap(),
        json!({"index": 0, "op": "test", "path": "/a", "kind": "test-failed",
               "message": "test failed: the bytes differ: sent 1.0, the server stores 1 (one value, but the server compares scalars as bytes, the stored side in Go's encoding)", "expected": 1.0, "actual": 1,
               "engine": "evanphx-v4.12.0", "status": 422, "reason": "Invalid",
               "response": GENERIC_422})
    );
    let err = apply_payload(&mut doc, "{", Semantics::Rfc).unwrap_err();
    assert_eq!(
        serde_json::to_value(&err).unwrap(),
        json!({"index": null, "op": null, "path": null, "kind": "syntax",
               "message": "line 1, column 1: EOF while parsing an object", "engine": "rfc6902"})
    );
}

#[test]
fn too_many_ops_is_413_in_kube_only() {
    let ops: Vec<_> = (0..=MAX_OPS)
        .map(|i| Operation::add(format!("/k{i}"), i))
        .collect();
    let mut doc = json!({});
    let err = apply(&mut doc, &ops, Semantics::Kube).unwrap_err();
    assert_eq!(err.index, None);
    assert_eq!(err.response().unwrap().code, 413);
    assert_eq!(
        err.response().unwrap().message,
        "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001"
    );
    assert_eq!(doc, json!({}));
    apply(&mut doc, &ops, Semantics::Rfc).unwrap();
    assert_eq!(doc.as_object().unwrap().len(), MAX_OPS + 1);
    apply(&mut json!({}), &ops[..MAX_OPS], Semantics::Kube).unwrap();
}

#[test]
fn copy_growth_is_capped_in_kube() {
    let big = "x".repeat(1024 * 1024);
    let mut doc = json!({ "big": big });
    let copies: Vec<_> = (0..3)
        .map(|i| Operation::copy_from("/big", format!("/c{i}")))
        .collect();
    // Three copies of 1 MiB plus quotes stay under 3 MiB; a fourth does not.
    apply(&mut doc.clone(), &copies[..2], Semantics::Kube).unwrap();
    let mut four = copies.clone();
    four.push(Operation::copy_from("/big", "/c3"));
    let before = doc.clone();
    let err = apply(&mut doc, &four, Semantics::Kube).unwrap_err();
    assert_eq!(err.index, Some(2));
    assert!(matches!(err.cause, Cause::CopyLimit { size } if size > COPY_LIMIT));
    assert_eq!(doc, before);
    // RFC 6902 sets no limit; patchlab keeps the same budget there.
    let err = apply(&mut doc, &four, Semantics::Rfc).unwrap_err();
    assert_eq!(err.index, Some(2));
    assert!(matches!(err.cause, Cause::CopyBudget { size } if size > COPY_LIMIT));
    assert_eq!(doc, before);
}

#[test]
fn doubling_copies_stop_at_the_budget_not_at_memory() {
    // Each copy puts the document inside itself: 40 of them would need a
    // terabyte.
    let mut doc = json!({ "a": { "x": "0123456789" } });
    let ops: Vec<_> = (0..40)
        .map(|i| Operation::copy_from("/a", format!("/a/c{i}")))
        .collect();
    for semantics in [Semantics::Rfc, Semantics::Kube] {
        let before = doc.clone();
        let err = apply(&mut doc, &ops, semantics).unwrap_err();
        assert!(err.index.unwrap() < 25, "{err}");
        assert!(err.to_string().contains("copy ops would add"), "{err}");
        assert_eq!(doc, before);
    }
}

#[test]
fn document_must_be_a_container_in_kube() {
    let err = apply(
        &mut json!("x"),
        &[Operation::test("", "x")],
        Semantics::Kube,
    )
    .unwrap_err();
    assert_eq!(err.cause, Cause::DocumentNotContainer);
    apply(&mut json!("x"), &[Operation::test("", "x")], Semantics::Rfc).unwrap();
}

#[test]
fn builder_ops_are_sent_in_go_encoding() {
    // A builder op carries no received bytes: the engine compares the bytes
    // KubeVirt's builder would send, so `<` matches the stored `\u003c` and
    // 1.0 is sent as 1.
    let mut doc = json!({"a": "<b>", "n": 1});
    let ops = [Operation::test("/a", "<b>"), Operation::test("/n", 1.0)];
    apply(&mut doc, &ops, Semantics::Kube).unwrap();
}

#[test]
fn errors_name_index_op_path_and_cause() {
    let mut doc = json!({"metadata": {"labels": {"app": "web", "kubevirt.io/nodeName": "n2"}}});
    let ops = [
        Operation::add("/metadata/labels/tier", "db"),
        Operation::test("/metadata/labels", json!({"app": "web"})),
    ];
    let err = apply(&mut doc, &ops, Semantics::Kube).unwrap_err();
    assert_eq!(
        err.to_string(),
        r#"op 1 (test "/metadata/labels"): test failed: expected {"app":"web"}, found {"app":"web","kubevirt.io/nodeName":"n2","tier":"db"}"#
    );
    assert_eq!(err.op, Some(OpKind::Test));
    assert_eq!(err.path.as_deref(), Some("/metadata/labels"));
    assert_eq!(
        err.response().unwrap().to_string(),
        "HTTP 422 Invalid: the server rejected our request due to an error in our request"
    );
    assert!(doc["metadata"]["labels"].get("tier").is_none());
}

#[test]
fn undo_restores_member_order() {
    let doc = json!({"a": 1, "b": 2, "c": 3, "l": [1, 2, 3]});
    let ops = [
        Operation::remove("/b"),
        Operation::add("/b", 9),
        Operation::remove("/l/0"),
        Operation::replace("/l/0", 7),
        Operation::add("/l/1", 8),
        Operation::move_from("/a", "/z"),
        Operation::copy_from("/c", "/d"),
        Operation::replace("", json!({"all": "new"})),
        Operation::test("/all", "old"),
    ];
    for semantics in [Semantics::Kube, Semantics::Rfc] {
        let mut got = doc.clone();
        apply(&mut got, &ops, semantics).unwrap_err();
        assert_eq!(
            serde_json::to_string(&got).unwrap(),
            serde_json::to_string(&doc).unwrap(),
            "{semantics}: order restored"
        );
    }
}

#[test]
fn go_atoi_matches_strconv() {
    assert_eq!(go_atoi("0"), Some(0));
    assert_eq!(go_atoi("007"), Some(7));
    assert_eq!(go_atoi("+3"), Some(3));
    assert_eq!(go_atoi("-3"), Some(-3));
    assert_eq!(go_atoi("-0"), Some(0));
    assert_eq!(go_atoi(""), None);
    assert_eq!(go_atoi("-"), None);
    assert_eq!(go_atoi("1e0"), None);
    assert_eq!(go_atoi("1_000"), None);
    assert_eq!(go_atoi("99999999999999999999"), None);
}

#[test]
fn huge_and_odd_indices_are_clear_errors() {
    let doc = json!({"l": [1, 2]});
    let cases = [
        (
            "/l/99999999999999999999999",
            "is not an array index",
            "is not an array index",
        ),
        ("/l/9223372036854775807", "out of bounds", "out of bounds"),
        (
            "/l/-9223372036854775808",
            "out of bounds",
            "not an array index",
        ),
        ("/l/1e3", "is not an array index", "is not an array index"),
        ("/l/", "is not an array index", "is not an array index"),
        ("/l/ 1", "is not an array index", "is not an array index"),
    ];
    for (path, kube, rfc) in cases {
        for (semantics, message) in [(Semantics::Kube, kube), (Semantics::Rfc, rfc)] {
            for op in [
                Operation::remove(path),
                Operation::replace(path, 0),
                Operation::test(path, 1),
                Operation::add(path, 0),
            ] {
                let mut got = doc.clone();
                let err = apply(&mut got, std::slice::from_ref(&op), semantics).unwrap_err();
                assert!(err.to_string().contains(message), "{semantics} {op}: {err}");
                assert_eq!(got, doc);
            }
        }
    }
}

#[test]
fn a_test_that_differs_in_bytes_only_names_the_bytes() {
    let doc =
        json!({"metadata": {"annotations": {"note": "<b>"}}, "n": {"big": u64::MAX, "z": -0.0}});
    let cases = [
        (
            r#"[{"op":"test","path":"/metadata/annotations/note","value":"<b>"}]"#,
            r#"test failed: the bytes differ: sent "<b>", the server stores "\u003cb\u003e" (one value"#,
        ),
        (
            r#"[{"op":"test","path":"/n","value":{"z":0,"big":18446744073709551615}}]"#,
            "test failed: the bytes differ at /big: sent 18446744073709551615, the server stores 18446744073709552000 (one value",
        ),
        (
            r#"[{"op":"test","path":"/n/z","value":-0}]"#,
            "test failed: the bytes differ: sent -0, the server stores 0 (",
        ),
        // Other values: both are shown.
        (
            r#"[{"op":"test","path":"/n/z","value":1}]"#,
            "test failed: expected 1, found 0",
        ),
    ];
    for (patch, message) in cases {
        let err = apply_payload(&mut doc.clone(), patch, Semantics::Kube).unwrap_err();
        assert!(err.to_string().contains(message), "{patch}: {err}");
        assert_eq!(err.response().unwrap().code, 422);
    }
    // A document's `-0` is Go's integer 0: `test 0` passes, and passes
    // the stored `\u003c` form too.
    for patch in [
        r#"[{"op":"test","path":"/n/z","value":0}]"#,
        r#"[{"op":"test","path":"/metadata/annotations/note","value":"\u003cb\u003e"}]"#,
        r#"[{"op":"test","path":"/n/big","value":18446744073709552000}]"#,
    ] {
        apply_payload(&mut doc.clone(), patch, Semantics::Kube).unwrap();
    }
    // RFC 6902 compares values: nothing differs.
    apply_payload(
        &mut doc.clone(),
        r#"[{"op":"test","path":"/metadata/annotations/note","value":"<b>"}]"#,
        Semantics::Rfc,
    )
    .unwrap();
}

/// A path whose first token is empty (`//...`): the tokens after it still
/// follow a `/`, so the error's path is cut at a character boundary. A
/// property test found `//ünï/x` panicking on a cut inside `ï`.
#[test]
fn a_missing_path_after_an_empty_first_token_is_reported_whole() {
    let doc = json!({"": {}});
    let patch = r#"[{"op": "add", "path": "//ünï/x", "value": 1}]"#;
    for engine in Evanphx::ALL
        .into_iter()
        .map(Engine::Kube)
        .chain([Engine::Rfc])
    {
        let mut got = doc.clone();
        let error = apply_payload(&mut got, patch, engine).unwrap_err();
        assert_eq!(got, doc, "[{engine}]");
        match &error.cause {
            Cause::MissingPath { at, .. } => assert_eq!(at, "//ünï", "[{engine}]"),
            other => panic!("[{engine}]: {other:?}"),
        }
    }
}
