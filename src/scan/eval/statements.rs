//! Statements, in order: declarations and assignments bind values, `if`,
//! `for`, `switch` and `select` run their arms as branches, `return` emits
//! the patches it returns and ends the path.

use tree_sitter::Node as TsNode;

use super::emit::{EmitKind, How};
use super::ops::nodes_of;
use super::Func;
use crate::scan::go::{children, field, field_list, specs, GoFile};
use crate::scan::value::{Shape, Val};

/// The names a top-level `var` or `const` declaration declares.
pub(super) fn declared_names(file: &GoFile, decl: TsNode) -> Vec<String> {
    specs(decl)
        .into_iter()
        .flat_map(|spec| field_list(spec, "name"))
        .map(|name| file.text_of(name))
        .filter(|name| *name != "_")
        .map(str::to_owned)
        .collect()
}

impl<'f> Func<'_, 'f, '_> {
    pub(super) fn block(&mut self, node: TsNode<'f>) {
        self.statements(children(node));
    }

    /// Runs `nodes` in order until one terminates the path (a statement
    /// list is run in place).
    fn statements(&mut self, nodes: Vec<TsNode<'f>>) {
        for node in nodes {
            if self.terminated {
                return;
            }
            if node.kind() == "statement_list" {
                self.block(node);
            } else {
                self.stmt(node);
            }
        }
    }

    pub(super) fn stmt(&mut self, node: TsNode<'f>) {
        if !self.budget() {
            return;
        }
        self.depth += 1;
        self.stmt_inner(node);
        self.depth -= 1;
    }

    fn stmt_inner(&mut self, node: TsNode<'f>) {
        match node.kind() {
            "short_var_declaration" | "assignment_statement" => {
                let left = field_list(node, "left");
                let right = field_list(node, "right");
                let op = field(node, "operator").map_or("=", |o| self.text(o));
                self.assign(&left, &right, op);
            }
            "var_declaration" | "const_declaration" => self.var_declaration(node),
            "expression_statement" => self.evaluated(children(node).into_iter().next()),
            "if_statement" => {
                self.initializer(node);
                let condition = field(node, "condition");
                self.evaluated(condition);
                let (then, otherwise) = condition.map(|c| self.nil_tests(c)).unwrap_or_default();
                self.branch_narrowed(vec![
                    (field(node, "consequence"), then),
                    (field(node, "alternative"), otherwise),
                ]);
            }
            "for_statement" => self.for_statement(node),
            "expression_switch_statement" | "type_switch_statement" | "select_statement" => {
                self.switch_statement(node)
            }
            "expression_case" | "type_case" | "communication_case" | "default_case" => {
                self.case_body(node)
            }
            "block" | "statement_list" => self.block(node),
            "return_statement" => self.return_statement(node),
            "go_statement" => {
                self.exprs(&children(node));
            }
            "defer_statement" => self.deferred.extend(children(node)),
            "labeled_statement" => {
                if let Some(inner) = children(node).into_iter().last() {
                    self.stmt(inner);
                }
            }
            "break_statement" | "continue_statement" | "goto_statement" => {
                self.terminated = true;
            }
            _ => {}
        }
    }

    /// Runs the `initializer` of an `if`, `switch` or `for` clause.
    fn initializer(&mut self, node: TsNode<'f>) {
        if let Some(init) = field(node, "initializer") {
            self.stmt(init);
        }
    }

    /// Binds each name of a `var` or `const` declaration: to its value, or
    /// to Go's zero value (`nil` for slices, maps and pointers).
    fn var_declaration(&mut self, node: TsNode<'f>) {
        for spec in specs(node) {
            let names = field_list(spec, "name");
            let values = field_list(spec, "value");
            if !values.is_empty() {
                self.assign(&names, &values, "=");
                continue;
            }
            let ty = field(spec, "type").map_or("", |t| self.text(t));
            let nil = ty.starts_with("[]") || ty.starts_with("map[") || ty.starts_with('*');
            for name in names {
                let name = self.text(name).to_owned();
                if !ty.is_empty() {
                    self.types.insert(name.clone(), ty.to_owned());
                }
                let zero = if nil {
                    Val::Nil
                } else {
                    Val::Unknown(name.clone())
                };
                self.env.insert(name, zero);
            }
        }
    }

    /// Runs a `for` loop's initializer or range, then its body as an arm
    /// that may run or not (its `break` or `continue` ends an iteration,
    /// not the function).
    fn for_statement(&mut self, node: TsNode<'f>) {
        for child in children(node) {
            match child.kind() {
                "for_clause" => self.initializer(child),
                "range_clause" => {
                    self.evaluated(field(child, "right"));
                    let element = field(child, "right")
                        .and_then(|r| self.type_of(self.text(r)))
                        .and_then(|t| t.strip_prefix("[]").map(str::to_owned));
                    let names = field_list(child, "left");
                    for (i, name) in names.iter().enumerate() {
                        let n = self.text(*name).to_owned();
                        if let (1, Some(t)) = (i, &element) {
                            self.types.insert(n.clone(), t.clone());
                        }
                        self.env.insert(n.clone(), Val::Unknown(n));
                    }
                }
                _ => {}
            }
        }
        self.branch(vec![field(node, "body"), None]);
    }

    /// Runs a `switch` or `select`: each case is an arm, plus an empty
    /// arm when there is no `default`.
    fn switch_statement(&mut self, node: TsNode<'f>) {
        self.initializer(node);
        self.evaluated(field(node, "value"));
        let mut arms = Vec::new();
        let mut has_default = false;
        for case in children(node) {
            match case.kind() {
                "expression_case" | "type_case" | "communication_case" | "default_case" => {
                    has_default |= case.kind() == "default_case";
                    arms.push(Some(case));
                }
                _ => {}
            }
        }
        if !has_default {
            arms.push(None);
        }
        self.branch(arms);
    }

    /// Runs the statements of one case (not its tested values) until one
    /// terminates.
    fn case_body(&mut self, node: TsNode<'f>) {
        let skip = [
            field(node, "value"),
            field(node, "type"),
            field(node, "communication"),
        ];
        let body = children(node)
            .into_iter()
            .filter(|c| !skip.contains(&Some(*c)));
        self.statements(body.collect());
    }

    /// Evaluates the returned values (a returned patch is emitted) and
    /// ends the path.
    fn return_statement(&mut self, node: TsNode<'f>) {
        let mut first = None;
        for expr in children(node) {
            let exprs = if expr.kind() == "expression_list" {
                children(expr)
            } else {
                vec![expr]
            };
            for e in exprs {
                let val = self.expr(e);
                if let Some(nodes) = nodes_of(&val) {
                    if !matches!(val, Val::Marshal(_)) && self.follow.is_none() {
                        let at = self.pos(e);
                        self.emit(EmitKind::JsonPatch(nodes), at, How::Returned);
                    }
                }
                first.get_or_insert(val);
            }
        }
        if let Some(callee) = &mut self.follow {
            callee.returned.push(first.unwrap_or(Val::Nil));
        }
        self.note_out();
        self.terminated = true;
    }

    /// Runs the calls deferred, last first, as the function ends.
    pub(super) fn run_deferred(&mut self) {
        let deferred = std::mem::take(&mut self.deferred);
        let was = self.terminated;
        self.in_defer = true;
        for call in deferred.into_iter().rev() {
            self.terminated = false;
            self.evaluated(Some(call));
        }
        self.in_defer = false;
        self.terminated = was;
    }

    /// Notes the Go type and the alias an assignment of `right` to the
    /// variable `name` gives it.
    fn note_binding(&mut self, name: &str, right: Option<TsNode<'f>>) {
        let Some(right) = right else { return };
        if let Some(ty) = self.type_of_expr(right) {
            self.types.insert(name.to_owned(), ty);
        }
        match right.kind() {
            "identifier" | "selector_expression" => self.alias(name, self.text(right)),
            "unary_expression" => {
                if let Some(inner) = field(right, "operand") {
                    self.note_binding(name, Some(inner));
                }
            }
            "composite_literal" => self.struct_aliases(name, right),
            _ => {}
        }
    }

    /// `s := &scope{cluster: cluster}`: `s.cluster` stands for `cluster`.
    fn struct_aliases(&mut self, name: &str, literal: TsNode<'f>) {
        let Some(body) = field(literal, "body") else {
            return;
        };
        for element in children(body)
            .into_iter()
            .filter(|e| e.kind() == "keyed_element")
        {
            let parts = children(element);
            let [key, value] = parts[..] else { continue };
            let key = children(key).into_iter().next().unwrap_or(key);
            let value = children(value).into_iter().next().unwrap_or(value);
            if matches!(value.kind(), "identifier" | "selector_expression") {
                let alias = format!("{name}.{}", self.text(key));
                self.alias(&alias, self.text(value));
            }
        }
    }

    /// The Go type an expression has, when the code says
    /// (`&corev1.Node{}`, `new(T)`, `x.(*T)`, `y.DeepCopy()`, a variable).
    fn type_of_expr(&self, node: TsNode<'f>) -> Option<String> {
        match node.kind() {
            "composite_literal" => field(node, "type").map(|t| self.text(t).to_owned()),
            "unary_expression" => field(node, "operand").and_then(|o| self.type_of_expr(o)),
            "type_assertion_expression" => field(node, "type").map(|t| self.text(t).to_owned()),
            "identifier" | "selector_expression" => self.type_of(self.text(node)),
            "call_expression" => {
                let function = field(node, "function")?;
                let text = self.text(function);
                if text == "new" {
                    let arg =
                        field(node, "arguments").and_then(|a| children(a).into_iter().next())?;
                    return Some(self.text(arg).to_owned());
                }
                let base = text.strip_suffix(".DeepCopy")?;
                self.type_of(base)
            }
            _ => None,
        }
    }

    fn assign(&mut self, left: &[TsNode<'f>], right: &[TsNode<'f>], op: &str) {
        let vals = self.exprs(right);
        for (i, target) in left.iter().enumerate() {
            let name = self.text(*target).to_owned();
            if name == "_" {
                continue;
            }
            self.note_change(*target);
            if name.ends_with(".Patch") {
                if let Some(v) = vals.get(i) {
                    let v = v.clone();
                    self.admission(std::slice::from_ref(&v));
                }
            }
            let val = if vals.len() == left.len() {
                vals[i].clone()
            } else if i == 0 && vals.len() == 1 {
                vals[0].clone()
            } else {
                Val::Unknown(name.clone())
            };
            let val = if op == "+=" {
                let old = self
                    .lookup(&name)
                    .cloned()
                    .unwrap_or(Val::Unknown(name.clone()));
                let right_text = right.get(i).map_or("", |r| self.text(*r));
                self.concat(old, &name, val, right_text)
            } else {
                match val {
                    // Keep where an opaque value came from: `old := vmi.Labels`.
                    Val::Unknown(expr)
                        if expr != name && Shape::of_expr(&expr) != Shape::Unknown =>
                    {
                        Val::opaque(Shape::of_expr(&expr), expr)
                    }
                    other => other,
                }
            };
            let source = if left.len() == right.len() {
                right.get(i)
            } else if i == 0 && right.len() == 1 {
                right.first()
            } else {
                None
            };
            if target.kind() == "identifier" && op != "+=" {
                self.aliases.remove(&name);
                self.note_binding(&name, source.copied());
            }
            self.env.insert(name, val);
        }
    }
}
