//! Composite literals: op structs and maps (`PatchOperation{Op: "add",
//! ...}`, `map[string]any{"op": ...}`), slices of them, plain maps and
//! slices.

use tree_sitter::Node as TsNode;

use super::ops::nodes_or_opaque;
use super::Func;
use crate::patch::OpKind;
use crate::scan::go::{children, field};
use crate::scan::value::{Piece, Shape, Text, Val, Via};

/// A member of a map or struct literal: its key, value and the value as
/// written.
type Member = (String, Val, String);

/// The keys an op struct or map holds its op, path and value under.
const OP: &[&str] = &["op", "Op", "Operation"];
const PATH: &[&str] = &["path", "Path"];
const VALUE: &[&str] = &["value", "Value"];

/// The first member under one of `names`: its value and expression.
fn member<'m>(members: &'m [Member], names: &[&str]) -> Option<(&'m Val, &'m str)> {
    members
        .iter()
        .find(|(k, _, _)| names.contains(&k.as_str()))
        .map(|(_, v, e)| (v, e.as_str()))
}

/// The node inside a `literal_element`, or `node` itself.
fn unwrapped(node: TsNode) -> TsNode {
    if node.kind() == "literal_element" {
        children(node).into_iter().next().unwrap_or(node)
    } else {
        node
    }
}

impl<'f> Func<'_, 'f, '_> {
    /// A composite literal's value, from its `body` and its type as
    /// written (empty for an element whose type is implied).
    pub(super) fn literal(&mut self, body: TsNode<'f>, ty: &str) -> Val {
        let ty = ty.trim();
        let ty = ty.strip_prefix('&').unwrap_or(ty);
        if ty.starts_with('[') {
            return self.list_literal(body, ty.split_once(']').map_or("", |(_, e)| e));
        }
        let members = self.members(body, ty);
        let names_op = member(&members, OP)
            .and_then(|(v, _)| v.literal())
            .is_some_and(|s| OpKind::parse(&s).is_some());
        let is_pointer = member(&members, PATH)
            .and_then(|(v, _)| v.text())
            .is_some_and(|t| matches!(t.pieces.first(), Some(Piece::Lit(s)) if s.starts_with('/')));
        if member(&members, OP).is_some()
            && member(&members, PATH).is_some()
            && (names_op || is_pointer)
        {
            return self.op_from_members(&members, body);
        }
        if !ty.is_empty() && !ty.starts_with("map[") {
            // A struct: its JSON names come from tags the scanner does
            // not read.
            return Val::opaque(Shape::Unknown, self.short(body.parent().unwrap_or(body)));
        }
        Val::Object(members.into_iter().map(|(k, v, _)| (k, v)).collect())
    }

    /// A slice literal of `elem_ty`: ops when it holds one.
    fn list_literal(&mut self, body: TsNode<'f>, elem_ty: &str) -> Val {
        let mut items = Vec::new();
        for element in children(body) {
            let value = if element.kind() == "keyed_element" {
                field(element, "value").or_else(|| children(element).into_iter().last())
            } else {
                Some(element)
            };
            if let Some(value) = value {
                items.push(self.element(value, elem_ty));
            }
        }
        if items.iter().any(|i| matches!(i, Val::Op(_))) {
            return Val::Ops(
                items
                    .iter()
                    .flat_map(|i| nodes_or_opaque(i, "element"))
                    .collect(),
            );
        }
        Val::List(items)
    }

    /// The keyed members of a map or struct literal.
    fn members(&mut self, body: TsNode<'f>, ty: &str) -> Vec<Member> {
        let mut members = Vec::new();
        for element in children(body) {
            if element.kind() != "keyed_element" {
                continue;
            }
            let (key, value) = match (field(element, "key"), field(element, "value")) {
                (Some(k), Some(v)) => (k, v),
                _ => match children(element)[..] {
                    [k, v] => (k, v),
                    _ => continue,
                },
            };
            let key = unwrapped(key);
            let key_val = match key.kind() {
                "field_identifier" | "identifier" if !ty.starts_with("map[") => {
                    Val::Str(Text::lit(self.text(key)))
                }
                _ => self.expr(key),
            };
            let key_text = key_val
                .literal()
                .unwrap_or_else(|| format!("<{}>", self.short(key)));
            let value = unwrapped(value);
            let val = self.element(value, "");
            if key_text == "Patch" {
                self.admission(std::slice::from_ref(&val));
            }
            members.push((key_text, val, self.short(value)));
        }
        members
    }

    fn element(&mut self, node: TsNode<'f>, elem_ty: &str) -> Val {
        if node.kind() == "literal_value" {
            self.literal(node, elem_ty)
        } else if node.kind() == "literal_element" {
            match children(node).into_iter().next() {
                Some(inner) => self.element(inner, elem_ty),
                None => Val::Unknown(String::new()),
            }
        } else {
            self.expr(node)
        }
    }

    /// The op an op struct or map literal writes.
    fn op_from_members(&mut self, members: &[Member], at: TsNode<'f>) -> Val {
        let kind = member(members, OP)
            .and_then(|(v, _)| v.literal())
            .and_then(|s| OpKind::parse(&s));
        let path = member(members, PATH)
            .map(|(v, e)| self.to_text(v, e))
            .unwrap_or_default();
        let (value, value_expr) = match member(members, VALUE) {
            Some((v, e)) => (Some(v.clone()), e.to_owned()),
            None => (Some(Val::Nil), String::new()),
        };
        let value = value.filter(|_| kind != Some(OpKind::Remove));
        let op = self.new_op(kind, path, value, value_expr, self.pos(at), Via::Literal);
        Val::Op(Box::new(op))
    }
}
