//! Applying a patch to a document given as JSON text, reading only what the
//! patch touches.
//!
//! A controller patch changes a handful of fields of an object that may be
//! megabytes long. Parsing the whole object into a tree and writing it all
//! back costs far more than the ops. Here the document is read as a tree
//! only along the ops' paths: every container on a path is parsed one level
//! deep (arrays whole), every op's target is parsed whole, and every other subtree stays a
//! slice of the input text, copied to the output as written (minus
//! insignificant whitespace). The ops run on that partial tree with the
//! same engine, so results and errors are those of [`super::apply_decoded`]
//! on the whole tree; only key order and number spelling inside untouched
//! subtrees differ (they are kept as written).
//!
//! Anything unusual (a path that is not a JSON Pointer, a malformed op, a
//! syntax error or too deep a document) takes the plain route: parse all,
//! apply, write all. So every error is exactly the plain route's.

use std::collections::BTreeMap;

use serde_json::value::RawValue;
use serde_json::{Map, Value};

use super::{apply_decoded, ApplyError, Semantics};
use crate::input::{self, Budget, Format, InputError};
use crate::patch::{self, Decoded};
use crate::pointer::Pointer;

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
/// // Untouched `spec` is copied as written.
/// assert_eq!(out, r#"{"metadata":{"labels":{"a":"1","b":"2"}},"spec":{"z":1,"y":[1.0,2]}}"#);
/// ```
pub fn apply_to_text(
    doc: &str,
    payload: &str,
    semantics: Semantics,
    budget: &Budget,
) -> Result<String, TextError> {
    match lazy(doc, payload, semantics, budget) {
        Some(result) => result,
        None => plain(doc, payload, semantics, budget),
    }
}

/// Parse all, apply, write all.
fn plain(
    doc: &str,
    payload: &str,
    semantics: Semantics,
    budget: &Budget,
) -> Result<String, TextError> {
    let mut value = input::parse_as(doc, Format::Json, budget).map_err(TextError::Input)?;
    super::apply_payload(&mut value, payload, semantics).map_err(TextError::Apply)?;
    Ok(serde_json::to_string(&value).unwrap_or_default())
}

/// Marks a lazy subtree in the partial tree: a string starting with this
/// private-use character, then the subtree's number. Inputs that contain
/// the character (raw or escaped) take the plain route.
const MARK: char = '\u{F8FF}';

fn mentions_mark(text: &str) -> bool {
    text.contains(MARK)
        || text
            .as_bytes()
            .windows(6)
            .any(|w| w[0] == b'\\' && w[1..].eq_ignore_ascii_case(b"uf8ff"))
}

/// A path trie: what to parse.
#[derive(Default, Debug)]
struct Node {
    /// Parse this subtree whole (an op reads or replaces it).
    whole: bool,
    /// Children on some op's path, by decoded token.
    children: BTreeMap<String, Node>,
}

impl Node {
    fn insert(&mut self, pointer: &Pointer) {
        let mut node = self;
        for token in pointer.tokens() {
            if node.whole {
                return;
            }
            node = node
                .children
                .entry(token.decoded().into_owned())
                .or_default();
        }
        node.whole = true;
        node.children.clear();
    }
}

/// The lazy route; `None` means "take the plain route".
fn lazy(
    doc: &str,
    payload: &str,
    semantics: Semantics,
    budget: &Budget,
) -> Option<Result<String, TextError>> {
    if doc.len() > budget.max_bytes || mentions_mark(doc) || mentions_mark(payload) {
        return None;
    }
    let compact = scan(doc, budget.max_depth.min(Budget::DEPTH))?;
    let decoded: Decoded = patch::decode(payload).ok()?;
    if decoded.malformed.is_some() {
        return None;
    }
    let mut trie = Node::default();
    for op in &decoded.ops {
        for path in std::iter::once(&op.path).chain(op.from.as_ref()) {
            let pointer = Pointer::parse(path).ok()?;
            if pointer.is_root() {
                return None;
            }
            trie.insert(pointer);
        }
    }
    let root: &RawValue = serde_json::from_str(doc).ok()?;
    let mut lazies = Vec::new();
    let mut tree = build(root, &trie, &mut lazies)?;
    if let Err(err) = apply_decoded(&mut tree, &decoded, semantics) {
        return Some(Err(TextError::Apply(err)));
    }
    let mut out = String::with_capacity(doc.len() + payload.len());
    write(&tree, &lazies, compact, &mut out);
    Some(Ok(out))
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
/// `None` when too deep (the plain route then reports it).
fn scan(text: &str, max_depth: usize) -> Option<bool> {
    let mut depth = 0usize;
    let mut compact = true;
    let mut too_deep = false;
    outside_strings(text, |_, b| {
        match b {
            b'[' | b'{' => {
                depth += 1;
                too_deep = depth > max_depth;
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            b' ' | b'\n' | b'\r' | b'\t' => compact = false,
            _ => {}
        }
        !too_deep
    });
    (!too_deep).then_some(compact)
}

/// The partial tree of `raw` for `node`; `None` on anything unexpected.
fn build<'a>(raw: &'a RawValue, node: &Node, lazies: &mut Vec<&'a RawValue>) -> Option<Value> {
    let text = raw.get();
    if node.whole || node.children.is_empty() {
        return serde_json::from_str(text).ok();
    }
    match text.as_bytes().first()? {
        b'{' => {
            let members: BTreeMap<String, &RawValue> = serde_json::from_str(text).ok()?;
            let mut map = Map::new();
            for (key, value) in members {
                let built = match node.children.get(&key) {
                    Some(child) => build(value, child, lazies)?,
                    None => mark(value, lazies),
                };
                map.insert(key, built);
            }
            Some(Value::Object(map))
        }
        // Arrays on a path are read whole: an op that adds or removes an
        // element shifts the positions later ops refer to.
        _ => serde_json::from_str(text).ok(),
    }
}

fn mark<'a>(raw: &'a RawValue, lazies: &mut Vec<&'a RawValue>) -> Value {
    lazies.push(raw);
    Value::String(format!("{MARK}{}", lazies.len() - 1))
}

/// Writes `value` as compact JSON, lazy subtrees as their text.
fn write(value: &Value, lazies: &[&RawValue], compact: bool, out: &mut String) {
    match value {
        Value::String(s) if s.starts_with(MARK) => {
            let index: usize = s[MARK.len_utf8()..].parse().unwrap_or(usize::MAX);
            match lazies.get(index) {
                Some(raw) if compact => out.push_str(raw.get()),
                Some(raw) => minify(raw.get(), out),
                None => out.push_str(&serde_json::to_string(value).unwrap_or_default()),
            }
        }
        Value::Object(map) => {
            out.push('{');
            for (i, (key, value)) in map.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&serde_json::to_string(key).unwrap_or_default());
                out.push(':');
                write(value, lazies, compact, out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, value) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write(value, lazies, compact, out);
            }
            out.push(']');
        }
        leaf => out.push_str(&serde_json::to_string(leaf).unwrap_or_default()),
    }
}

/// Copies JSON text without insignificant whitespace.
fn minify(text: &str, out: &mut String) {
    let mut start = 0;
    outside_strings(text, |i, b| {
        if matches!(b, b' ' | b'\n' | b'\r' | b'\t') {
            out.push_str(&text[start..i]);
            start = i + 1;
        }
        true
    });
    out.push_str(&text[start..]);
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn both(
        doc: &str,
        payload: &str,
        semantics: Semantics,
    ) -> (Result<Value, TextError>, Result<Value, TextError>) {
        let budget = Budget::default();
        let lazy = apply_to_text(doc, payload, semantics, &budget)
            .map(|text| serde_json::from_str(&text).expect("valid JSON out"));
        let plain = plain(doc, payload, semantics, &budget)
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
                let route = lazy(doc, payload, Semantics::Kube, &Budget::default());
                assert!(route.is_some(), "{payload} took the plain route");
            }
            for semantics in [Semantics::Kube, Semantics::Rfc] {
                let (lazy, plain) = both(doc, payload, semantics);
                assert_eq!(lazy, plain, "{payload} under {semantics}");
            }
        }
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
            let plain = plain(doc, payload, Semantics::Kube, &budget);
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
    fn the_marker_in_input_takes_the_plain_route() {
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
