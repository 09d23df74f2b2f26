//! The apply engine: runs a JSON Patch on a document under strict RFC 6902
//! semantics or as kube-apiserver does (the evanphx/json-patch v4 engine).
//!
//! Both modes run the ops in order and are atomic: when an op fails, the
//! document is restored exactly (an undo log, not a copy) and the error
//! names the op index, the op, its path and the cause. In kube mode the
//! error also carries the HTTP response a real server would send, which
//! hides the cause behind a generic 422.
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

mod compare;
pub mod text;

use std::borrow::Cow;
use std::fmt;
use std::str::FromStr;

use serde_json::Value;

pub use compare::{kube_compare, rfc_eq, KubeCmp};

use crate::gojson;
use crate::patch::{self, OpKind, Operation, PayloadError};
use crate::pointer::{self, Index, Pointer};

/// Which engine's rules to follow.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Semantics {
    /// Strict RFC 6902.
    Rfc,
    /// kube-apiserver (evanphx/json-patch v4): `replace` of a missing member
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
/// the engine's own error text is dropped.
pub const GENERIC_422: &str = "the server rejected our request due to an error in our request";

/// An HTTP response as kube-apiserver would send it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ServerResponse {
    /// HTTP status code.
    pub code: u16,
    /// The `reason` of the Status object (`Invalid`, `Conflict`, ...).
    pub reason: &'static str,
    /// The `message` of the Status object.
    pub message: String,
}

impl ServerResponse {
    /// 422 with the generic message: any op of a JSON patch failed.
    pub fn invalid() -> ServerResponse {
        ServerResponse {
            code: 422,
            reason: "Invalid",
            message: GENERIC_422.to_owned(),
        }
    }

    /// 400: the body is not a JSON patch.
    pub fn bad_request(message: impl Into<String>) -> ServerResponse {
        ServerResponse {
            code: 400,
            reason: "BadRequest",
            message: message.into(),
        }
    }

    /// 413: too many operations.
    pub fn too_large(count: usize) -> ServerResponse {
        ServerResponse {
            code: 413,
            reason: "RequestEntityTooLarge",
            message: format!(
                "The allowed maximum operations in a JSON patch is {MAX_OPS}, got {count}"
            ),
        }
    }

    /// 500: the Go engine panicked; the server's panic recovery answers.
    pub fn internal() -> ServerResponse {
        ServerResponse {
            code: 500,
            reason: "InternalError",
            message: "This request caused apiserver to panic. Look in the logs for details."
                .to_owned(),
        }
    }
}

impl fmt::Display for ServerResponse {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "HTTP {} {}: {}", self.code, self.reason, self.message)
    }
}

/// Why an op (or the whole patch) failed.
#[derive(Clone, Debug, PartialEq)]
pub enum Cause {
    /// The payload is not a list of ops, or one op is malformed.
    Payload(PayloadError),
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
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cause::Payload(err) => write!(f, "{err}"),
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
    pub semantics: Semantics,
}

impl ApplyError {
    fn whole(cause: Cause, semantics: Semantics) -> ApplyError {
        ApplyError {
            index: None,
            op: None,
            path: None,
            cause,
            semantics,
        }
    }

    /// A payload that could not be decoded at all (see [`patch::decode`]).
    pub fn from_payload(err: PayloadError, semantics: Semantics) -> ApplyError {
        ApplyError {
            index: err.index(),
            op: None,
            path: None,
            cause: Cause::Payload(err),
            semantics,
        }
    }

    /// What kube-apiserver answers; `None` in RFC mode.
    pub fn response(&self) -> Option<ServerResponse> {
        if self.semantics != Semantics::Kube {
            return None;
        }
        Some(match &self.cause {
            Cause::Payload(err) if err.is_body_error() => {
                ServerResponse::bad_request(go_decode_message(err))
            }
            Cause::TooManyOps { count } => ServerResponse::too_large(*count),
            Cause::EnginePanic { .. } => ServerResponse::internal(),
            _ => ServerResponse::invalid(),
        })
    }
}

/// The message Go's decoder gives for a body that is not a list of ops.
fn go_decode_message(err: &PayloadError) -> String {
    match err {
        PayloadError::NotAnArray { found } => {
            let kind = found.trim_start_matches("an ").trim_start_matches("a ");
            format!("json: cannot unmarshal {kind} into Go value of type jsonpatch.Patch")
        }
        PayloadError::Op { .. } => {
            "json: cannot unmarshal a non-object into Go value of type jsonpatch.Operation"
                .to_owned()
        }
        PayloadError::Syntax { message, .. } => message.clone(),
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
pub fn apply(doc: &mut Value, ops: &[Operation], semantics: Semantics) -> Result<(), ApplyError> {
    run(doc, ops, ops.len(), None, semantics)
}

/// Decodes a payload and applies it as the server would: a body that is not
/// a list of ops is refused before anything runs (400 in kube mode), then
/// the op count is checked (413), then the ops run in order; a malformed op
/// fails when its turn comes (422).
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
/// ```
pub fn apply_payload(
    doc: &mut Value,
    payload: &str,
    semantics: Semantics,
) -> Result<(), ApplyError> {
    let decoded = patch::decode(payload).map_err(|e| ApplyError::from_payload(e, semantics))?;
    apply_decoded(doc, &decoded, semantics)
}

/// Applies an already decoded payload (see [`apply_payload`]).
///
/// # Errors
///
/// [`ApplyError`]; `doc` is then unchanged.
pub fn apply_decoded(
    doc: &mut Value,
    decoded: &patch::Decoded,
    semantics: Semantics,
) -> Result<(), ApplyError> {
    run(
        doc,
        &decoded.ops,
        decoded.count,
        decoded.malformed.as_ref(),
        semantics,
    )
}

/// The loop behind [`apply`] and [`apply_decoded`]: `count` ops were sent,
/// `ops` are the well-formed ones before `malformed`.
fn run(
    doc: &mut Value,
    ops: &[Operation],
    count: usize,
    malformed: Option<&PayloadError>,
    semantics: Semantics,
) -> Result<(), ApplyError> {
    if semantics == Semantics::Kube {
        if count > MAX_OPS {
            return Err(ApplyError::whole(Cause::TooManyOps { count }, semantics));
        }
        if !(doc.is_object() || doc.is_array()) {
            return Err(ApplyError::whole(Cause::DocumentNotContainer, semantics));
        }
    }
    let mut engine = Engine::new(semantics);
    for (index, op) in ops.iter().enumerate() {
        if let Err(cause) = engine.step(doc, index, op) {
            engine.rollback(doc, ops);
            return Err(ApplyError {
                index: Some(index),
                op: Some(op.op),
                path: Some(op.path.clone()),
                cause,
                semantics,
            });
        }
    }
    if let Some(err) = malformed {
        engine.rollback(doc, ops);
        return Err(ApplyError {
            index: err.index(),
            op: None,
            path: None,
            cause: Cause::Payload(err.clone()),
            semantics,
        });
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
fn decode(token: &str) -> Cow<'_, str> {
    if token.contains('~') {
        Cow::Owned(token.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(token)
    }
}

struct Engine {
    semantics: Semantics,
    undo: Vec<Undo>,
    copied: usize,
}

impl Engine {
    fn new(semantics: Semantics) -> Engine {
        Engine {
            semantics,
            undo: Vec::new(),
            copied: 0,
        }
    }

    fn kube(&self) -> bool {
        self.semantics == Semantics::Kube
    }

    fn target<'p>(&self, path: &'p str, field: &'static str) -> Result<Target<'p>, Cause> {
        if path.is_empty() {
            return Ok(Target::Root);
        }
        if self.kube() {
            // v4 splits on '/' and ignores whatever precedes the first one;
            // a path without '/' addresses nothing.
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

    /// The container holding the last token, walking the tokens before it.
    fn parent<'d>(
        &self,
        doc: &'d mut Value,
        parent: Option<&str>,
        in_from: bool,
    ) -> Result<&'d mut Value, Cause> {
        let mut current = doc;
        // `walked`: the escaped prefix of `parent` that leads to `current`.
        let mut walked = 0;
        if let Some(parent) = parent {
            for token in parent.split('/') {
                let end = walked + token.len() + usize::from(walked > 0);
                let at = |upto: usize, found: &'static str| Cause::MissingPath {
                    at: format!("/{}", &parent[..upto]),
                    found,
                    in_from,
                };
                current = match current {
                    Value::Object(map) => match map.get_mut(decode(token).as_ref()) {
                        Some(Value::Null) if self.kube() => return Err(at(end, "null")),
                        Some(next) => next,
                        None => return Err(at(end, "absent")),
                    },
                    Value::Array(items) => {
                        let len = items.len();
                        let index = self
                            .existing_index(token, len)
                            .map_err(|_| at(end, "not an element of the array"))?;
                        &mut items[index]
                    }
                    other => return Err(not_container(parent, walked, other, in_from)),
                };
                walked = end;
            }
        }
        match current {
            Value::Object(_) | Value::Array(_) => Ok(current),
            other => Err(not_container(parent.unwrap_or(""), walked, other, in_from)),
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

    fn step(&mut self, doc: &mut Value, index: usize, op: &Operation) -> Result<(), Cause> {
        if !self.kube() && op.op.takes_value() && op.value.is_none() {
            return Err(Cause::MissingValue);
        }
        match op.op {
            OpKind::Add => {
                let value = op.value.clone().unwrap_or(Value::Null);
                self.add(doc, index, &op.path, value)
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

    fn add(
        &mut self,
        doc: &mut Value,
        index: usize,
        path: &str,
        value: Value,
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
        match self.parent(doc, parent, false)? {
            Value::Object(map) => {
                let old = map.insert(decode(key).into_owned(), value);
                self.undo.push(Undo::Member {
                    op: index,
                    loc: Loc::Path,
                    old,
                });
            }
            Value::Array(items) => {
                let at = self.insert_index(key, items.len())?;
                items.insert(at, value);
                self.undo.push(Undo::Inserted {
                    op: index,
                    loc: Loc::Path,
                    index: at,
                });
            }
            _ => return Err(Cause::WholeDocument),
        }
        Ok(())
    }

    /// Removes the value at `path`. The undo record owns it; a copy comes
    /// back when `keep` is set (for `move`), `null` otherwise.
    fn remove(
        &mut self,
        doc: &mut Value,
        index: usize,
        loc: Loc,
        path: &str,
        keep: bool,
    ) -> Result<Value, Cause> {
        let in_from = matches!(loc, Loc::From);
        let field = if in_from { "from" } else { "path" };
        let rest = match self.target(path, field)? {
            Target::Root => return Err(Cause::WholeDocument),
            Target::Tokens(rest) => rest,
        };
        let (parent, key) = Target::split(rest);
        let record = match self.parent(doc, parent, in_from)? {
            Value::Object(map) => {
                let key = decode(key);
                let Some(value) = map.remove(key.as_ref()) else {
                    return Err(Cause::MissingMember {
                        key: key.into_owned(),
                        in_from,
                    });
                };
                Undo::Member {
                    op: index,
                    loc,
                    old: Some(value),
                }
            }
            Value::Array(items) => {
                let at = self.existing_index(key, items.len())?;
                Undo::Taken {
                    op: index,
                    loc,
                    index: at,
                    value: items.remove(at),
                }
            }
            _ => return Err(Cause::WholeDocument),
        };
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
        Ok(copy)
    }

    fn replace(&mut self, doc: &mut Value, index: usize, op: &Operation) -> Result<(), Cause> {
        let rest = match self.target(&op.path, "path")? {
            Target::Root => {
                if self.kube() {
                    // v4: a missing value dereferences nil; a value that is
                    // neither object nor array is silently ignored.
                    let Some(value) = &op.value else {
                        return Err(Cause::EnginePanic {
                            what: "replace of the whole document without a value",
                        });
                    };
                    if !(value.is_object() || value.is_array()) {
                        return Ok(());
                    }
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
        let record = match self.parent(doc, parent, false)? {
            Value::Object(map) => {
                let key = decode(key);
                match map.get_mut(key.as_ref()) {
                    Some(slot) => Undo::Member {
                        op: index,
                        loc: Loc::Path,
                        old: Some(std::mem::replace(slot, value_of(op))),
                    },
                    // v4 only: replacing a missing member adds it.
                    None if kube => {
                        map.insert(key.into_owned(), value_of(op));
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
                }
            }
            Value::Array(items) => {
                let at = self.existing_index(key, items.len())?;
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
        Ok(())
    }

    /// The value at `rest` for reading (`test`, `copy`): `Ok(None)` when an
    /// object member is absent.
    fn read<'d>(
        &self,
        doc: &'d mut Value,
        rest: &str,
        in_from: bool,
    ) -> Result<Option<&'d Value>, Cause> {
        let (parent, key) = Target::split(rest);
        match self.parent(doc, parent, in_from)? {
            Value::Object(map) => Ok(map.get(decode(key).as_ref())),
            Value::Array(items) => {
                let at = self.existing_index(key, items.len())?;
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
        let actual = match target {
            Target::Root => Some(&*doc),
            Target::Tokens(rest) => self.read(doc, rest, false)?,
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
        // v4 reads a missing member and a null member alike.
        let Some(stored) = actual.filter(|v| !v.is_null()) else {
            return match &op.value {
                None => Err(Cause::EnginePanic {
                    what: "test of a missing or null member without a value",
                }),
                Some(Value::Null) => Ok(()),
                Some(_) => Err(failed(None)),
            };
        };
        let Some(value) = &op.value else {
            return Err(failed(Some(stored)));
        };
        let sent: Cow<'_, str> = match op.raw_value() {
            Some(raw) => Cow::Borrowed(raw),
            None => Cow::Owned(gojson::to_string(value)),
        };
        match kube_compare(stored, &sent) {
            KubeCmp::Equal => Ok(()),
            KubeCmp::NotEqual => Err(failed(Some(stored))),
            KubeCmp::Panic => Err(Cause::EnginePanic {
                what: "comparing arrays that hold null",
            }),
        }
    }

    /// Reads the value at `from` for `copy` (kube: a missing member reads
    /// as `null`).
    fn read_from(&self, doc: &mut Value, from: &str) -> Result<Value, Cause> {
        let rest = match self.target(from, "from")? {
            Target::Root if self.kube() => return Err(Cause::WholeDocument),
            Target::Root => return Ok(doc.clone()),
            Target::Tokens(rest) => rest,
        };
        match self.read(doc, rest, true)? {
            Some(value) => Ok(value.clone()),
            None if self.kube() => Ok(Value::Null),
            None => Err(Cause::MissingMember {
                key: decode(Target::split(rest).1).into_owned(),
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
        let value = self.remove(doc, index, Loc::From, from, true)?;
        self.add(doc, index, &op.path, value)
    }

    fn copy(&mut self, doc: &mut Value, index: usize, op: &Operation) -> Result<(), Cause> {
        let from = op.from.as_deref().unwrap_or_default();
        let value = self.read_from(doc, from)?;
        if self.kube() {
            // v4 resolves the destination before it sizes the copy.
            if let Target::Tokens(rest) = self.target(&op.path, "path")? {
                self.parent(doc, Target::split(rest).0, false)?;
            }
            if !value.is_null() {
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
        self.add(doc, index, &op.path, value)
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
        let Ok(container) = self.parent(doc, parent, false) else {
            return false;
        };
        match (container, record) {
            (Value::Object(map), Undo::Member { old: Some(old), .. }) => {
                map.insert(decode(key).into_owned(), old);
            }
            (Value::Object(map), Undo::Member { old: None, .. }) => {
                map.remove(decode(key).as_ref());
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
