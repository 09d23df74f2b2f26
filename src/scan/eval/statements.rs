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
                self.evaluated(field(node, "condition"));
                self.branch(vec![field(node, "consequence"), field(node, "alternative")]);
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
            "go_statement" | "defer_statement" => {
                self.exprs(&children(node));
            }
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
                    for name in field_list(child, "left") {
                        let n = self.text(name).to_owned();
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
        for expr in children(node) {
            let exprs = if expr.kind() == "expression_list" {
                children(expr)
            } else {
                vec![expr]
            };
            for e in exprs {
                let val = self.expr(e);
                if let Some(nodes) = nodes_of(&val) {
                    if !matches!(val, Val::Marshal(_)) {
                        let at = self.pos(e);
                        self.emit(EmitKind::JsonPatch(nodes), at, How::Returned);
                    }
                }
            }
        }
        self.terminated = true;
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
            self.env.insert(name, val);
        }
    }
}
