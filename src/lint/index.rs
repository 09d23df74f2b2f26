//! The index of a JSON patch's ops by path: a trie of their paths, with
//! the ops at and under each, so that every relation between ops ("is
//! there an earlier `test` of this path or an enclosing one?") is answered
//! in time linear in the size of the patch.

use crate::patch::{OpKind, Operation};
use crate::pointer::{NodeId, PathTrie, Pointer};

/// Paths with more tokens than this are left out of the index (no object
/// nests that deep; a hostile path of a million tokens would otherwise
/// cost a node per token in every relation).
pub(super) const MAX_TOKENS: usize = crate::limits::LINT_PATH_TOKENS;

/// What the index knows about one path.
#[derive(Clone, Debug, Default)]
pub(super) struct Node {
    /// `test` ops at exactly this path, in order.
    pub tests: Vec<usize>,
    /// `test` ops at this path or below it.
    sub_tests: Vec<usize>,
    /// Writes at exactly this path (a `move`'s `from` too).
    pub writes: Vec<usize>,
    /// Writes at this path that are not appends (`/-` or an index).
    pub plain: Vec<usize>,
    /// `add` and `replace` at this path.
    pub valued: Vec<usize>,
    /// Writes at this path or below it.
    sub_writes: Vec<usize>,
}

/// Pushes `i` unless it is already last.
fn push_once(list: &mut Vec<usize>, i: usize) {
    if list.last() != Some(&i) {
        list.push(i);
    }
}

/// The first index in the sorted `list` that is below `before`.
fn first_before(list: &[usize], before: usize) -> Option<usize> {
    list.first().copied().filter(|&i| i < before)
}

/// The last index in the sorted `list` that is below `before`.
pub(super) fn last_before(list: &[usize], before: usize) -> Option<usize> {
    let at = list.partition_point(|&i| i < before);
    at.checked_sub(1).map(|k| list[k])
}

/// True for an `add` that appends or inserts into a list (`/-`, `/3`).
pub(super) fn appends(op: &Operation) -> bool {
    op.op == OpKind::Add
        && Pointer::parse(&op.path)
            .ok()
            .and_then(Pointer::last)
            .is_some_and(|t| t.encoded() == "-" || t.to_index().is_ok())
}

/// `path` as a pointer the index holds: valid, and not too deep.
fn indexed(path: &str) -> Option<&Pointer> {
    Pointer::parse(path)
        .ok()
        .filter(|p| p.as_str().len() < MAX_TOKENS * 2 || p.count() <= MAX_TOKENS)
}

/// The ops' paths in a trie, with the ops at and under each.
pub(super) struct Index<'a> {
    trie: PathTrie<'a>,
    nodes: Vec<Node>,
    /// Each op's node (`None`: not a valid pointer, or too deep).
    at: Vec<Option<NodeId>>,
    /// The first `test` of `/metadata/resourceVersion`: it guards every
    /// write after it.
    rv_test: Option<usize>,
    /// An `add` or `replace` of `/metadata/resourceVersion`: it guards
    /// every write of the patch.
    rv_pinned: bool,
}

impl<'a> Index<'a> {
    pub fn build(ops: &'a [Operation]) -> Index<'a> {
        let mut index = Index {
            trie: PathTrie::new(),
            nodes: vec![Node::default()],
            at: Vec::with_capacity(ops.len()),
            rv_test: None,
            rv_pinned: false,
        };
        for (j, op) in ops.iter().enumerate() {
            let Some(path) = indexed(&op.path) else {
                index.at.push(None);
                continue;
            };
            let node = index.add(j, op, path);
            index.at.push(Some(node));
            if let Some(from) = op.from.as_deref().filter(|_| op.op == OpKind::Move) {
                if let Some(from) = indexed(from) {
                    let node = index.insert(from, |n| push_once(&mut n.sub_writes, j));
                    push_once(&mut index.nodes[node].writes, j);
                }
            }
        }
        index
    }

    /// Adds op `j` at `path`.
    fn add(&mut self, j: usize, op: &Operation, path: &'a Pointer) -> NodeId {
        let test = op.op == OpKind::Test;
        if op.path == "/metadata/resourceVersion" {
            match op.op {
                OpKind::Test if self.rv_test.is_none() => self.rv_test = Some(j),
                // Set by the patch, it is the update's precondition: every
                // write, before it or after, fails with 409 on a stale one.
                OpKind::Add | OpKind::Replace => self.rv_pinned = true,
                _ => {}
            }
        }
        let node = self.insert(path, |n| {
            push_once(
                if test {
                    &mut n.sub_tests
                } else {
                    &mut n.sub_writes
                },
                j,
            )
        });
        let info = &mut self.nodes[node];
        if test {
            info.tests.push(j);
            return node;
        }
        info.writes.push(j);
        if !appends(op) {
            info.plain.push(j);
        }
        if matches!(op.op, OpKind::Add | OpKind::Replace) {
            info.valued.push(j);
        }
        node
    }

    /// Inserts `path`, calling `visit` on the node of each prefix of it
    /// (itself included).
    fn insert(&mut self, path: &'a Pointer, mut visit: impl FnMut(&mut Node)) -> NodeId {
        let nodes = &mut self.nodes;
        self.trie.insert_visiting(path, |n| {
            if nodes.len() <= n {
                nodes.resize_with(n + 1, Node::default);
            }
            visit(&mut nodes[n]);
        })
    }

    /// True when a `test` before op `before` covers `pointer` (tests it or
    /// an enclosing path, or tests the resourceVersion), or the patch pins
    /// the resourceVersion.
    pub fn guarded(&self, before: usize, pointer: &Pointer) -> bool {
        if self.rv_pinned || self.rv_test.is_some_and(|i| i < before) {
            return true;
        }
        let mut hit = false;
        self.trie.walk(pointer, |n| {
            hit |= first_before(&self.nodes[n].tests, before).is_some();
        });
        hit
    }

    /// True when a `test` before op `before` covers the element at
    /// `element` or identifies it (tests something inside it, such as its
    /// `name`).
    pub fn element_guarded(&self, before: usize, element: &Pointer) -> bool {
        if self.guarded(before, element) {
            return true;
        }
        self.trie
            .get(element)
            .is_some_and(|n| first_before(&self.nodes[n].sub_tests, before).is_some())
    }

    /// The first write before op `before` at `pointer` or an enclosing path.
    pub fn first_enclosing_write(&self, before: usize, pointer: &Pointer) -> Option<usize> {
        let mut first: Option<usize> = None;
        self.trie.walk(pointer, |n| {
            if let Some(i) = first_before(&self.nodes[n].writes, before) {
                first = Some(first.map_or(i, |f| f.min(i)));
            }
        });
        first
    }

    /// The node of op `op`'s path.
    pub fn at(&self, op: usize) -> Option<NodeId> {
        self.at.get(op).copied().flatten()
    }

    /// What the index knows about op `op`'s path.
    pub fn node(&self, op: usize) -> Option<&Node> {
        self.at(op).map(|n| &self.nodes[n])
    }

    /// The writes after op `index` at or under `node`.
    pub fn later(&self, node: Option<NodeId>, index: usize) -> &[usize] {
        let Some(node) = node else { return &[] };
        let list = &self.nodes[node].sub_writes;
        let from = list.partition_point(|&j| j <= index);
        &list[from..]
    }
}
