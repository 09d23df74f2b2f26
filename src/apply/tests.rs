//! Table tests: every kube-apiserver quirk, as each of the three evanphx
//! releases Kubernetes has shipped answers it, next to what strict RFC
//! 6902 does with the same input; plus the RFC 6902 Appendix A examples.

use super::run::go_atoi;
use super::*;
use crate::kube::Evanphx;
use crate::limits::{COPY_LIMIT, MAX_BODY_BYTES, MAX_OPS};
use crate::patch::{OpKind, PayloadError};
use serde_json::json;

/// What an engine does with a case: the resulting document, or an error
/// whose text contains `message` (and, in kube mode, the HTTP status).
#[derive(Clone, Debug)]
enum Outcome {
    Doc(Value),
    Fails(&'static str, u16),
}
use Outcome::{Doc, Fails};

const V5_6: Evanphx = Evanphx::V5_6_0;
const V4_13: Evanphx = Evanphx::V4_13_0;

/// One row: `kube` is what every evanphx release does unless `except`
/// says otherwise for a release.
struct Quirk {
    what: &'static str,
    doc: Value,
    patch: &'static str,
    kube: Outcome,
    except: Vec<(Evanphx, Outcome)>,
    rfc: Outcome,
}

fn quirk(
    what: &'static str,
    doc: Value,
    patch: &'static str,
    kube: Outcome,
    rfc: Outcome,
) -> Quirk {
    Quirk {
        what,
        doc,
        patch,
        kube,
        except: Vec::new(),
        rfc,
    }
}

impl Quirk {
    fn except(mut self, release: Evanphx, outcome: Outcome) -> Quirk {
        self.except.push((release, outcome));
        self
    }

    fn expected(&self, release: Evanphx) -> &Outcome {
        self.except
            .iter()
            .find(|(r, _)| *r == release)
            .map_or(&self.kube, |(_, o)| o)
    }
}

fn check(what: &str, engine: Engine, doc: &Value, patch: &str, expected: &Outcome) {
    let mut got = doc.clone();
    let result = apply_payload(&mut got, patch, engine);
    match (expected, result) {
        (Doc(want), Ok(())) => assert_eq!(&got, want, "{what} [{engine}]"),
        (Fails(message, status), Err(err)) => {
            assert_eq!(&got, doc, "{what} [{engine}]: document changed on error");
            let text = err.to_string();
            assert!(
                text.contains(message),
                "{what} [{engine}]: error {text:?} lacks {message:?}"
            );
            match (engine, err.response()) {
                (Engine::Kube(_), Some(response)) => {
                    assert_eq!(response.code, *status, "{what} [{engine}]: status");
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

fn quirks() -> Vec<Quirk> {
    vec![
        quirk(
            "replace of a missing member acts as add",
            json!({"metadata": {"labels": {}}}),
            r#"[{"op":"replace","path":"/metadata/labels/a","value":"1"}]"#,
            Doc(json!({"metadata": {"labels": {"a": "1"}}})),
            Fails("target member \"a\" does not exist", 0),
        ),
        quirk(
            "test of null passes on a missing member",
            json!({"metadata": {}}),
            r#"[{"op":"test","path":"/metadata/finalizers","value":null},
                {"op":"replace","path":"/metadata/finalizers","value":["f"]}]"#,
            Doc(json!({"metadata": {"finalizers": ["f"]}})),
            Fails("test failed: expected null, found nothing", 0),
        ),
        quirk(
            "test of null passes on a null member",
            json!({"status": {"migrationState": null}}),
            r#"[{"op":"test","path":"/status/migrationState","value":null}]"#,
            Doc(json!({"status": {"migrationState": null}})),
            Doc(json!({"status": {"migrationState": null}})),
        ),
        quirk(
            "test of a value fails on a missing member",
            json!({"metadata": {}}),
            r#"[{"op":"test","path":"/metadata/labels","value":{}}]"#,
            Fails("test failed: expected {}, found nothing", 422),
            Fails("test failed: expected {}, found nothing", 0),
        ),
        quirk(
            "numbers compare as bytes: 1.0 is not 1",
            json!({"spec": {"replicas": 1}}),
            r#"[{"op":"test","path":"/spec/replicas","value":1.0}]"#,
            Fails("test failed: the bytes differ: sent 1.0, the server stores 1 (one value, but the server compares scalars as bytes, the stored side in Go's encoding)", 422),
            Doc(json!({"spec": {"replicas": 1}})),
        ),
        quirk(
            "strings compare as bytes: raw < is not the stored \\u003c",
            json!({"a": "<b>"}),
            r#"[{"op":"test","path":"/a","value":"<b>"}]"#,
            Fails("test failed", 422),
            Doc(json!({"a": "<b>"})),
        ),
        quirk(
            "strings compare as bytes: Go's \\u003c matches",
            json!({"a": "<b>"}),
            r#"[{"op":"test","path":"/a","value":"\u003cb\u003e"}]"#,
            Doc(json!({"a": "<b>"})),
            Doc(json!({"a": "<b>"})),
        ),
        quirk(
            "objects: a null member differs from an absent one",
            json!({"m": {"a": null}}),
            r#"[{"op":"test","path":"/m","value":{}}]"#,
            Fails("test failed", 422),
            Fails("test failed", 0),
        ),
        quirk(
            "objects compare in any key order",
            json!({"m": {"a": "1", "b": "2"}}),
            r#"[{"op":"test","path":"/m","value":{"b":"2","a":"1"}}]"#,
            Doc(json!({"m": {"a": "1", "b": "2"}})),
            Doc(json!({"m": {"a": "1", "b": "2"}})),
        ),
        quirk(
            "negative index removes from the end",
            json!({"l": ["a", "b", "c"]}),
            r#"[{"op":"remove","path":"/l/-1"}]"#,
            Doc(json!({"l": ["a", "b"]})),
            Fails("not an array index", 0),
        ),
        quirk(
            "negative index in add counts from one past the end",
            json!({"l": ["a", "b"]}),
            r#"[{"op":"add","path":"/l/-1","value":"z"}]"#,
            Doc(json!({"l": ["a", "b", "z"]})),
            Fails("not an array index", 0),
        ),
        quirk(
            "negative index in replace counts from the end",
            json!({"l": ["a", "b"]}),
            r#"[{"op":"replace","path":"/l/-1","value":"z"}]"#,
            Doc(json!({"l": ["a", "z"]})),
            Fails("not an array index", 0),
        ),
        quirk(
            "negative index below the start fails",
            json!({"l": ["a"]}),
            r#"[{"op":"replace","path":"/l/-2","value":"z"}]"#,
            Fails("array index -2 is out of bounds (length 1)", 422),
            Fails("not an array index", 0),
        ),
        quirk(
            "leading zeros in an index are accepted",
            json!({"l": ["a", "b"]}),
            r#"[{"op":"test","path":"/l/01","value":"b"}]"#,
            Doc(json!({"l": ["a", "b"]})),
            Fails("leading zero", 0),
        ),
        quirk(
            "add past the end of an array fails",
            json!({"l": ["a"]}),
            r#"[{"op":"add","path":"/l/2","value":"z"}]"#,
            Fails("array index 2 is out of bounds (length 1)", 422),
            Fails("array index 2 is out of bounds (length 1)", 0),
        ),
        quirk(
            "add at the length appends",
            json!({"l": ["a"]}),
            r#"[{"op":"add","path":"/l/1","value":"z"},{"op":"add","path":"/l/-","value":"y"}]"#,
            Doc(json!({"l": ["a", "z", "y"]})),
            Doc(json!({"l": ["a", "z", "y"]})),
        ),
        quirk(
            "remove of a missing member fails",
            json!({"metadata": {"labels": {}}}),
            r#"[{"op":"remove","path":"/metadata/labels/gone"}]"#,
            Fails("target member \"gone\" does not exist", 422),
            Fails("target member \"gone\" does not exist", 0),
        ),
        quirk(
            "remove of a member holding null works",
            json!({"a": null, "b": 1}),
            r#"[{"op":"remove","path":"/a"}]"#,
            Doc(json!({"b": 1})),
            Doc(json!({"b": 1})),
        ),
        quirk(
            "a null intermediate node is a missing path",
            json!({"metadata": {"labels": null}}),
            r#"[{"op":"add","path":"/metadata/labels/a","value":"1"}]"#,
            Fails("path does not exist: /metadata/labels is null", 422),
            Fails("path does not exist: /metadata/labels is null", 0),
        ),
        quirk(
            "missing objects are not created",
            json!({"metadata": {}}),
            r#"[{"op":"add","path":"/metadata/labels/a","value":"1"}]"#,
            Fails("path does not exist: /metadata/labels is absent", 422),
            Fails("path does not exist: /metadata/labels is absent", 0),
        ),
        quirk(
            "add may not target the whole document",
            json!({"a": 1}),
            r#"[{"op":"add","path":"","value":{"b":2}}]"#,
            Fails("cannot target the whole document", 422),
            Doc(json!({"b": 2})),
        ),
        quirk(
            "replace of the whole document with an object (not in v5.6.0)",
            json!({"a": 1}),
            r#"[{"op":"replace","path":"","value":{"b":2}}]"#,
            Doc(json!({"b": 2})),
            Doc(json!({"b": 2})),
        )
        .except(V5_6, Fails("cannot target the whole document", 422)),
        quirk(
            "replace of the whole document with a scalar: ignored by v4.12.0, refused by v4.13.0",
            json!({"a": 1}),
            r#"[{"op":"replace","path":"","value":"x"}]"#,
            Doc(json!({"a": 1})),
            Doc(json!("x")),
        )
        .except(V5_6, Fails("cannot target the whole document", 422))
        .except(V4_13, Fails("%!w(<nil>)", 422)),
        quirk(
            "replace of the whole document with null, likewise",
            json!([1]),
            r#"[{"op":"replace","path":"","value":null}]"#,
            Doc(json!([1])),
            Doc(json!(null)),
        )
        .except(V5_6, Fails("cannot target the whole document", 422))
        .except(V4_13, Fails("needs an object or array", 422)),
        quirk(
            "replace of the whole document without a value panics v4",
            json!({"a": 1}),
            r#"[{"op":"replace","path":""}]"#,
            Fails(
                "panics here: replace of the whole document without a value",
                500,
            ),
            Fails("the op has no 'value'", 0),
        )
        .except(V5_6, Fails("cannot target the whole document", 422)),
        quirk(
            "test of the whole document (not in v5.6.0)",
            json!({"a": 1}),
            r#"[{"op":"test","path":"","value":{"a":1}}]"#,
            Doc(json!({"a": 1})),
            Doc(json!({"a": 1})),
        )
        .except(V5_6, Fails("cannot target the whole document", 422)),
        quirk(
            "test of the whole document against another one",
            json!({"a": 1}),
            r#"[{"op":"test","path":"","value":{"a":2}}]"#,
            Fails("test failed", 422),
            Fails("test failed", 0),
        )
        .except(V5_6, Fails("cannot target the whole document", 422)),
        quirk(
            "test of the whole document without a value panics v4",
            json!({"a": 1}),
            r#"[{"op":"test","path":""}]"#,
            Fails(
                "panics here: test of the whole document without a value",
                500,
            ),
            Fails("the op has no 'value'", 0),
        )
        .except(V5_6, Fails("cannot target the whole document", 422)),
        quirk(
            "the first segment of a path without leading slash is ignored",
            json!({"b": 1}),
            r#"[{"op":"replace","path":"a/b","value":2}]"#,
            Doc(json!({"b": 2})),
            Fails("must be empty or start with '/'", 0),
        ),
        quirk(
            "a path with no slash addresses nothing",
            json!({"b": 1}),
            r#"[{"op":"test","path":"b","value":1}]"#,
            Fails("path holds no '/'", 422),
            Fails("must be empty or start with '/'", 0),
        ),
        quirk(
            "invalid escapes are kept literally",
            json!({"a~2b": 1}),
            r#"[{"op":"test","path":"/a~2b","value":1}]"#,
            Doc(json!({"a~2b": 1})),
            Fails("invalid escape in token 0 at byte 2", 0),
        ),
        quirk(
            "escaped keys resolve",
            json!({"metadata": {"labels": {"kubevirt.io/nodeName": "n1", "a~b": "x"}}}),
            r#"[{"op":"test","path":"/metadata/labels/kubevirt.io~1nodeName","value":"n1"},
                {"op":"remove","path":"/metadata/labels/a~0b"}]"#,
            Doc(json!({"metadata": {"labels": {"kubevirt.io/nodeName": "n1"}}})),
            Doc(json!({"metadata": {"labels": {"kubevirt.io/nodeName": "n1"}}})),
        ),
        quirk(
            "copy from a missing member copies null",
            json!({"a": {}}),
            r#"[{"op":"copy","from":"/a/missing","path":"/b"}]"#,
            Doc(json!({"a": {}, "b": null})),
            Fails("from member \"missing\" does not exist", 0),
        ),
        quirk(
            "move from a missing member fails",
            json!({"a": {}}),
            r#"[{"op":"move","from":"/a/missing","path":"/b"}]"#,
            Fails("from member \"missing\" does not exist", 422),
            Fails("from member \"missing\" does not exist", 0),
        ),
        quirk(
            "move into a child is refused by the RFC, fails late in evanphx",
            json!({"a": {"b": 1}}),
            r#"[{"op":"move","from":"/a","path":"/a/c"}]"#,
            Fails("path does not exist: /a is absent", 422),
            Fails("cannot move a value into one of its children", 0),
        ),
        quirk(
            "value missing on add means null",
            json!({}),
            r#"[{"op":"add","path":"/a"}]"#,
            Doc(json!({"a": null})),
            Fails("the op has no 'value'", 0),
        ),
        quirk(
            "test without value on a missing member: v4.12.0 and v5.6.0 panic, v4.13.0 passes",
            json!({}),
            r#"[{"op":"test","path":"/a"}]"#,
            Fails(
                "panics here: test of a missing or null member without a value",
                500,
            ),
            Fails("the op has no 'value'", 0),
        )
        .except(V4_13, Doc(json!({}))),
        quirk(
            "test without value on a null member, likewise",
            json!({"a": null}),
            r#"[{"op":"test","path":"/a"}]"#,
            Fails("panics here", 500),
            Fails("the op has no 'value'", 0),
        )
        .except(V4_13, Doc(json!({"a": null}))),
        quirk(
            "test without value on a present member fails",
            json!({"a": 1}),
            r#"[{"op":"test","path":"/a"}]"#,
            Fails("test failed", 422),
            Fails("the op has no 'value'", 0),
        ),
        quirk(
            "test of arrays holding null panics the Go engine",
            json!({"l": [null]}),
            r#"[{"op":"test","path":"/l","value":[null]}]"#,
            Fails("comparing arrays that hold null", 500),
            Doc(json!({"l": [null]})),
        ),
        quirk(
            "walking through a null the patch added: v4.12.0 and v5.6.0 panic, v4.13.0 fails",
            json!({}),
            r#"[{"op":"add","path":"/a","value":null},{"op":"add","path":"/a/b","value":1}]"#,
            Fails(
                "panics here: walking through a null an earlier op of this patch added",
                500,
            ),
            Fails("path does not exist: /a is null", 0),
        )
        .except(V4_13, Fails("path does not exist: /a is null", 422)),
        quirk(
            "a null added without a value is a null read from the document",
            json!({}),
            r#"[{"op":"add","path":"/a"},{"op":"add","path":"/a/b","value":1}]"#,
            Fails("path does not exist: /a is null", 422),
            Fails("the op has no 'value'", 0),
        ),
        quirk(
            "a null the patch added equals a test of null",
            json!({}),
            r#"[{"op":"replace","path":"/a","value":null},{"op":"test","path":"/a","value":null}]"#,
            Doc(json!({"a": null})),
            Fails("target member \"a\" does not exist", 0),
        ),
        quirk(
            "a null the patch added fails a test without a value (a node, not nil)",
            json!({}),
            r#"[{"op":"add","path":"/a","value":null},{"op":"test","path":"/a"}]"#,
            Fails("test failed", 422),
            Fails("the op has no 'value'", 0),
        ),
        quirk(
            "a null member the patch added differs from a test value's null member",
            json!({"m": {}}),
            r#"[{"op":"add","path":"/m/a","value":null},{"op":"test","path":"/m","value":{"a":null}}]"#,
            Fails("test failed", 422),
            Doc(json!({"m": {"a": null}})),
        ),
        quirk(
            "an array element the patch nulled compares without a panic",
            json!({"l": ["x"]}),
            r#"[{"op":"replace","path":"/l/0","value":null},{"op":"test","path":"/l","value":["x"]}]"#,
            Fails("test failed", 422),
            Fails("test failed", 0),
        ),
        quirk(
            "a copy of a null the patch added reads as an empty object",
            json!({}),
            r#"[{"op":"add","path":"/a","value":null},{"op":"copy","from":"/a","path":"/b"},
                {"op":"test","path":"/b","value":{}}]"#,
            Doc(json!({"a": null, "b": null})),
            Fails("test failed", 0),
        ),
        quirk(
            "writing into that copy assigns to a nil map: every release panics",
            json!({}),
            r#"[{"op":"add","path":"/a","value":null},{"op":"copy","from":"/a","path":"/b"},
                {"op":"add","path":"/b/c","value":1}]"#,
            Fails("assignment to entry in nil map", 500),
            Fails("path does not exist: /b is null", 0),
        ),
        quirk(
            "moving such a null keeps what it is",
            json!({}),
            r#"[{"op":"add","path":"/a","value":null},{"op":"move","from":"/a","path":"/b"},
                {"op":"add","path":"/b/c","value":1}]"#,
            Fails("panics here: walking through a null", 500),
            Fails("path does not exist: /b is null", 0),
        )
        .except(V4_13, Fails("path does not exist: /b is null", 422)),
        quirk(
            "array inserts shift what the patch added",
            json!({"l": []}),
            r#"[{"op":"add","path":"/l/0","value":null},{"op":"add","path":"/l/0","value":{}},
                {"op":"add","path":"/l/0/x","value":1},{"op":"add","path":"/l/1/y","value":1}]"#,
            Fails("panics here", 500),
            Fails("path does not exist: /l/1 is null", 0),
        )
        .except(V4_13, Fails("path does not exist: /l/1 is null", 422)),
        quirk(
            "unknown op: the ops before it run, then it fails",
            json!({"a": 1}),
            r#"[{"op":"replace","path":"/a","value":2},{"op":"frobnicate","path":"/a"}]"#,
            Fails(
                "op 1: field 'op' names an unknown operation \"frobnicate\"",
                422,
            ),
            Fails(
                "op 1: field 'op' names an unknown operation \"frobnicate\"",
                0,
            ),
        ),
        quirk(
            "an earlier failing op wins over a later malformed one",
            json!({"a": 1}),
            r#"[{"op":"test","path":"/a","value":2},{"op":"frobnicate","path":"/a"}]"#,
            Fails("op 0 (test \"/a\"): test failed", 422),
            Fails("op 0 (test \"/a\"): test failed", 0),
        ),
        quirk(
            "a body that is not an array: the handler's strict decode refuses it",
            json!({"a": 1}),
            r#"{"op":"test","path":"/a","value":1}"#,
            Fails(
                "cannot unmarshal object into Go value of type []handlers.jsonPatchOp",
                400,
            ),
            Fails("must be an array of operations, found an object", 0),
        ),
        quirk(
            "an element that is not an object spoils the body",
            json!({"a": 1}),
            r#"[{"op":"remove","path":"/a"},"remove"]"#,
            Fails(
                "cannot unmarshal string into Go value of type handlers.jsonPatchOp",
                400,
            ),
            Fails("op 1: is not a JSON object", 0),
        ),
        quirk(
            "a field of the wrong type spoils the body",
            json!({"a": 1}),
            r#"[{"op":"remove","path":1}]"#,
            Fails(
                "cannot unmarshal number into Go struct field jsonPatchOp.path of type string",
                400,
            ),
            Fails("op 0: field 'path' must be a string", 0),
        ),
        quirk(
            "a null element decodes, then fails when its turn comes",
            json!({"a": 1}),
            r#"[{"op":"remove","path":"/a"},null]"#,
            Fails("op 1: field 'op' is missing", 422),
            Fails("op 1: is not a JSON object", 0),
        ),
        quirk(
            "repeated members: the last one wins for the server, the RFC refuses",
            json!({"a": 1}),
            r#"[{"op":"test","path":"/a","value":1,"op":"remove"}]"#,
            Doc(json!({})),
            Fails("duplicate field `op`", 0),
        ),
        quirk(
            "syntax errors in Go's words",
            json!({"a": 1}),
            r#"[{"op":"add",}]"#,
            Fails(
                "invalid character '}' looking for beginning of object key string",
                400,
            ),
            Fails("line 1, column 14", 0),
        ),
        quirk(
            "a null body is an empty patch",
            json!({"a": 1}),
            "null",
            Doc(json!({"a": 1})),
            Doc(json!({"a": 1})),
        ),
        quirk(
            "a patch that renames the object: the handler's name check",
            json!({"metadata": {"name": "a"}}),
            r#"[{"op":"replace","path":"/metadata/name","value":"b"}]"#,
            Fails("the patch changes metadata.name from \"a\" to \"b\"", 400),
            Doc(json!({"metadata": {"name": "b"}})),
        ),
        quirk(
            "a patch that removes the name",
            json!({"metadata": {"name": "a"}}),
            r#"[{"op":"remove","path":"/metadata/name"}]"#,
            Fails("from \"a\" to \"\"", 400),
            Doc(json!({"metadata": {}})),
        ),
        quirk(
            "a patch that moves the object to another namespace",
            json!({"metadata": {"name": "a", "namespace": "x"}}),
            r#"[{"op":"replace","path":"/metadata/namespace","value":"y"}]"#,
            Fails("changes metadata.namespace", 400),
            Doc(json!({"metadata": {"name": "a", "namespace": "y"}})),
        ),
        quirk(
            "a patch that unsets the namespace gets the request's back",
            json!({"metadata": {"name": "a", "namespace": "x"}}),
            r#"[{"op":"remove","path":"/metadata/namespace"}]"#,
            Doc(json!({"metadata": {"name": "a", "namespace": "x"}})),
            Doc(json!({"metadata": {"name": "a"}})),
        ),
        quirk(
            "atomic: a failing test drops the ops before it",
            json!({"metadata": {"labels": {"a": "1", "b": "2"}}, "status": {"x": 1}}),
            r#"[{"op":"replace","path":"/status/x","value":2},
                {"op":"add","path":"/status/y","value":[1]},
                {"op":"remove","path":"/metadata/labels/a"},
                {"op":"test","path":"/metadata/labels","value":{"a":"1"}}]"#,
            Fails("op 3 (test \"/metadata/labels\"): test failed", 422),
            Fails("op 3 (test \"/metadata/labels\"): test failed", 0),
        ),
    ]
}

#[test]
fn every_quirk_on_every_engine() {
    for quirk in quirks() {
        for release in Evanphx::ALL {
            check(
                quirk.what,
                Engine::Kube(release),
                &quirk.doc,
                quirk.patch,
                quirk.expected(release),
            );
        }
        check(quirk.what, Engine::Rfc, &quirk.doc, quirk.patch, &quirk.rfc);
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
        // Other values: both are shown, as before.
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
