//! The interpreter: walks each function's statements in order and follows
//! what flows into patches: builder calls, op literals, JSON text, patch
//! types, `MergeFrom` bases and the changes made after them.
//!
//! One pass over each function, every branch taken (the ops added in
//! `if`/`else` arms and loop bodies are kept as alternatives, see
//! [`Node::Choice`](super::value::Node::Choice)); calls of functions of
//! the module are followed a few levels deep ([`follow`]); constants
//! resolved within their package.
//!
//! This file holds the walk's state ([`World`] for the files of a scan,
//! `Func` for one function); each file of `eval/` adds one kind of step to
//! `Func`.

mod branches;
mod calls;
mod changes;
mod closures;
mod emit;
mod expressions;
mod follow;
mod imports;
mod kinds;
mod kubevirt;
mod literals;
mod ops;
mod packages;
mod sends;
mod sprintf;
mod statements;
#[cfg(test)]
mod tests;
mod world;

use std::collections::{HashMap, HashSet};

use tree_sitter::Node as TsNode;

pub use changes::Change;
pub use emit::{Emit, EmitKind, How};
pub use kinds::Target;
pub use world::World;

use super::go::{GoFile, Pos};
use super::value::Val;

/// Most statements and expressions evaluated in one function, the
/// functions it calls included.
const MAX_STEPS: usize = 200_000;
/// Deepest nesting of statements and expressions followed.
const MAX_DEPTH: usize = 200;

/// What the variables of a function hold, by name.
type Env = HashMap<String, Val>;

/// A call expression and its arguments.
#[derive(Clone, Copy)]
struct Call<'c, 'f> {
    node: TsNode<'f>,
    args: &'c [TsNode<'f>],
}

/// One function being walked.
struct Func<'u, 'f, 'a> {
    world: &'u World<'f, 'a>,
    /// The file (its index in the world).
    unit: usize,
    name: String,
    env: Env,
    /// Declared Go types of variables (`*v1.Node`), by name.
    types: HashMap<String, String>,
    /// Names that stand for another expression (`cluster := s.cluster`,
    /// a parameter for the caller's argument), with whether that
    /// expression is the caller's.
    aliases: HashMap<String, (String, bool)>,
    /// The caller's aliases (names of the function the scan started
    /// from).
    outer: HashMap<String, (String, bool)>,
    emits: Vec<Emit>,
    emitted: HashSet<u32>,
    retry: Vec<Pos>,
    changes: Vec<Change>,
    /// Objects written or patched, with how many changes had been made
    /// then.
    writes: Vec<(String, usize)>,
    /// Calls deferred (`defer f()`), run when the function ends.
    deferred: Vec<TsNode<'f>>,
    /// Running them.
    in_defer: bool,
    /// The function answers an admission review (it returns
    /// `admission.Response` or an `AdmissionResponse`): ops it hands on
    /// or returns are the webhook's patch.
    admits: bool,
    terminated: bool,
    steps: usize,
    depth: usize,
    /// Walk function literals where they are written (off for package
    /// declarations: `var _ = Describe(..., func() {...})` is test code).
    closures: bool,
    /// Set when this function is walked for a caller.
    follow: Option<follow::Callee>,
    /// The next send hands on what the caller passed (a wrapper's).
    sending_arg: bool,
    /// The object the next send goes to.
    target: Option<Target>,
}

impl<'u, 'f, 'a> Func<'u, 'f, 'a> {
    fn new(world: &'u World<'f, 'a>, unit: usize, name: String) -> Self {
        Func {
            world,
            unit,
            name,
            env: Env::new(),
            types: HashMap::new(),
            aliases: HashMap::new(),
            outer: HashMap::new(),
            emits: Vec::new(),
            emitted: HashSet::new(),
            retry: Vec::new(),
            changes: Vec::new(),
            writes: Vec::new(),
            deferred: Vec::new(),
            in_defer: false,
            admits: false,
            terminated: false,
            steps: 0,
            depth: 0,
            closures: true,
            follow: None,
            sending_arg: false,
            target: None,
        }
    }

    fn file(&self) -> &'f GoFile<'a> {
        self.world.units[self.unit].file
    }

    fn text(&self, node: TsNode<'f>) -> &'f str {
        self.file().text_of(node)
    }

    /// The node's text, short (for messages).
    fn short(&self, node: TsNode<'f>) -> String {
        cut(self.text(node))
    }

    fn pos(&self, node: TsNode<'f>) -> Pos {
        self.file().pos(node)
    }

    fn budget(&mut self) -> bool {
        self.steps += 1;
        self.steps <= MAX_STEPS && self.depth <= MAX_DEPTH
    }

    fn lookup(&self, name: &str) -> Option<&Val> {
        self.env
            .get(name)
            .or_else(|| self.world.value(self.unit, name))
    }

    /// Walks a function's body, then what it deferred.
    fn run(&mut self, body: TsNode<'f>) {
        self.block(body);
        self.run_deferred();
    }
}

/// Short text for messages.
fn cut(s: &str) -> String {
    let one_line: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= 80 {
        one_line
    } else {
        let head: String = one_line.chars().take(77).collect();
        format!("{head}...")
    }
}
