//! Calls and constants of the Go packages the scanner knows: patch types,
//! `fmt`, `strings`, `strconv`, `encoding/json`, controller-runtime's
//! client, `retry`, the helpers that change an object's collections and
//! `jsonpatch.NewOperation`. KubeVirt's patch package has its own file.

use tree_sitter::Node as TsNode;

use super::changes::{collection_helper, root};
use super::emit::{EmitKind, How};
use super::imports::{guess, Pkg};
use super::{Call, Func};
use crate::patch::OpKind;
use crate::scan::go::Pos;
use crate::scan::value::{CrPatch, HoleKind, PatchType, Shape, Text, Val, Via};

/// A constant of a known package (`types.JSONPatchType`,
/// `patch.PatchAddOp`).
pub(super) fn package_value(pkg: Pkg, name: &str) -> Option<Val> {
    let cr_patch = |ty| Val::CrPatch(Box::new(CrPatch::Whole(ty)));
    Some(match (pkg, name) {
        (Pkg::Types, "JSONPatchType") => Val::PatchType(PatchType::Json),
        (Pkg::Types, "MergePatchType") => Val::PatchType(PatchType::Merge),
        (Pkg::Types, "StrategicMergePatchType") => Val::PatchType(PatchType::Strategic),
        (Pkg::Types, "ApplyPatchType" | "ApplyYAMLPatchType" | "ApplyCBORPatchType") => {
            Val::PatchType(PatchType::Apply)
        }
        (Pkg::CrClient, "Apply") => cr_patch(PatchType::Apply),
        (Pkg::CrClient, "Merge") => cr_patch(PatchType::Merge),
        (Pkg::KvPatch, "PatchTestOp") => Val::Str(Text::lit("test")),
        (Pkg::KvPatch, "PatchAddOp") => Val::Str(Text::lit("add")),
        (Pkg::KvPatch, "PatchReplaceOp") => Val::Str(Text::lit("replace")),
        (Pkg::KvPatch, "PatchRemoveOp") => Val::Str(Text::lit("remove")),
        _ => return None,
    })
}

impl<'f> Func<'_, 'f, '_> {
    /// The package `operand` names, when it is an import (a local
    /// variable of the same name hides it; a package-level one cannot
    /// coexist with the import in Go).
    pub(super) fn package_named(&self, operand: TsNode<'f>) -> Option<Pkg> {
        if operand.kind() != "identifier" {
            return None;
        }
        let name = self.text(operand);
        // A variable or parameter shadows an imported package of its name
        // (`machine *clusterv1.Machine` beside an import of `.../machine`).
        if self.env.contains_key(name)
            || self.types.contains_key(name)
            || self.aliases.contains_key(name)
        {
            return None;
        }
        let unit = &self.world.units[self.unit];
        if let Some(pkg) = unit.imports.get(name) {
            return Some(*pkg);
        }
        if self.world.value(self.unit, name).is_some() {
            return None;
        }
        Some(guess(name)).filter(|p| *p != Pkg::Other)
    }

    /// Evaluates a call of a known package's function; a function the
    /// model does not know is a generic call.
    pub(super) fn pkg_call(&mut self, pkg: Pkg, name: &str, call: Call<'_, 'f>) -> Val {
        let Call { node, args } = call;
        let at = self.pos(node);
        let modelled = match pkg {
            Pkg::KvPatch => self.kv_patch_call(name, call),
            Pkg::Fmt if name == "Sprintf" => Some(self.sprintf(args)),
            Pkg::Fmt if name == "Sprint" => Some(self.sprint(args)),
            Pkg::Strings | Pkg::Strconv => self.text_call(pkg, name, call),
            Pkg::Json if matches!(name, "Marshal" | "MarshalIndent") => {
                Some(self.json_marshal(args, at))
            }
            Pkg::CrClient => self.cr_client_call(name, call),
            Pkg::Retry
                if name == "RetryOnConflict"
                    || (name == "OnError"
                        && args
                            .get(1)
                            .is_some_and(|a| self.text(*a).contains("IsConflict"))) =>
            {
                Some(self.with_retry(at, args))
            }
            Pkg::Controllerutil if name == "CreateOrPatch" => Some(self.create_or_patch(call)),
            Pkg::Controllerutil | Pkg::Meta | Pkg::Conditions => collection_helper(pkg, name)
                .map(|(object, path)| self.collection_call(object, path, call)),
            Pkg::PatchHelper if matches!(name, "NewHelper" | "NewSerialPatcher") => {
                Some(self.patch_helper(call))
            }
            Pkg::JsonPatchLib if matches!(name, "NewOperation" | "NewPatch") && args.len() >= 2 => {
                Some(self.new_operation(call))
            }
            Pkg::Maps if name == "Clone" => {
                let shape = args
                    .first()
                    .map_or(Shape::Unknown, |a| self.expr(*a).shape());
                Some(Val::opaque(shape, self.short(node)))
            }
            _ => None,
        };
        modelled.unwrap_or_else(|| self.generic(name, call))
    }

    /// A call of `strings` or `strconv` that may build a path: replacing,
    /// escaping or formatting a number (`None`: not modelled).
    fn text_call(&mut self, pkg: Pkg, name: &str, call: Call<'_, 'f>) -> Option<Val> {
        let Call { node, args } = call;
        let hole = |expr, kind| Some(Val::Str(Text::hole(expr, kind)));
        match (pkg, name) {
            (Pkg::Strings, "ReplaceAll" | "Replace") if args.len() >= 3 => {
                let vals = self.eval_args(args);
                match (vals[1].literal().as_deref(), vals[2].literal().as_deref()) {
                    (Some(from), Some(to)) => match vals[0].literal() {
                        Some(s) => Some(Val::Str(Text::lit(s.replace(from, to)))),
                        None if (from, to) == ("/", "~1") => {
                            hole(self.short(args[0]), HoleKind::Escaped)
                        }
                        None => hole(self.short(node), HoleKind::Text),
                    },
                    _ => hole(self.short(node), HoleKind::Text),
                }
            }
            (Pkg::Strings, "NewReplacer") => {
                let lits: Vec<Option<String>> =
                    self.eval_args(args).iter().map(Val::literal).collect();
                let escapes = lits.chunks(2).any(|p| {
                    p.len() == 2 && p[0].as_deref() == Some("/") && p[1].as_deref() == Some("~1")
                });
                Some(if escapes {
                    Val::Escaper
                } else {
                    Val::Unknown(self.short(node))
                })
            }
            (Pkg::Strconv, "Itoa" | "FormatInt" | "FormatUint") => {
                self.eval_args(args);
                let number = args.first().map_or(String::new(), |a| self.short(*a));
                hole(number, HoleKind::Index)
            }
            (Pkg::Strconv, "Quote") => {
                self.eval_args(args);
                hole(self.short(node), HoleKind::Quoted)
            }
            _ => None,
        }
    }

    /// `json.Marshal(v)`: a marshalled value; a patch marshalled is
    /// emitted.
    fn json_marshal(&mut self, args: &[TsNode<'f>], at: Pos) -> Val {
        let Some(first) = args.first() else {
            return Val::Unknown(String::new());
        };
        let v = self.expr(*first);
        if let Val::Ops(nodes) = &v {
            self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Generated);
        }
        let v = match v {
            Val::Unknown(expr) => Val::opaque(Shape::of_expr(&expr), expr),
            other => other,
        };
        Val::Marshal(Box::new(v))
    }

    /// A call of controller-runtime's client package: a merge-from or raw
    /// patch (`None`: not modelled).
    fn cr_client_call(&mut self, name: &str, call: Call<'_, 'f>) -> Option<Val> {
        let Call { node, args } = call;
        let at = self.pos(node);
        Some(match name {
            "MergeFrom" | "MergeFromWithOptions" | "StrategicMergeFrom" => {
                let vals = self.eval_args(args);
                let lock = args
                    .iter()
                    .skip(1)
                    .any(|a| self.text(*a).contains("MergeFromWithOptimisticLock"));
                let base_expr = args.first().map_or(String::new(), |a| self.short(*a));
                let base = match vals.into_iter().next() {
                    Some(base @ Val::Snapshot { .. }) => base,
                    _ => Val::Unknown(base_expr.clone()),
                };
                Val::CrPatch(Box::new(CrPatch::MergeFrom {
                    base,
                    base_expr,
                    lock,
                    strategic: name == "StrategicMergeFrom",
                    helper: false,
                    at,
                }))
            }
            "RawPatch" if args.len() == 2 => match &self.eval_args(args)[..] {
                [Val::PatchType(ty), data] => Val::CrPatch(Box::new(CrPatch::Raw {
                    ty: *ty,
                    data: data.clone(),
                })),
                _ => Val::Unknown(self.short(node)),
            },
            _ => return None,
        })
    }

    /// A helper that changes one collection (finalizers, owner references,
    /// conditions) of the object in argument `object`.
    fn collection_call(&mut self, object: usize, path: &str, call: Call<'_, 'f>) -> Val {
        self.eval_args(call.args);
        if let Some(obj) = call.args.get(object) {
            self.change(self.text(*obj), path, call.node);
        }
        Val::Unknown(String::new())
    }

    /// A snapshot of the object `obj`, to patch from.
    fn snapshot(&self, obj: TsNode<'f>) -> Val {
        Val::Snapshot {
            of: self.canonical(&root(self.text(obj))).0,
            seq: self.changes.len(),
        }
    }

    /// cluster-api's `patch.NewHelper(obj, c)` and Flux's
    /// `patch.NewSerialPatcher(obj, c)`: a patch of what changes from here.
    fn patch_helper(&mut self, call: Call<'_, 'f>) -> Val {
        self.eval_args(call.args);
        let Some(obj) = call.args.first() else {
            return Val::Unknown(String::new());
        };
        Val::CrPatch(Box::new(CrPatch::MergeFrom {
            base: self.snapshot(*obj),
            base_expr: self.short(*obj),
            lock: false,
            strategic: false,
            helper: true,
            at: self.pos(call.node),
        }))
    }

    /// `controllerutil.CreateOrPatch(ctx, c, obj, mutate)`: the object is
    /// copied, `mutate` runs, and a merge patch of what it changed is
    /// sent.
    fn create_or_patch(&mut self, call: Call<'_, 'f>) -> Val {
        let Some(obj) = call.args.get(2).copied() else {
            self.eval_args(call.args);
            return Val::Unknown(String::new());
        };
        let base = self.snapshot(obj);
        self.eval_args(call.args);
        let patch = CrPatch::MergeFrom {
            base,
            base_expr: self.short(obj),
            lock: false,
            strategic: false,
            helper: false,
            at: self.pos(call.node),
        };
        let target = self.object_target(obj);
        let at = self.pos(call.node);
        let object = self.text(obj);
        self.sending(target, &Val::Nil, |f| f.send_cr(&patch, object, at));
        Val::Unknown(String::new())
    }

    /// `jsonpatch.NewOperation(op, path, value)`: one operation.
    fn new_operation(&mut self, call: Call<'_, 'f>) -> Val {
        let Call { node, args } = call;
        let vals = self.eval_args(args);
        let kind = vals[0].literal().and_then(|s| OpKind::parse(&s));
        let path = self.to_text(&vals[1], self.text(args[1]));
        let value = if kind == Some(OpKind::Remove) {
            None
        } else {
            Some(vals.get(2).cloned().unwrap_or(Val::Nil))
        };
        let value_expr = args.get(2).map_or(String::new(), |a| self.short(*a));
        let op = self.new_op(kind, path, value, value_expr, self.pos(node), Via::Literal);
        Val::Op(Box::new(op))
    }

    fn with_retry(&mut self, at: Pos, args: &[TsNode<'f>]) -> Val {
        self.retry.push(at);
        self.eval_args(args);
        self.retry.pop();
        Val::Unknown(String::new())
    }
}
