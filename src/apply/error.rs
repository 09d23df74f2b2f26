//! Why a patch failed: the [`Cause`] of one op (or of the whole body),
//! wrapped with where it happened ([`ApplyError`]), and the one serde shape
//! of both ([`ErrorReport`]).

use std::fmt;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;

use super::compare::ByteDifference;
use super::Engine;
use crate::gojson::DecodeError;
use crate::limits::{COPY_LIMIT, MAX_BODY_BYTES, MAX_OPS};
use crate::patch::{OpKind, PayloadError};
use crate::pointer;
use crate::status::Status;

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
        /// When the two are one value and only bytes differ (the server
        /// compares scalars as bytes): the bytes compared.
        bytes: Option<Box<ByteDifference>>,
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
    /// A strategic merge patch failed (see [`super::strategic::Error`]).
    Strategic(Box<super::strategic::Error>),
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
            Cause::Strategic(err) => err.kind_name(),
            _ => "apply-failed",
        }
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // A table: each cause's message.
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
            Cause::TooManyOps { count } => write!(
                f,
                "{count} operations, more than the server's limit of {MAX_OPS}"
            ),
            Cause::DocumentNotContainer => {
                f.write_str("the document must be a JSON object or array")
            }
            Cause::TestFailed {
                expected,
                actual,
                bytes,
            } => test_failed(f, expected, actual.as_deref(), bytes.as_deref()),
            Cause::PathWithoutSlash { in_from } => {
                let which = if *in_from { "from" } else { "path" };
                write!(f, "{which} holds no '/', so it addresses nothing")
            }
            Cause::MissingPath { at, found, in_from } => {
                let which = if *in_from { "from" } else { "path" };
                let at = if at.is_empty() { "the document" } else { at };
                write!(f, "{which} does not exist: {at} is {found}")
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
            Cause::Strategic(err) if err.path.is_empty() => write!(f, "{err}"),
            Cause::Strategic(err) => write!(f, "at {}: {err}", err.path),
        }
    }
}

fn compact(value: &Value) -> String {
    crate::text::elide_value(value, 200)
}

/// [`Cause::TestFailed`]'s message: the bytes compared when only they
/// differ, else both values.
fn test_failed(
    f: &mut fmt::Formatter<'_>,
    expected: &Value,
    actual: Option<&Value>,
    bytes: Option<&ByteDifference>,
) -> fmt::Result {
    if let Some(bytes) = bytes {
        f.write_str("test failed: the bytes differ")?;
        if !bytes.at.is_empty() {
            write!(f, " at {}", bytes.at)?;
        }
        return write!(
            f,
            ": sent {}, the server stores {} (one value, but the server compares scalars as bytes, the stored side in Go's encoding)",
            crate::text::elide(&bytes.sent, 200),
            crate::text::elide(&bytes.stored, 200)
        );
    }
    write!(f, "test failed: expected {}", compact(expected))?;
    match actual {
        // The stored side as the server holds it (`-0` is 0).
        Some(actual) => write!(f, ", found {}", compact(&crate::gojson::stored(actual))),
        None => f.write_str(", found nothing (the member is absent)"),
    }
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
    pub(super) fn whole(cause: Cause, engine: Engine) -> ApplyError {
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
            Cause::Strategic(err) => return err.status(),
            _ => Status::json_patch_failed(),
        })
    }

    /// The one serde shape of a failed patch, shared by the CLI (`apply
    /// --batch`), the JS API (`PatchlabError`'s properties) and the
    /// simulator (a response's hidden cause).
    pub fn report(&self) -> ErrorReport {
        let (expected, actual) = match &self.cause {
            Cause::TestFailed {
                expected, actual, ..
            } => (
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
