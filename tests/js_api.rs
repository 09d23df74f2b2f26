//! Browser tests of the JavaScript API (`src/js.rs`): every export with good
//! input and bad input, checking the values and the documented errors.
//! Run with `cargo test --target wasm32-unknown-unknown --features js`.
#![cfg(all(target_arch = "wasm32", feature = "js"))]

use js_sys::{Array, Object, Reflect, JSON};
use patchlab::js as api;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

/// A JS value from JSON text.
fn js(text: &str) -> JsValue {
    JSON::parse(text).expect("test JSON")
}

/// A JS value as compact JSON text, for comparisons.
fn text(value: &JsValue) -> String {
    JSON::stringify(value).expect("stringify").into()
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).expect("get")
}

/// The thrown value: a JS `Error` named `PatchlabError` of `kind`.
fn error_of(result: Result<JsValue, JsValue>, kind: &str) -> JsValue {
    let err = match result {
        Ok(value) => panic!("expected a {kind} error, got {}", text(&value)),
        Err(err) => err,
    };
    let error = err.dyn_ref::<js_sys::Error>().expect("a JS Error");
    assert_eq!(String::from(error.name()), "PatchlabError");
    assert_eq!(
        get(&err, "kind").as_string().as_deref(),
        Some(kind),
        "{}",
        String::from(error.message())
    );
    err
}

fn message(err: &JsValue) -> String {
    String::from(err.dyn_ref::<js_sys::Error>().unwrap().message())
}

fn num(value: &JsValue, key: &str) -> Option<f64> {
    get(value, key).as_f64()
}

fn string(value: &JsValue, key: &str) -> Option<String> {
    get(value, key).as_string()
}

fn opts(text: &str) -> Option<JsValue> {
    Some(js(text))
}

#[wasm_bindgen_test]
fn escape_json_pointer_escapes_tilde_first_then_slash() {
    let escaped = api::escape_json_pointer("kubevirt.io/a~b".into()).unwrap();
    assert_eq!(escaped.as_string().unwrap(), "kubevirt.io~1a~0b");
    assert_eq!(
        api::escape_json_pointer("~1".into())
            .unwrap()
            .as_string()
            .unwrap(),
        "~01",
        "escaping ~ first keeps ~1 from turning into /"
    );
    let err = error_of(api::escape_json_pointer(JsValue::from(5)), "bad-argument");
    assert_eq!(message(&err), "token must be a string, found a number");
}

#[wasm_bindgen_test]
fn build_patch_writes_kubevirt_bytes() {
    let ops = js(r#"[
        {"op":"test","path":"/metadata/labels","value":{"z":"<b>","a":"1"}},
        {"value":null,"path":"/status/migrationState","op":"add"},
        {"op":"remove","path":"/metadata/finalizers/0"},
        {"op":"move","from":"/a","path":"/b"}
    ]"#);
    let payload = api::build_patch(ops.clone(), None)
        .unwrap()
        .as_string()
        .unwrap();
    assert_eq!(
        payload,
        r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1","z":"\u003cb\u003e"}},{"op":"add","path":"/status/migrationState","value":null},{"op":"remove","path":"/metadata/finalizers/0"},{"op":"move","path":"/b","from":"/a"}]"#
    );
    let plain = api::build_patch(ops, opts(r#"{"encoding":"plain"}"#))
        .unwrap()
        .as_string()
        .unwrap();
    assert!(plain.contains(r#""z":"<b>""#), "{plain}");
}

#[wasm_bindgen_test]
fn build_patch_errors_name_the_op() {
    let err = error_of(api::build_patch(js("[]"), None), "empty-patch");
    assert_eq!(message(&err), "list of patches is empty");

    let err = error_of(
        api::build_patch(
            js(r#"[{"op":"add","path":"/a","value":1},{"op":"add","path":"/b"}]"#),
            None,
        ),
        "invalid-patch",
    );
    assert_eq!(num(&err, "index"), Some(1.0));
    assert!(
        message(&err).contains("op 1: field 'value' is missing"),
        "{}",
        message(&err)
    );

    let err = error_of(
        api::build_patch(
            js(
                r#"[{"op":"add","path":"/a","value":1},{"op":"add","path":"metadata/labels","value":{}}]"#,
            ),
            None,
        ),
        "invalid-pointer",
    );
    assert_eq!(num(&err, "index"), Some(1.0));
    assert_eq!(string(&err, "path").as_deref(), Some("metadata/labels"));

    let err = error_of(
        api::build_patch(js(r#"[{"op":"add","path":"/a~2","value":1}]"#), None),
        "invalid-pointer",
    );
    assert_eq!(num(&err, "index"), Some(0.0));

    let err = error_of(
        api::build_patch(js(r#"{"op":"add"}"#), None),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "ops must be an array of operations, found an object"
    );
    error_of(
        api::build_patch(js("[]"), opts(r#"{"encoding":"yaml"}"#)),
        "bad-argument",
    );
    error_of(
        api::build_patch(js("[]"), opts(r#"{"encodign":"go"}"#)),
        "bad-argument",
    );
}

#[wasm_bindgen_test]
fn apply_patch_follows_the_server_or_the_rfc() {
    let doc = js(r#"{"metadata":{"labels":{"app":"web"}}}"#);
    let patch = js(r#"[{"op":"replace","path":"/metadata/labels/tier","value":"db"}]"#);
    // kube (the default): replace of a missing member adds it.
    let out = api::apply_patch(doc.clone(), patch.clone(), None).unwrap();
    assert_eq!(
        text(&out),
        r#"{"metadata":{"labels":{"app":"web","tier":"db"}}}"#
    );
    // The caller's object is never modified.
    assert_eq!(text(&doc), r#"{"metadata":{"labels":{"app":"web"}}}"#);
    // rfc: the same op fails, with where and why.
    let err = error_of(
        api::apply_patch(doc.clone(), patch, opts(r#"{"semantics":"rfc"}"#)),
        "apply-failed",
    );
    assert_eq!(num(&err, "index"), Some(0.0));
    assert_eq!(string(&err, "op").as_deref(), Some("replace"));
    assert_eq!(
        string(&err, "path").as_deref(),
        Some("/metadata/labels/tier")
    );
    assert!(
        get(&err, "status").is_undefined(),
        "no HTTP status in RFC mode"
    );
    error_of(
        api::apply_patch(doc, js("[]"), opts(r#"{"semantics":"strict"}"#)),
        "bad-argument",
    );
}

#[wasm_bindgen_test]
fn a_failed_test_names_its_op_and_the_values() {
    let doc = js(r#"{"metadata":{"labels":{"a":"1","b":"2"}}}"#);
    let patch = js(r#"[
        {"op":"add","path":"/x","value":1},
        {"op":"test","path":"/metadata/labels","value":{"a":"1"}}
    ]"#);
    let err = error_of(api::apply_patch(doc, patch, None), "test-failed");
    assert_eq!(num(&err, "index"), Some(1.0));
    assert_eq!(string(&err, "op").as_deref(), Some("test"));
    assert_eq!(string(&err, "path").as_deref(), Some("/metadata/labels"));
    assert_eq!(num(&err, "status"), Some(422.0));
    assert_eq!(text(&get(&err, "expected")), r#"{"a":"1"}"#);
    assert_eq!(text(&get(&err, "actual")), r#"{"a":"1","b":"2"}"#);
    assert!(string(&err, "cause").unwrap().contains("test failed"));
}

#[wasm_bindgen_test]
fn payload_text_keeps_its_bytes() {
    // The server compares test scalars as sent: `<` raw does not match the
    // `\u003c` it stores; the escaped form does.
    let doc = js(r#"{"note":"<b>"}"#);
    let raw = r#"[{"op":"test","path":"/note","value":"<b>"}]"#;
    let escaped = r#"[{"op":"test","path":"/note","value":"\u003cb\u003e"}]"#;
    error_of(
        api::apply_patch(doc.clone(), raw.into(), None),
        "test-failed",
    );
    assert!(api::apply_patch(doc.clone(), escaped.into(), None).is_ok());
    // Under the RFC both pass.
    assert!(api::apply_patch(doc, raw.into(), opts(r#"{"semantics":"rfc"}"#)).is_ok());
}

#[wasm_bindgen_test]
fn bad_payloads_get_the_servers_status() {
    let doc = js(r#"{"a":1}"#);
    let err = error_of(
        api::apply_patch(doc.clone(), "[{\"op\":".into(), None),
        "syntax",
    );
    assert_eq!(num(&err, "status"), Some(400.0));
    assert_eq!(num(&err, "line"), Some(1.0));
    assert!(num(&err, "column").is_some());

    let err = error_of(
        api::apply_patch(doc.clone(), js(r#"{"op":"add"}"#), None),
        "invalid-patch",
    );
    assert_eq!(num(&err, "status"), Some(400.0));

    let err = error_of(
        api::apply_patch(
            doc.clone(),
            js(r#"[{"op":"frobnicate","path":"/a"}]"#),
            None,
        ),
        "invalid-patch",
    );
    assert_eq!(
        (num(&err, "index"), num(&err, "status")),
        (Some(0.0), Some(422.0))
    );

    let many: Array = (0..10_001)
        .map(|_| js(r#"{"op":"test","path":"/a","value":1}"#))
        .collect();
    let err = error_of(api::apply_patch(doc, many.into(), None), "too-large");
    assert_eq!(num(&err, "status"), Some(413.0));
}

#[wasm_bindgen_test]
fn wrong_types_and_oversized_input_are_errors() {
    let patch = js(r#"[{"op":"add","path":"/a","value":1}]"#);
    let err = error_of(
        api::apply_patch(JsValue::UNDEFINED, patch.clone(), None),
        "bad-argument",
    );
    assert_eq!(message(&err), "doc is missing");
    let function = js_sys::Function::new_no_args("return 1");
    error_of(
        api::apply_patch(function.into(), patch.clone(), None),
        "bad-argument",
    );
    // A cycle the patch reads cannot be written as JSON.
    let cyclic = Object::new();
    Reflect::set(&cyclic, &"self".into(), &cyclic).unwrap();
    let reads_the_cycle = js(r#"[{"op":"test","path":"/self","value":{}}]"#);
    let err = error_of(
        api::apply_patch(cyclic.clone().into(), reads_the_cycle, None),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "doc holds a cycle: /self refers back to the value itself, which JSON cannot carry"
    );
    error_of(
        api::apply_patch(js("{}"), patch.clone(), opts("[1]")),
        "bad-argument",
    );

    // What the patch does not read is never converted: a cycle elsewhere
    // does not matter.
    let out = api::apply_patch(cyclic.into(), patch.clone(), None).unwrap();
    assert_eq!(get(&out, "a").as_f64(), Some(1.0));

    // 5 MB of JSON is over the 4 MiB budget: refused before it is copied.
    let big = Object::new();
    Reflect::set(&big, &"blob".into(), &"x".repeat(5 << 20).into()).unwrap();
    let reads_the_blob = js(r#"[{"op":"test","path":"/blob","value":"x"}]"#);
    let err = error_of(
        api::apply_patch(big.into(), reads_the_blob, None),
        "too-large",
    );
    assert_eq!(num(&err, "status"), Some(413.0));
    assert!(
        message(&err).contains("more than the limit"),
        "{}",
        message(&err)
    );

    // Deeper than the budget: an error with the limit, not a crash.
    let deep = format!("{}1{}", "[".repeat(5000), "]".repeat(5000));
    let err = error_of(
        api::apply_patch_json(deep.into(), "[]".into(), None),
        "syntax",
    );
    assert!(
        message(&err).contains("nesting is deeper than the limit of 128"),
        "{}",
        message(&err)
    );
    error_of(
        api::apply_patch_json(js("{}"), "[]".into(), None),
        "bad-argument",
    );
}

#[wasm_bindgen_test]
fn apply_patch_json_works_on_text() {
    let out = api::apply_patch_json(
        r#"{"b":1,"a":[1,2]}"#.into(),
        r#"[{"op":"add","path":"/a/-","value":3},{"op":"remove","path":"/b"}]"#.into(),
        None,
    )
    .unwrap();
    assert_eq!(out.as_string().unwrap(), r#"{"a":[1,2,3]}"#);
}

const OLD: &str = r#"{"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstance","metadata":{"name":"testvmi","namespace":"default","labels":{"kubevirt.io/nodeName":"node01"}}}"#;
const NEW: &str = r#"{"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstance","metadata":{"name":"testvmi","namespace":"default","labels":{"kubevirt.io/nodeName":"node01","kubevirt.io/migrationTargetNodeName":"node02"}}}"#;

#[wasm_bindgen_test]
fn diff_gives_ops_reasons_and_the_conflict_surface() {
    // The old name of kubevirt-main is still read; the new one is written.
    let head = api::diff(js(OLD), js(NEW), opts(r#"{"preset":"kubevirt-main"}"#)).unwrap();
    assert_eq!(string(&head, "preset").as_deref(), Some("kubevirt-main"));
    assert_eq!(
        string(&head, "contentType").as_deref(),
        Some("application/json-patch+json")
    );
    let ops: Array = get(&head, "ops").dyn_into().unwrap();
    assert_eq!(ops.length(), 2);
    assert_eq!(string(&ops.get(0), "op").as_deref(), Some("test"));
    assert_eq!(
        string(&ops.get(0), "path").as_deref(),
        Some("/metadata/labels")
    );
    assert!(string(&ops.get(0), "reason").unwrap().contains("whole map"));
    assert_eq!(string(&ops.get(1), "op").as_deref(), Some("replace"));
    let conflicts: Array = get(&head, "conflicts").dyn_into().unwrap();
    assert_eq!(
        string(&conflicts.get(0), "path").as_deref(),
        Some("/metadata/labels")
    );
    assert_eq!(
        string(&head, "body").unwrap(),
        r#"[{"op":"test","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01"}},{"op":"replace","path":"/metadata/labels","value":{"kubevirt.io/migrationTargetNodeName":"node02","kubevirt.io/nodeName":"node01"}}]"#
    );
    let fields: Array = get(&head, "fields").dyn_into().unwrap();
    assert_eq!(
        text(&fields.get(0)),
        r#"{"path":"/metadata/labels","kind":"map","strategy":"whole-map","change":"modified"}"#
    );

    // The default preset (PR #18139), from YAML text: one add per key.
    let yaml_old = "metadata:\n  labels:\n    kubevirt.io/nodeName: node01\n";
    let yaml_new = "metadata:\n  labels:\n    kubevirt.io/nodeName: node01\n    kubevirt.io/migrationTargetNodeName: node02\n";
    let pr = api::diff(yaml_old.into(), yaml_new.into(), None).unwrap();
    let ops: Array = get(&pr, "ops").dyn_into().unwrap();
    assert_eq!(ops.length(), 1);
    assert_eq!(
        string(&ops.get(0), "path").as_deref(),
        Some("/metadata/labels/kubevirt.io~1migrationTargetNodeName")
    );
    assert_eq!(
        get(&pr, "conflicts").dyn_into::<Array>().unwrap().length(),
        0
    );

    // An override turns the labels back into a whole-map test + replace.
    let overridden = api::diff(
        js(OLD),
        js(NEW),
        opts(r#"{"overrides":{"metadata.labels":"whole-map"}}"#),
    )
    .unwrap();
    assert_eq!(
        get(&overridden, "ops")
            .dyn_into::<Array>()
            .unwrap()
            .length(),
        2
    );

    // Merge patch: a body, no ops.
    let merge = api::diff(js(OLD), js(NEW), opts(r#"{"preset":"merge"}"#)).unwrap();
    assert!(get(&merge, "ops").is_null());
    assert_eq!(
        string(&merge, "contentType").as_deref(),
        Some("application/merge-patch+json")
    );
}

/// What `diff` must answer for a plan, built from the plan's members
/// (the documented shape: `DiffResult` in src/js/types.rs).
fn expected_result(plan: &patchlab::strategy::Plan) -> serde_json::Value {
    use serde_json::json;
    let ops = plan.ops().map(|ops| {
        ops.iter()
            .map(|planned| {
                let mut op = json!({
                    "op": planned.op.op.as_str(),
                    "path": planned.op.path,
                    "reason": planned.reason,
                    "field": planned.field.as_str(),
                    "strategy": planned.strategy.as_str(),
                });
                if let Some(from) = &planned.op.from {
                    op["from"] = json!(from);
                }
                if planned.op.op.takes_value() {
                    op["value"] = planned.op.value.clone().unwrap_or_default();
                }
                op
            })
            .collect::<Vec<_>>()
    });
    json!({
        "preset": plan.preset.as_str(),
        "contentType": plan.body.content_type(),
        "empty": plan.is_empty(),
        "body": plan.body_text(),
        "ops": ops,
        "fields": plan.fields.iter().map(|f| json!({
            "path": f.path.as_str(), "kind": f.kind.as_str(),
            "strategy": f.strategy.as_str(), "change": f.change.as_str(),
        })).collect::<Vec<_>>(),
        "conflicts": plan.conflicts,
        "overwrites": plan.overwrites,
        "notes": plan.notes,
    })
}

#[wasm_bindgen_test]
fn diff_results_carry_every_member_of_the_plan() {
    // The answer crosses as strings joined by U+0001 (or a JSON array of
    // them when a string holds U+0001) and is rebuilt in JS: every member
    // of the plan must come back, in both forms, for every preset.
    use patchlab::strategy::{diff, Options, Preset};
    let mut rng = Lcg(41);
    let mut joined_form = 0;
    let mut json_form = 0;
    for case in 0..240 {
        let mut old = kube_like(&mut rng);
        let mut new = mutate(&mut rng, &old, 0);
        if case % 3 == 0 {
            // Keys and values holding the separator, in fields the plan
            // names (ops, fields, conflicts, overwrites).
            old["metadata"]["labels"] = serde_json::json!({"a\u{1}b": "x", "c": "\u{1}"});
            if !new["metadata"].is_object() {
                new["metadata"] = serde_json::json!({});
            }
            new["metadata"]["labels"] = serde_json::json!({"a\u{1}b": "y\u{1}", "d\u{1}": "e"});
            json_form += 1;
        } else {
            joined_form += 1;
        }
        for preset in Preset::EVERY {
            let mut options = Options::preset(preset);
            options.explain = true;
            let answer = api::diff(
                js(&old.to_string()),
                js(&new.to_string()),
                opts(&format!(r#"{{"preset":"{}"}}"#, preset.as_str())),
            );
            let Ok(plan) = diff(&old, &new, &options) else {
                assert!(answer.is_err(), "case {case} {preset:?}");
                continue;
            };
            let answer = answer.unwrap();
            let got: serde_json::Value = serde_json::from_str(&text(&answer)).unwrap();
            assert_eq!(
                got,
                expected_result(&plan),
                "case {case} {preset:?}: {old} -> {new}"
            );
        }
    }
    assert!(joined_form > 100 && json_form > 50);

    // Members come in the documented order, `from` and `value` where an op
    // has them (the text form is JSON.stringify of the result).
    let old = js(r#"{"metadata":{"labels":{"k":"v"}},"spec":{"a":1}}"#);
    let new = js(r#"{"metadata":{"labels":{"k":"v","n\u0001":"w"}},"spec":{}}"#);
    let answer = api::diff(old, new, opts(r#"{"preset":"naive"}"#)).unwrap();
    let ops: Array = get(&answer, "ops").dyn_into().unwrap();
    let keys = |value: &JsValue| -> Vec<String> {
        Object::keys(value.unchecked_ref::<Object>())
            .iter()
            .filter_map(|k| k.as_string())
            .collect()
    };
    assert_eq!(
        keys(&answer),
        [
            "preset",
            "contentType",
            "empty",
            "body",
            "ops",
            "fields",
            "conflicts",
            "overwrites",
            "notes"
        ]
    );
    for op in ops.iter() {
        let want: &[&str] = match string(&op, "op").as_deref() {
            Some("remove") => &["op", "path", "reason", "field", "strategy"],
            _ => &["op", "path", "value", "reason", "field", "strategy"],
        };
        assert_eq!(keys(&op), want, "{}", text(&op));
    }
}

#[wasm_bindgen_test]
fn simple_diff_options_read_as_the_general_reader_does() {
    // Options with no more than a preset and `explain` are read in one
    // step; `overrides: {}` sends the same options through the general
    // reader. Both must give the same diff for every preset name, old
    // names included, and with `explain` true, false or absent.
    let old = js(OLD);
    let new = js(NEW);
    let mut names: Vec<&str> = patchlab::strategy::Preset::EVERY
        .iter()
        .map(|p| p.as_str())
        .collect();
    names.extend(["kubevirt-head", "none"]);
    for name in names {
        for explain in ["", r#","explain":true"#, r#","explain":false"#] {
            let simple = format!(r#"{{"preset":"{name}"{explain}}}"#);
            let general = format!(r#"{{"preset":"{name}"{explain},"overrides":{{}}}}"#);
            let a = api::diff(old.clone(), new.clone(), opts(&simple));
            let b = api::diff(old.clone(), new.clone(), opts(&general));
            match (a, b) {
                (Ok(a), Ok(b)) => assert_eq!(canonical(&a), canonical(&b), "{simple}"),
                (Err(a), Err(b)) => assert_eq!(message(&a), message(&b), "{simple}"),
                (a, b) => panic!(
                    "{simple}: {:?} vs {:?}",
                    a.map(|v| text(&v)),
                    b.map(|v| text(&v))
                ),
            }
        }
    }
    // No preset: the default; `explain: false` leaves the reasons out.
    let default = api::diff(old.clone(), new.clone(), opts(r#"{"explain":false}"#)).unwrap();
    let ops: Array = get(&default, "ops").dyn_into().unwrap();
    assert_eq!(
        string(&default, "preset"),
        Some(patchlab::strategy::Preset::default().as_str().to_owned())
    );
    assert_eq!(string(&ops.get(0), "reason").as_deref(), Some(""));
    // A wrong type still gets the general reader's message.
    let err = error_of(
        api::diff(old.clone(), new.clone(), opts(r#"{"explain":"yes"}"#)),
        "bad-argument",
    );
    assert!(
        message(&err).contains("options.explain must be"),
        "{}",
        message(&err)
    );
}

#[wasm_bindgen_test]
fn diff_reads_own_members_only_as_json_does() {
    // JSON.stringify writes an object's own members only: what an object
    // inherits is not in it for the diff either, whether the object was
    // made from another by Object.create or Object.prototype is polluted.
    let naive = r#"{"preset":"naive"}"#;
    let routes = |old: &JsValue, new: &JsValue| {
        let from_objects = api::diff(old.clone(), new.clone(), opts(naive)).unwrap();
        let from_text = api::diff(
            text(old).as_str().into(),
            text(new).as_str().into(),
            opts(naive),
        )
        .unwrap();
        (canonical(&from_objects), canonical(&from_text))
    };
    let inherits = || Object::create(js(r#"{"foo":1}"#).unchecked_ref::<Object>());

    // A member object, then an element of a list, that inherits `foo`.
    let old = js(r#"{"spec":{"foo":1,"bar":2},"status":{"list":[{"foo":1}]}}"#);
    let new = js(r#"{"spec":{},"status":{"list":[{}]}}"#);
    Reflect::set(&new, &"spec".into(), &inherits()).unwrap();
    let list = Array::of1(&inherits());
    Reflect::set(&get(&new, "status"), &"list".into(), &list).unwrap();
    let (objects, text_route) = routes(&old, &new);
    assert_eq!(objects, text_route);
    assert!(objects.contains(r#""path":"/spec/foo""#), "{objects}");
    assert!(objects.contains(r#""path":"/status/list"#), "{objects}");

    // A polluted Object.prototype (undone before asserting).
    let prototype = Object::get_prototype_of(&Object::new());
    Reflect::set(&prototype, &"polluted".into(), &JsValue::from(1)).unwrap();
    let old = js(r#"{"spec":{"polluted":1,"a":{"polluted":1}}}"#);
    let new = js(r#"{"spec":{"a":{}}}"#);
    let (objects, text_route) = routes(&old, &new);
    Reflect::delete_property(&prototype, &"polluted".into()).unwrap();
    assert_eq!(objects, text_route);
    assert!(objects.contains(r#""path":"/spec/polluted""#), "{objects}");
    assert!(
        objects.contains(r#""path":"/spec/a/polluted""#),
        "{objects}"
    );
}

#[wasm_bindgen_test]
fn diff_errors() {
    let err = error_of(
        api::diff(js(OLD), js(NEW), opts(r#"{"preset":"kubevirt-next"}"#)),
        "bad-argument",
    );
    assert!(
        message(&err).starts_with("options.preset:"),
        "{}",
        message(&err)
    );
    let err = error_of(
        api::diff(
            js(OLD),
            js(NEW),
            opts(r#"{"overrides":{"/a~9":"per-key"}}"#),
        ),
        "invalid-pointer",
    );
    assert_eq!(string(&err, "path").as_deref(), Some("/a~9"));
    error_of(
        api::diff(
            js(OLD),
            js(NEW),
            opts(r#"{"overrides":{"/metadata/labels":"sideways"}}"#),
        ),
        "bad-argument",
    );
    let err = error_of(api::diff("a: [1, 2\n".into(), js(NEW), None), "syntax");
    assert_eq!(num(&err, "line"), Some(2.0));
    error_of(api::diff(js("[1]"), js(NEW), None), "diff-failed");
}

#[wasm_bindgen_test]
fn simulate_replays_the_migration_race() {
    let scenario = include_str!("../www/scenarios/migration-race.yaml");
    let head = api::simulate(scenario.into(), opts(r#"{"preset":"kubevirt-main"}"#)).unwrap();
    let steps: Array = get(&head, "steps").dyn_into().unwrap();
    let step = steps.get(3);
    assert_eq!(string(&step, "writer").as_deref(), Some("virt-controller"));
    let response = get(&step, "response");
    assert_eq!(num(&response, "code"), Some(422.0));
    assert_eq!(
        string(&response, "message").as_deref(),
        Some("the server rejected our request due to an error in our request")
    );
    let pr = api::simulate(scenario.into(), opts(r#"{"preset":"kubevirt-per-key"}"#)).unwrap();
    let steps: Array = get(&pr, "steps").dyn_into().unwrap();
    assert_eq!(num(&get(&steps.get(3), "response"), "code"), Some(200.0));

    // The same scenario as an object.
    let object = JSON::parse(&text(&get(&head, "initial"))).unwrap();
    assert!(Array::is_array(&object));

    let err = error_of(
        api::simulate(js(r#"{"name":"x"}"#), None),
        "invalid-scenario",
    );
    assert!(message(&err).contains("missing field"), "{}", message(&err));
    error_of(
        api::simulate(scenario.into(), opts(r#"{"preset":"nope"}"#)),
        "bad-argument",
    );
}

#[wasm_bindgen_test]
fn migrate_counts_false_conflicts_per_preset() {
    let result = api::migrate(opts(
        r#"{"vms":40,"seed":3,"presets":["kubevirt-main","kubevirt-per-key"]}"#,
    ))
    .unwrap();
    assert_eq!(num(&result, "vms"), Some(40.0));
    let presets: Array = get(&result, "presets").dyn_into().unwrap();
    assert_eq!(presets.length(), 2);
    let head = presets.get(0);
    let pr = presets.get(1);
    assert_eq!(string(&head, "preset").as_deref(), Some("kubevirt-main"));
    assert!(num(&get(&head, "total"), "needless_failures_on_maps").unwrap() > 0.0);
    assert_eq!(
        num(&get(&pr, "total"), "needless_failures_on_maps"),
        Some(0.0)
    );
    let writers: Array = get(&head, "writers").dyn_into().unwrap();
    assert_eq!(
        string(&writers.get(2), "name").as_deref(),
        Some("virt-handler")
    );

    let churned = api::migrate(opts(
        r#"{"vms":10,"seed":3,"presets":["kubevirt-main"],"churn":2,"retries":0}"#,
    ))
    .unwrap();
    let head = Array::from(&get(&churned, "presets")).get(0);
    let writers: Array = get(&head, "writers").dyn_into().unwrap();
    assert_eq!(writers.length(), 5);
    assert_eq!(string(&writers.get(4), "name").as_deref(), Some("churn-2"));
    assert_eq!(num(&get(&head, "total"), "retries"), Some(0.0));
    error_of(api::migrate(opts(r#"{"churn":9}"#)), "bad-argument");
    error_of(api::migrate(opts(r#"{"retries":1.5}"#)), "bad-argument");
    let err = error_of(api::migrate(opts(r#"{"vms":200000}"#)), "too-large");
    assert!(
        message(&err).contains("between 1 and 100000"),
        "{}",
        message(&err)
    );
    error_of(api::migrate(opts(r#"{"vms":0}"#)), "too-large");
    error_of(api::migrate(opts(r#"{"vms":2.5}"#)), "bad-argument");
    error_of(api::migrate(opts(r#"{"vms":"ten"}"#)), "bad-argument");
    error_of(
        api::migrate(opts(r#"{"presets":["fast"]}"#)),
        "bad-argument",
    );
}

#[wasm_bindgen_test]
fn presets_and_version() {
    let list: Array = api::presets().unwrap().dyn_into().unwrap();
    assert_eq!(list.length(), 8);
    assert_eq!(string(&list.get(7), "name").as_deref(), Some("strategic"));
    assert_eq!(get(&list.get(7), "builtinOnly").as_bool(), Some(true));
    assert_eq!(get(&list.get(0), "builtinOnly").as_bool(), Some(false));
    assert_eq!(
        string(&list.get(0), "name").as_deref(),
        Some("kubevirt-main")
    );
    assert!(!string(&list.get(0), "summary").unwrap().is_empty());
    assert_eq!(
        api::version().as_string().unwrap(),
        env!("CARGO_PKG_VERSION")
    );
}

/// A tiny deterministic generator for the equivalence test below.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }

    fn key(&mut self) -> &'static str {
        ["a", "b", "c", "a/b", "~", "0", "1"][self.next(7) as usize]
    }

    fn value(&mut self, depth: u32) -> serde_json::Value {
        use serde_json::{json, Value};
        match self.next(if depth > 2 { 4 } else { 7 }) {
            0 => Value::Null,
            1 => json!(self.next(3)),
            2 => json!(["x", "y", "z"][self.next(3) as usize]),
            3 => json!(self.next(2) == 0),
            4 | 5 => {
                let mut map = serde_json::Map::new();
                for _ in 0..self.next(4) {
                    let key = self.key().to_owned();
                    map.insert(key, self.value(depth + 1));
                }
                Value::Object(map)
            }
            _ => Value::Array((0..self.next(3)).map(|_| self.value(depth + 1)).collect()),
        }
    }

    fn path(&mut self) -> String {
        let tokens: Vec<String> = (0..1 + self.next(3))
            .map(|_| patchlab::pointer::escape(self.key()).into_owned())
            .collect();
        format!("/{}", tokens.join("/"))
    }

    fn op(&mut self) -> serde_json::Value {
        use serde_json::json;
        let path = self.path();
        match self.next(6) {
            0 => json!({"op": "add", "path": path, "value": self.value(1)}),
            1 => json!({"op": "remove", "path": path}),
            2 => json!({"op": "replace", "path": path, "value": self.value(2)}),
            3 => json!({"op": "test", "path": path, "value": self.value(2)}),
            4 => json!({"op": "move", "from": self.path(), "path": path}),
            _ => json!({"op": "copy", "from": self.path(), "path": path}),
        }
    }
}

/// A JS value with object keys sorted, as JSON text, for comparisons.
fn canonical(value: &JsValue) -> String {
    let text: String = JSON::stringify(value).unwrap().into();
    let parsed: serde_json::Value = serde_json::from_str(&text).unwrap();
    parsed.to_string()
}

#[wasm_bindgen_test]
fn objects_and_text_give_the_same_results_and_errors() {
    let mut rng = Lcg(7);
    let mut shared_route = 0;
    for case in 0..1500 {
        let doc = serde_json::Value::Object(match rng.value(0) {
            serde_json::Value::Object(map) => map,
            _ => serde_json::Map::new(),
        });
        let ops: Vec<serde_json::Value> = (0..1 + rng.next(4)).map(|_| rng.op()).collect();
        let payload = serde_json::Value::Array(ops).to_string();
        let doc_text = doc.to_string();
        for semantics in [r#"{"semantics":"kube"}"#, r#"{"semantics":"rfc"}"#] {
            let object = js(&doc_text);
            let from_object =
                api::apply_patch(object.clone(), payload.as_str().into(), opts(semantics));
            let from_text = api::apply_patch_json(
                doc_text.as_str().into(),
                payload.as_str().into(),
                opts(semantics),
            );
            assert_eq!(text(&object), doc_text, "the caller's object is unchanged");
            match (from_object, from_text) {
                (Ok(a), Ok(b)) => {
                    let b = JSON::parse(&b.as_string().unwrap()).unwrap();
                    assert_eq!(
                        canonical(&a),
                        canonical(&b),
                        "case {case}: {doc_text} {payload}"
                    );
                    shared_route += 1;
                }
                (Err(a), Err(b)) => {
                    for key in ["kind", "index", "path", "status", "cause"] {
                        assert_eq!(
                            get(&a, key)
                                .as_string()
                                .or(get(&a, key).as_f64().map(|n| n.to_string())),
                            get(&b, key)
                                .as_string()
                                .or(get(&b, key).as_f64().map(|n| n.to_string())),
                            "case {case} {key}: {doc_text} {payload}: {} / {}",
                            message(&a),
                            message(&b)
                        );
                    }
                }
                (a, b) => panic!(
                    "case {case}: {doc_text} {payload}: {:?} vs {:?}",
                    a.map(|v| text(&v)),
                    b.map(|v| text(&v))
                ),
            }
        }
    }
    assert!(shared_route > 50, "only {shared_route} cases succeeded");
}

#[wasm_bindgen_test]
fn apply_patch_shares_what_it_does_not_touch() {
    let doc =
        js(r#"{"metadata":{"labels":{"a":"1"},"annotations":{"x":"y"}},"spec":{"big":[1,2,3]}}"#);
    let patch = js(r#"[{"op":"add","path":"/metadata/labels/b","value":"2"}]"#);
    let out = api::apply_patch(doc.clone(), patch, None).unwrap();
    assert_eq!(
        text(&out),
        r#"{"metadata":{"labels":{"a":"1","b":"2"},"annotations":{"x":"y"}},"spec":{"big":[1,2,3]}}"#,
        "document order kept, the new key last"
    );
    assert!(
        js_sys::Object::is(&get(&out, "spec"), &get(&doc, "spec")),
        "untouched: shared"
    );
    let (out_meta, doc_meta) = (get(&out, "metadata"), get(&doc, "metadata"));
    assert!(
        !js_sys::Object::is(&out_meta, &doc_meta),
        "on the path: a new object"
    );
    assert!(js_sys::Object::is(
        &get(&out_meta, "annotations"),
        &get(&doc_meta, "annotations")
    ));
    assert_eq!(
        text(&get(&doc_meta, "labels")),
        r#"{"a":"1"}"#,
        "the caller's object is unchanged"
    );
}

#[wasm_bindgen_test]
fn lint_returns_the_cli_json_shape() {
    let payload = r#"[{"op":"test","path":"/metadata/labels","value":{"kubevirt.io/nodeName":"node01"}},{"op":"replace","path":"/metadata/labels","value":{"kubevirt.io/migrationTargetNodeName":"node02","kubevirt.io/nodeName":"node01"}}]"#;
    let result = api::lint::lint(payload.into(), None).unwrap();
    assert_eq!(string(&result, "kind").as_deref(), Some("json-patch"));
    assert_eq!(string(&result, "semantics").as_deref(), Some("kube"));
    assert_eq!(num(&result, "opCount"), Some(2.0));
    let findings: Array = get(&result, "findings").dyn_into().unwrap();
    assert_eq!(findings.length(), 1);
    let finding = findings.get(0);
    assert_eq!(string(&finding, "rule").as_deref(), Some("whole-map-test"));
    assert_eq!(string(&finding, "severity").as_deref(), Some("warning"));
    assert_eq!(num(&finding, "index"), Some(0.0));
    assert_eq!(
        string(&finding, "path").as_deref(),
        Some("/metadata/labels")
    );
    assert!(string(&finding, "message")
        .unwrap()
        .starts_with("op 0 tests the whole map"));
    assert_eq!(
        text(&get(&finding, "fix")),
        r#"[{"op":"add","path":"/metadata/labels/kubevirt.io~1migrationTargetNodeName","value":"node02"}]"#
    );
    assert!(get(&result, "outcome").is_null());
    assert_eq!(
        text(&get(&result, "conflicts"))
            .matches("/metadata/labels")
            .count(),
        2
    );
}

#[wasm_bindgen_test]
fn lint_reads_arrays_objects_commands_and_an_object_option() {
    // An array of ops and an object: JSON patch and merge patch.
    let ops = js(r#"[{"op":"remove","path":"/metadata/finalizers/0"}]"#);
    let object = js(r#"{"metadata":{"finalizers":["a","b"]}}"#);
    let result = api::lint::lint(
        ops,
        opts(&format!(
            r#"{{"object":{},"semantics":"rfc"}}"#,
            text(&object)
        )),
    )
    .unwrap();
    let findings: Array = get(&result, "findings").dyn_into().unwrap();
    let finding = findings.get(0);
    assert_eq!(
        string(&finding, "rule").as_deref(),
        Some("index-without-test")
    );
    assert_eq!(
        text(&get(&finding, "fix")),
        r#"[{"op":"test","path":"/metadata/finalizers/0","value":"a"},{"op":"remove","path":"/metadata/finalizers/0"}]"#
    );
    let outcome = get(&result, "outcome");
    assert_eq!(get(&outcome, "applies").as_bool(), Some(true));
    assert_eq!(string(&result, "semantics").as_deref(), Some("rfc"));
    // The object as YAML text.
    let yaml = Some(js(r#"{"object":"metadata:\n  finalizers: [a]\n"}"#));
    let result = api::lint::lint(js(r#"{"metadata":{"finalizers":[]}}"#), yaml).unwrap();
    assert_eq!(string(&result, "kind").as_deref(), Some("merge-patch"));
    let findings: Array = get(&result, "findings").dyn_into().unwrap();
    assert_eq!(
        string(&findings.get(0), "rule").as_deref(),
        Some("merge-replaces-list")
    );
    assert!(
        !get(&findings.get(0), "fix").is_null(),
        "with the object, the JSON patch to send instead"
    );
    // A kubectl command line: the list is re-encoded as kubectl does (1.0 is sent as 1).
    let command = r#"kubectl patch vmi a --type=json -p '[{"op":"test","path":"/spec/domain/cpu/cores","value":1.0}]'"#;
    let result = api::lint::lint(command.into(), None).unwrap();
    assert_eq!(text(&get(&result, "findings")), "[]");
    // The same list pasted as text keeps its bytes: the test never matches.
    let result = api::lint::lint(
        r#"[{"op":"test","path":"/spec/domain/cpu/cores","value":1.0}]"#.into(),
        None,
    )
    .unwrap();
    let findings: Array = get(&result, "findings").dyn_into().unwrap();
    assert_eq!(
        string(&findings.get(0), "rule").as_deref(),
        Some("test-never-matches")
    );
}

#[wasm_bindgen_test]
fn lint_errors_say_what_and_where() {
    // What fails as written is a finding in the report, not a throw: the
    // server's 400 with where, kubectl's own refusal.
    let report = api::lint::lint("[{\"op\":\"add\",\n \"path\": }]".into(), None).unwrap();
    let finding = get(&report, "findings").dyn_into::<Array>().unwrap().get(0);
    assert_eq!(
        string(&finding, "rule").as_deref(),
        Some("undecodable-body")
    );
    assert_eq!(string(&finding, "severity").as_deref(), Some("error"));
    assert!(string(&finding, "message")
        .unwrap()
        .contains("(line 2, column 10)"));
    let err = error_of(api::lint::lint("[1]".into(), None), "invalid-patch");
    assert_eq!(num(&err, "index"), Some(0.0));
    assert_eq!(num(&err, "status"), Some(400.0));
    let report = api::lint::lint("kubectl patch vmi a --type=yaml -p '{}'".into(), None).unwrap();
    let finding = get(&report, "findings").dyn_into::<Array>().unwrap().get(0);
    assert_eq!(string(&finding, "rule").as_deref(), Some("command-fails"));
    assert!(
        string(&finding, "message")
            .unwrap()
            .contains("--type must be one of"),
        "{}",
        text(&finding)
    );
    error_of(api::lint::lint(JsValue::from(5), None), "bad-argument");
    error_of(
        api::lint::lint("[]".into(), opts(r#"{"semantics":"strict"}"#)),
        "bad-argument",
    );
    error_of(
        api::lint::lint("[]".into(), opts(r#"{"objet":{}}"#)),
        "bad-argument",
    );
    error_of(
        api::lint::lint("[]".into(), opts(r#"{"object":[1]}"#)),
        "bad-argument",
    );
    let err = error_of(
        api::lint::lint("[]".into(), opts(r#"{"object":"a: [\n"}"#)),
        "syntax",
    );
    assert!(num(&err, "line").is_some());
}

#[wasm_bindgen_test]
fn lint_rules_lists_the_table_and_the_types_name_every_rule() {
    let rules: Array = api::lint::lint_rules().unwrap().dyn_into().unwrap();
    assert_eq!(rules.length() as usize, patchlab::lint::RULES.len());
    for (i, info) in patchlab::lint::RULES.iter().enumerate() {
        let rule = rules.get(i as u32);
        assert_eq!(string(&rule, "name").as_deref(), Some(info.name));
        assert_eq!(
            string(&rule, "severity").as_deref(),
            Some(info.severity.as_str())
        );
        assert!(string(&rule, "explanation").is_some_and(|e| !e.is_empty()));
        assert!(string(&rule, "appliesTo").is_some());
        assert!(
            api::lint::LINT_TYPES.contains(&format!("\"{}\"", info.name)),
            "LintRule lists {}",
            info.name
        );
    }
}

// ---------------------------------------------------------------------------
// Hostile and unlucky input (issue #26): every one a clear error or a
// correct answer, and the module answers normally afterwards.

/// An object from (key, value) pairs, set as own data properties (so a
/// `__proto__` key is a member, not the prototype).
fn object(members: &[(&str, JsValue)]) -> JsValue {
    let out = Object::new();
    for (key, value) in members {
        let descriptor = Object::new();
        Reflect::set(&descriptor, &"value".into(), value).unwrap();
        Reflect::set(&descriptor, &"enumerable".into(), &true.into()).unwrap();
        Reflect::set(&descriptor, &"writable".into(), &true.into()).unwrap();
        Reflect::set(&descriptor, &"configurable".into(), &true.into()).unwrap();
        Object::define_property(&out, &JsValue::from_str(key), &descriptor);
    }
    out.into()
}

fn array(items: &[JsValue]) -> JsValue {
    items.iter().collect::<Array>().into()
}

fn own(value: &JsValue, key: &str) -> bool {
    Object::has_own(value.unchecked_ref::<Object>(), &JsValue::from_str(key))
}

fn has_plain_prototype(value: &JsValue) -> bool {
    let proto = Object::get_prototype_of(value);
    JsValue::from(proto) == JsValue::from(Object::get_prototype_of(&Object::new().into()))
}

/// The module still answers a plain call the same way.
fn still_works() {
    let out = api::apply_patch(
        js(r#"{"a":1}"#),
        js(r#"[{"op":"add","path":"/b","value":2}]"#),
        None,
    )
    .unwrap();
    assert_eq!(text(&out), r#"{"a":1,"b":2}"#);
}

#[wasm_bindgen_test]
fn results_keep_proto_keys_as_own_keys() {
    let evil = r#"{"__proto__":{"isAdmin":true}}"#;
    let old = js(r#"{"metadata":{"labels":{"a":"1"}}}"#);
    let new = js(&format!(
        r#"{{"metadata":{{"labels":{{"a":"1"}},"extra":{evil}}}}}"#
    ));
    for preset in ["kubevirt-per-key", "kubevirt-main", "naive", "optimistic"] {
        let out = api::diff(
            old.clone(),
            new.clone(),
            opts(&format!(r#"{{"preset":"{preset}"}}"#)),
        )
        .unwrap();
        let ops: Array = get(&out, "ops").dyn_into().unwrap();
        let value = (0..ops.length())
            .map(|i| get(&ops.get(i), "value"))
            .find(|v| v.is_object())
            .unwrap_or_else(|| panic!("{preset}: an op adds the object: {}", text(&out)));
        assert!(
            own(&value, "__proto__"),
            "{preset}: own key: {}",
            text(&out)
        );
        assert!(has_plain_prototype(&value), "{preset}: prototype untouched");
        assert!(
            get(&value, "isAdmin").is_undefined(),
            "{preset}: nothing inherited"
        );
        assert_eq!(text(&get(&value, "__proto__")), r#"{"isAdmin":true}"#);
    }

    // The simulator's objects too.
    let scenario = r#"{"name":"proto","objects":[{"apiVersion":"v1","kind":"Pod",
        "metadata":{"name":"p","resourceVersion":"1","labels":{"__proto__":"x"}}}],
        "writers":[{"name":"w","preset":"kubevirt-per-key","intents":[{"set-label":{"key":"k","value":"v"}}]}],
        "schedule":[{"read":"w"},{"write":"w"}]}"#;
    let replay = api::simulate(scenario.into(), None).unwrap();
    let steps: Array = get(&replay, "steps").dyn_into().unwrap();
    let labels = get(&get(&get(&steps.get(1), "object"), "metadata"), "labels");
    assert!(
        own(&labels, "__proto__") && own(&labels, "k"),
        "{}",
        text(&labels)
    );
    assert!(has_plain_prototype(&labels));
    still_works();
}

#[wasm_bindgen_test]
fn values_json_cannot_carry_are_refused_with_their_place() {
    let nan = JsValue::from_f64(f64::NAN);
    let op = |value: JsValue| {
        array(&[object(&[
            ("op", "test".into()),
            ("path", "/a".into()),
            ("value", value),
        ])])
    };
    // A test against NaN no longer passes on a null field.
    let doc = js(r#"{"a":null}"#);
    let err = error_of(
        api::apply_patch(doc.clone(), op(nan.clone()), None),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "patch holds NaN at /0/value, which JSON cannot carry (JSON.stringify would write null or leave it out)"
    );
    let err = error_of(
        api::apply_patch(doc.clone(), op(JsValue::UNDEFINED), None),
        "bad-argument",
    );
    assert!(
        message(&err).starts_with("patch holds undefined at /0/value"),
        "{}",
        message(&err)
    );
    let infinite = object(&[("a", JsValue::from_f64(f64::NEG_INFINITY))]);
    let err = error_of(
        api::apply_patch(infinite, op(1.into()), None),
        "bad-argument",
    );
    assert!(
        message(&err).starts_with("doc holds -Infinity at /a"),
        "{}",
        message(&err)
    );
    let err = error_of(
        api::diff(
            object(&[("spec", array(&[1.into(), JsValue::UNDEFINED]))]),
            js("{}"),
            None,
        ),
        "bad-argument",
    );
    assert!(
        message(&err).starts_with("old holds undefined at /spec/1"),
        "{}",
        message(&err)
    );
    // Equal on both sides still counts: Infinity is not a JSON value.
    let same = object(&[("x", JsValue::from_f64(f64::INFINITY))]);
    error_of(api::diff(same.clone(), same, None), "bad-argument");
    let err = error_of(api::lint::lint(op(nan), None), "bad-argument");
    assert!(
        message(&err).contains("NaN at /0/value"),
        "{}",
        message(&err)
    );

    // A null patch is not an empty one.
    let err = error_of(
        api::apply_patch(js("{}"), JsValue::NULL, None),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "patch must be an array of ops or the payload's text, found null"
    );
    error_of(
        api::apply_merge_patch(js("{}"), JsValue::NULL, None),
        "bad-argument",
    );
    // As text, `null` is the server's to answer.
    assert!(api::apply_merge_patch(
        js(r#"{"a":1}"#),
        "null".into(),
        opts(r#"{"semantics":"rfc"}"#)
    )
    .is_ok());

    // A value shared many times is refused by size before its text is built.
    let mut shared: JsValue = array(&[JsValue::from_str(&"x".repeat(1000))]);
    for _ in 0..30 {
        shared = array(&[shared.clone(), shared.clone()]);
    }
    let err = error_of(
        api::diff(object(&[("spec", shared.clone())]), js("{}"), None),
        "too-large",
    );
    assert_eq!(num(&err, "status"), Some(413.0));
    // So is a document over 4 MiB, even when equal on both sides.
    let blob = format!(r#"{{"blob":"{}"}}"#, "x".repeat(5 << 20));
    let err = error_of(api::diff(js(&blob), js(&blob), None), "too-large");
    assert_eq!(num(&err, "status"), Some(413.0));
    // Nesting deeper than the budget (or a cycle) is refused the same way.
    let cyclic = Object::new();
    Reflect::set(&cyclic, &"self".into(), &cyclic).unwrap();
    let err = error_of(api::diff(cyclic.into(), js("{}"), None), "bad-argument");
    assert_eq!(
        message(&err),
        "old holds a cycle: /self refers back to the value itself, which JSON cannot carry"
    );
    // Deeper than the budget without a cycle: the limit.
    let mut deep: JsValue = js("{}");
    for _ in 0..200 {
        deep = object(&[("a", deep)]);
    }
    let err = error_of(api::diff(deep, js("{}"), None), "bad-argument");
    assert!(
        message(&err).contains("deeper than the limit of 128"),
        "{}",
        message(&err)
    );
    still_works();
}

/// The value the JS function body `code` returns.
fn eval(code: &str) -> JsValue {
    js_sys::Function::new_no_args(code)
        .call0(&JsValue::NULL)
        .expect("test code")
}

/// `err`'s message, which must be exactly `expected`.
fn assert_message(err: &JsValue, expected: &str) {
    assert_eq!(message(err), expected);
}

#[wasm_bindgen_test]
fn callers_mistakes_are_bad_arguments_with_their_place() {
    let add = || js(r#"[{"op":"add","path":"/spec/y","value":1}]"#);
    let getter = "const o = { kind: 'x', spec: {} }; \
        Object.defineProperty(o.spec, 'x', { enumerable: true, get() { throw new Error('no access'); } }); \
        return o;";
    // A getter that throws where the patch goes (read member by member)...
    let err = error_of(api::apply_patch(eval(getter), add(), None), "bad-argument");
    assert_message(&err, "doc cannot be read at /spec/x: Error: no access");
    // ... and where the whole document is read (a merge patch, a diff).
    let err = error_of(
        api::apply_merge_patch(eval(getter), js(r#"{"a":1}"#), None),
        "bad-argument",
    );
    assert_message(&err, "doc cannot be read at /spec/x: Error: no access");
    let err = error_of(api::diff(js("{}"), eval(getter), None), "bad-argument");
    assert_message(&err, "new cannot be read at /spec/x: Error: no access");
    let err = error_of(api::lint::lint(eval(getter), None), "bad-argument");
    assert_message(&err, "patch cannot be read at /spec/x: Error: no access");

    // A revoked Proxy, whole or inside.
    let revoked = "const p = Proxy.revocable({}, {}); p.revoke(); return p.proxy;";
    let err = error_of(api::apply_patch(eval(revoked), add(), None), "bad-argument");
    assert!(
        message(&err).starts_with("doc cannot be read: TypeError: "),
        "{}",
        message(&err)
    );
    // Inside, on the patch's path (what a patch does not touch is never
    // read: it is shared with the result as it is).
    let inside =
        format!("const o = {{ spec: {{}} }}; o.spec.p = (() => {{ {revoked} }})(); return o;");
    let through = js(r#"[{"op":"add","path":"/spec/p/y","value":1}]"#);
    let err = error_of(
        api::apply_patch(eval(&inside), through, None),
        "bad-argument",
    );
    assert!(
        message(&err).starts_with("doc cannot be read at /spec/p: TypeError: "),
        "{}",
        message(&err)
    );
    // A Proxy whose traps throw.
    let trap = "return new Proxy({}, { ownKeys() { throw new Error('trapped'); } });";
    let err = error_of(api::apply_patch(eval(trap), add(), None), "bad-argument");
    assert_message(&err, "doc cannot be read: Error: trapped");
    let err = error_of(
        api::diff(js(OLD), js(NEW), Some(eval(trap))),
        "bad-argument",
    );
    assert_message(&err, "options cannot be read: Error: trapped");

    // A cycle: where it refers back to.
    let cycle = "const o = { spec: { list: [1] } }; o.spec.list.push(o.spec); return o;";
    let merge = || js(r#"{"a":1}"#);
    let err = error_of(
        api::apply_merge_patch(eval(cycle), merge(), None),
        "bad-argument",
    );
    assert_message(
        &err,
        "doc holds a cycle: /spec/list/1 refers back to /spec, which JSON cannot carry",
    );

    // A Map, a Set, a typed array, a BigInt: JSON.stringify would not
    // write what they hold.
    for (code, words) in [
        (
            "return { spec: { m: new Map([['a', 1]]) } };",
            "a Map at /spec/m",
        ),
        ("return { spec: { s: new Set([1]) } };", "a Set at /spec/s"),
        (
            "return { spec: { b: new Uint8Array(2) } };",
            "a Uint8Array at /spec/b",
        ),
    ] {
        let err = error_of(
            api::apply_merge_patch(eval(code), merge(), None),
            "bad-argument",
        );
        assert_message(
            &err,
            &format!("doc holds {words}, which JSON cannot carry (JSON.stringify would not write what it holds)"),
        );
    }
    // On a patch's path, read member by member: the same.
    let err = error_of(
        api::apply_patch(
            eval("return { spec: { m: new Map() } };"),
            js(r#"[{"op":"add","path":"/spec/m/a","value":1}]"#),
            None,
        ),
        "bad-argument",
    );
    assert_message(
        &err,
        "doc holds a Map at /spec/m, which JSON cannot carry (JSON.stringify would not write what it holds)",
    );
    let err = error_of(
        api::apply_patch(
            js("{}"),
            eval("return [{ op: 'add', path: '/a', value: 10n }];"),
            None,
        ),
        "bad-argument",
    );
    assert_message(
        &err,
        "patch holds a BigInt at /0/value, which JSON cannot carry (JSON.stringify would throw)",
    );
    let err = error_of(
        api::diff(eval("return new Map();"), js("{}"), None),
        "bad-argument",
    );
    assert!(
        message(&err).starts_with("old is a Map"),
        "{}",
        message(&err)
    );

    // Options of the wrong kind are named, never read as empty.
    let err = error_of(
        api::diff(
            js(OLD),
            js(NEW),
            Some(eval("return new Map([['preset', 'naive']]);")),
        ),
        "bad-argument",
    );
    assert_message(&err, "options must be an object, found a Map");
    let err = error_of(
        api::migrate(Some(eval("return { presets: new Set(['naive']) };"))),
        "bad-argument",
    );
    assert_message(
        &err,
        "options.presets must be an array of strings, found a Set",
    );
    let err = error_of(
        api::diff(
            js(OLD),
            js(NEW),
            Some(eval("return { overrides: new Map([['/spec', 'blind']]) };")),
        ),
        "bad-argument",
    );
    assert_message(&err, "options.overrides must be an object, found a Map");
    let err = error_of(
        api::migrate(Some(eval("return { presets: ['naive', 5n] };"))),
        "bad-argument",
    );
    assert_message(&err, "options.presets[1] must be a string, found a BigInt");

    // None of that reset the module: it answers at once.
    still_works();
}

#[wasm_bindgen_test]
fn options_are_read_from_own_properties_only() {
    let prototype = Object::get_prototype_of(&Object::new().into());
    let pollute = |key: &str, value: &str| {
        Reflect::set(&prototype, &key.into(), &value.into()).unwrap();
    };
    pollute("preset", "naive");
    pollute("kubeVersion", "1.28.0");
    pollute("semantics", "rfc");
    let result = std::panic::catch_unwind(|| {
        let out = api::diff(js(OLD), js(NEW), opts("{}")).unwrap();
        assert_eq!(string(&out, "preset").as_deref(), Some("kubevirt-per-key"));
        let err = error_of(
            api::apply_patch(
                js(r#"{"a":1}"#),
                js(r#"[{"op":"test","path":"/a","value":2}]"#),
                opts("{}"),
            ),
            "test-failed",
        );
        assert_eq!(string(&err, "engine").as_deref(), Some("evanphx-v4.13.0"));
        let replay = api::simulate(
            include_str!("../www/scenarios/migration-race.yaml").into(),
            opts("{}"),
        )
        .unwrap();
        assert_eq!(
            string(&get(&replay, "cluster"), "version").as_deref(),
            Some("1.36")
        );
    });
    for key in ["preset", "kubeVersion", "semantics"] {
        Reflect::delete_property(&prototype, &key.into()).unwrap();
    }
    result.unwrap();

    // Inherited from an options object's own prototype: not read either.
    let options: Object = Object::create(js(r#"{"preset":"naive"}"#).unchecked_ref());
    let out = api::diff(js(OLD), js(NEW), Some(options.into())).unwrap();
    assert_eq!(string(&out, "preset").as_deref(), Some("kubevirt-per-key"));
}

#[wasm_bindgen_test]
fn options_are_checked_in_one_read_with_exact_messages() {
    // A misspelt key is named, with the known ones.
    let err = error_of(
        api::diff(
            js(OLD),
            js(NEW),
            opts(r#"{"preset":"naive","explian":false}"#),
        ),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "options: unknown option \"explian\" (known: preset, overrides, fieldManager, mergeResourceVersion, explain, kubeVersion)"
    );
    // Another function's list is its own, read after the first.
    let err = error_of(
        api::apply_patch(js("{}"), js("[]"), opts(r#"{"preset":"naive"}"#)),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "options: unknown option \"preset\" (known: semantics, kubeVersion, engine)"
    );
    // A value of the wrong type names the option.
    let err = error_of(
        api::diff(js(OLD), js(NEW), opts(r#"{"explain":"no"}"#)),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "options.explain must be true or false, found a string"
    );
    // A getter that throws: the option and what it threw.
    let options = Object::new();
    let getter = js_sys::Function::new_no_args("throw new Error('no access')");
    let descriptor = Object::new();
    Reflect::set(&descriptor, &"get".into(), &getter).unwrap();
    Reflect::set(&descriptor, &"enumerable".into(), &true.into()).unwrap();
    Object::define_property(&options, &"preset".into(), &descriptor);
    let err = error_of(
        api::diff(js(OLD), js(NEW), Some(options.into())),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "options.preset cannot be read: Error: no access"
    );
    // Not an object.
    let err = error_of(api::diff(js(OLD), js(NEW), Some(js("[]"))), "bad-argument");
    assert_eq!(message(&err), "options must be an object, found an array");
    // And the same reader still reads good options after all that.
    let out = api::diff(
        js(OLD),
        js(NEW),
        opts(r#"{"preset":"naive","explain":false}"#),
    )
    .unwrap();
    assert_eq!(string(&out, "preset").as_deref(), Some("naive"));
    still_works();
}

#[wasm_bindgen_test]
fn option_lists_are_capped_and_deduplicated() {
    // The bound counts different values: a name repeated 70,000 times
    // is one preset, 70,000 different names are refused at the 65th.
    let naive: Vec<JsValue> = std::iter::repeat_n(JsValue::from("naive"), 70_000).collect();
    let options = object(&[("vms", 10.into()), ("presets", array(&naive))]);
    let out = api::migrate(Some(options)).unwrap();
    let presets: Array = get(&out, "presets").dyn_into().unwrap();
    assert_eq!(presets.length(), 1, "a repeated preset runs once");
    let names: Vec<JsValue> = (0..70_000)
        .map(|i| JsValue::from(format!("p{i}")))
        .collect();
    let options = object(&[("vms", 10.into()), ("presets", array(&names))]);
    let err = error_of(api::migrate(Some(options)), "bad-argument");
    assert_eq!(
        message(&err),
        "options.presets has 65 or more different values, more than the limit of 64"
    );
    let out = api::migrate(opts(
        r#"{"vms":10,"presets":["naive","kubevirt-main","naive","naive"]}"#,
    ))
    .unwrap();
    let presets: Array = get(&out, "presets").dyn_into().unwrap();
    assert_eq!(presets.length(), 2, "each preset runs once");

    let overrides = Object::new();
    for i in 0..1001 {
        Reflect::set(&overrides, &format!("/spec/f{i}").into(), &"blind".into()).unwrap();
    }
    let err = error_of(
        api::diff(
            js(OLD),
            js(NEW),
            Some(object(&[("overrides", overrides.into())])),
        ),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "options.overrides has 1001 entries, more than the limit of 1000"
    );
    let manager = "m".repeat(5000);
    let err = error_of(
        api::diff(
            js(OLD),
            js(NEW),
            Some(object(&[("fieldManager", manager.into())])),
        ),
        "bad-argument",
    );
    assert_eq!(
        message(&err),
        "options.fieldManager is 5000 characters long, more than the limit of 4096"
    );

    // A replay that would keep a 1 MB object 200 times is refused before
    // its first step.
    let annotations: serde_json::Map<String, serde_json::Value> = (0..10_000)
        .map(|i| (format!("k{i}"), serde_json::Value::String("v".repeat(90))))
        .collect();
    let schedule: Vec<serde_json::Value> = (0..100)
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
    let err = error_of(
        api::simulate(scenario.to_string().into(), None),
        "invalid-scenario",
    );
    assert!(
        message(&err).contains("bytes of objects the replay would keep"),
        "{}",
        message(&err)
    );
    still_works();
}

/// A KubeVirt-like object from the generator: the fields the policy
/// declares (maps, lists, a struct) and undeclared objects around them.
fn kube_like(rng: &mut Lcg) -> serde_json::Value {
    use serde_json::json;
    json!({
        "apiVersion": "kubevirt.io/v1",
        "kind": "VirtualMachineInstance",
        "metadata": {
            "name": "vmi", "resourceVersion": rng.next(3).to_string(),
            "labels": rng.value(1), "annotations": rng.value(1),
            "finalizers": rng.value(2), "other": rng.value(0),
        },
        "spec": rng.value(0),
        "status": {
            "activePods": rng.value(1), "migrationState": rng.value(1),
            "conditions": rng.value(2), "phase": rng.value(3), "nested": rng.value(0),
        },
    })
}

/// `value` with random members dropped, replaced, added or changed within.
fn mutate(rng: &mut Lcg, value: &serde_json::Value, depth: u32) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Object(map) => {
            let mut out = serde_json::Map::new();
            for (key, member) in map {
                match rng.next(8) {
                    0 => {}
                    1 => {
                        out.insert(key.clone(), rng.value(depth + 1));
                    }
                    _ => {
                        out.insert(key.clone(), mutate(rng, member, depth + 1));
                    }
                }
            }
            if rng.next(4) == 0 {
                out.insert(rng.key().to_owned(), rng.value(depth + 1));
            }
            Value::Object(out)
        }
        _ if rng.next(6) == 0 => rng.value(depth),
        _ => value.clone(),
    }
}

#[wasm_bindgen_test]
fn diff_of_objects_equals_diff_of_their_text() {
    // Objects take the pruned route (equal members stay in JS); text is
    // read whole. Every preset, with and without overrides, must agree.
    let mut rng = Lcg(26);
    let option_sets = [
        r#"{"preset":"kubevirt-per-key"}"#,
        r#"{"preset":"kubevirt-main"}"#,
        r#"{"preset":"naive"}"#,
        r#"{"preset":"optimistic"}"#,
        r#"{"preset":"merge"}"#,
        r#"{"preset":"ssa"}"#,
        r#"{"preset":"update"}"#,
        r#"{"overrides":{"spec":"test-replace","status.nested.a":"per-key"}}"#,
        r#"{"preset":"naive","explain":false}"#,
    ];
    let mut nonempty = 0;
    for case in 0..300 {
        let old = kube_like(&mut rng);
        let new = mutate(&mut rng, &old, 0);
        let (old_text, new_text) = (old.to_string(), new.to_string());
        // Every other case, the new object shares its unchanged members
        // with the old one (as immutable updates do): the same JS objects.
        let old_js = js(&old_text);
        let new_js = js(&new_text);
        if case % 2 == 1 {
            for (key, value) in new.as_object().into_iter().flatten() {
                if old.get(key) == Some(value) {
                    let shared = get(&old_js, key);
                    Reflect::set(&new_js, &JsValue::from_str(key), &shared).unwrap();
                }
            }
        }
        for options in option_sets {
            let from_objects = api::diff(old_js.clone(), new_js.clone(), opts(options));
            let from_text = api::diff(
                old_text.as_str().into(),
                new_text.as_str().into(),
                opts(options),
            );
            match (from_objects, from_text) {
                (Ok(a), Ok(b)) => {
                    assert_eq!(
                        canonical(&a),
                        canonical(&b),
                        "case {case} {options}: {old_text} -> {new_text}"
                    );
                    nonempty += usize::from(get(&a, "empty").as_bool() == Some(false));
                }
                (a, b) => panic!(
                    "case {case} {options}: {:?} vs {:?}",
                    a.map(|v| text(&v)).map_err(|e| message(&e)),
                    b.map(|v| text(&v)).map_err(|e| message(&e))
                ),
            }
        }
    }
    assert!(nonempty > 1000, "only {nonempty} diffs had changes");
}

#[wasm_bindgen_test]
fn explain_reads_an_error_and_decides_with_patch_and_object() {
    let bare =
        "The request is invalid: the server rejected our request due to an error in our request";
    let result = api::explain::explain(bare.into(), None).unwrap();
    assert_eq!(get(&result, "recognised").as_bool(), Some(true));
    assert!(get(&result, "class").is_null());
    assert_eq!(string(&result, "shape").as_deref(), Some("kubectl"));
    let candidates: Array = get(&result, "candidates").dyn_into().unwrap();
    let classes: Vec<String> = candidates
        .iter()
        .map(|c| string(&c, "class").unwrap())
        .collect();
    assert_eq!(
        classes,
        [
            "test-failed",
            "missing-path",
            "bad-index",
            "malformed-op",
            "smp-merge-key"
        ]
    );
    assert_eq!(
        get(&get(&candidates.get(0), "retry"), "retryOnConflict").as_bool(),
        Some(false)
    );
    assert!(string(&result, "wouldDecide").unwrap().contains("--patch"));

    // Patch as ops, object as data: the replay names the op.
    let result = api::explain::explain(
        bare.into(),
        opts(
            r#"{"patch":[{"op":"test","path":"/metadata/labels","value":{"a":"1"}},{"op":"add","path":"/metadata/labels/b","value":"2"}],
                "object":{"metadata":{"name":"x","labels":{"a":"2"}}},"kubeVersion":"1.30"}"#,
        ),
    )
    .unwrap();
    assert_eq!(string(&result, "class").as_deref(), Some("test-failed"));
    let replay = get(&result, "replay");
    assert_eq!(num(&replay, "index"), Some(0.0));
    assert_eq!(string(&replay, "release").as_deref(), Some("1.30"));
    assert_eq!(
        string(&replay, "engine").as_deref(),
        Some("evanphx-v4.12.0")
    );
    assert_eq!(text(&get(&replay, "expected")), r#"{"a":"1"}"#);
    assert_eq!(text(&get(&replay, "actual")), r#"{"a":"2"}"#);
    assert!(string(&result, "checkLink")
        .unwrap()
        .starts_with("#/check?s=1."));
    // Replayed on the object given, the same patch fails again: no retry
    // helps until it is rebuilt.
    assert_eq!(
        get(&get(&result, "retry"), "helps").as_string().as_deref(),
        Some("no")
    );

    // SSA conflicts come with their managers and fields.
    let result = api::explain::explain(
        r#"Error from server (Conflict): Apply failed with 1 conflict: conflict with "virt-handler" using kubevirt.io/v1: .metadata.labels.kubevirt.io/nodeName"#.into(),
        None,
    )
    .unwrap();
    assert_eq!(string(&result, "class").as_deref(), Some("ssa-conflict"));
    let managers: Array = get(&get(&result, "details"), "managers")
        .dyn_into()
        .unwrap();
    assert_eq!(
        string(&managers.get(0), "name").as_deref(),
        Some("virt-handler")
    );

    // Not recognised is no error.
    let result = api::explain::explain("all good".into(), None).unwrap();
    assert_eq!(get(&result, "recognised").as_bool(), Some(false));
}

#[wasm_bindgen_test]
fn explain_errors_say_what() {
    error_of(
        api::explain::explain(JsValue::from(5), None),
        "bad-argument",
    );
    error_of(api::explain::explain("".into(), None), "bad-argument");
    error_of(
        api::explain::explain("x".into(), opts(r#"{"kubeVersion":"2.0"}"#)),
        "bad-argument",
    );
    error_of(
        api::explain::explain("x".into(), opts(r#"{"pach":"[]"}"#)),
        "bad-argument",
    );
}

/// An option explain cannot read never hides the explanation: it is
/// listed in `unread`, with where; any 1.x release is explained.
#[wasm_bindgen_test]
fn explain_reports_unreadable_options_beside_the_explanation() {
    let text = "Error from server (NotFound): pods \"p\" not found";
    let result = api::explain::explain(
        text.into(),
        opts(r#"{"patch":"[{\"op\":","object":"a: [\n","contentType":"xml","kubeVersion":"1.2"}"#),
    )
    .unwrap();
    assert_eq!(string(&result, "class").as_deref(), Some("not-found"));
    let unread: Array = get(&result, "unread").dyn_into().unwrap();
    let inputs: Vec<String> = unread
        .iter()
        .map(|u| string(&u, "input").unwrap())
        .collect();
    assert_eq!(inputs, ["content-type", "patch", "object"]);
    // The patch's own 400, in Go's words, with where.
    assert!(string(&unread.get(1), "message").unwrap().starts_with(
        "the server cannot decode this body as application/json-patch+json (line 1, column 7)"
    ));
    assert_eq!(num(&unread.get(1), "line"), Some(1.0));
    assert_eq!(string(&result, "askedRelease").as_deref(), Some("1.2"));
    assert_eq!(string(&result, "release").as_deref(), Some("1.25"));
    assert!(string(&result, "releaseNote").unwrap().contains("as a 500"));
}

#[wasm_bindgen_test]
fn apply_strategic_merge_patch_merges_by_key_and_refuses_custom_resources() {
    // The kubernetes.io "patch containers" example: a merge by name.
    let pod = js(
        r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","finalizers":["a"]},
        "spec":{"containers":[{"name":"a","image":"a:1"},{"name":"b","image":"b:1"}]}}"#,
    );
    let got = api::apply_strategic_merge_patch(
        pod.clone(),
        js(r#"{"metadata":{"finalizers":["b"]},"spec":{"containers":[{"name":"b","image":"b:2"}]}}"#),
        None,
    )
    .unwrap();
    assert_eq!(
        text(&get(&get(&got, "spec"), "containers")),
        r#"[{"image":"a:1","name":"a"},{"image":"b:2","name":"b"}]"#
    );
    // A set merged as the server merges it: the patch's new element first.
    assert_eq!(
        text(&get(&get(&got, "metadata"), "finalizers")),
        r#"["b","a"]"#
    );
    // The body as text, and the kind named as kubectl names it.
    let got = api::apply_strategic_merge_patch(
        js(r#"{"metadata":{"name":"n","labels":{"a":"1"}}}"#),
        JsValue::from_str(r#"{"metadata":{"labels":{"kubevirt.io/schedulable":"true"}}}"#),
        opts(r#"{"kind":"no"}"#),
    )
    .unwrap();
    assert_eq!(
        text(&get(&get(&got, "metadata"), "labels")),
        r#"{"a":"1","kubevirt.io/schedulable":"true"}"#
    );
    // A missing merge key: the server's own text, 500.
    let err = error_of(
        api::apply_strategic_merge_patch(
            pod.clone(),
            js(r#"{"spec":{"containers":[{"image":"c"}]}}"#),
            None,
        ),
        "missing-merge-key",
    );
    assert_eq!(num(&err, "status"), Some(500.0));
    assert_eq!(
        string(&err, "response").as_deref(),
        Some("map: map[image:c] does not contain declared merge key: name")
    );
    // A custom resource: 415 with the server's text.
    let vmi = js(
        r#"{"apiVersion":"kubevirt.io/v1","kind":"VirtualMachineInstance","metadata":{"name":"v"}}"#,
    );
    let err = error_of(
        api::apply_strategic_merge_patch(vmi, js(r#"{"metadata":{"labels":{"a":"b"}}}"#), None),
        "unsupported-media-type",
    );
    assert_eq!(num(&err, "status"), Some(415.0));
    assert_eq!(
        string(&err, "response").as_deref(),
        Some("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml")
    );
    // Options are checked: an unknown key, a bad release.
    error_of(
        api::apply_strategic_merge_patch(
            pod.clone(),
            js("{}"),
            opts(r#"{"engine":"evanphx-v4.12.0"}"#),
        ),
        "bad-argument",
    );
    error_of(
        api::apply_strategic_merge_patch(pod, js("{}"), opts(r#"{"kubeVersion":"1.2"}"#)),
        "bad-argument",
    );
}

#[wasm_bindgen_test]
fn diff_offers_the_strategic_preset_for_built_in_kinds() {
    let node = |v: &str| {
        js(&format!(
            r#"{{"apiVersion":"v1","kind":"Node","metadata":{{"name":"n","labels":{{"kubevirt.io/schedulable":"{v}"}}}}}}"#
        ))
    };
    let result = api::diff(
        node("false"),
        node("true"),
        opts(r#"{"preset":"strategic"}"#),
    )
    .unwrap();
    assert_eq!(
        string(&result, "contentType").as_deref(),
        Some("application/strategic-merge-patch+json")
    );
    assert_eq!(
        string(&result, "body").as_deref(),
        Some(r#"{"metadata":{"labels":{"kubevirt.io/schedulable":"true"}}}"#)
    );
    assert!(get(&result, "ops").is_null());
    assert_eq!(
        get(&result, "conflicts")
            .dyn_into::<Array>()
            .unwrap()
            .length(),
        0
    );
}

#[wasm_bindgen_test]
fn each_preset_prunes_by_its_own_policy() {
    // Objects cross into wasm without the members equal on both sides,
    // pruned by what each preset's policy declares whole; the answers are
    // remembered per preset. A preset that tests the whole label map must
    // see every label, whichever preset ran before it on the same shapes.
    const OLD: &str =
        r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1","b":"2"}}}"#;
    const NEW: &str =
        r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":{"a":"1","b":"3"}}}"#;
    for preset in ["strategic", "naive", "kubevirt-per-key", "kubevirt-main"] {
        let options = opts(&format!(r#"{{"preset":"{preset}"}}"#));
        let from_objects = api::diff(js(OLD), js(NEW), options.clone()).unwrap();
        let from_text = api::diff(OLD.into(), NEW.into(), options).unwrap();
        assert_eq!(
            string(&from_objects, "body"),
            string(&from_text, "body"),
            "{preset}: objects and text give the same body"
        );
    }
    let main = api::diff(js(OLD), js(NEW), opts(r#"{"preset":"kubevirt-main"}"#)).unwrap();
    assert_eq!(
        string(&main, "body").as_deref(),
        Some(
            r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1","b":"2"}},{"op":"replace","path":"/metadata/labels","value":{"a":"1","b":"3"}}]"#
        )
    );
}
