//! YAML as kubectl reads it: sigs.k8s.io/yaml's `YAMLToJSON` over
//! yaml.v2, which reads YAML 1.1. yaml.v2's reader, scanner and parser
//! (libyaml's, ported to Go) are ported here line for line (`reader.rs`,
//! `scanner.rs`, `parser.rs`), so a text is accepted or refused as kubectl
//! accepts or refuses it, with yaml.v2's words; its decoder (`compose.rs`,
//! `decode.rs`, `resolve.rs`) gives YAML 1.1 scalars (`yes` is true, `010`
//! is 8), `<<` merge keys and last-wins duplicate keys; `convert.rs` turns
//! the result into JSON as sigs.k8s.io/yaml does. `emit.rs` writes values
//! back as YAML that reads the same.
//!
//! patchlab's budgets (size, nesting depth, nodes with aliases expanded)
//! apply on top: kubectl has none of them.

mod compose;
mod convert;
mod decode;
mod emit;
mod error;
mod parser;
mod reader;
mod resolve;
mod scanner;
mod value;

use std::rc::Rc;

use serde_json::Value;

use compose::Composer;
use decode::Decoder;
pub(crate) use decode::Note;
pub(crate) use emit::emit;
pub(crate) use error::{Error, Stage};
use parser::{EventKind, Parser};
pub(crate) use resolve::Scalar;

use super::{Budget, InputError};

/// Which documents of a stream are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Documents {
    /// yaml.v2's `Unmarshal` (kubectl's `-p`): the first document, the
    /// rest unread; no document at all is `null`.
    First,
    /// One object: the first document, and an error when a second one
    /// starts (`---`); no document is an error.
    One,
}

/// A text read: its value and the plain scalars YAML 1.1 read as
/// booleans or numbers.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Read {
    pub value: Value,
    pub notes: Vec<Note>,
}

impl Error {
    /// The error with its 1-based line and column.
    pub fn input_error(&self) -> InputError {
        InputError {
            message: self.problem.clone(),
            line: self.located.then_some(self.mark.line + 1),
            column: self.located.then_some(self.mark.column + 1),
        }
    }
}

impl Note {
    /// The text the scalar is sent as: a value's JSON (`true`, `8`,
    /// `1.1`), or a key's string (`true`, `8`).
    pub fn sent(&self) -> String {
        let go = match self.scalar {
            Scalar::Null => value::Go::Nil,
            Scalar::Bool(b) => value::Go::Bool(b),
            Scalar::Int(i) => value::Go::Int(i),
            Scalar::Uint(u) => value::Go::Uint(u),
            Scalar::Float(f) => value::Go::Float(f, self.mark),
            Scalar::Str => value::Go::Str(self.written.clone()),
        };
        convert::sent_text(&go, self.key)
    }
}

/// Reads `text` in one go.
pub(crate) fn read(text: &str, budget: &Budget, documents: Documents) -> Result<Read, Error> {
    let mut job = Job::new(Rc::from(text), *budget, documents);
    loop {
        if let Some(outcome) = job.step(usize::MAX) {
            return outcome;
        }
    }
}

/// Parses one YAML document into a JSON value.
pub(super) fn parse(text: &str, budget: &Budget) -> Result<Value, InputError> {
    read(text, budget, Documents::One)
        .map(|read| read.value)
        .map_err(|e| e.input_error())
}

/// Where a [`Job`] is in the stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Before,
    In,
    After,
}

/// A YAML read done in pieces.
pub(crate) struct Job {
    parser: Parser,
    composer: Composer,
    budget: Budget,
    documents: Documents,
    phase: Phase,
    finished: bool,
}

impl Job {
    pub(crate) fn new(text: Rc<str>, budget: Budget, documents: Documents) -> Job {
        Job {
            parser: Parser::new(text),
            composer: Composer::new(&budget),
            budget,
            documents,
            phase: Phase::Before,
            finished: false,
        }
    }

    /// Reads about `chars` more characters; the outcome once the text is
    /// read. Called again after that, it answers `None`.
    pub(crate) fn step(&mut self, chars: usize) -> Option<Result<Read, Error>> {
        if self.finished {
            return None;
        }
        let start = self.parser.position();
        loop {
            match self.next() {
                Ok(true) => {}
                Ok(false) => {
                    self.finished = true;
                    return Some(self.finish());
                }
                Err(err) => {
                    self.finished = true;
                    return Some(Err(err));
                }
            }
            if self.parser.position().saturating_sub(start) >= chars {
                return None;
            }
        }
    }

    /// Handles one event; false once the document is read.
    fn next(&mut self) -> Result<bool, Error> {
        if self.phase == Phase::After {
            // Only a second document's start counts; yaml.v2 never reads
            // further, so what follows cannot refuse the first.
            return match self.parser.next_event() {
                Ok(Some(event)) if event.kind == EventKind::DocumentStart => {
                    let problem = "expected one YAML document, found another (---)";
                    Err(Error::new(Stage::Budget, problem, event.start))
                }
                _ => Ok(false),
            };
        }
        let Some(event) = self.parser.next_event()? else {
            return Ok(false);
        };
        match (&event.kind, self.phase) {
            (EventKind::StreamStart, _) => Ok(true),
            (EventKind::StreamEnd, _) => Ok(false),
            (EventKind::DocumentStart, _) => {
                self.phase = Phase::In;
                Ok(true)
            }
            (EventKind::DocumentEnd, _) => {
                self.phase = Phase::After;
                Ok(self.documents == Documents::One)
            }
            _ => {
                self.composer.feed(event)?;
                Ok(true)
            }
        }
    }

    fn finish(&mut self) -> Result<Read, Error> {
        let tree = std::mem::take(&mut self.composer.tree);
        if tree.root.is_none() && self.documents == Documents::One {
            return Err(Error::unlocated(Stage::Budget, "input is empty"));
        }
        let mut decoder = Decoder::new(&tree, &self.budget);
        let go = decoder.document()?;
        let value = convert::to_json(&go)?;
        let notes = std::mem::take(&mut decoder.notes).into_values().collect();
        Ok(Read { value, notes })
    }
}

/// Whether a plain scalar is a number to kubectl's YAML reader (an
/// integer in any base Go reads, with `_` anywhere; a float, `.inf` and
/// `.nan` included). Decided from the text alone, with no float parsed
/// (the editors colour with it; the page module carries no float parser).
pub fn is_number(text: &str) -> bool {
    matches!(
        resolve::kind(text),
        resolve::Kind::Int | resolve::Kind::Uint | resolve::Kind::Float
    )
}

/// Whether a plain scalar is a boolean or null to kubectl's YAML reader
/// (`true`, `yes`, `on`, `y`, `off`, `~`, `null`, ... in their casings).
pub fn is_literal(text: &str) -> bool {
    matches!(
        resolve::kind(text),
        resolve::Kind::Null | resolve::Kind::Bool(_)
    )
}
