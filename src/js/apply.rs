//! `applyPatch`, `applyPatchJson` and `applyMergePatch`.

use js_sys::{Reflect, JSON};
use serde_json::Value;
use wasm_bindgen::prelude::*;

use super::boundary;
use super::convert::{
    apply_error, bad_argument, engine_of, input_error, json_text, parse_json, patch_text,
    string_arg, value_to_js, OptionsReader,
};
use crate::apply::text::{Footprint, TextError};
use crate::apply::{self, Engine};
use crate::input::Budget;
use crate::pointer::NodeId;

/// The engine an apply runs on (see `ApplyOptions` in the types).
fn engine(options: Option<JsValue>) -> Result<Engine, JsValue> {
    let opts = OptionsReader::new(options, "options", &["semantics", "kubeVersion", "engine"])?;
    engine_of(
        opts.string("semantics")?.as_deref(),
        opts.string("kubeVersion")?.as_deref(),
        opts.string("engine")?.as_deref(),
    )
}

/// Applies on JSON text, reading only what the patch touches (see
/// [`apply::text`]); the result as compact JSON text.
fn apply_text(doc: &str, patch: &str, engine: Engine) -> Result<String, JsValue> {
    apply::text::apply_to_text(doc, patch, engine, &Budget::default()).map_err(|e| match e {
        TextError::Input(err) => input_error(&err, "doc"),
        TextError::Apply(err) => apply_error(&err, Some(patch)),
    })
}

/// Applies a patch (an array of ops, or payload text as sent) to `doc` and
/// returns the result; `doc` is never modified. Atomic: any failing op
/// throws and nothing is returned. Copy-on-write: only the objects on the
/// ops' paths are new, every untouched subtree of the result is `doc`'s
/// own (treat both as immutable, or `structuredClone` before mutating).
#[wasm_bindgen(js_name = applyPatch, unchecked_return_type = "Json")]
pub fn apply_patch(
    #[wasm_bindgen(unchecked_param_type = "Json")] doc: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Operation[] | string")] patch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ApplyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let engine = engine(options)?;
    let patch = patch_text(&patch)?;
    if let Some(result) = apply_shared(&doc, &patch, engine)? {
        return Ok(result);
    }
    let doc = json_text(&doc, "doc")?;
    JSON::parse(&apply_text(&doc, &patch, engine)?)
}

/// A plain JS object (not null, an array, a Map, a typed array...).
fn is_record(value: &JsValue) -> bool {
    boundary::record(value).is_ok()
}

/// An object on the ops' paths: a shallow copy of the caller's object (its
/// own members, each getter read once) and the members read from it (with
/// their own shape when read member by member).
struct Shape {
    copy: js_sys::Object,
    read: Vec<(String, Option<Shape>)>,
}

/// Reads from `object` (at the pointer `at` of the document) only the
/// members the ops' paths go through: objects on a path member by member,
/// targets (and arrays) whole through JSON. `None` sends the patch down the
/// whole-document route (an odd key or a member that cannot be read as
/// JSON: that route reports it).
///
/// # Errors
///
/// `bad-argument` naming the place when reading a member threw (a getter,
/// a Proxy).
fn read_shape(
    object: &JsValue,
    footprint: &Footprint<'_>,
    node: NodeId,
    at: &mut String,
) -> Result<Option<(Value, Shape)>, JsValue> {
    let copy = boundary::copy_own(object, "doc", at)?;
    if js_sys::Object::has_own(&copy, &JsValue::from_str("__proto__")) {
        return Ok(None);
    }
    let mut map = serde_json::Map::new();
    let mut read = Vec::new();
    for (key, child) in footprint.members(node) {
        let key = key.as_ref();
        if key == "__proto__" {
            return Ok(None);
        }
        let depth = at.len();
        at.push('/');
        at.push_str(&crate::pointer::escape(key));
        let value = boundary::read_own(&copy, key, "doc", at)?;
        let member = member(&value, footprint, child, at)?;
        at.truncate(depth);
        match member {
            Member::Absent => {}
            Member::Whole(value) => {
                map.insert(key.to_owned(), value);
                read.push((key.to_owned(), None));
            }
            Member::Shaped(value, shape) => {
                map.insert(key.to_owned(), value);
                read.push((key.to_owned(), Some(shape)));
            }
            Member::Odd => return Ok(None),
        }
    }
    Ok(Some((Value::Object(map), Shape { copy, read })))
}

/// One member [`read_shape`] reads.
enum Member {
    /// Absent, or a value JSON leaves out (`undefined`, a function): absent
    /// on the other route too.
    Absent,
    /// Read whole, through JSON.
    Whole(Value),
    /// An object on a path, read member by member.
    Shaped(Value, Shape),
    /// Something the whole-document route must read (and report).
    Odd,
}

fn member(
    value: &JsValue,
    footprint: &Footprint<'_>,
    node: NodeId,
    at: &mut String,
) -> Result<Member, JsValue> {
    if value.is_undefined() || value.is_function() || value.is_symbol() {
        return Ok(Member::Absent);
    }
    if !footprint.whole(node) && is_record(value) {
        return Ok(match read_shape(value, footprint, node, at)? {
            Some((member, shape)) => Member::Shaped(member, shape),
            None => Member::Odd,
        });
    }
    Ok(
        match json_text(value, "doc").and_then(|text| parse_json(&text, "doc")) {
            Ok(member) => Member::Whole(member),
            Err(_) => Member::Odd,
        },
    )
}

/// The result object: a shallow copy of each object on a path with the
/// members the ops wrote; everything else is shared with the caller's
/// document.
fn rebuild(value: &Value, shape: &Shape) -> Result<JsValue, JsValue> {
    let Value::Object(map) = value else {
        return value_to_js(value);
    };
    let out = &shape.copy;
    for (key, _) in &shape.read {
        if !map.contains_key(key) {
            Reflect::delete_property(out, &JsValue::from_str(key))?;
        }
    }
    for (key, member) in map {
        let below = shape
            .read
            .iter()
            .find(|(k, _)| k == key)
            .and_then(|(_, shape)| shape.as_ref());
        let js = match below {
            Some(shape) => rebuild(member, shape)?,
            None => value_to_js(member)?,
        };
        Reflect::set(out, &JsValue::from_str(key), &js)?;
    }
    Ok(out.into())
}

/// [`apply_patch`] on a JS object without copying it: reads what the ops
/// touch, applies, and returns a new object that shares every untouched
/// subtree with `doc` (copy-on-write along the ops' paths). `None` when
/// the whole-document route must serve the patch.
fn apply_shared(doc: &JsValue, payload: &str, engine: Engine) -> Result<Option<JsValue>, JsValue> {
    if !is_record(doc) {
        return Ok(None);
    }
    let Ok(decoded) = apply::decode(payload, engine) else {
        return Ok(None);
    };
    let Some(footprint) = Footprint::of(&decoded) else {
        return Ok(None);
    };
    let Some((mut tree, shape)) = read_shape(doc, &footprint, Footprint::ROOT, &mut String::new())?
    else {
        return Ok(None);
    };
    apply::apply_decoded(&mut tree, &decoded, engine)
        .map_err(|e| apply_error(&e, Some(payload)))?;
    rebuild(&tree, &shape).map(Some)
}

/// [`apply_patch`] on JSON text: the document and the patch as JSON text
/// in, the result as compact JSON text out (no object conversion at all).
#[wasm_bindgen(js_name = applyPatchJson, unchecked_return_type = "string")]
pub fn apply_patch_json(
    #[wasm_bindgen(unchecked_param_type = "string")] doc: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] patch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ApplyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let engine = engine(options)?;
    let doc = string_arg(&doc, "doc")?;
    let patch = string_arg(&patch, "patch")?;
    Ok(JsValue::from_str(&apply_text(&doc, &patch, engine)?))
}

/// Applies a JSON merge patch (an object, or its text as sent) to `doc` as
/// kube-apiserver does (evanphx's `MergePatch`, behind the handler's
/// checks), or as RFC 7386 says with `semantics: "rfc"`; returns the
/// result. `doc` is never modified.
#[wasm_bindgen(js_name = applyMergePatch, unchecked_return_type = "Json")]
pub fn apply_merge_patch(
    #[wasm_bindgen(unchecked_param_type = "Json")] doc: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Json | string")] patch: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ApplyOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let engine = engine(options)?;
    if patch.is_null() {
        return Err(bad_argument(
            "patch must be a merge patch object or its text, found null",
        ));
    }
    let body = patch_text(&patch)?;
    let mut doc: Value = parse_json(&json_text(&doc, "doc")?, "doc")?;
    apply::apply_merge(&mut doc, &body, engine).map_err(|e| apply_error(&e, Some(&body)))?;
    value_to_js(&doc)
}
