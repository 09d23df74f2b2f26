//! The engine run: the ops applied in order on the document, each one
//! recording what it overwrote, and the undo log played back in reverse
//! when one fails (so a failed patch leaves the document exactly as it
//! was).

use std::borrow::Cow;

use serde_json::Value;

use super::compare::{byte_difference, compare_marked, kube_compare, rfc_eq, KubeCmp, Mark, Seg};
use super::{check_identity, identity, ApplyError, Cause, Engine};
use crate::gojson;
use crate::kube::Evanphx;
use crate::limits::{COPY_LIMIT, MAX_OPS};
use crate::patch::{OpKind, Operation, PayloadError};
use crate::pointer::{self, Index, Pointer};

/// The loop behind [`apply`] and [`apply_decoded`]: `count` ops were sent,
/// `ops` are the well-formed ones before `malformed`.
pub(super) fn run(
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
        match rfind_byte(rest, b'/') {
            Some(at) => (Some(&rest[..at]), &rest[at + 1..]),
            None => (None, rest),
        }
    }
}

/// The first `byte` (ASCII) of `s`. Paths are searched by bytes: a `char`
/// pattern (`str::find`, `split`) costs several times more on short paths
/// at the release profile's opt-level "z".
fn find_byte(s: &str, byte: u8) -> Option<usize> {
    s.bytes().position(|b| b == byte)
}

/// The last `byte` (ASCII) of `s`.
fn rfind_byte(s: &str, byte: u8) -> Option<usize> {
    s.bytes().rposition(|b| b == byte)
}

/// `str::split('/')` by bytes.
struct SplitSlash<'a>(Option<&'a str>);

impl<'a> Iterator for SplitSlash<'a> {
    type Item = &'a str;
    fn next(&mut self) -> Option<&'a str> {
        let s = self.0?;
        match find_byte(s, b'/') {
            Some(at) => {
                self.0 = Some(&s[at + 1..]);
                Some(&s[..at])
            }
            None => {
                self.0 = None;
                Some(s)
            }
        }
    }
}

/// Decodes an escaped token: `~1` to `/`, then `~0` to `~`. For RFC mode
/// the pointer was validated first; kube mode keeps bad escapes as written.
fn unescape(token: &str) -> Cow<'_, str> {
    if find_byte(token, b'~').is_none() {
        return Cow::Borrowed(token);
    }
    // One pass, the same as replacing every `~1`, then every `~0`: an
    // escape never makes another.
    let mut out = String::with_capacity(token.len());
    let mut rest = token;
    while let Some(at) = find_byte(rest, b'~') {
        out.push_str(&rest[..at]);
        let (unescaped, skip) = match rest.as_bytes().get(at + 1) {
            Some(b'1') => ('/', 2),
            Some(b'0') => ('~', 2),
            _ => ('~', 1),
        };
        out.push(unescaped);
        rest = &rest[at + skip..];
    }
    out.push_str(rest);
    Cow::Owned(out)
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
            return match find_byte(path, b'/') {
                Some(at) => Ok(Target::Tokens(&path[at + 1..])),
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
            // A separator before every token but the first (an empty first
            // token walks nothing, yet the next one still follows a `/`).
            for (i, token) in SplitSlash(Some(parent)).enumerate() {
                let end = walked + token.len() + usize::from(i > 0);
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
                let seg = self.tracking.then(|| key.clone());
                let old = map.insert(key, value);
                self.undo.push(Undo::Member {
                    op: index,
                    loc: Loc::Path,
                    old,
                });
                if let Some(key) = seg {
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
            bytes: None,
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
            KubeCmp::NotEqual => {
                // One value, other bytes: say which bytes were compared.
                let same = op.value.as_ref().is_some_and(|v| rfc_eq(stored, v));
                let bytes = if same {
                    byte_difference(stored, &sent).map(Box::new)
                } else {
                    None
                };
                Err(Cause::TestFailed {
                    expected: Box::new(op.value.clone().unwrap_or(Value::Null)),
                    actual: Some(Box::new(stored.clone())),
                    bytes,
                })
            }
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
        found: crate::text::kind(value),
        in_from,
    }
}

/// Go's `strconv.Atoi`: an optional sign, then decimal digits (leading
/// zeros allowed), within `i64`.
pub(super) fn go_atoi(token: &str) -> Option<i64> {
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
mod tests {
    use super::{unescape, SplitSlash, Target};

    #[test]
    fn paths_split_by_bytes_as_str_split() {
        for path in ["", "/", "a", "a/b", "/a/", "//", "é/ü/~1", "a//b/"] {
            assert_eq!(
                SplitSlash(Some(path)).collect::<Vec<_>>(),
                path.split('/').collect::<Vec<_>>(),
                "{path:?}"
            );
            assert_eq!(
                Target::split(path),
                match path.rsplit_once('/') {
                    Some((parent, last)) => (Some(parent), last),
                    None => (None, path),
                }
            );
        }
    }

    #[test]
    fn unescape_is_replace_one_then_zero() {
        for token in [
            "", "a", "~", "~~", "~0", "~1", "~01", "~10", "~~1", "~~10", "a~1b~0c", "~2", "é~1ü~",
            "~0~1~",
        ] {
            assert_eq!(
                unescape(token),
                token.replace("~1", "/").replace("~0", "~"),
                "{token:?}"
            );
        }
    }
}
