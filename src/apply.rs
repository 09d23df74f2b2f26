//! The apply engine: runs a JSON Patch on a document under strict RFC 6902
//! semantics or as kube-apiserver does: the PATCH handler's checks around
//! one release of evanphx/json-patch (see [`Engine`], [`crate::kube::Evanphx`]
//! and [`crate::kube`] for which Kubernetes release runs which).
//!
//! Both modes run the ops in order and are atomic: when an op fails, the
//! document is restored exactly (an undo log, not a copy) and the error
//! names the op index, the op, its path and the cause. In kube mode the
//! error also carries the HTTP response a real server would send, which
//! hides the cause behind a generic 422 (the server discards the engine's
//! error; the cause is patchlab's explanation).
//!
//! Every function takes the engine as `impl Into<Engine>`: a [`Semantics`]
//! (`Kube` is the newest engine modelled), a [`crate::kube::Evanphx`] release, or a
//! [`crate::kube::KubeVersion`].
//!
//! ```
//! use patchlab::apply::{apply, Semantics};
//! use patchlab::patch::PatchSet;
//! use serde_json::json;
//!
//! // The seed's finalizer removal: test the list, then replace it.
//! let mut vmi = json!({"metadata": {"finalizers": ["kubevirt.io/foreground"]}});
//! let patch = PatchSet::test_replace(
//!     "/metadata/finalizers",
//!     json!(["kubevirt.io/foreground"]),
//!     json!([]),
//! );
//! apply(&mut vmi, patch.ops(), Semantics::Kube).unwrap();
//! assert_eq!(vmi, json!({"metadata": {"finalizers": []}}));
//!
//! // Replaying it fails at the test, and the document is untouched.
//! let err = apply(&mut vmi, patch.ops(), Semantics::Kube).unwrap_err();
//! assert_eq!(err.index, Some(0));
//! assert_eq!(err.response().unwrap().code, 422);
//! assert_eq!(vmi, json!({"metadata": {"finalizers": []}}));
//! ```

mod class;
mod compare;
mod engine;
mod error;
pub mod merge;
mod run;
pub mod strategic;
pub mod text;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

pub use compare::{kube_compare, rfc_eq, ByteDifference, KubeCmp};
pub use engine::Engine;
pub use error::{ApplyError, Cause, ErrorReport};

use run::run;

use crate::gojson;
use crate::limits::MAX_BODY_BYTES;
use crate::patch::{self, Decoded, Dialect, Operation};
use crate::status::Status;

/// Which engine's rules to follow, without choosing a release: `Kube` is
/// the newest release of evanphx/json-patch modelled (see [`Engine`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Semantics {
    /// Strict RFC 6902.
    Rfc,
    /// kube-apiserver (evanphx/json-patch): `replace` of a missing member
    /// adds it, `test` of `null` passes on a missing member, scalars compare
    /// as bytes, negative array indices count from the end, ...
    #[default]
    Kube,
}

impl Semantics {
    /// `kube` or `rfc`.
    pub fn as_str(self) -> &'static str {
        match self {
            Semantics::Rfc => "rfc",
            Semantics::Kube => "kube",
        }
    }
}

/// A semantics name that is neither `kube` nor `rfc`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownSemantics(pub String);

impl fmt::Display for UnknownSemantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown semantics {:?}: use kube or rfc", self.0)
    }
}

impl std::error::Error for UnknownSemantics {}

impl FromStr for Semantics {
    type Err = UnknownSemantics;
    fn from_str(s: &str) -> Result<Self, UnknownSemantics> {
        match s {
            "kube" => Ok(Semantics::Kube),
            "rfc" => Ok(Semantics::Rfc),
            other => Err(UnknownSemantics(other.to_owned())),
        }
    }
}

impl Serialize for Semantics {
    /// `"kube"` or `"rfc"`.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Semantics {
    /// `"kube"` or `"rfc"`; anything else is an [`UnknownSemantics`].
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Semantics, D::Error> {
        let name = String::deserialize(deserializer)?;
        name.parse().map_err(serde::de::Error::custom)
    }
}

impl fmt::Display for Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The message of every 422 a failed JSON patch op gets from the server;
/// the engine's own error text is discarded.
pub const GENERIC_422: &str = crate::status::GENERIC_422;

/// An HTTP response as kube-apiserver would send it (see [`Status`]).
pub type ServerResponse = Status;

/// Applies `ops` to `doc` in order, atomically.
///
/// # Errors
///
/// [`ApplyError`] for the first failing op; `doc` is then unchanged.
pub fn apply(
    doc: &mut Value,
    ops: &[Operation],
    engine: impl Into<Engine>,
) -> Result<(), ApplyError> {
    run(doc, ops, ops.len(), None, engine.into())
}

/// Decodes a payload as the engine reads it. In kube mode this is the
/// PATCH handler's path up to the engine: the body limit (413), the strict
/// decode into the handler's op type (400 `error decoding patch: ...`, with
/// Go's own error texts; unknown and duplicate fields become
/// [`Decoded::warnings`]), then evanphx's own decode (the last of repeated
/// members wins, a `null` element is an op that fails when its turn comes).
///
/// # Errors
///
/// [`ApplyError`] with no op index for a body refused as a whole.
pub fn decode(payload: &str, engine: impl Into<Engine>) -> Result<Decoded, ApplyError> {
    decode_given(payload, None, engine)
}

/// As [`decode`], given the ops [`patch::decode_at`] already read from
/// `payload` (a batch line's reader decodes them while it reads the line):
/// the same checks run on the payload, and the same result comes out.
///
/// # Errors
///
/// As [`decode`].
pub fn decode_given(
    payload: &str,
    given: Option<Decoded>,
    engine: impl Into<Engine>,
) -> Result<Decoded, ApplyError> {
    let engine = engine.into();
    if !engine.is_kube() {
        return match given {
            Some(decoded) => Ok(decoded),
            None => patch::decode(payload).map_err(|e| ApplyError::from_payload(e, engine)),
        };
    }
    if payload.len() > MAX_BODY_BYTES {
        return Err(ApplyError::whole(
            Cause::BodyTooLarge {
                size: payload.len(),
            },
            engine,
        ));
    }
    let warnings = gojson::check_json_patch(payload)
        .map_err(|err| ApplyError::whole(Cause::Decode(err), engine))?;
    let mut decoded = match given {
        Some(decoded) => decoded,
        None => patch::decode_as(payload, Dialect::Go).map_err(|err| {
            // Go accepted the body; serde_json did not (a lone surrogate, a
            // nesting deeper than its limit).
            ApplyError {
                index: err.index(),
                op: None,
                path: None,
                cause: Cause::Unsupported(err),
                engine,
            }
        })?,
    };
    decoded.warnings = warnings;
    Ok(decoded)
}

/// Decodes a payload and applies it as the engine would (see [`decode`]):
/// in kube mode a body the handler refuses is a 400 or 413 before anything
/// runs, then the op count is checked (413), then the ops run in order; a
/// malformed op fails when its turn comes (422).
///
/// # Errors
///
/// [`ApplyError`]; `doc` is then unchanged.
///
/// ```
/// use patchlab::apply::{apply_payload, Semantics};
/// use serde_json::json;
///
/// let mut doc = json!({"metadata": {"labels": {"app": "web"}}});
/// // `<` sent raw does not match the `\u003c` the server stores.
/// let mut stored = json!({"note": "<b>"});
/// let err = apply_payload(&mut stored, r#"[{"op":"test","path":"/note","value":"<b>"}]"#, Semantics::Kube)
///     .unwrap_err();
/// assert!(err.to_string().starts_with("op 0 (test \"/note\"): test failed"));
/// apply_payload(&mut stored, r#"[{"op":"test","path":"/note","value":"\u003cb\u003e"}]"#, Semantics::Kube)
///     .unwrap();
///
/// // Replace of a missing member: an add for the server, an error for the RFC.
/// let payload = r#"[{"op":"replace","path":"/metadata/labels/tier","value":"db"}]"#;
/// assert!(apply_payload(&mut doc.clone(), payload, Semantics::Rfc).is_err());
/// apply_payload(&mut doc, payload, Semantics::Kube).unwrap();
/// assert_eq!(doc["metadata"]["labels"]["tier"], "db");
///
/// // The server decodes the body strictly first, and answers in Go's words.
/// let err = apply_payload(&mut doc, r#"[{"op":1}]"#, Semantics::Kube).unwrap_err();
/// assert_eq!(
///     err.response().unwrap().message,
///     "error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string"
/// );
/// ```
pub fn apply_payload(
    doc: &mut Value,
    payload: &str,
    engine: impl Into<Engine>,
) -> Result<(), ApplyError> {
    let engine = engine.into();
    let decoded = decode(payload, engine)?;
    apply_decoded(doc, &decoded, engine)
}

/// Applies an already decoded payload (see [`apply_payload`]).
///
/// # Errors
///
/// [`ApplyError`]; `doc` is then unchanged.
pub fn apply_decoded(
    doc: &mut Value,
    decoded: &Decoded,
    engine: impl Into<Engine>,
) -> Result<(), ApplyError> {
    run(
        doc,
        &decoded.ops,
        decoded.count,
        decoded.malformed.as_ref(),
        engine.into(),
    )
}

/// Applies a merge patch body (`application/merge-patch+json`) as the
/// engine would. In kube mode this is the PATCH handler's path: the body
/// limit (413), the strict decode into `map[string]interface{}` (400
/// `error decoding patch: ...`; duplicate keys are warnings), evanphx's
/// `MergePatch` (a `null` body is 400 `Invalid JSON Patch`; nulls of
/// objects inside stored arrays are pruned, see
/// [`merge::merge_patch`]), then the name and namespace
/// checks. Under RFC 7386 any JSON value is a patch.
///
/// Returns the warnings the server sends back.
///
/// # Errors
///
/// [`ApplyError`] (without an op index); `doc` is then unchanged.
///
/// ```
/// use patchlab::apply::{apply_merge, Semantics};
/// use serde_json::json;
///
/// let mut doc = json!({"metadata": {"name": "x", "labels": {"a": "1"}}});
/// apply_merge(&mut doc, r#"{"metadata":{"labels":{"a":null,"b":"2"}}}"#, Semantics::Kube).unwrap();
/// assert_eq!(doc, json!({"metadata": {"name": "x", "labels": {"b": "2"}}}));
/// let err = apply_merge(&mut doc, "[1]", Semantics::Kube).unwrap_err();
/// assert_eq!(
///     err.response().unwrap().message,
///     "error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}"
/// );
/// ```
pub fn apply_merge(
    doc: &mut Value,
    body: &str,
    engine: impl Into<Engine>,
) -> Result<Vec<String>, ApplyError> {
    let engine = engine.into();
    let whole = |cause| ApplyError::whole(cause, engine);
    if !engine.is_kube() {
        let patch: Value = serde_json::from_str(body)
            .map_err(|e| whole(Cause::Payload(patch::syntax_error(&e))))?;
        merge::apply(doc, &patch);
        return Ok(Vec::new());
    }
    if body.len() > MAX_BODY_BYTES {
        return Err(whole(Cause::BodyTooLarge { size: body.len() }));
    }
    let warnings = gojson::check_merge_patch(body).map_err(|e| whole(Cause::Decode(e)))?;
    let patch: Value = serde_json::from_str(&crate::json::go_strings(body))
        .map_err(|e| whole(Cause::Unsupported(patch::syntax_error(&e))))?;
    if patch.is_null() {
        return Err(whole(Cause::NullMergePatch));
    }
    let (url_name, url_namespace) = identity(doc);
    let mut merged = doc.clone();
    merge::merge_patch(&mut merged, &patch);
    check_identity(&mut merged, url_name.as_deref(), url_namespace.as_deref()).map_err(whole)?;
    *doc = merged;
    Ok(warnings)
}

/// `metadata.name` and `metadata.namespace` of an object, when strings.
pub(crate) fn identity(doc: &Value) -> (Option<String>, Option<String>) {
    let field = |name: &str| {
        doc.get("metadata")
            .and_then(|m| m.get(name))
            .and_then(Value::as_str)
            .map(str::to_owned)
    };
    (field("name"), field("namespace"))
}

/// The handler's checks of the patched object (`patcher.applyPatch`):
/// the namespace must be the request's (an unset one is set back), then
/// the name must be the URL's.
pub(crate) fn check_identity(
    doc: &mut Value,
    url_name: Option<&str>,
    url_namespace: Option<&str>,
) -> Result<(), Cause> {
    let (name, namespace) = identity(doc);
    if let Some(request) = url_namespace {
        match namespace.as_deref() {
            Some(ns) if ns == request => {}
            None | Some("") => {
                // Unset: the server sets the request's namespace. This is
                // not an op, so it leaves no undo record; it only ever
                // runs after every op succeeded.
                if let Some(Value::Object(metadata)) = doc.get_mut("metadata") {
                    metadata.insert("namespace".to_owned(), Value::String(request.to_owned()));
                }
            }
            Some(other) => {
                return Err(Cause::NamespaceMismatch {
                    object: other.to_owned(),
                    request: request.to_owned(),
                })
            }
        }
    }
    if let Some(url) = url_name {
        let object = name.unwrap_or_default();
        if object != url {
            return Err(Cause::NameMismatch {
                object,
                url: url.to_owned(),
            });
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests;
