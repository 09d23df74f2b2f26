//! Table tests: every kube-apiserver quirk next to what strict RFC 6902
//! does with the same input, plus the RFC 6902 Appendix A examples.

use super::*;
use serde_json::json;

/// What an engine does with a case: the resulting document, or an error
/// whose text contains `message` (and, in kube mode, the HTTP status).
#[derive(Debug)]
enum Outcome {
    Doc(Value),
    Fails(&'static str, u16),
}
use Outcome::{Doc, Fails};

struct Quirk {
    what: &'static str,
    doc: Value,
    patch: &'static str,
    kube: Outcome,
    rfc: Outcome,
}

fn check(what: &str, semantics: Semantics, doc: &Value, patch: &str, expected: &Outcome) {
    let mut got = doc.clone();
    let result = apply_payload(&mut got, patch, semantics);
    match (expected, result) {
        (Doc(want), Ok(())) => assert_eq!(&got, want, "{what} [{semantics}]"),
        (Fails(message, status), Err(err)) => {
            assert_eq!(&got, doc, "{what} [{semantics}]: document changed on error");
            let text = err.to_string();
            assert!(
                text.contains(message),
                "{what} [{semantics}]: error {text:?} lacks {message:?}"
            );
            match (semantics, err.response()) {
                (Semantics::Kube, Some(response)) => {
                    assert_eq!(response.code, *status, "{what}: status");
                    if response.code == 422 {
                        assert_eq!(response.message, GENERIC_422);
                    }
                }
                (Semantics::Rfc, None) => {}
                (_, response) => panic!("{what} [{semantics}]: response {response:?}"),
            }
        }
        (expected, result) => {
            panic!("{what} [{semantics}]: expected {expected:?}, got {result:?} with {got}")
        }
    }
}

fn quirks() -> Vec<Quirk> {
    vec![
        Quirk {
            what: "replace of a missing member acts as add",
            doc: json!({"metadata": {"labels": {}}}),
            patch: r#"[{"op":"replace","path":"/metadata/labels/a","value":"1"}]"#,
            kube: Doc(json!({"metadata": {"labels": {"a": "1"}}})),
            rfc: Fails("target member \"a\" does not exist", 0),
        },
        Quirk {
            what: "test of null passes on a missing member",
            doc: json!({"metadata": {}}),
            patch: r#"[{"op":"test","path":"/metadata/finalizers","value":null},
                       {"op":"replace","path":"/metadata/finalizers","value":["f"]}]"#,
            kube: Doc(json!({"metadata": {"finalizers": ["f"]}})),
            rfc: Fails("test failed: expected null, found nothing", 0),
        },
        Quirk {
            what: "test of null passes on a null member",
            doc: json!({"status": {"migrationState": null}}),
            patch: r#"[{"op":"test","path":"/status/migrationState","value":null}]"#,
            kube: Doc(json!({"status": {"migrationState": null}})),
            rfc: Doc(json!({"status": {"migrationState": null}})),
        },
        Quirk {
            what: "test of a value fails on a missing member",
            doc: json!({"metadata": {}}),
            patch: r#"[{"op":"test","path":"/metadata/labels","value":{}}]"#,
            kube: Fails("test failed: expected {}, found nothing", 422),
            rfc: Fails("test failed: expected {}, found nothing", 0),
        },
        Quirk {
            what: "numbers compare as bytes: 1.0 is not 1",
            doc: json!({"spec": {"replicas": 1}}),
            patch: r#"[{"op":"test","path":"/spec/replicas","value":1.0}]"#,
            kube: Fails("test failed: expected 1.0, found 1", 422),
            rfc: Doc(json!({"spec": {"replicas": 1}})),
        },
        Quirk {
            what: "strings compare as bytes: raw < is not the stored \\u003c",
            doc: json!({"a": "<b>"}),
            patch: r#"[{"op":"test","path":"/a","value":"<b>"}]"#,
            kube: Fails("test failed", 422),
            rfc: Doc(json!({"a": "<b>"})),
        },
        Quirk {
            what: "strings compare as bytes: Go's \\u003c matches",
            doc: json!({"a": "<b>"}),
            patch: r#"[{"op":"test","path":"/a","value":"\u003cb\u003e"}]"#,
            kube: Doc(json!({"a": "<b>"})),
            rfc: Doc(json!({"a": "<b>"})),
        },
        Quirk {
            what: "objects: a null member differs from an absent one",
            doc: json!({"m": {"a": null}}),
            patch: r#"[{"op":"test","path":"/m","value":{}}]"#,
            kube: Fails("test failed", 422),
            rfc: Fails("test failed", 0),
        },
        Quirk {
            what: "objects compare in any key order",
            doc: json!({"m": {"a": "1", "b": "2"}}),
            patch: r#"[{"op":"test","path":"/m","value":{"b":"2","a":"1"}}]"#,
            kube: Doc(json!({"m": {"a": "1", "b": "2"}})),
            rfc: Doc(json!({"m": {"a": "1", "b": "2"}})),
        },
        Quirk {
            what: "negative index removes from the end",
            doc: json!({"l": ["a", "b", "c"]}),
            patch: r#"[{"op":"remove","path":"/l/-1"}]"#,
            kube: Doc(json!({"l": ["a", "b"]})),
            rfc: Fails("not an array index", 0),
        },
        Quirk {
            what: "negative index in add counts from one past the end",
            doc: json!({"l": ["a", "b"]}),
            patch: r#"[{"op":"add","path":"/l/-1","value":"z"}]"#,
            kube: Doc(json!({"l": ["a", "b", "z"]})),
            rfc: Fails("not an array index", 0),
        },
        Quirk {
            what: "negative index below the start fails",
            doc: json!({"l": ["a"]}),
            patch: r#"[{"op":"replace","path":"/l/-2","value":"z"}]"#,
            kube: Fails("array index -2 is out of bounds (length 1)", 422),
            rfc: Fails("not an array index", 0),
        },
        Quirk {
            what: "leading zeros in an index are accepted",
            doc: json!({"l": ["a", "b"]}),
            patch: r#"[{"op":"test","path":"/l/01","value":"b"}]"#,
            kube: Doc(json!({"l": ["a", "b"]})),
            rfc: Fails("leading zero", 0),
        },
        Quirk {
            what: "add past the end of an array fails",
            doc: json!({"l": ["a"]}),
            patch: r#"[{"op":"add","path":"/l/2","value":"z"}]"#,
            kube: Fails("array index 2 is out of bounds (length 1)", 422),
            rfc: Fails("array index 2 is out of bounds (length 1)", 0),
        },
        Quirk {
            what: "add at the length appends",
            doc: json!({"l": ["a"]}),
            patch: r#"[{"op":"add","path":"/l/1","value":"z"},{"op":"add","path":"/l/-","value":"y"}]"#,
            kube: Doc(json!({"l": ["a", "z", "y"]})),
            rfc: Doc(json!({"l": ["a", "z", "y"]})),
        },
        Quirk {
            what: "remove of a missing member fails",
            doc: json!({"metadata": {"labels": {}}}),
            patch: r#"[{"op":"remove","path":"/metadata/labels/gone"}]"#,
            kube: Fails("target member \"gone\" does not exist", 422),
            rfc: Fails("target member \"gone\" does not exist", 0),
        },
        Quirk {
            what: "remove of a member holding null works",
            doc: json!({"a": null, "b": 1}),
            patch: r#"[{"op":"remove","path":"/a"}]"#,
            kube: Doc(json!({"b": 1})),
            rfc: Doc(json!({"b": 1})),
        },
        Quirk {
            what: "a null intermediate node is a missing path",
            doc: json!({"metadata": {"labels": null}}),
            patch: r#"[{"op":"add","path":"/metadata/labels/a","value":"1"}]"#,
            kube: Fails("path does not exist: /metadata/labels is null", 422),
            rfc: Fails("path does not exist: /metadata/labels is null", 0),
        },
        Quirk {
            what: "missing objects are not created",
            doc: json!({"metadata": {}}),
            patch: r#"[{"op":"add","path":"/metadata/labels/a","value":"1"}]"#,
            kube: Fails("path does not exist: /metadata/labels is absent", 422),
            rfc: Fails("path does not exist: /metadata/labels is absent", 0),
        },
        Quirk {
            what: "add may not target the whole document",
            doc: json!({"a": 1}),
            patch: r#"[{"op":"add","path":"","value":{"b":2}}]"#,
            kube: Fails("cannot target the whole document", 422),
            rfc: Doc(json!({"b": 2})),
        },
        Quirk {
            what: "replace of the whole document with an object",
            doc: json!({"a": 1}),
            patch: r#"[{"op":"replace","path":"","value":{"b":2}}]"#,
            kube: Doc(json!({"b": 2})),
            rfc: Doc(json!({"b": 2})),
        },
        Quirk {
            what: "replace of the whole document with a scalar is silently ignored",
            doc: json!({"a": 1}),
            patch: r#"[{"op":"replace","path":"","value":"x"}]"#,
            kube: Doc(json!({"a": 1})),
            rfc: Doc(json!("x")),
        },
        Quirk {
            what: "test of the whole document",
            doc: json!({"a": 1}),
            patch: r#"[{"op":"test","path":"","value":{"a":1}}]"#,
            kube: Doc(json!({"a": 1})),
            rfc: Doc(json!({"a": 1})),
        },
        Quirk {
            what: "the first segment of a path without leading slash is ignored",
            doc: json!({"b": 1}),
            patch: r#"[{"op":"replace","path":"a/b","value":2}]"#,
            kube: Doc(json!({"b": 2})),
            rfc: Fails("must be empty or start with '/'", 0),
        },
        Quirk {
            what: "a path with no slash addresses nothing",
            doc: json!({"b": 1}),
            patch: r#"[{"op":"test","path":"b","value":1}]"#,
            kube: Fails("path holds no '/'", 422),
            rfc: Fails("must be empty or start with '/'", 0),
        },
        Quirk {
            what: "invalid escapes are kept literally",
            doc: json!({"a~2b": 1}),
            patch: r#"[{"op":"test","path":"/a~2b","value":1}]"#,
            kube: Doc(json!({"a~2b": 1})),
            rfc: Fails("invalid escape in token 0 at byte 2", 0),
        },
        Quirk {
            what: "escaped keys resolve",
            doc: json!({"metadata": {"labels": {"kubevirt.io/nodeName": "n1", "a~b": "x"}}}),
            patch: r#"[{"op":"test","path":"/metadata/labels/kubevirt.io~1nodeName","value":"n1"},
                       {"op":"remove","path":"/metadata/labels/a~0b"}]"#,
            kube: Doc(json!({"metadata": {"labels": {"kubevirt.io/nodeName": "n1"}}})),
            rfc: Doc(json!({"metadata": {"labels": {"kubevirt.io/nodeName": "n1"}}})),
        },
        Quirk {
            what: "copy from a missing member copies null",
            doc: json!({"a": {}}),
            patch: r#"[{"op":"copy","from":"/a/missing","path":"/b"}]"#,
            kube: Doc(json!({"a": {}, "b": null})),
            rfc: Fails("from member \"missing\" does not exist", 0),
        },
        Quirk {
            what: "move from a missing member fails",
            doc: json!({"a": {}}),
            patch: r#"[{"op":"move","from":"/a/missing","path":"/b"}]"#,
            kube: Fails("from member \"missing\" does not exist", 422),
            rfc: Fails("from member \"missing\" does not exist", 0),
        },
        Quirk {
            what: "move into a child is refused by the RFC, fails late in v4",
            doc: json!({"a": {"b": 1}}),
            patch: r#"[{"op":"move","from":"/a","path":"/a/c"}]"#,
            kube: Fails("path does not exist: /a is absent", 422),
            rfc: Fails("cannot move a value into one of its children", 0),
        },
        Quirk {
            what: "value missing on add means null",
            doc: json!({}),
            patch: r#"[{"op":"add","path":"/a"}]"#,
            kube: Doc(json!({"a": null})),
            rfc: Fails("the op has no 'value'", 0),
        },
        Quirk {
            what: "test without value on a missing member panics the Go engine",
            doc: json!({}),
            patch: r#"[{"op":"test","path":"/a"}]"#,
            kube: Fails("panics here", 500),
            rfc: Fails("the op has no 'value'", 0),
        },
        Quirk {
            what: "test of arrays holding null panics the Go engine",
            doc: json!({"l": [null]}),
            patch: r#"[{"op":"test","path":"/l","value":[null]}]"#,
            kube: Fails("comparing arrays that hold null", 500),
            rfc: Doc(json!({"l": [null]})),
        },
        Quirk {
            what: "unknown op: the ops before it run, then it fails",
            doc: json!({"a": 1}),
            patch: r#"[{"op":"replace","path":"/a","value":2},{"op":"frobnicate","path":"/a"}]"#,
            kube: Fails(
                "op 1: field 'op' names an unknown operation \"frobnicate\"",
                422,
            ),
            rfc: Fails(
                "op 1: field 'op' names an unknown operation \"frobnicate\"",
                0,
            ),
        },
        Quirk {
            what: "an earlier failing op wins over a later malformed one",
            doc: json!({"a": 1}),
            patch: r#"[{"op":"test","path":"/a","value":2},{"op":"frobnicate","path":"/a"}]"#,
            kube: Fails("op 0 (test \"/a\"): test failed", 422),
            rfc: Fails("op 0 (test \"/a\"): test failed", 0),
        },
        Quirk {
            what: "a body that is not an array is a bad request",
            doc: json!({"a": 1}),
            patch: r#"{"op":"test","path":"/a","value":1}"#,
            kube: Fails("must be an array of operations, found an object", 400),
            rfc: Fails("must be an array of operations, found an object", 0),
        },
        Quirk {
            what: "an element that is not an object spoils the body",
            doc: json!({"a": 1}),
            patch: r#"[{"op":"remove","path":"/a"},"remove"]"#,
            kube: Fails("op 1: is not a JSON object", 400),
            rfc: Fails("op 1: is not a JSON object", 0),
        },
        Quirk {
            what: "a null body is an empty patch",
            doc: json!({"a": 1}),
            patch: "null",
            kube: Doc(json!({"a": 1})),
            rfc: Doc(json!({"a": 1})),
        },
        Quirk {
            what: "atomic: a failing test drops the ops before it",
            doc: json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "status": {"x": 1}}),
            patch: r#"[{"op":"replace","path":"/status/x","value":2},
                       {"op":"add","path":"/status/y","value":[1]},
                       {"op":"remove","path":"/metadata/labels/a"},
                       {"op":"test","path":"/metadata/labels","value":{"a":"1"}}]"#,
            kube: Fails("op 3 (test \"/metadata/labels\"): test failed", 422),
            rfc: Fails("op 3 (test \"/metadata/labels\"): test failed", 0),
        },
    ]
}

#[test]
fn every_kube_quirk_and_its_rfc_counterpart() {
    for quirk in quirks() {
        check(
            quirk.what,
            Semantics::Kube,
            &quirk.doc,
            quirk.patch,
            &quirk.kube,
        );
        check(
            quirk.what,
            Semantics::Rfc,
            &quirk.doc,
            quirk.patch,
            &quirk.rfc,
        );
    }
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
        "The allowed maximum operations in a JSON patch is 10000, got 10001"
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

/// RFC 6902 Appendix A, every example, in RFC mode.
#[test]
fn rfc6902_appendix_a() {
    let cases: [(&str, Value, &str, Result<Value, &str>); 17] = [
        (
            "A.1",
            json!({"foo": "bar"}),
            r#"[{"op":"add","path":"/baz","value":"qux"}]"#,
            Ok(json!({"baz": "qux", "foo": "bar"})),
        ),
        (
            "A.2",
            json!({"foo": ["bar", "baz"]}),
            r#"[{"op":"add","path":"/foo/1","value":"qux"}]"#,
            Ok(json!({"foo": ["bar", "qux", "baz"]})),
        ),
        (
            "A.3",
            json!({"baz": "qux", "foo": "bar"}),
            r#"[{"op":"remove","path":"/baz"}]"#,
            Ok(json!({"foo": "bar"})),
        ),
        (
            "A.4",
            json!({"foo": ["bar", "qux", "baz"]}),
            r#"[{"op":"remove","path":"/foo/1"}]"#,
            Ok(json!({"foo": ["bar", "baz"]})),
        ),
        (
            "A.5",
            json!({"baz": "qux", "foo": "bar"}),
            r#"[{"op":"replace","path":"/baz","value":"boo"}]"#,
            Ok(json!({"baz": "boo", "foo": "bar"})),
        ),
        (
            "A.6",
            json!({"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}),
            r#"[{"op":"move","from":"/foo/waldo","path":"/qux/thud"}]"#,
            Ok(json!({"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}})),
        ),
        (
            "A.7",
            json!({"foo": ["all", "grass", "cows", "eat"]}),
            r#"[{"op":"move","from":"/foo/1","path":"/foo/3"}]"#,
            Ok(json!({"foo": ["all", "cows", "eat", "grass"]})),
        ),
        (
            "A.8",
            json!({"baz": "qux", "foo": ["a", 2, "c"]}),
            r#"[{"op":"test","path":"/baz","value":"qux"},{"op":"test","path":"/foo/1","value":2}]"#,
            Ok(json!({"baz": "qux", "foo": ["a", 2, "c"]})),
        ),
        (
            "A.9",
            json!({"baz": "qux"}),
            r#"[{"op":"test","path":"/baz","value":"bar"}]"#,
            Err("test failed"),
        ),
        (
            "A.10",
            json!({"foo": "bar"}),
            r#"[{"op":"add","path":"/child","value":{"grandchild":{}}}]"#,
            Ok(json!({"foo": "bar", "child": {"grandchild": {}}})),
        ),
        (
            "A.11",
            json!({"foo": "bar"}),
            r#"[{"op":"add","path":"/baz","value":"qux","xyz":123}]"#,
            Ok(json!({"foo": "bar", "baz": "qux"})),
        ),
        (
            "A.12",
            json!({"foo": "bar"}),
            r#"[{"op":"add","path":"/baz/bat","value":"qux"}]"#,
            Err("path does not exist: /baz is absent"),
        ),
        (
            "A.13",
            json!({"foo": "bar"}),
            r#"[{"op":"add","path":"/baz","value":"qux","op":"remove"}]"#,
            Err("duplicate field `op`"),
        ),
        (
            "A.14",
            json!({"/": 9, "~1": 10}),
            r#"[{"op":"test","path":"/~01","value":10}]"#,
            Ok(json!({"/": 9, "~1": 10})),
        ),
        (
            "A.15",
            json!({"/": 9, "~1": 10}),
            r#"[{"op":"test","path":"/~01","value":"10"}]"#,
            Err("test failed"),
        ),
        (
            "A.16",
            json!({"foo": ["bar"]}),
            r#"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
            Ok(json!({"foo": ["bar", ["abc", "def"]]})),
        ),
        (
            "A.16 (kube)",
            json!({"foo": ["bar"]}),
            r#"[{"op":"add","path":"/foo/-","value":["abc","def"]}]"#,
            Ok(json!({"foo": ["bar", ["abc", "def"]]})),
        ),
    ];
    for (name, doc, patch, expected) in cases {
        let semantics = if name.ends_with("(kube)") {
            Semantics::Kube
        } else {
            Semantics::Rfc
        };
        let mut got = doc.clone();
        match (apply_payload(&mut got, patch, semantics), expected) {
            (Ok(()), Ok(want)) => assert_eq!(got, want, "{name}"),
            (Err(err), Err(message)) => {
                assert!(err.to_string().contains(message), "{name}: {err}");
                assert_eq!(got, doc, "{name}: unchanged");
            }
            (result, expected) => panic!("{name}: {result:?} vs {expected:?}"),
        }
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
