//! How an op looks wherever ops are listed (Build's columns, Check's
//! patch, Race's requests): one class per kind.

use crate::patch::OpKind;

/// The CSS class of an op of kind `op` (`None`: an element the server
/// cannot read as an op).
pub fn op_class(op: Option<OpKind>) -> &'static str {
    match op {
        Some(OpKind::Add) => "op-add",
        Some(OpKind::Remove) => "op-remove",
        Some(OpKind::Replace) => "op-replace",
        Some(OpKind::Test) => "op-test",
        Some(OpKind::Move | OpKind::Copy) => "op-move",
        None => "op-malformed",
    }
}
