//! Branches: each arm runs from the same state, and the states of the arms
//! that fall through are joined; ops added in some arms become a
//! [`Node::Choice`].

use tree_sitter::Node as TsNode;

use super::{Env, Func};
use crate::scan::go::{children, field};
use crate::scan::value::{Node, Val};

/// Names a condition says are `nil` in an arm.
type Narrowed = Vec<String>;

impl<'f> Func<'_, 'f, '_> {
    /// What `x == nil` (or `x != nil`) says: the names that are `nil` in
    /// the arm taken when it holds, and in the other one.
    pub(super) fn nil_tests(&self, condition: TsNode<'f>) -> (Narrowed, Narrowed) {
        let condition = match condition.kind() {
            "parenthesized_expression" => {
                children(condition).into_iter().next().unwrap_or(condition)
            }
            _ => condition,
        };
        if condition.kind() != "binary_expression" {
            return Default::default();
        }
        let op = field(condition, "operator").map_or("", |o| self.text(o));
        let (Some(l), Some(r)) = (field(condition, "left"), field(condition, "right")) else {
            return Default::default();
        };
        let named = match (l.kind(), r.kind()) {
            ("identifier" | "selector_expression", "nil") => l,
            ("nil", "identifier" | "selector_expression") => r,
            _ => return Default::default(),
        };
        let name = vec![self.text(named).to_owned()];
        match op {
            "==" => (name, Vec::new()),
            "!=" => (Vec::new(), name),
            _ => Default::default(),
        }
    }

    /// Runs each arm as [`Func::branch`] does, the names an arm's
    /// condition says are `nil` bound to `nil` in it.
    pub(super) fn branch_narrowed(&mut self, arms: Vec<(Option<TsNode<'f>>, Narrowed)>) {
        if arms.iter().all(|(_, n)| n.is_empty()) {
            self.branch(arms.into_iter().map(|(a, _)| a).collect());
            return;
        }
        let pre = self.env.clone();
        let mut outs = Vec::new();
        for (arm, nils) in arms {
            self.env = pre.clone();
            self.terminated = false;
            for name in &nils {
                self.env.insert(name.clone(), Val::Nil);
            }
            if let Some(node) = arm {
                self.stmt(node);
            }
            for name in &nils {
                if self.env.get(name) == Some(&Val::Nil) {
                    match pre.get(name) {
                        Some(v) => self.env.insert(name.clone(), v.clone()),
                        None => self.env.remove(name),
                    };
                }
            }
            if !self.terminated {
                outs.push(std::mem::take(&mut self.env));
            }
        }
        self.join(pre, outs);
    }

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
        self.join(pre, outs);
    }

    /// The state after a branch: the arms that fall through, joined.
    fn join(&mut self, pre: Env, mut outs: Vec<Env>) {
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
