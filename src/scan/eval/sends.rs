//! Sends: a body sent with a patch type (ops, JSON text or a map), a
//! controller-runtime patch, and the patch an admission webhook returns.

use super::changes::{root, Change};
use super::emit::{EmitKind, How};
use super::{cut, Func, Target};
use crate::scan::body::{self, Body};
use crate::scan::go::Pos;
use crate::scan::value::{all_ops, CrPatch, Node, PatchType, Text, Val};

impl Func<'_, '_, '_> {
    /// Ops returned by an admission webhook (in `AdmissionResponse.Patch`):
    /// applied to the object being admitted, with no other writer between.
    pub(super) fn admission(&mut self, vals: &[Val]) {
        for val in vals {
            let val = match val {
                Val::Marshal(inner) => &**inner,
                val => val,
            };
            if let Val::Ops(nodes) = val {
                let at = all_ops(nodes).first().map(|op| op.at).unwrap_or_default();
                self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Admission);
            }
        }
    }

    /// Sends `data` as a patch of type `ty`.
    pub(super) fn send_body(&mut self, ty: PatchType, data: &Val, at: Pos) {
        let data = match (ty, data) {
            (PatchType::Json, Val::Marshal(inner)) => &**inner,
            _ => data,
        };
        match (ty, data) {
            (_, Val::Str(text)) => self.send_text(text, at, ty),
            (PatchType::Json, Val::Ops(nodes)) => {
                self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Sent(ty));
            }
            (PatchType::Json, _) => {}
            (_, Val::Marshal(inner)) if matches!(**inner, Val::Object(_)) => {
                let body = (**inner).clone();
                self.emit(EmitKind::Body { ty, body }, at, How::Sent(ty));
            }
            _ => {}
        }
    }

    /// Sends JSON text as a patch of type `ty`.
    fn send_text(&mut self, text: &Text, at: Pos, ty: PatchType) {
        let exprs = body::go_lists(text);
        if !exprs.is_empty() {
            self.emit(EmitKind::GoFormatted { exprs }, at, How::Sent(ty));
        }
        let world = self.world;
        let mut next = || world.id();
        match body::read(text, at, &mut next) {
            Body::Ops(ops) if ty == PatchType::Json => {
                let nodes = ops.into_iter().map(Node::Op).collect();
                self.emit(EmitKind::JsonPatch(nodes), at, How::Sent(ty));
            }
            Body::Object(body) if ty != PatchType::Json => {
                self.emit(EmitKind::Body { ty, body }, at, How::Sent(ty));
            }
            _ => {}
        }
    }

    /// Sends a controller-runtime patch of `object`: a raw patch's body,
    /// or a `MergeFrom` (or a patch helper's) with the changes made since
    /// its base was taken.
    pub(super) fn send_cr(&mut self, patch: &CrPatch, object: &str, at: Pos) {
        match patch {
            CrPatch::Raw { ty, data } => self.send_body(*ty, data, at),
            CrPatch::MergeFrom {
                base,
                base_expr,
                lock,
                strategic,
                helper,
                at: made,
            } => {
                let (of, seq) = match base {
                    Val::Snapshot { of, seq } => (Some(of.clone()), *seq),
                    _ => (None, 0),
                };
                let target = self.canonical(&root(object)).0;
                let changes: Vec<Change> = self.changes[seq.min(self.changes.len())..]
                    .iter()
                    .filter(|c| c.object == target || Some(&c.object) == of.as_ref())
                    .cloned()
                    .collect();
                let ty = if *strategic {
                    PatchType::Strategic
                } else {
                    PatchType::Merge
                };
                let kind = EmitKind::MergeFrom {
                    object: cut(object),
                    base: base_expr.clone(),
                    lock: *lock,
                    strategic: *strategic,
                    helper: *helper,
                    changes,
                };
                self.emit(kind, *made, How::Sent(ty));
            }
            CrPatch::Whole(_) => {}
        }
    }

    /// Sends what a client is handed, to the object `target`; `handed`:
    /// the value that decides whether a followed callee sends what its
    /// caller passed.
    pub(super) fn sending<T>(
        &mut self,
        target: Option<Target>,
        handed: &Val,
        send: impl FnOnce(&mut Self) -> T,
    ) -> T {
        self.target = target;
        self.sending_arg = self.is_arg(handed);
        let out = send(self);
        self.target = None;
        self.sending_arg = false;
        out
    }
}
