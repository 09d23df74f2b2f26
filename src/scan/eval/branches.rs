//! Branches: each arm runs from the same state, and the states of the arms
//! that fall through are joined; ops added in some arms become a
//! [`Node::Choice`].

use tree_sitter::Node as TsNode;

use super::{Env, Func};
use crate::scan::value::{Node, Val};

impl<'f> Func<'_, 'f, '_> {
    /// Runs each arm (`None`: the arm that does nothing) from the same
    /// state and joins the states of those that fall through.
    pub(super) fn branch(&mut self, arms: Vec<Option<TsNode<'f>>>) {
        let pre = self.env.clone();
        let mut outs = Vec::new();
        for arm in arms {
            self.env = pre.clone();
            self.terminated = false;
            if let Some(node) = arm {
                self.stmt(node);
            }
            if !self.terminated {
                outs.push(std::mem::take(&mut self.env));
            }
        }
        if outs.is_empty() {
            self.env = pre;
            self.terminated = true;
            return;
        }
        self.terminated = false;
        self.env = if outs.len() == 1 {
            outs.pop().unwrap_or_default()
        } else {
            merge(&pre, outs)
        };
    }
}

/// Joins the environments of the branches that fall through.
fn merge(pre: &Env, outs: Vec<Env>) -> Env {
    let mut keys: Vec<&String> = outs.iter().flat_map(|e| e.keys()).collect();
    keys.sort();
    keys.dedup();
    let mut merged = Env::with_capacity(keys.len());
    for key in keys {
        let vals: Vec<Option<&Val>> = outs.iter().map(|e| e.get(key)).collect();
        let Some(first) = vals.iter().flatten().next().copied() else {
            continue;
        };
        let pre_val = pre.get(key);
        let val = if vals.iter().all(|v| *v == Some(first)) {
            first.clone()
        } else if vals
            .iter()
            .all(|v| matches!(v, None | Some(Val::Ops(_) | Val::Nil)))
        {
            Val::Ops(join_ops(pre_val, &vals))
        } else if vals
            .iter()
            .flatten()
            .all(|v| Some(*v) == pre_val || *v == first)
        {
            // A value only some branches set keeps the others' (or the
            // value before): the scanner cannot tell which runs.
            first.clone()
        } else {
            Val::Unknown(key.clone())
        };
        merged.insert(key.clone(), val);
    }
    merged
}

/// Joins the ops of the branches: the ops before them, then a choice of
/// what each added; a choice of the whole sequences when one did not
/// extend the ops before.
fn join_ops(pre: Option<&Val>, vals: &[Option<&Val>]) -> Vec<Node> {
    let base: &[Node] = match pre {
        Some(Val::Ops(nodes)) => nodes,
        _ => &[],
    };
    let mut suffixes = Vec::new();
    for v in vals {
        match v {
            Some(Val::Ops(nodes)) if nodes.starts_with(base) => {
                suffixes.push(nodes[base.len()..].to_vec());
            }
            Some(Val::Ops(_)) => {
                let whole = |v: &Option<&Val>| match v {
                    Some(Val::Ops(nodes)) => nodes.clone(),
                    _ => Vec::new(),
                };
                return vec![Node::Choice(vals.iter().map(whole).collect())];
            }
            _ => suffixes.push(Vec::new()),
        }
    }
    let mut nodes = base.to_vec();
    if suffixes.iter().any(|s| !s.is_empty()) {
        nodes.push(Node::Choice(suffixes));
    }
    nodes
}
