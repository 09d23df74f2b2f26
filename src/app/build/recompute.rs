//! Bringing the Build view's results up to date. The engines compute them
//! ([`crate::engines::build`]): in the browser in a Web Worker, so typing
//! never waits for a diff and the page module holds no engine; in tests
//! and in Learn's live examples at once, in the page
//! ([`super::BuildState::recompute`]). The state only takes in what the
//! engine found ([`TextSide::take`], `BuildAction::Computed`).

use std::rc::Rc;

pub use crate::engines::build::{
    Built, ColumnResult, FieldRow, FindingResult, OpResult, Results, Revs, RoundTripResult,
    RuleText, Texts,
};
use crate::input::InputError;

/// One side of the Build view (the old or the new object): its text and
/// whether the text parses.
#[derive(Clone, Debug, PartialEq)]
pub struct TextSide {
    /// The text (shared: states are cloned on every action, texts can be
    /// megabytes).
    pub text: Rc<str>,
    /// Bumped on every change of the text.
    pub rev: u64,
    /// The error of the text of revision `parsed`, if it did not parse.
    pub error: Option<InputError>,
    /// The revision `error` belongs to (0: none parsed yet).
    pub parsed: u64,
}

impl TextSide {
    /// A text not parsed yet, at revision `rev`.
    pub fn new(text: Rc<str>, rev: u64) -> TextSide {
        TextSide {
            text,
            rev,
            error: None,
            parsed: 0,
        }
    }

    /// True when the text changed since it was parsed.
    pub fn dirty(&self) -> bool {
        self.parsed != self.rev
    }

    /// The current text's parse error (none while it is being parsed).
    pub fn current_error(&self) -> Option<&InputError> {
        self.error.as_ref().filter(|_| !self.dirty())
    }

    /// Takes in the parse of the text of revision `rev` (`error`: why it
    /// did not parse), when it is of the current text.
    pub fn take(&mut self, rev: u64, error: Option<&InputError>) {
        if rev != self.rev {
            return;
        }
        self.parsed = rev;
        self.error = error.cloned();
    }
}
