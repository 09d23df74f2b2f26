//! Ops and the sequences that hold them: what a value holds as ops, and
//! new ops numbered in their file.

use super::{cut, Func};
use crate::limits::MAX_OPS;
use crate::patch::OpKind;
use crate::scan::go::Pos;
use crate::scan::value::{Node, OpT, Text, Val, Via};

/// The nodes of a value holding ops (`None` when it holds none).
pub(super) fn nodes_of(val: &Val) -> Option<Vec<Node>> {
    match val {
        Val::Op(op) => Some(vec![Node::Op((**op).clone())]),
        Val::Ops(nodes) => Some(nodes.clone()),
        Val::Marshal(inner) => nodes_of(inner),
        _ => None,
    }
}

/// As [`nodes_of`], but a value that is not ops counts as ops the
/// scanner cannot see.
pub(super) fn nodes_or_opaque(val: &Val, expr: &str) -> Vec<Node> {
    match val {
        Val::Nil => Vec::new(),
        Val::List(items) => items
            .iter()
            .flat_map(|i| nodes_or_opaque(i, expr))
            .collect(),
        _ => nodes_of(val).unwrap_or_else(|| vec![Node::Opaque(cut(expr))]),
    }
}

/// Appends the ops of each value (written as `expr`) while `nodes` holds
/// fewer than [`MAX_OPS`]; builder ops get `recv` as their receiver.
pub(super) fn push_ops(nodes: &mut Vec<Node>, vals: &[(Val, &str)], recv: Option<&str>) {
    for (val, expr) in vals {
        if count(nodes) >= MAX_OPS {
            break;
        }
        let mut more = nodes_or_opaque(val, expr);
        if let Some(recv) = recv {
            set_recv(&mut more, recv);
        }
        nodes.extend(more);
    }
}

fn set_recv(nodes: &mut [Node], recv: &str) {
    for node in nodes {
        match node {
            Node::Op(op) => {
                if op.via == (Via::Builder { recv: None }) {
                    op.via = Via::Builder {
                        recv: Some(recv.to_owned()),
                    };
                }
            }
            Node::Choice(arms) => {
                for arm in arms {
                    set_recv(arm, recv);
                }
            }
            Node::Opaque(_) => {}
        }
    }
}

fn count(nodes: &[Node]) -> usize {
    nodes
        .iter()
        .map(|n| match n {
            Node::Choice(arms) => arms.iter().map(|a| count(a)).sum::<usize>(),
            _ => 1,
        })
        .sum()
}

impl Func<'_, '_, '_> {
    /// A new op, numbered in its file.
    pub(super) fn new_op(
        &self,
        kind: Option<OpKind>,
        path: Text,
        value: Option<Val>,
        value_expr: String,
        at: Pos,
        via: Via,
    ) -> OpT {
        OpT {
            id: self.world.id(),
            kind,
            path,
            value,
            value_expr,
            at,
            via,
        }
    }
}
