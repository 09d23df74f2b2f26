//! Calls: `append`, closures, methods (the builder's `AddOption` and
//! `GeneratePayload`, `DeepCopy`, a client's `Patch`), and calls the
//! scanner does not know, which may still send a patch or change an
//! object.

use tree_sitter::Node as TsNode;

use super::changes::{mutating_function, mutating_method, root};
use super::emit::{EmitKind, How};
use super::imports::Pkg;
use super::ops::{nodes_or_opaque, push_ops};
use super::{cut, Call, Func};
use crate::pointer::escape;
use crate::scan::go::{children, field};
use crate::scan::value::{all_ops, HoleKind, Node, Shape, Text, Val};

impl<'f> Func<'_, 'f, '_> {
    pub(super) fn call(&mut self, node: TsNode<'f>) -> Val {
        let Some(function) = field(node, "function") else {
            return Val::Unknown(self.short(node));
        };
        let args = field(node, "arguments").map(children).unwrap_or_default();
        let call = Call { node, args: &args };
        match function.kind() {
            "selector_expression" => {
                let name = field(function, "field").map_or("", |f| self.text(f));
                match field(function, "operand") {
                    Some(operand) => match self.package_named(operand) {
                        Some(Pkg::Other) => self.other_pkg_call(operand, name, call),
                        Some(pkg) => self.pkg_call(pkg, name, call),
                        None => self.method_call(operand, name, call),
                    },
                    None => self.generic(name, call),
                }
            }
            "identifier" => match self.text(function) {
                "append" => self.append(&args),
                "string" => self.inner(args.first().copied(), ""),
                "panic" => {
                    self.exprs(&args);
                    self.terminated = true;
                    Val::Unknown(String::new())
                }
                name => {
                    let callee = self.env.get(name).cloned();
                    if let Some(closure) = callee.as_ref().and_then(|c| self.closure_node(c)) {
                        return self.call_closure(closure, call);
                    }
                    let scope = self.world.units[self.unit].scope;
                    match self.follow(scope, name, None, call) {
                        Some(val) => val,
                        None => self.generic(name, call),
                    }
                }
            },
            "func_literal" => self.call_closure(function, call),
            _ => self.generic("", call),
        }
    }

    fn append(&mut self, args: &[TsNode<'f>]) -> Val {
        let Some(first) = args.first() else {
            return Val::Unknown(String::new());
        };
        let base = self.expr(*first);
        let base_text = self.text(*first);
        let items = self.exprs_with_text(&args[1..]);
        let is_ops = |v: &Val| matches!(v, Val::Ops(_) | Val::Op(_));
        if is_ops(&base) || items.iter().any(|(v, _)| is_ops(v)) {
            let mut nodes = nodes_or_opaque(&base, base_text);
            push_ops(&mut nodes, &items, None);
            return Val::Ops(nodes);
        }
        let items = items.into_iter().map(|(v, _)| v);
        match base {
            Val::List(mut list) => {
                list.extend(items);
                Val::List(list)
            }
            Val::Nil => Val::List(items.collect()),
            other => {
                let expr = match &other {
                    Val::Opaque { expr, .. } => expr.clone(),
                    _ => cut(base_text),
                };
                Val::opaque(Shape::of_expr(&expr), format!("append({expr}, ...)"))
            }
        }
    }

    /// Evaluates a call's arguments and walks the function literals among
    /// them.
    pub(super) fn eval_args(&mut self, args: &[TsNode<'f>]) -> Vec<Val> {
        let vals = self.exprs(args);
        self.run_closures(&vals);
        // A map or slice literal handed to a call may be filled there
        // (`maps.Copy(m, old)`, `setAnnotation(m)`): no longer known.
        for (arg, val) in args.iter().zip(&vals) {
            if arg.kind() == "identifier" && matches!(val, Val::Object(_) | Val::List(_)) {
                let name = self.text(*arg).to_owned();
                let shape = val.shape();
                self.env.insert(name.clone(), Val::opaque(shape, name));
            }
        }
        vals
    }

    /// The value of a method's receiver; a call inside it
    /// (`c.client().Patch`) is evaluated.
    fn receiver(&mut self, operand: TsNode<'f>) -> Val {
        if !matches!(operand.kind(), "identifier" | "selector_expression") {
            return self.expr(operand);
        }
        let text = self.text(operand);
        if let Some(val) = self.lookup(text) {
            return val.clone();
        }
        if operand.kind() == "selector_expression" {
            self.evaluated(field(operand, "operand").filter(|i| i.kind() == "call_expression"));
        }
        Val::Unknown(text.to_owned())
    }

    fn method_call(&mut self, operand: TsNode<'f>, name: &str, call: Call<'_, 'f>) -> Val {
        let Call { node, args } = call;
        let recv_text = self.text(operand);
        let recv = self.receiver(operand);
        match (name, recv) {
            ("AddOption", recv) => {
                let mut nodes = match recv {
                    Val::Ops(nodes) => nodes,
                    Val::Nil => Vec::new(),
                    _ => vec![Node::Opaque(cut(recv_text))],
                };
                let items = self.exprs_with_text(args);
                push_ops(&mut nodes, &items, Some(recv_text));
                if matches!(operand.kind(), "identifier" | "selector_expression") {
                    self.env.insert(recv_text.to_owned(), Val::Ops(nodes));
                }
                Val::Unknown(String::new())
            }
            ("GeneratePayload", Val::Ops(nodes)) => self.generated(nodes, self.pos(node)),
            ("GetPatches", recv @ Val::Ops(_)) => recv,
            ("GeneratePayload" | "GetPatches", _) => Val::Unknown(self.short(node)),
            ("DeepCopy" | "DeepCopyObject", _) => Val::Snapshot {
                of: self.canonical(&root(recv_text)).0,
                seq: self.changes.len(),
            },
            ("WithResource", _) => {
                let vals = self.eval_args(args);
                let resource = vals.into_iter().next().unwrap_or(Val::Nil);
                Val::Object(vec![("Resource".to_owned(), resource)])
            }
            ("Replace", Val::Escaper) => self.escape_call(args.first().copied()),
            ("Patch" | "PatchStatus", Val::CrPatch(patch)) => {
                // A patch helper's `Patch(ctx, obj, opts...)`.
                self.eval_args(args);
                if let Some(obj) = args.get(1) {
                    self.written(self.text(*obj));
                    let target = self.object_target(*obj);
                    let handed = Val::CrPatch(patch.clone());
                    let at = self.pos(node);
                    let object = self.text(*obj);
                    self.sending(target, &handed, |f| f.send_cr(&patch, object, at));
                }
                Val::Unknown(String::new())
            }
            ("Patch" | "PatchStatus", _) => self.patch_call(operand, call),
            (name, recv) => {
                if matches!(name, "Update" | "Create") && args.len() >= 2 {
                    // `c.Update(ctx, obj)`: the changes made so far are sent.
                    self.written(self.text(args[1]));
                }
                if let Some(path) = mutating_method(name) {
                    self.eval_args(args);
                    self.change(recv_text, path, node);
                    return Val::Unknown(String::new());
                }
                let scope = self.world.units[self.unit].scope;
                if let Some(val) = self.follow(scope, name, Some((operand, recv)), call) {
                    return val;
                }
                let vals = self.eval_args(args);
                self.generic_vals(name, call, &vals)
            }
        }
    }

    /// A call of a function of another package: followed when the package
    /// is the module's (and read), else a call the scanner does not know.
    fn other_pkg_call(&mut self, operand: TsNode<'f>, name: &str, call: Call<'_, 'f>) -> Val {
        let alias = self.text(operand);
        let scope = self.world.units[self.unit]
            .paths
            .get(alias)
            .and_then(|path| self.world.scope_of(path));
        if let Some(scope) = scope {
            if let Some(val) = self.follow(scope, name, None, call) {
                return val;
            }
        }
        self.generic(name, call)
    }

    /// A client's `Patch(ctx, obj, patch, ...)` or client-go's
    /// `Patch(ctx, name, type, data, ...)`.
    fn patch_call(&mut self, operand: TsNode<'f>, call: Call<'_, 'f>) -> Val {
        let Call { node, args } = call;
        let at = self.pos(node);
        let vals = self.eval_args(args);
        match (vals.get(2), vals.get(3)) {
            (Some(Val::PatchType(ty)), Some(data)) => {
                let target = self.client_target(operand);
                self.sending(target, data, |f| f.send_body(*ty, data, at));
            }
            (Some(Val::CrPatch(patch)), _) => {
                self.written(self.text(args[1]));
                let target = self.object_target(args[1]);
                let object = self.text(args[1]);
                self.sending(target, &vals[2], |f| f.send_cr(patch, object, at));
            }
            _ => return self.generic_vals("Patch", call, &vals),
        }
        Val::Unknown(String::new())
    }

    /// A call of a function the scanner does not know.
    pub(super) fn generic(&mut self, name: &str, call: Call<'_, 'f>) -> Val {
        let vals = self.eval_args(call.args);
        if let Some(path) = mutating_function(name) {
            if let Some(obj) = call.args.first() {
                self.change(self.text(*obj), path, call.node);
            }
        }
        self.generic_vals(name, call, &vals)
    }

    /// A call the scanner does not know, its arguments evaluated: an
    /// escaper by its name, or a call that may send what it is handed.
    fn generic_vals(&mut self, name: &str, call: Call<'_, 'f>, vals: &[Val]) -> Val {
        let Call { node, args } = call;
        let lower = name.to_ascii_lowercase();
        if lower.contains("escape") && args.len() == 1 {
            // `EscapeJsonPointer(k)` of another package (CDI's
            // openapicommon, `jsonpointer.Escape`, ...).
            return match vals[0].literal() {
                Some(s) if lower.contains("pointer") || lower.contains("json") => {
                    Val::Str(Text::lit(escape(&s)))
                }
                _ => Val::Str(Text::hole(self.short(args[0]), HoleKind::Escaped)),
            };
        }
        if lower.starts_with("patchresponse") || name == "Patched" {
            // controller-runtime's `admission.PatchResponseFromRaw` and
            // `admission.Patched(reason, ops...)`: a webhook's patch.
            self.admission(vals);
        }
        if self.send_handed(name, call, vals) {
            return Val::Unknown(self.short(node));
        }
        let text = self.text(node);
        match Shape::of_expr(text) {
            Shape::Unknown => Val::Unknown(cut(text)),
            shape => Val::opaque(shape, cut(text)),
        }
    }

    /// Sends what a call the scanner does not know is handed: data after
    /// a patch type (`PatchAppWithWriteBack(ctx, name, ns,
    /// types.JSONPatchType, data, ...)`, then true) or a `client.Patch`
    /// value; ops passed along leave the function.
    fn send_handed(&mut self, name: &str, call: Call<'_, 'f>, vals: &[Val]) -> bool {
        let Call { node, args } = call;
        let at = self.pos(node);
        if let Some(i) = vals.iter().position(|v| matches!(v, Val::PatchType(_))) {
            if let (Val::PatchType(ty), Some(data)) = (&vals[i], vals.get(i + 1)) {
                self.send_body(*ty, data, at);
                return true;
            }
        }
        if let Some(i) = vals.iter().position(|v| matches!(v, Val::CrPatch(_))) {
            if let Val::CrPatch(patch) = &vals[i] {
                let object = if i > 0 { self.text(args[i - 1]) } else { "" };
                if name == "Patch" || name == "Update" || i > 0 {
                    self.send_cr(patch, object, at);
                }
            }
        }
        for (arg, val) in args.iter().zip(vals) {
            let Val::Ops(nodes) = val else { continue };
            if all_ops(nodes)
                .iter()
                .any(|op| !self.emitted.contains(&op.id))
            {
                let label = if name.is_empty() { "a call" } else { name };
                let how = How::Passed(label.to_owned());
                self.emit(EmitKind::JsonPatch(nodes.clone()), self.pos(*arg), how);
            }
        }
        false
    }
}
