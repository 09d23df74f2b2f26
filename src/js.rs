//! The JavaScript API: the core as an ES module other pages import
//! (`make pkg` builds it into `pkg/`; feature `js`, wasm32 only).
//!
//! Documents cross the boundary as JSON text (`JSON.stringify` on the way
//! in, `JSON.parse` on the way out): V8's JSON is faster than walking a
//! JS object value by value, its own stack guard turns a cyclic or
//! absurdly deep object into an error instead of a crash, and the text is
//! measured against the input budget before anything is copied. Options
//! and results use `serde-wasm-bindgen`. Every failure is thrown as a JS
//! `Error` named `PatchlabError` with a `kind` and, where they apply, the
//! op `index`, `op`, `path`, `cause`, HTTP `status`, `line` and `column`.
//! Nothing here panics on input: every parser has a size and depth budget.

use js_sys::{Error, JsString, Reflect, JSON};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::apply::text::{PathTrie, TextError};
use crate::apply::{self, ApplyError, Cause, Semantics};
use crate::input::{self, Budget, Format, InputError};
use crate::patch::{self, Encoding, PatchSet, PayloadError};
use crate::pointer::{self, PointerBuf};
use crate::sim::migrate::{migrate as run_migration, MigrateOptions};
use crate::sim::timeline::{replay, Scenario};
use crate::strategy::{self, parse_path, Body, Options, Plan, Preset, Strategy};

pub mod lint;

/// The largest document, patch or scenario accepted, in UTF-16 code units
/// of its JSON text (kube-apiserver refuses request bodies above 3 MiB).
pub const MAX_INPUT: usize = Budget::OBJECT_BYTES;

/// The most VMIs `migrate` simulates in one call (it runs synchronously:
/// call it from a Web Worker for big runs).
pub const MAX_MIGRATE_VMS: usize = crate::sim::migrate::MAX_VMS;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One RFC 6902 operation. */
export interface Operation {
  op: "add" | "remove" | "replace" | "test" | "move" | "copy";
  path: string;
  from?: string;
  value?: Json;
}

/** `kube` (default): what kube-apiserver does; `rfc`: strict RFC 6902. */
export type Semantics = "kube" | "rfc";

/** The strategy presets, as in the CLI and the playground. */
export type Preset =
  | "kubevirt-head" | "kubevirt-pr18139" | "naive" | "optimistic"
  | "merge" | "ssa" | "update";

/** Per-field strategies (see `presets()` for what each does). */
export type Strategy =
  | "whole-map" | "per-key" | "add-only"
  | "whole-slice" | "test-add" | "element"
  | "test-replace" | "add-if-absent" | "guarded-add" | "per-field" | "blind"
  | string;

export interface BuildOptions {
  /** `go` (default): bytes as KubeVirt's Go builder sends them; `plain`: serde_json. */
  encoding?: "go" | "plain";
}

export interface ApplyOptions {
  semantics?: Semantics;
}

export interface DiffOptions {
  /** Default `kubevirt-pr18139`. */
  preset?: Preset;
  /** Strategy per path (`/json/pointer` or `dotted.path`). */
  overrides?: Record<string, Strategy>;
  /** Field manager of a server-side-apply configuration (preset `ssa`). */
  fieldManager?: string;
  /** Pin `metadata.resourceVersion` in a merge patch (preset `merge`). */
  mergeResourceVersion?: boolean;
  /** Reasons, conflict surface, overwrites and notes (default true; false is faster). */
  explain?: boolean;
}

export interface PlannedOperation extends Operation {
  /** Why this op is there. */
  reason: string;
  /** The field (unit) it belongs to. */
  field: string;
  /** The strategy that produced it. */
  strategy: Strategy;
}

export interface ChangedField {
  path: string;
  kind: "map" | "set" | "atomic-list" | "struct" | "scalar" | string;
  strategy: Strategy;
  change: "added" | "removed" | "modified";
}

export interface DiffResult {
  preset: Preset;
  /** `application/json-patch+json`, `application/merge-patch+json`, ... */
  contentType: string;
  /** True when nothing needs to be sent. */
  empty: boolean;
  /** The bytes on the wire (JSON Patch payload, merge or update body, or apply YAML). */
  body: string;
  /** The ops with their reasons (JSON Patch presets only). */
  ops: PlannedOperation[] | null;
  fields: ChangedField[];
  /** Concurrent changes that make this patch fail. */
  conflicts: { path: string; reason: string }[];
  /** Concurrent changes this patch would silently overwrite. */
  overwrites: { path: string; reason: string }[];
  notes: string[];
}

export interface SimulateOptions {
  /** Replace every writer's preset (fixed writers excepted). */
  preset?: Preset;
}

export interface ServerResponse {
  code: number;
  reason: string;
  message: string;
}

/** A scenario, as in `www/scenarios/*.yaml` (YAML or JSON text also accepted). */
export interface Scenario {
  name: string;
  description?: string;
  objects: Json[];
  owner?: string;
  writers: Json[];
  schedule: Json[];
}

/** A replay: every step's request, response and object after, then outcomes. */
export interface Replay {
  scenario: string;
  preset: Preset | null;
  initial: Json[];
  steps: ({ index: number; writer: string; event: string; response: ServerResponse | null } & { [key: string]: Json })[];
  outcomes: { [key: string]: Json };
}

export interface MigrateOptions {
  /** VMIs per preset, 1 to 100,000 (default 2000). */
  vms?: number;
  /** Seed of every random choice (default 1). */
  seed?: number;
  /** Presets to compare (default all). */
  presets?: Preset[];
  /**
   * Churn: extra writers per VMI, 0 to 8 (default 0). Extra writer K
   * (`churn-K`) sets its own label `example.com/churn-K` with the preset,
   * reading, writing and retrying like the others; it changes nothing
   * another writer means to change.
   */
  churn?: number;
  /**
   * Retry budget: how many times each writer may re-read and write again
   * after a failed write, 0 to 8 (default 2).
   */
  retries?: number;
}

/** Counts; each field is a term of patchlab's vocabulary (see `patchlab explain` / the glossary). */
export interface Counts {
  writes: number;
  ok: number;
  /** 422 answers: a JSON patch op failed (a failed test), the whole patch dropped. */
  invalid: number;
  /** 409 answers: a stale resourceVersion, or an apply conflict. */
  conflict: number;
  other_errors: number;
  retries: number;
  /** Failures although nothing the writer meant to change had changed. */
  false_conflicts: number;
  /** False conflicts whose failing test was on a map (labels, annotations, activePods). */
  false_conflicts_on_maps: number;
  true_conflicts: number;
  /** Changes of this writer that others erased. */
  lost_updates: number;
  gave_up: number;
}

export interface WriterTotals extends Counts {
  name: string;
  preset: Preset;
  /** VMIs where this writer's intent does not hold at the end. */
  intent_not_held: number;
}

export interface PresetResult {
  preset: Preset;
  /** Every writer's counts added up. */
  total: Counts;
  /** VMIs where some writer's intent does not hold at the end. */
  vmis_intent_not_held: number;
  /** virt-controller, migration-controller, virt-handler. */
  writers: WriterTotals[];
}

export interface MigrateResult {
  vms: number;
  seed: number;
  presets: PresetResult[];
}

export interface PresetInfo {
  name: Preset;
  summary: string;
}

/** What went wrong; thrown by every function of this module. */
export type ErrorKind =
  | "bad-argument"   // an argument of the wrong type or an unknown option value
  | "too-large"      // over the size budget (4 MiB of JSON text) or a count limit
  | "syntax"         // text that is not JSON (or YAML, where accepted): see line, column
  | "invalid-patch"  // a patch that is not a list of well-formed ops: see index
  | "invalid-pointer"// a path that is not an RFC 6901 JSON Pointer: see index, path
  | "empty-patch"    // buildPatch of no ops (KubeVirt: "list of patches is empty")
  | "test-failed"    // a test op found another value: see index, path, expected, actual
  | "apply-failed"   // any other op failure: see index, path, cause
  | "invalid-scenario"
  | "diff-failed";

export interface PatchlabError extends Error {
  name: "PatchlabError";
  kind: ErrorKind;
  /** Zero-based op index, for errors about one op. */
  index?: number;
  /** The failing op's name. */
  op?: string;
  /** The failing op's path. */
  path?: string;
  /** Why, in words (the engine's cause). */
  cause?: string;
  /** What kube-apiserver answers (kube semantics only): 400, 413, 422 or 500. */
  status?: number;
  /** 1-based line and column of a syntax error. */
  line?: number;
  column?: number;
  /** A failed test's expected value and the value found (undefined: absent). */
  expected?: Json;
  actual?: Json;
}
"#;

/// A `PatchlabError` with `kind` and `message`; add properties with
/// [`ErrorBuilder::set`].
struct ErrorBuilder(Error);

impl ErrorBuilder {
    fn new(kind: &str, message: &str) -> ErrorBuilder {
        let error = Error::new(message);
        error.set_name("PatchlabError");
        let builder = ErrorBuilder(error);
        builder.set("kind", kind)
    }

    fn set(self, key: &str, value: impl Into<JsValue>) -> ErrorBuilder {
        let _ = Reflect::set(&self.0, &JsValue::from_str(key), &value.into());
        self
    }

    fn set_opt<T: Into<JsValue>>(self, key: &str, value: Option<T>) -> ErrorBuilder {
        match value {
            Some(value) => self.set(key, value),
            None => self,
        }
    }

    fn build(self) -> JsValue {
        self.0.into()
    }
}

fn bad_argument(message: impl AsRef<str>) -> JsValue {
    ErrorBuilder::new("bad-argument", message.as_ref()).build()
}

/// JSON text of a JS value (a document, patch or scenario), within budget.
fn json_text(value: &JsValue, what: &str) -> Result<String, JsValue> {
    if value.is_undefined() {
        return Err(bad_argument(format!("{what} is missing")));
    }
    let text = JSON::stringify(value).map_err(|err| {
        let why = err
            .dyn_ref::<Error>()
            .map(|e| String::from(e.message()))
            .unwrap_or_default();
        bad_argument(format!("{what} cannot be written as JSON: {why}"))
    })?;
    // `JSON.stringify` of a function or a symbol gives undefined.
    let text: JsString = text
        .dyn_into::<JsString>()
        .map_err(|_| bad_argument(format!("{what} is not JSON data")))?;
    checked_string(&text, what)
}

/// A JS string, within budget, copied into wasm only when it fits.
fn checked_string(text: &JsString, what: &str) -> Result<String, JsValue> {
    let len = text.length() as usize;
    if len > MAX_INPUT {
        return Err(ErrorBuilder::new(
            "too-large",
            &format!(
                "{what} is {len} characters of JSON, more than the limit of {MAX_INPUT} (4 MiB)"
            ),
        )
        .set("status", 413)
        .build());
    }
    Ok(String::from(text))
}

/// A string argument.
fn string_arg(value: &JsValue, what: &str) -> Result<String, JsValue> {
    match value.dyn_ref::<JsString>() {
        Some(text) => checked_string(text, what),
        None => Err(bad_argument(format!(
            "{what} must be a string, found {}",
            type_name(value)
        ))),
    }
}

fn type_name(value: &JsValue) -> String {
    if value.is_null() {
        "null".to_owned()
    } else if js_sys::Array::is_array(value) {
        "an array".to_owned()
    } else {
        let kind = value.js_typeof().as_string().unwrap_or_default();
        match kind.as_str() {
            "object" | "undefined" => kind,
            _ => format!("a {kind}"),
        }
    }
}

fn input_error(err: &InputError, what: &str) -> JsValue {
    ErrorBuilder::new("syntax", &format!("{what}: {err}"))
        .set_opt("line", err.line.map(|l| l as u32))
        .set_opt("column", err.column.map(|c| c as u32))
        .build()
}

/// Parses JSON text as a document within the input budget.
fn parse_json(text: &str, what: &str) -> Result<Value, JsValue> {
    input::parse_as(text, Format::Json, &Budget::default()).map_err(|e| input_error(&e, what))
}

/// A JS value as a document: JSON data, or (when `text_ok`) a string of
/// JSON or YAML text.
fn document(value: &JsValue, what: &str, text_ok: bool) -> Result<Value, JsValue> {
    if text_ok {
        if let Some(text) = value.dyn_ref::<JsString>() {
            let text = checked_string(text, what)?;
            return input::parse(&text, &Budget::default())
                .map(|(value, _)| value)
                .map_err(|e| input_error(&e, what));
        }
    }
    parse_json(&json_text(value, what)?, what)
}

/// Options objects: `undefined` and `null` mean the defaults; a key not
/// in `known` is an error (a misspelt option must not be ignored).
fn options<T: for<'de> Deserialize<'de> + Default>(
    value: &JsValue,
    what: &str,
    known: &[&str],
) -> Result<T, JsValue> {
    if value.is_undefined() || value.is_null() {
        return Ok(T::default());
    }
    if !value.is_object() || js_sys::Array::is_array(value) {
        return Err(bad_argument(format!(
            "{what} must be an object, found {}",
            type_name(value)
        )));
    }
    for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
        let key = key.as_string().unwrap_or_default();
        if !known.contains(&key.as_str()) {
            return Err(bad_argument(format!(
                "{what}: unknown option {key:?} (known: {})",
                known.join(", ")
            )));
        }
    }
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| bad_argument(format!("{what}: {e}")))
}

/// Results as plain JS objects (not `Map`s).
fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsValue::from(Error::new(&format!("patchlab: result conversion: {e}"))))
}

/// A document back to JS through `JSON.parse` of its text.
fn value_to_js(value: &Value) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsValue::from(Error::new(&format!("patchlab: result conversion: {e}"))))?;
    JSON::parse(&text)
}

fn json_to_js(value: &Value) -> JsValue {
    value_to_js(value).unwrap_or(JsValue::UNDEFINED)
}

fn payload_error(err: &PayloadError, status: Option<u16>) -> JsValue {
    let (kind, line, column) = match err {
        PayloadError::Syntax { line, column, .. } => ("syntax", Some(*line), Some(*column)),
        _ => ("invalid-patch", None, None),
    };
    ErrorBuilder::new(kind, &format!("patch: {err}"))
        .set_opt("index", err.index().map(|i| i as u32))
        .set_opt("line", line.map(|l| l as u32))
        .set_opt("column", column.map(|c| c as u32))
        .set_opt("status", status)
        .set("cause", err.to_string())
        .build()
}

fn apply_error(err: &ApplyError) -> JsValue {
    let status = err.response().map(|r| r.code);
    if let Cause::Payload(payload) = &err.cause {
        return payload_error(payload, status);
    }
    let kind = match &err.cause {
        Cause::TestFailed { .. } => "test-failed",
        Cause::InvalidPointer { .. } | Cause::PathWithoutSlash { .. } => "invalid-pointer",
        Cause::TooManyOps { .. } | Cause::CopyLimit { .. } | Cause::CopyBudget { .. } => {
            "too-large"
        }
        _ => "apply-failed",
    };
    let mut builder = ErrorBuilder::new(kind, &err.to_string())
        .set_opt("index", err.index.map(|i| i as u32))
        .set_opt("op", err.op.map(|op| op.as_str()))
        .set_opt("path", err.path.as_deref())
        .set("cause", err.cause.to_string())
        .set_opt("status", status);
    if let Cause::TestFailed { expected, actual } = &err.cause {
        builder = builder.set("expected", json_to_js(expected));
        if let Some(actual) = actual {
            builder = builder.set("actual", json_to_js(actual));
        }
    }
    builder.build()
}

/// Decodes a patch given as a JS array of ops or as payload text (the
/// bytes as sent: the kube engine compares `test` values byte for byte).
fn patch_text(patch: &JsValue) -> Result<String, JsValue> {
    match patch.dyn_ref::<JsString>() {
        Some(text) => checked_string(text, "patch"),
        None => json_text(patch, "patch"),
    }
}

// ---------------------------------------------------------------- exports

/// Escapes one reference token for a JSON Pointer: `~` to `~0` first, then
/// `/` to `~1`, exactly as KubeVirt's `EscapeJSONPointer`.
#[wasm_bindgen(js_name = escapeJsonPointer, unchecked_return_type = "string")]
pub fn escape_json_pointer(
    #[wasm_bindgen(unchecked_param_type = "string")] token: JsValue,
) -> Result<JsValue, JsValue> {
    let token = string_arg(&token, "token")?;
    Ok(JsValue::from_str(&pointer::escape(&token)))
}

#[derive(Default, Deserialize)]
struct BuildOptions {
    encoding: Option<String>,
}

/// The payload of a list of ops, byte for byte as KubeVirt's builder
/// (`GeneratePayload`) writes it: keys `op`, `path`, `from`, `value`, Go's
/// JSON encoding. Every path (and `from`) must be a JSON Pointer; an empty
/// list is an error, as in KubeVirt.
#[wasm_bindgen(js_name = buildPatch, unchecked_return_type = "string")]
pub fn build_patch(
    #[wasm_bindgen(unchecked_param_type = "Operation[]")] ops: JsValue,
    #[wasm_bindgen(unchecked_param_type = "BuildOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options.unwrap_or_default();
    let opts: BuildOptions = self::options(&options, "options", &["encoding"])?;
    let encoding = match opts.encoding.as_deref() {
        None | Some("go") => Encoding::Go,
        Some("plain") => Encoding::Plain,
        Some(other) => {
            return Err(bad_argument(format!(
                "options.encoding must be \"go\" or \"plain\", found {other:?}"
            )))
        }
    };
    if !js_sys::Array::is_array(&ops) {
        return Err(bad_argument(format!(
            "ops must be an array of operations, found {}",
            type_name(&ops)
        )));
    }
    let text = json_text(&ops, "ops")?;
    let set = PatchSet::parse(&text).map_err(|e| payload_error(&e, None))?;
    for (index, op) in set.iter().enumerate() {
        for (field, path) in [("path", Some(&op.path)), ("from", op.from.as_ref())] {
            let Some(path) = path else { continue };
            if let Err(err) = PointerBuf::parse(path.as_str()) {
                return Err(ErrorBuilder::new(
                    "invalid-pointer",
                    &format!("op {index}: {field} {path:?} is not a JSON Pointer: {err}"),
                )
                .set("index", index as u32)
                .set("op", op.op.as_str())
                .set("path", path.as_str())
                .set("cause", err.to_string())
                .build());
            }
        }
    }
    set.payload_with(encoding)
        .map(|payload| JsValue::from_str(&payload))
        .map_err(|e| ErrorBuilder::new("empty-patch", &e.to_string()).build())
}

#[derive(Default, Deserialize)]
struct ApplyOptions {
    semantics: Option<String>,
}

fn semantics(options: &JsValue) -> Result<Semantics, JsValue> {
    let opts: ApplyOptions = self::options(options, "options", &["semantics"])?;
    match opts.semantics.as_deref() {
        None => Ok(Semantics::Kube),
        Some(s) => s.parse().map_err(|_| {
            bad_argument(format!(
                "options.semantics must be \"kube\" or \"rfc\", found {s:?}"
            ))
        }),
    }
}

/// Applies on JSON text, reading only what the patch touches (see
/// [`apply::text`]); the result as compact JSON text.
fn apply_text(doc: &str, patch: &str, semantics: Semantics) -> Result<String, JsValue> {
    apply::text::apply_to_text(doc, patch, semantics, &Budget::default()).map_err(|e| match e {
        TextError::Input(err) => input_error(&err, "doc"),
        TextError::Apply(err) => apply_error(&err),
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
    let options = options.unwrap_or_default();
    let semantics = semantics(&options)?;
    let patch = patch_text(&patch)?;
    if let Some(result) = apply_shared(&doc, &patch, semantics)? {
        return Ok(result);
    }
    let doc = json_text(&doc, "doc")?;
    JSON::parse(&apply_text(&doc, &patch, semantics)?)
}

/// A plain JS object (not null, an array or a function).
fn is_record(value: &JsValue) -> bool {
    value.is_object() && !js_sys::Array::is_array(value)
}

/// An object on the ops' paths: the caller's object and the members read
/// from it (with their own shape when read member by member).
struct Shape {
    original: js_sys::Object,
    read: Vec<(String, Option<Shape>)>,
}

/// Reads from `object` only the members the ops' paths go through: objects
/// on a path member by member, targets (and arrays) whole through JSON.
/// `None` sends the patch down the whole-document route (an odd key or a
/// member that cannot be read as JSON: that route reports it).
fn read_shape(object: &JsValue, trie: &PathTrie) -> Result<Option<(Value, Shape)>, JsValue> {
    let proto = JsValue::from_str("__proto__");
    let original: &js_sys::Object = object.unchecked_ref();
    if js_sys::Object::has_own(original, &proto) {
        return Ok(None);
    }
    let mut map = serde_json::Map::new();
    let mut read = Vec::new();
    for (key, child) in trie.children() {
        let js_key = JsValue::from_str(key);
        if key == "__proto__" {
            return Ok(None);
        }
        if !js_sys::Object::has_own(original, &js_key) {
            continue;
        }
        let value = Reflect::get(object, &js_key)?;
        if value.is_undefined() || value.is_function() || value.is_symbol() {
            // JSON leaves such members out: absent, as on the other route.
            continue;
        }
        if !child.whole() && is_record(&value) {
            let Some((member, shape)) = read_shape(&value, child)? else {
                return Ok(None);
            };
            map.insert(key.to_owned(), member);
            read.push((key.to_owned(), Some(shape)));
        } else {
            let Ok(member) = json_text(&value, "doc").and_then(|text| parse_json(&text, "doc"))
            else {
                return Ok(None);
            };
            map.insert(key.to_owned(), member);
            read.push((key.to_owned(), None));
        }
    }
    Ok(Some((
        Value::Object(map),
        Shape {
            original: original.clone(),
            read,
        },
    )))
}

/// The result object: a shallow copy of each object on a path with the
/// members the ops wrote; everything else is shared with the caller's
/// document.
fn rebuild(value: &Value, shape: &Shape) -> Result<JsValue, JsValue> {
    let Value::Object(map) = value else {
        return value_to_js(value);
    };
    let out = js_sys::Object::assign(&js_sys::Object::new(), &shape.original);
    for (key, _) in &shape.read {
        if !map.contains_key(key) {
            Reflect::delete_property(&out, &JsValue::from_str(key))?;
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
        Reflect::set(&out, &JsValue::from_str(key), &js)?;
    }
    Ok(out.into())
}

/// [`apply_patch`] on a JS object without copying it: reads what the ops
/// touch, applies, and returns a new object that shares every untouched
/// subtree with `doc` (copy-on-write along the ops' paths). `None` when
/// the whole-document route must serve the patch.
fn apply_shared(
    doc: &JsValue,
    payload: &str,
    semantics: Semantics,
) -> Result<Option<JsValue>, JsValue> {
    if !is_record(doc) {
        return Ok(None);
    }
    let Ok(decoded) = patch::decode(payload) else {
        return Ok(None);
    };
    let Some(trie) = PathTrie::of(&decoded) else {
        return Ok(None);
    };
    let Some((mut tree, shape)) = read_shape(doc, &trie)? else {
        return Ok(None);
    };
    apply::apply_decoded(&mut tree, &decoded, semantics).map_err(|e| apply_error(&e))?;
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
    let options = options.unwrap_or_default();
    let semantics = semantics(&options)?;
    let doc = string_arg(&doc, "doc")?;
    let patch = string_arg(&patch, "patch")?;
    Ok(JsValue::from_str(&apply_text(&doc, &patch, semantics)?))
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
struct DiffOptions {
    preset: Option<String>,
    overrides: Option<std::collections::BTreeMap<String, String>>,
    field_manager: Option<String>,
    merge_resource_version: Option<bool>,
    explain: Option<bool>,
}

fn preset(name: &str, what: &str) -> Result<Preset, JsValue> {
    name.parse()
        .map_err(|e: crate::strategy::UnknownName| bad_argument(format!("{what}: {e}")))
}

fn diff_options(value: &JsValue) -> Result<Options, JsValue> {
    let opts: DiffOptions = self::options(
        value,
        "options",
        &[
            "preset",
            "overrides",
            "fieldManager",
            "mergeResourceVersion",
            "explain",
        ],
    )?;
    let preset = match opts.preset.as_deref() {
        Some(name) => preset(name, "options.preset")?,
        None => Preset::default(),
    };
    let mut options = Options::preset(preset);
    if let Some(manager) = opts.field_manager {
        options.field_manager = manager;
    }
    options.merge_resource_version = opts.merge_resource_version.unwrap_or(false);
    options.explain = opts.explain.unwrap_or(true);
    for (path, strategy) in opts.overrides.unwrap_or_default() {
        let what = format!("options.overrides[{path:?}]");
        let strategy: Strategy = strategy
            .parse()
            .map_err(|e: crate::strategy::UnknownName| bad_argument(format!("{what}: {e}")))?;
        if strategy.is_whole_object() {
            return Err(bad_argument(format!(
                "{what}: {strategy} applies to the whole object: use options.preset"
            )));
        }
        let pointer = parse_path(&path).map_err(|e| {
            ErrorBuilder::new("invalid-pointer", &format!("{what}: {e}"))
                .set("path", path.as_str())
                .build()
        })?;
        options.policy.set_strategy(pointer, strategy);
    }
    Ok(options)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct DiffOut<'a> {
    preset: &'a str,
    content_type: &'a str,
    empty: bool,
    body: String,
    ops: Option<Vec<OpOut<'a>>>,
    fields: Vec<FieldOut<'a>>,
    conflicts: Vec<PathReason<'a>>,
    overwrites: Vec<PathReason<'a>>,
    notes: &'a [String],
}

#[derive(Serialize)]
struct OpOut<'a> {
    op: &'a str,
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    value: Option<&'a Value>,
    reason: &'a str,
    field: &'a str,
    strategy: &'a str,
}

#[derive(Serialize)]
struct FieldOut<'a> {
    path: &'a str,
    kind: &'a str,
    strategy: &'a str,
    change: &'a str,
}

#[derive(Serialize)]
struct PathReason<'a> {
    path: &'a str,
    reason: &'a str,
}

fn diff_out(plan: &Plan) -> DiffOut<'_> {
    let ops = match &plan.body {
        Body::JsonPatch(ops) => Some(
            ops.iter()
                .map(|planned| OpOut {
                    op: planned.op.op.as_str(),
                    path: &planned.op.path,
                    from: planned.op.from.as_deref(),
                    value: planned
                        .op
                        .value
                        .as_ref()
                        .filter(|_| planned.op.op.takes_value()),
                    reason: &planned.reason,
                    field: planned.field.as_str(),
                    strategy: planned.strategy.as_str(),
                })
                .collect(),
        ),
        _ => None,
    };
    DiffOut {
        preset: plan.preset.as_str(),
        content_type: plan.body.content_type(),
        empty: plan.is_empty(),
        body: plan.body_text(),
        ops,
        fields: plan
            .fields
            .iter()
            .map(|f| FieldOut {
                path: f.path.as_str(),
                kind: f.kind.as_str(),
                strategy: f.strategy.as_str(),
                change: f.change.as_str(),
            })
            .collect(),
        conflicts: plan
            .conflicts
            .iter()
            .map(|c| PathReason {
                path: &c.path,
                reason: &c.reason,
            })
            .collect(),
        overwrites: plan
            .overwrites
            .iter()
            .map(|o| PathReason {
                path: &o.path,
                reason: &o.reason,
            })
            .collect(),
        notes: &plan.notes,
    }
}

/// What a writer sends to turn `old` into `new` under a preset (and
/// per-path overrides): the ops with their reasons, the changed fields,
/// the conflict surface and what it would overwrite. `old` and `new` are
/// objects, or JSON or YAML text.
#[wasm_bindgen(unchecked_return_type = "DiffResult")]
pub fn diff(
    #[wasm_bindgen(js_name = oldObject, unchecked_param_type = "Json | string")] old: JsValue,
    #[wasm_bindgen(js_name = newObject, unchecked_param_type = "Json | string")] new: JsValue,
    #[wasm_bindgen(unchecked_param_type = "DiffOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options.unwrap_or_default();
    let options = diff_options(&options)?;
    let old = document(&old, "old", true)?;
    let new = document(&new, "new", true)?;
    let plan = strategy::diff(&old, &new, &options)
        .map_err(|e| ErrorBuilder::new("diff-failed", &e.to_string()).build())?;
    to_js(&diff_out(&plan))
}

#[derive(Default, Deserialize)]
struct SimulateOptions {
    preset: Option<String>,
}

/// Replays a scenario (an object, or its YAML or JSON text) on the
/// simulated API server: every step's request, response and object after,
/// then the outcomes (failures, false conflicts, lost updates).
#[wasm_bindgen(unchecked_return_type = "Replay")]
pub fn simulate(
    #[wasm_bindgen(unchecked_param_type = "Scenario | string")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "SimulateOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options.unwrap_or_default();
    let opts: SimulateOptions = self::options(&options, "options", &["preset"])?;
    let preset = opts
        .preset
        .as_deref()
        .map(|name| preset(name, "options.preset"))
        .transpose()?;
    let text = match scenario.dyn_ref::<JsString>() {
        Some(text) => checked_string(text, "scenario")?,
        None => json_text(&scenario, "scenario")?,
    };
    let scenario = Scenario::parse(&text)
        .map_err(|e| ErrorBuilder::new("invalid-scenario", &e.to_string()).build())?;
    let replay = replay(&scenario, preset)
        .map_err(|e| ErrorBuilder::new("invalid-scenario", &e.to_string()).build())?;
    to_js(&replay)
}

#[derive(Default, Deserialize)]
struct MigrateArgs {
    vms: Option<f64>,
    seed: Option<f64>,
    presets: Option<Vec<String>>,
    churn: Option<f64>,
    retries: Option<f64>,
}

/// Mass live migration: `vms` VMIs, each patched by the VMI controller and
/// the migration controller (under each preset) while virt-handler calls
/// `Update()`, with `churn` extra writers and a retry budget of
/// `retries`; counts per preset. Runs synchronously (tens of milliseconds
/// for 2000 VMIs and all presets): use a Web Worker for big runs.
#[wasm_bindgen(unchecked_return_type = "MigrateResult")]
pub fn migrate(
    #[wasm_bindgen(unchecked_param_type = "MigrateOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options.unwrap_or_default();
    let args: MigrateArgs = self::options(
        &options,
        "options",
        &["vms", "seed", "presets", "churn", "retries"],
    )?;
    let whole = |value: f64, what: &str, max: f64| {
        if value.fract() != 0.0 || !(0.0..=max).contains(&value) {
            Err(bad_argument(format!(
                "{what} must be a whole number from 0 to {max}, found {value}"
            )))
        } else {
            Ok(value)
        }
    };
    let vms = whole(args.vms.unwrap_or(2000.0), "options.vms", f64::MAX)?;
    if vms < 1.0 || vms > MAX_MIGRATE_VMS as f64 {
        return Err(ErrorBuilder::new(
            "too-large",
            &format!("options.vms must be between 1 and {MAX_MIGRATE_VMS}, found {vms}"),
        )
        .build());
    }
    let seed = whole(
        args.seed.unwrap_or(1.0),
        "options.seed",
        9_007_199_254_740_991.0,
    )?;
    let presets = args
        .presets
        .unwrap_or_default()
        .iter()
        .map(|name| preset(name, "options.presets"))
        .collect::<Result<Vec<_>, _>>()?;
    let churn = whole(
        args.churn.unwrap_or(0.0),
        "options.churn",
        crate::sim::migrate::MAX_CHURN as f64,
    )?;
    let retries = whole(
        args.retries.unwrap_or(2.0),
        "options.retries",
        f64::from(crate::sim::migrate::MAX_RETRIES),
    )?;
    let result = run_migration(&MigrateOptions {
        vms: vms as usize,
        seed: seed as u64,
        presets,
        churn: churn as usize,
        retries: retries as u32,
    })
    .map_err(|e| bad_argument(e.to_string()))?;
    to_js(&result)
}

#[derive(Serialize)]
struct PresetInfo {
    name: &'static str,
    summary: &'static str,
}

/// Every preset with a one-line summary, in the playground's order.
#[wasm_bindgen(unchecked_return_type = "PresetInfo[]")]
pub fn presets() -> Result<JsValue, JsValue> {
    let list: Vec<PresetInfo> = Preset::ALL
        .iter()
        .map(|p| PresetInfo {
            name: p.as_str(),
            summary: p.summary(),
        })
        .collect();
    to_js(&list)
}

/// The version of patchlab this module was built from.
#[wasm_bindgen(unchecked_return_type = "string")]
pub fn version() -> JsValue {
    JsValue::from_str(env!("CARGO_PKG_VERSION"))
}
