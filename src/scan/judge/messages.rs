//! The words of a finding: what the op does, to which shape, and what
//! another writer loses.

use crate::lint::Rule;
use crate::patch::OpKind;
use crate::scan::value::{collection_at, HoleKind, OpT, Piece, Shape, Val};

use super::show::{show_op, show_value};

fn what_shape(op: &OpT) -> &'static str {
    match op.path.literal().as_deref() {
        Some(p) if p.ends_with("/labels") => "a label",
        Some(p) if p.ends_with("/annotations") => "an annotation",
        Some(p) if p.ends_with("/finalizers") => "a finalizer",
        Some(p) if p.ends_with("/ownerReferences") => "an owner reference",
        Some(p) if p.ends_with("/conditions") => "a condition",
        _ => "an element",
    }
}

pub(super) fn message(
    rule: Rule,
    op: &OpT,
    partner: Option<&OpT>,
    lint_message: &str,
    placeholders: bool,
) -> String {
    let path = op.path.display();
    let value = show_value(op).unwrap_or_default();
    match rule {
        Rule::WholeMapTest => format!(
            "`test {path}` compares the whole map {value}{}: a concurrent change to any key of it, even one this patch leaves alone ({} another writer sets), fails the whole patch (422) and drops every other op in it",
            partner.map(|p| format!(" to `{}` it", p.kind.map_or("write", |k| k.as_str()))).unwrap_or_default(),
            what_shape(op)
        ),
        Rule::WholeListTest => format!(
            "`test {path}` compares the whole list {value} to change it: any concurrent change to the list ({} another controller adds) fails the patch (422); safe to retry after a re-read, only slower",
            what_shape(op)
        ),
        Rule::WholeCollectionWrite => {
            let shape = match (collection_at(&path), op.value.as_ref().map(Val::shape)) {
                (Some(Shape::List), _) | (None, Some(Shape::List)) => "list",
                (Some(Shape::Map), _) | (None, Some(Shape::Map)) => "map",
                _ => "collection",
            };
            format!(
                "`{}` writes the whole {shape} {value} with no `test` before it: whatever another writer put there since your read ({}) is erased",
                show_op(op),
                what_shape(op)
            )
        }
        Rule::UnescapedSlash if op.path.has_holes() => {
            let key = op
                .path
                .pieces
                .iter()
                .find_map(|p| match p {
                    Piece::Hole(h) if h.kind == HoleKind::Text => Some(h.expr.clone()),
                    _ => None,
                })
                .unwrap_or_default();
            format!(
                "`{}` puts the key `{key}` into the path unescaped: a key holding `/` (any qualified name such as `kubevirt.io/nodeName`) is read as two steps, so the op fails (422) or writes somewhere else",
                show_op(op)
            )
        }
        Rule::IndexWithoutTest => format!(
            "`{}` addresses a list element by index with no `test` of it first: if another writer changed the list since your read, it hits their element",
            show_op(op)
        ),
        Rule::EngineDependent if op.kind == Some(OpKind::Test) && op.value == Some(Val::Nil) => format!(
            "`test {path}` with null: kube-apiserver passes it when the member is missing (or null), a strict RFC 6902 engine (and most libraries unit tests use) fails it"
        ),
        Rule::AddWithoutTest => format!(
            "`add {path}` sets one key to {value} with no `test`: if another writer sets the same key at the same time, the last write wins"
        ),
        Rule::RemoveWithoutTest => format!(
            "`remove {path}` with no `test`: it fails (422) if another writer removed the key first, and erases any value set meanwhile"
        ),
        Rule::DuplicatePath => match partner {
            Some(p) => format!(
                "`{}` writes the same path as `{}` (line {}) in the same patch: {}",
                show_op(op),
                show_op(p),
                p.at.line,
                if op.kind == Some(OpKind::Remove) && p.kind == Some(OpKind::Remove) {
                    "the second remove always fails (422)"
                } else {
                    "the later write replaces what the earlier one wrote"
                }
            ),
            None => format!("{} (`{}`)", rule.info().summary, show_op(op)),
        },
        Rule::TestAfterWrite => match partner {
            Some(p) => format!(
                "`{}` runs after `{}` (line {}) wrote that path in the same patch: it compares against what the patch just wrote, not what is stored, so it guards nothing",
                show_op(op),
                show_op(p),
                p.at.line
            ),
            None => format!("{} (`{}`)", rule.info().summary, show_op(op)),
        },
        _ if !placeholders => lint_message.to_owned(),
        _ => format!("{} (`{}`)", rule.info().summary, show_op(op)),
    }
}
