//! The apply engine: runs a JSON Patch on a document under strict RFC 6902
//! semantics or as kube-apiserver does: the PATCH handler's checks around
//! one release of evanphx/json-patch (see [`Engine`], [`Evanphx`] and
//! [`crate::kube`] for which Kubernetes release runs which).
//!
//! Both modes run the ops in order and are atomic: when an op fails, the
//! document is restored exactly (an undo log, not a copy) and the error
//! names the op index, the op, its path and the cause. In kube mode the
//! error also carries the HTTP response a real server would send, which
//! hides the cause behind a generic 422 (the server discards the engine's
//! error; the cause is patchlab's explanation).
//!
//! Every function takes the engine as `impl Into<Engine>`: a [`Semantics`]
//! (`Kube` is the newest engine modelled), an [`Evanphx`] release, or a
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
pub mod text;

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

pub use compare::{kube_compare, rfc_eq, KubeCmp};
pub use engine::{Engine, Evanphx, UnknownEngine};

use compare::{compare_marked, Mark, Seg};

use crate::gojson::{self, DecodeError};
use crate::patch::{self, Decoded, Dialect, OpKind, Operation, PayloadError};
use crate::pointer::{self, Index, Pointer};
use crate::status::{Status, MAX_BODY_BYTES};

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

impl FromStr for Semantics {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "kube" => Ok(Semantics::Kube),
            "rfc" => Ok(Semantics::Rfc),
            other => Err(format!("unknown semantics {other:?}: use kube or rfc")),
        }
    }
}

impl fmt::Display for Semantics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// kube-apiserver refuses a JSON patch with more operations than this (413).
pub const MAX_OPS: usize = 10_000;

/// kube-apiserver caps the bytes `copy` ops may add to a document.
pub const COPY_LIMIT: usize = 3 * 1024 * 1024;

/// The message of every 422 a failed JSON patch op gets from the server;
/// the engine's own error text is discarded.
pub const GENERIC_422: &str = crate::status::GENERIC_422;

/// An HTTP response as kube-apiserver would send it (see [`Status`]).
pub type ServerResponse = Status;

/// Why an op (or the whole patch) failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Cause {
    /// The payload is not a list of ops, or one op is malformed.
    Payload(PayloadError),
    /// The body is larger than the server reads (kube: 413).
    BodyTooLarge {
        /// The body's size in bytes.
        size: usize,
    },
    /// The handler's strict decode refused the body (kube: 400).
    Decode(DecodeError),
    /// A body the server would accept but patchlab cannot hold (a lone
    /// UTF-16 surrogate, deeper nesting than its budget): no server answer
    /// is claimed.
    Unsupported(PayloadError),
    /// More than [`MAX_OPS`] operations (kube only).
    TooManyOps {
        /// How many ops the patch holds.
        count: usize,
    },
    /// The kube engine needs an object or array document.
    DocumentNotContainer,
    /// A `test` found a different value.
    TestFailed {
        /// The value the op expected.
        expected: Box<Value>,
        /// What the document holds there; `None` when absent.
        actual: Option<Box<Value>>,
    },
    /// A path with no `/` at all (kube: it addresses nothing).
    PathWithoutSlash {
        /// True when it is the `from` of `move`/`copy`.
        in_from: bool,
    },
    /// A node on the way to the target is absent, `null` or a scalar.
    MissingPath {
        /// The pointer prefix that could not be traversed.
        at: String,
        /// What was found there: `absent`, `null`, `a string`, ...
        found: &'static str,
        /// True when it is the `from` location of `move`/`copy`.
        in_from: bool,
    },
    /// The member to remove, replace, move or copy is absent.
    MissingMember {
        /// The member's key.
        key: String,
        /// True when it is the `from` location.
        in_from: bool,
    },
    /// An array index outside the array.
    IndexOutOfBounds {
        /// The index as written (kube accepts negative ones).
        index: i64,
        /// The array's length.
        len: usize,
    },
    /// A token that is no array index.
    BadIndex {
        /// The token.
        token: String,
        /// Why it is not an index.
        reason: String,
    },
    /// A path that is not a JSON Pointer (RFC mode).
    InvalidPointer {
        /// `path` or `from`.
        field: &'static str,
        /// The problem.
        error: pointer::ParseError,
    },
    /// `add`, `replace` or `test` without `value` (RFC mode).
    MissingValue,
    /// An op that may not target the whole document (`""`).
    WholeDocument,
    /// `replace ""` with a value that is neither object nor array
    /// (evanphx v4.13.0; v4.12.0 silently ignores it).
    ScalarRoot,
    /// `move` into one of its own children (RFC mode).
    MoveIntoChild,
    /// `copy` ops added more than [`COPY_LIMIT`] bytes (kube).
    CopyLimit {
        /// Bytes added so far, this op included.
        size: usize,
    },
    /// `copy` ops added more than [`COPY_LIMIT`] bytes (RFC mode: the RFC
    /// sets no limit, but a patch of a few copies can double a document
    /// each time and exhaust memory; patchlab applies the server's budget).
    CopyBudget {
        /// Bytes added so far, this op included.
        size: usize,
    },
    /// The Go engine dereferences a nil node here and panics (kube).
    EnginePanic {
        /// What triggers it.
        what: &'static str,
    },
    /// The patched object names another object (kube: 400).
    NameMismatch {
        /// `metadata.name` after the patch.
        object: String,
        /// The name the request was sent to (before the patch).
        url: String,
    },
    /// A merge patch body of `null`: evanphx's `MergePatch` refuses it with
    /// `ErrBadJSONPatch` (kube: 400 `Invalid JSON Patch`).
    NullMergePatch,
    /// The patched object is in another namespace (kube: 400).
    NamespaceMismatch {
        /// `metadata.namespace` after the patch.
        object: String,
        /// The namespace the request was sent to.
        request: String,
    },
}

impl Cause {
    /// A stable name of the kind of failure (the JS API's `kind`):
    /// `invalid-patch`, `syntax`, `too-large`, `test-failed`,
    /// `invalid-pointer`, `name-mismatch`, `engine-panic`, `apply-failed`.
    pub fn kind(&self) -> &'static str {
        match self {
            Cause::Payload(PayloadError::Syntax { .. }) | Cause::Decode(DecodeError::Syntax(_)) => {
                "syntax"
            }
            Cause::Payload(_)
            | Cause::Decode(_)
            | Cause::Unsupported(_)
            | Cause::NullMergePatch => "invalid-patch",
            Cause::BodyTooLarge { .. }
            | Cause::TooManyOps { .. }
            | Cause::CopyLimit { .. }
            | Cause::CopyBudget { .. } => "too-large",
            Cause::TestFailed { .. } => "test-failed",
            Cause::InvalidPointer { .. } | Cause::PathWithoutSlash { .. } => "invalid-pointer",
            Cause::NameMismatch { .. } | Cause::NamespaceMismatch { .. } => "name-mismatch",
            Cause::EnginePanic { .. } => "engine-panic",
            _ => "apply-failed",
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Payload(err) => write!(f, "{err}"),
            Cause::BodyTooLarge { size } => write!(
                f,
                "the body is {size} bytes, more than the server reads ({MAX_BODY_BYTES})"
            ),
            Cause::Decode(err) => write!(f, "the server cannot decode the body: {err}"),
            Cause::Unsupported(err) => write!(
                f,
                "patchlab cannot read this body (the server might): {err}"
            ),
            Cause::TooManyOps { count } => {
                write!(
                    f,
                    "{count} operations, more than the server's limit of {MAX_OPS}"
                )
            }
            Cause::DocumentNotContainer => {
                f.write_str("the document must be a JSON object or array")
            }
            Cause::TestFailed { expected, actual } => {
                write!(f, "test failed: expected {}", compact(expected))?;
                match actual {
                    Some(actual) => write!(f, ", found {}", compact(actual)),
                    None => f.write_str(", found nothing (the member is absent)"),
                }
            }
            Cause::PathWithoutSlash { in_from } => {
                let which = if *in_from { "from" } else { "path" };
                write!(f, "{which} holds no '/', so it addresses nothing")
            }
            Cause::MissingPath { at, found, in_from } => {
                let which = if *in_from { "from" } else { "path" };
                if at.is_empty() {
                    write!(f, "{which} does not exist: the document is {found}")
                } else {
                    write!(f, "{which} does not exist: {at} is {found}")
                }
            }
            Cause::MissingMember { key, in_from } => {
                let which = if *in_from { "from" } else { "target" };
                write!(f, "{which} member {key:?} does not exist")
            }
            Cause::IndexOutOfBounds { index, len } => {
                write!(f, "array index {index} is out of bounds (length {len})")
            }
            Cause::BadIndex { token, reason } => {
                write!(f, "{token:?} is not an array index: {reason}")
            }
            Cause::InvalidPointer { field, error } => write!(f, "{field}: {error}"),
            Cause::MissingValue => f.write_str("the op has no 'value'"),
            Cause::WholeDocument => f.write_str("this op cannot target the whole document"),
            Cause::ScalarRoot => f.write_str(
                "replace of the whole document needs an object or array (evanphx v4.13.0: \"replace operation value must be object or array: %!w(<nil>)\")",
            ),
            Cause::MoveIntoChild => f.write_str("cannot move a value into one of its children"),
            Cause::CopyLimit { size } => write!(
                f,
                "copy ops would add {size} bytes, more than the server's limit of {COPY_LIMIT}"
            ),
            Cause::CopyBudget { size } => write!(
                f,
                "copy ops would add {size} bytes, more than patchlab's budget of {COPY_LIMIT} \
                 (RFC 6902 sets no limit; kube-apiserver has the same one)"
            ),
            Cause::EnginePanic { what } => {
                write!(f, "the server's JSON patch engine panics here: {what}")
            }
            Cause::NameMismatch { object, url } => write!(
                f,
                "the patch changes metadata.name from {url:?} to {object:?}"
            ),
            Cause::NullMergePatch => {
                f.write_str("a merge patch of null (evanphx's MergePatch refuses it)")
            }
            Cause::NamespaceMismatch { object, request } => write!(
                f,
                "the patch changes metadata.namespace from {request:?} to {object:?}"
            ),
        }
    }
}

fn compact(value: &Value) -> String {
    const MAX: usize = 200;
    let text = serde_json::to_string(value).unwrap_or_default();
    if text.len() <= MAX {
        return text;
    }
    let mut end = MAX;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}... ({} bytes)", &text[..end], text.len())
}

/// A failed patch: where (op index, op name, path) and why.
#[derive(Clone, Debug, PartialEq)]
pub struct ApplyError {
    /// Zero-based index of the failing op; `None` when the whole patch was
    /// refused before any op ran.
    pub index: Option<usize>,
    /// The failing op's name, when known.
    pub op: Option<OpKind>,
    /// The failing op's path, as sent.
    pub path: Option<String>,
    /// What went wrong.
    pub cause: Cause,
    /// The engine that ran.
    pub engine: Engine,
}

impl ApplyError {
    fn whole(cause: Cause, engine: Engine) -> ApplyError {
        ApplyError {
            index: None,
            op: None,
            path: None,
            cause,
            engine,
        }
    }

    /// A payload that could not be decoded at all (see [`patch::decode`]).
    pub fn from_payload(err: PayloadError, engine: impl Into<Engine>) -> ApplyError {
        ApplyError {
            index: err.index(),
            op: None,
            path: None,
            cause: Cause::Payload(err),
            engine: engine.into(),
        }
    }

    /// What kube-apiserver answers; `None` in RFC mode, and for bodies
    /// patchlab cannot hold ([`Cause::Unsupported`]).
    pub fn response(&self) -> Option<Status> {
        if !self.engine.is_kube() {
            return None;
        }
        Some(match &self.cause {
            Cause::BodyTooLarge { .. } => Status::body_too_large(),
            Cause::Decode(err) => Status::decoding_patch(err),
            Cause::Unsupported(_) => return None,
            Cause::Payload(err) if err.is_body_error() => Status::decoding_patch(err),
            Cause::TooManyOps { count } => Status::too_many_ops(*count),
            Cause::EnginePanic { .. } => Status::panicked(None),
            Cause::NameMismatch { object, url } => Status::name_mismatch(object, url),
            Cause::NamespaceMismatch { .. } => Status::namespace_mismatch(),
            Cause::NullMergePatch => Status::invalid_merge_patch(),
            _ => Status::json_patch_failed(),
        })
    }

    /// The one serde shape of a failed patch, shared by the CLI (`apply
    /// --batch`), the JS API (`PatchlabError`'s properties) and the
    /// simulator (a response's hidden cause).
    pub fn report(&self) -> ErrorReport {
        let (expected, actual) = match &self.cause {
            Cause::TestFailed { expected, actual } => (
                Some((**expected).clone()),
                actual.as_ref().map(|a| (**a).clone()),
            ),
            _ => (None, None),
        };
        ErrorReport {
            index: self.index,
            op: self.op.map(|op| op.as_str().to_owned()),
            path: self.path.clone(),
            kind: self.cause.kind(),
            message: self.cause.to_string(),
            expected,
            actual,
            engine: self.engine,
            status: self.response(),
        }
    }
}

/// A failed patch as data (see [`ApplyError::report`]). JSON:
/// `{"index", "op", "path", "kind", "message", "expected"?, "actual"?,
/// "engine", "status"?, "reason"?, "response"?}` where `status` is the HTTP
/// code the server answers (kube only), `response` that answer's message,
/// and `message` patchlab's explanation of the cause (which the server
/// discards for a failed op).
#[derive(Clone, Debug, PartialEq)]
pub struct ErrorReport {
    /// The failing op's index.
    pub index: Option<usize>,
    /// The failing op's name.
    pub op: Option<String>,
    /// The failing op's path.
    pub path: Option<String>,
    /// [`Cause::kind`].
    pub kind: &'static str,
    /// patchlab's explanation of the cause.
    pub message: String,
    /// For a failed `test`: the value it expected.
    pub expected: Option<Value>,
    /// For a failed `test`: what the object held (`None`: absent).
    pub actual: Option<Value>,
    /// The engine that ran.
    pub engine: Engine,
    /// The server's answer (kube only).
    pub status: Option<Status>,
}

impl Serialize for ErrorReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("index", &self.index)?;
        map.serialize_entry("op", &self.op)?;
        map.serialize_entry("path", &self.path)?;
        map.serialize_entry("kind", self.kind)?;
        map.serialize_entry("message", &self.message)?;
        if let Some(expected) = &self.expected {
            map.serialize_entry("expected", expected)?;
            if let Some(actual) = &self.actual {
                map.serialize_entry("actual", actual)?;
            }
        }
        map.serialize_entry("engine", &self.engine)?;
        if let Some(status) = &self.status {
            map.serialize_entry("status", &status.code)?;
            map.serialize_entry("reason", &status.reason)?;
            map.serialize_entry("response", &status.message)?;
        }
        map.end()
    }
}

impl Serialize for ApplyError {
    /// As [`ErrorReport`].
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.report().serialize(serializer)
    }
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(index) = self.index {
            write!(f, "op {index}")?;
            match (&self.op, &self.path) {
                (Some(op), Some(path)) => write!(f, " ({op} {path:?})")?,
                (None, Some(path)) => write!(f, " ({path:?})")?,
                _ => {}
            }
            f.write_str(": ")?;
        }
        write!(f, "{}", self.cause)
    }
}

impl std::error::Error for ApplyError {}

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
    let engine = engine.into();
    if !engine.is_kube() {
        return patch::decode(payload).map_err(|e| ApplyError::from_payload(e, engine));
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
    let mut decoded = patch::decode_as(payload, Dialect::Go).map_err(|err| {
        // Go accepted the body; serde_json did not (a lone surrogate, a
        // nesting deeper than its limit).
        ApplyError {
            index: err.index(),
            op: None,
            path: None,
            cause: Cause::Unsupported(err),
            engine,
        }
    })?;
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
/// [`crate::strategy::merge::merge_patch`]), then the name and namespace
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
        crate::strategy::merge::apply(doc, &patch);
        return Ok(Vec::new());
    }
    if body.len() > MAX_BODY_BYTES {
        return Err(whole(Cause::BodyTooLarge { size: body.len() }));
    }
    let warnings = gojson::check_merge_patch(body).map_err(|e| whole(Cause::Decode(e)))?;
    let patch: Value = serde_json::from_str(body)
        .map_err(|e| whole(Cause::Unsupported(patch::syntax_error(&e))))?;
    if patch.is_null() {
        return Err(whole(Cause::NullMergePatch));
    }
    let (url_name, url_namespace) = identity(doc);
    let mut merged = doc.clone();
    crate::strategy::merge::merge_patch(&mut merged, &patch);
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

/// The loop behind [`apply`] and [`apply_decoded`]: `count` ops were sent,
/// `ops` are the well-formed ones before `malformed`.
fn run(
    doc: &mut Value,
    ops: &[Operation],
    count: usize,
    malformed: Option<&PayloadError>,
    engine: Engine,
) -> Result<(), ApplyError> {
    if engine.is_kube() {
        if count > MAX_OPS {
            return Err(ApplyError::whole(Cause::TooManyOps { count }, engine));
        }
        if !(doc.is_object() || doc.is_array()) {
            return Err(ApplyError::whole(Cause::DocumentNotContainer, engine));
        }
    }
    // The request's name and namespace: the object's own before the patch.
    let (url_name, url_namespace) = if engine.is_kube() {
        identity(doc)
    } else {
        (None, None)
    };
    let mut run = Run::new(engine, ops);
    for (index, op) in ops.iter().enumerate() {
        if let Err(cause) = run.step(doc, index, op) {
            run.rollback(doc, ops);
            return Err(ApplyError {
                index: Some(index),
                op: Some(op.op),
                path: Some(op.path.clone()),
                cause,
                engine,
            });
        }
    }
    if let Some(err) = malformed {
        run.rollback(doc, ops);
        return Err(ApplyError {
            index: err.index(),
            op: None,
            path: None,
            cause: Cause::Payload(err.clone()),
            engine,
        });
    }
    if engine.is_kube() {
        if let Err(cause) = check_identity(doc, url_name.as_deref(), url_namespace.as_deref()) {
            run.rollback(doc, ops);
            return Err(ApplyError::whole(cause, engine));
        }
    }
    Ok(())
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

/// Which location of an op an undo record refers to.
#[derive(Clone, Copy, Debug)]
enum Loc {
    Path,
    From,
}

/// What an op changed, so it can be put back.
#[derive(Debug)]
enum Undo {
    /// The whole document was replaced.
    Root(Value),
    /// An object member was set or removed; put back `old` (`None`: the
    /// member did not exist).
    Member {
        op: usize,
        loc: Loc,
        old: Option<Value>,
    },
    /// An array element was inserted at `index`.
    Inserted { op: usize, loc: Loc, index: usize },
    /// An array element was removed from `index`.
    Taken {
        op: usize,
        loc: Loc,
        index: usize,
        value: Value,
    },
    /// An array element at `index` was overwritten.
    Overwritten {
        op: usize,
        loc: Loc,
        index: usize,
        old: Value,
    },
}

/// A path split for walking, without allocating: the escaped tokens after
/// the leading `/`.
#[derive(Clone, Copy)]
enum Target<'p> {
    /// `""`: the whole document.
    Root,
    /// Escaped tokens joined by `/` (the path without its first segment).
    Tokens(&'p str),
}

impl<'p> Target<'p> {
    /// The tokens before the last one, and the last one (both escaped).
    fn split(rest: &'p str) -> (Option<&'p str>, &'p str) {
        match rest.rsplit_once('/') {
            Some((parent, last)) => (Some(parent), last),
            None => (None, rest),
        }
    }
}

/// Decodes an escaped token: `~1` to `/`, then `~0` to `~`. For RFC mode
/// the pointer was validated first; kube mode keeps bad escapes as written.
fn unescape(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

/// Marks under some node, relative to it.
type Marks = Vec<(Vec<Seg>, Mark)>;

/// Why a walk to an op's container stopped.
enum Walk {
    /// An error of the op.
    Fail(Cause),
    /// The container is evanphx's nil map: a `null` an earlier `copy` of
    /// this patch made from a null the patch added (see [`Mark`]).
    NilMap,
}

impl From<Cause> for Walk {
    fn from(cause: Cause) -> Walk {
        Walk::Fail(cause)
    }
}

/// Turns a walk into the op's error: at a nil map, `add`, `replace` and the
/// destination of `copy` and `move` assign to a nil map and panic.
fn assign(walk: Walk) -> Cause {
    match walk {
        Walk::Fail(cause) => cause,
        Walk::NilMap => Cause::EnginePanic {
            what: "assignment to entry in nil map (a null copied from a null the patch added)",
        },
    }
}

/// One apply: the engine, the undo log, the copy budget and, in kube mode,
/// the nulls this patch itself put in (evanphx holds them differently from
/// nulls read from the document: see [`Mark`]).
struct Run {
    engine: Engine,
    undo: Vec<Undo>,
    copied: usize,
    /// Track marks at all: some op adds or replaces with an explicit null.
    tracking: bool,
    marks: Marks,
}

impl Run {
    fn new(engine: Engine, ops: &[Operation]) -> Run {
        let tracking = engine.is_kube()
            && ops.iter().any(|op| {
                matches!(op.op, OpKind::Add | OpKind::Replace) && op.value == Some(Value::Null)
            });
        Run {
            engine,
            undo: Vec::new(),
            copied: 0,
            tracking,
            marks: Vec::new(),
        }
    }

    fn kube(&self) -> bool {
        self.engine.is_kube()
    }

    fn release(&self) -> Evanphx {
        self.engine.evanphx().unwrap_or_default()
    }

    fn target<'p>(&self, path: &'p str, field: &'static str) -> Result<Target<'p>, Cause> {
        if path.is_empty() {
            return Ok(Target::Root);
        }
        if self.kube() {
            // evanphx splits on '/' and ignores whatever precedes the first
            // one; a path without '/' addresses nothing.
            return match path.split_once('/') {
                Some((_, rest)) => Ok(Target::Tokens(rest)),
                None => Err(Cause::PathWithoutSlash {
                    in_from: field == "from",
                }),
            };
        }
        Pointer::parse(path).map_err(|error| Cause::InvalidPointer { field, error })?;
        Ok(Target::Tokens(&path[1..]))
    }

    // ------------------------------------------------------------- marks

    fn mark_at(&self, path: &[Seg]) -> Option<Mark> {
        self.marks
            .iter()
            .find(|(at, _)| at.as_slice() == path)
            .map(|(_, mark)| *mark)
    }

    /// Removes the marks at and under `path`; returns them relative to it.
    fn take_marks(&mut self, path: &[Seg]) -> Marks {
        if self.marks.is_empty() {
            return Vec::new();
        }
        let mut taken = Vec::new();
        self.marks.retain(|(at, mark)| {
            if at.starts_with(path) {
                taken.push((at[path.len()..].to_vec(), *mark));
                false
            } else {
                true
            }
        });
        taken
    }

    /// Shifts the marks in the array at `array` from `index` on by `delta`.
    fn shift_marks(&mut self, array: &[Seg], index: usize, delta: isize) {
        for (at, _) in &mut self.marks {
            if at.len() > array.len() && at.starts_with(array) {
                if let Seg::Index(i) = &mut at[array.len()] {
                    if *i >= index {
                        *i = i.saturating_add_signed(delta);
                    }
                }
            }
        }
    }

    /// Puts marks (relative to `path`) under `path`.
    fn graft(&mut self, path: &[Seg], marks: Marks) {
        for (rel, mark) in marks {
            let mut at = path.to_vec();
            at.extend(rel);
            self.marks.push((at, mark));
        }
    }

    /// The marks under `path`, relative to it (for comparing a subtree).
    fn marks_under(&self, path: &[Seg]) -> Marks {
        self.marks
            .iter()
            .filter(|(at, _)| at.starts_with(path))
            .map(|(at, mark)| (at[path.len()..].to_vec(), *mark))
            .collect()
    }

    // ------------------------------------------------------------- walking

    /// The container holding the last token, walking the tokens before it.
    /// `trail` receives the resolved segments (when tracking marks).
    fn parent<'d>(
        &self,
        doc: &'d mut Value,
        parent: Option<&str>,
        in_from: bool,
        trail: &mut Vec<Seg>,
    ) -> Result<&'d mut Value, Walk> {
        let mut current = doc;
        // `walked`: the escaped prefix of `parent` that leads to `current`.
        let mut walked = 0;
        if let Some(parent) = parent {
            let last = parent.len();
            for token in parent.split('/') {
                let end = walked + token.len() + usize::from(walked > 0);
                let at = |upto: usize, found: &'static str| Cause::MissingPath {
                    at: format!("/{}", &parent[..upto]),
                    found,
                    in_from,
                };
                let (next, seg) = match current {
                    Value::Object(map) => {
                        let key = unescape(token);
                        let seg = self.tracking.then(|| Seg::Key(key.clone().into_owned()));
                        match map.get_mut(key.as_ref()) {
                            Some(next) => (next, seg),
                            None => return Err(at(end, "absent").into()),
                        }
                    }
                    Value::Array(items) => {
                        let len = items.len();
                        let index = self
                            .existing_index(token, len)
                            .map_err(|_| at(end, "not an element of the array"))?;
                        (
                            &mut items[index],
                            self.tracking.then_some(Seg::Index(index)),
                        )
                    }
                    other => return Err(not_container(parent, walked, other, in_from).into()),
                };
                if let Some(seg) = seg {
                    trail.push(seg);
                }
                if next.is_null() && self.kube() {
                    let null = at(end, "null");
                    match self.mark_at(trail) {
                        // A null read from the document is a nil node.
                        None => return Err(null.into()),
                        // A null the patch put in has no bytes: v4.12.0 and
                        // v5.6.0 dereference them (isArray(*next.raw)).
                        Some(Mark::RawNull) if !self.release().nil_checks() => {
                            return Err(Cause::EnginePanic {
                                what: "walking through a null an earlier op of this patch added",
                            }
                            .into())
                        }
                        Some(Mark::RawNull) => return Err(null.into()),
                        // A copy of such a null decodes into a nil map: the
                        // op's container if it is the last step, a missing
                        // path otherwise.
                        Some(Mark::NullText) if end == last => return Err(Walk::NilMap),
                        Some(Mark::NullText) => {
                            let next_end =
                                parent[end + 1..].find('/').map_or(last, |i| end + 1 + i);
                            return Err(at(next_end, "absent").into());
                        }
                    }
                }
                current = next;
                walked = end;
            }
        }
        match current {
            Value::Object(_) | Value::Array(_) => Ok(current),
            other => Err(not_container(parent.unwrap_or(""), walked, other, in_from).into()),
        }
    }

    /// An index that must name an existing element (`remove`, `replace`,
    /// `test`, `from`, walking).
    fn existing_index(&self, token: &str, len: usize) -> Result<usize, Cause> {
        if self.kube() {
            let index = go_atoi(token).ok_or_else(|| Cause::BadIndex {
                token: token.to_owned(),
                reason: "not a decimal integer".to_owned(),
            })?;
            let resolved = if index < 0 { index + len as i64 } else { index };
            if resolved < 0 || resolved >= len as i64 {
                return Err(Cause::IndexOutOfBounds { index, len });
            }
            Ok(resolved as usize)
        } else {
            match pointer::parse_index(token) {
                Ok(Index::Num(index)) if index < len => Ok(index),
                Ok(Index::Num(index)) => Err(Cause::IndexOutOfBounds {
                    index: i64::try_from(index).unwrap_or(i64::MAX),
                    len,
                }),
                Ok(Index::Next) => Err(Cause::IndexOutOfBounds {
                    index: len as i64,
                    len,
                }),
                Err(err) => Err(Cause::BadIndex {
                    token: token.to_owned(),
                    reason: err.to_string(),
                }),
            }
        }
    }

    /// An index where an element may be inserted (`add`): `0..=len` or `-`.
    fn insert_index(&self, token: &str, len: usize) -> Result<usize, Cause> {
        if token == "-" {
            return Ok(len);
        }
        if self.kube() {
            let index = go_atoi(token).ok_or_else(|| Cause::BadIndex {
                token: token.to_owned(),
                reason: "not a proper array index".to_owned(),
            })?;
            let size = len as i64 + 1;
            let resolved = if index < 0 { index + size } else { index };
            if resolved < 0 || resolved >= size {
                return Err(Cause::IndexOutOfBounds { index, len });
            }
            Ok(resolved as usize)
        } else {
            match pointer::parse_index(token) {
                Ok(Index::Num(index)) if index <= len => Ok(index),
                Ok(Index::Num(index)) => Err(Cause::IndexOutOfBounds {
                    index: i64::try_from(index).unwrap_or(i64::MAX),
                    len,
                }),
                Ok(Index::Next) => Ok(len),
                Err(err) => Err(Cause::BadIndex {
                    token: token.to_owned(),
                    reason: err.to_string(),
                }),
            }
        }
    }

    // ------------------------------------------------------------- ops

    fn step(&mut self, doc: &mut Value, index: usize, op: &Operation) -> Result<(), Cause> {
        if !self.kube() && op.op.takes_value() && op.value.is_none() {
            return Err(Cause::MissingValue);
        }
        match op.op {
            OpKind::Add => {
                let value = op.value.clone().unwrap_or(Value::Null);
                let marks = explicit_null(op);
                self.add(doc, index, &op.path, value, marks)
            }
            OpKind::Remove => self
                .remove(doc, index, Loc::Path, &op.path, false)
                .map(drop),
            OpKind::Replace => self.replace(doc, index, op),
            OpKind::Test => self.test(doc, op),
            OpKind::Move => self.move_op(doc, index, op),
            OpKind::Copy => self.copy(doc, index, op),
        }
    }

    /// Adds `value` at `path`; `marks` are the marks the value carries
    /// (relative to it).
    fn add(
        &mut self,
        doc: &mut Value,
        index: usize,
        path: &str,
        value: Value,
        marks: Marks,
    ) -> Result<(), Cause> {
        let rest = match self.target(path, "path")? {
            Target::Root if self.kube() => return Err(Cause::WholeDocument),
            Target::Root => {
                let old = std::mem::replace(doc, value);
                self.undo.push(Undo::Root(old));
                return Ok(());
            }
            Target::Tokens(rest) => rest,
        };
        let (parent, key) = Target::split(rest);
        let mut trail = Vec::new();
        let container = self
            .parent(doc, parent, false, &mut trail)
            .map_err(assign)?;
        match container {
            Value::Object(map) => {
                let key = unescape(key).into_owned();
                let old = map.insert(key.clone(), value);
                self.undo.push(Undo::Member {
                    op: index,
                    loc: Loc::Path,
                    old,
                });
                if self.tracking {
                    trail.push(Seg::Key(key));
                    self.take_marks(&trail);
                    self.graft(&trail, marks);
                }
            }
            Value::Array(items) => {
                let at = self.insert_index(key, items.len())?;
                items.insert(at, value);
                self.undo.push(Undo::Inserted {
                    op: index,
                    loc: Loc::Path,
                    index: at,
                });
                if self.tracking {
                    self.shift_marks(&trail, at, 1);
                    trail.push(Seg::Index(at));
                    self.graft(&trail, marks);
                }
            }
            _ => return Err(Cause::WholeDocument),
        }
        Ok(())
    }

    /// Removes the value at `path`. The undo record owns it; a copy comes
    /// back (with its marks) when `keep` is set (for `move`), `null`
    /// otherwise.
    fn remove(
        &mut self,
        doc: &mut Value,
        index: usize,
        loc: Loc,
        path: &str,
        keep: bool,
    ) -> Result<(Value, Marks), Cause> {
        let in_from = matches!(loc, Loc::From);
        let field = if in_from { "from" } else { "path" };
        let rest = match self.target(path, field)? {
            Target::Root => return Err(Cause::WholeDocument),
            Target::Tokens(rest) => rest,
        };
        let (parent, key) = Target::split(rest);
        let mut trail = Vec::new();
        let container = match self.parent(doc, parent, in_from, &mut trail) {
            Ok(container) => container,
            // evanphx's nil map has no members to remove.
            Err(Walk::NilMap) => {
                return Err(Cause::MissingMember {
                    key: unescape(key).into_owned(),
                    in_from,
                })
            }
            Err(Walk::Fail(cause)) => return Err(cause),
        };
        let mut shift = None;
        let record = match container {
            Value::Object(map) => {
                let key = unescape(key);
                let Some(value) = map.remove(key.as_ref()) else {
                    return Err(Cause::MissingMember {
                        key: key.into_owned(),
                        in_from,
                    });
                };
                if self.tracking {
                    trail.push(Seg::Key(key.into_owned()));
                }
                Undo::Member {
                    op: index,
                    loc,
                    old: Some(value),
                }
            }
            Value::Array(items) => {
                let at = self.existing_index(key, items.len())?;
                if self.tracking {
                    shift = Some((trail.clone(), at));
                    trail.push(Seg::Index(at));
                }
                Undo::Taken {
                    op: index,
                    loc,
                    index: at,
                    value: items.remove(at),
                }
            }
            _ => return Err(Cause::WholeDocument),
        };
        let marks = if self.tracking {
            self.take_marks(&trail)
        } else {
            Vec::new()
        };
        if let Some((array, at)) = shift {
            self.shift_marks(&array, at + 1, -1);
        }
        let copy = match &record {
            Undo::Member {
                old: Some(value), ..
            }
            | Undo::Taken { value, .. }
                if keep =>
            {
                value.clone()
            }
            _ => Value::Null,
        };
        self.undo.push(record);
        Ok((copy, marks))
    }

    fn replace(&mut self, doc: &mut Value, index: usize, op: &Operation) -> Result<(), Cause> {
        let rest = match self.target(&op.path, "path")? {
            Target::Root => {
                if self.kube() {
                    if !self.release().whole_document() {
                        // v5.6.0: findObject("") finds nothing.
                        return Err(Cause::WholeDocument);
                    }
                    // v4: a missing value dereferences nil; a value that is
                    // neither object nor array is silently ignored (v4.12.0,
                    // `errors.Wrapf(nil, ...)` is nil) or refused (v4.13.0).
                    let Some(value) = &op.value else {
                        return Err(Cause::EnginePanic {
                            what: "replace of the whole document without a value",
                        });
                    };
                    if !(value.is_object() || value.is_array()) {
                        if self.release().refuses_scalar_root() {
                            return Err(Cause::ScalarRoot);
                        }
                        return Ok(());
                    }
                    self.marks.clear();
                }
                let value = op.value.clone().unwrap_or(Value::Null);
                let old = std::mem::replace(doc, value);
                self.undo.push(Undo::Root(old));
                return Ok(());
            }
            Target::Tokens(rest) => rest,
        };
        let (parent, key) = Target::split(rest);
        let kube = self.kube();
        let mut trail = Vec::new();
        let container = self
            .parent(doc, parent, false, &mut trail)
            .map_err(assign)?;
        let record = match container {
            Value::Object(map) => {
                let key = unescape(key);
                let record = match map.get_mut(key.as_ref()) {
                    Some(slot) => Undo::Member {
                        op: index,
                        loc: Loc::Path,
                        old: Some(std::mem::replace(slot, value_of(op))),
                    },
                    // v4 only: replacing a missing member adds it.
                    None if kube => {
                        map.insert(key.clone().into_owned(), value_of(op));
                        Undo::Member {
                            op: index,
                            loc: Loc::Path,
                            old: None,
                        }
                    }
                    None => {
                        return Err(Cause::MissingMember {
                            key: key.into_owned(),
                            in_from: false,
                        })
                    }
                };
                if self.tracking {
                    trail.push(Seg::Key(key.into_owned()));
                }
                record
            }
            Value::Array(items) => {
                let at = self.existing_index(key, items.len())?;
                if self.tracking {
                    trail.push(Seg::Index(at));
                }
                Undo::Overwritten {
                    op: index,
                    loc: Loc::Path,
                    index: at,
                    old: std::mem::replace(&mut items[at], value_of(op)),
                }
            }
            _ => return Err(Cause::WholeDocument),
        };
        self.undo.push(record);
        if self.tracking {
            self.take_marks(&trail);
            self.graft(&trail, explicit_null(op));
        }
        Ok(())
    }

    /// The value at `rest` for reading (`test`, `copy`): `Ok(None)` when an
    /// object member is absent (or, in evanphx's nil map, always). `trail`
    /// receives the target's resolved segments when tracking marks.
    fn read<'d>(
        &self,
        doc: &'d mut Value,
        rest: &str,
        in_from: bool,
        trail: &mut Vec<Seg>,
    ) -> Result<Option<&'d Value>, Cause> {
        let (parent, key) = Target::split(rest);
        let container = match self.parent(doc, parent, in_from, trail) {
            Ok(container) => container,
            Err(Walk::NilMap) => return Ok(None),
            Err(Walk::Fail(cause)) => return Err(cause),
        };
        match container {
            Value::Object(map) => {
                let key = unescape(key);
                if self.tracking {
                    trail.push(Seg::Key(key.clone().into_owned()));
                }
                Ok(map.get(key.as_ref()))
            }
            Value::Array(items) => {
                let at = self.existing_index(key, items.len())?;
                if self.tracking {
                    trail.push(Seg::Index(at));
                }
                Ok(items.get(at))
            }
            _ => Err(Cause::WholeDocument),
        }
    }

    fn test(&mut self, doc: &mut Value, op: &Operation) -> Result<(), Cause> {
        let failed = |actual: Option<&Value>| Cause::TestFailed {
            expected: Box::new(op.value.clone().unwrap_or(Value::Null)),
            actual: actual.map(|v| Box::new(v.clone())),
        };
        let target = self.target(&op.path, "path")?;
        if matches!(target, Target::Root) && self.kube() && !self.release().whole_document() {
            // v5.6.0: findObject("") finds nothing.
            return Err(Cause::WholeDocument);
        }
        let mut trail = Vec::new();
        let actual = match target {
            Target::Root => Some(&*doc),
            Target::Tokens(rest) => self.read(doc, rest, false, &mut trail)?,
        };
        if !self.kube() {
            let Some(actual) = actual else {
                return Err(failed(None));
            };
            let expected = op.value.as_ref().unwrap_or(&Value::Null);
            return if rfc_eq(actual, expected) {
                Ok(())
            } else {
                Err(failed(Some(actual)))
            };
        }
        if matches!(target, Target::Root) && op.value.is_none() {
            return Err(Cause::EnginePanic {
                what: "test of the whole document without a value",
            });
        }
        let mark = match (actual, matches!(target, Target::Root)) {
            (Some(Value::Null), false) if self.tracking => self.mark_at(&trail),
            _ => None,
        };
        if let Some(mark) = mark {
            // A null this patch put in is a node, not nil: a test without a
            // value fails; a test of `null` passes on the raw null; the
            // copy of one reads as an empty object.
            let Some(sent) = sent_bytes(op) else {
                return Err(failed(actual));
            };
            let equal = match mark {
                Mark::RawNull => sent.trim() == "null",
                Mark::NullText => {
                    kube_compare(&Value::Object(Default::default()), &sent) == KubeCmp::Equal
                }
            };
            return if equal { Ok(()) } else { Err(failed(actual)) };
        }
        // evanphx reads a missing member and a null member alike (nil).
        let Some(stored) = actual.filter(|v| !v.is_null()) else {
            return match &op.value {
                None if self.release().nil_checks() => Ok(()),
                None => Err(Cause::EnginePanic {
                    what: "test of a missing or null member without a value",
                }),
                Some(Value::Null) => Ok(()),
                Some(_) => Err(failed(None)),
            };
        };
        let Some(sent) = sent_bytes(op) else {
            return Err(failed(Some(stored)));
        };
        let verdict = if self.marks.is_empty() {
            kube_compare(stored, &sent)
        } else {
            compare_marked(stored, &sent, &self.marks_under(&trail))
        };
        match verdict {
            KubeCmp::Equal => Ok(()),
            KubeCmp::NotEqual => Err(failed(Some(stored))),
            KubeCmp::Panic => Err(Cause::EnginePanic {
                what: "comparing arrays that hold null",
            }),
        }
    }

    /// Reads the value at `from` for `copy` (kube: a missing member reads
    /// as `null`); also whether it is a null this patch put in.
    fn read_from(&self, doc: &mut Value, from: &str) -> Result<(Value, bool), Cause> {
        let rest = match self.target(from, "from")? {
            Target::Root if self.kube() => return Err(Cause::WholeDocument),
            Target::Root => return Ok((doc.clone(), false)),
            Target::Tokens(rest) => rest,
        };
        let mut trail = Vec::new();
        match self.read(doc, rest, true, &mut trail)? {
            Some(value) => {
                let marked = value.is_null() && self.tracking && self.mark_at(&trail).is_some();
                Ok((value.clone(), marked))
            }
            None if self.kube() => Ok((Value::Null, false)),
            None => Err(Cause::MissingMember {
                key: unescape(Target::split(rest).1).into_owned(),
                in_from: true,
            }),
        }
    }

    fn move_op(&mut self, doc: &mut Value, index: usize, op: &Operation) -> Result<(), Cause> {
        let from = op.from.as_deref().unwrap_or_default();
        if !self.kube() {
            let to = Pointer::parse(&op.path).map_err(|error| Cause::InvalidPointer {
                field: "path",
                error,
            })?;
            let source = Pointer::parse(from).map_err(|error| Cause::InvalidPointer {
                field: "from",
                error,
            })?;
            if source == to {
                // Nothing moves, but the source must exist.
                self.read_from(doc, from)?;
                return Ok(());
            }
            if to.starts_with(source) {
                return Err(Cause::MoveIntoChild);
            }
        }
        let (value, marks) = self.remove(doc, index, Loc::From, from, true)?;
        self.add(doc, index, &op.path, value, marks)
    }

    fn copy(&mut self, doc: &mut Value, index: usize, op: &Operation) -> Result<(), Cause> {
        let from = op.from.as_deref().unwrap_or_default();
        let (value, marked) = self.read_from(doc, from)?;
        let mut marks = Vec::new();
        if self.kube() {
            // evanphx resolves the destination before it sizes the copy.
            if let Target::Tokens(rest) = self.target(&op.path, "path")? {
                self.parent(doc, Target::split(rest).0, false, &mut Vec::new())
                    .map(drop)
                    .or_else(|walk| match walk {
                        // The nil map is found; the assignment comes later.
                        Walk::NilMap => Ok(()),
                        Walk::Fail(cause) => Err(cause),
                    })?;
            }
            if marked {
                // A null the patch put in marshals to `null`: 4 bytes, and a
                // node with those bytes.
                self.copied += 4;
                marks.push((Vec::new(), Mark::NullText));
            } else if !value.is_null() {
                self.copied += gojson::to_string(&value).len();
            }
            if self.copied > COPY_LIMIT {
                return Err(Cause::CopyLimit { size: self.copied });
            }
        } else {
            // A budget, not RFC semantics: each copy may double the document.
            self.copied += serde_json::to_string(&value).map_or(0, |text| text.len());
            if self.copied > COPY_LIMIT {
                return Err(Cause::CopyBudget { size: self.copied });
            }
        }
        self.add(doc, index, &op.path, value, marks)
    }

    /// Puts the document back as it was before the first op, undoing the
    /// records in reverse.
    fn rollback(&mut self, doc: &mut Value, ops: &[Operation]) {
        while let Some(record) = self.undo.pop() {
            let restored = self.undo_one(doc, ops, record);
            debug_assert!(restored, "undo record did not resolve");
        }
    }

    fn undo_one(&self, doc: &mut Value, ops: &[Operation], record: Undo) -> bool {
        let (op, loc) = match &record {
            Undo::Root(_) => (0, Loc::Path),
            Undo::Member { op, loc, .. }
            | Undo::Inserted { op, loc, .. }
            | Undo::Taken { op, loc, .. }
            | Undo::Overwritten { op, loc, .. } => (*op, *loc),
        };
        if let Undo::Root(old) = record {
            *doc = old;
            return true;
        }
        let Some(operation) = ops.get(op) else {
            return false;
        };
        let (path, field) = match loc {
            Loc::Path => (operation.path.as_str(), "path"),
            Loc::From => (operation.from.as_deref().unwrap_or_default(), "from"),
        };
        let Ok(Target::Tokens(rest)) = self.target(path, field) else {
            return false;
        };
        let (parent, key) = Target::split(rest);
        // Undo walks plain values: no marks matter any more.
        let plain = Run {
            engine: self.engine,
            undo: Vec::new(),
            copied: 0,
            tracking: false,
            marks: Vec::new(),
        };
        let Ok(container) = plain.parent_plain(doc, parent) else {
            return false;
        };
        match (container, record) {
            (Value::Object(map), Undo::Member { old: Some(old), .. }) => {
                map.insert(unescape(key).into_owned(), old);
            }
            (Value::Object(map), Undo::Member { old: None, .. }) => {
                map.remove(unescape(key).as_ref());
            }
            (Value::Array(items), Undo::Inserted { index, .. }) if index < items.len() => {
                items.remove(index);
            }
            (Value::Array(items), Undo::Taken { index, value, .. }) if index <= items.len() => {
                items.insert(index, value);
            }
            (Value::Array(items), Undo::Overwritten { index, old, .. }) if index < items.len() => {
                items[index] = old;
            }
            _ => return false,
        }
        true
    }

    /// [`Run::parent`] without marks or trail.
    fn parent_plain<'d>(
        &self,
        doc: &'d mut Value,
        parent: Option<&str>,
    ) -> Result<&'d mut Value, Walk> {
        self.parent(doc, parent, false, &mut Vec::new())
    }
}

/// The marks an `add` or `replace` value carries: a mark at the value
/// itself when the op sent an explicit `null`.
fn explicit_null(op: &Operation) -> Marks {
    if op.value == Some(Value::Null) {
        vec![(Vec::new(), Mark::RawNull)]
    } else {
        Vec::new()
    }
}

/// The bytes a `test` op sent: as received, or as KubeVirt's builder would
/// encode the value (Go's encoding).
fn sent_bytes(op: &Operation) -> Option<Cow<'_, str>> {
    let value = op.value.as_ref()?;
    Some(match op.raw_value() {
        Some(raw) => Cow::Borrowed(raw),
        None => Cow::Owned(gojson::to_string(value)),
    })
}

fn value_of(op: &Operation) -> Value {
    op.value.clone().unwrap_or(Value::Null)
}

/// A walk reached `value`, which cannot hold members: after the tokens of
/// `parent` up to byte `upto` (the document itself when `upto` is 0).
fn not_container(parent: &str, upto: usize, value: &Value, in_from: bool) -> Cause {
    Cause::MissingPath {
        at: if upto == 0 {
            String::new()
        } else {
            format!("/{}", &parent[..upto])
        },
        found: describe(value),
        in_from,
    }
}

/// `null`, `a boolean`, `a number`, `a string`, `an array` or `an object`.
pub(crate) fn describe(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// Go's `strconv.Atoi`: an optional sign, then decimal digits (leading
/// zeros allowed), within `i64`.
fn go_atoi(token: &str) -> Option<i64> {
    let digits = token
        .strip_prefix('+')
        .or_else(|| token.strip_prefix('-'))
        .unwrap_or(token);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    token.parse::<i64>().ok()
}

#[cfg(test)]
mod tests;
