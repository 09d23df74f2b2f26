//! The walks that run on the JavaScript side of the boundary
//! (`src/js/boundary.js`): whether a value crosses as JSON exactly, and
//! the two objects of a diff without their equal members.

use js_sys::{Array, Function};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::convert::{bad_argument, ErrorBuilder};
use crate::limits::{DEPTH, OBJECT_BYTES};
use crate::pointer::Pointer;
use crate::strategy::Policy;

#[wasm_bindgen(module = "/src/js/boundary.js")]
extern "C" {
    #[wasm_bindgen(catch, js_name = inexact)]
    fn js_inexact(value: &JsValue, depth: u32, budget: u32) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_name = prune)]
    fn js_prune(
        old: &JsValue,
        new: &JsValue,
        declared: &Function,
        depth: u32,
        budget: u32,
    ) -> Result<JsValue, JsValue>;
}

/// The walks' depth and size budget, as the JSON text's own.
fn budgets() -> (u32, u32) {
    let depth = u32::try_from(DEPTH).unwrap_or(u32::MAX);
    let budget = u32::try_from(OBJECT_BYTES).unwrap_or(u32::MAX);
    (depth, budget)
}

/// The message of a thrown JS value.
pub(super) fn thrown(err: &JsValue) -> String {
    err.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| err.as_string())
        .unwrap_or_default()
}

/// The size error of a value whose JSON would exceed the input budget.
pub(super) fn too_large(what: &str) -> JsValue {
    ErrorBuilder::new(
        "too-large",
        &format!(
            "{what} is more than {OBJECT_BYTES} characters of JSON, more than the limit of {OBJECT_BYTES} (4 MiB)"
        ),
    )
    .set("status", 413)
    .build()
}

/// Refuses what `JSON.stringify` would not carry exactly: `NaN`,
/// `Infinity`, `undefined`, functions and symbols (written as `null` or
/// left out), nesting deeper than [`DEPTH`] (or a cycle), and a value
/// whose JSON would exceed [`OBJECT_BYTES`] (checked before the text is
/// built).
///
/// # Errors
///
/// `bad-argument` naming the place (a JSON Pointer into the value) and
/// what is there; `too-large` (413) over the size budget.
pub(super) fn exact(value: &JsValue, what: &str) -> Result<(), JsValue> {
    let (depth, budget) = budgets();
    let found = js_inexact(value, depth, budget).map_err(|err| {
        bad_argument(format!(
            "{what} cannot be written as JSON: {}",
            thrown(&err)
        ))
    })?;
    if found.is_null() {
        return Ok(());
    }
    if let Some(verdict) = found.as_string() {
        return Err(verdict_error(&verdict, what));
    }
    let found: &Array = found.unchecked_ref();
    let at = found.get(0).as_string().unwrap_or_default();
    let kind = found.get(1).as_string().unwrap_or_default();
    let place = if at.is_empty() {
        format!("{what} is {kind}")
    } else {
        format!("{what} holds {kind} at {at}")
    };
    Err(bad_argument(format!(
        "{place}, which JSON cannot carry (JSON.stringify would write null or leave it out)"
    )))
}

fn verdict_error(verdict: &str, what: &str) -> JsValue {
    match verdict {
        "too-large" => too_large(what),
        _ => bad_argument(format!(
            "{what} cannot be written as JSON: it nests deeper than the limit of {DEPTH} levels (or holds a cycle)"
        )),
    }
}

/// The two objects of a diff without the members equal on both sides,
/// wherever the diff under `policy` walks member by member (it skips
/// equal members there, so the plan is the same); members a declared
/// field (a map, a list, a struct: one unit) holds stay whole. `None`
/// when either is not a plain object (then the caller reads them whole).
///
/// # Errors
///
/// `too-large` when the objects' JSON would exceed the input budget.
pub(super) fn prune(
    old: &JsValue,
    new: &JsValue,
    policy: &Policy,
) -> Result<Option<(JsValue, JsValue)>, JsValue> {
    let policy = policy.clone();
    let declared = Closure::<dyn FnMut(String) -> bool>::new(move |path: String| {
        Pointer::parse(&path).map_or(true, |p| policy.declared_kind(p).is_some())
    });
    let (depth, budget) = budgets();
    let out = js_prune(old, new, declared.as_ref().unchecked_ref(), depth, budget)
        .map_err(|err| bad_argument(format!("old or new cannot be read: {}", thrown(&err))))?;
    if out.is_null() {
        return Ok(None);
    }
    if let Some(verdict) = out.as_string() {
        return Err(verdict_error(&verdict, "old or new"));
    }
    let pair: &Array = out.unchecked_ref();
    Ok(Some((pair.get(0), pair.get(1))))
}
