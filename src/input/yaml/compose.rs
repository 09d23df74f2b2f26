//! Events to a node tree, as yaml.v2's `decode.go` parser builds it: an
//! anchor names its node from the moment the node starts (so an alias
//! inside it refers to it), a later anchor of the same name replaces it,
//! and an alias to a name not yet defined is refused while parsing
//! (`unknown anchor 'x' referenced`).

use std::collections::HashMap;

use super::error::Mark;
use super::error::{Error, Stage};
use super::parser::{Event, EventKind, Properties};
use super::scanner::Style;
use crate::input::Budget;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Content {
    Scalar {
        value: String,
        implicit: bool,
        style: Style,
    },
    Sequence(Vec<usize>),
    Mapping(Vec<usize>),
    /// An alias: its name and the node it refers to.
    Alias(String, usize),
}

#[derive(Clone, Debug)]
pub(super) struct Node {
    pub content: Content,
    pub tag: String,
    pub mark: Mark,
}

/// The nodes of one document; node 0 is its root once finished.
#[derive(Debug, Default)]
pub(super) struct Tree {
    pub nodes: Vec<Node>,
    pub root: Option<usize>,
}

/// Builds a [`Tree`] from the events of one document.
pub(super) struct Composer {
    pub tree: Tree,
    anchors: HashMap<Vec<u8>, usize>,
    /// The collections being built.
    open: Vec<usize>,
    max_depth: usize,
}

impl Composer {
    pub fn new(budget: &Budget) -> Composer {
        Composer {
            tree: Tree::default(),
            anchors: HashMap::new(),
            open: Vec::new(),
            max_depth: budget.max_depth,
        }
    }

    /// Adds a node event (stream and document events are the caller's).
    pub fn feed(&mut self, event: Event) -> Result<(), Error> {
        let mark = event.start;
        let (content, properties) = match event.kind {
            EventKind::Scalar(scalar) => {
                let content = Content::Scalar {
                    value: scalar.value,
                    implicit: scalar.implicit,
                    style: scalar.style,
                };
                (content, scalar.properties)
            }
            EventKind::SequenceStart(p) => (Content::Sequence(Vec::new()), p),
            EventKind::MappingStart(p) => (Content::Mapping(Vec::new()), p),
            EventKind::Alias(name) => {
                let Some(&target) = self.anchors.get(&name) else {
                    let name = String::from_utf8_lossy(&name);
                    let problem = format!("unknown anchor '{name}' referenced");
                    return Err(Error::new(Stage::Decode, problem, mark));
                };
                let name = String::from_utf8_lossy(&name).into_owned();
                (Content::Alias(name, target), Properties::default())
            }
            EventKind::SequenceEnd | EventKind::MappingEnd => {
                self.open.pop();
                return Ok(());
            }
            _ => return Ok(()),
        };
        self.add(content, properties, mark)
    }

    fn add(&mut self, content: Content, properties: Properties, mark: Mark) -> Result<(), Error> {
        let id = self.tree.nodes.len();
        let collection = matches!(content, Content::Sequence(_) | Content::Mapping(_));
        let tag = String::from_utf8_lossy(&properties.tag).into_owned();
        self.tree.nodes.push(Node { content, tag, mark });
        if let Some(anchor) = properties.anchor {
            self.anchors.insert(anchor, id);
        }
        match self.open.last() {
            None => self.tree.root = Some(id),
            Some(&parent) => match &mut self.tree.nodes[parent].content {
                Content::Sequence(children) | Content::Mapping(children) => children.push(id),
                _ => {}
            },
        }
        if collection {
            self.open.push(id);
            if self.open.len() > self.max_depth {
                let problem = format!(
                    "nesting is deeper than the limit of {} levels",
                    self.max_depth
                );
                return Err(Error::new(Stage::Budget, problem, mark));
            }
        }
        Ok(())
    }
}
