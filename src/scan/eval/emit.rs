//! What a function's walk yields: the payloads it builds or sends, and how
//! each leaves the function.

use super::{Change, Func, Target};
use crate::scan::go::Pos;
use crate::scan::value::{all_ops, Node, PatchType, Val};

/// How a payload leaves the function.
#[derive(Clone, Debug, PartialEq)]
pub enum How {
    /// Turned into bytes here (`GeneratePayload`, `json.Marshal`).
    Generated,
    /// Sent here (`Patch(...)`).
    Sent(PatchType),
    /// Returned to the caller.
    Returned,
    /// Passed to a function the scanner does not follow.
    Passed(String),
    /// Built and left (the caller must send it).
    Unsent,
    /// Returned by an admission webhook: applied to the object being
    /// admitted, so no concurrent writer can come between.
    Admission,
}

/// What an emitted payload is.
#[derive(Clone, Debug, PartialEq)]
pub enum EmitKind {
    /// A JSON patch: its ops, with their branches.
    JsonPatch(Vec<Node>),
    /// A merge, strategic merge or apply body.
    Body {
        /// The patch type it is sent with.
        ty: PatchType,
        /// The body.
        body: Val,
    },
    /// A body that formats Go slices with `%s` or `%v` (`[a b]`): not
    /// JSON.
    GoFormatted {
        /// The slices, as written.
        exprs: Vec<String>,
    },
    /// Changes a function makes to objects it does not send itself (a
    /// patch helper of its caller sends them).
    Dangling(Vec<Change>),
    /// A controller-runtime `MergeFrom` patch.
    MergeFrom {
        /// The object patched, as written.
        object: String,
        /// The base given to `MergeFrom`, as written.
        base: String,
        /// `MergeFromWithOptimisticLock{}` given.
        lock: bool,
        /// `StrategicMergeFrom`.
        strategic: bool,
        /// A patch helper (cluster-api's, Flux's): conditions are merged
        /// one by one with the resourceVersion pinned, the rest as a
        /// merge patch.
        helper: bool,
        /// The changes made to the object after its base was taken.
        changes: Vec<Change>,
    },
}

/// A payload the function builds or sends.
#[derive(Clone, Debug, PartialEq)]
pub struct Emit {
    /// What.
    pub kind: EmitKind,
    /// Where it is generated or sent.
    pub at: Pos,
    /// The function, as Go prints it (`(*Controller).patchVMI`).
    pub function: String,
    /// How it leaves.
    pub how: How,
    /// Inside `retry.RetryOnConflict` (where that call is).
    pub retry: Option<Pos>,
    /// The object it is sent to, when the code says.
    pub target: Option<Target>,
    /// Sent by a followed callee, of what its caller handed it.
    pub from_arg: bool,
    /// Sent by a deferred call, as the function ends (a patch helper's
    /// `defer patchHelper.Patch(...)`).
    pub deferred: bool,
}

impl Func<'_, '_, '_> {
    /// Records ops as emitted and keeps the payload.
    pub(super) fn emit(&mut self, kind: EmitKind, at: Pos, how: How) {
        if let EmitKind::JsonPatch(nodes) = &kind {
            // Something op-shaped that names no op (`Route{Operation: x,
            // Path: p}`) is not a patch.
            if !all_ops(nodes).iter().any(|op| op.kind.is_some()) {
                return;
            }
            for op in all_ops(nodes) {
                self.emitted.insert(op.id);
            }
        }
        let how = match how {
            How::Passed(_) | How::Returned | How::Unsent
                if self.admits && matches!(kind, EmitKind::JsonPatch(_)) =>
            {
                How::Admission
            }
            how => how,
        };
        let from_arg = self.sending_arg && matches!(how, How::Sent(_));
        self.emits.push(Emit {
            kind,
            at,
            function: self.name.clone(),
            how,
            retry: self.retry.last().copied(),
            target: self.target.clone(),
            from_arg,
            deferred: self.in_defer,
        });
    }

    /// Records the ops of an emit taken from a callee as emitted.
    pub(super) fn note_emitted(&mut self, emit: &Emit) {
        if let EmitKind::JsonPatch(nodes) = &emit.kind {
            for op in all_ops(nodes) {
                self.emitted.insert(op.id);
            }
        }
    }

    /// Emits ops turned into bytes here, and the bytes.
    pub(super) fn generated(&mut self, nodes: Vec<Node>, at: Pos) -> Val {
        self.emit(EmitKind::JsonPatch(nodes.clone()), at, How::Generated);
        Val::Marshal(Box::new(Val::Ops(nodes)))
    }

    /// Values that still hold ops nobody generated or sent: the caller
    /// gets them.
    pub(super) fn finish(&mut self) {
        let dangling = self.dangling();
        if !dangling.is_empty() && self.follow.is_none() {
            let at = dangling[0].at;
            self.emits.push(Emit {
                kind: EmitKind::Dangling(dangling),
                at,
                function: self.name.clone(),
                how: How::Unsent,
                retry: None,
                target: None,
                from_arg: false,
                deferred: false,
            });
        }
        let mut keys: Vec<String> = self.env.keys().cloned().collect();
        keys.sort();
        for key in keys {
            let Some(Val::Ops(nodes)) = self.env.get(&key) else {
                continue;
            };
            let ops = all_ops(nodes);
            if ops.is_empty() || ops.iter().all(|op| self.emitted.contains(&op.id)) {
                continue;
            }
            let at = ops[0].at;
            let nodes = nodes.clone();
            self.emit(EmitKind::JsonPatch(nodes), at, How::Unsent);
        }
    }
}
