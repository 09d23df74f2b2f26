//! Browser tests of the JavaScript API's Kubernetes release choice: the
//! `kubeVersion` and `engine` options, `applyMergePatch`, `kubeVersions`,
//! and errors carrying the server's words.
//! Run with `cargo test --target wasm32-unknown-unknown --features js`.
#![cfg(all(target_arch = "wasm32", feature = "js"))]

use js_sys::{Reflect, JSON};
use patchlab::js as api;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn js(text: &str) -> JsValue {
    JSON::parse(text).expect("test JSON")
}

fn text(value: &JsValue) -> String {
    JSON::stringify(value).expect("stringify").into()
}

fn get(value: &JsValue, key: &str) -> JsValue {
    Reflect::get(value, &JsValue::from_str(key)).expect("get")
}

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

fn string(value: &JsValue, key: &str) -> Option<String> {
    get(value, key).as_string()
}

#[wasm_bindgen_test]
fn kube_version_picks_the_engine() {
    let doc = js(r#"{"a":1}"#);
    let panics = JsValue::from_str(r#"[{"op":"test","path":"/b"}]"#);
    // 1.30 runs evanphx v4.12.0: a test without a value on a missing
    // member panics it, and the server answers 500.
    let err = error_of(
        api::apply_patch(
            doc.clone(),
            panics.clone(),
            Some(js(r#"{"kubeVersion":"1.30"}"#)),
        ),
        "engine-panic",
    );
    assert_eq!(get(&err, "status").as_f64(), Some(500.0));
    assert_eq!(string(&err, "reason").as_deref(), Some("InternalError"));
    assert_eq!(string(&err, "engine").as_deref(), Some("evanphx-v4.12.0"));
    // The default (1.36, v4.13.0) passes it; so does the engine override.
    assert!(api::apply_patch(doc.clone(), panics.clone(), None).is_ok());
    assert!(api::apply_patch(
        doc.clone(),
        panics,
        Some(js(r#"{"kubeVersion":"1.30","engine":"evanphx-v4.13.0"}"#))
    )
    .is_ok());
    // 1.28.0 had no whole-document ops.
    let root = JsValue::from_str(r#"[{"op":"test","path":"","value":{"a":1}}]"#);
    let err = error_of(
        api::apply_patch(
            doc.clone(),
            root.clone(),
            Some(js(r#"{"kubeVersion":"1.28.0"}"#)),
        ),
        "apply-failed",
    );
    assert_eq!(get(&err, "status").as_f64(), Some(422.0));
    assert!(api::apply_patch_json(
        "{\"a\":1}".into(),
        root,
        Some(js(r#"{"kubeVersion":"1.28"}"#))
    )
    .is_ok());
    // A bad release or engine lists what is accepted.
    let err = error_of(
        api::apply_patch(doc.clone(), js("[]"), Some(js(r#"{"kubeVersion":"1.24"}"#))),
        "bad-argument",
    );
    let message = String::from(err.dyn_ref::<js_sys::Error>().unwrap().message());
    assert!(message.contains("use 1.25 to 1.36"), "{message}");
    let err = error_of(
        api::apply_patch(doc, js("[]"), Some(js(r#"{"engine":"v9"}"#))),
        "bad-argument",
    );
    let message = String::from(err.dyn_ref::<js_sys::Error>().unwrap().message());
    assert!(message.contains("evanphx-v4.13.0"), "{message}");
}

#[wasm_bindgen_test]
fn errors_carry_the_servers_words() {
    let doc = js(r#"{"metadata":{"name":"a"}}"#);
    let err = error_of(
        api::apply_patch(doc.clone(), JsValue::from_str(r#"[{"op":1}]"#), None),
        "invalid-patch",
    );
    assert_eq!(
        string(&err, "response").as_deref(),
        Some("error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string")
    );
    let err = error_of(
        api::apply_patch(
            doc,
            js(r#"[{"op":"replace","path":"/metadata/name","value":"b"}]"#),
            None,
        ),
        "name-mismatch",
    );
    assert_eq!(get(&err, "status").as_f64(), Some(400.0));
    assert_eq!(
        string(&err, "response").as_deref(),
        Some("the name of the object (b) does not match the name on the URL (a)")
    );
    // A syntax error in the body still has its line and column.
    let err = error_of(
        api::apply_patch(js("{}"), JsValue::from_str("[\n {\"op\":}]"), None),
        "syntax",
    );
    assert_eq!(get(&err, "line").as_f64(), Some(2.0));
    assert_eq!(get(&err, "column").as_f64(), Some(8.0));
}

#[wasm_bindgen_test]
fn merge_patches_as_the_server_or_the_rfc() {
    let doc = js(r#"{"a":{"b":1}}"#);
    let patch = js(r#"{"a":{"b":null,"c":[{"d":null,"e":1}]}}"#);
    let out = api::apply_merge_patch(doc.clone(), patch.clone(), None).unwrap();
    assert_eq!(text(&out), r#"{"a":{"c":[{"e":1}]}}"#);
    let out =
        api::apply_merge_patch(doc.clone(), patch, Some(js(r#"{"semantics":"rfc"}"#))).unwrap();
    assert_eq!(text(&out), r#"{"a":{"c":[{"d":null,"e":1}]}}"#);
    let err = error_of(
        api::apply_merge_patch(doc.clone(), JsValue::from_str("null"), None),
        "invalid-patch",
    );
    assert_eq!(
        string(&err, "response").as_deref(),
        Some("Invalid JSON Patch")
    );
    let err = error_of(
        api::apply_merge_patch(doc, js("[1]"), None),
        "invalid-patch",
    );
    assert_eq!(get(&err, "status").as_f64(), Some(400.0));
}

#[wasm_bindgen_test]
fn releases_for_a_picker_and_the_simulator() {
    let list = api::kube_versions().unwrap();
    let first = js_sys::Array::from(&list).get(0);
    assert_eq!(
        text(&first),
        r#"{"version":"1.36","engine":"evanphx-v4.13.0","label":"1.36 (evanphx/json-patch v4.13.0)"}"#
    );
    assert_eq!(js_sys::Array::from(&list).length(), 13);
    let scenario = include_str!("../www/scenarios/ssa-conflict.yaml");
    let replay = api::simulate(scenario.into(), Some(js(r#"{"kubeVersion":"1.28.1"}"#))).unwrap();
    assert_eq!(
        text(&get(&replay, "cluster")),
        r#"{"version":"1.28.1","engine":"evanphx-v5.6.0"}"#
    );
    let result = api::migrate(Some(js(r#"{"vms":3,"kubeVersion":"1.30"}"#))).unwrap();
    assert_eq!(get(&result, "vms").as_f64(), Some(3.0));
}
