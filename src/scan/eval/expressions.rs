//! Expressions: names, literals, `+` on strings, selectors and the
//! dispatch to calls and composite literals.

use tree_sitter::Node as TsNode;

use super::packages::package_value;
use super::{cut, Func};
use crate::scan::go::{children, field, string_literal};
use crate::scan::value::{HoleKind, Shape, Text, Val};

impl<'f> Func<'_, 'f, '_> {
    pub(super) fn expr(&mut self, node: TsNode<'f>) -> Val {
        if !self.budget() {
            return Val::Unknown(self.short(node));
        }
        self.depth += 1;
        let val = self.expr_inner(node);
        self.depth -= 1;
        val
    }

    /// Evaluates each of `nodes`, in order.
    pub(super) fn exprs(&mut self, nodes: &[TsNode<'f>]) -> Vec<Val> {
        nodes.iter().map(|n| self.expr(*n)).collect()
    }

    /// Evaluates each of `nodes` with its text.
    pub(super) fn exprs_with_text(&mut self, nodes: &[TsNode<'f>]) -> Vec<(Val, &'f str)> {
        nodes
            .iter()
            .map(|n| (self.expr(*n), self.text(*n)))
            .collect()
    }

    fn expr_inner(&mut self, node: TsNode<'f>) -> Val {
        let text = self.text(node);
        match node.kind() {
            "identifier" => self
                .lookup(text)
                .cloned()
                .unwrap_or_else(|| Val::Unknown(text.to_owned())),
            "nil" => Val::Nil,
            "true" => Val::Const(serde_json::Value::Bool(true)),
            "false" => Val::Const(serde_json::Value::Bool(false)),
            "int_literal" => text
                .replace('_', "")
                .parse::<i64>()
                .map(|n| Val::Const(n.into()))
                .unwrap_or_else(|_| Val::Unknown(text.to_owned())),
            "interpreted_string_literal" | "raw_string_literal" => {
                match string_literal(self.file(), node) {
                    Some(s) => Val::Str(Text::lit(s)),
                    None => Val::Unknown(text.to_owned()),
                }
            }
            "parenthesized_expression" => match children(node).into_iter().next() {
                Some(inner) => self.expr(inner),
                None => Val::Unknown(text.to_owned()),
            },
            "binary_expression" => self.binary(node),
            // `&x` and `*x` are followed as `x`.
            "unary_expression"
                if field(node, "operator").is_some_and(|o| matches!(self.text(o), "&" | "*")) =>
            {
                self.inner(field(node, "operand"), text)
            }
            "selector_expression" => self.selector(node),
            "index_expression" => {
                self.evaluated(field(node, "index"));
                Val::opaque(Shape::Element, cut(text))
            }
            "call_expression" => self.call(node),
            "type_conversion_expression" => self.inner(field(node, "operand"), text),
            "composite_literal" => {
                let ty = field(node, "type").map_or("", |t| self.text(t));
                match field(node, "body") {
                    Some(body) => self.literal(body, ty),
                    None => Val::Unknown(cut(text)),
                }
            }
            "literal_value" => self.literal(node, ""),
            "func_literal" => Val::Closure {
                file: self.file().id,
                start: node.start_byte(),
                end: node.end_byte(),
            },
            "variadic_argument" => self.inner(children(node).into_iter().next(), text),
            // `obj.DeepCopyObject().(client.Object)` is still the copy.
            "type_assertion_expression" => self.inner(field(node, "operand"), text),
            "unary_expression" => {
                self.evaluated(field(node, "operand"));
                Val::Unknown(cut(text))
            }
            _ => Val::Unknown(cut(text)),
        }
    }

    /// The value of `inner`, which stands for the whole `text`.
    pub(super) fn inner(&mut self, inner: Option<TsNode<'f>>, text: &str) -> Val {
        match inner {
            Some(inner) => self.expr(inner),
            None => Val::Unknown(cut(text)),
        }
    }

    /// Evaluates `node` for what it does (a call), its value unused.
    pub(super) fn evaluated(&mut self, node: Option<TsNode<'f>>) {
        if let Some(node) = node {
            self.expr(node);
        }
    }

    /// `a + b`: text when one side is a string.
    fn binary(&mut self, node: TsNode<'f>) -> Val {
        let op = field(node, "operator").map_or("", |o| self.text(o));
        let (Some(l), Some(r)) = (field(node, "left"), field(node, "right")) else {
            return Val::Unknown(self.short(node));
        };
        if op != "+" {
            return Val::Unknown(self.short(node));
        }
        let lv = self.expr(l);
        let rv = self.expr(r);
        if matches!(lv, Val::Str(_)) || matches!(rv, Val::Str(_)) {
            self.concat(lv, self.text(l), rv, self.text(r))
        } else {
            Val::Unknown(self.short(node))
        }
    }

    /// `a + b` where one side is a string.
    pub(super) fn concat(&self, left: Val, left_text: &str, right: Val, right_text: &str) -> Val {
        let mut out = self.to_text(&left, left_text);
        out.append(&self.to_text(&right, right_text));
        Val::Str(out)
    }

    /// A value used as text (a `+` operand, a `%s` argument).
    pub(super) fn to_text(&self, val: &Val, expr: &str) -> Text {
        match val {
            Val::Str(t) => t.clone(),
            Val::Const(serde_json::Value::Number(n)) => Text::lit(n.to_string()),
            Val::Const(serde_json::Value::Bool(b)) => Text::lit(b.to_string()),
            Val::Marshal(inner) => {
                let (expr, shape) = match &**inner {
                    Val::Opaque { expr, shape } => (expr.clone(), *shape),
                    other => (cut(expr), other.shape()),
                };
                Text::hole(expr, HoleKind::Json(shape))
            }
            _ => Text::hole(cut(expr), HoleKind::Text),
        }
    }

    /// `x.f`: a variable by that name, a constant of a known package, or
    /// an opaque value (a call inside is evaluated for what it does).
    fn selector(&mut self, node: TsNode<'f>) -> Val {
        let text = self.text(node);
        if let Some(val) = self.env.get(text) {
            return val.clone();
        }
        let name = field(node, "field").map_or("", |f| self.text(f));
        if let Some(operand) = field(node, "operand") {
            if let Some(pkg) = self.package_named(operand) {
                if let Some(val) = package_value(pkg, name) {
                    return val;
                }
            } else if operand.kind() == "call_expression" {
                self.expr(operand);
            }
        }
        Val::opaque(Shape::of_expr(text), cut(text))
    }
}
