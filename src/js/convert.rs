//! Arguments in (JS values to JSON text within budget, options objects)
//! and results and errors out (`PatchlabError`s).

use js_sys::{Error, JsString, Reflect, JSON};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::apply::{ApplyError, Cause, Engine, Evanphx, Semantics};
use crate::gojson::DecodeError;
use crate::input::{self, Budget, Format, InputError};
use crate::kube::{Cluster, KubeVersion};
use crate::limits::OBJECT_BYTES;
use crate::patch::PayloadError;

/// A `PatchlabError` with `kind` and `message`; add properties with
/// [`ErrorBuilder::set`].
pub(super) struct ErrorBuilder(Error);

impl ErrorBuilder {
    pub(super) fn new(kind: &str, message: &str) -> ErrorBuilder {
        let error = Error::new(message);
        error.set_name("PatchlabError");
        let builder = ErrorBuilder(error);
        builder.set("kind", kind)
    }

    pub(super) fn set(self, key: &str, value: impl Into<JsValue>) -> ErrorBuilder {
        let _ = Reflect::set(&self.0, &JsValue::from_str(key), &value.into());
        self
    }

    pub(super) fn set_opt<T: Into<JsValue>>(self, key: &str, value: Option<T>) -> ErrorBuilder {
        match value {
            Some(value) => self.set(key, value),
            None => self,
        }
    }

    pub(super) fn build(self) -> JsValue {
        self.0.into()
    }
}

pub(super) fn bad_argument(message: impl AsRef<str>) -> JsValue {
    ErrorBuilder::new("bad-argument", message.as_ref()).build()
}

/// JSON text of a JS value (a document, patch or scenario), within budget.
pub(super) fn json_text(value: &JsValue, what: &str) -> Result<String, JsValue> {
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
pub(super) fn checked_string(text: &JsString, what: &str) -> Result<String, JsValue> {
    let len = text.length() as usize;
    if len > OBJECT_BYTES {
        return Err(ErrorBuilder::new(
            "too-large",
            &format!(
                "{what} is {len} characters of JSON, more than the limit of {OBJECT_BYTES} (4 MiB)"
            ),
        )
        .set("status", 413)
        .build());
    }
    Ok(String::from(text))
}

/// A string argument.
pub(super) fn string_arg(value: &JsValue, what: &str) -> Result<String, JsValue> {
    match value.dyn_ref::<JsString>() {
        Some(text) => checked_string(text, what),
        None => Err(bad_argument(format!(
            "{what} must be a string, found {}",
            type_name(value)
        ))),
    }
}

pub(super) fn type_name(value: &JsValue) -> String {
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

pub(super) fn input_error(err: &InputError, what: &str) -> JsValue {
    ErrorBuilder::new("syntax", &format!("{what}: {err}"))
        .set_opt("line", err.line.map(|l| l as u32))
        .set_opt("column", err.column.map(|c| c as u32))
        .build()
}

/// Parses JSON text as a document within the input budget.
pub(super) fn parse_json(text: &str, what: &str) -> Result<Value, JsValue> {
    input::parse_as(text, Format::Json, &Budget::default()).map_err(|e| input_error(&e, what))
}

/// A JS value as a document: JSON data, or (when `text_ok`) a string of
/// JSON or YAML text.
pub(super) fn document(value: &JsValue, what: &str, text_ok: bool) -> Result<Value, JsValue> {
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
pub(super) fn options<T: for<'de> Deserialize<'de> + Default>(
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
pub(super) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsValue::from(Error::new(&format!("patchlab: result conversion: {e}"))))
}

/// A document back to JS through `JSON.parse` of its text.
pub(super) fn value_to_js(value: &Value) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsValue::from(Error::new(&format!("patchlab: result conversion: {e}"))))?;
    JSON::parse(&text)
}

pub(super) fn json_to_js(value: &Value) -> JsValue {
    value_to_js(value).unwrap_or(JsValue::UNDEFINED)
}

pub(super) fn payload_error(err: &PayloadError, status: Option<u16>) -> JsValue {
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

pub(super) fn apply_error(err: &ApplyError, payload: Option<&str>) -> JsValue {
    let report = err.report();
    let (line, column) = match &err.cause {
        Cause::Payload(PayloadError::Syntax { line, column, .. })
        | Cause::Unsupported(PayloadError::Syntax { line, column, .. }) => {
            (Some(*line), Some(*column))
        }
        Cause::Decode(DecodeError::Syntax(syntax)) => match payload {
            Some(text) => {
                let (line, column) = line_column(text, syntax.offset);
                (Some(line), Some(column))
            }
            None => (None, None),
        },
        _ => (None, None),
    };
    let message = match &err.cause {
        Cause::Payload(_) | Cause::Decode(_) | Cause::Unsupported(_) => format!("patch: {err}"),
        _ => err.to_string(),
    };
    let mut builder = ErrorBuilder::new(report.kind, &message)
        .set_opt("index", report.index.map(|i| i as u32))
        .set_opt("op", report.op.as_deref())
        .set_opt("path", report.path.as_deref())
        .set("cause", report.message.as_str())
        .set_opt("line", line.map(|l| l as u32))
        .set_opt("column", column.map(|c| c as u32));
    if err.engine.is_kube() {
        builder = builder.set("engine", err.engine.as_str());
    }
    if let Some(status) = &report.status {
        builder = builder
            .set("status", status.code)
            .set("reason", status.reason.as_str())
            .set("response", status.message.as_str());
    }
    if let Some(expected) = &report.expected {
        builder = builder.set("expected", json_to_js(expected));
        if let Some(actual) = &report.actual {
            builder = builder.set("actual", json_to_js(actual));
        }
    }
    builder.build()
}

/// 1-based line and column of the byte Go's scanner stopped at (`offset`
/// bytes read).
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let at = offset.saturating_sub(1).min(text.len());
    let before = &text.as_bytes()[..at];
    let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
    let start = before
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (line, at - start + 1)
}

/// The engine of an options object's `semantics`, `kubeVersion` and
/// `engine`: RFC 6902, or the JSON patch engine of that Kubernetes release
/// (the newest modelled by default), `engine` overriding it.
pub(super) fn engine_of(
    semantics: Option<&str>,
    kube_version: Option<&str>,
    engine: Option<&str>,
) -> Result<Engine, JsValue> {
    let semantics = match semantics {
        None => Semantics::Kube,
        Some(s) => s.parse().map_err(|_| {
            bad_argument(format!(
                "options.semantics must be \"kube\" or \"rfc\", found {s:?}"
            ))
        })?,
    };
    let cluster = cluster_of(kube_version, engine)?;
    Ok(match semantics {
        Semantics::Rfc => Engine::Rfc,
        Semantics::Kube => cluster.patch_engine(),
    })
}

/// The cluster of an options object's `kubeVersion` and `engine`.
pub(super) fn cluster_of(
    kube_version: Option<&str>,
    engine: Option<&str>,
) -> Result<Cluster, JsValue> {
    let version = kube_version
        .map(|v| {
            v.parse::<KubeVersion>()
                .map_err(|e| bad_argument(format!("options.kubeVersion: {e}")))
        })
        .transpose()?;
    let engine = engine
        .map(|e| {
            e.parse::<Evanphx>()
                .map_err(|e| bad_argument(format!("options.engine: {e}")))
        })
        .transpose()?;
    Ok(Cluster::from_options(version, engine))
}

/// Decodes a patch given as a JS array of ops or as payload text (the
/// bytes as sent: the kube engine compares `test` values byte for byte).
pub(super) fn patch_text(patch: &JsValue) -> Result<String, JsValue> {
    match patch.dyn_ref::<JsString>() {
        Some(text) => checked_string(text, "patch"),
        None => json_text(patch, "patch"),
    }
}
