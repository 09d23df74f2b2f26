//! Calls of functions of the module, followed: the callee is walked with
//! its parameters bound to what the caller passes, and the caller gets
//! what it returns (ops, a body, a patch), the changes it makes to the
//! caller's objects, the ops it adds to a builder passed to it, and the
//! patches it sends of what it was handed (a wrapper such as
//! `PatchVirtualMachineInstance(ns, name, data)`).
//!
//! At most [`MAX_CALLS`] levels deep, never into a function already on
//! the stack, and only into functions whose text may build, send or
//! change something a patch carries.

use tree_sitter::Node as TsNode;

use super::world::{function_name, receiver_type, FnDecl};
use super::{Call, Func};
use crate::scan::go::{children, field, field_list};
use crate::scan::value::{all_ops, Node, Val};

/// Deepest chain of calls followed from a function.
pub(super) const MAX_CALLS: usize = 3;

/// Text a function must hold to be worth following: what builds, sends
/// or changes what a patch carries.
const WORTH: [&str; 12] = [
    "Patch",
    "patch.",
    "MergeFrom",
    "\"op",
    "Op:",
    "Finalizer",
    "OwnerRef",
    "ControllerReference",
    "Condition",
    "SetLabels",
    "SetAnnotations",
    "Containers",
];

/// A function walked for its caller.
pub(super) struct Callee {
    /// The declarations on the call stack, outermost first, this one
    /// last.
    pub stack: Vec<FnDecl>,
    /// What the caller passed.
    pub args: Vec<Val>,
    /// The parameters, in order.
    pub params: Vec<String>,
    /// The first value of each `return`.
    pub returned: Vec<Val>,
    /// The parameters' values at each way out.
    pub outs: Vec<Vec<Option<Val>>>,
}

impl<'f> Func<'_, 'f, '_> {
    /// The call stack, this function included.
    fn stack(&self) -> Vec<FnDecl> {
        self.follow
            .as_ref()
            .map(|c| c.stack.clone())
            .unwrap_or_default()
    }

    /// The declaration a call names: a function (`receiver` is `None`)
    /// or method of `scope`, when exactly one fits.
    fn callee(&self, scope: usize, name: &str, receiver: Option<TsNode<'f>>) -> Option<FnDecl> {
        let decls = self.world.scopes[scope].funcs.get(name)?;
        let mut fitting = decls.iter().filter(|d| d.method == receiver.is_some());
        let first = *fitting.next()?;
        let rest: Vec<&FnDecl> = fitting.collect();
        if rest.is_empty() {
            return Some(first);
        }
        // Several methods of that name: the one of the receiver's type.
        let ty = receiver.and_then(|r| self.type_of(self.text(r)))?;
        let base = ty.trim_start_matches('*');
        std::iter::once(&first).chain(rest).copied().find(|d| {
            let node = self.world.node(*d);
            let file = self.world.units[d.unit].file;
            node.is_some_and(|n| receiver_type(file, n).trim_start_matches('*') == base)
        })
    }

    /// Follows a call of a function or method of the package (or of the
    /// package `scope`): `None` when it is not followed.
    pub(super) fn follow(
        &mut self,
        scope: usize,
        name: &str,
        receiver: Option<(TsNode<'f>, Val)>,
        call: Call<'_, 'f>,
    ) -> Option<Val> {
        let stack = self.stack();
        if stack.len() >= MAX_CALLS || !self.closures {
            return None;
        }
        let decl = self.callee(scope, name, receiver.as_ref().map(|(n, _)| *n))?;
        if stack.contains(&decl) {
            return None;
        }
        let node = self.world.node(decl)?;
        let file = self.world.units[decl.unit].file;
        let body = field(node, "body")?;
        if !WORTH.iter().any(|w| file.text_of(body).contains(w)) {
            return None;
        }
        let recv_text = receiver
            .as_ref()
            .map(|(r, _)| self.canonical(self.text(*r)).0);
        let recv = receiver.map(|(_, v)| v);
        let mut vals = self.exprs(call.args);
        if vals.iter().any(|v| matches!(v, Val::Closure { .. })) {
            self.run_closures(&vals);
            for v in &mut vals {
                if matches!(v, Val::Closure { .. }) {
                    *v = Val::Unknown(String::new());
                }
            }
        }
        let spread = call
            .args
            .last()
            .is_some_and(|a| a.kind() == "variadic_argument");
        let mut callee = Func::new(self.world, decl.unit, function_name(file, node)?);
        callee.steps = self.steps;
        callee.depth = self.depth + 1;
        callee.changes = self.changes.clone();
        callee.retry = self.retry.clone();
        callee.outer = self.outer_aliases();
        let mut stack = stack;
        stack.push(decl);
        callee.follow = Some(Callee {
            stack,
            args: vals.clone(),
            params: Vec::new(),
            returned: Vec::new(),
            outs: Vec::new(),
        });
        let arg_texts: Vec<String> = call
            .args
            .iter()
            .map(|a| self.canonical(self.text(*a)).0)
            .collect();
        callee.bind_signature(
            node,
            &vals,
            recv.map(|v| (v, recv_text.unwrap_or_default())),
        );
        callee.bind_param_aliases(&arg_texts, spread);
        callee.run(body);
        callee.finish_follow();
        Some(self.take_back(callee, call))
    }

    /// What a followed callee gives back to this function.
    fn take_back(&mut self, callee: Func<'_, 'f, '_>, call: Call<'_, 'f>) -> Val {
        self.steps = callee.steps;
        let known = self.changes.len();
        self.changes = callee
            .changes
            .into_iter()
            .enumerate()
            .filter(|(i, c)| *i < known || c.outer)
            .map(|(_, c)| c)
            .collect();
        let at = self.pos(call.node);
        for mut emit in callee.emits {
            if !emit.from_arg {
                continue;
            }
            if !matches!(emit.kind, super::EmitKind::MergeFrom { .. }) {
                emit.at = at;
            }
            emit.function = self.name.clone();
            emit.deferred |= self.in_defer;
            let merge_from = matches!(emit.kind, super::EmitKind::MergeFrom { .. });
            emit.from_arg = self.follow.is_some() && (merge_from || self.sending_arg_of(&emit));
            self.note_emitted(&emit);
            self.emits.push(emit);
        }
        let Some(followed) = callee.follow else {
            return Val::Unknown(String::new());
        };
        self.update_params(&followed, call);
        let returned = join_returned(followed.returned);
        self.consumed(&followed.args, &returned);
        returned
    }

    /// Ops handed to a followed callee that it neither sent nor gave back
    /// (turned into strings, stored): the scanner saw where they went and
    /// no patch there, so they are not the caller's to send.
    fn consumed(&mut self, args: &[Val], returned: &Val) {
        let back: Vec<u32> = super::ops::nodes_of(returned)
            .map(|nodes| all_ops(&nodes).iter().map(|op| op.id).collect())
            .unwrap_or_default();
        for arg in args {
            if let Some(nodes) = super::ops::nodes_of(arg) {
                for op in all_ops(&nodes) {
                    if !back.contains(&op.id) {
                        self.emitted.insert(op.id);
                    }
                }
            }
        }
    }

    /// Builders the callee added ops to: the caller's variable gets them.
    fn update_params(&mut self, followed: &Callee, call: Call<'_, 'f>) {
        for (i, arg) in call.args.iter().enumerate() {
            let outs: Vec<&Val> = followed
                .outs
                .iter()
                .filter_map(|o| o.get(i).and_then(Option::as_ref))
                .collect();
            let Some(first) = outs.first() else { continue };
            if !matches!(first, Val::Ops(_)) || followed.args.get(i) == Some(*first) {
                continue;
            }
            let name = self.text(*arg).trim_start_matches('&');
            if name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
                let joined = join_ops(&outs);
                self.env.insert(name.to_owned(), joined);
            }
        }
    }

    /// Binds the receiver and parameters of the function declared by
    /// `decl` to `vals` (none: the function walked on its own, its
    /// parameters unknown) and notes their declared types.
    pub(super) fn bind_signature(
        &mut self,
        decl: TsNode<'f>,
        vals: &[Val],
        receiver: Option<(Val, String)>,
    ) {
        self.admits = field(decl, "result").is_some_and(|r| {
            let result = self.text(r);
            result.contains("admission.Response") || result.contains("AdmissionResponse")
        });
        if let Some(param) = field(decl, "receiver").and_then(|r| children(r).into_iter().next()) {
            let ty = field(param, "type").map(|t| self.text(t).to_owned());
            for name in field_list(param, "name") {
                let name = self.text(name).to_owned();
                if let Some(ty) = &ty {
                    self.types.insert(name.clone(), ty.clone());
                }
                if let Some((val, text)) = &receiver {
                    self.env.insert(name.clone(), val.clone());
                    self.params_alias(name, text.clone());
                }
            }
        }
        let params = field(decl, "parameters").map(children).unwrap_or_default();
        let mut index = 0;
        let mut names = Vec::new();
        for param in params {
            let ty = field(param, "type").map(|t| self.text(t).to_owned());
            let variadic = param.kind() == "variadic_parameter_declaration";
            for name in field_list(param, "name") {
                let name = self.text(name).to_owned();
                if let Some(ty) = &ty {
                    let ty = if variadic {
                        format!("[]{ty}")
                    } else {
                        ty.clone()
                    };
                    self.types.insert(name.clone(), ty);
                }
                if self.follow.is_some() {
                    let val = match (variadic, vals.get(index)) {
                        (true, _) if vals.len() > index + 1 => Val::List(vals[index..].to_vec()),
                        (_, Some(v)) => v.clone(),
                        (_, None) => Val::Unknown(name.clone()),
                    };
                    self.env.insert(name.clone(), val);
                }
                names.push(name);
                index += 1;
            }
        }
        if let Some(callee) = &mut self.follow {
            callee.params = names;
        }
    }

    /// Each parameter stands for the caller's argument (`arg_texts`,
    /// canonical in the caller).
    fn bind_param_aliases(&mut self, arg_texts: &[String], _spread: bool) {
        let params = self
            .follow
            .as_ref()
            .map(|c| c.params.clone())
            .unwrap_or_default();
        for (param, text) in params.into_iter().zip(arg_texts) {
            if is_path(text) {
                self.params_alias(param, text.clone());
            }
        }
    }

    /// Notes the parameters' values at a way out of a followed function.
    pub(super) fn note_out(&mut self) {
        let Some(callee) = &self.follow else { return };
        let outs = callee
            .params
            .iter()
            .map(|p| self.env.get(p).cloned())
            .collect();
        if let Some(callee) = &mut self.follow {
            callee.outs.push(outs);
        }
    }

    fn finish_follow(&mut self) {
        if !self.terminated {
            self.note_out();
        }
    }

    /// True when `val` is (or holds) something the caller passed.
    pub(super) fn is_arg(&self, val: &Val) -> bool {
        let Some(callee) = &self.follow else {
            return false;
        };
        !matches!(val, Val::Unknown(_) | Val::Nil)
            && callee.args.iter().any(|a| a == val || holds(a, val))
    }

    fn sending_arg_of(&self, emit: &super::Emit) -> bool {
        match &emit.kind {
            super::EmitKind::Body { body, .. } => self.is_arg(body),
            super::EmitKind::JsonPatch(nodes) => self.is_arg(&Val::Ops(nodes.clone())),
            super::EmitKind::MergeFrom { .. }
            | super::EmitKind::GoFormatted { .. }
            | super::EmitKind::Dangling(_) => false,
        }
    }
}

/// True when `outer` holds `inner` (a list of ops holding them, JSON of
/// them).
fn holds(outer: &Val, inner: &Val) -> bool {
    match outer {
        Val::Marshal(v) => **v == *inner || holds(v, inner),
        Val::List(items) => items.iter().any(|i| i == inner),
        _ => false,
    }
}

/// A Go expression that names something (`x`, `s.cluster`, `&obj`).
fn is_path(text: &str) -> bool {
    let t = text.trim_start_matches('&');
    !t.is_empty()
        && t.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'.')
}

/// What a function returns, over all its `return`s: the ops of every
/// branch that returns some (a choice when they differ), else the one
/// value they agree on.
fn join_returned(returned: Vec<Val>) -> Val {
    let with_ops: Vec<&Val> = returned
        .iter()
        .filter(|v| super::ops::nodes_of(v).is_some())
        .collect();
    if !with_ops.is_empty() {
        let marshalled = with_ops.iter().all(|v| matches!(v, Val::Marshal(_)));
        let joined = join_ops(&with_ops);
        return if marshalled {
            Val::Marshal(Box::new(joined))
        } else {
            joined
        };
    }
    let mut known = returned
        .into_iter()
        .filter(|v| !matches!(v, Val::Unknown(_) | Val::Nil));
    match (known.next(), known.next()) {
        (Some(one), None) => one,
        _ => Val::Unknown(String::new()),
    }
}

/// The ops of several values as one: the same ops, or a choice of them.
fn join_ops(vals: &[&Val]) -> Val {
    let mut arms: Vec<Vec<Node>> = Vec::new();
    for v in vals {
        let nodes = super::ops::nodes_of(v).unwrap_or_default();
        if !arms.contains(&nodes) {
            arms.push(nodes);
        }
    }
    match arms.len() {
        0 => Val::Unknown(String::new()),
        1 => Val::Ops(arms.pop().unwrap_or_default()),
        _ => Val::Ops(vec![Node::Choice(arms)]),
    }
}
