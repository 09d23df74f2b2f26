//! Applying a patch to a document given as JSON text, reading only what the
//! patch touches.
//!
//! A controller patch changes a handful of fields of an object that may be
//! megabytes long. Parsing the whole object into a tree and writing it all
//! back costs far more than the ops. Here the document is read as a tree
//! only along the ops' paths, in one pass: every object on a path is read
//! member by member, every op's target (and every array on a path) whole,
//! and every other member stays a slice of the input text, copied to the
//! output as written (minus insignificant whitespace). The ops run on that partial tree with the
//! same engine, so results and errors are those of [`super::apply_decoded`]
//! on the whole tree. The output keeps the document's member order (new
//! members last) and the spelling of numbers in untouched parts, where the
//! whole-tree route sorts keys and rewrites numbers.
//!
//! Anything unusual (a path that is not a JSON Pointer, a malformed op, a
//! syntax error or too deep a document) takes the plain route: parse all,
//! apply, write all. So every error is exactly the plain route's.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::{Map, Number, Value};

use super::{apply_decoded, ApplyError, Engine};
use crate::input::{self, Budget, Format, InputError};
use crate::patch::Decoded;
use crate::pointer::{escape, NodeId, PathTrie, Pointer};

/// Why a text apply failed: the document could not be read, or the patch
/// failed (see [`ApplyError`]).
#[derive(Clone, Debug, PartialEq)]
pub enum TextError {
    /// The document is not JSON, too big or too deep.
    Input(InputError),
    /// The patch is malformed or an op failed.
    Apply(ApplyError),
}

impl std::fmt::Display for TextError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TextError::Input(err) => write!(f, "{err}"),
            TextError::Apply(err) => write!(f, "{err}"),
        }
    }
}

impl std::error::Error for TextError {}

/// Applies `payload` to the JSON text `doc` within `budget` and returns the
/// result as compact JSON text; see the module documentation.
///
/// # Errors
///
/// [`TextError`]: the same errors as parsing `doc` with
/// [`input::parse_as`] and applying with [`super::apply_payload`].
///
/// ```
/// use patchlab::apply::{text::apply_to_text, Semantics};
/// use patchlab::input::Budget;
///
/// let doc = r#"{"metadata": {"labels": {"a": "1"}}, "spec": {"z": 1, "y": [1.0, 2]}}"#;
/// let payload = r#"[{"op":"add","path":"/metadata/labels/b","value":"2"}]"#;
/// let out = apply_to_text(doc, payload, Semantics::Kube, &Budget::default()).unwrap();
/// // Document order kept, the new key last; untouched `spec` as written.
/// assert_eq!(out, r#"{"metadata":{"labels":{"a":"1","b":"2"}},"spec":{"z":1,"y":[1.0,2]}}"#);
/// ```
pub fn apply_to_text(
    doc: &str,
    payload: &str,
    engine: impl Into<Engine>,
    budget: &Budget,
) -> Result<String, TextError> {
    let engine = engine.into();
    // Lone surrogate escapes read as Go reads them, also where the text
    // is copied as written.
    let doc = &*crate::json::go_strings(doc);
    match lazy(doc, payload, engine, budget) {
        Some(result) => result,
        None => plain(doc, payload, engine, budget),
    }
}

/// Parse all, apply, write all.
fn plain(doc: &str, payload: &str, engine: Engine, budget: &Budget) -> Result<String, TextError> {
    let mut value = input::parse_as(doc, Format::Json, budget).map_err(TextError::Input)?;
    super::apply_payload(&mut value, payload, engine).map_err(TextError::Apply)?;
    Ok(serde_json::to_string(&value).unwrap_or_default())
}

/// What a patch touches, as a trie of its paths (and `from`s): the part
/// of the document a partial route must read.
#[derive(Debug)]
pub struct Footprint<'d> {
    trie: PathTrie<'d>,
    /// Per node: an op reads or replaces this subtree, so it is read whole.
    whole: Vec<bool>,
}

impl<'d> Footprint<'d> {
    /// The node of the whole document.
    pub const ROOT: NodeId = PathTrie::ROOT;

    /// The footprint of a decoded patch; `None` when a partial route cannot
    /// serve it: a malformed op, a path that is not a JSON Pointer, the
    /// whole document as a target, or no op at all.
    pub fn of(decoded: &'d Decoded) -> Option<Footprint<'d>> {
        if decoded.malformed.is_some() {
            return None;
        }
        let mut trie = PathTrie::new();
        let mut whole = Vec::new();
        for op in &decoded.ops {
            for path in std::iter::once(&op.path).chain(op.from.as_ref()) {
                let pointer = Pointer::parse(path).ok()?;
                // No document within budget is deeper than this; a longer
                // path (hostile, or a typo) is the plain route's to refuse,
                // and the reads stay shallow enough to need no deep
                // recursion.
                if pointer.is_root() || pointer.count() > crate::limits::DEPTH {
                    return None;
                }
                let node = trie.insert(pointer);
                whole.resize(trie.len(), false);
                whole[node] = true;
            }
        }
        (trie.len() > 1).then_some(Footprint { trie, whole })
    }

    /// True when the whole subtree at `node` is read (an op targets it);
    /// every array on a path is read whole too, by the caller.
    pub fn whole(&self, node: NodeId) -> bool {
        self.whole[node]
    }

    /// The members below `node` that some path goes through: each key,
    /// decoded, and its node.
    pub fn members(&self, node: NodeId) -> impl Iterator<Item = (Cow<'d, str>, NodeId)> + '_ {
        self.trie
            .children(node)
            .map(|(token, child)| (token.decoded(), child))
    }

    /// The node of the member `key` below `node`, when a path goes through.
    fn member(&self, node: NodeId, key: &str) -> Option<NodeId> {
        self.trie.child(node, &escape(key))
    }
}

/// The lazy route; `None` means "take the plain route".
fn lazy(
    doc: &str,
    payload: &str,
    engine: Engine,
    budget: &Budget,
) -> Option<Result<String, TextError>> {
    if doc.len() > budget.max_bytes {
        return None;
    }
    let compact = scan(doc, budget.max_depth.min(crate::limits::DEPTH))?;
    let decoded: Decoded = super::decode(payload, engine).ok()?;
    let footprint = Footprint::of(&decoded)?;
    let mut de = serde_json::Deserializer::from_str(doc);
    let (mut tree, rest) = Guided(&footprint, Footprint::ROOT)
        .deserialize(&mut de)
        .ok()?;
    de.end().ok()?;
    if let Err(err) = apply_decoded(&mut tree, &decoded, engine) {
        return Some(Err(TextError::Apply(err)));
    }
    let mut out = Vec::with_capacity(doc.len() + payload.len());
    write(&tree, Some(&rest), compact, &mut out);
    String::from_utf8(out).ok().map(Ok)
}

/// Calls `f` with the index and byte of every byte of JSON `text` outside
/// string literals (the quotes included).
fn outside_strings(text: &str, mut f: impl FnMut(usize, u8) -> bool) {
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in text.as_bytes().iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
        } else {
            in_string = b == b'"';
            if !f(i, b) {
                return;
            }
        }
    }
}

/// Checks nesting against `max_depth` and reports whether the text holds
/// insignificant whitespace (`Some(true)`: none, copy slices as they are).
/// `None` when too deep, or when a number might be out of an f64's range
/// (an exponent, or hundreds of digits): the plain route then reports it
/// (a slice copied as written would carry it past the reader).
fn scan(text: &str, max_depth: usize) -> Option<bool> {
    let mut depth = 0usize;
    let mut compact = true;
    let mut refused = false;
    let mut digits = 0usize;
    outside_strings(text, |_, b| {
        match b {
            b'[' | b'{' => {
                depth += 1;
                refused = depth > max_depth;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b' ' | b'\n' | b'\r' | b'\t' => compact = false,
            b'e' | b'E' if digits > 0 => refused = true,
            _ => {}
        }
        digits = if b.is_ascii_digit() || (digits > 0 && b == b'.') {
            digits + 1
        } else {
            0
        };
        refused |= digits > 300;
        !refused
    });
    (!refused).then_some(compact)
}

/// An object on a path: its members in document order, those no op
/// reaches kept as text.
#[derive(Default, Debug)]
struct Unread<'a> {
    /// Every member in document order.
    order: Vec<Slot<'a>>,
    /// The same for the objects below on a path, by key.
    children: BTreeMap<String, Unread<'a>>,
}

impl Unread<'_> {
    /// Of members kept as text under one key, the last only, as Go's
    /// decoder keeps them (and the plain route's map).
    fn keep_last(&mut self) {
        fn unread_key<'s>(slot: &'s Slot<'_>) -> Option<&'s str> {
            match slot {
                Slot::Unread(key, _) => Some(key),
                Slot::Read(_) => None,
            }
        }
        let mut seen = std::collections::HashSet::new();
        if self
            .order
            .iter()
            .filter_map(unread_key)
            .all(|key| seen.insert(key))
        {
            return;
        }
        seen.clear();
        let mut keep: Vec<bool> = self
            .order
            .iter()
            .rev()
            .map(|slot| unread_key(slot).is_none_or(|key| seen.insert(key)))
            .collect();
        drop(seen);
        keep.reverse();
        let mut at = 0;
        self.order.retain(|_| {
            at += 1;
            keep[at - 1]
        });
    }
}

/// A member's place in its object.
#[derive(Debug)]
enum Slot<'a> {
    /// Read into the tree under this key.
    Read(Cow<'a, str>),
    /// Kept as text, as written.
    Unread(Cow<'a, str>, &'a RawValue),
}

/// Reads a value for a node of a footprint that is not read whole: objects
/// member by member (members off every path stay text), anything else whole.
struct Guided<'t>(&'t Footprint<'t>, NodeId);

impl<'de> DeserializeSeed<'de> for Guided<'_> {
    type Value = (Value, Unread<'de>);

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Guided<'_> {
    type Value = (Value, Unread<'de>);

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut map = Map::new();
        let mut unread = Unread::default();
        while let Some(Key(key)) = access.next_key()? {
            match self.0.member(self.1, &key) {
                None => {
                    let raw: &'de RawValue = access.next_value()?;
                    unread.order.push(Slot::Unread(key, raw));
                }
                Some(child) if self.0.whole(child) => {
                    let value: Value = access.next_value()?;
                    unread.children.remove(key.as_ref());
                    map.insert(key.to_string(), value);
                    unread.order.push(Slot::Read(key));
                }
                Some(child) => {
                    let (value, below) = access.next_value_seed(Guided(self.0, child))?;
                    unread.children.insert(key.to_string(), below);
                    map.insert(key.to_string(), value);
                    unread.order.push(Slot::Read(key));
                }
            }
        }
        unread.keep_last();
        Ok((Value::Object(map), unread))
    }

    // Arrays on a path are read whole: an op that adds or removes an
    // element shifts the positions later ops refer to.
    fn visit_seq<A: SeqAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(item) = access.next_element::<Value>()? {
            items.push(item);
        }
        Ok((Value::Array(items), Unread::default()))
    }

    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok((Value::Bool(v), Unread::default()))
    }

    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok((Value::from(v), Unread::default()))
    }

    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok((Value::from(v), Unread::default()))
    }

    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        Ok((
            Number::from_f64(v).map_or(Value::Null, Value::Number),
            Unread::default(),
        ))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok((Value::String(v.to_owned()), Unread::default()))
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok((Value::Null, Unread::default()))
    }
}

/// An object key, borrowed from the text when it holds no escapes.
struct Key<'de>(Cow<'de, str>);

impl<'de> Deserialize<'de> for Key<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct KeyVisitor;
        impl<'de> Visitor<'de> for KeyVisitor {
            type Value = Key<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E>(self, v: &'de str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Borrowed(v)))
            }
            fn visit_str<E>(self, v: &str) -> Result<Key<'de>, E> {
                Ok(Key(Cow::Owned(v.to_owned())))
            }
        }
        deserializer.deserialize_str(KeyVisitor)
    }
}

/// Writes `value` as compact JSON; `unread` holds what an object on a path
/// kept as text. Members keep their document order; members the ops added
/// follow, sorted.
fn write(value: &Value, unread: Option<&Unread<'_>>, compact: bool, out: &mut Vec<u8>) {
    let (Value::Object(map), Some(unread)) = (value, unread) else {
        let _ = serde_json::to_writer(&mut *out, value);
        return;
    };
    out.push(b'{');
    let mut first = true;
    let mut member = |out: &mut Vec<u8>, key: &str| {
        if !std::mem::take(&mut first) {
            out.push(b',');
        }
        let _ = serde_json::to_writer(&mut *out, key);
        out.push(b':');
    };
    let mut written = BTreeSet::new();
    for slot in &unread.order {
        match slot {
            Slot::Read(key) => {
                if let Some(value) = map.get(key.as_ref()) {
                    if written.insert(key.as_ref()) {
                        member(out, key);
                        write(value, unread.children.get(key.as_ref()), compact, out);
                    }
                }
            }
            Slot::Unread(key, raw) => {
                member(out, key);
                if compact {
                    out.extend_from_slice(raw.get().as_bytes());
                } else {
                    minify(raw.get(), out);
                }
            }
        }
    }
    for (key, value) in map {
        if !written.contains(key.as_str()) {
            member(out, key);
            write(value, unread.children.get(key), compact, out);
        }
    }
    out.push(b'}');
}

/// Copies JSON text without insignificant whitespace.
pub(crate) fn minify(text: &str, out: &mut Vec<u8>) {
    let mut start = 0;
    outside_strings(text, |i, b| {
        if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            out.extend_from_slice(&text.as_bytes()[start..i]);
            start = i + 1;
        }
        true
    });
    out.extend_from_slice(&text.as_bytes()[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apply::Semantics;
    use serde_json::json;

    fn both(
        doc: &str,
        payload: &str,
        semantics: Semantics,
    ) -> (Result<Value, TextError>, Result<Value, TextError>) {
        let budget = Budget::default();
        let lazy = apply_to_text(doc, payload, semantics, &budget)
            .map(|text| serde_json::from_str(&text).expect("valid JSON out"));
        let plain = plain(doc, payload, semantics.into(), &budget)
            .map(|text| serde_json::from_str(&text).expect("valid JSON out"));
        (lazy, plain)
    }

    #[test]
    fn lazy_and_plain_agree_on_values_and_errors() {
        let doc = r#"{
            "metadata": {"labels": {"a": "1", "b": "2"}, "finalizers": ["x", "y"], "name": "vm"},
            "spec": {"big": [1, 2.50, {"deep": [true, null]}], "z": "\u003c"},
            "status": {"interfaces": [{"ip": "10.0.0.1"}, {"ip": "10.0.0.2"}], "phase": "Running"}
        }"#;
        let payloads = [
            r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1","b":"2"}},{"op":"add","path":"/metadata/labels/c","value":"3"}]"#,
            r#"[{"op":"test","path":"/metadata/labels","value":{"a":"1"}}]"#,
            r#"[{"op":"replace","path":"/status/interfaces/1/ip","value":"x"},{"op":"remove","path":"/metadata/finalizers/0"}]"#,
            r#"[{"op":"add","path":"/status/interfaces/-","value":{}},{"op":"move","from":"/spec/z","path":"/spec/w"}]"#,
            r#"[{"op":"copy","from":"/spec/big","path":"/status/copy"},{"op":"test","path":"/status/copy/2/deep/1","value":null}]"#,
            r#"[{"op":"replace","path":"/status/missing/x","value":1}]"#,
            r#"[{"op":"remove","path":"/status/interfaces/7"}]"#,
            r#"[{"op":"add","path":"/status/interfaces/01","value":1}]"#,
            r#"[{"op":"add","path":"/status/interfaces/-1","value":1}]"#,
            r#"[{"op":"test","path":"/spec/z","value":"<"}]"#,
            r#"[{"op":"test","path":"/spec/z","value":"\u003c"}]"#,
            r#"[{"op":"test","path":"/metadata/nope","value":null}]"#,
            r#"[{"op":"add","path":"","value":{}}]"#,
            r#"[{"op":"add","path":"metadata","value":{}}]"#,
            r#"[{"op":"frob","path":"/a"}]"#,
            r#"{"op":"add"}"#,
            r#"[{"op":"add","path":"/spec/big/2/deep/0","value":"\uf8ff0"}]"#,
            "[]",
        ];
        for (i, payload) in payloads.iter().enumerate() {
            if i < 6 {
                // Well-formed ops on real pointers: the partial route runs.
                let route = lazy(doc, payload, Semantics::Kube.into(), &Budget::default());
                assert!(route.is_some(), "{payload} took the plain route");
            }
            for semantics in [Semantics::Kube, Semantics::Rfc] {
                let (lazy, plain) = both(doc, payload, semantics);
                assert_eq!(lazy, plain, "{payload} under {semantics}");
            }
        }
    }

    #[test]
    fn repeated_keys_mean_the_last_one_on_both_routes() {
        let doc = r#"{"a": 1, "a": {"b": 2, "x": [1]}, "c": 3, "c": {"d": 4}}"#;
        for payload in [
            r#"[{"op":"replace","path":"/a/b","value":5}]"#,
            r#"[{"op":"test","path":"/c","value":{"d":4}}]"#,
            r#"[{"op":"add","path":"/e","value":1}]"#,
        ] {
            for semantics in [Semantics::Kube, Semantics::Rfc] {
                let (lazy, plain) = both(doc, payload, semantics);
                assert_eq!(lazy, plain, "{payload} under {semantics}");
                assert!(lazy.is_ok(), "{payload}");
            }
        }
    }

    #[test]
    fn text_out_reads_as_go_reads_the_text_in() {
        let budget = Budget::default();
        let add = r#"[{"op":"add","path":"/b/x","value":1}]"#;
        // A repeated key kept as text is written once: the last.
        let out = apply_to_text(r#"{"a":1,"b":{},"a":2}"#, add, Semantics::Kube, &budget).unwrap();
        assert_eq!(out, r#"{"b":{"x":1},"a":2}"#);
        // A lone surrogate is U+FFFD, copied or read.
        let out = apply_to_text(r#"{"a":"\ud800","b":{}}"#, add, Semantics::Kube, &budget).unwrap();
        assert_eq!(out, r#"{"a":"\ufffd","b":{"x":1}}"#);
        // A number out of range is refused, copied or read.
        for doc in [r#"{"a":1e400,"b":{}}"#, r#"{"b":{},"c":[1E999]}"#] {
            let (lazy, plain) = both(doc, add, Semantics::Kube);
            assert!(lazy.is_err(), "{doc}");
            assert_eq!(lazy, plain, "{doc}");
        }
        let out = apply_to_text(r#"{"a":1e3,"b":{}}"#, add, Semantics::Kube, &budget).unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&out).unwrap(),
            json!({"a": 1000.0, "b": {"x": 1}})
        );
    }

    #[test]
    fn untouched_parts_are_copied_as_written_without_whitespace() {
        let doc = "{ \"a\" : { \"z\" : 1 , \"y\" : \"two words\" } ,\n \"b\" : [ 1 ] }";
        let out = apply_to_text(
            doc,
            r#"[{"op":"add","path":"/b/-","value":2}]"#,
            Semantics::Kube,
            &Budget::default(),
        )
        .unwrap();
        assert_eq!(out, r#"{"a":{"z":1,"y":"two words"},"b":[1,2]}"#);
    }

    #[test]
    fn bad_documents_give_the_plain_errors() {
        let budget = Budget::default();
        let deep = format!("{}1{}", "[".repeat(200), "]".repeat(200));
        let payload = r#"[{"op":"add","path":"/0","value":1}]"#;
        for doc in [deep.as_str(), "{\"a\": [1, 2", "", "{\"a\":1} x"] {
            let lazy = apply_to_text(doc, payload, Semantics::Kube, &budget);
            let plain = plain(doc, payload, Semantics::Kube.into(), &budget);
            assert!(lazy.is_err(), "{doc:?}");
            assert_eq!(lazy, plain, "{doc:?}");
        }
        let small = Budget {
            max_bytes: 10,
            max_depth: 128,
        };
        let err =
            apply_to_text(r#"{"a": "0123456789"}"#, "[]", Semantics::Kube, &small).unwrap_err();
        assert!(err.to_string().contains("more than the limit"), "{err}");
    }

    #[test]
    fn very_long_paths_take_the_plain_route() {
        let path = "/a".repeat(200_000);
        let payload = format!(r#"[{{"op":"add","path":"{path}","value":1}}]"#);
        let decoded = crate::patch::decode(&payload).unwrap();
        assert!(Footprint::of(&decoded).is_none());
        let (lazy, plain) = both(r#"{"a":{}}"#, &payload, Semantics::Kube);
        assert!(lazy.is_err());
        assert_eq!(lazy, plain);
    }

    #[test]
    fn private_use_characters_are_plain_data() {
        let doc = json!({"a": "\u{F8FF}0", "b": {"c": 1}}).to_string();
        let out = apply_to_text(
            &doc,
            r#"[{"op":"add","path":"/d","value":1}]"#,
            Semantics::Kube,
            &Budget::default(),
        )
        .unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&out).unwrap(),
            json!({"a": "\u{F8FF}0", "b": {"c": 1}, "d": 1})
        );
    }
}
