//! The value yaml.v2 unmarshals into an `interface{}` (`bool`, `int`,
//! `uint64`, `float64`, `string`, `[]interface{}`,
//! `map[interface{}]interface{}`, `nil`), and Go's `%#v` of it, which
//! yaml.v2 and sigs.k8s.io/yaml print in their errors.

use std::collections::HashMap;
use std::fmt::Write as _;

use super::error::Mark;
use crate::gojson::{format_g, quote};

/// A value as yaml.v2 holds it in an `interface{}`.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Go {
    Nil,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(f64, Mark),
    Str(String),
    Seq(Vec<Go>),
    Map(GoMap),
}

/// A `map[interface{}]interface{}`: entries in the order first set, each
/// with the mark of its key; keys equal as Go compares them.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct GoMap {
    pub entries: Vec<(Go, Go, Mark)>,
    index: HashMap<KeyRepr, usize>,
}

/// A map key as Go's `==` sees it (maps and slices are never keys; NaN
/// equals nothing; -0 equals 0).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum KeyRepr {
    Nil,
    Bool(bool),
    Int(i64),
    Uint(u64),
    Float(u64),
    Str(String),
}

fn key_repr(key: &Go) -> Option<KeyRepr> {
    Some(match key {
        Go::Nil => KeyRepr::Nil,
        Go::Bool(b) => KeyRepr::Bool(*b),
        Go::Int(i) => KeyRepr::Int(*i),
        Go::Uint(u) => KeyRepr::Uint(*u),
        Go::Float(f, _) if f.is_nan() => return None,
        Go::Float(f, _) => KeyRepr::Float(if *f == 0.0 { 0 } else { f.to_bits() }),
        Go::Str(s) => KeyRepr::Str(s.clone()),
        Go::Seq(_) | Go::Map(_) => return None,
    })
}

impl GoMap {
    /// `map[key] = value`.
    pub(super) fn set(&mut self, key: Go, value: Go, mark: Mark) {
        let repr = key_repr(&key);
        if let Some(&i) = repr.as_ref().and_then(|r| self.index.get(r)) {
            self.entries[i].1 = value;
            return;
        }
        if let Some(repr) = repr {
            self.index.insert(repr, self.entries.len());
        }
        self.entries.push((key, value, mark));
    }
}

/// Go's `%#v` (and `%+#v`) of a value yaml.v2 decoded.
pub(super) fn go_syntax(go: &Go) -> String {
    let mut out = String::new();
    write_syntax(&mut out, go, false);
    out
}

fn write_syntax(out: &mut String, go: &Go, nested: bool) {
    match go {
        Go::Nil if nested => out.push_str("interface {}(nil)"),
        Go::Nil => out.push_str("<nil>"),
        Go::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Go::Int(i) => out.push_str(&i.to_string()),
        Go::Uint(u) => {
            let _ = write!(out, "{u:#x}");
        }
        Go::Float(f, _) => out.push_str(&format_g(*f)),
        Go::Str(s) => out.push_str(&quote(s)),
        Go::Seq(items) => {
            out.push_str("[]interface {}{");
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_syntax(out, item, true);
            }
            out.push('}');
        }
        Go::Map(map) => {
            out.push_str("map[interface {}]interface {}{");
            let mut entries: Vec<_> = map.entries.iter().collect();
            entries.sort_by(|a, b| {
                sort_key(&a.0)
                    .partial_cmp(&sort_key(&b.0))
                    .unwrap_or(std::cmp::Ordering::Equal)
            });
            for (i, (key, value, _)) in entries.into_iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_syntax(out, key, true);
                out.push(':');
                write_syntax(out, value, true);
            }
            out.push('}');
        }
    }
}

/// `fmt`'s order of map keys (`internal/fmtsort`): nil first, then by
/// type and value. Between types Go orders by the address of the type's
/// descriptor, which no text shows; here: bool, int, uint64, float64,
/// string.
fn sort_key(go: &Go) -> (u8, f64, u64, &str) {
    match go {
        Go::Nil => (0, 0.0, 0, ""),
        Go::Bool(b) => (1, 0.0, u64::from(*b), ""),
        Go::Int(i) => (2, *i as f64, 0, ""),
        Go::Uint(u) => (3, 0.0, *u, ""),
        Go::Float(f, _) => (4, *f, 0, ""),
        Go::Str(s) => (5, 0.0, 0, s),
        Go::Seq(_) | Go::Map(_) => (6, 0.0, 0, ""),
    }
}
