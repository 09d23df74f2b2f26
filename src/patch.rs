//! JSON Patch operations and a patch builder compatible with KubeVirt's
//! `pkg/apimachinery/patch`.
//!
//! KubeVirt builds patches from functional options:
//!
//! ```go
//! patch.New(
//!     patch.WithTest("/metadata/finalizers", oldFinalizers),
//!     patch.WithReplace("/metadata/finalizers", newFinalizers),
//! ).GeneratePayload()
//! ```
//!
//! The same here, as option values or as chained methods; the payload is
//! byte for byte what the Go builder sends:
//!
//! ```
//! use patchlab::patch::{with_replace, with_test, PatchSet};
//! use serde_json::json;
//!
//! let old = json!(["kubevirt.io/virtualMachineControllerFinalize"]);
//! let new = json!([]);
//! let payload = PatchSet::of([
//!     with_test("/metadata/finalizers", old.clone()),
//!     with_replace("/metadata/finalizers", new.clone()),
//! ])
//! .payload()
//! .unwrap();
//! assert_eq!(
//!     payload,
//!     r#"[{"op":"test","path":"/metadata/finalizers","value":["kubevirt.io/virtualMachineControllerFinalize"]},{"op":"replace","path":"/metadata/finalizers","value":[]}]"#
//! );
//!
//! // Chained, and the GenerateTestReplacePatch shortcut, give the same bytes.
//! let chained = PatchSet::new()
//!     .test("/metadata/finalizers", old.clone())
//!     .replace("/metadata/finalizers", new.clone());
//! assert_eq!(chained.payload().unwrap(), payload);
//! assert_eq!(PatchSet::test_replace("/metadata/finalizers", old, new).payload().unwrap(), payload);
//! ```

use std::fmt;

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;

use crate::gojson;
use crate::json::Reader;

mod one_pass;

pub use one_pass::{decode_at, decode_from};

/// The six RFC 6902 operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum OpKind {
    /// Add a member or insert an array element.
    Add,
    /// Remove a member or an array element.
    Remove,
    /// Replace a value.
    Replace,
    /// Move a value from `from` to `path`.
    Move,
    /// Copy a value from `from` to `path`.
    Copy,
    /// Compare the value at `path` with `value`; fail the patch if unequal.
    Test,
}

impl OpKind {
    /// Every operation, in RFC order.
    pub const ALL: [OpKind; 6] = [
        OpKind::Add,
        OpKind::Remove,
        OpKind::Replace,
        OpKind::Move,
        OpKind::Copy,
        OpKind::Test,
    ];

    /// The name on the wire: `add`, `remove`, ...
    pub fn as_str(self) -> &'static str {
        match self {
            OpKind::Add => "add",
            OpKind::Remove => "remove",
            OpKind::Replace => "replace",
            OpKind::Move => "move",
            OpKind::Copy => "copy",
            OpKind::Test => "test",
        }
    }

    /// Reads a wire name; case-sensitive, as in the RFC.
    pub fn parse(name: &str) -> Option<OpKind> {
        OpKind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    /// True for the operations that carry a `value`.
    pub fn takes_value(self) -> bool {
        matches!(self, OpKind::Add | OpKind::Replace | OpKind::Test)
    }

    /// True for the operations that carry a `from`.
    pub fn takes_from(self) -> bool {
        matches!(self, OpKind::Move | OpKind::Copy)
    }
}

impl fmt::Display for OpKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One operation. Paths are kept as sent (escaped JSON Pointers, not yet
/// validated): the RFC and the API server disagree on what is valid, so
/// the apply engine checks them under the semantics it runs.
#[derive(Clone, Debug)]
pub struct Operation {
    /// Which operation.
    pub op: OpKind,
    /// The target, an escaped JSON Pointer.
    pub path: String,
    /// The source of `move` and `copy`.
    pub from: Option<String>,
    /// The value of `add`, `replace` and `test`. `None` only when a received
    /// payload lacked it (the API server then uses `null`).
    pub value: Option<Value>,
    /// The bytes of `value` exactly as received, for `test` ops decoded from
    /// a payload: the API server compares scalars byte for byte.
    raw: Option<Box<str>>,
}

/// Operations compare by op, path, from and value; the received bytes of a
/// value are not compared.
impl PartialEq for Operation {
    fn eq(&self, other: &Self) -> bool {
        self.op == other.op
            && self.path == other.path
            && self.from == other.from
            && self.value == other.value
    }
}

impl Operation {
    fn new(op: OpKind, path: impl Into<String>, value: Option<Value>) -> Operation {
        Operation {
            op,
            path: path.into(),
            from: None,
            value,
            raw: None,
        }
    }

    /// `test`: the value at `path` must equal `value`.
    pub fn test(path: impl Into<String>, value: impl Into<Value>) -> Operation {
        Operation::new(OpKind::Test, path, Some(value.into()))
    }

    /// `add`: create or overwrite a member, or insert into an array.
    pub fn add(path: impl Into<String>, value: impl Into<Value>) -> Operation {
        Operation::new(OpKind::Add, path, Some(value.into()))
    }

    /// `replace`: overwrite the value at `path`.
    pub fn replace(path: impl Into<String>, value: impl Into<Value>) -> Operation {
        Operation::new(OpKind::Replace, path, Some(value.into()))
    }

    /// `remove`: delete the value at `path`.
    pub fn remove(path: impl Into<String>) -> Operation {
        Operation::new(OpKind::Remove, path, None)
    }

    /// `move`: remove the value at `from` and add it at `path`.
    pub fn move_from(from: impl Into<String>, path: impl Into<String>) -> Operation {
        Operation {
            from: Some(from.into()),
            ..Operation::new(OpKind::Move, path, None)
        }
    }

    /// `copy`: add a copy of the value at `from` at `path`.
    pub fn copy_from(from: impl Into<String>, path: impl Into<String>) -> Operation {
        Operation {
            from: Some(from.into()),
            ..Operation::new(OpKind::Copy, path, None)
        }
    }

    /// The bytes of `value` as received, when this op came from a payload.
    pub fn raw_value(&self) -> Option<&str> {
        self.raw.as_deref()
    }

    /// Appends this op as one JSON object, keys in the order `op`, `path`,
    /// `from`, `value`, written by `encoding`.
    pub fn write_json(&self, out: &mut String, encoding: Encoding) {
        let write_str = |out: &mut String, s: &str| match encoding {
            Encoding::Go => gojson::write_str(out, s),
            Encoding::Plain => write_plain(out, s),
        };
        out.push_str("{\"op\":\"");
        out.push_str(self.op.as_str());
        out.push_str("\",\"path\":");
        write_str(out, &self.path);
        if let Some(from) = &self.from {
            out.push_str(",\"from\":");
            write_str(out, from);
        }
        if self.op.takes_value() || self.value.is_some() {
            out.push_str(",\"value\":");
            let null = Value::Null;
            let value = self.value.as_ref().unwrap_or(&null);
            match encoding {
                Encoding::Go => gojson::write_value(out, value),
                Encoding::Plain => write_plain(out, value),
            }
        }
        out.push('}');
    }

    /// This op as one JSON object in Go's encoding (KubeVirt's `ToSlice` item).
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        self.write_json(&mut out, Encoding::Go);
        out
    }
}

/// Appends serde_json's encoding of `value`.
fn write_plain<T: serde::Serialize + ?Sized>(out: &mut String, value: &T) {
    // Serializing a `Value` or a `str` into memory cannot fail.
    if let Ok(text) = serde_json::to_string(value) {
        out.push_str(&text);
    }
}

/// Serializes as the op's JSON object: `op`, `path`, `from`, `value`.
impl serde::Serialize for Operation {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("op", self.op.as_str())?;
        map.serialize_entry("path", &self.path)?;
        if let Some(from) = &self.from {
            map.serialize_entry("from", from)?;
        }
        if self.op.takes_value() || self.value.is_some() {
            map.serialize_entry("value", self.value.as_ref().unwrap_or(&Value::Null))?;
        }
        map.end()
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_json())
    }
}

/// `WithTest(path, value)`.
pub fn with_test(path: impl Into<String>, value: impl Into<Value>) -> Operation {
    Operation::test(path, value)
}

/// `WithAdd(path, value)`.
pub fn with_add(path: impl Into<String>, value: impl Into<Value>) -> Operation {
    Operation::add(path, value)
}

/// `WithReplace(path, value)`.
pub fn with_replace(path: impl Into<String>, value: impl Into<Value>) -> Operation {
    Operation::replace(path, value)
}

/// `WithRemove(path)`.
pub fn with_remove(path: impl Into<String>) -> Operation {
    Operation::remove(path)
}

/// How values and strings are written into a payload.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// As Go's `encoding/json` (what KubeVirt sends): sorted keys,
    /// HTML-safe escapes, Go number formatting.
    #[default]
    Go,
    /// As `serde_json` writes: `<` kept raw, `1.0` kept as `1.0`.
    Plain,
}

/// A payload was asked of an empty patch set; KubeVirt answers with the error
/// `list of patches is empty` rather than `[]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EmptyPatch;

impl fmt::Display for EmptyPatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("list of patches is empty")
    }
}

impl std::error::Error for EmptyPatch {}

/// An ordered list of operations: KubeVirt's `PatchSet`. No deduplication,
/// no validation; the apply engine judges the ops.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PatchSet {
    ops: Vec<Operation>,
}

impl PatchSet {
    /// An empty set (`patch.New()`).
    pub fn new() -> PatchSet {
        PatchSet::default()
    }

    /// A set from option values (`patch.New(opts...)`).
    pub fn of(ops: impl IntoIterator<Item = Operation>) -> PatchSet {
        PatchSet {
            ops: ops.into_iter().collect(),
        }
    }

    /// `GenerateTestReplacePatch`: `[test(path, old), replace(path, new)]`.
    pub fn test_replace(
        path: impl Into<String>,
        old: impl Into<Value>,
        new: impl Into<Value>,
    ) -> PatchSet {
        let path = path.into();
        PatchSet::of([
            Operation::test(path.clone(), old),
            Operation::replace(path, new),
        ])
    }

    /// Appends one op (`AddOption`).
    pub fn push(&mut self, op: Operation) {
        self.ops.push(op);
    }

    /// Appends a `test` op.
    pub fn test(mut self, path: impl Into<String>, value: impl Into<Value>) -> PatchSet {
        self.push(Operation::test(path, value));
        self
    }

    /// Appends an `add` op.
    pub fn add(mut self, path: impl Into<String>, value: impl Into<Value>) -> PatchSet {
        self.push(Operation::add(path, value));
        self
    }

    /// Appends a `replace` op.
    pub fn replace(mut self, path: impl Into<String>, value: impl Into<Value>) -> PatchSet {
        self.push(Operation::replace(path, value));
        self
    }

    /// Appends a `remove` op.
    pub fn remove(mut self, path: impl Into<String>) -> PatchSet {
        self.push(Operation::remove(path));
        self
    }

    /// Appends a `move` op.
    pub fn move_from(mut self, from: impl Into<String>, path: impl Into<String>) -> PatchSet {
        self.push(Operation::move_from(from, path));
        self
    }

    /// Appends a `copy` op.
    pub fn copy_from(mut self, from: impl Into<String>, path: impl Into<String>) -> PatchSet {
        self.push(Operation::copy_from(from, path));
        self
    }

    /// True when the set has no ops (`IsEmpty`).
    pub fn is_empty(&self) -> bool {
        self.ops.is_empty()
    }

    /// The number of ops.
    pub fn len(&self) -> usize {
        self.ops.len()
    }

    /// The ops in order (`GetPatches`).
    pub fn ops(&self) -> &[Operation] {
        &self.ops
    }

    /// Iterates over the ops in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Operation> {
        self.ops.iter()
    }

    /// One JSON string per op, in Go's encoding (`ToSlice`).
    pub fn to_slice(&self) -> Vec<String> {
        self.ops.iter().map(Operation::to_json).collect()
    }

    /// The payload as KubeVirt's `GeneratePayload` writes it: a compact JSON
    /// array in Go's encoding.
    ///
    /// # Errors
    ///
    /// [`EmptyPatch`] for an empty set, as in KubeVirt.
    pub fn payload(&self) -> Result<String, EmptyPatch> {
        self.payload_with(Encoding::Go)
    }

    /// The payload in the chosen encoding.
    ///
    /// # Errors
    ///
    /// [`EmptyPatch`] for an empty set.
    pub fn payload_with(&self, encoding: Encoding) -> Result<String, EmptyPatch> {
        payload_of(&self.ops, encoding)
    }

    /// Parses a payload back into a patch set, strictly: every element must
    /// be an op object with a known `op`, a string `path`, a `from` for
    /// `move`/`copy` and a `value` for `add`/`replace`/`test`.
    ///
    /// # Errors
    ///
    /// [`PayloadError`] naming the op index and field.
    ///
    /// ```
    /// use patchlab::patch::PatchSet;
    /// let err = PatchSet::parse(r#"[{"op":"add","path":"/a","value":1},{"op":"add","path":"/b"}]"#)
    ///     .unwrap_err();
    /// assert_eq!(err.to_string(), "op 1: field 'value' is missing (add needs a value)");
    /// ```
    pub fn parse(payload: &str) -> Result<PatchSet, PayloadError> {
        let decoded = decode(payload)?;
        if let Some(err) = decoded.malformed {
            return Err(err);
        }
        for (index, op) in decoded.ops.iter().enumerate() {
            if op.op.takes_value() && op.value.is_none() {
                return Err(PayloadError::op(
                    index,
                    "value",
                    OpProblem::MissingValue(op.op),
                ));
            }
        }
        Ok(PatchSet { ops: decoded.ops })
    }
}

impl IntoIterator for PatchSet {
    type Item = Operation;
    type IntoIter = std::vec::IntoIter<Operation>;
    fn into_iter(self) -> Self::IntoIter {
        self.ops.into_iter()
    }
}

impl<'a> IntoIterator for &'a PatchSet {
    type Item = &'a Operation;
    type IntoIter = std::slice::Iter<'a, Operation>;
    fn into_iter(self) -> Self::IntoIter {
        self.ops.iter()
    }
}

impl FromIterator<Operation> for PatchSet {
    fn from_iter<I: IntoIterator<Item = Operation>>(iter: I) -> Self {
        PatchSet::of(iter)
    }
}

impl Extend<Operation> for PatchSet {
    fn extend<I: IntoIterator<Item = Operation>>(&mut self, iter: I) {
        self.ops.extend(iter);
    }
}

impl From<Vec<Operation>> for PatchSet {
    fn from(ops: Vec<Operation>) -> Self {
        PatchSet { ops }
    }
}

/// What is wrong with one element of a payload.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpProblem {
    /// The element is not a JSON object.
    NotAnObject,
    /// A required field is absent.
    Missing,
    /// A field that must be a string is not.
    NotAString,
    /// `op` names no RFC 6902 operation.
    UnknownOp(String),
    /// `add`, `replace` and `test` need a `value`.
    MissingValue(OpKind),
    /// The object cannot be read as an op (a repeated field, ...).
    Invalid(String),
}

/// Where a payload went wrong: the JSON syntax, the top-level shape, or
/// one op (with its index and field).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PayloadError {
    /// Not JSON. `line` and `column` are 1-based.
    Syntax {
        /// What the parser expected.
        message: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
    },
    /// The payload is JSON but not an array.
    NotAnArray {
        /// The JSON type found (`object`, `string`, ...).
        found: &'static str,
    },
    /// One op is malformed.
    Op {
        /// Zero-based op index.
        index: usize,
        /// The field at fault, when it is about a field.
        field: Option<&'static str>,
        /// What is wrong.
        problem: OpProblem,
    },
}

impl PayloadError {
    fn op(index: usize, field: &'static str, problem: OpProblem) -> PayloadError {
        PayloadError::Op {
            index,
            field: Some(field),
            problem,
        }
    }

    /// The op index, for errors about one op.
    pub fn index(&self) -> Option<usize> {
        match self {
            PayloadError::Op { index, .. } => Some(*index),
            _ => None,
        }
    }

    /// True when the body itself could not be decoded as a list of ops (the
    /// API server answers 400); false for a problem inside one op (the
    /// server's engine fails at that op: 422).
    pub fn is_body_error(&self) -> bool {
        match self {
            PayloadError::Syntax { .. } | PayloadError::NotAnArray { .. } => true,
            PayloadError::Op { problem, .. } => *problem == OpProblem::NotAnObject,
        }
    }
}

impl fmt::Display for PayloadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PayloadError::Syntax {
                message,
                line,
                column,
            } => write!(f, "line {line}, column {column}: {message}"),
            PayloadError::NotAnArray { found } => {
                write!(
                    f,
                    "a JSON Patch must be an array of operations, found {found}"
                )
            }
            PayloadError::Op {
                index,
                field,
                problem,
            } => {
                write!(f, "op {index}: ")?;
                if let Some(field) = field {
                    write!(f, "field '{field}' ")?;
                }
                match problem {
                    OpProblem::NotAnObject => f.write_str("is not a JSON object"),
                    OpProblem::Missing => f.write_str("is missing"),
                    OpProblem::NotAString => f.write_str("must be a string"),
                    OpProblem::UnknownOp(name) => write!(
                        f,
                        "names an unknown operation {name:?} (expected add, remove, replace, move, copy or test)"
                    ),
                    OpProblem::MissingValue(kind) => {
                        write!(f, "is missing ({kind} needs a value)")
                    }
                    OpProblem::Invalid(message) => f.write_str(message),
                }
            }
        }
    }
}

impl std::error::Error for PayloadError {}

pub(crate) fn json_type(value: &RawValue) -> &'static str {
    match value.get().trim_start().as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a boolean",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// A payload decoded op by op. The API server's engine runs the ops in
/// order and fails at the first malformed one, so decoding keeps the ops
/// before it and the error it makes.
#[derive(Clone, Debug, Default)]
pub struct Decoded {
    /// The well-formed ops before the first malformed one (all of them when
    /// none is malformed).
    pub ops: Vec<Operation>,
    /// The first malformed op's error (unknown `op`, missing `path`, ...).
    pub malformed: Option<PayloadError>,
    /// How many elements the payload array holds.
    pub count: usize,
    /// What the API server warns about a body it accepts (unknown and
    /// duplicate fields), in its words; empty under RFC 6902.
    pub warnings: Vec<String>,
}

/// How duplicate members and `null` elements are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    /// RFC 6902 (section 4 and Appendix A.13): a repeated member makes the
    /// op malformed; every element must be an object.
    Rfc,
    /// Go's decoder into evanphx's `Operation` (a `map[string]*RawMessage`):
    /// the last of repeated members wins, and a `null` element decodes to an
    /// op with no members (the engine then fails at it).
    Go,
}

/// The members of one op object, the last of repeated ones kept.
#[derive(Default)]
struct WireOp<'a> {
    op: Option<&'a RawValue>,
    path: Option<&'a RawValue>,
    from: Option<&'a RawValue>,
    value: Option<&'a RawValue>,
    /// The first repeated member of the four.
    duplicate: Option<&'static str>,
}

impl<'de: 'a, 'a> Deserialize<'de> for WireOp<'a> {
    fn deserialize<D>(deserializer: D) -> Result<Self, D::Error>
    where
        D: serde::Deserializer<'de>,
    {
        struct Members<'a>(std::marker::PhantomData<&'a ()>);
        impl<'de: 'a, 'a> serde::de::Visitor<'de> for Members<'a> {
            type Value = WireOp<'a>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<WireOp<'a>, M::Error> {
                let mut wire = WireOp::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    let value: &'de RawValue = map.next_value()?;
                    let (slot, name) = match key.as_ref() {
                        "op" => (&mut wire.op, "op"),
                        "path" => (&mut wire.path, "path"),
                        "from" => (&mut wire.from, "from"),
                        "value" => (&mut wire.value, "value"),
                        _ => continue,
                    };
                    if slot.replace(value).is_some() && wire.duplicate.is_none() {
                        wire.duplicate = Some(name);
                    }
                }
                Ok(wire)
            }
        }
        deserializer.deserialize_map(Members(std::marker::PhantomData))
    }
}

pub(crate) fn syntax_error(err: &serde_json::Error) -> PayloadError {
    let message = err.to_string();
    // serde_json appends " at line L column C"; keep the message alone.
    let message = match message.rfind(" at line ") {
        Some(at) => message[..at].to_owned(),
        None => message,
    };
    PayloadError::Syntax {
        message,
        line: err.line(),
        column: err.column(),
    }
}

/// Decodes a payload into ops as RFC 6902 reads it ([`Dialect::Rfc`]),
/// keeping the bytes of every `test` value.
///
/// # Errors
///
/// The body-level errors the API server answers with 400 before running
/// anything: [`PayloadError::Syntax`] when the text is not JSON,
/// [`PayloadError::NotAnArray`], and an element that is not an object.
/// `null` decodes to no ops, as in the server's engine. A malformed op
/// inside a well-formed array is not an error here: see
/// [`Decoded::malformed`].
pub fn decode(payload: &str) -> Result<Decoded, PayloadError> {
    decode_as(payload, Dialect::Rfc)
}

/// Decodes a payload in a [`Dialect`].
///
/// # Errors
///
/// As [`decode`]; in the Go dialect a `null` element is a malformed op
/// (the engine fails at it), not a body error.
pub fn decode_as(payload: &str, dialect: Dialect) -> Result<Decoded, PayloadError> {
    // Lone surrogate escapes read as Go reads them (U+FFFD), as in every
    // other reader of JSON text (`crate::json::go_strings`).
    let payload = &*crate::json::go_strings(payload);
    // The usual payload in one pass; anything else the general way below.
    if let Some((decoded, end)) = decode_at(payload, 0) {
        if Reader::at(payload, end).end() {
            return Ok(decoded);
        }
    }
    decode_general(payload, dialect)
}

/// [`decode_as`] without the one-pass route: every payload, the errors.
fn decode_general(payload: &str, dialect: Dialect) -> Result<Decoded, PayloadError> {
    let top: &RawValue = serde_json::from_str(payload).map_err(|e| syntax_error(&e))?;
    match top.get().trim_start().as_bytes().first() {
        Some(b'[') => {}
        Some(b'n') => return Ok(Decoded::default()),
        _ => {
            return Err(PayloadError::NotAnArray {
                found: json_type(top),
            })
        }
    }
    let elements: Vec<&RawValue> = serde_json::from_str(top.get()).map_err(|e| syntax_error(&e))?;
    let mut decoded = Decoded {
        ops: Vec::with_capacity(elements.len()),
        malformed: None,
        count: elements.len(),
        warnings: Vec::new(),
    };
    for (index, element) in elements.into_iter().enumerate() {
        let text = element.get().trim_start();
        let null = text.starts_with('n');
        if !(text.starts_with('{') || null && dialect == Dialect::Go) {
            return Err(PayloadError::Op {
                index,
                field: None,
                problem: OpProblem::NotAnObject,
            });
        }
        if decoded.malformed.is_some() {
            continue;
        }
        let op = if null {
            Err(PayloadError::op(index, "op", OpProblem::Missing))
        } else {
            decode_op(index, element, dialect)
        };
        match op {
            Ok(op) => decoded.ops.push(op),
            Err(err) => decoded.malformed = Some(err),
        }
    }
    Ok(decoded)
}

fn decode_op(
    index: usize,
    element: &RawValue,
    dialect: Dialect,
) -> Result<Operation, PayloadError> {
    let wire: WireOp<'_> = serde_json::from_str(element.get()).map_err(|e| PayloadError::Op {
        index,
        field: None,
        problem: OpProblem::Invalid(match syntax_error(&e) {
            PayloadError::Syntax { message, .. } => message,
            other => other.to_string(),
        }),
    })?;
    if let (Some(field), Dialect::Rfc) = (wire.duplicate, dialect) {
        return Err(PayloadError::Op {
            index,
            field: None,
            problem: OpProblem::Invalid(format!("duplicate field `{field}`")),
        });
    }
    let string = |field: &'static str, raw: Option<&RawValue>| -> Result<String, PayloadError> {
        let raw = raw.ok_or(PayloadError::op(index, field, OpProblem::Missing))?;
        serde_json::from_str::<String>(raw.get())
            .map_err(|_| PayloadError::op(index, field, OpProblem::NotAString))
    };
    let name = string("op", wire.op)?;
    let op = OpKind::parse(&name)
        .ok_or_else(|| PayloadError::op(index, "op", OpProblem::UnknownOp(name.clone())))?;
    let path = string("path", wire.path)?;
    let from = if op.takes_from() {
        Some(string("from", wire.from)?)
    } else {
        None
    };
    let (value, raw) = match wire.value {
        Some(raw) if op.takes_value() => {
            let value: Value = serde_json::from_str(raw.get()).map_err(|e| syntax_error(&e))?;
            let keep = (op == OpKind::Test).then(|| raw.get().into());
            (Some(value), keep)
        }
        _ => (None, None),
    };
    Ok(Operation {
        op,
        path,
        from,
        value,
        raw,
    })
}

/// The payload of `ops` in the chosen encoding (as
/// [`PatchSet::payload_with`], for ops held elsewhere: no copy of them).
///
/// # Errors
///
/// [`EmptyPatch`] when there are no ops.
pub fn payload_of<'a>(
    ops: impl IntoIterator<Item = &'a Operation>,
    encoding: Encoding,
) -> Result<String, EmptyPatch> {
    let mut out = String::with_capacity(256);
    out.push('[');
    for (i, op) in ops.into_iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        op.write_json(&mut out, encoding);
    }
    if out.len() == 1 {
        return Err(EmptyPatch);
    }
    out.push(']');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The cases of KubeVirt's `patch_test.go`, byte for byte.
    #[test]
    fn payload_matches_kubevirt_builder() {
        assert_eq!(
            PatchSet::of([with_remove("/abcd")]).payload().unwrap(),
            r#"[{"op":"remove","path":"/abcd"}]"#
        );
        for (value, expected) in [(json!("test"), r#""test""#), (Value::Null, "null")] {
            for (op, name) in [
                (with_add("/abcd", value.clone()), "add"),
                (with_replace("/abcd", value.clone()), "replace"),
                (with_test("/abcd", value.clone()), "test"),
            ] {
                assert_eq!(
                    PatchSet::of([op]).payload().unwrap(),
                    format!(r#"[{{"op":"{name}","path":"/abcd","value":{expected}}}]"#)
                );
            }
        }
        let mixed = PatchSet::of([
            with_remove("/abcd"),
            with_add("/abcd", "test"),
            with_replace("/abcd", "test"),
            with_test("/abcd", "test"),
        ]);
        assert_eq!(
            mixed.payload().unwrap(),
            r#"[{"op":"remove","path":"/abcd"},{"op":"add","path":"/abcd","value":"test"},{"op":"replace","path":"/abcd","value":"test"},{"op":"test","path":"/abcd","value":"test"}]"#
        );
        assert_eq!(
            mixed.to_slice(),
            [
                r#"{"op":"remove","path":"/abcd"}"#,
                r#"{"op":"add","path":"/abcd","value":"test"}"#,
                r#"{"op":"replace","path":"/abcd","value":"test"}"#,
                r#"{"op":"test","path":"/abcd","value":"test"}"#,
            ]
        );
        assert!(PatchSet::new().is_empty());
        assert_eq!(PatchSet::new().payload(), Err(EmptyPatch));
        assert_eq!(EmptyPatch.to_string(), "list of patches is empty");
    }

    #[test]
    fn go_encoding_sorts_keys_and_escapes_html() {
        let set = PatchSet::new().add(
            "/metadata/annotations",
            json!({"z": "<b>", "a": 1.0, "m": [null]}),
        );
        assert_eq!(
            set.payload().unwrap(),
            r#"[{"op":"add","path":"/metadata/annotations","value":{"a":1,"m":[null],"z":"\u003cb\u003e"}}]"#
        );
        assert_eq!(
            set.payload_with(Encoding::Plain).unwrap(),
            r#"[{"op":"add","path":"/metadata/annotations","value":{"a":1.0,"m":[null],"z":"<b>"}}]"#
        );
    }

    #[test]
    fn move_and_copy_write_from_after_path() {
        let set = PatchSet::new().move_from("/a", "/b").copy_from("/b", "/c");
        assert_eq!(
            set.payload().unwrap(),
            r#"[{"op":"move","path":"/b","from":"/a"},{"op":"copy","path":"/c","from":"/b"}]"#
        );
    }

    #[test]
    fn parse_round_trips_the_payload() {
        let set = PatchSet::new()
            .test("/metadata/labels/a~1b", json!({"x": null}))
            .add("/spec/list/-", json!([1, "two"]))
            .replace("/status/phase", "Running")
            .remove("/metadata/annotations/k")
            .move_from("/a", "/b")
            .copy_from("/b", "/c");
        let payload = set.payload().unwrap();
        let parsed = PatchSet::parse(&payload).unwrap();
        assert_eq!(parsed, set);
        assert_eq!(parsed.payload().unwrap(), payload);
        assert_eq!(
            parsed.ops()[0].raw_value(),
            Some(r#"{"x":null}"#),
            "a test keeps the bytes it received"
        );
        assert_eq!(parsed.ops()[1].raw_value(), None);
    }

    #[test]
    fn parse_errors_name_index_and_field() {
        let cases = [
            ("{", "line 1, column 1: EOF while parsing an object"),
            (
                r#"{"op":"add"}"#,
                "a JSON Patch must be an array of operations, found an object",
            ),
            (r#"[1]"#, "op 0: is not a JSON object"),
            (r#"[null]"#, "op 0: is not a JSON object"),
            (r#"[{"path":"/a"}]"#, "op 0: field 'op' is missing"),
            (
                r#"[{"op":"spam","path":"/a"}]"#,
                r#"op 0: field 'op' names an unknown operation "spam" (expected add, remove, replace, move, copy or test)"#,
            ),
            (
                r#"[{"op":"add","value":1}]"#,
                "op 0: field 'path' is missing",
            ),
            (
                r#"[{"op":"add","path":null,"value":1}]"#,
                "op 0: field 'path' must be a string",
            ),
            (
                r#"[{"op":"remove","path":"/a"},{"op":"move","path":"/a"}]"#,
                "op 1: field 'from' is missing",
            ),
            (
                r#"[{"op":"test","path":"/a"}]"#,
                "op 0: field 'value' is missing (test needs a value)",
            ),
        ];
        for (payload, message) in cases {
            let err = PatchSet::parse(payload).unwrap_err();
            assert_eq!(err.to_string(), message, "{payload}");
        }
    }

    #[test]
    fn null_value_is_present_not_missing() {
        let set = PatchSet::parse(r#"[{"op":"add","path":"/a","value":null}]"#).unwrap();
        assert_eq!(set.ops()[0].value, Some(Value::Null));
    }

    #[test]
    fn decode_keeps_the_ops_before_the_first_malformed_one() {
        let decoded =
            decode(r#"[{"op":"add","path":"/a"},{"op":"bogus"},{"op":"remove"}]"#).unwrap();
        assert_eq!(decoded.count, 3);
        assert_eq!(decoded.ops.len(), 1);
        assert_eq!(
            decoded.ops[0].value, None,
            "the engine decides what a missing value means"
        );
        assert_eq!(
            decoded.malformed.as_ref().and_then(PayloadError::index),
            Some(1)
        );
        // An element that is not an object spoils the whole body, wherever it is.
        let err = decode(r#"[{"op":"bogus"},"x"]"#).unwrap_err();
        assert!(err.is_body_error());
        assert_eq!(err.index(), Some(1));
        assert!(decode("null").unwrap().ops.is_empty());
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!(
            r#"[{{"op":"add","path":"/a","value":{}{}}}]"#,
            "[".repeat(100_000),
            "]".repeat(100_000)
        );
        let err = PatchSet::parse(&deep).unwrap_err();
        assert!(err.to_string().contains("recursion limit"), "{err}");
    }
}
