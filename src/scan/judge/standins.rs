//! What lint is handed for what the code leaves unknown: every
//! combination of branches of a payload, and stand-ins of the right shape
//! for unknown paths and values (the same expression gets the same one, so
//! a `test` still guards the op after it).

use std::collections::HashMap;

use serde_json::{json, Map, Value};

use crate::lint;
use crate::scan::value::{collection_at, HoleKind, Node, OpT, Piece, Shape, Text, Val};

/// Most combinations of branches linted one by one; above, the union of
/// all branches is linted once.
pub(super) const MAX_VARIANTS: usize = 64;

/// One op of a combination, or ops the scanner cannot see.
#[derive(Clone, Copy)]
pub(super) enum Item<'n> {
    Op(&'n OpT),
    Opaque,
}

/// Every combination of branches of `nodes`, or `None` above `cap`.
pub(super) fn variants(nodes: &[Node], cap: usize) -> Option<Vec<Vec<Item<'_>>>> {
    let mut out: Vec<Vec<Item>> = vec![Vec::new()];
    for node in nodes {
        match node {
            Node::Op(op) => out.iter_mut().for_each(|v| v.push(Item::Op(op))),
            Node::Opaque(_) => out.iter_mut().for_each(|v| v.push(Item::Opaque)),
            Node::Choice(arms) => {
                let mut arm_variants = Vec::new();
                for arm in arms {
                    arm_variants.extend(variants(arm, cap)?);
                }
                if out.len().saturating_mul(arm_variants.len()) > cap {
                    return None;
                }
                let mut next = Vec::with_capacity(out.len() * arm_variants.len());
                for prefix in &out {
                    for arm in &arm_variants {
                        let mut v = prefix.clone();
                        v.extend(arm.iter().copied());
                        next.push(v);
                    }
                }
                out = next;
            }
        }
    }
    Some(out)
}

/// The union of all branches, in source order.
pub(super) fn union(nodes: &[Node]) -> Vec<Item<'_>> {
    let mut out = Vec::new();
    fn walk<'n>(nodes: &'n [Node], out: &mut Vec<Item<'n>>) {
        for node in nodes {
            match node {
                Node::Op(op) => out.push(Item::Op(op)),
                Node::Opaque(_) => out.push(Item::Opaque),
                Node::Choice(arms) => arms.iter().for_each(|a| walk(a, out)),
            }
        }
    }
    walk(nodes, &mut out);
    out
}

/// Stand-ins for the unknown parts of one payload: the same expression
/// gets the same stand-in, so a `test` still guards the op after it.
#[derive(Default)]
pub(super) struct Standins {
    pub(super) ids: HashMap<String, usize>,
    pub(super) placeholders: bool,
    /// The object's kind: what its fields hold (a VMI's `/status` is an
    /// object several writers fill).
    pub(super) kind: Option<String>,
}

impl Standins {
    fn id(&mut self, expr: &str) -> usize {
        let next = self.ids.len();
        *self.ids.entry(expr.to_owned()).or_insert(next)
    }

    /// The path with its holes filled, `None` when it does not start
    /// with known text.
    pub(super) fn path(&mut self, text: &Text) -> Option<String> {
        let mut out = String::new();
        for piece in &text.pieces {
            match piece {
                Piece::Lit(s) => out.push_str(s),
                Piece::Hole(hole) => {
                    if out.is_empty() {
                        return None;
                    }
                    self.placeholders = true;
                    let n = self.id(&hole.expr);
                    let key_of_names = out.ends_with("/metadata/labels/")
                        || out.ends_with("/metadata/annotations/");
                    match hole.kind {
                        HoleKind::Index => out.push_str(&n.to_string()),
                        HoleKind::Text if key_of_names => {
                            // A label or annotation key may be qualified
                            // (`example.com/name`): unescaped, it splits.
                            out.push_str(&format!("example.com/k{n}"));
                        }
                        _ => out.push_str(&format!("k{n}")),
                    }
                }
            }
        }
        out.starts_with('/').then_some(out)
    }

    /// A JSON value standing for `val` written at `path`.
    pub(super) fn value(&mut self, val: &Val, path: &str) -> Value {
        if let Some(known) = val.known_json() {
            return known;
        }
        self.placeholders = true;
        match val {
            Val::Object(members) => Value::Object(
                members
                    .iter()
                    .map(|(k, v)| (k.clone(), self.value(v, "")))
                    .collect(),
            ),
            Val::List(items) => Value::Array(items.iter().map(|v| self.value(v, "")).collect()),
            Val::Str(_) => Value::String("value".to_owned()),
            other => match other.shape() {
                Shape::Unknown => match collection_at(path) {
                    Some(shape) => stand_in(shape),
                    None => self.shared_object(path),
                },
                s => stand_in(s),
            },
        }
    }
}

impl Standins {
    /// A struct several writers fill, at `path` of an object of the kind
    /// (the writers table), as an object; anything else as a string.
    fn shared_object(&self, path: &str) -> Value {
        let pointer = crate::pointer::Pointer::parse(path).ok();
        let shape = pointer.and_then(|p| lint::writers::shape(self.kind.as_deref(), p));
        match shape {
            Some((lint::writers::Shape::Object, _)) => json!({"field": "value"}),
            Some((lint::writers::Shape::Map, _)) => stand_in(Shape::Map),
            Some((lint::writers::Shape::List, _)) => stand_in(Shape::List),
            Some((lint::writers::Shape::Scalar, _)) | None => Value::String("value".to_owned()),
        }
    }
}

pub(super) fn stand_in(shape: Shape) -> Value {
    match shape {
        Shape::Map => json!({"example.com/key": "value"}),
        Shape::List => json!(["element"]),
        _ => Value::String("value".to_owned()),
    }
}

pub(super) fn stand_in_body(val: &Val, path: &str, standins: &mut Standins) -> Value {
    match val {
        Val::Object(members) => {
            let mut map = Map::new();
            for (k, v) in members {
                let child = format!("{path}/{}", crate::pointer::escape(k));
                map.insert(k.clone(), stand_in_body(v, &child, standins));
            }
            Value::Object(map)
        }
        other => standins.value(other, path),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::patch::OpKind;
    use crate::scan::go::Pos;
    use crate::scan::value::Via;

    fn op(id: u32, kind: OpKind) -> OpT {
        OpT {
            id,
            kind: Some(kind),
            path: Text::lit("/metadata/labels"),
            value: Some(Val::Nil),
            value_expr: String::new(),
            at: Pos::default(),
            via: Via::Literal,
        }
    }

    #[test]
    fn branches_make_combinations_until_the_cap() {
        let nodes = vec![
            Node::Op(op(1, OpKind::Test)),
            Node::Choice(vec![
                vec![Node::Op(op(2, OpKind::Add))],
                vec![Node::Op(op(3, OpKind::Replace))],
            ]),
            Node::Choice(vec![vec![Node::Op(op(4, OpKind::Add))], vec![]]),
        ];
        let v = variants(&nodes, 64).unwrap();
        assert_eq!(v.len(), 4);
        assert!(variants(&nodes, 3).is_none());
        assert_eq!(union(&nodes).len(), 4);
    }

    #[test]
    fn stand_ins_keep_keys_apart_and_slashes_possible() {
        let mut s = Standins::default();
        let mut t = Text::lit("/metadata/labels/");
        t.append(&Text::hole("key", HoleKind::Text));
        assert_eq!(
            s.path(&t).as_deref(),
            Some("/metadata/labels/example.com/k0")
        );
        let mut e = Text::lit("/metadata/labels/");
        e.append(&Text::hole("EscapeJSONPointer(key)", HoleKind::Escaped));
        assert_eq!(s.path(&e).as_deref(), Some("/metadata/labels/k1"));
        let mut i = Text::lit("/metadata/finalizers/");
        i.append(&Text::hole("i", HoleKind::Index));
        assert_eq!(s.path(&i).as_deref(), Some("/metadata/finalizers/2"));
        assert_eq!(s.path(&Text::hole("p", HoleKind::Text)), None);
        let whole = Val::Opaque {
            expr: "vmi.Labels".into(),
            shape: Shape::Map,
        };
        assert!(s.value(&whole, "/metadata/labels").is_object());
        let unknown = Val::Unknown("newFinalizers".into());
        assert!(s.value(&unknown, "/metadata/finalizers").is_array());
        assert!(s.placeholders);
    }
}
