//! A node tree to the Go value yaml.v2 unmarshals into `interface{}`
//! (`decode.go`): scalars resolved as YAML 1.1 (`resolve.rs`), tags
//! checked (`!!int 1.5` is refused, `!foo 1` is the string "1"), `<<`
//! merge keys (a map, an alias to one, or a list of them, the earlier
//! taking precedence; keys after the `<<` override what it brings, keys
//! before it are overridden), a repeated key keeping its last value, and
//! yaml.v2's guards (an anchor inside itself, excessive aliasing).

use std::collections::{BTreeMap, HashSet};

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine as _;

use super::compose::{Content, Tree};
use super::error::Mark;
use super::error::{Error, Stage};
use super::resolve::{self, Scalar};
use super::value::{go_syntax, Go, GoMap};
use crate::input::Budget;

const TAG_PREFIX: &str = "tag:yaml.org,2002:";

/// A plain scalar YAML 1.1 reads as a boolean or a number.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Note {
    pub mark: Mark,
    pub written: String,
    pub scalar: Scalar,
    pub key: bool,
}

/// yaml.v2's decoder state.
pub(super) struct Decoder<'t> {
    tree: &'t Tree,
    aliases: HashSet<usize>,
    decode_count: usize,
    alias_count: usize,
    alias_depth: usize,
    depth: usize,
    max_depth: usize,
    pub notes: BTreeMap<usize, Note>,
}

fn fail(problem: impl Into<String>, mark: Mark) -> Error {
    Error::new(Stage::Decode, problem, mark)
}

/// yaml.v2's `allowedAliasRatio`.
fn allowed_alias_ratio(decode_count: usize) -> f64 {
    const LOW: usize = 400_000;
    const HIGH: usize = 4_000_000;
    if decode_count <= LOW {
        0.99
    } else if decode_count >= HIGH {
        0.10
    } else {
        0.99 - 0.89 * ((decode_count - LOW) as f64 / (HIGH - LOW) as f64)
    }
}

impl<'t> Decoder<'t> {
    pub fn new(tree: &'t Tree, budget: &Budget) -> Decoder<'t> {
        Decoder {
            tree,
            aliases: HashSet::new(),
            decode_count: 0,
            alias_count: 0,
            alias_depth: 0,
            depth: 0,
            max_depth: budget.max_depth,
            notes: BTreeMap::new(),
        }
    }

    /// The document's value: its root decoded (nil for an empty one).
    pub fn document(&mut self) -> Result<Go, Error> {
        self.count(Mark::default())?;
        match self.tree.root {
            Some(root) => self.value(root, false),
            None => Ok(Go::Nil),
        }
    }

    /// One `d.unmarshal` call: yaml.v2's counts and its aliasing guard,
    /// and patchlab's node budget.
    fn count(&mut self, mark: Mark) -> Result<(), Error> {
        self.decode_count += 1;
        if self.alias_depth > 0 {
            self.alias_count += 1;
        }
        let ratio = self.alias_count as f64 / self.decode_count as f64;
        if self.alias_count > 100
            && self.decode_count > 1000
            && ratio > allowed_alias_ratio(self.decode_count)
        {
            return Err(fail("document contains excessive aliasing", mark));
        }
        if self.decode_count > crate::limits::YAML_NODES {
            let problem = "aliases expand to too many nodes";
            return Err(Error::new(Stage::Budget, problem, mark));
        }
        Ok(())
    }

    /// `d.unmarshal(n, out)` with `out` an `interface{}`.
    fn value(&mut self, id: usize, key: bool) -> Result<Go, Error> {
        let node = &self.tree.nodes[id];
        self.count(node.mark)?;
        match &node.content {
            Content::Scalar {
                value, implicit, ..
            } => self.scalar(id, value, *implicit, key),
            Content::Alias(name, target) => {
                let (name, target) = (name.clone(), *target);
                self.alias(id, &name, target, |d| d.value(target, key))
            }
            Content::Sequence(children) => {
                self.enter(node.mark)?;
                let items = children
                    .iter()
                    .map(|&child| self.value(child, false))
                    .collect::<Result<Vec<_>, _>>()?;
                self.depth -= 1;
                Ok(Go::Seq(items))
            }
            Content::Mapping(_) => {
                self.enter(node.mark)?;
                let mut map = GoMap::default();
                self.fill(id, &mut map)?;
                self.depth -= 1;
                Ok(Go::Map(map))
            }
        }
    }

    fn enter(&mut self, mark: Mark) -> Result<(), Error> {
        self.depth += 1;
        if self.depth > self.max_depth {
            let problem = format!(
                "nesting is deeper than the limit of {} levels",
                self.max_depth
            );
            return Err(Error::new(Stage::Budget, problem, mark));
        }
        Ok(())
    }

    /// `d.alias`: expands the anchored node, refusing an alias met again
    /// inside its own expansion.
    fn alias<T>(
        &mut self,
        id: usize,
        name: &str,
        target: usize,
        expand: impl FnOnce(&mut Self) -> Result<T, Error>,
    ) -> Result<T, Error> {
        if !self.aliases.insert(id) {
            let mark = self.tree.nodes[target].mark;
            return Err(fail(format!("anchor '{name}' value contains itself"), mark));
        }
        self.alias_depth += 1;
        let out = expand(self);
        self.alias_depth -= 1;
        self.aliases.remove(&id);
        out
    }

    /// `d.mapping` into `map`: merge keys merged, other keys set in order.
    fn fill(&mut self, id: usize, map: &mut GoMap) -> Result<(), Error> {
        let Content::Mapping(children) = &self.tree.nodes[id].content else {
            return Ok(());
        };
        for pair in children.chunks(2) {
            let (k, v) = (pair[0], pair.get(1).copied().unwrap_or(pair[0]));
            if self.is_merge(k) {
                self.merge(v, map)?;
                continue;
            }
            let key = self.value(k, true)?;
            let mark = self.tree.nodes[k].mark;
            if matches!(key, Go::Seq(_) | Go::Map(_)) {
                let problem = format!("invalid map key: {}", go_syntax(&key));
                return Err(fail(problem, mark));
            }
            let value = self.value(v, false)?;
            map.set(key, value, mark);
        }
        Ok(())
    }

    /// `isMerge`: a plain `<<` key, or one tagged `!!merge`.
    fn is_merge(&self, id: usize) -> bool {
        let node = &self.tree.nodes[id];
        match &node.content {
            Content::Scalar {
                value, implicit, ..
            } => value == "<<" && (*implicit || node.tag == format!("{TAG_PREFIX}merge")),
            _ => false,
        }
    }

    /// `d.merge`: a map, an alias to one, or a list of those (the last
    /// merged first, so the earlier ones win).
    fn merge(&mut self, id: usize, map: &mut GoMap) -> Result<(), Error> {
        let node = &self.tree.nodes[id];
        let mark = node.mark;
        let want_map = || {
            fail(
                "map merge requires map or sequence of maps as the value",
                mark,
            )
        };
        match &node.content {
            Content::Mapping(_) => self.merge_one(id, map),
            Content::Alias(_, target) => {
                if !matches!(self.tree.nodes[*target].content, Content::Mapping(_)) {
                    return Err(want_map());
                }
                self.merge_one(id, map)
            }
            Content::Sequence(children) => {
                for &child in children.iter().rev() {
                    let content = &self.tree.nodes[child].content;
                    let mapping = match content {
                        Content::Alias(_, target) => &self.tree.nodes[*target].content,
                        other => other,
                    };
                    if !matches!(mapping, Content::Mapping(_)) {
                        return Err(want_map());
                    }
                    self.merge_one(child, map)?;
                }
                Ok(())
            }
            Content::Scalar { .. } => Err(want_map()),
        }
    }

    /// `d.unmarshal(n, out)` with `out` the map being merged into: a
    /// mapping node, or an alias to one.
    fn merge_one(&mut self, id: usize, map: &mut GoMap) -> Result<(), Error> {
        let node = &self.tree.nodes[id];
        self.count(node.mark)?;
        match &node.content {
            Content::Alias(name, target) => {
                let (name, target) = (name.clone(), *target);
                self.alias(id, &name, target, |d| d.merge_one(target, map))
            }
            _ => self.fill(id, map),
        }
    }

    /// `d.scalar` into `interface{}`.
    fn scalar(&mut self, id: usize, text: &str, implicit: bool, key: bool) -> Result<Go, Error> {
        let node = &self.tree.nodes[id];
        let (tag, mark) = (node.tag.as_str(), node.mark);
        if tag.is_empty() && !implicit {
            return Ok(Go::Str(text.to_owned()));
        }
        let resolved = resolve_tagged(tag, text, mark)?;
        let go = match resolved {
            Resolved::Binary => Go::Str(binary(text, mark)?),
            Resolved::Timestamp | Resolved::Str => Go::Str(text.to_owned()),
            Resolved::Scalar(scalar) => {
                if tag.is_empty() && !matches!(scalar, Scalar::Str | Scalar::Null) {
                    let written = text.to_owned();
                    let note = Note {
                        mark,
                        written,
                        scalar,
                        key,
                    };
                    self.notes.entry(id).or_insert(note);
                }
                scalar_value(scalar, text, mark)
            }
        };
        Ok(go)
    }
}

fn scalar_value(scalar: Scalar, text: &str, mark: Mark) -> Go {
    match scalar {
        Scalar::Null => Go::Nil,
        Scalar::Bool(b) => Go::Bool(b),
        Scalar::Int(i) => Go::Int(i),
        Scalar::Uint(u) => Go::Uint(u),
        Scalar::Float(f) => Go::Float(f, mark),
        Scalar::Str => Go::Str(text.to_owned()),
    }
}

/// What `resolve(tag, text)` gave.
enum Resolved {
    Scalar(Scalar),
    Timestamp,
    /// A string under a tag yaml.v2 does not resolve (`!foo`, `!`).
    Str,
    Binary,
}

/// yaml.v2's `resolve` with a tag: untagged, `!!str`, `!!bool`, `!!int`,
/// `!!float`, `!!null` and `!!timestamp` are resolved and must agree
/// (`!!float` takes an integer); `!!binary` is base64; any other tag
/// leaves the text a string.
fn resolve_tagged(tag: &str, text: &str, mark: Mark) -> Result<Resolved, Error> {
    let short = tag.strip_prefix(TAG_PREFIX);
    match short {
        Some("binary") => return Ok(Resolved::Binary),
        Some("str") => return Ok(Resolved::Scalar(Scalar::Str)),
        Some("bool" | "int" | "float" | "null" | "timestamp") => {}
        _ if tag.is_empty() => {}
        _ => return Ok(Resolved::Str),
    }
    let (scalar, timestamp) = resolve::value(text, matches!(short, None | Some("timestamp")));
    let rtag = match scalar {
        _ if timestamp => "timestamp",
        Scalar::Null => "null",
        Scalar::Bool(_) => "bool",
        Scalar::Int(_) | Scalar::Uint(_) => "int",
        Scalar::Float(_) => "float",
        Scalar::Str => "str",
    };
    match short {
        None => {}
        Some(t) if t == rtag => {}
        // An `int` becomes a float; a `uint64` does not (yaml.v2 converts
        // `int` and `int64` only).
        Some("float") if rtag == "int" => {
            if let Scalar::Int(i) = scalar {
                return Ok(Resolved::Scalar(Scalar::Float(i as f64)));
            }
            let problem = format!("cannot decode !!int `{text}` as a !!float");
            return Err(fail(problem, mark));
        }
        Some(t) => {
            let problem = format!("cannot decode !!{rtag} `{text}` as a !!{t}");
            return Err(fail(problem, mark));
        }
    }
    Ok(if timestamp {
        Resolved::Timestamp
    } else {
        Resolved::Scalar(scalar)
    })
}

/// `!!binary`: standard base64 (line breaks ignored) to a Go string,
/// each byte that is not UTF-8 read as U+FFFD (as Go's JSON encoder
/// writes it).
fn binary(text: &str, mark: Mark) -> Result<String, Error> {
    let config = GeneralPurposeConfig::new()
        .with_decode_allow_trailing_bits(true)
        .with_decode_padding_mode(DecodePaddingMode::RequireCanonical);
    let engine = GeneralPurpose::new(&base64::alphabet::STANDARD, config);
    let clean: String = text.chars().filter(|c| !matches!(c, '\r' | '\n')).collect();
    let bytes = engine
        .decode(clean)
        .map_err(|_| fail("!!binary value contains invalid base64 data", mark))?;
    Ok(go_string(&bytes))
}

/// Bytes as Go's JSON encoder reads them: each byte of an invalid UTF-8
/// sequence is one U+FFFD.
fn go_string(bytes: &[u8]) -> String {
    let mut out = String::new();
    let mut rest = bytes;
    while !rest.is_empty() {
        match std::str::from_utf8(rest) {
            Ok(valid) => {
                out.push_str(valid);
                break;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                out.push('\u{FFFD}');
                rest = &after[1..];
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_strings_replace_each_bad_byte() {
        assert_eq!(go_string(b"a\xE2\x82b\xFF"), "a\u{FFFD}\u{FFFD}b\u{FFFD}");
        assert_eq!(go_string("é✓".as_bytes()), "é✓");
    }

    #[test]
    fn tags_resolve_as_yaml_v2() {
        let m = Mark::default();
        let int = |t: &str, s: &str| resolve_tagged(&format!("{TAG_PREFIX}{t}"), s, m);
        assert!(matches!(int("float", "1"), Ok(Resolved::Scalar(Scalar::Float(f))) if f == 1.0));
        let err = int("int", "1.5").err().unwrap();
        assert_eq!(err.problem, "cannot decode !!float `1.5` as a !!int");
        let err = int("int", "").err().unwrap();
        assert_eq!(err.problem, "cannot decode !!null `` as a !!int");
        assert!(matches!(
            int("timestamp", "2001-12-14"),
            Ok(Resolved::Timestamp)
        ));
        assert!(int("timestamp", "2001-13-14").is_err());
        assert!(matches!(resolve_tagged("!foo", "1", m), Ok(Resolved::Str)));
        assert!(matches!(resolve_tagged("!", "1", m), Ok(Resolved::Str)));
        assert_eq!(binary("aGVs\nbG8=", m).unwrap(), "hello");
        assert!(binary("aGVsbG8", m).is_err());
    }
}
