//! Arguments in (JS values to JSON text within budget, options objects)
//! and results and errors out (`PatchlabError`s).

use js_sys::{Error, JsString, Reflect, JSON};
use serde::Serialize;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::boundary::exact;
pub(super) use super::error::{bad_argument, thrown, ErrorBuilder};
use crate::apply::{ApplyError, Cause, Engine, Semantics};
use crate::gojson::DecodeError;
use crate::input::{self, Budget, Format, InputError};
use crate::kube::{Cluster, Evanphx, KubeVersion};
use crate::limits::{OBJECT_BYTES, OPTION_TEXT, OPTION_VALUES, OVERRIDES};
use crate::patch::PayloadError;

/// JSON text of a JS value (a document, patch or scenario), within budget:
/// exact (no `NaN`, `Infinity` or `undefined` that `JSON.stringify` would
/// turn into `null` or drop), measured before the text is built.
pub(super) fn json_text(value: &JsValue, what: &str) -> Result<String, JsValue> {
    if value.is_undefined() {
        return Err(bad_argument(format!("{what} is missing")));
    }
    exact(value, what)?;
    let text = JSON::stringify(value).map_err(|err| {
        bad_argument(format!(
            "{what} cannot be written as JSON: {}",
            thrown(&err)
        ))
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
    super::boundary::describe(value)
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

/// An options object, read from its own properties only (a polluted
/// `Object.prototype` changes nothing): `undefined` and `null` mean the
/// defaults; a key not in `known` is an error (a misspelt option must not
/// be ignored). Every value is typed and checked against the option
/// budgets ([`OPTION_TEXT`], [`OPTION_VALUES`], [`OVERRIDES`]) before it is
/// copied into wasm; `undefined` reads as absent.
pub(super) struct OptionsReader<'a> {
    /// The own values of the options, one per name of `known` (read in
    /// one crossing by `ownOptions`, `src/js/boundary.js`).
    values: Option<js_sys::Array>,
    known: &'a [&'a str],
    what: &'a str,
}

impl<'a> OptionsReader<'a> {
    /// Checks the type and the keys of `value`, and reads the own value of
    /// every name in `known`.
    pub(super) fn new(
        value: Option<JsValue>,
        what: &'a str,
        known: &'a [&'a str],
    ) -> Result<OptionsReader<'a>, JsValue> {
        let Some(value) = value.filter(|v| !v.is_undefined() && !v.is_null()) else {
            return Ok(OptionsReader {
                values: None,
                known,
                what,
            });
        };
        let read = super::boundary::own_options(&value, known)
            .map_err(|err| bad_argument(format!("{what} cannot be read: {}", thrown(&err))))?;
        if let Some(key) = read.as_string() {
            return Err(bad_argument(format!(
                "{what}: unknown option {:?} (known: {})",
                crate::text::elide(&key, 64),
                known.join(", ")
            )));
        }
        if !js_sys::Array::is_array(&read) {
            let field =
                |key: &str| Reflect::get(&read, &JsValue::from_str(key)).unwrap_or_default();
            if let Some(found) = field("found").as_string() {
                return Err(bad_argument(format!(
                    "{what} must be an object, found {found}"
                )));
            }
            let error = field("error").as_string().unwrap_or_default();
            return Err(bad_argument(match field("key").as_string() {
                Some(key) => format!("{what}.{key} cannot be read: {error}"),
                None => format!("{what} cannot be read: {error}"),
            }));
        }
        Ok(OptionsReader {
            values: Some(read.unchecked_into()),
            known,
            what,
        })
    }

    /// The option's own value (`undefined` when absent or inherited).
    pub(super) fn get(&self, key: &str) -> Result<JsValue, JsValue> {
        let (Some(values), Some(index)) = (
            &self.values,
            self.known.iter().position(|known| *known == key),
        ) else {
            return Ok(JsValue::UNDEFINED);
        };
        Ok(values.get(u32::try_from(index).unwrap_or(u32::MAX)))
    }

    fn wrong(&self, key: &str, expected: &str, found: &JsValue) -> JsValue {
        bad_argument(format!(
            "{}.{key} must be {expected}, found {}",
            self.what,
            type_name(found)
        ))
    }

    /// A text option.
    pub(super) fn string(&self, key: &str) -> Result<Option<String>, JsValue> {
        let value = self.get(key)?;
        if value.is_undefined() {
            return Ok(None);
        }
        option_text(&value, &format!("{}.{key}", self.what))
            .map(Some)
            .map_err(|e| e.unwrap_or_else(|| self.wrong(key, "a string", &value)))
    }

    /// A yes/no option.
    pub(super) fn boolean(&self, key: &str) -> Result<Option<bool>, JsValue> {
        let value = self.get(key)?;
        if value.is_undefined() {
            return Ok(None);
        }
        value
            .as_bool()
            .map(Some)
            .ok_or_else(|| self.wrong(key, "true or false", &value))
    }

    /// A number option (range checks are the caller's).
    pub(super) fn number(&self, key: &str) -> Result<Option<f64>, JsValue> {
        let value = self.get(key)?;
        if value.is_undefined() {
            return Ok(None);
        }
        value
            .as_f64()
            .map(Some)
            .ok_or_else(|| self.wrong(key, "a number", &value))
    }

    /// A list of texts, duplicates removed (first places kept), then at
    /// most [`OPTION_VALUES`] of them.
    pub(super) fn strings(&self, key: &str) -> Result<Option<Vec<String>>, JsValue> {
        let value = self.get(key)?;
        if value.is_undefined() {
            return Ok(None);
        }
        let what = format!("{}.{key}", self.what);
        super::boundary::string_list(&value, &what, OPTION_VALUES, OPTION_TEXT).map(Some)
    }

    /// A map of texts to texts (own enumerable keys), at most
    /// [`OVERRIDES`] entries.
    pub(super) fn string_map(&self, key: &str) -> Result<Option<Vec<(String, String)>>, JsValue> {
        let value = self.get(key)?;
        if value.is_undefined() {
            return Ok(None);
        }
        let what = format!("{}.{key}", self.what);
        super::boundary::string_map(&value, &what, OVERRIDES, OPTION_TEXT).map(Some)
    }
}

/// A JS string option within [`OPTION_TEXT`]: `Err(None)` when not a
/// string, `Err(Some(error))` when too long.
fn option_text(value: &JsValue, what: &str) -> Result<String, Option<JsValue>> {
    let text = value.dyn_ref::<JsString>().ok_or(None)?;
    let len = text.length() as usize;
    if len > OPTION_TEXT {
        return Err(Some(bad_argument(format!(
            "{what} is {len} characters long, more than the limit of {OPTION_TEXT}"
        ))));
    }
    Ok(String::from(text))
}

/// Results as plain JS objects, built by `JSON.parse` of their JSON text:
/// every key is an own property (`__proto__` included, which an assignment
/// would turn into the object's prototype), as in the documents
/// [`value_to_js`] returns.
pub(super) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsValue> {
    let text = serde_json::to_string(value)
        .map_err(|e| JsValue::from(Error::new(&format!("patchlab: result conversion: {e}"))))?;
    JSON::parse(&text)
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
        Semantics::Kube => cluster.into(),
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
///
/// `null` is refused: as JSON it is the body `null`, which the server
/// reads as an empty patch.
pub(super) fn patch_text(patch: &JsValue) -> Result<String, JsValue> {
    if patch.is_null() {
        return Err(bad_argument(
            "patch must be an array of ops or the payload's text, found null",
        ));
    }
    match patch.dyn_ref::<JsString>() {
        Some(text) => checked_string(text, "patch"),
        None => json_text(patch, "patch"),
    }
}
