//! A trie of pointers, token by token: "which earlier path encloses this
//! one?" in time linear in the length of the path, whatever the number of
//! paths (a list of paths compared pairwise is quadratic: 10,000 ops of a
//! patch, 100 million comparisons).
//!
//! ```
//! use patchlab::pointer::{PathTrie, Pointer};
//!
//! let mut trie = PathTrie::new();
//! let labels = trie.insert(Pointer::parse("/metadata/labels").unwrap());
//! let mut seen = Vec::new();
//! let full = trie.walk(Pointer::parse("/metadata/labels/app").unwrap(), |node| seen.push(node));
//! // The walk visits the root, /metadata and /metadata/labels, then stops:
//! // /metadata/labels/app was never inserted.
//! assert_eq!(seen.len(), 3);
//! assert_eq!(seen[2], labels);
//! assert_eq!(full, None);
//! ```

use std::collections::HashMap;

use super::{Pointer, Token};

/// Node ids handed out by a [`PathTrie`]: the root is [`PathTrie::ROOT`],
/// the others count up from 1 in insertion order, so callers keep their
/// own data per node in a `Vec` indexed by id.
pub type NodeId = usize;

/// A trie over the escaped tokens of pointers borrowed for `'a`.
#[derive(Clone, Debug)]
pub struct PathTrie<'a> {
    edges: HashMap<(NodeId, &'a str), NodeId>,
    /// Per node: its token, its last child and its previous sibling (the
    /// root, never a child, stands for none).
    nodes: Vec<(&'a str, NodeId, NodeId)>,
}

impl Default for PathTrie<'_> {
    fn default() -> Self {
        PathTrie::new()
    }
}

impl<'a> PathTrie<'a> {
    /// The root node: the empty pointer, the whole document.
    pub const ROOT: NodeId = 0;

    /// A trie holding only the root.
    pub fn new() -> PathTrie<'a> {
        PathTrie {
            edges: HashMap::new(),
            nodes: vec![("", Self::ROOT, Self::ROOT)],
        }
    }

    /// How many nodes exist (the root included): ids are `0..len()`.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false: the root exists.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// The node of `pointer`, created with its missing ancestors.
    pub fn insert(&mut self, pointer: &'a Pointer) -> NodeId {
        self.insert_visiting(pointer, |_| {})
    }

    /// [`PathTrie::insert`], calling `visit` on the root, each ancestor and
    /// the node itself, in that order.
    pub fn insert_visiting(
        &mut self,
        pointer: &'a Pointer,
        mut visit: impl FnMut(NodeId),
    ) -> NodeId {
        let mut node = Self::ROOT;
        visit(node);
        for token in pointer.tokens() {
            let next = self.nodes.len();
            let parent = node;
            node = *self.edges.entry((parent, token.encoded())).or_insert(next);
            if node == next {
                self.nodes
                    .push((token.encoded(), Self::ROOT, self.nodes[parent].1));
                self.nodes[parent].1 = next;
            }
            visit(node);
        }
        node
    }

    /// Calls `visit` on the root and on each node along `pointer` that
    /// exists (its ancestors first); returns the node of `pointer` itself
    /// when it exists.
    pub fn walk(&self, pointer: &Pointer, mut visit: impl FnMut(NodeId)) -> Option<NodeId> {
        let mut node = Self::ROOT;
        visit(node);
        for token in pointer.tokens() {
            node = *self.edges.get(&(node, token.encoded()))?;
            visit(node);
        }
        Some(node)
    }

    /// The node of `pointer`, when it exists.
    pub fn get(&self, pointer: &Pointer) -> Option<NodeId> {
        self.walk(pointer, |_| {})
    }

    /// The child of `node` by its escaped token, when it exists.
    pub fn child(&self, node: NodeId, encoded: &str) -> Option<NodeId> {
        self.edges.get(&(node, encoded)).copied()
    }

    /// The children of `node` with their tokens, the newest first.
    pub fn children(&self, node: NodeId) -> impl Iterator<Item = (Token<'a>, NodeId)> + '_ {
        let mut next = self.nodes[node].1;
        std::iter::from_fn(move || {
            let child = next;
            let (token, _, previous) = *self.nodes.get(child).filter(|_| child != Self::ROOT)?;
            next = previous;
            Some((Token(token), child))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(s: &str) -> &Pointer {
        Pointer::parse(s).unwrap()
    }

    #[test]
    fn ancestors_are_visited_in_order_and_tokens_not_prefixes() {
        let mut trie = PathTrie::new();
        let a = trie.insert(p("/a"));
        let ab = trie.insert(p("/a/b"));
        assert_eq!(trie.get(p("/a/b")), Some(ab));
        assert_eq!(trie.get(p("")), Some(PathTrie::ROOT));
        // `/a/b2` is not under `/a/b`: tokens, not string prefixes.
        let mut seen = Vec::new();
        assert_eq!(trie.walk(p("/a/b2"), |n| seen.push(n)), None);
        assert_eq!(seen, [PathTrie::ROOT, a]);
        // Escaped tokens are kept as written: `/a~1b` is one token.
        assert_eq!(trie.get(p("/a~1b")), None);
        let mut visited = Vec::new();
        trie.insert_visiting(p("/a/c"), |n| visited.push(n));
        assert_eq!(visited, [PathTrie::ROOT, a, 3]);
        assert_eq!(trie.len(), 4);
        let children: Vec<_> = trie.children(a).map(|(t, n)| (t.encoded(), n)).collect();
        assert_eq!(children, [("c", 3), ("b", ab)]);
        assert_eq!(trie.child(a, "b"), Some(ab));
        assert_eq!(trie.child(ab, "b"), None);
        assert_eq!(trie.children(ab).count(), 0);
    }
}
