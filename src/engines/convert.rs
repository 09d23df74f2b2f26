//! Build's Convert and Format: both texts rewritten in a format, pretty
//! (the page module carries no YAML reader). Only text that parses can be
//! rewritten.

use std::rc::Rc;

use serde::{Deserialize, Serialize};

use super::build::Parses;
use super::{Caches, Question};
use crate::input::{self, Format, InputError};
use crate::strategy::Side;

/// Why Build's texts cannot be converted or formatted.
pub const CANNOT_CONVERT: &str =
    "Fix the parse error first: only text that parses can be converted or formatted.";

/// Rewrite both of Build's texts in a format.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Convert {
    /// The format to write.
    pub format: Format,
    /// The old object's text.
    pub old: Rc<str>,
    /// The new object's text.
    pub new: Rc<str>,
}

/// Why the texts cannot be rewritten: the first side that does not parse,
/// and where. Shown as [`CANNOT_CONVERT`] (the editor of that side shows
/// where).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConvertError {
    /// The side that does not parse.
    pub side: Side,
    /// Why, and where in its text.
    pub error: InputError,
}

impl std::fmt::Display for ConvertError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(CANNOT_CONVERT)
    }
}

impl Question for Convert {
    const NAME: &'static str = "convert";
    type Rev = u64;
    /// Both texts, rewritten.
    type Answer = (String, String);
    type Refusal = ConvertError;

    fn bytes(&self) -> usize {
        self.old.len() + self.new.len()
    }

    fn answer(self, caches: &mut Caches) -> Result<(String, String), ConvertError> {
        let parses = caches.get::<Parses>();
        let unparsed = |side| move |error| ConvertError { side, error };
        let old = parses.old.parse(&self.old).map_err(unparsed(Side::Old))?;
        let new = parses.new.parse(&self.new).map_err(unparsed(Side::New))?;
        Ok((
            input::write(&old, self.format),
            input::write(&new, self.format),
        ))
    }
}
