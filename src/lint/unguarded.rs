//! `unguarded-whole-write`: a whole shared collection written with no
//! `test` of it first.

use serde_json::Value;

use super::{Finding, Options, Rule};
use crate::patch::{OpKind, Operation};
use crate::pointer::Pointer;

/// The collections other writers fill too, as whole members.
const SHARED: [(&str, &str); 5] = [
    ("/metadata/labels", "map"),
    ("/metadata/annotations", "map"),
    ("/metadata/finalizers", "list"),
    ("/metadata/ownerReferences", "list"),
    ("/status/conditions", "list"),
];

/// True when `outer` is `inner` or encloses it.
fn encloses(outer: &str, inner: &str) -> bool {
    match (Pointer::parse(outer), Pointer::parse(inner)) {
        (Ok(outer), Ok(inner)) => inner.starts_with(outer),
        _ => outer == inner,
    }
}

/// The findings of the rule on `ops`; with the current object, the fix
/// tests the collection as it is there (`null` when absent).
pub(super) fn check(ops: &[Operation], options: &Options) -> Vec<Finding> {
    let mut out = Vec::new();
    for (index, op) in ops.iter().enumerate() {
        if !matches!(op.op, OpKind::Add | OpKind::Replace | OpKind::Remove) {
            continue;
        }
        let Some((_, shape)) = SHARED.iter().find(|(p, _)| *p == op.path) else {
            continue;
        };
        let guarded = ops[..index]
            .iter()
            .any(|t| t.op == OpKind::Test && encloses(&t.path, &op.path));
        if guarded {
            continue;
        }
        let fix = options.object.as_ref().map(|object| {
            let current = object.pointer(&op.path).cloned().unwrap_or(Value::Null);
            let mut fixed = ops.to_vec();
            fixed.insert(index, Operation::test(op.path.clone(), current));
            fixed
        });
        out.push(
            Finding::new(
                Rule::UnguardedWholeWrite,
                Some(index),
                Some(&op.path),
                format!(
                    "op {index} ({} {}) writes the whole {shape} with no test before it: whatever another writer put there since your read is erased",
                    op.op, op.path
                ),
            )
            .with_fix(fix),
        );
    }
    out
}
