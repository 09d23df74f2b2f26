//! Function literals: walked where they are called or passed, sharing the
//! enclosing function's variables.

use tree_sitter::Node as TsNode;

use super::{Call, Func};
use crate::scan::go::{children, field, field_list, GoFile};
use crate::scan::value::Val;

impl<'f, 'a> Func<'_, 'f, 'a> {
    /// Walks a function literal's body, its parameters bound to `args`,
    /// sharing the enclosing function's variables.
    fn closure(&mut self, node: TsNode<'f>, args: &[Val]) {
        let Some(body) = field(node, "body") else {
            return;
        };
        if !self.closures || !self.budget() {
            return;
        }
        let params = field(node, "parameters").map(children).unwrap_or_default();
        let names = params.into_iter().flat_map(|p| field_list(p, "name"));
        for (i, name) in names.enumerate() {
            let name = self.text(name).to_owned();
            let val = args
                .get(i)
                .cloned()
                .unwrap_or_else(|| Val::Unknown(name.clone()));
            self.env.insert(name, val);
        }
        let outer = self.terminated;
        self.terminated = false;
        self.depth += 1;
        self.block(body);
        self.depth -= 1;
        self.terminated = outer;
    }

    /// Calls the function literal `closure`.
    pub(super) fn call_closure(&mut self, closure: TsNode<'f>, call: Call<'_, 'f>) -> Val {
        let vals = self.exprs(call.args);
        self.closure(closure, &vals);
        Val::Unknown(self.short(call.node))
    }

    /// The function literal a [`Val::Closure`] stands for.
    pub(super) fn closure_node(&self, val: &Val) -> Option<TsNode<'f>> {
        let Val::Closure { file, start, end } = val else {
            return None;
        };
        let file: &'f GoFile<'a> = match self.file() {
            f if f.id == *file => f,
            _ => return None,
        };
        let root = file.tree.root_node();
        let mut node = root.descendant_for_byte_range(*start, *end)?;
        while node.kind() != "func_literal" || node.start_byte() != *start {
            node = node.parent()?;
        }
        Some(node)
    }

    /// Walks the function literals among `vals` (callbacks handed to a
    /// call run there, as far as the scanner can tell).
    pub(super) fn run_closures(&mut self, vals: &[Val]) {
        for val in vals {
            if let Some(node) = self.closure_node(val) {
                self.closure(node, &[]);
            }
        }
    }
}
